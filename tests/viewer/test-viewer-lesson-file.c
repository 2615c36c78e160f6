/* test-viewer-lesson-file.c: lesson files, built-in and on disk
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer-test"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "../lt-test-utils.h"

#include "lt-viewer-lesson-file.h"

static const char *const builtin_names[] = {
  "points", "transpose-3d", "view-vs-reshape", "flatten", "expand", "unfold", "diagonal",
};

#define MINIMAL \
  "[Lesson]\n" \
  "Version=1\n" \
  "Title=Minimal\n" \
  "Contents=arange\n" \
  "Shape=3;2\n"

static LtViewerLesson *
load_text (const char *text)
{
  g_autoptr (GError) error = NULL;
  LtViewerLesson *lesson = lt_viewer_lesson_load_from_data (text, -1, "test.lesson", &error);

  g_assert_no_error (error);
  g_assert_nonnull (lesson);
  return lesson;
}

/* Two lessons are the same when everything a file records is. */
static void
assert_same_lesson (LtViewerLesson *a,
                    LtViewerLesson *b)
{
  guint n_a, n_b;
  const gint64 *shape_a = lt_viewer_lesson_get_shape (a, &n_a);
  const gint64 *shape_b = lt_viewer_lesson_get_shape (b, &n_b);
  gsize n_values_a, n_values_b;
  g_autofree double *values_a = lt_tensor_to_doubles (lt_viewer_lesson_get_base (a),
                                                      &n_values_a);
  g_autofree double *values_b = lt_tensor_to_doubles (lt_viewer_lesson_get_base (b),
                                                      &n_values_b);

  g_assert_cmpstr (lt_viewer_lesson_get_title (a), ==, lt_viewer_lesson_get_title (b));
  g_assert_cmpstr (lt_viewer_lesson_get_notes (a), ==, lt_viewer_lesson_get_notes (b));
  g_assert_cmpint (lt_viewer_lesson_get_dtype (a), ==, lt_viewer_lesson_get_dtype (b));
  g_assert_cmpint (lt_viewer_lesson_get_contents (a), ==, lt_viewer_lesson_get_contents (b));
  g_assert_cmpstr (lt_viewer_lesson_get_literal (a), ==, lt_viewer_lesson_get_literal (b));
  g_assert_cmpuint (lt_viewer_lesson_get_seed (a), ==, lt_viewer_lesson_get_seed (b));
  g_assert_cmpuint (lt_viewer_lesson_get_cells_per_row (a), ==,
                    lt_viewer_lesson_get_cells_per_row (b));
  g_assert_cmpfloat (lt_viewer_lesson_get_zoom (a), ==, lt_viewer_lesson_get_zoom (b));
  lt_test_assert_array (G_STRLOC, "shapes", shape_a, n_a, shape_b, n_b);
  g_assert_cmpuint (n_values_a, ==, n_values_b);
  for (gsize i = 0; i < n_values_a; i++)
    g_assert_cmpfloat (values_a[i], ==, values_b[i]);

  g_assert_cmpuint (lt_viewer_lesson_get_n_views (a), ==, lt_viewer_lesson_get_n_views (b));
  for (guint i = 0; i < lt_viewer_lesson_get_n_views (a); i++)
    {
      LtViewerView *x = lt_viewer_lesson_get_view (a, i);
      LtViewerView *y = lt_viewer_lesson_get_view (b, i);
      gsize n_x, n_y;
      const gint64 *indices_x = lt_viewer_view_get_storage_indices (x, &n_x);
      const gint64 *indices_y = lt_viewer_view_get_storage_indices (y, &n_y);

      g_assert_cmpstr (lt_viewer_view_get_name (x), ==, lt_viewer_view_get_name (y));
      g_assert_cmpstr (lt_viewer_view_get_color (x), ==, lt_viewer_view_get_color (y));
      g_assert_cmpstr (lt_viewer_view_get_expression (x), ==, lt_viewer_view_get_expression (y));
      lt_test_assert_array (G_STRLOC, "storage indices", indices_x, (guint) n_x, indices_y,
                            (guint) n_y);
    }
}

static void
test_builtin_list (void)
{
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  g_assert_cmpuint (g_strv_length (names), ==, G_N_ELEMENTS (builtin_names));
  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    g_assert_cmpstr (names[i], ==, builtin_names[i]);
}

static void
test_builtin_unknown (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_null (lt_viewer_lesson_load_builtin ("nope", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "points, transpose-3d"));
  g_clear_error (&error);
  g_assert_null (lt_viewer_lesson_load_builtin ("../lessons/points", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (lt_viewer_lesson_load_builtin ("", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The seed's points lesson, as the seeds write it. */
static void
test_builtin_points (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin ("points", &error);
  static const char *const expressions[] = { "t", "t[1]", "t.t()", "t.t().contiguous()" };
  static const char *const names[] = {
    "points", "points[1]", "points.t()", "points.t().contiguous()",
  };

  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_lesson_get_title (lesson), ==,
                   "points[1] is a view: offset, size and stride");
  g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_LITERAL);
  g_assert_cmpstr (lt_viewer_lesson_get_literal (lesson), ==,
                   "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]");
  g_assert_cmpint (lt_viewer_lesson_get_dtype (lesson), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 4, 1, 5, 3, 2, 1);
  g_assert_true (g_str_has_prefix (lt_viewer_lesson_get_notes (lesson),
                                   "The three points (4, 1), (5, 3) and (2, 1) live in one "
                                   "storage of six floats"));
  g_assert_nonnull (strstr (lt_viewer_lesson_get_notes (lesson), "\n\npoints[1] allocates"));

  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);

      g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, expressions[i]);
      g_assert_cmpstr (lt_viewer_view_get_name (view), ==, names[i]);
    }
  lt_assert_strides (lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (lesson, 2)), 1, 2);
  lt_assert_strides (lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (lesson, 3)), 3, 1);
  lt_assert_values (lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (lesson, 3)),
                    4, 5, 2, 1, 3, 1);
}

static void
test_builtin_shapes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) cube = lt_viewer_lesson_load_builtin ("transpose-3d", &error);
  g_autoptr (LtViewerLesson) seed = lt_viewer_lesson_load_builtin ("view-vs-reshape", &error);
  g_autoptr (LtViewerLesson) flat = lt_viewer_lesson_load_builtin ("flatten", &error);
  LtTensor *tensor;

  g_assert_no_error (error);
  tensor = lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (cube, 1));
  lt_assert_sizes (tensor, 5, 4, 3);
  lt_assert_strides (tensor, 1, 5, 20);

  tensor = lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (seed, 2));
  lt_assert_sizes (tensor, 2, 2, 2, 3);
  lt_assert_strides (tensor, 6, 12, 3, 1);
  /* The post's view(4, 2, 3) of the transpose, kept to show its error. */
  g_assert_true (lt_viewer_view_get_expect_error (lt_viewer_lesson_get_view (seed, 3)));
  g_assert_null (lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (seed, 3)));
  g_assert_nonnull (strstr (lt_viewer_view_get_error (lt_viewer_lesson_get_view (seed, 3)),
                            "cannot be viewed as (4, 2, 3) without copying"));
  g_assert_cmpstr (lt_viewer_view_get_probe (lt_viewer_lesson_get_view (seed, 2)), ==,
                   "4, 2, 3");
  tensor = lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (seed, 4));
  lt_assert_sizes (tensor, 4, 2, 3);
  lt_assert_values (tensor, 1, 2, 3, 4, 5, 6, 13, 14, 15, 16, 17, 18,
                    7, 8, 9, 10, 11, 12, 19, 20, 21, 22, 23, 24);

  g_assert_cmpint (lt_viewer_lesson_get_dtype (flat), ==, LT_DTYPE_INT64);
  tensor = lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (flat, 1));
  lt_assert_sizes (tensor, 2, 2, 4);
  lt_assert_strides (tensor, 8, 4, 1);
  lt_assert_values (tensor, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
}

/* load, save, load: the same lesson, and the same text saved twice. */
static void
test_builtin_round_trip (gconstpointer data)
{
  const char *name = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin (name, &error);
  g_autoptr (LtViewerLesson) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_again = NULL;
  gsize length;

  g_assert_no_error (error);
  text = lt_viewer_lesson_save_to_data (lesson, &length);
  g_assert_cmpuint (length, ==, strlen (text));
  again = lt_viewer_lesson_load_from_data (text, (gssize) length, "saved.lesson", &error);
  g_assert_no_error (error);
  assert_same_lesson (lesson, again);

  text_again = lt_viewer_lesson_save_to_data (again, NULL);
  g_assert_cmpstr (text, ==, text_again);
}

/* Every built-in lesson has its title and notes in Chinese. */
static void
test_builtin_translated (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_strdup_printf ("/org/libtensor/TensorViewer/lessons/%s.lesson",
                                           name);
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  const char *keys[] = { "Title", "Notes" };

  g_assert_nonnull (bytes);
  g_key_file_load_from_bytes (key_file, bytes, G_KEY_FILE_KEEP_TRANSLATIONS, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *english = g_key_file_get_string (key_file, "Lesson", keys[i], &error);
      g_autofree char *chinese = g_key_file_get_locale_string (key_file, "Lesson", keys[i],
                                                               "zh_CN", &error);

      g_assert_no_error (error);
      g_assert_cmpstr (english, !=, chinese);
      /* Chinese text: mostly outside ASCII. */
      g_assert_cmpuint (g_utf8_strlen (chinese, -1), <, strlen (chinese));
    }
}

#define LOCALIZED \
  "[Lesson]\n" \
  "Version=1\n" \
  "Title=Points\n" \
  "Title[zh_CN]=点\n" \
  "Title[de]=Punkte\n" \
  "Notes=Row by row.\n" \
  "Notes[zh_CN]=逐行存放。\n" \
  "Contents=literal\n" \
  "Literal=[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]\n" \
  "\n" \
  "[View 1]\n" \
  "Name=second point\n" \
  "Name[zh_CN]=第二个点\n" \
  "Expression=t[1]\n"

static void
set_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  g_setenv ("LC_ALL", language, TRUE);
}

static void
test_localized (void)
{
  g_autoptr (LtViewerLesson) english = NULL;
  g_autoptr (LtViewerLesson) chinese = NULL;
  g_autoptr (LtViewerLesson) reloaded = NULL;
  g_autoptr (LtViewerLesson) builtin = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *edited = NULL;
  g_autoptr (GError) error = NULL;

  set_language ("C");
  english = load_text (LOCALIZED);
  g_assert_cmpstr (lt_viewer_lesson_get_title (english), ==, "Points");
  g_assert_cmpstr (lt_viewer_lesson_get_notes (english), ==, "Row by row.");
  g_assert_cmpstr (lt_viewer_view_get_name (lt_viewer_lesson_get_view (english, 0)), ==,
                   "second point");
  /* Without a DType, a literal keeps its own, as torch.tensor() infers. */
  g_assert_cmpint (lt_viewer_lesson_get_dtype (english), ==, LT_DTYPE_FLOAT32);

  set_language ("zh_CN");
  chinese = load_text (LOCALIZED);
  g_assert_cmpstr (lt_viewer_lesson_get_title (chinese), ==, "点");
  g_assert_cmpstr (lt_viewer_lesson_get_notes (chinese), ==, "逐行存放。");
  g_assert_cmpstr (lt_viewer_view_get_name (lt_viewer_lesson_get_view (chinese, 0)), ==,
                   "第二个点");
  builtin = lt_viewer_lesson_load_builtin ("points", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_lesson_get_title (builtin), ==,
                   "points[1] 是一个视图:偏移、尺寸与步长");

  /* Saving writes the untranslated values with their translations. */
  saved = lt_viewer_lesson_save_to_data (chinese, NULL);
  g_assert_nonnull (strstr (saved, "\nTitle=Points\n"));
  g_assert_nonnull (strstr (saved, "\nTitle[zh_CN]=点\n"));
  g_assert_nonnull (strstr (saved, "\nTitle[de]=Punkte\n"));
  g_assert_nonnull (strstr (saved, "\nNotes=Row by row.\n"));
  g_assert_nonnull (strstr (saved, "\nName=second point\n"));
  g_assert_nonnull (strstr (saved, "\nName[zh_CN]=第二个点\n"));

  set_language ("C");
  reloaded = load_text (saved);
  g_assert_cmpstr (lt_viewer_lesson_get_title (reloaded), ==, "Points");
  assert_same_lesson (english, reloaded);

  /* An edited title is saved as it is now; the old translations no longer
   * say the same and are dropped. */
  lt_viewer_lesson_set_title (chinese, "新的标题");
  edited = lt_viewer_lesson_save_to_data (chinese, NULL);
  g_assert_nonnull (strstr (edited, "\nTitle=新的标题\n"));
  g_assert_null (strstr (edited, "Title[zh_CN]"));
  g_assert_nonnull (strstr (edited, "\nNotes[zh_CN]=逐行存放。\n"));

  g_unsetenv ("LANGUAGE");
  g_unsetenv ("LC_ALL");
}

typedef struct
{
  const char *name;
  const char *text;
  gssize length;
  GQuark (*domain) (void);
  int code;
  const char *message; /* part of the message, after the file name */
} Malformed;

#define LESSON_HEAD "[Lesson]\nVersion=1\nTitle=T\n"

static GQuark
file_error (void)
{
  return LT_VIEWER_LESSON_FILE_ERROR;
}

static void
test_malformed (void)
{
  static const Malformed cases[] = {
    { "empty", "", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON,
      "the group [Lesson] is missing" },
    { "prose", "Hello, this is not a lesson.\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, "not a lesson: " },
    { "missing group", "[Other]\nA=1\n", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON,
      "the group [Lesson] is missing" },
    { "binary junk", "\x7f" "ELF\x02\x01\x01\x00\x00\x00\xff\xfe", 12, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, "not UTF-8 text" },
    { "nul inside", MINIMAL "\0Notes=x\n", sizeof (MINIMAL "\0Notes=x\n") - 1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, "not UTF-8 text (byte 60)" },
    { "latin-1", "[Lesson]\nVersion=1\nTitle=caf\xe9\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, "not UTF-8 text (byte 29)" },
    { "newer version", "[Lesson]\nVersion=2\nFuture=yes\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_VERSION,
      "group [Lesson], key Version: version 2 is newer than this Tensor Viewer reads" },
    { "version zero", "[Lesson]\nVersion=0\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_VERSION, "key Version: version 0 is not a version" },
    { "version words", "[Lesson]\nVersion=one\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Version: 'one' is not a version number" },
    { "missing version", "[Lesson]\nTitle=T\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Version: the key is missing" },
    { "missing title", "[Lesson]\nVersion=1\nContents=zeros\nShape=2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Title: the key is missing" },
    { "missing contents", LESSON_HEAD "Shape=2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Contents: the key is missing" },
    { "unknown contents", LESSON_HEAD "Contents=ones\nShape=2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Contents: 'ones' is not one of" },
    { "unknown dtype", LESSON_HEAD "DType=float33\nContents=zeros\nShape=2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key DType: unknown dtype 'float33'" },
    { "missing shape", LESSON_HEAD "Contents=zeros\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Shape: the key is missing" },
    { "bad shape", LESSON_HEAD "Contents=zeros\nShape=3;x\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Shape: '3;x' is not a list of sizes" },
    { "negative shape", LESSON_HEAD "Contents=zeros\nShape=-3\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Shape: '-3' is not a list of sizes" },
    { "huge shape", LESSON_HEAD "Contents=zeros\nShape=100000;100000\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson]: the base tensor cannot be made" },
    { "too many dims", LESSON_HEAD "Contents=zeros\nShape=1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;"
      "1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;"
      "1;1;1;1\n", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "key Shape: '1;1;1;" },
    { "missing literal", LESSON_HEAD "Contents=literal\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Literal: the key is missing" },
    { "bad literal", LESSON_HEAD "Contents=literal\nLiteral=[[1, 2], [3]]\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Literal: " },
    { "bad literal with dtype",
      LESSON_HEAD "DType=float32\nContents=literal\nLiteral=[1, 2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Literal: " },
    { "literal with a character", LESSON_HEAD "Contents=literal\nLiteral=[1, 点]\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Literal: " },
    { "cells per row zero", MINIMAL "CellsPerRow=0\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "key CellsPerRow: '0' is not a number of cells from 1 to 4096" },
    { "cells per row huge", MINIMAL "CellsPerRow=4097\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key CellsPerRow: '4097' is not a number of cells" },
    { "cells per row words", MINIMAL "CellsPerRow=four\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key CellsPerRow: 'four' is not a number of cells" },
    { "zoom too small", MINIMAL "Zoom=0.2\n", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "key Zoom: '0.2' is not a zoom from 0.25 to 4, such as 1.5" },
    { "zoom with a comma", MINIMAL "Zoom=1,5\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Zoom: '1,5' is not a zoom" },
    { "zoom nan", MINIMAL "Zoom=nan\n", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "key Zoom: 'nan' is not a zoom" },
    { "zoom empty", MINIMAL "Zoom=\n", -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "key Zoom: '' is not a zoom" },
    { "bad seed", LESSON_HEAD "Contents=random\nShape=2\nSeed=-1\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Seed: '-1' is not a seed" },
    { "random ints", LESSON_HEAD "DType=int32\nContents=random\nShape=2\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson]: the base tensor cannot be made" },
    { "bad escape", "[Lesson]\nVersion=1\nTitle=a\\\nContents=zeros\nShape=2\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Title: " },
    { "invalid escape", "[Lesson]\nVersion=1\nTitle=a\\qb\nContents=zeros\nShape=2\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [Lesson], key Title: the value on line 3 has the escape '\\q', which is not one of "
      "\\n, \\t, \\r, \\s and \\\\" },
    /* GLib 2.74's GKeyFile sets its error twice for this one. */
    { "two bad escapes", "[Lesson]\nVersion=1\nTitle=T\nNotes=a\\q\\\nContents=zeros\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Notes: the value on "
      "line 4 has the escape '\\q'" },
    { "unknown key", MINIMAL "Titel=typo\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson], key Titel: unknown key" },
    { "translated dtype", MINIMAL "DType[zh_CN]=float32\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key DType[zh_CN]: DType cannot be translated" },
    { "duplicate key", MINIMAL "Title=Again\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [Lesson], key Title: the key appears a second time on line 6" },
    { "duplicate group", MINIMAL "[View 1]\nExpression=t\n[View 1]\nExpression=t.t()\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [View 1]: the group appears a second time on line 8" },
    { "duplicate lesson group", MINIMAL "[Lesson]\nNotes=x\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [Lesson]: the group appears a second time" },
    { "unknown group", MINIMAL "[view 1]\nExpression=t\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [view 1]: unknown group" },
    { "view zero", MINIMAL "[View 0]\nExpression=t\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 0]: unknown group" },
    { "view leading zero", MINIMAL "[View 01]\nExpression=t\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 01]: unknown group" },
    { "missing expression", MINIMAL "[View 1]\nName=x\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 1], key Expression: the key is missing" },
    { "bad expression", MINIMAL "[View 1]\nName=v\nExpression=t.veiw(2)\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [View 1], key Expression: the view v cannot be made: expression 't.veiw(2)': "
      "unknown method 'veiw'" },
    { "failing expression", MINIMAL "[View 2]\nExpression=t.t().view(-1)\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [View 2], key Expression: the view t.t().view(-1) cannot be made: t.t().view(-1): "
      "view(6): " },
    { "bad colour", MINIMAL "[View 1]\nColor=blue\nExpression=t\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 1], key Color: 'blue' is not a colour" },
    { "expected error that does not come", MINIMAL "[View 1]\nExpression=t[1]\nExpect=error\n",
      -1, file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID,
      "group [View 1], key Expression: the view t[1] cannot be made: the view t[1] is meant to "
      "fail, but t[1] evaluates without an error" },
    { "bad expect", MINIMAL "[View 1]\nExpression=t.view(5)\nExpect=yes\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 1], key Expect: 'yes' is not something" },
    { "bad probe", MINIMAL "[View 1]\nExpression=t\nProbe=four\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_INVALID, "group [View 1], key Probe: 'four' is not a shape" },
    { "translated expression", MINIMAL "[View 1]\nExpression=t\nExpression[zh_CN]=t.t()\n", -1,
      file_error, LT_VIEWER_LESSON_FILE_ERROR_INVALID, "key Expression[zh_CN]: Expression cannot "
      "be translated" },
    { "key before group", "Version=1\n[Lesson]\n", -1, file_error,
      LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, "not a lesson: " },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Malformed *c = &cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (LtViewerLesson) lesson = NULL;

      lesson = lt_viewer_lesson_load_from_data (c->text, c->length, "test.lesson", &error);
      g_test_message ("%s: %s", c->name, error != NULL ? error->message : "(no error)");
      g_assert_null (lesson);
      g_assert_error (error, c->domain (), c->code);
      g_assert_true (g_str_has_prefix (error->message, "test.lesson: "));
      g_assert_nonnull (strstr (error->message, c->message));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
}

static void
test_too_many_views (void)
{
  g_autoptr (GString) text = g_string_new (MINIMAL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) full = NULL;
  g_autoptr (LtViewerLesson) over = NULL;

  for (guint i = 1; i <= 32; i++)
    g_string_append_printf (text, "\n[View %u]\nExpression=t[%u:]\n", i, i % 3);
  full = lt_viewer_lesson_load_from_data (text->str, -1, "test.lesson", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (full), ==, 32);

  g_string_append (text, "\n[View 33]\nExpression=t\n");
  over = lt_viewer_lesson_load_from_data (text->str, -1, "test.lesson", &error);
  g_assert_null (over);
  g_assert_error (error, LT_VIEWER_LESSON_FILE_ERROR, LT_VIEWER_LESSON_FILE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "test.lesson: the file has 33 views; a lesson has at most 32");
}

/* Views come in the order of their numbers, whatever the order of the
 * groups; optional keys take their defaults. */
static void
test_defaults_and_order (void)
{
  g_autoptr (LtViewerLesson) lesson = load_text ("# A comment\n"
                                                 "[View 10]\n"
                                                 "Expression=t[1]\n"
                                                 "\n"
                                                 "[Lesson]\n"
                                                 "Version = 1\n"
                                                 "Title=Order\n"
                                                 "Contents=random\n"
                                                 "Shape=2;3;\n"
                                                 "X-Editor=vim\n"
                                                 "\n"
                                                 "[View 2]\n"
                                                 "Expression=t.t()\n"
                                                 "Color=#E01B24\n");
  guint n_dims;
  const gint64 *shape = lt_viewer_lesson_get_shape (lesson, &n_dims);

  g_assert_cmpstr (lt_viewer_lesson_get_notes (lesson), ==, "");
  g_assert_cmpint (lt_viewer_lesson_get_dtype (lesson), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpuint (lt_viewer_lesson_get_seed (lesson), ==, 0);
  lt_test_assert_array (G_STRLOC, "shape", shape, n_dims, I64S (2, 3), 2);
  g_assert_cmpstr (lt_viewer_view_get_expression (lt_viewer_lesson_get_view (lesson, 0)), ==,
                   "t.t()");
  g_assert_cmpstr (lt_viewer_view_get_color (lt_viewer_lesson_get_view (lesson, 0)), ==,
                   "#e01b24");
  g_assert_cmpstr (lt_viewer_view_get_expression (lt_viewer_lesson_get_view (lesson, 1)), ==,
                   "t[1]");
  /* No name: the expression; no colour: the first free one of the palette. */
  g_assert_cmpstr (lt_viewer_view_get_name (lt_viewer_lesson_get_view (lesson, 1)), ==, "t[1]");
  g_assert_cmpstr (lt_viewer_view_get_color (lt_viewer_lesson_get_view (lesson, 1)), ==,
                   "#0072b2");
}

/* What other editors write: CRLF line ends, a byte order mark. */
static void
test_crlf_and_bom (void)
{
  g_autoptr (LtViewerLesson) crlf = load_text ("[Lesson]\r\nVersion=1\r\nTitle=CRLF\r\n"
                                               "Contents=arange\r\nShape=3;2\r\n\r\n"
                                               "[View 1]\r\nExpression=t.t()\r\n");
  g_autoptr (LtViewerLesson) bom = load_text ("\xef\xbb\xbf[Lesson]\nVersion=1\nTitle=BOM\n"
                                              "Contents=zeros\nShape=3\n");

  g_assert_cmpstr (lt_viewer_lesson_get_title (crlf), ==, "CRLF");
  g_assert_cmpstr (lt_viewer_view_get_expression (lt_viewer_lesson_get_view (crlf, 0)), ==,
                   "t.t()");
  g_assert_cmpstr (lt_viewer_lesson_get_title (bom), ==, "BOM");
}

static void
test_scalar_and_seed_round_trip (void)
{
  g_autoptr (LtViewerLesson) scalar = load_text ("[Lesson]\nVersion=1\nTitle=S\nDType=int16\n"
                                                 "Contents=zeros\nShape=\n");
  g_autoptr (LtViewerLesson) random = load_text ("[Lesson]\nVersion=1\nTitle=R\n"
                                                 "Contents=random\nShape=4\n"
                                                 "Seed=18446744073709551615\n");
  g_autofree char *scalar_text = lt_viewer_lesson_save_to_data (scalar, NULL);
  g_autofree char *random_text = lt_viewer_lesson_save_to_data (random, NULL);
  g_autoptr (LtViewerLesson) scalar_again = load_text (scalar_text);
  g_autoptr (LtViewerLesson) random_again = load_text (random_text);
  guint n_dims;

  lt_viewer_lesson_get_shape (scalar, &n_dims);
  g_assert_cmpuint (n_dims, ==, 0);
  g_assert_nonnull (strstr (scalar_text, "\nShape=\n"));
  g_assert_nonnull (strstr (scalar_text, "\nDType=int16\n"));
  g_assert_null (strstr (scalar_text, "Seed"));
  g_assert_nonnull (strstr (random_text, "\nSeed=18446744073709551615\n"));
  assert_same_lesson (scalar, scalar_again);
  assert_same_lesson (random, random_again);
}

/* CellsPerRow and Zoom: read, kept, written only when set. */
static void
test_geometry_round_trip (void)
{
  g_autoptr (LtViewerLesson) plain = load_text (MINIMAL);
  g_autoptr (LtViewerLesson) shaped = load_text (MINIMAL "CellsPerRow= 4 \nZoom=1.5\n");
  g_autofree char *plain_text = lt_viewer_lesson_save_to_data (plain, NULL);
  g_autofree char *shaped_text = lt_viewer_lesson_save_to_data (shaped, NULL);
  g_autoptr (LtViewerLesson) shaped_again = load_text (shaped_text);

  g_assert_cmpuint (lt_viewer_lesson_get_cells_per_row (plain), ==, 0);
  g_assert_cmpfloat (lt_viewer_lesson_get_zoom (plain), ==, 0);
  g_assert_null (strstr (plain_text, "CellsPerRow"));
  g_assert_null (strstr (plain_text, "Zoom"));

  g_assert_cmpuint (lt_viewer_lesson_get_cells_per_row (shaped), ==, 4);
  g_assert_cmpfloat (lt_viewer_lesson_get_zoom (shaped), ==, 1.5);
  g_assert_nonnull (strstr (shaped_text, "\nCellsPerRow=4\n"));
  g_assert_nonnull (strstr (shaped_text, "\nZoom=1.5\n"));
  assert_same_lesson (shaped, shaped_again);

  /* The extremes. */
  {
    g_autoptr (LtViewerLesson) small = load_text (MINIMAL "CellsPerRow=1\nZoom=0.25\n");
    g_autoptr (LtViewerLesson) large = load_text (MINIMAL "CellsPerRow=4096\nZoom=4\n");

    g_assert_cmpuint (lt_viewer_lesson_get_cells_per_row (small), ==, 1);
    g_assert_cmpfloat (lt_viewer_lesson_get_zoom (small), ==, 0.25);
    g_assert_cmpuint (lt_viewer_lesson_get_cells_per_row (large), ==, 4096);
    g_assert_cmpfloat (lt_viewer_lesson_get_zoom (large), ==, 4);
  }
}

/* Byte flips, cuts and repeats of the built-in lessons: never a crash,
 * always a lesson or an error in the lesson file domain. */
static void
test_fuzz (void)
{
  guint rounds = g_test_thorough () ? 20000 : 2000;

  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    {
      g_autofree char *path = g_strdup_printf ("/org/libtensor/TensorViewer/lessons/%s.lesson",
                                               builtin_names[i]);
      g_autoptr (GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE,
                                                          NULL);
      gsize length;
      const char *original = g_bytes_get_data (bytes, &length);

      for (guint r = 0; r < rounds / G_N_ELEMENTS (builtin_names); r++)
        {
          g_autoptr (GByteArray) text = g_byte_array_new ();
          g_autoptr (GError) error = NULL;
          g_autoptr (LtViewerLesson) lesson = NULL;
          guint n_changes = (guint) g_test_rand_int_range (1, 5);

          g_byte_array_append (text, (const guint8 *) original, (guint) length);
          for (guint c = 0; c < n_changes && text->len > 0; c++)
            {
              guint at = (guint) g_test_rand_int_range (0, (gint32) text->len);

              switch (g_test_rand_int_range (0, 4))
                {
                case 0:
                  text->data[at] = (guint8) g_test_rand_int_range (0, 256);
                  break;
                case 1:
                  g_byte_array_set_size (text, at);
                  break;
                case 2:
                  g_byte_array_remove_index (text, at);
                  break;
                default:
                  {
                    guint span = (guint) g_test_rand_int_range (1, 80);
                    guint end = MIN (text->len, at + span);
                    g_autofree guint8 *piece = g_memdup2 (text->data + at, end - at);
                    g_byte_array_append (text, piece, end - at);
                  }
                }
            }

          lesson = lt_viewer_lesson_load_from_data ((const char *) text->data, (gssize) text->len,
                                                    "fuzz.lesson", &error);
          if (lesson == NULL)
            {
              g_assert_error (error, LT_VIEWER_LESSON_FILE_ERROR, error->code);
              g_assert_true (g_utf8_validate (error->message, -1, NULL));
            }
          else
            g_assert_no_error (error);
        }
    }
}

static GFile *
temp_file (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-viewer-lesson-file-XXXXXX", &error);

  g_assert_no_error (error);
  return g_file_new_build_filename (dir, name, NULL);
}

static void
remove_temp (GFile *file)
{
  g_autoptr (GFile) dir = g_file_get_parent (file);
  g_autofree char *dir_path = g_file_get_path (dir);
  g_autoptr (GDir) listing = g_dir_open (dir_path, 0, NULL);
  const char *name;

  g_chmod (dir_path, 0700);
  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir_path);
}

static char *
read_file (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, NULL);
  return contents;
}

static void
test_save_and_load_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = temp_file ("points.lesson");
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin ("points", &error);
  g_autoptr (LtViewerLesson) loaded = NULL;
  g_autoptr (GFile) missing = NULL;
  g_autoptr (GFile) dir = NULL;

  g_assert_no_error (error);
  g_assert_true (lt_viewer_lesson_save_to_file (lesson, file, &error));
  g_assert_no_error (error);
  loaded = lt_viewer_lesson_load_from_file (file, &error);
  g_assert_no_error (error);
  assert_same_lesson (lesson, loaded);

  /* Saving again replaces the file. */
  lt_viewer_lesson_set_title (lesson, "Changed");
  g_assert_true (lt_viewer_lesson_save_to_file (lesson, file, &error));
  g_clear_object (&loaded);
  loaded = lt_viewer_lesson_load_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_lesson_get_title (loaded), ==, "Changed");

  dir = g_file_get_parent (file);
  missing = g_file_get_child (dir, "missing.lesson");
  g_assert_null (lt_viewer_lesson_load_from_file (missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_null (lt_viewer_lesson_load_from_file (dir, &error));
  g_assert_error (error, LT_VIEWER_LESSON_FILE_ERROR, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON);
  g_assert_nonnull (strstr (error->message, "it is a folder"));

  remove_temp (file);
}

static void
test_load_file_names_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = temp_file ("broken.lesson");
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *prefix = g_strconcat (path, ": group [Lesson], key Version: ", NULL);

  g_file_set_contents (path, "[Lesson]\nVersion=7\n", -1, &error);
  g_assert_no_error (error);
  g_assert_null (lt_viewer_lesson_load_from_file (file, &error));
  g_assert_error (error, LT_VIEWER_LESSON_FILE_ERROR, LT_VIEWER_LESSON_FILE_ERROR_VERSION);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  remove_temp (file);
}

#define OLD_CONTENTS "[Lesson]\nVersion=1\nTitle=Old\nContents=zeros\nShape=1\n"

/* The directory cannot be written: the save fails, the old file stays. */
static void
test_save_unwritable_dir (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = temp_file ("kept.lesson");
  g_autoptr (GFile) dir = g_file_get_parent (file);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *dir_path = g_file_get_path (dir);
  g_autofree char *contents = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin ("points", &error);

  g_assert_no_error (error);
  g_file_set_contents (path, OLD_CONTENTS, -1, &error);
  g_assert_no_error (error);

  if (geteuid () == 0)
    {
      remove_temp (file);
      g_test_skip ("root writes into read-only directories; see the RLIMIT_FSIZE test");
      return;
    }

  g_assert_cmpint (g_chmod (dir_path, 0500), ==, 0);
  g_assert_false (lt_viewer_lesson_save_to_file (lesson, file, &error));
  g_assert_nonnull (error);
  contents = read_file (file);
  g_assert_cmpstr (contents, ==, OLD_CONTENTS);
  remove_temp (file);
}

/* The write itself fails half-way (here: the file size limit, which binds
 * root too): the old file stays, and no temporary file is left. */
static void
test_save_write_fails (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GFile) file = temp_file ("kept.lesson");
      g_autoptr (GFile) dir = g_file_get_parent (file);
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *dir_path = g_file_get_path (dir);
      g_autofree char *contents = NULL;
      g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin ("points", &error);
      g_autoptr (GDir) listing = NULL;
      struct rlimit limit = { 100, 100 };
      guint n_files = 0;

      g_assert_no_error (error);
      g_file_set_contents (path, OLD_CONTENTS, -1, &error);
      g_assert_no_error (error);

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

      g_assert_false (lt_viewer_lesson_save_to_file (lesson, file, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      contents = read_file (file);
      g_assert_cmpstr (contents, ==, OLD_CONTENTS);

      listing = g_dir_open (dir_path, 0, NULL);
      while (g_dir_read_name (listing) != NULL)
        n_files++;
      g_assert_cmpuint (n_files, ==, 1);

      remove_temp (file);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/lesson-file/builtin/list", test_builtin_list);
  g_test_add_func ("/viewer/lesson-file/builtin/unknown", test_builtin_unknown);
  g_test_add_func ("/viewer/lesson-file/builtin/points", test_builtin_points);
  g_test_add_func ("/viewer/lesson-file/builtin/shapes", test_builtin_shapes);
  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    {
      g_autofree char *round_trip = g_strdup_printf ("/viewer/lesson-file/builtin/round-trip/%s",
                                                     builtin_names[i]);
      g_autofree char *translated = g_strdup_printf ("/viewer/lesson-file/builtin/translated/%s",
                                                     builtin_names[i]);

      g_test_add_data_func (round_trip, builtin_names[i], test_builtin_round_trip);
      g_test_add_data_func (translated, builtin_names[i], test_builtin_translated);
    }
  g_test_add_func ("/viewer/lesson-file/localized", test_localized);
  g_test_add_func ("/viewer/lesson-file/malformed", test_malformed);
  g_test_add_func ("/viewer/lesson-file/too-many-views", test_too_many_views);
  g_test_add_func ("/viewer/lesson-file/defaults-and-order", test_defaults_and_order);
  g_test_add_func ("/viewer/lesson-file/scalar-and-seed", test_scalar_and_seed_round_trip);
  g_test_add_func ("/viewer/lesson-file/crlf-and-bom", test_crlf_and_bom);
  g_test_add_func ("/viewer/lesson-file/geometry", test_geometry_round_trip);
  g_test_add_func ("/viewer/lesson-file/fuzz", test_fuzz);
  g_test_add_func ("/viewer/lesson-file/file/save-and-load", test_save_and_load_file);
  g_test_add_func ("/viewer/lesson-file/file/names-file", test_load_file_names_file);
  g_test_add_func ("/viewer/lesson-file/file/save-unwritable-dir", test_save_unwritable_dir);
  g_test_add_func ("/viewer/lesson-file/file/save-write-fails", test_save_write_fails);

  return g_test_run ();
}
