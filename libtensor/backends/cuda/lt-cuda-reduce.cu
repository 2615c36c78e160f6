/* lt-cuda-reduce.cu: reductions on a CUDA device
 *
 * Every reduction by the accumulators the CPU uses (lt-kernel-reduce.h),
 * each output element reduced by one thread in row-major order, with a
 * grid-stride loop over the outputs.
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
