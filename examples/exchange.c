/* exchange.c: a tensor handed to other libraries and back, from C
 *
 * The seed chapter's points tensor, transposed, goes out as a DLPack
 * DLManagedTensor (what NumPy's and PyTorch's from_dlpack() take) and
 * comes back as a tensor over the same memory; then it is saved as .npy
 * (numpy.load() reads it) and in a safetensors file (as PyTorch models are
 * shared) and read back. Give a folder to keep the files in it, for
 * `python3 -c "import numpy; print(numpy.load('FOLDER/points.npy'))"`;
 * without one they go to a temporary folder that is removed afterwards.
 * Exits with status 1 if anything comes back different.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <libtensor.h>

static gboolean all_same = TRUE;

static void
check (const char *what,
       gboolean    same)
{
  printf ("%-52s %s\n", what, same ? "ok" : "DIFFERENT");
  all_same = all_same && same;
}

static void
print_tensor (const char *label,
              LtTensor   *tensor)
{
  g_autofree char *text = lt_tensor_to_string (tensor);

  printf ("%s\n%s\n", label, text);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = NULL;
  g_autoptr (LtTensor) points_t = NULL;
  g_autoptr (LtTensor) shared = NULL;
  g_autoptr (LtTensor) from_npy = NULL;
  g_autoptr (GHashTable) tensors = NULL;
  g_autoptr (GHashTable) loaded = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *npy_path = NULL;
  g_autofree char *safetensors_path = NULL;
  gpointer managed;
  const gint64 origin[] = { 0, 1 };
  double value = 0;
  guint n_dims = 0;

  points = lt_tensor_new_from_literal ("[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]", &error);
  if (points != NULL)
    points_t = lt_tensor_t (points, &error);
  if (points_t == NULL)
    goto failed;
  print_tensor ("points.t():", points_t);

  /* DLPack: the DLManagedTensor a consumer would take; taking it back
   * gives a tensor over the same memory. */
  managed = lt_tensor_to_dlpack (points_t, &error);
  if (managed == NULL)
    goto failed;
  shared = lt_tensor_new_from_dlpack (managed, &error);
  if (shared == NULL)
    goto failed;
  if (!lt_tensor_set_double (shared, origin, 2, 10, &error)
      || !lt_tensor_get_double (points, (const gint64[]) { 1, 0 }, 2, &value, &error))
    goto failed;
  check ("DLPack: a write through the import reaches points", value == 10);

  folder = argc > 1 ? g_strdup (argv[1]) : g_dir_make_tmp ("exchange-XXXXXX", &error);
  if (folder == NULL)
    goto failed;

  /* .npy: the transposed view is written in Fortran order, as NumPy
   * writes it, and read back with its column-major strides. */
  npy_path = g_build_filename (folder, "points.npy", NULL);
  if (!lt_tensor_save_npy (points_t, npy_path, &error))
    goto failed;
  from_npy = lt_tensor_new_from_npy (npy_path, &error);
  if (from_npy == NULL)
    goto failed;
  check (".npy: the same values come back", lt_tensor_equal (from_npy, points_t));
  check (".npy: with the transpose's strides",
         lt_tensor_get_strides (from_npy, &n_dims)[0] == 1);

  /* safetensors: named tensors in one file. */
  safetensors_path = g_build_filename (folder, "points.safetensors", NULL);
  tensors = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (tensors, "points", points);
  g_hash_table_insert (tensors, "points_t", points_t);
  if (!lt_safetensors_save (safetensors_path, tensors, NULL, &error))
    goto failed;
  loaded = lt_safetensors_load (safetensors_path, NULL, &error);
  if (loaded == NULL)
    goto failed;
  check ("safetensors: both tensors come back",
         g_hash_table_size (loaded) == 2
         && lt_tensor_equal (g_hash_table_lookup (loaded, "points"), points)
         && lt_tensor_equal (g_hash_table_lookup (loaded, "points_t"), points_t));

  if (argc > 1)
    printf ("kept %s and %s\n", npy_path, safetensors_path);
  else
    {
      g_unlink (npy_path);
      g_unlink (safetensors_path);
      g_rmdir (folder);
    }
  return all_same ? EXIT_SUCCESS : EXIT_FAILURE;

failed:
  fprintf (stderr, "exchange: %s\n", error->message);
  return EXIT_FAILURE;
}
