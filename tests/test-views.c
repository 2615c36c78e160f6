/* test-views.c: every view op, on the seeds' examples and PyTorch's edge cases
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static LtTensor *
new_points (void)
{
  g_autoptr (GError) error = NULL;
  LtTensor *points = lt_tensor_new_from_literal ("[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]", &error);

  g_assert_no_error (error);
  return points;
}

static void
test_points_select (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) second = lt_tensor_select (points, 0, 1, &error);

  g_assert_no_error (error);
  lt_assert_sizes (second, 2);
  lt_assert_strides (second, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (second), ==, 2);
  g_assert_true (lt_tensor_get_storage (second) == lt_tensor_get_storage (points));
  lt_assert_values (second, 5.0, 3.0);
}

static void
test_points_write_through_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) second = lt_tensor_select (points, 0, 1, &error);

  g_assert_no_error (error);
  lt_tensor_set_double (second, I64S (0), 1, 10.0, &error);
  g_assert_no_error (error);
  lt_assert_values (points, 4.0, 1.0, 10.0, 3.0, 2.0, 1.0);
}

static void
test_points_clone_is_independent (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) second = lt_tensor_select (points, 0, 1, &error);
  g_autoptr (LtTensor) copy = lt_tensor_clone (second, &error);

  g_assert_no_error (error);
  g_assert_false (lt_tensor_shares_storage (copy, points));
  lt_tensor_set_double (copy, I64S (0), 1, 10.0, &error);
  g_assert_no_error (error);
  lt_assert_values (points, 4.0, 1.0, 5.0, 3.0, 2.0, 1.0);
  lt_assert_values (copy, 10.0, 3.0);
}

static void
test_points_t (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) points_t = lt_tensor_t (points, &error);

  g_assert_no_error (error);
  lt_assert_sizes (points_t, 2, 3);
  lt_assert_strides (points, 2, 1);
  lt_assert_strides (points_t, 1, 2);
  g_assert_true (lt_tensor_shares_storage (points, points_t));
  g_assert_true (lt_tensor_is_contiguous (points));
  g_assert_false (lt_tensor_is_contiguous (points_t));
  lt_assert_values (points_t, 4.0, 5.0, 2.0, 1.0, 3.0, 1.0);
  lt_assert_storage_indices (points_t, 0, 2, 4, 1, 3, 5);
}

static void
test_points_t_contiguous (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) points_t = lt_tensor_t (points, &error);
  g_autoptr (LtTensor) cont = lt_tensor_contiguous (points_t, &error);
  LtStorage *storage;
  double value;

  g_assert_no_error (error);
  lt_assert_strides (cont, 3, 1);
  g_assert_true (lt_tensor_is_contiguous (cont));
  g_assert_false (lt_tensor_shares_storage (cont, points));

  /* The new storage holds the elements in the transposed order. */
  storage = lt_tensor_get_storage (cont);
  g_assert_cmpint (lt_storage_get_n_elements (storage), ==, 6);
  {
    const double expected[] = { 4, 5, 2, 1, 3, 1 };
    for (int i = 0; i < 6; i++)
      {
        lt_storage_get_double (storage, i, &value, &error);
        g_assert_no_error (error);
        g_assert_cmpfloat (value, ==, expected[i]);
      }
  }
}

static void
test_contiguous_returns_self (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) cont = lt_tensor_contiguous (points, &error);

  g_assert_no_error (error);
  g_assert_true (cont == points);
}

static void
test_transpose_3d (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) ones = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (3, 4, 5), 3, &error);
  g_autoptr (LtTensor) swapped = lt_tensor_transpose (ones, 0, 2, &error);

  g_assert_no_error (error);
  lt_assert_strides (ones, 20, 5, 1);
  lt_assert_sizes (swapped, 5, 4, 3);
  lt_assert_strides (swapped, 1, 5, 20);
}

/* The (2, 2, 2, 3) tensor of the seed post on view and reshape. */
static void
test_view_after_transpose_fails (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2, 2, 3);
  g_autoptr (LtTensor) xt = lt_tensor_transpose (x, 1, 0, &error);
  g_autoptr (LtTensor) viewed = NULL;
  g_autoptr (LtTensor) reshaped = NULL;
  g_autoptr (LtTensor) cont = NULL;
  g_autoptr (LtTensor) cont_viewed = NULL;

  g_assert_no_error (error);
  lt_assert_strides (x, 12, 6, 3, 1);
  lt_assert_strides (xt, 6, 12, 3, 1);

  viewed = lt_tensor_view (xt, I64S (4, 2, 3), 3, &error);
  g_assert_null (viewed);
  g_assert_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE);
  g_assert_nonnull (strstr (error->message, "dims 0 and 1"));
  g_assert_nonnull (strstr (error->message, "reshape()"));
  g_clear_error (&error);

  reshaped = lt_tensor_reshape (xt, I64S (4, 2, 3), 3, &error);
  g_assert_no_error (error);
  cont = lt_tensor_contiguous (xt, &error);
  g_assert_no_error (error);
  cont_viewed = lt_tensor_view (cont, I64S (4, 2, 3), 3, &error);
  g_assert_no_error (error);

  lt_assert_strides (reshaped, 6, 3, 1);
  g_assert_false (lt_tensor_shares_storage (reshaped, x));
  /* Both orders the elements as the transposed tensor reads them. */
  lt_assert_values (reshaped, 0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 6, 7, 8, 9, 10, 11, 18,
                    19, 20, 21, 22, 23);
  lt_assert_values (cont_viewed, 0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 6, 7, 8, 9, 10, 11,
                    18, 19, 20, 21, 22, 23);
}

static void
test_view_splits_noncontiguous_dims (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
  g_autoptr (LtTensor) xt = lt_tensor_transpose (x, 0, 1, &error);
  g_autoptr (LtTensor) split = lt_tensor_view (xt, I64S (3, 2, 2, 2), 4, &error);
  g_autoptr (LtTensor) merged = NULL;

  g_assert_no_error (error);
  lt_assert_strides (split, 4, 12, 2, 1);
  g_assert_true (lt_tensor_shares_storage (split, x));

  merged = lt_tensor_view (xt, I64S (3, 8), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE);
  g_assert_null (merged);
}

static void
test_view_of_sliced (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 6, 4);
  g_autoptr (LtTensor) half = lt_tensor_index (x, "[:, :3]", &error);
  g_autoptr (LtTensor) rows = lt_tensor_view (half, I64S (2, 12), 2, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (half, 2, 3, 4);
  lt_assert_strides (rows, 24, 1);

  bad = lt_tensor_view (half, I64S (6, 4), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE);
  g_assert_null (bad);
}

static void
test_view_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) empty = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (0, 3), 2, &error);
  g_autoptr (LtTensor) viewed = lt_tensor_view (empty, I64S (3, 0), 2, &error);
  g_autoptr (LtTensor) ambiguous = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (viewed, 3, 0);
  lt_assert_strides (viewed, 1, 1);

  ambiguous = lt_tensor_view (empty, I64S (-1, 0), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_null (ambiguous);
}

static void
test_view_infers_size (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 12);
  g_autoptr (LtTensor) viewed = lt_tensor_view (x, I64S (-1, 4), 2, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (viewed, 3, 4);

  /* The -1 becomes 1 when the other sizes already make the element count. */
  g_clear_object (&viewed);
  viewed = lt_tensor_view (x, I64S (12, -1), 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (viewed, 12, 1);

  bad = lt_tensor_view (x, I64S (5, -1), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  bad = lt_tensor_view (x, I64S (-1, -1), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_view (x, I64S (-2, -6), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_contiguous_with_odd_size1_stride (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 6);
  g_autoptr (LtTensor) odd = lt_tensor_as_strided (base, I64S (2, 1, 3), 3, I64S (3, 99, 1), 3,
                                                   0, &error);
  g_autoptr (LtTensor) cont = NULL;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_is_contiguous (odd));
  cont = lt_tensor_contiguous (odd, &error);
  g_assert_no_error (error);
  g_assert_true (cont == odd);
}

static void
test_view_as_real (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, I64S (8), 1, &error);
  g_autoptr (LtTensor) strided = lt_tensor_as_strided (base, I64S (3), 1, I64S (2), 1, 1, &error);
  g_autoptr (LtTensor) real = lt_tensor_view_as_real (strided, &error);
  g_autoptr (LtTensor) back = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (real, 3, 2);
  lt_assert_strides (real, 4, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (real), ==, 2);
  g_assert_cmpint (lt_tensor_get_dtype (real), ==, LT_DTYPE_FLOAT32);
  g_assert_true (lt_tensor_shares_storage (real, base));

  /* Writing the imaginary part through the real view shows in the complex one. */
  lt_tensor_set_double (real, I64S (1, 1), 2, 7.0, &error);
  g_assert_no_error (error);
  {
    double re, im;
    lt_tensor_get_complex (strided, I64S (1), 1, &re, &im, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (re, ==, 0.0);
    g_assert_cmpfloat (im, ==, 7.0);
  }

  back = lt_tensor_view_as_complex (real, &error);
  g_assert_no_error (error);
  lt_assert_sizes (back, 3);
  lt_assert_strides (back, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (back), ==, 1);
  g_assert_cmpint (lt_tensor_get_dtype (back), ==, LT_DTYPE_COMPLEX64);
}

static void
test_view_as_complex_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 2);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) ints = lt_test_arange_shaped (LT_DTYPE_INT64, 3, 2);
  g_autoptr (LtTensor) result = NULL;

  result = lt_tensor_view_as_complex (xt, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  result = lt_tensor_view_as_complex (ints, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  result = lt_tensor_view_as_real (x, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (result);
}

/* The seed's flatten(start_dim=2) example: a (2, 2, 2, 2) tensor 1..16. */
static void
test_flatten_order (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2, 2, 2);
  g_autoptr (LtTensor) b = lt_tensor_flatten (a, 2, -1, &error);
  double value;

  g_assert_no_error (error);
  lt_assert_sizes (b, 2, 2, 4);
  g_assert_true (lt_tensor_shares_storage (a, b));
  /* B[i, j, k] = A[i, j, m, n] with k = 2 * m + n: element 14 (13 counting
   * from 0) of A at [1, 1, 1, 0] is B[1, 1, 2]. */
  lt_tensor_get_double (b, I64S (1, 1, 2), 3, &value, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (value, ==, 14.0);
  lt_tensor_get_double (a, I64S (1, 1, 1, 0), 4, &value, &error);
  g_assert_cmpfloat (value, ==, 14.0);
}

static void
test_flatten_edges (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) scalar = lt_tensor_new_full (LT_DTYPE_FLOAT32, NULL, 0, 3.0, &error);
  g_autoptr (LtTensor) flat = lt_tensor_flatten (scalar, 0, -1, &error);
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
  g_autoptr (LtTensor) same = lt_tensor_flatten (x, 1, 1, &error);
  g_autoptr (LtTensor) xt = lt_tensor_transpose (x, 0, 2, &error);
  g_autoptr (LtTensor) copied = lt_tensor_flatten (xt, 0, 1, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (flat, 1);
  g_assert_true (same == x);
  lt_assert_sizes (copied, 12, 2);
  g_assert_false (lt_tensor_shares_storage (copied, x));

  bad = lt_tensor_flatten (x, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_unflatten (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 12);
  g_autoptr (LtTensor) split = lt_tensor_unflatten (x, -1, I64S (2, -1, 3), 3, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (split, 3, 2, 2, 3);
  lt_assert_strides (split, 12, 6, 3, 1);

  bad = lt_tensor_unflatten (x, 1, I64S (5, 2), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (error->message, ==,
                   "unflatten(): shape (5, 2) does not fit dim 1 of size 12; the sizes must "
                   "multiply to 12");
  g_clear_error (&error);
  bad = lt_tensor_unflatten (x, 1, I64S (0, -1), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (error->message, ==,
                   "unflatten(): cannot infer the -1 in shape (0, -1) for dim 1 of size 12: with "
                   "another size 0, any size would do");
  g_clear_error (&error);
  bad = lt_tensor_view (x, I64S (-1, 0), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (error->message, ==,
                   "view(): cannot infer the -1 in shape (-1, 0) for a tensor of 36 elements: with "
                   "another size 0, any size would do");
  g_clear_error (&error);
  bad = lt_tensor_reshape (x, I64S (5, 7), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (error->message, ==,
                   "reshape(): shape (5, 7) does not fit a tensor of 36 elements; the sizes must "
                   "multiply to 36");
  g_clear_error (&error);
  bad = lt_tensor_unflatten (x, 1, NULL, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_select_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) last = lt_tensor_select (points, -1, -1, &error);
  g_autoptr (LtTensor) bad = NULL;
  g_autoptr (LtTensor) scalar = NULL;

  g_assert_no_error (error);
  lt_assert_values (last, 1.0, 3.0, 1.0);
  lt_assert_strides (last, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (last), ==, 1);

  bad = lt_tensor_select (points, 0, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  bad = lt_tensor_select (points, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  bad = lt_tensor_select (points, -3, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);

  scalar = lt_tensor_select (last, 0, 0, &error);
  g_assert_no_error (error);
  bad = lt_tensor_select (scalar, 0, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_assert_null (bad);
}

static void
test_slice (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 10);
  g_autoptr (LtTensor) a = lt_tensor_slice (x, 0, 1, 8, 3, &error);
  g_autoptr (LtTensor) b = lt_tensor_slice (x, 0, -3, G_MAXINT64, 1, &error);
  g_autoptr (LtTensor) c = lt_tensor_slice (x, 0, 20, 30, 1, &error);
  g_autoptr (LtTensor) d = lt_tensor_slice (x, 0, G_MAXINT64, G_MININT64, -1, &error);
  g_autoptr (LtTensor) e = lt_tensor_slice (x, 0, 8, 2, -3, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (a, 1, 4, 7);
  lt_assert_strides (a, 3);
  lt_assert_values (b, 7, 8, 9);
  lt_assert_sizes (c, 0);
  g_assert_cmpint (lt_tensor_get_storage_offset (c), ==, 10);
  lt_assert_values (d, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  lt_assert_strides (d, -1);
  g_assert_cmpint (lt_tensor_get_storage_offset (d), ==, 9);
  lt_assert_values (e, 8, 5);

  bad = lt_tensor_slice (x, 0, 0, 5, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_narrow (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) cols = lt_tensor_narrow (x, 1, -3, 2, &error);
  g_autoptr (LtTensor) end = lt_tensor_narrow (x, 0, 3, 0, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (cols, 3, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (cols), ==, 1);
  lt_assert_values (cols, 1, 2, 5, 6, 9, 10);
  lt_assert_sizes (end, 0, 4);

  bad = lt_tensor_narrow (x, 1, 3, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  bad = lt_tensor_narrow (x, 1, 0, -1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_index_expressions (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) rest = lt_tensor_index (points, "[1:]", &error);
  g_autoptr (LtTensor) rest_all = lt_tensor_index (points, "[1:, :]", &error);
  g_autoptr (LtTensor) rest_x = lt_tensor_index (points, "[1:, 0]", &error);
  g_autoptr (LtTensor) batched = lt_tensor_index (points, "[None]", &error);
  g_autoptr (LtTensor) first_col = lt_tensor_index (points, "[..., :1]", &error);
  g_autoptr (LtTensor) reversed = lt_tensor_index (points, "[::-1]", &error);
  g_autoptr (LtTensor) element = lt_tensor_index (points, "2, -1", &error);
  g_autoptr (LtTensor) everything = lt_tensor_index (points, "[...]", &error);
  g_autoptr (LtTensor) middle = lt_tensor_index (points, "[:, None, 1]", &error);

  g_assert_no_error (error);
  lt_assert_sizes (rest, 2, 2);
  lt_assert_values (rest, 5, 3, 2, 1);
  lt_assert_sizes (rest_all, 2, 2);
  lt_assert_values (rest_x, 5, 2);
  lt_assert_strides (rest_x, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (rest_x), ==, 2);
  lt_assert_sizes (batched, 1, 3, 2);
  lt_assert_strides (batched, 6, 2, 1);
  lt_assert_sizes (first_col, 3, 1);
  lt_assert_values (reversed, 2, 1, 5, 3, 4, 1);
  lt_assert_strides (reversed, -2, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (reversed), ==, 4);
  lt_assert_scalar_shape (element);
  lt_assert_values (element, 1);
  lt_assert_sizes (everything, 3, 2);
  lt_assert_sizes (middle, 3, 1);
  lt_assert_values (middle, 1, 3, 1);
}

static void
test_index_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) bad = NULL;

  bad = lt_tensor_index (points, "[1:, 0, 0]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[1:, x]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "column 6"));
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[5]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[..., ...]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[::0]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[1", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_clear_error (&error);

  bad = lt_tensor_index (points, "[99999999999999999999]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_null (bad);
}

static void
test_unsqueeze_squeeze (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) front = lt_tensor_unsqueeze (x, 0, &error);
  g_autoptr (LtTensor) middle = lt_tensor_unsqueeze (x, 1, &error);
  g_autoptr (LtTensor) back = lt_tensor_unsqueeze (x, -1, &error);
  g_autoptr (LtTensor) squeezed = NULL;
  g_autoptr (LtTensor) kept = NULL;
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (front, 1, 3, 4);
  lt_assert_strides (front, 12, 4, 1);
  lt_assert_sizes (middle, 3, 1, 4);
  lt_assert_strides (middle, 4, 4, 1);
  lt_assert_sizes (back, 3, 4, 1);
  lt_assert_strides (back, 4, 1, 1);

  squeezed = lt_tensor_squeeze (middle);
  lt_assert_sizes (squeezed, 3, 4);
  g_clear_object (&squeezed);
  squeezed = lt_tensor_squeeze_dim (middle, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (squeezed, 3, 4);
  kept = lt_tensor_squeeze_dim (middle, 0, &error);
  g_assert_no_error (error);
  lt_assert_sizes (kept, 3, 1, 4);

  bad = lt_tensor_unsqueeze (x, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  bad = lt_tensor_squeeze_dim (x, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_assert_null (bad);
}

static void
test_permute_movedim (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
  g_autoptr (LtTensor) p = lt_tensor_permute (x, (const int[]) { 2, 0, 1 }, 3, &error);
  g_autoptr (LtTensor) m = lt_tensor_movedim (x, (const int[]) { 0 }, 1, (const int[]) { -1 }, 1,
                                              &error);
  g_autoptr (LtTensor) m2 = lt_tensor_movedim (x, (const int[]) { 0, 2 }, 2,
                                               (const int[]) { 2, 0 }, 2, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (p, 4, 2, 3);
  lt_assert_strides (p, 1, 12, 4);
  lt_assert_sizes (m, 3, 4, 2);
  lt_assert_strides (m, 4, 1, 12);
  lt_assert_sizes (m2, 4, 3, 2);
  lt_assert_strides (m2, 1, 4, 12);

  bad = lt_tensor_permute (x, (const int[]) { 0, 0, 1 }, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_permute (x, (const int[]) { 0, 1 }, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_permute (x, (const int[]) { 0, 1, 3 }, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  bad = lt_tensor_movedim (x, (const int[]) { 0 }, 1, (const int[]) { 0, 1 }, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_t_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
  g_autoptr (LtTensor) v = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4);
  g_autoptr (LtTensor) vt = lt_tensor_t (v, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (vt, 4);
  bad = lt_tensor_t (x, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_expand (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) col = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 1);
  g_autoptr (LtTensor) wide = lt_tensor_expand (col, I64S (2, 3, 4), 3, &error);
  g_autoptr (LtTensor) keep = lt_tensor_expand (col, I64S (-1, 4), 2, &error);
  g_autoptr (LtTensor) lead1 = lt_tensor_expand (col, I64S (1, 3, 1), 3, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (wide, 2, 3, 4);
  lt_assert_strides (wide, 0, 1, 0);
  lt_assert_strides (keep, 1, 0);
  lt_assert_values (keep, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2);
  /* A new leading dim of size 1 gets the stride that keeps it contiguous. */
  lt_assert_strides (lead1, 3, 1, 1);

  /* A 0-dim tensor expands with stride 0 everywhere, as in PyTorch. */
  {
    g_autoptr (LtTensor) scalar = lt_tensor_new_full (LT_DTYPE_FLOAT32, NULL, 0, 1.0, &error);
    g_autoptr (LtTensor) grid = lt_tensor_expand (scalar, I64S (3, 1), 2, &error);

    g_assert_no_error (error);
    lt_assert_strides (grid, 0, 0);
  }
  g_assert_true (lt_tensor_has_internal_overlap (wide));
  g_assert_false (lt_tensor_has_internal_overlap (col));

  bad = lt_tensor_expand (col, I64S (3, 4, -1), 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  bad = lt_tensor_expand (col, I64S (-1, 3, 1), 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_expand (col, I64S (4), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_expand (col, I64S (6, 1), 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_null (bad);
}

static void
test_write_into_expanded_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) col = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 1);
  g_autoptr (LtTensor) wide = lt_tensor_expand (col, I64S (3, 4), 2, &error);

  g_assert_no_error (error);
  g_assert_false (lt_tensor_fill (wide, 1.0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);
  g_assert_false (lt_tensor_copy_from (wide, col, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  /* Nothing was written. */
  lt_assert_values (col, 0, 1, 2);
}

static void
test_as_strided (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 6);
  g_autoptr (LtTensor) a = lt_tensor_as_strided (x, I64S (2, 2), 2, I64S (1, 2), 2, 1, &error);
  g_autoptr (LtTensor) windows = lt_tensor_as_strided (x, I64S (4, 3), 2, I64S (1, 1), 2, 0,
                                                       &error);
  g_autoptr (LtTensor) backwards = lt_tensor_as_strided (x, I64S (3), 1, I64S (-2), 1, 5,
                                                         &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (a, 1, 3, 2, 4);
  lt_assert_storage_indices (a, 1, 3, 2, 4);
  g_assert_true (lt_tensor_has_internal_overlap (windows));
  lt_assert_values (backwards, 5, 3, 1);

  bad = lt_tensor_as_strided (x, I64S (3), 1, I64S (2), 1, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_clear_error (&error);
  bad = lt_tensor_as_strided (x, I64S (3), 1, I64S (-2), 1, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_clear_error (&error);
  bad = lt_tensor_as_strided (x, I64S (2), 1, I64S (1, 1), 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_as_strided (x, I64S (2), 1, I64S (1), 1, -1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_clear_error (&error);
  bad = lt_tensor_as_strided (x, I64S (2, G_MAXINT64 / 2), 2, I64S (G_MAXINT64 / 2, 1), 2, 0,
                              &error);
  g_assert_nonnull (error);
  g_assert_true (error->domain == LT_ERROR);
  g_assert_null (bad);
}

static void
test_diagonal (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) main_diag = lt_tensor_diagonal (x, 0, 0, 1, &error);
  g_autoptr (LtTensor) above = lt_tensor_diagonal (x, 1, 0, 1, &error);
  g_autoptr (LtTensor) below = lt_tensor_diagonal (x, -1, 0, 1, &error);
  g_autoptr (LtTensor) outside = lt_tensor_diagonal (x, 10, 0, 1, &error);
  g_autoptr (LtTensor) cube = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 3);
  g_autoptr (LtTensor) batch = lt_tensor_diagonal (cube, 0, 1, 2, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (main_diag, 0, 5, 10);
  lt_assert_strides (main_diag, 5);
  lt_assert_values (above, 1, 6, 11);
  g_assert_cmpint (lt_tensor_get_storage_offset (above), ==, 1);
  lt_assert_values (below, 4, 9);
  g_assert_cmpint (lt_tensor_get_storage_offset (below), ==, 4);
  lt_assert_sizes (outside, 0);
  lt_assert_sizes (batch, 2, 3);
  lt_assert_strides (batch, 9, 4);
  lt_assert_values (batch, 0, 4, 8, 9, 13, 17);

  bad = lt_tensor_diagonal (x, 0, 1, -1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_unfold (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 7);
  g_autoptr (LtTensor) windows = lt_tensor_unfold (x, 0, 3, 2, &error);
  g_autoptr (LtTensor) m = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 5);
  g_autoptr (LtTensor) rows = lt_tensor_unfold (m, 1, 2, 1, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (windows, 3, 3);
  lt_assert_strides (windows, 2, 1);
  lt_assert_values (windows, 0, 1, 2, 2, 3, 4, 4, 5, 6);
  lt_assert_sizes (rows, 2, 4, 2);
  lt_assert_strides (rows, 5, 1, 1);

  bad = lt_tensor_unfold (x, 0, 8, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_unfold (x, 0, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_flip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) f = lt_tensor_flip (x, (const int[]) { 0, 1 }, 2, &error);
  g_autoptr (LtTensor) cont = NULL;
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_strides (f, -3, -1);
  g_assert_cmpint (lt_tensor_get_storage_offset (f), ==, 5);
  lt_assert_values (f, 5, 4, 3, 2, 1, 0);
  g_assert_false (lt_tensor_is_contiguous (f));
  g_assert_false (lt_tensor_has_internal_overlap (f));

  cont = lt_tensor_contiguous (f, &error);
  g_assert_no_error (error);
  lt_assert_strides (cont, 3, 1);
  lt_assert_values (cont, 5, 4, 3, 2, 1, 0);

  bad = lt_tensor_flip (x, (const int[]) { 0, -2 }, 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

/* An expanded dim before an empty one made has_internal_overlap() say TRUE,
 * so writes into the empty view were refused. In PyTorch
 * torch.zeros(1, 0).expand(3, 0) has strides (0, 1),
 * torch._debug_has_internal_overlap() says 0 and fill_() works. */
static void
test_expand_empty_no_overlap (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) empty = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (1, 0), 2, &error);
  g_autoptr (LtTensor) wide = lt_tensor_expand (empty, I64S (3, 0), 2, &error);
  g_autoptr (LtTensor) wider = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (wide, 3, 0);
  lt_assert_strides (wide, 0, 1);
  g_assert_false (lt_tensor_has_internal_overlap (wide));
  g_assert_true (lt_tensor_fill (wide, 1.0, &error));
  g_assert_no_error (error);

  /* torch.zeros(1, 1, 0).expand(2, 4, 0): strides (0, 0, 1), no overlap. */
  g_clear_object (&empty);
  empty = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (1, 1, 0), 3, &error);
  g_assert_no_error (error);
  wider = lt_tensor_expand (empty, I64S (2, 4, 0), 3, &error);
  g_assert_no_error (error);
  lt_assert_strides (wider, 0, 0, 1);
  g_assert_false (lt_tensor_has_internal_overlap (wider));
}

/* An empty slice of a flipped dim starts where the slice would start, which
 * for a tensor at the start of its storage lay before it: storage offset -4,
 * an offset as_strided() refuses to recreate. PyTorch has no negative strides
 * to compare with; its storage offsets are never negative, and an empty view
 * reads nothing, so such a view now starts at 0. */
static void
test_empty_slice_of_flipped_offset (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1, 4);
  g_autoptr (LtTensor) flipped = lt_tensor_flip (x, (const int[]) { 0 }, 1, &error);
  g_autoptr (LtTensor) sliced = NULL;
  g_autoptr (LtTensor) narrowed = NULL;
  g_autoptr (LtTensor) again = NULL;

  g_assert_no_error (error);
  lt_assert_strides (flipped, -4, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (flipped), ==, 0);

  sliced = lt_tensor_index (flipped, "[1:]", &error);
  g_assert_no_error (error);
  lt_assert_sizes (sliced, 0, 4);
  g_assert_cmpint (lt_tensor_get_storage_offset (sliced), ==, 0);

  narrowed = lt_tensor_narrow (flipped, 0, 1, 0, &error);
  g_assert_no_error (error);
  lt_assert_sizes (narrowed, 0, 4);
  g_assert_cmpint (lt_tensor_get_storage_offset (narrowed), ==, 0);

  /* Its metadata describes a valid view of the storage. */
  again = lt_tensor_as_strided (sliced, lt_tensor_get_sizes (sliced, &(guint) { 0 }), 2,
                                lt_tensor_get_strides (sliced, &(guint) { 0 }), 2,
                                lt_tensor_get_storage_offset (sliced), &error);
  g_assert_no_error (error);
  lt_assert_sizes (again, 0, 4);
}

/* A huge step on a dim of size 1 leaves a stride that is never used. Ops
 * that double, add or multiply such strides refused with LT_ERROR_OVERFLOW,
 * and lt_tensor_to_doubles() of a complex tensor crashed on that refusal
 * (it views the tensor as real first). Strides that are never used now wrap
 * around, as PyTorch's arithmetic does:
 * torch.zeros(1).as_strided([2**31, 0], [2**40 + 1, 1]).unsqueeze(0) has
 * strides (2**31, 2**40 + 1, 1). */
static void
test_unused_huge_strides (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) z = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, I64S (3), 1, &error);
  g_autoptr (LtTensor) tail = lt_tensor_as_strided (z, I64S (2), 1, I64S (1), 1, 1, &error);
  g_autoptr (LtTensor) one = lt_tensor_slice (tail, 0, G_MAXINT64, G_MININT64, -G_MAXINT64,
                                              &error);
  g_autoptr (LtTensor) real = NULL;
  g_autoptr (LtTensor) flat = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (1), 1, &error);
  g_autoptr (LtTensor) empty = NULL;
  g_autoptr (LtTensor) unsqueezed = NULL;
  g_autoptr (LtTensor) square = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (1, 1), 2, &error);
  g_autoptr (LtTensor) backwards = NULL;
  g_autoptr (LtTensor) diagonal = NULL;
  g_autofree double *values = NULL;
  gsize n_values;

  g_assert_no_error (error);
  lt_assert_sizes (one, 1);
  lt_assert_strides (one, -G_MAXINT64);
  g_assert_cmpint (lt_tensor_get_storage_offset (one), ==, 2);

  values = lt_tensor_to_doubles (one, &n_values);
  g_assert_cmpuint (n_values, ==, 2);
  real = lt_tensor_view_as_real (one, &error);
  g_assert_no_error (error);
  lt_assert_sizes (real, 1, 2);
  /* -2 * (2**63 - 1) wraps around to 2. */
  lt_assert_strides (real, 2, 1);
  g_assert_cmpint (lt_tensor_get_storage_offset (real), ==, 4);

  empty = lt_tensor_as_strided (flat, I64S (G_GINT64_CONSTANT (1) << 31, 0), 2,
                                I64S ((G_GINT64_CONSTANT (1) << 40) + 1, 1), 2, 0, &error);
  g_assert_no_error (error);
  unsqueezed = lt_tensor_unsqueeze (empty, 0, &error);
  g_assert_no_error (error);
  lt_assert_sizes (unsqueezed, 1, G_GINT64_CONSTANT (1) << 31, 0);
  lt_assert_strides (unsqueezed, G_GINT64_CONSTANT (1) << 31,
                     (G_GINT64_CONSTANT (1) << 40) + 1, 1);

  backwards = lt_tensor_index (square, "[::-9223372036854775808, ::-9223372036854775808]",
                               &error);
  g_assert_no_error (error);
  lt_assert_strides (backwards, -G_MAXINT64, -G_MAXINT64);
  diagonal = lt_tensor_diagonal (backwards, 0, 0, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (diagonal, 1);
  lt_assert_strides (diagonal, 2);
  lt_assert_values (diagonal, 0.0);
}

static guint
n_pieces (GPtrArray *pieces)
{
  return pieces->len;
}

static void
test_split_chunk_unbind (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 5, 2);
  g_autoptr (GPtrArray) split = lt_tensor_split (x, 2, 0, &error);
  g_autoptr (GPtrArray) sized = lt_tensor_split_with_sizes (x, I64S (1, 4), 2, 0, &error);
  g_autoptr (GPtrArray) chunks = lt_tensor_chunk (x, 2, 0, &error);
  g_autoptr (GPtrArray) columns = lt_tensor_unbind (x, 1, &error);
  g_autoptr (LtTensor) empty = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (0), 1, &error);
  g_autoptr (GPtrArray) empty_chunks = lt_tensor_chunk (empty, 3, 0, &error);
  g_autoptr (GPtrArray) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (n_pieces (split), ==, 3);
  lt_assert_sizes (g_ptr_array_index (split, 2), 1, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (g_ptr_array_index (split, 2)), ==, 8);
  g_assert_cmpuint (n_pieces (sized), ==, 2);
  lt_assert_sizes (g_ptr_array_index (sized, 1), 4, 2);
  g_assert_cmpuint (n_pieces (chunks), ==, 2);
  lt_assert_sizes (g_ptr_array_index (chunks, 0), 3, 2);
  lt_assert_sizes (g_ptr_array_index (chunks, 1), 2, 2);
  g_assert_cmpuint (n_pieces (columns), ==, 2);
  lt_assert_values (g_ptr_array_index (columns, 1), 1, 3, 5, 7, 9);
  g_assert_cmpuint (n_pieces (empty_chunks), ==, 3);

  bad = lt_tensor_split_with_sizes (x, I64S (1, 1), 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  bad = lt_tensor_split (x, 0, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = lt_tensor_chunk (x, 0, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (bad);
}

static void
test_many_dims (void)
{
  g_autoptr (GError) error = NULL;
  gint64 sizes[40];
  g_autoptr (LtTensor) big = NULL;
  g_autoptr (LtTensor) moved = NULL;
  g_autoptr (LtTensor) too_many = NULL;
  gint64 too_many_sizes[LT_MAX_DIMS + 1];

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    sizes[i] = i % 3 == 0 ? 2 : 1;
  big = lt_tensor_new_ones (LT_DTYPE_FLOAT32, sizes, G_N_ELEMENTS (sizes), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lt_tensor_get_dim (big), ==, 40);
  moved = lt_tensor_transpose (big, 0, 39, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_numel (moved), ==, 1 << 14);

  for (guint i = 0; i < G_N_ELEMENTS (too_many_sizes); i++)
    too_many_sizes[i] = 1;
  too_many = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, too_many_sizes,
                                  G_N_ELEMENTS (too_many_sizes), &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (too_many);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* In-place views change the tensor itself, notify its properties, leave other
 * views of the storage alone, and leave the tensor as it was on an error. */
static void
test_in_place_views (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) other = lt_tensor_alias (x);
  guint notified = 0;

  g_signal_connect (x, "notify::dim", G_CALLBACK (count_notify), &notified);

  g_assert_true (lt_tensor_unsqueeze_ (x, 1, &error));
  g_assert_no_error (error);
  lt_assert_sizes (x, 3, 1, 4);
  lt_assert_strides (x, 4, 4, 1);
  g_assert_cmpuint (notified, ==, 1);
  lt_assert_sizes (other, 3, 4);

  g_assert_false (lt_tensor_unsqueeze_ (x, 5, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  lt_assert_sizes (x, 3, 1, 4);

  lt_tensor_squeeze_ (x);
  lt_assert_sizes (x, 3, 4);

  g_assert_true (lt_tensor_t_ (x, &error));
  lt_assert_sizes (x, 4, 3);
  lt_assert_strides (x, 1, 4);
  g_assert_false (lt_tensor_is_contiguous (x));

  g_assert_true (lt_tensor_transpose_ (x, 0, -1, &error));
  g_assert_true (lt_tensor_is_contiguous (x));

  /* Past the inline shape and back: the sizes move to the heap. */
  for (guint i = 0; i < 8; i++)
    g_assert_true (lt_tensor_unsqueeze_ (x, 0, &error));
  g_assert_cmpuint (lt_tensor_get_dim (x), ==, 10);
  g_assert_true (lt_tensor_as_strided_ (x, I64S (2, 2), 2, I64S (1, 2), 2, 3, &error));
  g_assert_no_error (error);
  lt_assert_sizes (x, 2, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (x), ==, 3);
  lt_assert_values (x, 3.0, 5.0, 4.0, 6.0);

  g_assert_false (lt_tensor_as_strided_ (x, I64S (2), 1, I64S (20), 1, 0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_clear_error (&error);
  lt_assert_sizes (x, 2, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (x), ==, 3);
}

/* The splits and views PyTorch defines through the others. */
static void
test_derived_views (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 7);
  g_autoptr (GPtrArray) pieces = lt_tensor_tensor_split (x, 3, 1, &error);
  g_autoptr (GPtrArray) at = NULL;
  g_autoptr (LtTensor) mt = NULL;
  g_autoptr (LtTensor) imag = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 3);
  lt_assert_sizes (g_ptr_array_index (pieces, 0), 2, 3);
  lt_assert_sizes (g_ptr_array_index (pieces, 1), 2, 2);
  lt_assert_sizes (g_ptr_array_index (pieces, 2), 2, 2);
  g_assert_cmpint (lt_tensor_get_storage_offset (g_ptr_array_index (pieces, 2)), ==, 5);

  at = lt_tensor_tensor_split_indices (x, I64S (-2, 100), 2, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (at->len, ==, 3);
  lt_assert_sizes (g_ptr_array_index (at, 0), 2, 5);
  lt_assert_sizes (g_ptr_array_index (at, 1), 2, 2);
  lt_assert_sizes (g_ptr_array_index (at, 2), 2, 0);

  g_assert_null (lt_tensor_hsplit (x, 2, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lt_tensor_tensor_split (x, 0, 0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  mt = lt_tensor_mt (x, &error);
  lt_assert_sizes (mt, 7, 2);
  lt_assert_strides (mt, 1, 7);

  imag = lt_tensor_imag (x, &error);
  g_assert_null (imag);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
}

/* Counts of one are said in the singular ("a tensor of 1 element"). */
static void
test_singular_counts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) one = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1);
  g_autoptr (LtTensor) failed = lt_tensor_view (one, (gint64[]) { 2 }, 1, &error);

  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "a tensor of 1 element;"));
  g_clear_error (&error);
  failed = lt_tensor_as_strided (one, (gint64[]) { 2 }, 1, (gint64[]) { 1 }, 1, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS);
  g_assert_nonnull (strstr (error->message, "outside the storage of 1 element"));
  g_assert_null (strstr (error->message, "1 elements"));
  g_assert_null (failed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/views/seeds/points-select", test_points_select);
  g_test_add_func ("/views/seeds/write-through-view", test_points_write_through_view);
  g_test_add_func ("/views/seeds/clone-is-independent", test_points_clone_is_independent);
  g_test_add_func ("/views/seeds/points-t", test_points_t);
  g_test_add_func ("/views/seeds/points-t-contiguous", test_points_t_contiguous);
  g_test_add_func ("/views/seeds/transpose-3d", test_transpose_3d);
  g_test_add_func ("/views/seeds/view-after-transpose-fails", test_view_after_transpose_fails);
  g_test_add_func ("/views/seeds/flatten-order", test_flatten_order);
  g_test_add_func ("/views/contiguous/returns-self", test_contiguous_returns_self);
  g_test_add_func ("/views/contiguous/odd-size1-stride", test_contiguous_with_odd_size1_stride);
  g_test_add_func ("/views/view/splits-noncontiguous-dims", test_view_splits_noncontiguous_dims);
  g_test_add_func ("/views/view/of-sliced", test_view_of_sliced);
  g_test_add_func ("/views/view/empty", test_view_empty);
  g_test_add_func ("/views/view/infers-size", test_view_infers_size);
  g_test_add_func ("/views/view-as-real/strided", test_view_as_real);
  g_test_add_func ("/views/view-as-complex/errors", test_view_as_complex_errors);
  g_test_add_func ("/views/flatten/edges", test_flatten_edges);
  g_test_add_func ("/views/unflatten", test_unflatten);
  g_test_add_func ("/views/select/errors", test_select_errors);
  g_test_add_func ("/views/slice", test_slice);
  g_test_add_func ("/views/narrow", test_narrow);
  g_test_add_func ("/views/index/expressions", test_index_expressions);
  g_test_add_func ("/views/index/errors", test_index_errors);
  g_test_add_func ("/views/unsqueeze-squeeze", test_unsqueeze_squeeze);
  g_test_add_func ("/views/permute-movedim", test_permute_movedim);
  g_test_add_func ("/views/t/errors", test_t_errors);
  g_test_add_func ("/views/expand", test_expand);
  g_test_add_func ("/views/expand/write-refused", test_write_into_expanded_refused);
  g_test_add_func ("/views/expand/empty-no-overlap", test_expand_empty_no_overlap);
  g_test_add_func ("/views/as-strided", test_as_strided);
  g_test_add_func ("/views/diagonal", test_diagonal);
  g_test_add_func ("/views/unfold", test_unfold);
  g_test_add_func ("/views/flip", test_flip);
  g_test_add_func ("/views/flip/empty-slice-offset", test_empty_slice_of_flipped_offset);
  g_test_add_func ("/views/huge-unused-strides", test_unused_huge_strides);
  g_test_add_func ("/views/split-chunk-unbind", test_split_chunk_unbind);
  g_test_add_func ("/views/many-dims", test_many_dims);
  g_test_add_func ("/views/in-place", test_in_place_views);
  g_test_add_func ("/views/derived", test_derived_views);
  g_test_add_func ("/views/singular-counts", test_singular_counts);

  return g_test_run ();
}
