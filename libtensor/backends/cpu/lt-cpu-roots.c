/* lt-cpu-roots.c: float32 and float64 square roots and their reciprocals in lanes
 *
 * This file alone is built with -fno-math-errno (libtensor/meson.build):
 * sqrtf () then need not set errno for a negative input, and the compiler
 * turns the rows below into the vector instruction, eight lanes in the
 * AVX2 clone and four in the baseline one (half as many doubles). IEEE's
 * square root is correctly rounded in float as in double, so the float
 * results are those of sqrt () in double rounded to float (NaN below zero,
 * -0 for -0). The reciprocal rounds twice, as PyTorch's: within 1.5 ulp in
 * float, 1 in double.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-private.h"

/* The rows of @T, each a loop the compiler vectorises: dst[k] = @SQRT
 * (src[k]), and its reciprocal. */
#define ROOT_ROWS(suffix, T, SQRT)                                               \
  LT_CPU_MULTIVERSION static void                                                \
  sqrt_row_##suffix (T *dst, const T *src, gint64 n)                             \
  {                                                                              \
    IVDEP for (gint64 k = 0; k < n; k++)                                         \
      dst[k] = SQRT (src[k]);                                                    \
  }                                                                              \
                                                                                 \
  LT_CPU_MULTIVERSION static void                                                \
  rsqrt_row_##suffix (T *dst, const T *src, gint64 n)                            \
  {                                                                              \
    IVDEP for (gint64 k = 0; k < n; k++)                                         \
      dst[k] = (T) 1 / SQRT (src[k]);                                            \
  }                                                                              \
                                                                                 \
  void lt_cpu_sqrt_##suffix (T *dst, const T *src, gint64 n)                     \
  {                                                                              \
    sqrt_row_##suffix (dst, src, n);                                             \
  }                                                                              \
                                                                                 \
  void lt_cpu_rsqrt_##suffix (T *dst, const T *src, gint64 n)                    \
  {                                                                              \
    rsqrt_row_##suffix (dst, src, n);                                            \
  }

ROOT_ROWS (f32, float, sqrtf)
ROOT_ROWS (f64, double, sqrt)
