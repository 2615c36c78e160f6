/* fuzz-lesson-file.c: Tensor Viewer's lesson files from bytes
 *
 * A lesson that loads must save to text that loads again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "fuzz-common.h"

#include "lt-viewer-lesson-file.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_from_data ((const char *) data,
                                                                        (gssize) size,
                                                                        "fuzzed.lesson", &error);
  g_autofree char *saved = NULL;
  g_autoptr (LtViewerLesson) again = NULL;
  gsize length = 0;

  g_assert ((lesson == NULL) != (error == NULL));
  if (lesson == NULL)
    return 0;
  saved = lt_viewer_lesson_save_to_data (lesson, &length);
  again = lt_viewer_lesson_load_from_data (saved, (gssize) length, "saved.lesson", &error);
  g_assert_no_error (error);
  g_assert (again != NULL);
  return 0;
}
