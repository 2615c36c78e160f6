/* test-create.c: the functions that make new tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static void
test_zeros_ones_full (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) zeros = lt_tensor_new_zeros (LT_DTYPE_INT16, I64S (2, 3), 2, &error);
  g_autoptr (LtTensor) ones = lt_tensor_new_ones (LT_DTYPE_FLOAT64, I64S (3), 1, &error);
  g_autoptr (LtTensor) full = lt_tensor_new_full (LT_DTYPE_UINT8, I64S (2), 1, 300, &error);
  g_autoptr (LtTensor) truth = lt_tensor_new_full (LT_DTYPE_BOOL, I64S (2), 1, -0.5, &error);
  g_autoptr (LtTensor) scalar = lt_tensor_new_full (LT_DTYPE_FLOAT32, NULL, 0, 2.5, &error);

  g_assert_no_error (error);
  lt_assert_sizes (zeros, 2, 3);
  lt_assert_strides (zeros, 3, 1);
  g_assert_cmpint (lt_tensor_get_dtype (zeros), ==, LT_DTYPE_INT16);
  lt_assert_values (zeros, 0, 0, 0, 0, 0, 0);
  lt_assert_values (ones, 1, 1, 1);
  /* 300 wraps to 44 in uint8, as in PyTorch. */
  lt_assert_values (full, 44, 44);
  lt_assert_values (truth, 1, 1);
  lt_assert_scalar_shape (scalar);
  g_assert_cmpint (lt_tensor_get_numel (scalar), ==, 1);
  lt_assert_values (scalar, 2.5);
}

static void
test_empty_shapes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) empty = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (2, 0, 3), 3, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_numel (empty), ==, 0);
  lt_assert_strides (empty, 3, 3, 1);
  g_assert_true (lt_tensor_is_contiguous (empty));

  bad = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (2, -1), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (G_MAXINT64, 4), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OVERFLOW);
  g_clear_error (&error);
  bad = lt_tensor_new_empty (LT_DTYPE_FLOAT64, I64S (G_MAXINT64 / 4), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_clear_error (&error);
  bad = lt_tensor_new_empty ((LtDType) 42, I64S (2), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (bad);
}

/* Expected values from torch.arange and torch.linspace. */
static void
test_arange (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_tensor_new_arange (0, 1, 0.3, LT_DTYPE_FLOAT64, &error);
  g_autoptr (LtTensor) b = lt_tensor_new_arange (5, 0, -2, LT_DTYPE_INT64, &error);
  g_autoptr (LtTensor) c = lt_tensor_new_arange (0.5, 3, 1, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) big = lt_tensor_new_arange (9007199254740990.0, 9007199254740994.0, 1,
                                                   LT_DTYPE_INT64, &error);
  g_autoptr (LtTensor) bad = NULL;
  gint64 last;

  g_assert_no_error (error);
  lt_assert_values (a, 0.0, 0.3, 0.6, 0.8999999999999999);
  lt_assert_values (b, 5, 3, 1);
  lt_assert_values (c, 0.5, 1.5, 2.5);
  lt_assert_sizes (big, 4);
  lt_tensor_get_int64 (big, I64S (3), 1, &last, &error);
  g_assert_cmpint (last, ==, G_GINT64_CONSTANT (9007199254740993));

  bad = lt_tensor_new_arange (0, 5, 0, LT_DTYPE_FLOAT32, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_new_arange (0, 5, -1, LT_DTYPE_FLOAT32, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_new_arange (0, INFINITY, 1, LT_DTYPE_FLOAT32, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_new_arange (0, 5, 1, LT_DTYPE_BOOL, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (bad);
}

static void
test_linspace (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_tensor_new_linspace (0, 1, 5, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) b = lt_tensor_new_linspace (-1, 1, 4, LT_DTYPE_FLOAT64, &error);
  g_autoptr (LtTensor) c = lt_tensor_new_linspace (0, 10, 4, LT_DTYPE_INT64, &error);
  g_autoptr (LtTensor) d = lt_tensor_new_linspace (3, 7, 1, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) e = lt_tensor_new_linspace (3, 7, 0, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) f = lt_tensor_new_linspace (0, 1, 7, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (a, 0, 0.25, 0.5, 0.75, 1);
  lt_assert_values (b, -1.0, -0.33333333333333337, 0.33333333333333337, 1.0);
  lt_assert_values (c, 0, 3, 6, 10);
  lt_assert_values (d, 3);
  lt_assert_sizes (e, 0);
  lt_assert_values (f, 0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666269302368,
                    0.8333333134651184, 1.0);

  bad = lt_tensor_new_linspace (0, 1, -1, LT_DTYPE_FLOAT32, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_eye (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) square = lt_tensor_new_eye (3, -1, LT_DTYPE_INT32, &error);
  g_autoptr (LtTensor) wide = lt_tensor_new_eye (2, 3, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) none = lt_tensor_new_eye (0, 4, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (square, 1, 0, 0, 0, 1, 0, 0, 0, 1);
  lt_assert_values (wide, 1, 0, 0, 0, 1, 0);
  lt_assert_sizes (none, 0, 4);

  bad = lt_tensor_new_eye (-2, 3, LT_DTYPE_FLOAT32, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_from_data (void)
{
  g_autoptr (GError) error = NULL;
  const double values[] = { 1.5, -2.5, 3.0, 4.0, 5.0, 6.0 };
  g_autoptr (LtTensor) f = lt_tensor_new_from_data (LT_DTYPE_FLOAT32, values, 6, I64S (2, 3), 2,
                                                    &error);
  g_autoptr (LtTensor) i = lt_tensor_new_from_data (LT_DTYPE_INT8, values, 6, I64S (3, 2), 2,
                                                    &error);
  g_autoptr (LtTensor) scalar = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, 1, NULL, 0,
                                                         &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (f, 2, 3);
  lt_assert_values (f, 1.5, -2.5, 3, 4, 5, 6);
  lt_assert_values (i, 1, -2, 3, 4, 5, 6);
  lt_assert_values (scalar, 1.5);

  bad = lt_tensor_new_from_data (LT_DTYPE_FLOAT32, values, 5, I64S (2, 3), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "5 values"));
  g_assert_null (bad);
}

static void
test_from_literal (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = lt_tensor_new_from_literal ("[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]",
                                                            &error);
  g_autoptr (LtTensor) ints = lt_tensor_new_from_literal ("[1, -2, 3]", &error);
  g_autoptr (LtTensor) mixed = lt_tensor_new_from_literal ("[True, 2]", &error);
  g_autoptr (LtTensor) bools = lt_tensor_new_from_literal ("[[True], [false]]", &error);
  g_autoptr (LtTensor) floats = lt_tensor_new_from_literal ("[[1, 2.5]]", &error);
  g_autoptr (LtTensor) complex = lt_tensor_new_from_literal ("[1+2j, -3.5j, 2]", &error);
  g_autoptr (LtTensor) scalar = lt_tensor_new_from_literal ("  -7  ", &error);
  g_autoptr (LtTensor) empty = lt_tensor_new_from_literal ("[]", &error);
  g_autoptr (LtTensor) empty_rows = lt_tensor_new_from_literal ("[[], []]", &error);
  g_autoptr (LtTensor) special = lt_tensor_new_from_literal ("[inf, -inf, nan, 1e-3, .5, 2.]",
                                                             &error);
  g_autoptr (LtTensor) wide = lt_tensor_new_from_literal_with_dtype ("[0.1, 16777217]",
                                                                     LT_DTYPE_FLOAT64, &error);
  g_autoptr (LtTensor) big = lt_tensor_new_from_literal ("[9223372036854775807]", &error);
  gint64 exact;
  double re, im;

  g_assert_no_error (error);
  lt_assert_sizes (points, 3, 2);
  g_assert_cmpint (lt_tensor_get_dtype (points), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (points, 4, 1, 5, 3, 2, 1);
  g_assert_cmpint (lt_tensor_get_dtype (ints), ==, LT_DTYPE_INT64);
  g_assert_cmpint (lt_tensor_get_dtype (mixed), ==, LT_DTYPE_INT64);
  lt_assert_values (mixed, 1, 2);
  g_assert_cmpint (lt_tensor_get_dtype (bools), ==, LT_DTYPE_BOOL);
  lt_assert_sizes (bools, 2, 1);
  g_assert_cmpint (lt_tensor_get_dtype (floats), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpint (lt_tensor_get_dtype (complex), ==, LT_DTYPE_COMPLEX64);
  lt_tensor_get_complex (complex, I64S (1), 1, &re, &im, &error);
  g_assert_cmpfloat (re, ==, 0.0);
  g_assert_cmpfloat (im, ==, -3.5);
  /* As in Python, -3.5j is -(3.5j): its real part is -0.0. */
  g_assert_true (signbit (re));
  lt_assert_values (complex, 1, 2, 0, -3.5, 2, 0);
  lt_assert_scalar_shape (scalar);
  g_assert_cmpint (lt_tensor_get_dtype (scalar), ==, LT_DTYPE_INT64);
  lt_assert_sizes (empty, 0);
  g_assert_cmpint (lt_tensor_get_dtype (empty), ==, LT_DTYPE_FLOAT32);
  lt_assert_sizes (empty_rows, 2, 0);
  lt_assert_values (special, INFINITY, -INFINITY, NAN, (float) 1e-3, 0.5, 2.0);
  lt_assert_values (wide, 0.1, 16777217.0);
  lt_tensor_get_int64 (big, I64S (0), 1, &exact, &error);
  g_assert_no_error (error);
  g_assert_cmpint (exact, ==, G_MAXINT64);
}

static void
test_from_literal_errors (void)
{
  static const struct
  {
    const char *literal;
    int code;
    const char *column;
  } cases[] = {
    { "[[1, 2], [3]]", LT_ERROR_SHAPE_MISMATCH, "column 10" },
    { "[[1], 2]", LT_ERROR_SHAPE_MISMATCH, "column 7" },
    { "[1, [2]]", LT_ERROR_SHAPE_MISMATCH, "column 5" },
    { "[1, 2", LT_ERROR_PARSE, "column 6" },
    { "[1,, 2]", LT_ERROR_PARSE, "column 4" },
    { "[1 2]", LT_ERROR_PARSE, "column 4" },
    { "[1e]", LT_ERROR_PARSE, "column 4" },
    { "[abc]", LT_ERROR_PARSE, "column 2" },
    { "[1] x", LT_ERROR_PARSE, "column 5" },
    { "", LT_ERROR_PARSE, "column 1" },
    { "[99999999999999999999]", LT_ERROR_PARSE, "column 2" },
    { "[1+2]", LT_ERROR_PARSE, "column 5" },
    { "[1, 点]", LT_ERROR_PARSE, "'点' at column 5" },
    { "[\xe7\x82]", LT_ERROR_PARSE, "byte offset 1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) t = lt_tensor_new_from_literal (cases[i].literal, &error);

      g_assert_null (t);
      g_assert_error (error, LT_ERROR, cases[i].code);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      if (strstr (error->message, cases[i].column) == NULL)
        g_error ("literal '%s': message '%s' does not name %s", cases[i].literal, error->message,
                 cases[i].column);
    }
}

static void
test_from_literal_too_deep (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) deep = g_string_new (NULL);
  g_autoptr (LtTensor) t = NULL;

  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  t = lt_tensor_new_from_literal (deep->str, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_null (t);
}

static void
test_from_bytes (void)
{
  g_autoptr (GError) error = NULL;
  gint32 values[] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr (GBytes) bytes = g_bytes_new (values, sizeof values);
  g_autoptr (LtTensor) t = lt_tensor_new_from_bytes (LT_DTYPE_INT32, bytes, I64S (3, 2), 2, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  g_assert_true (lt_storage_get_data (lt_tensor_get_storage (t)) == g_bytes_get_data (bytes, NULL));
  lt_assert_values (t, 1, 2, 3, 4, 5, 6);

  bad = lt_tensor_new_from_bytes (LT_DTYPE_INT32, bytes, I64S (4, 2), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_null (bad);
}

static void
test_with_storage (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_FLOAT32, 6, &error);
  g_autoptr (LtTensor) t = lt_tensor_new_with_storage (storage, I64S (2, 3), 2, I64S (1, 2), 2, 0,
                                                       &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_get_storage (t) == storage);
  lt_assert_storage_indices (t, 0, 2, 4, 1, 3, 5);

  bad = lt_tensor_new_with_storage (storage, I64S (2, 3), 2, I64S (3, 1), 2, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_assert_null (bad);
}

static void
test_properties (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) t = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) view = lt_tensor_index (t, "[1:, ::2]", &error);
  g_autoptr (LtStorage) storage = NULL;
  LtDType dtype;
  guint dim;
  gint64 numel, offset;
  gboolean contiguous;

  g_assert_no_error (error);
  g_object_get (view, "dtype", &dtype, "dim", &dim, "numel", &numel, "storage-offset", &offset,
                "contiguous-layout", &contiguous, "storage", &storage, NULL);
  g_assert_cmpint (dtype, ==, LT_DTYPE_FLOAT32);
  g_assert_cmpuint (dim, ==, 2);
  g_assert_cmpint (numel, ==, 4);
  g_assert_cmpint (offset, ==, 4);
  g_assert_false (contiguous);
  g_assert_true (storage == lt_tensor_get_storage (t));
}

/* empty_like() keeps the sizes, names and memory order, not the values. */
static void
test_empty_like (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) like_t = lt_tensor_new_empty_like (t, LT_DTYPE_INT64, &error);
  g_autoptr (LtTensor) named = lt_tensor_refine_names (x, (const char *[]) { "N", "C" }, 2,
                                                       &error);
  g_autoptr (LtTensor) like_named = lt_tensor_new_empty_like (named, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) failed = NULL;
  g_auto (GStrv) names = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (like_t, 3, 2);
  lt_assert_strides (like_t, 1, 3);
  g_assert_cmpint (lt_tensor_get_dtype (like_t), ==, LT_DTYPE_INT64);
  lt_assert_values (like_t, 0, 0, 0, 0, 0, 0);
  g_assert_false (lt_tensor_shares_storage (like_t, t));
  names = lt_tensor_get_names (like_named);
  g_assert_cmpstr (names[1], ==, "C");
  lt_assert_values (like_named, 0, 0, 0, 0, 0, 0);

  failed = lt_tensor_new_empty_like (x, (LtDType) 99, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (failed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/create/zeros-ones-full", test_zeros_ones_full);
  g_test_add_func ("/create/empty-shapes", test_empty_shapes);
  g_test_add_func ("/create/empty-like", test_empty_like);
  g_test_add_func ("/create/arange", test_arange);
  g_test_add_func ("/create/linspace", test_linspace);
  g_test_add_func ("/create/eye", test_eye);
  g_test_add_func ("/create/from-data", test_from_data);
  g_test_add_func ("/create/from-literal", test_from_literal);
  g_test_add_func ("/create/from-literal/errors", test_from_literal_errors);
  g_test_add_func ("/create/from-literal/too-deep", test_from_literal_too_deep);
  g_test_add_func ("/create/from-bytes", test_from_bytes);
  g_test_add_func ("/create/with-storage", test_with_storage);
  g_test_add_func ("/create/properties", test_properties);

  return g_test_run ();
}
