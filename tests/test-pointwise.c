/* test-pointwise.c: broadcasting, promotion, unary and binary ops, in place
 *
 * Expected values are written out by hand (or were read off PyTorch 1.13).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <float.h>

#include "lt-test-utils.h"

static LtTensor *
lit (const char *literal)
{
  g_autoptr (GError) error = NULL;
  LtTensor *t = lt_tensor_new_from_literal (literal, &error);

  g_assert_no_error (error);
  return t;
}

static LtTensor *
idx (LtTensor   *t,
     const char *expression)
{
  g_autoptr (GError) error = NULL;
  LtTensor *view = lt_tensor_index (t, expression, &error);

  g_assert_no_error (error);
  return view;
}

static LtTensor *
bin (LtTensor   *a,
     LtBinaryOp  op,
     LtTensor   *b)
{
  g_autoptr (GError) error = NULL;
  LtTensor *r = lt_tensor_binary (a, op, b, &error);

  g_assert_no_error (error);
  return r;
}

static LtTensor *
un (LtTensor  *a,
    LtUnaryOp  op)
{
  g_autoptr (GError) error = NULL;
  LtTensor *r = lt_tensor_unary (a, op, &error);

  g_assert_no_error (error);
  return r;
}

static void
test_promote_table (void)
{
  g_autoptr (LtTensor) i32 = lit ("[1, 2]");
  g_autoptr (LtTensor) i32_vec = NULL;
  g_autoptr (LtTensor) f32 = lit ("[1.0, 2.0]");
  g_autoptr (LtTensor) f64 = NULL;
  g_autoptr (LtTensor) f64_zero_dim = NULL;
  g_autoptr (LtTensor) wrapped_float = lt_tensor_new_scalar_double (1.5);
  g_autoptr (LtTensor) wrapped_int = lt_tensor_new_scalar_int (2);
  g_autoptr (LtTensor) wrapped_complex = lt_tensor_new_scalar_complex (0, 1);
  g_autoptr (LtTensor) bools = lit ("[True, False]");
  g_autoptr (LtTensor) u8 = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_UINT8, LT_DTYPE_INT8), ==, LT_DTYPE_INT16);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_FLOAT16, LT_DTYPE_BFLOAT16), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_COMPLEX64, LT_DTYPE_FLOAT64), ==,
                   LT_DTYPE_COMPLEX128);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_FLOAT64, LT_DTYPE_INT16), ==, LT_DTYPE_FLOAT64);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_BOOL, LT_DTYPE_UINT8), ==, LT_DTYPE_UINT8);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_UINT8, LT_DTYPE_INT32), ==, LT_DTYPE_INT32);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_INT64, LT_DTYPE_FLOAT16), ==, LT_DTYPE_FLOAT16);
  g_assert_cmpint (lt_dtype_promote (LT_DTYPE_BFLOAT16, LT_DTYPE_COMPLEX64), ==,
                   LT_DTYPE_COMPLEX64);

  g_assert_true (lt_dtype_can_cast (LT_DTYPE_INT64, LT_DTYPE_UINT8));
  g_assert_true (lt_dtype_can_cast (LT_DTYPE_BOOL, LT_DTYPE_FLOAT16));
  g_assert_false (lt_dtype_can_cast (LT_DTYPE_FLOAT32, LT_DTYPE_INT64));
  g_assert_false (lt_dtype_can_cast (LT_DTYPE_COMPLEX64, LT_DTYPE_FLOAT64));
  g_assert_false (lt_dtype_can_cast (LT_DTYPE_UINT8, LT_DTYPE_BOOL));

  i32_vec = lt_tensor_to_dtype (i32, LT_DTYPE_INT32, &error);
  f64 = lt_tensor_to_dtype (f32, LT_DTYPE_FLOAT64, &error);
  f64_zero_dim = lt_tensor_new_full (LT_DTYPE_FLOAT64, NULL, 0, 1.0, &error);
  u8 = lt_tensor_to_dtype (i32, LT_DTYPE_UINT8, &error);
  g_assert_no_error (error);

  /* Zero-dim tensors and wrapped numbers raise the category only. */
  g_assert_cmpint (lt_tensor_result_type (i32_vec, f64_zero_dim), ==, LT_DTYPE_FLOAT64);
  g_assert_cmpint (lt_tensor_result_type (f32, f64_zero_dim), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpint (lt_tensor_result_type (i32_vec, wrapped_float), ==, LT_DTYPE_FLOAT32);
  g_assert_cmpint (lt_tensor_result_type (u8, wrapped_int), ==, LT_DTYPE_UINT8);
  g_assert_cmpint (lt_tensor_result_type (bools, wrapped_int), ==, LT_DTYPE_INT64);
  g_assert_cmpint (lt_tensor_result_type (f64, wrapped_complex), ==, LT_DTYPE_COMPLEX128);
  g_assert_cmpint (lt_tensor_result_type (f32, wrapped_complex), ==, LT_DTYPE_COMPLEX64);
  g_assert_cmpint (lt_tensor_result_type (f64, i32_vec), ==, LT_DTYPE_FLOAT64);

  g_assert_true (lt_tensor_is_wrapped_number (wrapped_int));
  g_assert_false (lt_tensor_is_wrapped_number (f64_zero_dim));
  {
    g_autoptr (LtTensor) view = lt_tensor_alias (wrapped_int);
    g_assert_false (lt_tensor_is_wrapped_number (view));
  }
}

static void
test_binary_on_views (void)
{
  g_autoptr (LtTensor) points = lit ("[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]");
  g_autoptr (LtTensor) transposed = NULL;
  g_autoptr (LtTensor) stepped = idx (points, "[::2]");
  g_autoptr (LtTensor) offset = idx (points, "[1:]");
  g_autoptr (LtTensor) row = idx (points, "[0]");
  g_autoptr (LtTensor) flipped = NULL;
  g_autoptr (LtTensor) expanded = NULL;
  g_autoptr (LtTensor) r1 = NULL, r2 = NULL, r3 = NULL, r4 = NULL, r5 = NULL, r6 = NULL;
  g_autoptr (LtTensor) two = lt_tensor_new_scalar_int (2);
  g_autoptr (LtTensor) one = lt_tensor_new_scalar_int (1);
  g_autoptr (GError) error = NULL;

  transposed = lt_tensor_t (points, &error);
  flipped = lt_tensor_flip (points, (const int[]) { 0 }, 1, &error);
  expanded = lt_tensor_expand (row, I64S (3, 2), 2, &error);
  g_assert_no_error (error);

  /* The seed's example: points * 2 + 1, float32 kept. */
  r1 = bin (points, LT_BINARY_OP_MUL, two);
  r2 = bin (r1, LT_BINARY_OP_ADD, one);
  g_assert_cmpint (lt_tensor_get_dtype (r2), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (r2, 3, 5, 7, 9, 11, 13);

  r3 = bin (stepped, LT_BINARY_OP_MUL, offset);
  lt_assert_sizes (r3, 2, 2);
  lt_assert_values (r3, 3, 8, 25, 36);
  r4 = bin (flipped, LT_BINARY_OP_SUB, expanded);
  lt_assert_values (r4, 4, 4, 2, 2, 0, 0);

  /* Broadcasting (3, 1) with (1, 2), and a 1-dim row. */
  {
    g_autoptr (LtTensor) col = idx (points, "[:, :1]");
    g_autoptr (LtTensor) top = idx (points, "[:1]");

    r5 = bin (col, LT_BINARY_OP_ADD, top);
    lt_assert_sizes (r5, 3, 2);
    lt_assert_values (r5, 2, 3, 4, 5, 6, 7);
  }
  {
    g_autoptr (LtTensor) column = idx (row, "[:, None]");

    r6 = bin (transposed, LT_BINARY_OP_MAXIMUM, column);
    lt_assert_values (r6, 1, 3, 5, 2, 4, 6);
  }
}

static void
test_broadcast_mismatch (void)
{
  g_autoptr (LtTensor) a = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) b = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) r = lt_tensor_binary (a, LT_BINARY_OP_ADD, b, &error);

  g_assert_null (r);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_nonnull (strstr (error->message, "(2, 3)"));
  g_assert_nonnull (strstr (error->message, "(4)") ? error->message : strstr (error->message, "(4,)"));
  g_assert_nonnull (strstr (error->message, "dim 1"));
}

static void
test_integer_division (void)
{
  g_autoptr (LtTensor) a = lit ("[5, -5, 5, -5]");
  g_autoptr (LtTensor) b = lit ("[3, 3, -3, -3]");
  g_autoptr (LtTensor) zero = lit ("[1, 0, 1, 1]");
  g_autoptr (LtTensor) f = NULL, t = NULL, m = NULL, d = NULL, bad = NULL;
  g_autoptr (GError) error = NULL;

  f = bin (a, LT_BINARY_OP_FLOOR_DIVIDE, b);
  lt_assert_values (f, 1, -2, -2, 1);
  t = bin (a, LT_BINARY_OP_TRUNC_DIVIDE, b);
  lt_assert_values (t, 1, -1, -1, 1);
  m = bin (a, LT_BINARY_OP_REMAINDER, b);
  lt_assert_values (m, 2, 1, -1, -2);
  d = bin (a, LT_BINARY_OP_DIV, b);
  g_assert_cmpint (lt_tensor_get_dtype (d), ==, LT_DTYPE_FLOAT32);

  bad = lt_tensor_binary (a, LT_BINARY_OP_FLOOR_DIVIDE, zero, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Float division follows Python's signs. */
  {
    g_autoptr (LtTensor) x = lit ("[5.0, -5.0, 5.0, -5.0]");
    g_autoptr (LtTensor) y = lit ("[3.0, 3.0, -3.0, -3.0]");
    g_autoptr (LtTensor) fr = bin (x, LT_BINARY_OP_REMAINDER, y);
    g_autoptr (LtTensor) ff = bin (x, LT_BINARY_OP_FLOOR_DIVIDE, y);

    lt_assert_values (fr, 2, 1, -1, -2);
    lt_assert_values (ff, 1, -2, -2, 1);
  }
}

static void
test_pow (void)
{
  g_autoptr (LtTensor) a = lit ("[2, 3, -1, 1]");
  g_autoptr (LtTensor) e = lit ("[3, -1, -3, -2]");
  g_autoptr (LtTensor) minus_one = lt_tensor_new_scalar_int (-1);
  g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
  g_autoptr (LtTensor) p = NULL, bad = NULL, root = NULL;
  g_autoptr (GError) error = NULL;

  p = bin (a, LT_BINARY_OP_POW, e);
  lt_assert_values (p, 8, 0, -1, 1);
  bad = lt_tensor_binary (a, LT_BINARY_OP_POW, minus_one, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  {
    g_autoptr (LtTensor) head = idx (a, "[:2]");
    root = bin (head, LT_BINARY_OP_POW, half);
  }
  g_assert_cmpint (lt_tensor_get_dtype (root), ==, LT_DTYPE_FLOAT32);
}

/* Element @i of the 1-d tensor @t. */
static double
element (LtTensor *t,
         gint64    i)
{
  g_autoptr (GError) error = NULL;
  double value = 0;

  g_assert_true (lt_tensor_get_double (t, &i, 1, &value, &error));
  g_assert_no_error (error);
  return value;
}

/* Whether @a and @b hold the same bytes. */
static gboolean
same_bits (LtTensor *a,
           LtTensor *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) a_bytes = lt_tensor_to_bytes (a, &error);
  g_autoptr (GBytes) b_bytes = lt_tensor_to_bytes (b, &error);

  g_assert_no_error (error);
  return g_bytes_equal (a_bytes, b_bytes);
}

/* A Python number's powers 0.5, -0.5 and 2 of a real floating tensor are
 * sqrt, rsqrt and x · x, as PyTorch takes them: (-0) ** 0.5 is -0 and
 * (-inf) ** 0.5 NaN, where pow gives +0 and +inf, as it still does for a
 * zero-dim tensor's 0.5 (a tensor, not a number) and for float16. */
static void
scalar_powers (LtDType dtype)
{
  g_autoptr (LtTensor) literal = lit ("[-0.0, -inf, 4.0, -4.0, 0.0, inf, nan, 3.0000002, 1e-20, "
                                      "7.3, 1e30, -2.5]");
  g_autoptr (LtTensor) x = lt_tensor_to_dtype (literal, dtype, NULL);
  g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
  g_autoptr (LtTensor) minus_half = lt_tensor_new_scalar_double (-0.5);
  g_autoptr (LtTensor) two = lt_tensor_new_scalar_int (2);
  g_autoptr (LtTensor) two_point_zero = lt_tensor_new_scalar_double (2.0);
  g_autoptr (LtTensor) half_literal = lit ("0.5");
  g_autoptr (LtTensor) tensor_half = lt_tensor_to_dtype (half_literal, dtype, NULL);
  g_autoptr (LtTensor) root = un (x, LT_UNARY_OP_SQRT);
  g_autoptr (LtTensor) inverse_root = un (x, LT_UNARY_OP_RSQRT);
  g_autoptr (LtTensor) square = bin (x, LT_BINARY_OP_MUL, x);
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (LtTensor) p = bin (x, LT_BINARY_OP_POW, half);
    g_autoptr (LtTensor) q = bin (x, LT_BINARY_OP_POW, minus_half);
    g_autoptr (LtTensor) r = bin (x, LT_BINARY_OP_POW, two);
    g_autoptr (LtTensor) s = bin (x, LT_BINARY_OP_POW, two_point_zero);

    g_assert_cmpint (lt_tensor_get_dtype (p), ==, dtype);
    g_assert_true (same_bits (p, root));
    g_assert_true (same_bits (q, inverse_root));
    g_assert_true (same_bits (r, square));
    g_assert_true (same_bits (s, square));
    g_assert_true (signbit (element (p, 0)));
    g_assert_true (isnan (element (p, 1)));
  }
  {
    /* A tensor exponent is pow's, even a zero-dim one. */
    g_autoptr (LtTensor) p = bin (x, LT_BINARY_OP_POW, tensor_half);

    g_assert_false (signbit (element (p, 0)));
    g_assert_cmpfloat (element (p, 1), ==, INFINITY);
  }
  {
    g_autoptr (LtTensor) target = lt_tensor_clone (x, NULL);

    g_assert_true (lt_tensor_binary_ (target, LT_BINARY_OP_POW, half, &error));
    g_assert_no_error (error);
    g_assert_true (same_bits (target, root));
    g_assert_true (lt_tensor_binary_ (target, LT_BINARY_OP_POW, two, &error));
    g_assert_no_error (error);
    {
      g_autoptr (LtTensor) root_squared = bin (root, LT_BINARY_OP_MUL, root);

      g_assert_true (same_bits (target, root_squared));
    }
  }
  {
    /* Errors name pow_(), not the op it became. */
    g_autoptr (LtTensor) one = idx (x, "2:3");
    g_autoptr (LtTensor) expanded = lt_tensor_expand (one, (const gint64[]) { 3 }, 1, &error);

    g_assert_no_error (error);
    g_assert_false (lt_tensor_binary_ (expanded, LT_BINARY_OP_POW, half, &error));
    g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
    g_assert_nonnull (strstr (error->message, "pow_()"));
  }
}

static void
test_scalar_powers (void)
{
  scalar_powers (LT_DTYPE_FLOAT32);
  scalar_powers (LT_DTYPE_FLOAT64);
  scalar_powers (LT_DTYPE_BFLOAT16);
  {
    /* Integer and bool bases: sqrt and rsqrt of them in float32, as
     * PyTorch converts them first (1 / sqrt (6) is not pow (6, -0.5) in
     * float32). */
    g_autoptr (LtTensor) ints = lit ("[0, 4, 2, 6, 7]");
    g_autoptr (LtTensor) bools = lit ("[True, False]");
    g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
    g_autoptr (LtTensor) minus_half = lt_tensor_new_scalar_double (-0.5);
    g_autoptr (LtTensor) p = bin (ints, LT_BINARY_OP_POW, half);
    g_autoptr (LtTensor) q = bin (ints, LT_BINARY_OP_POW, minus_half);
    g_autoptr (LtTensor) r = bin (bools, LT_BINARY_OP_POW, minus_half);
    g_autoptr (LtTensor) root = un (ints, LT_UNARY_OP_SQRT);
    g_autoptr (LtTensor) inverse_root = un (ints, LT_UNARY_OP_RSQRT);

    g_assert_cmpint (lt_tensor_get_dtype (p), ==, LT_DTYPE_FLOAT32);
    g_assert_true (same_bits (p, root));
    g_assert_true (same_bits (q, inverse_root));
    g_assert_cmpfloat (element (q, 3), ==, 1.0f / sqrtf (6.0f));
    lt_assert_values (r, 1, INFINITY);
  }
  {
    /* float16 keeps pow, as PyTorch 1.13's CPU kernels do: (-0) ** 0.5 is
     * +0 and (-inf) ** 0.5 +inf there. */
    g_autoptr (LtTensor) literal = lit ("[-0.0, -inf, 4.0]");
    g_autoptr (LtTensor) halves = lt_tensor_to_dtype (literal, LT_DTYPE_FLOAT16, NULL);
    g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
    g_autoptr (LtTensor) p = bin (halves, LT_BINARY_OP_POW, half);

    g_assert_cmpint (lt_tensor_get_dtype (p), ==, LT_DTYPE_FLOAT16);
    g_assert_false (signbit (element (p, 0)));
    g_assert_cmpfloat (element (p, 1), ==, INFINITY);
    g_assert_cmpfloat (element (p, 2), ==, 2);
  }
}

/* How many steps of @single's (float32's, else float64's) precision @got
 * is from @exact; infinite where @got is infinite and @exact is not or is
 * past the largest finite value. */
static double
ulps_off (long double exact,
          double      got,
          gboolean    single)
{
  int mantissa = single ? 24 : 53, low = single ? -149 : -1074, exponent;
  long double largest = single ? FLT_MAX : DBL_MAX;

  if (isinf (got) || fabsl (exact) > largest)
    return isinf (got) && fabsl (exact) > largest && !signbit (got) == !signbit (exact)
             ? 0 : INFINITY;
  frexpl (exact, &exponent);
  return (double) (fabsl (got - exact) / ldexpl (1, MAX (exponent - mantissa, low)));
}

/* PyTorch's x · x, x · x · x, 1 / x or 1 / (x · x) for @e = 2, 3, -1 or
 * -2, in float32 where @single. */
static double
product_power (double   v,
               double   e,
               gboolean single)
{
  float f = (float) v;

  if (single)
    return e == 2 ? f * f : e == 3 ? f * f * f : e == -1 ? 1 / f : 1 / (f * f);
  return e == 2 ? v * v : e == 3 ? v * v * v : e == -1 ? 1 / v : 1 / (v * v);
}

/* x ** e for e = 2, 3, -1 and -2 from one value for the row (a Python
 * number, a zero-dim tensor or a one-element one), as products: bit for
 * bit PyTorch's x · x, x · x · x, 1 / x and 1 / (x · x), within 0.5, 1.5,
 * 0.5 and 1.5 ulp where x · x is a normal number (float64's bounds only
 * where long double is wider than double: not under valgrind); the
 * specials are pow's. */
static void
test_product_powers (void)
{
  enum { N = 2000 };
  const double exponents[] = { 2, 3, -1, -2 };
  g_autofree double *values = g_new (double, N);
  const gint64 shape[] = { N }, one[] = { 1 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  g_autoptr (GError) error = NULL;
  gboolean measurable = lt_test_long_double_is_wider ();

  for (gsize i = 0; i < N; i++)
    values[i] = ldexp (g_rand_double_range (rand, -1, 1), g_rand_int_range (rand, -70, 70));
  values[0] = 0.0;
  values[1] = -0.0;
  values[2] = INFINITY;
  values[3] = -INFINITY;
  values[4] = NAN;
  values[5] = 1e300;
  values[6] = 1e-300;
  values[7] = 1e20;
  values[8] = 1e160;

  for (guint d = 0; d < 2; d++)
    {
      LtDType dtype = d == 0 ? LT_DTYPE_FLOAT32 : LT_DTYPE_FLOAT64;
      g_autoptr (LtTensor) x = lt_tensor_new_from_data (dtype, values, N, shape, 1, &error);
      gsize n;
      g_autofree double *stored = lt_tensor_to_doubles (x, &n);

      g_assert_no_error (error);
      for (guint e = 0; e < G_N_ELEMENTS (exponents); e++)
        for (guint kind = 0; kind < 3; kind++)
          {
            /* A number, a zero-dim tensor, a one-element one. */
            g_autoptr (LtTensor) literal = lt_tensor_new_from_data (dtype, &exponents[e], 1, one,
                                                                    kind == 2 ? 1 : 0, &error);
            g_autoptr (LtTensor) exponent = kind == 0 ? lt_tensor_new_scalar_double (exponents[e])
                                                      : g_object_ref (literal);
            g_autoptr (LtTensor) p = bin (x, LT_BINARY_OP_POW, exponent);
            g_autofree double *got = lt_tensor_to_doubles (p, &n);
            double bound = exponents[e] == -2 || exponents[e] == 3 ? 1.5 : 0.5;

            g_assert_no_error (error);
            for (gsize i = 0; i < N; i++)
              {
                double v = stored[i], want, off;
                gboolean normal_square = d == 0 ? isnormal ((float) v * (float) v) : isnormal (v * v);

                if (isnan (v) || isinf (v) || v == 0)
                  want = d == 0 ? (float) pow (v, exponents[e]) : pow (v, exponents[e]);
                else
                  want = product_power (v, exponents[e], d == 0);
                if (memcmp (&want, &got[i], sizeof want) != 0 && !(isnan (want) && isnan (got[i])))
                  g_error ("%s %a ** %g (kind %u) gave %a, want %a", d == 0 ? "float32" : "float64",
                           v, exponents[e], kind, got[i], want);
                /* Where x · x is a normal number (beyond, PyTorch's 0 or
                 * infinity for 1 / (x · x)). */
                off = ulps_off (powl (v, exponents[e]), got[i], d == 0);
                if (isfinite (v) && v != 0 && normal_square && (d == 0 || measurable)
                    && !(off <= bound))
                  g_error ("%s %a ** %g (kind %u) gave %a, %.3f ulp off",
                           d == 0 ? "float32" : "float64", v, exponents[e], kind, got[i], off);
              }
          }
    }
}

static void
test_comparisons_and_refusals (void)
{
  g_autoptr (LtTensor) a = lit ("[1.0, 2.0, 3.0]");
  g_autoptr (LtTensor) b = lit ("[3, 2, 1]");
  g_autoptr (LtTensor) c = lit ("[1+1j, 2+0j]");
  g_autoptr (LtTensor) lt = NULL, eq = NULL, bad = NULL, ceq = NULL;
  g_autoptr (GError) error = NULL;

  lt = bin (a, LT_BINARY_OP_LT, b);
  g_assert_cmpint (lt_tensor_get_dtype (lt), ==, LT_DTYPE_BOOL);
  lt_assert_values (lt, 1, 0, 0);
  eq = bin (a, LT_BINARY_OP_EQ, b);
  lt_assert_values (eq, 0, 1, 0);
  ceq = bin (c, LT_BINARY_OP_EQ, c);
  lt_assert_values (ceq, 1, 1);

  bad = lt_tensor_binary (c, LT_BINARY_OP_LT, c, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  bad = lt_tensor_binary (a, LT_BINARY_OP_BITWISE_AND, a, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  bad = lt_tensor_binary (c, LT_BINARY_OP_MAXIMUM, c, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  {
    g_autoptr (LtTensor) m = lit ("[True, False]");
    bad = lt_tensor_sub (m, m, 1.0, &error);
    g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
    g_clear_error (&error);
    bad = lt_tensor_unary (m, LT_UNARY_OP_NEG, &error);
    g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
    g_clear_error (&error);
  }
  bad = lt_tensor_add (b, b, 1.5, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autoptr (LtTensor) scaled = lt_tensor_add (b, b, 2, &error);
    g_assert_no_error (error);
    lt_assert_values (scaled, 9, 6, 3);
  }
}

static void
test_unary (void)
{
  g_autoptr (LtTensor) ints = lit ("[4, 9, 16]");
  g_autoptr (LtTensor) halves = lit ("[0.5, 1.5, 2.5, -0.5, -2.5]");
  g_autoptr (LtTensor) c = lit ("[3+4j]");
  g_autoptr (LtTensor) nans = lit ("[nan, inf, -1.0]");
  g_autoptr (LtTensor) s = NULL, r = NULL, a = NULL, n = NULL, f = NULL, neg = NULL;
  g_autoptr (LtTensor) relu = NULL, sign = NULL, bn = NULL;
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (LtTensor) reversed = idx (ints, "[::-1]");
    s = un (reversed, LT_UNARY_OP_SQRT);
  }
  g_assert_cmpint (lt_tensor_get_dtype (s), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (s, 4, 3, 2);
  r = un (halves, LT_UNARY_OP_ROUND);
  lt_assert_values (r, 0, 2, 2, -0.0, -2);
  a = un (c, LT_UNARY_OP_ABS);
  g_assert_cmpint (lt_tensor_get_dtype (a), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (a, 5);
  n = un (nans, LT_UNARY_OP_ISNAN);
  lt_assert_values (n, 1, 0, 0);
  f = un (nans, LT_UNARY_OP_ISFINITE);
  lt_assert_values (f, 0, 0, 1);
  neg = un (ints, LT_UNARY_OP_NEG);
  g_assert_cmpint (lt_tensor_get_dtype (neg), ==, LT_DTYPE_INT64);
  lt_assert_values (neg, -4, -9, -16);
  relu = un (nans, LT_UNARY_OP_RELU);
  lt_assert_values (relu, NAN, INFINITY, 0);
  sign = un (nans, LT_UNARY_OP_SIGN);
  lt_assert_values (sign, 0, 1, -1);
  bn = un (ints, LT_UNARY_OP_BITWISE_NOT);
  lt_assert_values (bn, -5, -10, -17);

  /* Bools are stored as 0 or 1: glibc's isinf() gives -1 for -inf. */
  {
    g_autoptr (LtTensor) infinities = lit ("[-inf, inf, 1.0]");
    g_autoptr (LtTensor) is_inf = un (infinities, LT_UNARY_OP_ISINF);
    g_autoptr (GBytes) bytes = lt_tensor_to_bytes (is_inf, &error);
    static const guint8 expected[] = { 1, 1, 0 };

    g_assert_no_error (error);
    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected,
                     sizeof expected);
  }

  g_assert_null (lt_tensor_unary (c, LT_UNARY_OP_FLOOR, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
}

/* erf, which PyTorch has beside the table's other functions: integers and
 * bools give float32, complex is refused, both signs of zero and the
 * infinities come out exactly, in place too, float32 and float64 each in
 * lanes of its own. */
static void
test_erf (void)
{
  g_autoptr (LtTensor) ints = lit ("[0, 1, -2]");
  g_autoptr (LtTensor) floats = lit ("[-inf, -2.0, -0.5, -0.0, 0.0, 0.001, 0.5, 1.0, 3.0, 5.0, inf, nan]");
  g_autoptr (LtTensor) doubles = lt_tensor_to_dtype (floats, LT_DTYPE_FLOAT64, NULL);
  g_autoptr (LtTensor) c = lit ("[3+4j]");
  g_autoptr (LtTensor) from_ints = un (ints, LT_UNARY_OP_ERF);
  g_autoptr (LtTensor) single = un (floats, LT_UNARY_OP_ERF);
  g_autoptr (LtTensor) twice = un (doubles, LT_UNARY_OP_ERF);
  g_autoptr (GError) error = NULL;
  const double x[] = { -INFINITY, -2, -0.5, -0.0, 0, 0.001, 0.5, 1, 3, 5, INFINITY, NAN };
  double as_float[G_N_ELEMENTS (x)], as_double[G_N_ELEMENTS (x)];

  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    {
      as_float[i] = (float) erf ((double) (float) x[i]);
      as_double[i] = erf ((double) (float) x[i]);
    }
  g_assert_cmpint (lt_tensor_get_dtype (from_ints), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (from_ints, 0, (float) erf (1), (float) erf (-2));
  g_assert_cmpint (lt_tensor_get_dtype (single), ==, LT_DTYPE_FLOAT32);
  lt_test_assert_values (G_STRLOC, single, as_float, G_N_ELEMENTS (x));
  g_assert_cmpint (lt_tensor_get_dtype (twice), ==, LT_DTYPE_FLOAT64);
  {
    /* float64's own lanes: within an ulp of libm (test-cpu-math64
     * measures them against long double), the zeros, infinities and NaN
     * exactly. */
    gsize n;
    g_autofree double *got = lt_tensor_to_doubles (twice, &n);

    g_assert_cmpuint (n, ==, G_N_ELEMENTS (x));
    for (guint i = 0; i < n; i++)
      if (isnan (as_double[i]))
        g_assert_true (isnan (got[i]));
      else if (isinf (as_double[i]) || as_double[i] == 0)
        g_assert_true (memcmp (&got[i], &as_double[i], sizeof (double)) == 0);
      else
        g_assert_cmpfloat (fabs (got[i] - as_double[i]), <=,
                           nextafter (fabs (as_double[i]), INFINITY) - fabs (as_double[i]));
  }
  {
    g_autoptr (LtTensor) minus_zero = idx (single, "3");
    g_autoptr (GBytes) bytes = lt_tensor_to_bytes (minus_zero, &error);

    g_assert_no_error (error);
    g_assert_true (signbit (*(const float *) g_bytes_get_data (bytes, NULL)));
  }

  g_assert_true (lt_tensor_unary_ (floats, LT_UNARY_OP_ERF, &error));
  g_assert_no_error (error);
  lt_test_assert_values (G_STRLOC, floats, as_float, G_N_ELEMENTS (x));

  g_assert_null (lt_tensor_unary (c, LT_UNARY_OP_ERF, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_unary_ (ints, LT_UNARY_OP_ERF, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
}

/* The float32 and float64 functions in lanes give a strided view the same
 * bits as a contiguous copy of it (the strided rows gather into the lanes,
 * where they once took libm one element at a time), transposed or
 * stepping, pow with either operand strided too. */
static void
lanes_strided (LtDType dtype)
{
  const LtUnaryOp ops[] = { LT_UNARY_OP_EXP, LT_UNARY_OP_LOG, LT_UNARY_OP_SIGMOID,
                            LT_UNARY_OP_SQRT, LT_UNARY_OP_RSQRT, LT_UNARY_OP_EXPM1,
                            LT_UNARY_OP_TANH, LT_UNARY_OP_LOG1P, LT_UNARY_OP_SIN,
                            LT_UNARY_OP_COS, LT_UNARY_OP_ERF };
  const gint64 shape[] = { 37, 300 }, e_shape[] = { 37, 600 };
  /* The exponents' views step otherwise, for other strides. */
  const char *const views[] = { "[:, ::2]", "[::-1, 1::3]" };
  const char *const e_views[] = { "[:, ::4]", "[::-1, 1::6]", "[:, ::2]" };
  gsize n = (gsize) (shape[0] * shape[1]);
  g_autofree double *values = g_new (double, n);
  g_autoptr (LtTensor) base = NULL, exponents = NULL;
  g_autoptr (GError) error = NULL;

  /* Every value twice over a wide range, both signs, with a few specials. */
  for (gsize i = 0; i < n; i++)
    values[i] = (i % 97 == 0) ? (i % 3 == 0 ? 0.0 : INFINITY)
                              : sinh ((double) ((gint64) (i * 7919 % n) - (gint64) n / 2) / 600.0);
  base = lt_tensor_new_from_data (dtype, values, n, shape, 2, &error);
  g_assert_no_error (error);
  values = g_renew (double, values, 2 * n);
  for (gsize i = 0; i < 2 * n; i++)
    values[i] = fmod ((double) i * 0.37, 9.0) - 4.5;
  exponents = lt_tensor_new_from_data (dtype, values, 2 * n, e_shape, 2, &error);
  g_assert_no_error (error);

  for (guint v = 0; v < G_N_ELEMENTS (views) + 1; v++)
    {
      g_autoptr (LtTensor) view = v < G_N_ELEMENTS (views) ? idx (base, views[v])
                                                           : lt_tensor_transpose (base, 0, 1, &error);
      g_autoptr (LtTensor) copy = lt_tensor_contiguous (view, &error);
      g_autoptr (LtTensor) e_rows = idx (exponents, e_views[v]);
      g_autoptr (LtTensor) e_view = v < G_N_ELEMENTS (views) ? g_object_ref (e_rows)
                                                             : lt_tensor_transpose (e_rows, 0, 1, &error);
      g_autoptr (LtTensor) e_copy = lt_tensor_contiguous (e_view, &error);

      g_assert_no_error (error);
      g_assert_false (lt_tensor_is_contiguous (view));
      for (guint o = 0; o < G_N_ELEMENTS (ops) + 1; o++)
        {
          g_autoptr (LtTensor) strided = o < G_N_ELEMENTS (ops) ? un (view, ops[o])
                                                                : bin (view, LT_BINARY_OP_POW, e_view);
          g_autoptr (LtTensor) contiguous = o < G_N_ELEMENTS (ops) ? un (copy, ops[o])
                                                                   : bin (copy, LT_BINARY_OP_POW, e_copy);
          g_autoptr (GBytes) got = lt_tensor_to_bytes (strided, &error);
          g_autoptr (GBytes) want = lt_tensor_to_bytes (contiguous, &error);

          g_assert_no_error (error);
          if (!g_bytes_equal (got, want))
            g_error ("op %u on view %u: a strided view gave other bits than its copy", o, v);

          /* In place on the strided view of a clone: the lanes' results
           * scattered back through the view's strides. */
          if (o < G_N_ELEMENTS (ops))
            {
              g_autoptr (LtTensor) clone = lt_tensor_clone (base, &error);
              g_autoptr (LtTensor) target = NULL;
              g_autoptr (GBytes) in_place = NULL;

              g_assert_no_error (error);
              target = v < G_N_ELEMENTS (views) ? idx (clone, views[v])
                                                : lt_tensor_transpose (clone, 0, 1, &error);
              g_assert_true (lt_tensor_unary_ (target, ops[o], &error));
              g_assert_no_error (error);
              in_place = lt_tensor_to_bytes (target, &error);
              g_assert_no_error (error);
              if (!g_bytes_equal (in_place, want))
                g_error ("op %u on view %u: in place on a strided view gave other bits", o, v);
            }
        }
    }
}

static void
test_lanes_strided (void)
{
  lanes_strided (LT_DTYPE_FLOAT32);
  lanes_strided (LT_DTYPE_FLOAT64);

  /* x ** 2 of a view is x · x, as of a contiguous tensor, where the exact
   * square is halfway between two floats (1 + j · 2^-12, j odd) and only
   * the one product rounds it to even. */
  {
    const gint64 square_shape[] = { 8, 64 };
    g_autoptr (LtTensor) squares = NULL, two = lit ("2.0");
    g_autoptr (LtTensor) view = NULL, copy = NULL, strided = NULL, contiguous = NULL;
    g_autoptr (GBytes) got = NULL, want = NULL;
    g_autoptr (GError) error = NULL;
    double values[8 * 64];

    for (gsize i = 0; i < 8 * 64; i++)
      values[i] = 1.0 + (double) (2 * i + 1) * 0x1p-12;
    squares = lt_tensor_new_from_data (LT_DTYPE_FLOAT32, values, 8 * 64, square_shape, 2, &error);
    g_assert_no_error (error);
    view = idx (squares, "[:, ::2]");
    copy = lt_tensor_contiguous (view, &error);
    g_assert_no_error (error);
    strided = bin (view, LT_BINARY_OP_POW, two);
    contiguous = bin (copy, LT_BINARY_OP_MUL, copy);
    got = lt_tensor_to_bytes (strided, &error);
    want = lt_tensor_to_bytes (contiguous, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (got, want));
  }
}

static void
test_in_place_through_view (void)
{
  g_autoptr (LtTensor) points = lit ("[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]");
  g_autoptr (LtTensor) second = idx (points, "[1]");
  g_autoptr (LtTensor) ten = lt_tensor_new_scalar_int (10);
  g_autoptr (LtTensor) column = idx (points, "[:, 1]");
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_tensor_binary_ (second, LT_BINARY_OP_ADD, ten, &error));
  g_assert_no_error (error);
  lt_assert_values (points, 1, 2, 13, 14, 5, 6);

  g_assert_true (lt_tensor_unary_ (column, LT_UNARY_OP_NEG, &error));
  lt_assert_values (points, 1, -2, 13, -14, 5, -6);

  /* A bool result is cast back into a float tensor. */
  g_assert_true (lt_tensor_binary_ (column, LT_BINARY_OP_LT, ten, &error));
  g_assert_no_error (error);
  lt_assert_values (points, 1, 1, 13, 1, 5, 1);
}

static void
test_in_place_overlap (void)
{
  g_autoptr (LtTensor) a = lit ("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]");
  g_autoptr (LtTensor) at = NULL, expected = NULL;
  g_autoptr (LtTensor) v = lit ("[1, 2, 3, 4, 5]");
  g_autoptr (LtTensor) tail = idx (v, "[1:]");
  g_autoptr (LtTensor) head = idx (v, "[:-1]");
  g_autoptr (GError) error = NULL;

  at = lt_tensor_t (a, &error);
  expected = bin (a, LT_BINARY_OP_ADD, at);
  g_assert_true (lt_tensor_add_ (a, at, 1.0, &error));
  g_assert_no_error (error);
  lt_assert_values (a, 2, 6, 10, 6, 10, 14, 10, 14, 18);
  lt_assert_values (expected, 2, 6, 10, 6, 10, 14, 10, 14, 18);

  g_assert_true (lt_tensor_add_ (tail, head, 1.0, &error));
  lt_assert_values (v, 1, 3, 5, 7, 9);

  /* Exactly the same layout needs no copy and still works. */
  g_assert_true (lt_tensor_binary_ (v, LT_BINARY_OP_MUL, v, &error));
  lt_assert_values (v, 1, 9, 25, 49, 81);
}

static void
test_in_place_refusals (void)
{
  g_autoptr (LtTensor) row = lit ("[1.0, 2.0]");
  g_autoptr (LtTensor) expanded = NULL;
  g_autoptr (LtTensor) ints = lit ("[1, 2]");
  g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
  g_autoptr (LtTensor) grid = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2);
  g_autoptr (GError) error = NULL;

  expanded = lt_tensor_expand (row, I64S (3, 2), 2, &error);
  g_assert_false (lt_tensor_add_ (expanded, half, 1.0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);

  g_assert_false (lt_tensor_binary_ (ints, LT_BINARY_OP_MUL, half, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "float32"));
  g_assert_nonnull (strstr (error->message, "int64"));
  g_clear_error (&error);
  lt_assert_values (ints, 1, 2);

  g_assert_false (lt_tensor_unary_ (ints, LT_UNARY_OP_SQRT, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  /* self cannot grow to the broadcast shape. */
  g_assert_false (lt_tensor_add_ (row, grid, 1.0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  lt_assert_values (row, 1, 2);
}

static void
test_where_lerp_clamp (void)
{
  g_autoptr (LtTensor) cond = lit ("[True, False, True]");
  g_autoptr (LtTensor) a = lit ("[1, 2, 3]");
  g_autoptr (LtTensor) b = lt_tensor_new_scalar_double (2.5);
  g_autoptr (LtTensor) w = NULL, l = NULL, c = NULL, c2 = NULL;
  g_autoptr (LtTensor) start = lit ("[1.0, 1.0, 1.0]");
  g_autoptr (LtTensor) end = lit ("[3.0, 3.0, 3.0]");
  g_autoptr (LtTensor) weight = lit ("[0.25, 0.5, 0.75]");
  g_autoptr (LtTensor) lo = lt_tensor_new_scalar_int (2);
  g_autoptr (GError) error = NULL;

  w = lt_tensor_where (cond, a, b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_dtype (w), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (w, 1, 2.5, 3);
  g_assert_null (lt_tensor_where (a, a, b, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  l = lt_tensor_lerp (start, end, weight, &error);
  g_assert_no_error (error);
  lt_assert_values (l, 1.5, 2, 2.5);
  g_assert_null (lt_tensor_lerp (a, a, b, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  c = lt_tensor_clamp (a, lo, NULL, &error);
  g_assert_no_error (error);
  lt_assert_values (c, 2, 2, 3);
  c2 = lt_tensor_clamp (a, NULL, b, &error);
  g_assert_cmpint (lt_tensor_get_dtype (c2), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (c2, 1, 2, 2.5);
  g_assert_null (lt_tensor_clamp (a, NULL, NULL, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (lt_tensor_clamp_ (a, lo, lo, &error));
  lt_assert_values (a, 2, 2, 2);
}

static void
test_wraparound_and_16_bit_floats (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) i8 = lt_tensor_new_from_literal_with_dtype ("[100, -128]", LT_DTYPE_INT8,
                                                                   &error);
  g_autoptr (LtTensor) u8 = lt_tensor_new_from_literal_with_dtype ("[1, 7]", LT_DTYPE_UINT8,
                                                                   &error);
  g_autoptr (LtTensor) h = lt_tensor_new_from_literal_with_dtype ("[1.0, 2049.0]",
                                                                  LT_DTYPE_FLOAT16, &error);
  g_autoptr (LtTensor) bf = lt_tensor_new_from_literal_with_dtype ("[1.0, 256.0]",
                                                                   LT_DTYPE_BFLOAT16, &error);
  g_autoptr (LtTensor) two = lt_tensor_new_scalar_int (2);
  g_autoptr (LtTensor) five = lt_tensor_new_scalar_int (5);
  g_autoptr (LtTensor) one = lt_tensor_new_scalar_double (1.0);
  g_autoptr (LtTensor) r1 = NULL, r2 = NULL, r3 = NULL, r4 = NULL, r5 = NULL, r6 = NULL;

  g_assert_no_error (error);
  /* Values from PyTorch 1.13: integers wrap around, 16-bit floats round. */
  r1 = bin (i8, LT_BINARY_OP_MUL, two);
  g_assert_cmpint (lt_tensor_get_dtype (r1), ==, LT_DTYPE_INT8);
  lt_assert_values (r1, -56, 0);
  r2 = un (i8, LT_UNARY_OP_ABS);
  lt_assert_values (r2, 100, -128);
  r3 = bin (u8, LT_BINARY_OP_SUB, five);
  g_assert_cmpint (lt_tensor_get_dtype (r3), ==, LT_DTYPE_UINT8);
  lt_assert_values (r3, 252, 2);
  r4 = bin (h, LT_BINARY_OP_ADD, one);
  g_assert_cmpint (lt_tensor_get_dtype (r4), ==, LT_DTYPE_FLOAT16);
  lt_assert_values (r4, 2, 2048);
  r5 = bin (bf, LT_BINARY_OP_ADD, one);
  lt_assert_values (r5, 2, 256);
  r6 = bin (h, LT_BINARY_OP_MUL, bf);
  g_assert_cmpint (lt_tensor_get_dtype (r6), ==, LT_DTYPE_FLOAT32);
  lt_assert_values (r6, 1, 2048.0 * 256.0);
}

static void
test_threads_match_one_thread (void)
{
  g_autoptr (LtTensor) big = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 300, 1001);
  g_autoptr (LtTensor) bt = NULL, one = NULL, many = NULL, eq = NULL, flat = NULL;
  g_autoptr (LtTensor) flat_one = NULL, flat_many = NULL;
  g_autoptr (GError) error = NULL;
  guint saved = lt_get_num_threads ();
  gsize n1, n2;
  g_autofree double *v1 = NULL, *v2 = NULL;

  g_autoptr (LtTensor) other = idx (big, "[:, 1::3]");

  bt = idx (big, "[::-1, ::3]");
  flat = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 200000);
  lt_set_num_threads (1);
  one = bin (bt, LT_BINARY_OP_MUL, other);
  flat_one = un (flat, LT_UNARY_OP_SIN);
  lt_set_num_threads (4);
  many = bin (bt, LT_BINARY_OP_MUL, other);
  flat_many = un (flat, LT_UNARY_OP_SIN);
  lt_set_num_threads (saved);

  v1 = lt_tensor_to_doubles (one, &n1);
  v2 = lt_tensor_to_doubles (many, &n2);
  g_assert_cmpuint (n1, ==, n2);
  g_assert_cmpmem (v1, n1 * sizeof (double), v2, n2 * sizeof (double));
  g_clear_pointer (&v1, g_free);
  g_clear_pointer (&v2, g_free);
  v1 = lt_tensor_to_doubles (flat_one, &n1);
  v2 = lt_tensor_to_doubles (flat_many, &n2);
  g_assert_cmpmem (v1, n1 * sizeof (double), v2, n2 * sizeof (double));
  g_assert_cmpfloat (v1[199999], ==, sin (199999.0));
  (void) eq;
}

/* The tensor itself when it is contiguous, else a contiguous copy. */
static LtTensor *
contiguous_copy (LtTensor *tensor)
{
  g_autoptr (GError) error = NULL;
  LtTensor *copy = lt_tensor_contiguous (tensor, &error);

  g_assert_no_error (error);
  return copy;
}

/* Ops whose inputs walk another dim fastest than the output go by tiles,
 * with the transposed input turned around into a buffer first. Checked
 * against the same ops on contiguous copies of the inputs (the plain row
 * loop), for every element size, ragged tile edges, two threads, an outer
 * dim, in place, and four operands. */
static void
test_binary_transposed_tiles (void)
{
  const LtDType dtypes[] = { LT_DTYPE_INT8, LT_DTYPE_INT16, LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64,
                             LT_DTYPE_COMPLEX128 };
  const int order[] = { 2, 0, 1 };
  guint threads = lt_get_num_threads ();

  lt_set_num_threads (2);
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) a = lt_test_arange_shaped (dtypes[d], 300, 517);
      g_autoptr (LtTensor) at = lt_tensor_t (a, &error);
      g_autoptr (LtTensor) b = lt_test_arange_shaped (dtypes[d], 517, 300);
      g_autoptr (LtTensor) at_copy = contiguous_copy (at);
      g_autoptr (LtTensor) sum = lt_tensor_binary (at, LT_BINARY_OP_MUL, b, &error);
      g_autoptr (LtTensor) expected = lt_tensor_binary (at_copy, LT_BINARY_OP_MUL, b, &error);
      g_autoptr (LtTensor) cube = lt_test_arange_shaped (dtypes[d], 7, 90, 130);
      g_autoptr (LtTensor) permuted = lt_tensor_permute (cube, order, 3, &error);
      g_autoptr (LtTensor) other = lt_test_arange_shaped (dtypes[d], 130, 7, 90);
      g_autoptr (LtTensor) permuted_copy = contiguous_copy (permuted);
      g_autoptr (LtTensor) cube_sum = lt_tensor_add (other, permuted, 2, &error);
      g_autoptr (LtTensor) cube_expected = lt_tensor_add (other, permuted_copy, 2, &error);
      g_autoptr (LtTensor) in_place = lt_tensor_clone (b, &error);

      g_assert_no_error (error);
      g_assert_true (lt_tensor_equal (sum, expected));
      g_assert_true (lt_tensor_equal (cube_sum, cube_expected));

      g_assert_true (lt_tensor_add_ (in_place, at, 1, &error));
      g_assert_no_error (error);
      g_clear_object (&expected);
      expected = lt_tensor_add (b, at_copy, 1, &error);
      g_assert_no_error (error);
      g_assert_true (lt_tensor_equal (in_place, expected));

      if (!lt_dtype_is_complex (dtypes[d]))
        {
          g_autoptr (LtTensor) condition = lt_tensor_binary (at, LT_BINARY_OP_GT, b, &error);
          g_autoptr (LtTensor) chosen = lt_tensor_where (condition, at, b, &error);
          g_autoptr (LtTensor) condition_copy = contiguous_copy (condition);
          g_autoptr (LtTensor) chosen_expected = lt_tensor_where (condition_copy, at_copy, b,
                                                                  &error);

          g_assert_no_error (error);
          g_assert_true (lt_tensor_equal (chosen, chosen_expected));
        }
    }
  lt_set_num_threads (threads);
}

/* Every op's errors start with its name, in place ("add_()") or not
 * ("add()"): a shape that does not broadcast for the binary ops, and a
 * target with one element for three for the unary ones in place. */
static void
test_errors_name_the_op (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) matrix = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3);
  g_autoptr (LtTensor) row = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4);
  g_autoptr (LtTensor) one = idx (row, "1:2");
  g_autoptr (LtTensor) expanded = lt_tensor_expand (one, (const gint64[]) { 3 }, 1, &error);
  GEnumClass *binary_ops = g_type_class_ref (LT_TYPE_BINARY_OP);
  GEnumClass *unary_ops = g_type_class_ref (LT_TYPE_UNARY_OP);

  g_assert_no_error (error);
  for (guint i = 0; i < binary_ops->n_values; i++)
    for (gboolean in_place = FALSE; in_place <= TRUE; in_place++)
      {
        g_autofree char *name = g_strdelimit (g_strdup_printf ("%s%s(): ",
                                                               binary_ops->values[i].value_nick,
                                                               in_place ? "_" : ""),
                                              "-", '_');
        g_autoptr (LtTensor) result = NULL;

        if (in_place)
          g_assert_false (lt_tensor_binary_ (matrix, binary_ops->values[i].value, row, &error));
        else
          result = lt_tensor_binary (matrix, binary_ops->values[i].value, row, &error);
        g_assert_null (result);
        g_assert_nonnull (error);
        if (!g_str_has_prefix (error->message, name))
          g_error ("expected \"%s\" first: %s", name, error->message);
        g_clear_error (&error);
      }
  for (guint i = 0; i < unary_ops->n_values; i++)
    {
      g_autofree char *name = g_strdelimit (g_strdup_printf ("%s_(): ",
                                                             unary_ops->values[i].value_nick),
                                            "-", '_');

      g_assert_false (lt_tensor_unary_ (expanded, unary_ops->values[i].value, &error));
      g_assert_nonnull (error);
      if (!g_str_has_prefix (error->message, name))
        g_error ("expected \"%s\" first: %s", name, error->message);
      g_clear_error (&error);
    }
  g_type_class_unref (binary_ops);
  g_type_class_unref (unary_ops);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pointwise/promote/table", test_promote_table);
  g_test_add_func ("/pointwise/binary/views", test_binary_on_views);
  g_test_add_func ("/pointwise/binary/transposed-tiles", test_binary_transposed_tiles);
  g_test_add_func ("/pointwise/binary/broadcast-mismatch", test_broadcast_mismatch);
  g_test_add_func ("/pointwise/binary/integer-division", test_integer_division);
  g_test_add_func ("/pointwise/binary/pow", test_pow);
  g_test_add_func ("/pointwise/binary/scalar-powers", test_scalar_powers);
  g_test_add_func ("/pointwise/binary/product-powers", test_product_powers);
  g_test_add_func ("/pointwise/binary/comparisons-and-refusals", test_comparisons_and_refusals);
  g_test_add_func ("/pointwise/unary/values", test_unary);
  g_test_add_func ("/pointwise/unary/erf", test_erf);
  g_test_add_func ("/pointwise/unary/lanes-strided", test_lanes_strided);
  g_test_add_func ("/pointwise/in-place/through-view", test_in_place_through_view);
  g_test_add_func ("/pointwise/in-place/overlap", test_in_place_overlap);
  g_test_add_func ("/pointwise/in-place/refusals", test_in_place_refusals);
  g_test_add_func ("/pointwise/errors-name-the-op", test_errors_name_the_op);
  g_test_add_func ("/pointwise/where-lerp-clamp", test_where_lerp_clamp);
  g_test_add_func ("/pointwise/binary/wraparound-and-16-bit-floats",
                   test_wraparound_and_16_bit_floats);
  g_test_add_func ("/pointwise/threads/match-one-thread", test_threads_match_one_thread);

  return g_test_run ();
}
