/* lt-cpu-math.c: float32 expm1, log1p, tanh, sin, cos, erf and pow in double lanes
 *
 * Each function of eight floats is computed in double lanes, four at a
 * time (GCC 12 compares wider vectors one lane at a time on AVX2); where
 * the processor has AVX-512, each of sixteen floats in eight, with the
 * same operations lane by lane and so the same results. In double, a
 * short polynomial is good to 2^-35 of the result or better (2^-27 for
 * sin and cos, 2^-30 for log1p, traded for speed), and rounded to float
 * once at the end: within 0.51 ulp of the correctly rounded result (0.52
 * for log1p, 0.61 for sin and cos), with none of the cancellations that make these functions hard
 * in float (expm1 and log1p near 0, tanh near 0, the argument reduction of
 * sin and cos). The polynomials are fits of this project's own (relative
 * error, Lawson's reweighted least squares, over the reduced ranges
 * below); each comment gives the fit's worst error.
 *
 * sin, cos and pow take the lanes they cannot reduce (|x| >= 2^20, for
 * sin and cos) or whose special cases are many (a zero, infinite or NaN
 * operand of pow) through libm in double, as the strided rows do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-private.h"

/* @W floats @x (8 or 16) as two halves of @W / 2 double lanes, @low and
 * @high, and back into @W floats @y. (Eight floats convert to double in
 * two instructions, and halves of the result cost nothing; sixteen are
 * split into eights first, each one instruction.) */
#define TO_DOUBLE_HALVES(W, low, high, x) TO_DOUBLE_HALVES_##W (low, high, x)
#define FROM_DOUBLE_HALVES(W, y, low, high) FROM_DOUBLE_HALVES_##W (y, low, high)

#define TO_DOUBLE_HALVES_8(low, high, x)                                         \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x8 wide_ = __builtin_convertvector ((x), LtF64x8);                      \
                                                                                 \
    (low) = __builtin_shufflevector (wide_, wide_, 0, 1, 2, 3);                  \
    (high) = __builtin_shufflevector (wide_, wide_, 4, 5, 6, 7);                 \
  }                                                                              \
  G_STMT_END

#define FROM_DOUBLE_HALVES_8(y, low, high)                                       \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x4 low_f_ = __builtin_convertvector ((low), LtF32x4);                   \
    LtF32x4 high_f_ = __builtin_convertvector ((high), LtF32x4);                 \
                                                                                 \
    (y) = __builtin_shufflevector (low_f_, high_f_, 0, 1, 2, 3, 4, 5, 6, 7);     \
  }                                                                              \
  G_STMT_END

#define TO_DOUBLE_HALVES_16(low, high, x)                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x16 x16_ = (x);                                                         \
                                                                                 \
    (low) = __builtin_convertvector (__builtin_shufflevector (x16_, x16_, 0, 1, 2, 3, \
                                                              4, 5, 6, 7),       \
                                     LtF64x8);                                   \
    (high) = __builtin_convertvector (__builtin_shufflevector (x16_, x16_, 8, 9, 10, \
                                                               11, 12, 13, 14, 15), \
                                      LtF64x8);                                  \
  }                                                                              \
  G_STMT_END

#define FROM_DOUBLE_HALVES_16(y, low, high)                                      \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x8 low_f_ = __builtin_convertvector ((low), LtF32x8);                   \
    LtF32x8 high_f_ = __builtin_convertvector ((high), LtF32x8);                 \
                                                                                 \
    (y) = __builtin_shufflevector (low_f_, high_f_, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, \
                                   10, 11, 12, 13, 14, 15);                      \
  }                                                                              \
  G_STMT_END

/* @y = @FUNC of @W floats @x, computed as two halves of @D = @W / 2 double
 * lanes by the macro @FUNC (D, result, input). */
#define IN_DOUBLE(W, D, y, x, FUNC)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D low_, high_;                                                       \
                                                                                 \
    TO_DOUBLE_HALVES (W, low_, high_, x);                                        \
    FUNC (D, low_, low_);                                                        \
    FUNC (D, high_, high_);                                                      \
    FROM_DOUBLE_HALVES (W, y, low_, high_);                                      \
  }                                                                              \
  G_STMT_END

/* @scale = 2^n and @p = expm1 (r) for x = n · ln 2 + r, |r| <= ln 2 / 2,
 * of double lanes @x below 1000 in magnitude: exp (x) is scale · p + scale
 * and expm1 (x) is scale · p + (scale - 1). r carries the rounding of
 * n · ln 2, below 2^-45; expm1 (r) = r + r² · P (r), P of degree 6 fitted
 * to 2^-37.5. */
#define EXP_PARTS_F64X(D, scale, p, x)                                           \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ep_t = (x) * 0x1.71547652b82fep0 + SHIFTER;                        \
    LtF64x##D ep_r = (x) - (ep_t - SHIFTER) * 0x1.62e42fefa39efp-1;              \
    LtF64x##D ep_r2 = ep_r * ep_r, ep_r4 = ep_r2 * ep_r2, ep_q;                  \
                                                                                 \
    /* (Estrin's scheme: pairs of terms side by side, for a short chain.) */     \
    ep_q = (0x1.1110b1fb0bd25p-7 * ep_r + 0x1.555554f3385cap-5) * ep_r2          \
           + (0x1.5555557362a4fp-3 * ep_r + 0x1.000000001728ep-1);               \
    ep_q += (0x1.a003974319500p-16 * ep_r2                                       \
             + (0x1.a16fa9993d440p-13 * ep_r + 0x1.6c17670c333d8p-10)) * ep_r4;  \
    (p) = ep_q * ep_r2 + ep_r;                                                   \
    (scale) = (LtF64x##D) ((SHIFTED_INTEGERS_X (D, ep_t) + 1023) << 52);         \
  }                                                                              \
  G_STMT_END

/* @result = log (@u) of positive, normal, finite double lanes. u = m · 2^k
 * with m in [sqrt(1/2), sqrt(2)): adding 1 - sqrt(1/2)'s exponent and
 * mantissa bits carries into the exponent field just where m would reach
 * sqrt(2), which leaves k + 1023 above the mantissa and m - sqrt(1/2)
 * below. f = m - 1 is exact; log (m) = 2 atanh (s) with s = f / (2 + f),
 * |s| < 0.1716: 2s + 2s · z · Q (z), z = s², Q of degree 4 fitted to
 * 2^-44.9 (pow needs the product of its exponent and this to within
 * 2^-31). */
#define LOG_F64X(D, result, u, POLYNOMIAL)                                       \
  G_STMT_START                                                                   \
  {                                                                              \
    const gint64 lg_root_half = 0x3fe6a09e667f3bcd;                              \
    LtU64x##D lg_t = (LtU64x##D) (u) + (guint64) (0x3ff0000000000000 - lg_root_half); \
    LtI64x##D lg_k = (LtI64x##D) (lg_t >> 52) - 1023;                            \
    LtF64x##D lg_f = (LtF64x##D) ((lg_t & 0x000fffffffffffff) + (guint64) lg_root_half) - 1.0; \
    LtF64x##D lg_s = lg_f / (lg_f + 2.0), lg_z, lg_q;                            \
                                                                                 \
    lg_z = lg_s * lg_s;                                                          \
    POLYNOMIAL (D, lg_q, lg_z);                                                  \
    lg_s += lg_s;                                                                \
    (result) = I64X_TO_F64X (D, lg_k) * G_LN2 + (lg_s * lg_z * lg_q + lg_s);     \
  }                                                                              \
  G_STMT_END

/* Q (z) to 2^-44.9 of log (m), for pow, which needs its logarithm times
 * the exponent to within 2^-31. */
#define LOG_POLYNOMIAL_POW(D, q, z)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D lq_z2 = (z) * (z);                                                 \
                                                                                 \
    (q) = ((0x1.911929f64c45ap-4 * (z) + 0x1.c62adea08249cp-4) * (z)             \
           + 0x1.2494127248c16p-3) * lq_z2                                       \
          + (0x1.999996a86312ap-3 * (z) + 0x1.555555561e75ep-2);                 \
  }                                                                              \
  G_STMT_END

/* Q (z) of degree 2, to 2^-30.2 of log (m): enough for log1p, whose float
 * result it leaves within 0.53 ulp. */
#define LOG_POLYNOMIAL_SHORT(D, q, z)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    (q) = (0x1.31e4461eaed0ep-3 * (z) + 0x1.995eb206ca876p-3) * (z)              \
          + 0x1.55557a280e471p-2;                                                \
  }                                                                              \
  G_STMT_END

/* The sign bit of each float lane. */
#define SIGN_F32X(W, x) ((LtI32x##W) (x) & G_MININT32)

/* expm1 (x): clamped to [-30, 89] first (below, the float result is -1;
 * above, infinity), NaN passing as NaN; the sign of x, -0 included. */
#define EXPM1_F64X(D, y, d)                                                      \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D em_s, em_p;                                                        \
                                                                                 \
    EXP_PARTS_F64X (D, em_s, em_p, d);                                           \
    (y) = em_s * em_p + (em_s - 1.0);                                            \
  }                                                                              \
  G_STMT_END

#define EXPM1_F32X(W, D, y, x)                                                   \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x##W c_ = LT_F32X_CLAMP (W, (x), -30.0f, 89.0f);                        \
                                                                                 \
    IN_DOUBLE (W, D, y, c_, EXPM1_F64X);                                         \
    (y) = (LtF32x##W) ((LtI32x##W) (y) | SIGN_F32X (W, x));                      \
  }                                                                              \
  G_STMT_END

/* tanh (x) = e / (e + 2) with e = expm1 (2|x|), |x| clamped to 10, past
 * which the float result is 1; the sign put back, -0 included. */
#define TANH_F64X(D, y, a)                                                       \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D th_e;                                                              \
                                                                                 \
    EXPM1_F64X (D, th_e, (a) + (a));                                             \
    (y) = th_e / (th_e + 2.0);                                                   \
  }                                                                              \
  G_STMT_END

#define TANH_F32X(W, D, y, x)                                                    \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x##W a_ = LT_F32X_ABS (W, x);                                           \
                                                                                 \
    a_ = LT_F32X_SELECT (W, a_ > 10.0f, LT_F32X_SPLAT (W, 10), a_);              \
    IN_DOUBLE (W, D, y, a_, TANH_F64X);                                          \
    (y) = (LtF32x##W) ((LtI32x##W) (y) | SIGN_F32X (W, x));                      \
  }                                                                              \
  G_STMT_END

/* log1p (x) = log (1 + x), where 1 + x is exact in double for |x| >=
 * 2^-26; below that the float result is x itself. -1 gives -inf, below
 * -1 (and NaN) NaN, +inf +inf: chosen among the floats. */
#define LOG1P_F64X(D, y, d) LOG_F64X (D, y, (d) + 1.0, LOG_POLYNOMIAL_SHORT)

#define LOG1P_F32X(W, D, y, x)                                                   \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI32x##W odd_ = ~((LT_F32X_ABS (W, x) >= 0x1p-26f) & ((x) > -1.0f) & ((x) < INFINITY)); \
                                                                                 \
    IN_DOUBLE (W, D, y, x, LOG1P_F64X);                                          \
    if (G_UNLIKELY (LT_I32X##W##_ANY (odd_)))                                    \
      {                                                                          \
        (y) = LT_F32X_SELECT (W, LT_F32X_ABS (W, x) < 0x1p-26f, (x), (y));       \
        (y) = LT_F32X_SELECT (W, (x) == -1.0f, LT_F32X_SPLAT (W, -INFINITY), (y)); \
        (y) = LT_F32X_SELECT (W, (x) == INFINITY, (x), (y));                     \
        (y) = LT_F32X_SELECT (W, ~((x) >= -1.0f), LT_F32X_SPLAT (W, NAN), (y));  \
      }                                                                          \
  }                                                                              \
  G_STMT_END

/* sin (x), or cos (x) where @cosine: x = h · pi + r with h the integer q
 * nearest x / pi (sin) or q + 1/2 with q the integer nearest x / pi - 1/2
 * (cos), |r| <= pi / 2; then sin (x) = (-1)^q sin (r) and cos (x) =
 * (-1)^(q+1) sin (r), q's parity being the low bit of q + SHIFTER. pi is
 * taken in two parts, the first of 32 bits, so for |x| < 2^20 (|h| <
 * 2^19) h times it and x less that are exact, and r is good to 2^-66: no
 * float below 2^20 is nearer than 2^-28 to a multiple of pi / 2 (4.2e-9, at
 * 252.898, found by a search over them all). sin (r) =
 * r · (1 + r² · P (r²)), P of degree 3 fitted to 2^-27.3, which costs
 * 0.1 ulp (degree 4, to 2^-35.3, was 10% slower, behind PyTorch); a
 * product, so sin (-0) is -0. */
#define SIN_COS_F64X(D, y, d, cosine)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D sc_t = ((d) * 0x1.45f306dc9c883p-2 - ((cosine) ? 0.5 : 0.0)) + SHIFTER; \
    LtF64x##D sc_h = (cosine) ? (sc_t - SHIFTER) + 0.5 : sc_t - SHIFTER;         \
    LtI64x##D sc_flip = (LtI64x##D) ((LtU64x##D) sc_t << 63) ^ ((cosine) ? G_MININT64 : 0); \
    LtF64x##D sc_r, sc_z, sc_p;                                                  \
                                                                                 \
    sc_r = ((d) - sc_h * 0x1.921fb54400000p+1) - sc_h * 0x1.0b4611a626331p-33;   \
    sc_z = sc_r * sc_r;                                                          \
    sc_p = 0x1.5db7737689800p-19 * sc_z - 0x1.9f6f8fed11140p-13;                 \
    sc_p = sc_p * sc_z + 0x1.110ed149abbc3p-7;                                   \
    sc_p = sc_p * sc_z - 0x1.55554bbb85afep-3;                                   \
    sc_p = sc_r * (sc_p * sc_z + 1.0);                                           \
    (y) = (LtF64x##D) ((LtI64x##D) sc_p ^ sc_flip);                              \
  }                                                                              \
  G_STMT_END

#define SIN_F64X(D, y, d) SIN_COS_F64X (D, y, d, FALSE)
#define COS_F64X(D, y, d) SIN_COS_F64X (D, y, d, TRUE)

/* Lanes of @y whose @wild mask is set get @CALL ((double) x, (double) e)
 * instead, @CALL a macro of two doubles: the cases the lanes leave to
 * libm. The lanes are copies taken inside the branch and read by
 * subscript: taking the addresses of the arguments themselves would keep
 * them in memory on the fast path too (as lt-cpu-math64.c's LIBM_LANES). */
#define FALL_BACK(W, y, wild, x, e, CALL)                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    if (G_UNLIKELY (LT_I32X##W##_ANY (wild)))                                    \
      {                                                                          \
        LtF32x##W fb_x = (x), fb_e = (e), fb_y = (y);                            \
        LtI32x##W fb_wild = (wild);                                              \
                                                                                 \
        (void) fb_e;                                                             \
        for (guint fb_l = 0; fb_l < (W); fb_l++)                                 \
          if (fb_wild[fb_l])                                                     \
            fb_y[fb_l] = (float) CALL ((double) fb_x[fb_l], (double) fb_e[fb_l]); \
        (y) = fb_y;                                                              \
      }                                                                          \
  }                                                                              \
  G_STMT_END

#define SIN_LIBM(x, unused) sin (x)
#define COS_LIBM(x, unused) cos (x)

/* Large and non-finite x go to libm. */
#define SIN_COS_F32X(W, D, y, x, F64X, fallback)                                 \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI32x##W wild_ = ~(LT_F32X_ABS (W, x) < 0x1p20f);                           \
                                                                                 \
    IN_DOUBLE (W, D, y, x, F64X);                                                \
    FALL_BACK (W, y, wild_, x, x, fallback);                                     \
  }                                                                              \
  G_STMT_END

#define SIN_F32X(W, D, y, x) SIN_COS_F32X (W, D, y, x, SIN_F64X, SIN_LIBM)
#define COS_F32X(W, D, y, x) SIN_COS_F32X (W, D, y, x, COS_F64X, COS_LIBM)

/* erf (x), x clamped to ±4 (past 3.92 the float result is ±1), NaN passing
 * as NaN. Below 1, x · P (x²) with P of degree 7 fitted to 2^-34.8 of
 * erf (x) / x; from 1, 1 - exp (-x²) · Q (|x| - 2.5) with Q of degree 10
 * fitted to exp (x²) · erfc (x), weighted so that the result is good to
 * 2^-33.5 (erf is past 0.84 there, so that is 2^-9.5 of its ulp); the sign
 * of x put back. Both are taken in every lane, each polynomial in pairs of
 * terms (Estrin's scheme), for a short chain. */
#define ERF_F64X(D, y, d)                                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ef_z = (d) * (d), ef_z2 = ef_z * ef_z, ef_a = LT_F64X_ABS (D, d);  \
    LtF64x##D ef_u = ef_a - 2.5, ef_u2 = ef_u * ef_u, ef_u4 = ef_u2 * ef_u2;     \
    LtF64x##D ef_small, ef_s, ef_p, ef_q;                                        \
                                                                                 \
    ef_small = ((0x1.20dd7504007ddp+0 - 0x1.8127465fb89a8p-2 * ef_z)             \
                + (0x1.ce2f079871406p-4 - 0x1.b829a79fb18d8p-6 * ef_z) * ef_z2)  \
               + ((0x1.5628eda341da0p-8 - 0x1.bcbe96c19d700p-11 * ef_z)          \
                  + (0x1.d8267a6528400p-14 - 0x1.4383cb88ba000p-17 * ef_z) * ef_z2) \
                   * (ef_z2 * ef_z2);                                            \
    ef_small *= (d);                                                             \
    ef_q = ((0x1.afbb39574bc20p-3 - 0x1.30870a1065cf5p-4 * ef_u)                 \
            + (0x1.989ae98c1c997p-6 - 0x1.05f952321069bp-7 * ef_u) * ef_u2)      \
           + ((0x1.4423d95fbb512p-9 - 0x1.889264628e9e0p-11 * ef_u)              \
              + (0x1.75be1fe230cc0p-13 - 0x1.32de79c676f00p-14 * ef_u) * ef_u2)  \
               * ef_u4                                                           \
           + ((0x1.03385ca994600p-15 + 0x1.c817e811dc000p-17 * ef_u)             \
              + 0x1.d77b7667e0000p-18 * ef_u2) * (ef_u4 * ef_u4);                \
    EXP_PARTS_F64X (D, ef_s, ef_p, -ef_z);                                       \
    ef_q = 1.0 - (ef_s * ef_p + ef_s) * ef_q;                                    \
    ef_q = (LtF64x##D) ((LtI64x##D) ef_q | ((LtI64x##D) (d) & G_MININT64));      \
    (y) = LT_F64X_SELECT (D, ef_a < 1.0, ef_small, ef_q);                        \
  }                                                                              \
  G_STMT_END

#define ERF_F32X(W, D, y, x)                                                     \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x##W c_ = LT_F32X_CLAMP (W, (x), -4.0f, 4.0f);                          \
                                                                                 \
    IN_DOUBLE (W, D, y, c_, ERF_F64X);                                           \
  }                                                                              \
  G_STMT_END

/* Each function's row in eight float lanes (NAME_narrow_row_f32, for
 * every x86-64 processor, in two clones as LANES_ROW's) and in sixteen
 * (NAME_wide_row_f32, for those with AVX-512), which give the same
 * results bit for bit; lt_cpu_NAME_f32 () picks the one the processor
 * can run, and lt_cpu_NAME_narrow_f32 () and lt_cpu_NAME_wide_f32 () are
 * each, for the tests. */
#define NARROW_AND_WIDE_ROWS(name, F32X)                                         \
  LANES_ROW (name##_narrow_row_f32, F32X##_NARROW)                               \
  LANES_ROW_WIDTH (name##_wide_row_f32, F32X##_WIDE, 16, LT_CPU_TARGET_AVX512)   \
  EXPORT_ROW (name##_narrow)                                                     \
  EXPORT_ROW (name##_wide)                                                       \
  EXPORT_WIDE_OR_NARROW (lt_cpu_##name##_f32, float, name##_wide_row_f32,        \
                         name##_narrow_row_f32)

#define EXPM1_F32X_NARROW(y, x) EXPM1_F32X (8, 4, y, x)
#define EXPM1_F32X_WIDE(y, x) EXPM1_F32X (16, 8, y, x)
#define TANH_F32X_NARROW(y, x) TANH_F32X (8, 4, y, x)
#define TANH_F32X_WIDE(y, x) TANH_F32X (16, 8, y, x)
#define LOG1P_F32X_NARROW(y, x) LOG1P_F32X (8, 4, y, x)
#define LOG1P_F32X_WIDE(y, x) LOG1P_F32X (16, 8, y, x)
#define SIN_F32X_NARROW(y, x) SIN_F32X (8, 4, y, x)
#define SIN_F32X_WIDE(y, x) SIN_F32X (16, 8, y, x)
#define COS_F32X_NARROW(y, x) COS_F32X (8, 4, y, x)
#define COS_F32X_WIDE(y, x) COS_F32X (16, 8, y, x)
#define ERF_F32X_NARROW(y, x) ERF_F32X (8, 4, y, x)
#define ERF_F32X_WIDE(y, x) ERF_F32X (16, 8, y, x)

NARROW_AND_WIDE_ROWS (expm1, EXPM1_F32X)
NARROW_AND_WIDE_ROWS (tanh, TANH_F32X)
NARROW_AND_WIDE_ROWS (log1p, LOG1P_F32X)
NARROW_AND_WIDE_ROWS (sin, SIN_F32X)
NARROW_AND_WIDE_ROWS (cos, COS_F32X)
NARROW_AND_WIDE_ROWS (erf, ERF_F32X)

/* pow (|x|, e) for x finite and not zero and e finite: exp (e · log |x|),
 * the product clamped to ±200 (past which the float result is 0 or
 * infinity) and made in double, where it is good to 2^-43 of the
 * result's exponent. */
#define POW_ABS_F64X(D, y, a, b)                                                 \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D pa_l, pa_t, pa_s, pa_p;                                            \
                                                                                 \
    LOG_F64X (D, pa_l, LT_F64X_ABS (D, a), LOG_POLYNOMIAL_POW);                  \
    pa_t = (b) * pa_l;                                                           \
    pa_t = LT_F64X_SELECT (D, pa_t < -200.0, LT_F64X_SPLAT (D, -200), pa_t);     \
    pa_t = LT_F64X_SELECT (D, pa_t > 200.0, LT_F64X_SPLAT (D, 200), pa_t);       \
    EXP_PARTS_F64X (D, pa_s, pa_p, pa_t);                                        \
    (y) = pa_s * pa_p + pa_s;                                                    \
  }                                                                              \
  G_STMT_END

/* pow (x, e), x of either sign: a negative x gives NaN unless e is an
 * integer (every double from 2^52 up is one), and the sign of x where e is
 * odd (no double from 2^53 up is; past 2^105, e + SHIFTER can round to an
 * odd double). */
#define POW_F64X(D, y, a, b)                                                     \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D pw_t, pw_p;                                                        \
    LtI64x##D pw_negative = (a) < 0.0, pw_integer, pw_sign;                      \
                                                                                 \
    POW_ABS_F64X (D, pw_p, a, b);                                                \
    /* e rounded to an integer, meaningful below 2^51. */                        \
    pw_t = (b) + SHIFTER;                                                        \
    pw_integer = ((pw_t - SHIFTER) == (b)) | (LT_F64X_ABS (D, b) >= 0x1p52);     \
    pw_sign = (LtI64x##D) (SHIFTED_INTEGERS_X (D, pw_t) << 63);                  \
    pw_sign &= pw_negative & pw_integer & (LT_F64X_ABS (D, b) < 0x1p53);         \
    pw_p = (LtF64x##D) ((LtI64x##D) pw_p ^ pw_sign);                             \
    (y) = LT_F64X_SELECT (D, pw_negative & ~pw_integer, LT_F64X_SPLAT (D, NAN), pw_p); \
  }                                                                              \
  G_STMT_END

/* Zeros, infinities and NaNs, in either operand, go to libm; the sign
 * work is skipped where no base is negative, the common case. */
#define POW_F32X(W, D, y, x, e)                                                  \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D pw_xl, pw_xh, pw_el, pw_eh;                                        \
    LtI32x##W pw_wild = ~((LT_F32X_ABS (W, x) < INFINITY) & ((x) != 0.0f)        \
                        & (LT_F32X_ABS (W, e) < INFINITY));                      \
    LtI32x##W pw_any_negative = (x) < 0.0f;                                      \
                                                                                 \
    TO_DOUBLE_HALVES (W, pw_xl, pw_xh, x);                                       \
    TO_DOUBLE_HALVES (W, pw_el, pw_eh, e);                                       \
    if (LT_I32X##W##_ANY (pw_any_negative))                                      \
      {                                                                          \
        POW_F64X (D, pw_xl, pw_xl, pw_el);                                       \
        POW_F64X (D, pw_xh, pw_xh, pw_eh);                                       \
      }                                                                          \
    else                                                                         \
      {                                                                          \
        POW_ABS_F64X (D, pw_xl, pw_xl, pw_el);                                   \
        POW_ABS_F64X (D, pw_xh, pw_xh, pw_eh);                                   \
      }                                                                          \
    FROM_DOUBLE_HALVES (W, y, pw_xl, pw_xh);                                     \
    FALL_BACK (W, y, pw_wild, x, e, pow);                                        \
  }                                                                              \
  G_STMT_END

/* x ** e for e = 2, 3, -1 and -2, the powers PyTorch takes as products,
 * as it takes them, at its speed: x · x and 1 / x, correctly rounded, x · x
 * · x within 1.5 ulp and 1 / (x · x) within 1.5 ulp where x · x is a
 * normal float (beyond, PyTorch's: 0 past 1.8e19, where x^-2 is a
 * subnormal). What was tried for the last two is in bench/NOTES.md,
 * section 20. */
#define SQUARE_F32X8(y, x) ((y) = (x) * (x))
#define CUBE_F32X8(y, x) ((y) = (x) * (x) * (x))
#define RECIPROCAL_F32X8(y, x) ((y) = 1.0f / (x))
#define INVERSE_SQUARE_F32X8(y, x) ((y) = 1.0f / ((x) * (x)))

LANES_ROW (square_row_f32, SQUARE_F32X8)
LANES_ROW (cube_row_f32, CUBE_F32X8)
LANES_ROW (reciprocal_row_f32, RECIPROCAL_F32X8)
LANES_ROW (inverse_square_row_f32, INVERSE_SQUARE_F32X8)

/* A row of pow in @W float lanes (8 or 16), built with @MULTIVERSION: each
 * operand contiguous (step 1) or one number (step 0). */
#define POW_LANES_ROW(name, W, D, MULTIVERSION)                                  \
  MULTIVERSION static void                                                       \
  name (float *dst, const float *x, gint64 x_step, const float *e, gint64 e_step, \
        gint64 n)                                                                \
  {                                                                              \
    gint64 k = 0;                                                                \
                                                                                 \
    for (; k + (W) <= n; k += (W))                                               \
      {                                                                          \
        LtF32x##W a = LT_F32X_SPLAT (W, x[0]), b = LT_F32X_SPLAT (W, e[0]), y;   \
                                                                                 \
        if (x_step != 0)                                                         \
          a = *(const LtF32x##W *) (x + k);                                      \
        if (e_step != 0)                                                         \
          b = *(const LtF32x##W *) (e + k);                                      \
        POW_F32X (W, D, y, a, b);                                                \
        *(LtF32x##W *) (dst + k) = y;                                            \
      }                                                                          \
    if (k < n)                                                                   \
      {                                                                          \
        /* The tail, padded with pow (1, 1). */                                  \
        float xs[W], es[W];                                                      \
        LtF32x##W y;                                                             \
                                                                                 \
        for (gint64 l = 0; l < (W); l++)                                         \
          {                                                                      \
            xs[l] = k + l < n ? x[(k + l) * x_step] : 1.0f;                      \
            es[l] = k + l < n ? e[(k + l) * e_step] : 1.0f;                      \
          }                                                                      \
        POW_F32X (W, D, y, *(const LtF32x##W *) xs, *(const LtF32x##W *) es);    \
        memcpy (dst + k, &y, (gsize) (n - k) * sizeof (float));                  \
      }                                                                          \
  }

POW_LANES_ROW (pow_narrow_row_f32, 8, 4, LT_CPU_MULTIVERSION)
POW_LANES_ROW (pow_wide_row_f32, 16, 8, LT_CPU_TARGET_AVX512)

/* The rows for the tests, as EXPORT_ROW's. */
#define EXPORT_POW_ROW(width)                                                    \
  void lt_cpu_pow_##width##_f32 (float *dst, const float *x, gint64 x_step, const float *e, \
                                 gint64 e_step, gint64 n)                        \
  {                                                                              \
    pow_##width##_row_f32 (dst, x, x_step, e, e_step, n);                        \
  }

EXPORT_POW_ROW (narrow)
EXPORT_POW_ROW (wide)

void
lt_cpu_pow_f32 (float       *dst,
                const float *x,
                gint64       x_step,
                const float *e,
                gint64       e_step,
                gint64       n)
{
  static void (*const products[]) (float *, const float *, gint64) = {
    square_row_f32, cube_row_f32, reciprocal_row_f32, inverse_square_row_f32
  };
  LtCpuPower power = e_step == 0 ? lt_cpu_power_kind (e[0]) : LT_CPU_POWER_OTHER;

  if (power != LT_CPU_POWER_OTHER)
    {
      /* One base for the row: its power once, then copies. */
      gint64 m = x_step == 0 ? MIN (n, 1) : n;

      products[power] (dst, x, m);
      for (gint64 k = m; k < n; k++)
        dst[k] = dst[0];
    }
  else if (lt_cpu_has_avx512 ())
    pow_wide_row_f32 (dst, x, x_step, e, e_step, n);
  else
    pow_narrow_row_f32 (dst, x, x_step, e, e_step, n);
}
