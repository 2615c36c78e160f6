/* lt-opencl-copy.c: strided copies, conversions and fills on an OpenCL device
 *
 * The kernels (lt-opencl-kernels.cl and lt-opencl-cast.cl, kept in a
 * GResource) are built the first time a device needs them, per element
 * size for plain copies and fills, once for conversions between dtypes, and
 * the programs are kept for the life of the device. Before a launch, the dims are simplified
 * as the CPU kernels simplify them (lt-layout.h: size-1 dims dropped,
 * mergeable dims merged), so that the kernel's index arithmetic runs over
 * as few dims as possible.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-opencl-private.h"

/* The same layout as LtOpenCLShape in lt-opencl-shape.cl. */
#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  cl_long sizes[LT_OPENCL_MAX_DIMS];
  cl_long dst_strides[LT_OPENCL_MAX_DIMS];
  cl_long src_strides[LT_OPENCL_MAX_DIMS];
  cl_int ndim;
  cl_int padding;
} LtOpenCLShape;

G_STATIC_ASSERT (LT_OPENCL_MAX_DIMS == LT_LAUNCH_MAX_DIMS);

/* Work items per launch at most; each loops over its share. */
#define MAX_WORK_ITEMS ((gint64) 1 << 20)

static const struct
{
  gsize size;
  const char *type;
} element_types[LT_OPENCL_N_ELEMENT_SIZES] = {
  { 1, "uchar" }, { 2, "ushort" }, { 4, "uint" }, { 8, "ulong" }, { 16, "ulong2" },
};

static int
element_slot (gsize element_size)
{
  for (int i = 0; i < LT_OPENCL_N_ELEMENT_SIZES; i++)
    if (element_types[i].size == element_size)
      return i;
  g_return_val_if_reached (-1);
}

/* The definitions lt-kernel-convert.h expects, in OpenCL C: computing in
 * double where the device has it, else in float (with float constants),
 * real launch arguments then being floats in double's 8 bytes (see
 * lt_opencl_fit_real_arg()). */
static const char convert_prelude_fp64[] =
  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
static const char convert_prelude_fp32[] =
  "#define double float\n"
  "typedef struct __attribute__ ((aligned (8))) { float value; uint unused; } lt_arg_real;\n"
  "#define LT_ARG_REAL(x) ((x).value)\n";
static const char convert_prelude_common[] =
  "#define LT_GLOBAL __global\n"
  "#define LT_FUNCTION static\n"
  "#define LT_AS_FLOAT(u) as_float ((uint) (u))\n"
  "#define LT_AS_UINT(f) as_uint ((float) (f))\n"
  "typedef uchar lt_u8; typedef char lt_i8; typedef ushort lt_u16; typedef short lt_i16;\n"
  "typedef uint lt_u32; typedef int lt_i32; typedef long lt_i64; typedef ulong lt_u64;\n";

char *
lt_opencl_convert_prelude (LtOpenCLDevice *device)
{
  return g_strconcat (device->has_fp64 ? convert_prelude_fp64 : convert_prelude_fp32,
                      convert_prelude_common, NULL);
}

void
lt_opencl_fit_real_arg (LtOpenCLDevice *device,
                        lt_arg_real    *arg)
{
  float narrow = (float) *arg;

  if (device->has_fp64)
    return;
  memset (arg, 0, sizeof *arg);
  memcpy (arg, &narrow, sizeof narrow);
}

/* The program made of @prelude (nullable) then the resources @names, built
 * for the device with @options. */
cl_program
lt_opencl_build_program (LtOpenCLDevice    *device,
               const char        *prelude,
               const char *const *names,
               const char        *options,
               GError           **error)
{
  g_autoptr (GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *texts[8];
  size_t lengths[8];
  const char *last_name = NULL;
  cl_uint n_texts = 0;
  cl_int status = CL_SUCCESS;
  cl_program program;

  if (prelude != NULL)
    {
      texts[n_texts] = prelude;
      lengths[n_texts++] = strlen (prelude);
    }
  g_assert (g_strv_length ((char **) names) < G_N_ELEMENTS (texts));
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat ("/org/gnome/Libtensor/opencl/", names[i], NULL);
      GBytes *source = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      gsize length;

      g_assert (source != NULL);
      g_ptr_array_add (sources, source);
      last_name = names[i];
      texts[n_texts] = g_bytes_get_data (source, &length);
      lengths[n_texts++] = length;
    }

  program = clCreateProgramWithSource (device->context, n_texts, texts, lengths, &status);
  if (program == NULL)
    {
      lt_opencl_set_error (error, status, "clCreateProgramWithSource()");
      return NULL;
    }

  status = clBuildProgram (program, 1, &device->device, options, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      size_t log_size = 0;
      g_autofree char *log = NULL;

      clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
      log = g_malloc0 (log_size + 1);
      clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE, _("building the OpenCL kernels of %s (%s) "
                     "failed (%d): %s"), last_name, options, status,
                   g_strstrip (log));
      clReleaseProgram (program);
      return NULL;
    }
  return program;
}

gboolean
lt_opencl_create_kernels (cl_program         program,
                          const char *const *names,
                          cl_kernel         *kernels,
                          GError           **error)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      cl_int status = CL_SUCCESS;

      kernels[i] = clCreateKernel (program, names[i], &status);
      if (kernels[i] == NULL)
        {
          lt_opencl_set_error (error, status, "clCreateKernel()");
          while (i-- > 0)
            g_clear_pointer (&kernels[i], clReleaseKernel);
          clReleaseProgram (program);
          return FALSE;
        }
    }
  return TRUE;
}

/* Builds the copy kernels for element slot @slot if that has not been
 * done. Called with the device's launch_lock held. */
static gboolean
ensure_kernels (LtOpenCLDevice *device,
                int             slot,
                GError        **error)
{
  g_autofree char *options = NULL;
  cl_kernel kernels[2];
  cl_program program;

  if (device->programs[slot] != NULL)
    return TRUE;

  options = g_strdup_printf ("-DELEMENT=%s", element_types[slot].type);
  program = lt_opencl_build_program (device, NULL,
                                     (const char *[]) { "lt-opencl-shape.cl",
                                                        "lt-opencl-kernels.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program,
                                    (const char *[]) { "copy_strided", "fill_strided", NULL },
                                    kernels, error))
    return FALSE;
  device->copy_kernels[slot] = kernels[0];
  device->fill_kernels[slot] = kernels[1];
  device->programs[slot] = program;
  return TRUE;
}

gboolean
lt_opencl_check_dtypes (LtOpenCLDevice          *device,
                        const LtOperand *const *operands,
                        guint                   n_operands,
                        GError                **error)
{
  if (device->has_fp64)
    return TRUE;
  for (guint i = 0; i < n_operands; i++)
    {
      LtDType dtype;

      if (operands[i] == NULL)
        continue;
      dtype = operands[i]->dtype;
      if (dtype == LT_DTYPE_FLOAT64 || dtype == LT_DTYPE_COMPLEX128)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                       _("opencl:%u has no float64 support: %s tensors can be stored and copied "
                         "there, but not computed with; compute in %s (to_dtype() on the CPU), "
                         "or move the tensors to the CPU with to_cpu()"),
                       device->index, lt_dtype_get_name (dtype),
                       dtype == LT_DTYPE_FLOAT64 ? "float32" : "complex64");
          return FALSE;
        }
    }
  return TRUE;
}

char *
lt_opencl_program_options (LtOpenCLDevice *device)
{
  return g_strdup_printf ("-DLT_BOOL=%d -DLT_UINT8=%d -DLT_INT8=%d -DLT_INT16=%d "
                          "-DLT_INT32=%d -DLT_INT64=%d -DLT_FLOAT16=%d -DLT_BFLOAT16=%d "
                          "-DLT_FLOAT32=%d -DLT_FLOAT64=%d -DLT_COMPLEX64=%d "
                          "-DLT_COMPLEX128=%d%s",
                          LT_DTYPE_BOOL, LT_DTYPE_UINT8, LT_DTYPE_INT8, LT_DTYPE_INT16,
                          LT_DTYPE_INT32, LT_DTYPE_INT64, LT_DTYPE_FLOAT16, LT_DTYPE_BFLOAT16,
                          LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX64,
                          LT_DTYPE_COMPLEX128,
                          device->has_fp64 ? "" : " -cl-single-precision-constant");
}

/* Builds the converting copy if that has not been done; the dtypes' numbers
 * come from LtDType itself. Called with the device's launch_lock held. */
static gboolean
ensure_cast_kernel (LtOpenCLDevice *device,
                    GError        **error)
{
  g_autofree char *prelude = NULL;
  g_autofree char *options = NULL;
  cl_program program;

  if (device->cast_program != NULL)
    return TRUE;

  prelude = lt_opencl_convert_prelude (device);
  options = lt_opencl_program_options (device);
  program = lt_opencl_build_program (device, prelude,
                                     (const char *[]) { "lt-opencl-shape.cl",
                                                        "lt-kernel-convert.h",
                                                        "lt-opencl-cast.cl", NULL },
                                     options, error);
  if (program == NULL
      || !lt_opencl_create_kernels (program, (const char *[]) { "cast_strided", NULL },
                                    &device->cast_kernel, error))
    return FALSE;
  device->cast_program = program;
  return TRUE;
}

void
lt_opencl_release_kernels (LtOpenCLDevice *device)
{
  for (int i = 0; i < LT_OPENCL_N_ELEMENT_SIZES; i++)
    {
      g_clear_pointer (&device->copy_kernels[i], clReleaseKernel);
      g_clear_pointer (&device->fill_kernels[i], clReleaseKernel);
      g_clear_pointer (&device->programs[i], clReleaseProgram);
    }
  g_clear_pointer (&device->cast_kernel, clReleaseKernel);
  g_clear_pointer (&device->cast_program, clReleaseProgram);
  for (int i = 0; i < LT_OPENCL_N_POINTWISE_DTYPES; i++)
    {
      for (int k = 0; k < LT_OPENCL_N_POINTWISE_KERNELS; k++)
        g_clear_pointer (&device->pointwise_kernels[i][k], clReleaseKernel);
      g_clear_pointer (&device->pointwise_programs[i], clReleaseProgram);
    }
  for (int k = 0; k < LT_OPENCL_N_REDUCE_KERNELS; k++)
    {
      g_clear_pointer (&device->reduce_kernels[k], clReleaseKernel);
      g_clear_pointer (&device->reduce_programs[k], clReleaseProgram);
    }
  for (int d = 0; d < LT_OPENCL_N_RANDOM_DISTRIBUTIONS; d++)
    {
      g_clear_pointer (&device->random_kernels[d], clReleaseKernel);
      g_clear_pointer (&device->random_programs[d], clReleaseProgram);
    }
}

/* The launch of a copy from @src (NULL for a fill) into @dst, planned by
 * the library (LtLaunchPlan), as the kernels take it. */
static gboolean
shape_for (guint            ndim,
           const gint64    *sizes,
           const LtOperand *dst,
           const LtOperand *src,
           LtOpenCLShape   *shape,
           gint64          *numel,
           GError         **error)
{
  const LtOperand *operands[] = { dst, src };
  LtLaunchPlan plan;

  if (!lt_opencl_services->plan_elementwise (ndim, sizes, operands, src != NULL ? 2 : 1, &plan,
                                             error))
    return FALSE;
  *numel = plan.numel;
  memset (shape, 0, sizeof *shape);
  shape->ndim = (cl_int) plan.ndim;
  for (guint d = 0; d < plan.ndim; d++)
    {
      shape->sizes[d] = plan.sizes[d];
      shape->dst_strides[d] = plan.strides[0][d];
      shape->src_strides[d] = plan.strides[1][d];
    }
  return TRUE;
}

gboolean
lt_opencl_launch (LtOpenCLDevice *device,
                  cl_kernel       kernel,
                  gint64          numel,
                  GError        **error)
{
  size_t global = (size_t) MIN (numel, MAX_WORK_ITEMS);
  cl_int status = clEnqueueNDRangeKernel (device->queue, kernel, 1, NULL, &global, NULL, 0,
                                          NULL, NULL);

  if (status != CL_SUCCESS)
    {
      lt_opencl_set_error (error, status, "clEnqueueNDRangeKernel()");
      return FALSE;
    }

  /* Waited for: a failure belongs to the operation that caused it, and no
   * kernel is still running (or, with PoCL, still being compiled by LLVM)
   * when the program goes on, or exits. A script that exits right after
   * its last operation otherwise crashed in the driver's threads as the
   * process tore LLVM down under them. */
  status = clFinish (device->queue);
  if (status != CL_SUCCESS)
    {
      lt_opencl_set_error (error, status, _("running an OpenCL kernel"));
      return FALSE;
    }
  return TRUE;
}

gboolean
lt_opencl_copy (const LtBackend *self,
                guint            ndim,
                const gint64    *sizes,
                const LtOperand *dst,
                const LtOperand *src,
                GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  gsize element_size = lt_dtype_get_element_size (dst->dtype);
  cl_mem dst_buffer = dst->buffer, src_buffer = src->buffer;
  cl_long dst_offset = dst->offset, src_offset = src->offset, n;
  LtOpenCLShape shape;
  gint64 numel;
  gboolean done = FALSE;
  cl_kernel kernel;
  int slot;

  if (!shape_for (ndim, sizes, dst, src, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;

  if (dst->dtype != src->dtype)
    {
      cl_int dst_dtype = dst->dtype, src_dtype = src->dtype;
      cl_long dst_size = (cl_long) element_size;
      cl_long src_size = (cl_long) lt_dtype_get_element_size (src->dtype);

      if (!lt_opencl_check_dtypes (device, (const LtOperand *[]) { dst, src }, 2, error))
        return FALSE;
      g_mutex_lock (&device->launch_lock);
      if (ensure_cast_kernel (device, error))
        {
          kernel = device->cast_kernel;
          clSetKernelArg (kernel, 0, sizeof dst_buffer, &dst_buffer);
          clSetKernelArg (kernel, 1, sizeof dst_offset, &dst_offset);
          clSetKernelArg (kernel, 2, sizeof dst_dtype, &dst_dtype);
          clSetKernelArg (kernel, 3, sizeof dst_size, &dst_size);
          clSetKernelArg (kernel, 4, sizeof src_buffer, &src_buffer);
          clSetKernelArg (kernel, 5, sizeof src_offset, &src_offset);
          clSetKernelArg (kernel, 6, sizeof src_dtype, &src_dtype);
          clSetKernelArg (kernel, 7, sizeof src_size, &src_size);
          clSetKernelArg (kernel, 8, sizeof shape, &shape);
          clSetKernelArg (kernel, 9, sizeof n, &n);
          done = lt_opencl_launch (device, kernel, numel, error);
        }
      g_mutex_unlock (&device->launch_lock);
      return done;
    }
  slot = element_slot (element_size);

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernels (device, slot, error))
    {
      kernel = device->copy_kernels[slot];
      clSetKernelArg (kernel, 0, sizeof dst_buffer, &dst_buffer);
      clSetKernelArg (kernel, 1, sizeof dst_offset, &dst_offset);
      clSetKernelArg (kernel, 2, sizeof src_buffer, &src_buffer);
      clSetKernelArg (kernel, 3, sizeof src_offset, &src_offset);
      clSetKernelArg (kernel, 4, sizeof shape, &shape);
      clSetKernelArg (kernel, 5, sizeof n, &n);
      done = lt_opencl_launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

gboolean
lt_opencl_fill (const LtBackend *self,
                guint            ndim,
                const gint64    *sizes,
                const LtOperand *dst,
                LtValue          value,
                GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  gsize element_size = lt_dtype_get_element_size (dst->dtype);
  cl_mem dst_buffer = dst->buffer;
  cl_long dst_offset = dst->offset, n;
  guint64 pattern[2] = { 0, 0 };
  LtOpenCLShape shape;
  gint64 numel;
  gboolean done = FALSE;
  cl_kernel kernel;
  int slot;

  if (!shape_for (ndim, sizes, dst, NULL, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;
  slot = element_slot (element_size);
  /* The value's bytes in the element's dtype, as the kernel stores them. */
  lt_opencl_services->value_write (dst->dtype, pattern, value);

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernels (device, slot, error))
    {
      kernel = device->fill_kernels[slot];
      clSetKernelArg (kernel, 0, sizeof dst_buffer, &dst_buffer);
      clSetKernelArg (kernel, 1, sizeof dst_offset, &dst_offset);
      clSetKernelArg (kernel, 2, element_size, pattern);
      clSetKernelArg (kernel, 3, sizeof shape, &shape);
      clSetKernelArg (kernel, 4, sizeof n, &n);
      done = lt_opencl_launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}
