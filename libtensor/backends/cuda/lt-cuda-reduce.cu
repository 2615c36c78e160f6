/* lt-cuda-reduce.cu: reductions, scans, softmax and allclose on CUDA
 *
 * Every reduction by the accumulators the CPU uses (lt-kernel-reduce.h),
 * each output element reduced by one thread in row-major order, with a
 * grid-stride loop over the outputs; scans and softmaxes one line per
 * thread; allclose one element per thread into one flag; matrix products
 * one output element per thread (lt-kernel-linalg.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <stdint.h>

#include "lt-cuda-kernels.h"
#include "lt-cuda-reduce.h"

static __global__ void
reduce_kernel (uint8_t        *dst,
               int64_t        *indices,
               const uint8_t  *src,
               LtReduceArgs    args,
               LtReduceShape   shape)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    lt_reduce_output (o, &args, &shape, dst, indices, src);
}

extern "C" cudaError_t
lt_cuda_launch_reduce (void                *dst,
                       int64_t             *indices,
                       const void          *src,
                       const LtReduceArgs  *args,
                       const LtReduceShape *shape)
{
  reduce_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape);
  return cudaGetLastError ();
}

static __global__ void
lines_kernel (uint8_t        *dst,
              const uint8_t  *src,
              LtReduceArgs    args,
              LtReduceShape   shape)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    lt_line_output (o, &args, &shape, dst, src);
}

static __global__ void
allclose_kernel (const uint8_t *b,
                 const uint8_t *a,
                 int           *close,
                 LtReduceArgs   args,
                 LtReduceShape  shape)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    if (!lt_allclose_element (o, &args, &shape, b, a))
      *close = 0;
}

extern "C" cudaError_t
lt_cuda_launch_lines (void                *dst,
                      const void          *src,
                      const LtReduceArgs  *args,
                      const LtReduceShape *shape)
{
  lines_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (uint8_t *) dst, (const uint8_t *) src, *args, *shape);
  return cudaGetLastError ();
}

extern "C" cudaError_t
lt_cuda_launch_allclose (const void          *b,
                         const void          *a,
                         int                 *close,
                         const LtReduceArgs  *args,
                         const LtReduceShape *shape)
{
  allclose_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (const uint8_t *) b, (const uint8_t *) a, close, *args, *shape);
  return cudaGetLastError ();
}

static __global__ void
matmul_kernel (uint8_t       *out,
               const uint8_t *a,
               const uint8_t *b,
               LtMatmulArgs   args)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    lt_matmul_element (o, &args, out, a, b);
}

extern "C" cudaError_t
lt_cuda_launch_matmul (void               *out,
                       const void         *a,
                       const void         *b,
                       const LtMatmulArgs *args)
{
  matmul_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (uint8_t *) out, (const uint8_t *) a, (const uint8_t *) b, *args);
  return cudaGetLastError ();
}
