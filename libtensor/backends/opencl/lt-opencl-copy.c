/* lt-opencl-copy.c: strided copies and fills on an OpenCL device
 *
 * The kernels (lt-opencl-kernels.cl, kept in a GResource) are built the
 * first time a device needs them for an element size, and the program is
 * kept for the life of the device. Before a launch, the dims are simplified
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
#include "lt-layout.h"
#include "lt-opencl-private.h"

/* The same layout as LtOpenCLShape in lt-opencl-kernels.cl. */
#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  cl_long sizes[LT_OPENCL_MAX_DIMS];
  cl_long dst_strides[LT_OPENCL_MAX_DIMS];
  cl_long src_strides[LT_OPENCL_MAX_DIMS];
  cl_int ndim;
  cl_int padding;
} LtOpenCLShape;

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

/* Builds the program for element slot @slot if that has not been done.
 * Called with the device's launch_lock held. */
static gboolean
ensure_kernels (LtOpenCLDevice *device,
                int             slot,
                GError        **error)
{
  g_autoptr (GBytes) source = NULL;
  g_autofree char *options = NULL;
  const char *text;
  size_t length;
  cl_int status = CL_SUCCESS;
  cl_program program;

  if (device->programs[slot] != NULL)
    return TRUE;

  source = g_resources_lookup_data ("/org/gnome/Libtensor/opencl/lt-opencl-kernels.cl",
                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_assert (source != NULL);
  text = g_bytes_get_data (source, &length);

  program = clCreateProgramWithSource (device->context, 1, &text, &length, &status);
  if (program == NULL)
    {
      lt_opencl_set_error (error, status, "clCreateProgramWithSource()");
      return FALSE;
    }

  options = g_strdup_printf ("-DELEMENT=%s", element_types[slot].type);
  status = clBuildProgram (program, 1, &device->device, options, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      size_t log_size = 0;
      g_autofree char *log = NULL;

      clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
      log = g_malloc0 (log_size + 1);
      clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   "building the OpenCL copy kernels for %s elements failed (%d): %s",
                   element_types[slot].type, status, g_strstrip (log));
      clReleaseProgram (program);
      return FALSE;
    }

  device->copy_kernels[slot] = clCreateKernel (program, "copy_strided", &status);
  if (device->copy_kernels[slot] != NULL)
    device->fill_kernels[slot] = clCreateKernel (program, "fill_strided", &status);
  if (device->fill_kernels[slot] == NULL)
    {
      lt_opencl_set_error (error, status, "clCreateKernel()");
      g_clear_pointer (&device->copy_kernels[slot], clReleaseKernel);
      clReleaseProgram (program);
      return FALSE;
    }
  device->programs[slot] = program;
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
}

/* The simplified dims of one or two operands (element strides), and their
 * element count; FALSE with @error set when more than LT_OPENCL_MAX_DIMS
 * dims are left that cannot be merged. */
static gboolean
shape_for (guint            ndim,
           const gint64    *sizes,
           const LtOperand *dst,
           const LtOperand *src,
           LtOpenCLShape   *shape,
           gint64          *numel,
           GError         **error)
{
  gint64 dst_strides[LT_MAX_DIMS], src_strides[LT_MAX_DIMS];
  const gint64 *operands[2] = { dst_strides, src_strides };
  LtLoopShape loop;

  /* A dim of size 0 or 1 never moves: its stride may be anything. */
  for (guint d = 0; d < ndim; d++)
    {
      dst_strides[d] = sizes[d] <= 1 ? 0 : dst->strides[d];
      src_strides[d] = sizes[d] <= 1 || src == NULL ? 0 : src->strides[d];
    }
  lt_opencl_services->loop_shape_init (&loop, ndim, sizes, src != NULL ? 2 : 1, operands);
  *numel = lt_opencl_services->loop_shape_numel (&loop);
  if (*numel == 0)
    return TRUE;
  lt_opencl_services->loop_shape_simplify (&loop);

  if (loop.ndim > LT_OPENCL_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   "OpenCL copies handle %d dims that cannot be merged, and this one has %u; "
                   "copy it in parts",
                   LT_OPENCL_MAX_DIMS, loop.ndim);
      return FALSE;
    }

  memset (shape, 0, sizeof *shape);
  shape->ndim = (cl_int) loop.ndim;
  for (guint d = 0; d < loop.ndim; d++)
    {
      shape->sizes[d] = loop.sizes[d];
      shape->dst_strides[d] = loop.strides[0][d];
      shape->src_strides[d] = src != NULL ? loop.strides[1][d] : 0;
    }
  return TRUE;
}

static gboolean
launch (LtOpenCLDevice *device,
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

  if (dst->dtype != src->dtype)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   "copies from %s to %s are not supported on OpenCL devices yet; convert on "
                   "the CPU",
                   lt_dtype_get_name (src->dtype), lt_dtype_get_name (dst->dtype));
      return FALSE;
    }
  if (!shape_for (ndim, sizes, dst, src, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;
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
      done = launch (device, kernel, numel, error);
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
      done = launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}
