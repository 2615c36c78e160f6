/* lt-cuda-reduce.c: reductions, scans, softmax, allclose and random fills
 * on CUDA
 *
 * The host side of lt-cuda-reduce.cu and lt-cuda-random.cu: the library
 * lays each operation out (plan_reduce, plan_lines, plan_allclose,
 * plan_random), and every CUDA status becomes a GError.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-cuda-backend-private.h"
#include "lt-cuda-reduce.h"
#include "lt-i18n-private.h"

/* For messages: LtReduceOp's names, as PyTorch's functions have them. */
static const char *const reduce_names[] = {
  [LT_REDUCE_SUM] = "sum", [LT_REDUCE_PROD] = "prod", [LT_REDUCE_MEAN] = "mean",
  [LT_REDUCE_AMAX] = "amax", [LT_REDUCE_AMIN] = "amin", [LT_REDUCE_ALL] = "all",
  [LT_REDUCE_ANY] = "any", [LT_REDUCE_LOGSUMEXP] = "logsumexp", [LT_REDUCE_VAR] = "var",
  [LT_REDUCE_STD] = "std", [LT_REDUCE_NORM] = "norm", [LT_REDUCE_MAX_INDEX] = "max",
  [LT_REDUCE_MIN_INDEX] = "min",
};

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
  return lt_cuda_check_launch (status, error, "%s (%s)",
                               (guint) params->op < G_N_ELEMENTS (reduce_names)
                                 ? reduce_names[params->op] : "reduction",
                               lt_dtype_get_name (src->dtype));
}

static gboolean
run_lines (const LtBackend *self,
           const char      *name,
           int              op,
           guint            ndim,
           const gint64    *sizes,
           guint            dim,
           const LtOperand *dst,
           const LtOperand *src,
           GError         **error)
{
  LtReduceArgs args;
  LtReduceShape shape;
  cudaError_t status;

  if (!lt_cuda_services->plan_lines (op, ndim, sizes, dim, dst, src, &args, &shape, error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_lines (dst->buffer, src->buffer, &args, &shape);
  return lt_cuda_check_launch (status, error, "%s (%s)", name,
                               lt_dtype_get_name (src->dtype));
}

static gboolean
cuda_scan (const LtBackend *self,
           LtScanOp         op,
           guint            ndim,
           const gint64    *sizes,
           guint            dim,
           const LtOperand *dst,
           const LtOperand *src,
           GError         **error)
{
  return run_lines (self, op == LT_SCAN_CUMSUM ? "cumsum" : "cumprod",
                    op == LT_SCAN_CUMSUM ? LT_KR_SUM : LT_KR_PROD, ndim, sizes, dim, dst, src,
                    error);
}

static gboolean
cuda_softmax (const LtBackend *self,
              LtSoftmaxOp      op,
              guint            ndim,
              const gint64    *sizes,
              guint            dim,
              const LtOperand *dst,
              const LtOperand *src,
              GError         **error)
{
  return run_lines (self, op == LT_SOFTMAX ? "softmax" : "log_softmax",
                    op == LT_SOFTMAX ? LT_KR_SOFTMAX : LT_KR_LOG_SOFTMAX, ndim, sizes, dim, dst,
                    src, error);
}

static gboolean
cuda_allclose (const LtBackend *self,
               guint            ndim,
               const gint64    *sizes,
               const LtOperand *a,
               const LtOperand *b,
               double           rtol,
               double           atol,
               gboolean         equal_nan,
               gboolean        *close,
               GError         **error)
{
  LtReduceArgs args;
  LtReduceShape shape;
  int *flag = NULL;
  int host_flag = 1;
  cudaError_t status;

  *close = TRUE;
  if (!lt_cuda_services->plan_allclose (ndim, sizes, a, b, rtol, atol, equal_nan, &args, &shape,
                                        error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = cudaMalloc ((void **) &flag, sizeof *flag);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("allocating a flag on the device"));
      return FALSE;
    }
  status = cudaMemcpy (flag, &host_flag, sizeof host_flag, cudaMemcpyHostToDevice);
  if (status == cudaSuccess)
    status = lt_cuda_launch_allclose (b->buffer, a->buffer, flag, &args, &shape);
  /* On the default stream: waits for the kernel. */
  if (status == cudaSuccess)
    status = cudaMemcpy (&host_flag, flag, sizeof host_flag, cudaMemcpyDeviceToHost);
  cudaFree (flag);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("comparing tensors on the device"));
      return FALSE;
    }
  *close = host_flag != 0;
  return TRUE;
}

gboolean
lt_cuda_random_fill (const LtBackend      *self,
                     guint                 ndim,
                     const gint64         *sizes,
                     const LtOperand      *dst,
                     const LtOperand      *probabilities,
                     const LtRandomParams *params,
                     guint64               seed,
                     guint64               counter,
                     GError              **error)
{
  LtRandomArgs args;
  cudaError_t status;

  if (!lt_cuda_services->plan_random (ndim, sizes, dst, probabilities, params, seed, counter,
                                      &args, error))
    return FALSE;
  if (args.n == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_random_fill (dst->buffer,
                                         probabilities != NULL ? probabilities->buffer
                                                               : dst->buffer,
                                         &args);
  return lt_cuda_check_launch (status, error, "random fill (%s)", lt_dtype_get_name (dst->dtype));
}

const LtReduceKernels lt_cuda_reduce_kernels = {
  .reduce = cuda_reduce,
  .scan = cuda_scan,
  .softmax = cuda_softmax,
  .allclose = cuda_allclose,
};

static gboolean
cuda_matmul (const LtBackend *self,
             guint            batch_ndim,
             const gint64    *batch_sizes,
             gint64           m,
             gint64           n,
             gint64           k,
             const LtOperand *out,
             const LtOperand *a,
             const LtOperand *b,
             GError         **error)
{
  LtMatmulArgs args;
  cudaError_t status;

  if (!lt_cuda_services->plan_matmul (batch_ndim, batch_sizes, m, n, k, out, a, b, &args, error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    {
      gboolean done = FALSE;

      if (!lt_cuda_blas_matmul (self, &args, out->buffer, a->buffer, b->buffer, &done, error))
        return FALSE;
      if (done)
        return TRUE;
      status = lt_cuda_launch_matmul (out->buffer, a->buffer, b->buffer, &args);
    }
  return lt_cuda_check_launch (status, error, "matmul (%s)", lt_dtype_get_name (out->dtype));
}

const LtLinalgKernels lt_cuda_linalg_kernels = {
  .matmul = cuda_matmul,
};
