/* test-viewer-view.c: one view of a lesson's storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer-test"

#include "../lt-test-utils.h"

#include "lt-viewer-view.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"
#define SEED_X "[[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], " \
               "[[[13, 14, 15], [16, 17, 18]], [[19, 20, 21], [22, 23, 24]]]]"

static LtTensor *
new_literal (const char *literal)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal_with_dtype (literal, LT_DTYPE_FLOAT32, &error);

  g_assert_no_error (error);
  return tensor;
}

static LtViewerView *
new_view (const char *literal,
          const char *expression)
{
  g_autoptr (LtTensor) base = new_literal (literal);
  LtViewerView *view = lt_viewer_view_new ("v", "#3584e4", base, expression);

  g_assert_null (lt_viewer_view_get_error (view));
  g_assert_nonnull (lt_viewer_view_get_tensor (view));
  return view;
}

#define assert_find(view, cell, ...) \
  G_STMT_START { \
    g_autoptr (GArray) found_ = lt_viewer_view_find_elements ((view), (cell)); \
    lt_test_assert_array (G_STRLOC, "elements", (const gint64 *) (gpointer) found_->data, \
                          found_->len, I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__)); \
  } G_STMT_END

#define assert_find_none(view, cell) \
  G_STMT_START { \
    g_autoptr (GArray) found_ = lt_viewer_view_find_elements ((view), (cell)); \
    g_assert_cmpuint (found_->len, ==, 0); \
  } G_STMT_END

#define assert_indices(view, ...) \
  G_STMT_START { \
    gsize n_; \
    const gint64 *indices_ = lt_viewer_view_get_storage_indices ((view), &n_); \
    lt_test_assert_array (G_STRLOC, "storage indices", indices_, (guint) n_, \
                          I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__)); \
  } G_STMT_END

static void
test_new (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t[1]");
  LtTensor *tensor = lt_viewer_view_get_tensor (view);

  g_assert_cmpstr (lt_viewer_view_get_name (view), ==, "v");
  g_assert_cmpstr (lt_viewer_view_get_color (view), ==, "#3584e4");
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t[1]");
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, -1);
  lt_assert_sizes (tensor, 2);
  lt_assert_strides (tensor, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (tensor), ==, 2);
  lt_assert_values (tensor, 5.0, 3.0);
}

static void
test_new_invalid (void)
{
  g_autoptr (LtTensor) base = new_literal (POINTS);
  g_autoptr (LtViewerView) view = lt_viewer_view_new (NULL, NULL, base, "t.veiw(2)");

  g_assert_null (lt_viewer_view_get_tensor (view));
  g_assert_nonnull (strstr (lt_viewer_view_get_error (view), "unknown method 'veiw'"));
  g_assert_cmpstr (lt_viewer_view_get_name (view), ==, "");
  g_assert_cmpstr (lt_viewer_view_get_color (view), ==, "#0072b2");
  g_assert_null (lt_viewer_view_get_storage_indices (view, &(gsize) { 1 }));
  g_assert_null (lt_viewer_view_format_address (view, 0));
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 0), ==, -1);
}

static void
test_properties (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t");
  g_autofree char *name = NULL;
  g_autofree char *color = NULL;
  g_autofree char *expression = NULL;
  g_autofree char *error = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  gint64 cursor;

  g_object_set (view, "name", "points.t()", "color", "#FF7800", "expression", "t.t()",
                "cursor", (gint64) 4, NULL);
  g_object_get (view, "name", &name, "color", &color, "expression", &expression,
                "tensor", &tensor, "error", &error, "cursor", &cursor, NULL);
  g_assert_cmpstr (name, ==, "points.t()");
  g_assert_cmpstr (color, ==, "#ff7800");
  g_assert_cmpstr (expression, ==, "t.t()");
  g_assert_null (error);
  g_assert_cmpint (cursor, ==, 4);
  lt_assert_sizes (tensor, 2, 3);
}

static void
test_storage_indices_cache (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t.t()");
  g_autoptr (GError) error = NULL;
  const gint64 *first, *second;
  gsize n;

  first = lt_viewer_view_get_storage_indices (view, &n);
  second = lt_viewer_view_get_storage_indices (view, &n);
  g_assert_true (first == second);
  assert_indices (view, 0, 2, 4, 1, 3, 5);

  lt_viewer_view_set_expression (view, "t[1:, ::-1]", &error);
  g_assert_no_error (error);
  assert_indices (view, 3, 2, 5, 4);

  lt_viewer_view_set_expression (view, "t[0:0]", &error);
  g_assert_no_error (error);
  g_assert_null (lt_viewer_view_get_storage_indices (view, &n));
  g_assert_cmpuint (n, ==, 0);
}

static void
test_storage_index (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t.t()");
  gsize n;

  /* Without the cache, then with it. */
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 1), ==, 2);
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 3), ==, 1);
  lt_viewer_view_get_storage_indices (view, &n);
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 1), ==, 2);
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 5), ==, 5);
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, 6), ==, -1);
  g_assert_cmpint (lt_viewer_view_get_storage_index (view, -1), ==, -1);
}

static void
test_format_address (void)
{
  g_autoptr (LtViewerView) rows = new_view (POINTS, "t[1:]");
  g_autoptr (LtViewerView) scalar = new_view (POINTS, "t[1, 0]");
  g_autoptr (LtViewerView) flipped = new_view (POINTS, "t.flip(0)");
  g_autoptr (LtViewerView) cube = new_view (SEED_X, "t.transpose(1, 0)");
  g_autofree char *a = lt_viewer_view_format_address (rows, 2);
  g_autofree char *b = lt_viewer_view_format_address (scalar, 0);
  g_autofree char *c = lt_viewer_view_format_address (flipped, 2);
  g_autofree char *d = lt_viewer_view_format_address (cube, 23);
  g_autofree char *e = lt_viewer_view_format_address (rows, 4);

  g_assert_cmpstr (a, ==, "2 + 2*1 + 1*0 = 4");
  g_assert_cmpstr (b, ==, "2 = 2");
  g_assert_cmpstr (c, ==, "4 + (-2)*1 + 1*0 = 2");
  g_assert_cmpstr (d, ==, "0 + 6*1 + 12*1 + 3*1 + 1*2 = 23");
  g_assert_null (e);
}

static void
test_find_elements (void)
{
  g_autoptr (LtViewerView) transposed = new_view (POINTS, "t.t()");
  g_autoptr (LtViewerView) second = new_view (POINTS, "t[1]");

  assert_find (transposed, 0, 0);
  assert_find (transposed, 1, 3);
  assert_find (transposed, 4, 2);
  assert_find_none (transposed, 6);
  assert_find_none (transposed, -1);
  assert_find (second, 3, 1);
  assert_find_none (second, 0);
  assert_find_none (second, 4);
}

static void
test_find_elements_aliased (void)
{
  g_autoptr (LtViewerView) expanded = new_view ("[[1.0], [2.0], [3.0]]", "t.expand(3, 4)");
  g_autoptr (LtViewerView) windows = new_view ("[0., 1, 2, 3, 4, 5, 6]", "t.unfold(0, 3, 1)");
  g_autoptr (LtViewerView) leading = new_view ("[[1.0], [2.0], [3.0]]", "t.expand(2, 3, 4)");

  assert_find (expanded, 1, 4, 5, 6, 7);
  assert_find (windows, 0, 0);
  assert_find (windows, 2, 2, 4, 6);
  assert_find (windows, 6, 14);
  assert_find (leading, 2, 8, 9, 10, 11, 20, 21, 22, 23);
}

/* Negative strides are said to be libtensor's and NumPy's, not PyTorch's. */
static void
test_explain_pytorch (void)
{
  g_autoptr (LtViewerView) transposed = new_view (POINTS, "t.t()");
  g_autoptr (LtViewerView) reversed = new_view (POINTS, "t[::-1]");
  g_autoptr (LtViewerView) flipped = new_view (POINTS, "t.flip(1)");
  g_autoptr (LtViewerView) single = new_view (POINTS, "t[1:2].flip(0)");
  g_autofree char *reason = NULL;

  g_assert_true (lt_viewer_view_explain_pytorch (transposed, &reason));
  g_assert_null (reason);
  g_assert_false (lt_viewer_view_explain_pytorch (reversed, &reason));
  g_assert_nonnull (strstr (reason, "dim 0 has stride -2"));
  g_assert_nonnull (strstr (reason, "t[::-1]"));
  g_clear_pointer (&reason, g_free);
  g_assert_false (lt_viewer_view_explain_pytorch (flipped, &reason));
  g_assert_nonnull (strstr (reason, "dim 1 has stride -1"));
  g_clear_pointer (&reason, g_free);
  /* A dim of size 1 is read once: its stride does not matter. */
  g_assert_true (lt_viewer_view_explain_pytorch (single, NULL));
}

/* count_elements() agrees with find_elements(), without the list. */
static void
test_count_elements (void)
{
  g_autoptr (LtViewerView) windows = new_view ("[0., 1, 2, 3, 4, 5, 6]", "t.unfold(0, 3, 1)");
  g_autoptr (LtViewerView) transposed = new_view (POINTS, "t.t()");
  gint64 first = 0;

  g_assert_cmpuint (lt_viewer_view_count_elements (windows, 2, &first), ==, 3);
  g_assert_cmpint (first, ==, 2);
  g_assert_cmpuint (lt_viewer_view_count_elements (windows, 6, &first), ==, 1);
  g_assert_cmpint (first, ==, 14);
  g_assert_cmpuint (lt_viewer_view_count_elements (windows, 7, &first), ==, 0);
  g_assert_cmpint (first, ==, -1);
  g_assert_cmpuint (lt_viewer_view_count_elements (transposed, 1, &first), ==, 1);
  g_assert_cmpint (first, ==, 3);
  g_assert_cmpuint (lt_viewer_view_count_elements (transposed, -1, NULL), ==, 0);
}

/* A million elements: the lookup is built once, then each cell is cheap. */
static void
test_find_elements_large (void)
{
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1000, 1000);
  g_autoptr (LtViewerView) transposed = lt_viewer_view_new ("t", NULL, base, "t.t()");
  g_autoptr (LtViewerView) expanded = lt_viewer_view_new ("e", NULL, base,
                                                          "t[0:1].expand(1000, 1000)");
  g_autoptr (GArray) found = NULL;
  double elapsed;

  g_assert_null (lt_viewer_view_get_error (transposed));
  g_test_timer_start ();
  assert_find (transposed, 1234, 234001);
  for (gint64 cell = 0; cell < 100000; cell++)
    {
      g_autoptr (GArray) one = lt_viewer_view_find_elements (transposed, cell * 10);
      g_assert_cmpuint (one->len, ==, 1);
    }
  elapsed = g_test_timer_elapsed ();
  g_test_message ("sorting 1e6 elements and 100000 lookups: %.3f s", elapsed);
  g_assert_cmpfloat (elapsed, <, 5.0);

  found = lt_viewer_view_find_elements (expanded, 5);
  g_assert_cmpuint (found->len, ==, 1000);
  g_assert_cmpint (g_array_index (found, gint64, 0), ==, 5);
  g_assert_cmpint (g_array_index (found, gint64, 1), ==, 1005);
  g_assert_cmpint (g_array_index (found, gint64, 999), ==, 999005);
  assert_find_none (expanded, 1000);
}

typedef struct
{
  const char *literal;
  const char *expression;
  gboolean result;
  const char *reason;
} BadgeCase;

static void
test_explain_contiguity (void)
{
  static const BadgeCase badge_cases[] = {
    { POINTS, "t", TRUE, "Contiguous: each dim's stride is the product of the sizes after it." },
    { POINTS, "t[1]", TRUE, "Contiguous: each dim's stride is the product of the sizes after "
                            "it." },
    { POINTS, "t[0:0]", TRUE, "Contiguous: the view has no elements." },
    { POINTS, "t.t()", FALSE, "Not contiguous: dim 0 has stride 1, but row-major order needs 3." },
    { POINTS, "t.t().contiguous()", TRUE, "Contiguous: each dim's stride is the product of the "
                                          "sizes after it." },
    { POINTS, "t[:, ::2]", FALSE, "Not contiguous: dim 0 has stride 2, but row-major order "
                                  "needs 1." },
    { SEED_X, "t.transpose(1, 0)", FALSE, "Not contiguous: dim 0 has stride 6, but row-major "
                                          "order needs 12." },
    { "[[1.0], [2.0], [3.0]]", "t.expand(3, 4)", FALSE, "Not contiguous: dim 0 has stride 1, but "
                                                        "row-major order needs 4." },
    { POINTS, "t.flip(1)", FALSE, "Not contiguous: dim 1 has stride -1, but row-major order "
                                  "needs 1." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (badge_cases); i++)
    {
      g_autoptr (LtViewerView) view = new_view (badge_cases[i].literal, badge_cases[i].expression);
      g_autofree char *reason = NULL;

      g_test_message ("%s", badge_cases[i].expression);
      g_assert_cmpint (lt_viewer_view_explain_contiguity (view, &reason), ==,
                       badge_cases[i].result);
      g_assert_cmpstr (reason, ==, badge_cases[i].reason);
      g_assert_cmpint (lt_viewer_view_explain_contiguity (view, NULL), ==, badge_cases[i].result);
    }
}

static void
test_explain_aliasing (void)
{
  static const BadgeCase badge_cases[] = {
    { POINTS, "t.t()", FALSE, "No aliasing: every element has its own storage cell." },
    { POINTS, "t[0:0]", FALSE, "No aliasing: the view has no elements." },
    { POINTS, "t[1, 1]", FALSE, "No aliasing: every element has its own storage cell." },
    { "[[1.0], [2.0], [3.0]]", "t.expand(3, 4)", TRUE,
      "Elements 0 and 1 share storage cell 0: dim 1 has stride 0 (expanded)." },
    { "[[1.0, 2.0]]", "t.expand(3, 2)", TRUE,
      "Elements 0 and 2 share storage cell 0: dim 0 has stride 0 (expanded)." },
    { POINTS, "t[1].expand(2, 2)", TRUE,
      "Elements 0 and 2 share storage cell 2: dim 0 has stride 0 (expanded)." },
    { "[0., 1, 2, 3, 4, 5, 6]", "t.unfold(0, 3, 1)", TRUE,
      "Elements 1 and 3 share storage cell 1: indices (0, 1) and (1, 0) both reach it, because "
      "the strides (1, 1) overlap." },
    { POINTS, "t.as_strided((2, 2), (1, 1), 0)", TRUE,
      "Elements 1 and 2 share storage cell 1: indices (0, 1) and (1, 0) both reach it, because "
      "the strides (1, 1) overlap." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (badge_cases); i++)
    {
      g_autoptr (LtViewerView) view = new_view (badge_cases[i].literal, badge_cases[i].expression);
      g_autofree char *reason = NULL;

      g_test_message ("%s", badge_cases[i].expression);
      g_assert_cmpint (lt_viewer_view_explain_aliasing (view, &reason), ==,
                       badge_cases[i].result);
      g_assert_cmpstr (reason, ==, badge_cases[i].reason);
    }
}

static void
test_explain_view_as (void)
{
  g_autoptr (LtViewerView) x = new_view (SEED_X, "t");
  g_autoptr (LtViewerView) transposed = new_view (SEED_X, "t.transpose(1, 0)");
  g_autofree char *works = NULL;
  g_autofree char *fails = NULL;
  g_autofree char *mismatch = NULL;
  g_autofree char *inner = NULL;

  g_assert_true (lt_viewer_view_explain_view_as (x, I64S (4, 2, 3), 3, &works));
  g_assert_cmpstr (works, ==, "view(4, 2, 3) works without copying: the result has strides "
                              "(6, 3, 1) over the same storage.");

  g_assert_false (lt_viewer_view_explain_view_as (transposed, I64S (4, 2, 3), 3, &fails));
  g_assert_cmpstr (fails, ==, "view(4, 2, 3): the tensor's sizes (2, 2, 2, 3) and strides "
                              "(6, 12, 3, 1) cannot be viewed as (4, 2, 3) without copying, "
                              "because dims 0 and 1 (strides 6 and 12) are not contiguous with "
                              "each other; use reshape() or contiguous().view()");

  g_assert_false (lt_viewer_view_explain_view_as (x, I64S (5), 1, &mismatch));
  g_assert_nonnull (strstr (mismatch, "does not fit a tensor of 24 elements"));

  /* A view of a non-contiguous tensor can work when it keeps the inner
   * contiguous dims together. */
  g_assert_true (lt_viewer_view_explain_view_as (transposed, I64S (2, 2, 6), 3, &inner));
  g_assert_cmpstr (inner, ==, "view(2, 2, 6) works without copying: the result has strides "
                              "(6, 12, 1) over the same storage.");
}

typedef struct
{
  GString *log;
} Recorder;

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Recorder   *recorder)
{
  g_string_append_printf (recorder->log, "notify:%s ", pspec->name);
}

static void
on_changed (LtViewerView *view,
            Recorder     *recorder)
{
  g_string_append (recorder->log, "changed ");
}

static void
record (LtViewerView *view,
        Recorder     *recorder)
{
  recorder->log = g_string_new (NULL);
  g_signal_connect (view, "notify", G_CALLBACK (on_notify), recorder);
  g_signal_connect (view, "changed", G_CALLBACK (on_changed), recorder);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* GObject emits queued notifications in an order of its own: compare them
 * as a set, but ::changed must come after all of them. */
static char *
normalize_log (const char *log)
{
  g_auto (GStrv) tokens = g_strsplit (log, " ", -1);
  guint n = g_strv_length (tokens);
  gboolean changed = FALSE;

  for (guint i = 0; i < n; i++)
    if (strcmp (tokens[i], "changed") == 0)
      {
        /* Only last, and once. */
        g_assert_cmpuint (i, ==, n - 2);
        changed = TRUE;
        tokens[i][0] = '\0';
      }
  qsort (tokens, n, sizeof (char *), compare_strings);
  {
    g_autofree char *joined = g_strjoinv (" ", tokens);
    return g_strconcat (g_strstrip (joined), changed ? " changed" : "", NULL);
  }
}

static void
assert_log (Recorder   *recorder,
            const char *expected)
{
  g_autofree char *actual = normalize_log (recorder->log->str);
  g_autofree char *wanted = normalize_log (expected);

  g_assert_cmpstr (actual, ==, wanted);
  g_string_truncate (recorder->log, 0);
}

static void
test_changed (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t");
  g_autoptr (GError) error = NULL;
  Recorder recorder;

  record (view, &recorder);

  g_assert_true (lt_viewer_view_set_expression (view, "t.t()", &error));
  assert_log (&recorder, "notify:expression notify:tensor changed ");

  lt_viewer_view_set_color (view, "#33d17a");
  assert_log (&recorder, "notify:color changed ");
  lt_viewer_view_set_color (view, "#33D17A");
  assert_log (&recorder, "");

  lt_viewer_view_set_name (view, "points.t()");
  assert_log (&recorder, "notify:name ");

  lt_viewer_view_set_cursor (view, 3);
  assert_log (&recorder, "notify:cursor changed ");
  lt_viewer_view_set_cursor (view, 3);
  assert_log (&recorder, "");

  /* Re-evaluating the same text gives a new tensor: drawn again. */
  g_assert_true (lt_viewer_view_set_expression (view, "t.t()", &error));
  assert_log (&recorder, "notify:tensor changed ");

  g_string_free (recorder.log, TRUE);
}

/* An invalid expression keeps the last valid tensor and sets :error; the
 * next valid one clears it. */
static void
test_invalid_keeps_tensor (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t.t()");
  g_autoptr (GError) error = NULL;
  LtTensor *before = lt_viewer_view_get_tensor (view);
  Recorder recorder;

  lt_viewer_view_set_cursor (view, 2);
  record (view, &recorder);

  g_assert_false (lt_viewer_view_set_expression (view, "t.view(4)", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (lt_viewer_view_get_error (view), ==, error->message);
  g_assert_true (g_str_has_prefix (lt_viewer_view_get_error (view), "t.view(4): view(): "));
  g_assert_true (lt_viewer_view_get_tensor (view) == before);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.view(4)");
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 2);
  assert_indices (view, 0, 2, 4, 1, 3, 5);
  assert_log (&recorder, "notify:expression notify:error ");
  g_clear_error (&error);

  /* Another invalid one changes the message, still no ::changed. */
  g_assert_false (lt_viewer_view_set_expression (view, "t.t(", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  assert_log (&recorder, "notify:expression notify:error ");
  g_clear_error (&error);

  g_assert_true (lt_viewer_view_set_expression (view, "t[1]", &error));
  g_assert_no_error (error);
  g_assert_null (lt_viewer_view_get_error (view));
  lt_assert_sizes (lt_viewer_view_get_tensor (view), 2);
  /* The cursor is clamped to the two elements there are now. */
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 1);
  assert_log (&recorder, "notify:expression notify:tensor notify:cursor notify:error changed ");

  g_string_free (recorder.log, TRUE);
}

static void
test_set_layout (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t");
  g_autoptr (GError) error = NULL;
  Recorder recorder;

  record (view, &recorder);
  g_assert_true (lt_viewer_view_set_layout (view, I64S (2, 2), I64S (1, 2), 2, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((2, 2), (1, 2), 1)");
  assert_indices (view, 1, 3, 2, 4);
  assert_log (&recorder, "notify:expression notify:tensor changed ");

  g_assert_true (lt_viewer_view_set_layout (view, I64S (3), I64S (2), 1, 0, &error));
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((3,), (2,), 0)");
  assert_indices (view, 0, 2, 4);
  assert_log (&recorder, "notify:expression notify:tensor changed ");

  g_assert_true (lt_viewer_view_set_layout (view, NULL, NULL, 0, 5, &error));
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((), (), 5)");
  assert_indices (view, 5);
  assert_log (&recorder, "notify:expression notify:tensor changed ");

  /* Outside the storage: nothing changes, not even :error. */
  g_assert_false (lt_viewer_view_set_layout (view, I64S (3), I64S (3), 1, 0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((), (), 5)");
  g_assert_null (lt_viewer_view_get_error (view));
  assert_indices (view, 5);
  assert_log (&recorder, "");

  /* The layout of a copy is a layout over the base, as the user sees it. */
  g_clear_error (&error);
  g_assert_true (lt_viewer_view_set_expression (view, "t.t().contiguous()", &error));
  g_assert_true (lt_viewer_view_set_layout (view, I64S (2, 3), I64S (1, 2), 2, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((2, 3), (1, 2), 0)");
  assert_indices (view, 0, 2, 4, 1, 3, 5);

  g_string_free (recorder.log, TRUE);
}

static void
test_set_base (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t.t()");
  g_autoptr (LtTensor) cube = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2, 2);
  g_autoptr (LtTensor) square = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2);
  Recorder recorder;

  record (view, &recorder);

  /* t() refuses 3 dims: no tensor (the old one belongs to the old base). */
  lt_viewer_view_set_base (view, cube);
  g_assert_null (lt_viewer_view_get_tensor (view));
  g_assert_true (g_str_has_prefix (lt_viewer_view_get_error (view), "t.t(): t(): "));
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.t()");
  assert_log (&recorder, "notify:tensor notify:error changed ");

  lt_viewer_view_set_base (view, square);
  g_assert_null (lt_viewer_view_get_error (view));
  lt_assert_strides (lt_viewer_view_get_tensor (view), 1, 2);
  g_assert_true (lt_tensor_get_storage (lt_viewer_view_get_tensor (view))
                 == lt_tensor_get_storage (square));
  assert_log (&recorder, "notify:tensor notify:error changed ");

  g_string_free (recorder.log, TRUE);
}

static void
test_cursor (void)
{
  g_autoptr (LtViewerView) view = new_view (POINTS, "t");
  g_autoptr (GError) error = NULL;

  lt_viewer_view_set_cursor (view, 100);
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 5);
  lt_viewer_view_set_cursor (view, -7);
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, -1);
  lt_viewer_view_set_cursor (view, 4);
  lt_viewer_view_set_expression (view, "t[0:0]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, -1);
}

static void
test_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1000, 1000);
  g_autoptr (LtViewerView) view = lt_viewer_view_new ("v", NULL, base, "t");

  g_assert_false (lt_viewer_view_set_expression (view, "t.expand(20, 1000, 1000)", &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_OVERFLOW);
  g_assert_cmpstr (error->message, ==, "t.expand(20, 1000, 1000): the view has 20000000 "
                                       "elements; Tensor Viewer draws at most 16777216");
  lt_assert_sizes (lt_viewer_view_get_tensor (view), 1000, 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/view/new", test_new);
  g_test_add_func ("/viewer/view/new/invalid", test_new_invalid);
  g_test_add_func ("/viewer/view/properties", test_properties);
  g_test_add_func ("/viewer/view/storage-indices/cache", test_storage_indices_cache);
  g_test_add_func ("/viewer/view/storage-index", test_storage_index);
  g_test_add_func ("/viewer/view/format-address", test_format_address);
  g_test_add_func ("/viewer/view/find-elements", test_find_elements);
  g_test_add_func ("/viewer/view/find-elements/aliased", test_find_elements_aliased);
  g_test_add_func ("/viewer/view/count-elements", test_count_elements);
  g_test_add_func ("/viewer/view/explain-pytorch", test_explain_pytorch);
  g_test_add_func ("/viewer/view/find-elements/large", test_find_elements_large);
  g_test_add_func ("/viewer/view/badges/contiguity", test_explain_contiguity);
  g_test_add_func ("/viewer/view/badges/aliasing", test_explain_aliasing);
  g_test_add_func ("/viewer/view/badges/view-as", test_explain_view_as);
  g_test_add_func ("/viewer/view/changed", test_changed);
  g_test_add_func ("/viewer/view/invalid-keeps-tensor", test_invalid_keeps_tensor);
  g_test_add_func ("/viewer/view/set-layout", test_set_layout);
  g_test_add_func ("/viewer/view/set-base", test_set_base);
  g_test_add_func ("/viewer/view/cursor", test_cursor);
  g_test_add_func ("/viewer/view/too-large", test_too_large);

  return g_test_run ();
}
