/* lt-tensor-copy.c: the operations that copy or write elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-tensor-private.h"

/* Runs the backend's strided copy from @src into @dst, which have the same
 * sizes and do not overlap. */
static gboolean
copy_elements (LtTensor *dst,
               LtTensor *src,
               GError  **error)
{
  const LtBackend *backend = lt_storage_get_backend (dst->storage);
  LtOperand dst_operand = lt_tensor_operand (dst);
  LtOperand src_operand = lt_tensor_operand (src);
  LtTensor *both[] = { dst, src };

  if (!lt_tensor_check_same_device ("copy", both, 2, error))
    return FALSE;
  if (backend->copy == NULL)
    return lt_tensor_check_host ("copy", both, 1, error);

  return backend->copy (backend, dst->ndim, dst->sizes, &dst_operand, &src_operand, error);
}

/* A new tensor with @self's values in @dtype, laid out as @self is. */
static LtTensor *
copy_preserving_layout (LtTensor *self,
                        LtDType   dtype,
                        GError  **error)
{
  g_autoptr (LtTensor) copy = lt_tensor_new_strided_like (self, dtype, FALSE, error);

  if (copy == NULL || !copy_elements (copy, self, error))
    return NULL;
  lt_tensor_set_names_internal (copy, self->names);
  return g_steal_pointer (&copy);
}

/**
 * lt_tensor_contiguous:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * A tensor with the same values whose elements lie in row-major order in a
 * storage of their own. When @self is already contiguous it is returned
 * itself, with a new reference; otherwise the values are copied, so that
 * `points.t().contiguous()` has strides (3, 1) and its storage holds the
 * elements in the transposed order.
 *
 * Returns: (transfer full): the contiguous tensor, or %NULL with @error set
 *   when the memory for the copy cannot be allocated
 */
LtTensor *
lt_tensor_contiguous (LtTensor *self,
                      GError  **error)
{
  g_autoptr (LtTensor) copy = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->is_contiguous)
    return g_object_ref (self);

  copy = lt_tensor_new_contiguous_on (lt_storage_get_backend (self->storage), "contiguous()",
                                      lt_tensor_get_dtype (self), self->ndim, self->sizes, error);
  if (copy == NULL || !copy_elements (copy, self, error))
    return NULL;
  lt_tensor_set_names_internal (copy, self->names);
  return g_steal_pointer (&copy);
}

/**
 * lt_tensor_clone:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * A copy of @self in a storage of its own, so writes to one are not seen in
 * the other. As in PyTorch, the copy keeps the order in which @self's dims
 * lie in memory: a clone of a transposed matrix is a transposed matrix.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set when the
 *   memory cannot be allocated
 */
LtTensor *
lt_tensor_clone (LtTensor *self,
                 GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return copy_preserving_layout (self, lt_tensor_get_dtype (self), error);
}

/**
 * lt_tensor_to_dtype:
 * @self: an #LtTensor
 * @dtype: the dtype wanted
 * @error: return location for a #GError
 *
 * The values of @self converted to @dtype as PyTorch converts them (floating
 * point to integer truncates toward zero, complex to real keeps the real part,
 * anything to bool tests for nonzero). When @self already has @dtype it is
 * returned itself, with a new reference.
 *
 * Returns: (transfer full): the converted tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_to_dtype (LtTensor *self,
                    LtDType   dtype,
                    GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_valid (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE, _("to_dtype(): %d is not a dtype"), dtype);
      return NULL;
    }
  if (dtype == lt_tensor_get_dtype (self))
    return g_object_ref (self);

  return copy_preserving_layout (self, dtype, error);
}

static gboolean
same_layout (LtTensor *a,
             LtTensor *b)
{
  return a->storage == b->storage && a->storage_offset == b->storage_offset
         && a->ndim == b->ndim
         && memcmp (a->sizes, b->sizes, a->ndim * sizeof (gint64)) == 0
         && memcmp (a->strides, b->strides, a->ndim * sizeof (gint64)) == 0;
}

/**
 * lt_tensor_copy_from:
 * @self: the #LtTensor to write into
 * @src: the values to write, broadcast to the sizes of @self
 * @error: return location for a #GError
 *
 * Writes the values of @src into the elements of @self, through the view into
 * its storage, converting the dtype where they differ (PyTorch's `copy_()`).
 * @src may overlap @self in memory: it is then read in full before anything
 * is written. @src may live on another device than @self: its values are
 * moved to @self's device first.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @src does not
 *   broadcast to @self or @self has elements that share memory, in which
 *   case nothing was written
 */
gboolean
lt_tensor_copy_from (LtTensor *self,
                     LtTensor *src,
                     GError  **error)
{
  g_autoptr (LtTensor) expanded = NULL;
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (src), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autoptr (LtTensor) moved = NULL;

  if (!lt_tensor_check_writable ("copy_from()", self, error))
    return FALSE;

  if (lt_storage_get_backend (src->storage) != lt_storage_get_backend (self->storage))
    {
      g_autoptr (LtDevice) device = lt_tensor_get_device (self);

      moved = lt_tensor_to_device (src, device, error);
      if (moved == NULL)
        return FALSE;
      src = moved;
    }

  expanded = lt_tensor_expand (src, self->sizes, self->ndim, &local_error);
  if (expanded == NULL)
    {
      g_autofree char *from = lt_layout_shape_to_string (src->ndim, src->sizes);
      g_autofree char *to = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("copy_from(): the source of sizes %s does not broadcast to the destination "
                     "sizes %s"),
                   from, to);
      return FALSE;
    }

  if (same_layout (self, expanded))
    return TRUE;

  if (lt_tensor_shares_storage (self, expanded))
    {
      /* Read everything before writing anything. */
      g_autoptr (LtTensor) detached = lt_tensor_clone (expanded, error);

      if (detached == NULL)
        return FALSE;
      g_set_object (&expanded, detached);
    }

  return copy_elements (self, expanded, error);
}

/**
 * lt_tensor_fill:
 * @self: the #LtTensor to write into
 * @value: the value, converted to the tensor's dtype
 * @error: return location for a #GError
 *
 * Sets every element of @self to @value, through the view into its storage.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @self has elements
 *   that share memory, in which case nothing was written
 */
gboolean
lt_tensor_fill (LtTensor *self,
                double    value,
                GError  **error)
{
  const LtBackend *backend;
  LtOperand operand;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!lt_tensor_check_writable ("fill()", self, error))
    return FALSE;

  backend = lt_storage_get_backend (self->storage);
  if (backend->fill == NULL)
    return lt_tensor_check_host ("fill()", &self, 1, error);
  operand = lt_tensor_operand (self);
  return backend->fill (backend, self->ndim, self->sizes, &operand,
                       lt_value_from_double (value), error);
}

/**
 * lt_tensor_zero:
 * @self: the #LtTensor to write into
 * @error: return location for a #GError
 *
 * Sets every element of @self to zero.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @self has elements
 *   that share memory
 */
gboolean
lt_tensor_zero (LtTensor *self,
                GError  **error)
{
  return lt_tensor_fill (self, 0.0, error);
}
