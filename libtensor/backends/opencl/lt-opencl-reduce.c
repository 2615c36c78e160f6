/* lt-opencl-reduce.c: reductions on an OpenCL device
 *
 * Every reduction (sum, prod, mean, amax/amin, all/any, logsumexp, var,
 * std, norm, and max/min with their indices) by the accumulators the CPU
 * uses (lt-kernel-reduce.h), each output element reduced by one work item
 * in row-major order. The program is built on first use and kept for the
 * life of the device.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-error.h"
#include "lt-opencl-private.h"


/* Builds the reduce kernel if that has not been done. Called with the
 * device's launch_lock held. */
static gboolean
ensure_kernel (LtOpenCLDevice *device,
               GError        **error)
{
  g_autofree char *prelude = NULL;
  g_autofree char *options = NULL;
  cl_program program;

  if (device->reduce_program != NULL)
    return TRUE;

  if (!lt_opencl_require_fp64 (device, "reducing", error))
    return FALSE;
  prelude = g_strdup_printf ("#pragma OPENCL FP_CONTRACT OFF\n%s#define LT_KERNEL_REDUCE_WALK 1\n",
                             lt_opencl_convert_prelude);
  options = lt_opencl_dtype_defines ();
  program = lt_opencl_build_program (device, prelude,
                                     (const char *[]) { "lt-kernel-convert.h",
                                                        "lt-kernel-reduce.h",
                                                        "lt-opencl-reduce.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program, (const char *[]) { "reduce_strided", NULL },
                                    &device->reduce_kernel, error))
    return FALSE;
  device->reduce_program = program;
  return TRUE;
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
  gboolean done = FALSE;

  if (!lt_opencl_services->plan_reduce (params, ndim, sizes, dst, indices, src, &args, &shape,
                                        error))
    return FALSE;
  if (args.n_out == 0)
    return TRUE;

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernel (device, error))
    {
      cl_kernel kernel = device->reduce_kernel;

      clSetKernelArg (kernel, 0, sizeof dst_buffer, &dst_buffer);
      clSetKernelArg (kernel, 1, sizeof indices_buffer, &indices_buffer);
      clSetKernelArg (kernel, 2, sizeof src_buffer, &src_buffer);
      clSetKernelArg (kernel, 3, sizeof args, &args);
      clSetKernelArg (kernel, 4, sizeof shape, &shape);
      done = lt_opencl_launch (device, kernel, args.n_out, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

const LtReduceKernels lt_opencl_reduce_kernels = {
  .reduce = opencl_reduce,
};
