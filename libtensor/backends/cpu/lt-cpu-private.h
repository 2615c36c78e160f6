/* lt-cpu-private.h: the CPU backend's kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "backends/lt-backend.h"
#include "lt-layout.h"
#include "lt-tsan-private.h"

G_BEGIN_DECLS

/* A hot loop the compiler vectorises is built twice, for baseline x86-64
 * and for AVX2, and the dynamic loader picks one for the CPU it runs on
 * (GCC's function multiversioning), so the installed library needs no
 * -march and still uses the wider registers where they exist. The clones
 * compute the same thing in the same order: results do not depend on the
 * CPU. Not under ThreadSanitizer, nor in fuzzing builds (LT_NO_MULTIVERSION,
 * meson.build), whose instrumentation reaches the resolver that picks a
 * clone, which the loader runs before the sanitizer's runtime is up. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__has_attribute) && !defined(LT_TSAN) \
    && !defined(LT_NO_MULTIVERSION)
#if __has_attribute(target_clones)
#define LT_CPU_MULTIVERSION __attribute__ ((target_clones ("avx2", "default")))
#endif
/* A function whose lanes fuse multiplies and adds (LT_F32X8_FMA,
 * lt-cpu-lanes.h) is built for x86-64-v3 (AVX2 with FMA) only, and called
 * where lt_cpu_has_fma () says the CPU has it; elsewhere the caller takes
 * an unfused version of the same function, which rounds differently (each
 * within its own bound): the one exception to results that do not depend
 * on the CPU. (Built for the baseline, each lane's fma () would be a call,
 * and on a processor without FMA glibc's software one: 50 to 270 times
 * slower than unfused lanes, bench/NOTES.md section 22.) */
#if __has_attribute(target)
#define LT_CPU_TARGET_FMA __attribute__ ((target ("arch=x86-64-v3")))
/* A function whose lanes are sixteen floats wide (LtF32x16,
 * lt-cpu-lanes.h) is built for x86-64-v4 (AVX-512) and called where
 * lt_cpu_has_avx512 () says the CPU has it; elsewhere the caller takes the
 * eight-lane version, whose results are the same bit for bit. (An
 * "arch=x86-64-v4" clone of the eight-lane functions was slower:
 * bench/NOTES.md, section 24.) */
#define LT_CPU_TARGET_AVX512 __attribute__ ((target ("arch=x86-64-v4")))
#define LT_CPU_FMA_BY_CPU 1
#endif
#endif
#ifndef LT_CPU_MULTIVERSION
#define LT_CPU_MULTIVERSION
#endif
#ifndef LT_CPU_TARGET_FMA
#define LT_CPU_TARGET_FMA
#endif
#ifndef LT_CPU_TARGET_AVX512
#define LT_CPU_TARGET_AVX512
#endif

/* Whether the functions built with LT_CPU_TARGET_FMA may run here: where
 * the CPU has all of x86-64-v3 (AVX2, FMA, BMI2...), or (without clones
 * and targets) always, their fma ()s then being libm's. */
gboolean lt_cpu_has_fma (void);

/* Whether the functions built with LT_CPU_TARGET_AVX512 may run here:
 * where the CPU has all of x86-64-v4 (AVX-512 F, BW, CD, DQ and VL), or
 * (without targets) always. */
gboolean lt_cpu_has_avx512 (void);

/* The output of a kernel overlaps an input only where it is laid out exactly
 * as that input (the caller copies the input otherwise), so element k is read
 * before it is written and the contiguous loops carry no dependence: IVDEP
 * before such a loop lets the vectoriser skip the runtime alias checks
 * -O2's cost model refuses. (The library is built with
 * -fvect-cost-model=cheap, see meson.build, so rows of unknown length
 * vectorise too.) */
#if defined(__GNUC__) && !defined(__clang__)
#define IVDEP _Pragma ("GCC ivdep")
#else
#define IVDEP
#endif

gboolean lt_cpu_copy (const LtBackend *self,
                      guint            ndim,
                      const gint64    *sizes,
                      const LtOperand *dst,
                      const LtOperand *src,
                      GError         **error);

/* dst[r][c] = src[c][r] for a rows x cols block of elements whose rows are
 * contiguous on both sides, written past the caches where @stream (the
 * copy is larger than they are) and the rows' alignment allows
 * (lt-cpu-transpose.c). */
void lt_cpu_transpose_block (char       *dst,
                             gint64      dst_row,
                             const char *src,
                             gint64      src_row,
                             gint64      rows,
                             gint64      cols,
                             gsize       element_size,
                             gboolean    stream);

gboolean lt_cpu_fill (const LtBackend *self,
                      guint            ndim,
                      const gint64    *sizes,
                      const LtOperand *dst,
                      LtValue          value,
                      GError         **error);

void lt_cpu_random (gpointer             data,
                    LtDType              dtype,
                    gint64               n,
                    LtRandomDistribution distribution,
                    guint64              seed,
                    guint64              counter);

void lt_cpu_random_fill (guint                 ndim,
                         const gint64         *sizes,
                         const LtOperand      *dst,
                         const LtOperand      *probabilities,
                         const LtRandomParams *params,
                         guint64               seed,
                         guint64               counter);

void lt_cpu_arange (gpointer data,
                    LtDType  dtype,
                    gint64   n,
                    LtValue  start,
                    LtValue  step);

void lt_cpu_linspace (gpointer data,
                      LtDType  dtype,
                      gint64   n,
                      double   start,
                      double   end);

/* dst[k] = exp (src[k]) for @n contiguous float32s, within 1 ulp
 * (lt-cpu-exp.c); @dst may be @src. */
void lt_cpu_exp_f32 (float       *dst,
                     const float *src,
                     gint64       n);
/* The two versions lt_cpu_exp_f32 () picks from: sixteen lanes where
 * lt_cpu_has_avx512 (), eight elsewhere; the same results bit for bit. */
void lt_cpu_exp_wide_f32 (float       *dst,
                          const float *src,
                          gint64       n);
void lt_cpu_exp_narrow_f32 (float       *dst,
                            const float *src,
                            gint64       n);

/* dst[k] = sqrt (src[k]), correctly rounded, and 1 / sqrt (src[k]),
 * within 1.5 ulp, for @n contiguous float32s (lt-cpu-exp.c); @dst may be
 * @src. */
void lt_cpu_sqrt_f32 (float       *dst,
                      const float *src,
                      gint64       n);
void lt_cpu_rsqrt_f32 (float       *dst,
                       const float *src,
                       gint64       n);

/* dst[k] = log (src[k]) for @n contiguous float32s, within 1 ulp
 * (lt-cpu-exp.c); @dst may be @src. */
void lt_cpu_log_f32 (float       *dst,
                     const float *src,
                     gint64       n);
/* The two versions lt_cpu_log_f32 () picks from, as exp's. */
void lt_cpu_log_wide_f32 (float       *dst,
                          const float *src,
                          gint64       n);
void lt_cpu_log_narrow_f32 (float       *dst,
                            const float *src,
                            gint64       n);

/* dst[k] = 1 / (1 + exp (-src[k])) for @n contiguous float32s, within
 * 1.5 ulp (lt-cpu-exp.c); @dst may be @src. The fused version, where
 * lt_cpu_has_fma (), within 1.1; the unfused one elsewhere, within 1.5.
 * (The two are for the tests; the first picks one.) */
void lt_cpu_sigmoid_f32 (float       *dst,
                         const float *src,
                         gint64       n);
void lt_cpu_sigmoid_fused_f32 (float       *dst,
                               const float *src,
                               gint64       n);
/* The fused version sixteen lanes wide, for processors with AVX-512
 * (lt_cpu_has_avx512 ()): the same results bit for bit. */
void lt_cpu_sigmoid_fused_wide_f32 (float       *dst,
                                    const float *src,
                                    gint64       n);
void lt_cpu_sigmoid_unfused_f32 (float       *dst,
                                 const float *src,
                                 gint64       n);

/* expm1, tanh, log1p, sin, cos and erf of @n contiguous float32s, within
 * 0.51 ulp (sin and cos 0.61; lt-cpu-math.c); @dst may be @src. */
void lt_cpu_expm1_f32 (float       *dst,
                       const float *src,
                       gint64       n);
void lt_cpu_tanh_f32 (float       *dst,
                      const float *src,
                      gint64       n);
void lt_cpu_log1p_f32 (float       *dst,
                       const float *src,
                       gint64       n);
void lt_cpu_sin_f32 (float       *dst,
                     const float *src,
                     gint64       n);
void lt_cpu_cos_f32 (float       *dst,
                     const float *src,
                     gint64       n);
void lt_cpu_erf_f32 (float       *dst,
                     const float *src,
                     gint64       n);
/* Each of them in eight lanes, for every processor, and in sixteen, for
 * processors with AVX-512 only (lt_cpu_has_avx512 ()): the same results
 * bit for bit, which the tests compare. */
#define LT_CPU_NARROW_AND_WIDE_F32(name)                                         \
  void lt_cpu_##name##_narrow_f32 (float *dst, const float *src, gint64 n);      \
  void lt_cpu_##name##_wide_f32 (float *dst, const float *src, gint64 n);
LT_CPU_NARROW_AND_WIDE_F32 (expm1)
LT_CPU_NARROW_AND_WIDE_F32 (tanh)
LT_CPU_NARROW_AND_WIDE_F32 (log1p)
LT_CPU_NARROW_AND_WIDE_F32 (sin)
LT_CPU_NARROW_AND_WIDE_F32 (cos)
LT_CPU_NARROW_AND_WIDE_F32 (erf)

/* The powers PyTorch takes as products: the pow rows below take them so
 * where the exponent is one value for the row, at a tenth of pow's cost or
 * less. */
typedef enum
{
  LT_CPU_POWER_SQUARE,
  LT_CPU_POWER_CUBE,
  LT_CPU_POWER_RECIPROCAL,
  LT_CPU_POWER_INVERSE_SQUARE,
  LT_CPU_POWER_OTHER,
} LtCpuPower;

static inline LtCpuPower
lt_cpu_power_kind (double e)
{
  return e == 2    ? LT_CPU_POWER_SQUARE
         : e == 3  ? LT_CPU_POWER_CUBE
         : e == -1 ? LT_CPU_POWER_RECIPROCAL
         : e == -2 ? LT_CPU_POWER_INVERSE_SQUARE
                   : LT_CPU_POWER_OTHER;
}

/* dst[k] = pow (x[k · @x_step], e[k · @e_step]) for @n float32s, each step
 * 0 (one value for the row) or 1 (contiguous), within 0.51 ulp, the
 * product powers as PyTorch takes them, within 1.5 ulp where x · x is a
 * normal float (lt-cpu-math.c);
 * @dst may be @x or @e where its step is 1. */
void lt_cpu_pow_f32 (float       *dst,
                     const float *x,
                     gint64       x_step,
                     const float *e,
                     gint64       e_step,
                     gint64       n);
/* pow's lanes alone (no product powers), eight and sixteen wide, as
 * LT_CPU_NARROW_AND_WIDE_F32's. */
#define LT_CPU_POW_ROW_F32(name)                                                 \
  void name (float *dst, const float *x, gint64 x_step, const float *e, gint64 e_step, \
             gint64 n);
LT_CPU_POW_ROW_F32 (lt_cpu_pow_narrow_f32)
LT_CPU_POW_ROW_F32 (lt_cpu_pow_wide_f32)
/* The same for float64s, within 0.62 ulp where the result is a normal
 * double and libm's pow elsewhere, the product powers as PyTorch takes
 * them (within 1.5 ulp where x · x is a normal double; lt-cpu-math64.c). */
void lt_cpu_pow_f64 (double       *dst,
                     const double *x,
                     gint64        x_step,
                     const double *e,
                     gint64        e_step,
                     gint64        n);

/* exp, log and sigmoid of @n contiguous float64s, exp within 0.68 ulp, log
 * within 0.88, sigmoid within 1.1 (lt-cpu-math64.c); @dst may be @src. */
void lt_cpu_exp_f64 (double       *dst,
                     const double *src,
                     gint64        n);
/* The two versions lt_cpu_exp_f64 () picks from, as sigmoid's: fused
 * where lt_cpu_has_fma (), within 0.68 ulp; unfused elsewhere, within
 * 0.6. */
void lt_cpu_exp_fused_f64 (double       *dst,
                           const double *src,
                           gint64        n);
void lt_cpu_exp_unfused_f64 (double       *dst,
                             const double *src,
                             gint64        n);
void lt_cpu_log_f64 (double       *dst,
                     const double *src,
                     gint64        n);
void lt_cpu_sigmoid_f64 (double       *dst,
                         const double *src,
                         gint64        n);
/* The two versions lt_cpu_sigmoid_f64 () picks from, as float32's: the
 * fused one's lanes within 0.84 ulp, the unfused one's within 1.06 (and
 * both past ±708 PyTorch's formula, within 1.05). */
void lt_cpu_sigmoid_fused_f64 (double       *dst,
                               const double *src,
                               gint64        n);
void lt_cpu_sigmoid_unfused_f64 (double       *dst,
                                 const double *src,
                                 gint64        n);
/* log1p and expm1 of @n contiguous float64s, within 0.9 ulp
 * (lt-cpu-math64.c); @dst may be @src. */
void lt_cpu_log1p_f64 (double       *dst,
                       const double *src,
                       gint64        n);
void lt_cpu_expm1_f64 (double       *dst,
                       const double *src,
                       gint64        n);
/* tanh of @n contiguous float64s, within 0.7 ulp (lt-cpu-math64.c); @dst
 * may be @src. */
void lt_cpu_tanh_f64 (double       *dst,
                      const double *src,
                      gint64        n);
/* sin and cos of @n contiguous float64s, within 0.92 ulp
 * (lt-cpu-math64.c); @dst may be @src. */
void lt_cpu_sin_f64 (double       *dst,
                     const double *src,
                     gint64        n);
void lt_cpu_cos_f64 (double       *dst,
                     const double *src,
                     gint64        n);
/* The two versions each of them picks from, as sigmoid's: fused where
 * lt_cpu_has_fma (), unfused elsewhere; each within 0.92 ulp. */
void lt_cpu_sin_fused_f64 (double       *dst,
                           const double *src,
                           gint64        n);
void lt_cpu_sin_unfused_f64 (double       *dst,
                             const double *src,
                             gint64        n);
void lt_cpu_cos_fused_f64 (double       *dst,
                           const double *src,
                           gint64        n);
void lt_cpu_cos_unfused_f64 (double       *dst,
                             const double *src,
                             gint64        n);
/* erf of @n contiguous float64s, within an ulp (lt-cpu-math64.c); @dst
 * may be @src. */
void lt_cpu_erf_f64 (double       *dst,
                     const double *src,
                     gint64        n);
/* Each float64 function's rows eight lanes wide, for processors with
 * AVX-512 only (lt_cpu_has_avx512 ()), and four wide, for every processor:
 * exp's, sigmoid's, sin's and cos's wide rows give their fused versions'
 * results, the others' their narrow rows', bit for bit; which the tests
 * compare. */
#define LT_CPU_ROW_F64(name) void lt_cpu_##name (double *dst, const double *src, gint64 n);
LT_CPU_ROW_F64 (exp_wide_f64)
LT_CPU_ROW_F64 (sigmoid_wide_f64)
LT_CPU_ROW_F64 (sin_wide_f64)
LT_CPU_ROW_F64 (cos_wide_f64)
LT_CPU_ROW_F64 (expm1_wide_f64)
LT_CPU_ROW_F64 (expm1_narrow_f64)
LT_CPU_ROW_F64 (tanh_wide_f64)
LT_CPU_ROW_F64 (tanh_narrow_f64)
LT_CPU_ROW_F64 (log_wide_f64)
LT_CPU_ROW_F64 (log_narrow_f64)
LT_CPU_ROW_F64 (log1p_wide_f64)
LT_CPU_ROW_F64 (log1p_narrow_f64)
LT_CPU_ROW_F64 (erf_wide_f64)
LT_CPU_ROW_F64 (erf_narrow_f64)
/* pow's lanes alone (no product powers), four and eight wide. */
#define LT_CPU_POW_LANES_F64(name)                                               \
  void lt_cpu_##name (double *dst, const double *x, gint64 x_step, const double *e, \
                      gint64 e_step, gint64 n);
LT_CPU_POW_LANES_F64 (pow_lanes_f64)
LT_CPU_POW_LANES_F64 (pow_wide_lanes_f64)

/* dst[k] = sqrt (src[k]), correctly rounded, and 1 / sqrt (src[k]), within
 * 1 ulp, for @n contiguous float64s (lt-cpu-roots.c); @dst may be @src. */
void lt_cpu_sqrt_f64 (double       *dst,
                      const double *src,
                      gint64        n);
void lt_cpu_rsqrt_f64 (double       *dst,
                       const double *src,
                       gint64        n);

/* Softmax (or log_softmax) of @n contiguous float32s. */
void lt_cpu_softmax_row_f32 (float       *dst,
                             const float *src,
                             gint64       n,
                             gboolean     log_softmax);

/* Softmax (or log_softmax) down @width <= 16 neighbouring columns of
 * @length rows, @dst_row and @src_row elements apart. */
void lt_cpu_softmax_columns_f32 (float       *dst,
                                 gint64       dst_row,
                                 const float *src,
                                 gint64       src_row,
                                 gint64       length,
                                 gint64       width,
                                 gboolean     log_softmax);

/* The math kernel tables, each defined in its family's file. */
extern const LtPointwiseKernels lt_cpu_pointwise_kernels;
extern const LtReduceKernels lt_cpu_reduce_kernels;
extern const LtLinalgKernels lt_cpu_linalg_kernels;
extern const LtIndexKernels lt_cpu_index_kernels;

G_END_DECLS
