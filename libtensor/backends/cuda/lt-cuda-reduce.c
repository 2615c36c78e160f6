/* lt-cuda-reduce.c: reductions on a CUDA device
 *
 * The host side of lt-cuda-reduce.cu: the library lays the reduction out
 * (plan_reduce), and every CUDA status becomes a GError.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-cuda-backend-private.h"
#include "lt-cuda-reduce.h"

static gboolean
cuda_reduce (const LtBackend      *self,
             const LtReduceParams *params,
             guint                 ndim,
             const gint64         *sizes,
             const LtOperand      *dst,
             const LtOperand      *indices,
             const LtOperand      *src,
             GError              **error)
{
  LtReduceArgs args;
  LtReduceShape shape;
  cudaError_t status;

  if (!lt_cuda_services->plan_reduce (params, ndim, sizes, dst, indices, src, &args, &shape,
                                      error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_reduce (dst != NULL ? dst->buffer : src->buffer,
                                    indices != NULL ? indices->buffer : src->buffer,
                                    src->buffer, &args, &shape);
  return lt_cuda_check_launch (status, error);
}

const LtReduceKernels lt_cuda_reduce_kernels = {
  .reduce = cuda_reduce,
};
