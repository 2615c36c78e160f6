/* test-reduce.c: reductions, scans, softmax, equal and allclose
 *
 * Expected values are written out by hand (or from PyTorch 1.13) for small
 * tensors, read through every kind of view: transposed, stepped, flipped
 * (negative strides), expanded (stride 0) and offset.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <float.h>

#include "lt-test-utils.h"

#define DIMS(...) \
  ((const int[]) { __VA_ARGS__ }), (sizeof ((const int[]) { __VA_ARGS__ }) / sizeof (int))
#define ALL NULL, 0

static LtTensor *
from_values (LtDType       dtype,
             const double *values,
             gsize         n_values,
             const gint64 *shape,
             guint         n_dims)
{
  g_autoptr (GError) error = NULL;
  LtTensor *t = lt_tensor_new_from_data (dtype, values, n_values, shape, n_dims, &error);

  g_assert_no_error (error);
  return t;
}

/* A @rows x @cols float32 matrix of @values, row by row. */
static LtTensor *
float32_matrix (const double *values,
                gint64        rows,
                gint64        cols)
{
  return from_values (LT_DTYPE_FLOAT32, values, (gsize) (rows * cols), I64S (rows, cols), 2);
}

#define VALUES(dtype, shape, ...) \
  from_values ((dtype), (const double[]) { __VA_ARGS__ }, \
               sizeof ((const double[]) { __VA_ARGS__ }) / sizeof (double), \
               I64S shape, N_ARGS shape)

/* A complex64 tensor of n elements from n (real, imaginary) pairs. */
#define COMPLEX(n, ...) \
  as_complex (VALUES (LT_DTYPE_FLOAT32, (n, 2), __VA_ARGS__))

static LtTensor *
as_complex (LtTensor *pairs)
{
  g_autoptr (GError) error = NULL;
  LtTensor *c = lt_tensor_view_as_complex (pairs, &error);

  g_assert_no_error (error);
  g_object_unref (pairs);
  return c;
}

/* lt_assert_near (t, tol, 1.0, 2.0): values within @tol relative. */
#define lt_assert_near(t, tol, ...) \
  assert_near (G_STRLOC, (t), (tol), (const double[]) { __VA_ARGS__ }, \
               sizeof ((const double[]) { __VA_ARGS__ }) / sizeof (double))

static void
assert_near (const char   *location,
             LtTensor     *tensor,
             double        tol,
             const double *expected,
             gsize         n_expected)
{
  gsize n;
  g_autofree double *values = lt_tensor_to_doubles (tensor, &n);

  g_assert_cmpuint (n, ==, n_expected);
  for (gsize i = 0; i < n; i++)
    if (!(fabs (values[i] - expected[i]) <= tol * (1 + fabs (expected[i]))
          || (isnan (values[i]) && isnan (expected[i]))
          || values[i] == expected[i]))
      g_error ("%s: value %" G_GSIZE_FORMAT " is %.17g, expected %.17g", location, i, values[i],
               expected[i]);
}

static LtTensor *
arange_2x3 (void)
{
  return lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
}

static void
test_sum_dims (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) x3 = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 3, 4);
  g_autoptr (LtTensor) all = lt_tensor_sum (x, ALL, FALSE, &error);
  g_autoptr (LtTensor) all_keep = lt_tensor_sum (x, ALL, TRUE, &error);
  g_autoptr (LtTensor) cols = lt_tensor_sum (x, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) rows_keep = lt_tensor_sum (x, DIMS (-1), TRUE, &error);
  g_autoptr (LtTensor) outer = lt_tensor_sum (x3, DIMS (0, 2), FALSE, &error);
  g_autoptr (LtTensor) outer_keep = lt_tensor_sum (x3, DIMS (-1, 0), TRUE, &error);

  g_assert_no_error (error);
  lt_assert_scalar_shape (all);
  g_assert_cmpint (lt_tensor_get_dtype (all), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (all, 15);
  lt_assert_sizes (all_keep, 1, 1);
  lt_assert_values (all_keep, 15);
  lt_assert_sizes (cols, 3);
  lt_assert_values (cols, 3, 5, 7);
  lt_assert_sizes (rows_keep, 2, 1);
  lt_assert_values (rows_keep, 3, 12);
  /* sum over i, k of 12 i + 4 j + k = 60 + 32 j */
  lt_assert_sizes (outer, 3);
  lt_assert_values (outer, 60, 92, 124);
  lt_assert_sizes (outer_keep, 1, 3, 1);
  lt_assert_values (outer_keep, 60, 92, 124);
}

static void
test_sum_views (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) t_cols = lt_tensor_sum (t, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) t_rows = lt_tensor_sum (t, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) line = lt_test_arange_shaped (LT_DTYPE_INT32, 10);
  g_autoptr (LtTensor) stepped = lt_tensor_index (line, "[1::3]", &error);
  g_autoptr (LtTensor) stepped_sum = lt_tensor_sum (stepped, ALL, FALSE, &error);
  g_autoptr (LtTensor) flipped = lt_tensor_flip (x, DIMS (0, 1), &error);
  g_autoptr (LtTensor) flipped_sum = lt_tensor_sum (flipped, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) row = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3);
  g_autoptr (LtTensor) expanded = lt_tensor_expand (row, I64S (4, 3), 2, &error);
  g_autoptr (LtTensor) expanded_cols = lt_tensor_sum (expanded, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) expanded_rows = lt_tensor_sum (expanded, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) offset = lt_tensor_index (x, "[1:, 1:]", &error);
  g_autoptr (LtTensor) offset_sum = lt_tensor_sum (offset, ALL, FALSE, &error);

  g_assert_no_error (error);
  lt_assert_values (t_cols, 3, 12);
  lt_assert_values (t_rows, 3, 5, 7);
  /* 1 + 4 + 7, summed in int64 */
  g_assert_cmpint (lt_tensor_get_dtype (stepped_sum), ==, LT_DTYPE_INT64);
  lt_assert_values (stepped_sum, 12);
  lt_assert_values (flipped_sum, 12, 3);
  lt_assert_values (expanded_cols, 0, 4, 8);
  lt_assert_values (expanded_rows, 3, 3, 3, 3);
  lt_assert_values (offset_sum, 9);
}

static void
test_sum_integers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) bytes = VALUES (LT_DTYPE_INT8, (2), 100, 100);
  g_autoptr (LtTensor) bools = VALUES (LT_DTYPE_BOOL, (4), 1, 0, 1, 1);
  g_autoptr (LtTensor) big = VALUES (LT_DTYPE_INT64, (2), 0x1p62, 0x1p62);
  g_autoptr (LtTensor) byte_sum = lt_tensor_sum (bytes, ALL, FALSE, &error);
  g_autoptr (LtTensor) bool_sum = lt_tensor_sum (bools, ALL, FALSE, &error);
  g_autoptr (LtTensor) bool_prod = lt_tensor_prod (bools, ALL, FALSE, &error);
  g_autoptr (LtTensor) wrapped = lt_tensor_sum (big, ALL, FALSE, &error);
  g_autoptr (GBytes) bytes_of_wrapped = NULL;
  gint64 value;

  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (byte_sum), ==, LT_DTYPE_INT64);
  lt_assert_values (byte_sum, 200);
  g_assert_cmpint (lt_tensor_get_dtype (bool_sum), ==, LT_DTYPE_INT64);
  lt_assert_values (bool_sum, 3);
  g_assert_cmpint (lt_tensor_get_dtype (bool_prod), ==, LT_DTYPE_INT64);
  lt_assert_values (bool_prod, 0);
  /* 2^62 + 2^62 wraps around to -2^63, as in PyTorch. */
  bytes_of_wrapped = lt_tensor_to_bytes (wrapped, &error);
  value = *(const gint64 *) g_bytes_get_data (bytes_of_wrapped, NULL);
  g_assert_cmpint (value, ==, G_MININT64);
}

static void
test_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) e = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (0, 3), 2, &error);
  g_autoptr (LtTensor) sum = lt_tensor_sum (e, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) prod = lt_tensor_prod (e, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) mean = lt_tensor_mean (e, ALL, FALSE, &error);
  g_autoptr (LtTensor) all = lt_tensor_all (e, ALL, FALSE, &error);
  g_autoptr (LtTensor) any = lt_tensor_any (e, ALL, FALSE, &error);
  g_autoptr (LtTensor) lse = lt_tensor_logsumexp (e, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) var = lt_tensor_var (e, DIMS (0), 1, FALSE, &error);
  g_autoptr (LtTensor) norm = lt_tensor_norm (e, INFINITY, ALL, FALSE, &error);
  g_autoptr (LtTensor) amax_rows = lt_tensor_amax (e, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) cumsum = lt_tensor_cumsum (e, 0, &error);

  g_assert_no_error (error);
  lt_assert_values (sum, 0, 0, 0);
  lt_assert_values (prod, 1, 1, 1);
  lt_assert_values (mean, NAN);
  lt_assert_values (all, 1);
  lt_assert_values (any, 0);
  lt_assert_values (lse, -INFINITY, -INFINITY, -INFINITY);
  lt_assert_values (var, NAN, NAN, NAN);
  lt_assert_values (norm, 0);
  /* Reducing the non-empty dim of an empty tensor is fine. */
  lt_assert_sizes (amax_rows, 0);
  lt_assert_sizes (cumsum, 0, 3);
}

static void
test_accuracy (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tenths = lt_tensor_new_full (LT_DTYPE_FLOAT32, I64S (10000000), 1, 0.1,
                                                    &error);
  g_autoptr (LtTensor) sum = lt_tensor_sum (tenths, ALL, FALSE, &error);
  g_autoptr (LtTensor) mean = lt_tensor_mean (tenths, ALL, FALSE, &error);
  g_autoptr (LtTensor) one = lt_tensor_new_full (LT_DTYPE_FLOAT32, I64S (1), 1, 0.1, &error);
  g_autoptr (LtTensor) expanded = lt_tensor_expand (one, I64S (10000000), 1, &error);
  g_autoptr (LtTensor) expanded_sum = lt_tensor_sum (expanded, ALL, FALSE, &error);
  g_autoptr (LtTensor) matrix = lt_tensor_view (tenths, I64S (10000, 1000), 2, &error);
  g_autoptr (LtTensor) columns = lt_tensor_sum (matrix, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) half = lt_tensor_new_full (LT_DTYPE_FLOAT16, I64S (100000), 1, 0.1, &error);
  g_autoptr (LtTensor) half_sum = lt_tensor_sum (half, ALL, FALSE, &error);
  double value;
  gsize n;
  g_autofree double *column_values = NULL;

  g_assert_no_error (error);
  lt_tensor_get_double (sum, NULL, 0, &value, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (fabs (value - 1e6) / 1e6, <, 1e-6);
  lt_tensor_get_double (expanded_sum, NULL, 0, &value, &error);
  g_assert_cmpfloat (fabs (value - 1e6) / 1e6, <, 1e-6);
  lt_tensor_get_double (mean, NULL, 0, &value, &error);
  g_assert_cmpfloat (fabs (value - 0.1) / 0.1, <, 1e-6);
  /* The outer loop order (dim 0 of a row-major matrix) as well. */
  column_values = lt_tensor_to_doubles (columns, &n);
  g_assert_cmpuint (n, ==, 1000);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (fabs (column_values[i] - 1000.0) / 1000.0, <, 1e-6);
  /* 100000 float16 0.1s (0.0999755859375 each) sum to 9997.56, which
   * rounds to the float16 10000 (float16s are 8 apart there), as in
   * PyTorch; a float16 accumulator would stall at 256. */
  lt_assert_values (half_sum, 10000);
}

/* Float32 sums run in float lanes with a cascade (lt-cpu-reduce.c), whose
 * error is at most about 18 float roundings of the sum of the magnitudes;
 * FLOAT32_SUM_ROUNDINGS leaves room for the final rounding to float. A
 * sequential float sum, or float lanes without the cascade, exceed it on
 * the inputs below (10^7 tenths drift by hundreds). */
#define FLOAT32_SUM_ROUNDINGS 24

/* Float64 sums are pairwise: along rows, leaves of 16 lanes of up to 16
 * elements each, folded in 4 steps, and up to 3 more for a tail, then
 * log2 (n / 256) levels (16 for 10^7); down columns, pairwise over the
 * rows likewise. A sequential double sum drifts far past it (10^7 tenths
 * by about 10^-4). */
#define FLOAT64_SUM_ROUNDINGS 48

/* The sum of @n doubles @step apart to within about an ulp of the long
 * double result (Neumaier's compensated sum; long double is double under
 * valgrind, and the compensation keeps that within an ulp of a double),
 * and the sum of their magnitudes. */
static long double
reference_sum (const double *values,
               gint64        n,
               gint64        step,
               long double  *magnitude)
{
  long double sum = 0, compensation = 0;

  *magnitude = 0;
  for (gint64 k = 0; k < n; k++)
    {
      long double x = values[k * step], t = sum + x;

      compensation += fabsl (sum) >= fabsl (x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
      *magnitude += fabsl (x);
    }
  return sum + compensation;
}

/* Sums @values, seen as @rows rows of @cols floats of @dtype (float32 or
 * float64), along each row and down each column, and checks every sum
 * against a compensated reference. Where @strided, the tensor summed is
 * every other column of one twice as wide, whose other columns hold
 * -1e30: its rows are not contiguous. */
static void
check_sums_of (LtDType       dtype,
               const char   *what,
               const double *values,
               gint64        rows,
               gint64        cols,
               gboolean      strided)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  int roundings = dtype == LT_DTYPE_FLOAT32 ? FLOAT32_SUM_ROUNDINGS : FLOAT64_SUM_ROUNDINGS;
  double unit = dtype == LT_DTYPE_FLOAT32 ? 0x1p-24 : 0x1p-53;

  if (strided)
    {
      g_autofree double *wide = g_new (double, 2 * rows * cols);
      g_autoptr (LtTensor) whole = NULL;

      for (gint64 k = 0; k < rows * cols; k++)
        {
          wide[2 * k] = values[k];
          wide[2 * k + 1] = -1e30;
        }
      whole = from_values (dtype, wide, (gsize) (2 * rows * cols), I64S (rows, 2 * cols), 2);
      tensor = lt_tensor_slice (whole, 1, 0, 2 * cols, 2, &error);
      g_assert_no_error (error);
    }
  else
    tensor = from_values (dtype, values, (gsize) (rows * cols), I64S (rows, cols), 2);

  for (int dim = 0; dim < 2; dim++)
    {
      g_autoptr (LtTensor) sums = lt_tensor_sum (tensor, DIMS (dim), FALSE, &error);
      gint64 n_sums = dim == 1 ? rows : cols, count = dim == 1 ? cols : rows;
      g_autofree double *got = NULL;
      gsize n;

      g_assert_no_error (error);
      got = lt_tensor_to_doubles (sums, &n);
      g_assert_cmpint ((gint64) n, ==, n_sums);
      for (gint64 s = 0; s < n_sums; s++)
        {
          long double magnitude;
          long double reference = dim == 1 ? reference_sum (values + s * cols, count, 1, &magnitude)
                                           : reference_sum (values + s, count, cols, &magnitude);
          double bound = roundings * unit * (double) magnitude;

          if (!(fabsl ((long double) got[s] - reference) <= bound))
            g_error ("%s, %s: sum %" G_GINT64_FORMAT " over dim %d of %" G_GINT64_FORMAT
                     "x%" G_GINT64_FORMAT " is %.17g, the reference %.17Lg: an error of "
                     "%.3g, beyond %d roundings of the magnitudes (%.3g)",
                     lt_dtype_get_name (dtype), what, s, dim, rows, cols, got[s], reference,
                     (double) fabsl ((long double) got[s] - reference), roundings, bound);
        }
    }
}

/* A random float: sign, an exponent in [min_exp, max_exp], a mantissa. */
static double
random_float (GRand *rand,
              int    min_exp,
              int    max_exp)
{
  double mantissa = 1 + (double) (g_rand_int (rand) >> 9) * 0x1p-23;
  double sign = g_rand_boolean (rand) ? -1 : 1;

  return sign * ldexp (mantissa, g_rand_int_range (rand, min_exp, max_exp + 1));
}

static void
check_sums (LtDType       dtype,
            const char   *what,
            const double *values,
            gint64        rows,
            gint64        cols)
{
  check_sums_of (dtype, what, values, rows, cols, FALSE);
}

/* A random float32 (@f32) or float64: random_float ()'s with the lower
 * bits of a double's mantissa drawn too. */
static double
random_value (GRand   *rand,
              gboolean f32,
              int      min_exp,
              int      max_exp)
{
  double x = random_float (rand, min_exp, max_exp);

  return f32 ? x : x + ldexp ((double) (g_rand_int (rand) >> 3) * 0x1p-29, ilogb (x) - 23);
}

/* Float32 and float64 sums on adversarial inputs, within their bounds
 * above (issue 21). */
static void
test_sum_bounds (gconstpointer data)
{
  LtDType dtype = GPOINTER_TO_INT (data);
  gboolean f32 = dtype == LT_DTYPE_FLOAT32;
  g_autoptr (GRand) rand = g_rand_new_with_seed (21);
  /* Fewer elements for the other inputs (this test runs under valgrind
   * too), in rows of a length that leaves tails. */
  gint64 n = 10000000, rows = 1021, cols = 1027, m = rows * cols;
  g_autofree double *values = g_new (double, n);

  /* 10^7 tenths: a float running sum stalls long before 10^6. */
  for (gint64 k = 0; k < n; k++)
    values[k] = f32 ? (float) 0.1 : 0.1;
  check_sums (dtype, "tenths", values, 1, n);
  /* The same down 64 columns (and along 156250 rows of 64). */
  check_sums (dtype, "tenths", values, n / 64, 64);
  /* 1, then at each 256th of the row (where the CPU's blocks of a long
   * row start) 3/8 of an ulp of 1: each is lost when added to 1 by
   * itself, so a sum that meets them one after another (sequential
   * blocks, a sequential cascade) is about 96 ulps of 1 short. */
  if (!f32)
    {
      memset (values, 0, (gsize) n * sizeof (double));
      values[0] = 1;
      for (gint64 b = 1; b < 256; b++)
        values[n * b / 256] = 0x1.8p-54;
      check_sums (dtype, "lost quarters", values, 1, n);
      check_sums (dtype, "lost quarters", values, n / 64, 64);
    }
  /* Alternating signs: the sum is small and the magnitudes large. */
  for (gint64 k = 0; k < m; k++)
    values[k] = (k % 2 ? -1 : 1) * (1 + (double) (g_rand_int (rand) >> 14) * 0x1p-18);
  check_sums (dtype, "alternating", values, 1, m);
  /* Exponents from 2^-60 to 2^60, random signs. */
  for (gint64 k = 0; k < m; k++)
    values[k] = random_value (rand, f32, -60, 60);
  check_sums (dtype, "wide exponents", values, 1, m);
  check_sums (dtype, "wide exponents", values, rows, cols);
  check_sums_of (dtype, "wide exponents, every other column", values, rows, cols, TRUE);
  check_sums_of (dtype, "wide exponents, every other column", values, m / 7, 7, TRUE);
  /* Values and their negatives, half a row apart: the sum is exactly 0. */
  for (gint64 k = 0; k < m / 2; k++)
    {
      values[k] = random_value (rand, f32, -20, 20);
      values[k + m / 2] = -values[k];
    }
  check_sums (dtype, "cancelling", values, 1, m / 2 * 2);
  /* +-3e38 in pairs of each sign along rows and down columns: every row
   * and column sums to 0, but float partial sums of two alike overflow;
   * such sums are added again in double (as the GPU's are). */
  for (gint64 r = 0; r < 136; r++)
    for (gint64 c = 0; c < 72; c++)
      values[r * 72 + c] = ((r / 2 + c / 2) % 2 ? -3e38 : 3e38);
  check_sums (dtype, "overflowing pairs", values, 136, 72);
  /* Every length from 1 to 1100: tails of every size, leaf boundaries. */
  for (gint64 length = 1; length <= 1100; length++)
    {
      for (gint64 k = 0; k < length; k++)
        values[k] = random_value (rand, f32, -4, 4);
      check_sums (dtype, "short rows", values, 1, length);
    }
}

/* A sum, amax and amin of float32s or float64s over two dims that do not
 * merge (x[:, :9, :] of a (16, 10, 24) tensor, over dims 0 and 1): the
 * rows are found by stepping through the dims, eight at a time into the
 * float32 cascade's partial sums (a partial that overflowed, pairs of
 * +-3e38, is added again in double) or the float64 cascade's groups, and
 * one at a time into the extremes' lanes. Every sum of the first pass is
 * 0 exactly; random values (a second pass) must come out within the
 * bound, and the extremes exact. */
static void
test_reduce_over_two_dims (gconstpointer data)
{
  LtDType dtype = GPOINTER_TO_INT (data);
  gboolean f32 = dtype == LT_DTYPE_FLOAT32;
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);

  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree double *values = g_new (double, 16 * 10 * 24);
      g_autoptr (LtTensor) tensor = NULL, narrowed = NULL, sums = NULL, maxima = NULL;
      g_autoptr (LtTensor) minima = NULL;
      g_autofree double *got = NULL, *got_max = NULL, *got_min = NULL;
      gsize n;

      for (gint64 i = 0; i < 16; i++)
        for (gint64 j = 0; j < 10; j++)
          for (gint64 k = 0; k < 24; k++)
            values[(i * 10 + j) * 24 + k] = pass == 0 ? ((i / 2 + k / 2) % 2 ? -3e38 : 3e38)
                                                      : random_value (rand, f32, -20, 20);
      tensor = from_values (dtype, values, 16 * 10 * 24, I64S (16, 10, 24), 3);
      narrowed = lt_tensor_narrow (tensor, 1, 0, 9, &error);
      g_assert_no_error (error);
      sums = lt_tensor_sum (narrowed, DIMS (0, 1), FALSE, &error);
      g_assert_no_error (error);
      maxima = lt_tensor_amax (narrowed, DIMS (0, 1), FALSE, &error);
      g_assert_no_error (error);
      minima = lt_tensor_amin (narrowed, DIMS (0, 1), FALSE, &error);
      g_assert_no_error (error);
      got = lt_tensor_to_doubles (sums, &n);
      g_assert_cmpuint (n, ==, 24);
      got_max = lt_tensor_to_doubles (maxima, &n);
      got_min = lt_tensor_to_doubles (minima, &n);
      for (gint64 k = 0; k < 24; k++)
        {
          long double reference = 0, magnitude = 0;
          double largest = -INFINITY, smallest = INFINITY;

          for (gint64 i = 0; i < 16; i++)
            for (gint64 j = 0; j < 9; j++)
              {
                double x = values[(i * 10 + j) * 24 + k];

                x = f32 ? (float) x : x;
                reference += x;
                magnitude += fabs (x);
                largest = MAX (largest, x);
                smallest = MIN (smallest, x);
              }
          if (!(fabsl ((long double) got[k] - reference)
                <= (f32 ? FLOAT32_SUM_ROUNDINGS * 0x1p-24 : FLOAT64_SUM_ROUNDINGS * 0x1p-53)
                     * magnitude))
            g_error ("%s, pass %d, sum %" G_GINT64_FORMAT ": %.17g, the reference %.17Lg",
                     lt_dtype_get_name (dtype), pass, k, got[k], reference);
          if (got_max[k] != largest || got_min[k] != smallest)
            g_error ("%s, pass %d, output %" G_GINT64_FORMAT ": amax %.17g and amin %.17g, "
                     "expected %.17g and %.17g", lt_dtype_get_name (dtype), pass, k, got_max[k],
                     got_min[k], largest, smallest);
        }
    }
}

/* Sums of zeros that are all -0: +0, as in PyTorch (a sum starts at +0),
 * along rows, down columns of every kind of length (the float64 cascade's
 * groups of eight and their rest) and of everything. */
static void
test_sum_negative_zeros (gconstpointer data)
{
  LtDType dtype = GPOINTER_TO_INT (data);
  const gint64 heights[] = { 1, 7, 8, 9, 16, 17, 64 };

  for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
    {
      g_autoptr (GError) error = NULL;
      gint64 sizes[2] = { heights[h], 3 };
      g_autoptr (LtTensor) zeros = lt_tensor_new_full (dtype, sizes, 2, -0.0, &error);

      g_assert_no_error (error);
      for (int dim = -1; dim < 2; dim++)
        {
          g_autoptr (LtTensor) sums = dim < 0 ? lt_tensor_sum (zeros, ALL, FALSE, &error)
                                              : lt_tensor_sum (zeros, DIMS (dim), FALSE, &error);
          g_autofree double *got = NULL;
          gsize n;

          g_assert_no_error (error);
          got = lt_tensor_to_doubles (sums, &n);
          for (gsize k = 0; k < n; k++)
            if (got[k] != 0 || signbit (got[k]))
              g_error ("%s: the sum over dim %d of %" G_GINT64_FORMAT " x 3 zeros of -0, output "
                       "%zu: %g, expected +0", lt_dtype_get_name (dtype), dim, heights[h], k,
                       got[k]);
        }
    }
}

/* Variances (and 2-norms) along rows and down columns of @rows x @cols
 * float32s (or float64s), against a long double two-pass reference (and
 * sum of squares): within 8 float roundings, or 8 * 2^-40 relative for
 * float64, since valgrind computes long double as double, and the
 * reference's own error then reaches 1.5e-14 on a mean of 10^4. */
static void
check_variances (const char   *what,
                 LtDType       dtype,
                 const double *values,
                 gint64        rows,
                 gint64        cols)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = from_values (dtype, values, (gsize) (rows * cols),
                                             I64S (rows, cols), 2);
  double unit = dtype == LT_DTYPE_FLOAT32 ? 0x1p-24 : 0x1p-40;

  for (int dim = 0; dim < 2; dim++)
    for (int correction = 0; correction < 2; correction++)
      {
        g_autoptr (LtTensor) var = lt_tensor_var (tensor, DIMS (dim), correction, FALSE, &error);
        g_autoptr (LtTensor) std = lt_tensor_std (tensor, DIMS (dim), correction, FALSE, &error);
        g_autoptr (LtTensor) norm = lt_tensor_norm (tensor, 2, DIMS (dim), FALSE, &error);
        gint64 n_out = dim == 1 ? rows : cols, count = dim == 1 ? cols : rows;
        g_autofree double *got = NULL, *got_std = NULL, *got_norm = NULL;
        gsize n;

        g_assert_no_error (error);
        got = lt_tensor_to_doubles (var, &n);
        got_std = lt_tensor_to_doubles (std, &n);
        got_norm = lt_tensor_to_doubles (norm, &n);
        for (gint64 o = 0; o < n_out; o++)
          {
            long double mean = 0, squares = 0, expected;

            for (gint64 k = 0; k < count; k++)
              mean += dim == 1 ? values[o * cols + k] : values[k * cols + o];
            mean /= count;
            for (gint64 k = 0; k < count; k++)
              {
                long double d = (dim == 1 ? values[o * cols + k] : values[k * cols + o]) - mean;

                squares += d * d;
              }
            if (correction == 0)
              {
                /* The 2-norm, from the same elements. */
                long double sum_squares = 0, expected_norm;

                for (gint64 k = 0; k < count; k++)
                  {
                    long double x = dim == 1 ? values[o * cols + k] : values[k * cols + o];

                    sum_squares += x * x;
                  }
                expected_norm = sqrtl (sum_squares);
                if (!(fabsl (got_norm[o] - expected_norm) <= 8 * unit * expected_norm))
                  g_error ("%s: norm over dim %d of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                           ", output %" G_GINT64_FORMAT ": %.17g, expected %.17Lg", what, dim,
                           rows, cols, o, got_norm[o], expected_norm);
              }
            expected = count - correction > 0 ? squares / (count - correction) : NAN;
            if (isnan (expected) ? !isnan (got[o]) && !isinf (got[o])
                                 : !(fabsl (got[o] - expected) <= 8 * unit * expected)
                                     || !(fabsl (got_std[o] - sqrtl (expected))
                                          <= 8 * unit * sqrtl (expected)))
              g_error ("%s: var over dim %d of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                       ", correction %d, output %" G_GINT64_FORMAT ": %.17g (std %.17g), "
                       "expected %.17Lg", what, dim, rows, cols, correction, o, got[o],
                       got_std[o], expected);
          }
      }
}

/* The 2-norm of each row of @rows x @cols float32s against a long double
 * reference: within 12 float roundings of it (the CPU's float lanes: 18
 * roundings of the sum of squares at most, 9 of the norm, and the result's
 * own), NaN where a row has one, and +inf where a row has one and no NaN. */
static void
check_float32_norms (const char   *what,
                     const double *values,
                     gint64        rows,
                     gint64        cols)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = float32_matrix (values, rows, cols);
  g_autoptr (LtTensor) norms = lt_tensor_norm (tensor, 2, DIMS (1), FALSE, &error);
  g_autofree double *got = NULL;
  gsize n;

  g_assert_no_error (error);
  got = lt_tensor_to_doubles (norms, &n);
  g_assert_cmpint ((gint64) n, ==, rows);
  for (gint64 r = 0; r < rows; r++)
    {
      long double squares = 0, expected;
      gboolean nan = FALSE, inf = FALSE;

      /* NaN and infinity from the inputs: valgrind's long double makes
       * sqrtl (inf) the largest finite number. */
      for (gint64 k = 0; k < cols; k++)
        {
          long double x = (float) values[r * cols + k];

          nan |= isnan (values[r * cols + k]);
          inf |= isinf (values[r * cols + k]);
          squares += x * x;
        }
      expected = sqrtl (squares);
      if (nan ? !isnan (got[r])
              : inf ? got[r] != INFINITY
                    : !(fabsl (got[r] - expected) <= 12 * 0x1p-24 * expected))
        g_error ("%s: the norm of row %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " floats is "
                 "%.9g, the reference %.9Lg", what, r, cols, got[r], expected);
    }
}

/* Float32 2-norms along rows (squares in float lanes, lt-cpu-reduce.c)
 * on the inputs that trouble them: long rows of one value (PyTorch 1.13
 * is 549 ulps off on 10^5 tenths), wide exponents, squares past float's
 * range and in its subnormals (which the lanes leave to double: PyTorch
 * gives 0 for ten 1e-25 and inf for ten 3e20), NaN and infinity. */
static void
test_norm_float32_bounds (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (31);
  gint64 n = 100000;
  g_autofree double *values = g_new (double, n);

  for (gint64 k = 0; k < n; k++)
    values[k] = 0.1;
  check_float32_norms ("tenths", values, 1, n);
  check_float32_norms ("tenths", values, n / 100, 100);
  for (gint64 k = 0; k < n; k++)
    values[k] = random_float (rand, -70, 70);
  check_float32_norms ("wide exponents", values, 1, n);
  check_float32_norms ("wide exponents", values, n / 1000, 1000);
  for (gint64 k = 0; k < n; k++)
    values[k] = random_float (rand, -75, -55);
  check_float32_norms ("squares among the subnormals", values, n / 1000, 1000);
  for (gint64 k = 0; k < 40; k++)
    values[k] = k < 10 ? 1e-25 : k < 20 ? 3e20 : k < 30 ? (k % 2 ? 1e-25 : 1) : -3e20;
  check_float32_norms ("tiny and huge", values, 4, 10);
  for (gint64 k = 0; k < 600; k++)
    values[k] = k == 37 ? NAN : k == 300 || k == 550 ? -INFINITY : random_float (rand, -4, 4);
  check_float32_norms ("NaN and infinity", values, 3, 200);
  /* Every length to 1100: tails of every size, leaf boundaries. */
  for (gint64 length = 1; length <= 1100; length++)
    {
      for (gint64 k = 0; k < length; k++)
        values[k] = random_float (rand, -8, 8);
      check_float32_norms ("short rows", values, 1, length);
    }
}

static void
test_variance_accuracy (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);
  gint64 big = (1 << 20) + 5;
  g_autofree double *values = g_new (double, big);

  /* A large mean and a small spread: a one-pass formula in float (or a
   * mean with a float sum's error, uncorrected) loses every digit. */
  for (gint64 k = 0; k < 37 * 1003; k++)
    values[k] = (float) (10000 + g_rand_double_range (rand, -1, 1));
  check_variances ("offset", LT_DTYPE_FLOAT32, values, 37, 1003);
  check_variances ("offset", LT_DTYPE_FLOAT64, values, 37, 1003);
  /* A spread of a few float steps about 10^4: the float sum's error in
   * the mean is then a good part of the deviations. */
  for (gint64 k = 0; k < 37 * 1003; k++)
    values[k] = (float) (10000 + g_rand_double_range (rand, -0.004, 0.004));
  check_variances ("float steps", LT_DTYPE_FLOAT32, values, 37, 1003);
  /* One output of a million elements: blocks joined by Chan's formula. */
  for (gint64 k = 0; k < big; k++)
    values[k] = (float) (1000 + g_rand_double_range (rand, 0, 3));
  check_variances ("million", LT_DTYPE_FLOAT32, values, 1, big);
  /* Every row length to 70, both dims. */
  for (gint64 length = 1; length <= 70; length++)
    {
      for (gint64 k = 0; k < 3 * length; k++)
        values[k] = (float) g_rand_double_range (rand, -100, 100);
      check_variances ("short", LT_DTYPE_FLOAT32, values, 3, length);
      check_variances ("short", LT_DTYPE_FLOAT64, values, 3, length);
    }
}

/* The first extreme of @count values @step apart, NaN winning, as PyTorch
 * picks it. */
static gint64
first_extreme (const double *values,
               gint64        count,
               gint64        step,
               gboolean      max)
{
  gint64 best = 0;

  for (gint64 k = 1; k < count; k++)
    {
      double x = values[k * step], b = values[best * step];

      if (!isnan (b) && (isnan (x) || (max ? x > b : x < b)))
        best = k;
    }
  return best;
}

static void
assert_same_float (double      got,
                   double      expected,
                   const char *what,
                   gint64      length,
                   gint64      position)
{
  if (isnan (expected) ? !isnan (got)
                       : got != expected || signbit (got) != signbit (expected))
    g_error ("%s of length %" G_GINT64_FORMAT ", output %" G_GINT64_FORMAT ": %g, expected %g",
             what, length, position, got, expected);
}

/* amax, amin, argmax, argmin and max/min with indices, along rows (the
 * CPU reads float32 and float64 rows in vector lanes, float64 rows from
 * addresses of any alignment) and down columns (a row of lanes per
 * reduced position, eight rows at a time), on rows of every length to 75
 * whose values tie often: small integers, zeros of both signs, infinities
 * and NaNs. */
static void
test_extremes_lanes (gconstpointer data)
{
  LtDType dtype = GPOINTER_TO_INT (data);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  const gint64 width = 19; /* float32: two vectors and a tail; float64: four */

  for (gint64 length = 1; length <= 75; length++)
    for (int pattern = 0; pattern < 4; pattern++)
      {
        g_autofree double *values = g_new (double, length * width);
        g_autoptr (LtTensor) tensor = NULL;

        for (gint64 k = 0; k < length * width; k++)
          {
            int pick = g_rand_int_range (rand, 0, 100);

            values[k] = pick < 10 ? 0.0 : pick < 20 ? -0.0 : g_rand_int_range (rand, -3, 4);
            if (pattern >= 1 && pick >= 98)
              values[k] = pick == 98 ? INFINITY : -INFINITY;
            if (pattern >= 2 && g_rand_int_range (rand, 0, 40 * (pattern - 1)) == 0)
              values[k] = NAN;
          }
        /* In pattern 0, rows whose extreme is a zero of either sign, the
         * first a -0 that vector lanes would not see first. */
        if (pattern == 0)
          for (gint64 k = 0; k < length; k++)
            {
              values[k] = k == 0 ? -1 : k % 2 ? -0.0 : 0.0;
              values[length + k] = k == 0 ? 1 : k % 2 ? -0.0 : 0.0;
              values[2 * length + k] = (k % 3 == 1) ? -0.0 : 0.0;
            }
        tensor = from_values (dtype, values, (gsize) (length * width), I64S (width, length), 2);

        for (int max = 0; max < 2; max++)
          for (int dim = 0; dim < 2; dim++)
            {
              g_autoptr (GError) error = NULL;
              /* Along rows: the (width, length) tensor over dim 1. Down
               * columns: the same values as (length, width), over dim 0.
               * Either way, width outputs of length values each. */
              g_autoptr (LtTensor) source = dim == 1 ? g_object_ref (tensor)
                                                     : lt_tensor_view (tensor, I64S (length, width),
                                                                       2, &error);
              g_autoptr (LtTensor) extremes = NULL, indices = NULL, values_dim = NULL;
              g_autoptr (LtTensor) indices_dim = NULL;
              g_autofree double *got = NULL, *got_indices = NULL, *got_values = NULL;
              g_autofree double *got_dim_indices = NULL;
              gint64 outputs = width, count = length;
              gint64 step = dim == 1 ? 1 : width, out_step = dim == 1 ? length : 1;
              gsize n;

              g_assert_no_error (error);
              extremes = max ? lt_tensor_amax (source, DIMS (dim), FALSE, &error)
                             : lt_tensor_amin (source, DIMS (dim), FALSE, &error);
              g_assert_no_error (error);
              indices = max ? lt_tensor_argmax (source, dim, FALSE, &error)
                            : lt_tensor_argmin (source, dim, FALSE, &error);
              g_assert_no_error (error);
              if (max)
                lt_tensor_max_dim (source, dim, FALSE, &values_dim, &indices_dim, &error);
              else
                lt_tensor_min_dim (source, dim, FALSE, &values_dim, &indices_dim, &error);
              g_assert_no_error (error);
              got = lt_tensor_to_doubles (extremes, &n);
              g_assert_cmpint ((gint64) n, ==, outputs);
              got_indices = lt_tensor_to_doubles (indices, &n);
              got_values = lt_tensor_to_doubles (values_dim, &n);
              got_dim_indices = lt_tensor_to_doubles (indices_dim, &n);
              for (gint64 o = 0; o < outputs; o++)
                {
                  const double *line = values + o * out_step;
                  gint64 first = first_extreme (line, count, step, max);

                  assert_same_float (got[o], line[first * step], max ? "amax" : "amin", length, o);
                  assert_same_float (got_values[o], line[first * step],
                                     max ? "max values" : "min values", length, o);
                  if (got_indices[o] != first || got_dim_indices[o] != first)
                    g_error ("%s of length %" G_GINT64_FORMAT " over dim %d, output %"
                             G_GINT64_FORMAT ": %g and %g, expected %" G_GINT64_FORMAT,
                             max ? "argmax" : "argmin", length, dim, o, got_indices[o],
                             got_dim_indices[o], first);
                }
            }
      }
}

/* Each row's own result, through every kind of row: a float32 sum, amax
 * or amin along the rows of @source must be, output by output and to the
 * bit, what the same row gives reduced alone (the CPU reduces short rows
 * eight at a time, their horizontal steps shared, and single rows one by
 * one). */
static void
assert_rows_as_alone (LtTensor   *source,
                      int         op,
                      const char *what)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) together = NULL;
  g_autofree double *got = NULL;
  guint n_dims;
  const gint64 *sizes = lt_tensor_get_sizes (source, &n_dims);
  gint64 rows = sizes[0], length = sizes[1];
  gsize n;

  g_assert_cmpuint (n_dims, ==, 2);
  together = op == 0 ? lt_tensor_sum (source, DIMS (1), FALSE, &error)
           : op == 1 ? lt_tensor_amax (source, DIMS (1), FALSE, &error)
                     : lt_tensor_amin (source, DIMS (1), FALSE, &error);
  g_assert_no_error (error);
  got = lt_tensor_to_doubles (together, &n);
  g_assert_cmpint ((gint64) n, ==, rows);
  for (gint64 r = 0; r < rows; r++)
    {
      g_autoptr (LtTensor) row = lt_tensor_select (source, 0, r, &error);
      g_autoptr (LtTensor) alone = NULL;
      g_autofree double *alone_value = NULL;

      g_assert_no_error (error);
      alone = op == 0 ? lt_tensor_sum (row, ALL, FALSE, &error)
            : op == 1 ? lt_tensor_amax (row, ALL, FALSE, &error)
                      : lt_tensor_amin (row, ALL, FALSE, &error);
      g_assert_no_error (error);
      alone_value = lt_tensor_to_doubles (alone, &n);
      g_assert_cmpuint (n, ==, 1);
      assert_same_float (got[r], alone_value[0], what, length, r);
    }
}

static void
test_rows_together (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  const gint64 rows = 21; /* two groups of eight and five alone */

  for (gint64 length = 1; length <= 70; length++)
    {
      /* Three columns more than the rows use, for a narrowed view. */
      gint64 width = length + 3;
      g_autofree double *values = g_new (double, rows * width);
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) tensor = NULL, narrowed = NULL, flipped = NULL, contiguous = NULL;
      LtTensor *sources[3];

      for (gint64 k = 0; k < rows * width; k++)
        {
          int pick = g_rand_int_range (rand, 0, 100);

          /* Wide exponents and both signs, so that the order of every
           * addition shows; zeros of both signs, infinities, NaNs. */
          values[k] = ldexp (g_rand_double_range (rand, -1, 1), g_rand_int_range (rand, -30, 30));
          if (pick < 6)
            values[k] = pick % 2 ? -0.0 : 0.0;
          else if (pick == 6)
            values[k] = g_rand_boolean (rand) ? INFINITY : -INFINITY;
          else if (pick == 7 && k % 5 == 0)
            values[k] = NAN;
        }
      /* Rows 1 to 3 of the first group: extremes that are zeros, the first
       * -0 or +0. */
      for (gint64 k = 0; k < width; k++)
        {
          values[width + k] = k % 2 ? -0.0 : 0.0;
          values[2 * width + k] = k % 2 ? 0.0 : -0.0;
          values[3 * width + k] = k == width / 2 ? -0.0 : -1.0;
        }
      tensor = from_values (LT_DTYPE_FLOAT32, values, (gsize) (rows * width),
                            I64S (rows, width), 2);
      contiguous = lt_tensor_narrow (tensor, 1, 0, length, &error);
      g_assert_no_error (error);
      narrowed = lt_tensor_narrow (tensor, 1, 2, length, &error);
      g_assert_no_error (error);
      flipped = lt_tensor_flip (narrowed, DIMS (0), &error);
      g_assert_no_error (error);
      sources[0] = length == width ? tensor : contiguous;
      sources[1] = narrowed;
      sources[2] = flipped;
      for (int s = 0; s < 3; s++)
        {
          assert_rows_as_alone (sources[s], 0, "sum of a row");
          assert_rows_as_alone (sources[s], 1, "amax of a row");
          assert_rows_as_alone (sources[s], 2, "amin of a row");
        }
      /* Whole rows of a contiguous tensor too (no narrowing). */
      {
        g_autoptr (LtTensor) whole = from_values (LT_DTYPE_FLOAT32, values, (gsize) (rows * length),
                                                  I64S (rows, length), 2);

        assert_rows_as_alone (whole, 0, "sum of a row");
        assert_rows_as_alone (whole, 1, "amax of a row");
      }
    }
}

/* Products do not depend on how the work is split: partial products that
 * would overflow (or underflow) are scaled, so a 0 among huge values gives
 * 0 however the elements are grouped (a GPU's blocks, the CPU's threads),
 * never 0 * inf = NaN, and a product whose running value leaves the range
 * but whose result does not comes out finite. */
static void
test_prod_range (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) huge = lt_tensor_new_full (LT_DTYPE_FLOAT64, I64S (3, 4096), 2, 1e300,
                                                  &error);
  g_autoptr (LtTensor) rows = NULL, all = NULL, floats = NULL, float_rows = NULL;
  g_autoptr (LtTensor) balanced = VALUES (LT_DTYPE_FLOAT64, (6), 1e300, 1e300, 1e300, 1e-300,
                                          1e-300, 1e-300);
  g_autoptr (LtTensor) balanced_prod = NULL, tiny_prod = NULL, inf_prod = NULL;
  g_autoptr (LtTensor) tiny = VALUES (LT_DTYPE_FLOAT64, (4), 1e-300, 1e-300, 1e300, 4e300);
  g_autoptr (LtTensor) with_inf = VALUES (LT_DTYPE_FLOAT64, (4), 1e300, 0, INFINITY, 2);
  g_autoptr (LtTensor) complex = COMPLEX (3, 1e30, 1e30, 1e30, -1e30, 1e-30, 0);
  g_autoptr (LtTensor) complex_prod = NULL;
  double value;

  g_assert_no_error (error);
  /* Row 0 starts with 0, row 1 ends with it, row 2 has none. */
  lt_tensor_set_double (huge, I64S (0, 0), 2, 0, &error);
  lt_tensor_set_double (huge, I64S (1, 4095), 2, 0, &error);
  g_assert_no_error (error);
  rows = lt_tensor_prod (huge, DIMS (1), FALSE, &error);
  g_assert_no_error (error);
  lt_assert_values (rows, 0, 0, INFINITY);
  all = lt_tensor_prod (huge, ALL, FALSE, &error);
  g_assert_no_error (error);
  lt_assert_values (all, 0);
  /* float32 products are accumulated in double, where 4096 1e30s
   * overflow too. */
  floats = lt_tensor_new_full (LT_DTYPE_FLOAT32, I64S (3, 4096), 2, 1e30, &error);
  g_assert_no_error (error);
  lt_tensor_set_double (floats, I64S (0, 0), 2, 0, &error);
  lt_tensor_set_double (floats, I64S (1, 4095), 2, 0, &error);
  g_assert_no_error (error);
  float_rows = lt_tensor_prod (floats, DIMS (1), FALSE, &error);
  g_assert_no_error (error);
  lt_assert_values (float_rows, 0, 0, INFINITY);

  balanced_prod = lt_tensor_prod (balanced, ALL, FALSE, &error);
  g_assert_no_error (error);
  lt_tensor_get_double (balanced_prod, NULL, 0, &value, &error);
  g_assert_cmpfloat (fabs (value - 1.0), <, 1e-12);
  tiny_prod = lt_tensor_prod (tiny, ALL, FALSE, &error);
  g_assert_no_error (error);
  lt_tensor_get_double (tiny_prod, NULL, 0, &value, &error);
  g_assert_cmpfloat (fabs (value - 4.0), <, 1e-12);
  /* A real inf times 0 is still NaN. */
  inf_prod = lt_tensor_prod (with_inf, ALL, FALSE, &error);
  g_assert_no_error (error);
  lt_tensor_get_double (inf_prod, NULL, 0, &value, &error);
  g_assert_true (isnan (value));
  /* (1e30 + 1e30i)(1e30 - 1e30i) = 2e60 overflows float, but not once
   * scaled: times 1e-30 it is 2e30. */
  complex_prod = lt_tensor_prod (complex, ALL, FALSE, &error);
  g_assert_no_error (error);
  lt_assert_near (complex_prod, 1e-6, 2e30, 0);
}

static void
test_mean_prod (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) mean = lt_tensor_mean (x, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) prod = lt_tensor_prod (t, DIMS (1), TRUE, &error);
  g_autoptr (LtTensor) ints = VALUES (LT_DTYPE_INT16, (3), 2, -3, 7);
  g_autoptr (LtTensor) int_prod = lt_tensor_prod (ints, ALL, FALSE, &error);
  g_autoptr (LtTensor) c = COMPLEX (2, 1, 2, 3, -1);
  g_autoptr (LtTensor) c_prod = lt_tensor_prod (c, ALL, FALSE, &error);
  g_autoptr (LtTensor) c_mean = lt_tensor_mean (c, ALL, FALSE, &error);

  g_assert_no_error (error);
  lt_assert_values (mean, 1, 4);
  lt_assert_sizes (prod, 3, 1);
  lt_assert_values (prod, 0, 4, 10);
  g_assert_cmpint (lt_tensor_get_dtype (int_prod), ==, LT_DTYPE_INT64);
  lt_assert_values (int_prod, -42);
  /* (1 + 2i)(3 - i) = 5 + 5i */
  lt_assert_values (c_prod, 5, 5);
  lt_assert_values (c_mean, 2, 0.5);
}

static void
test_extremes_nan (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = VALUES (LT_DTYPE_FLOAT32, (2, 3), 1, NAN, 3, 4, 5, -6);
  g_autoptr (LtTensor) amax = lt_tensor_amax (x, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) amin = lt_tensor_amin (x, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) max = lt_tensor_max (x, &error);
  g_autoptr (LtTensor) argmax = lt_tensor_argmax (x, 1, FALSE, &error);
  g_autoptr (LtTensor) argmin_all = lt_tensor_argmin_all (x, &error);
  g_autoptr (LtTensor) lse = lt_tensor_logsumexp (x, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) b = VALUES (LT_DTYPE_BOOL, (3), 0, 1, 0);
  g_autoptr (LtTensor) b_max = lt_tensor_amax (b, ALL, FALSE, &error);
  g_autoptr (LtTensor) b_min = lt_tensor_min (b, &error);

  g_assert_no_error (error);
  lt_assert_values (amax, NAN, 5);
  lt_assert_values (amin, 1, NAN, -6);
  lt_assert_values (max, NAN);
  lt_assert_values (argmax, 1, 1);
  lt_assert_values (argmin_all, 1);
  lt_assert_near (lse, 1e-6, NAN, 5 + log1p (exp (-1) + exp (-11)));
  g_assert_cmpint (lt_tensor_get_dtype (b_max), ==, LT_DTYPE_BOOL);
  lt_assert_values (b_max, 1);
  lt_assert_values (b_min, 0);
}

static void
test_max_dim_ties (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = VALUES (LT_DTYPE_INT32, (3, 4), 2, 7, 7, 1, 5, 0, 5, 5, 7, 7, 3, 0);
  g_autoptr (LtTensor) values = NULL;
  g_autoptr (LtTensor) indices = NULL;
  g_autoptr (LtTensor) min_indices = NULL;
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) argmax_t = lt_tensor_argmax (t, 0, TRUE, &error);
  g_autoptr (LtTensor) argmax_all = lt_tensor_argmax_all (t, &error);
  g_autoptr (LtTensor) flipped = lt_tensor_flip (x, DIMS (1), &error);
  g_autoptr (LtTensor) argmax_flipped = lt_tensor_argmax (flipped, -1, FALSE, &error);
  g_autoptr (LtTensor) row = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3);
  g_autoptr (LtTensor) expanded = lt_tensor_expand (row, I64S (4, 3), 2, &error);
  g_autoptr (LtTensor) argmax_expanded = lt_tensor_argmax (expanded, 0, FALSE, &error);

  g_assert_no_error (error);
  g_assert_true (lt_tensor_max_dim (x, 1, FALSE, &values, &indices, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (values), ==, LT_DTYPE_INT32);
  g_assert_cmpint (lt_tensor_get_dtype (indices), ==, LT_DTYPE_INT64);
  lt_assert_values (values, 7, 5, 7);
  lt_assert_values (indices, 1, 0, 0);
  g_assert_true (lt_tensor_max_dim (x, -1, FALSE, NULL, NULL, &error));
  g_assert_true (lt_tensor_min_dim (x, 0, TRUE, NULL, &min_indices, &error));
  lt_assert_sizes (min_indices, 1, 4);
  lt_assert_values (min_indices, 0, 1, 2, 2);
  /* Along dim 0 of the transpose: the rows of x, first index of ties. */
  lt_assert_sizes (argmax_t, 1, 3);
  lt_assert_values (argmax_t, 1, 0, 0);
  /* Row-major order of the transpose is 2 5 7 7 0 7 ...: the first 7 is
   * element 2. */
  lt_assert_values (argmax_all, 2);
  /* Flipped rows 1 7 7 2, 5 5 0 5, 0 3 7 7. */
  lt_assert_values (argmax_flipped, 1, 0, 2);
  lt_assert_values (argmax_expanded, 0, 0, 0);
}

static void
test_all_any (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = VALUES (LT_DTYPE_FLOAT64, (2, 3), 1, 0, 2, 3, NAN, 4);
  g_autoptr (LtTensor) all = lt_tensor_all (x, DIMS (1), FALSE, &error);
  g_autoptr (LtTensor) any = lt_tensor_any (x, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) u = VALUES (LT_DTYPE_UINT8, (3), 1, 2, 0);
  g_autoptr (LtTensor) u_all = lt_tensor_all (u, ALL, FALSE, &error);
  g_autoptr (LtTensor) u_any = lt_tensor_any (u, ALL, FALSE, &error);

  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (all), ==, LT_DTYPE_BOOL);
  lt_assert_values (all, 0, 1);
  lt_assert_values (any, 1, 1, 1);
  /* PyTorch 1.13 answers uint8 for uint8. */
  g_assert_cmpint (lt_tensor_get_dtype (u_all), ==, LT_DTYPE_UINT8);
  lt_assert_values (u_all, 0);
  lt_assert_values (u_any, 1);
}

static void
test_var_std_norm (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = VALUES (LT_DTYPE_FLOAT64, (2, 4), 1, 2, 3, 4, 2, 2, 2, 2);
  g_autoptr (LtTensor) var = lt_tensor_var (x, DIMS (1), 1, FALSE, &error);
  g_autoptr (LtTensor) var0 = lt_tensor_var (x, DIMS (-1), 0, TRUE, &error);
  g_autoptr (LtTensor) std = lt_tensor_std (x, ALL, 1, FALSE, &error);
  g_autoptr (LtTensor) var_big = lt_tensor_var (x, DIMS (0), 2, FALSE, &error);
  g_autoptr (LtTensor) c = COMPLEX (2, 1, 2, 3, -1);
  g_autoptr (LtTensor) c_var = lt_tensor_var (c, ALL, 1, FALSE, &error);
  g_autoptr (LtTensor) v = VALUES (LT_DTYPE_FLOAT32, (4), 3, -4, 0, 0);
  g_autoptr (LtTensor) n2 = lt_tensor_norm (v, 2, ALL, FALSE, &error);
  g_autoptr (LtTensor) n1 = lt_tensor_norm (v, 1, ALL, FALSE, &error);
  g_autoptr (LtTensor) ninf = lt_tensor_norm (v, INFINITY, ALL, FALSE, &error);
  g_autoptr (LtTensor) nminf = lt_tensor_norm (v, -INFINITY, ALL, FALSE, &error);
  g_autoptr (LtTensor) n0 = lt_tensor_norm (v, 0, ALL, FALSE, &error);
  g_autoptr (LtTensor) n3 = lt_tensor_norm (v, 3, ALL, FALSE, &error);
  g_autoptr (LtTensor) c_norm = lt_tensor_norm (c, 2, ALL, FALSE, &error);
  g_autoptr (LtTensor) rows = lt_tensor_norm (x, 2, DIMS (1), FALSE, &error);

  g_assert_no_error (error);
  lt_assert_near (var, 1e-12, 5.0 / 3.0, 0);
  lt_assert_sizes (var0, 2, 1);
  lt_assert_near (var0, 1e-12, 1.25, 0);
  /* mean 2.25, squared deviations 1.5625 .0625 .5625 3.0625 + 4 * .0625 */
  lt_assert_near (std, 1e-12, sqrt (5.5 / 7.0));
  /* Two elements, correction 2: 0 / 0 where they are equal, else x / 0. */
  lt_assert_values (var_big, INFINITY, NAN, INFINITY, INFINITY);
  g_assert_cmpint (lt_tensor_get_dtype (c_var), ==, LT_DTYPE_FLOAT32);
  /* var of 1, 3 is 2; of 2, -1 is 4.5 */
  lt_assert_near (c_var, 1e-6, 6.5);
  lt_assert_values (n2, 5);
  lt_assert_values (n1, 7);
  lt_assert_values (ninf, 4);
  lt_assert_values (nminf, 0);
  lt_assert_values (n0, 2);
  lt_assert_near (n3, 1e-6, cbrt (91));
  g_assert_cmpint (lt_tensor_get_dtype (c_norm), ==, LT_DTYPE_FLOAT32);
  lt_assert_near (c_norm, 1e-6, sqrt (15));
  lt_assert_near (rows, 1e-12, sqrt (30), 4);
}

static void
test_scans (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) down = lt_tensor_cumsum (x, 0, &error);
  g_autoptr (LtTensor) across = lt_tensor_cumsum (x, -1, &error);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) t_prod = lt_tensor_cumprod (t, 1, &error);
  g_autoptr (LtTensor) flipped = lt_tensor_flip (x, DIMS (1), &error);
  g_autoptr (LtTensor) flipped_sum = lt_tensor_cumsum (flipped, 1, &error);
  g_autoptr (LtTensor) b = VALUES (LT_DTYPE_BOOL, (4), 1, 0, 1, 1);
  g_autoptr (LtTensor) b_sum = lt_tensor_cumsum (b, 0, &error);

  g_assert_no_error (error);
  lt_assert_values (down, 0, 1, 2, 3, 5, 7);
  lt_assert_values (across, 0, 1, 3, 3, 7, 12);
  lt_assert_values (t_prod, 0, 0, 1, 4, 2, 10);
  lt_assert_values (flipped_sum, 2, 3, 3, 5, 9, 12);
  g_assert_cmpint (lt_tensor_get_dtype (b_sum), ==, LT_DTYPE_INT64);
  lt_assert_values (b_sum, 1, 1, 2, 3);
}

static void
test_softmax (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = VALUES (LT_DTYPE_FLOAT32, (2, 2), 0, 1000, 1, 1000);
  g_autoptr (LtTensor) rows = lt_tensor_softmax (x, 1, &error);
  g_autoptr (LtTensor) cols = lt_tensor_softmax (x, 0, &error);
  g_autoptr (LtTensor) log_rows = lt_tensor_log_softmax (x, -1, &error);
  double e = 1 / (1 + exp (1));

  g_assert_no_error (error);
  lt_assert_near (rows, 1e-6, 0, 1, 0, 1);
  lt_assert_near (cols, 1e-6, e, 0.5, 1 - e, 0.5);
  lt_assert_near (log_rows, 1e-6, -1000, 0, -999, 0);
}

/* The spacing of floats at @value (zero and subnormals included: ilogb ()
 * of 0 is INT_MIN, whose step would overflow). */
static double
float_step (long double value)
{
  if (!isfinite (value))
    return INFINITY;
  if (fabsl (value) < FLT_MIN)
    return 0x1p-149;
  return ldexp (1, ilogbl (value) - 23);
}

/* Softmax and log_softmax of a rows x cols float32 matrix over each dim,
 * against long double. A float sum of the exponentials, cascaded into
 * double, allows some 20 roundings in softmax, and as many units of 2^-24
 * in log_softmax's log of it. Float lanes also round d = x - max to float
 * (as PyTorch's do), which costs exp (d) up to |d| roundings, and the sum
 * the weighted mean of those, @spread. */
static void
check_softmax (const char   *what,
               const double *values,
               gint64        rows,
               gint64        cols)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = float32_matrix (values, rows, cols);

  for (int dim = 0; dim < 2; dim++)
    {
      g_autoptr (LtTensor) soft = lt_tensor_softmax (tensor, dim, &error);
      g_autoptr (LtTensor) log_soft = lt_tensor_log_softmax (tensor, dim, &error);
      gint64 n_lines = dim == 1 ? rows : cols, count = dim == 1 ? cols : rows;
      gint64 step = dim == 1 ? 1 : cols, line_step = dim == 1 ? cols : 1;
      g_autofree double *got = NULL, *got_log = NULL;
      gsize n;

      g_assert_no_error (error);
      got = lt_tensor_to_doubles (soft, &n);
      got_log = lt_tensor_to_doubles (log_soft, &n);
      for (gint64 line = 0; line < n_lines; line++)
        {
          const double *x = values + line * line_step;
          long double sum = 0, spread = 0;
          double max = -INFINITY;
          gboolean nan = FALSE;

          for (gint64 k = 0; k < count; k++)
            {
              nan |= isnan (x[k * step]);
              max = x[k * step] > max ? x[k * step] : max;
            }
          for (gint64 k = 0; k < count; k++)
            {
              sum += expl (x[k * step] - max);
              if (x[k * step] > -INFINITY)
                spread += expl (x[k * step] - max) * fabs (x[k * step] - max);
            }
          spread /= sum;
          for (gint64 k = 0; k < count; k++)
            {
              gint64 at = line * line_step + k * step;
              long double expected = expl (x[k * step] - max) / sum;
              long double expected_log = (x[k * step] - max) - logl (sum);
              double unit;

              if (nan || isinf (max))
                {
                  /* A NaN, or a line with nothing but -inf or with +inf,
                   * makes every result NaN. */
                  if (!isnan (got[at]) || !isnan (got_log[at]))
                    g_error ("%s %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ", dim %d, line %"
                             G_GINT64_FORMAT ": %g and %g, expected NaN",
                             what, rows, cols, dim, line, got[at], got_log[at]);
                  continue;
                }
              unit = float_step (expected);
              if (!(fabsl (got[at] - expected)
                    <= (20 + fabs (x[k * step] - max) + spread) * unit + 0x1p-148)
                  || !(got_log[at] == expected_log
                       || fabsl (got_log[at] - expected_log)
                       <= 4 * float_step (expected_log) + (20 + spread) * 0x1p-24))
                g_error ("%s %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ", dim %d, element %"
                         G_GINT64_FORMAT ": softmax %.9g (expected %.9Lg), log_softmax %.9g "
                         "(expected %.9Lg)", what, rows, cols, dim, k, got[at], expected,
                         got_log[at], expected_log);
            }
        }
    }
}

static void
test_softmax_accuracy (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  gint64 shapes[][2] = { { 600, 37 }, { 5, 1300 }, { 2, 4100 }, { 1, 1 }, { 40, 3 } };
  g_autofree double *values = g_new (double, 600 * 37);

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      gint64 rows = shapes[s][0], cols = shapes[s][1];

      for (gint64 k = 0; k < rows * cols; k++)
        values[k] = (float) g_rand_double_range (rand, -20, 20);
      check_softmax ("spread", values, rows, cols);
    }
  /* Every length to 70 along both dims, with lines of 16 columns and less. */
  for (gint64 length = 1; length <= 70; length++)
    {
      for (gint64 k = 0; k < 19 * length; k++)
        values[k] = (float) g_rand_double_range (rand, -90, 90);
      check_softmax ("short", values, 19, length);
      check_softmax ("short", values, length, 19);
    }
  /* NaN in a row and a column, a row of -inf, -inf in a row, +inf in a
   * row, results that are subnormal or zero. */
  for (gint64 k = 0; k < 24 * 40; k++)
    values[k] = (float) g_rand_double_range (rand, -5, 5);
  values[1 * 40 + 7] = NAN;
  values[20 * 40 + 33] = NAN;
  for (gint64 k = 0; k < 40; k++)
    values[2 * 40 + k] = -INFINITY;
  for (gint64 k = 0; k < 40; k += 3)
    values[3 * 40 + k] = -INFINITY;
  values[4 * 40 + 30] = INFINITY;
  values[5 * 40 + 9] = 100;
  values[6 * 40 + 11] = 95;
  values[6 * 40 + 12] = -9;
  check_softmax ("special", values, 24, 40);
}

static void
test_equal_allclose (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) xi = lt_tensor_to_dtype (x, LT_DTYPE_INT64, &error);
  g_autoptr (LtTensor) t = lt_tensor_t (x, &error);
  g_autoptr (LtTensor) tt = lt_tensor_t (t, &error);
  g_autoptr (LtTensor) near = VALUES (LT_DTYPE_FLOAT32, (3), 0, 1.000001, 2);
  g_autoptr (LtTensor) rows = lt_tensor_index (x, "[0]", &error);
  g_autoptr (LtTensor) nan = VALUES (LT_DTYPE_FLOAT32, (1), NAN);
  g_autoptr (LtTensor) inf = VALUES (LT_DTYPE_FLOAT32, (1), INFINITY);
  g_autoptr (LtTensor) one = VALUES (LT_DTYPE_FLOAT32, (1), 1);
  g_autoptr (LtTensor) four = VALUES (LT_DTYPE_FLOAT32, (4), 0, 1, 2, 3);
  gboolean close = FALSE;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_equal (x, xi));
  g_assert_true (lt_tensor_equal (x, tt));
  g_assert_false (lt_tensor_equal (x, t));
  g_assert_false (lt_tensor_equal (nan, nan));

  g_assert_true (lt_tensor_allclose (rows, near, 1e-5, 1e-8, FALSE, &close, &error));
  g_assert_true (close);
  g_assert_true (lt_tensor_allclose (rows, near, 0, 0, FALSE, &close, &error));
  g_assert_false (close);
  g_assert_true (lt_tensor_allclose (nan, nan, 1e-5, 1e-8, TRUE, &close, &error));
  g_assert_true (close);
  g_assert_true (lt_tensor_allclose (nan, nan, 1e-5, 1e-8, FALSE, &close, &error));
  g_assert_false (close);
  g_assert_true (lt_tensor_allclose (inf, inf, 0, 0, FALSE, &close, &error));
  g_assert_true (close);
  g_assert_true (lt_tensor_allclose (one, inf, 1, 1, FALSE, &close, &error));
  g_assert_false (close);
  /* Broadcasting: (2, 3) against (3,). */
  g_assert_true (lt_tensor_allclose (x, near, 0.5, 3, FALSE, &close, &error));
  g_assert_true (close);
  g_assert_no_error (error);

  g_assert_false (lt_tensor_allclose (x, four, 1e-5, 1e-8, FALSE, &close, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_clear_error (&error);
  g_assert_false (lt_tensor_allclose (x, xi, 1e-5, 1e-8, FALSE, &close, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
}

static void
test_refusals (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = arange_2x3 ();
  g_autoptr (LtTensor) ints = lt_test_arange_shaped (LT_DTYPE_INT32, 4);
  g_autoptr (LtTensor) empty = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (0, 3), 2, &error);
  g_autoptr (LtTensor) c = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, I64S (2), 1, &error);
  g_autoptr (LtTensor) half = lt_tensor_new_zeros (LT_DTYPE_FLOAT16, I64S (2), 1, &error);
  g_autoptr (LtTensor) values = NULL;

  g_assert_no_error (error);
  g_assert_null (lt_tensor_sum (x, DIMS (2), FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_sum (x, DIMS (-3), FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_amax (x, DIMS (1, -1), FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lt_tensor_mean (ints, ALL, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_var (ints, ALL, 1, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_norm (ints, 2, ALL, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_softmax (ints, 0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_max (empty, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lt_tensor_amax (empty, DIMS (0), FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lt_tensor_argmax_all (empty, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_max_dim (empty, 0, FALSE, &values, NULL, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (values);
  g_clear_error (&error);
  g_assert_null (lt_tensor_amax (c, ALL, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_argmax (c, 0, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_prod (half, ALL, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_cumsum (x, 2, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_null (lt_tensor_norm (x, NAN, ALL, FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
}

static void
test_scalar (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) s = lt_tensor_new_full (LT_DTYPE_FLOAT32, NULL, 0, 3, &error);
  g_autoptr (LtTensor) sum = lt_tensor_sum (s, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) amax = lt_tensor_amax (s, DIMS (-1), TRUE, &error);
  g_autoptr (LtTensor) argmax = lt_tensor_argmax (s, 0, FALSE, &error);
  g_autoptr (LtTensor) cumsum = lt_tensor_cumsum (s, 0, &error);
  g_autoptr (LtTensor) softmax = lt_tensor_softmax (s, -1, &error);

  g_assert_no_error (error);
  lt_assert_scalar_shape (sum);
  lt_assert_values (sum, 3);
  lt_assert_scalar_shape (amax);
  lt_assert_values (argmax, 0);
  lt_assert_values (cumsum, 3);
  lt_assert_values (softmax, 1);
  /* 0 and -1 are the same dim of a 0-dim tensor. */
  g_assert_null (lt_tensor_sum (s, DIMS (0, -1), FALSE, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
}

/* A tall, narrow matrix reduced over its rows: the rows are split into
 * blocks whose partials are combined. */
static void
test_tall_narrow (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 100000, 3);
  g_autoptr (LtTensor) sum = lt_tensor_sum (x, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) argmax = lt_tensor_argmax (x, 0, FALSE, &error);
  g_autoptr (LtTensor) amin = lt_tensor_amin (x, DIMS (0), FALSE, &error);
  g_autoptr (LtTensor) var = lt_tensor_var (x, DIMS (0), 0, FALSE, &error);

  g_assert_no_error (error);
  /* sum over i of 3 i + j = 3 n (n - 1) / 2 + j n */
  lt_assert_values (sum, 14999850000, 14999950000, 15000050000);
  lt_assert_values (argmax, 99999, 99999, 99999);
  lt_assert_values (amin, 0, 1, 2);
  /* 9 (n^2 - 1) / 12 */
  lt_assert_near (var, 1e-12, 7499999999.25, 7499999999.25, 7499999999.25);

  /* A NaN in the middle block wins over the blocks around it. */
  {
    g_autoptr (LtTensor) y = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 100000, 3);
    g_autoptr (LtTensor) amax = NULL;
    g_autoptr (LtTensor) argmax_nan = NULL;

    g_assert_true (lt_tensor_set_double (y, I64S (50000, 1), 2, NAN, &error));
    amax = lt_tensor_amax (y, DIMS (0), FALSE, &error);
    argmax_nan = lt_tensor_argmax (y, 0, FALSE, &error);
    g_assert_no_error (error);
    lt_assert_values (amax, 299997, NAN, 299999);
    lt_assert_values (argmax_nan, 99999, 50000, 99999);
  }
}

/* Large random reductions give bitwise the same results on 1 and 4
 * threads: the blocks depend on the sizes alone. */
static void
test_threads (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtGenerator) generator = lt_generator_new (7);
  g_autoptr (LtTensor) x = lt_tensor_new_randn (generator, LT_DTYPE_FLOAT32, I64S (3, 400000), 2,
                                                &error);
  g_autoptr (LtTensor) m = lt_tensor_view (x, I64S (1200, 1000), 2, &error);
  g_autoptr (LtTensor) tall = lt_tensor_view (x, I64S (400000, 3), 2, &error);
  guint saved = lt_get_num_threads ();
  LtTensor *results[2][9];

  g_assert_no_error (error);
  for (guint run = 0; run < 2; run++)
    {
      lt_set_num_threads (run == 0 ? 1 : 4);
      results[run][0] = lt_tensor_sum (x, DIMS (1), FALSE, &error);
      results[run][1] = lt_tensor_sum (x, ALL, FALSE, &error);
      results[run][2] = lt_tensor_var (x, DIMS (1), 1, FALSE, &error);
      results[run][3] = lt_tensor_argmax (x, 1, FALSE, &error);
      results[run][4] = lt_tensor_mean (m, DIMS (0), FALSE, &error);
      results[run][5] = lt_tensor_logsumexp (m, DIMS (1), FALSE, &error);
      results[run][6] = lt_tensor_cumsum (m, 0, &error);
      results[run][7] = lt_tensor_sum (tall, DIMS (0), FALSE, &error);
      results[run][8] = lt_tensor_std (tall, DIMS (0), 1, FALSE, &error);
      g_assert_no_error (error);
    }
  lt_set_num_threads (saved);

  for (guint i = 0; i < G_N_ELEMENTS (results[0]); i++)
    {
      g_autoptr (GBytes) a = lt_tensor_to_bytes (results[0][i], &error);
      g_autoptr (GBytes) b = lt_tensor_to_bytes (results[1][i], &error);

      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (a, b));
      g_object_unref (results[0][i]);
      g_object_unref (results[1][i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reduce/sum/dims-and-keepdim", test_sum_dims);
  g_test_add_func ("/reduce/sum/strided-views", test_sum_views);
  g_test_add_func ("/reduce/sum/integer-dtypes", test_sum_integers);
  g_test_add_func ("/reduce/sum/float32-accuracy", test_accuracy);
  g_test_add_data_func ("/reduce/sum/float32-error-bounds", GINT_TO_POINTER (LT_DTYPE_FLOAT32),
                        test_sum_bounds);
  g_test_add_data_func ("/reduce/sum/float64-error-bounds", GINT_TO_POINTER (LT_DTYPE_FLOAT64),
                        test_sum_bounds);
  g_test_add_data_func ("/reduce/over-two-dims/float32", GINT_TO_POINTER (LT_DTYPE_FLOAT32),
                        test_reduce_over_two_dims);
  g_test_add_data_func ("/reduce/over-two-dims/float64", GINT_TO_POINTER (LT_DTYPE_FLOAT64),
                        test_reduce_over_two_dims);
  g_test_add_func ("/reduce/norm/float32-error-bounds", test_norm_float32_bounds);
  g_test_add_data_func ("/reduce/sum/negative-zeros/float32", GINT_TO_POINTER (LT_DTYPE_FLOAT32),
                        test_sum_negative_zeros);
  g_test_add_data_func ("/reduce/sum/negative-zeros/float64", GINT_TO_POINTER (LT_DTYPE_FLOAT64),
                        test_sum_negative_zeros);
  g_test_add_func ("/reduce/empty", test_empty);
  g_test_add_func ("/reduce/prod/range", test_prod_range);
  g_test_add_func ("/reduce/scalar", test_scalar);
  g_test_add_func ("/reduce/mean-prod", test_mean_prod);
  g_test_add_func ("/reduce/extremes/nan", test_extremes_nan);
  g_test_add_func ("/reduce/extremes/ties-and-views", test_max_dim_ties);
  g_test_add_data_func ("/reduce/extremes/lanes/float32", GINT_TO_POINTER (LT_DTYPE_FLOAT32),
                        test_extremes_lanes);
  g_test_add_data_func ("/reduce/extremes/lanes/float64", GINT_TO_POINTER (LT_DTYPE_FLOAT64),
                        test_extremes_lanes);
  g_test_add_func ("/reduce/rows-together", test_rows_together);
  g_test_add_func ("/reduce/all-any", test_all_any);
  g_test_add_func ("/reduce/var-std-norm", test_var_std_norm);
  g_test_add_func ("/reduce/var-std/accuracy", test_variance_accuracy);
  g_test_add_func ("/reduce/softmax/accuracy", test_softmax_accuracy);
  g_test_add_func ("/reduce/scan", test_scans);
  g_test_add_func ("/reduce/softmax", test_softmax);
  g_test_add_func ("/reduce/equal-allclose", test_equal_allclose);
  g_test_add_func ("/reduce/refusals", test_refusals);
  g_test_add_func ("/reduce/sum/tall-narrow", test_tall_narrow);
  g_test_add_func ("/reduce/threads", test_threads);

  return g_test_run ();
}
