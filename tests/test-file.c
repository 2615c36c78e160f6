/* test-file.c: the atomic file writer every save goes through
 *
 * A save replaces a file only once everything is written: a write that
 * fails half-way (here the process's file size limit, as a full disk
 * would) leaves the old file whole and nothing beside it. The new file
 * keeps the old one's permissions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "lt-test-utils.h"

#include "lt-file-private.h"

/* The names in @folder, sorted, as one string. */
static char *
folder_listing (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
remove_folder (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
}

/* Run in a subprocess: writes fail past 4 KiB there. */
static void
write_past_the_limit (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-file-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GBytes) big = NULL;
  g_autoptr (LtTensor) tensor = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 64, 64);
  struct rlimit limit = { 4096, 4096 };

  g_assert_no_error (error);
  path = g_build_filename (folder, "kept.npy", NULL);
  g_assert_true (g_file_set_contents (path, "the old contents", -1, &error));

  /* A write past the limit fails with EFBIG instead of killing us. */
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

  big = g_bytes_new_take (g_malloc0 (1 << 20), 1 << 20);
  g_assert_false (lt_file_write_atomically (path, &big, 1, &error));
  g_assert_true (error != NULL && error->domain == G_FILE_ERROR);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  /* The same through a save. */
  g_assert_false (lt_tensor_save_npy (tensor, path, &error));
  g_assert_true (error != NULL && error->domain == G_FILE_ERROR);
  g_clear_error (&error);

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, "the old contents");
  listing = folder_listing (folder);
  g_assert_cmpstr (listing, ==, "kept.npy");
  remove_folder (folder);
}

static void
test_failed_write_keeps_the_old_file (void)
{
  if (g_test_subprocess ())
    {
      write_past_the_limit ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_keeps_permissions (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-file-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GBytes) part = g_bytes_new_static ("new", 3);
  GStatBuf buf;

  g_assert_no_error (error);
  path = g_build_filename (folder, "private", NULL);
  g_assert_true (g_file_set_contents (path, "old", -1, &error));
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);

  g_assert_true (lt_file_write_atomically (path, &part, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &buf), ==, 0);
  g_assert_cmpint (buf.st_mode & 07777, ==, 0640);
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, "new");
  remove_folder (folder);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file/failed-write-keeps-the-old-file", test_failed_write_keeps_the_old_file);
  g_test_add_func ("/file/keeps-permissions", test_keeps_permissions);

  return g_test_run ();
}
