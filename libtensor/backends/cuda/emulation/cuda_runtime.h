/* cuda_runtime.h: the host emulation of CUDA's execution model
 *
 * The CUDA backend's kernel sources compile a second time as host C++
 * against this header (the build puts this directory before the CUDA
 * toolkit's), so that every line of kernel text runs on the CPU, under
 * AddressSanitizer and UndefinedBehaviorSanitizer in CI:
 *
 * - a launch (LT_CUDA_LAUNCH in lt-cuda-kernels.h) runs the grid's blocks
 *   one after another, and each block's threads with threadIdx, blockIdx,
 *   blockDim and gridDim set: one after another on the caller's thread,
 *   or, for a kernel whose threads meet (LT_CUDA_LAUNCH_COOPERATIVE), at
 *   once, each on a host thread of its own;
 * - __syncthreads() is a barrier of the block's running threads, and a
 *   warp shuffle an exchange between the running lanes of a warp, as on
 *   a GPU (a thread that has returned no longer takes part);
 * - __shared__ arrays are static: one per kernel, which the block that is
 *   running owns;
 * - vector types carry CUDA's alignment, so that UBSan traps a misaligned
 *   vector access where a GPU would fault ("misaligned address");
 * - device memory is host memory aligned as cudaMalloc's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#ifndef __cplusplus
#error "the CUDA emulation is C++"
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <functional>
#include <tuple>
#include <utility>

#include "cuda_runtime_api.h"

#define LT_CUDA_EMULATION 1

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) __attribute__ ((aligned (n)))
#define __launch_bounds__(...)

struct dim3
{
  unsigned int x, y, z;

  constexpr dim3 (unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
    : x (vx), y (vy), z (vz)
  {
  }
};

/* Vector types with CUDA's alignment: a misaligned load of one is UB
 * that UBSan reports, where a GPU faults. */
struct __align__ (8) float2
{
  float x, y;
};

struct __align__ (16) float4
{
  float x, y, z, w;
};

struct __align__ (16) double2
{
  double x, y;
};

static inline float2
make_float2 (float x,
             float y)
{
  return float2 { x, y };
}

static inline float4
make_float4 (float x,
             float y,
             float z,
             float w)
{
  return float4 { x, y, z, w };
}

static inline double2
make_double2 (double x,
              double y)
{
  return double2 { x, y };
}

/* The built-in variables: each host thread's own, reached through a
 * function (UBSan takes an extern thread_local reached from another file
 * for a null pointer). */
struct uint3
{
  unsigned int x, y, z;
};

uint3 &lt_cuda_emulation_thread_idx (void);
uint3 &lt_cuda_emulation_block_idx (void);
uint3 &lt_cuda_emulation_block_dim (void);
uint3 &lt_cuda_emulation_grid_dim (void);

#define threadIdx (lt_cuda_emulation_thread_idx ())
#define blockIdx (lt_cuda_emulation_block_idx ())
#define blockDim (lt_cuda_emulation_block_dim ())
#define gridDim (lt_cuda_emulation_grid_dim ())

static const int warpSize = 32;

/* Runs @body once for each thread of each block of @grid: with
 * @cooperative, a block's threads at once on threads of their own, else
 * one after another on the caller's, where __syncthreads() or a shuffle
 * is an error that aborts. */
void lt_cuda_emulation_run (dim3                          grid,
                            dim3                          block,
                            bool                          cooperative,
                            const std::function<void ()> &body);
void lt_cuda_emulation_syncthreads (void);
/* The lane @delta above the caller's in its warp (within segments of
 * @width lanes) sends its @size bytes at @value to the caller's @result;
 * where there is no such lane, @result keeps the caller's own. */
void lt_cuda_emulation_shuffle_down (const void *value,
                                     void       *result,
                                     size_t      size,
                                     unsigned    delta,
                                     int         width);

#define __syncthreads() lt_cuda_emulation_syncthreads ()

template <typename T>
static inline T
__shfl_down_sync (unsigned int mask,
                  T            value,
                  unsigned int delta,
                  int          width = 32)
{
  T result = value;

  (void) mask;
  lt_cuda_emulation_shuffle_down (&value, &result, sizeof (T), delta, width);
  return result;
}

static inline unsigned int
__umulhi (unsigned int a,
          unsigned int b)
{
  return (unsigned int) (((unsigned long long) a * b) >> 32);
}

static inline float
__uint_as_float (unsigned int bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static inline unsigned int
__float_as_uint (float f)
{
  unsigned int bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* A kernel launch: LT_CUDA_LAUNCH (grid, block, kernel) (arguments). The
 * arguments are converted to the kernel's parameter types once, as the
 * runtime copies them, and every thread gets its own copy. */
template <typename... Params>
struct LtCudaEmulatedLaunch
{
  dim3 grid;
  dim3 block;
  bool cooperative;
  void (*kernel) (Params...);

  template <typename... Args>
  void
  operator() (Args &&...args) const
  {
    std::tuple<Params...> parameters (static_cast<Params> (std::forward<Args> (args))...);
    void (*run) (Params...) = kernel;

    lt_cuda_emulation_run (grid, block, cooperative,
                           [&parameters, run] () { std::apply (run, parameters); });
  }
};

template <typename... Params>
static inline LtCudaEmulatedLaunch<Params...>
lt_cuda_emulation_launch (dim3 grid,
                          dim3 block,
                          bool cooperative,
                          void (*kernel) (Params...))
{
  return LtCudaEmulatedLaunch<Params...> { grid, block, cooperative, kernel };
}
