/* test-cpu-math64.c: the CPU backend's float64 functions in lanes
 *
 * lt_cpu_exp_f64 (), lt_cpu_expm1_f64 (), lt_cpu_tanh_f64 (),
 * lt_cpu_log_f64 (), lt_cpu_log1p_f64 (), lt_cpu_sigmoid_f64 (),
 * lt_cpu_sin_f64 (), lt_cpu_cos_f64 (), lt_cpu_erf_f64 () and
 * lt_cpu_pow_f64 () (lt-cpu-math64.c) against the same functions in long
 * double (64-bit mantissas: eleven bits past a double's), and
 * lt_cpu_sqrt_f64 () and lt_cpu_rsqrt_f64 () (lt-cpu-roots.c) against
 * libm bit for bit, over a
 * spread of mantissas of every double exponent of both signs, the special
 * values (which go through libm, so must be exactly libm's answers),
 * vectors that mix the two, and rows of every length to past four
 * vectors, in place and not.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>

#include "backends/cpu/lt-cpu-private.h"
#include "lt-test-utils.h"

typedef void (*RowFunc) (double *, const double *, gint64);
typedef long double (*Reference) (double);

/* exp is good to 0.6 ulp and log to 0.88 (0.5918 over 10^8 random
 * doubles; 0.8755 for log near m = sqrt(2), found by a search beside the
 * random ones, whose worst was 0.8081); expm1 to 0.85 (0.8438 over 10^8 in
 * (-3, 3), 0.7783 over (-708, 708) and over every exponent below 1);
 * sigmoid to 1.1 (1.0601 over 10^8 in (-40, 40) unfused, 1.0488 just
 * below -708 where libm's lanes take PyTorch's formula), its fused
 * version's lanes to 1.0 (0.6387 over 2 · 10^7 in (-40, 40); 0.8350 near
 * -708, where the low part of e falls into the subnormals, which may cost
 * it a quarter of an ulp more than elsewhere); PyTorch's 1 / (1 + exp
 * (-x)) was 2.49, an ulp of e becoming two of the result where it falls a
 * binade below e. */
#define EXP_BOUND 0.65
/* exp's fused version (sigmoid's exp, its high part): 0.6538 at worst
 * over 10^8 random doubles in (-708, 708), 0.6509 over 10^8 in (-0.4,
 * 0.4); 0.6706 at -0x1.7c88fad1d99c6p+7, found by a review's search near
 * r = ±ln 2 / 2 (nothing above 0.6709 in 5 · 10^8 there). */
#define EXP_FUSED_BOUND 0.7
#define EXPM1_BOUND 0.9
/* tanh: 0.6973 at worst over 6 · 10^7 random doubles below 25. */
#define TANH_BOUND 0.75
#define LOG_BOUND 0.9
#define SIGMOID_BOUND 1.1
#define SIGMOID_FUSED_BOUND 1.0
#define RSQRT_BOUND 1.5
/* log1p: 0.8540 at worst over 2 · 10^7 random doubles in (-1, 3), 0.7681
 * over 2 · 10^7 of every exponent below 1. */
#define LOG1P_BOUND 0.9
/* sin and cos: 0.8345 at worst over 4 · 10^7 random doubles below 2^20,
 * 0.916 for cos near pi / 4 (found by a search); the fused versions 0.804
 * over 10^6 below 2^20 and 0.768 over 10^6 in (-10, 10). */
#define SIN_COS_BOUND 0.95
/* erf: 0.8906 at worst, found by a walk of 2.3 · 10^6 doubles below 2^-5
 * (0.8511 near 0.75, and less over 10^8 random doubles in each piece); a
 * review found 0.9529 near 0.0275 before the low part of Q's first term
 * was added. */
#define ERF_BOUND 1.0
/* pow: 0.5908 at worst over 10^7 random pairs (bases in (0.01, 4) and
 * across every exponent, near 1 with exponents to 2^27, products to
 * 709); the error before the last rounding is 0.10 ulp at most, by a
 * review's measure. Without the logarithm's r⁹ term a review found 0.635
 * (the pairs in test_pow ()). */
#define POW_BOUND 0.62

/* NAME_reference (): libm's long double NAME. */
#define LONG_DOUBLE_REFERENCE(name)                                              \
  static long double                                                             \
  name##_reference (double x)                                                    \
  {                                                                              \
    return name##l (x);                                                          \
  }

LONG_DOUBLE_REFERENCE (exp)
LONG_DOUBLE_REFERENCE (log)
LONG_DOUBLE_REFERENCE (log1p)
LONG_DOUBLE_REFERENCE (expm1)
LONG_DOUBLE_REFERENCE (tanh)
LONG_DOUBLE_REFERENCE (sin)
LONG_DOUBLE_REFERENCE (cos)
LONG_DOUBLE_REFERENCE (sqrt)
LONG_DOUBLE_REFERENCE (erf)

static long double
sigmoid_reference (double x)
{
  return 1.0L / (1.0L + expl (-(long double) x));
}

static long double
rsqrt_reference (double x)
{
  return 1.0L / sqrtl (x);
}

/* How many double steps @got is from @want. */
/* Ulps of difference not counted: 0 where long double is wider than
 * double; all where it is not (valgrind runs x87 arithmetic in double, so
 * there the reference is itself an ulp or two off, and the run is for
 * memory errors; libm's exact answers, NaNs, zero signs and the row ends
 * are still checked). */
static double reference_slack;

static double
ulp_error (long double want,
           double      got)
{
  long double size = fabsl (want), ulp;
  int exponent;

  if (isnan (want) || isinf (want) || isnan (got) || isinf (got))
    return (isnan (want) && isnan (got)) || (long double) got == want ? 0 : INFINITY;
  if (size < DBL_MIN)
    ulp = 0x1p-1074L;
  else
    {
      frexpl (size, &exponent);
      ulp = ldexpl (1, exponent - 53);
    }
  return MAX (0, (double) (fabsl ((long double) got - want) / ulp) - reference_slack);
}

static double
from_bits (guint64 bits)
{
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

/* Seven mantissas of every exponent, both signs: 28,644 doubles, in
 * @values (g_free () it). */
static double *
every_exponent (gsize *n)
{
  const guint64 mantissas[] = { 0, 1, 0x5555555555555, 0x8000000000000, 0xaaaaaaaaaaaaa,
                                0x3243f6a8885a3, 0xfffffffffffff };
  double *values = g_new (double, 2 * 2046 * G_N_ELEMENTS (mantissas));
  gsize count = 0;

  for (guint64 sign = 0; sign < 2; sign++)
    for (guint64 exponent = 1; exponent < 2047; exponent++)
      for (guint m = 0; m < G_N_ELEMENTS (mantissas); m++)
        values[count++] = from_bits (sign << 63 | exponent << 52 | mantissas[m]);
  *n = count;
  return values;
}

/* The worst error of @row over every exponent, where @reference is finite
 * and the row computes it in lanes (@low <= x <= @high); elsewhere libm's
 * answer, @libm, bit for bit. */
static void
check_every_exponent (RowFunc     row,
                      Reference   reference,
                      double    (*libm) (double),
                      double      low,
                      double      high,
                      double      bound)
{
  gsize n;
  g_autofree double *x = every_exponent (&n);
  g_autofree double *y = g_new (double, n);
  double worst = 0, worst_x = 0;

  row (y, x, (gint64) n);
  for (gsize i = 0; i < n; i++)
    {
      if (x[i] >= low && x[i] <= high)
        {
          double error = ulp_error (reference (x[i]), y[i]);

          if (!(error <= bound))
            g_error ("%a gave %a, %.3f ulp off", x[i], y[i], error);
          if (error > worst)
            {
              worst = error;
              worst_x = x[i];
            }
        }
      else
        {
          double want = libm (x[i]);

          if (memcmp (&want, &y[i], sizeof want) != 0 && !(isnan (want) && isnan (y[i])))
            g_error ("%a gave %a where libm gives %a", x[i], y[i], want);
        }
    }
  g_test_message ("worst error %.3f ulp, at %a", worst, worst_x);
}

/* What the lanes past ±708 give: PyTorch's formula (0 below -709.8). */
static double
sigmoid_libm (double x)
{
  return 1 / (1 + exp (-x));
}

static double
rsqrt_libm (double x)
{
  return 1 / sqrt (x);
}

/* The unfused version, which every processor can run (the fused one in
 * test_fused ()). */
static void
test_exp_every_exponent (void)
{
  check_every_exponent (lt_cpu_exp_unfused_f64, exp_reference, exp, -708, 708, EXP_BOUND);
}

static void
test_expm1_every_exponent (void)
{
  check_every_exponent (lt_cpu_expm1_f64, expm1_reference, expm1, -708, 708, EXPM1_BOUND);
}

static void
test_tanh_every_exponent (void)
{
  check_every_exponent (lt_cpu_tanh_f64, tanh_reference, tanh, -DBL_MAX, DBL_MAX, TANH_BOUND);
}

static void
test_log_every_exponent (void)
{
  check_every_exponent (lt_cpu_log_f64, log_reference, log, DBL_MIN, DBL_MAX, LOG_BOUND);
}

static void
test_sigmoid_every_exponent (void)
{
  check_every_exponent (lt_cpu_sigmoid_f64, sigmoid_reference, sigmoid_libm, -708, INFINITY,
                        SIGMOID_BOUND);
  check_every_exponent (lt_cpu_sigmoid_unfused_f64, sigmoid_reference, sigmoid_libm, -708,
                        INFINITY, SIGMOID_BOUND);
}

/* Above -1 in lanes (but for zeros, not in the spread), -1 and below
 * through libm. */
static void
test_log1p_every_exponent (void)
{
  check_every_exponent (lt_cpu_log1p_f64, log1p_reference, log1p, -0x1.fffffffffffffp-1,
                        DBL_MAX, LOG1P_BOUND);
}

/* Below 2^20 in lanes, beyond through libm: the unfused versions, which
 * every processor can run (the fused ones in test_fused ()). */
static void
test_sin_cos_every_exponent (void)
{
  check_every_exponent (lt_cpu_sin_unfused_f64, sin_reference, sin, -0x1.fffffffffffffp19,
                        0x1.fffffffffffffp19, SIN_COS_BOUND);
  check_every_exponent (lt_cpu_cos_unfused_f64, cos_reference, cos, -0x1.fffffffffffffp19,
                        0x1.fffffffffffffp19, SIN_COS_BOUND);
}

/* Every lane in lanes: none goes to libm. */
static void
test_erf_every_exponent (void)
{
  check_every_exponent (lt_cpu_erf_f64, erf_reference, erf, -DBL_MAX, DBL_MAX, ERF_BOUND);
}

/* sqrt is correctly rounded, and the reciprocal is 1 / sqrt (x) rounded
 * twice, as the scalar rows: both exactly libm's. */
static void
test_roots_every_exponent (void)
{
  check_every_exponent (lt_cpu_sqrt_f64, NULL, sqrt, INFINITY, -INFINITY, 0);
  check_every_exponent (lt_cpu_rsqrt_f64, NULL, rsqrt_libm, INFINITY, -INFINITY, 0);
  check_every_exponent (lt_cpu_rsqrt_f64, rsqrt_reference, rsqrt_libm, 0x1p-1022, DBL_MAX,
                        RSQRT_BOUND);
}

/* @row over 10^6 doubles drawn from (@low, @high), within @bound ulp of
 * @reference. */
static void
check_range (RowFunc    row,
             Reference  reference,
             double     low,
             double     high,
             double     bound,
             GRand     *rand)
{
  enum { N = 1000000 };
  g_autofree double *x = g_new (double, N);
  g_autofree double *y = g_new (double, N);
  double worst = 0;

  for (gsize i = 0; i < N; i++)
    x[i] = g_rand_double_range (rand, low, high);
  row (y, x, N);
  for (gsize i = 0; i < N; i++)
    {
      double error = ulp_error (reference (x[i]), y[i]);

      if (!(error <= bound))
        g_error ("(%g, %g): %a gave %a, %.3f ulp off", low, high, x[i], y[i], error);
      worst = MAX (worst, error);
    }
  g_test_message ("(%g, %g): worst error %.3f ulp", low, high, worst);
}

/* Each function over 10^6 doubles drawn (with a fixed seed) from the
 * ranges where its roundings meet: for exp and expm1, around zero and
 * where 2^n - 1 starts to round; for log and log1p, about 1; for sin and
 * cos, a few turns; for erf, where its three pieces meet. The spread of exponents above has only seven
 * mantissas each. */
static void
test_dense (void)
{
  const struct
  {
    RowFunc row;
    Reference reference;
    double low, high, bound;
  } ranges[] = {
    { lt_cpu_exp_unfused_f64, exp_reference, -708, 708, EXP_BOUND },
    { lt_cpu_exp_unfused_f64, exp_reference, -1, 1, EXP_BOUND },
    { lt_cpu_expm1_f64, expm1_reference, -3, 3, EXPM1_BOUND },
    { lt_cpu_expm1_f64, expm1_reference, 36, 40, EXPM1_BOUND },
    { lt_cpu_tanh_f64, tanh_reference, -3, 3, TANH_BOUND },
    { lt_cpu_tanh_f64, tanh_reference, -0.01, 0.01, TANH_BOUND },
    { lt_cpu_sigmoid_unfused_f64, sigmoid_reference, -40, 40, SIGMOID_BOUND },
    { lt_cpu_sigmoid_unfused_f64, sigmoid_reference, -708, -690, SIGMOID_BOUND },
    { lt_cpu_sigmoid_unfused_f64, sigmoid_reference, -709.78, -708, SIGMOID_BOUND },
    { lt_cpu_log_f64, log_reference, 0.5, 2, LOG_BOUND },
    { lt_cpu_log1p_f64, log1p_reference, -0.9999, 3, LOG1P_BOUND },
    { lt_cpu_sin_unfused_f64, sin_reference, -10, 10, SIN_COS_BOUND },
    { lt_cpu_cos_unfused_f64, cos_reference, -10, 10, SIN_COS_BOUND },
    { lt_cpu_erf_f64, erf_reference, -6, 6, ERF_BOUND },
    { lt_cpu_erf_f64, erf_reference, 0.7, 0.8, ERF_BOUND },
    { lt_cpu_erf_f64, erf_reference, -1.55, -1.45, ERF_BOUND },
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261127);

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    check_range (ranges[r].row, ranges[r].reference, ranges[r].low, ranges[r].high,
                 ranges[r].bound, rand);
}

/* sigmoid's fused version (lt_cpu_has_fma ()), as the unfused one above;
 * and lt_cpu_sigmoid_f64 () is the version lt_cpu_has_fma () names. */
static void
test_sigmoid_fused (void)
{
  enum { N = 4096 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261128);
  g_autofree double *x = g_new (double, N);
  g_autofree double *picked = g_new (double, N);
  g_autofree double *named = g_new (double, N);

  for (gint64 k = 0; k < N; k++)
    x[k] = (k - N / 2) * 0.173;
  lt_cpu_sigmoid_f64 (picked, x, N);
  (lt_cpu_has_fma () ? lt_cpu_sigmoid_fused_f64 : lt_cpu_sigmoid_unfused_f64) (named, x, N);
  g_assert_true (memcmp (picked, named, N * sizeof (double)) == 0);

  if (!lt_cpu_has_fma ())
    {
      g_test_skip ("no FMA on this processor");
      return;
    }
  check_every_exponent (lt_cpu_sigmoid_fused_f64, sigmoid_reference, sigmoid_libm, -708,
                        INFINITY, SIGMOID_FUSED_BOUND);
  check_range (lt_cpu_sigmoid_fused_f64, sigmoid_reference, -40, 40, SIGMOID_FUSED_BOUND, rand);
  check_range (lt_cpu_sigmoid_fused_f64, sigmoid_reference, -708, -690, SIGMOID_FUSED_BOUND,
               rand);
  check_range (lt_cpu_sigmoid_fused_f64, sigmoid_reference, -709.78, -708, SIGMOID_BOUND, rand);
}

/* The fused versions of exp, sin and cos (lt_cpu_has_fma ()), as the
 * unfused ones above, over every exponent, over a dense range, and at
 * the values where the reduction is hardest (the searches' in
 * test_special_values ()); and lt_cpu_exp_f64 (), lt_cpu_sin_f64 () and
 * lt_cpu_cos_f64 () are the versions lt_cpu_has_fma () names. */
static void
test_fused (void)
{
  enum { N = 4096 };
  const struct
  {
    RowFunc picked, fused, unfused;
    Reference reference;
    double (*libm) (double);
    double low, high, dense_low, dense_high, bound;
  } functions[] = {
    { lt_cpu_exp_f64, lt_cpu_exp_fused_f64, lt_cpu_exp_unfused_f64, exp_reference, exp, -708,
      708, -1, 1, EXP_FUSED_BOUND },
    { lt_cpu_sin_f64, lt_cpu_sin_fused_f64, lt_cpu_sin_unfused_f64, sin_reference, sin,
      -0x1.fffffffffffffp19, 0x1.fffffffffffffp19, -10, 10, SIN_COS_BOUND },
    { lt_cpu_cos_f64, lt_cpu_cos_fused_f64, lt_cpu_cos_unfused_f64, cos_reference, cos,
      -0x1.fffffffffffffp19, 0x1.fffffffffffffp19, -10, 10, SIN_COS_BOUND },
  };
  const double hard[] = { 0x1.93c05c9ed3cbcp+19, 0x1.93c05c9ed3cbcp+18, 0x1.92e7034204594p-1,
                          0x1.921fb54442d18p0, 0x1.921fb54442d18p1, 355.0, -355.0, 708.0,
                          -708.0, 0x1p-1074, -0x1p-1074, -0x1.7c88fad1d99c6p+7,
                          0x1.3419e97070916p+8 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261129);
  g_autofree double *x = g_new (double, N);
  g_autofree double *picked = g_new (double, N);
  g_autofree double *named = g_new (double, N);

  for (gint64 k = 0; k < N; k++)
    x[k] = (k - N / 2) * 0.173;
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      functions[f].picked (picked, x, N);
      (lt_cpu_has_fma () ? functions[f].fused : functions[f].unfused) (named, x, N);
      g_assert_true (memcmp (picked, named, N * sizeof (double)) == 0);
    }

  if (!lt_cpu_has_fma ())
    {
      g_test_skip ("no FMA on this processor");
      return;
    }
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      double y[G_N_ELEMENTS (hard)];

      check_every_exponent (functions[f].fused, functions[f].reference, functions[f].libm,
                            functions[f].low, functions[f].high, functions[f].bound);
      check_range (functions[f].fused, functions[f].reference, functions[f].low,
                   functions[f].high, functions[f].bound, rand);
      check_range (functions[f].fused, functions[f].reference, functions[f].dense_low,
                   functions[f].dense_high, functions[f].bound, rand);
      functions[f].fused (y, hard, G_N_ELEMENTS (hard));
      for (guint k = 0; k < G_N_ELEMENTS (hard); k++)
        {
          double error = ulp_error (functions[f].reference (hard[k]), y[k]);

          if (!(error <= functions[f].bound))
            g_error ("fused function %u at %a: %a, %.3f ulp off", f, hard[k], y[k], error);
        }
    }
}

/* The edges, each in a vector with ordinary lanes: the lanes libm takes
 * give libm's answers exactly, and the ordinary lanes beside them are
 * unchanged by the detour. */
static void
test_special_values (void)
{
  const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MAX, -DBL_MAX,
                              DBL_MIN, -DBL_MIN, 0x1p-1074, -0x1p-1074, 0x1.8p-1040,
                              708.0, -708.0, 0x1.62e42fefa39efp9, 709.8, -745.1, -746.0,
                              -0x1.74910d52d3051p9, 1e300, 1.0, -1.0, 2.0,
                              /* sin and cos: pi / 2, pi, 113 pi (355 is near it), 2^20
                               * and the double below. */
                              0x1.921fb54442d18p0, 0x1.921fb54442d18p1, 355.0, -355.0,
                              0x1p20, -0x1p20, 0x1.fffffffffffffp19, -0x1.fffffffffffffp19,
                              /* log1p: near -1, about 2^-53, past 2^53. */
                              -0x1.fffffffffffffp-1, -0.75, 0x1p-53, -0x1p-54, 0x1.8p-54,
                              0x1p53, 0x1.0000000000001p53,
                              /* expm1: 2^n - 1 rounds from n = 54. */
                              37.5, 38.0, -37.5, 0x1p-60, -0x1p-60,
                              /* tanh: where it reaches 1. */
                              19.0, 19.5, -20.0, 20.5,
                              /* Found by searches: sin within 2^-51 of a multiple of
                               * pi / 2 near 2^19 (an ulp off with pi / 2 in three
                               * parts), cos of half of it, log near sqrt(2) and
                               * sqrt(1/2), cos near pi / 4. */
                              0x1.93c05c9ed3cbcp+19, 0x1.93c05c9ed3cbcp+18,
                              0x1.678c5521cc615p+0, 0x1.6801400d795b3p-1,
                              0x1.92e7034204594p-1,
                              /* erf: where its pieces meet, where it reaches 1, and
                               * past the hold at 5.95. */
                              0.75, 1.5, -1.5, 0x1.7afb48dc96627p+2, 5.95, -6.0,
                              /* erf: the review's, and a walk's, below 2^-5. */
                              0x1.c283faf8963e8p-6, 0x1.c530fc2194867p-6 };
  const struct
  {
    RowFunc row;
    double (*libm) (double);
    Reference reference;
    double bound;
  } functions[] = {
    /* The versions lt_cpu_has_fma () picks (fused where the CPU has FMA),
     * and the unfused ones, which every CPU can run. */
    { lt_cpu_exp_f64, exp, exp_reference, EXP_FUSED_BOUND },
    { lt_cpu_exp_unfused_f64, exp, exp_reference, EXP_BOUND },
    { lt_cpu_log_f64, log, log_reference, LOG_BOUND },
    { lt_cpu_sigmoid_f64, sigmoid_libm, sigmoid_reference, SIGMOID_BOUND },
    { lt_cpu_sigmoid_unfused_f64, sigmoid_libm, sigmoid_reference, SIGMOID_BOUND },
    { lt_cpu_sin_f64, sin, sin_reference, SIN_COS_BOUND },
    { lt_cpu_sin_unfused_f64, sin, sin_reference, SIN_COS_BOUND },
    { lt_cpu_cos_f64, cos, cos_reference, SIN_COS_BOUND },
    { lt_cpu_cos_unfused_f64, cos, cos_reference, SIN_COS_BOUND },
    { lt_cpu_log1p_f64, log1p, log1p_reference, LOG1P_BOUND },
    { lt_cpu_expm1_f64, expm1, expm1_reference, EXPM1_BOUND },
    { lt_cpu_tanh_f64, tanh, tanh_reference, TANH_BOUND },
    { lt_cpu_erf_f64, erf, erf_reference, ERF_BOUND },
  };

  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    for (guint s = 0; s < G_N_ELEMENTS (specials); s++)
      for (guint lane = 0; lane < 4; lane++)
        {
          double x[4] = { 0.5, 1.25, 3.0, 7.5 }, y[4], alone[4];

          x[lane] = specials[s];
          functions[f].row (y, x, 4);
          for (guint l = 0; l < 4; l++)
            {
              functions[f].row (&alone[l], &x[l], 1);
              /* The same bits alone as beside any other lane. */
              g_assert_true (memcmp (&alone[l], &y[l], sizeof (double)) == 0 || isnan (y[l]));
              if (l != lane)
                g_assert_cmpfloat (ulp_error (functions[f].reference (x[l]), y[l]), <=,
                                   functions[f].bound);
            }
          {
            double want = functions[f].libm (specials[s]);
            double error = ulp_error (functions[f].reference (specials[s]), y[lane]);

            /* Either libm's answer exactly, or within the bound; a zero
             * with libm's sign. */
            if (memcmp (&want, &y[lane], sizeof want) != 0 && !(isnan (want) && isnan (y[lane]))
                && !(error <= functions[f].bound))
              g_error ("%a gave %a, libm %a", specials[s], y[lane], want);
            if (want == 0 && y[lane] == 0 && signbit (want) != signbit (y[lane]))
              g_error ("%a gave %a, libm %a", specials[s], y[lane], want);
          }
        }

  /* A few that must be exact. */
  {
    const double x[] = { 0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 1000.0, -1000.0 };
    double y[G_N_ELEMENTS (x)];

    lt_cpu_exp_f64 (y, x, G_N_ELEMENTS (x));
    g_assert_cmpfloat (y[0], ==, 1.0);
    g_assert_cmpfloat (y[1], ==, 1.0);
    g_assert_true (isinf (y[2]) && y[2] > 0);
    g_assert_cmpfloat (y[3], ==, 0.0);
    g_assert_true (isinf (y[6]));
    g_assert_cmpfloat (y[7], ==, 0.0);

    lt_cpu_log_f64 (y, x, G_N_ELEMENTS (x));
    g_assert_true (isinf (y[0]) && y[0] < 0);
    g_assert_true (isinf (y[1]) && y[1] < 0);
    g_assert_true (isinf (y[2]) && y[2] > 0);
    g_assert_true (isnan (y[3]));
    g_assert_cmpfloat (y[4], ==, 0.0);
    g_assert_false (signbit (y[4]));
    g_assert_true (isnan (y[5]));
  }
}

/* Every row length to past four vectors, in place and not: the padded
 * tail as the lanes, and nothing written past the row; then a special
 * value last in a padded tail, which must give what it gives alone. */
static void
test_every_length (void)
{
  const struct
  {
    RowFunc row;
    Reference reference;
    double bound;
  } functions[] = {
    /* As in test_special_values (). */
    { lt_cpu_exp_f64, exp_reference, EXP_FUSED_BOUND },
    { lt_cpu_exp_unfused_f64, exp_reference, EXP_BOUND },
    { lt_cpu_log_f64, log_reference, LOG_BOUND },
    { lt_cpu_sigmoid_f64, sigmoid_reference, SIGMOID_BOUND },
    { lt_cpu_sigmoid_unfused_f64, sigmoid_reference, SIGMOID_BOUND },
    { lt_cpu_sin_f64, sin_reference, SIN_COS_BOUND },
    { lt_cpu_sin_unfused_f64, sin_reference, SIN_COS_BOUND },
    { lt_cpu_cos_f64, cos_reference, SIN_COS_BOUND },
    { lt_cpu_cos_unfused_f64, cos_reference, SIN_COS_BOUND },
    { lt_cpu_log1p_f64, log1p_reference, LOG1P_BOUND },
    { lt_cpu_expm1_f64, expm1_reference, EXPM1_BOUND },
    { lt_cpu_tanh_f64, tanh_reference, TANH_BOUND },
    { lt_cpu_erf_f64, erf_reference, ERF_BOUND },
    { lt_cpu_sqrt_f64, sqrt_reference, 0.5 },
    { lt_cpu_rsqrt_f64, rsqrt_reference, RSQRT_BOUND },
  };

  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    for (gint64 n = 0; n <= 20; n++)
      {
        double x[24], y[24], in_place[24];

        for (gint64 k = 0; k < 24; k++)
          {
            /* Positive, so every function is defined on them. */
            x[k] = k * 0.73 + 0.01;
            y[k] = -1.0;
          }
        memcpy (in_place, x, sizeof x);

        functions[f].row (y, x, n);
        functions[f].row (in_place, in_place, n);

        for (gint64 k = 0; k < 24; k++)
          if (k < n)
            {
              g_assert_cmpfloat (ulp_error (functions[f].reference (x[k]), y[k]), <=,
                                 functions[f].bound);
              g_assert_true (memcmp (&in_place[k], &y[k], sizeof (double)) == 0);
            }
          else
            {
              g_assert_cmpfloat (y[k], ==, -1.0);
              g_assert_cmpfloat (in_place[k], ==, x[k]);
            }
      }
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    for (gint64 n = 5; n <= 7; n++)
      {
        const double specials[] = { NAN, 0.0, -0.0, INFINITY, -INFINITY, 1e300, -1e300,
                                    0x1p-1074, -1.0, 800.0, -800.0 };

        for (guint s = 0; s < G_N_ELEMENTS (specials); s++)
          {
            double x[8] = { 0.25, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5 }, y[8], alone;

            x[n - 1] = specials[s];
            for (guint k = 0; k < 8; k++)
              y[k] = -1.0;
            functions[f].row (y, x, n);
            functions[f].row (&alone, &x[n - 1], 1);
            g_assert_true (memcmp (&alone, &y[n - 1], sizeof (double)) == 0
                           || (isnan (alone) && isnan (y[n - 1])));
            for (gint64 k = 0; k < n - 1; k++)
              g_assert_cmpfloat (ulp_error (functions[f].reference (x[k]), y[k]), <=,
                                 functions[f].bound);
            for (gint64 k = n; k < 8; k++)
              g_assert_cmpfloat (y[k], ==, -1.0);
          }
      }
}

/* pow (@x, @e) as lt_cpu_pow_f64 () gave it, @got, is checked against
 * libm's pow: where libm's answer is a normal double, @got is within
 * POW_BOUND of powl's and an ulp of libm's (itself within 0.52 ulp, so
 * that part is measured under valgrind too); elsewhere (a zero, a
 * subnormal, an infinity or NaN; those lanes go to libm) it is libm's
 * bit for bit. The error against powl, or 0. */
static double
check_pow (double x,
           double e,
           double got)
{
  double want = pow (x, e), error;

  if (!(fabs (want) >= DBL_MIN && fabs (want) <= DBL_MAX))
    {
      if (memcmp (&want, &got, sizeof want) != 0 && !(isnan (want) && isnan (got)))
        g_error ("pow (%a, %a) gave %a where libm gives %a", x, e, got, want);
      return 0;
    }
  error = ulp_error (powl (x, e), got);
  if (!(error <= POW_BOUND) || !(fabs (got - want) <= 0x1p-52 * fabs (want)))
    g_error ("pow (%a, %a) gave %a, %.3f ulp off (libm: %a)", x, e, got, error, want);
  return error;
}

/* Bases of every exponent of both signs (negative ones to integers, odd
 * and even, and to fractions), each to a spread of exponents as one value
 * for the row; then pairs drawn (with a fixed seed) where the
 * logarithm's rounding would show: bases in (0.01, 4) with exponents in
 * (-4, 4), bases across the whole range with exponents to ±1, bases
 * within 2^-20 of 1 with exponents to 2^27, products up to ±709, and
 * bases within 2% of 1 to products of 600 to 708; the
 * specials against each other, both ways round, in vectors with
 * ordinary lanes. */
static void
test_pow (void)
{
  const double exponents[] = { 0.5, -0.5, 2.5, -3.7, 1.0 / 3, 1e-3, 0x1p-60, 123.456,
                               -0.01, 7.0, -3.0 };
  const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 2.0, -2.0,
                              0.5, -0.5, 3.0, DBL_MAX, DBL_MIN, -DBL_MIN, 0x1p-1074,
                              0x1.8p-1040, 1e300, -1e300, 0x1p997, -0x1p1000, 709.0,
                              -745.0, 0x1.0000000000001p0, 0x1.fffffffffffffp-1,
                              /* Negative bases near 1 to odd, even and broken
                               * integers about 2^51, where the lanes stop telling
                               * them apart. */
                              -0x1.0000000000001p0, -0x1.fffffffffffffp-1,
                              0x1.ffffffffffffep50, 0x1.ffffffffffffcp50,
                              -0x1.fffffffffffffp50, 0x1.0000000000002p51,
                              0x1.0000000000004p51, 0x1p51 };
  /* A review's worst, bases just above 1's row of the table: 0.6353,
   * 0.6347, 0.6318 and 0.618 ulp off without the r⁹ term. */
  const double found[][2] = {
    { 0x1.00aaa002e2115p+0, -0x1.09a9dd7e9ce9fp+18 },
    { 0x1.00aaa003c12b8p+0, -0x1.09aad4810fb39p+18 },
    { 0x1.00aaa00084f33p+0, 0x1.096a17047bbf6p+18 },
    { 0x1.00aabfb118653p+0, -0x1.01ed064b13ee6p+18 },
  };
  enum { N = 250000 };
  gsize n;
  g_autofree double *x = every_exponent (&n);
  g_autofree double *y = g_new (double, MAX (n, N));
  g_autofree double *xs = g_new (double, N);
  g_autofree double *es = g_new (double, N);
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261127);
  double worst = 0;

  for (guint e = 0; e < G_N_ELEMENTS (exponents); e++)
    {
      lt_cpu_pow_f64 (y, x, 1, &exponents[e], 0, (gint64) n);
      for (gsize i = 0; i < n; i++)
        worst = MAX (worst, check_pow (x[i], exponents[e], y[i]));
    }
  g_test_message ("every exponent: worst error %.3f ulp", worst);

  for (guint r = 0; r < 5; r++)
    {
      worst = 0;
      for (gsize i = 0; i < N; i++)
        switch (r)
          {
          case 0:
            xs[i] = g_rand_double_range (rand, 0.01, 4);
            es[i] = g_rand_double_range (rand, -4, 4);
            break;
          case 1:
            xs[i] = exp (g_rand_double_range (rand, -708, 708));
            es[i] = g_rand_double_range (rand, -1, 1);
            break;
          case 2:
            xs[i] = 1 + g_rand_double_range (rand, -0x1p-20, 0x1p-20);
            es[i] = g_rand_double_range (rand, -0x1p27, 0x1p27);
            break;
          case 3:
            xs[i] = g_rand_double_range (rand, 0.5, 4);
            es[i] = g_rand_double_range (rand, -709, 709) / log (xs[i]);
            break;
          default:
            /* The table's rows beside 1's, where log (c) is smallest
             * and the Taylor terms count most, to the largest products. */
            xs[i] = g_rand_double_range (rand, 0.99, 1.02);
            es[i] = (g_rand_boolean (rand) ? 1 : -1) * g_rand_double_range (rand, 600, 708)
                    / log (xs[i]);
            break;
          }
      lt_cpu_pow_f64 (y, xs, 1, es, 1, N);
      for (gsize i = 0; i < N; i++)
        worst = MAX (worst, check_pow (xs[i], es[i], y[i]));
      g_test_message ("range %u: worst error %.3f ulp", r, worst);
    }

  for (guint f = 0; f < G_N_ELEMENTS (found); f++)
    {
      lt_cpu_pow_f64 (y, &found[f][0], 0, &found[f][1], 0, 1);
      check_pow (found[f][0], found[f][1], y[0]);
    }

  for (guint s = 0; s < G_N_ELEMENTS (specials); s++)
    for (guint t = 0; t < G_N_ELEMENTS (specials); t++)
      {
        double bases[5] = { 1.5, 2.5, specials[s], 0.75, 3.25 };
        double powers[5] = { 0.3, -1.7, specials[t], 2.2, 0.9 };
        double out[5];

        lt_cpu_pow_f64 (out, bases, 1, powers, 1, 5);
        for (guint k = 0; k < 5; k++)
          check_pow (bases[k], powers[k], out[k]);
      }
}

/* Rows of every length with each operand a step apart, one value for
 * the row (step 0), or in place: the lanes as pow, and nothing written
 * past the row. */
static void
test_pow_steps (void)
{
  for (gint64 n = 0; n <= 13; n++)
    for (gint64 x_step = 0; x_step <= 2; x_step++)
      for (gint64 e_step = 0; e_step <= 2; e_step++)
        {
          double x[32], e[32], y[16], in_place[32];

          for (gint64 k = 0; k < 32; k++)
            {
              x[k] = k * 0.37 + 0.05;
              e[k] = k * 0.29 - 3.1;
            }
          for (gint64 k = 0; k < 16; k++)
            y[k] = -1.0;
          lt_cpu_pow_f64 (y, x, x_step, e, e_step, n);
          for (gint64 k = 0; k < 16; k++)
            if (k < n)
              check_pow (x[k * x_step], e[k * e_step], y[k]);
            else
              g_assert_cmpfloat (y[k], ==, -1.0);
          if (x_step != 1)
            continue;
          memcpy (in_place, x, sizeof x);
          lt_cpu_pow_f64 (in_place, in_place, 1, e, e_step, n);
          for (gint64 k = 0; k < 32; k++)
            if (k < n)
              g_assert_true (memcmp (&in_place[k], &y[k], sizeof (double)) == 0);
            else
              g_assert_cmpfloat (in_place[k], ==, x[k]);
        }
}

/* Fills @x with @n doubles of every kind the lanes meet: every exponent
 * of both signs (every_exponent ()), the hard values, random bits (NaNs,
 * infinities, subnormals and zeros among them) and random draws from
 * ranges the functions split at (±708, ±5.95, ±1, ±2^-20, ±2^20). */
static void
fill_every_kind (double *x,
                 gsize   n,
                 GRand  *rand)
{
  const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 0x1p-1074, -0x1p-1074,
                              0x1p-1022, 708.0, -708.0, 709.8, -709.8, 710.0, -745.2,
                              0x1p20, -0x1p20, 5.95, -5.95, 0.75, 1.5, -1.0, 1.0 };
  const double ranges[] = { 710, 6, 1.2, 0x1p-20, 0x1.1p20 };
  gsize n_spread;
  g_autofree double *spread = every_exponent (&n_spread);
  gsize k = 0;

  for (; k < MIN (n, n_spread); k++)
    x[k] = spread[k];
  for (gsize s = 0; k < n && s < G_N_ELEMENTS (specials); s++)
    x[k++] = specials[s];
  for (; k < n; k++)
    {
      if (k % 3 == 0)
        x[k] = from_bits ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand));
      else
        {
          double range = ranges[g_rand_int_range (rand, 0, G_N_ELEMENTS (ranges))];

          x[k] = g_rand_double_range (rand, -range, range);
        }
    }
}

/* Every float64 function's eight lanes give the four lanes' results bit
 * for bit (the fused four, for exp, sigmoid, sin and cos, which the eight
 * fuse as they do): over doubles of every kind (fill_every_kind ()), and
 * over every row length to 40, in place and not, with libm's lanes beside
 * ordinary ones; pow's, with each operand a row or one value; and each
 * lt_cpu_NAME_f64 () gives the width the processor can run. */
static void
test_wide (void)
{
  enum { N = 1 << 18 };
  const struct
  {
    const char *name;
    RowFunc picked, wide, narrow;
  } functions[] = {
    { "exp", lt_cpu_exp_f64, lt_cpu_exp_wide_f64, lt_cpu_exp_fused_f64 },
    { "sigmoid", lt_cpu_sigmoid_f64, lt_cpu_sigmoid_wide_f64, lt_cpu_sigmoid_fused_f64 },
    { "sin", lt_cpu_sin_f64, lt_cpu_sin_wide_f64, lt_cpu_sin_fused_f64 },
    { "cos", lt_cpu_cos_f64, lt_cpu_cos_wide_f64, lt_cpu_cos_fused_f64 },
    { "expm1", lt_cpu_expm1_f64, lt_cpu_expm1_wide_f64, lt_cpu_expm1_narrow_f64 },
    { "tanh", lt_cpu_tanh_f64, lt_cpu_tanh_wide_f64, lt_cpu_tanh_narrow_f64 },
    { "log", lt_cpu_log_f64, lt_cpu_log_wide_f64, lt_cpu_log_narrow_f64 },
    { "log1p", lt_cpu_log1p_f64, lt_cpu_log1p_wide_f64, lt_cpu_log1p_narrow_f64 },
    { "erf", lt_cpu_erf_f64, lt_cpu_erf_wide_f64, lt_cpu_erf_narrow_f64 },
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261128);
  g_autofree double *x = g_new (double, N);
  g_autofree double *e = g_new (double, N);
  g_autofree double *wide = g_new (double, N);
  g_autofree double *narrow = g_new (double, N);

  fill_every_kind (x, N, rand);
  fill_every_kind (e, N, rand);
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      gboolean fused = f < 4;

      functions[f].picked (wide, x, N);
      if (lt_cpu_has_avx512 ())
        functions[f].wide (narrow, x, N);
      else if (fused && !lt_cpu_has_fma ())
        continue;
      else
        functions[f].narrow (narrow, x, N);
      g_assert_true (memcmp (wide, narrow, N * sizeof (double)) == 0);
    }

  if (!lt_cpu_has_avx512 ())
    {
      g_test_skip ("no AVX-512 on this processor");
      return;
    }
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      functions[f].wide (wide, x, N);
      functions[f].narrow (narrow, x, N);
      for (gsize k = 0; k < N; k++)
        if (memcmp (&wide[k], &narrow[k], sizeof (double)) != 0)
          g_error ("%s (%a): eight lanes gave %a, four %a", functions[f].name, x[k], wide[k],
                   narrow[k]);
      for (gint64 n = 0; n <= 40; n++)
        {
          double in[48], wide_out[48], narrow_out[48], in_place[48];

          for (gint64 k = 0; k < 48; k++)
            {
              in[k] = k % 11 == 3 ? 720.0 + k : k % 13 == 5 ? -0.0 : k * 0.37 - 6.0;
              wide_out[k] = narrow_out[k] = -1.0;
            }
          memcpy (in_place, in, sizeof in);
          functions[f].wide (wide_out, in, n);
          functions[f].narrow (narrow_out, in, n);
          functions[f].wide (in_place, in_place, n);
          g_assert_true (memcmp (wide_out, narrow_out, sizeof wide_out) == 0);
          g_assert_true (memcmp (in_place, wide_out, n * sizeof (double)) == 0);
          g_assert_true (memcmp (in_place + n, in + n, (48 - n) * sizeof (double)) == 0);
        }
    }

  /* pow: both rows; a base for the row; an exponent for the row; and
   * every row length with both operands rows, the lanes past the row
   * padded. */
  for (guint steps = 0; steps < 3; steps++)
    for (guint r = 0; r < (steps == 0 ? 1u : 16u); r++)
      {
        const double *xs = steps == 1 ? &x[r * 4099] : x;
        const double *es = steps == 2 ? &e[r * 4099 + 1] : e;
        gint64 x_step = steps == 1 ? 0 : 1, e_step = steps == 2 ? 0 : 1;
        gint64 n = steps == 0 ? N : N / 16;

        lt_cpu_pow_wide_lanes_f64 (wide, xs, x_step, es, e_step, n);
        lt_cpu_pow_lanes_f64 (narrow, xs, x_step, es, e_step, n);
        for (gint64 k = 0; k < n; k++)
          if (memcmp (&wide[k], &narrow[k], sizeof (double)) != 0)
            g_error ("pow (%a, %a): eight lanes gave %a, four %a", xs[k * x_step],
                     es[k * e_step], wide[k], narrow[k]);
      }
  for (gint64 n = 0; n <= 40; n++)
    {
      double wide_out[48], narrow_out[48];

      for (gint64 k = 0; k < 48; k++)
        wide_out[k] = narrow_out[k] = -1.0;
      lt_cpu_pow_wide_lanes_f64 (wide_out, x + 30000, 1, e + 777, 1, n);
      lt_cpu_pow_lanes_f64 (narrow_out, x + 30000, 1, e + 777, 1, n);
      g_assert_true (memcmp (wide_out, narrow_out, sizeof wide_out) == 0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!lt_test_long_double_is_wider ())
    {
      g_test_message ("long double is no wider than double here (valgrind?): "
                      "accuracy against it is not measured");
      reference_slack = INFINITY;
    }

  g_test_add_func ("/cpu/f64/exp/every-exponent", test_exp_every_exponent);
  g_test_add_func ("/cpu/f64/expm1/every-exponent", test_expm1_every_exponent);
  g_test_add_func ("/cpu/f64/tanh/every-exponent", test_tanh_every_exponent);
  g_test_add_func ("/cpu/f64/log/every-exponent", test_log_every_exponent);
  g_test_add_func ("/cpu/f64/sigmoid/every-exponent", test_sigmoid_every_exponent);
  g_test_add_func ("/cpu/f64/sigmoid/fused", test_sigmoid_fused);
  g_test_add_func ("/cpu/f64/log1p/every-exponent", test_log1p_every_exponent);
  g_test_add_func ("/cpu/f64/sin-cos/every-exponent", test_sin_cos_every_exponent);
  g_test_add_func ("/cpu/f64/fused", test_fused);
  g_test_add_func ("/cpu/f64/erf/every-exponent", test_erf_every_exponent);
  g_test_add_func ("/cpu/f64/roots/every-exponent", test_roots_every_exponent);
  g_test_add_func ("/cpu/f64/pow", test_pow);
  g_test_add_func ("/cpu/f64/pow/steps", test_pow_steps);
  g_test_add_func ("/cpu/f64/dense", test_dense);
  g_test_add_func ("/cpu/f64/special-values", test_special_values);
  g_test_add_func ("/cpu/f64/every-length", test_every_length);
  g_test_add_func ("/cpu/f64/wide", test_wide);

  return g_test_run ();
}
