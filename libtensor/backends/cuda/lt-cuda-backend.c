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

#include <stdarg.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <gmodule.h>

#include "lt-error.h"
#include "lt-cuda-private.h"
#include "lt-cuda-backend-private.h"
#include "backends/lt-backend-module.h"
#include "lt-i18n-private.h"

/* lt-cuda-copy.cu numbers the dtypes as LtDType does. */
G_STATIC_ASSERT (LT_DTYPE_BOOL == 0 && LT_DTYPE_UINT8 == 1 && LT_DTYPE_INT8 == 2);
G_STATIC_ASSERT (LT_DTYPE_INT16 == 3 && LT_DTYPE_INT32 == 4 && LT_DTYPE_INT64 == 5);
G_STATIC_ASSERT (LT_DTYPE_FLOAT16 == 6 && LT_DTYPE_BFLOAT16 == 7 && LT_DTYPE_FLOAT32 == 8);
G_STATIC_ASSERT (LT_DTYPE_FLOAT64 == 9 && LT_DTYPE_COMPLEX64 == 10);
G_STATIC_ASSERT (LT_DTYPE_COMPLEX128 == 11);
G_STATIC_ASSERT (LT_CUDA_MAX_DIMS == LT_LAUNCH_MAX_DIMS);

const LtBackendServices *lt_cuda_services;

typedef struct
{
  LtBackend backend;  /* first: the registry hands this out */
  int index;
  /* Whether storages come from the device's stream-ordered memory pool
   * (cudaMallocAsync ()), which keeps freed memory for the next storage:
   * freeing then waits for nothing, where cudaFree () waits for the whole
   * device, and allocating costs no call into the driver. */
  gboolean pooled;
  /* Whether its primary context has been created: once, so that a later
   * fault is reported by the call that waits for it, not here. */
  gboolean opened;
} CudaDevice;

/* Found once, on the first question: process-wide, as the CUDA runtime's
 * own state is. */
static GMutex devices_lock;
static gboolean counted;
static int n_devices;
static char *no_devices_why;
static CudaDevice *devices;

void
lt_cuda_set_error (GError     **error,
                cudaError_t  status,
                const char  *what)
{
  g_set_error (error, LT_ERROR,
               status == cudaErrorMemoryAllocation ? LT_ERROR_OUT_OF_MEMORY : LT_ERROR_DEVICE,
               _("%s failed: %s (%s)"), what, cudaGetErrorString (status),
               cudaGetErrorName (status));
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
          int runtime = 0, driver = 0;

          cudaRuntimeGetVersion (&runtime);
          cudaDriverGetVersion (&driver);
          if (status == cudaErrorInsufficientDriver && driver == 0)
            no_devices_why = g_strdup_printf (_("no CUDA driver found: libtensor was built with "
                                                "CUDA %d.%d and needs NVIDIA's driver for "
                                                "CUDA %d.%d or newer"),
                                              runtime / 1000, runtime % 1000 / 10,
                                              runtime / 1000, runtime % 1000 / 10);
          else if (status == cudaErrorInsufficientDriver)
            no_devices_why = g_strdup_printf (_("the CUDA driver is too old: it supports CUDA "
                                                "%d.%d, but libtensor was built with CUDA %d.%d "
                                                "and needs a driver for CUDA %d.%d or newer"),
                                              driver / 1000, driver % 1000 / 10,
                                              runtime / 1000, runtime % 1000 / 10,
                                              runtime / 1000, runtime % 1000 / 10);
          else if (status == cudaErrorNoDevice)
            no_devices_why = g_strdup (_("no CUDA device found"));
          else
            no_devices_why = g_strdup_printf (_("CUDA could not be initialised: %s (%s)"),
                                              cudaGetErrorString (status),
                                              cudaGetErrorName (status));
          n_devices = 0;
        }
      else if (n_devices == 0)
        no_devices_why = g_strdup (_("no CUDA device found"));

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

  g_mutex_lock (&devices_lock);
  if (devices[index].opened)
    {
      g_mutex_unlock (&devices_lock);
      return &devices[index].backend;
    }
  g_mutex_unlock (&devices_lock);

  /* Creates the device's primary context now rather than in the middle of
   * the first operation. */
  status = cudaSetDevice ((int) index);
  if (status == cudaSuccess)
    status = cudaFree (NULL);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("opening the CUDA device"));
      return NULL;
    }
  g_mutex_lock (&devices_lock);
  if (!devices[index].pooled)
    {
      int pools = 0;
      cudaMemPool_t pool;
      guint64 keep_all = G_MAXUINT64;

      /* The pool keeps what is freed rather than handing it back to the
       * driver at each synchronisation, as PyTorch's caching allocator
       * does; cuda_alloc () trims it when memory runs out. */
      if (cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, (int) index)
            == cudaSuccess
          && pools
          && cudaDeviceGetDefaultMemPool (&pool, (int) index) == cudaSuccess
          && cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &keep_all)
               == cudaSuccess)
        devices[index].pooled = TRUE;
      cudaGetLastError ();
    }
  devices[index].opened = TRUE;
  g_mutex_unlock (&devices_lock);
  return &devices[index].backend;
}

/* Memory ------------------------------------------------------------------ */

cudaError_t
lt_cuda_use_device (const LtBackend *backend)
{
  cudaError_t status = cudaSetDevice (((const CudaDevice *) backend)->index);

  /* An error some earlier call reported (a cudaMalloc() that ran out of
   * memory) stays CUDA's "last error" until someone reads it, and the next
   * launch would report it as its own: read it now. A sticky error (a
   * kernel that faulted) is not lost: every later call returns it. */
  cudaGetLastError ();
  return status;
}

/* @nbytes of device memory: from the pool, in stream order (the legacy
 * default stream, which every launch and transfer of the backend uses), or
 * from cudaMalloc () where the device has no pools. */
static void *
allocate (const CudaDevice *device,
          gsize             nbytes,
          cudaError_t      *status)
{
  void *data = NULL;
  cudaMemPool_t pool;

  if (!device->pooled)
    {
      *status = cudaMalloc (&data, nbytes);
      return *status == cudaSuccess ? data : NULL;
    }
  *status = cudaMallocAsync (&data, nbytes, 0);
  if (*status != cudaErrorMemoryAllocation)
    return *status == cudaSuccess ? data : NULL;
  /* Out of memory: give back what the pool keeps, once the work that
   * freed it is done, and try again. */
  cudaGetLastError ();
  *status = cudaDeviceSynchronize ();
  if (*status == cudaSuccess)
    *status = cudaDeviceGetDefaultMemPool (&pool, device->index);
  if (*status == cudaSuccess)
    *status = cudaMemPoolTrimTo (pool, 0);
  if (*status == cudaSuccess)
    *status = cudaMallocAsync (&data, nbytes, 0);
  if (*status == cudaSuccess)
    return data;
  cudaGetLastError ();
  return NULL;
}

/* NULL, with @error set unless @status says that memory ran out. */
static gpointer
failed_alloc (cudaError_t   status,
              GError      **error)
{
  if (status != cudaErrorMemoryAllocation)
    lt_cuda_set_error (error, status, _("allocating CUDA device memory"));
  return NULL;
}

static gpointer
cuda_alloc (const LtBackend *backend,
            gsize            nbytes,
            gboolean         zeroed,
            GError         **error)
{
  const CudaDevice *device = (const CudaDevice *) backend;
  cudaError_t status = lt_cuda_use_device (backend);
  void *data;

  if (status != cudaSuccess)
    return failed_alloc (status, error);
  /* An empty storage still gets a distinct, valid pointer. */
  data = allocate (device, MAX (nbytes, 1), &status);
  if (data == NULL)
    return failed_alloc (status, error);
  /* Zeroed in stream order: every later launch and transfer comes after. */
  if (zeroed && nbytes > 0)
    status = cudaMemsetAsync (data, 0, nbytes, 0);
  if (status != cudaSuccess)
    {
      cudaGetLastError ();
      if (device->pooled)
        cudaFreeAsync (data, 0);
      else
        cudaFree (data);
      return failed_alloc (status, error);
    }
  return data;
}

static void
cuda_free (const LtBackend *backend,
           gpointer         data,
           gsize            nbytes)
{
  const CudaDevice *device = (const CudaDevice *) backend;

  if (data == NULL)
    return;
  /* Freed even when the device has failed (a kernel's fault loses its
   * context): the call then fails too, and frees what it can. */
  lt_cuda_use_device (backend);
  if (device->pooled)
    cudaFreeAsync (data, 0);
  else
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
  status = lt_cuda_use_device (backend);
  if (status == cudaSuccess)
    status = cudaMemcpy ((guint8 *) dst + dst_offset, src, nbytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("cudaMemcpy() to the device"));
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
  status = lt_cuda_use_device (backend);
  if (status == cudaSuccess)
    status = cudaMemcpy (dst, (const guint8 *) src + src_offset, nbytes, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("cudaMemcpy() from the device"));
      return FALSE;
    }
  return TRUE;
}

/* Kernels ----------------------------------------------------------------- */

/* The launch of a copy from @src (NULL for a fill) into @dst, planned by
 * the library (LtLaunchPlan), as the kernels take it. */
static gboolean
shape_for (guint            ndim,
           const gint64    *sizes,
           const LtOperand *dst,
           const LtOperand *src,
           LtCudaShape     *shape,
           gint64          *numel,
           gboolean        *narrow,
           GError         **error)
{
  const LtOperand *operands[] = { dst, src };
  LtLaunchPlan plan;

  if (!lt_cuda_services->plan_elementwise (ndim, sizes, operands, src != NULL ? 2 : 1, &plan,
                                           error))
    return FALSE;
  *numel = plan.numel;
  *narrow = plan.narrow;
  memset (shape, 0, sizeof *shape);
  shape->ndim = (int) plan.ndim;
  shape->dst_offset = plan.offsets[0];
  shape->src_offset = plan.offsets[1];
  for (guint d = 0; d < plan.ndim; d++)
    {
      shape->sizes[d] = plan.sizes[d];
      shape->dst_strides[d] = plan.strides[0][d];
      shape->src_strides[d] = plan.strides[1][d];
    }
  return TRUE;
}

/* Read once, as the environment of a process is set before it starts. */
gboolean
lt_cuda_sync_each_launch (void)
{
  static gsize read = 0;
  static gboolean sync;

  if (g_once_init_enter (&read))
    {
      sync = g_strcmp0 (g_getenv ("LT_CUDA_SYNC"), "1") == 0;
      g_once_init_leave (&read, 1);
    }
  return sync;
}

const char *
lt_cuda_enum_nick (GType enum_type,
                   int   value)
{
  GEnumClass *enum_class = g_type_class_ref (enum_type);
  GEnumValue *found = g_enum_get_value (enum_class, value);

  /* The class stays: its strings are static. */
  g_type_class_unref (enum_class);
  return found != NULL ? found->value_nick : "?";
}

gboolean
lt_cuda_check_launch_slowly (cudaError_t  status,
                             GError     **error,
                             const char  *kernel_format,
                             ...)
{
  gboolean running = FALSE;
  g_autofree char *kernel = NULL;
  va_list args;

  if (status == cudaSuccess && lt_cuda_sync_each_launch ())
    {
      status = cudaDeviceSynchronize ();
      running = TRUE;
    }
  if (status == cudaSuccess)
    return TRUE;

  va_start (args, kernel_format);
  kernel = g_strdup_vprintf (kernel_format, args);
  va_end (args);
  g_set_error (error, LT_ERROR,
               status == cudaErrorMemoryAllocation ? LT_ERROR_OUT_OF_MEMORY : LT_ERROR_DEVICE,
               running ? _("running the CUDA kernel %s failed: %s (%s)")
                       : _("launching the CUDA kernel %s failed: %s (%s)"),
               kernel, cudaGetErrorString (status), cudaGetErrorName (status));
  return FALSE;
}

static gboolean
cuda_copy (const LtBackend *backend,
           guint            ndim,
           const gint64    *sizes,
           const LtOperand *dst,
           const LtOperand *src,
           GError         **error)
{
  LtCudaShape shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, dst, src, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  status = lt_cuda_use_device (backend);
  if (status == cudaSuccess && dst->dtype == src->dtype)
    status = lt_cuda_launch_copy (dst->buffer, src->buffer, lt_dtype_get_element_size (dst->dtype),
                                  &shape, numel, narrow);
  else if (status == cudaSuccess)
    status = lt_cuda_launch_cast (dst->buffer, dst->dtype,
                                  (int) lt_dtype_get_element_size (dst->dtype), src->buffer,
                                  src->dtype, (int) lt_dtype_get_element_size (src->dtype),
                                  &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, dst->dtype == src->dtype ? "copy (%s)"
                                                                       : "cast (%s from %s)",
                               lt_dtype_get_name (dst->dtype), lt_dtype_get_name (src->dtype));
}

static gboolean
cuda_fill (const LtBackend *backend,
           guint            ndim,
           const gint64    *sizes,
           const LtOperand *dst,
           LtValue          value,
           GError         **error)
{
  guint64 pattern[2] = { 0, 0 };
  LtCudaShape shape;
  gint64 numel;
  gboolean narrow = FALSE;
  cudaError_t status;

  if (!shape_for (ndim, sizes, dst, NULL, &shape, &numel, &narrow, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  lt_cuda_services->value_write (dst->dtype, pattern, value);
  status = lt_cuda_use_device (backend);
  if (status == cudaSuccess)
    status = lt_cuda_launch_fill (dst->buffer, pattern, lt_dtype_get_element_size (dst->dtype),
                                  &shape, numel, narrow);
  return lt_cuda_check_launch (status, error, "fill (%s)", lt_dtype_get_name (dst->dtype));
}

static gboolean
cuda_synchronize (const LtBackend *backend,
                  GError         **error)
{
  cudaError_t status = lt_cuda_use_device (backend);

  if (status == cudaSuccess)
    status = cudaDeviceSynchronize ();
  if (status != cudaSuccess)
    {
      lt_cuda_set_error (error, status, _("waiting for the CUDA device (cudaDeviceSynchronize())"));
      return FALSE;
    }
  return TRUE;
}

static const LtBackend cuda_backend_template = {
  .name = "cuda",
  .device_type = LT_DEVICE_TYPE_CUDA,
  .alloc = cuda_alloc,
  .free = cuda_free,
  .upload = cuda_upload,
  .download = cuda_download,
  .copy = cuda_copy,
  .fill = cuda_fill,
  .synchronize = cuda_synchronize,
  .pointwise = &lt_cuda_pointwise_kernels,
  .reduce = &lt_cuda_reduce_kernels,
  .linalg = &lt_cuda_linalg_kernels,
  .random_fill = lt_cuda_random_fill,
};

static const LtBackendModule cuda_module = {
  .abi_version = LT_BACKEND_MODULE_ABI,
  .device_type = LT_DEVICE_TYPE_CUDA,
  .count_devices = cuda_count_devices,
  .get_device_name = cuda_get_device_name,
  .get_backend = cuda_get_backend,
};

G_MODULE_EXPORT const LtBackendModule *lt_backend_module_query (const LtBackendServices *library_services);

G_MODULE_EXPORT const LtBackendModule *
lt_backend_module_query (const LtBackendServices *library_services)
{
  lt_cuda_services = library_services;
  return &cuda_module;
}
