/* lt-cpu-lanes.h: the vector lanes the CPU kernels compute in, exp and log
 * on them, and the row functions built on lanes
 *
 * GCC's generic vectors: eight float lanes are one AVX register in the
 * "avx2" clone of an LT_CPU_MULTIVERSION function and two SSE registers in
 * the baseline one, with the same operations lane by lane in both, so
 * results do not depend on the CPU. (Lanes that fuse multiplies and adds,
 * LT_F32X8_FMA, are built for x86-64-v3 alone and have unfused twins for
 * other processors, which round differently: LT_CPU_TARGET_FMA in
 * lt-cpu-private.h.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* Eight float lanes, loaded from any float's address; four of them; four
 * double lanes; eight int32 lanes (comparison masks, exponent fields). */
typedef float LtF32x8 __attribute__ ((vector_size (8 * sizeof (float)), aligned (4), may_alias));
typedef float LtF32x4 __attribute__ ((vector_size (4 * sizeof (float))));
typedef double LtF64x4 __attribute__ ((vector_size (4 * sizeof (double))));
/* Eight double lanes (two AVX registers): eight floats convert to them in
 * two instructions, where converting by halves of four took a dozen. */
typedef double LtF64x8 __attribute__ ((vector_size (8 * sizeof (double))));
typedef gint32 LtI32x8 __attribute__ ((vector_size (8 * sizeof (gint32))));
/* Sixteen float lanes and their masks: one AVX-512 register in a function
 * built with LT_CPU_TARGET_AVX512 (lt-cpu-private.h). The lanes macros
 * written for any width (a W parameter: 8 or 16) do the same operations
 * lane by lane at both widths, so the wide rows give the narrow ones'
 * results bit for bit. */
typedef float LtF32x16 __attribute__ ((vector_size (16 * sizeof (float)), aligned (4), may_alias));
typedef gint32 LtI32x16 __attribute__ ((vector_size (16 * sizeof (gint32))));
typedef gint32 LtI32x4 __attribute__ ((vector_size (4 * sizeof (gint32))));
/* Four 64-bit integer lanes: masks of double comparisons, exponent
 * fields (unsigned for right shifts: AVX2 shifts 64-bit lanes logically
 * only). Double work is done four lanes at a time: GCC 12 compares
 * 64-byte vectors one lane at a time on AVX2. */
typedef gint64 LtI64x4 __attribute__ ((vector_size (4 * sizeof (gint64))));
/* Four double lanes loaded from any double's address, as LtF32x8 from any
 * float's (LtF64x4 is for values in registers, and assumes 32 bytes). */
typedef double LtF64x4Unaligned __attribute__ ((vector_size (4 * sizeof (double)), aligned (8),
                                                may_alias));
typedef guint64 LtU64x4 __attribute__ ((vector_size (4 * sizeof (guint64))));
/* Eight 64-bit integer lanes, for the eight double lanes of a function
 * built with LT_CPU_TARGET_AVX512, where comparing 64-byte vectors is one
 * instruction. */
typedef gint64 LtI64x8 __attribute__ ((vector_size (8 * sizeof (gint64))));
typedef guint64 LtU64x8 __attribute__ ((vector_size (8 * sizeof (guint64))));

/* Every one of @W float lanes @value: added to -0, which keeps a -0
 * (where +0 would not). */
#define LT_F32X_SPLAT(W, value) ((LtF32x##W) ((LtI32x##W) { 0 } + G_MININT32) + (float) (value))
#define LT_F32X8_SPLAT(value) LT_F32X_SPLAT (8, value)

/* Lanes of @yes where @mask is set, of @no elsewhere (C has no vector ?:). */
#define LT_F32X_SELECT(W, mask, yes, no)                                         \
  ((LtF32x##W) (((LtI32x##W) (yes) & (mask)) | ((LtI32x##W) (no) & ~(mask))))
#define LT_F32X8_SELECT(mask, yes, no) LT_F32X_SELECT (8, mask, yes, no)

/* The same for @W double lanes (4 or 8), whose masks are LtI64x@W. */
#define LT_F64X_SPLAT(W, value) ((LtF64x##W) ((LtI64x##W) { 0 } + G_MININT64) + (double) (value))
#define LT_F64X4_SPLAT(value) LT_F64X_SPLAT (4, value)
#define LT_F64X_SELECT(W, mask, yes, no)                                         \
  ((LtF64x##W) (((LtI64x##W) (yes) & (mask)) | ((LtI64x##W) (no) & ~(mask))))
#define LT_F64X4_SELECT(mask, yes, no) LT_F64X_SELECT (4, mask, yes, no)

/* @a · @b + @c in each lane rounded once, as a fused multiply-add: one
 * instruction in a function built for a target with FMA
 * (LT_CPU_TARGET_FMA), glibc's fmaf () for each lane elsewhere (as exact,
 * and slower by far). */
#define LT_F32X_FMA(W, a, b, c) LANES_FMA (LtF32x##W, W, __builtin_fmaf, a, b, c)
#define LT_F32X8_FMA(a, b, c) LT_F32X_FMA (8, a, b, c)

/* The same for @W double lanes (4 or 8), through fma (). */
#define LT_F64X_FMA(W, a, b, c) LANES_FMA (LtF64x##W, W, __builtin_fma, a, b, c)
#define LT_F64X4_FMA(a, b, c) LT_F64X_FMA (4, a, b, c)

/* @FMA (a, b, c) of each of the @lanes lanes of vectors of @Type. */
#define LANES_FMA(Type, lanes, FMA, a, b, c)                                     \
  __extension__ ({                                                               \
    Type fa_ = (a), fb_ = (b), fc_ = (c), fr_;                                   \
    for (guint fl_ = 0; fl_ < (lanes); fl_++)                                    \
      fr_[fl_] = FMA (fa_[fl_], fb_[fl_], fc_[fl_]);                             \
    fr_;                                                                         \
  })

/* @x held within [@low, @high]; NaN stays NaN. */
#define LT_F32X_CLAMP(W, x, low, high)                                           \
  LT_F32X_SELECT (W, (x) > (high), LT_F32X_SPLAT (W, high),                      \
                  LT_F32X_SELECT (W, (x) < (low), LT_F32X_SPLAT (W, low), (x)))
#define LT_F32X8_CLAMP(x, low, high) LT_F32X_CLAMP (8, x, low, high)

/* |@x| of float and double lanes: the sign bit cleared. */
#define LT_F32X_ABS(W, x) ((LtF32x##W) ((LtI32x##W) (x) & G_MAXINT32))
#define LT_F32X8_ABS(x) LT_F32X_ABS (8, x)
#define LT_F64X_ABS(W, x) ((LtF64x##W) ((LtI64x##W) (x) & G_MAXINT64))
#define LT_F64X4_ABS(x) LT_F64X_ABS (4, x)

/* Whether any lane of the LtI32x8 mask @mask is set. */
#define LT_I32X8_ANY(mask)                                                       \
  __extension__ ({                                                               \
    LtI32x4 halves_ = __builtin_shufflevector ((mask), (mask), 0, 1, 2, 3)       \
                      | __builtin_shufflevector ((mask), (mask), 4, 5, 6, 7);    \
    guint64 words_[2];                                                           \
    memcpy (words_, &halves_, sizeof words_);                                    \
    (words_[0] | words_[1]) != 0;                                                \
  })

/* The same for an LtI32x16 mask: its halves or'd into eight lanes. */
#define LT_I32X16_ANY(mask)                                                      \
  __extension__ ({                                                               \
    LtI32x16 wm_ = (mask);                                                       \
    LtI32x8 wm_lo_ = __builtin_shufflevector (wm_, wm_, 0, 1, 2, 3, 4, 5, 6, 7); \
    LtI32x8 wm_hi_ = __builtin_shufflevector (wm_, wm_, 8, 9, 10, 11, 12, 13,    \
                                              14, 15);                           \
                                                                                 \
    LT_I32X8_ANY (wm_lo_ | wm_hi_);                                              \
  })

/* Whether any lane of the LtI64x4 or LtI64x8 mask @mask is set. */
#define LT_I64X4_ANY(mask) LT_I32X8_ANY ((LtI32x8) (mask))
#define LT_I64X8_ANY(mask) LT_I32X16_ANY ((LtI32x16) (mask))

/* Adding it to a double below 2^51 in magnitude rounds that to an integer,
 * which the sum's low bits hold. */
#define SHIFTER 0x1.8p52

/* The integers in the low bits of @t, a double plus SHIFTER. (The bit
 * arithmetic is unsigned throughout: NaN lanes, whose results are thrown
 * away, would overflow signed lanes.) */
#define SHIFTED_INTEGERS_X(W, t) ((LtU64x##W) (t) - (LtU64x##W) LT_F64X_SPLAT (W, SHIFTER))
#define SHIFTED_INTEGERS(t) SHIFTED_INTEGERS_X (4, t)

/* The doubles of the integers @k, below 2^51 in magnitude (AVX2 has no
 * conversion from 64-bit integers). */
#define I64X_TO_F64X(W, k)                                                       \
  ((LtF64x##W) ((LtU64x##W) (k) + (LtU64x##W) LT_F64X_SPLAT (W, SHIFTER)) - SHIFTER)
#define I64X4_TO_F64X4(k) I64X_TO_F64X (4, k)

/* exp (r) = 1 + r + r² · P (r), |r| < 0.35: P's coefficients, of r^0 to
 * r^5 (Cephes expf's). */
#define LT_CPU_EXP_F32_P0 5.0000001201e-1f
#define LT_CPU_EXP_F32_P1 1.6666665459e-1f
#define LT_CPU_EXP_F32_P2 4.1665795894e-2f
#define LT_CPU_EXP_F32_P3 8.3334519073e-3f
#define LT_CPU_EXP_F32_P4 1.3981999507e-3f
#define LT_CPU_EXP_F32_P5 1.9875691500e-4f

/* @result = exp (@x) in each lane, within 1 ulp of the correctly rounded
 * result for every float (0.99 at worst, over all 2^32 of them;
 * tests/test-cpu-exp.c checks a spread of every exponent), NaN for NaN,
 * 0 and the subnormals below, infinity above 88.72.
 *
 * exp (x) = 2^n · exp (r): n is the integer nearest x · log2 (e), found by
 * adding 1.5 · 2^23, which leaves n in the low bits of the sum; r = x - n ·
 * ln 2 is reduced in two parts (Cody and Waite) whose high part has few
 * enough bits that n · C1 and x - n · C1 are exact, so r only carries the
 * low part's rounding. exp (r), |r| < 0.35, is 1 + r + r² · P (r) with the
 * degree-5 minimax P of Moshier's Cephes expf. 2^n goes in as two factors
 * built in the exponent field, so a result below 2^-126 rounds once into
 * the subnormals and n = 128 reaches infinity only where exp does. Inputs
 * are clamped to [-104, 89] first (below, exp rounds to 0; above, to
 * infinity), which keeps n in [-150, 128]; NaN passes the clamp as NaN.
 * Where every lane has |x| <= 87 (the common case, tested once for the
 * eight), n is in [-126, 126], 2^n a normal float, and neither the clamp
 * nor the second factor is needed: one product rounds once.
 *
 * A macro, not a function: a function returning eight lanes would change
 * its ABI with the clone it is inlined into. */
#define LT_CPU_EXP_F32X(W, result, x)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x##W unused_low_;                                                       \
                                                                                 \
    LT_CPU_EXP_SPLIT_F32X (W, result, unused_low_, x);                           \
    (void) unused_low_;                                                          \
  }                                                                              \
  G_STMT_END

#define LT_CPU_EXP_F32X8(result, x) LT_CPU_EXP_F32X (8, result, x)
#define LT_CPU_EXP_F32X16(result, x) LT_CPU_EXP_F32X (16, result, x)

/* The same, and in @low the part of 2^n · exp (r) that the rounding of
 * 1 + (exp (r) - 1) dropped (exact), so that @high + @low is off by the
 * roundings of r and of exp (r) - 1 only, about half an ulp of the result
 * at worst (0.76 where @low falls below the normals, below -70), where
 * @high alone is good to an ulp. */
#define LT_CPU_EXP_SPLIT_F32X(W, high, low, x)                                   \
  G_STMT_START                                                                   \
  {                                                                              \
    const LtF32x##W shifter_ = LT_F32X_SPLAT (W, 0x1.8p23f);                     \
    LtF32x##W x_ = (x), t_, n_, r_, p_, one_;                                    \
    LtI32x##W k_, half_, wide_ = ~(LT_F32X_ABS (W, x_) <= 87.0f);                \
    gboolean any_wide_ = LT_I32X##W##_ANY (wide_);                               \
                                                                                 \
    if (G_UNLIKELY (any_wide_))                                                  \
      {                                                                          \
        x_ = LT_F32X_CLAMP (W, x_, -104.0f, 89.0f);                              \
      }                                                                          \
    t_ = x_ * 1.44269504088896341f + shifter_;                                   \
    k_ = (LtI32x##W) t_ - (LtI32x##W) shifter_;                                  \
    n_ = t_ - shifter_;                                                          \
    r_ = (x_ - n_ * 0.693359375f) - n_ * -2.12194440e-4f;                        \
    p_ = LT_CPU_EXP_F32_P5 * r_ + LT_CPU_EXP_F32_P4;                             \
    p_ = p_ * r_ + LT_CPU_EXP_F32_P3;                                            \
    p_ = p_ * r_ + LT_CPU_EXP_F32_P2;                                            \
    p_ = p_ * r_ + LT_CPU_EXP_F32_P1;                                            \
    p_ = p_ * r_ + LT_CPU_EXP_F32_P0;                                            \
    p_ = p_ * (r_ * r_) + r_;                                                    \
    one_ = p_ + 1.0f;                                                            \
    p_ -= one_ - 1.0f;                                                           \
    if (G_UNLIKELY (any_wide_))                                                  \
      {                                                                          \
        half_ = k_ >> 1;                                                         \
        k_ -= half_;                                                             \
        (high) = one_ * (LtF32x##W) ((half_ + 127) << 23)                        \
                 * (LtF32x##W) ((k_ + 127) << 23);                               \
        (low) = p_ * (LtF32x##W) ((half_ + 127) << 23)                           \
                * (LtF32x##W) ((k_ + 127) << 23);                                \
      }                                                                          \
    else                                                                         \
      {                                                                          \
        /* |x| <= 87: 2^n is a normal float, and one product rounds once. */     \
        (high) = one_ * (LtF32x##W) ((k_ + 127) << 23);                          \
        (low) = p_ * (LtF32x##W) ((k_ + 127) << 23);                             \
      }                                                                          \
  }                                                                              \
  G_STMT_END

#define LT_CPU_EXP_SPLIT_F32X8(high, low, x) LT_CPU_EXP_SPLIT_F32X (8, high, low, x)
#define LT_CPU_EXP_SPLIT_F32X16(high, low, x) LT_CPU_EXP_SPLIT_F32X (16, high, low, x)

/* @result = log (@x) in each lane: NaN below zero and for NaN, -inf at
 * zero, +inf at +inf, subnormals scaled into the normals first.
 *
 * x = m · 2^e with m in [sqrt(1/2), sqrt(2)): log (x) = e · ln 2 + log (m),
 * where f = m - 1 is exact (Sterbenz), log (1 + f) = f - f²/2 + f³ · P (f)
 * with the degree-8 minimax P of Moshier's Cephes logf, and e · ln 2 goes
 * in as the same two parts as in LT_CPU_EXP_F32X8, the high one added
 * last. A macro, as that one. */
#define LT_CPU_LOG_F32X(W, result, x)                                            \
  G_STMT_START                                                                   \
  {                                                                              \
    LtF32x##W x_ = (x), m_, f_, z_, y_, e_;                                      \
    LtI32x##W tiny_ = x_ < 0x1p-126f, bits_, k_, low_;                           \
                                                                                 \
    /* Subnormals (and 0, which stays 0) up by 2^23. */                          \
    x_ = LT_F32X_SELECT (W, tiny_, x_ * 0x1p23f, x_);                            \
    bits_ = (LtI32x##W) x_;                                                      \
    k_ = ((bits_ >> 23) & 0xff) - 126 - (tiny_ & 23);                            \
    m_ = (LtF32x##W) ((bits_ & 0x007fffff) | 0x3f000000);                        \
    low_ = m_ < 0.707106781186547524f;                                           \
    k_ += low_;                                                                  \
    f_ = (m_ + LT_F32X_SELECT (W, low_, m_, LT_F32X_SPLAT (W, 0))) - 1.0f;       \
    e_ = __builtin_convertvector (k_, LtF32x##W);                                \
    z_ = f_ * f_;                                                                \
    y_ = 7.0376836292e-2f * f_ - 1.1514610310e-1f;                               \
    y_ = y_ * f_ + 1.1676998740e-1f;                                             \
    y_ = y_ * f_ - 1.2420140846e-1f;                                             \
    y_ = y_ * f_ + 1.4249322787e-1f;                                             \
    y_ = y_ * f_ - 1.6668057665e-1f;                                             \
    y_ = y_ * f_ + 2.0000714765e-1f;                                             \
    y_ = y_ * f_ - 2.4999993993e-1f;                                             \
    y_ = y_ * f_ + 3.3333331174e-1f;                                             \
    y_ = y_ * f_ * z_ + e_ * -2.12194440e-4f;                                    \
    y_ = y_ - 0.5f * z_;                                                         \
    y_ = (f_ + y_) + e_ * 0.693359375f;                                          \
    /* 0: -inf; +inf: +inf; below 0 or NaN: NaN. */                              \
    y_ = LT_F32X_SELECT (W, x_ == 0.0f, LT_F32X_SPLAT (W, -INFINITY), y_);       \
    y_ = LT_F32X_SELECT (W, x_ == INFINITY, x_, y_);                             \
    (result) = LT_F32X_SELECT (W, (x_ < 0.0f) | (x_ != x_),                      \
                               LT_F32X_SPLAT (W, NAN), y_);                      \
  }                                                                              \
  G_STMT_END

#define LT_CPU_LOG_F32X8(result, x) LT_CPU_LOG_F32X (8, result, x)
#define LT_CPU_LOG_F32X16(result, x) LT_CPU_LOG_F32X (16, result, x)

/* The public lt_cpu_NAME_f32 () of a row function NAME_row_f32. (The
 * multiversioned functions are static: a clone's resolver would otherwise
 * be exported from the library.) */
#define EXPORT_ROW(name)                                                         \
  void lt_cpu_##name##_f32 (float *dst, const float *src, gint64 n)              \
  {                                                                              \
    name##_row_f32 (dst, src, n);                                                \
  }

/* The public @public_name (dst, src, n) of @Type elements: the row
 * function @picked where @condition holds, @otherwise elsewhere. */
#define EXPORT_PICKED(public_name, Type, condition, picked, otherwise)           \
  void public_name (Type *dst, const Type *src, gint64 n)                        \
  {                                                                              \
    if (condition)                                                               \
      picked (dst, src, n);                                                      \
    else                                                                         \
      otherwise (dst, src, n);                                                   \
  }

/* @fused (built with LT_CPU_TARGET_FMA) where lt_cpu_has_fma () says it
 * may run, @unfused elsewhere: the one place where a result depends on
 * the processor (lt-cpu-private.h). */
#define EXPORT_FUSED_OR_UNFUSED(public_name, Type, fused, unfused)               \
  EXPORT_PICKED (public_name, Type, lt_cpu_has_fma (), fused, unfused)

/* @wide (sixteen lanes, built with LT_CPU_TARGET_AVX512) where
 * lt_cpu_has_avx512 () says it may run, @narrow (eight) elsewhere: the
 * same results. */
#define EXPORT_WIDE_OR_NARROW(public_name, Type, wide, narrow)                   \
  EXPORT_PICKED (public_name, Type, lt_cpu_has_avx512 (), wide, narrow)

/* A row function applying the lanes macro @LANES to @n contiguous floats,
 * the tail through a vector padded with zeros. */
#define LANES_ROW(name, LANES) LANES_ROW_CLONED (name, LANES, LT_CPU_MULTIVERSION)

/* The same, its clones or target given by @MULTIVERSION
 * (LT_CPU_TARGET_FMA for lanes that fuse). */
#define LANES_ROW_CLONED(name, LANES, MULTIVERSION)                              \
  LANES_ROW_WIDTH (name, LANES, 8, MULTIVERSION)

/* The same with lanes @W floats wide (8 or 16: LtF32x8 or LtF32x16; 16
 * with LT_CPU_TARGET_AVX512 as @MULTIVERSION). */
#define LANES_ROW_WIDTH(name, LANES, W, MULTIVERSION)                            \
  MULTIVERSION static void                                                       \
  name (float *dst, const float *src, gint64 n)                                  \
  {                                                                              \
    gint64 k = 0;                                                                \
                                                                                 \
    for (; k + (W) <= n; k += (W))                                               \
      {                                                                          \
        LtF32x##W y;                                                             \
                                                                                 \
        LANES (y, *(const LtF32x##W *) (src + k));                               \
        *(LtF32x##W *) (dst + k) = y;                                            \
      }                                                                          \
    if (k < n)                                                                   \
      {                                                                          \
        float buf[W] = { 0 };                                                    \
        LtF32x##W y;                                                             \
                                                                                 \
        memcpy (buf, src + k, (gsize) (n - k) * sizeof (float));                 \
        LANES (y, *(const LtF32x##W *) buf);                                     \
        memcpy (dst + k, &y, (gsize) (n - k) * sizeof (float));                  \
      }                                                                          \
  }

G_END_DECLS
