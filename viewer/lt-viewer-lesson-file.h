/* lt-viewer-lesson-file.h: reading and writing lessons as text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

/* The error domain of lesson files: the file is not a lesson, or a key has a
 * value that cannot be used; the message names the file, the group and key,
 * and what was expected. Library errors (a bad expression, a bad literal)
 * are wrapped into LT_VIEWER_LESSON_FILE_ERROR_INVALID with the view named. */
#define LT_VIEWER_LESSON_FILE_ERROR (lt_viewer_lesson_file_error_quark ())

typedef enum
{
  LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON,
  LT_VIEWER_LESSON_FILE_ERROR_VERSION,
  LT_VIEWER_LESSON_FILE_ERROR_INVALID,
} LtViewerLessonFileError;

GQuark          lt_viewer_lesson_file_error_quark (void);

/* The format (documented in data/lessons/README.md) is a GKeyFile:
 *
 *   [Lesson]
 *   Version=1
 *   Title=points[1] is a view
 *   Title[zh_CN]=...
 *   Notes=...
 *   DType=float32
 *   Contents=literal | arange | zeros | random
 *   Literal=[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]   (for literal)
 *   Shape=3;2                                         (otherwise)
 *   Seed=42                                           (for random)
 *
 *   [View 1]
 *   Name=points[1]
 *   Color=#3584e4
 *   Expression=t[1]
 *
 * with one [View N] group per view, in order. Title, Notes and Name may be
 * translated with [locale] keys as in desktop files. */
LtViewerLesson *lt_viewer_lesson_load_from_data   (const char      *data,
                                                   gssize           length,
                                                   const char      *name_for_errors,
                                                   GError         **error);
LtViewerLesson *lt_viewer_lesson_load_from_file   (GFile           *file,
                                                   GError         **error);
char           *lt_viewer_lesson_save_to_data     (LtViewerLesson  *lesson,
                                                   gsize           *length);
/* Writes to a temporary file and renames it into place, so that a failure
 * leaves any previous file intact. */
gboolean        lt_viewer_lesson_save_to_file     (LtViewerLesson  *lesson,
                                                   GFile           *file,
                                                   GError         **error);

/* The built-in lessons, compiled into the viewer's GResource under
 * /org/libtensor/TensorViewer/lessons/NAME.lesson. */
char          **lt_viewer_lesson_list_builtin     (void);
LtViewerLesson *lt_viewer_lesson_load_builtin     (const char      *name,
                                                   GError         **error);

G_END_DECLS
