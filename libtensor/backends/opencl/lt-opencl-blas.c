/* lt-opencl-blas.c: float matrix products through CLBlast
 *
 * Large float32, float64, complex64 and complex128 products whose operands
 * BLAS can take as they are (each matrix row- or column-major with room for
 * its rows, one batch dim or none) go to CLBlast's strided batched GEMM on
 * the device's queue; everything else, and every product where libtensor
 * was built without CLBlast, takes the element kernel (lt-kernel-linalg.h).
 * Small products stay with the element kernel too: CLBlast builds its
 * kernels for each precision on first use, which takes seconds on some
 * devices (PoCL: 10 s and more) and only pays back on large products.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-opencl-private.h"

#ifdef HAVE_CLBLAST

#include <clblast_c.h>

/* Multiply-adds below which the element kernel is used. */
#define MIN_BLAS_WORK (128.0 * 128.0 * 128.0)

/* How CLBlast sees a row-major matrix with strides (@row, @col) of @rows x
 * @cols: itself (no transpose, leading dimension @row) when its rows are
 * contiguous, its transpose stored row-major (transpose, leading dimension
 * @col) when its columns are; FALSE when neither or the leading dimension
 * is too short. */
static gboolean
blas_layout (gint64            rows,
             gint64            cols,
             gint64            row,
             gint64            col,
             CLBlastTranspose *transpose,
             size_t           *ld)
{
  if ((col == 1 || cols == 1) && row >= MAX (1, cols))
    {
      *transpose = CLBlastTransposeNo;
      *ld = (size_t) row;
      return TRUE;
    }
  if ((row == 1 || rows == 1) && col >= MAX (1, rows))
    {
      *transpose = CLBlastTransposeYes;
      *ld = (size_t) col;
      return TRUE;
    }
  return FALSE;
}

gboolean
lt_opencl_blas_matmul (LtOpenCLDevice     *device,
                       const LtMatmulArgs *args,
                       cl_mem              out,
                       cl_mem              a,
                       cl_mem              b,
                       gboolean           *done,
                       GError            **error)
{
  CLBlastTranspose transpose_a, transpose_b;
  size_t lda, ldb, batch = args->batch_ndim == 1 ? (size_t) args->batch_sizes[0] : 1;
  size_t stride_a = 0, stride_b = 0, stride_out = (size_t) (args->m * args->n);
  CLBlastStatusCode status;
  cl_int finished;

  *done = FALSE;
  if (args->dtype != LT_DTYPE_FLOAT32 && args->dtype != LT_DTYPE_FLOAT64
      && args->dtype != LT_DTYPE_COMPLEX64 && args->dtype != LT_DTYPE_COMPLEX128)
    return TRUE;
  if (args->batch_ndim > 1 || args->k == 0 || args->out_col != 1 || args->out_row != args->n
      || (double) args->m * (double) args->n * (double) args->k < MIN_BLAS_WORK
      || !blas_layout (args->m, args->k, args->a_row, args->a_col, &transpose_a, &lda)
      || !blas_layout (args->k, args->n, args->b_row, args->b_col, &transpose_b, &ldb))
    return TRUE;
  if (args->batch_ndim == 1)
    {
      if (args->a_batch_strides[0] < 0 || args->b_batch_strides[0] < 0
          || args->out_batch_strides[0] != args->m * args->n)
        return TRUE;
      stride_a = (size_t) args->a_batch_strides[0];
      stride_b = (size_t) args->b_batch_strides[0];
    }

  g_mutex_lock (&device->launch_lock);
  switch (args->dtype)
    {
    case LT_DTYPE_FLOAT32:
      status = CLBlastSgemmStridedBatched (CLBlastLayoutRowMajor, transpose_a, transpose_b,
                                           (size_t) args->m, (size_t) args->n, (size_t) args->k,
                                           1.0f, a, (size_t) args->a_offset, lda, stride_a,
                                           b, (size_t) args->b_offset, ldb, stride_b, 0.0f,
                                           out, (size_t) args->out_offset, (size_t) args->n,
                                           stride_out, batch, &device->queue, NULL);
      break;
    case LT_DTYPE_FLOAT64:
      status = CLBlastDgemmStridedBatched (CLBlastLayoutRowMajor, transpose_a, transpose_b,
                                           (size_t) args->m, (size_t) args->n, (size_t) args->k,
                                           1.0, a, (size_t) args->a_offset, lda, stride_a,
                                           b, (size_t) args->b_offset, ldb, stride_b, 0.0,
                                           out, (size_t) args->out_offset, (size_t) args->n,
                                           stride_out, batch, &device->queue, NULL);
      break;
    case LT_DTYPE_COMPLEX64:
      {
        cl_float2 one = { { 1.0f, 0.0f } }, zero = { { 0.0f, 0.0f } };

        status = CLBlastCgemmStridedBatched (CLBlastLayoutRowMajor, transpose_a, transpose_b,
                                             (size_t) args->m, (size_t) args->n,
                                             (size_t) args->k, one, a, (size_t) args->a_offset,
                                             lda, stride_a, b, (size_t) args->b_offset, ldb,
                                             stride_b, zero, out, (size_t) args->out_offset,
                                             (size_t) args->n, stride_out, batch,
                                             &device->queue, NULL);
        break;
      }
    default:
      {
        cl_double2 one = { { 1.0, 0.0 } }, zero = { { 0.0, 0.0 } };

        status = CLBlastZgemmStridedBatched (CLBlastLayoutRowMajor, transpose_a, transpose_b,
                                             (size_t) args->m, (size_t) args->n,
                                             (size_t) args->k, one, a, (size_t) args->a_offset,
                                             lda, stride_a, b, (size_t) args->b_offset, ldb,
                                             stride_b, zero, out, (size_t) args->out_offset,
                                             (size_t) args->n, stride_out, batch,
                                             &device->queue, NULL);
        break;
      }
    }
  /* As every launch here: finished before the caller reads anything. */
  finished = status == CLBlastSuccess ? clFinish (device->queue) : CL_SUCCESS;
  g_mutex_unlock (&device->launch_lock);

  if (status != CLBlastSuccess)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   "CLBlast's matrix product on opencl:%u failed (status %d)", device->index,
                   (int) status);
      return FALSE;
    }
  if (finished != CL_SUCCESS)
    {
      lt_opencl_set_error (error, finished, "running CLBlast's matrix product");
      return FALSE;
    }
  *done = TRUE;
  return TRUE;
}

#else /* !HAVE_CLBLAST */

gboolean
lt_opencl_blas_matmul (LtOpenCLDevice     *device,
                       const LtMatmulArgs *args,
                       cl_mem              out,
                       cl_mem              a,
                       cl_mem              b,
                       gboolean           *done,
                       GError            **error)
{
  *done = FALSE;
  return TRUE;
}

#endif /* HAVE_CLBLAST */
