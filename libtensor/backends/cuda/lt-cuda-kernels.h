/* lt-cuda-kernels.h: what the CUDA kernel files share
 *
 * The definitions the device-neutral rules (lt-kernel-convert.h, ...)
 * expect, in CUDA C++, those rules themselves, and the grid every launch
 * uses. Included by the .cu files only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define LT_GLOBAL
#define LT_FUNCTION static __device__ inline
#define LT_AS_FLOAT(u) __uint_as_float ((unsigned int) (u))
#define LT_AS_UINT(f) __float_as_uint ((float) (f))
typedef uint8_t lt_u8;
typedef int8_t lt_i8;
typedef uint16_t lt_u16;
typedef int16_t lt_i16;
typedef uint32_t lt_u32;
typedef int32_t lt_i32;
typedef int64_t lt_i64;
typedef uint64_t lt_u64;
#define LT_BOOL 0
#define LT_UINT8 1
#define LT_INT8 2
#define LT_INT16 3
#define LT_INT32 4
#define LT_INT64 5
#define LT_FLOAT16 6
#define LT_BFLOAT16 7
#define LT_FLOAT32 8
#define LT_FLOAT64 9
#define LT_COMPLEX64 10
#define LT_COMPLEX128 11

#include "backends/lt-kernel-convert.h"
#include "backends/lt-kernel-ops.h"
#define LT_KERNEL_REDUCE_WALK 1
#include "backends/lt-kernel-reduce.h"
#define LT_PHILOX_FUNCTION static __host__ __device__ inline
#include "lt-philox.h"
#define LT_NEXTAFTERF nextafterf
#include "backends/lt-kernel-random.h"
#include "backends/lt-kernel-linalg.h"

static const int threads_per_block = 256;

/* Division by a launch's sizes in 32-bit index arithmetic, as a multiply
 * and a shift (Granlund and Montgomery's method): a GPU divides integers
 * with a long sequence of instructions, and a strided kernel divides by
 * every dim's size for every element. For 1 <= d < 2^31 and 0 <= n < 2^31
 * (what narrow launches guarantee), n / d = (umulhi (n, magic) + n) >>
 * shift, with shift = ceil (log2 d) and magic = 2^32 (2^shift - d) / d + 1. */
static inline void
lt_cuda_set_dividers (const int64_t *sizes,
                      int            ndim,
                      uint32_t      *magic,
                      uint32_t      *shift)
{
  for (int d = 0; d < ndim; d++)
    {
      uint64_t divisor = sizes[d] > 0 && sizes[d] < ((int64_t) 1 << 31) ? (uint64_t) sizes[d] : 1;
      uint32_t s = 0;

      while (((uint64_t) 1 << s) < divisor)
        s++;
      shift[d] = s;
      magic[d] = (uint32_t) ((((uint64_t) 1 << 32) * (((uint64_t) 1 << s) - divisor)) / divisor
                             + 1);
    }
}

#if defined (__CUDACC__) || defined (LT_CUDA_EMULATION)
/* @n / the size whose multiplier and shift these are. */
static __device__ inline uint32_t
lt_cuda_divide (uint32_t n,
                uint32_t magic,
                uint32_t shift)
{
  return (__umulhi (n, magic) + n) >> shift;
}
#endif

/* A launch: LT_CUDA_LAUNCH (grid, block, kernel) (arguments), the kernel
 * last since a template's arguments hold commas; the threads of a kernel
 * launched with LT_CUDA_LAUNCH_COOPERATIVE meet (__syncthreads(), warp
 * shuffles). The host emulation (emulation/cuda_runtime.h) runs them on
 * the CPU: the others one thread after another, which it checks. */
#ifdef LT_CUDA_EMULATION
#define LT_CUDA_LAUNCH(grid, block, ...) \
  lt_cuda_emulation_launch ((grid), (block), false, __VA_ARGS__)
#define LT_CUDA_LAUNCH_COOPERATIVE(grid, block, ...) \
  lt_cuda_emulation_launch ((grid), (block), true, __VA_ARGS__)
#else
#define LT_CUDA_LAUNCH(grid, block, ...) __VA_ARGS__<<<(grid), (block)>>>
#define LT_CUDA_LAUNCH_COOPERATIVE(grid, block, ...) __VA_ARGS__<<<(grid), (block)>>>
#endif

/* Enough blocks to fill any GPU; the grid-stride loops do the rest. */
static inline unsigned int
blocks_for (int64_t n)
{
  int64_t blocks = (n + threads_per_block - 1) / threads_per_block;

  return (unsigned int) (blocks < 65536 ? blocks : 65536);
}
