/* lt-cuda-pointwise.c: element-wise operations on a CUDA device
 *
 * The host side of lt-cuda-pointwise.cu: merges the operands' dims as the
 * CPU does, decides whether the launch's index arithmetic fits in 32 bits,
 * and turns every CUDA status into a GError. Every op and dtype the tensor
 * layer allows has a kernel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-enums.h"
#include "lt-error.h"
#include "lt-cuda-private.h"
#include "lt-cuda-backend-private.h"
#include "lt-i18n-private.h"

/* The launch over @n_operands operands (the output first), planned by the
 * library (LtLaunchPlan), as the kernels take it. */
static gboolean
shape_for (guint             ndim,
           const gint64     *sizes,
           const LtOperand **operands,
           guint             n_operands,
           LtCudaShape4     *shape,
           gint64           *numel,
           gboolean         *narrow,
           GError          **error)
{
  LtLaunchPlan plan;

  if (!lt_cuda_services->plan_elementwise (ndim, sizes, operands, n_operands, &plan, error))
    return FALSE;
  *numel = plan.numel;
  *narrow = plan.narrow;
  memset (shape, 0, sizeof *shape);
  shape->ndim = (int) plan.ndim;
  memcpy (shape->offsets, plan.offsets, sizeof shape->offsets);
  for (guint d = 0; d < plan.ndim; d++)
    {
      shape->sizes[d] = plan.sizes[d];
      for (guint op = 0; op < n_operands; op++)
        shape->strides[op][d] = plan.strides[op][d];
    }
  return TRUE;
}

static gboolean
cuda_unary (const LtBackend *self,
            LtUnaryOp        op,
            guint            ndim,
            const gint64    *sizes,
            const LtOperand *out,
            const LtOperand *in,
            GError         **error)
{
  const LtOperand *operands[] = { out, in };
  LtCudaShape4 shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, operands, 2, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_unary (in->dtype, op, out->buffer, in->buffer, &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, "%s (%s)",
                               lt_cuda_enum_nick (LT_TYPE_UNARY_OP, op),
                               lt_dtype_get_name (in->dtype));
}

static gboolean
cuda_binary (const LtBackend *self,
             LtBinaryOp       op,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *out,
             const LtOperand *a,
             const LtOperand *b,
             LtValue          alpha,
             GError         **error)
{
  const LtOperand *operands[] = { out, a, b };
  guint64 alpha_bytes[2];
  gint64 alpha_i;
  gint32 use_alpha;
  LtCudaShape4 shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, operands, 3, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  lt_pointwise_alpha_for_kernels (a->dtype, alpha, &alpha_i, &use_alpha, alpha_bytes);
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_binary (a->dtype, op, out->buffer, a->buffer, b->buffer, alpha_i,
                                    alpha_bytes, use_alpha, &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, "%s (%s)",
                               lt_cuda_enum_nick (LT_TYPE_BINARY_OP, op),
                               lt_dtype_get_name (a->dtype));
}

static gboolean
cuda_where (const LtBackend *self,
            guint            ndim,
            const gint64    *sizes,
            const LtOperand *out,
            const LtOperand *cond,
            const LtOperand *a,
            const LtOperand *b,
            GError         **error)
{
  const LtOperand *operands[] = { out, cond, a, b };
  LtCudaShape4 shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, operands, 4, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_where (out->dtype, out->buffer, cond->buffer, a->buffer, b->buffer,
                                   &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, "where (%s)", lt_dtype_get_name (out->dtype));
}

static gboolean
run_ternary (const LtBackend *self,
             gboolean         clamp,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *out,
             const LtOperand *x,
             const LtOperand *y,
             const LtOperand *z,
             GError         **error)
{
  const LtOperand *operands[] = { out, x, y, z };
  LtCudaShape4 shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, operands, 4, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = lt_cuda_launch_ternary (out->dtype, clamp, out->buffer, x->buffer, y->buffer,
                                     z->buffer, &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, "%s (%s)", clamp ? "clamp" : "lerp",
                               lt_dtype_get_name (out->dtype));
}

static gboolean
cuda_lerp (const LtBackend *self,
           guint            ndim,
           const gint64    *sizes,
           const LtOperand *out,
           const LtOperand *a,
           const LtOperand *b,
           const LtOperand *weight,
           GError         **error)
{
  return run_ternary (self, FALSE, ndim, sizes, out, a, b, weight, error);
}

static gboolean
cuda_clamp (const LtBackend *self,
            guint            ndim,
            const gint64    *sizes,
            const LtOperand *out,
            const LtOperand *x,
            const LtOperand *lo,
            const LtOperand *hi,
            GError         **error)
{
  return run_ternary (self, TRUE, ndim, sizes, out, x, lo, hi, error);
}

static gboolean
cuda_any_zero (const LtBackend *self,
               guint            ndim,
               const gint64    *sizes,
               const LtOperand *operand,
               gboolean        *found,
               GError         **error)
{
  const LtOperand *operands[] = { operand };
  LtCudaShape4 shape;
  gint64 numel;
  gboolean narrow = FALSE;
  int *flag = NULL;
  int host_flag = 0;
  cudaError_t status;

  *found = FALSE;
  if (!shape_for (ndim, sizes, operands, 1, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  status = lt_cuda_use_device (self);
  if (status == cudaSuccess)
    status = cudaMalloc ((void **) &flag, sizeof *flag);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("allocating a flag on the device"));
      return FALSE;
    }
  status = cudaMemset (flag, 0, sizeof *flag);
  if (status == cudaSuccess)
    status = lt_cuda_launch_any_zero (operand->dtype, operand->buffer, flag, &shape, numel,
                                      narrow);
  /* On the default stream: waits for the kernel. */
  if (status == cudaSuccess)
    status = cudaMemcpy (&host_flag, flag, sizeof host_flag, cudaMemcpyDeviceToHost);
  cudaFree (flag);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("looking for zeros on the device"));
      return FALSE;
    }
  *found = host_flag != 0;
  return TRUE;
}

const LtPointwiseKernels lt_cuda_pointwise_kernels = {
  .unary = cuda_unary,
  .binary = cuda_binary,
  .where = cuda_where,
  .lerp = cuda_lerp,
  .clamp = cuda_clamp,
  .any_zero = cuda_any_zero,
};
