/* points.c: the seeds' first lesson, walked through with libtensor
 *
 * A tensor is a storage plus sizes, strides and an offset. This prints the
 * points tensor of "Deep Learning with PyTorch", chapter 3, then points[1],
 * points.t() and points.t().contiguous(): what each view reaches in the
 * storage, and which of them copy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>

#include <libtensor.h>

static void
print_shape (const char   *label,
             const gint64 *values,
             guint         n)
{
  printf ("%s (", label);
  for (guint i = 0; i < n; i++)
    printf ("%s%" G_GINT64_FORMAT, i ? ", " : "", values[i]);
  printf (n == 1 ? ",)" : ")");
}

static void
print_storage (LtStorage *storage)
{
  g_autoptr (GError) error = NULL;

  printf ("  storage   ");
  for (gint64 i = 0; i < lt_storage_get_n_elements (storage); i++)
    {
      double value;

      if (!lt_storage_get_double (storage, i, &value, &error))
        g_error ("%s", error->message);
      printf (" %g", value);
    }
  printf ("   (%s, %" G_GINT64_FORMAT " elements)\n",
          lt_dtype_get_name (lt_storage_get_dtype (storage)), lt_storage_get_n_elements (storage));
}

static void
describe (const char *name,
          LtTensor   *tensor)
{
  g_autofree char *text = lt_tensor_to_string (tensor);
  g_autofree gint64 *cells = NULL;
  const gint64 *sizes, *strides;
  guint n_dims;
  gsize n_cells;

  printf ("%s = %s\n", name, text);
  print_storage (lt_tensor_get_storage (tensor));

  sizes = lt_tensor_get_sizes (tensor, &n_dims);
  strides = lt_tensor_get_strides (tensor, &n_dims);
  print_shape ("  sizes", sizes, n_dims);
  print_shape (", strides", strides, n_dims);
  printf (", storage offset %" G_GINT64_FORMAT ", %s\n", lt_tensor_get_storage_offset (tensor),
          lt_tensor_is_contiguous (tensor) ? "contiguous" : "not contiguous");

  printf ("  element [");
  for (guint d = 0; d < n_dims; d++)
    printf ("%s%c", d ? ", " : "", 'i' + d);
  printf ("] is storage[%" G_GINT64_FORMAT, lt_tensor_get_storage_offset (tensor));
  for (guint d = 0; d < n_dims; d++)
    printf (" + %" G_GINT64_FORMAT "*%c", strides[d], 'i' + d);
  printf ("]\n");

  /* No GError: the indices of these few elements always fit in memory. */
  cells = lt_tensor_get_storage_indices (tensor, &n_cells, NULL);
  print_shape ("  storage cells in row-major order:", cells, (guint) n_cells);
  printf ("\n\n");
}

int
main (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = NULL;
  g_autoptr (LtTensor) second = NULL;
  g_autoptr (LtTensor) points_t = NULL;
  g_autoptr (LtTensor) points_t_cont = NULL;

  points = lt_tensor_new_from_literal ("[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]", &error);
  if (points == NULL)
    goto fail;
  describe ("points", points);

  second = lt_tensor_index (points, "[1]", &error);
  if (second == NULL)
    goto fail;
  describe ("points[1]", second);
  printf ("points[1] shares the storage of points: %s\n\n",
          lt_tensor_shares_storage (second, points) ? "yes" : "no");

  points_t = lt_tensor_t (points, &error);
  if (points_t == NULL)
    goto fail;
  describe ("points.t()", points_t);

  points_t_cont = lt_tensor_contiguous (points_t, &error);
  if (points_t_cont == NULL)
    goto fail;
  describe ("points.t().contiguous()", points_t_cont);
  printf ("points.t().contiguous() shares the storage of points: %s\n",
          lt_tensor_shares_storage (points_t_cont, points) ? "yes" : "no (it is a copy)");

  return EXIT_SUCCESS;

fail:
  fprintf (stderr, "points: %s\n", error->message);
  return EXIT_FAILURE;
}
