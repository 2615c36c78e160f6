/* test-cpu-exp.c: the CPU backend's float32 exp in lanes
 *
 * lt_cpu_exp_f32 (), lt_cpu_log_f32 (), lt_cpu_sqrt_f32 (), lt_cpu_rsqrt_f32 ()
 * and lt_cpu_sigmoid_f32 () against
 * the same functions in double, over a spread of mantissas of every float
 * exponent of both signs and the special values, and over rows of every
 * length up to past four vectors, in place and not.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>

#include "backends/cpu/lt-cpu-private.h"

/* The spacing of floats at @value (a double that a float may not hold),
 * counting the one past FLT_MAX as the step to 2^128. */
static double
float_ulp (double value)
{
  int exponent;

  value = fabs (value);
  if (value < FLT_MIN)
    return 0x1p-149;
  frexp (value, &exponent);
  return ldexp (1, exponent - 24);
}

/* How many float steps @got is from @want, infinity counting as 2^128
 * where @want is past FLT_MAX. */
static double
ulp_error_of (double want,
              float  got)
{
  if (isinf (got) && got > 0)
    return want >= 0x1p128 ? 0 : (0x1p128 - want) / float_ulp (FLT_MAX);
  return fabs ((double) got - want) / float_ulp (want);
}

static double
ulp_error (float x,
           float got)
{
  return ulp_error_of (exp ((double) x), got);
}

/* Below zero NaN, at zero -inf, at +inf +inf: anything else is an
 * infinite error there. */
static double
log_ulp_error (float x,
               float got)
{
  if (x < 0)
    return isnan (got) ? 0 : INFINITY;
  if (x == 0)
    return isinf (got) && got < 0 ? 0 : INFINITY;
  if (isinf (x))
    return isinf (got) && got > 0 ? 0 : INFINITY;
  return ulp_error_of (log ((double) x), got);
}

/* Below zero (and for NaN) NaN; sqrt (-0) is -0 and 1 / sqrt (-0) -inf. */
static double
sqrt_ulp_error (float x,
                float got)
{
  if (x < 0)
    return isnan (got) ? 0 : INFINITY;
  if (x == 0)
    return got == 0 && signbit (got) == signbit (x) ? 0 : INFINITY;
  return ulp_error_of (sqrt ((double) x), got);
}

static double
rsqrt_ulp_error (float x,
                 float got)
{
  if (x < 0)
    return isnan (got) ? 0 : INFINITY;
  if (x == 0)
    return isinf (got) && signbit (got) == signbit (x) ? 0 : INFINITY;
  return ulp_error_of (1 / sqrt ((double) x), got);
}

static double
sigmoid_ulp_error (float x,
                   float got)
{
  return ulp_error_of (1 / (1 + exp (-(double) x)), got);
}

static float
from_bits (guint32 bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

typedef void (*RowFunc) (float *dst, const float *src, gint64 n);
typedef double (*ErrorFunc) (float x, float got);

/* The worst error of @row over a spread of every float exponent. */
static void
check_every_exponent (RowFunc     row,
                      ErrorFunc   error_of,
                      double      bound)
{
  /* Mantissas: both ends and a prime stride through the 2^23 between. */
  enum { STRIDE = 4099 };
  gsize per_exponent = 2 + ((1u << 23) - 2) / STRIDE + 1;
  gsize n = 2 * 256 * per_exponent, i = 0;
  g_autofree float *x = g_new (float, n);
  g_autofree float *y = g_new (float, n);
  double worst = 0;
  float worst_x = 0;

  for (guint32 sign = 0; sign < 2; sign++)
    for (guint32 exponent = 0; exponent < 256; exponent++)
      {
        guint32 base = sign << 31 | exponent << 23;

        x[i++] = from_bits (base);
        x[i++] = from_bits (base | ((1u << 23) - 1));
        for (guint32 m = 1; m < (1u << 23) - 1; m += STRIDE)
          x[i++] = from_bits (base | m);
      }
  g_assert_cmpuint (i, <=, n);
  n = i;

  row (y, x, (gint64) n);

  for (i = 0; i < n; i++)
    {
      double error;

      if (isnan (x[i]))
        {
          g_assert_true (isnan (y[i]));
          continue;
        }
      error = error_of (x[i], y[i]);
      if (error > worst)
        {
          worst = error;
          worst_x = x[i];
        }
    }
  g_test_message ("worst error %.3f ulp, at %a", worst, worst_x);
  g_assert_cmpfloat (worst, <=, bound);
}

static void
test_exp_every_exponent (void)
{
  check_every_exponent (lt_cpu_exp_f32, ulp_error, 1.0);
}

static void
test_log_every_exponent (void)
{
  check_every_exponent (lt_cpu_log_f32, log_ulp_error, 1.0);
}

static void
test_log_special_values (void)
{
  const float x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, -1.0f, -0x1p-149f, 0x1p-149f,
                      FLT_MIN, 0x1.fffffep-127f, FLT_MAX, 1.0f, 0x1.000002p0f, 0x1.fffffep-1f,
                      0.70710677f, 0.70710683f, 2.0f, 0.5f };
  float y[G_N_ELEMENTS (x)];

  lt_cpu_log_f32 (y, x, G_N_ELEMENTS (x));

  g_assert_true (isinf (y[0]) && y[0] < 0);
  g_assert_true (isinf (y[1]) && y[1] < 0);
  g_assert_true (isinf (y[2]) && y[2] > 0);
  for (gsize i = 3; i < 7; i++)
    g_assert_true (isnan (y[i]));
  g_assert_cmpfloat (y[11], ==, 0.0f);
  for (gsize i = 7; i < G_N_ELEMENTS (x); i++)
    if (!(log_ulp_error (x[i], y[i]) <= 1.0))
      g_error ("log (%a) gave %a, %.2f ulp off", x[i], y[i], log_ulp_error (x[i], y[i]));
}

/* sqrt is IEEE's, correctly rounded: half an ulp at most. */
static void
test_sqrt_every_exponent (void)
{
  check_every_exponent (lt_cpu_sqrt_f32, sqrt_ulp_error, 0.5);
}

/* Two roundings, as PyTorch's: 1.29 ulp at worst on this spread. */
static void
test_rsqrt_every_exponent (void)
{
  check_every_exponent (lt_cpu_rsqrt_f32, rsqrt_ulp_error, 1.5);
}

static void
test_sigmoid_every_exponent (void)
{
  check_every_exponent (lt_cpu_sigmoid_f32, sigmoid_ulp_error, 2.0);
}

static void
test_sigmoid_special_values (void)
{
  const float x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 100.0f, -100.0f, -104.0f,
                      -110.0f, 17.0f, -17.0f, 0x1p-30f, -0x1p-30f, 1.0f, -1.0f };
  float y[G_N_ELEMENTS (x)];

  lt_cpu_sigmoid_f32 (y, x, G_N_ELEMENTS (x));

  g_assert_cmpfloat (y[0], ==, 0.5f);
  g_assert_cmpfloat (y[1], ==, 0.5f);
  g_assert_cmpfloat (y[2], ==, 1.0f);
  g_assert_cmpfloat (y[3], ==, 0.0f);
  g_assert_true (isnan (y[4]));
  g_assert_cmpfloat (y[5], ==, 1.0f);
  for (gsize i = 5; i < G_N_ELEMENTS (x); i++)
    if (!(sigmoid_ulp_error (x[i], y[i]) <= 2.0))
      g_error ("sigmoid (%a) gave %a, %.2f ulp off", x[i], y[i], sigmoid_ulp_error (x[i], y[i]));
  /* Far below, the subnormals of exp (x), then zero. */
  g_assert_cmpfloat (y[6], >, 0.0f);
  g_assert_cmpfloat (y[8], ==, 0.0f);
}

static void
test_exp_special_values (void)
{
  const float x[] = {
    0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN,
    0x1p-149f, -0x1p-149f, FLT_MIN, -FLT_MIN,
    88.72283f, 88.7228394f, 88.72284f, 89.0f, 100.0f, FLT_MAX,
    -87.33654f, -87.3365479f, -100.0f, -103.27893f, -103.97208f, -103.972084f,
    -104.0f, -110.0f, -FLT_MAX,
    0.34657359f, -0.34657359f, 1.0f, -1.0f, 0x1p-30f,
  };
  float y[G_N_ELEMENTS (x)];

  lt_cpu_exp_f32 (y, x, G_N_ELEMENTS (x));

  g_assert_cmpfloat (y[0], ==, 1.0f);
  g_assert_cmpfloat (y[1], ==, 1.0f);
  g_assert_true (isinf (y[2]) && y[2] > 0);
  g_assert_cmpfloat (y[3], ==, 0.0f);
  g_assert_false (signbit (y[3]));
  g_assert_true (isnan (y[4]));
  g_assert_true (isnan (y[5]));
  for (gsize i = 6; i < G_N_ELEMENTS (x); i++)
    {
      if (!(ulp_error (x[i], y[i]) <= 1.0))
        g_error ("exp (%a) gave %a, %.2f ulp from %a", x[i], y[i],
                 ulp_error (x[i], y[i]), exp ((double) x[i]));
    }
  /* Past log (FLT_MAX), exactly infinity; far below, exactly zero. */
  g_assert_true (isinf (y[13]) && isinf (y[14]) && isinf (y[15]));
  g_assert_cmpfloat (y[23], ==, 0.0f);
  g_assert_cmpfloat (y[24], ==, 0.0f);
}


/* Every row length to past four vectors, in place and not, for each
 * function: the tails (padded vectors or scalar loops) as the lanes, and
 * nothing written past the row. */
static void
test_every_length (void)
{
  const struct
  {
    RowFunc row;
    ErrorFunc error_of;
    double bound;
  } functions[] = {
    { lt_cpu_exp_f32, ulp_error, 1.0 },
    { lt_cpu_log_f32, log_ulp_error, 1.0 },
    { lt_cpu_sqrt_f32, sqrt_ulp_error, 0.5 },
    { lt_cpu_rsqrt_f32, rsqrt_ulp_error, 1.5 },
    { lt_cpu_sigmoid_f32, sigmoid_ulp_error, 2.0 },
  };

  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    for (gint64 n = 0; n <= 40; n++)
      {
        float x[48], y[48], in_place[48];

        for (gint64 k = 0; k < 48; k++)
          {
            x[k] = (float) (k * 0.37 - 7.5);
            y[k] = -1.0f;
          }
        memcpy (in_place, x, sizeof x);

        functions[f].row (y, x, n);
        functions[f].row (in_place, in_place, n);

        for (gint64 k = 0; k < 48; k++)
          {
            if (k < n)
              {
                g_assert_cmpfloat (functions[f].error_of (x[k], y[k]), <=, functions[f].bound);
                g_assert_true (memcmp (&in_place[k], &y[k], sizeof (float)) == 0);
              }
            else
              {
                /* Nothing past the row is written. */
                g_assert_cmpfloat (y[k], ==, -1.0f);
                g_assert_cmpfloat (in_place[k], ==, x[k]);
              }
          }
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cpu/exp/every-exponent", test_exp_every_exponent);
  g_test_add_func ("/cpu/exp/special-values", test_exp_special_values);
  g_test_add_func ("/cpu/log/every-exponent", test_log_every_exponent);
  g_test_add_func ("/cpu/log/special-values", test_log_special_values);
  g_test_add_func ("/cpu/sqrt/every-exponent", test_sqrt_every_exponent);
  g_test_add_func ("/cpu/rsqrt/every-exponent", test_rsqrt_every_exponent);
  g_test_add_func ("/cpu/sigmoid/every-exponent", test_sigmoid_every_exponent);
  g_test_add_func ("/cpu/sigmoid/special-values", test_sigmoid_special_values);
  g_test_add_func ("/cpu/every-length", test_every_length);

  return g_test_run ();
}
