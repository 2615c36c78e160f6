/* test-viewer-lesson.c: lessons, their views and the cells they reach
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer-test"

#include "../lt-test-utils.h"

#include "lt-viewer-lesson.h"
#include "lt-viewer-lesson-file.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"

static void
assert_masks (const char    *location,
              const char    *what,
              const guint32 *actual,
              gsize          n_actual,
              const guint32 *expected,
              gsize          n_expected)
{
  g_autofree gint64 *wide_actual = g_new (gint64, MAX (n_actual, 1));
  g_autofree gint64 *wide_expected = g_new (gint64, MAX (n_expected, 1));

  for (gsize i = 0; i < n_actual; i++)
    wide_actual[i] = actual[i];
  for (gsize i = 0; i < n_expected; i++)
    wide_expected[i] = expected[i];
  lt_test_assert_array (location, what, wide_actual, (guint) n_actual, wide_expected,
                        (guint) n_expected);
}

#define U32S(...) ((const guint32[]) { __VA_ARGS__ })
#define N_U32S(...) (sizeof ((const guint32[]) { __VA_ARGS__ }) / sizeof (guint32))

#define assert_cell_views(lesson, ...) \
  G_STMT_START { \
    gsize n_; \
    const guint32 *masks_ = lt_viewer_lesson_get_cell_views ((lesson), &n_); \
    assert_masks (G_STRLOC, "cell views", masks_, n_, U32S (__VA_ARGS__), N_U32S (__VA_ARGS__)); \
  } G_STMT_END

#define assert_cell_aliases(lesson, ...) \
  G_STMT_START { \
    gsize n_; \
    const guint32 *masks_ = lt_viewer_lesson_get_cell_aliases ((lesson), &n_); \
    assert_masks (G_STRLOC, "cell aliases", masks_, n_, U32S (__VA_ARGS__), \
                  N_U32S (__VA_ARGS__)); \
  } G_STMT_END

/* Records what a lesson emits, in order. */
typedef struct
{
  GString *log;
} Recorder;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Recorder   *recorder)
{
  g_string_append_printf (recorder->log, "items(%u,%u,%u) ", position, removed, added);
}

static void
on_changed (LtViewerLesson *lesson,
            Recorder       *recorder)
{
  g_string_append (recorder->log, "changed ");
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Recorder   *recorder)
{
  g_string_append_printf (recorder->log, "notify:%s ", pspec->name);
}

static void
record (LtViewerLesson *lesson,
        Recorder       *recorder)
{
  recorder->log = g_string_new (NULL);
  g_signal_connect (lesson, "items-changed", G_CALLBACK (on_items_changed), recorder);
  g_signal_connect (lesson, "changed", G_CALLBACK (on_changed), recorder);
  g_signal_connect (lesson, "notify", G_CALLBACK (on_notify), recorder);
}

static void
assert_log (Recorder   *recorder,
            const char *expected)
{
  g_assert_cmpstr (recorder->log->str, ==, expected);
  g_string_truncate (recorder->log, 0);
}

static LtViewerLesson *
new_points_lesson (void)
{
  g_autoptr (GError) error = NULL;
  LtViewerLesson *lesson = lt_viewer_lesson_new ();

  lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, NULL, 0, LT_VIEWER_CONTENTS_LITERAL,
                             POINTS, 0, &error);
  g_assert_no_error (error);
  return lesson;
}

static LtViewerView *
add_view (LtViewerLesson *lesson,
          const char     *expression)
{
  g_autoptr (GError) error = NULL;
  LtViewerView *view = lt_viewer_lesson_add_view (lesson, NULL, NULL, expression, &error);

  g_assert_no_error (error);
  g_assert_nonnull (view);
  return view;
}

/* The masks must be exactly what the library's storage indices say: view i
 * sets bit i on each cell of the base's storage it reaches, and on the
 * cells it reaches twice or more. A view that copies (its storage is not
 * the base's) reaches none. */
static void
assert_masks_match_library (LtViewerLesson *lesson)
{
  LtStorage *storage = lt_tensor_get_storage (lt_viewer_lesson_get_base (lesson));
  gsize n_cells = (gsize) lt_storage_get_n_elements (storage);
  g_autofree guint32 *views = g_new0 (guint32, n_cells);
  g_autofree guint32 *aliases = g_new0 (guint32, n_cells);
  const guint32 *actual_views, *actual_aliases;
  gsize n_views, n_aliases;

  for (guint v = 0; v < lt_viewer_lesson_get_n_views (lesson); v++)
    {
      LtTensor *tensor = lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (lesson, v));
      g_autofree gint64 *indices = NULL;
      g_autofree guint8 *count = g_new0 (guint8, n_cells);
      gsize n;

      /* A view kept to show its error reaches no cell. */
      if (tensor == NULL)
        {
          g_assert_true (lt_viewer_view_get_expect_error (lt_viewer_lesson_get_view (lesson, v)));
          continue;
        }
      if (lt_tensor_get_storage (tensor) != storage)
        {
          g_assert_false (lt_tensor_shares_storage (tensor, lt_viewer_lesson_get_base (lesson)));
          continue;
        }
      indices = lt_tensor_get_storage_indices (tensor, &n, NULL);
      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpint (indices[i], >=, 0);
          g_assert_cmpint (indices[i], <, (gint64) n_cells);
          views[indices[i]] |= 1u << v;
          if (count[indices[i]]++ > 0)
            aliases[indices[i]] |= 1u << v;
        }
    }

  actual_views = lt_viewer_lesson_get_cell_views (lesson, &n_views);
  actual_aliases = lt_viewer_lesson_get_cell_aliases (lesson, &n_aliases);
  assert_masks (G_STRLOC, "cell views", actual_views, n_views, views, n_cells);
  assert_masks (G_STRLOC, "cell aliases", actual_aliases, n_aliases, aliases, n_cells);
}

static void
test_builtin (gconstpointer data)
{
  const char *name = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin (name, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), >, 0);
  /* Only the views kept to show an error fail. */
  for (guint v = 0; v < lt_viewer_lesson_get_n_views (lesson); v++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, v);

      g_assert_cmpint (lt_viewer_view_get_error (view) != NULL, ==,
                       lt_viewer_view_get_expect_error (view));
    }
  assert_masks_match_library (lesson);
}

/* The masks of the built-in lessons, written out. */
static void
test_builtin_masks (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) points = lt_viewer_lesson_load_builtin ("points", &error);
  g_autoptr (LtViewerLesson) expand = lt_viewer_lesson_load_builtin ("expand", &error);
  g_autoptr (LtViewerLesson) unfold = lt_viewer_lesson_load_builtin ("unfold", &error);
  g_autoptr (LtViewerLesson) diagonal = lt_viewer_lesson_load_builtin ("diagonal", &error);
  g_autoptr (LtViewerLesson) reshape = lt_viewer_lesson_load_builtin ("view-vs-reshape", &error);
  gsize n;

  g_assert_no_error (error);

  /* points, points[1], points.t(), and the copy that reaches nothing. */
  assert_cell_views (points, 5, 5, 7, 7, 5, 5);
  assert_cell_aliases (points, 0, 0, 0, 0, 0, 0);

  /* t, t.expand(3, 4) and t.expand(2, 3, 4): each cell four or eight times. */
  assert_cell_views (expand, 7, 7, 7);
  assert_cell_aliases (expand, 6, 6, 6);

  /* t, unfold(0, 3, 1), unfold(0, 3, 2), unfold(0, 2, 3). */
  assert_cell_views (unfold, 15, 15, 7, 15, 15, 7, 7);
  assert_cell_aliases (unfold, 0, 2, 6, 2, 6, 2, 0);

  /* t, diagonal(), diagonal(offset=1), diagonal(-1). */
  assert_cell_views (diagonal, 3, 5, 1, 1, 9, 3, 5, 1, 1, 9, 3, 5, 1, 1, 9, 3);
  assert_cell_aliases (diagonal, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /* x, x.view(4, 2, 3), x.transpose(1, 0); the reshape and the
   * contiguous().view() copy. */
  {
    const guint32 *masks = lt_viewer_lesson_get_cell_views (reshape, &n);

    g_assert_cmpuint (n, ==, 24);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpuint (masks[i], ==, 7);
  }
}

static void
test_new (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  guint n_dims;
  const gint64 *shape = lt_viewer_lesson_get_shape (lesson, &n_dims);

  g_assert_cmpstr (lt_viewer_lesson_get_title (lesson), ==, "");
  g_assert_cmpstr (lt_viewer_lesson_get_notes (lesson), ==, "");
  g_assert_cmpint (lt_viewer_lesson_get_dtype (lesson), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_ARANGE);
  lt_test_assert_array (G_STRLOC, "shape", shape, n_dims, I64S (3, 4), 2);
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lesson)), ==, 0);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (lesson)) == LT_VIEWER_TYPE_VIEW);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);
  g_assert_null (lt_viewer_lesson_get_selected (lesson));
  assert_cell_views (lesson, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

static void
test_set_base_contents (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  g_autofree double *first = NULL;
  g_autofree double *second = NULL;
  const gint64 *shape;
  gsize n;
  guint n_dims;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_INT64, I64S (2, 3), 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (lt_viewer_lesson_get_base (lesson)), ==, LT_DTYPE_INT64);
  lt_assert_sizes (lt_viewer_lesson_get_base (lesson), 2, 3);
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 0, 1, 2, 3, 4, 5);

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_COMPLEX64, I64S (3), 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_cmpint (lt_viewer_lesson_get_dtype (lesson), ==, LT_DTYPE_COMPLEX64);
  /* Real and imaginary parts. */
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 0, 0, 1, 0, 2, 0);

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT64, I64S (2, 2), 2,
                                            LT_VIEWER_CONTENTS_ZEROS, NULL, 0, &error));
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 0, 0, 0, 0);
  g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_ZEROS);
  g_assert_null (lt_viewer_lesson_get_literal (lesson));

  /* The same seed gives the same values, in [0, 1). */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (5), 1,
                                            LT_VIEWER_CONTENTS_RANDOM, NULL, 42, &error));
  first = lt_tensor_to_doubles (lt_viewer_lesson_get_base (lesson), &n);
  g_assert_cmpuint (lt_viewer_lesson_get_seed (lesson), ==, 42);
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (5), 1,
                                            LT_VIEWER_CONTENTS_RANDOM, NULL, 42, &error));
  second = lt_tensor_to_doubles (lt_viewer_lesson_get_base (lesson), &n);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpfloat (first[i], ==, second[i]);
      g_assert_cmpfloat (first[i], >=, 0.0);
      g_assert_cmpfloat (first[i], <, 1.0);
    }

  /* A literal gives the shape; the shape argument is ignored. */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (9), 1,
                                            LT_VIEWER_CONTENTS_LITERAL, POINTS, 0, &error));
  g_assert_no_error (error);
  shape = lt_viewer_lesson_get_shape (lesson, &n_dims);
  lt_test_assert_array (G_STRLOC, "shape", shape, n_dims, I64S (3, 2), 2);
  g_assert_cmpstr (lt_viewer_lesson_get_literal (lesson), ==, POINTS);
  lt_assert_values (lt_viewer_lesson_get_base (lesson), 4, 1, 5, 3, 2, 1);

  /* A 0-dim base has one cell. */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, NULL, 0,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  assert_cell_views (lesson, 0);
}

static void
test_set_base_errors (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  LtTensor *base = lt_viewer_lesson_get_base (lesson);
  Recorder recorder;
  struct
  {
    LtDType dtype;
    const gint64 *shape;
    guint n_dims;
    LtViewerContents contents;
    const char *literal;
    int code;
  } cases[] = {
    { LT_DTYPE_FLOAT32, NULL, 0, LT_VIEWER_CONTENTS_LITERAL, "[[1, 2], [3]]", -1 },
    { LT_DTYPE_FLOAT32, NULL, 0, LT_VIEWER_CONTENTS_LITERAL, "[1, 点]", -1 },
    { LT_DTYPE_FLOAT32, NULL, 0, LT_VIEWER_CONTENTS_LITERAL, NULL, LT_ERROR_INVALID_ARGUMENT },
    { LT_DTYPE_FLOAT32, I64S (-2), 1, LT_VIEWER_CONTENTS_ZEROS, NULL, LT_ERROR_INVALID_ARGUMENT },
    { LT_DTYPE_FLOAT32, I64S (5000, 5000), 2, LT_VIEWER_CONTENTS_ZEROS, NULL,
      LT_ERROR_INVALID_ARGUMENT },
    { LT_DTYPE_FLOAT32, I64S (G_MAXINT64, G_MAXINT64), 2, LT_VIEWER_CONTENTS_ARANGE, NULL,
      LT_ERROR_INVALID_ARGUMENT },
    { LT_DTYPE_INT32, I64S (3), 1, LT_VIEWER_CONTENTS_RANDOM, NULL, -1 },
    { (LtDType) 99, I64S (3), 1, LT_VIEWER_CONTENTS_ZEROS, NULL, LT_ERROR_DTYPE },
    { LT_DTYPE_FLOAT32, I64S (3), 1, (LtViewerContents) 17, NULL, LT_ERROR_INVALID_ARGUMENT },
  };

  add_view (lesson, "t.t()");
  record (lesson, &recorder);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      g_test_message ("case %u", i);
      g_assert_false (lt_viewer_lesson_set_base (lesson, cases[i].dtype, cases[i].shape,
                                                 cases[i].n_dims, cases[i].contents,
                                                 cases[i].literal, 0, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == LT_ERROR);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      if (cases[i].code >= 0)
        g_assert_cmpint (error->code, ==, cases[i].code);
      g_assert_true (lt_viewer_lesson_get_base (lesson) == base);
      g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_LITERAL);
      assert_log (&recorder, "");
    }
  g_string_free (recorder.log, TRUE);
}

/* Every view is re-evaluated over the new base, with one ::changed. */
static void
test_set_base_views (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  g_autoptr (GError) error = NULL;
  LtViewerView *transposed = add_view (lesson, "t.t()");
  LtViewerView *second = add_view (lesson, "t[1]");
  Recorder recorder;

  assert_cell_views (lesson, 1, 1, 3, 3, 1, 1);
  record (lesson, &recorder);

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (2, 3), 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  assert_log (&recorder, "notify:base changed ");
  lt_assert_strides (lt_viewer_view_get_tensor (transposed), 1, 3);
  lt_assert_values (lt_viewer_view_get_tensor (second), 3, 4, 5);
  assert_cell_views (lesson, 1, 1, 1, 3, 3, 3);
  assert_masks_match_library (lesson);

  /* t() refuses three dims: that view has an error and reaches nothing. */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_INT64, I64S (2, 2, 2), 3,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  assert_log (&recorder, "notify:base notify:dtype changed ");
  g_assert_null (lt_viewer_view_get_tensor (transposed));
  g_assert_true (g_str_has_prefix (lt_viewer_view_get_error (transposed), "t.t(): t(): "));
  g_assert_null (lt_viewer_view_get_error (second));
  assert_cell_views (lesson, 0, 0, 0, 0, 2, 2, 2, 2);

  /* And back: the view works again. */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_INT64, I64S (4), 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  assert_log (&recorder, "notify:base changed ");
  g_assert_null (lt_viewer_view_get_error (transposed));
  assert_cell_views (lesson, 1, 3, 1, 1);

  g_string_free (recorder.log, TRUE);
}

/* Editing sizes and strides moves the view's bits. */
static void
test_set_layout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin ("points", &error);
  LtViewerView *transposed = lt_viewer_lesson_get_view (lesson, 2);
  Recorder recorder;

  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_view_get_expression (transposed), ==, "t.t()");
  assert_cell_views (lesson, 5, 5, 7, 7, 5, 5);
  record (lesson, &recorder);

  g_assert_true (lt_viewer_view_set_layout (transposed, I64S (2), I64S (2), 1, 1, &error));
  g_assert_no_error (error);
  assert_log (&recorder, "changed ");
  assert_cell_views (lesson, 1, 5, 3, 7, 1, 1);
  assert_masks_match_library (lesson);

  /* Strides that repeat cells mark them as aliased. */
  g_assert_true (lt_viewer_view_set_layout (transposed, I64S (2, 3), I64S (0, 1), 2, 3, &error));
  assert_log (&recorder, "changed ");
  assert_cell_views (lesson, 1, 1, 3, 7, 5, 5);
  assert_cell_aliases (lesson, 0, 0, 0, 4, 4, 4);
  assert_masks_match_library (lesson);

  /* A layout outside the storage changes nothing. */
  g_assert_false (lt_viewer_view_set_layout (transposed, I64S (7), I64S (1), 1, 0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  assert_log (&recorder, "");
  assert_cell_views (lesson, 1, 1, 3, 7, 5, 5);

  g_string_free (recorder.log, TRUE);
}

static void
test_views_add_remove_move (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (LtViewerView) item = NULL;
  LtViewerView *whole, *transposed, *row;
  Recorder recorder;

  record (lesson, &recorder);
  whole = add_view (lesson, "t");
  assert_log (&recorder, "items(0,0,1) changed ");
  transposed = add_view (lesson, "t.t()");
  row = add_view (lesson, "t[0]");
  assert_log (&recorder, "items(1,0,1) changed items(2,0,1) changed ");

  /* Names default to the expression; colours come from the palette. */
  g_assert_cmpstr (lt_viewer_view_get_name (row), ==, "t[0]");
  g_assert_cmpstr (lt_viewer_view_get_color (whole), ==, "#0072b2");
  g_assert_cmpstr (lt_viewer_view_get_color (transposed), ==, "#e69f00");
  g_assert_cmpstr (lt_viewer_view_get_color (row), ==, "#009e73");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lesson)), ==, 3);
  item = g_list_model_get_item (G_LIST_MODEL (lesson), 1);
  g_assert_true (item == transposed);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (lesson), 3));
  g_assert_null (lt_viewer_lesson_get_view (lesson, 3));
  assert_cell_views (lesson, 7, 7, 7, 7, 3, 3, 3, 3, 3, 3, 3, 3);

  lt_viewer_lesson_move_view (lesson, 0, 2);
  assert_log (&recorder, "items(0,3,3) changed ");
  g_assert_true (lt_viewer_lesson_get_view (lesson, 0) == transposed);
  g_assert_true (lt_viewer_lesson_get_view (lesson, 1) == row);
  g_assert_true (lt_viewer_lesson_get_view (lesson, 2) == whole);
  assert_cell_views (lesson, 7, 7, 7, 7, 5, 5, 5, 5, 5, 5, 5, 5);

  lt_viewer_lesson_move_view (lesson, 2, 1);
  assert_log (&recorder, "items(1,2,2) changed ");
  g_assert_true (lt_viewer_lesson_get_view (lesson, 1) == whole);
  lt_viewer_lesson_move_view (lesson, 1, 1);
  assert_log (&recorder, "");

  lt_viewer_lesson_set_selected (lesson, row);
  assert_log (&recorder, "notify:selected ");
  g_assert_true (lt_viewer_lesson_get_selected (lesson) == row);

  /* Removing the selected view leaves nothing selected. */
  lt_viewer_lesson_remove_view (lesson, 2);
  assert_log (&recorder, "notify:selected items(2,1,0) changed ");
  g_assert_null (lt_viewer_lesson_get_selected (lesson));
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 2);
  assert_cell_views (lesson, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3);

  lt_viewer_lesson_remove_view (lesson, 0);
  assert_log (&recorder, "items(0,1,0) changed ");
  assert_cell_views (lesson, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);

  /* The lesson no longer listens to a removed view. */
  lt_viewer_view_set_color (item, "#e01b24");
  assert_log (&recorder, "");

  g_string_free (recorder.log, TRUE);
}

static void
test_views_invalid (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  Recorder recorder;

  record (lesson, &recorder);
  g_assert_null (lt_viewer_lesson_add_view (lesson, "bad", NULL, "t.bad()", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_null (lt_viewer_lesson_add_view (lesson, "bad", NULL, "t.view(5)", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  g_assert_null (lt_viewer_lesson_add_view (lesson, "bad", "blue", "t", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 0);
  assert_log (&recorder, "");
  g_string_free (recorder.log, TRUE);
}

static void
test_views_limit (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) colors = g_hash_table_new (g_str_hash, g_str_equal);
  const guint32 *masks;
  Recorder recorder;
  gsize n;

  for (guint i = 0; i < LT_VIEWER_MAX_VIEWS; i++)
    {
      LtViewerView *view = add_view (lesson, i % 2 ? "t.t()" : "t[1]");
      const char *color = lt_viewer_view_get_color (view);

      g_assert_cmpuint (strlen (color), ==, 7);
      g_assert_cmpint (color[0], ==, '#');
      if (i < 8)
        g_assert_true (g_hash_table_add (colors, (gpointer) color));
    }
  g_assert_cmpuint (LT_VIEWER_MAX_VIEWS, ==, 32);

  record (lesson, &recorder);
  g_assert_null (lt_viewer_lesson_add_view (lesson, NULL, NULL, "t", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "A lesson has at most 32 views; remove one to add another.");
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 32);
  assert_log (&recorder, "");

  /* Bit 31 is the last view's: t.t() reaches every cell, t[1] cells 4-7. */
  masks = lt_viewer_lesson_get_cell_views (lesson, &n);
  g_assert_cmpuint (n, ==, 12);
  g_assert_cmphex (masks[0], ==, 0xaaaaaaaa);
  g_assert_cmphex (masks[4], ==, 0xffffffff);
  g_string_free (recorder.log, TRUE);
}

/* One ::changed per logical change, and none for what is not drawn. */
static void
test_changed (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  g_autoptr (GError) error = NULL;
  LtViewerView *view = add_view (lesson, "t");
  Recorder recorder;

  for (guint i = 0; i < 4; i++)
    add_view (lesson, "t.t()");
  record (lesson, &recorder);

  g_assert_true (lt_viewer_view_set_expression (view, "t[1]", &error));
  assert_log (&recorder, "changed ");
  assert_cell_views (lesson, 30, 30, 31, 31, 30, 30);

  g_assert_false (lt_viewer_view_set_expression (view, "t[9]", &error));
  g_clear_error (&error);
  assert_log (&recorder, "");

  lt_viewer_view_set_color (view, "#e01b24");
  assert_log (&recorder, "changed ");

  lt_viewer_view_set_cursor (view, 1);
  lt_viewer_view_set_name (view, "second point");
  assert_log (&recorder, "");

  lt_viewer_lesson_set_title (lesson, "Points");
  lt_viewer_lesson_set_notes (lesson, "Notes");
  lt_viewer_lesson_set_title (lesson, "Points");
  assert_log (&recorder, "notify:title notify:notes ");

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (3, 2), 2,
                                            LT_VIEWER_CONTENTS_ZEROS, NULL, 0, &error));
  assert_log (&recorder, "notify:base changed ");

  g_string_free (recorder.log, TRUE);
}

static void
test_hover_and_selected (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  LtViewerView *view = add_view (lesson, "t");
  g_autoptr (LtViewerView) selected = NULL;
  Recorder recorder;
  gint64 hover;

  record (lesson, &recorder);
  lt_viewer_lesson_set_hover_cell (lesson, 3);
  lt_viewer_lesson_set_hover_cell (lesson, 3);
  assert_log (&recorder, "notify:hover-cell ");
  g_object_get (lesson, "hover-cell", &hover, NULL);
  g_assert_cmpint (hover, ==, 3);

  /* Beyond the storage is nowhere. */
  lt_viewer_lesson_set_hover_cell (lesson, 6);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);
  assert_log (&recorder, "notify:hover-cell ");

  g_object_set (lesson, "selected", view, NULL);
  assert_log (&recorder, "notify:selected ");
  g_object_get (lesson, "selected", &selected, NULL);
  g_assert_true (selected == view);
  lt_viewer_lesson_set_selected (lesson, NULL);
  assert_log (&recorder, "notify:selected ");

  g_string_free (recorder.log, TRUE);
}

/* view_as_real() and view_as_complex() read the base's memory with another
 * element size: they colour every base cell their elements cover. */
static void
test_reinterpreted (void)
{
  g_autoptr (LtViewerLesson) complex = lt_viewer_lesson_new ();
  g_autoptr (LtViewerLesson) real = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_viewer_lesson_set_base (complex, LT_DTYPE_COMPLEX64, I64S (3), 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  add_view (complex, "t[2]");
  add_view (complex, "t.view_as_real()");
  add_view (complex, "t.view_as_real()[1]");
  add_view (complex, "t.view_as_real()[:, 0].expand(2, 3)");
  assert_cell_views (complex, 2 | 8, 2 | 4 | 8, 1 | 2 | 8);
  assert_cell_aliases (complex, 8, 8, 8);

  g_assert_true (lt_viewer_lesson_set_base (real, LT_DTYPE_FLOAT32, I64S (6), 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  add_view (real, "t.view(3, 2).view_as_complex()[1]");
  add_view (real, "t[2:].view(2, 2).view_as_complex().expand(2, 2)");
  assert_cell_views (real, 0, 0, 3, 3, 2, 2);
  assert_cell_aliases (real, 0, 0, 2, 2, 2, 2);
}

/* A million cells and several views of up to three million elements. */
static void
test_large (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  const guint32 *views, *aliases;
  gsize n;
  double elapsed;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, I64S (1000000), 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  add_view (lesson, "t");
  add_view (lesson, "t.flip(0)");
  add_view (lesson, "t[::2]");
  add_view (lesson, "t.unfold(0, 3, 1)");
  add_view (lesson, "t.view(1000, 1000).t()");
  add_view (lesson, "t[0:1].expand(1000000)");

  g_test_timer_start ();
  views = lt_viewer_lesson_get_cell_views (lesson, &n);
  aliases = lt_viewer_lesson_get_cell_aliases (lesson, &n);
  elapsed = g_test_timer_elapsed ();
  g_test_message ("cell masks of 1e6 cells and 6 views: %.1f ms", elapsed * 1000);
  g_assert_cmpfloat (elapsed, <, 1.0);

  g_assert_cmpuint (n, ==, 1000000);
  g_assert_cmphex (views[0], ==, 0x3f);
  g_assert_cmphex (aliases[0], ==, 0x20);
  g_assert_cmphex (views[1], ==, 0x1b);
  g_assert_cmphex (aliases[1], ==, 0x08);
  g_assert_cmphex (views[500000], ==, 0x1f);
  g_assert_cmphex (aliases[500000], ==, 0x08);
  g_assert_cmphex (views[999999], ==, 0x1b);
  g_assert_cmphex (aliases[999999], ==, 0x00);

  /* Cached until something changes. */
  g_test_timer_start ();
  for (guint i = 0; i < 1000; i++)
    lt_viewer_lesson_get_cell_views (lesson, &n);
  g_assert_cmpfloat (g_test_timer_elapsed (), <, 0.1);

  assert_masks_match_library (lesson);
}

/* "PyTorch only" reaches every view, and views added later; a refused
 * view has no tensor and says why; one ::changed for the lesson. */
static void
test_pytorch_only (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  g_autoptr (GError) error = NULL;
  LtViewerView *reversed = add_view (lesson, "t[::-1]");
  LtViewerView *flipped = add_view (lesson, "t.flip(1)");
  LtViewerView *plain = add_view (lesson, "t.t()");
  LtTensor *base = lt_viewer_lesson_get_base (lesson);
  Recorder recorder;

  record (lesson, &recorder);
  lt_viewer_lesson_set_pytorch_only (lesson, TRUE);
  g_assert_true (lt_viewer_lesson_get_pytorch_only (lesson));
  g_assert_null (lt_viewer_view_get_tensor (reversed));
  g_assert_nonnull (strstr (lt_viewer_view_get_error (reversed), "step must be greater than zero"));
  g_assert_false (lt_tensor_shares_storage (lt_viewer_view_get_tensor (flipped), base));
  g_assert_true (lt_tensor_shares_storage (lt_viewer_view_get_tensor (plain), base));
  g_assert_null (lt_viewer_view_get_error (plain));
  assert_log (&recorder, "notify:pytorch-only changed ");

  /* A new view follows the lesson: refused as an expression. */
  g_assert_null (lt_viewer_lesson_add_view (lesson, NULL, NULL, "t[::-2]", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  lt_viewer_lesson_set_pytorch_only (lesson, FALSE);
  g_assert_true (lt_tensor_shares_storage (lt_viewer_view_get_tensor (reversed), base));
  g_assert_null (lt_viewer_view_get_error (reversed));
  g_assert_true (lt_tensor_shares_storage (lt_viewer_view_get_tensor (flipped), base));
  assert_log (&recorder, "notify:pytorch-only changed ");
  g_signal_handlers_disconnect_by_data (lesson, &recorder);
  g_string_free (recorder.log, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_auto (GStrv) names = NULL;

  g_test_init (&argc, &argv, NULL);

  names = lt_viewer_lesson_list_builtin ();
  g_assert_cmpuint (g_strv_length (names), >=, 7);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/viewer/lesson/builtin/%s", names[i]);
      g_test_add_data_func (path, names[i], test_builtin);
    }
  g_test_add_func ("/viewer/lesson/builtin-masks", test_builtin_masks);
  g_test_add_func ("/viewer/lesson/new", test_new);
  g_test_add_func ("/viewer/lesson/set-base/contents", test_set_base_contents);
  g_test_add_func ("/viewer/lesson/set-base/errors", test_set_base_errors);
  g_test_add_func ("/viewer/lesson/set-base/views", test_set_base_views);
  g_test_add_func ("/viewer/lesson/set-layout", test_set_layout);
  g_test_add_func ("/viewer/lesson/views/add-remove-move", test_views_add_remove_move);
  g_test_add_func ("/viewer/lesson/views/invalid", test_views_invalid);
  g_test_add_func ("/viewer/lesson/views/limit", test_views_limit);
  g_test_add_func ("/viewer/lesson/changed", test_changed);
  g_test_add_func ("/viewer/lesson/pytorch-only", test_pytorch_only);
  g_test_add_func ("/viewer/lesson/hover-and-selected", test_hover_and_selected);
  g_test_add_func ("/viewer/lesson/reinterpreted", test_reinterpreted);
  g_test_add_func ("/viewer/lesson/large", test_large);

  return g_test_run ();
}
