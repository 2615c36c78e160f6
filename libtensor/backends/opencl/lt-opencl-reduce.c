/* lt-opencl-reduce.c: reductions, scans, softmax, allclose, matmul on OpenCL
 *
 * Every reduction (sum, prod, mean, amax/amin, all/any, logsumexp, var,
 * std, norm, and max/min with their indices) by the accumulators the CPU
 * uses (lt-kernel-reduce.h), each output element reduced by one work item
 * in row-major order; running sums and products and softmaxes line by
 * line; allclose element by element into one flag; matrix products one
 * output element per work item (lt-kernel-linalg.h). The program is built
 * on first use and kept for the life of the device.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-opencl-private.h"


/* The kernels of lt-opencl-reduce.cl, as in lt-opencl-private.h's
 * reduce_kernels. */
enum
{
  KERNEL_REDUCE,
  KERNEL_LINES,
  KERNEL_ALLCLOSE,
  KERNEL_MATMUL,
};

static const char *const kernel_names[LT_OPENCL_N_REDUCE_KERNELS] = {
  "reduce_strided", "lines_strided", "allclose_strided", "matmul_strided",
};

/* Builds kernel @which if that has not been done: each in a program of its
 * own (LT_OPENCL_REDUCE_KERNEL selects it in lt-opencl-reduce.cl), so that
 * the first sum compiles the reductions and not the products, scans and
 * comparisons too (bench/RESULTS.md). Called with the device's launch_lock
 * held. */
static gboolean
ensure_kernel (LtOpenCLDevice *device,
               int             which,
               GError        **error)
{
  g_autofree char *convert = NULL;
  g_autofree char *prelude = NULL;
  g_autofree char *defines = NULL;
  g_autofree char *options = NULL;
  cl_program program;

  if (device->reduce_programs[which] != NULL)
    return TRUE;

  convert = lt_opencl_convert_prelude (device);
  prelude = g_strdup_printf ("#pragma OPENCL FP_CONTRACT OFF\n%s#define LT_KERNEL_REDUCE_WALK 1\n",
                             convert);
  defines = lt_opencl_program_options (device);
  options = g_strdup_printf ("%s -DLT_OPENCL_REDUCE_KERNEL=%d", defines, which);
  program = lt_opencl_build_program (device, prelude,
                                     (const char *[]) { "lt-kernel-convert.h",
                                                        "lt-kernel-reduce.h",
                                                        "lt-kernel-linalg.h",
                                                        "lt-opencl-reduce.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program, (const char *[]) { kernel_names[which], NULL },
                                    &device->reduce_kernels[which], error))
    return FALSE;
  device->reduce_programs[which] = program;
  return TRUE;
}

/* Runs kernel @which over @n work items at most, with @n_args arguments
 * of @sizes and @values, in order. */
static gboolean
launch (LtOpenCLDevice     *device,
        int                 which,
        gint64              n,
        guint               n_args,
        const gsize        *sizes,
        const void *const  *values,
        GError            **error)
{
  gboolean done = FALSE;

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernel (device, which, error))
    {
      cl_kernel kernel = device->reduce_kernels[which];

      for (guint i = 0; i < n_args; i++)
        clSetKernelArg (kernel, i, sizes[i], values[i]);
      done = lt_opencl_launch (device, kernel, n, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

/* @args' real numbers as the device reads them. */
static void
fit_real_args (LtOpenCLDevice *device,
               LtReduceArgs   *args)
{
  lt_opencl_fit_real_arg (device, &args->correction);
  lt_opencl_fit_real_arg (device, &args->p);
  lt_opencl_fit_real_arg (device, &args->rtol);
  lt_opencl_fit_real_arg (device, &args->atol);
}

static gboolean
opencl_reduce (const LtBackend      *self,
               const LtReduceParams *params,
               guint                 ndim,
               const gint64         *sizes,
               const LtOperand      *dst,
               const LtOperand      *indices,
               const LtOperand      *src,
               GError              **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem dst_buffer = dst != NULL ? dst->buffer : src->buffer;
  cl_mem indices_buffer = indices != NULL ? indices->buffer : src->buffer;
  cl_mem src_buffer = src->buffer;
  LtReduceArgs args = { 0 };
  LtReduceShape shape = { { 0 } };

  if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { dst, src }, 2, error)
      || !lt_opencl_services->plan_reduce (params, ndim, sizes, dst, indices, src, &args, &shape,
                                           error))
    return FALSE;
  fit_real_args (device, &args);
  if (args.n_out == 0)
    return TRUE;

  return launch (device, KERNEL_REDUCE, args.n_out, 5,
                 (const gsize[]) { sizeof dst_buffer, sizeof indices_buffer, sizeof src_buffer,
                                   sizeof args, sizeof shape },
                 (const void *const[]) { &dst_buffer, &indices_buffer, &src_buffer, &args,
                                         &shape },
                 error);
}

static gboolean
run_lines (const LtBackend *self,
           int              op,
           guint            ndim,
           const gint64    *sizes,
           guint            dim,
           const LtOperand *dst,
           const LtOperand *src,
           GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem dst_buffer = dst->buffer, src_buffer = src->buffer;
  LtReduceArgs args;
  LtReduceShape shape;

  if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { dst, src }, 2, error)
      || !lt_opencl_services->plan_lines (op, ndim, sizes, dim, dst, src, &args, &shape, error))
    return FALSE;
  fit_real_args (device, &args);
  if (args.n_out == 0)
    return TRUE;

  return launch (device, KERNEL_LINES, args.n_out, 4,
                 (const gsize[]) { sizeof dst_buffer, sizeof src_buffer, sizeof args,
                                   sizeof shape },
                 (const void *const[]) { &dst_buffer, &src_buffer, &args, &shape }, error);
}

static gboolean
opencl_scan (const LtBackend *self,
             LtScanOp         op,
             guint            ndim,
             const gint64    *sizes,
             guint            dim,
             const LtOperand *dst,
             const LtOperand *src,
             GError         **error)
{
  return run_lines (self, op == LT_SCAN_CUMSUM ? LT_KR_SUM : LT_KR_PROD, ndim, sizes, dim, dst,
                    src, error);
}

static gboolean
opencl_softmax (const LtBackend *self,
                LtSoftmaxOp      op,
                guint            ndim,
                const gint64    *sizes,
                guint            dim,
                const LtOperand *dst,
                const LtOperand *src,
                GError         **error)
{
  return run_lines (self, op == LT_SOFTMAX ? LT_KR_SOFTMAX : LT_KR_LOG_SOFTMAX, ndim, sizes, dim,
                    dst, src, error);
}

static gboolean
opencl_allclose (const LtBackend *self,
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
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem a_buffer = a->buffer, b_buffer = b->buffer, flag_buffer;
  cl_int flag = 1, status;
  LtReduceArgs args;
  LtReduceShape shape;
  gboolean done = FALSE;

  *close = TRUE;
  if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { a, b }, 2, error)
      || !lt_opencl_services->plan_allclose (ndim, sizes, a, b, rtol, atol, equal_nan, &args,
                                             &shape, error))
    return FALSE;
  fit_real_args (device, &args);
  if (args.n_out == 0)
    return TRUE;

  flag_buffer = clCreateBuffer (device->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof flag, &flag, &status);
  if (flag_buffer == NULL)
    {
      lt_opencl_set_error (error, status, _("allocating a flag on the device"));
      return FALSE;
    }
  done = launch (device, KERNEL_ALLCLOSE, args.n_out, 5,
                 (const gsize[]) { sizeof b_buffer, sizeof a_buffer, sizeof flag_buffer,
                                   sizeof args, sizeof shape },
                 (const void *const[]) { &b_buffer, &a_buffer, &flag_buffer, &args, &shape },
                 error);
  if (done)
    {
      status = clEnqueueReadBuffer (device->queue, flag_buffer, CL_TRUE, 0, sizeof flag, &flag,
                                    0, NULL, NULL);
      if (status != CL_SUCCESS)
        {
          lt_opencl_set_error (error, status, _("reading a flag from the device"));
          done = FALSE;
        }
    }
  clReleaseMemObject (flag_buffer);
  *close = flag != 0;
  return done;
}

const LtReduceKernels lt_opencl_reduce_kernels = {
  .reduce = opencl_reduce,
  .scan = opencl_scan,
  .softmax = opencl_softmax,
  .allclose = opencl_allclose,
};

static gboolean
opencl_matmul (const LtBackend *self,
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
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem out_buffer = out->buffer, a_buffer = a->buffer, b_buffer = b->buffer;
  LtMatmulArgs args;

  if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { out, a, b }, 3, error)
      || !lt_opencl_services->plan_matmul (batch_ndim, batch_sizes, m, n, k, out, a, b, &args,
                                           error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;
  {
    gboolean by_blas = FALSE;

    if (!lt_opencl_blas_matmul (device, &args, out_buffer, a_buffer, b_buffer, &by_blas, error))
      return FALSE;
    if (by_blas)
      return TRUE;
  }

  return launch (device, KERNEL_MATMUL, args.n_out, 4,
                 (const gsize[]) { sizeof out_buffer, sizeof a_buffer, sizeof b_buffer,
                                   sizeof args },
                 (const void *const[]) { &out_buffer, &a_buffer, &b_buffer, &args }, error);
}

const LtLinalgKernels lt_opencl_linalg_kernels = {
  .matmul = opencl_matmul,
};
