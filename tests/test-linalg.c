/* test-linalg.c: dot, mv, mm, bmm, outer, matmul and einsum
 *
 * Expected values are worked out by hand in the comments.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#ifdef HAVE_CBLAS
#include <cblas.h>
#endif

#include "lt-test-utils.h"
#include "backends/lt-backend-linalg.h"

static LtTensor *
lit (const char *text,
     LtDType     dtype)
{
  g_autoptr (GError) error = NULL;
  LtTensor *t = lt_tensor_new_from_literal_with_dtype (text, dtype, &error);

  g_assert_no_error (error);
  return t;
}

#define assert_close(t, tol, ...) \
  assert_close_impl (G_STRLOC, (t), (tol), (const double[]) { __VA_ARGS__ }, \
                     sizeof ((const double[]) { __VA_ARGS__ }) / sizeof (double))

static void
assert_close_impl (const char   *location,
                   LtTensor     *t,
                   double        tol,
                   const double *expected,
                   gsize         n_expected)
{
  gsize n;
  g_autofree double *values = lt_tensor_to_doubles (t, &n);

  g_assert_cmpuint (n, ==, n_expected);
  for (gsize i = 0; i < n; i++)
    if (fabs (values[i] - expected[i]) > tol)
      g_error ("%s: value %" G_GSIZE_FORMAT " is %.17g, expected %.17g", location, i, values[i],
               expected[i]);
}

static void
test_mm_plain (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  g_autoptr (LtTensor) c = lt_tensor_mm (a, b, &error);

  /* [0 1 2; 3 4 5] @ [0 1 2 3; 4 5 6 7; 8 9 10 11] */
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (c), ==, LT_DTYPE_FLOAT32);
  lt_assert_sizes (c, 2, 4);
  lt_assert_values (c, 20, 23, 26, 29, 56, 68, 80, 92);
}

static void
test_mm_transposed (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 2);
  g_autoptr (LtTensor) a = lt_tensor_t (base, &error);
  g_autoptr (LtTensor) c = lt_tensor_mm (a, base, &error);

  /* [0 2 4; 1 3 5] @ [0 1; 2 3; 4 5] */
  g_assert_no_error (error);
  lt_assert_sizes (c, 2, 2);
  lt_assert_values (c, 20, 26, 26, 35);
}

/* Large enough for BLAS: a transposed operand goes to BLAS as a transpose,
 * a column-stepped one has to be packed. */
static void
test_mm_transposed_not_copied (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 16, 16);
  g_autoptr (LtTensor) a = lt_tensor_t (base, &error);
  g_autoptr (LtTensor) ones = lt_tensor_new_ones (LT_DTYPE_FLOAT64, I64S (16, 16), 2, &error);
  g_autoptr (LtTensor) ones_t = lt_tensor_t (ones, &error);
  g_autoptr (LtTensor) c = NULL;
  g_autoptr (LtTensor) wide = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 16, 32);
  g_autoptr (LtTensor) stepped = lt_tensor_slice (wide, 1, 0, 32, 2, &error);
  g_autoptr (LtTensor) d = NULL;
  gint packed_before = g_atomic_int_get (&lt_cpu_linalg_n_packed);
  gsize n;
  g_autofree double *values = NULL;
  g_autofree double *d_values = NULL;

  g_assert_no_error (error);
  c = lt_tensor_mm (a, ones_t, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_atomic_int_get (&lt_cpu_linalg_n_packed), ==, packed_before);

  /* c[i][j] = sum over l of base[l][i] = sum (16 l + i) = 1920 + 16 i */
  values = lt_tensor_to_doubles (c, &n);
  g_assert_cmpuint (n, ==, 256);
  for (gsize i = 0; i < 16; i++)
    for (gsize j = 0; j < 16; j++)
      g_assert_cmpfloat (values[i * 16 + j], ==, 1920.0 + 16.0 * i);

  /* stepped[i][j] = wide[i][2 j] = 32 i + 2 j; the row sums are 512 i + 240 */
  d = lt_tensor_mm (stepped, ones, &error);
  g_assert_no_error (error);
#ifdef HAVE_CBLAS
  g_assert_cmpint (g_atomic_int_get (&lt_cpu_linalg_n_packed), ==, packed_before + 1);
#endif
  d_values = lt_tensor_to_doubles (d, &n);
  for (gsize i = 0; i < 16; i++)
    g_assert_cmpfloat (d_values[i * 16 + 5], ==, 512.0 * i + 240.0);
}

static void
test_mm_empty_inner (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (2, 0), 2, &error);
  g_autoptr (LtTensor) b = lt_tensor_new_empty (LT_DTYPE_FLOAT32, I64S (0, 3), 2, &error);
  g_autoptr (LtTensor) c = lt_tensor_mm (a, b, &error);

  g_assert_no_error (error);
  lt_assert_sizes (c, 2, 3);
  lt_assert_values (c, 0, 0, 0, 0, 0, 0);
}

static void
test_mv_stepped (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4, 6);
  g_autoptr (LtTensor) a = lt_tensor_index (base, "::2, ::3", &error);
  g_autoptr (LtTensor) v = lit ("[1, 1]", LT_DTYPE_FLOAT32);
  g_autoptr (LtTensor) y = lt_tensor_mv (a, v, &error);

  /* a = [0 3; 12 15] */
  g_assert_no_error (error);
  lt_assert_sizes (y, 2);
  lt_assert_values (y, 3, 27);
}

static void
test_dot (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lit ("[0, 1, 2]", LT_DTYPE_FLOAT64);
  g_autoptr (LtTensor) b = lit ("[1, 2, 3]", LT_DTYPE_FLOAT64);
  g_autoptr (LtTensor) flipped = lt_tensor_flip (a, (const int[]) { 0 }, 1, &error);
  g_autoptr (LtTensor) d = lt_tensor_dot (a, a, &error);
  g_autoptr (LtTensor) e = NULL;

  g_assert_no_error (error);
  lt_assert_scalar_shape (d);
  lt_assert_values (d, 5);

  /* [2 1 0] . [1 2 3] */
  e = lt_tensor_dot (flipped, b, &error);
  g_assert_no_error (error);
  lt_assert_values (e, 4);
}

static void
test_dot_complex (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lit ("[1+2j, 3]", LT_DTYPE_COMPLEX64);
  g_autoptr (LtTensor) b = lit ("[2-1j, 1j]", LT_DTYPE_COMPLEX64);
  g_autoptr (LtTensor) d = lt_tensor_dot (a, b, &error);

  /* (1 + 2i)(2 - i) + 3i = 4 + 3i + 3i, no conjugation */
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (d), ==, LT_DTYPE_COMPLEX64);
  lt_assert_values (d, 4, 6);
}

static void
test_bmm_expanded (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) rows = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1, 2, 3);
  g_autoptr (LtTensor) a = lt_tensor_expand (rows, I64S (2, 2, 3), 3, &error);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 1);
  g_autoptr (LtTensor) c = lt_tensor_bmm (a, b, &error);

  /* [0 1 2; 3 4 5] times [0 1 2]' and [3 4 5]' */
  g_assert_no_error (error);
  lt_assert_sizes (c, 2, 2, 1);
  lt_assert_values (c, 5, 14, 14, 50);
}

static void
test_outer (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lit ("[1, 2]", LT_DTYPE_INT64);
  g_autoptr (LtTensor) b = lit ("[3, 4, 5]", LT_DTYPE_INT64);
  g_autoptr (LtTensor) o = lt_tensor_outer (a, b, &error);
  g_autoptr (LtTensor) p = lit ("[true, false]", LT_DTYPE_BOOL);
  g_autoptr (LtTensor) q = lit ("[true, true]", LT_DTYPE_BOOL);
  g_autoptr (LtTensor) r = lt_tensor_outer (p, q, &error);

  g_assert_no_error (error);
  lt_assert_sizes (o, 2, 3);
  lt_assert_values (o, 3, 4, 5, 6, 8, 10);
  g_assert_cmpint (lt_tensor_get_dtype (r), ==, LT_DTYPE_BOOL);
  lt_assert_values (r, 1, 1, 0, 0);
}

static void
test_matmul_vectors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) v = lit ("[0, 1, 2]", LT_DTYPE_FLOAT32);
  g_autoptr (LtTensor) m32 = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 2);
  g_autoptr (LtTensor) m23 = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) vm = lt_tensor_matmul (v, m32, &error);
  g_autoptr (LtTensor) mv = NULL;
  g_autoptr (LtTensor) vv = NULL;

  /* [0 1 2] @ [0 1; 2 3; 4 5] */
  g_assert_no_error (error);
  lt_assert_sizes (vm, 2);
  lt_assert_values (vm, 10, 13);

  mv = lt_tensor_matmul (m23, v, &error);
  g_assert_no_error (error);
  lt_assert_sizes (mv, 2);
  lt_assert_values (mv, 5, 14);

  vv = lt_tensor_matmul (v, v, &error);
  g_assert_no_error (error);
  lt_assert_scalar_shape (vv);
  lt_assert_values (vv, 5);
}

static void
test_matmul_batched (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 2, 3);
  g_autoptr (LtTensor) ones3 = lit ("[1, 1, 1]", LT_DTYPE_FLOAT64);
  g_autoptr (LtTensor) ones2 = lit ("[1, 1]", LT_DTYPE_FLOAT64);
  g_autoptr (LtTensor) row_sums = lt_tensor_matmul (a, ones3, &error);
  g_autoptr (LtTensor) col_sums = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 1, 1, 2);
  g_autoptr (LtTensor) y = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 2, 1);
  g_autoptr (LtTensor) xy = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (row_sums, 2, 2);
  lt_assert_values (row_sums, 3, 12, 21, 30);

  /* [1 1] @ each [0 1 2; 3 4 5] and [6 7 8; 9 10 11] */
  col_sums = lt_tensor_matmul (ones2, a, &error);
  g_assert_no_error (error);
  lt_assert_sizes (col_sums, 2, 3);
  lt_assert_values (col_sums, 3, 5, 7, 15, 17, 19);

  /* Batch dims (2, 1) and (3,) broadcast to (2, 3): x[i] = [2i 2i+1],
   * y[j] = [2j 2j+1]', x[0] . y[j] = 2j + 1, x[1] . y[j] = 10j + 3. */
  xy = lt_tensor_matmul (x, y, &error);
  g_assert_no_error (error);
  lt_assert_sizes (xy, 2, 3, 1, 1);
  lt_assert_values (xy, 1, 3, 5, 3, 13, 23);
}

/* Small integers as @dtype in @sizes: every product and sum of them is
 * exact, whatever order BLAS adds in. */
static LtTensor *
small_integers (LtDType       dtype,
                const gint64 *sizes,
                guint         n_dims,
                guint         seed)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  gint64 n = 1;
  g_autofree double *values = NULL;
  LtTensor *t;

  for (guint d = 0; d < n_dims; d++)
    n *= sizes[d];
  values = g_new (double, n);
  for (gint64 i = 0; i < n; i++)
    values[i] = g_rand_int_range (rand, -3, 4);
  t = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, (gsize) n, sizes, n_dims, &error);
  g_assert_no_error (error);
  if (dtype != LT_DTYPE_FLOAT64)
    {
      LtTensor *cast = lt_tensor_to_dtype (t, dtype, &error);

      g_assert_no_error (error);
      g_object_unref (t);
      t = cast;
    }
  return t;
}

/* Batched products of small matrices, which the CPU spreads across its
 * threads a batch each (BLAS on one thread in each): every batch the same,
 * byte for byte, as the 2-d product of its matrices, on 2 and 3 threads
 * (uneven pieces), through broadcast batch dims and views BLAS cannot take
 * as they are (packed in each thread's own scratch); and BLAS gets its
 * thread count back afterwards. */
static void
test_bmm_batches_on_threads (void)
{
  const LtDType dtypes[] = { LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX64 };
  guint saved = lt_get_num_threads ();

  for (guint threads = 2; threads <= 3; threads++)
    for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
      for (int packed = 0; packed < 2; packed++)
        {
          g_autoptr (GError) error = NULL;
          /* a: (2, 5, 24, 40), or a view of every other column of a
           * wider one, which BLAS cannot take and each thread packs;
           * b: (5, 40, 16), broadcast over a's first dim. */
          g_autoptr (LtTensor) a_base = small_integers (dtypes[i], I64S (2, 5, 24, packed ? 80 : 40),
                                                        4, 1 + i);
          g_autoptr (LtTensor) b = small_integers (dtypes[i], I64S (5, 40, 16), 3, 7 + i);
          g_autoptr (LtTensor) a = packed ? lt_tensor_slice (a_base, 3, 0, 80, 2, &error)
                                          : g_object_ref (a_base);
          g_autoptr (LtTensor) product = NULL;
          gint packed_before = g_atomic_int_get (&lt_cpu_linalg_n_packed);

          g_assert_no_error (error);
          lt_set_num_threads (threads);
          product = lt_tensor_matmul (a, b, &error);
          g_assert_no_error (error);
#ifdef HAVE_CBLAS
          /* Every batch packed a, in whichever thread took it. */
          g_assert_cmpint (g_atomic_int_get (&lt_cpu_linalg_n_packed) - packed_before, ==,
                           packed ? 10 : 0);
#endif
          lt_assert_sizes (product, 2, 5, 24, 16);
#ifdef HAVE_CBLAS
          /* (A single-threaded OpenBLAS always says 1.) */
          if (openblas_get_parallel () != 0)
            g_assert_cmpint (openblas_get_num_threads (), ==, (int) threads);
#endif
          for (gint64 outer = 0; outer < 2; outer++)
            for (gint64 batch = 0; batch < 5; batch++)
              {
                g_autoptr (LtTensor) a_outer = lt_tensor_select (a, 0, outer, &error);
                g_autoptr (LtTensor) a_one = lt_tensor_select (a_outer, 0, batch, &error);
                g_autoptr (LtTensor) b_one = lt_tensor_select (b, 0, batch, &error);
                g_autoptr (LtTensor) p_outer = lt_tensor_select (product, 0, outer, &error);
                g_autoptr (LtTensor) p_one = lt_tensor_select (p_outer, 0, batch, &error);
                g_autoptr (LtTensor) alone = NULL, got = NULL;
                g_autoptr (GBytes) expected_bytes = NULL, got_bytes = NULL;

                g_assert_no_error (error);
                lt_set_num_threads (1);
                alone = lt_tensor_mm (a_one, b_one, &error);
                g_assert_no_error (error);
                got = lt_tensor_contiguous (p_one, &error);
                g_assert_no_error (error);
                expected_bytes = lt_tensor_to_bytes (alone, &error);
                got_bytes = lt_tensor_to_bytes (got, &error);
                g_assert_no_error (error);
                if (!g_bytes_equal (expected_bytes, got_bytes))
                  g_error ("%s on %u threads%s: batch (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") differs from its 2-d product", lt_dtype_get_name (dtypes[i]),
                           threads, packed ? ", packed" : "", outer, batch);
              }
        }
  lt_set_num_threads (saved);
}

static void
test_integer_dtypes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_INT32, 2, 3);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_INT32, 3, 4);
  g_autoptr (LtTensor) c = lt_tensor_mm (a, b, &error);
  g_autoptr (LtTensor) i8a = lit ("[100, 100]", LT_DTYPE_INT8);
  g_autoptr (LtTensor) i8b = lit ("[2, 1]", LT_DTYPE_INT8);
  g_autoptr (LtTensor) i8 = NULL;
  g_autoptr (LtTensor) u8a = lit ("[200]", LT_DTYPE_UINT8);
  g_autoptr (LtTensor) u8b = lit ("[2]", LT_DTYPE_UINT8);
  g_autoptr (LtTensor) u8 = NULL;
  g_autoptr (LtTensor) bf = lt_test_arange_shaped (LT_DTYPE_BFLOAT16, 2, 3);
  g_autoptr (LtTensor) bf_b = lt_test_arange_shaped (LT_DTYPE_BFLOAT16, 3, 4);
  g_autoptr (LtTensor) bf_c = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (c), ==, LT_DTYPE_INT32);
  lt_assert_values (c, 20, 23, 26, 29, 56, 68, 80, 92);

  /* 300 wraps to 44 in int8, 400 to 144 in uint8 */
  i8 = lt_tensor_dot (i8a, i8b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (i8), ==, LT_DTYPE_INT8);
  lt_assert_values (i8, 44);
  u8 = lt_tensor_dot (u8a, u8b, &error);
  g_assert_no_error (error);
  lt_assert_values (u8, 144);

  bf_c = lt_tensor_mm (bf, bf_b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (bf_c), ==, LT_DTYPE_BFLOAT16);
  lt_assert_values (bf_c, 20, 23, 26, 29, 56, 68, 80, 92);
}

static void
test_refusals (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (2, 3), 2, &error);
  g_autoptr (LtTensor) b = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (4, 5), 2, &error);
  g_autoptr (LtTensor) d = lt_tensor_new_ones (LT_DTYPE_FLOAT64, I64S (3, 5), 2, &error);
  g_autoptr (LtTensor) h = lt_tensor_new_ones (LT_DTYPE_FLOAT16, I64S (3, 3), 2, &error);
  g_autoptr (LtTensor) bools = lt_tensor_new_ones (LT_DTYPE_BOOL, I64S (3, 3), 2, &error);
  g_autoptr (LtTensor) scalar = lt_tensor_new_ones (LT_DTYPE_FLOAT32, NULL, 0, &error);
  g_autoptr (LtTensor) batch2 = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (2, 3, 3), 3, &error);
  g_autoptr (LtTensor) batch3 = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (3, 3, 3), 3, &error);
  LtTensor *operands[2] = { a, a };
  LtTensor *result;

  g_assert_no_error (error);

  result = lt_tensor_mm (a, b, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "2x3 and 4x5"));
  g_clear_error (&error);

  result = lt_tensor_mm (a, d, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "float32 and float64"));
  g_clear_error (&error);

  result = lt_tensor_mm (h, h, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  result = lt_tensor_matmul (bools, bools, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  result = lt_tensor_matmul (scalar, a, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "0-d"));
  g_clear_error (&error);

  result = lt_tensor_matmul (batch2, batch3, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);

  result = lt_tensor_bmm (batch2, batch3, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);

  result = lt_tensor_dot (a, a, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);

  result = lt_einsum ("ij,j?->i", operands, 2, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "position 4"));
  g_clear_error (&error);

  result = lt_einsum ("ij,jk->ik", operands, 2, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);

  result = lt_einsum ("ij->ik", operands, 1, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  result = lt_einsum ("ij,ij,ij", operands, 2, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  result = lt_einsum ("i..j", operands, 1, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_clear_error (&error);
}

static void
test_einsum_matrix_products (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  LtTensor *ab[2] = { a, b };
  g_autoptr (LtTensor) explicit = lt_einsum ("ij,jk->ik", ab, 2, &error);
  g_autoptr (LtTensor) implicit = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 1, 2, 3);
  g_autoptr (LtTensor) xb = lt_tensor_expand (x, I64S (2, 2, 3), 3, &error);
  g_autoptr (LtTensor) y = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 1);
  LtTensor *xy[2] = { xb, y };
  g_autoptr (LtTensor) batched = NULL;
  g_autoptr (LtTensor) u = lit ("[1, 2]", LT_DTYPE_FLOAT64);
  g_autoptr (LtTensor) v = lit ("[3, 4, 5]", LT_DTYPE_FLOAT64);
  LtTensor *uv[2] = { u, v };
  g_autoptr (LtTensor) outer = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (explicit, 2, 4);
  lt_assert_values (explicit, 20, 23, 26, 29, 56, 68, 80, 92);

  implicit = lt_einsum ("ij,jk", ab, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (implicit, 2, 4);
  lt_assert_values (implicit, 20, 23, 26, 29, 56, 68, 80, 92);

  batched = lt_einsum ("bij,bjk->bik", xy, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (batched, 2, 2, 1);
  lt_assert_values (batched, 5, 14, 14, 50);

  outer = lt_einsum ("i,j->ij", uv, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (outer, 2, 3);
  lt_assert_values (outer, 3, 4, 5, 6, 8, 10);
}

static void
test_einsum_one_operand (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) sq = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 3);
  g_autoptr (LtTensor) m = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) diag = lt_einsum ("ii->i", &sq, 1, &error);
  g_autoptr (LtTensor) trace = NULL;
  g_autoptr (LtTensor) total = NULL;
  g_autoptr (LtTensor) transposed = NULL;
  g_autoptr (LtTensor) ints = lt_test_arange_shaped (LT_DTYPE_INT8, 2, 3);
  g_autoptr (LtTensor) int_sums = NULL;

  /* The diagonal of [0 1 2; 3 4 5; 6 7 8], as a view */
  g_assert_no_error (error);
  lt_assert_sizes (diag, 3);
  lt_assert_values (diag, 0, 4, 8);
  g_assert_true (lt_tensor_shares_storage (diag, sq));

  trace = lt_einsum ("ii", &sq, 1, &error);
  g_assert_no_error (error);
  lt_assert_scalar_shape (trace);
  lt_assert_values (trace, 12);

  total = lt_einsum ("ij->", &m, 1, &error);
  g_assert_no_error (error);
  lt_assert_scalar_shape (total);
  lt_assert_values (total, 15);

  transposed = lt_einsum ("ij->ji", &m, 1, &error);
  g_assert_no_error (error);
  lt_assert_sizes (transposed, 3, 2);
  lt_assert_values (transposed, 0, 3, 1, 4, 2, 5);

  /* A sum of integers is int64, as in PyTorch. */
  int_sums = lt_einsum ("ij->j", &ints, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (int_sums), ==, LT_DTYPE_INT64);
  lt_assert_values (int_sums, 3, 5, 7);
}

/* The seed's weighted grayscale: x[c, h, w] = 4 c + 2 h + w, and since the
 * weights add up to 1, gray[h, w] = 2 h + w + 4 (0.7152 + 2 * 0.0722). */
static void
test_einsum_grayscale (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) image = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 2, 2);
  g_autoptr (LtTensor) batch = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 3, 2, 2);
  g_autoptr (LtTensor) weights = lit ("[0.2126, 0.7152, 0.0722]", LT_DTYPE_FLOAT64);
  LtTensor *one[2] = { image, weights };
  LtTensor *many[2] = { batch, weights };
  g_autoptr (LtTensor) gray = lt_einsum ("...chw,c->...hw", one, 2, &error);
  g_autoptr (LtTensor) grays = NULL;

  g_assert_no_error (error);
  lt_assert_sizes (gray, 2, 2);
  assert_close (gray, 1e-12, 3.4384, 4.4384, 5.4384, 6.4384);

  /* x[b, c, h, w] = 12 b + 4 c + 2 h + w */
  grays = lt_einsum ("...chw,c->...hw", many, 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (grays, 2, 2, 2);
  assert_close (grays, 1e-12, 3.4384, 4.4384, 5.4384, 6.4384, 15.4384, 16.4384, 17.4384,
                18.4384);
}

/* The loops split large products by output row; every element is summed by
 * one thread in one order, so the thread count cannot change a value. */
static void
test_threads_do_not_change_values (void)
{
  const LtDType dtypes[] = { LT_DTYPE_INT64, LT_DTYPE_BFLOAT16, LT_DTYPE_INT8 };
  guint saved = lt_get_num_threads ();

  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) a = lt_test_arange_shaped (dtypes[i], 150, 200);
      g_autoptr (LtTensor) b = lt_test_arange_shaped (dtypes[i], 150, 200);
      g_autoptr (LtTensor) bt = lt_tensor_t (b, &error);
      g_autoptr (LtTensor) one = NULL;
      g_autoptr (LtTensor) four = NULL;
      g_autoptr (GBytes) one_bytes = NULL;
      g_autoptr (GBytes) four_bytes = NULL;

      lt_set_num_threads (1);
      one = lt_tensor_mm (a, bt, &error);
      g_assert_no_error (error);
      lt_set_num_threads (4);
      four = lt_tensor_mm (a, bt, &error);
      g_assert_no_error (error);
      one_bytes = lt_tensor_to_bytes (one, &error);
      four_bytes = lt_tensor_to_bytes (four, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (one_bytes, four_bytes));
    }
  lt_set_num_threads (saved);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/linalg/mm/plain", test_mm_plain);
  g_test_add_func ("/linalg/mm/transposed", test_mm_transposed);
  g_test_add_func ("/linalg/mm/transposed-not-copied", test_mm_transposed_not_copied);
  g_test_add_func ("/linalg/mm/empty-inner", test_mm_empty_inner);
  g_test_add_func ("/linalg/mv/stepped", test_mv_stepped);
  g_test_add_func ("/linalg/dot/real", test_dot);
  g_test_add_func ("/linalg/dot/complex", test_dot_complex);
  g_test_add_func ("/linalg/bmm/expanded", test_bmm_expanded);
  g_test_add_func ("/linalg/bmm/batches-on-threads", test_bmm_batches_on_threads);
  g_test_add_func ("/linalg/outer", test_outer);
  g_test_add_func ("/linalg/matmul/vectors", test_matmul_vectors);
  g_test_add_func ("/linalg/matmul/batched", test_matmul_batched);
  g_test_add_func ("/linalg/dtypes/integer-and-bfloat16", test_integer_dtypes);
  g_test_add_func ("/linalg/dtypes/threads-do-not-change-values",
                   test_threads_do_not_change_values);
  g_test_add_func ("/linalg/refusals", test_refusals);
  g_test_add_func ("/linalg/einsum/matrix-products", test_einsum_matrix_products);
  g_test_add_func ("/linalg/einsum/one-operand", test_einsum_one_operand);
  g_test_add_func ("/linalg/einsum/grayscale", test_einsum_grayscale);

  return g_test_run ();
}
