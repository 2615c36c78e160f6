/* lt-tensor-sort.c: ordering, PyTorch's sort(), argsort() and topk()
 *
 * The elements of each line along the dim are turned into keys that order
 * exactly as they do (float64 for the floating dtypes, int64 for the
 * others, both exact), the backend's argsort kernel orders each line of
 * keys on the host, stably, NaN above every number, and the values follow
 * from the order through gather(). Results are new tensors of @self's
 * sizes (topk's narrowed to k), on @self's device.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-index-private.h"

/* A copy of @values (of @self's sizes and device) laid out as PyTorch lays
 * out the results of sort(): in @self's memory order. */
static LtTensor *
laid_out_as (LtTensor *self,
             LtTensor *values,
             GError  **error)
{
  g_autoptr (LtTensor) result = lt_tensor_new_strided_like (self, lt_tensor_get_dtype (values),
                                                            FALSE, error);

  if (result == NULL || !lt_tensor_copy_from (result, values, error))
    return NULL;
  return g_steal_pointer (&result);
}

/* The int64 positions that order each line of @self along @dim, a tensor
 * of @self's sizes and memory order on its device; @out_dim is @dim
 * wrapped. */
static LtTensor *
order_along (const char *op,
             LtTensor   *self,
             int         dim,
             gboolean    descending,
             guint      *out_dim,
             GError    **error)
{
  LtDType dtype = lt_tensor_get_dtype (self);
  gboolean doubles = lt_dtype_is_floating_point (dtype);
  g_autoptr (LtTensor) moved = NULL;
  g_autoptr (LtTensor) keys = NULL;
  g_autoptr (LtTensor) keys_here = NULL;
  g_autoptr (LtTensor) dense = NULL;
  g_autoptr (LtTensor) order = NULL;
  g_autoptr (LtTensor) back = NULL;
  g_autoptr (LtTensor) back_here = NULL;
  gint64 length;
  guint d;

  if (lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: complex numbers have no order; sort their abs() or real parts"), op);
      return NULL;
    }
  if (!lt_tensor_wrap_dim (op, dim, self->ndim, &d, error))
    return NULL;
  *out_dim = d;
  length = self->ndim > 0 ? self->sizes[d] : 1;
  if (length > G_MAXINT)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: lines of %" PRId64 " elements are longer than the %d it can "
                     "order"), op, length, G_MAXINT);
      return NULL;
    }

  moved = self->ndim > 0 ? lt_tensor_movedim (self, (int[]) { (int) d }, 1, (int[]) { -1 }, 1,
                                              error)
                         : lt_tensor_alias (self);
  keys = moved != NULL ? lt_tensor_to_dtype (moved, doubles ? LT_DTYPE_FLOAT64 : LT_DTYPE_INT64,
                                             error)
                       : NULL;
  keys_here = keys != NULL ? lt_tensor_to_cpu (keys, error) : NULL;
  dense = keys_here != NULL ? lt_tensor_contiguous (keys_here, error) : NULL;
  if (dense == NULL)
    return NULL;
  order = lt_tensor_new_contiguous ("sort()", LT_DTYPE_INT64, dense->ndim, dense->sizes, error);
  if (order == NULL)
    return NULL;
  if (dense->numel > 0)
    lt_index_backend_of (order)->index->argsort (lt_index_data_of (dense), doubles,
                                                 dense->numel / length, length, descending,
                                                 lt_index_data_of (order));
  back = self->ndim > 0 ? lt_tensor_movedim (order, (int[]) { -1 }, 1, (int[]) { (int) d }, 1,
                                             error)
                        : lt_tensor_alias (order);
  back_here = back != NULL ? lt_index_on_device_of (back, self, error) : NULL;
  if (back_here == NULL)
    return NULL;
  return laid_out_as (self, back_here, error);
}

/**
 * lt_tensor_argsort:
 * @self: an #LtTensor of a real dtype
 * @dim: the dim to order along (negative counts from the end)
 * @descending: whether the largest come first
 * @error: return location for a #GError
 *
 * PyTorch's `argsort()`: the int64 positions along @dim that order each
 * line of @self, stably (equal elements keep their order), NaN above every
 * number.
 *
 * Returns: (transfer full): the positions, or %NULL with @error set
 */
LtTensor *
lt_tensor_argsort (LtTensor *self,
                   int       dim,
                   gboolean  descending,
                   GError  **error)
{
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return order_along ("argsort()", self, dim, descending, &d, error);
}

/**
 * lt_tensor_sort:
 * @self: an #LtTensor of a real dtype
 * @dim: the dim to sort along (negative counts from the end)
 * @descending: whether the largest come first
 * @values: (out) (transfer full) (optional): the sorted elements
 * @indices: (out) (transfer full) (optional): their int64 positions in @self
 *   along @dim
 * @error: return location for a #GError
 *
 * PyTorch's `sort()`, stably (as with `stable=True`): each line of @self
 * along @dim in order, NaN above every number, and where each element
 * came from.
 *
 * Returns: %TRUE, or %FALSE with @error set and the outputs untouched
 */
gboolean
lt_tensor_sort (LtTensor  *self,
                int        dim,
                gboolean   descending,
                LtTensor **values,
                LtTensor **indices,
                GError   **error)
{
  g_autoptr (LtTensor) order = NULL;
  g_autoptr (LtTensor) sorted = NULL;
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  order = order_along ("sort()", self, dim, descending, &d, error);
  if (order == NULL)
    return FALSE;
  if (self->ndim > 0)
    {
      g_autoptr (LtTensor) gathered = lt_tensor_gather (self, (int) d, order, error);

      sorted = gathered != NULL ? laid_out_as (self, gathered, error) : NULL;
    }
  else
    {
      sorted = lt_tensor_clone (self, error);
    }
  if (sorted == NULL)
    return FALSE;
  if (values != NULL)
    *values = g_steal_pointer (&sorted);
  if (indices != NULL)
    *indices = g_steal_pointer (&order);
  return TRUE;
}

/**
 * lt_tensor_topk:
 * @self: an #LtTensor of a real dtype
 * @k: how many elements to take from each line, from 0 to its length
 * @dim: the dim to take them along (negative counts from the end)
 * @largest: whether to take the largest (else the smallest)
 * @values: (out) (transfer full) (optional): the @k elements of each line,
 *   largest (or smallest) first
 * @indices: (out) (transfer full) (optional): their int64 positions in @self
 *   along @dim
 * @error: return location for a #GError
 *
 * PyTorch's `topk()`, sorted: the @k largest (or smallest) elements of each
 * line of @self along @dim. Where elements tie, the first one in @self
 * comes first; NaN counts as the largest.
 *
 * Returns: %TRUE, or %FALSE with @error set and the outputs untouched
 */
gboolean
lt_tensor_topk (LtTensor  *self,
                gint64     k,
                int        dim,
                gboolean   largest,
                LtTensor **values,
                LtTensor **indices,
                GError   **error)
{
  g_autoptr (LtTensor) order = NULL;
  g_autoptr (LtTensor) first = NULL;
  g_autoptr (LtTensor) first_order = NULL;
  g_autoptr (LtTensor) picked = NULL;
  gint64 length;
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  order = order_along ("topk()", self, dim, largest, &d, error);
  if (order == NULL)
    return FALSE;
  length = self->ndim > 0 ? self->sizes[d] : 1;
  if (k < 0 || k > length)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("topk(): k is %" PRId64 ", but it must be from 0 to the %"
                     PRId64 " elements of the dim"), k, length);
      return FALSE;
    }
  if (self->ndim == 0)
    {
      /* As in PyTorch, a 0-dim tensor is its own top, for k 0 as for 1. */
      first_order = g_object_ref (order);
      picked = lt_tensor_clone (self, error);
    }
  else
    {
      first = lt_tensor_narrow (order, d, 0, k, error);
      first_order = first != NULL ? lt_tensor_contiguous (first, error) : NULL;
      picked = first_order != NULL ? lt_tensor_gather (self, (int) d, first_order, error)
                                   : NULL;
    }
  if (picked == NULL)
    return FALSE;
  if (values != NULL)
    *values = g_steal_pointer (&picked);
  if (indices != NULL)
    *indices = g_steal_pointer (&first_order);
  return TRUE;
}
