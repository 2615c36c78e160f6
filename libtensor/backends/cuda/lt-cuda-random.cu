/* lt-cuda-random.cu: random fills on a CUDA device
 *
 * Each element from its Philox block as every backend maps them
 * (lt-kernel-random.h), so a seed gives the CPU's tensor; a grid-stride
 * loop over the elements in row-major order of the view.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <stdint.h>

#include "lt-cuda-kernels.h"
#include "lt-cuda-reduce.h"

static __global__ void
random_fill_kernel (uint8_t       *dst,
                    const uint8_t *probabilities,
                    LtRandomArgs   args)
{
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < args.n;
       i += (int64_t) gridDim.x * blockDim.x)
    lt_random_element (i, &args, dst, probabilities);
}

extern "C" cudaError_t
lt_cuda_launch_random_fill (void               *dst,
                            const void         *probabilities,
                            const LtRandomArgs *args)
{
  LT_CUDA_LAUNCH (blocks_for (args->n), threads_per_block, random_fill_kernel) (
    (uint8_t *) dst, (const uint8_t *) probabilities, *args);
  return cudaGetLastError ();
}
