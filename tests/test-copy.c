/* test-copy.c: contiguous, clone, to_dtype, copy_from, fill
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

/* Checks a copy of a permuted view against values computed here, element by
 * element from the source's storage, independently of the library's kernels. */
static void
check_permuted_copy (LtDType dtype,
                     gint64  rows,
                     gint64  cols)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) source = lt_test_arange_shaped (dtype, rows, cols);
  g_autoptr (LtTensor) transposed = lt_tensor_t (source, &error);
  g_autoptr (LtTensor) copy = lt_tensor_contiguous (transposed, &error);
  gsize n;
  g_autofree double *values = NULL;
  /* Complex values come as (real, imaginary) pairs. */
  gsize per_element = lt_dtype_is_complex (dtype) ? 2 : 1;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_is_contiguous (copy));
  values = lt_tensor_to_doubles (copy, &n);
  g_assert_cmpuint (n, ==, rows * cols * per_element);
  for (gint64 j = 0; j < cols; j++)
    for (gint64 i = 0; i < rows; i++)
      {
        double expected = (double) (i * cols + j);

        if (dtype == LT_DTYPE_INT8)
          expected = (double) (gint8) (i * cols + j);
        else if (dtype == LT_DTYPE_UINT8)
          expected = (double) (guint8) (i * cols + j);
        else if (dtype == LT_DTYPE_INT16)
          expected = (double) (gint16) (i * cols + j);
        double actual = values[(j * rows + i) * per_element];

        if (actual != expected)
          g_error ("%s %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ": element [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "] is %g, expected %g",
                   lt_dtype_get_name (dtype), rows, cols, j, i, actual, expected);
      }
}

static void
test_transpose_every_element_size (void)
{
  const LtDType dtypes[] = { LT_DTYPE_UINT8, LT_DTYPE_INT16, LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64,
                             LT_DTYPE_COMPLEX128 };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      check_permuted_copy (dtypes[d], 3, 5);
      /* Sizes that are not multiples of the tile size. */
      check_permuted_copy (dtypes[d], 67, 45);
      check_permuted_copy (dtypes[d], 1, 300);
    }
}

/* Transposes big enough to be split across two threads, with edges that are
 * not multiples of the tiles (128, or 8 and 4 in registers). */
static void
test_transpose_threaded (void)
{
  const LtDType dtypes[] = { LT_DTYPE_UINT8, LT_DTYPE_INT16, LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64,
                             LT_DTYPE_COMPLEX128 };
  guint threads = lt_get_num_threads ();

  lt_set_num_threads (2);
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      check_permuted_copy (dtypes[d], 300, 517);
      check_permuted_copy (dtypes[d], 1031, 131);
    }
  lt_set_num_threads (threads);
}

/* Value [i, j, k] of arange(n0 * n1 * n2).view(n0, n1, n2). */
static double
arange_value (gint64 i,
              gint64 j,
              gint64 k,
              gint64 n1,
              gint64 n2)
{
  return (double) ((i * n1 + j) * n2 + k);
}

/* A permute with a dim left outside the transposed pair, and a source
 * whose rows are not contiguous (every other column), split across
 * threads. */
static void
test_permute_outer_dims_and_steps (void)
{
  const int order[] = { 2, 0, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) flat = lt_tensor_new_arange (0, 6 * 70 * 400, 1, LT_DTYPE_INT32, &error);
  g_autoptr (LtTensor) cube = lt_tensor_view (flat, I64S (6, 70, 400), 3, &error);
  g_autoptr (LtTensor) permuted = lt_tensor_permute (cube, order, 3, &error);
  g_autoptr (LtTensor) stepped = lt_tensor_slice (cube, 2, 1, 400, 3, &error);
  g_autoptr (LtTensor) stepped_t = lt_tensor_transpose (stepped, 1, 2, &error);
  g_autoptr (LtTensor) copy = NULL;
  g_autoptr (LtTensor) stepped_copy = NULL;
  g_autofree double *values = NULL;
  g_autofree double *stepped_values = NULL;
  guint threads = lt_get_num_threads ();
  gsize n;

  g_assert_no_error (error);
  lt_set_num_threads (2);
  copy = lt_tensor_contiguous (permuted, &error);
  g_assert_no_error (error);
  stepped_copy = lt_tensor_contiguous (stepped_t, &error);
  g_assert_no_error (error);
  lt_set_num_threads (threads);

  lt_assert_sizes (copy, 400, 6, 70);
  values = lt_tensor_to_doubles (copy, &n);
  for (gint64 k = 0; k < 400; k++)
    for (gint64 i = 0; i < 6; i++)
      for (gint64 j = 0; j < 70; j++)
        g_assert_cmpfloat (values[(k * 6 + i) * 70 + j], ==, arange_value (i, j, k, 70, 400));

  lt_assert_sizes (stepped_copy, 6, 133, 70);
  stepped_values = lt_tensor_to_doubles (stepped_copy, &n);
  for (gint64 i = 0; i < 6; i++)
    for (gint64 k = 0; k < 133; k++)
      for (gint64 j = 0; j < 70; j++)
        g_assert_cmpfloat (stepped_values[(i * 133 + k) * 70 + j], ==,
                           arange_value (i, j, 1 + 3 * k, 70, 400));
}

static void
test_permute_3d_copy (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4, 5, 6);
  g_autoptr (LtTensor) p = lt_tensor_permute (x, (const int[]) { 2, 0, 1 }, 3, &error);
  g_autoptr (LtTensor) copy = lt_tensor_contiguous (p, &error);
  gsize n;
  g_autofree double *values = NULL;

  g_assert_no_error (error);
  values = lt_tensor_to_doubles (copy, &n);
  for (gint64 c = 0; c < 6; c++)
    for (gint64 a = 0; a < 4; a++)
      for (gint64 b = 0; b < 5; b++)
        g_assert_cmpfloat (values[(c * 4 + a) * 5 + b], ==, (double) (a * 30 + b * 6 + c));
}

static void
test_negative_and_zero_strides (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_INT32, 3, 4);
  g_autoptr (LtTensor) flipped = lt_tensor_index (x, "[::-1, ::-2]", &error);
  g_autoptr (LtTensor) col = lt_tensor_index (x, "[:, 1:2]", &error);
  g_autoptr (LtTensor) expanded = lt_tensor_expand (col, I64S (2, 3, 3), 3, &error);
  g_autoptr (LtTensor) a = NULL;
  g_autoptr (LtTensor) b = NULL;

  g_assert_no_error (error);
  a = lt_tensor_contiguous (flipped, &error);
  g_assert_no_error (error);
  lt_assert_values (a, 11, 9, 7, 5, 3, 1);
  lt_assert_strides (a, 2, 1);

  b = lt_tensor_contiguous (expanded, &error);
  g_assert_no_error (error);
  lt_assert_values (b, 1, 1, 1, 5, 5, 5, 9, 9, 9, 1, 1, 1, 5, 5, 5, 9, 9, 9);
  g_assert_false (lt_tensor_has_internal_overlap (b));
}

/* Expected strides from PyTorch's clone() (memory_format=preserve_format). */
static void
test_clone_preserves_layout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) xt_clone = lt_tensor_clone (xt, &error);
  g_autoptr (LtTensor) y = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
  g_autoptr (LtTensor) sliced = lt_tensor_index (y, "[:, ::2]", &error);
  g_autoptr (LtTensor) permuted = lt_tensor_permute (sliced, (const int[]) { 2, 0, 1 }, 3, &error);
  g_autoptr (LtTensor) permuted_clone = lt_tensor_clone (permuted, &error);

  g_assert_no_error (error);
  lt_assert_strides (xt_clone, 1, 4);
  g_assert_false (lt_tensor_shares_storage (xt_clone, x));
  lt_assert_values (xt_clone, 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11);
  g_assert_cmpint (lt_tensor_get_storage_offset (xt_clone), ==, 0);

  lt_assert_strides (permuted, 1, 12, 8);
  lt_assert_strides (permuted_clone, 1, 8, 4);
  g_assert_cmpint (lt_storage_get_n_elements (lt_tensor_get_storage (permuted_clone)), ==, 16);

  /* An empty tensor is contiguous, so its clone keeps its strides. */
  {
    g_autoptr (LtTensor) empty = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (5, 0, 3), 3, &error);
    g_autoptr (LtTensor) stepped = lt_tensor_index (empty, "[..., ::2]", &error);
    g_autoptr (LtTensor) empty_clone = lt_tensor_clone (stepped, &error);

    g_assert_no_error (error);
    lt_assert_strides (stepped, 3, 3, 2);
    lt_assert_strides (empty_clone, 3, 3, 2);
  }
}

/* Expected values from PyTorch's .to(dtype) on x86-64. */
static void
test_to_dtype (void)
{
  g_autoptr (GError) error = NULL;
  const double values[] = { -2.7, 2.7, 300.5, -1.0, 0.0, 1e10 };
  g_autoptr (LtTensor) x = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, 6, I64S (6), 1, &error);
  g_autoptr (LtTensor) i32 = lt_tensor_to_dtype (x, LT_DTYPE_INT32, &error);
  g_autoptr (LtTensor) u8 = lt_tensor_to_dtype (x, LT_DTYPE_UINT8, &error);
  g_autoptr (LtTensor) i8 = lt_tensor_to_dtype (x, LT_DTYPE_INT8, &error);
  g_autoptr (LtTensor) b = lt_tensor_to_dtype (x, LT_DTYPE_BOOL, &error);
  g_autoptr (LtTensor) h = lt_tensor_to_dtype (x, LT_DTYPE_FLOAT16, &error);
  g_autoptr (LtTensor) same = lt_tensor_to_dtype (x, LT_DTYPE_FLOAT64, &error);
  g_autoptr (LtTensor) big = lt_tensor_new_from_literal ("[16777217]", &error);
  g_autoptr (LtTensor) big_f = lt_tensor_to_dtype (big, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) c = lt_tensor_new_from_literal ("[1+2j, -3j]", &error);
  g_autoptr (LtTensor) c_real = lt_tensor_to_dtype (c, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) c_bool = lt_tensor_to_dtype (c, LT_DTYPE_BOOL, &error);
  g_autoptr (LtTensor) bad = NULL;

  g_assert_no_error (error);
  lt_assert_values (i32, -2, 2, 300, -1, 0, -2147483648.0);
  lt_assert_values (u8, 254, 2, 44, 255, 0, 0);
  lt_assert_values (i8, -2, 2, 44, -1, 0, 0);
  lt_assert_values (b, 1, 1, 1, 1, 0, 1);
  lt_assert_values (h, -2.69921875, 2.69921875, 300.5, -1, 0, INFINITY);
  g_assert_true (same == x);
  lt_assert_values (big_f, 16777216.0);
  lt_assert_values (c_real, 1, 0);
  /* A complex number is true when it is nonzero, as in NumPy and Python.
   * PyTorch 1.13 looks only at the real part and makes -3j false. */
  lt_assert_values (c_bool, 1, 1);

  bad = lt_tensor_to_dtype (x, (LtDType) 99, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (bad);
}

static void
test_to_dtype_keeps_layout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_INT64, 2, 3);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) f = lt_tensor_to_dtype (xt, LT_DTYPE_FLOAT32, &error);

  g_assert_no_error (error);
  lt_assert_strides (f, 1, 3);
  lt_assert_values (f, 0, 3, 1, 4, 2, 5);
}

static void
test_copy_from_broadcasts_and_casts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) dst = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (2, 3), 2, &error);
  g_autoptr (LtTensor) row = lt_tensor_new_from_literal ("[7, 8, 9]", &error);
  g_autoptr (LtTensor) column = lt_tensor_index (dst, "[:, 1]", &error);
  g_autoptr (LtTensor) bad = lt_tensor_new_from_literal ("[1, 2]", &error);

  g_assert_no_error (error);
  g_assert_true (lt_tensor_copy_from (dst, row, &error));
  g_assert_no_error (error);
  lt_assert_values (dst, 7, 8, 9, 7, 8, 9);

  /* Writing through a strided view changes only its elements. */
  g_assert_true (lt_tensor_copy_from (column, bad, &error));
  lt_assert_values (dst, 7, 1, 9, 7, 2, 9);

  g_assert_false (lt_tensor_copy_from (dst, bad, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  lt_assert_values (dst, 7, 1, 9, 7, 2, 9);
}

/* Unlike PyTorch, which refuses partially overlapping copies, the source is
 * read in full before anything is written. */
static void
test_copy_from_overlapping (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 6);
  g_autoptr (LtTensor) head = lt_tensor_index (x, "[:-1]", &error);
  g_autoptr (LtTensor) tail = lt_tensor_index (x, "[1:]", &error);
  g_autoptr (LtTensor) reversed = lt_tensor_index (x, "[::-1]", &error);

  g_assert_no_error (error);
  g_assert_true (lt_tensor_copy_from (tail, head, &error));
  lt_assert_values (x, 0, 0, 1, 2, 3, 4);
  g_assert_true (lt_tensor_copy_from (x, reversed, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 4, 3, 2, 1, 0, 0);
  /* Copying a tensor onto itself changes nothing. */
  g_assert_true (lt_tensor_copy_from (x, x, &error));
  lt_assert_values (x, 4, 3, 2, 1, 0, 0);
}

static void
test_fill_and_zero (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, I64S (2, 3), 2, &error);
  g_autoptr (LtTensor) corner = lt_tensor_index (x, "[1:, ::2]", &error);
  g_autoptr (LtTensor) ints = lt_test_arange_shaped (LT_DTYPE_INT16, 4);

  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (corner, 2.5, &error));
  lt_assert_values (x, 0, 0, 0, 0, 0, 0, 2.5, 0, 0, 0, 2.5, 0);
  g_assert_true (lt_tensor_zero (x, &error));
  lt_assert_values (x, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  g_assert_true (lt_tensor_fill (ints, -3.9, &error));
  g_assert_no_error (error);
  lt_assert_values (ints, -3, -3, -3, -3);
}

static void
test_large_copies (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 512, 384);
  g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) copy = lt_tensor_contiguous (xt, &error);
  g_autoptr (LtTensor) back = lt_tensor_t (copy, &error);
  g_autoptr (LtTensor) again = lt_tensor_contiguous (back, &error);
  gsize n;
  g_autofree double *values = NULL;

  g_assert_no_error (error);
  values = lt_tensor_to_doubles (again, &n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (values[i], ==, (double) i);
}

/* Whether @t holds x.t() of arange (rows · cols).view (rows, cols): its
 * [i, j] is j · cols + i. */
static void
assert_transposed_arange (LtTensor *t,
                          gint64    rows,
                          gint64    cols)
{
  gsize n;
  g_autofree double *values = lt_tensor_to_doubles (t, &n);

  g_assert_cmpuint (n, ==, (gsize) (rows * cols));
  for (gint64 i = 0; i < cols; i++)
    for (gint64 j = 0; j < rows; j++)
      if (values[i * rows + j] != (double) (j * cols + i))
        g_error ("[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] is %g", i, j, values[i * rows + j]);
}

/* Transposing copies of 32 MiB and more write past the caches where the
 * destination's rows are 32-byte aligned: float32 and float64, with
 * ragged edges, into a new tensor (aligned) and into one that starts an
 * element into its storage (not aligned), on two threads. The aligned
 * ones' blocks end in a square with no pair beside it (2056 and 2052
 * rows: a block is 128 floats or 64 doubles wide, squares pair up in
 * 16 and 8). */
static void
test_transpose_past_the_caches (void)
{
  const struct
  {
    LtDType dtype;
    gint64 rows, cols, offset;
  } cases[] = {
    { LT_DTYPE_FLOAT32, 2048, 4096, 1 },
    { LT_DTYPE_FLOAT32, 2056, 4099, 0 },
    { LT_DTYPE_FLOAT64, 2052, 2051, 0 },
  };
  guint threads = lt_get_num_threads ();

  lt_set_num_threads (2);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      gint64 rows = cases[c].rows, cols = cases[c].cols, offset = cases[c].offset;
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) x = lt_test_arange_shaped (cases[c].dtype, rows, cols);
      g_autoptr (LtTensor) xt = lt_tensor_t (x, &error);
      g_autoptr (LtTensor) storage = lt_tensor_new_zeros (cases[c].dtype,
                                                          I64S (offset + rows * cols), 1, &error);
      g_autoptr (LtTensor) tail = lt_tensor_slice (storage, 0, offset, G_MAXINT64, 1, &error);
      g_autoptr (LtTensor) into = lt_tensor_view (tail, I64S (cols, rows), 2, &error);
      g_autoptr (LtTensor) copy = lt_tensor_contiguous (xt, &error);

      g_assert_no_error (error);
      assert_transposed_arange (copy, rows, cols);
      g_assert_true (lt_tensor_copy_from (into, xt, &error));
      g_assert_no_error (error);
      assert_transposed_arange (into, rows, cols);
    }
  lt_set_num_threads (threads);
}

/* Rows longer than a thread's share of work are cut into pieces, which
 * threads take in turn: one contiguous row (a whole tensor merged into one
 * dim), rows that cannot merge (every row one element shorter than the
 * storage's), a reversed row and a cast, each checked element by element
 * where the pieces meet. */
static void
test_long_rows_threaded (void)
{
  guint threads = lt_get_num_threads ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 200001);
  g_autoptr (LtTensor) whole = lt_tensor_new_zeros (LT_DTYPE_FLOAT64, I64S (3, 200001), 2, &error);
  g_autoptr (LtTensor) rows = lt_tensor_index (base, "[:, 1:]", &error);
  g_autoptr (LtTensor) reversed = lt_tensor_index (base, "[:, ::-1]", &error);
  g_autoptr (LtTensor) filled = lt_tensor_new_zeros (LT_DTYPE_INT16, I64S (3, 200001), 2, &error);
  g_autoptr (LtTensor) rows_copy = NULL, reversed_copy = NULL, narrowed = NULL;
  gsize n;

  g_assert_no_error (error);
  lt_set_num_threads (2);
  g_assert_true (lt_tensor_copy_from (whole, base, &error));
  g_assert_no_error (error);
  rows_copy = lt_tensor_contiguous (rows, &error);
  g_assert_no_error (error);
  reversed_copy = lt_tensor_contiguous (reversed, &error);
  g_assert_no_error (error);
  narrowed = lt_tensor_to_dtype (base, LT_DTYPE_INT32, &error);
  g_assert_no_error (error);
  /* Fills: all of a tensor but its first column, then the whole of it. */
  g_assert_true (lt_tensor_fill (rows, -1, &error));
  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (filled, 5, &error));
  g_assert_no_error (error);
  lt_set_num_threads (threads);

  {
    g_autofree double *values = lt_tensor_to_doubles (whole, &n);

    g_assert_cmpuint (n, ==, 600003);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, (double) i);
  }
  {
    g_autofree double *values = lt_tensor_to_doubles (narrowed, &n);

    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, (double) i);
  }
  {
    g_autofree double *values = lt_tensor_to_doubles (rows_copy, &n);

    g_assert_cmpuint (n, ==, 600000);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, (double) (i / 200000 * 200001 + i % 200000 + 1));
  }
  {
    g_autofree double *values = lt_tensor_to_doubles (base, &n);

    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, i % 200001 == 0 ? (double) i : -1);
  }
  {
    g_autofree double *values = lt_tensor_to_doubles (reversed_copy, &n);

    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, (double) (i / 200001 * 200001 + 200000 - i % 200001));
  }
  {
    g_autofree double *values = lt_tensor_to_doubles (filled, &n);

    g_assert_cmpuint (n, ==, 600003);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], ==, 5);
  }
}

/* A dim of size 1 may carry any stride, up to G_MAXINT64, because it is never
 * used. The copy kernels multiplied every stride by the element size first,
 * a signed overflow (UBSan: "signed integer overflow" in to_byte_strides). */
static void
test_copy_huge_unused_stride (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_tensor_new_arange (0, 4, 1, LT_DTYPE_FLOAT32, &error);
  g_autoptr (LtTensor) one = lt_tensor_slice (x, 0, 2, 3, G_MAXINT64, &error);
  g_autoptr (LtTensor) copy = NULL;
  g_autofree double *values = NULL;
  gsize n;

  g_assert_no_error (error);
  lt_assert_strides (one, G_MAXINT64);
  copy = lt_tensor_contiguous (one, &error);
  g_assert_no_error (error);
  values = lt_tensor_to_doubles (copy, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (values[0], ==, 2.0);
  g_assert_true (lt_tensor_fill (one, 7.0, &error));
  g_assert_no_error (error);
  lt_assert_values (x, 0.0, 1.0, 7.0, 3.0);
}

/* lt_tensor_to_doubles() of a complex tensor with the most dims viewed it as
 * real first, which needs one dim more than allowed, and crashed on the NULL
 * that view_as_real() returned. */
static void
test_to_doubles_complex_most_dims (void)
{
  g_autoptr (GError) error = NULL;
  gint64 sizes[LT_MAX_DIMS];
  gint64 index[LT_MAX_DIMS] = { 0 };
  g_autoptr (LtTensor) z = NULL;
  g_autofree double *values = NULL;
  gsize n;

  for (guint d = 0; d < LT_MAX_DIMS; d++)
    sizes[d] = 1;
  sizes[LT_MAX_DIMS - 1] = 2;
  z = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, sizes, LT_MAX_DIMS, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (z, 1.5, &error));
  g_assert_no_error (error);
  index[LT_MAX_DIMS - 1] = 1;
  g_assert_true (lt_tensor_set_complex (z, index, LT_MAX_DIMS, 1.5, -2.0, &error));
  g_assert_no_error (error);
  values = lt_tensor_to_doubles (z, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (values[0], ==, 1.5);
  g_assert_cmpfloat (values[1], ==, 0.0);
  g_assert_cmpfloat (values[2], ==, 1.5);
  g_assert_cmpfloat (values[3], ==, -2.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/copy/contiguous/transpose-every-element-size",
                   test_transpose_every_element_size);
  g_test_add_func ("/copy/contiguous/transpose-threaded", test_transpose_threaded);
  g_test_add_func ("/copy/contiguous/permute-3d", test_permute_3d_copy);
  g_test_add_func ("/copy/contiguous/permute-outer-dims-and-steps",
                   test_permute_outer_dims_and_steps);
  g_test_add_func ("/copy/contiguous/negative-and-zero-strides", test_negative_and_zero_strides);
  g_test_add_func ("/copy/contiguous/large", test_large_copies);
  g_test_add_func ("/copy/contiguous/transpose-past-the-caches", test_transpose_past_the_caches);
  g_test_add_func ("/copy/contiguous/long-rows-threaded", test_long_rows_threaded);
  g_test_add_func ("/copy/clone/preserves-layout", test_clone_preserves_layout);
  g_test_add_func ("/copy/to-dtype/values", test_to_dtype);
  g_test_add_func ("/copy/to-dtype/keeps-layout", test_to_dtype_keeps_layout);
  g_test_add_func ("/copy/copy-from/broadcasts-and-casts", test_copy_from_broadcasts_and_casts);
  g_test_add_func ("/copy/copy-from/overlapping", test_copy_from_overlapping);
  g_test_add_func ("/copy/fill-and-zero", test_fill_and_zero);
  g_test_add_func ("/copy/huge-unused-stride", test_copy_huge_unused_stride);
  g_test_add_func ("/copy/to-doubles/complex-most-dims", test_to_doubles_complex_most_dims);

  return g_test_run ();
}
