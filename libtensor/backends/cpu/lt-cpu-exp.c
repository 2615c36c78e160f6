/* lt-cpu-exp.c: float32 exp in lanes, and the softmax lines built on it
 *
 * exp () of contiguous float32 rows (the unary op) and softmax and
 * log_softmax of float32 lines, either along a contiguous row or down
 * columns whose neighbours are contiguous, eight lanes at a time through
 * LT_CPU_EXP_F32X8 (lt-cpu-lanes.h). The sums of the exponentials are kept
 * in double: in float leaves of 512 elements cascaded into double along a
 * row, in double lanes down columns, so a line's sum is good to a few
 * float roundings whatever its length.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-private.h"

/* Row elements summed in float lanes before their sum goes into double. */
#define LEAF 512

/* Columns a call of lt_cpu_softmax_columns_f32 () takes: a 64-byte line. */
#define COLUMNS 16

LANES_ROW (exp_narrow_row_f32, LT_CPU_EXP_F32X8)
LANES_ROW_WIDTH (exp_wide_row_f32, LT_CPU_EXP_F32X16, 16, LT_CPU_TARGET_AVX512)
LANES_ROW (log_narrow_row_f32, LT_CPU_LOG_F32X8)
LANES_ROW_WIDTH (log_wide_row_f32, LT_CPU_LOG_F32X16, 16, LT_CPU_TARGET_AVX512)
EXPORT_ROW (exp_narrow)
EXPORT_ROW (exp_wide)
EXPORT_WIDE_OR_NARROW (lt_cpu_exp_f32, float, exp_wide_row_f32, exp_narrow_row_f32)
EXPORT_ROW (log_narrow)
EXPORT_ROW (log_wide)
EXPORT_WIDE_OR_NARROW (lt_cpu_log_f32, float, log_wide_row_f32, log_narrow_row_f32)

/* @a · @b + @c, fused, for numbers @b and @c, in @W lanes. */
#define FMA_SPLATS(W, a, b, c) LT_F32X_FMA (W, (a), LT_F32X_SPLAT (W, b), LT_F32X_SPLAT (W, c))

/* exp (@x) for lanes @x <= 0 (or NaN) as @high and @low, the part of it
 * @high's rounding dropped: LT_CPU_EXP_SPLIT_F32X8's reduction and
 * polynomial, written for sigmoid's lanes, which the chain of dependent
 * operations limits more than their number (about eight vectors' work is
 * in flight at once): every product fused with its sum, the polynomial
 * evaluated by Estrin's scheme (three steps of dependent fused
 * operations, not Horner's six), and (1 + p) · 2^n as one. Where a lane
 * is below -87, the input is clamped to -104 (where exp rounds to 0) and
 * 2^n goes in as two factors, so a subnormal result rounds once more. */
#define SIGMOID_EXP_F32X(W, high, low, x)                                        \
  G_STMT_START                                                                   \
  {                                                                              \
    const LtF32x##W shifter_ = LT_F32X_SPLAT (W, 0x1.8p23f);                     \
    LtF32x##W x_ = (x), t_, n_, r_, r2_, p_, p01_, p23_, p45_, scale_, scale2_;  \
    LtI32x##W k_, half_;                                                         \
    gboolean wide_ = LT_I32X##W##_ANY (x_ < -87.0f);                             \
                                                                                 \
    if (G_UNLIKELY (wide_))                                                      \
      x_ = LT_F32X_SELECT (W, x_ < -104.0f, LT_F32X_SPLAT (W, -104.0f), x_);     \
    t_ = LT_F32X_FMA (W, x_, LT_F32X_SPLAT (W, 1.44269504088896341f), shifter_); \
    k_ = (LtI32x##W) t_ - (LtI32x##W) shifter_;                                  \
    n_ = t_ - shifter_;                                                          \
    r_ = LT_F32X_FMA (W, n_, LT_F32X_SPLAT (W, -0.693359375f), x_);              \
    r_ = LT_F32X_FMA (W, n_, LT_F32X_SPLAT (W, 2.12194440e-4f), r_);             \
    r2_ = r_ * r_;                                                               \
    p45_ = FMA_SPLATS (W, r_, LT_CPU_EXP_F32_P5, LT_CPU_EXP_F32_P4);             \
    p23_ = FMA_SPLATS (W, r_, LT_CPU_EXP_F32_P3, LT_CPU_EXP_F32_P2);             \
    p01_ = FMA_SPLATS (W, r_, LT_CPU_EXP_F32_P1, LT_CPU_EXP_F32_P0);             \
    p_ = LT_F32X_FMA (W, p23_, r2_, p01_);                                       \
    p_ = LT_F32X_FMA (W, p45_, r2_ * r2_, p_);                                   \
    p_ = LT_F32X_FMA (W, p_, r2_, r_);                                           \
    if (G_UNLIKELY (wide_))                                                      \
      {                                                                          \
        half_ = k_ >> 1;                                                         \
        k_ -= half_;                                                             \
        scale_ = (LtF32x##W) ((half_ + 127) << 23);                              \
        scale2_ = (LtF32x##W) ((k_ + 127) << 23);                                \
      }                                                                          \
    else                                                                         \
      {                                                                          \
        scale_ = (LtF32x##W) ((k_ + 127) << 23);                                 \
        scale2_ = LT_F32X_SPLAT (W, 1);                                          \
      }                                                                          \
    /* (1 + p) · 2^n, and what its rounding dropped: 2^n - high is exact    */ \
    /* (high is within a factor of two of it), and so is the rest, but     */ \
    /* where it falls below the normals.                                   */ \
    (high) = LT_F32X_FMA (W, p_, scale_, scale_);                                \
    (low) = LT_F32X_FMA (W, p_, scale_, scale_ - (high));                        \
    if (G_UNLIKELY (wide_))                                                      \
      {                                                                          \
        (high) *= scale2_;                                                       \
        (low) *= scale2_;                                                        \
      }                                                                          \
  }                                                                              \
  G_STMT_END

/* For SIGMOID_FUSED_F32X8 and SIGMOID_UNFUSED_F32X8, from their
 * positive_, e_ and e_low_: the top of the quotient and its low part, the
 * sum and its low part, the quotient q_ and the reciprocal of the sum to
 * an ulp, inverse_ (see below). */
#define SIGMOID_QUOTIENT_F32X(W)                                                 \
  G_STMT_START                                                                   \
  {                                                                              \
    top_ = LT_F32X_SELECT (W, positive_, LT_F32X_SPLAT (W, 1), e_);              \
    top_low_ = (LtF32x##W) ((LtI32x##W) e_low_ & ~positive_);                    \
    sum_ = 1.0f + e_;                                                            \
    sum_low_ = e_ - (sum_ - 1.0f);                                               \
    q_ = top_ / sum_;                                                            \
    inverse_ = LT_F32X_SELECT (W, positive_, q_, 1.0f - q_);                     \
  }                                                                              \
  G_STMT_END

/* sigmoid (x) = 1 / (1 + e) for x >= 0 and e / (1 + e) below, with
 * e = exp (-|x|) <= 1: no overflow. e comes as a float and the part of it
 * the float dropped, so its error does not reach the result (an ulp of e
 * is two of the result where e / (1 + e) falls a binade below e); 1 + e
 * is taken as a float sum and the part of e it dropped (the part of e the
 * float dropped changes the sum too little to matter there). The quotient
 * of the top and the sum, q, is then corrected by (the residual of its
 * rounding, exact by a fused multiply-add, + top's part - q · sum's part)
 * / sum, terms 2^-24 the size of q, for which the reciprocal of the sum to
 * an ulp is more than enough: q itself where the top is 1, and 1 - q where
 * it is e (1 / (1 + e) = 1 - e / (1 + e)). Within 1.1 ulp (1.0315 over
 * all floats, where e / (1 + e) is e to within the roundings of exp's r and
 * polynomial, which e's low part does not carry). (Which NaN comes out
 * for a NaN may differ between builds: fused operations pick among their
 * NaN operands differently.) */
#define SIGMOID_FUSED_F32X(W, y, x)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI32x##W positive_ = (x) >= 0.0f;                                           \
    LtF32x##W e_, e_low_, top_, top_low_, sum_, sum_low_, q_, inverse_;          \
    LtF32x##W residual_;                                                         \
                                                                                 \
    /* exp (-|x|): the sign bit set. */                                          \
    SIGMOID_EXP_F32X (W, e_, e_low_,                                             \
                      (LtF32x##W) ((LtI32x##W) (x)                               \
                                   | ((LtI32x##W) { 0 } + G_MININT32)));         \
    SIGMOID_QUOTIENT_F32X (W);                                                   \
    residual_ = LT_F32X_FMA (W, -q_, sum_, top_);                                \
    residual_ += LT_F32X_FMA (W, -q_, sum_low_, top_low_);                       \
    (y) = LT_F32X_FMA (W, residual_, inverse_, q_);                              \
  }                                                                              \
  G_STMT_END

/* The same without fused operations, for processors without FMA
 * (LT_CPU_TARGET_FMA, lt-cpu-private.h): exp's parts as
 * LT_CPU_EXP_SPLIT_F32X8 gives them, and no residual of q's rounding in
 * the correction. Within 1.5 ulp (1.47 over all floats). */
#define SIGMOID_UNFUSED_F32X8(y, x)                                              \
  G_STMT_START                                                                   \
  {                                                                              \
    LtI32x8 positive_ = (x) >= 0.0f;                                             \
    LtF32x8 e_, e_low_, top_, top_low_, sum_, sum_low_, q_, inverse_;            \
                                                                                 \
    LT_CPU_EXP_SPLIT_F32X8 (e_, e_low_, (LtF32x8) ((LtI32x8) (x) | ((LtI32x8) { 0 } + G_MININT32))); \
    SIGMOID_QUOTIENT_F32X (8);                                                   \
    (y) = q_ + (top_low_ - q_ * sum_low_) * inverse_;                            \
  }                                                                              \
  G_STMT_END

#define SIGMOID_FUSED_F32X8(y, x) SIGMOID_FUSED_F32X (8, y, x)
#define SIGMOID_FUSED_F32X16(y, x) SIGMOID_FUSED_F32X (16, y, x)

LANES_ROW_CLONED (sigmoid_fused_row_f32, SIGMOID_FUSED_F32X8, LT_CPU_TARGET_FMA)
LANES_ROW_WIDTH (sigmoid_fused_wide_row_f32, SIGMOID_FUSED_F32X16, 16, LT_CPU_TARGET_AVX512)
LANES_ROW (sigmoid_unfused_row_f32, SIGMOID_UNFUSED_F32X8)
EXPORT_ROW (sigmoid_fused)
EXPORT_ROW (sigmoid_fused_wide)
EXPORT_ROW (sigmoid_unfused)

/* The fused version sixteen lanes wide where the CPU has AVX-512 (the
 * same results as eight lanes wide), eight where it has FMA, the unfused
 * one elsewhere. */
void
lt_cpu_sigmoid_f32 (float       *dst,
                    const float *src,
                    gint64       n)
{
  if (lt_cpu_has_avx512 ())
    sigmoid_fused_wide_row_f32 (dst, src, n);
  else if (lt_cpu_has_fma ())
    sigmoid_fused_row_f32 (dst, src, n);
  else
    sigmoid_unfused_row_f32 (dst, src, n);
}

/* The largest of @n floats, ignoring NaNs (a NaN reaches every result
 * through its own exponential anyway); -inf if there is none. */
LT_CPU_MULTIVERSION static float
row_max_f32 (const float *v,
             gint64       n)
{
  LtF32x8 m0 = LT_F32X8_SPLAT (-INFINITY), m1 = m0;
  float lanes[8], max = -INFINITY;
  gint64 k = 0;

  for (; k + 16 <= n; k += 16)
    {
      LtF32x8 x0 = *(const LtF32x8 *) (v + k), x1 = *(const LtF32x8 *) (v + k + 8);

      m0 = LT_F32X8_SELECT (x0 > m0, x0, m0);
      m1 = LT_F32X8_SELECT (x1 > m1, x1, m1);
    }
  m0 = LT_F32X8_SELECT (m1 > m0, m1, m0);
  memcpy (lanes, &m0, sizeof lanes);
  for (guint l = 0; l < 8; l++)
    max = lanes[l] > max ? lanes[l] : max;
  for (; k < n; k++)
    max = v[k] > max ? v[k] : max;
  return max;
}

/* exp (v[k] - max) for the @n floats of @v, into @out unless it is NULL;
 * returns their sum. A leaf's exponentials go into four vectors of lanes,
 * so each lane adds at most LEAF / 32 of them: the sum's error stays within
 * about 20 float roundings, as the sums' (lt-cpu-reduce.c). */
#define EXP_INTO(sum, out, k, x)                                                 \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x8 y_;                                                                  \
                                                                                 \
    LT_CPU_EXP_F32X8 (y_, (x) - max);                                            \
    if ((out) != NULL)                                                           \
      *(LtF32x8 *) ((out) + (k)) = y_;                                           \
    (sum) += y_;                                                                 \
  }                                                                              \
  G_STMT_END

LT_CPU_MULTIVERSION static double
row_exp_sum_f32 (float       *out,
                 const float *v,
                 gint64       n,
                 float        max)
{
  LtF64x4 total = { 0 };
  double lanes[4];
  gint64 k = 0;

  while (k < n)
    {
      gint64 end = MIN (n, k + LEAF);
      LtF32x8 s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 };
      LtF32x4 low, high;

      for (; k + 32 <= end; k += 32)
        {
          EXP_INTO (s0, out, k, *(const LtF32x8 *) (v + k));
          EXP_INTO (s1, out, k + 8, *(const LtF32x8 *) (v + k + 8));
          EXP_INTO (s2, out, k + 16, *(const LtF32x8 *) (v + k + 16));
          EXP_INTO (s3, out, k + 24, *(const LtF32x8 *) (v + k + 24));
        }
      for (; k + 8 <= end; k += 8)
        EXP_INTO (s0, out, k, *(const LtF32x8 *) (v + k));
      if (k < end)
        {
          /* The tail, padded with -inf: exp (-inf - max) is 0, or NaN
           * where max is -inf and every real lane is NaN too. */
          float buf[8];
          LtF32x8 y;

          for (gint64 l = 0; l < 8; l++)
            buf[l] = k + l < end ? v[k + l] : -INFINITY;
          LT_CPU_EXP_F32X8 (y, *(const LtF32x8 *) buf - max);
          if (out != NULL)
            memcpy (out + k, &y, (gsize) (end - k) * sizeof (float));
          s1 += y;
          k = end;
        }
      s0 = (s0 + s1) + (s2 + s3);
      memcpy (&low, &s0, sizeof low);
      memcpy (&high, (const char *) &s0 + sizeof low, sizeof high);
      total += __builtin_convertvector (low, LtF64x4) + __builtin_convertvector (high, LtF64x4);
    }
  memcpy (lanes, &total, sizeof lanes);
  return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
}

/* dst = (float) (src - shift), in double. */
LT_CPU_MULTIVERSION static void
shift_row_f32 (float       *dst,
               const float *src,
               gint64       n,
               double       shift)
{
  for (gint64 k = 0; k < n; k++)
    dst[k] = (float) ((double) src[k] - shift);
}

LT_CPU_MULTIVERSION static void
scale_row_f32 (float  *dst,
               gint64  n,
               float   scale)
{
  for (gint64 k = 0; k < n; k++)
    dst[k] *= scale;
}

void
lt_cpu_softmax_row_f32 (float       *dst,
                        const float *src,
                        gint64       n,
                        gboolean     log_softmax)
{
  float max = row_max_f32 (src, n);
  double sum = row_exp_sum_f32 (log_softmax ? NULL : dst, src, n, max);

  if (log_softmax)
    {
      shift_row_f32 (dst, src, n, (double) max + log (sum));
    }
  else
    {
      scale_row_f32 (dst, n, (float) (1 / sum));
    }
}

/* Up to COLUMNS floats of a row into @x, the rest -inf. */
static inline void
load_columns (LtF32x8     x[2],
              const float *row,
              gint64       width)
{
  if (width == COLUMNS)
    {
      x[0] = *(const LtF32x8 *) row;
      x[1] = *(const LtF32x8 *) (row + 8);
    }
  else
    {
      float buf[COLUMNS];

      for (gint64 c = 0; c < COLUMNS; c++)
        buf[c] = c < width ? row[c] : -INFINITY;
      memcpy (x, buf, sizeof buf);
    }
}

static inline void
store_columns (float         *row,
               const LtF32x8  y[2],
               gint64         width)
{
  if (width == COLUMNS)
    {
      *(LtF32x8 *) row = y[0];
      *(LtF32x8 *) (row + 8) = y[1];
    }
  else
    {
      memcpy (row, y, (gsize) width * sizeof (float));
    }
}

LT_CPU_MULTIVERSION static void
softmax_columns_f32 (float       *dst,
                     gint64       dst_row,
                     const float *src,
                     gint64       src_row,
                     gint64       length,
                     gint64       width,
                     gboolean     log_softmax)
{
  LtF32x8 max[2] = { LT_F32X8_SPLAT (-INFINITY), LT_F32X8_SPLAT (-INFINITY) };
  LtF64x4 sums[4] = { { 0 } };
  double sum[COLUMNS];
  float max_lanes[COLUMNS];

  g_assert (width > 0 && width <= COLUMNS);

  for (gint64 t = 0; t < length; t++)
    {
      LtF32x8 x[2];

      load_columns (x, src + t * src_row, width);
      for (guint h = 0; h < 2; h++)
        max[h] = LT_F32X8_SELECT (x[h] > max[h], x[h], max[h]);
    }
  for (gint64 t = 0; t < length; t++)
    {
      LtF32x8 x[2], y[2];

      load_columns (x, src + t * src_row, width);
      for (guint h = 0; h < 2; h++)
        {
          LtF32x4 low, high;

          LT_CPU_EXP_F32X8 (y[h], x[h] - max[h]);
          memcpy (&low, &y[h], sizeof low);
          memcpy (&high, (const char *) &y[h] + sizeof low, sizeof high);
          sums[2 * h] += __builtin_convertvector (low, LtF64x4);
          sums[2 * h + 1] += __builtin_convertvector (high, LtF64x4);
        }
      if (!log_softmax)
        store_columns (dst + t * dst_row, y, width);
    }
  memcpy (sum, sums, sizeof sum);
  memcpy (max_lanes, max, sizeof max_lanes);

  if (log_softmax)
    {
      double shift[COLUMNS];

      for (gint64 c = 0; c < width; c++)
        shift[c] = (double) max_lanes[c] + log (sum[c]);
      for (gint64 t = 0; t < length; t++)
        for (gint64 c = 0; c < width; c++)
          dst[t * dst_row + c] = (float) ((double) src[t * src_row + c] - shift[c]);
    }
  else
    {
      float scale[COLUMNS];

      for (gint64 c = 0; c < COLUMNS; c++)
        scale[c] = (float) (1 / sum[c]);
      for (gint64 t = 0; t < length; t++)
        for (gint64 c = 0; c < width; c++)
          dst[t * dst_row + c] *= scale[c];
    }
}

void
lt_cpu_softmax_columns_f32 (float       *dst,
                            gint64       dst_row,
                            const float *src,
                            gint64       src_row,
                            gint64       length,
                            gint64       width,
                            gboolean     log_softmax)
{
  softmax_columns_f32 (dst, dst_row, src, src_row, length, width, log_softmax);
}
