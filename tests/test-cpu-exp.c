/* test-cpu-exp.c: the CPU backend's float32 functions in lanes
 *
 * lt_cpu_exp_f32 (), lt_cpu_log_f32 (), lt_cpu_sqrt_f32 (), lt_cpu_rsqrt_f32 ()
 * and lt_cpu_sigmoid_f32 () (lt-cpu-exp.c), and lt_cpu_expm1_f32 (),
 * lt_cpu_tanh_f32 (), lt_cpu_log1p_f32 (), lt_cpu_sin_f32 (),
 * lt_cpu_cos_f32 (), lt_cpu_erf_f32 () and lt_cpu_pow_f32 () (lt-cpu-math.c) against
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

/* The functions computed in double lanes: within 0.51 ulp; where the
 * double result is a zero, an infinity or NaN, exactly that (zeros with
 * their sign). */
#define MATH_BOUND 0.51
/* sin and cos take a shorter polynomial, good to 2^-27.3: 0.61 ulp. */
#define TRIG_BOUND 0.65
/* log1p's logarithm takes one good to 2^-30.2: 0.5132 ulp over every float. */
#define LOG1P_BOUND 0.52

static double
double_ulp_error (double want,
                  float  got)
{
  if (isnan (want))
    return isnan (got) ? 0 : INFINITY;
  /* A double past FLT_MAX by half a step or more rounds to infinity. */
  if (isinf (want) || isinf (got))
    return isinf (got) && fabs (want) >= 0x1.ffffffp127 && !signbit (want) == !signbit (got)
             ? 0 : INFINITY;
  if (want == 0)
    return got == 0 && !signbit (want) == !signbit (got) ? 0 : INFINITY;
  return ulp_error_of (want, got);
}

/* NAME_ulp_error () against NAME () of libm in double. */
#define DOUBLE_REFERENCE(name)                                                   \
  static double                                                                  \
  name##_ulp_error (float x,                                                     \
                    float got)                                                   \
  {                                                                              \
    return double_ulp_error (name ((double) x), got);                            \
  }

DOUBLE_REFERENCE (expm1)
DOUBLE_REFERENCE (tanh)
DOUBLE_REFERENCE (log1p)
DOUBLE_REFERENCE (sin)
DOUBLE_REFERENCE (cos)
DOUBLE_REFERENCE (erf)

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

/* sigmoid's fused version (where the CPU has FMA): 1.0315 ulp at worst
 * over all floats (at -0x1.df6f14p+5, in the special values below); the
 * unfused one: 1.47. */
#define SIGMOID_FUSED_BOUND 1.1
#define SIGMOID_BOUND 1.5

typedef struct
{
  RowFunc row;
  double bound;
  gboolean fused;
} SigmoidVersion;

static const SigmoidVersion sigmoid_fused = { lt_cpu_sigmoid_fused_f32, SIGMOID_FUSED_BOUND, TRUE };
static const SigmoidVersion sigmoid_unfused = { lt_cpu_sigmoid_unfused_f32, SIGMOID_BOUND, FALSE };

/* Whether @version cannot run here (skipped). */
static gboolean
sigmoid_skipped (const SigmoidVersion *version)
{
  if (version->fused && !lt_cpu_has_fma ())
    {
      g_test_skip ("no FMA on this processor");
      return TRUE;
    }
  return FALSE;
}

static void
test_sigmoid_every_exponent (gconstpointer data)
{
  const SigmoidVersion *version = data;

  if (!sigmoid_skipped (version))
    check_every_exponent (version->row, sigmoid_ulp_error, version->bound);
}

/* The sixteen lanes of exp, log, the fused sigmoid, expm1, tanh, log1p,
 * sin, cos and erf give the eight lanes' results bit for bit: over one
 * float in 256 of all 2^32 (each run of 2^18 of them at another offset
 * in the 256, so 64 low bit patterns come up; one in 64 took 17 s of the
 * AddressSanitizer build's 30 for nine functions), and over
 * every row length to past two vectors, in place and not, so the padded
 * tails too, with lanes past 87 (which take exp's two-factor scaling for
 * the whole vector, and sin and cos's libm lanes past 2^20) and below 0
 * beside ordinary ones; and each lt_cpu_NAME_f32 () gives the same as the
 * width the processor can run (sigmoid's pick, among three versions, is
 * test_sigmoid_picked ()'s; pow's, test_pow_wide ()'s). */
static void
test_wide (void)
{
  enum { RUN = 1 << 18, STRIDE = 256 };
  const struct
  {
    const char *name;
    void (*picked) (float *, const float *, gint64);
    void (*wide) (float *, const float *, gint64);
    void (*narrow) (float *, const float *, gint64);
  } functions[] = {
    { "exp", lt_cpu_exp_f32, lt_cpu_exp_wide_f32, lt_cpu_exp_narrow_f32 },
    { "log", lt_cpu_log_f32, lt_cpu_log_wide_f32, lt_cpu_log_narrow_f32 },
    { "sigmoid", NULL, lt_cpu_sigmoid_fused_wide_f32, lt_cpu_sigmoid_fused_f32 },
    { "expm1", lt_cpu_expm1_f32, lt_cpu_expm1_wide_f32, lt_cpu_expm1_narrow_f32 },
    { "tanh", lt_cpu_tanh_f32, lt_cpu_tanh_wide_f32, lt_cpu_tanh_narrow_f32 },
    { "log1p", lt_cpu_log1p_f32, lt_cpu_log1p_wide_f32, lt_cpu_log1p_narrow_f32 },
    { "sin", lt_cpu_sin_f32, lt_cpu_sin_wide_f32, lt_cpu_sin_narrow_f32 },
    { "cos", lt_cpu_cos_f32, lt_cpu_cos_wide_f32, lt_cpu_cos_narrow_f32 },
    { "erf", lt_cpu_erf_f32, lt_cpu_erf_wide_f32, lt_cpu_erf_narrow_f32 },
  };
  g_autofree float *x = g_new (float, RUN);
  g_autofree float *wide = g_new (float, RUN);
  g_autofree float *narrow = g_new (float, RUN);

  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      if (functions[f].picked == NULL)
        continue;
      for (gint64 k = 0; k < 4096; k++)
        x[k] = (float) ((k - 2048) * 0.049);
      functions[f].picked (wide, x, 4096);
      (lt_cpu_has_avx512 () ? functions[f].wide : functions[f].narrow) (narrow, x, 4096);
      g_assert_true (memcmp (wide, narrow, 4096 * sizeof (float)) == 0);
    }

  if (!lt_cpu_has_avx512 ())
    {
      g_test_skip ("no AVX-512 on this processor");
      return;
    }
  for (guint64 first = 0; first < G_GUINT64_CONSTANT (1) << 32; first += (guint64) RUN * STRIDE)
    {
      guint32 offset = (guint32) (first / ((guint64) RUN * STRIDE)) % STRIDE;

      for (guint32 k = 0; k < RUN; k++)
        {
          guint32 bits = (guint32) (first + (guint64) k * STRIDE) + offset;

          memcpy (&x[k], &bits, sizeof bits);
        }
      for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
        {
          functions[f].wide (wide, x, RUN);
          functions[f].narrow (narrow, x, RUN);
          if (memcmp (wide, narrow, RUN * sizeof (float)) != 0)
            for (guint32 k = 0; k < RUN; k++)
              if (memcmp (&wide[k], &narrow[k], sizeof (float)) != 0)
                g_error ("%s (%a): sixteen lanes gave %a, eight %a", functions[f].name, x[k],
                         wide[k], narrow[k]);
        }
    }
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    for (gint64 n = 0; n <= 40; n++)
      {
        float in[48], wide_out[48], narrow_out[48], in_place[48];

        for (gint64 k = 0; k < 48; k++)
          {
            in[k] = k % 11 == 3 ? 88.5f + k : k % 13 == 5 ? 0x1.8p20f * k : (float) k * 0.37f - 6.0f;
            wide_out[k] = narrow_out[k] = -1.0f;
          }
        memcpy (in_place, in, sizeof in);
        functions[f].wide (wide_out, in, n);
        functions[f].narrow (narrow_out, in, n);
        functions[f].wide (in_place, in_place, n);
        g_assert_true (memcmp (wide_out, narrow_out, sizeof wide_out) == 0);
        g_assert_true (memcmp (in_place, wide_out, n * sizeof (float)) == 0);
        g_assert_true (memcmp (in_place + n, in + n, (48 - n) * sizeof (float)) == 0);
      }
}

/* lt_cpu_sigmoid_f32 () is the version lt_cpu_has_fma () names, bit for
 * bit (sixteen lanes wide where the CPU has AVX-512: test_wide ()). */
static void
test_sigmoid_picked (void)
{
  enum { N = 4096 };
  g_autofree float *x = g_new (float, N);
  g_autofree float *picked = g_new (float, N);
  g_autofree float *named = g_new (float, N);

  for (gint64 k = 0; k < N; k++)
    x[k] = (float) ((k - N / 2) * 0.049);
  lt_cpu_sigmoid_f32 (picked, x, N);
  (lt_cpu_has_fma () ? lt_cpu_sigmoid_fused_f32 : lt_cpu_sigmoid_unfused_f32) (named, x, N);
  g_assert_true (memcmp (picked, named, N * sizeof (float)) == 0);
}

static void
test_sigmoid_special_values (gconstpointer data)
{
  const SigmoidVersion *version = data;
  const float x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 100.0f, -100.0f, -104.0f,
                      -110.0f, 17.0f, -17.0f, 0x1p-30f, -0x1p-30f, 1.0f, -1.0f,
                      -0x1.df6f14p+5f };
  float y[G_N_ELEMENTS (x)];

  if (sigmoid_skipped (version))
    return;
  version->row (y, x, G_N_ELEMENTS (x));

  g_assert_cmpfloat (y[0], ==, 0.5f);
  g_assert_cmpfloat (y[1], ==, 0.5f);
  g_assert_cmpfloat (y[2], ==, 1.0f);
  g_assert_cmpfloat (y[3], ==, 0.0f);
  g_assert_true (isnan (y[4]));
  g_assert_cmpfloat (y[5], ==, 1.0f);
  for (gsize i = 5; i < G_N_ELEMENTS (x); i++)
    if (!(sigmoid_ulp_error (x[i], y[i]) <= version->bound))
      g_error ("sigmoid (%a) gave %a, %.2f ulp off", x[i], y[i], sigmoid_ulp_error (x[i], y[i]));
  /* Far below, the subnormals of exp (x), then zero. */
  g_assert_cmpfloat (y[6], >, 0.0f);
  g_assert_cmpfloat (y[8], ==, 0.0f);
}

static void
test_math_every_exponent (gconstpointer data)
{
  const struct
  {
    const char *name;
    RowFunc row;
    ErrorFunc error_of;
    double bound;
  } functions[] = {
    { "expm1", lt_cpu_expm1_f32, expm1_ulp_error, MATH_BOUND },
    { "tanh", lt_cpu_tanh_f32, tanh_ulp_error, MATH_BOUND },
    { "log1p", lt_cpu_log1p_f32, log1p_ulp_error, LOG1P_BOUND },
    { "sin", lt_cpu_sin_f32, sin_ulp_error, TRIG_BOUND },
    { "cos", lt_cpu_cos_f32, cos_ulp_error, TRIG_BOUND },
    { "erf", lt_cpu_erf_f32, erf_ulp_error, MATH_BOUND },
  };

  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    if (g_str_equal (functions[f].name, data))
      {
        check_every_exponent (functions[f].row, functions[f].error_of, functions[f].bound);
        return;
      }
  g_assert_not_reached ();
}

/* Each function's edges, one lane at a time among ordinary ones, so a
 * lane that falls back to libm does not take its neighbours with it. */
static void
check_values (RowFunc      row,
              ErrorFunc    error_of,
              double       bound,
              const char  *name,
              const float *x,
              gsize        n)
{
  for (gsize i = 0; i < n; i++)
    {
      float in[8], out[8];

      for (guint l = 0; l < 8; l++)
        in[l] = 0.25f * (float) l - 0.75f;
      in[i % 8] = x[i];
      row (out, in, 8);
      for (guint l = 0; l < 8; l++)
        if (!(error_of (in[l], out[l]) <= bound))
          g_error ("%s (%a) gave %a, %.2f ulp off", name, in[l], out[l], error_of (in[l], out[l]));
    }
}

static void
test_math_special_values (void)
{
  const float expm1_x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f,
                            0x1p-30f, -0x1p-30f, 0.34657359f, -0.34657359f, 88.72283f,
                            88.7228394f, 89.0f, -17.0f, -30.0f, -104.0f, FLT_MAX, -FLT_MAX };
  const float tanh_x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f,
                           0x1p-13f, 0.55f, -0.55f, 9.0f, -9.01f, 10.0f, 11.0f, FLT_MAX };
  const float log1p_x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, -1.0f, -1.5f, -FLT_MAX,
                            -0x1.fffffep-1f, 0x1p-149f, -0x1p-149f, 0x1p-26f, -0x1p-26f,
                            0x1.fffffep-27f, 0.41421356f, -0.29289322f, FLT_MAX, 1.0f };
  /* Near multiples of pi / 2 (the last four are the floats below 2^20
   * nearest one, relatively and absolutely, found by a search over all of
   * them), either side of 2^20 where libm takes over, and far past it. */
  const float trig_x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f,
                           3.14159274f, -3.14159274f, 1.57079637f, 4.71238899f, 6.28318548f,
                           0x1.fffffep19f, -0x1.fffffep19f, 0x1p20f, -0x1p20f, 102940.445f,
                           0x1.921fb6p+12f, 0x1.99bc5cp+27f, FLT_MAX, -FLT_MAX,
                           0x1.04ccbcp+19f, 0x1.87331ap+19f, -0x1.9a48dep+19f, 0x1.f9cbe2p+7f };
  /* Either side of 1, where the polynomials meet, and of 4, the clamp. */
  const float erf_x[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f,
                          0x1.fffffep-1f, 1.0f, 0x1.000002p0f, -0x1.fffffep-1f, -1.0f,
                          3.92f, -3.92f, 0x1.fffffep1f, 4.0f, 0x1.000002p2f, -4.5f, FLT_MAX };
  float y[G_N_ELEMENTS (erf_x)];

  check_values (lt_cpu_expm1_f32, expm1_ulp_error, MATH_BOUND, "expm1", expm1_x, G_N_ELEMENTS (expm1_x));
  check_values (lt_cpu_tanh_f32, tanh_ulp_error, MATH_BOUND, "tanh", tanh_x, G_N_ELEMENTS (tanh_x));
  check_values (lt_cpu_log1p_f32, log1p_ulp_error, LOG1P_BOUND, "log1p", log1p_x, G_N_ELEMENTS (log1p_x));
  check_values (lt_cpu_sin_f32, sin_ulp_error, TRIG_BOUND, "sin", trig_x, G_N_ELEMENTS (trig_x));
  check_values (lt_cpu_cos_f32, cos_ulp_error, TRIG_BOUND, "cos", trig_x, G_N_ELEMENTS (trig_x));
  check_values (lt_cpu_erf_f32, erf_ulp_error, MATH_BOUND, "erf", erf_x, G_N_ELEMENTS (erf_x));

  /* The signs of zero, the limits, exactly. */
  lt_cpu_log1p_f32 (y, log1p_x, G_N_ELEMENTS (log1p_x));
  g_assert_true (y[1] == 0 && signbit (y[1]));
  g_assert_true (isinf (y[5]) && y[5] < 0);
  g_assert_true (isnan (y[6]) && isnan (y[7]));
  lt_cpu_expm1_f32 (y, expm1_x, G_N_ELEMENTS (expm1_x));
  g_assert_true (y[1] == 0 && signbit (y[1]));
  g_assert_cmpfloat (y[3], ==, -1.0f);
  g_assert_true (isinf (y[12]) && y[12] > 0);
  lt_cpu_tanh_f32 (y, tanh_x, G_N_ELEMENTS (tanh_x));
  g_assert_true (y[1] == 0 && signbit (y[1]));
  g_assert_cmpfloat (y[3], ==, -1.0f);
  g_assert_cmpfloat (y[13], ==, 1.0f);
  lt_cpu_sin_f32 (y, trig_x, 2);
  g_assert_true (y[1] == 0 && signbit (y[1]));
  lt_cpu_erf_f32 (y, erf_x, G_N_ELEMENTS (erf_x));
  g_assert_true (y[1] == 0 && signbit (y[1]));
  g_assert_cmpfloat (y[2], ==, 1.0f);
  g_assert_cmpfloat (y[3], ==, -1.0f);
  g_assert_true (isnan (y[4]));
}

static double
pow_ulp_error (float x,
               float e,
               float got)
{
  return double_ulp_error (pow ((double) x, (double) e), got);
}

/* pow over bases of every exponent of both signs and exponents that are
 * integers (odd, even, large), halves and neither, then every special
 * operand against libm's answer exactly; each operand contiguous or one
 * value for the row, and rows of every length. The powers taken as
 * products where the exponent is one value for the row are PyTorch's
 * formulas, with bounds of their own: x · x · x and 1 / (x · x) round
 * twice (1.5 ulp; the second only where x · x is a normal float: beyond,
 * PyTorch's 0 or infinity). */
static void
test_pow (void)
{
  const float exponents[] = { 2.0f, 3.0f, -1.0f, -2.0f, -3.0f, 0.5f, -0.5f, 1.0f / 3.0f, 7.0f,
                              0.1f, -2.75f, 10.0f, 37.0f, -149.0f, 127.5f, 0x1p23f, 0x1.000002p23f,
                              0x1p24f + 2.0f, 1e20f, -1e20f, 0x1p-20f, 0.0f, -0.0f,
                              /* Past 2^105, e + 1.5 · 2^52 rounds to an odd double. */
                              0x1p105f, -0x1.000002p110f };
  const float specials[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 2.0f, -2.0f,
                             0.5f, -0.5f, 3.0f, -3.0f, 0x1p-149f, -0x1p-149f, FLT_MAX };
  enum { BASES = 2 * 254 * 5 };
  g_autofree float *x = g_new (float, BASES);
  g_autofree float *y = g_new (float, BASES);
  double worst = 0;
  gsize n = 0;

  for (guint32 sign = 0; sign < 2; sign++)
    for (guint32 exponent = 1; exponent < 255; exponent++)
      for (guint32 m = 0; m < 5; m++)
        x[n++] = from_bits (sign << 31 | exponent << 23 | (m * 1677721u + 1u));
  g_assert_cmpuint (n, ==, BASES);

  for (guint e = 0; e < G_N_ELEMENTS (exponents); e++)
    {
      double bound = exponents[e] == 3.0f || exponents[e] == -2.0f ? 1.5 : MATH_BOUND;

      lt_cpu_pow_f32 (y, x, 1, &exponents[e], 0, BASES);
      for (gsize i = 0; i < BASES; i++)
        {
          double error = pow_ulp_error (x[i], exponents[e], y[i]);

          if (exponents[e] == -2.0f && !isnormal (x[i] * x[i]))
            {
              g_assert_cmpfloat (y[i], ==, 1.0f / (x[i] * x[i]));
              continue;
            }
          if (!(error <= bound))
            g_error ("pow (%a, %a) gave %a, %.2f ulp off", x[i], exponents[e], y[i], error);
          worst = MAX (worst, error);
        }
    }
  g_test_message ("worst error %.3f ulp", worst);

  /* Every pair of specials (exactly libm's zeros, infinities and NaNs):
   * the base one value, the exponents a row, so each special meets
   * ordinary lanes too. */
  for (guint b = 0; b < G_N_ELEMENTS (specials); b++)
    {
      float out[G_N_ELEMENTS (specials)];

      lt_cpu_pow_f32 (out, &specials[b], 0, specials, 1, G_N_ELEMENTS (specials));
      for (guint e = 0; e < G_N_ELEMENTS (specials); e++)
        {
          double error = pow_ulp_error (specials[b], specials[e], out[e]);

          if (!(error <= MATH_BOUND))
            g_error ("pow (%a, %a) gave %a, %.2f ulp off", specials[b], specials[e], out[e], error);
        }
    }

  /* Both operands one value, the square's shortcut included. */
  for (guint e = 0; e < 2; e++)
    {
      const float base = -1.5f, power = e == 0 ? 2.0f : 3.0f;
      float out[11];

      lt_cpu_pow_f32 (out, &base, 0, &power, 0, G_N_ELEMENTS (out));
      for (guint k = 0; k < G_N_ELEMENTS (out); k++)
        g_assert_cmpfloat (out[k], ==, e == 0 ? 2.25f : -3.375f);
    }

  /* Both operands rows, every length, in place on either. */
  for (gint64 length = 0; length <= 40; length++)
    {
      float a[48], b[48], out[48], on_a[48], on_b[48];

      for (gint64 k = 0; k < 48; k++)
        {
          a[k] = (float) (k * 0.61 - 9.5);
          b[k] = (float) ((k % 7) - 3) * 0.5f;
          out[k] = -7.0f;
        }
      memcpy (on_a, a, sizeof a);
      memcpy (on_b, b, sizeof b);
      lt_cpu_pow_f32 (out, a, 1, b, 1, length);
      lt_cpu_pow_f32 (on_a, on_a, 1, b, 1, length);
      lt_cpu_pow_f32 (on_b, a, 1, on_b, 1, length);
      for (gint64 k = 0; k < 48; k++)
        if (k < length)
          {
            g_assert_cmpfloat (pow_ulp_error (a[k], b[k], out[k]), <=, MATH_BOUND);
            g_assert_true (memcmp (&on_a[k], &out[k], sizeof (float)) == 0);
            g_assert_true (memcmp (&on_b[k], &out[k], sizeof (float)) == 0);
          }
        else
          {
            g_assert_cmpfloat (out[k], ==, -7.0f);
            g_assert_cmpfloat (on_a[k], ==, a[k]);
            g_assert_cmpfloat (on_b[k], ==, b[k]);
          }
    }
}

/* pow's sixteen lanes give the eight lanes' results bit for bit, for
 * each operand a row or one value, over bases of every exponent of both
 * signs against exponents of every kind, with the specials (libm's lanes)
 * and negative bases (the sign work) beside ordinary lanes, and over every
 * row length, in place and not; lt_cpu_pow_f32 () gives the width the
 * processor can run. */
static void
test_pow_wide (void)
{
  enum { N = 2 * 254 * 8 };
  const float exponents[] = { 0.5f, -0.5f, 1.0f / 3.0f, 7.0f, -3.0f, 0.1f, -2.75f, 37.0f, -149.0f,
                              0x1p23f, 0x1p105f, 1e20f, 0.0f, -0.0f, INFINITY, NAN };
  g_autofree float *x = g_new (float, N);
  g_autofree float *e = g_new (float, N);
  g_autofree float *wide = g_new (float, N);
  g_autofree float *narrow = g_new (float, N);
  gsize n = 0;

  for (guint32 sign = 0; sign < 2; sign++)
    for (guint32 exponent = 0; exponent < 255; exponent++)
      for (guint32 m = 0; m < 8 && n < N; m++)
        x[n++] = from_bits (sign << 31 | exponent << 23 | (m * 1048573u + (m & 1)));
  for (gsize k = 0; k < N; k++)
    e[k] = exponents[k % G_N_ELEMENTS (exponents)] * (k % 5 == 2 ? -1.0f : 1.0f);
  /* Every kind of lane in the rows' first vectors too. */
  x[3] = INFINITY;
  x[9] = NAN;
  e[20] = -INFINITY;

  lt_cpu_pow_f32 (wide, x, 1, e, 1, N);
  (lt_cpu_has_avx512 () ? lt_cpu_pow_wide_f32 : lt_cpu_pow_narrow_f32) (narrow, x, 1, e, 1, N);
  g_assert_true (memcmp (wide, narrow, N * sizeof (float)) == 0);

  if (!lt_cpu_has_avx512 ())
    {
      g_test_skip ("no AVX-512 on this processor");
      return;
    }
  for (guint steps = 0; steps < 3; steps++)
    {
      /* Both rows; a base for the row; an exponent for the row, each of
       * the exponents in turn. */
      guint rounds = steps == 2 ? G_N_ELEMENTS (exponents) : steps == 1 ? 64 : 1;

      for (guint r = 0; r < rounds; r++)
        {
          const float *xs = steps == 1 ? &x[r * 97 % N] : x;
          const float *es = steps == 2 ? &exponents[r] : e;
          gint64 x_step = steps == 1 ? 0 : 1, e_step = steps == 2 ? 0 : 1;

          lt_cpu_pow_wide_f32 (wide, xs, x_step, es, e_step, N);
          lt_cpu_pow_narrow_f32 (narrow, xs, x_step, es, e_step, N);
          for (gsize k = 0; k < N; k++)
            if (memcmp (&wide[k], &narrow[k], sizeof (float)) != 0)
              g_error ("pow (%a, %a): sixteen lanes gave %a, eight %a", xs[k * x_step],
                       es[k * e_step], wide[k], narrow[k]);
        }
    }
  for (gint64 length = 0; length <= 40; length++)
    {
      float a[48], b[48], wide_out[48], narrow_out[48], in_place[48];

      for (gint64 k = 0; k < 48; k++)
        {
          a[k] = k % 9 == 4 ? 0.0f : (float) (k * 0.61 - 9.5);
          b[k] = (float) ((k % 7) - 3) * 0.5f + 0.25f;
          wide_out[k] = narrow_out[k] = -7.0f;
        }
      memcpy (in_place, a, sizeof a);
      lt_cpu_pow_wide_f32 (wide_out, a, 1, b, 1, length);
      lt_cpu_pow_narrow_f32 (narrow_out, a, 1, b, 1, length);
      lt_cpu_pow_wide_f32 (in_place, in_place, 1, b, 1, length);
      g_assert_true (memcmp (wide_out, narrow_out, sizeof wide_out) == 0);
      g_assert_true (memcmp (in_place, wide_out, length * sizeof (float)) == 0);
      g_assert_true (memcmp (in_place + length, a + length, (48 - length) * sizeof (float)) == 0);
    }
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
    { lt_cpu_sigmoid_f32, sigmoid_ulp_error, SIGMOID_BOUND },
    { lt_cpu_expm1_f32, expm1_ulp_error, MATH_BOUND },
    { lt_cpu_tanh_f32, tanh_ulp_error, MATH_BOUND },
    { lt_cpu_log1p_f32, log1p_ulp_error, LOG1P_BOUND },
    { lt_cpu_sin_f32, sin_ulp_error, TRIG_BOUND },
    { lt_cpu_cos_f32, cos_ulp_error, TRIG_BOUND },
    { lt_cpu_erf_f32, erf_ulp_error, MATH_BOUND },
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
  g_test_add_func ("/cpu/wide", test_wide);
  g_test_add_func ("/cpu/log/every-exponent", test_log_every_exponent);
  g_test_add_func ("/cpu/log/special-values", test_log_special_values);
  g_test_add_func ("/cpu/sqrt/every-exponent", test_sqrt_every_exponent);
  g_test_add_func ("/cpu/rsqrt/every-exponent", test_rsqrt_every_exponent);
  g_test_add_data_func ("/cpu/sigmoid/fused/every-exponent", &sigmoid_fused,
                        test_sigmoid_every_exponent);
  g_test_add_data_func ("/cpu/sigmoid/fused/special-values", &sigmoid_fused,
                        test_sigmoid_special_values);
  g_test_add_data_func ("/cpu/sigmoid/unfused/every-exponent", &sigmoid_unfused,
                        test_sigmoid_every_exponent);
  g_test_add_data_func ("/cpu/sigmoid/unfused/special-values", &sigmoid_unfused,
                        test_sigmoid_special_values);
  g_test_add_func ("/cpu/sigmoid/picked", test_sigmoid_picked);
  g_test_add_data_func ("/cpu/expm1/every-exponent", "expm1", test_math_every_exponent);
  g_test_add_data_func ("/cpu/tanh/every-exponent", "tanh", test_math_every_exponent);
  g_test_add_data_func ("/cpu/log1p/every-exponent", "log1p", test_math_every_exponent);
  g_test_add_data_func ("/cpu/sin/every-exponent", "sin", test_math_every_exponent);
  g_test_add_data_func ("/cpu/cos/every-exponent", "cos", test_math_every_exponent);
  g_test_add_data_func ("/cpu/erf/every-exponent", "erf", test_math_every_exponent);
  g_test_add_func ("/cpu/math/special-values", test_math_special_values);
  g_test_add_func ("/cpu/pow", test_pow);
  g_test_add_func ("/cpu/pow/wide", test_pow_wide);
  g_test_add_func ("/cpu/every-length", test_every_length);

  return g_test_run ();
}
