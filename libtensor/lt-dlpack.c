/* lt-dlpack.c: tensors shared with other libraries through DLPack
 *
 * DLPack (dlpack.h) describes a strided tensor in plain C, the way NumPy,
 * PyTorch, CuPy and JAX exchange memory without copying: a data pointer, a
 * device, a dtype code, sizes and strides in elements, and, in a
 * DLManagedTensor, a deleter its consumer calls when done with it.
 *
 * A tensor exported here points at its own first element (byte_offset 0,
 * which every consumer reads correctly; PyTorch 1.13 ignores byte_offset)
 * and keeps a reference to the tensor, so the storage lives until the
 * consumer calls the deleter. OpenCL memory cannot be offset by pointer
 * arithmetic: it goes out as its cl_mem with the offset in byte_offset, as
 * DLPack says. An imported tensor is a storage over the producer's memory
 * spanning every element the strides reach, which calls the producer's
 * deleter when it is finalized.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <dlpack/dlpack.h>

#include "lt-dlpack.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-tensor-private.h"

/* DLPack 0.8's code for bool, which Debian's dlpack.h (0.6) predates. */
#define LT_DL_BOOL 6

static const struct
{
  LtDType dtype;
  guint8 code;
  guint8 bits;
} dl_types[] = {
  { LT_DTYPE_BOOL, LT_DL_BOOL, 8 },
  { LT_DTYPE_UINT8, kDLUInt, 8 },
  { LT_DTYPE_INT8, kDLInt, 8 },
  { LT_DTYPE_INT16, kDLInt, 16 },
  { LT_DTYPE_INT32, kDLInt, 32 },
  { LT_DTYPE_INT64, kDLInt, 64 },
  { LT_DTYPE_FLOAT16, kDLFloat, 16 },
  { LT_DTYPE_BFLOAT16, kDLBfloat, 16 },
  { LT_DTYPE_FLOAT32, kDLFloat, 32 },
  { LT_DTYPE_FLOAT64, kDLFloat, 64 },
  { LT_DTYPE_COMPLEX64, kDLComplex, 64 },
  { LT_DTYPE_COMPLEX128, kDLComplex, 128 },
};

G_STATIC_ASSERT (G_N_ELEMENTS (dl_types) == LT_DTYPE_COMPLEX128 + 1);

/* Exporting ----------------------------------------------------------------- */

/* The DLManagedTensor, its shape and its strides in one allocation. */
typedef struct
{
  DLManagedTensor managed;
  int64_t shape_and_strides[];
} Exported;

static void
exported_free (DLManagedTensor *managed)
{
  g_object_unref (managed->manager_ctx);
  g_free (managed);
}

/**
 * lt_tensor_to_dlpack:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * @self as a DLPack `DLManagedTensor`, for libraries that take one
 * (`numpy.from_dlpack()`, `torch.from_dlpack()`, CuPy, JAX; in Python,
 * `Tensor.__dlpack__()` wraps this). No element is copied: the consumer
 * reads and writes @self's storage, which stays alive until it calls the
 * managed tensor's deleter. Any view goes out with its sizes and strides
 * in elements (negative ones included) and `data` pointing at its first
 * element; a CUDA tensor's pending work is finished first, so that the
 * consumer sees every value. An OpenCL tensor's `data` is its `cl_mem`,
 * with the view's offset in `byte_offset`.
 *
 * Returns: (transfer full): a `DLManagedTensor *` the caller owns (and
 *   frees by calling its deleter), or %NULL with @error set
 *   (%LT_ERROR_DEVICE) when work pending on @self's device failed (a
 *   CUDA kernel that faulted)
 */
gpointer
lt_tensor_to_dlpack (LtTensor *self,
                     GError  **error)
{
  const LtBackend *backend;
  gsize element_size;
  Exported *exported;
  DLTensor *t;
  guint8 *base;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  backend = lt_storage_get_backend (self->storage);
  /* A tensor whose kernels failed does not go out as if it held values. */
  if (!backend->synchronize (backend, error))
    return NULL;

  exported = g_malloc0 (sizeof (Exported) + 2 * self->ndim * sizeof (int64_t));
  t = &exported->managed.dl_tensor;
  element_size = lt_dtype_get_element_size (lt_tensor_get_dtype (self));
  base = lt_storage_get_handle (self->storage);
  switch (backend->device_type)
    {
    case LT_DEVICE_TYPE_CPU:
      t->device.device_type = kDLCPU;
      break;
    case LT_DEVICE_TYPE_CUDA:
      t->device.device_type = kDLCUDA;
      break;
    case LT_DEVICE_TYPE_OPENCL:
      t->device.device_type = kDLOpenCL;
      break;
    }
  t->device.device_id = (int) backend->device_index;
  if (backend->device_type == LT_DEVICE_TYPE_OPENCL)
    {
      t->data = base;
      t->byte_offset = (guint64) self->storage_offset * element_size;
    }
  else
    t->data = base != NULL ? base + self->storage_offset * element_size : NULL;

  t->ndim = (int) self->ndim;
  t->dtype.code = dl_types[lt_tensor_get_dtype (self)].code;
  t->dtype.bits = dl_types[lt_tensor_get_dtype (self)].bits;
  t->dtype.lanes = 1;
  t->shape = exported->shape_and_strides;
  t->strides = exported->shape_and_strides + self->ndim;
  for (guint d = 0; d < self->ndim; d++)
    {
      t->shape[d] = self->sizes[d];
      t->strides[d] = self->strides[d];
    }
  exported->managed.manager_ctx = g_object_ref (self);
  exported->managed.deleter = exported_free;
  return &exported->managed;
}

/* Importing ----------------------------------------------------------------- */

static void
call_deleter (gpointer data)
{
  DLManagedTensor *managed = data;

  if (managed->deleter != NULL)
    managed->deleter (managed);
}

static gboolean
dtype_of (DLDataType dl_dtype,
          LtDType   *dtype,
          GError   **error)
{
  if (dl_dtype.lanes != 1)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("from_dlpack(): the tensor has vectors of %u lanes as elements, and tensors "
                     "hold scalars"), dl_dtype.lanes);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (dl_types); i++)
    if (dl_types[i].code == dl_dtype.code && dl_types[i].bits == dl_dtype.bits)
      {
        *dtype = dl_types[i].dtype;
        return TRUE;
      }
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               dl_dtype.code == kDLUInt
                 ? _("from_dlpack(): DLPack type code %u with %u bits has no libtensor dtype "
                     "(of the unsigned integers only uint8 has one)")
                 : _("from_dlpack(): DLPack type code %u with %u bits has no libtensor dtype"),
               dl_dtype.code, dl_dtype.bits);
  return FALSE;
}

/* The backend holding memory of @device: host memory in any of its DLPack
 * guises, or a CUDA device. */
static const LtBackend *
backend_of (DLDevice  device,
            GError  **error)
{
  g_autoptr (LtDevice) cuda = NULL;

  switch ((int) device.device_type)
    {
    case kDLCPU:
    case kDLCUDAHost:
    case kDLCUDAManaged:
      return lt_cpu_backend_get ();
    case kDLCUDA:
      if (device.device_id < 0)
        break;
      cuda = lt_device_new (LT_DEVICE_TYPE_CUDA, (guint) device.device_id);
      return lt_backend_for_device (cuda, error);
    case kDLOpenCL:
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("from_dlpack(): OpenCL memory cannot be imported; copy the tensor to the "
                     "host first"));
      return NULL;
    default:
      break;
    }
  g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
               _("from_dlpack(): the tensor is on DLPack device type %d (id %d), and libtensor "
                 "reads host memory and CUDA devices"), (int) device.device_type, device.device_id);
  return NULL;
}

/**
 * lt_tensor_new_from_dlpack:
 * @dl_managed_tensor: (not nullable): a `DLManagedTensor *`
 * @error: return location for a #GError
 *
 * A tensor sharing the memory of a DLPack tensor another library exported
 * (`numpy.ndarray.__dlpack__()`, `torch.utils.dlpack.to_dlpack()`; in
 * Python, `Lt.from_dlpack()` wraps this): host memory, or a CUDA device's.
 * Sizes, strides (negative ones too; none means row-major) and
 * `byte_offset` are honoured, and writes through the tensor reach the
 * producer's memory.
 *
 * On success the tensor owns @dl_managed_tensor and calls its deleter when
 * the last view of its storage is gone. On failure nothing is taken: the
 * caller still owns @dl_managed_tensor.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set:
 *   %LT_ERROR_DTYPE for element types libtensor lacks (unsigned integers
 *   wider than 8 bits, vector lanes), %LT_ERROR_DEVICE for devices it
 *   cannot reach, %LT_ERROR_INVALID_ARGUMENT for a malformed tensor
 *   (negative sizes, no shape, data missing or misaligned),
 *   %LT_ERROR_OVERFLOW for extents beyond 64 bits
 */
LtTensor *
lt_tensor_new_from_dlpack (gpointer dl_managed_tensor,
                           GError **error)
{
  DLManagedTensor *managed = dl_managed_tensor;
  const DLTensor *t;
  const LtBackend *backend;
  LtDType dtype;
  gint64 sizes[LT_MAX_DIMS], strides[LT_MAX_DIMS];
  gint64 numel, low = 0, high = 0, extent = 0, element_size;
  g_autoptr (LtStorage) storage = NULL;
  guint8 *first;

  g_return_val_if_fail (dl_managed_tensor != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  t = &managed->dl_tensor;
  if (t->ndim < 0 || t->ndim > LT_MAX_DIMS || (t->ndim > 0 && t->shape == NULL))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   t->shape == NULL ? _("from_dlpack(): the tensor has %d dims and no shape")
                                    : _("from_dlpack(): the tensor has %d dims, and tensors "
                                        "have 0 to 64"),
                   t->ndim);
      return NULL;
    }
  if (!dtype_of (t->dtype, &dtype, error))
    return NULL;
  backend = backend_of (t->device, error);
  if (backend == NULL)
    return NULL;

  for (int d = 0; d < t->ndim; d++)
    sizes[d] = t->shape[d];
  if (!lt_tensor_check_sizes ("from_dlpack()", sizes, (guint) t->ndim, error))
    return NULL;
  if (t->strides != NULL)
    memcpy (strides, t->strides, t->ndim * sizeof (gint64));
  else if (!lt_layout_contiguous_strides ((guint) t->ndim, sizes, strides))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("from_dlpack(): the row-major strides of the shape do not fit in 64 bits"));
      return NULL;
    }
  lt_layout_numel ((guint) t->ndim, sizes, &numel);

  /* The storage spans the elements the strides reach, from the lowest. */
  element_size = (gint64) lt_dtype_get_element_size (dtype);
  for (int d = 0; d < t->ndim && numel > 0; d++)
    {
      gint64 reach;

      if (__builtin_mul_overflow (sizes[d] - 1, strides[d], &reach)
          || __builtin_add_overflow (reach < 0 ? low : high, reach, reach < 0 ? &low : &high))
        {
          g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                       _("from_dlpack(): the elements of the tensor span more than 64 bits of "
                         "offsets"));
          return NULL;
        }
    }
  if (numel > 0 && t->data == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("from_dlpack(): the tensor has %" PRId64 " elements and no data"),
                   numel);
      return NULL;
    }
  if (t->byte_offset % (guint64) element_size != 0 || t->byte_offset > G_MAXINT64
      || ((guint64) (gsize) t->data + t->byte_offset) % (guint64) MIN (element_size, 8) != 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("from_dlpack(): the data (at %p plus %" PRIu64 " bytes) is not "
                     "aligned to its %s elements"), t->data, (guint64) t->byte_offset,
                   lt_dtype_get_name (dtype));
      return NULL;
    }

  if (numel > 0 && (__builtin_sub_overflow (high, low, &extent) || extent == G_MAXINT64))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("from_dlpack(): the elements of the tensor span more than 64 bits of "
                     "offsets"));
      return NULL;
    }

  /* Ours from here on success: the storage calls the deleter. */
  first = numel > 0 ? (guint8 *) t->data + t->byte_offset : NULL;
  storage = lt_storage_new_for_handle (backend, dtype,
                                       first != NULL ? first + low * element_size : NULL,
                                       numel > 0 ? extent + 1 : 0, call_deleter, managed, error);
  if (storage == NULL)
    return NULL;
  return lt_tensor_new_view (storage, (guint) t->ndim, sizes, strides, numel > 0 ? -low : 0);
}
