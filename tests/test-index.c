/* test-index.c: index_select(), gather(), take(), nonzero(),
 * masked_select(), masked_fill(), scatter_(), scatter_add_(), index_copy_(),
 * index_add_(), index_fill_(), index expressions with tensor arguments
 * (index_with_tensors(), index_put_with_tensors_()), sort(), argsort(),
 * topk()
 *
 * The differential tests against PyTorch (test-torch-python-surface.py)
 * cover the semantics on many inputs; these run the C paths, errors
 * included, under valgrind and the sanitizers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static LtTensor *
int64s (const gint64 *values,
        guint         n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = g_bytes_new (values, n * sizeof (gint64));
  gint64 size = n;
  LtTensor *tensor = lt_tensor_new_from_bytes (LT_DTYPE_INT64, bytes, &size, 1, &error);

  g_assert_no_error (error);
  return tensor;
}

static void
test_index_select (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) index = int64s (I64S (2, 0, 2), 3);
  g_autoptr (LtTensor) bad = int64s (I64S (3), 1);
  g_autoptr (LtTensor) rows = lt_tensor_index_select (x, 0, index, &error);
  g_autoptr (LtTensor) columns = NULL;
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (rows, 3, 4);
  lt_assert_values (rows, 8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11);
  g_assert_false (lt_tensor_shares_storage (rows, x));

  columns = lt_tensor_index_select (t, 1, index, &error);
  g_assert_no_error (error);
  lt_assert_sizes (columns, 4, 3);
  lt_assert_values (columns, 8, 0, 8, 9, 1, 9, 10, 2, 10, 11, 3, 11);

  failed = lt_tensor_index_select (x, 0, bad, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  failed = lt_tensor_index_select (x, 0, x, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  failed = lt_tensor_index_select (x, 2, index, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
}

static void
test_gather_take (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_INT16, 2, 3);
  g_autoptr (LtTensor) flat = int64s (I64S (1, 0, 2, 2), 4);
  g_autoptr (LtTensor) index = lt_tensor_view (flat, I64S (2, 2), 2, &error);
  g_autoptr (LtTensor) gathered = lt_tensor_gather (x, 1, index, &error);
  g_autoptr (LtTensor) positions = int64s (I64S (-1, 0, 4), 3);
  g_autoptr (LtTensor) taken = lt_tensor_take (x, positions, &error);
  g_autoptr (LtTensor) too_far = int64s (I64S (6), 1);
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_values (gathered, 1, 0, 5, 5);
  lt_assert_values (taken, 5, 0, 4);

  failed = lt_tensor_gather (x, 0, flat, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  failed = lt_tensor_gather (x, 0, index, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  failed = lt_tensor_take (x, too_far, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
}

static void
test_masks (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 3);
  g_autoptr (LtTensor) three = lt_tensor_new_scalar_double (3);
  g_autoptr (LtTensor) mask = lt_tensor_binary (x, LT_BINARY_OP_GE, three, &error);
  g_autoptr (LtTensor) where = lt_tensor_nonzero (mask, &error);
  g_autoptr (LtTensor) picked = lt_tensor_masked_select (x, mask, &error);
  g_autoptr (LtTensor) minus = lt_tensor_new_scalar_double (-1);
  g_autoptr (LtTensor) filled = lt_tensor_masked_fill (x, mask, minus, &error);
  g_autoptr (LtTensor) failed = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (where, 3, 2);
  lt_assert_strides (where, 1, 3);
  lt_assert_values (where, 1, 0, 1, 1, 1, 2);
  lt_assert_values (picked, 3, 4, 5);
  lt_assert_values (filled, 0, 1, 2, -1, -1, -1);
  lt_assert_values (x, 0, 1, 2, 3, 4, 5);

  g_assert_true (lt_tensor_masked_fill_ (x, mask, minus, &error));
  lt_assert_values (x, 0, 1, 2, -1, -1, -1);

  failed = lt_tensor_masked_select (x, x, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_masked_fill_ (x, mask, x, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

static void
test_writes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) flat = int64s (I64S (1, 0, 1), 3);
  g_autoptr (LtTensor) index = lt_tensor_view (flat, I64S (1, 3), 2, &error);
  g_autoptr (LtTensor) src = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1, 3);
  g_autoptr (LtTensor) rows = int64s (I64S (1), 1);
  g_autoptr (LtTensor) seven = lt_tensor_new_scalar_double (7);
  g_autoptr (LtTensor) columns = int64s (I64S (-1), 1);
  g_autoptr (LtTensor) wrong = lt_test_arange_shaped (LT_DTYPE_INT64, 1, 3);
  g_autoptr (LtTensor) line = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3);
  g_autoptr (LtTensor) int64s_twice = int64s (I64S (0, 0), 2);
  g_autoptr (LtTensor) pair = lt_tensor_new_from_literal ("[[1.0, 1.0], [2.0, 2.0]]", &error);
  g_autoptr (LtTensor) expanded = NULL;

  g_assert_true (lt_tensor_scatter_ (x, 0, index, src, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0, 1, 2, 0, 4, 2);

  g_assert_true (lt_tensor_index_copy_ (x, 0, rows, src, &error));
  lt_assert_values (x, 0, 1, 2, 0, 1, 2);

  g_assert_true (lt_tensor_index_fill_ (x, 1, columns, seven, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0, 1, 7, 0, 1, 7);

  /* Errors write nothing. */
  g_assert_false (lt_tensor_scatter_ (x, 0, index, wrong, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_index_copy_ (x, 0, columns, src, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  lt_assert_values (x, 0, 1, 7, 0, 1, 7);

  /* Adding writes: repeated indices add up. */
  g_assert_true (lt_tensor_index_add_ (x, 1, int64s_twice, pair, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 2, 1, 7, 4, 1, 7);
  g_assert_true (lt_tensor_scatter_add_ (x, 0, index, src, &error));
  lt_assert_values (x, 2, 2, 7, 4, 1, 9);

  expanded = lt_tensor_expand (line, I64S (2, 3), 2, &error);
  g_assert_false (lt_tensor_index_fill_ (expanded, 0, rows, seven, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);
  lt_assert_values (line, 0, 1, 2);
}

static void
test_expressions_with_tensors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) rows = int64s (I64S (2, -3), 2);
  g_autoptr (LtTensor) columns = int64s (I64S (1, 3), 2);
  g_autoptr (LtTensor) three = lt_tensor_new_scalar_double (3);
  g_autoptr (LtTensor) mask = lt_tensor_binary (x, LT_BINARY_OP_LT, three, &error);
  g_autoptr (LtTensor) one = lt_tensor_new_scalar_int (1);
  g_autoptr (LtTensor) cube = lt_test_arange_shaped (LT_DTYPE_INT64, 2, 3, 4);
  g_autoptr (LtTensor) first_two = int64s (I64S (0, 1), 2);
  g_autoptr (LtTensor) three_columns = int64s (I64S (0, 1, 2), 3);
  g_autoptr (LtTensor) twice = int64s (I64S (1, 1), 2);
  g_autoptr (LtTensor) row_mask = NULL;
  g_autoptr (LtTensor) picked = NULL;
  g_autoptr (LtTensor) view = NULL;
  g_autoptr (LtTensor) t = NULL;
  g_autoptr (LtTensor) transposed_pick = NULL;
  g_autoptr (LtTensor) values = NULL;
  g_autoptr (LtTensor) failed = NULL;
  const char *row_names[] = { "idx", NULL };
  const char *both_names[] = { "r", "c", NULL };
  const char *mask_names[] = { "m", NULL };
  const char *one_names[] = { "i", NULL };

  g_assert_no_error (error);

  /* t[idx, 1:]: rows 2 and 0 (-3 from the end), their columns 1 to 3. */
  picked = lt_tensor_index_with_tensors (x, "[idx, 1:]", row_names, &rows, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (picked, 2, 3);
  lt_assert_values (picked, 9, 10, 11, 1, 2, 3);
  g_assert_false (lt_tensor_shares_storage (picked, x));
  g_clear_object (&picked);

  /* Two indices broadcast together and pick single elements; with a slice
   * between them their dims go first. */
  picked = lt_tensor_index_with_tensors (x, "[r, c]", both_names,
                                         (LtTensor *[]) { rows, columns }, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (picked, 2);
  lt_assert_values (picked, 9, 3);
  g_clear_object (&picked);

  /* A mask picks where it is true, over its dims. */
  picked = lt_tensor_index_with_tensors (x, "m", mask_names, &mask, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (picked, 3);
  lt_assert_values (picked, 0, 1, 2);
  g_clear_object (&picked);

  /* A 0-dim integer tensor indexes as its integer: a view, as in PyTorch. */
  view = lt_tensor_index_with_tensors (x, "[i, ::2]", one_names, &one, 1, &error);
  g_assert_no_error (error);
  lt_assert_values (view, 4, 6);
  g_assert_true (lt_tensor_shares_storage (view, x));

  /* The result is laid out as PyTorch lays it out: after the input's
   * strides, here those of a transposed cube. */
  t = lt_tensor_transpose (cube, 0, 2, &error);
  transposed_pick = lt_tensor_index_with_tensors (t, "[idx]", row_names, &first_two, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (transposed_pick, 2, 3, 2);
  lt_assert_strides (transposed_pick, 6, 1, 3);
  lt_assert_values (transposed_pick, 0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21);

  /* Writes: t[r, c] = 7 and then t[r, c] += values, repeats adding up. */
  g_assert_true (lt_tensor_index_put_with_tensors_ (x, "[r, c]", both_names,
                                                    (LtTensor *[]) { rows, columns }, 2,
                                                    three, FALSE, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0, 1, 2, 3, 4, 5, 6, 7, 8, 3, 10, 11);
  values = lt_tensor_new_from_literal ("[10.0, 20.0]", &error);
  g_assert_cmpint (lt_tensor_get_dtype (values), ==, LT_DTYPE_FLOAT32);
  g_assert_true (lt_tensor_index_put_with_tensors_ (x, "[idx, 0]", row_names, &twice, 1,
                                                    values, TRUE, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0, 1, 2, 3, 34, 5, 6, 7, 8, 3, 10, 11);

  /* Errors name what is wrong and write nothing. */
  failed = lt_tensor_index_with_tensors (x, "[idy]", row_names, &rows, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'idy'"));
  g_clear_error (&error);
  failed = lt_tensor_index_with_tensors (x, "[idx]", both_names, &rows, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  failed = lt_tensor_index_with_tensors (x, "[idx]", row_names, &x, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  failed = lt_tensor_index_with_tensors (x, "[idx, 0]", row_names,
                                         (LtTensor *[]) { columns }, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_assert_nonnull (strstr (error->message, "index 3"));
  g_clear_error (&error);
  failed = lt_tensor_index_with_tensors (x, "[r, c]", both_names,
                                         (LtTensor *[]) { rows, three_columns }, 2,
                                         &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  failed = lt_tensor_index_with_tensors (x, "[:, m]", mask_names, &mask, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  row_mask = lt_tensor_select (mask, 0, 0, &error);
  failed = lt_tensor_index_with_tensors (x, "m", mask_names, &row_mask, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  failed = lt_tensor_index (x, "[idx, 1:]", &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "column 2"));
  g_clear_error (&error);
  g_assert_false (lt_tensor_index_put_with_tensors_ (x, "[r, c]", both_names,
                                                     (LtTensor *[]) { rows, columns }, 2,
                                                     first_two, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_index_put_with_tensors_ (x, "[idx]", row_names, &rows, 1,
                                                     values, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  lt_assert_values (x, 0, 1, 2, 3, 34, 5, 6, 7, 8, 3, 10, 11);
}

static void
test_sort (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_from_literal ("[[3.0, 1.0, nan], [2.0, 2.0, -1.0]]",
                                                       &error);
  g_autoptr (LtTensor) values = NULL;
  g_autoptr (LtTensor) indices = NULL;
  g_autoptr (LtTensor) order = NULL;
  g_autoptr (LtTensor) top = NULL;
  g_autoptr (LtTensor) top_at = NULL;
  g_autoptr (LtTensor) complex = lt_tensor_new_from_literal ("[1j]", &error);

  g_assert_no_error (error);
  g_assert_true (lt_tensor_sort (x, -1, FALSE, &values, &indices, &error));
  g_assert_no_error (error);
  lt_assert_values (indices, 1, 0, 2, 2, 0, 1);
  lt_assert_values (values, 1, 3, NAN, -1, 2, 2);

  order = lt_tensor_argsort (x, 0, TRUE, &error);
  lt_assert_values (order, 0, 1, 0, 1, 0, 1);

  g_assert_true (lt_tensor_topk (x, 2, 1, TRUE, &top, &top_at, &error));
  lt_assert_values (top_at, 2, 0, 0, 1);
  g_assert_false (lt_tensor_topk (x, 4, 1, TRUE, NULL, NULL, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lt_tensor_argsort (complex, 0, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/index/index-select", test_index_select);
  g_test_add_func ("/index/gather-take", test_gather_take);
  g_test_add_func ("/index/masks", test_masks);
  g_test_add_func ("/index/writes", test_writes);
  g_test_add_func ("/index/expressions-with-tensors", test_expressions_with_tensors);
  g_test_add_func ("/index/sort", test_sort);

  return g_test_run ();
}
