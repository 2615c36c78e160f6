/* lt-tensor-index-put.c: writes by index, PyTorch's scatter_(),
 * scatter_add_(), index_copy_(), index_add_() and index_fill_()
 *
 * Each computes the storage indices of the elements it writes as the reads
 * of lt-tensor-index.c do (lt-index-private.h), checks the index values and
 * the tensor's writability before anything is written, and hands the
 * values, in the tensor's dtype and in row-major order of the indices, to
 * the backend's scatter kernel. Where indices repeat, the last write stays,
 * as on PyTorch's CPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-index-private.h"
#include "lt-layout.h"
#include "lt-pointwise.h"

/* Writes @values (any layout, @self's dtype, @offsets' sizes) into @self's
 * storage at @offsets (valid storage indices). */
gboolean
lt_index_scatter_storage (LtTensor *self,
                          LtTensor *offsets,
                          LtTensor *values,
                          gboolean  accumulate,
                          GError  **error)
{
  const LtBackend *backend = lt_index_backend_of (self);
  g_autoptr (LtTensor) dense_offsets = NULL;
  g_autoptr (LtTensor) dense_values = NULL;

  if (backend->index == NULL)
    {
      /* On the host: a copy of the whole storage takes the writes, then
       * goes back to the device. */
      g_autoptr (LtTensor) whole = lt_index_whole_storage (self);
      g_autoptr (LtTensor) whole_here = lt_tensor_to_cpu (whole, error);
      g_autoptr (LtTensor) offsets_here = whole_here != NULL ? lt_tensor_to_cpu (offsets, error)
                                                             : NULL;
      g_autoptr (LtTensor) values_here = offsets_here != NULL ? lt_tensor_to_cpu (values, error)
                                                              : NULL;

      return values_here != NULL
             && lt_index_scatter_storage (whole_here, offsets_here, values_here, accumulate, error)
             && lt_tensor_copy_from (whole, whole_here, error);
    }

  dense_offsets = lt_tensor_contiguous (offsets, error);
  /* Values read from @self's own storage are copied first, so that no
   * write lands before the read of a value it would change. */
  if (dense_offsets == NULL)
    return FALSE;
  dense_values = lt_tensor_shares_storage (values, self) ? lt_tensor_clone (values, error)
                                                         : lt_tensor_contiguous (values, error);
  if (dense_values == NULL || !backend->synchronize (backend, error))
    return FALSE;
  if (accumulate)
    backend->index->scatter_add (lt_storage_get_data (self->storage),
                                 lt_index_data_of (dense_values), lt_tensor_get_dtype (self),
                                 lt_index_data_of (dense_offsets), dense_offsets->numel);
  else
    backend->index->scatter (lt_storage_get_data (self->storage),
                             lt_index_data_of (dense_values),
                             lt_dtype_get_element_size (lt_tensor_get_dtype (self)),
                             lt_index_data_of (dense_offsets), dense_offsets->numel);
  return TRUE;
}

static gboolean
check_same_dtype (const char *op,
                  LtTensor   *self,
                  LtTensor   *source,
                  GError    **error)
{
  if (lt_tensor_get_dtype (source) == lt_tensor_get_dtype (self))
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("%s: the tensor is %s but the values are %s; convert them with to_dtype() "
                 "first"), op, lt_dtype_get_name (lt_tensor_get_dtype (self)),
               lt_dtype_get_name (lt_tensor_get_dtype (source)));
  return FALSE;
}

/* The storage indices of @self's elements over a grid of @sizes whose
 * coordinate along @dim is @along (int64, checked). */
static LtTensor *
offsets_along (LtTensor     *self,
               guint         dim,
               LtTensor     *along,
               const gint64 *sizes,
               GError      **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  LtTensor *offsets = NULL;

  if (lt_index_grid (self, sizes, dim, along, coordinates, error))
    offsets = lt_index_storage_offsets (self, coordinates, sizes, self->ndim, error);
  lt_index_clear_grid (coordinates, self->ndim);
  return offsets;
}

static gboolean
scatter_checked (const char *op,
                 LtTensor   *self,
                 int         dim,
                 LtTensor   *index,
                 LtTensor   *src,
                 gboolean    accumulate,
                 GError    **error)
{
  g_autoptr (LtTensor) wide = NULL;
  g_autoptr (LtTensor) values = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  guint d;

  if (!lt_tensor_wrap_dim (op, dim, self->ndim, &d, error)
      || !lt_index_check_dtype (op, index, FALSE, error)
      || !check_same_dtype (op, self, src, error)
      || !lt_tensor_check_same_device (op, (LtTensor *[]) { self, index, src }, 3, error)
      || !lt_tensor_check_writable (op, self, error))
    return FALSE;
  if (index->ndim != self->ndim || src->ndim != self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%s: the index (%u dims) and the values (%u) must have as many "
                     "dims as the tensor, %u"), op, index->ndim, src->ndim, self->ndim);
      return FALSE;
    }
  for (guint k = 0; k < self->ndim; k++)
    if (index->sizes[k] > src->sizes[k] || (k != d && index->sizes[k] > self->sizes[k]))
      {
        g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                     _("%s: the index has size %" PRId64 " in dim %u, larger "
                       "than the values' %" PRId64 " or (but along dim %u) the "
                       "tensor's %" PRId64),
                     op, index->sizes[k], k, src->sizes[k], d, self->sizes[k]);
        return FALSE;
      }
  if (!lt_index_check_range (op, index, 0, self->ndim > 0 ? self->sizes[d] : 1,
                             N_("the dim scattered along"), error))
    return FALSE;
  if (index->numel == 0)
    return TRUE;

  /* The values at the index's coordinates: src cut down to its sizes. */
  values = lt_tensor_as_strided (src, index->sizes, index->ndim, src->strides, src->ndim,
                                 src->storage_offset, error);
  if (values == NULL)
    return FALSE;
  if (self->ndim == 0)
    {
      /* One element, which the one index names. */
      g_autoptr (LtTensor) sum = accumulate ? lt_tensor_binary (self, LT_BINARY_OP_ADD, values,
                                                                error)
                                            : g_object_ref (values);

      return sum != NULL && lt_tensor_copy_from (self, sum, error);
    }
  wide = lt_index_as_offsets (index, self->sizes[d], FALSE, error);
  offsets = wide != NULL ? offsets_along (self, d, wide, index->sizes, error)
                         : NULL;
  return offsets != NULL && lt_index_scatter_storage (self, offsets, values, accumulate, error);
}

/**
 * lt_tensor_scatter_:
 * @self: the #LtTensor to write into
 * @dim: the dim the index points along (negative counts from the end)
 * @index: an int64 tensor with as many dims as @self, no larger than it in
 *   the other dims nor than @src in any
 * @src: the values, of @self's dtype, with as many dims
 * @error: return location for a #GError
 *
 * PyTorch's `scatter_()`: for each element of @index, writes the element of
 * @src at the same coordinates into @self at those coordinates with the one
 * along @dim replaced by the index value: `self[index[i][j]][j] =
 * src[i][j]` for @dim 0. The reverse of lt_tensor_gather().
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_scatter_ (LtTensor *self,
                    int       dim,
                    LtTensor *index,
                    LtTensor *src,
                    GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (src), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return scatter_checked ("scatter_()", self, dim, index, src, FALSE, error);
}

/**
 * lt_tensor_scatter_add_:
 * @self: the #LtTensor to add into
 * @dim: the dim the index points along (negative counts from the end)
 * @index: an int64 tensor with as many dims as @self, no larger than it in
 *   the other dims nor than @src in any
 * @src: the values, of @self's dtype, with as many dims
 * @error: return location for a #GError
 *
 * PyTorch's `scatter_add_()`: lt_tensor_scatter_(), but adding each value
 * to the element it lands on; values that land on one element all add up.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_scatter_add_ (LtTensor *self,
                        int       dim,
                        LtTensor *index,
                        LtTensor *src,
                        GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (src), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return scatter_checked ("scatter_add_()", self, dim, index, src, TRUE, error);
}

/* The index of index_copy_() and index_fill_(), checked, as int64 spread
 * along @dim of @self's dims; NULL with @error set. */
static LtTensor *
index_along (const char *op,
             LtTensor   *self,
             guint       dim,
             LtTensor   *index,
             gboolean    wrap,
             GError    **error)
{
  g_autoptr (LtTensor) wide = NULL;
  gint64 shape[LT_MAX_DIMS];
  gint64 size = self->ndim > 0 ? self->sizes[dim] : 1;

  if (!lt_index_check_dtype (op, index, FALSE, error)
      || !lt_tensor_check_same_device (op, (LtTensor *[]) { self, index }, 2, error)
      || !lt_tensor_check_writable (op, self, error))
    return NULL;
  if (index->ndim > 1)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the index must have at most 1 dim, not %u"), op, index->ndim);
      return NULL;
    }
  if (!lt_index_check_range (op, index, wrap ? -size : 0, size, N_("the dim indexed"), error))
    return NULL;
  wide = lt_index_as_offsets (index, size, wrap, error);
  if (wide == NULL)
    return NULL;
  for (guint k = 0; k < self->ndim; k++)
    shape[k] = k == dim ? index->numel : 1;
  return lt_tensor_view (wide, shape, self->ndim, error);
}

static gboolean
index_copy_checked (const char *op,
                    LtTensor   *self,
                    int         dim,
                    LtTensor   *index,
                    LtTensor   *source,
                    gboolean    accumulate,
                    GError    **error)
{
  g_autoptr (LtTensor) along = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  gint64 sizes[LT_MAX_DIMS];
  guint d;

  if (!lt_tensor_wrap_dim (op, dim, self->ndim, &d, error)
      || !check_same_dtype (op, self, source, error)
      || !lt_tensor_check_same_device (op, (LtTensor *[]) { self, source }, 2, error))
    return FALSE;
  memcpy (sizes, self->sizes, self->ndim * sizeof (gint64));
  if (self->ndim > 0)
    sizes[d] = index->numel;
  if (source->ndim != self->ndim
      || memcmp (source->sizes, sizes, self->ndim * sizeof (gint64)) != 0)
    {
      g_autofree char *want = lt_layout_shape_to_string (self->ndim, sizes);
      g_autofree char *have = lt_layout_shape_to_string (source->ndim, source->sizes);

      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%s: the values must have sizes %s (the tensor's, with one "
                     "entry per index along dim %u), not %s"), op, want, d, have);
      return FALSE;
    }
  along = index_along (op, self, d, index, FALSE, error);
  if (along == NULL)
    return FALSE;
  if (source->numel == 0)
    return TRUE;
  if (self->ndim == 0)
    {
      g_autoptr (LtTensor) sum = accumulate ? lt_tensor_binary (self, LT_BINARY_OP_ADD, source,
                                                                error)
                                            : g_object_ref (source);

      return sum != NULL && lt_tensor_copy_from (self, sum, error);
    }
  offsets = offsets_along (self, d, along, sizes, error);
  return offsets != NULL && lt_index_scatter_storage (self, offsets, source, accumulate, error);
}

/**
 * lt_tensor_index_copy_:
 * @self: the #LtTensor to write into
 * @dim: the dim to index (negative counts from the end)
 * @index: a 1-dim int64 tensor of indices along @dim
 * @source: the values, of @self's dtype and sizes but along @dim, where it
 *   has one entry per index
 * @error: return location for a #GError
 *
 * PyTorch's `index_copy_()`: writes @source's slices along @dim at the
 * indices @index of @self, the reverse of lt_tensor_index_select(). Python's
 * `t[index] = values` is this along dim 0.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_index_copy_ (LtTensor *self,
                       int       dim,
                       LtTensor *index,
                       LtTensor *source,
                       GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return index_copy_checked ("index_copy_()", self, dim, index, source, FALSE, error);
}

/**
 * lt_tensor_index_add_:
 * @self: the #LtTensor to add into
 * @dim: the dim to index (negative counts from the end)
 * @index: a 1-dim int64 tensor of indices along @dim
 * @source: the values, of @self's dtype and sizes but along @dim, where it
 *   has one entry per index
 * @error: return location for a #GError
 *
 * PyTorch's `index_add_()` (with alpha 1): lt_tensor_index_copy_(), but
 * adding @source's slices to those of @self; slices of repeated indices
 * all add up. Python's `index_put_(indices, values, accumulate=True)` is
 * made of this.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_index_add_ (LtTensor *self,
                      int       dim,
                      LtTensor *index,
                      LtTensor *source,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return index_copy_checked ("index_add_()", self, dim, index, source, TRUE, error);
}

/**
 * lt_tensor_index_fill_:
 * @self: the #LtTensor to write into
 * @dim: the dim to index (negative counts from the end)
 * @index: a 1-dim int64 tensor of indices along @dim; negative ones count
 *   from the end
 * @value: a 0-dim tensor, or a wrapped number (lt_tensor_new_scalar_double())
 * @error: return location for a #GError
 *
 * PyTorch's `index_fill_()`: sets the slices of @self along @dim at
 * @index to @value, in @self's dtype.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_index_fill_ (LtTensor *self,
                       int       dim,
                       LtTensor *index,
                       LtTensor *value,
                       GError  **error)
{
  g_autoptr (LtTensor) along = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  g_autoptr (LtTensor) fill = NULL;
  g_autoptr (LtTensor) fill_here = NULL;
  g_autoptr (LtTensor) values = NULL;
  gint64 sizes[LT_MAX_DIMS];
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (value), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!lt_tensor_wrap_dim ("index_fill_()", dim, self->ndim, &d, error))
    return FALSE;
  if (value->ndim != 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("index_fill_(): the value must be a number or a 0-dim tensor, not a tensor "
                     "of %u dims"), value->ndim);
      return FALSE;
    }
  along = index_along ("index_fill_()", self, d, index, TRUE, error);
  if (along == NULL)
    return FALSE;
  memcpy (sizes, self->sizes, self->ndim * sizeof (gint64));
  if (self->ndim > 0)
    sizes[d] = index->numel;
  fill = lt_tensor_to_dtype (value, lt_tensor_get_dtype (self), error);
  fill_here = fill != NULL ? lt_index_on_device_of (fill, self, error) : NULL;
  if (fill_here == NULL)
    return FALSE;
  if (index->numel == 0)
    return TRUE;
  if (self->ndim == 0)
    return lt_tensor_copy_from (self, fill_here, error);
  values = lt_tensor_expand (fill_here, sizes, self->ndim, error);
  offsets = values != NULL ? offsets_along (self, d, along, sizes, error)
                           : NULL;
  return offsets != NULL && lt_index_scatter_storage (self, offsets, values, FALSE, error);
}
