/* lt-opencl-backend.c: the OpenCL backend module, devices and memory
 *
 * Built as libtensor-1-opencl.so and loaded at run time (lt-backend.c), so
 * that libtensor itself never links the OpenCL loader. Devices are every
 * device of every platform the ICD loader knows, numbered in platform
 * order: PoCL's CPU device on a machine without a GPU, NVIDIA's GPUs
 * through their driver on a CUDA machine.
 *
 * Each device gets a context and an in-order command queue the first time
 * it is used; they live as long as the process. Memory is a cl_mem buffer
 * per storage. Transfers are blocking, and every kernel launch waits for
 * its kernel (lt_opencl_launch ()): a host read never sees data a kernel
 * has yet to write, and a failure is reported by the operation that caused
 * it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <gmodule.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-opencl-private.h"
#include "backends/lt-backend-module.h"

typedef LtOpenCLDevice OpenCLDevice;

const LtBackendServices *lt_opencl_services;

/* Everything found once, on the first question: process-wide, as the ICD
 * loader's own state is. */
static GMutex devices_lock;
static gboolean enumerated;
static GPtrArray *devices;  /* of OpenCLDevice, opened or not */
static char *no_devices_why;

/* OpenCL's error codes, named as the specification names them. */
static const char *
status_name (cl_int status)
{
  switch (status)
    {
    case CL_DEVICE_NOT_FOUND:
      return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE:
      return "CL_DEVICE_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY";
    case CL_INVALID_VALUE:
      return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE:
      return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT:
      return "CL_INVALID_CONTEXT";
    case CL_INVALID_MEM_OBJECT:
      return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BUFFER_SIZE:
      return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_COMMAND_QUEUE:
      return "CL_INVALID_COMMAND_QUEUE";
    case -1001: /* CL_PLATFORM_NOT_FOUND_KHR, from the ICD loader */
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return _("an OpenCL error");
    }
}

void
lt_opencl_set_error (GError    **error,
                     cl_int      status,
                     const char *what)
{
  g_set_error (error, LT_ERROR,
               status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_RESOURCES
                   || status == CL_OUT_OF_HOST_MEMORY
                 ? LT_ERROR_OUT_OF_MEMORY
                 : LT_ERROR_DEVICE,
               _("%s failed: %s (%d)"), what, status_name (status), status);
}

static char *
platform_string (cl_platform_id   platform,
                 cl_platform_info param)
{
  size_t size = 0;
  char *text;

  if (clGetPlatformInfo (platform, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("?");
  text = g_malloc0 (size + 1);
  if (clGetPlatformInfo (platform, param, size, text, NULL) != CL_SUCCESS)
    text[0] = '\0';
  return g_strstrip (text);
}

static char *
device_string (cl_device_id   device,
               cl_device_info param)
{
  size_t size = 0;
  char *text;

  if (clGetDeviceInfo (device, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("?");
  text = g_malloc0 (size + 1);
  if (clGetDeviceInfo (device, param, size, text, NULL) != CL_SUCCESS)
    text[0] = '\0';
  return g_strstrip (text);
}

static void opencl_device_free (gpointer data);
static const LtBackend opencl_backend_template;

/* Fills @devices with every device of every platform, or sets
 * @no_devices_why. Called with devices_lock held. */
static void
enumerate_devices (void)
{
  g_autofree cl_platform_id *platforms = NULL;
  cl_uint n_platforms = 0;
  cl_int status;

  devices = g_ptr_array_new_with_free_func (opencl_device_free);

  status = clGetPlatformIDs (0, NULL, &n_platforms);
  if (status == -1001 || (status == CL_SUCCESS && n_platforms == 0))
    {
      no_devices_why = g_strdup (_("no OpenCL platform found (install an ICD such as "
                                   "pocl-opencl-icd, or a GPU driver)"));
      return;
    }
  if (status != CL_SUCCESS)
    {
      no_devices_why = g_strdup_printf (_("the OpenCL platforms could not be listed: %s (%d)"),
                                        status_name (status), status);
      return;
    }

  platforms = g_new0 (cl_platform_id, n_platforms);
  if (clGetPlatformIDs (n_platforms, platforms, NULL) != CL_SUCCESS)
    n_platforms = 0;

  for (cl_uint p = 0; p < n_platforms; p++)
    {
      g_autofree cl_device_id *ids = NULL;
      cl_uint n_ids = 0;

      if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_ids) != CL_SUCCESS
          || n_ids == 0)
        continue;
      ids = g_new0 (cl_device_id, n_ids);
      if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, n_ids, ids, NULL) != CL_SUCCESS)
        continue;
      for (cl_uint d = 0; d < n_ids; d++)
        {
          OpenCLDevice *device = g_new0 (OpenCLDevice, 1);

          device->backend = opencl_backend_template;
          device->backend.device_index = devices->len;
          device->index = devices->len;
          g_mutex_init (&device->launch_lock);
          device->platform = platforms[p];
          device->device = ids[d];
          g_ptr_array_add (devices, device);
        }
    }

  if (devices->len == 0)
    no_devices_why = g_strdup_printf (g_dngettext (lt_gettext_domain (),
                                                   "the %u OpenCL platform found have no devices",
                                                   "the %u OpenCL platforms found have no devices",
                                                   n_platforms),
                                      n_platforms);
}

static void
ensure_enumerated (void)
{
  g_mutex_lock (&devices_lock);
  if (!enumerated)
    {
      enumerate_devices ();
      enumerated = TRUE;
    }
  g_mutex_unlock (&devices_lock);
}

static void
opencl_device_free (gpointer data)
{
  OpenCLDevice *device = data;

  lt_opencl_release_kernels (device);
  g_mutex_clear (&device->launch_lock);
  if (device->queue != NULL)
    clReleaseCommandQueue (device->queue);
  if (device->context != NULL)
    clReleaseContext (device->context);
  g_free (device);
}

static guint
opencl_count_devices (GError **error)
{
  ensure_enumerated ();
  if (devices->len == 0)
    g_set_error_literal (error, LT_ERROR, LT_ERROR_DEVICE, no_devices_why);
  return devices->len;
}

static char *
opencl_get_device_name (guint index)
{
  OpenCLDevice *device;
  g_autofree char *platform = NULL;
  g_autofree char *name = NULL;

  ensure_enumerated ();
  g_return_val_if_fail (index < devices->len, NULL);

  device = g_ptr_array_index (devices, index);
  platform = platform_string (device->platform, CL_PLATFORM_NAME);
  name = device_string (device->device, CL_DEVICE_NAME);
  return g_strdup_printf ("%s: %s", platform, name);
}

/* Creates @device's context and queue if that has not been done. Called
 * with devices_lock held. */
static gboolean
open_device (OpenCLDevice *device,
             GError      **error)
{
  cl_context_properties properties[] = {
    CL_CONTEXT_PLATFORM, (cl_context_properties) device->platform, 0,
  };
  cl_device_fp_config fp64 = 0;
  cl_int status = CL_SUCCESS;

  if (device->queue != NULL)
    return TRUE;

  clGetDeviceInfo (device->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  device->has_fp64 = fp64 != 0 && g_getenv ("LT_OPENCL_NO_FP64") == NULL;
  lt_opencl_blas_init (device);

  device->context = clCreateContext (properties, 1, &device->device, NULL, NULL, &status);
  if (device->context == NULL)
    {
      lt_opencl_set_error (error, status, "clCreateContext()");
      return FALSE;
    }
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* OpenCL 1.2's call, which every ICD still has. */
  device->queue = clCreateCommandQueue (device->context, device->device, 0, &status);
  G_GNUC_END_IGNORE_DEPRECATIONS
  if (device->queue == NULL)
    {
      lt_opencl_set_error (error, status, "clCreateCommandQueue()");
      clReleaseContext (device->context);
      device->context = NULL;
      return FALSE;
    }
  return TRUE;
}

static const LtBackend *
opencl_get_backend (guint    index,
                    GError **error)
{
  OpenCLDevice *device;
  gboolean opened;

  ensure_enumerated ();
  g_return_val_if_fail (index < devices->len, NULL);

  device = g_ptr_array_index (devices, index);
  g_mutex_lock (&devices_lock);
  opened = open_device (device, error);
  g_mutex_unlock (&devices_lock);
  return opened ? &device->backend : NULL;
}

/* Memory ------------------------------------------------------------------ */

static OpenCLDevice *
device_of (const LtBackend *backend)
{
  return (OpenCLDevice *) backend;
}

static gpointer
opencl_alloc (const LtBackend *backend,
              gsize            nbytes,
              gboolean         zeroed,
              GError         **error)
{
  OpenCLDevice *device = device_of (backend);
  cl_int status = CL_SUCCESS;
  cl_mem buffer;

  /* OpenCL refuses empty buffers; a storage without elements still gets
   * one, of one byte. */
  buffer = clCreateBuffer (device->context, CL_MEM_READ_WRITE, MAX (nbytes, 1), NULL, &status);
  if (buffer == NULL)
    return NULL;

  if (zeroed && nbytes > 0)
    {
      const guint8 zero = 0;

      status = clEnqueueFillBuffer (device->queue, buffer, &zero, 1, 0, nbytes, 0, NULL, NULL);
      if (status == CL_SUCCESS)
        status = clFinish (device->queue);
      if (status != CL_SUCCESS)
        {
          clReleaseMemObject (buffer);
          return NULL;
        }
    }
  return buffer;
}

static void
opencl_free (const LtBackend *backend,
             gpointer         data,
             gsize            nbytes)
{
  if (data != NULL)
    clReleaseMemObject (data);
}

static gboolean
opencl_upload (const LtBackend *backend,
               gpointer         dst,
               gsize            dst_offset,
               gconstpointer    src,
               gsize            nbytes,
               GError         **error)
{
  cl_int status;

  if (nbytes == 0)
    return TRUE;
  status = clEnqueueWriteBuffer (device_of (backend)->queue, dst, CL_TRUE, dst_offset, nbytes,
                                 src, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      lt_opencl_set_error (error, status, "clEnqueueWriteBuffer()");
      return FALSE;
    }
  return TRUE;
}

static gboolean
opencl_download (const LtBackend *backend,
                 gpointer         dst,
                 gconstpointer    src,
                 gsize            src_offset,
                 gsize            nbytes,
                 GError         **error)
{
  cl_int status;

  if (nbytes == 0)
    return TRUE;
  status = clEnqueueReadBuffer (device_of (backend)->queue, (cl_mem) src, CL_TRUE, src_offset,
                                nbytes, dst, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      lt_opencl_set_error (error, status, "clEnqueueReadBuffer()");
      return FALSE;
    }
  return TRUE;
}

static gboolean
opencl_synchronize (const LtBackend *backend,
                    GError         **error)
{
  cl_int status = clFinish (device_of (backend)->queue);

  if (status != CL_SUCCESS)
    {
      lt_opencl_set_error (error, status, "clFinish()");
      return FALSE;
    }
  return TRUE;
}

static const LtBackend opencl_backend_template = {
  .name = "opencl",
  .device_type = LT_DEVICE_TYPE_OPENCL,
  .alloc = opencl_alloc,
  .free = opencl_free,
  .upload = opencl_upload,
  .download = opencl_download,
  .copy = lt_opencl_copy,
  .fill = lt_opencl_fill,
  .pointwise = &lt_opencl_pointwise_kernels,
  .reduce = &lt_opencl_reduce_kernels,
  .linalg = &lt_opencl_linalg_kernels,
  .random_fill = lt_opencl_random_fill,
  .synchronize = opencl_synchronize,
};

static const LtBackendModule opencl_module = {
  .abi_version = LT_BACKEND_MODULE_ABI,
  .device_type = LT_DEVICE_TYPE_OPENCL,
  .count_devices = opencl_count_devices,
  .get_device_name = opencl_get_device_name,
  .get_backend = opencl_get_backend,
};

G_MODULE_EXPORT const LtBackendModule *lt_backend_module_query (const LtBackendServices *services);

G_MODULE_EXPORT const LtBackendModule *
lt_backend_module_query (const LtBackendServices *services)
{
  lt_opencl_services = services;
  return &opencl_module;
}
