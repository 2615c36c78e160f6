/* fuzz-replay.c: a fuzz target's main() without libFuzzer
 *
 * Runs the target over every file named on the command line, and every
 * file in every folder named, so that the seed corpus and each input that
 * once failed run in the ordinary test suite (and under its sanitizers).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>

#include "fuzz-common.h"

static guint n_inputs;

static void
replay (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, &error);
      const char *name;

      if (dir == NULL)
        g_error ("%s", error->message);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          replay (child);
        }
      return;
    }
  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);
  LLVMFuzzerTestOneInput ((const guint8 *) contents, length);
  n_inputs++;
}

int
main (int   argc,
      char *argv[])
{
  for (int i = 1; i < argc; i++)
    replay (argv[i]);
  if (n_inputs == 0)
    g_error ("no inputs to replay");
  printf ("%u inputs replayed\n", n_inputs);
  return 0;
}
