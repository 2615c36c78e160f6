/* lt-tensor-index.c: advanced indexing, PyTorch's copies by index
 *
 * index_select(), gather(), take(), nonzero(), masked_select() and
 * masked_fill(), with PyTorch's semantics: the results are new tensors,
 * never views. Each reads its elements by storage index: the storage
 * indices are computed with element-wise int64 arithmetic on the tensors'
 * device (offset + sum of coordinate * stride, the coordinates broadcast
 * against each other), the index values are checked against the sizes
 * first, and the backend's gather kernel reads them (lt-backend-index.h).
 * Backends without indexing kernels run them on the host.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-pointwise.h"
#include "lt-reduce.h"
#include "lt-index-private.h"
#include "lt-tensor-private.h"

const LtBackend *
lt_index_backend_of (LtTensor *self)
{
  return lt_storage_get_backend (self->storage);
}

gpointer
lt_index_data_of (LtTensor *self)
{
  return lt_tensor_operand (self).data;
}

LtTensor *
lt_index_on_device_of (LtTensor *tensor,
                       LtTensor *like,
                       GError  **error)
{
  g_autoptr (LtDevice) device = lt_tensor_get_device (like);

  return lt_tensor_to_device (tensor, device, error);
}

/* int64 0, 1, ..., @n - 1 along dim @d of @ndim dims (the others of size
 * 1), on @like's device: one coordinate of a broadcast index grid. */
static LtTensor *
coordinates_along (gint64    n,
                   guint     d,
                   guint     ndim,
                   LtTensor *like,
                   GError  **error)
{
  g_autoptr (LtTensor) line = lt_tensor_new_arange (0, (double) n, 1, LT_DTYPE_INT64, error);
  g_autoptr (LtTensor) placed = NULL;
  gint64 shape[LT_MAX_DIMS];

  if (line == NULL)
    return NULL;
  for (guint k = 0; k < ndim; k++)
    shape[k] = k == d ? n : 1;
  placed = lt_tensor_view (line, shape, ndim, error);
  if (placed == NULL)
    return NULL;
  return lt_index_on_device_of (placed, like, error);
}

/* @index as int64 (PyTorch takes int32 indices for some ops), with
 * negative values counted from the end of a dim of @size where @wrap. */
LtTensor *
lt_index_as_offsets (LtTensor *index,
                     gint64    size,
                     gboolean  wrap,
                     GError  **error)
{
  g_autoptr (LtTensor) wide = lt_tensor_to_dtype (index, LT_DTYPE_INT64, error);
  g_autoptr (LtTensor) zero = NULL;
  g_autoptr (LtTensor) negative = NULL;
  g_autoptr (LtTensor) size_value = NULL;
  g_autoptr (LtTensor) shifted = NULL;

  if (wide == NULL || !wrap)
    return g_steal_pointer (&wide);
  zero = lt_tensor_new_scalar_int (0);
  size_value = lt_tensor_new_scalar_int (size);
  negative = lt_tensor_binary (wide, LT_BINARY_OP_LT, zero, error);
  shifted = negative != NULL ? lt_tensor_binary (wide, LT_BINARY_OP_ADD, size_value, error)
                             : NULL;
  if (shifted == NULL)
    return NULL;
  return lt_tensor_where (negative, shifted, wide, error);
}

gboolean
lt_index_check_dtype (const char *op,
                      LtTensor   *index,
                      gboolean    int32_too,
                      GError    **error)
{
  LtDType dtype = lt_tensor_get_dtype (index);

  if (dtype == LT_DTYPE_INT64 || (int32_too && dtype == LT_DTYPE_INT32))
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               int32_too ? _("%s: the index must be an int64 or int32 tensor, not %s")
                         : _("%s: the index must be an int64 tensor, not %s"),
               op, lt_dtype_get_name (dtype));
  return FALSE;
}

/* Checks that every value of @index lies in [@low, @high): the message
 * names the first value outside, as PyTorch's does, and the range (@what,
 * marked with N_()). */
gboolean
lt_index_check_range (const char *op,
                      LtTensor   *index,
                      gint64      low,
                      gint64      high,
                      const char *what,
                      GError    **error)
{
  g_autoptr (LtTensor) smallest = NULL;
  g_autoptr (LtTensor) largest = NULL;
  gint64 min_value, max_value, bad;

  if (index->numel == 0)
    return TRUE;
  smallest = lt_tensor_amin (index, NULL, 0, FALSE, error);
  largest = smallest != NULL ? lt_tensor_amax (index, NULL, 0, FALSE, error) : NULL;
  if (largest == NULL
      || !lt_tensor_get_int64 (smallest, NULL, 0, &min_value, error)
      || !lt_tensor_get_int64 (largest, NULL, 0, &max_value, error))
    return FALSE;
  if (min_value >= low && max_value < high)
    return TRUE;
  bad = min_value < low ? min_value : max_value;
  g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
               _("%s: index %" PRId64 " is out of range for %s (expected %"
                 PRId64 " to %" PRId64 ")"),
               op, bad, _(what), low, high - 1);
  return FALSE;
}

/* The storage index of each element @coordinates pick of @self:
 * storage_offset + sum over d of coordinates[d] * strides[d], the
 * coordinates (int64, on @self's device) broadcast against each other and
 * to the result's @sizes (a 0-dim @self has no coordinates: every element
 * is its one element), as a contiguous tensor on @self's device. */
LtTensor *
lt_index_storage_offsets (LtTensor      *self,
                          LtTensor     **coordinates,
                          const gint64  *sizes,
                          guint          ndim,
                          GError       **error)
{
  g_autoptr (LtTensor) total = lt_tensor_new_scalar_int (self->storage_offset);
  g_autoptr (LtTensor) spread = NULL;
  g_autoptr (LtTensor) dense = NULL;

  for (guint d = 0; d < self->ndim; d++)
    {
      g_autoptr (LtTensor) stride = lt_tensor_new_scalar_int (self->strides[d]);
      g_autoptr (LtTensor) step = lt_tensor_binary (coordinates[d], LT_BINARY_OP_MUL, stride,
                                                    error);
      LtTensor *sum;

      if (step == NULL)
        return NULL;
      sum = lt_tensor_binary (total, LT_BINARY_OP_ADD, step, error);
      if (sum == NULL)
        return NULL;
      g_object_unref (total);
      total = sum;
    }
  spread = lt_tensor_expand (total, sizes, ndim, error);
  dense = spread != NULL ? lt_tensor_contiguous (spread, error) : NULL;
  if (dense == NULL)
    return NULL;
  return lt_index_on_device_of (dense, self, error);
}

/* A 1-dim view of the whole of @self's storage, for the kernels, which
 * address it by storage index. */
LtTensor *
lt_index_whole_storage (LtTensor *self)
{
  gint64 n = lt_storage_get_n_elements (self->storage);

  return lt_tensor_new_view (self->storage, 1, &n, (gint64[]) { 1 }, 0);
}

/* The elements of @self's storage at @offsets (valid storage indices), in a
 * new contiguous tensor of @offsets' sizes on @self's device. */
LtTensor *
lt_index_gather_storage (const char *op,
                         LtTensor   *self,
                         LtTensor   *offsets,
                         GError    **error)
{
  const LtBackend *backend = lt_index_backend_of (self);
  LtDType dtype = lt_tensor_get_dtype (self);
  g_autoptr (LtTensor) dense = NULL;
  g_autoptr (LtTensor) result = NULL;

  if (backend->index == NULL)
    {
      /* On the host: the whole storage and the offsets there, the result
       * back on the device. */
      g_autoptr (LtTensor) whole = lt_index_whole_storage (self);
      g_autoptr (LtTensor) whole_here = lt_tensor_to_cpu (whole, error);
      g_autoptr (LtTensor) offsets_here = whole_here != NULL ? lt_tensor_to_cpu (offsets, error)
                                                             : NULL;
      g_autoptr (LtTensor) result_here = NULL;

      if (offsets_here == NULL)
        return NULL;
      result_here = lt_index_gather_storage (op, whole_here, offsets_here, error);
      if (result_here == NULL)
        return NULL;
      return lt_index_on_device_of (result_here, self, error);
    }

  dense = lt_tensor_contiguous (offsets, error);
  if (dense == NULL)
    return NULL;
  result = lt_tensor_new_contiguous_on (backend, op, dtype, offsets->ndim, offsets->sizes, error);
  if (result == NULL || !backend->synchronize (backend, error))
    return NULL;
  backend->index->gather (lt_index_data_of (result), lt_storage_get_data (self->storage),
                          lt_dtype_get_element_size (dtype), lt_index_data_of (dense), dense->numel);
  return g_steal_pointer (&result);
}

/* The whole grid of @sizes over @self (one coordinate tensor per dim), with
 * coordinate @replaced_dim (when < ndim) taken from @replacement. */
gboolean
lt_index_grid (LtTensor     *self,
               const gint64 *sizes,
               guint         replaced_dim,
               LtTensor     *replacement,
               LtTensor    **coordinates,
               GError      **error)
{
  for (guint d = 0; d < self->ndim; d++)
    {
      coordinates[d] = d == replaced_dim ? g_object_ref (replacement)
                                         : coordinates_along (sizes[d], d, self->ndim, self,
                                                              error);
      if (coordinates[d] == NULL)
        return FALSE;
    }
  return TRUE;
}

void
lt_index_clear_grid (LtTensor **coordinates,
                     guint      ndim)
{
  for (guint d = 0; d < ndim; d++)
    g_clear_object (&coordinates[d]);
}

/**
 * lt_tensor_index_select:
 * @self: an #LtTensor
 * @dim: the dim to index (negative counts from the end)
 * @index: an int64 or int32 tensor of at most 1 dim: the indices to take
 * @error: return location for a #GError
 *
 * PyTorch's `index_select()`: a new tensor with the elements of @self at
 * indices @index along @dim, in the order given, repeats allowed:
 * `index_select(0, tensor([2, 0]))` of a matrix is its rows 2 and 0.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_index_select (LtTensor *self,
                        int       dim,
                        LtTensor *index,
                        GError  **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  g_autoptr (LtTensor) wide = NULL;
  g_autoptr (LtTensor) along = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  LtTensor *result = NULL;
  gint64 sizes[LT_MAX_DIMS];
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (index), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_wrap_dim ("index_select()", dim, self->ndim, &d, error)
      || !lt_index_check_dtype ("index_select()", index, TRUE, error)
      || !lt_tensor_check_same_device ("index_select()", (LtTensor *[]) { self, index }, 2,
                                       error))
    return NULL;
  if (index->ndim > 1)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("index_select(): the index must have at most 1 dim, not %u"), index->ndim);
      return NULL;
    }
  if (!lt_index_check_range ("index_select()", index, 0, self->ndim > 0 ? self->sizes[d] : 1,
                          N_("the dim indexed"), error))
    return NULL;

  if (self->ndim == 0)
    {
      /* As in PyTorch, a 0-dim tensor stays one, whatever indices of 0. */
      return lt_tensor_clone (self, error);
    }

  memcpy (sizes, self->sizes, self->ndim * sizeof (gint64));
  sizes[d] = index->numel;
  wide = lt_index_as_offsets (index, self->sizes[d], FALSE, error);
  if (wide == NULL)
    return NULL;
  {
    gint64 shape[LT_MAX_DIMS];

    for (guint k = 0; k < self->ndim; k++)
      shape[k] = k == d ? index->numel : 1;
    along = lt_tensor_view (wide, shape, self->ndim, error);
  }
  if (along != NULL && lt_index_grid (self, sizes, d, along, coordinates, error))
    {
      offsets = lt_index_storage_offsets (self, coordinates, sizes, self->ndim, error);
      if (offsets != NULL)
        result = lt_index_gather_storage ("index_select()", self, offsets, error);
    }
  lt_index_clear_grid (coordinates, self->ndim);
  if (result != NULL)
    lt_tensor_set_names_internal (result, (const char *const *) self->names);
  return result;
}

/**
 * lt_tensor_gather:
 * @self: an #LtTensor
 * @dim: the dim to index (negative counts from the end)
 * @index: an int64 tensor with as many dims as @self, no larger than it in
 *   the other dims
 * @error: return location for a #GError
 *
 * PyTorch's `gather()`: a new tensor of @index's sizes whose element at
 * (i, j, ...) is @self's element at those coordinates with the one along
 * @dim replaced by @index's value there: `out[i][j] = self[index[i][j]][j]`
 * for @dim 0.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_gather (LtTensor *self,
                  int       dim,
                  LtTensor *index,
                  GError  **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  g_autoptr (LtTensor) wide = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  LtTensor *result = NULL;
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (index), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_wrap_dim ("gather()", dim, self->ndim, &d, error)
      || !lt_index_check_dtype ("gather()", index, FALSE, error)
      || !lt_tensor_check_same_device ("gather()", (LtTensor *[]) { self, index }, 2, error))
    return NULL;
  if (index->ndim != self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("gather(): the index must have as many dims as the tensor, %u, not %u"),
                   self->ndim, index->ndim);
      return NULL;
    }
  for (guint k = 0; k < self->ndim; k++)
    if (k != d && index->sizes[k] > self->sizes[k])
      {
        g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                     _("gather(): the index has size %" PRId64 " in dim %u, larger "
                       "than the tensor's %" PRId64 "; only dim %u may be larger"),
                     index->sizes[k], k, self->sizes[k], d);
        return NULL;
      }
  if (!lt_index_check_range ("gather()", index, 0, self->ndim > 0 ? self->sizes[d] : 1,
                          N_("the dim gathered along"), error))
    return NULL;
  if (self->ndim == 0)
    return lt_tensor_clone (self, error);

  wide = lt_index_as_offsets (index, self->sizes[d], FALSE, error);
  if (wide != NULL && lt_index_grid (self, index->sizes, d, wide, coordinates, error))
    {
      offsets = lt_index_storage_offsets (self, coordinates, index->sizes, index->ndim, error);
      if (offsets != NULL)
        result = lt_index_gather_storage ("gather()", self, offsets, error);
    }
  lt_index_clear_grid (coordinates, self->ndim);
  return result;
}

/* The coordinates in a tensor of @sizes of the elements at row-major
 * positions @positions (int64, on @like's device). */
static gboolean
unravel (LtTensor     *positions,
         guint         ndim,
         const gint64 *sizes,
         LtTensor     *like,
         LtTensor    **coordinates,
         GError      **error)
{
  gint64 stride = 1;

  for (guint d = ndim; d-- > 0;)
    {
      g_autoptr (LtTensor) step = lt_tensor_new_scalar_int (stride);
      g_autoptr (LtTensor) size = lt_tensor_new_scalar_int (MAX (sizes[d], 1));
      g_autoptr (LtTensor) row = lt_tensor_binary (positions, LT_BINARY_OP_FLOOR_DIVIDE, step,
                                                   error);

      coordinates[d] = row != NULL ? lt_tensor_binary (row, LT_BINARY_OP_REMAINDER, size, error)
                                   : NULL;
      if (coordinates[d] == NULL)
        return FALSE;
      stride *= MAX (sizes[d], 1);
    }
  return TRUE;
}

/**
 * lt_tensor_take:
 * @self: an #LtTensor
 * @index: an int64 tensor of positions in @self read in row-major order;
 *   negative ones count from the end
 * @error: return location for a #GError
 *
 * PyTorch's `take()`: a new tensor of @index's sizes holding the elements
 * of @self at those row-major positions, as if @self were flat.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_take (LtTensor *self,
                LtTensor *index,
                GError  **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  g_autoptr (LtTensor) positions = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (index), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_index_check_dtype ("take()", index, FALSE, error)
      || !lt_tensor_check_same_device ("take()", (LtTensor *[]) { self, index }, 2, error)
      || !lt_index_check_range ("take()", index, -self->numel, self->numel,
                             N_("the tensor's elements"), error))
    return NULL;

  positions = lt_index_as_offsets (index, self->numel, TRUE, error);
  if (positions != NULL && unravel (positions, self->ndim, self->sizes, self, coordinates,
                                    error))
    {
      offsets = lt_index_storage_offsets (self, coordinates, index->sizes, index->ndim, error);
      if (offsets != NULL)
        result = lt_index_gather_storage ("take()", self, offsets, error);
    }
  lt_index_clear_grid (coordinates, self->ndim);
  return result;
}

/* The row-major positions of the nonzero elements of @self, an int64
 * vector on the host. */
static LtTensor *
nonzero_positions (LtTensor *self,
                   GError  **error)
{
  g_autoptr (LtTensor) zero = lt_tensor_new_scalar_int (0);
  g_autoptr (LtTensor) set = lt_tensor_binary (self, LT_BINARY_OP_NE, zero, error);
  g_autoptr (LtTensor) set_here = set != NULL ? lt_tensor_to_cpu (set, error) : NULL;
  g_autoptr (LtTensor) dense = set_here != NULL ? lt_tensor_contiguous (set_here, error) : NULL;
  g_autoptr (LtTensor) positions = NULL;
  gint64 count;

  if (dense == NULL)
    return NULL;
  positions = lt_tensor_new_contiguous ("nonzero()", LT_DTYPE_INT64, 1, &dense->numel, error);
  if (positions == NULL)
    return NULL;
  count = lt_index_backend_of (positions)->index->compact (lt_index_data_of (dense), dense->numel,
                                                  lt_index_data_of (positions));
  return lt_tensor_narrow (positions, 0, 0, count, error);
}

/**
 * lt_tensor_nonzero:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * PyTorch's `nonzero()`: the coordinates of @self's nonzero elements, in
 * row-major order, as an int64 tensor of (count, dims).
 *
 * Returns: (transfer full): the coordinates, or %NULL with @error set
 */
LtTensor *
lt_tensor_nonzero (LtTensor *self,
                   GError  **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  g_autoptr (LtTensor) positions = NULL;
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  positions = nonzero_positions (self, error);
  if (positions == NULL)
    return NULL;
  if (self->ndim == 0)
    {
      /* No coordinates to give: (count, 0), laid out as PyTorch's. */
      g_autoptr (LtTensor) none = lt_tensor_new_zeros (LT_DTYPE_INT64, (gint64[]) { 0 }, 1,
                                                       error);
      g_autoptr (LtTensor) none_here = none != NULL ? lt_index_on_device_of (none, self, error) : NULL;

      if (none_here == NULL)
        return NULL;
      return lt_tensor_as_strided (none_here, (gint64[]) { positions->numel, 0 }, 2,
                                   (gint64[]) { 1, positions->numel }, 2, 0, error);
    }
  if (unravel (positions, self->ndim, self->sizes, positions, coordinates, error))
    {
      /* One coordinate vector after the other, seen as (count, dims), as
       * PyTorch lays its result out. */
      g_autoptr (LtTensor) rows = lt_stack (coordinates, self->ndim, 0, error);
      g_autoptr (LtTensor) rows_here = rows != NULL ? lt_index_on_device_of (rows, self, error) : NULL;

      /* (count, dims) with strides (1, count), as PyTorch's, empty or not. */
      if (rows_here != NULL)
        result = lt_tensor_as_strided (rows_here, (gint64[]) { positions->numel, self->ndim }, 2,
                                       (gint64[]) { 1, positions->numel }, 2, 0, error);
    }
  lt_index_clear_grid (coordinates, self->ndim);
  return result;
}

static gboolean
check_mask (const char *op,
            LtTensor   *mask,
            GError    **error)
{
  if (lt_tensor_get_dtype (mask) == LT_DTYPE_BOOL)
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("%s: the mask must be a bool tensor, not %s; compare to make one (t > 0)"), op,
               lt_dtype_get_name (lt_tensor_get_dtype (mask)));
  return FALSE;
}

/**
 * lt_tensor_masked_select:
 * @self: an #LtTensor
 * @mask: a bool tensor that broadcasts with @self
 * @error: return location for a #GError
 *
 * PyTorch's `masked_select()`: a new vector of the elements of @self (both
 * broadcast) where @mask is true, in row-major order. `t[t > 0]` in Python.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_masked_select (LtTensor *self,
                         LtTensor *mask,
                         GError  **error)
{
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  g_autoptr (LtTensor) spread_self = NULL;
  g_autoptr (LtTensor) spread_mask = NULL;
  g_autoptr (LtTensor) positions = NULL;
  g_autoptr (LtTensor) positions_here = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  LtTensor *result = NULL;
  gint64 sizes[LT_MAX_DIMS];
  guint ndim, bad_dim;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (mask), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_mask ("masked_select()", mask, error)
      || !lt_tensor_check_same_device ("masked_select()", (LtTensor *[]) { self, mask }, 2,
                                       error))
    return NULL;
  if (!lt_layout_broadcast_shapes (self->ndim, self->sizes, mask->ndim, mask->sizes, &ndim,
                                   sizes, &bad_dim))
    {
      g_autofree char *a = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_autofree char *b = lt_layout_shape_to_string (mask->ndim, mask->sizes);

      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("masked_select(): the tensor's sizes %s and the mask's %s do not broadcast"),
                   a, b);
      return NULL;
    }
  spread_self = lt_tensor_broadcast_to (self, sizes, ndim, error);
  spread_mask = spread_self != NULL ? lt_tensor_broadcast_to (mask, sizes, ndim, error) : NULL;
  positions_here = spread_mask != NULL ? nonzero_positions (spread_mask, error) : NULL;
  positions = positions_here != NULL ? lt_index_on_device_of (positions_here, self, error) : NULL;
  if (positions == NULL)
    return NULL;
  if (unravel (positions, ndim, sizes, self, coordinates, error))
    {
      offsets = lt_index_storage_offsets (spread_self, coordinates, positions->sizes, 1, error);
      if (offsets != NULL)
        result = lt_index_gather_storage ("masked_select()", self, offsets, error);
    }
  lt_index_clear_grid (coordinates, ndim);
  return result;
}

static LtTensor *
masked_filled (const char *op,
               LtTensor   *self,
               LtTensor   *mask,
               LtTensor   *value,
               GError    **error)
{
  g_autoptr (LtTensor) fill = NULL;

  if (!check_mask (op, mask, error))
    return NULL;
  if (value->ndim != 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   g_dngettext (lt_gettext_domain (),
                                "%s: the value must be a number or a 0-dim tensor, not a tensor "
                                "of %u dim",
                                "%s: the value must be a number or a 0-dim tensor, not a tensor "
                                "of %u dims",
                                value->ndim),
                   op, value->ndim);
      return NULL;
    }
  /* In @self's dtype, as PyTorch fills, and on its device. */
  fill = lt_tensor_to_dtype (value, lt_tensor_get_dtype (self), error);
  if (fill == NULL)
    return NULL;
  if (!lt_tensor_is_wrapped_number (value))
    {
      if (!lt_tensor_check_same_device (op, (LtTensor *[]) { self, value }, 2, error))
        return NULL;
    }
  else
    {
      LtTensor *placed = lt_index_on_device_of (fill, self, error);

      if (placed == NULL)
        return NULL;
      g_object_unref (fill);
      fill = placed;
    }
  return lt_tensor_where (mask, fill, self, error);
}

/**
 * lt_tensor_masked_fill:
 * @self: an #LtTensor
 * @mask: a bool tensor that broadcasts with @self
 * @value: a 0-dim tensor, or a wrapped number (lt_tensor_new_scalar_double())
 * @error: return location for a #GError
 *
 * PyTorch's `masked_fill()`: a copy of @self (broadcast with @mask) with
 * @value, in @self's dtype, where @mask is true.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_masked_fill (LtTensor *self,
                       LtTensor *mask,
                       LtTensor *value,
                       GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (mask), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (value), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return masked_filled ("masked_fill()", self, mask, value, error);
}

/**
 * lt_tensor_masked_fill_:
 * @self: the #LtTensor to write into
 * @mask: a bool tensor that broadcasts to @self's sizes
 * @value: a 0-dim tensor, or a wrapped number (lt_tensor_new_scalar_double())
 * @error: return location for a #GError
 *
 * In place lt_tensor_masked_fill(): writes @value where @mask is true.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_masked_fill_ (LtTensor *self,
                        LtTensor *mask,
                        LtTensor *value,
                        GError  **error)
{
  g_autoptr (LtTensor) filled = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (mask), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (value), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  filled = masked_filled ("masked_fill_()", self, mask, value, error);
  if (filled == NULL)
    return FALSE;
  if (filled->ndim != self->ndim
      || memcmp (filled->sizes, self->sizes, self->ndim * sizeof (gint64)) != 0)
    {
      g_autofree char *a = lt_layout_shape_to_string (mask->ndim, mask->sizes);
      g_autofree char *b = lt_layout_shape_to_string (self->ndim, self->sizes);

      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("masked_fill_(): the mask's sizes %s do not broadcast to the tensor's %s"),
                   a, b);
      return FALSE;
    }
  return lt_tensor_copy_from (self, filled, error);
}
