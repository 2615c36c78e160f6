/* lt-tensor-device.c: moving tensors between devices
 *
 * A tensor on a device is the same metadata (sizes, strides, offset, names)
 * over a storage in that device's memory, so every view works on it
 * unchanged. Values cross between host and device as whole contiguous
 * blocks; operations without device kernels yet refuse device tensors with
 * LT_ERROR_DEVICE (lt_tensor_check_host()) rather than touching memory the
 * host cannot read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-tensor-private.h"

/**
 * lt_tensor_get_device:
 * @self: an #LtTensor
 *
 * Returns: (transfer full): the device @self's storage lives on
 */
LtDevice *
lt_tensor_get_device (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  return lt_storage_get_device (self->storage);
}

static gboolean
is_on_host (LtTensor *tensor)
{
  return lt_storage_get_device_type (tensor->storage) == LT_DEVICE_TYPE_CPU;
}

static char *
device_name (LtTensor *tensor)
{
  g_autoptr (LtDevice) device = lt_storage_get_device (tensor->storage);

  return lt_device_to_string (device);
}

gboolean
lt_tensor_check_host (const char      *op,
                      LtTensor *const *tensors,
                      guint            n_tensors,
                      GError         **error)
{
  for (guint i = 0; i < n_tensors; i++)
    if (tensors[i] != NULL && !is_on_host (tensors[i]))
      {
        g_autofree char *name = device_name (tensors[i]);

        g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                     _("%s: tensors on %s are not supported by this operation yet; move them to "
                       "the CPU with to_cpu() first"),
                     op, name);
        return FALSE;
      }
  return TRUE;
}

gboolean
lt_tensor_check_same_device (const char      *op,
                             LtTensor *const *tensors,
                             guint            n_tensors,
                             GError         **error)
{
  for (guint i = 1; i < n_tensors; i++)
    if (lt_storage_get_backend (tensors[i]->storage)
        != lt_storage_get_backend (tensors[0]->storage))
      {
        g_autofree char *first = device_name (tensors[0]);
        g_autofree char *other = device_name (tensors[i]);

        g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                     _("%s: expected all tensors on the same device, got %s and %s; move one "
                       "with to_device() first"),
                     op, first, other);
        return FALSE;
      }
  return TRUE;
}

/* A contiguous copy of @self in the memory of @backend, from a contiguous
 * host tensor. */
static LtTensor *
upload (LtTensor        *host,
        const LtBackend *backend,
        GError         **error)
{
  gsize element_size = lt_dtype_get_element_size (lt_tensor_get_dtype (host));
  g_autoptr (LtStorage) storage = NULL;
  gint64 strides[LT_MAX_DIMS];
  LtTensor *result;

  storage = lt_storage_new_on_backend (backend, lt_tensor_get_dtype (host), host->numel, FALSE,
                                       error);
  if (storage == NULL)
    return NULL;
  if (!backend->upload (backend, lt_storage_get_handle (storage), 0,
                        (guint8 *) lt_storage_get_data (host->storage)
                          + host->storage_offset * (gint64) element_size,
                        (gsize) host->numel * element_size, error))
    return NULL;

  lt_layout_contiguous_strides (host->ndim, host->sizes, strides);
  result = lt_tensor_new_view (storage, host->ndim, host->sizes, strides, 0);
  lt_tensor_set_names_internal (result, host->names);
  return result;
}

/**
 * lt_tensor_to_cpu:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * @self's values in host memory: @self itself (a new reference) when it is
 * there already, else a contiguous copy downloaded from its device, with
 * @self's sizes and names.
 *
 * Returns: (transfer full): the tensor on the CPU, or %NULL with @error set
 *   when the memory cannot be allocated or the download fails
 */
LtTensor *
lt_tensor_to_cpu (LtTensor *self,
                  GError  **error)
{
  const LtBackend *backend;
  gsize element_size;
  gint64 lowest = 0, highest = -1;
  g_autoptr (LtTensor) dense = NULL;
  g_autoptr (LtStorage) storage = NULL;
  g_autoptr (LtTensor) span = NULL;
  LtTensor *result;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (is_on_host (self))
    return g_object_ref (self);

  backend = lt_storage_get_backend (self->storage);
  element_size = lt_dtype_get_element_size (lt_tensor_get_dtype (self));

  /* Gather the elements on the device first where it can, so that only
   * they cross, not the whole span of storage they are spread over. */
  if (!self->is_contiguous && backend->copy != NULL)
    {
      dense = lt_tensor_contiguous (self, error);
      if (dense == NULL)
        return NULL;
    }
  else
    dense = g_object_ref (self);

  if (dense->numel > 0
      && !lt_layout_extent (dense->ndim, dense->sizes, dense->strides, dense->storage_offset,
                            &lowest, &highest))
    g_assert_not_reached ();

  /* The storage span the view reaches, downloaded, and the view rebuilt
   * over it. */
  storage = lt_storage_new_uninitialized (lt_tensor_get_dtype (dense), highest - lowest + 1,
                                          error);
  if (storage == NULL)
    return NULL;
  if (!backend->download (backend, lt_storage_get_data (storage),
                          lt_storage_get_handle (dense->storage), (gsize) lowest * element_size,
                          (gsize) (highest - lowest + 1) * element_size, error))
    return NULL;
  span = lt_tensor_new_view (storage, dense->ndim, dense->sizes, dense->strides,
                             dense->numel > 0 ? dense->storage_offset - lowest : 0);

  result = lt_tensor_contiguous (span, error);
  if (result != NULL)
    lt_tensor_set_names_internal (result, self->names);
  return result;
}

/**
 * lt_tensor_to_device:
 * @self: an #LtTensor
 * @device: where the result should live
 * @error: return location for a #GError
 *
 * @self's values on @device: @self itself (a new reference) when it is
 * there already, else a contiguous copy with @self's sizes and names, as
 * PyTorch's `t.to("cuda:0")` makes.
 *
 * Returns: (transfer full): the tensor on @device, or %NULL with @error
 *   set (%LT_ERROR_DEVICE) when @device is not available, or when memory
 *   cannot be allocated or a transfer fails
 */
LtTensor *
lt_tensor_to_device (LtTensor       *self,
                     const LtDevice *device,
                     GError        **error)
{
  const LtBackend *backend;
  g_autoptr (LtTensor) host = NULL;
  g_autoptr (LtTensor) dense = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (device != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  backend = lt_backend_for_device (device, error);
  if (backend == NULL)
    return NULL;
  if (backend == lt_storage_get_backend (self->storage))
    return g_object_ref (self);

  host = lt_tensor_to_cpu (self, error);
  if (host == NULL)
    return NULL;
  if (lt_device_get_device_type (device) == LT_DEVICE_TYPE_CPU)
    return g_steal_pointer (&host);

  dense = lt_tensor_contiguous (host, error);
  if (dense == NULL)
    return NULL;
  return upload (dense, backend, error);
}
