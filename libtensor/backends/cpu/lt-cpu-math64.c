/* lt-cpu-math64.c: float64 exp, expm1, tanh, log, log1p, sigmoid, sin, cos,
 * erf and pow in double lanes
 *
 * Four double lanes at a time: one AVX register in the "avx2" clone, two
 * SSE registers in the baseline one, with the same operations in both, so
 * results do not depend on the CPU; but exp, sigmoid, sin and cos have a
 * version with fused multiply-adds too, which runs where the CPU has FMA
 * and rounds differently, each within its own bound. Where the CPU has
 * AVX-512, every function takes eight lanes at a time instead, with the
 * same operations lane by lane as the four (fused where those fuse), and
 * so the same results. Each function has a fast path for the lanes it
 * covers, tested once for the vector: exp for |x| <= 708, whose
 * result is a normal double; log for positive normal finite x. A vector
 * with any other lane (a NaN, an infinity, a zero, a subnormal, a negative
 * logarithm, an exp past ±708) takes its odd lanes through libm one at a
 * time, so those edges are exactly libm's.
 *
 * exp (x) = 2^n · exp (r): n is the integer nearest x · log2 (e), r = x -
 * n · ln 2 with ln 2 in two parts, the first of 41 bits so that n times it
 * and x less that are exact; the rounding of r is kept. exp (r), |r| <=
 * 0.35, is 1 + r + r²/2 + r³ · P (r), P of degree 9 fitted to 2^-59.2 of
 * expm1 (r) (so expm1 can take it too), in pairs of terms (Estrin's
 * scheme). 1 + r is taken exactly as two doubles, so the last rounding is
 * the one that matters: exp within 0.6 ulp (0.68 for its fused version,
 * below), expm1 within 0.85.
 *
 * pow (x, e) = exp (e · log (|x|)) with log (|x|) as two doubles from a
 * table (lt-cpu-log-table.h) and Taylor's terms, the product's low part
 * folded into exp's reduced argument (POW_F64X below): for normal bases
 * and products within ±708, within 0.62 ulp.
 *
 * log (x) for x = m · 2^k, m in [sqrt(1/2), sqrt(2)): with f = m - 1
 * (exact) and s = f / (2 + f), log (m) = 2 atanh (s) = f - (f²/2 - s ·
 * (f²/2 + R)), where R = s² · Q (s²) and Q, of degree 6, is a fit to
 * 2^-58.8 of log (m). f is exact and the rest is a correction a fifth of
 * its size or less, so the division's rounding barely reaches the result;
 * k · ln 2 goes in as two parts, the first exact: within 0.88 ulp, the
 * correction's two roundings adding to the last.
 *
 * The polynomials but pow's Taylor terms are fits of this project's own
 * (Lawson's reweighted least squares, in 50-digit arithmetic);
 * tests/test-cpu-math64.c measures every function against long double.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-log-table.h"
#include "lt-cpu-private.h"

/* ln 2 in two parts: the first has 41 significant bits, so its product
 * with any n below 2^12 is exact. */
#define LN2_HIGH 0x1.62e42fefa3000p-1
#define LN2_LOW 0x1.3de6af278ece6p-42

/* exp (r) = 1 + r + r²/2 + r³ · P (r), |r| <= 0.35: P's coefficients, of
 * r^0 to r^9. */
#define EXP_P0 0x1.5555555555559p-3
#define EXP_P1 0x1.5555555555548p-5
#define EXP_P2 0x1.111111110f785p-7
#define EXP_P3 0x1.6c16c16c1ce72p-10
#define EXP_P4 0x1.a01a01afa4e9fp-13
#define EXP_P5 0x1.a01a0182acf6ap-16
#define EXP_P6 0x1.71ddf8ce873f7p-19
#define EXP_P7 0x1.27e52b8c63e15p-22
#define EXP_P8 0x1.af5e1f18e1e84p-26
#define EXP_P9 0x1.1ef52eb7267f3p-29

/* Lanes of @y whose @odd mask is set get @CALL (x) from libm instead; one
 * test of the four where none is (the common case). */
#define FROM_LIBM(D, y, odd, x, CALL) LIBM_LANES (D, y, odd, x, x, CALL, LIBM_CALL1)

/* The same for @CALL (x, e), lanes of two vectors. */
#define FROM_LIBM2(D, y, odd, x, e, CALL)                                        \
  LIBM_LANES (D, y, odd, x, e, CALL, LIBM_CALL2)

/* How LIBM_LANES calls a function of one argument and of two. */
#define LIBM_CALL1(CALL, x, e) CALL (x)
#define LIBM_CALL2(CALL, x, e) CALL (x, e)

/* @y's lanes where @odd is set become @ARGUMENTS (@CALL, x, e) of the
 * lanes of @x and @e, one at a time. The lanes are copies taken inside
 * the branch and read by subscript: taking the address of @x, @e, @odd or
 * @y themselves (as memcpy () did) kept them in memory on the fast path
 * too, a store and a reload in every vector (a fifth of sigmoid's time). */
#define LIBM_LANES(D, y, odd, x, e, CALL, ARGUMENTS)                             \
  G_STMT_START                                                                   \
  {                                                                              \
    if (G_UNLIKELY (LT_I64X##D##_ANY (odd)))                                     \
      {                                                                          \
        LtF64x##D fl_x = (x), fl_e = (e), fl_y = (y);                            \
        LtI64x##D fl_odd = (odd);                                                \
                                                                                 \
        (void) fl_e;                                                             \
        for (guint fl_l = 0; fl_l < (D); fl_l++)                                 \
          if (fl_odd[fl_l])                                                      \
            fl_y[fl_l] = ARGUMENTS (CALL, fl_x[fl_l], fl_e[fl_l]);               \
        (y) = fl_y;                                                              \
      }                                                                          \
  }                                                                              \
  G_STMT_END

/* For lanes with |x| <= 708: @scale = 2^n, and @r and @small with exp (x
 * + x_low) = 2^n (1 + r + small) (see above): small is r²/2 + r³ P (r),
 * and the rounding of r times exp (r) to first order (its part of the
 * result). @x_low, a low part of x of an ulp or two of it at most, joins
 * r's low part. */
#define EXP_PARTS_F64X(D, scale, r, small, x, x_low)                             \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ep_t = (x) * 0x1.71547652b82fep0 + SHIFTER;                        \
    LtF64x##D ep_n = ep_t - SHIFTER;                                             \
    LtF64x##D ep_high = (x) - ep_n * LN2_HIGH, ep_low = ep_n * LN2_LOW - (x_low); \
    LtF64x##D ep_r2, ep_r4, ep_p;                                                \
                                                                                 \
    (r) = ep_high - ep_low;                                                      \
    ep_r2 = (r) * (r);                                                           \
    ep_r4 = ep_r2 * ep_r2;                                                       \
    ep_p = ((EXP_P0 + EXP_P1 * (r)) + (EXP_P2 + EXP_P3 * (r)) * ep_r2)           \
           + ((EXP_P4 + EXP_P5 * (r)) + (EXP_P6 + EXP_P7 * (r)) * ep_r2) * ep_r4 \
           + (EXP_P8 + EXP_P9 * (r)) * (ep_r4 * ep_r4);                          \
    ep_p = (ep_r2 * (r)) * ep_p + ((ep_high - (r)) - ep_low) * (1.0 + (r));      \
    (small) = 0.5 * ep_r2 + ep_p;                                                \
    (scale) = (LtF64x##D) ((SHIFTED_INTEGERS_X (D, ep_t) + 1023) << 52);         \
  }                                                                              \
  G_STMT_END

/* exp (@x) of lanes with |x| <= 708 as @high and, in @low, the part of
 * it the last rounding dropped (exact but where it falls below the
 * normals): 1 + r taken as one + its rounding error (exact: |r| < 1),
 * which joins the small part. */
#define EXP_SPLIT_F64X(D, high, low, x)                                          \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ex_scale, ex_r, ex_small, ex_one, ex_sum;                          \
                                                                                 \
    EXP_PARTS_F64X (D, ex_scale, ex_r, ex_small, x, 0.0);                        \
    ex_one = 1.0 + ex_r;                                                         \
    ex_small += (1.0 - ex_one) + ex_r;                                           \
    ex_sum = ex_one + ex_small;                                                  \
    (high) = ex_sum * ex_scale;                                                  \
    (low) = ((ex_one - ex_sum) + ex_small) * ex_scale;                           \
  }                                                                              \
  G_STMT_END

#define EXP_FAST_F64X(D, y, x)                                                   \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ex_scale, ex_r, ex_small, ex_one;                                  \
                                                                                 \
    EXP_PARTS_F64X (D, ex_scale, ex_r, ex_small, x, 0.0);                        \
    ex_one = 1.0 + ex_r;                                                         \
    (y) = (ex_one + (ex_small + ((1.0 - ex_one) + ex_r))) * ex_scale;            \
  }                                                                              \
  G_STMT_END

#define EXP_F64X(D, y, x)                                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D ex_odd = ~(LT_F64X_ABS (D, x) <= 708.0);                           \
                                                                                 \
    /* (What the odd lanes make of it is thrown away.) */                        \
    EXP_FAST_F64X (D, y, x);                                                     \
    FROM_LIBM (D, y, ex_odd, x, exp);                                            \
  }                                                                              \
  G_STMT_END

/* expm1 (x) = 2^n (1 + r + small) - 1 = (2^n - 1) + 2^n r + 2^n small:
 * the first two exact (to n = 53), their sum taken with its rounding
 * error (a full two-sum, for terms of any sizes), which joins the third:
 * within 0.85 ulp, where 2^n · expm1 (r) rounded alone and then added to
 * 2^n - 1 would lose an ulp in the cancellation. The result as @high, and
 * in @low the part of the last sum its rounding dropped (exact), for
 * lanes with |x| <= 708. */
#define EXPM1_FAST_F64X(D, high, low, x)                                         \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D em_scale, em_r, em_small, em_a, em_b, em_sum, em_a1, em_b1;        \
                                                                                 \
    EXP_PARTS_F64X (D, em_scale, em_r, em_small, x, 0.0);                        \
    em_a = em_scale - 1.0;                                                       \
    em_b = em_scale * em_r;                                                      \
    em_sum = em_a + em_b;                                                        \
    em_a1 = em_sum - em_b;                                                       \
    em_b1 = em_sum - em_a1;                                                      \
    /* (2^n - 1 rounds from n = 54 on; what it drops joins the rest.) */         \
    em_small = em_scale * em_small + ((em_scale - em_a) - 1.0);                  \
    em_small += (em_a - em_a1) + (em_b - em_b1);                                 \
    (high) = em_sum + em_small;                                                  \
    (low) = (em_sum - (high)) + em_small;                                        \
  }                                                                              \
  G_STMT_END

/* Zeros (whose sign expm1 keeps), |x| > 708 and NaN go to libm. */
#define EXPM1_F64X(D, y, x)                                                      \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D em_odd = ~((LT_F64X_ABS (D, x) <= 708.0) & ((x) != 0.0));          \
    LtF64x##D em_low;                                                            \
                                                                                 \
    EXPM1_FAST_F64X (D, y, em_low, x);                                           \
    (void) em_low;                                                               \
    FROM_LIBM (D, y, em_odd, x, expm1);                                          \
  }                                                                              \
  G_STMT_END

/* @v = @high + @low, each of at most 26 bits, so that products of two
 * parts are exact (Dekker's split). */
#define SPLIT_F64X(D, high, low, v)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D sp_c = (v) * 134217729.0;                                          \
                                                                                 \
    (high) = sp_c - (sp_c - (v));                                                \
    (low) = (v) - (high);                                                        \
  }                                                                              \
  G_STMT_END

/* @sum = a + b rounded and @error the part the rounding dropped, exact
 * for any a and b (Knuth's two-sum). */
#define TWO_SUM_F64X(D, sum, error, a, b)                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ts_a = (a), ts_b = (b), ts_a1, ts_b1;                              \
                                                                                 \
    (sum) = ts_a + ts_b;                                                         \
    ts_b1 = (sum) - ts_a;                                                        \
    ts_a1 = (sum) - ts_b1;                                                       \
    (error) = (ts_a - ts_a1) + (ts_b - ts_b1);                                   \
  }                                                                              \
  G_STMT_END

/* The same where a is 0 or |a| >= |b| (Dekker's fast two-sum). */
#define FAST_TWO_SUM_F64X(D, sum, error, a, b)                                   \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D fs_a = (a), fs_b = (b);                                            \
                                                                                 \
    (sum) = fs_a + fs_b;                                                         \
    (error) = fs_b - ((sum) - fs_a);                                             \
  }                                                                              \
  G_STMT_END

/* @product = a · b rounded and @error the rest, exact where no partial
 * product underflows (Dekker's product: no fused multiply-add in either
 * clone). */
#define TWO_PRODUCT_F64X(D, product, error, a, b)                                \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D tp_a = (a), tp_b = (b), tp_ah, tp_al, tp_bh, tp_bl;                \
                                                                                 \
    SPLIT_F64X (D, tp_ah, tp_al, tp_a);                                          \
    SPLIT_F64X (D, tp_bh, tp_bl, tp_b);                                          \
    (product) = tp_a * tp_b;                                                     \
    (error) = ((tp_ah * tp_bh - (product)) + tp_ah * tp_bl + tp_al * tp_bh)      \
              + tp_al * tp_bl;                                                   \
  }                                                                              \
  G_STMT_END

/* tanh (x) = e / (e + 2), e = expm1 (2 |x|) as a high and a low part,
 * the sign of x put back. The sum d = e + 2 is taken with its rounding
 * error (a two-sum), the quotient q = e · (1 / d) corrected by the exact
 * residual e - q · d (Dekker's product, there being no fused multiply-add
 * in either clone) and the low parts: q + (e - q d + e_low - q d_low) / d.
 * So neither expm1's last rounding, nor the sum's, nor the quotient's
 * reaches the result: within 0.7 ulp. |x| is held to 20, past which tanh
 * rounds to 1; zeros (whose sign tanh keeps) and NaN go to libm. */
#define TANH_F64X(D, y, x)                                                       \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D th_odd = ~(((x) == (x)) & ((x) != 0.0));                           \
    LtF64x##D th_a = LT_F64X_ABS (D, x), th_e, th_e_low, th_d, th_d_low;         \
    LtF64x##D th_q, th_p, th_p_low, th_inverse;                                  \
                                                                                 \
    th_a = LT_F64X_SELECT (D, th_a > 20.0, LT_F64X_SPLAT (D, 20), th_a);         \
    EXPM1_FAST_F64X (D, th_e, th_e_low, th_a + th_a);                            \
    TWO_SUM_F64X (D, th_d, th_d_low, th_e, LT_F64X_SPLAT (D, 2));                \
    th_d_low += th_e_low;                                                        \
    th_inverse = 1.0 / th_d;                                                     \
    th_q = th_e * th_inverse;                                                    \
    TWO_PRODUCT_F64X (D, th_p, th_p_low, th_q, th_d);                            \
    th_q += (((th_e - th_p) - th_p_low) + (th_e_low - th_q * th_d_low))          \
            * th_inverse;                                                        \
    (y) = (LtF64x##D) ((LtI64x##D) th_q | ((LtI64x##D) (x) & G_MININT64));       \
    FROM_LIBM (D, y, th_odd, x, tanh);                                           \
  }                                                                              \
  G_STMT_END

/* log (@x) of positive, normal, finite lanes (see above). Adding 1 -
 * sqrt(1/2)'s exponent and mantissa bits carries into the exponent field
 * just where m would reach sqrt(2), which leaves k + 1023 above the
 * mantissa and m - sqrt(1/2) below. */
#define LOG_FAST_F64X(D, y, x, extra)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    const guint64 lg_root_half = 0x3fe6a09e667f3bcd;                             \
    LtU64x##D lg_t = (LtU64x##D) (x) + (0x3ff0000000000000 - lg_root_half);      \
    LtU64x##D lg_k = (lg_t >> 52) - 1023;                                        \
    LtF64x##D lg_f = (LtF64x##D) ((lg_t & 0x000fffffffffffff) + lg_root_half) - 1.0; \
    LtF64x##D lg_s = lg_f / (lg_f + 2.0), lg_z = lg_s * lg_s, lg_z2 = lg_z * lg_z; \
    LtF64x##D lg_half_f2 = 0.5 * lg_f * lg_f, lg_n, lg_r;                        \
                                                                                 \
    lg_r = ((0x1.5555555555593p-1 + 0x1.999999997fc63p-2 * lg_z)                 \
            + (0x1.24924942073c8p-2 + 0x1.c71c51f4e7465p-3 * lg_z) * lg_z2)      \
           + ((0x1.74664397f3a11p-3 + 0x1.39a135d2867a4p-3 * lg_z)               \
              + 0x1.2f0b12196f765p-3 * lg_z2) * (lg_z2 * lg_z2);                 \
    lg_r *= lg_z;                                                                \
    lg_n = I64X_TO_F64X (D, lg_k);                                               \
    (y) = lg_n * LN2_HIGH                                                        \
          + (lg_f - (lg_half_f2 - (lg_s * (lg_half_f2 + lg_r)                    \
                                   + (lg_n * LN2_LOW + (extra)))));              \
  }                                                                              \
  G_STMT_END

#define LOG_F64X(D, y, x)                                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D lg_odd = ~(((x) >= 0x1p-1022) & ((x) < INFINITY));                 \
                                                                                 \
    LOG_FAST_F64X (D, y, x, 0.0);                                                \
    FROM_LIBM (D, y, lg_odd, x, log);                                            \
  }                                                                              \
  G_STMT_END

/* log1p (x) = log (u) + log (1 + d / u), where u = 1 + x rounded, d = x -
 * (u - 1) the part of x the rounding dropped, and log (1 + d / u) = d / u
 * to within 2^-106 of it. d is exact below 2^53 (u - 1 and x are then
 * multiples of x's ulp, at most one of u's apart); past it, d can be off
 * by 1, far below an ulp of the result. A tiny x gives u = 1 and the
 * result d = x, subnormals too. Zeros (whose sign log1p keeps), x <= -1,
 * +inf and NaN go to libm. */
#define LOG1P_F64X(D, y, x)                                                      \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D l1_odd = ~(((x) > -1.0) & ((x) < INFINITY) & ((x) != 0.0));        \
    LtF64x##D l1_u = 1.0 + (x);                                                  \
    LtF64x##D l1_d = (x) - (l1_u - 1.0);                                         \
                                                                                 \
    LOG_FAST_F64X (D, y, l1_u, l1_d / l1_u);                                     \
    FROM_LIBM (D, y, l1_odd, x, log1p);                                          \
  }                                                                              \
  G_STMT_END

/* @a · @b + @c, fused, for numbers @b and @c, in @D lanes. */
#define FMA_SPLATS(D, a, b, c) LT_F64X_FMA (D, (a), LT_F64X_SPLAT (D, b), LT_F64X_SPLAT (D, c))

/* exp (@x) of lanes with |x| <= 708 as @high and @low, and 1 + exp (x)
 * rounded (to an ulp or so) as @sum: EXP_SPLIT_F64X's reduction and
 * polynomial, written for sigmoid's lanes (x <= 0) and exp's (@high
 * alone, within 0.68 ulp), which the chain of dependent operations limits
 * more than their number (about three vectors' work is in flight at
 * once). So every product is fused with its sum
 * (LT_F64X_FMA); exp (r) = 1 + r + r² · Q (r) with Q (r) = 1/2 + r · P
 * (r) taken as one polynomial, Estrin's scheme in four fused steps; and
 * @high and @sum are each one fused step from 1 + r + r² · Q (r) (1 + r
 * as two doubles), not three. */
#define EXP_SPLIT_FUSED_F64X(D, high, low, sum, x)                               \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D se_t = FMA_SPLATS (D, (x), 0x1.71547652b82fep0, SHIFTER);          \
    LtF64x##D se_n = se_t - SHIFTER;                                             \
    LtF64x##D se_high = LT_F64X_FMA (D, se_n, LT_F64X_SPLAT (D, -LN2_HIGH), (x)); \
    LtF64x##D se_low = se_n * LN2_LOW;                                           \
    LtF64x##D se_r = se_high - se_low, se_r2 = se_r * se_r, se_r4 = se_r2 * se_r2; \
    LtF64x##D se_q0, se_q2, se_q4, se_q6, se_q8, se_q, se_small, se_one, se_scaled; \
                                                                                 \
    se_q0 = FMA_SPLATS (D, se_r, EXP_P0, 0.5);                                   \
    se_q2 = FMA_SPLATS (D, se_r, EXP_P2, EXP_P1);                                \
    se_q4 = FMA_SPLATS (D, se_r, EXP_P4, EXP_P3);                                \
    se_q6 = FMA_SPLATS (D, se_r, EXP_P6, EXP_P5);                                \
    se_q8 = FMA_SPLATS (D, se_r, EXP_P8, EXP_P7);                                \
    se_q0 = LT_F64X_FMA (D, se_q2, se_r2, se_q0);                                \
    se_q4 = LT_F64X_FMA (D, se_q6, se_r2, se_q4);                                \
    se_q8 = LT_F64X_FMA (D, se_r2, LT_F64X_SPLAT (D, EXP_P9), se_q8);            \
    se_q = LT_F64X_FMA (D, se_q4, se_r4, se_q0);                                 \
    se_q = LT_F64X_FMA (D, se_q8, se_r4 * se_r4, se_q);                          \
    /* r² · Q (r), the part of r its rounding dropped times exp (r), and   */    \
    /* the part of 1 + r that its rounding dropped (the last two summed    */    \
    /* while Q is evaluated).                                              */    \
    se_one = 1.0 + se_r;                                                         \
    se_small = LT_F64X_FMA (D, se_r2, se_q, ((se_high - se_r) - se_low) * se_one \
                                          + ((1.0 - se_one) + se_r));            \
    se_t = (LtF64x##D) ((SHIFTED_INTEGERS_X (D, se_t) + 1023) << 52);            \
    /* 2^n (1 + r), exact; high and 1 + high are a fused step from it. */        \
    se_scaled = se_one * se_t;                                                   \
    (high) = LT_F64X_FMA (D, se_small, se_t, se_scaled);                         \
    (low) = LT_F64X_FMA (D, se_small, se_t, se_scaled - (high));                 \
    (sum) = LT_F64X_FMA (D, se_small, se_t, 1.0 + se_scaled);                    \
  }                                                                              \
  G_STMT_END

/* exp (@x) in lanes built with LT_CPU_TARGET_FMA: EXP_SPLIT_FUSED_F64X's
 * high part (its low part and sum are never computed), within 0.68 ulp
 * (0.6709 at worst, found near r = ±ln 2 / 2 by a search);
 * |x| > 708 and NaN go to libm, as in EXP_F64X. */
#define EXP_FUSED_F64X(D, y, x)                                                  \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D ex_odd = ~(LT_F64X_ABS (D, x) <= 708.0);                           \
    LtF64x##D ex_low, ex_sum;                                                    \
                                                                                 \
    EXP_SPLIT_FUSED_F64X (D, y, ex_low, ex_sum, x);                              \
    (void) ex_low;                                                               \
    (void) ex_sum;                                                               \
    FROM_LIBM (D, y, ex_odd, x, exp);                                            \
  }                                                                              \
  G_STMT_END

/* sigmoid (x) = 1 / (1 + e) for x >= 0 and e / (1 + e) below, e = exp
 * (-|x|) <= 1 as a high and a low part (as float32's, lt-cpu-exp.c): an
 * ulp of e is two of the result where e / (1 + e) falls a binade below
 * e, so the part of e its rounding dropped, and the part 1 + e dropped,
 * go into the quotient q with the residual of q's own rounding (exact, by
 * a fused multiply-add) as (residual + top_low - q · sum_low) / (1 + e);
 * sum_low is what 1 + e's high and low parts less the sum leave, to
 * within an ulp of the low part, however the sum was rounded. The lanes
 * are within 1 ulp: 0.64 over (-40, 40), 0.84 near -708, where e's low
 * part is subnormal. |x| > 708 (1, or what PyTorch's 1 / (1 + exp (-x))
 * gives, within 1.05 ulp: 0 below -709.8) and NaN go to libm. */
#define SIGMOID_FUSED_F64X(D, y, x)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D sg_odd = ~(LT_F64X_ABS (D, x) <= 708.0), sg_positive = (x) >= 0.0; \
    LtF64x##D sg_e, sg_e_low, sg_top, sg_top_low, sg_sum, sg_sum_low, sg_q, sg_residual; \
                                                                                 \
    EXP_SPLIT_FUSED_F64X (D, sg_e, sg_e_low, sg_sum, -LT_F64X_ABS (D, x));       \
    sg_top = LT_F64X_SELECT (D, sg_positive, LT_F64X_SPLAT (D, 1), sg_e);        \
    sg_top_low = (LtF64x##D) ((LtI64x##D) sg_e_low & ~sg_positive);              \
    sg_sum_low = ((1.0 - sg_sum) + sg_e) + sg_e_low;                             \
    sg_q = sg_top / sg_sum;                                                      \
    sg_residual = LT_F64X_FMA (D, -sg_q, sg_sum, sg_top)                         \
                  + LT_F64X_FMA (D, -sg_q, sg_sum_low, sg_top_low);              \
    /* 1 / (1 + e) is q itself where the top is 1, and 1 - q where it is e. */   \
    (y) = LT_F64X_FMA (D, sg_residual, LT_F64X_SELECT (D, sg_positive, sg_q, 1.0 - sg_q), sg_q); \
    FROM_LIBM (D, y, sg_odd, x, SIGMOID_LIBM);                                   \
  }                                                                              \
  G_STMT_END

/* The same without fused operations, for processors without FMA
 * (LT_CPU_TARGET_FMA, lt-cpu-private.h): exp's parts as EXP_SPLIT_F64X
 * gives them, and no residual of q's rounding in the correction. Within
 * 1.1 ulp (1.0601 over 10^8 in (-40, 40)). */
#define SIGMOID_UNFUSED_F64X(D, y, x)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D sg_odd = ~(LT_F64X_ABS (D, x) <= 708.0), sg_positive = (x) >= 0.0; \
    LtF64x##D sg_e, sg_e_low, sg_top, sg_top_low, sg_sum, sg_sum_low, sg_q;      \
                                                                                 \
    EXP_SPLIT_F64X (D, sg_e, sg_e_low, -LT_F64X_ABS (D, x));                     \
    sg_top = LT_F64X_SELECT (D, sg_positive, LT_F64X_SPLAT (D, 1), sg_e);        \
    sg_top_low = (LtF64x##D) ((LtI64x##D) sg_e_low & ~sg_positive);              \
    sg_sum = 1.0 + sg_e;                                                         \
    sg_sum_low = ((1.0 - sg_sum) + sg_e) + sg_e_low;                             \
    sg_q = sg_top / sg_sum;                                                      \
    (y) = sg_q + (sg_top_low - sg_q * sg_sum_low)                                \
                 * LT_F64X_SELECT (D, sg_positive, sg_q, 1.0 - sg_q);            \
    FROM_LIBM (D, y, sg_odd, x, SIGMOID_LIBM);                                   \
  }                                                                              \
  G_STMT_END

/* PyTorch's formula, for the lanes past ±708. */
static inline double
sigmoid_libm (double x)
{
  return 1 / (1 + exp (-x));
}

#define SIGMOID_LIBM sigmoid_libm

/* pi / 2 in four parts, the first two of 32 bits each and the third of 29:
 * for |x| < 2^20, the q below has at most 20 bits, so q times any of the
 * three is exact. (With three parts, the third's own error and its
 * product's rounding came to an ulp of r near multiples of pi / 2.) */
#define HALF_PI_1 0x1.921fb54400000p+0
#define HALF_PI_2 0x1.0b4611a600000p-34
#define HALF_PI_3 0x1.3198a2ep-69
#define HALF_PI_4 0x1.b839a252049c1p-104

/* sin (x), or cos (x) where @cosine, of lanes with 0 < |x| < 2^20: x = q ·
 * pi / 2 + r, |r| <= pi / 4, q the integer nearest x · 2 / pi; then by the
 * quadrant k = q (sin) or q + 1 (cos), the result is sin (r), cos (r),
 * -sin (r), -cos (r) for k = 0 to 3 mod 4. r = x - q · pi / 2 is taken with
 * the first three parts, exact but for the last two subtractions, whose
 * roundings are kept in r_low (a full two-sum for the first: its terms
 * can be of any sizes), with the fourth part's product. With z = r²:
 * sin (r + r_low) = r + r z S (z) + r_low (1 - z/2), S of degree 5 fitted
 * to 2^-56.8; cos (r + r_low) = 1 - z/2 + z² C (z) - r r_low, C of degree
 * 5 fitted to 2^-59.2, 1 - z/2 taken as a double and the part its
 * rounding dropped. Both are computed, each lane picks one: within 0.92
 * ulp (cos near pi / 4).
 *
 * @MUL_ADD (D, a, b, c) is a · b + c, fused (MUL_ADD_FUSED, for lanes built
 * with LT_CPU_TARGET_FMA) or not (MUL_ADD_UNFUSED): both polynomials'
 * steps, q and the last step of each result. Fused, the lanes do 13 fewer
 * operations of about 56, in a shorter chain. */
#define SIN_COS_FAST_F64X(D, y, x, cosine, MUL_ADD)                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D sc_t = MUL_ADD (D, (x), LT_F64X_SPLAT (D, 0x1.45f306dc9c883p-1),   \
                            LT_F64X_SPLAT (D, SHIFTER));                         \
    LtF64x##D sc_q = sc_t - SHIFTER;                                             \
    LtU64x##D sc_k = (LtU64x##D) sc_t + ((cosine) ? 1 : 0);                      \
    LtF64x##D sc_a = (x) - sc_q * HALF_PI_1, sc_b = sc_q * HALF_PI_2;            \
    LtF64x##D sc_c = sc_q * HALF_PI_3, sc_d = sc_q * HALF_PI_4;                  \
    LtF64x##D sc_r1 = sc_a - sc_b, sc_a1 = sc_r1 + sc_b, sc_b1 = sc_a1 - sc_r1;  \
    LtF64x##D sc_r = sc_r1 - sc_c;                                               \
    LtF64x##D sc_low = ((sc_a - sc_a1) - (sc_b - sc_b1)) + ((sc_r1 - sc_r) - sc_c) \
                     - sc_d;                                                     \
    LtF64x##D sc_z = sc_r * sc_r, sc_z2 = sc_z * sc_z, sc_z4 = sc_z2 * sc_z2;    \
    LtF64x##D sc_half = 0.5 * sc_z, sc_w = 1.0 - sc_half, sc_sin, sc_cos;        \
                                                                                 \
    SIN_COS_POLYNOMIAL (D, sc_sin, MUL_ADD, sc_z, sc_z2, sc_z4,                  \
                        -0x1.5555555555548p-3, 0x1.111111110f78fp-7,             \
                        -0x1.a01a019bf5818p-13,                                  \
                        0x1.71de356041a85p-19, -0x1.ae5e5473b6177p-26,           \
                        0x1.5d8dfe75f09f3p-33);                                  \
    sc_sin = sc_r + MUL_ADD (D, sc_r * sc_z, sc_sin, sc_low * (1.0 - sc_half));  \
    SIN_COS_POLYNOMIAL (D, sc_cos, MUL_ADD, sc_z, sc_z2, sc_z4,                  \
                        0x1.555555555554bp-5, -0x1.6c16c16c14f47p-10,            \
                        0x1.a01a019c7cd93p-16,                                   \
                        -0x1.27e4f7e53dee4p-22, 0x1.1ee9d3dc5610ap-29,           \
                        -0x1.8fa290d071194p-37);                                 \
    sc_cos = sc_w + (((1.0 - sc_w) - sc_half)                                    \
                     + MUL_ADD (D, sc_z2, sc_cos, -(sc_r * sc_low)));            \
    sc_sin = LT_F64X_SELECT (D, (LtI64x##D) -(sc_k & 1), sc_cos, sc_sin);        \
    (y) = (LtF64x##D) ((LtU64x##D) sc_sin ^ ((sc_k & 2) << 62));                 \
  }                                                                              \
  G_STMT_END

/* @a · @b + @c of @D double lanes, fused or not. */
#define MUL_ADD_FUSED(D, a, b, c) LT_F64X_FMA (D, (a), (b), (c))
#define MUL_ADD_UNFUSED(D, a, b, c) ((a) * (b) + (c))

/* @result = c0 + c1 z + c2 z² + ... + c5 z^5 by Estrin's scheme, as (c0 +
 * c1 z) + (c2 + c3 z) z2 + (c4 + c5 z) z4 with z2 = z², z4 = z2². */
#define SIN_COS_POLYNOMIAL(D, result, MUL_ADD, z, z2, z4, c0, c1, c2, c3, c4, c5) \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D sp_01 = MUL_ADD (D, LT_F64X_SPLAT (D, c1), (z), LT_F64X_SPLAT (D, c0)); \
    LtF64x##D sp_23 = MUL_ADD (D, LT_F64X_SPLAT (D, c3), (z), LT_F64X_SPLAT (D, c2)); \
    LtF64x##D sp_45 = MUL_ADD (D, LT_F64X_SPLAT (D, c5), (z), LT_F64X_SPLAT (D, c4)); \
    LtF64x##D sp_03 = MUL_ADD (D, sp_23, (z2), sp_01);                           \
                                                                                 \
    (result) = MUL_ADD (D, sp_45, (z4), sp_03);                                  \
  }                                                                              \
  G_STMT_END

/* Zeros (whose sign sin keeps), large and non-finite x go to libm. */
#define SIN_COS_F64X(D, y, x, cosine, MUL_ADD, CALL)                             \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI64x##D sc_odd = ~((LT_F64X_ABS (D, x) < 0x1p20) & ((x) != 0.0));          \
                                                                                 \
    SIN_COS_FAST_F64X (D, y, x, cosine, MUL_ADD);                                \
    FROM_LIBM (D, y, sc_odd, x, CALL);                                           \
  }                                                                              \
  G_STMT_END

#define SIN_FUSED_F64X(D, y, x) SIN_COS_F64X (D, y, x, FALSE, MUL_ADD_FUSED, sin)
#define SIN_UNFUSED_F64X(D, y, x) SIN_COS_F64X (D, y, x, FALSE, MUL_ADD_UNFUSED, sin)
#define COS_FUSED_F64X(D, y, x) SIN_COS_F64X (D, y, x, TRUE, MUL_ADD_FUSED, cos)
#define COS_UNFUSED_F64X(D, y, x) SIN_COS_F64X (D, y, x, TRUE, MUL_ADD_UNFUSED, cos)

/* erf (x) in three pieces, each a polynomial in Estrin's scheme (pairs
 * of terms side by side, for short chains), the sign of x put back:
 * - |x| < 0.75: x + x · Q (x²), Q of degree 10 fitted to 2^-57.1 of
 *   erf (x) / x, its first term 2/sqrt(pi) - 1 as a double and the rest
 *   of it, ERF_Q_LOW (0.1 ulp of the result for small x), so that the
 *   last sum's rounding is the one that counts;
 * - up to 1.5: ERF_MIDDLE + M (|x| - 1.125), ERF_MIDDLE the double nearest
 *   erf (1.125) and M of degree 16 fitted to 2^-56.8 of erf (an eighth of
 *   its ulp), |M| <= 0.18; M's first four terms are taken one at a time,
 *   as their roundings are the ones that reach the result (0.83 ulp at
 *   worst, where it was 1.15 with Estrin's scheme throughout);
 * - beyond: 1 - exp (-x²) · G (|x| - 3.5), G of degree 17 fitted to
 *   exp (x²) · erfc (x) weighted by exp (-x²), so that the result is good
 *   to 2^-56.9; exp (-x²) <= 0.11 there, so its rounding, and that of x²,
 *   reach the result a tenth as much. |x| is held to 5.95 first: from
 *   5.92, erf rounds to ±1.
 * The last two are skipped where no lane needs them. NaN stays NaN, and no
 * lane needs libm. Within an ulp: 0.89 at worst found, by dense searches
 * below 0.03 (where the rounding of Q's sum is a tenth of an ulp of a
 * result at the top of its binade) and random draws elsewhere. */
#define ERF_MIDDLE 0x1.c6dad2829ec62p-1
/* 2/sqrt(pi) - 1 less erf_q[0], the double below it: positive, so that
 * x · ERF_Q_LOW has the sign of x · Q, and -0 stays -0. */
#define ERF_Q_LOW 0x1.1ae3a914fed80p-56

/* (c)[i] + (c)[i + 1] · v: a pair of terms of the polynomial @c. */
#define PAIR(c, i, v) ((c)[i] + (c)[(i) + 1] * (v))

/* The three polynomials, lowest degree first. */
/* Q (z), z = x² below 0.5625. */
static const double erf_q[11] = {
  0x1.06eba8214db68p-3, -0x1.812746b0379e2p-2, 0x1.ce2f21a0425cbp-4,
  -0x1.b82ce3125b745p-6, 0x1.565bcd03fbe28p-8, -0x1.c02db13b6aee9p-11,
  0x1.f9a2b25473c3ap-14, -0x1.f4c60d07a7312p-17, 0x1.b910b6f46ae94p-20,
  -0x1.565acd7c89c40p-23, 0x1.8a6b24895f6cfp-27
};
/* M (s), |s| <= 0.375. */
static const double erf_m[17] = {
  -0x1.ac67d2f619960p-57, 0x1.45e99bcbb7915p-2, -0x1.6ea6cf452e838p-2,
  0x1.4cb3cf0aa0d2ep-3, 0x1.ca50831679cfdp-6, -0x1.f65d15f1f6d15p-5,
  0x1.fd1c6c121a00dp-7, 0x1.3acc785d88468p-7, -0x1.8b43c44ade808p-8,
  -0x1.79b09eab9057ap-12, 0x1.2e5279cf1ec69p-10, -0x1.73116feed27bdp-13,
  -0x1.28dfd66c3e82cp-13, 0x1.9dd45b2bbac7bp-15, 0x1.682fc4a480cd4p-17,
  -0x1.e4cfb7e632de5p-18, -0x1.d9bd42b52cadbp-23
};
/* G (u), u in [-2, 2.45]. */
static const double erf_g[18] = {
  0x1.3e0a99a0ea705p-3, -0x1.5285d2edb7129p-5, 0x1.5d58110190ba7p-7,
  -0x1.5e5d7dca7cbb8p-9, 0x1.5632449665824p-11, -0x1.4609236389368p-13,
  0x1.2f8352a4e5445p-15, -0x1.14b920ea3ccf2p-17, 0x1.e9b0c3ecfa7e6p-20,
  -0x1.b2dcd71184012p-22, 0x1.9e114e8f3b427p-24, -0x1.8748b952c5ad0p-28,
  0x1.2856bddeba813p-27, -0x1.47001024b6913p-29, -0x1.52f3698ae9c2bp-29,
  -0x1.612552fe0ebbep-30, -0x1.416a8dff1e59cp-32, -0x1.1beb7c709eed2p-35
};

#define ERF_F64X(D, y, x)                                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D ef_a = LT_F64X_ABS (D, x), ef_z = (x) * (x);                       \
    LtF64x##D ef_z2 = ef_z * ef_z, ef_z4 = ef_z2 * ef_z2, ef_q;                  \
    LtI64x##D ef_small = ef_a < 0.75;                                            \
                                                                                 \
    ef_q = (PAIR (erf_q, 0, ef_z) + PAIR (erf_q, 2, ef_z) * ef_z2)               \
           + (PAIR (erf_q, 4, ef_z) + PAIR (erf_q, 6, ef_z) * ef_z2) * ef_z4     \
           + (PAIR (erf_q, 8, ef_z) + erf_q[10] * ef_z2) * (ef_z4 * ef_z4);      \
    (y) = (x) + ((x) * ef_q + (x) * ERF_Q_LOW);                                  \
    if (LT_I64X##D##_ANY (~ef_small))                                            \
      {                                                                          \
        LtF64x##D ef_c = LT_F64X_SELECT (D, ef_a > 5.95, LT_F64X_SPLAT (D, 5.95), \
                                        ef_a);                                   \
        LtF64x##D ef_s = ef_c - 1.125, ef_s2 = ef_s * ef_s, ef_s4 = ef_s2 * ef_s2; \
        LtF64x##D ef_u = ef_c - 3.5, ef_u2 = ef_u * ef_u, ef_u4 = ef_u2 * ef_u2; \
        LtF64x##D ef_s8 = ef_s4 * ef_s4, ef_u8 = ef_u4 * ef_u4, ef_m, ef_g, ef_e; \
                                                                                 \
        ef_m = (PAIR (erf_m, 4, ef_s) + PAIR (erf_m, 6, ef_s) * ef_s2)           \
               + (PAIR (erf_m, 8, ef_s) + PAIR (erf_m, 10, ef_s) * ef_s2)        \
                 * ef_s4                                                         \
               + (PAIR (erf_m, 12, ef_s) + PAIR (erf_m, 14, ef_s) * ef_s2        \
                  + erf_m[16] * ef_s4) * ef_s8;                                  \
        ef_m = erf_m[3] + ef_s * ef_m;                                           \
        ef_m = erf_m[0] + ef_s * (erf_m[1] + ef_s * (erf_m[2] + ef_s * ef_m));   \
        ef_g = (PAIR (erf_g, 0, ef_u) + PAIR (erf_g, 2, ef_u) * ef_u2)           \
               + (PAIR (erf_g, 4, ef_u) + PAIR (erf_g, 6, ef_u) * ef_u2) * ef_u4 \
               + ((PAIR (erf_g, 8, ef_u) + PAIR (erf_g, 10, ef_u) * ef_u2)       \
                  + (PAIR (erf_g, 12, ef_u) + PAIR (erf_g, 14, ef_u) * ef_u2)    \
                    * ef_u4) * ef_u8                                             \
               + PAIR (erf_g, 16, ef_u) * (ef_u8 * ef_u8);                       \
        EXP_FAST_F64X (D, ef_e, -(ef_c * ef_c));                                 \
        ef_g = 1.0 - ef_e * ef_g;                                                \
        ef_g = LT_F64X_SELECT (D, ef_c < 1.5, ERF_MIDDLE + ef_m, ef_g);          \
        ef_g = (LtF64x##D) ((LtI64x##D) ef_g | ((LtI64x##D) (x) & G_MININT64));  \
        (y) = LT_F64X_SELECT (D, ef_small, (y), ef_g);                           \
      }                                                                          \
  }                                                                              \
  G_STMT_END

/* A row function applying the lanes macro @LANES (D, y, x) to @n
 * contiguous doubles, four lanes at a time, the tail through a vector
 * padded with @pad. */
#define LANES_ROW_F64(name, LANES, pad)                                          \
  LANES_ROW_F64_WIDTH (name, LANES, pad, 4, LT_CPU_MULTIVERSION)

/* The same, its clones or target given by @MULTIVERSION
 * (LT_CPU_TARGET_FMA for lanes that fuse). */
#define LANES_ROW_F64_CLONED(name, LANES, pad, MULTIVERSION)                     \
  LANES_ROW_F64_WIDTH (name, LANES, pad, 4, MULTIVERSION)

/* The same eight lanes at a time, for processors with AVX-512: the same
 * operations lane by lane as four, and so the same results. */
#define LANES_ROW_F64_WIDE(name, LANES, pad)                                     \
  LANES_ROW_F64_WIDTH (name, LANES, pad, 8, LT_CPU_TARGET_AVX512)

/* The same @D lanes at a time (4 or 8). */
#define LANES_ROW_F64_WIDTH(name, LANES, pad, D, MULTIVERSION)                   \
  MULTIVERSION static void                                                       \
  name (double *dst, const double *src, gint64 n)                                \
  {                                                                              \
    gint64 k = 0;                                                                \
                                                                                 \
    for (; k + (D) <= n; k += (D))                                               \
      {                                                                          \
        LtF64x##D x, y;                                                          \
                                                                                 \
        memcpy (&x, src + k, sizeof x);                                          \
        LANES (D, y, x);                                                         \
        memcpy (dst + k, &y, sizeof y);                                          \
      }                                                                          \
    if (k < n)                                                                   \
      {                                                                          \
        LtF64x##D x = LT_F64X_SPLAT (D, pad), y;                                 \
                                                                                 \
        memcpy (&x, src + k, (gsize) (n - k) * sizeof (double));                 \
        LANES (D, y, x);                                                         \
        memcpy (dst + k, &y, (gsize) (n - k) * sizeof (double));                 \
      }                                                                          \
  }

/* lt_cpu_@name (), the row function @name for the rest of the backend. */
#define EXPORT_ROW_F64(name)                                                     \
  void lt_cpu_##name (double *dst, const double *src, gint64 n)                  \
  {                                                                              \
    name (dst, src, n);                                                          \
  }

/* Each of the rows @name_wide_f64, @name_fused_f64 and @name_unfused_f64,
 * and lt_cpu_@name_f64 (): the wide row where the processor has AVX-512,
 * the fused one where it has FMA, the unfused one elsewhere; the wide row
 * fuses as the fused one does, with its results. */
#define EXPORT_WIDE_FUSED_OR_UNFUSED_F64(name)                                   \
  EXPORT_ROW_F64 (name##_wide_f64)                                               \
  EXPORT_ROW_F64 (name##_fused_f64)                                              \
  EXPORT_ROW_F64 (name##_unfused_f64)                                            \
  void lt_cpu_##name##_f64 (double *dst, const double *src, gint64 n)            \
  {                                                                              \
    if (lt_cpu_has_avx512 ())                                                    \
      name##_wide_f64 (dst, src, n);                                             \
    else if (lt_cpu_has_fma ())                                                  \
      name##_fused_f64 (dst, src, n);                                            \
    else                                                                         \
      name##_unfused_f64 (dst, src, n);                                          \
  }

LANES_ROW_F64_CLONED (exp_fused_f64, EXP_FUSED_F64X, 0, LT_CPU_TARGET_FMA)
LANES_ROW_F64_WIDE (exp_wide_f64, EXP_FUSED_F64X, 0)
LANES_ROW_F64 (exp_unfused_f64, EXP_F64X, 0)
LANES_ROW_F64 (expm1_narrow_f64, EXPM1_F64X, 1)
LANES_ROW_F64_WIDE (expm1_wide_f64, EXPM1_F64X, 1)
LANES_ROW_F64 (tanh_narrow_f64, TANH_F64X, 1)
LANES_ROW_F64_WIDE (tanh_wide_f64, TANH_F64X, 1)
LANES_ROW_F64 (log_narrow_f64, LOG_F64X, 1)
LANES_ROW_F64_WIDE (log_wide_f64, LOG_F64X, 1)
LANES_ROW_F64 (log1p_narrow_f64, LOG1P_F64X, 1)
LANES_ROW_F64_WIDE (log1p_wide_f64, LOG1P_F64X, 1)
LANES_ROW_F64_CLONED (sigmoid_fused_f64, SIGMOID_FUSED_F64X, 0, LT_CPU_TARGET_FMA)
LANES_ROW_F64_WIDE (sigmoid_wide_f64, SIGMOID_FUSED_F64X, 0)
LANES_ROW_F64 (sigmoid_unfused_f64, SIGMOID_UNFUSED_F64X, 0)
LANES_ROW_F64_CLONED (sin_fused_f64, SIN_FUSED_F64X, 1, LT_CPU_TARGET_FMA)
LANES_ROW_F64_WIDE (sin_wide_f64, SIN_FUSED_F64X, 1)
LANES_ROW_F64 (sin_unfused_f64, SIN_UNFUSED_F64X, 1)
LANES_ROW_F64_CLONED (cos_fused_f64, COS_FUSED_F64X, 1, LT_CPU_TARGET_FMA)
LANES_ROW_F64_WIDE (cos_wide_f64, COS_FUSED_F64X, 1)
LANES_ROW_F64 (cos_unfused_f64, COS_UNFUSED_F64X, 1)
LANES_ROW_F64 (erf_narrow_f64, ERF_F64X, 0)
LANES_ROW_F64_WIDE (erf_wide_f64, ERF_F64X, 0)

EXPORT_WIDE_FUSED_OR_UNFUSED_F64 (exp)
EXPORT_WIDE_FUSED_OR_UNFUSED_F64 (sigmoid)
EXPORT_WIDE_FUSED_OR_UNFUSED_F64 (sin)
EXPORT_WIDE_FUSED_OR_UNFUSED_F64 (cos)

/* The functions without a fused version: each row, and lt_cpu_@name_f64
 * () picking the one the processor can run. */
#define EXPORT_WIDE_OR_NARROW_F64(name)                                          \
  EXPORT_ROW_F64 (name##_narrow_f64)                                             \
  EXPORT_ROW_F64 (name##_wide_f64)                                               \
  EXPORT_WIDE_OR_NARROW (lt_cpu_##name##_f64, double, name##_wide_f64,           \
                         name##_narrow_f64)

EXPORT_WIDE_OR_NARROW_F64 (expm1)
EXPORT_WIDE_OR_NARROW_F64 (tanh)
EXPORT_WIDE_OR_NARROW_F64 (log)
EXPORT_WIDE_OR_NARROW_F64 (log1p)
EXPORT_WIDE_OR_NARROW_F64 (erf)

/* x ** e for e = 2, 3, -1 and -2, the powers PyTorch takes as products,
 * as it takes them: x · x, x · x · x, 1 / x and 1 / (x · x), within 1.5
 * ulp where x · x is a normal double (beyond, PyTorch's: 0 past 1.3e154,
 * where x^-2 is a subnormal). */
#define SQUARE_F64X(D, y, x) ((y) = (x) * (x))
#define CUBE_F64X(D, y, x) ((y) = (x) * (x) * (x))
#define RECIPROCAL_F64X(D, y, x) ((y) = 1.0 / (x))
#define INVERSE_SQUARE_F64X(D, y, x) ((y) = 1.0 / ((x) * (x)))

LANES_ROW_F64 (square_f64, SQUARE_F64X, 1)
LANES_ROW_F64 (cube_f64, CUBE_F64X, 1)
LANES_ROW_F64 (reciprocal_f64, RECIPROCAL_F64X, 1)
LANES_ROW_F64 (inverse_square_f64, INVERSE_SQUARE_F64X, 1)

/* Column @column of the @D (4 or 8) log_table rows @rows. (Loading the
 * rows whole as vectors, padded to four, and transposing them was no
 * faster.) */
#define LOG_TABLE_COLUMN(D, rows, column) LOG_TABLE_COLUMN_##D (rows, column)
#define LOG_TABLE_COLUMN_4(rows, column)                                         \
  ((LtF64x4) { log_table[(rows)[0]][column], log_table[(rows)[1]][column],       \
               log_table[(rows)[2]][column], log_table[(rows)[3]][column] })
#define LOG_TABLE_COLUMN_8(rows, column)                                         \
  ((LtF64x8) { log_table[(rows)[0]][column], log_table[(rows)[1]][column],       \
               log_table[(rows)[2]][column], log_table[(rows)[3]][column],       \
               log_table[(rows)[4]][column], log_table[(rows)[5]][column],       \
               log_table[(rows)[6]][column], log_table[(rows)[7]][column] })

/* log (@x) as @high + @low, within about 2^-66 of it, for positive normal
 * finite lanes (float64 pow's logarithm). x = 2^k · z, z in [0.704, 1.41)
 * (the offset trick of LOG_FAST_F64X above), and z's top bits pick c⁻¹
 * from lt-cpu-log-table.h: 21 bits, so that with z split into 21 and 32
 * bits, r = z · c⁻¹ - 1 = (z_high · c⁻¹ - 1) + z_low · c⁻¹ is two exact
 * terms; their sum is taken with its rounding, d. Then log (x) = k ln 2 +
 * log (c) + log1p (r + d), |r| < 2^-8, with log1p (r + d) = r - r²/2 +
 * r³ (1/3 - r/4 + ... + r⁶/9) + d (1 - r). The heads of k ln 2 and log
 * (c) are multiples of 2^-41, so their sum s is exact; s + r and then
 * - r²/2 (r² exact, Dekker's) are taken with their roundings (fast
 * two-sums: |s| >= |r| wherever s is not 0, the table's neighbours of 1
 * having |log (c)| > 0.0045). Taylor's terms past r⁹ are below 2^-75 of
 * the result. (Without r⁹/9 they reach 2^-66.7 just above 1, where log
 * (c) is 0.0026: 0.14 ulp of pow's result with e · log (x) near 708, a
 * review found.) Near 1, k
 * and log (c) are 0 and r = z - 1 exactly, so small logarithms keep
 * their relative precision. */
#define LOG_SPLIT_F64X(D, high, low, x)                                          \
  G_STMT_START                                                                   \
  {                                                                              \
    LtU64x##D ls_t = (LtU64x##D) (x) + (0x3ff0000000000000 - LOG_TABLE_OFFSET);  \
    LtU64x##D ls_z_bits = (ls_t & 0x000fffffffffffff) + LOG_TABLE_OFFSET;        \
    LtU64x##D ls_i = (ls_t & 0x000fffffffffffff) >> (52 - LOG_TABLE_BITS);       \
    LtF64x##D ls_k = I64X_TO_F64X (D, (LtI64x##D) (ls_t >> 52) - 1023);          \
    LtF64x##D ls_z = (LtF64x##D) ls_z_bits, ls_z_high, ls_inverse, ls_log_c;     \
    LtF64x##D ls_log_c_low, ls_r, ls_d, ls_r2, ls_r2_low, ls_r4, ls_s, ls_s_low; \
    LtF64x##D ls_e1, ls_p;                                                       \
    guint64 ls_rows[D];                                                          \
                                                                                 \
    ls_z_high = (LtF64x##D) ((ls_z_bits + 0x80000000) & 0xffffffff00000000);     \
    memcpy (ls_rows, &ls_i, sizeof ls_rows);                                     \
    ls_inverse = LOG_TABLE_COLUMN (D, ls_rows, 0);                               \
    ls_log_c = LOG_TABLE_COLUMN (D, ls_rows, 1);                                 \
    ls_log_c_low = LOG_TABLE_COLUMN (D, ls_rows, 2);                             \
    TWO_SUM_F64X (D, ls_r, ls_d, ls_z_high * ls_inverse - 1.0,                   \
                   (ls_z - ls_z_high) * ls_inverse);                             \
    TWO_PRODUCT_F64X (D, ls_r2, ls_r2_low, ls_r, ls_r);                          \
    ls_r4 = ls_r2 * ls_r2;                                                       \
    ls_p = ((0x1.5555555555555p-2 - 0x1p-2 * ls_r)                               \
            + (0x1.999999999999ap-3 - 0x1.5555555555555p-3 * ls_r) * ls_r2)      \
           + ((0x1.2492492492492p-3 - 0x1p-3 * ls_r)                             \
              + 0x1.c71c71c71c71cp-4 * ls_r2) * ls_r4;                           \
    ls_s = ls_k * LN2_HIGH + ls_log_c;                                           \
    FAST_TWO_SUM_F64X (D, ls_s, ls_e1, ls_s, ls_r);                              \
    FAST_TWO_SUM_F64X (D, ls_s, ls_s_low, ls_s, -0.5 * ls_r2);                   \
    ls_s_low += ls_e1 + (ls_k * LN2_LOW + ls_log_c_low)                          \
                + ((ls_d - ls_d * ls_r) - 0.5 * ls_r2_low)                       \
                + (ls_r2 * ls_r) * ls_p;                                         \
    (high) = ls_s + ls_s_low;                                                    \
    (low) = (ls_s - (high)) + ls_s_low;                                          \
  }                                                                              \
  G_STMT_END

/* Lanes of @y, |x| ** @e, whose base is @negative: the sign of an odd
 * integer e, NaN where e is not an integer, and to libm (@odd) where |e|
 * >= 2^51. Integers are told, and their parity read, by rounding e at
 * the shifter, which holds below 2^51. */
#define POW_NEGATIVE_BASES_F64X(D, y, odd, negative, e)                          \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D pn_shifted = (e) + SHIFTER;                                        \
    LtI64x##D pn_sign = (LtI64x##D) SHIFTED_INTEGERS_X (D, pn_shifted) << 63;    \
                                                                                 \
    (odd) |= (negative) & ~(LT_F64X_ABS (D, e) < 0x1p51);                        \
    (y) = (LtF64x##D) ((LtI64x##D) (y) | ((negative) & pn_sign));                \
    (y) = LT_F64X_SELECT (D, (negative) & ((pn_shifted - SHIFTER) != (e)),       \
                           LT_F64X_SPLAT (D, NAN), (y));                         \
  }                                                                              \
  G_STMT_END

/* pow (x, e) = exp (e · log (|x|)) for lanes with a normal base and a
 * product within ±708: log (|x|) as two doubles (above), their product
 * with e as two (Dekker's), and exp of the sum with the low part folded
 * into the reduced argument, so the one rounding that reaches the result
 * is exp's last: within 0.62 ulp; negative bases then as above, where a
 * vector has one. Other lanes (zeros, subnormals, infinities, NaN,
 * results that overflow or fall below the normals) go to libm. */
#define POW_F64X(D, y, x, e)                                                     \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF64x##D pw_a = LT_F64X_ABS (D, x);                                         \
    LtI64x##D pw_negative = (x) < 0.0;                                           \
    LtI64x##D pw_odd = ~((pw_a >= 0x1p-1022) & (pw_a < INFINITY));               \
    LtF64x##D pw_log, pw_log_low, pw_t, pw_t_low;                                \
    LtF64x##D pw_scale, pw_r, pw_small, pw_one;                                  \
                                                                                 \
    LOG_SPLIT_F64X (D, pw_log, pw_log_low, pw_a);                                \
    TWO_PRODUCT_F64X (D, pw_t, pw_t_low, e, pw_log);                             \
    pw_t_low += (e) * pw_log_low;                                                \
    /* (A NaN from the split of an e past about 2^996 lands here too.) */        \
    pw_odd |= ~(LT_F64X_ABS (D, pw_t + pw_t_low) <= 708.0);                      \
    EXP_PARTS_F64X (D, pw_scale, pw_r, pw_small, pw_t, pw_t_low);                \
    pw_one = 1.0 + pw_r;                                                         \
    (y) = (pw_one + (pw_small + ((1.0 - pw_one) + pw_r))) * pw_scale;            \
    if (G_UNLIKELY (LT_I64X##D##_ANY (pw_negative)))                             \
      POW_NEGATIVE_BASES_F64X (D, y, pw_odd, pw_negative, e);                    \
    FROM_LIBM2 (D, y, pw_odd, x, e, pow);                                        \
  }                                                                              \
  G_STMT_END

/* @result: @D lanes of @v a @step apart from @k on (0: @splat, its one
 * value in every lane, loaded once before the loop), the lanes past @n 1.
 * Whole vectors of a contiguous row are loaded as one, not lane by lane
 * through memory (a store that cannot be forwarded). */
#define POW_LANES_LOAD(D, result, v, step, splat, k, n)                          \
  G_STMT_START                                                                   \
  {                                                                              \
    if ((step) == 0)                                                             \
      (result) = (splat);                                                        \
    else if ((step) == 1 && (k) + (D) <= (n))                                    \
      memcpy (&(result), (v) + (k), sizeof (result));                            \
    else                                                                         \
      {                                                                          \
        double pl_lanes[D];                                                      \
                                                                                 \
        for (gint64 pl_l = 0; pl_l < (D); pl_l++)                                \
          pl_lanes[pl_l] = pl_l < (n) - (k) ? (v)[((k) + pl_l) * (step)] : 1.0;  \
        memcpy (&(result), pl_lanes, sizeof (result));                           \
      }                                                                          \
  }                                                                              \
  G_STMT_END

/* pow for @n lanes of @x and @e, each a step apart (0: one value for the
 * row), @D (4 or 8) lanes at a time, built with @MULTIVERSION. */
#define POW_LANES_ROW_F64(name, D, MULTIVERSION)                                 \
  MULTIVERSION static void                                                       \
  name (double *dst, const double *x, gint64 x_step, const double *e, gint64 e_step, \
        gint64 n)                                                                \
  {                                                                              \
    /* The one value of a step-0 operand, splat here: the loop cannot     */     \
    /* reload it once dst is stored, which may alias it as far as the     */     \
    /* compiler knows.                                                    */     \
    LtF64x##D x_splat = LT_F64X_SPLAT (D, n > 0 ? x[0] : 0);                     \
    LtF64x##D e_splat = LT_F64X_SPLAT (D, n > 0 ? e[0] : 0);                     \
                                                                                 \
    for (gint64 k = 0; k < n; k += (D))                                          \
      {                                                                          \
        LtF64x##D vx, ve, vy;                                                    \
                                                                                 \
        POW_LANES_LOAD (D, vx, x, x_step, x_splat, k, n);                        \
        POW_LANES_LOAD (D, ve, e, e_step, e_splat, k, n);                        \
        POW_F64X (D, vy, vx, ve);                                                \
        if (k + (D) <= n)                                                        \
          memcpy (dst + k, &vy, sizeof vy);                                      \
        else                                                                     \
          memcpy (dst + k, &vy, (gsize) (n - k) * sizeof (double));              \
      }                                                                          \
  }

POW_LANES_ROW_F64 (pow_lanes_f64, 4, LT_CPU_MULTIVERSION)
POW_LANES_ROW_F64 (pow_wide_lanes_f64, 8, LT_CPU_TARGET_AVX512)

/* The lanes alone, each width, for the tests. */
#define EXPORT_POW_LANES_F64(name)                                               \
  void lt_cpu_##name (double *dst, const double *x, gint64 x_step, const double *e, \
                      gint64 e_step, gint64 n)                                   \
  {                                                                              \
    name (dst, x, x_step, e, e_step, n);                                         \
  }

EXPORT_POW_LANES_F64 (pow_lanes_f64)
EXPORT_POW_LANES_F64 (pow_wide_lanes_f64)

void
lt_cpu_pow_f64 (double       *dst,
                const double *x,
                gint64        x_step,
                const double *e,
                gint64        e_step,
                gint64        n)
{
  static void (*const products[]) (double *, const double *, gint64) = {
    square_f64, cube_f64, reciprocal_f64, inverse_square_f64
  };
  LtCpuPower power = e_step == 0 ? lt_cpu_power_kind (e[0]) : LT_CPU_POWER_OTHER;
  /* One base and one exponent for the row: their power once, then copies. */
  gint64 m = x_step == 0 && e_step == 0 ? MIN (n, 1) : n;

  if (power != LT_CPU_POWER_OTHER)
    products[power] (dst, x, m);
  else if (lt_cpu_has_avx512 ())
    pow_wide_lanes_f64 (dst, x, x_step, e, e_step, m);
  else
    pow_lanes_f64 (dst, x, x_step, e, e_step, m);
  for (gint64 k = m; k < n; k++)
    dst[k] = dst[0];
}
