/* test-join.c: cat(), stack(), repeat(), tile(), roll(), tril(), triu()
 *
 * The differential tests against PyTorch (test-torch-python-surface.py)
 * cover the semantics; these run the C paths, errors included, under
 * valgrind and the sanitizers, and check that every result is a tensor of
 * its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static void
test_cat_and_stack (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_INT32, 2, 2);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 1);
  g_autoptr (LtTensor) empty = lt_test_arange_shaped (LT_DTYPE_INT64, 0);
  g_autoptr (LtTensor) scalar = lt_tensor_new_scalar_int (3);
  g_autoptr (LtTensor) joined = NULL;
  g_autoptr (LtTensor) stacked = NULL;
  g_autoptr (LtTensor) failed = NULL;
  LtTensor *pair[] = { a, b };
  LtTensor *with_empty[] = { empty, a, empty };
  LtTensor *same[] = { a, a };
  LtTensor *with_scalar[] = { a, scalar };

  joined = lt_cat (pair, 2, -1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (joined, 2, 3);
  g_assert_cmpint (lt_tensor_get_dtype (joined), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (joined, 0, 1, 0, 2, 3, 1);
  g_assert_false (lt_tensor_shares_storage (joined, a));
  g_clear_object (&joined);

  joined = lt_cat (with_empty, 3, 0, &error);
  g_assert_no_error (error);
  lt_assert_sizes (joined, 2, 2);
  g_assert_cmpint (lt_tensor_get_dtype (joined), ==, LT_DTYPE_INT64);

  failed = lt_cat (pair, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_null (failed);
  g_clear_error (&error);
  failed = lt_cat (with_scalar, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  failed = lt_cat (NULL, 0, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  stacked = lt_stack (same, 2, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (stacked, 2, 2, 2);
  lt_assert_values (stacked, 0, 1, 0, 1, 2, 3, 2, 3);
  failed = lt_stack (pair, 2, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  failed = lt_stack (same, 2, 3, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
}

static void
test_stacks (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) v = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3);
  g_autoptr (LtTensor) h = NULL;
  g_autoptr (LtTensor) vs = NULL;
  g_autoptr (LtTensor) d = NULL;
  LtTensor *two[] = { v, v };

  h = lt_hstack (two, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (h, 6);
  vs = lt_vstack (two, 2, &error);
  lt_assert_sizes (vs, 2, 3);
  d = lt_dstack (two, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (d, 1, 3, 2);
  lt_assert_values (d, 0, 0, 1, 1, 2, 2);
}

static void
test_repeat_tile (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);
  g_autoptr (LtTensor) repeated = lt_tensor_repeat (x, I64S (2, 2), 2, &error);
  g_autoptr (LtTensor) tiled = NULL;
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (repeated, 2, 4);
  lt_assert_values (repeated, 0, 1, 0, 1, 0, 1, 0, 1);

  tiled = lt_tensor_tile (repeated, I64S (2), 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (tiled, 2, 8);

  failed = lt_tensor_repeat (repeated, I64S (2), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  failed = lt_tensor_repeat (x, I64S (-1), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  failed = lt_tensor_repeat (x, I64S (G_MAXINT64), 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OVERFLOW);
  g_clear_error (&error);
}

static void
test_roll (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_INT64, 2, 3);
  g_autoptr (LtTensor) flat = lt_tensor_roll (x, I64S (1), 1, NULL, 0, &error);
  g_autoptr (LtTensor) both = NULL;
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (flat, 2, 3);
  lt_assert_values (flat, 5, 0, 1, 2, 3, 4);

  both = lt_tensor_roll (x, I64S (1, -1), 2, (const int[]) { 0, 1 }, 2, &error);
  g_assert_no_error (error);
  lt_assert_values (both, 4, 5, 3, 1, 2, 0);

  failed = lt_tensor_roll (x, I64S (1, 2), 2, (const int[]) { 0 }, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  failed = lt_tensor_roll (x, I64S (1), 1, (const int[]) { 2 }, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
}

static void
test_triangles (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 3);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) lower = lt_tensor_tril (x, 0, &error);
  g_autoptr (LtTensor) upper = lt_tensor_triu (t, 1, &error);
  g_autoptr (LtTensor) v = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3);
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_values (lower, 0, 0, 0, 3, 4, 0, 6, 7, 8);
  lt_assert_values (upper, 0, 3, 6, 0, 0, 7, 0, 0, 0);
  g_assert_true (lt_tensor_is_contiguous (upper));

  failed = lt_tensor_tril (v, 0, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (failed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/join/cat-stack", test_cat_and_stack);
  g_test_add_func ("/join/hstack-vstack-dstack", test_stacks);
  g_test_add_func ("/join/repeat-tile", test_repeat_tile);
  g_test_add_func ("/join/roll", test_roll);
  g_test_add_func ("/join/tril-triu", test_triangles);

  return g_test_run ();
}
