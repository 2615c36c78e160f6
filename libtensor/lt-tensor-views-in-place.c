/* lt-tensor-views-in-place.c: PyTorch's in-place view operations
 *
 * `t.unsqueeze_(0)` gives t itself the shape `t.unsqueeze(0)` would have:
 * the same storage, new sizes, strides, offset and names. Each operation
 * makes that view with the out-of-place operation (so the checks and
 * messages are the same) and moves its layout into @self; on error @self is
 * unchanged. Other tensors over the storage, views of @self included, keep
 * their own shapes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-tensor-private.h"

static gboolean
take_layout_of (LtTensor *self,
                LtTensor *view)
{
  if (view == NULL)
    return FALSE;
  lt_tensor_take_layout (self, view);
  g_object_unref (view);
  return TRUE;
}

/**
 * lt_tensor_unsqueeze_:
 * @self: an #LtTensor
 * @dim: where the new dim goes, from -(dim + 1) to dim
 * @error: return location for a #GError
 *
 * In place lt_tensor_unsqueeze(): @self gains a dim of size 1 at @dim.
 *
 * Returns: %TRUE, or %FALSE with @error set and @self unchanged
 */
gboolean
lt_tensor_unsqueeze_ (LtTensor *self,
                      int       dim,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return take_layout_of (self, lt_tensor_unsqueeze (self, dim, error));
}

/**
 * lt_tensor_squeeze_:
 * @self: an #LtTensor
 *
 * In place lt_tensor_squeeze(): @self loses every dim of size 1.
 */
void
lt_tensor_squeeze_ (LtTensor *self)
{
  g_return_if_fail (LT_IS_TENSOR (self));

  take_layout_of (self, lt_tensor_squeeze (self));
}

/**
 * lt_tensor_squeeze_dim_:
 * @self: an #LtTensor
 * @dim: the dim to remove if its size is 1 (negative counts from the end)
 * @error: return location for a #GError
 *
 * In place lt_tensor_squeeze_dim().
 *
 * Returns: %TRUE, or %FALSE with @error set and @self unchanged
 */
gboolean
lt_tensor_squeeze_dim_ (LtTensor *self,
                        int       dim,
                        GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return take_layout_of (self, lt_tensor_squeeze_dim (self, dim, error));
}

/**
 * lt_tensor_transpose_:
 * @self: an #LtTensor
 * @dim0: the first dim (negative counts from the end)
 * @dim1: the second dim
 * @error: return location for a #GError
 *
 * In place lt_tensor_transpose(): @dim0 and @dim1 of @self swap sizes,
 * strides and names.
 *
 * Returns: %TRUE, or %FALSE with @error set and @self unchanged
 */
gboolean
lt_tensor_transpose_ (LtTensor *self,
                      int       dim0,
                      int       dim1,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return take_layout_of (self, lt_tensor_transpose (self, dim0, dim1, error));
}

/**
 * lt_tensor_t_:
 * @self: an #LtTensor with at most 2 dims
 * @error: return location for a #GError
 *
 * In place lt_tensor_t(): a matrix becomes its transpose.
 *
 * Returns: %TRUE, or %FALSE with @error set and @self unchanged
 */
gboolean
lt_tensor_t_ (LtTensor *self,
              GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return take_layout_of (self, lt_tensor_t (self, error));
}

/**
 * lt_tensor_as_strided_:
 * @self: an #LtTensor
 * @sizes: (array length=n_sizes): the new sizes
 * @n_sizes: the number of dims
 * @strides: (array length=n_strides): the new strides, in elements
 * @n_strides: must equal @n_sizes
 * @storage_offset: the new storage offset
 * @error: return location for a #GError
 *
 * In place lt_tensor_as_strided(), under its checks: @self gets any layout
 * that stays inside its storage.
 *
 * Returns: %TRUE, or %FALSE with @error set and @self unchanged
 */
gboolean
lt_tensor_as_strided_ (LtTensor     *self,
                       const gint64 *sizes,
                       guint         n_sizes,
                       const gint64 *strides,
                       guint         n_strides,
                       gint64        storage_offset,
                       GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return take_layout_of (self, lt_tensor_as_strided (self, sizes, n_sizes, strides, n_strides,
                                                     storage_offset, error));
}
