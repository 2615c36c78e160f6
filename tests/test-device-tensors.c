/* test-device-tensors.c: tensors on a GPU device
 *
 * Each test runs on the first CUDA device and on the first OpenCL device
 * (PoCL's CPU device in CI; build-aux/test.sh makes its absence a failure),
 * and skips where there is none.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include "backends/lt-backend.h"

/* Set (from LT_OPENCL_NO_FP64) when the OpenCL backend computes as on a
 * device without float64: in float, refusing float64 and complex128. */
static gboolean opencl_without_fp64;

/* Whether the device of the test's kind computes with @dtype. */
static gboolean
computes (gconstpointer data,
          LtDType       dtype)
{
  return !(GPOINTER_TO_INT (data) == LT_DEVICE_TYPE_OPENCL && opencl_without_fp64
           && (dtype == LT_DTYPE_FLOAT64 || dtype == LT_DTYPE_COMPLEX128));
}

/* Whether the test's device computes in float what the CPU computes in
 * double (sums, products, conversions through double), so that results
 * agree only within tolerances. */
static gboolean
computes_in_float (gconstpointer data)
{
  return !computes (data, LT_DTYPE_FLOAT64);
}

/* Whether the running test's device computes in float (see above). */
static gboolean device_computes_in_float;

/* The first device of the test's kind, or NULL after g_test_skip(). */
static LtDevice *
test_device (gconstpointer data)
{
  LtDeviceType device_type = GPOINTER_TO_INT (data);
  g_autoptr (LtDevice) device = lt_device_new (device_type, 0);
  g_autoptr (GError) error = NULL;

  if (!lt_device_is_available (device, &error))
    {
      if (device_type == LT_DEVICE_TYPE_OPENCL && g_getenv ("LT_TEST_EXPECT_OPENCL") != NULL)
        g_error ("LT_TEST_EXPECT_OPENCL is set, but %s", error->message);
      g_test_skip (error->message);
      return NULL;
    }
  device_computes_in_float = computes_in_float (data);
  return g_steal_pointer (&device);
}

static LtTensor *
literal (const char *text,
         LtDType     dtype)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal_with_dtype (text, dtype, &error);

  g_assert_no_error (error);
  return tensor;
}

static LtTensor *
to_device (LtTensor *tensor,
           LtDevice *device)
{
  g_autoptr (GError) error = NULL;
  LtTensor *moved = lt_tensor_to_device (tensor, device, &error);

  g_assert_no_error (error);
  g_assert_nonnull (moved);
  return moved;
}

/* @text as a tensor of @dtype on @device. */
static LtTensor *
literal_on (const char *text,
            LtDType     dtype,
            LtDevice   *device)
{
  g_autoptr (LtTensor) host = literal (text, dtype);

  return to_device (host, device);
}

static LtTensor *
to_cpu (LtTensor *tensor)
{
  g_autoptr (GError) error = NULL;
  LtTensor *moved = lt_tensor_to_cpu (tensor, &error);

  g_assert_no_error (error);
  return moved;
}

static void
test_round_trip (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  const LtDType dtypes[] = { LT_DTYPE_BOOL, LT_DTYPE_INT8, LT_DTYPE_INT16, LT_DTYPE_FLOAT32,
                             LT_DTYPE_INT64, LT_DTYPE_COMPLEX128 };

  if (device == NULL)
    return;
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) host = lt_test_arange_shaped (dtypes[d], 5, 7);
      g_autoptr (LtTensor) host_t = lt_tensor_t (host, &error);
      g_autoptr (LtTensor) host_slice = lt_tensor_index (host, "[1:4, ::3]", &error);
      g_autoptr (LtTensor) empty = lt_tensor_index (host, "[5:]", &error);
      g_autoptr (LtTensor) scalar = lt_tensor_index (host, "[2, 3]", &error);
      LtTensor *cases[] = { host, host_t, host_slice, empty, scalar };

      g_assert_no_error (error);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autoptr (LtTensor) on_device = to_device (cases[c], device);
          g_autoptr (LtDevice) where = lt_tensor_get_device (on_device);
          g_autoptr (LtTensor) back = to_cpu (on_device);
          g_autoptr (LtDevice) back_where = lt_tensor_get_device (back);
          g_autoptr (LtTensor) again = to_device (on_device, device);

          g_assert_true (lt_device_equal (where, device));
          g_assert_cmpint (lt_device_get_device_type (back_where), ==, LT_DEVICE_TYPE_CPU);
          g_assert_cmpint (lt_tensor_get_dtype (back), ==, dtypes[d]);
          g_assert_true (lt_tensor_equal (back, cases[c]));
          /* Moving to where it is already is no copy. */
          g_assert_true (again == on_device);
        }
    }
}

/* Views of a device tensor are metadata as on the CPU; reading one back
 * (through the device's copy kernel) gives the view's values. */
static void
test_views_of_device_tensors (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = NULL;
  g_autoptr (LtTensor) on_device = NULL;
  const char *expressions[] = { "[1:, ::2]", "[::-1, 2]", "[None, 3:, :2]", "[...]" };

  if (device == NULL)
    return;
  host = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 6, 8);
  on_device = to_device (host, device);
  for (guint e = 0; e < G_N_ELEMENTS (expressions); e++)
    {
      g_autoptr (LtTensor) host_view = lt_tensor_index (host, expressions[e], &error);
      g_autoptr (LtTensor) device_view = lt_tensor_index (on_device, expressions[e], &error);
      g_autoptr (LtTensor) back = NULL;
      g_autoptr (LtTensor) dense = NULL;

      g_assert_no_error (error);
      g_assert_true (lt_tensor_shares_storage (device_view, on_device));
      back = to_cpu (device_view);
      g_assert_true (lt_tensor_equal (back, host_view));

      /* contiguous() and clone() stay on the device. */
      dense = lt_tensor_contiguous (device_view, &error);
      g_assert_no_error (error);
      g_assert_true (lt_tensor_is_contiguous (dense));
      g_assert_true (lt_tensor_equal (dense, host_view));
    }
}

static void
test_fill_and_copy_on_device (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (LtTensor) column = NULL;
  g_autoptr (LtTensor) row = NULL;
  g_autoptr (LtTensor) expected = NULL;
  LtDType real = computes (data, LT_DTYPE_FLOAT64) ? LT_DTYPE_FLOAT64 : LT_DTYPE_FLOAT32;

  if (device == NULL)
    return;
  on_device = literal_on ("[[1, 2, 3], [4, 5, 6]]", real, device);
  column = lt_tensor_index (on_device, "[:, 1]", &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (column, 9, &error));
  g_assert_no_error (error);
  expected = literal ("[[1, 9, 3], [4, 9, 6]]", real);
  g_assert_true (lt_tensor_equal (on_device, expected));

  /* Copies between the CPU and the device move the values across,
   * broadcasting and converting as PyTorch's copy_() does. */
  {
    g_autoptr (LtTensor) host_row = literal ("[1, 2, 3]", LT_DTYPE_INT32);
    g_autoptr (LtTensor) host_copy = lt_tensor_new_zeros (real, I64S (2, 3), 2, &error);
    g_autoptr (LtTensor) want = literal ("[[1, 2, 3], [1, 2, 3]]", real);

    g_assert_no_error (error);
    g_assert_true (lt_tensor_copy_from (on_device, host_row, &error));
    g_assert_no_error (error);
    g_assert_true (lt_tensor_equal (on_device, want));
    g_assert_true (lt_tensor_copy_from (host_copy, on_device, &error));
    g_assert_no_error (error);
    g_assert_true (lt_tensor_equal (host_copy, want));
  }

  /* A broadcast copy from another device tensor. */
  row = literal_on ("[7, 8, 0]", real, device);
  g_assert_true (lt_tensor_copy_from (on_device, row, &error));
  g_assert_no_error (error);
  g_clear_object (&expected);
  expected = literal ("[[7, 8, 0], [7, 8, 0]]", real);
  g_assert_true (lt_tensor_equal (on_device, expected));
}

/* Conversions on the device give the CPU's bits for every pair of dtypes,
 * special values included (NaN, infinities, -0, values out of an integer's
 * range, halves that overflow or go subnormal, ties). */
static void
test_conversions_match_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  static const double values[] = {
    0.0, -0.0, 1.5, -2.7, 2.5, 0.5, -0.5, 1e10, -1e10, 65520, 65519, 1e-8, 6e-8, 3.4e38,
    255, 256, -129, 9007199254740993.0, 1e300, -1e300, 0x1p31, -0x1p31, 0x1p63,
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = NULL;
  g_autofree double *all = NULL;
  gsize n = G_N_ELEMENTS (values) + 3;  /* and NaN, inf, -inf */
  gint64 shape[1];

  if (device == NULL)
    return;

  all = g_new (double, n);
  memcpy (all, values, sizeof values);
  all[n - 3] = NAN;
  all[n - 2] = INFINITY;
  all[n - 1] = -INFINITY;
  shape[0] = (gint64) n;
  base = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, all, n, shape, 1, &error);
  g_assert_no_error (error);

  for (LtDType from = LT_DTYPE_BOOL; from <= LT_DTYPE_COMPLEX128; from++)
    {
      g_autoptr (LtTensor) source = lt_tensor_to_dtype (base, from, &error);
      g_autoptr (LtTensor) on_device = NULL;

      g_assert_no_error (error);
      on_device = to_device (source, device);
      for (LtDType to = LT_DTYPE_BOOL; to <= LT_DTYPE_COMPLEX128; to++)
        {
          if (from != to && (!computes (data, from) || !computes (data, to)))
            continue;
          g_autoptr (LtTensor) expected = lt_tensor_to_dtype (source, to, &error);
          g_autoptr (LtTensor) converted = lt_tensor_to_dtype (on_device, to, &error);
          g_autoptr (LtTensor) back = NULL;
          g_autoptr (GBytes) expected_bytes = NULL;
          g_autoptr (GBytes) back_bytes = NULL;

          g_assert_no_error (error);
          back = to_cpu (converted);
          expected_bytes = lt_tensor_to_bytes (expected, &error);
          back_bytes = lt_tensor_to_bytes (back, &error);
          g_assert_no_error (error);
          if (!g_bytes_equal (expected_bytes, back_bytes))
            {
              g_autofree char *want = lt_tensor_to_string (expected);
              g_autofree char *got = lt_tensor_to_string (back);

              g_error ("%s -> %s on the device: %s, the CPU gives %s", lt_dtype_get_name (from),
                       lt_dtype_get_name (to), got, want);
            }
        }
    }
}

/* Ops whose device results may differ from the CPU's in the last bits:
 * those that go through the device's math library. */
static gboolean
unary_is_approximate (LtUnaryOp op,
                      LtDType   dtype)
{
  switch (op)
    {
    case LT_UNARY_OP_EXP:
    case LT_UNARY_OP_LOG:
    case LT_UNARY_OP_LOG1P:
    case LT_UNARY_OP_EXPM1:
    case LT_UNARY_OP_SIN:
    case LT_UNARY_OP_COS:
    case LT_UNARY_OP_TAN:
    case LT_UNARY_OP_TANH:
    case LT_UNARY_OP_SIGMOID:
    case LT_UNARY_OP_ERF:
      return TRUE;
    case LT_UNARY_OP_ABS:
    case LT_UNARY_OP_SQRT:
    case LT_UNARY_OP_RSQRT:
      return lt_dtype_is_complex (dtype);
    default:
      return FALSE;
    }
}

/* The math issue's tolerances, by dtype; float32 results a device adds up
 * in float (not double, as the CPU does) get more room. */
static double
tolerance (LtDType dtype)
{
  switch (dtype)
    {
    case LT_DTYPE_FLOAT16:
      return 1e-3;
    case LT_DTYPE_BFLOAT16:
      return 1e-2;
    case LT_DTYPE_FLOAT32:
    case LT_DTYPE_COMPLEX64:
      return device_computes_in_float ? 1e-4 : 1e-5;
    default:
      return 1e-12;
    }
}

/* That @got (and @got_error) on the device is what the CPU gave: the same
 * bits, or for @approximate floating results the same within the dtype's
 * tolerance with NaN and infinities in the same places; or the same
 * refusal. Takes both errors. */
static void
assert_same_result (const char *what,
                    LtTensor   *expected,
                    GError     *expected_error,
                    LtTensor   *got,
                    GError     *got_error,
                    gboolean    approximate)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) back = NULL;
  g_autoptr (GBytes) expected_bytes = NULL;
  g_autoptr (GBytes) back_bytes = NULL;
  LtDType dtype;

  if (expected == NULL)
    {
      if (got != NULL)
        g_error ("%s: the CPU refuses (%s), the device does not", what, expected_error->message);
      g_assert_error (got_error, expected_error->domain, expected_error->code);
      g_error_free (expected_error);
      g_error_free (got_error);
      return;
    }
  if (got == NULL)
    g_error ("%s: the device refuses: %s", what, got_error->message);
  g_assert_null (expected_error);
  g_assert_null (got_error);

  back = to_cpu (got);
  dtype = lt_tensor_get_dtype (expected);
  g_assert_cmpint (lt_tensor_get_dtype (back), ==, dtype);
  if ((approximate || device_computes_in_float) && (lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype)))
    {
      LtDType wide = lt_dtype_is_complex (dtype) ? LT_DTYPE_COMPLEX128 : LT_DTYPE_FLOAT64;
      g_autoptr (LtTensor) x = lt_tensor_to_dtype (expected, wide, &error);
      g_autoptr (LtTensor) y = lt_tensor_to_dtype (back, wide, &error);
      gboolean close = FALSE;

      g_assert_no_error (error);
      g_assert_true (lt_tensor_allclose (y, x, tolerance (dtype), tolerance (dtype), TRUE, &close,
                                         &error));
      g_assert_no_error (error);
      if (close)
        return;
    }
  else if (lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype))
    {
      /* Bit for bit, -0 included, but a NaN's sign and payload are the
       * math library's business. Widening is exact. */
      LtDType wide = lt_dtype_is_complex (dtype) ? LT_DTYPE_COMPLEX128 : LT_DTYPE_FLOAT64;
      g_autoptr (LtTensor) x = lt_tensor_to_dtype (expected, wide, &error);
      g_autoptr (LtTensor) y = lt_tensor_to_dtype (back, wide, &error);
      const double *xs, *ys;
      gsize size, n_same = 0;

      g_assert_no_error (error);
      expected_bytes = lt_tensor_to_bytes (x, &error);
      back_bytes = lt_tensor_to_bytes (y, &error);
      g_assert_no_error (error);
      xs = g_bytes_get_data (expected_bytes, &size);
      ys = g_bytes_get_data (back_bytes, NULL);
      for (gsize i = 0; i < size / sizeof (double); i++)
        n_same += (isnan (xs[i]) && isnan (ys[i])) || memcmp (&xs[i], &ys[i], sizeof (double)) == 0;
      if (n_same == size / sizeof (double))
        return;
    }
  else
    {
      expected_bytes = lt_tensor_to_bytes (expected, &error);
      back_bytes = lt_tensor_to_bytes (back, &error);
      g_assert_no_error (error);
      if (g_bytes_equal (expected_bytes, back_bytes))
        return;
    }
  {
    g_autofree char *want = lt_tensor_to_string (expected);
    g_autofree char *have = lt_tensor_to_string (back);

    g_error ("%s on %s: the device gives\n%s\nthe CPU\n%s", what, lt_dtype_get_name (dtype), have,
             want);
  }
}

/* A (7, 5) tensor of @dtype holding the values that tell rules apart
 * (NaN, infinities, -0, huge values, integers that wrap), a (5, 1) one,
 * and a (5, 1) one with no zero (divisors). Complex ones have both parts. */
static void
make_operands (LtDType    dtype,
               LtTensor **a_out,
               LtTensor **b_out,
               LtTensor **divisors_out)
{
  static const double values[] = {
    0.0, -0.0, 1.5, -2.5, 3.0, 1e30, -1e30, 4611686018427387904.0, -7.0, 0.1,
  };
  static const double divisors[] = { 3, -2, 7, -1, 5 };
  g_autoptr (GError) error = NULL;
  double a_values[7 * 5], b_values[5];
  LtTensor *made[3];
  const double *sources[3] = { a_values, b_values, divisors };
  const gint64 *shapes[3] = { I64S (7, 5), I64S (5, 1), I64S (5, 1) };

  for (guint k = 0; k < G_N_ELEMENTS (a_values); k++)
    a_values[k] = values[(k * 7) % G_N_ELEMENTS (values)];
  a_values[3] = NAN;
  a_values[11] = INFINITY;
  a_values[12] = -INFINITY;
  for (guint k = 0; k < G_N_ELEMENTS (b_values); k++)
    b_values[k] = values[(k * 3 + 1) % G_N_ELEMENTS (values)];

  for (guint i = 0; i < 3; i++)
    {
      gsize n = i == 0 ? 35 : 5;
      g_autoptr (LtTensor) wide = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, sources[i],
                                                           n, shapes[i], 2,
                                                           &error);

      g_assert_no_error (error);
      if (lt_dtype_is_complex (dtype))
        {
          g_autoptr (LtTensor) unit = lt_tensor_new_scalar_complex (0.5, 1.25);
          g_autoptr (LtTensor) turned = lt_tensor_binary (wide, LT_BINARY_OP_MUL, unit, &error);

          g_assert_no_error (error);
          g_set_object (&wide, turned);
        }
      made[i] = lt_tensor_to_dtype (wide, dtype, &error);
      g_assert_no_error (error);
    }
  *a_out = made[0];
  *b_out = made[1];
  *divisors_out = made[2];
}

/* The device's element-wise kernels give the CPU's results: every unary and
 * binary op, where, lerp and clamp, on every dtype, with a transposed
 * operand, a broadcast one, alpha, a CPU scalar operand; refusals (integer
 * division by zero, dtypes an op lacks) are the CPU's too. */
static void
test_pointwise_matches_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;
  const LtBackend *backend;

  if (device == NULL)
    return;
  backend = lt_backend_for_device (device, &error);
  g_assert_no_error (error);
  g_assert_nonnull (backend->pointwise);

  for (LtDType dtype = LT_DTYPE_BOOL; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    if (computes (data, dtype))
    {
      g_autoptr (LtTensor) a = NULL, b = NULL, divisors = NULL, a_t = NULL;
      g_autoptr (LtTensor) a_dev = NULL, a_dev_t = NULL, b_dev = NULL, divisors_dev = NULL;
      g_autoptr (LtTensor) scalar = lt_dtype_is_complex (dtype)          ? lt_tensor_new_scalar_complex (0.5, -2)
                                    : lt_dtype_is_floating_point (dtype) ? lt_tensor_new_scalar_double (0.5)
                                                                         : lt_tensor_new_scalar_int (3);
      const char *name = lt_dtype_get_name (dtype);

      make_operands (dtype, &a, &b, &divisors);
      a_t = lt_tensor_t (a, &error);
      a_dev = to_device (a, device);
      a_dev_t = lt_tensor_t (a_dev, &error);
      b_dev = to_device (b, device);
      divisors_dev = to_device (divisors, device);
      g_assert_no_error (error);

      for (LtBinaryOp op = LT_BINARY_OP_ADD; op <= LT_BINARY_OP_BITWISE_XOR; op++)
        for (guint form = 0; form < 4; form++)
          {
            /* (5, 7) transposed op (5, 1) broadcast; with alpha; with a
             * CPU scalar; by divisors without zeros. */
            LtTensor *cpu_other = form == 2 ? scalar : form == 3 ? divisors : b;
            LtTensor *dev_other = form == 2 ? scalar : form == 3 ? divisors_dev : b_dev;
            GError *expected_error = NULL, *got_error = NULL;
            g_autoptr (LtTensor) expected = NULL;
            g_autoptr (LtTensor) got = NULL;
            g_autofree char *what = g_strdup_printf ("binary op %d, form %u, %s inputs", op, form, name);

            if (form == 1 && op == LT_BINARY_OP_ADD)
              {
                expected = lt_tensor_add (a_t, cpu_other, -3, &expected_error);
                got = lt_tensor_add (a_dev_t, dev_other, -3, &got_error);
              }
            else if (form == 1 && op == LT_BINARY_OP_SUB)
              {
                expected = lt_tensor_sub (a_t, cpu_other, 2, &expected_error);
                got = lt_tensor_sub (a_dev_t, dev_other, 2, &got_error);
              }
            else if (form == 1)
              continue;
            else
              {
                expected = lt_tensor_binary (a_t, op, cpu_other, &expected_error);
                got = lt_tensor_binary (a_dev_t, op, dev_other, &got_error);
              }
            assert_same_result (what, expected, expected_error, got, got_error,
                                op == LT_BINARY_OP_POW);
          }

      for (LtUnaryOp op = LT_UNARY_OP_NEG; op <= LT_UNARY_OP_ERF; op++)
        {
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = lt_tensor_unary (a_t, op, &expected_error);
          g_autoptr (LtTensor) got = lt_tensor_unary (a_dev_t, op, &got_error);
          g_autofree char *what = g_strdup_printf ("unary op %d, %s input", op, name);

          assert_same_result (what, expected, expected_error, got, got_error,
                              unary_is_approximate (op, dtype));
        }

      {
        g_autoptr (LtTensor) zero = lt_tensor_new_scalar_int (0);
        g_autoptr (LtTensor) cond = lt_tensor_binary (a_t, LT_BINARY_OP_NE, zero, &error);
        g_autoptr (LtTensor) cond_dev = to_device (cond, device);
        GError *expected_error = NULL, *got_error = NULL;
        g_autoptr (LtTensor) expected = NULL;
        g_autoptr (LtTensor) got = NULL;

        g_assert_no_error (error);
        expected = lt_tensor_where (cond, a_t, b, &expected_error);
        got = lt_tensor_where (cond_dev, a_dev_t, b_dev, &got_error);
        assert_same_result ("where", expected, expected_error, got, got_error, FALSE);

        /* lerp with a tensor weight; clamp between b and the divisors. */
        expected_error = got_error = NULL;
        g_clear_object (&expected);
        g_clear_object (&got);
        expected = lt_tensor_lerp (a_t, b, divisors, &expected_error);
        got = lt_tensor_lerp (a_dev_t, b_dev, divisors_dev, &got_error);
        assert_same_result ("lerp", expected, expected_error, got, got_error, FALSE);

        expected_error = got_error = NULL;
        g_clear_object (&expected);
        g_clear_object (&got);
        expected = lt_tensor_clamp (a_t, b, divisors, &expected_error);
        got = lt_tensor_clamp (a_dev_t, b_dev, divisors_dev, &got_error);
        assert_same_result ("clamp", expected, expected_error, got, got_error, FALSE);
      }
      g_test_message ("%s: every element-wise op as on the CPU", name);
    }

  /* Integer division looks at every divisor for a zero, not the first. */
  {
    g_autoptr (LtTensor) ints = literal ("[[7, 8, 9], [1, 2, 3]]", LT_DTYPE_INT32);
    g_autoptr (LtTensor) divisors = literal ("[[1, 2, 3], [4, 0, 6]]", LT_DTYPE_INT32);
    g_autoptr (LtTensor) ints_dev = to_device (ints, device);
    g_autoptr (LtTensor) divisors_dev = to_device (divisors, device);
    g_autoptr (LtTensor) divisors_dev_t = lt_tensor_t (divisors_dev, &error);
    g_autoptr (LtTensor) ints_dev_t = lt_tensor_t (ints_dev, &error);
    g_autoptr (LtTensor) quotient = NULL;

    g_assert_no_error (error);
    quotient = lt_tensor_binary (ints_dev, LT_BINARY_OP_REMAINDER, divisors_dev, &error);
    g_assert_null (quotient);
    g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    quotient = lt_tensor_binary (ints_dev_t, LT_BINARY_OP_FLOOR_DIVIDE, divisors_dev_t, &error);
    g_assert_null (quotient);
    g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
}

typedef LtTensor *(*ReduceFunc) (LtTensor   *self,
                                 const int  *dims,
                                 guint       n_dims,
                                 gboolean    keepdim,
                                 GError    **error);

/* A (3, 4, 5) tensor of @dtype read through a permuted view, with a NaN
 * in floating dtypes, and integers large enough for products to wrap. */
static LtTensor *
reduce_input (LtDType dtype)
{
  g_autoptr (GError) error = NULL;
  double values[60];
  g_autoptr (LtTensor) wide = NULL;
  g_autoptr (LtTensor) typed = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (values); k++)
    values[k] = round (sin (k * 1.7) * 40) / 4 + (k % 11 == 0 ? 0 : 0.25);
  if (lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype))
    values[37] = NAN;
  wide = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, 60, I64S (4, 5, 3), 3, &error);
  g_assert_no_error (error);
  if (lt_dtype_is_complex (dtype))
    {
      g_autoptr (LtTensor) unit = lt_tensor_new_scalar_complex (0.5, -1.5);
      g_autoptr (LtTensor) turned = lt_tensor_binary (wide, LT_BINARY_OP_MUL, unit, &error);

      g_assert_no_error (error);
      g_set_object (&wide, turned);
    }
  typed = lt_tensor_to_dtype (wide, dtype, &error);
  g_assert_no_error (error);
  return lt_tensor_permute (typed, (const int[]) { 2, 0, 1 }, 3, &error);
}

/* Every reduction gives on the device what it gives on the CPU, over all
 * dims, one, two, with keepdim, and over empty dims: the same values
 * within the math tolerances (the device adds in another order), the same
 * indices, the same refusals. */
static void
test_reductions_match_the_cpu (gconstpointer data)
{
  static const struct
  {
    const char *name;
    ReduceFunc func;
  } funcs[] = {
    { "sum", lt_tensor_sum }, { "prod", lt_tensor_prod }, { "mean", lt_tensor_mean },
    { "amax", lt_tensor_amax }, { "amin", lt_tensor_amin }, { "all", lt_tensor_all },
    { "any", lt_tensor_any }, { "logsumexp", lt_tensor_logsumexp },
  };
  static const struct
  {
    int dims[2];
    guint n_dims;
    gboolean keepdim;
  } choices[] = {
    { { 0 }, 0, FALSE }, { { 0 }, 1, FALSE }, { { 2 }, 1, TRUE }, { { 0, 2 }, 2, FALSE },
    { { -2 }, 1, FALSE },
  };
  static const double orders[] = { 2, 1, 0, 3.5, INFINITY, -INFINITY };
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;

  if (device == NULL)
    return;

  for (LtDType dtype = LT_DTYPE_BOOL; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    if (computes (data, dtype))
    {
      g_autoptr (LtTensor) host = reduce_input (dtype);
      g_autoptr (LtTensor) on_device = to_device (host, device);
      g_autoptr (LtTensor) on_device_view = lt_tensor_permute (on_device, (const int[]) { 0, 1, 2 },
                                                               3, &error);
      const char *name = lt_dtype_get_name (dtype);

      g_assert_no_error (error);
      for (guint c = 0; c < G_N_ELEMENTS (choices); c++)
        {
          const int *dims = choices[c].n_dims > 0 ? choices[c].dims : NULL;
          guint n_dims = choices[c].n_dims;
          gboolean keepdim = choices[c].keepdim;

          for (guint f = 0; f < G_N_ELEMENTS (funcs); f++)
            {
              GError *expected_error = NULL, *got_error = NULL;
              g_autoptr (LtTensor) expected = funcs[f].func (host, dims, n_dims, keepdim,
                                                             &expected_error);
              g_autoptr (LtTensor) got = funcs[f].func (on_device_view, dims, n_dims, keepdim,
                                                        &got_error);
              g_autofree char *what = g_strdup_printf ("%s (choice %u) of %s", funcs[f].name, c,
                                                       name);

              assert_same_result (what, expected, expected_error, got, got_error, TRUE);
            }
          for (guint stat = 0; stat < 2; stat++)
            {
              GError *expected_error = NULL, *got_error = NULL;
              g_autoptr (LtTensor) expected = NULL;
              g_autoptr (LtTensor) got = NULL;
              g_autofree char *what = g_strdup_printf ("%s (choice %u) of %s",
                                                       stat ? "std" : "var", c, name);

              expected = (stat ? lt_tensor_std : lt_tensor_var) (host, dims, n_dims, 1, keepdim,
                                                                 &expected_error);
              got = (stat ? lt_tensor_std : lt_tensor_var) (on_device_view, dims, n_dims, 1,
                                                            keepdim, &got_error);
              assert_same_result (what, expected, expected_error, got, got_error, TRUE);
            }
          for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
            {
              GError *expected_error = NULL, *got_error = NULL;
              g_autoptr (LtTensor) expected = lt_tensor_norm (host, orders[o], dims, n_dims,
                                                              keepdim, &expected_error);
              g_autoptr (LtTensor) got = lt_tensor_norm (on_device_view, orders[o], dims, n_dims,
                                                         keepdim, &got_error);
              g_autofree char *what = g_strdup_printf ("norm %g (choice %u) of %s", orders[o], c,
                                                       name);

              assert_same_result (what, expected, expected_error, got, got_error, TRUE);
            }
        }

      /* Extremes with their indices, along each dim. */
      for (int dim = -1; dim < 3; dim++)
        for (guint which = 0; which < 2; which++)
          {
            GError *expected_error = NULL, *got_error = NULL;
            g_autoptr (LtTensor) expected = NULL, expected_indices = NULL;
            g_autoptr (LtTensor) got = NULL, got_indices = NULL;
            g_autofree char *what = g_strdup_printf ("%s along %d of %s", which ? "min" : "max",
                                                     dim, name);
            gboolean expected_ok, got_ok;

            if (dim < 0)
              {
                expected_indices = (which ? lt_tensor_argmin_all : lt_tensor_argmax_all) (
                  host, &expected_error);
                got_indices = (which ? lt_tensor_argmin_all : lt_tensor_argmax_all) (
                  on_device_view, &got_error);
                assert_same_result (what, expected_indices, expected_error, got_indices,
                                    got_error, FALSE);
                continue;
              }
            expected_ok = (which ? lt_tensor_min_dim : lt_tensor_max_dim) (
              host, dim, FALSE, &expected, &expected_indices, &expected_error);
            got_ok = (which ? lt_tensor_min_dim : lt_tensor_max_dim) (
              on_device_view, dim, FALSE, &got, &got_indices, &got_error);
            g_assert_cmpint (expected_ok, ==, got_ok);
            if (!expected_ok)
              {
                assert_same_result (what, NULL, expected_error, NULL, got_error, FALSE);
                continue;
              }
            assert_same_result (what, expected, NULL, got, NULL, FALSE);
            assert_same_result (what, expected_indices, NULL, got_indices, NULL, FALSE);
          }
      /* Along one dim: running sums and products, softmaxes. */
      for (int dim = 0; dim < 3; dim++)
        for (guint which = 0; which < 4; which++)
          {
            static const char *const names[] = { "cumsum", "cumprod", "softmax", "log_softmax" };
            LtTensor *(*func) (LtTensor *, int, GError **) = which == 0   ? lt_tensor_cumsum
                                                             : which == 1 ? lt_tensor_cumprod
                                                             : which == 2 ? lt_tensor_softmax
                                                                          : lt_tensor_log_softmax;
            GError *expected_error = NULL, *got_error = NULL;
            g_autoptr (LtTensor) expected = func (host, dim, &expected_error);
            g_autoptr (LtTensor) got = func (on_device_view, dim, &got_error);
            g_autofree char *what = g_strdup_printf ("%s along %d of %s", names[which], dim,
                                                     name);

            assert_same_result (what, expected, expected_error, got, got_error, TRUE);
          }

      /* allclose against a nudged copy, a broadcast one, itself. */
      {
        g_autoptr (LtTensor) nudge = lt_dtype_is_complex (dtype)
                                       ? lt_tensor_new_scalar_complex (1e-6, 1e-6)
                                       : lt_tensor_new_scalar_double (1e-6);
        g_autoptr (LtTensor) nudged = lt_tensor_binary (host, LT_BINARY_OP_ADD, nudge, &error);
        g_autoptr (LtTensor) nudged_same = NULL;
        g_autoptr (LtTensor) nudged_dev = NULL;
        g_autoptr (LtTensor) row = NULL, row_dev = NULL;

        g_assert_no_error (error);
        nudged_same = lt_tensor_to_dtype (nudged, dtype, &error);
        g_assert_no_error (error);
        nudged_dev = to_device (nudged_same, device);
        row = lt_tensor_select (host, 0, 1, &error);
        g_assert_no_error (error);
        row_dev = lt_tensor_select (on_device_view, 0, 1, &error);
        g_assert_no_error (error);
        for (guint k = 0; k < 6; k++)
          {
            LtTensor *other_host = k % 3 == 0 ? host : k % 3 == 1 ? nudged_same : row;
            LtTensor *other_dev = k % 3 == 0 ? on_device_view : k % 3 == 1 ? nudged_dev : row_dev;
            double rtol = k < 3 ? 0 : 1e-3;
            gboolean equal_nan = k >= 3;
            gboolean expected = FALSE, got = FALSE;
            GError *expected_error = NULL, *got_error = NULL;
            gboolean expected_ok = lt_tensor_allclose (host, other_host, rtol, 1e-9, equal_nan,
                                                       &expected, &expected_error);
            gboolean got_ok = lt_tensor_allclose (on_device_view, other_dev, rtol, 1e-9,
                                                  equal_nan, &got, &got_error);

            g_assert_cmpint (expected_ok, ==, got_ok);
            if (!expected_ok)
              {
                g_assert_error (got_error, expected_error->domain, expected_error->code);
                g_error_free (expected_error);
                g_error_free (got_error);
                continue;
              }
            if (expected != got)
              g_error ("allclose %u of %s: the device says %d, the CPU %d", k, name, got,
                       expected);
          }
      }
      g_test_message ("%s: every reduction as on the CPU", name);
    }

  /* Reductions over nothing give the op's identity; of nothing, nothing. */
  {
    g_autoptr (LtTensor) empty = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (0, 3), 2, &error);
    g_autoptr (LtTensor) empty_dev = NULL;

    g_assert_no_error (error);
    empty_dev = to_device (empty, device);
    for (guint f = 0; f < G_N_ELEMENTS (funcs); f++)
      for (int dim = 0; dim < 2; dim++)
        {
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = funcs[f].func (empty, &dim, 1, FALSE, &expected_error);
          g_autoptr (LtTensor) got = funcs[f].func (empty_dev, &dim, 1, FALSE, &got_error);
          g_autofree char *what = g_strdup_printf ("%s over dim %d of an empty tensor",
                                                   funcs[f].name, dim);

          assert_same_result (what, expected, expected_error, got, got_error, FALSE);
        }
  }
}

/* A seed gives the same tensor on the device as on the CPU: uniform
 * values, integers and Bernoulli draws bit for bit, normal values within
 * the math tolerances; fills of views follow the view's row-major order. */
static void
test_random_matches_the_cpu (gconstpointer data)
{
  static const LtDType dtypes[] = {
    LT_DTYPE_BOOL, LT_DTYPE_UINT8, LT_DTYPE_INT32, LT_DTYPE_INT64, LT_DTYPE_FLOAT16,
    LT_DTYPE_BFLOAT16, LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX64, LT_DTYPE_COMPLEX128,
  };
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;

  if (device == NULL)
    return;

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (guint distribution = 0; distribution < 5 && computes (data, dtypes[d]); distribution++)
      {
        g_autoptr (LtTensor) host = lt_tensor_new_zeros (dtypes[d], I64S (6, 5), 2, &error);
        g_autoptr (LtTensor) on_device = to_device (host, device);
        g_autoptr (LtTensor) host_view = lt_tensor_t (host, &error);
        g_autoptr (LtTensor) device_view = lt_tensor_t (on_device, &error);
        g_autoptr (LtGenerator) host_generator = lt_generator_new (2024 + distribution);
        g_autoptr (LtGenerator) device_generator = lt_generator_new (2024 + distribution);
        g_autoptr (LtTensor) probabilities = NULL, probabilities_dev = NULL;
        GError *expected_error = NULL, *got_error = NULL;
        gboolean expected_ok = FALSE, got_ok = FALSE;
        g_autofree char *what = g_strdup_printf ("distribution %u on %s", distribution,
                                                 lt_dtype_get_name (dtypes[d]));

        g_assert_no_error (error);
        switch (distribution)
          {
          case 0:
            expected_ok = lt_tensor_uniform_ (host_view, host_generator, -2, 3, &expected_error);
            got_ok = lt_tensor_uniform_ (device_view, device_generator, -2, 3, &got_error);
            break;
          case 1:
            expected_ok = lt_tensor_normal_ (host_view, host_generator, 1, 2, &expected_error);
            got_ok = lt_tensor_normal_ (device_view, device_generator, 1, 2, &got_error);
            break;
          case 2:
            expected_ok = lt_tensor_random_ (host_view, host_generator, -3, 90, &expected_error);
            got_ok = lt_tensor_random_ (device_view, device_generator, -3, 90, &got_error);
            break;
          case 3:
            expected_ok = lt_tensor_bernoulli_ (host_view, host_generator, 0.3, &expected_error);
            got_ok = lt_tensor_bernoulli_ (device_view, device_generator, 0.3, &got_error);
            break;
          default:
            {
              /* Each element's own probability, from a float tensor. */
              g_autoptr (LtTensor) base = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (5, 6), 2,
                                                               &error);
              g_autoptr (LtGenerator) p_generator = lt_generator_new (9);

              g_assert_no_error (error);
              g_assert_true (lt_tensor_uniform_ (base, p_generator, 0, 1, &error));
              g_autoptr (LtTensor) base_dev = to_device (base, device);

              probabilities = lt_tensor_t (base, &error);
              probabilities_dev = lt_tensor_t (base_dev, &error);
              {
                g_autoptr (LtTensor) drawn = lt_tensor_bernoulli (probabilities, host_generator,
                                                                  &expected_error);
                g_autoptr (LtTensor) drawn_dev = lt_tensor_bernoulli (probabilities_dev,
                                                                      device_generator,
                                                                      &got_error);

                assert_same_result (what, drawn, expected_error, drawn_dev, got_error, FALSE);
              }
              continue;
            }
          }
        g_assert_cmpint (expected_ok, ==, got_ok);
        if (!expected_ok)
          {
            assert_same_result (what, NULL, expected_error, NULL, got_error, FALSE);
            continue;
          }
        assert_same_result (what, host, NULL, on_device, NULL, distribution == 1);
      }
}

/* Matrix products on the device give the CPU's: batched with broadcast
 * batch dims, transposed and sliced operands, every dtype (float ones
 * within the math tolerances: the CPU's BLAS sums in another order), and
 * the same refusals. */
static void
test_matmul_matches_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;

  if (device == NULL)
    return;

  for (LtDType dtype = LT_DTYPE_BOOL; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    if (computes (data, dtype))
    {
      double values[2 * 3 * 4];
      g_autoptr (LtTensor) wide = NULL, a = NULL, b = NULL, a_dev = NULL, b_dev = NULL;
      g_autoptr (LtTensor) b_t = NULL, b_dev_t = NULL, a_row = NULL, a_dev_row = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        values[k] = (double) ((k * 7) % 11) - 4 + (k % 3) * 0.25;
      wide = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, G_N_ELEMENTS (values),
                                      I64S (2, 3, 4), 3, &error);
      g_assert_no_error (error);
      a = lt_tensor_to_dtype (wide, dtype, &error);
      g_assert_no_error (error);
      /* b: (4, 3) from a's first batch, transposed. */
      {
        g_autoptr (LtTensor) first = lt_tensor_select (a, 0, 0, &error);

        g_assert_no_error (error);
        b = lt_tensor_t (first, &error);
        g_assert_no_error (error);
      }
      a_dev = to_device (a, device);
      {
        g_autoptr (LtTensor) first = lt_tensor_select (a_dev, 0, 0, &error);

        b_dev = lt_tensor_t (first, &error);
        g_assert_no_error (error);
      }
      b_t = lt_tensor_t (b, &error);
      b_dev_t = lt_tensor_t (b_dev, &error);
      a_row = lt_tensor_select (a, 1, 2, &error);
      a_dev_row = lt_tensor_select (a_dev, 1, 2, &error);
      g_assert_no_error (error);

      for (guint form = 0; form < 4; form++)
        {
          /* (2, 3, 4) @ (4, 3): a batch against one matrix; (4, 3) @ (3, 4);
           * a row (2, 4) of each batch @ (4, 3); (3, 4) @ (4, 3) of views. */
          LtTensor *x = form == 0 ? a : form == 1 ? b : form == 2 ? a_row : b_t;
          LtTensor *y = form == 0 ? b : form == 1 ? b_t : form == 2 ? b : b;
          LtTensor *x_dev = form == 0 ? a_dev : form == 1 ? b_dev : form == 2 ? a_dev_row : b_dev_t;
          LtTensor *y_dev = form == 0 ? b_dev : form == 1 ? b_dev_t : form == 2 ? b_dev : b_dev;
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = lt_tensor_matmul (x, y, &expected_error);
          g_autoptr (LtTensor) got = lt_tensor_matmul (x_dev, y_dev, &got_error);
          g_autofree char *what = g_strdup_printf ("matmul form %u of %s", form,
                                                   lt_dtype_get_name (dtype));

          assert_same_result (what, expected, expected_error, got, got_error, TRUE);
        }
    }
}

/* Products large enough for a device BLAS (CLBlast, cuBLAS) where there is
 * one: a transposed operand, a batch broadcast against one matrix. */
static void
test_blas_products_match_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;

  if (device == NULL)
    return;

  for (guint transposed = 0; transposed < 2; transposed++)
    {
      g_autoptr (LtGenerator) generator = lt_generator_new (11);
      g_autoptr (LtTensor) x = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (2, 130, 140), 3,
                                                    &error);
      g_autoptr (LtTensor) y = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (150, 140), 2, &error);
      g_autoptr (LtTensor) y_view = NULL, x_dev = NULL, y_dev = NULL, y_dev_view = NULL;
      g_autoptr (LtTensor) expected = NULL, got = NULL;

      g_assert_no_error (error);
      g_assert_true (lt_tensor_uniform_ (x, generator, -1, 1, &error));
      g_assert_true (lt_tensor_uniform_ (y, generator, -1, 1, &error));
      x_dev = to_device (x, device);
      y_dev = to_device (y, device);
      y_view = lt_tensor_t (y, &error);
      y_dev_view = lt_tensor_t (y_dev, &error);
      g_assert_no_error (error);
      if (!transposed)
        {
          g_set_object (&y_view, NULL);
          g_set_object (&y_dev_view, NULL);
          {
            g_autoptr (LtTensor) t = lt_tensor_t (y, &error);
            g_autoptr (LtTensor) t_dev = lt_tensor_t (y_dev, &error);

            y_view = lt_tensor_contiguous (t, &error);
            y_dev_view = lt_tensor_contiguous (t_dev, &error);
          }
        }
      g_assert_no_error (error);
      expected = lt_tensor_matmul (x, y_view, &error);
      g_assert_no_error (error);
      got = lt_tensor_matmul (x_dev, y_dev_view, &error);
      g_assert_no_error (error);
      assert_same_result ("large matmul", expected, NULL, got, NULL, TRUE);
    }
}

/* A float32 or float64 product of 130 x 140 x 150 on the test's device,
 * checked against the CPU's; large enough for CLBlast (2.73e6
 * multiply-adds). */
static void
product_of_size_for_blas (LtDevice *device,
                          LtDType   dtype)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtGenerator) generator = lt_generator_new (5);
  g_autoptr (LtTensor) x = lt_tensor_new_zeros (dtype, I64S (130, 140), 2, &error);
  g_autoptr (LtTensor) y = lt_tensor_new_zeros (dtype, I64S (140, 150), 2, &error);
  g_autoptr (LtTensor) x_dev = NULL, y_dev = NULL, expected = NULL, got = NULL;

  g_assert_no_error (error);
  g_assert_true (lt_tensor_uniform_ (x, generator, -1, 1, &error));
  g_assert_true (lt_tensor_uniform_ (y, generator, -1, 1, &error));
  x_dev = to_device (x, device);
  y_dev = to_device (y, device);
  expected = lt_tensor_matmul (x, y, &error);
  g_assert_no_error (error);
  got = lt_tensor_matmul (x_dev, y_dev, &error);
  g_assert_no_error (error);
  assert_same_result ("product for BLAS", expected, NULL, got, NULL, TRUE);
}

/* The backend's debug messages about CLBlast, while a test listens. */
static void
keep_blas_message (const char     *log_domain,
                   GLogLevelFlags  log_level,
                   const char     *message,
                   gpointer        user_data)
{
  if (strstr (message, "CLBlast") != NULL || strstr (message, "element kernel") != NULL)
    g_ptr_array_add (user_data, g_strdup (message));
}

/* The one message of the backend a product of 2.73e6 multiply-adds in
 * @dtype led to. */
static char *
blas_message_of_product (LtDevice *device,
                         LtDType   dtype)
{
  g_autoptr (GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  guint handler = g_log_set_handler ("Lt", G_LOG_LEVEL_DEBUG, keep_blas_message, messages);

  product_of_size_for_blas (device, dtype);
  g_log_remove_handler ("Lt", handler);
  g_assert_cmpuint (messages->len, >=, 1);
  return g_strdup (g_ptr_array_index (messages, messages->len - 1));
}

/* The running total of work put off in a message saying a product took the
 * element kernel: "(N of M multiply-adds done so far)". */
static double
work_put_off (const char *message)
{
  const char *total = strrchr (message, '(');

  g_assert_nonnull (total);
  return g_ascii_strtod (total + 1, NULL);
}

/* CLBlast builds all its kernels for a precision on first use, some 20 s
 * on PoCL, so on a CPU device products take the element kernel until it
 * has done about as much work, counted per precision (lt-opencl-blas.c);
 * with LT_OPENCL_CLBLAST=always (the run device-tensors-clblast) they go
 * to CLBlast at once. The backend says which at debug level. */
static void
test_clblast_policy (gconstpointer data)
{
#ifdef HAVE_CLBLAST
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  const char *policy = g_getenv ("LT_OPENCL_CLBLAST");

  if (device == NULL)
    return;
  name = lt_device_get_name (device, &error);
  g_assert_no_error (error);

  if (g_strcmp0 (policy, "always") == 0)
    {
      g_autofree char *message = blas_message_of_product (device, LT_DTYPE_FLOAT32);

      g_assert_cmpstr (message, ==,
                       "opencl:0: a float32 product of 2.73e+06 multiply-adds goes to CLBlast");
    }
  else if (policy == NULL && g_str_has_prefix (name, "Portable Computing Language"))
    {
      g_autofree char *first = blas_message_of_product (device, LT_DTYPE_FLOAT32);
      g_autofree char *second = blas_message_of_product (device, LT_DTYPE_FLOAT32);

      g_assert_true (g_str_has_prefix (first, "opencl:0: a float32 product of 2.73e+06 "
                                              "multiply-adds takes the element kernel: "));
      g_assert_true (g_str_has_suffix (first, " of 8000000000 multiply-adds done so far)"));
      /* The work adds up... */
      g_assert_true (g_str_has_prefix (second, "opencl:0: a float32 product of 2.73e+06 "
                                               "multiply-adds takes the element kernel: "));
      g_assert_cmpfloat (work_put_off (second) - work_put_off (first), ==, 130 * 140 * 150);
      /* ... per precision. */
      if (!opencl_without_fp64)
        {
          g_autofree char *wide = blas_message_of_product (device, LT_DTYPE_FLOAT64);

          g_assert_true (g_str_has_prefix (wide, "opencl:0: a float64 product of 2.73e+06 "
                                                 "multiply-adds takes the element kernel: "));
          g_assert_cmpfloat (work_put_off (wide), <, work_put_off (second));
        }
    }
  else
    {
      g_test_skip ("the CLBlast policy is checked on PoCL, with LT_OPENCL_CLBLAST unset or "
                   "always");
    }
#else
  g_test_skip ("libtensor was built without CLBlast");
#endif
}

static void
test_printing (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (LtTensor) floats = NULL;
  g_autoptr (LtTensor) ints = NULL;
  g_autofree char *float_text = NULL;
  g_autofree char *int_text = NULL;
  g_autofree char *name = NULL;
  g_autofree char *float_expected = NULL;
  g_autofree char *int_expected = NULL;

  if (device == NULL)
    return;
  name = lt_device_to_string (device);
  float_expected = g_strdup_printf ("tensor([1.5000, 2.0000], device='%s')", name);
  int_expected = g_strdup_printf ("tensor([[1, 2]], device='%s', dtype=torch.int32)", name);
  floats = literal_on ("[1.5, 2]", LT_DTYPE_FLOAT32, device);
  ints = literal_on ("[[1, 2]]", LT_DTYPE_INT32, device);
  float_text = lt_tensor_to_string (floats);
  int_text = lt_tensor_to_string (ints);
  g_assert_cmpstr (float_text, ==, float_expected);
  g_assert_cmpstr (int_text, ==, int_expected);
}

/* Operations without device kernels yet refuse device tensors in words,
 * and mixing devices is refused as PyTorch refuses it. Nothing crashes and
 * the device tensor is untouched. */
static void
test_refusals (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (LtTensor) host = NULL;
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = NULL;
  gint64 at[] = { 0, 1 };
  double value = 0;

  if (device == NULL)
    return;
  host = literal ("[[1, 2], [3, 4]]", LT_DTYPE_FLOAT32);
  on_device = to_device (host, device);

  /* A copy whose dims cannot be merged into the 16 device kernels walk:
   * 18 dims of 2, reversed, copied into a contiguous tensor. The CPU
   * copies it; a device says what it cannot do, and how to get round it. */
  {
    gint64 sizes[18];
    int reversed[18];
    g_autoptr (LtTensor) deep = NULL, deep_dev = NULL, turned = NULL, copy = NULL;

    for (guint d = 0; d < 18; d++)
      {
        sizes[d] = 2;
        reversed[d] = 17 - (int) d;
      }
    deep = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, sizes, 18, &error);
    g_assert_no_error (error);
    deep_dev = to_device (deep, device);
    turned = lt_tensor_permute (deep_dev, reversed, 18, &error);
    g_assert_no_error (error);
    copy = lt_tensor_contiguous (turned, &error);
    g_assert_null (copy);
    g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
    g_assert_nonnull (strstr (error->message, "device kernels handle 16 dims that cannot be "
                                              "merged, and this one has 18; work on it in parts"));
    g_clear_error (&error);
  }

  /* Mixed devices in a product. */
  result = lt_tensor_matmul (on_device, host, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "same device"));
  g_clear_error (&error);


  /* Single elements cross to and from the host one at a time. */
  g_assert_true (lt_tensor_get_double (on_device, at, 2, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value, ==, 2);
  {
    g_autoptr (LtTensor) view = lt_tensor_t (on_device, &error);
    gint64 element = 0;

    g_assert_true (lt_tensor_set_int64 (view, at, 2, 7, &error));
    g_assert_no_error (error);
    g_assert_true (lt_tensor_get_int64 (on_device, (const gint64[]) { 1, 0 }, 2, &element,
                                        &error));
    g_assert_cmpint (element, ==, 7);
    g_assert_false (lt_tensor_get_double (on_device, (const gint64[]) { 2, 0 }, 2, &value,
                                          &error));
    g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
    g_clear_error (&error);
    g_assert_true (lt_tensor_set_int64 (view, at, 2, 3, &error));
  }

  /* A CPU tensor meeting a device tensor in an operation. */
  result = lt_tensor_add (host, on_device, 1, &error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_clear_error (&error);

  g_assert_true (lt_tensor_equal (on_device, host));
}

static void
test_device_storage (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtDevice) where = NULL;
  LtStorage *storage;
  const gint16 expected[] = { 5, -6, 7 };
  double value = 0;

  if (device == NULL)
    return;
  on_device = literal_on ("[5, -6, 7]", LT_DTYPE_INT16, device);
  storage = lt_tensor_get_storage (on_device);
  where = lt_storage_get_device (storage);
  g_assert_true (lt_device_equal (where, device));
  g_assert_cmpint (lt_storage_get_device_type (storage), ==, GPOINTER_TO_INT (data));

  /* Not host memory: no pointer, no address; the bytes are a copy. */
  g_assert_null (lt_storage_get_data (storage));
  g_assert_cmpuint (lt_storage_get_data_address (storage), ==, 0);
  bytes = lt_storage_get_bytes (storage, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected,
                   sizeof expected);

  /* Single elements cross one at a time. */
  g_assert_true (lt_storage_set_double (storage, 1, 100, &error));
  g_assert_no_error (error);
  g_assert_true (lt_storage_get_double (storage, 1, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value, ==, 100);
  g_assert_false (lt_storage_get_double (storage, 3, &value, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
}

/* That @error is an OpenCL device's refusal to compute with float64. */
static void
assert_no_fp64_error (GError *error)
{
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "has no float64 support"));
}

/* An OpenCL device without float64 (the run of this program that sets
 * LT_OPENCL_NO_FP64, making any device compute so, adds this test) keeps and moves float64
 * and complex128 tensors, refuses to compute with them with a clear error,
 * and computes everything else in float. */
static void
test_without_fp64 (gconstpointer data)
{
  g_autoptr (LtDevice) device = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = NULL;
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (LtTensor) column = NULL;
  g_autoptr (LtTensor) back = NULL;
  g_autoptr (LtGenerator) generator = lt_generator_new (7);

  device = test_device (data);
  if (device == NULL)
    return;

  /* Stored, viewed, filled, copied and read back. */
  host = literal ("[[1.5, -2], [3, 1e300]]", LT_DTYPE_FLOAT64);
  on_device = to_device (host, device);
  column = lt_tensor_index (on_device, "[:, 0]", &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (column, 0.25, &error));
  g_assert_no_error (error);
  back = to_cpu (on_device);
  {
    g_autoptr (LtTensor) want = literal ("[[0.25, -2], [0.25, 1e300]]", LT_DTYPE_FLOAT64);

    g_assert_true (lt_tensor_equal (back, want));
  }

  /* Refused: arithmetic, conversions, reductions, products, random fills,
   * on float64 and complex128 alike. */
  {
    g_autoptr (LtTensor) sum = lt_tensor_add (on_device, on_device, 1, &error);

    g_assert_null (sum);
    assert_no_fp64_error (error);
    g_clear_error (&error);
  }
  {
    g_autoptr (LtTensor) narrowed = lt_tensor_to_dtype (on_device, LT_DTYPE_FLOAT32, &error);

    g_assert_null (narrowed);
    assert_no_fp64_error (error);
    g_clear_error (&error);
  }
  {
    g_autoptr (LtTensor) product = lt_tensor_matmul (on_device, on_device, &error);

    g_assert_null (product);
    assert_no_fp64_error (error);
    g_clear_error (&error);
  }
  g_assert_false (lt_tensor_normal_ (on_device, generator, 0, 1, &error));
  assert_no_fp64_error (error);
  g_clear_error (&error);
  back = (g_object_unref (back), to_cpu (on_device));
  {
    g_autoptr (LtTensor) want = literal ("[[0.25, -2], [0.25, 1e300]]", LT_DTYPE_FLOAT64);

    g_assert_true (lt_tensor_equal (back, want));
  }
  {
    g_autoptr (LtTensor) complex = literal ("[1, 2]", LT_DTYPE_COMPLEX128);
    g_autoptr (LtTensor) complex_dev = to_device (complex, device);
    g_autoptr (LtTensor) total = lt_tensor_sum (complex_dev, NULL, 0, FALSE, &error);

    g_assert_null (total);
    assert_no_fp64_error (error);
    g_clear_error (&error);
  }

  /* float32 sums add in float: 1e8 + 1 is 1e8 there, so this sums to 0 on
   * the device, 1 on the CPU (which adds in double). */
  {
    g_autoptr (LtTensor) values = literal ("[100000000, 1, -100000000]", LT_DTYPE_FLOAT32);
    g_autoptr (LtTensor) values_dev = to_device (values, device);
    g_autoptr (LtTensor) on_cpu = lt_tensor_sum (values, NULL, 0, FALSE, &error);
    g_autoptr (LtTensor) total = lt_tensor_sum (values_dev, NULL, 0, FALSE, &error);
    g_autoptr (LtTensor) shifted = NULL;
    g_autoptr (LtTensor) shifted_back = NULL;
    g_autoptr (LtTensor) want = literal ("[100000000.5, 1.5, -99999999.5]", LT_DTYPE_FLOAT32);

    g_autoptr (LtTensor) half = lt_tensor_new_scalar_double (0.5);
    double cpu_total = -1, device_total = -1;

    g_assert_no_error (error);
    g_assert_true (lt_tensor_get_double (on_cpu, NULL, 0, &cpu_total, &error));
    g_assert_true (lt_tensor_get_double (total, NULL, 0, &device_total, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (cpu_total, ==, 1);
    g_assert_cmpfloat (device_total, ==, 0);

    /* A Python float meets float32 on the device as float32. */
    shifted = lt_tensor_add (values_dev, half, 1, &error);
    g_assert_no_error (error);
    shifted_back = to_cpu (shifted);
    g_assert_true (lt_tensor_equal (shifted_back, want));
  }
}

static void
test_unavailable_device (void)
{
  g_autoptr (LtTensor) host = literal ("[1, 2]", LT_DTYPE_FLOAT32);
  g_autoptr (LtDevice) nowhere = lt_device_new (LT_DEVICE_TYPE_OPENCL, 4096);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) moved = lt_tensor_to_device (host, nowhere, &error);

  g_assert_null (moved);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_true (g_str_has_prefix (error->message, "opencl:4096 is not available: "));
}

/* @host's values on @device, through the CPU's result of @func's. */
static void
assert_line_func (const char  *what,
                  LtTensor   *(*func) (LtTensor *, int, GError **),
                  LtTensor    *host,
                  LtTensor    *on_device,
                  int          dim)
{
  GError *expected_error = NULL, *got_error = NULL;
  g_autoptr (LtTensor) expected = func (host, dim, &expected_error);
  g_autoptr (LtTensor) got = func (on_device, dim, &got_error);

  assert_same_result (what, expected, expected_error, got, got_error, TRUE);
}

/* Float32 lines where CUDA reads 16 bytes at a time (sums) or holds a
 * line in registers (softmaxes of up to 16384 elements): rows that start
 * off a 16-byte boundary and end between vectors, parts long enough for
 * each thread to have several vectors in flight, lines at the edges of
 * the register path and past it, and lines that are not contiguous. */
static void
test_long_float32_lines_match_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtGenerator) generator = lt_generator_new (1234);
  g_autoptr (LtTensor) host = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (3, 40001), 2, &error);
  g_autoptr (LtTensor) on_device = NULL;
  static const struct
  {
    const char *index;
    int dim;
  } lines[] = {
    { "[:, :]", 1 },          /* rows of 40001: sums in vectors, softmax past registers */
    { "[:, 1:]", 1 },         /* rows starting 4 bytes past a vector */
    { "[:, 3:16387]", 1 },    /* the longest softmax held in registers */
    { "[:, 5:1029]", 1 },     /* the shortest softmax a block takes */
    { "[:, 2:1031]", 1 },     /* one element past it */
    { "[:, :3000]", 0 },      /* lines of 3 */
  };

  if (device == NULL)
    return;
  g_assert_no_error (error);
  g_assert_true (lt_tensor_uniform_ (host, generator, -40, 40, &error));
  g_assert_no_error (error);
  on_device = to_device (host, device);
  for (guint l = 0; l < G_N_ELEMENTS (lines); l++)
    {
      g_autoptr (LtTensor) view = lt_tensor_index (host, lines[l].index, &error);
      g_autoptr (LtTensor) view_dev = lt_tensor_index (on_device, lines[l].index, &error);
      g_autoptr (LtTensor) column = NULL, column_dev = NULL;
      g_autofree char *softmax = g_strdup_printf ("softmax along %d of %s", lines[l].dim,
                                                  lines[l].index);
      g_autofree char *log_softmax = g_strdup_printf ("log_softmax along %d of %s",
                                                      lines[l].dim, lines[l].index);
      g_autofree char *column_softmax = g_strdup_printf ("softmax along 0 of %s transposed",
                                                         lines[l].index);

      g_assert_no_error (error);
      assert_line_func (softmax, lt_tensor_softmax, view, view_dev, lines[l].dim);
      assert_line_func (log_softmax, lt_tensor_log_softmax, view, view_dev, lines[l].dim);
      /* The same lines as columns: a line's elements far apart. */
      column = lt_tensor_t (view, &error);
      column_dev = lt_tensor_t (view_dev, &error);
      g_assert_no_error (error);
      assert_line_func (column_softmax, lt_tensor_softmax, column, column_dev, 1 - lines[l].dim);
      for (guint r = 0; r < 2; r++)
        {
          const int dims[] = { lines[l].dim };
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = lt_tensor_sum (view, dims, 1 - r, FALSE,
                                                         &expected_error);
          g_autoptr (LtTensor) got = lt_tensor_sum (view_dev, dims, 1 - r, FALSE, &got_error);
          g_autofree char *what = g_strdup_printf ("sum %s of %s", r == 0 ? "along" : "of all",
                                                   lines[l].index);

          assert_same_result (what, expected, expected_error, got, got_error, TRUE);
        }
    }

  /* Softmax lines of contiguous rows: the longest CUDA holds in
   * registers, and short ones from starts 16 and 8 bytes in. */
  {
    g_autoptr (LtTensor) block = lt_tensor_index (host, "[:, :32768]", &error);
    g_autoptr (LtTensor) block_dev = lt_tensor_index (on_device, "[:, :32768]", &error);
    g_autoptr (LtTensor) rows = lt_tensor_reshape (block, I64S (6, 16384), 2, &error);
    g_autoptr (LtTensor) rows_dev = lt_tensor_reshape (block_dev, I64S (6, 16384), 2, &error);
    static const char *const indices[] = { "[:, :]", "[:, 4:1028]", "[:, 2:1030]" };

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (indices); i++)
      {
        g_autoptr (LtTensor) view = lt_tensor_index (rows, indices[i], &error);
        g_autoptr (LtTensor) view_dev = lt_tensor_index (rows_dev, indices[i], &error);
        g_autofree char *softmax = g_strdup_printf ("softmax of rows%s", indices[i]);
        g_autofree char *log_softmax = g_strdup_printf ("log_softmax of rows%s", indices[i]);

        g_assert_no_error (error);
        assert_line_func (softmax, lt_tensor_softmax, view, view_dev, 1);
        assert_line_func (log_softmax, lt_tensor_log_softmax, view, view_dev, 1);
      }
  }

  /* Softmax lines where -inf decides: elements of -inf give 0, also
   * where a device thread's elements are all -inf (every 512th element
   * from the 7th and from the 23rd: lanes that a warp joins), and a line
   * all -inf is NaN, as exp (-inf - -inf) is. */
  {
    g_autoptr (LtTensor) inf_lines = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (2, 4096), 2, &error);
    g_autoptr (LtTensor) last = NULL, inf_lines_dev = NULL;

    g_assert_no_error (error);
    g_assert_true (lt_tensor_uniform_ (inf_lines, generator, -5, 5, &error));
    for (gint64 t = 7; t < 4096; t += 512)
      {
        g_assert_true (lt_tensor_set_double (inf_lines, I64S (0, t), 2, -INFINITY, &error));
        g_assert_true (lt_tensor_set_double (inf_lines, I64S (0, t + 16), 2, -INFINITY, &error));
      }
    last = lt_tensor_index (inf_lines, "[1]", &error);
    g_assert_no_error (error);
    g_assert_true (lt_tensor_fill (last, -INFINITY, &error));
    g_assert_no_error (error);
    inf_lines_dev = to_device (inf_lines, device);
    assert_line_func ("softmax of lines with -inf", lt_tensor_softmax, inf_lines, inf_lines_dev, 1);
    assert_line_func ("log_softmax of lines with -inf", lt_tensor_log_softmax, inf_lines, inf_lines_dev,
                      1);
  }

  /* Sums and means over columns, which CUDA reads four columns at a time
   * where they are 16-byte aligned: 64 columns (many rows to a thread),
   * columns from an aligned and from an unaligned start, groups of four
   * that never cross a kept row, and a reversed reduced dim. Of the
   * values' magnitudes: sums of signed values cancel to a few units, and
   * a device without float64 sums in float, too far from the CPU's
   * double for a relative tolerance. */
  {
    g_autoptr (LtTensor) magnitudes = lt_tensor_unary (host, LT_UNARY_OP_ABS, &error);
    g_autoptr (LtTensor) magnitudes_dev = NULL;

    g_assert_no_error (error);
    magnitudes_dev = to_device (magnitudes, device);
    static const struct
    {
      const char *index;
      int dim;
    } sums[] = {
      { "[:, :]", 0 }, { "[:, 8:]", 0 }, { "[:, 1:61]", 0 }, { "[::-1, :]", 0 },
      { "[:, 2, :]", 0 }, { "[:, :, :]", 1 },
    };

    for (guint s = 0; s < G_N_ELEMENTS (sums); s++)
      {
        g_autoptr (LtTensor) view = NULL, view_dev = NULL;
        const char *shape = s < 4 ? "(1875, 64)" : "(50, 300, 8)";

        {
          g_autoptr (LtTensor) block = lt_tensor_index (magnitudes, "[:, :40000]", &error);
          g_autoptr (LtTensor) block_dev = lt_tensor_index (magnitudes_dev, "[:, :40000]",
                                                            &error);
          g_autoptr (LtTensor) reshaped = NULL, reshaped_dev = NULL;

          g_assert_no_error (error);
          reshaped = lt_tensor_reshape (block, s < 4 ? I64S (1875, 64) : I64S (50, 300, 8),
                                        s < 4 ? 2 : 3, &error);
          reshaped_dev = lt_tensor_reshape (block_dev, s < 4 ? I64S (1875, 64) : I64S (50, 300, 8),
                                            s < 4 ? 2 : 3, &error);
          g_assert_no_error (error);
          view = lt_tensor_index (reshaped, sums[s].index, &error);
          view_dev = lt_tensor_index (reshaped_dev, sums[s].index, &error);
          g_assert_no_error (error);
        }
        for (guint m = 0; m < 2; m++)
          {
            const int dims[] = { sums[s].dim };
            GError *expected_error = NULL, *got_error = NULL;
            LtTensor *(*func) (LtTensor *, const int *, guint, gboolean, GError **)
              = m == 0 ? lt_tensor_sum : lt_tensor_mean;
            g_autoptr (LtTensor) expected = func (view, dims, 1, FALSE, &expected_error);
            g_autoptr (LtTensor) got = func (view_dev, dims, 1, FALSE, &got_error);
            g_autofree char *what = g_strdup_printf ("%s along %d of %s%s", m == 0 ? "sum" : "mean",
                                                     sums[s].dim, shape, sums[s].index);

            assert_same_result (what, expected, expected_error, got, got_error, TRUE);
          }
      }
  }

  /* Element-wise ops that CUDA takes four float32 elements a vector:
   * each operand running along the rows or broadcast, from aligned and
   * unaligned starts, both ways round. */
  {
    g_autoptr (LtTensor) block = lt_tensor_index (host, "[:, :40000]", &error);
    g_autoptr (LtTensor) block_dev = lt_tensor_index (on_device, "[:, :40000]", &error);
    g_autoptr (LtTensor) matrix = lt_tensor_reshape (block, I64S (1875, 64), 2, &error);
    g_autoptr (LtTensor) matrix_dev = lt_tensor_reshape (block_dev, I64S (1875, 64), 2, &error);
    static const struct
    {
      const char *x, *y;
    } pairs[] = {
      { "[:, :]", "[3, :]" },       /* a row down the matrix */
      { "[:, :]", "[:, 5:6]" },     /* a column along each row */
      { "[:, 4:]", "[7, 4:]" },     /* from an aligned start */
      { "[:, 1:61]", "[2, 1:61]" }, /* from an unaligned start: element by element */
      { "[::2, :]", "[1::2, :]" },  /* every other row against the others */
    };
    static const LtBinaryOp ops[] = { LT_BINARY_OP_ADD, LT_BINARY_OP_SUB, LT_BINARY_OP_MUL,
                                      LT_BINARY_OP_DIV, LT_BINARY_OP_MAXIMUM };

    g_assert_no_error (error);
    for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
      for (guint swap = 0; swap < 2; swap++)
        {
          g_autoptr (LtTensor) x = lt_tensor_index (matrix, pairs[p].x, &error);
          g_autoptr (LtTensor) y = lt_tensor_index (matrix, pairs[p].y, &error);
          g_autoptr (LtTensor) x_dev = lt_tensor_index (matrix_dev, pairs[p].x, &error);
          g_autoptr (LtTensor) y_dev = lt_tensor_index (matrix_dev, pairs[p].y, &error);
          LtTensor *first = swap ? y : x, *second = swap ? x : y;
          LtTensor *first_dev = swap ? y_dev : x_dev, *second_dev = swap ? x_dev : y_dev;

          g_assert_no_error (error);
          for (guint o = 0; o <= G_N_ELEMENTS (ops); o++)
            {
              GError *expected_error = NULL, *got_error = NULL;
              g_autoptr (LtTensor) expected = NULL, got = NULL;
              g_autofree char *what = g_strdup_printf ("op %u of matrix%s and matrix%s%s", o,
                                                       pairs[p].x, pairs[p].y,
                                                       swap ? ", swapped" : "");

              /* The last: an add with a scale. */
              if (o == G_N_ELEMENTS (ops))
                {
                  expected = lt_tensor_add (first, second, 0.75, &expected_error);
                  got = lt_tensor_add (first_dev, second_dev, 0.75, &got_error);
                }
              else
                {
                  expected = lt_tensor_binary (first, ops[o], second, &expected_error);
                  got = lt_tensor_binary (first_dev, ops[o], second_dev, &got_error);
                }
              assert_same_result (what, expected, expected_error, got, got_error, FALSE);
            }
        }
  }
}

/* Integer running sums and products of long lines come out exact, in
 * whatever order a device joins them: sums and products wrap as the
 * CPU's do. */
static void
test_long_integer_scans_match_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  const LtDType dtypes[] = { LT_DTYPE_INT64, LT_DTYPE_INT32, LT_DTYPE_UINT8, LT_DTYPE_BOOL };

  if (device == NULL)
    return;
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtGenerator) generator = lt_generator_new (5);
      g_autoptr (LtTensor) values = lt_tensor_new_zeros (LT_DTYPE_FLOAT64, I64S (3, 5000), 2,
                                                         &error);
      g_autoptr (LtTensor) host = NULL, on_device = NULL;

      g_assert_no_error (error);
      g_assert_true (lt_tensor_uniform_ (values, generator, -9, 9, &error));
      g_assert_no_error (error);
      host = lt_tensor_to_dtype (values, dtypes[d], &error);
      g_assert_no_error (error);
      on_device = to_device (host, device);
      for (int dim = 0; dim < 2; dim++)
        {
          g_autofree char *cumsum = g_strdup_printf ("cumsum along %d of %s", dim,
                                                     lt_dtype_get_name (dtypes[d]));
          g_autofree char *cumprod = g_strdup_printf ("cumprod along %d of %s", dim,
                                                      lt_dtype_get_name (dtypes[d]));
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = lt_tensor_cumsum (host, dim, &expected_error);
          g_autoptr (LtTensor) got = lt_tensor_cumsum (on_device, dim, &got_error);

          assert_same_result (cumsum, expected, expected_error, got, got_error, FALSE);
          g_clear_object (&expected);
          g_clear_object (&got);
          expected = lt_tensor_cumprod (host, dim, &expected_error);
          got = lt_tensor_cumprod (on_device, dim, &got_error);
          assert_same_result (cumprod, expected, expected_error, got, got_error, FALSE);
        }
    }
}

/* Work big enough for what GPUs do only at size: softmax lines of
 * thousands (a block per line on CUDA), sums to few values (cut into
 * parts joined in order), half-precision and float sums (their own
 * walk), and copies that transpose (in tiles), batched too. */
static void
test_long_lines_match_the_cpu (gconstpointer data)
{
  g_autoptr (LtDevice) device = test_device (data);
  const LtDType dtypes[] = { LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64, LT_DTYPE_FLOAT16,
                             LT_DTYPE_BFLOAT16, LT_DTYPE_COMPLEX64 };

  if (device == NULL)
    return;
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      LtDType dtype = dtypes[d];
      const char *name = lt_dtype_get_name (dtype);
      g_autoptr (GError) error = NULL;
      g_autoptr (LtGenerator) generator = lt_generator_new (77);
      g_autoptr (LtTensor) host = lt_tensor_new_zeros (dtype, I64S (5, 3000), 2, &error);
      g_autoptr (LtTensor) long_row = lt_tensor_new_zeros (dtype, I64S (1, 1 << 20), 2, &error);
      g_autoptr (LtTensor) on_device = NULL, long_row_dev = NULL;
      g_autoptr (LtTensor) grid = NULL, batch = NULL, batch_dev = NULL, grid_dev = NULL;

      if (!computes (data, dtype))
        continue;
      g_assert_no_error (error);
      g_assert_true (lt_tensor_uniform_ (host, generator, -3, 3, &error));
      g_assert_true (lt_tensor_uniform_ (long_row, generator, -1, 1, &error));
      g_assert_no_error (error);
      if (!lt_dtype_is_complex (dtype))
        {
          g_assert_true (lt_tensor_set_double (host, I64S (3, 1717), 2, NAN, &error));
          g_assert_true (lt_tensor_set_double (host, I64S (4, 5), 2, -INFINITY, &error));
          g_assert_no_error (error);
        }
      on_device = to_device (host, device);
      long_row_dev = to_device (long_row, device);

      if (!lt_dtype_is_complex (dtype))
        for (int dim = 0; dim < 2; dim++)
          {
            g_autofree char *softmax = g_strdup_printf ("softmax along %d of %s", dim, name);
            g_autofree char *log_softmax = g_strdup_printf ("log_softmax along %d of %s", dim,
                                                            name);

            assert_line_func (softmax, lt_tensor_softmax, host, on_device, dim);
            assert_line_func (log_softmax, lt_tensor_log_softmax, host, on_device, dim);
          }
      for (guint r = 0; r < 5; r++)
        {
          static const char *const names[] = { "sum along 1", "sum along 0", "sum of all",
                                               "mean of the long row", "prod of the long row" };
          GError *expected_error = NULL, *got_error = NULL;
          g_autoptr (LtTensor) expected = NULL, got = NULL;
          g_autofree char *what = g_strdup_printf ("%s of %s", names[r], name);

          if (r < 3)
            {
              const int dims[] = { r == 0 ? 1 : 0 };

              expected = lt_tensor_sum (host, dims, r < 2 ? 1 : 0, FALSE, &expected_error);
              got = lt_tensor_sum (on_device, dims, r < 2 ? 1 : 0, FALSE, &got_error);
            }
          else
            {
              LtTensor *(*func) (LtTensor *, const int *, guint, gboolean, GError **)
                = r == 3 ? lt_tensor_mean : lt_tensor_prod;

              expected = func (long_row, NULL, 0, FALSE, &expected_error);
              got = func (long_row_dev, NULL, 0, FALSE, &got_error);
            }
          assert_same_result (what, expected, expected_error, got, got_error, TRUE);
        }

      /* Running sums and products of lines of thousands (a block per line
       * on CUDA, in chunks): with a NaN and an infinity in some, and of
       * the long row, whose products fade to zero. */
      {
        g_autoptr (LtTensor) row_start = lt_tensor_index (long_row, "[:, :3000]", &error);
        g_autoptr (LtTensor) row_start_dev = lt_tensor_index (long_row_dev, "[:, :3000]", &error);
        g_autofree char *cumsum = g_strdup_printf ("cumsum along 1 of %s", name);
        g_autofree char *cumsum_long = g_strdup_printf ("cumsum of the long row of %s", name);
        g_autofree char *cumprod = g_strdup_printf ("cumprod along 1 of %s", name);

        g_assert_no_error (error);
        assert_line_func (cumsum, lt_tensor_cumsum, host, on_device, 1);
        assert_line_func (cumsum_long, lt_tensor_cumsum, long_row, long_row_dev, 1);
        assert_line_func (cumprod, lt_tensor_cumprod, row_start, row_start_dev, 1);
      }

      /* Transposing copies: a matrix, and a batch of them. */
      grid = lt_tensor_index (host, "[:, :70]", &error);
      g_assert_no_error (error);
      grid_dev = lt_tensor_index (on_device, "[:, :70]", &error);
      g_assert_no_error (error);
      batch = lt_tensor_view (long_row, I64S (16, 256, 256), 3, &error);
      g_assert_no_error (error);
      batch_dev = lt_tensor_view (long_row_dev, I64S (16, 256, 256), 3, &error);
      g_assert_no_error (error);
      for (guint c = 0; c < 2; c++)
        {
          g_autoptr (LtTensor) host_view = c == 0 ? lt_tensor_t (grid, &error)
                                                  : lt_tensor_transpose (batch, 1, 2, &error);
          g_autoptr (LtTensor) device_view = c == 0 ? lt_tensor_t (grid_dev, &error)
                                                    : lt_tensor_transpose (batch_dev, 1, 2, &error);
          g_autoptr (LtTensor) expected = NULL, got = NULL;
          g_autofree char *what = g_strdup_printf ("%s of %s", c == 0 ? "t ().contiguous ()"
                                                   : "transpose (1, 2).contiguous ()", name);

          g_assert_no_error (error);
          expected = lt_tensor_contiguous (host_view, &error);
          g_assert_no_error (error);
          got = lt_tensor_contiguous (device_view, &error);
          g_assert_no_error (error);
          assert_same_result (what, expected, NULL, got, NULL, FALSE);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    LtDeviceType device_type;
  } kinds[] = {
    { "cuda", LT_DEVICE_TYPE_CUDA },
    { "opencl", LT_DEVICE_TYPE_OPENCL },
  };
  static const struct
  {
    const char *name;
    GTestDataFunc func;
  } tests[] = {
    { "round-trip", test_round_trip },
    { "views", test_views_of_device_tensors },
    { "fill-and-copy", test_fill_and_copy_on_device },
    { "conversions", test_conversions_match_the_cpu },
    { "pointwise", test_pointwise_matches_the_cpu },
    { "reductions", test_reductions_match_the_cpu },
    { "long-lines", test_long_lines_match_the_cpu },
    { "long-float32-lines", test_long_float32_lines_match_the_cpu },
    { "long-integer-scans", test_long_integer_scans_match_the_cpu },
    { "random", test_random_matches_the_cpu },
    { "matmul", test_matmul_matches_the_cpu },
    { "blas/large", test_blas_products_match_the_cpu },
    { "printing", test_printing },
    { "refusals", test_refusals },
    { "storage", test_device_storage },
  };

  g_test_init (&argc, &argv, NULL);
  opencl_without_fp64 = g_getenv ("LT_OPENCL_NO_FP64") != NULL;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
      {
        g_autofree char *path = g_strdup_printf ("/device-tensors/%s/%s", kinds[k].name,
                                                 tests[t].name);

        g_test_add_data_func (path, GINT_TO_POINTER (kinds[k].device_type), tests[t].func);
      }
  g_test_add_func ("/device-tensors/unavailable", test_unavailable_device);
  /* Only in the run that makes OpenCL compute without float64. */
  g_test_add_data_func ("/device-tensors/opencl/blas/policy",
                        GINT_TO_POINTER (LT_DEVICE_TYPE_OPENCL), test_clblast_policy);
  if (opencl_without_fp64)
    g_test_add_data_func ("/device-tensors/opencl/without-fp64",
                          GINT_TO_POINTER (LT_DEVICE_TYPE_OPENCL), test_without_fp64);

  return g_test_run ();
}
