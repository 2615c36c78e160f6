/* test-elements.c: single elements, storage indices and value export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static void
test_get_set (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  double value;
  gint64 index;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_get_double (xt, I64S (2, 1), 2, &value, &error));
  g_assert_cmpfloat (value, ==, 5.0);
  g_assert_true (lt_tensor_get_double (xt, I64S (-1, -2), 2, &value, &error));
  g_assert_cmpfloat (value, ==, 2.0);
  g_assert_true (lt_tensor_storage_index_of (xt, I64S (2, 1), 2, &index, &error));
  g_assert_cmpint (index, ==, 5);

  g_assert_true (lt_tensor_set_double (xt, I64S (0, 1), 2, -1.0, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0, 1, 2, -1, 4, 5);

  g_assert_false (lt_tensor_get_double (xt, I64S (3, 0), 2, &value, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_set_double (xt, I64S (0), 1, 1.0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  lt_assert_values (x, 0, 1, 2, -1, 4, 5);
}

static void
test_int64_exact (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_zeros (LT_DTYPE_INT64, I64S (2), 1, &error);
  gint64 value;

  g_assert_true (lt_tensor_set_int64 (x, I64S (1), 1, G_MININT64 + 1, &error));
  g_assert_true (lt_tensor_get_int64 (x, I64S (1), 1, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, G_MININT64 + 1);
}

static void
test_complex (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_zeros (LT_DTYPE_COMPLEX128, I64S (2), 1, &error);
  g_autoptr (LtTensor) r = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (1), 1, &error);
  double re, im;

  g_assert_true (lt_tensor_set_complex (x, I64S (0), 1, 1.5, -2.5, &error));
  g_assert_true (lt_tensor_get_complex (x, I64S (0), 1, &re, &im, &error));
  g_assert_cmpfloat (re, ==, 1.5);
  g_assert_cmpfloat (im, ==, -2.5);
  lt_assert_values (x, 1.5, -2.5, 0, 0);

  /* A real tensor keeps the real part. */
  g_assert_true (lt_tensor_set_complex (r, I64S (0), 1, 3.0, 4.0, &error));
  g_assert_true (lt_tensor_get_complex (r, I64S (0), 1, &re, &im, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (re, ==, 3.0);
  g_assert_cmpfloat (im, ==, 0.0);
}

static void
test_scalar_element (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_full (LT_DTYPE_INT8, NULL, 0, -5, &error);
  double value;

  g_assert_true (lt_tensor_get_double (x, NULL, 0, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value, ==, -5.0);
}

static void
test_storage_indices (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4, 5);
  g_autoptr (LtTensor) v = lt_tensor_index (x, "[1:, ::2]", &error);
  g_autoptr (LtTensor) empty = lt_tensor_index (x, "[4:]", &error);
  gsize n = 99;
  g_autofree gint64 *none = NULL;

  g_assert_no_error (error);
  lt_assert_storage_indices (v, 5, 7, 9, 10, 12, 14, 15, 17, 19);
  none = lt_tensor_get_storage_indices (empty, &n, NULL);
  g_assert_null (none);
  g_assert_cmpuint (n, ==, 0);
}

/* The same indices as a tensor of the view's shape, for views with an
 * offset, steps, a negative stride, a new dim, none at all, one element and
 * a transpose. */
static void
test_storage_index_tensor (void)
{
  const char *expressions[] = { "[1:, ::2]", "[::-1, 1:4]", "[:, None, 2]", "[4:]", "[2, 3]", "t" };
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4, 5);

  for (guint e = 0; e < G_N_ELEMENTS (expressions); e++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) view = g_str_equal (expressions[e], "t")
                                    ? lt_tensor_t (x, &error)
                                    : lt_tensor_index (x, expressions[e], &error);
      g_autoptr (LtTensor) indices = NULL;
      g_autofree gint64 *expected = NULL;
      const gint64 *sizes, *view_sizes;
      guint n_dims, n_view_dims;
      gsize n;

      g_assert_no_error (error);
      indices = lt_tensor_get_storage_index_tensor (view, &error);
      g_assert_no_error (error);
      g_assert_cmpint (lt_tensor_get_dtype (indices), ==, LT_DTYPE_INT64);
      g_assert_true (lt_tensor_is_contiguous (indices));
      sizes = lt_tensor_get_sizes (indices, &n_dims);
      view_sizes = lt_tensor_get_sizes (view, &n_view_dims);
      g_assert_cmpmem (sizes, n_dims * sizeof (gint64), view_sizes, n_view_dims * sizeof (gint64));

      expected = lt_tensor_get_storage_indices (view, &n, NULL);
      g_assert_cmpint (lt_tensor_get_numel (indices), ==, (gint64) n);
      if (n > 0)
        g_assert_cmpmem (lt_storage_get_data (lt_tensor_get_storage (indices)),
                         n * sizeof (gint64), expected, n * sizeof (gint64));
    }
}

static void
test_to_bytes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_INT16, 2, 3);
  g_autoptr (LtTensor) row = lt_tensor_index (x, "[1]", &error);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  g_autoptr (GBytes) row_bytes = lt_tensor_to_bytes (row, &error);
  g_autoptr (GBytes) t_bytes = lt_tensor_to_bytes (xt, &error);
  const gint16 expected_row[] = { 3, 4, 5 };
  const gint16 expected_t[] = { 0, 3, 1, 4, 2, 5 };

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (row_bytes, NULL), g_bytes_get_size (row_bytes),
                   expected_row, sizeof expected_row);
  g_assert_cmpmem (g_bytes_get_data (t_bytes, NULL), g_bytes_get_size (t_bytes), expected_t,
                   sizeof expected_t);
  /* A contiguous tensor's bytes are its storage's memory. */
  g_assert_true (g_bytes_get_data (row_bytes, NULL)
                 == (const guint8 *) lt_storage_get_data (lt_tensor_get_storage (x)) + 6);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/elements/get-set", test_get_set);
  g_test_add_func ("/elements/int64-exact", test_int64_exact);
  g_test_add_func ("/elements/complex", test_complex);
  g_test_add_func ("/elements/scalar", test_scalar_element);
  g_test_add_func ("/elements/storage-indices", test_storage_indices);
  g_test_add_func ("/elements/storage-index-tensor", test_storage_index_tensor);
  g_test_add_func ("/elements/to-bytes", test_to_bytes);

  return g_test_run ();
}
