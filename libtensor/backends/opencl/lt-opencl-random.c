/* lt-opencl-random.c: random fills on an OpenCL device
 *
 * Uniform, normal, integer and Bernoulli fills of any view, element by
 * element from the Philox blocks as every backend maps them
 * (lt-kernel-random.h), so a seed gives the CPU's tensor. A program per
 * distribution is built on its first use and kept for the life of the
 * device: without the other three, PoCL turns the uniform fill's kernel
 * into machine code in 0.5 s instead of 0.9 s (bench/RESULTS.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-opencl-private.h"

/* Builds the random kernel of @distribution (LT_KRAND_*) if that has not
 * been done. Called with the device's launch_lock held. */
static gboolean
ensure_kernel (LtOpenCLDevice *device,
               int             distribution,
               GError        **error)
{
  g_autofree char *convert = NULL;
  g_autofree char *prelude = NULL;
  g_autofree char *defines = NULL;
  g_autofree char *options = NULL;
  cl_program program;

  if (device->random_programs[distribution] != NULL)
    return TRUE;
  convert = lt_opencl_convert_prelude (device);
  prelude = g_strdup_printf ("#pragma OPENCL FP_CONTRACT OFF\n%s"
                             "typedef uint uint32_t;\n"
                             "typedef ulong uint64_t;\n"
                             "#define UINT32_C(x) (x##u)\n"
                             "#define LT_NEXTAFTERF nextafter\n",
                             convert);
  defines = lt_opencl_program_options (device);
  options = g_strdup_printf ("%s -DLT_RANDOM_DISTRIBUTION=%d", defines, distribution);
  program = lt_opencl_build_program (device, prelude,
                                     (const char *[]) { "lt-kernel-convert.h", "lt-philox.h",
                                                        "lt-kernel-random.h",
                                                        "lt-opencl-random.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program, (const char *[]) { "random_fill_strided", NULL },
                                    &device->random_kernels[distribution], error))
    return FALSE;
  device->random_programs[distribution] = program;
  return TRUE;
}

gboolean
lt_opencl_random_fill (const LtBackend      *self,
                       guint                 ndim,
                       const gint64         *sizes,
                       const LtOperand      *dst,
                       const LtOperand      *probabilities,
                       const LtRandomParams *params,
                       guint64               seed,
                       guint64               counter,
                       GError              **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem dst_buffer = dst->buffer;
  cl_mem probability_buffer = probabilities != NULL ? probabilities->buffer : dst->buffer;
  LtRandomArgs args;
  gboolean done = FALSE;

  if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { dst, probabilities }, 2, error)
      || !lt_opencl_services->plan_random (ndim, sizes, dst, probabilities, params, seed,
                                           counter, &args, error))
    return FALSE;
  lt_opencl_fit_real_arg (device, &args.a);
  lt_opencl_fit_real_arg (device, &args.b);
  if (args.n == 0)
    return TRUE;

  g_mutex_lock (&device->launch_lock);
  g_assert (args.distribution >= 0 && args.distribution < LT_OPENCL_N_RANDOM_DISTRIBUTIONS);
  if (ensure_kernel (device, args.distribution, error))
    {
      cl_kernel kernel = device->random_kernels[args.distribution];

      clSetKernelArg (kernel, 0, sizeof dst_buffer, &dst_buffer);
      clSetKernelArg (kernel, 1, sizeof probability_buffer, &probability_buffer);
      clSetKernelArg (kernel, 2, sizeof args, &args);
      done = lt_opencl_launch (device, kernel, args.n, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}
