/* lt-opencl-private.h: what the OpenCL backend's files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <glib.h>

#include "backends/lt-backend.h"
#include "backends/lt-backend-module.h"

G_BEGIN_DECLS

/* Element sizes the copy kernels are built for: 1, 2, 4, 8 and 16 bytes. */
#define LT_OPENCL_N_ELEMENT_SIZES 5
/* Computation dtypes the pointwise kernels are built for (every LtDType),
 * and the kernels of each (lt-opencl-pointwise.c). */
#define LT_OPENCL_N_POINTWISE_DTYPES 12
#define LT_OPENCL_N_POINTWISE_KERNELS 5
/* The reductions' kernels, a program each (lt-opencl-reduce.c). */
#define LT_OPENCL_N_REDUCE_KERNELS 4
/* Random fills build a program per distribution (lt-opencl-random.c). */
#define LT_OPENCL_N_RANDOM_DISTRIBUTIONS 4

/* When products go to CLBlast (lt-opencl-blas.c): from the first one it
 * can take, never, or once the element kernel has done as much work as
 * CLBlast's build would cost (CPU devices). */
typedef enum
{
  LT_OPENCL_BLAS_AT_ONCE,
  LT_OPENCL_BLAS_NEVER,
  LT_OPENCL_BLAS_WHEN_WORTH_IT,
} LtOpenCLBlasPolicy;

/* The precisions CLBlast builds its kernels for: float32, float64,
 * complex64, complex128. */
#define LT_OPENCL_N_BLAS_PRECISIONS 4

typedef struct
{
  LtBackend backend;     /* first: the registry hands this out */
  guint index;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  /* Whether kernels compute in double; else in float, with float64 and
   * complex128 refused (CL_DEVICE_DOUBLE_FP_CONFIG, or LT_OPENCL_NO_FP64
   * set in the environment to try that path on any device). */
  gboolean has_fp64;

  /* The copy and fill kernels, built on first use per element size. A
   * kernel's arguments are state, so launches hold @launch_lock from
   * setting them to enqueueing. */
  GMutex launch_lock;
  cl_program programs[LT_OPENCL_N_ELEMENT_SIZES];
  cl_kernel copy_kernels[LT_OPENCL_N_ELEMENT_SIZES];
  cl_kernel fill_kernels[LT_OPENCL_N_ELEMENT_SIZES];
  cl_program cast_program;
  cl_kernel cast_kernel;
  cl_program pointwise_programs[LT_OPENCL_N_POINTWISE_DTYPES];
  cl_kernel pointwise_kernels[LT_OPENCL_N_POINTWISE_DTYPES][LT_OPENCL_N_POINTWISE_KERNELS];
  /* reduce, lines, allclose, matmul: a program each */
  cl_program reduce_programs[LT_OPENCL_N_REDUCE_KERNELS];
  cl_kernel reduce_kernels[LT_OPENCL_N_REDUCE_KERNELS];
  cl_program random_programs[LT_OPENCL_N_RANDOM_DISTRIBUTIONS];
  cl_kernel random_kernels[LT_OPENCL_N_RANDOM_DISTRIBUTIONS];

  /* CLBlast, per precision: whether it takes products now, and the
   * multiply-adds the element kernel did in its place so far (under
   * @launch_lock). */
  LtOpenCLBlasPolicy blas_policy;
  gboolean blas_in_use[LT_OPENCL_N_BLAS_PRECISIONS];
  double blas_deferred_work[LT_OPENCL_N_BLAS_PRECISIONS];
} LtOpenCLDevice;

/* The library's helpers, set when the module is queried. */
extern const LtBackendServices *lt_opencl_services;

void     lt_opencl_set_error     (GError        **error,
                                  cl_int          status,
                                  const char     *what);

gboolean lt_opencl_copy          (const LtBackend *self,
                                  guint            ndim,
                                  const gint64    *sizes,
                                  const LtOperand *dst,
                                  const LtOperand *src,
                                  GError         **error);
gboolean lt_opencl_fill          (const LtBackend *self,
                                  guint            ndim,
                                  const gint64    *sizes,
                                  const LtOperand *dst,
                                  LtValue          value,
                                  GError         **error);
void     lt_opencl_release_kernels (LtOpenCLDevice *device);

/* What lt-kernel-convert.h needs defined, in OpenCL C, for @device, and
 * the build options that give it LtDType's numbers (free both strings). */
char      *lt_opencl_convert_prelude (LtOpenCLDevice *device);
char      *lt_opencl_program_options (LtOpenCLDevice *device);
/* TRUE when @device can compute with the dtypes of @operands (NULL ones
 * skipped): devices without float64 compute everything in float, and
 * refuse float64 and complex128 (FALSE with @error set). */
gboolean   lt_opencl_check_dtypes    (LtOpenCLDevice          *device,
                                      const LtOperand *const *operands,
                                      guint                   n_operands,
                                      GError                **error);
/* Stores @arg as a float in its own 8 bytes where @device lacks float64,
 * as the kernels then read it (LT_ARG_REAL); else leaves it alone. */
void       lt_opencl_fit_real_arg    (LtOpenCLDevice *device,
                                      lt_arg_real    *arg);

/* The program made of @prelude (nullable) then the GResource files @names,
 * built for @device with @options. */
cl_program lt_opencl_build_program (LtOpenCLDevice    *device,
                                    const char        *prelude,
                                    const char *const *names,
                                    const char        *options,
                                    GError           **error);
/* The kernels @names (NULL-terminated) of @program into @kernels; on
 * failure none is kept and @program is released. */
gboolean lt_opencl_create_kernels (cl_program         program,
                                   const char *const *names,
                                   cl_kernel         *kernels,
                                   GError           **error);
/* Runs @kernel over @numel work items at most (grid-stride kernels) and
 * waits for it. */
gboolean lt_opencl_launch (LtOpenCLDevice *device,
                           cl_kernel       kernel,
                           gint64          numel,
                           GError        **error);

extern const LtPointwiseKernels lt_opencl_pointwise_kernels;
extern const LtReduceKernels lt_opencl_reduce_kernels;
extern const LtLinalgKernels lt_opencl_linalg_kernels;

/* lt-opencl-blas.c: when @device's products go to CLBlast, from its type
 * and $LT_OPENCL_CLBLAST; called once the device is open. */
void     lt_opencl_blas_init   (LtOpenCLDevice     *device);
/* The product @args describes through CLBlast, when
 * libtensor was built with it and it can take the layouts (*@done); FALSE
 * with @error set when CLBlast fails. */
gboolean lt_opencl_blas_matmul (LtOpenCLDevice     *device,
                                const LtMatmulArgs *args,
                                cl_mem              out,
                                cl_mem              a,
                                cl_mem              b,
                                gboolean           *done,
                                GError            **error);

gboolean lt_opencl_random_fill (const LtBackend      *self,
                                guint                 ndim,
                                const gint64         *sizes,
                                const LtOperand      *dst,
                                const LtOperand      *probabilities,
                                const LtRandomParams *params,
                                guint64               seed,
                                guint64               counter,
                                GError              **error);

G_END_DECLS
