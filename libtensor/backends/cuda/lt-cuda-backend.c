/* lt-cuda-backend.c: the CUDA backend module, devices and memory
 *
 * Built as libtensor-1-cuda.so, linked with the static CUDA runtime so that
 * it needs nothing of the toolkit where it runs, only NVIDIA's driver
 * (libcuda.so, which the runtime opens itself). Where the driver or a GPU
 * is missing, the module still loads and says so.
 *
 * Every call into the runtime is checked and its failure turned into a
 * GError naming the call and CUDA's own message. Transfers are synchronous
 * (cudaMemcpy on pageable host memory), so a host read never sees data a
 * kernel has yet to write.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <cuda_runtime_api.h>
#include <gmodule.h>

#include "lt-error.h"
#include "backends/lt-backend-module.h"

typedef struct
{
  LtBackend backend;  /* first: the registry hands this out */
  int index;
} CudaDevice;

/* Found once, on the first question: process-wide, as the CUDA runtime's
 * own state is. */
static GMutex devices_lock;
static gboolean counted;
static int n_devices;
static char *no_devices_why;
static CudaDevice *devices;

static void
set_cuda_error (GError     **error,
                cudaError_t  status,
                const char  *what)
{
  g_set_error (error, LT_ERROR,
               status == cudaErrorMemoryAllocation ? LT_ERROR_OUT_OF_MEMORY : LT_ERROR_DEVICE,
               "%s failed: %s (%s)", what, cudaGetErrorString (status), cudaGetErrorName (status));
}

static const LtBackend cuda_backend_template;

static void
count_devices_once (void)
{
  cudaError_t status;

  g_mutex_lock (&devices_lock);
  if (!counted)
    {
      status = cudaGetDeviceCount (&n_devices);
      if (status != cudaSuccess)
        {
          int runtime = 0;

          cudaRuntimeGetVersion (&runtime);
          if (status == cudaErrorInsufficientDriver)
            no_devices_why = g_strdup_printf ("no CUDA driver found, or one older than CUDA "
                                              "%d.%d, which libtensor was built with",
                                              runtime / 1000, runtime % 1000 / 10);
          else if (status == cudaErrorNoDevice)
            no_devices_why = g_strdup ("no CUDA device found");
          else
            no_devices_why = g_strdup_printf ("CUDA could not be initialised: %s (%s)",
                                              cudaGetErrorString (status),
                                              cudaGetErrorName (status));
          n_devices = 0;
        }
      else if (n_devices == 0)
        no_devices_why = g_strdup ("no CUDA device found");

      devices = g_new0 (CudaDevice, MAX (n_devices, 1));
      for (int i = 0; i < n_devices; i++)
        {
          devices[i].backend = cuda_backend_template;
          devices[i].backend.device_index = (guint) i;
          devices[i].index = i;
        }
      counted = TRUE;
    }
  g_mutex_unlock (&devices_lock);
}

static guint
cuda_count_devices (GError **error)
{
  count_devices_once ();
  if (n_devices == 0)
    g_set_error_literal (error, LT_ERROR, LT_ERROR_DEVICE, no_devices_why);
  return (guint) n_devices;
}

static char *
cuda_get_device_name (guint index)
{
  struct cudaDeviceProp properties;

  count_devices_once ();
  g_return_val_if_fail (index < (guint) n_devices, NULL);

  if (cudaGetDeviceProperties (&properties, (int) index) != cudaSuccess)
    return g_strdup ("CUDA device");
  return g_strndup (properties.name, sizeof properties.name);
}

static const LtBackend *
cuda_get_backend (guint    index,
                  GError **error)
{
  cudaError_t status;

  count_devices_once ();
  g_return_val_if_fail (index < (guint) n_devices, NULL);

  /* Creates the device's primary context now rather than in the middle of
   * the first operation. */
  status = cudaSetDevice ((int) index);
  if (status == cudaSuccess)
    status = cudaFree (NULL);
  if (status != cudaSuccess)
    {
      set_cuda_error (error, status, "opening the CUDA device");
      return NULL;
    }
  return &devices[index].backend;
}

/* Memory ------------------------------------------------------------------ */

/* Makes the backend's device current on this thread: CUDA keeps the current
 * device per thread. */
static cudaError_t
use_device (const LtBackend *backend)
{
  return cudaSetDevice (((const CudaDevice *) backend)->index);
}

static gpointer
cuda_alloc (const LtBackend *backend,
            gsize            nbytes,
            gboolean         zeroed)
{
  void *data = NULL;

  if (use_device (backend) != cudaSuccess)
    return NULL;
  /* An empty storage still gets a distinct, valid pointer. */
  if (cudaMalloc (&data, MAX (nbytes, 1)) != cudaSuccess)
    return NULL;
  if (zeroed && nbytes > 0
      && (cudaMemset (data, 0, nbytes) != cudaSuccess || cudaDeviceSynchronize () != cudaSuccess))
    {
      cudaFree (data);
      return NULL;
    }
  return data;
}

static void
cuda_free (const LtBackend *backend,
           gpointer         data,
           gsize            nbytes)
{
  if (data != NULL && use_device (backend) == cudaSuccess)
    cudaFree (data);
}

static gboolean
cuda_upload (const LtBackend *backend,
             gpointer         dst,
             gsize            dst_offset,
             gconstpointer    src,
             gsize            nbytes,
             GError         **error)
{
  cudaError_t status;

  if (nbytes == 0)
    return TRUE;
  status = use_device (backend);
  if (status == cudaSuccess)
    status = cudaMemcpy ((guint8 *) dst + dst_offset, src, nbytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess)
    {
      set_cuda_error (error, status, "cudaMemcpy() to the device");
      return FALSE;
    }
  return TRUE;
}

static gboolean
cuda_download (const LtBackend *backend,
               gpointer         dst,
               gconstpointer    src,
               gsize            src_offset,
               gsize            nbytes,
               GError         **error)
{
  cudaError_t status;

  if (nbytes == 0)
    return TRUE;
  status = use_device (backend);
  if (status == cudaSuccess)
    status = cudaMemcpy (dst, (const guint8 *) src + src_offset, nbytes, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess)
    {
      set_cuda_error (error, status, "cudaMemcpy() from the device");
      return FALSE;
    }
  return TRUE;
}

static void
cuda_synchronize (const LtBackend *backend)
{
  if (use_device (backend) == cudaSuccess)
    cudaDeviceSynchronize ();
}

static const LtBackend cuda_backend_template = {
  .name = "cuda",
  .device_type = LT_DEVICE_TYPE_CUDA,
  .alloc = cuda_alloc,
  .free = cuda_free,
  .upload = cuda_upload,
  .download = cuda_download,
  .synchronize = cuda_synchronize,
};

static const LtBackendModule cuda_module = {
  .abi_version = LT_BACKEND_MODULE_ABI,
  .device_type = LT_DEVICE_TYPE_CUDA,
  .count_devices = cuda_count_devices,
  .get_device_name = cuda_get_device_name,
  .get_backend = cuda_get_backend,
};

G_MODULE_EXPORT const LtBackendModule *lt_backend_module_query (const LtBackendServices *services);

G_MODULE_EXPORT const LtBackendModule *
lt_backend_module_query (const LtBackendServices *services)
{
  return &cuda_module;
}
