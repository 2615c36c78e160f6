/* lt-opencl-blas.c: float matrix products through CLBlast
 *
 * Large float32, float64, complex64 and complex128 products whose operands
 * BLAS can take as they are (each matrix row- or column-major with room for
 * its rows, one batch dim or none) go to CLBlast's strided batched GEMM on
 * the device's queue; everything else, and every product where libtensor
 * was built without CLBlast, takes the element kernel (lt-kernel-linalg.h).
 * Small products stay with the element kernel too.
 *
 * CLBlast builds its kernels for each precision on first use, all of them
 * at once (it asks the driver for the program's binary, so PoCL compiles
 * every kernel in it): on PoCL that is some 22 s on 2 cores, where the
 * element kernel does a 256 x 256 x 256 product in 20 ms (bench/RESULTS.md).
 * So on CPU devices a precision's products take the element kernel until
 * it has done about as much work as the build costs, and CLBlast from then
 * on: no product pays for the build unless the work done so far would have
 * paid for it (the rent-or-buy rule), and long runs of large products
 * still end up in CLBlast. Other devices (GPUs) take CLBlast at once.
 * $LT_OPENCL_CLBLAST ("always", "never" or "auto") overrides this.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-opencl-private.h"

void
lt_opencl_blas_init (LtOpenCLDevice *device)
{
  const char *setting = g_getenv ("LT_OPENCL_CLBLAST");
  cl_device_type type = 0;

  clGetDeviceInfo (device->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if (g_strcmp0 (setting, "always") == 0)
    device->blas_policy = LT_OPENCL_BLAS_AT_ONCE;
  else if (g_strcmp0 (setting, "never") == 0)
    device->blas_policy = LT_OPENCL_BLAS_NEVER;
  else
    {
      if (setting != NULL && *setting != '\0' && g_strcmp0 (setting, "auto") != 0)
        g_warning ("LT_OPENCL_CLBLAST is \"%s\"; it takes always, never or auto, so auto it is",
                   setting);
      device->blas_policy = (type & CL_DEVICE_TYPE_CPU) != 0 ? LT_OPENCL_BLAS_WHEN_WORTH_IT
                                                            : LT_OPENCL_BLAS_AT_ONCE;
    }
}

#ifdef HAVE_CLBLAST

#include <clblast_c.h>

/* Multiply-adds below which the element kernel is used. */
#define MIN_BLAS_WORK (128.0 * 128.0 * 128.0)

/* Multiply-adds the element kernel does on PoCL, on 2 cores, in about the
 * time CLBlast takes to build one precision's kernels there (some 22 s:
 * 1024^3, 1.07e9, takes it 2.6 to 3.6 s); a complex multiply-add counts
 * as 4. */
#define CPU_BUILD_WORK 8.0e9

static const char *const precision_names[LT_OPENCL_N_BLAS_PRECISIONS] = {
  "float32", "float64", "complex64", "complex128",
};

/* Whether the product of @work multiply-adds in @precision goes to CLBlast
 * on @device, by its policy (lt-opencl-private.h); counts the work the
 * element kernel does instead. Called with the device's launch_lock held. */
static gboolean
take_blas (LtOpenCLDevice *device,
           int             precision,
           double          work)
{
  const char *name = precision_names[precision];

  switch (device->blas_policy)
    {
    case LT_OPENCL_BLAS_NEVER:
      return FALSE;
    case LT_OPENCL_BLAS_AT_ONCE:
      break;
    case LT_OPENCL_BLAS_WHEN_WORTH_IT:
    default:
      if (device->blas_in_use[precision])
        break;
      if (device->blas_deferred_work[precision] + work < CPU_BUILD_WORK)
        {
          device->blas_deferred_work[precision] += work;
          g_debug ("opencl:%u: a %s product of %.3g multiply-adds takes the element kernel: "
                   "building CLBlast's %s kernels costs more on this CPU device (%.0f of "
                   "%.0f multiply-adds done so far)", device->index, name, work, name,
                   device->blas_deferred_work[precision], CPU_BUILD_WORK);
          return FALSE;
        }
      g_debug ("opencl:%u: %s products go to CLBlast from now on (%.0f multiply-adds in the "
               "element kernel so far, with this product's)", device->index, name,
               device->blas_deferred_work[precision] + work);
      break;
    }
  device->blas_in_use[precision] = TRUE;
  g_debug ("opencl:%u: a %s product of %.3g multiply-adds goes to CLBlast", device->index, name,
           work);
  return TRUE;
}

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
  int precision;
  double work;

  *done = FALSE;
  switch (args->dtype)
    {
    case LT_DTYPE_FLOAT32:
      precision = 0;
      break;
    case LT_DTYPE_FLOAT64:
      precision = 1;
      break;
    case LT_DTYPE_COMPLEX64:
      precision = 2;
      break;
    case LT_DTYPE_COMPLEX128:
      precision = 3;
      break;
    default:
      return TRUE;
    }
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

  work = (double) args->m * (double) args->n * (double) args->k * (double) batch
         * (precision >= 2 ? 4.0 : 1.0);

  g_mutex_lock (&device->launch_lock);
  if (!take_blas (device, precision, work))
    {
      g_mutex_unlock (&device->launch_lock);
      return TRUE;
    }
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
                   _("CLBlast's matrix product on opencl:%u failed (status %d)"), device->index,
                   (int) status);
      return FALSE;
    }
  if (finished != CL_SUCCESS)
    {
      lt_opencl_set_error (error, finished, _("running CLBlast's matrix product"));
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
