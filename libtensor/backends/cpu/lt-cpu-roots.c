/* lt-cpu-roots.c: float32 square roots and their reciprocals in lanes
 *
 * This file alone is built with -fno-math-errno (libtensor/meson.build):
 * sqrtf () then need not set errno for a negative input, and the compiler
 * turns the rows below into the vector instruction, eight lanes in the
 * AVX2 clone and four in the baseline one. IEEE's square root is correctly
 * rounded in float as in double, so the results are those of sqrt () in
 * double rounded to float (NaN below zero, -0 for -0). The reciprocal
 * rounds twice, as PyTorch's: within 1.5 ulp.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-private.h"

LT_CPU_MULTIVERSION static void
sqrt_row_f32 (float       *dst,
              const float *src,
              gint64       n)
{
  IVDEP for (gint64 k = 0; k < n; k++)
    dst[k] = sqrtf (src[k]);
}

LT_CPU_MULTIVERSION static void
rsqrt_row_f32 (float       *dst,
               const float *src,
               gint64       n)
{
  IVDEP for (gint64 k = 0; k < n; k++)
    dst[k] = 1.0f / sqrtf (src[k]);
}

EXPORT_ROW (sqrt)
EXPORT_ROW (rsqrt)
