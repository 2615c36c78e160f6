/* lt-opencl-pointwise.c: element-wise operations on an OpenCL device
 *
 * Every unary and binary op, where, lerp and clamp, on every dtype the
 * tensor layer allows them for, computed by the rules in
 * lt-kernel-pointwise.h that the CUDA kernels share. One program per
 * computation dtype holds all the kernels of that dtype
 * (lt-opencl-pointwise.cl); it is built the first time an op needs it and
 * kept for the life of the device. The prelude built here tells the shared
 * files what the dtype's elements are and how they load and store.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-opencl-private.h"

/* The same layout as LtOpenCLShape4 in lt-opencl-pointwise.cl. */
#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  cl_long sizes[LT_OPENCL_MAX_DIMS];
  cl_long strides[4][LT_OPENCL_MAX_DIMS];
  cl_int ndim;
  cl_int padding;
} LtOpenCLShape4;

enum
{
  KERNEL_UNARY,
  KERNEL_BINARY,
  KERNEL_WHERE,
  KERNEL_TERNARY,
  KERNEL_ANY_ZERO,
};

/* As in lt-opencl-pointwise.cl. */
enum
{
  TERNARY_LERP,
  TERNARY_CLAMP,
};

static const char *const kernel_names[] = {
  "unary_strided", "binary_strided", "where_strided", "ternary_strided", "any_zero_strided", NULL,
};

G_STATIC_ASSERT (G_N_ELEMENTS (kernel_names) == LT_OPENCL_N_POINTWISE_KERNELS + 1);

/* What each dtype's elements are in OpenCL C: indexed by LtDType. */
static const struct
{
  const char *kind;
  gboolean is_bool;
  const char *storage;
  const char *compute;
  const char *real;
  const char *load;
  const char *store;
} dtype_types[LT_OPENCL_N_POINTWISE_DTYPES] = {
  [LT_DTYPE_BOOL] = { "INT", TRUE, "uchar", "int", "int", "(int) (v)", "(uchar) ((v) != 0)" },
  [LT_DTYPE_UINT8] = { "INT", FALSE, "uchar", "uchar", "uchar", "(v)", "(uchar) (v)" },
  [LT_DTYPE_INT8] = { "INT", FALSE, "char", "char", "char", "(v)", "(char) (v)" },
  [LT_DTYPE_INT16] = { "INT", FALSE, "short", "short", "short", "(v)", "(short) (v)" },
  [LT_DTYPE_INT32] = { "INT", FALSE, "int", "int", "int", "(v)", "(int) (v)" },
  [LT_DTYPE_INT64] = { "INT", FALSE, "long", "long", "long", "(v)", "(long) (v)" },
  [LT_DTYPE_FLOAT16] = { "FLOAT", FALSE, "ushort", "float", "float", "lt_half_to_float (v)",
                         "lt_float16_from_float (v)" },
  [LT_DTYPE_BFLOAT16] = { "FLOAT", FALSE, "ushort", "float", "float",
                          "as_float ((uint) (v) << 16)", "lt_bfloat16_from_float (v)" },
  [LT_DTYPE_FLOAT32] = { "FLOAT", FALSE, "float", "float", "float", "(v)", "(v)" },
  [LT_DTYPE_FLOAT64] = { "FLOAT", FALSE, "double", "double", "double", "(v)", "(v)" },
  [LT_DTYPE_COMPLEX64] = { "COMPLEX", FALSE, "float2", "float2", "float", "(v)", "(v)" },
  [LT_DTYPE_COMPLEX128] = { "COMPLEX", FALSE, "double2", "double2", "double", "(v)", "(v)" },
};

G_STATIC_ASSERT (LT_DTYPE_COMPLEX128 + 1 == LT_OPENCL_N_POINTWISE_DTYPES);
G_STATIC_ASSERT (LT_OPENCL_MAX_DIMS == LT_LAUNCH_MAX_DIMS);

/* Builds the pointwise program for @dtype if that has not been done.
 * Called with the device's launch_lock held. */
static gboolean
ensure_kernels (LtOpenCLDevice *device,
                LtDType         dtype,
                GError        **error)
{
  g_autofree char *convert = NULL;
  g_autofree char *prelude = NULL;
  g_autofree char *defines = NULL;
  g_autofree char *options = NULL;
  cl_device_fp_config fp32 = 0;
  cl_program program;

  if (device->pointwise_programs[dtype] != NULL)
    return TRUE;

  convert = lt_opencl_convert_prelude (device);
  /* Contraction off before any of the shared code: a * b + c in one
   * rounding would not be the CPU's. */
  prelude = g_strdup_printf ("#pragma OPENCL FP_CONTRACT OFF\n%s"
                             "#define LT_PW_KIND LT_PW_KIND_%s\n"
                             "#define LT_PW_IS_BOOL %d\n"
                             "#define LT_PW_T %s\n"
                             "#define LT_PW_C %s\n"
                             "#define LT_PW_R %s\n"
                             "#define LT_PW_LOAD(v) %s\n"
                             "#define LT_PW_STORE(v) %s\n"
                             "#define LT_PW_MAKE(r, i) ((LT_PW_C) ((r), (i)))\n"
                             "#define LT_PW_FN(name) name\n",
                             convert, dtype_types[dtype].kind,
                             dtype_types[dtype].is_bool, dtype_types[dtype].storage,
                             dtype_types[dtype].compute, dtype_types[dtype].real,
                             dtype_types[dtype].load, dtype_types[dtype].store);
  defines = lt_opencl_program_options (device);
  /* Division and square roots rounded as the CPU rounds them, where the
   * device can (OpenCL otherwise allows float32 ones a few ulps off). */
  clGetDeviceInfo (device->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, NULL);
  options = g_strdup_printf ("%s%s", defines,
                             (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0
                               ? " -cl-fp32-correctly-rounded-divide-sqrt"
                               : "");
  program = lt_opencl_build_program (device, prelude,
                                     (const char *[]) { "lt-kernel-convert.h", "lt-kernel-ops.h",
                                                        "lt-kernel-pointwise.h",
                                                        "lt-opencl-pointwise.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program, kernel_names, device->pointwise_kernels[dtype],
                                    error))
    return FALSE;
  device->pointwise_programs[dtype] = program;
  return TRUE;
}

/* The launch over @n_operands operands (the output first), planned by the
 * library (LtLaunchPlan), as the kernels take it. */
static gboolean
shape_for (guint             ndim,
           const gint64     *sizes,
           const LtOperand **operands,
           guint             n_operands,
           LtOpenCLShape4   *shape,
           gint64           *numel,
           GError          **error)
{
  LtLaunchPlan plan;

  if (!lt_opencl_services->plan_elementwise (ndim, sizes, operands, n_operands, &plan, error))
    return FALSE;
  *numel = plan.numel;
  memset (shape, 0, sizeof *shape);
  shape->ndim = (cl_int) plan.ndim;
  for (guint d = 0; d < plan.ndim; d++)
    {
      shape->sizes[d] = plan.sizes[d];
      for (guint op = 0; op < n_operands; op++)
        shape->strides[op][d] = plan.strides[op][d];
    }
  return TRUE;
}

/* The arguments of one launch, in order; kernels take buffers and offsets
 * first, then scalars, then the shape and the element count. */
typedef struct
{
  guint n;
  struct
  {
    gsize size;
    const void *value;
  } args[16];
} Arguments;

static void
push (Arguments  *arguments,
      gsize       size,
      const void *value)
{
  g_assert (arguments->n < G_N_ELEMENTS (arguments->args));
  arguments->args[arguments->n].size = size;
  arguments->args[arguments->n].value = value;
  arguments->n++;
}

/* Runs kernel @which of @dtype's program over @operands with @scalars in
 * between, as described above. */
static gboolean
run (const LtBackend  *self,
     LtDType           dtype,
     int               which,
     guint             ndim,
     const gint64     *sizes,
     const LtOperand **operands,
     guint             n_operands,
     const Arguments  *scalars,
     GError          **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  cl_mem buffers[4];
  cl_long offsets[4], n;
  LtOpenCLShape4 shape;
  Arguments arguments = { 0 };
  gint64 numel;
  gboolean done = FALSE;

  if (!lt_opencl_check_dtypes (device, operands, n_operands, error)
      || !shape_for (ndim, sizes, operands, n_operands, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;
  for (guint i = 0; i < n_operands; i++)
    {
      buffers[i] = operands[i]->buffer;
      offsets[i] = operands[i]->offset;
      push (&arguments, sizeof (cl_mem), &buffers[i]);
    }
  for (guint i = 0; i < n_operands; i++)
    push (&arguments, sizeof (cl_long), &offsets[i]);
  for (guint i = 0; scalars != NULL && i < scalars->n; i++)
    push (&arguments, scalars->args[i].size, scalars->args[i].value);
  push (&arguments, sizeof shape, &shape);
  push (&arguments, sizeof n, &n);

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernels (device, dtype, error))
    {
      cl_kernel kernel = device->pointwise_kernels[dtype][which];

      for (guint i = 0; i < arguments.n; i++)
        clSetKernelArg (kernel, i, arguments.args[i].size, arguments.args[i].value);
      done = lt_opencl_launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

static gboolean
opencl_unary (const LtBackend *self,
              LtUnaryOp        op,
              guint            ndim,
              const gint64    *sizes,
              const LtOperand *out,
              const LtOperand *in,
              GError         **error)
{
  const LtOperand *operands[] = { out, in };
  cl_int kernel_op = op;
  Arguments scalars = { 0 };

  push (&scalars, sizeof kernel_op, &kernel_op);
  return run (self, in->dtype, KERNEL_UNARY, ndim, sizes, operands, 2, &scalars, error);
}

static gboolean
opencl_binary (const LtBackend *self,
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
  cl_int kernel_op = op, use_alpha;
  cl_long alpha_i;
  guint64 alpha_c[2];
  gsize alpha_size;
  Arguments scalars = { 0 };

  alpha_size = lt_pointwise_alpha_for_kernels (a->dtype, alpha, &alpha_i, &use_alpha, alpha_c);
  push (&scalars, sizeof kernel_op, &kernel_op);
  push (&scalars, sizeof alpha_i, &alpha_i);
  push (&scalars, alpha_size, alpha_c);
  push (&scalars, sizeof use_alpha, &use_alpha);
  return run (self, a->dtype, KERNEL_BINARY, ndim, sizes, operands, 3, &scalars, error);
}

static gboolean
opencl_where (const LtBackend *self,
              guint            ndim,
              const gint64    *sizes,
              const LtOperand *out,
              const LtOperand *cond,
              const LtOperand *a,
              const LtOperand *b,
              GError         **error)
{
  const LtOperand *operands[] = { out, cond, a, b };

  return run (self, out->dtype, KERNEL_WHERE, ndim, sizes, operands, 4, NULL, error);
}

static gboolean
run_ternary (const LtBackend *self,
             cl_int           which,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *out,
             const LtOperand *x,
             const LtOperand *y,
             const LtOperand *z,
             GError         **error)
{
  const LtOperand *operands[] = { out, x, y, z };
  Arguments scalars = { 0 };

  push (&scalars, sizeof which, &which);
  return run (self, out->dtype, KERNEL_TERNARY, ndim, sizes, operands, 4, &scalars, error);
}

static gboolean
opencl_lerp (const LtBackend *self,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *out,
             const LtOperand *a,
             const LtOperand *b,
             const LtOperand *weight,
             GError         **error)
{
  return run_ternary (self, TERNARY_LERP, ndim, sizes, out, a, b, weight, error);
}

static gboolean
opencl_clamp (const LtBackend *self,
              guint            ndim,
              const gint64    *sizes,
              const LtOperand *out,
              const LtOperand *x,
              const LtOperand *lo,
              const LtOperand *hi,
              GError         **error)
{
  return run_ternary (self, TERNARY_CLAMP, ndim, sizes, out, x, lo, hi, error);
}

static gboolean
opencl_any_zero (const LtBackend *self,
                 guint            ndim,
                 const gint64    *sizes,
                 const LtOperand *operand,
                 gboolean        *found,
                 GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  const LtOperand *operands[] = { operand };
  cl_int flag = 0, status;
  cl_mem flag_buffer;
  Arguments scalars = { 0 };
  gboolean done;

  flag_buffer = clCreateBuffer (device->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof flag, &flag, &status);
  if (flag_buffer == NULL)
    {
      lt_opencl_set_error (error, status, _("allocating a flag on the device"));
      return FALSE;
    }
  /* The kernel takes the operand, its offset, then the flag. */
  push (&scalars, sizeof flag_buffer, &flag_buffer);
  done = run (self, operand->dtype, KERNEL_ANY_ZERO, ndim, sizes, operands, 1, &scalars, error);
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
  *found = done && flag != 0;
  return done;
}

const LtPointwiseKernels lt_opencl_pointwise_kernels = {
  .unary = opencl_unary,
  .binary = opencl_binary,
  .where = opencl_where,
  .lerp = opencl_lerp,
  .clamp = opencl_clamp,
  .any_zero = opencl_any_zero,
};
