/* lt-tensor-views.c: every view operation, as pure metadata arithmetic
 *
 * Each operation copies the tensor's metadata into a ViewMeta, transforms it
 * (checking its arguments as PyTorch does) and makes one new tensor over the
 * same storage. Index expressions chain several transformations and still
 * create a single object.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-index-expr.h"
#include "lt-layout.h"
#include "lt-tensor-private.h"

typedef struct
{
  guint ndim;
  gint64 offset;
  gint64 sizes[LT_MAX_DIMS];
  gint64 strides[LT_MAX_DIMS];
  /* The dim names move with their dims; a new dim has none. */
  gboolean named;
  const char *names[LT_MAX_DIMS];
} ViewMeta;

static void
meta_init (ViewMeta *meta,
           LtTensor *self)
{
  meta->ndim = self->ndim;
  meta->offset = self->storage_offset;
  memcpy (meta->sizes, self->sizes, self->ndim * sizeof (gint64));
  memcpy (meta->strides, self->strides, self->ndim * sizeof (gint64));
  meta->named = self->names != NULL;
  if (meta->named)
    memcpy (meta->names, self->names, self->ndim * sizeof (char *));
}

static LtTensor *
meta_to_view (const ViewMeta *meta,
              LtStorage      *storage)
{
  gint64 offset = meta->offset;
  gint64 numel;

  /* A view without elements reads nothing, so its offset is free; but where
   * an empty slice of a negative stride "would start" can lie before the
   * storage, and storage offsets are never negative (as_strided() refuses
   * them), so such a view starts at 0 instead. */
  if (offset < 0 && lt_layout_numel (meta->ndim, meta->sizes, &numel) && numel == 0)
    offset = 0;

  {
    LtTensor *view = lt_tensor_new_view (storage, meta->ndim, meta->sizes, meta->strides, offset);

    if (meta->named)
      lt_tensor_set_names_internal (view, meta->names);
    return view;
  }
}

static void
meta_remove_dim (ViewMeta *meta,
                 guint     dim)
{
  memmove (meta->sizes + dim, meta->sizes + dim + 1, (meta->ndim - dim - 1) * sizeof (gint64));
  memmove (meta->strides + dim, meta->strides + dim + 1,
           (meta->ndim - dim - 1) * sizeof (gint64));
  if (meta->named)
    memmove (meta->names + dim, meta->names + dim + 1, (meta->ndim - dim - 1) * sizeof (char *));
  meta->ndim--;
}

static void
meta_insert_dim (ViewMeta *meta,
                 guint     dim,
                 gint64    size,
                 gint64    stride)
{
  memmove (meta->sizes + dim + 1, meta->sizes + dim, (meta->ndim - dim) * sizeof (gint64));
  memmove (meta->strides + dim + 1, meta->strides + dim, (meta->ndim - dim) * sizeof (gint64));
  if (meta->named)
    {
      memmove (meta->names + dim + 1, meta->names + dim, (meta->ndim - dim) * sizeof (char *));
      meta->names[dim] = NULL;
    }
  meta->sizes[dim] = size;
  meta->strides[dim] = stride;
  meta->ndim++;
}

/* offset += index * stride, refusing overflow. Only views without elements
 * can get here with values that overflow: for any other view the product
 * lies inside the storage. */
static gboolean
meta_shift (ViewMeta   *meta,
            const char *op,
            gint64      index,
            gint64      stride,
            GError    **error)
{
  gint64 delta;

  if (__builtin_mul_overflow (index, stride, &delta)
      || __builtin_add_overflow (meta->offset, delta, &meta->offset))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the storage offset of the result does not fit in 64 bits"), op);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_dim_room (const char *op,
                guint       ndim,
                GError    **error)
{
  if (ndim >= LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the result would have more than %d dims"), op, LT_MAX_DIMS);
      return FALSE;
    }
  return TRUE;
}

static gboolean
meta_select (ViewMeta *meta,
             int       dim,
             gint64    index,
             GError  **error)
{
  guint d;
  gint64 size;

  if (meta->ndim == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                           _("select(): cannot index a 0-dim tensor; it has no dims to select "
                             "from"));
      return FALSE;
    }
  if (!lt_tensor_wrap_dim ("select()", dim, meta->ndim, &d, error))
    return FALSE;

  size = meta->sizes[d];
  if (index < -size || index >= size)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("select(): index %" PRId64 " is out of range for dim %u of size %"
                     PRId64 " (expected an index from %" PRId64 " to %"
                     PRId64 ")"),
                   index, d, size, -size, size - 1);
      return FALSE;
    }
  if (index < 0)
    index += size;

  if (!meta_shift (meta, "select()", index, meta->strides[d], error))
    return FALSE;
  meta_remove_dim (meta, d);
  return TRUE;
}

/* Python's slice.indices(): clamps @value into the range a slice with a step
 * of this sign may start or stop at. */
static gint64
clamp_slice_bound (gint64 value,
                   gint64 size,
                   gint64 step)
{
  gint64 lower = step > 0 ? 0 : -1;
  gint64 upper = step > 0 ? size : size - 1;

  if (value < 0)
    value = value < -size ? lower : value + size;
  if (value < lower)
    value = lower;
  else if (value > upper)
    value = upper;
  return value;
}

static gboolean
meta_slice (ViewMeta   *meta,
            int         dim,
            gboolean    has_start,
            gint64      start,
            gboolean    has_stop,
            gint64      stop,
            gint64      step,
            GError    **error)
{
  guint d;
  gint64 size, length, new_stride;

  if (meta->ndim == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                           _("slice(): cannot slice a 0-dim tensor; it has no dims"));
      return FALSE;
    }
  if (!lt_tensor_wrap_dim ("slice()", dim, meta->ndim, &d, error))
    return FALSE;
  if (step == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("slice(): the step is zero; use a positive step, or a negative one to "
                             "walk backwards"));
      return FALSE;
    }

  size = meta->sizes[d];
  if (step == G_MININT64)
    step = -G_MAXINT64;

  start = has_start ? clamp_slice_bound (start, size, step) : (step > 0 ? 0 : size - 1);
  stop = has_stop ? clamp_slice_bound (stop, size, step) : (step > 0 ? size : -1);

  if (step > 0)
    length = start < stop ? (stop - start - 1) / step + 1 : 0;
  else
    length = stop < start ? (start - stop - 1) / -step + 1 : 0;

  if (__builtin_mul_overflow (meta->strides[d], step, &new_stride))
    {
      if (length > 1)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                       _("slice(): step %" PRId64 " times stride %" PRId64
                         " does not fit in 64 bits"),
                       step, meta->strides[d]);
          return FALSE;
        }
      /* With at most one element the stride is never used. */
      new_stride = meta->strides[d];
    }

  /* An empty slice keeps a valid offset: where it would have started. */
  if (!meta_shift (meta, "slice()", MAX (start, 0), meta->strides[d], error))
    return FALSE;
  meta->sizes[d] = length;
  meta->strides[d] = new_stride;
  return TRUE;
}

static gboolean
meta_unsqueeze (ViewMeta *meta,
                int       dim,
                GError  **error)
{
  guint d;

  if (meta->named)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                   _("unsqueeze() does not take named tensors (as in PyTorch); drop the names "
                     "with rename() first, or add a dim with align_to()"));
      return FALSE;
    }
  if (!check_dim_room ("unsqueeze()", meta->ndim, error))
    return FALSE;
  if (!lt_tensor_wrap_dim ("unsqueeze()", dim, meta->ndim + 1, &d, error))
    return FALSE;

  {
    gint64 stride = 1;

    /* The new dim has size 1, so its stride is never used. The product only
     * overflows in a tensor without elements (where no stride is used); it
     * then wraps around, as PyTorch's int64 arithmetic does. */
    if (d < meta->ndim)
      (void) __builtin_mul_overflow (meta->sizes[d], meta->strides[d], &stride);
    meta_insert_dim (meta, d, 1, stride);
  }
  return TRUE;
}

/* Applies the parsed items of an index expression, as PyTorch's basic
 * indexing does. */
static gboolean
meta_index_items (ViewMeta     *meta,
                  const char   *expression,
                  const GArray *items,
                  GError      **error)
{
  guint consuming = 0;
  guint d = 0;

  for (guint i = 0; i < items->len; i++)
    {
      LtIndexItemKind kind = g_array_index (items, LtIndexItem, i).kind;
      consuming += kind == LT_INDEX_ITEM_INTEGER || kind == LT_INDEX_ITEM_SLICE;
    }

  if (consuming > meta->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   g_dngettext (lt_gettext_domain (),
                                "index expression '%s' has %u indices, too many for a tensor "
                                "with %u dim",
                                "index expression '%s' has %u indices, too many for a tensor "
                                "with %u dims",
                                meta->ndim),
                   expression, consuming, meta->ndim);
      return FALSE;
    }

  for (guint i = 0; i < items->len; i++)
    {
      const LtIndexItem *item = &g_array_index (items, LtIndexItem, i);
      gboolean ok = TRUE;

      switch (item->kind)
        {
        case LT_INDEX_ITEM_INTEGER:
          ok = meta_select (meta, (int) d, item->index, error);
          break;
        case LT_INDEX_ITEM_SLICE:
          ok = meta_slice (meta, (int) d, item->has_start, item->start, item->has_stop,
                           item->stop, item->step, error);
          d++;
          break;
        case LT_INDEX_ITEM_NONE:
          ok = meta_unsqueeze (meta, (int) d, error);
          d++;
          break;
        case LT_INDEX_ITEM_ELLIPSIS:
          /* Skip to the dims the remaining integers and slices consume. */
          d = meta->ndim - consuming;
          break;
        case LT_INDEX_ITEM_NAME:
        default:
          g_assert_not_reached ();
        }

      if (item->kind == LT_INDEX_ITEM_INTEGER || item->kind == LT_INDEX_ITEM_SLICE)
        consuming--;

      if (!ok)
        {
          g_prefix_error (error, _("index expression '%s', item at column %u: "), expression,
                          item->column);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
meta_index (ViewMeta    *meta,
            const char  *expression,
            GError     **error)
{
  g_autoptr (GArray) items = lt_index_expr_parse (expression, error);

  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->len; i++)
    {
      const LtIndexItem *item = &g_array_index (items, LtIndexItem, i);

      if (item->kind == LT_INDEX_ITEM_NAME)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
                       _("index expression '%s', item at column %u: '%.*s' names a tensor, "
                         "which only lt_tensor_index_with_tensors() can index with"),
                       expression, item->column, (int) item->name_length, item->name);
          return FALSE;
        }
    }
  return meta_index_items (meta, expression, items, error);
}

/* The view the basic items (no names) of @expression make of @self. */
LtTensor *
lt_tensor_index_items (LtTensor     *self,
                       const char   *expression,
                       const GArray *items,
                       GError      **error)
{
  ViewMeta meta;

  meta_init (&meta, self);
  if (!meta_index_items (&meta, expression, items, error))
    return NULL;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_alias:
 * @self: an #LtTensor
 *
 * A new tensor object with the same metadata over the same storage.
 *
 * Returns: (transfer full): the view
 */
LtTensor *
lt_tensor_alias (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  {
    LtTensor *view = lt_tensor_new_view (self->storage, self->ndim, self->sizes, self->strides,
                                         self->storage_offset);

    lt_tensor_set_names_internal (view, self->names);
    return view;
  }
}

/**
 * lt_tensor_select:
 * @self: an #LtTensor
 * @dim: the dim to index (negative counts from the end)
 * @index: the index in @dim (negative counts from the end)
 * @error: return location for a #GError
 *
 * The view `self[..., index, ...]` with @dim removed, like PyTorch's
 * `select()`. `points[1]` of a (3, 2) tensor has size (2,), stride (1,) and
 * storage offset 2.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_select (LtTensor *self,
                  int       dim,
                  gint64    index,
                  GError  **error)
{
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  meta_init (&meta, self);
  if (!meta_select (&meta, dim, index, error))
    return NULL;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_slice:
 * @self: an #LtTensor
 * @dim: the dim to slice (negative counts from the end)
 * @start: the first index, clamped as Python clamps slice bounds; negative
 *   counts from the end
 * @stop: the index to stop before, clamped the same way
 * @step: the distance between taken indices; negative walks backwards
 * @error: return location for a #GError
 *
 * The view `self[..., start:stop:step, ...]`. Pass %G_MAXINT64 as @stop (or,
 * with a negative step, %G_MININT64) to slice to the end, as an omitted bound
 * does in Python. Unlike PyTorch, and like NumPy, a negative step is allowed
 * and gives a negative stride.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_slice (LtTensor *self,
                 int       dim,
                 gint64    start,
                 gint64    stop,
                 gint64    step,
                 GError  **error)
{
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  meta_init (&meta, self);
  if (!meta_slice (&meta, dim, TRUE, start, TRUE, stop, step, error))
    return NULL;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_narrow:
 * @self: an #LtTensor
 * @dim: the dim to narrow (negative counts from the end)
 * @start: the first index (negative counts from the end)
 * @length: the number of indices to keep
 * @error: return location for a #GError
 *
 * The view `self[..., start:start + length, ...]`. Unlike lt_tensor_slice(),
 * nothing is clamped: the range must lie inside the dim.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_narrow (LtTensor *self,
                  int       dim,
                  gint64    start,
                  gint64    length,
                  GError  **error)
{
  ViewMeta meta;
  guint d;
  gint64 size;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ndim == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                           _("narrow(): cannot narrow a 0-dim tensor; it has no dims"));
      return NULL;
    }
  if (!lt_tensor_wrap_dim ("narrow()", dim, self->ndim, &d, error))
    return NULL;
  if (length < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("narrow(): length %" PRId64 " is negative; it must be >= 0"), length);
      return NULL;
    }

  size = self->sizes[d];
  /* start == size is a valid empty range at the end. */
  if (start != size)
    {
      gint64 range = MAX (size, 1);

      if (start < -range || start >= range)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                       _("narrow(): start %" PRId64 " is out of range for dim %u of size %"
                         PRId64),
                       start, d, size);
          return NULL;
        }
      if (start < 0)
        start += range;
    }
  if (start > size - length)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("narrow(): start %" PRId64 " plus length %" PRId64
                     " exceeds the size %" PRId64 " of dim %u"),
                   start, length, size, d);
      return NULL;
    }

  meta_init (&meta, self);
  if (!meta_shift (&meta, "narrow()", start, meta.strides[d], error))
    return NULL;
  meta.sizes[d] = length;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_index:
 * @self: an #LtTensor
 * @expression: a Python index such as `[1:, 0]`, `[None]`, `[..., :2]` or
 *   `[::-1]`; the brackets are optional
 * @error: return location for a #GError
 *
 * Applies a basic-indexing expression as Python applies it to a PyTorch
 * tensor: integers select (and remove) a dim, slices `start:stop:step` keep
 * it, `None` inserts a dim of size 1 and `...` stands for all the dims not
 * otherwise indexed. The result is a view. Syntax errors name the column.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_index (LtTensor   *self,
                 const char *expression,
                 GError    **error)
{
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  meta_init (&meta, self);
  if (!meta_index (&meta, expression, error))
    return NULL;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_unsqueeze:
 * @self: an #LtTensor
 * @dim: where the new dim goes, from -(dim + 1) to dim
 * @error: return location for a #GError
 *
 * The view with a new dim of size 1 inserted at @dim.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_unsqueeze (LtTensor *self,
                     int       dim,
                     GError  **error)
{
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  meta_init (&meta, self);
  if (!meta_unsqueeze (&meta, dim, error))
    return NULL;
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_squeeze:
 * @self: an #LtTensor
 *
 * The view with every dim of size 1 removed.
 *
 * Returns: (transfer full): the view
 */
LtTensor *
lt_tensor_squeeze (LtTensor *self)
{
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  meta_init (&meta, self);
  for (guint d = meta.ndim; d-- > 0;)
    if (meta.sizes[d] == 1)
      meta_remove_dim (&meta, d);
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_squeeze_dim:
 * @self: an #LtTensor
 * @dim: the dim to remove if its size is 1 (negative counts from the end)
 * @error: return location for a #GError
 *
 * The view with @dim removed when its size is 1, otherwise the same view.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_squeeze_dim (LtTensor *self,
                       int       dim,
                       GError  **error)
{
  ViewMeta meta;
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_wrap_dim ("squeeze()", dim, self->ndim, &d, error))
    return NULL;

  meta_init (&meta, self);
  if (meta.ndim > 0 && meta.sizes[d] == 1)
    meta_remove_dim (&meta, d);
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_transpose:
 * @self: an #LtTensor
 * @dim0: the first dim (negative counts from the end)
 * @dim1: the second dim
 * @error: return location for a #GError
 *
 * The view with @dim0 and @dim1 swapped: their sizes and strides trade
 * places. `ones(3, 4, 5).transpose(0, 2)` has sizes (5, 4, 3) and strides
 * (1, 5, 20). No data is copied.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_transpose (LtTensor *self,
                     int       dim0,
                     int       dim1,
                     GError  **error)
{
  ViewMeta meta;
  guint d0, d1;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_wrap_dim ("transpose()", dim0, self->ndim, &d0, error)
      || !lt_tensor_wrap_dim ("transpose()", dim1, self->ndim, &d1, error))
    return NULL;

  meta_init (&meta, self);
  if (meta.ndim > 0)
    {
      gint64 size = meta.sizes[d0], stride = meta.strides[d0];

      meta.sizes[d0] = meta.sizes[d1];
      meta.strides[d0] = meta.strides[d1];
      meta.sizes[d1] = size;
      meta.strides[d1] = stride;
      if (meta.named)
        {
          const char *name = meta.names[d0];

          meta.names[d0] = meta.names[d1];
          meta.names[d1] = name;
        }
    }
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_t:
 * @self: an #LtTensor with at most 2 dims
 * @error: return location for a #GError
 *
 * The transpose of a matrix; tensors with fewer than 2 dims are returned as
 * they are (as a new view).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_t (LtTensor *self,
             GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ndim > 2)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("t(): expects a tensor with at most 2 dims, but this one has %u; use "
                     "transpose() or permute() for more"),
                   self->ndim);
      return NULL;
    }
  if (self->ndim < 2)
    return lt_tensor_alias (self);
  return lt_tensor_transpose (self, 0, 1, error);
}

/* Wraps every dim of @dims and checks that none repeats. */
static gboolean
wrap_dim_list (const char *op,
               const int  *dims,
               guint       n_dims,
               guint       ndim,
               guint      *out_dims,
               GError    **error)
{
  gboolean seen[LT_MAX_DIMS] = { FALSE };

  for (guint i = 0; i < n_dims; i++)
    {
      if (!lt_tensor_wrap_dim (op, dims[i], ndim, &out_dims[i], error))
        return FALSE;
      if (seen[out_dims[i]])
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: dim %u appears more than once; each dim may be named once"),
                       op, out_dims[i]);
          return FALSE;
        }
      seen[out_dims[i]] = TRUE;
    }
  return TRUE;
}

/**
 * lt_tensor_permute:
 * @self: an #LtTensor
 * @dims: (array length=n_dims): the old dim that becomes each new dim
 * @n_dims: the number of dims, which must be the tensor's
 * @error: return location for a #GError
 *
 * The view whose dim i is dim `dims[i]` of @self.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_permute (LtTensor  *self,
                   const int *dims,
                   guint      n_dims,
                   GError   **error)
{
  guint wrapped[LT_MAX_DIMS];
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("permute()", self, error))
    return NULL;

  if (n_dims != self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("permute(): %u dims given for a tensor with %u dims; name every dim once"),
                   n_dims, self->ndim);
      return NULL;
    }
  if (!wrap_dim_list ("permute()", dims, n_dims, self->ndim, wrapped, error))
    return NULL;

  meta_init (&meta, self);
  for (guint i = 0; i < n_dims; i++)
    {
      meta.sizes[i] = self->sizes[wrapped[i]];
      meta.strides[i] = self->strides[wrapped[i]];
    }
  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_movedim:
 * @self: an #LtTensor
 * @source: (array length=n_source): the dims to move
 * @n_source: the number of dims to move
 * @destination: (array length=n_destination): where each of them goes
 * @n_destination: the number of destinations, which must equal @n_source
 * @error: return location for a #GError
 *
 * The view with dim `source[i]` moved to position `destination[i]`; the
 * other dims keep their order in the remaining places.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_movedim (LtTensor  *self,
                   const int *source,
                   guint      n_source,
                   const int *destination,
                   guint      n_destination,
                   GError   **error)
{
  guint src[LT_MAX_DIMS], dst[LT_MAX_DIMS];
  int order[LT_MAX_DIMS];
  gboolean src_used[LT_MAX_DIMS] = { FALSE }, dst_used[LT_MAX_DIMS] = { FALSE };
  guint next_src = 0;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (source != NULL || n_source == 0, NULL);
  g_return_val_if_fail (destination != NULL || n_destination == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("movedim()", self, error))
    return NULL;

  if (n_source != n_destination)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("movedim(): %u source dims but %u destination dims; give one destination "
                     "per source"),
                   n_source, n_destination);
      return NULL;
    }
  if (n_source > MAX (self->ndim, 1))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("movedim(): %u dims to move in a tensor with %u dims"), n_source, self->ndim);
      return NULL;
    }
  if (!wrap_dim_list (_("movedim() source"), source, n_source, self->ndim, src, error)
      || !wrap_dim_list (_("movedim() destination"), destination, n_destination, self->ndim, dst,
                         error))
    return NULL;

  if (self->ndim <= 1)
    return lt_tensor_alias (self);

  for (guint i = 0; i < self->ndim; i++)
    order[i] = -1;
  for (guint i = 0; i < n_source; i++)
    {
      order[dst[i]] = (int) src[i];
      src_used[src[i]] = TRUE;
      dst_used[dst[i]] = TRUE;
    }
  for (guint i = 0; i < self->ndim; i++)
    {
      if (dst_used[i])
        continue;
      while (src_used[next_src])
        next_src++;
      order[i] = (int) next_src++;
    }

  return lt_tensor_permute (self, order, self->ndim, error);
}

/* What view() and reshape() must fit, "a tensor of 6 elements", or
 * unflatten(), "dim 1 of size 6": @self, or its dim @dim where it is not
 * -1. Written only for an error: a view's whole time is a few hundred
 * nanoseconds. */
static char *
describe_whole (LtTensor *self,
                int       dim)
{
  if (dim >= 0)
    return g_strdup_printf (_("dim %u of size %" PRId64), (guint) dim, self->sizes[dim]);
  return g_strdup_printf (g_dngettext (lt_gettext_domain (), "a tensor of %" PRId64 " element",
                                       "a tensor of %" PRId64 " elements", (gulong) self->numel),
                          self->numel);
}

/* PyTorch's infer_size: at most one -1, which takes whatever size makes the
 * element count of @self, or of its dim @whole_dim where it is not -1. */
static gboolean
infer_shape (const char   *op,
             const gint64 *shape,
             guint         n_dims,
             LtTensor     *self,
             int           whole_dim,
             gint64       *out_shape,
             GError      **error)
{
  gint64 numel = whole_dim >= 0 ? self->sizes[whole_dim] : self->numel;
  gint64 known = 1;
  int infer_dim = -1;
  g_autofree char *text = NULL;
  g_autofree char *whole = NULL;

  if (n_dims > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: %u dims are more than the %d a tensor can have"), op, n_dims,
                   LT_MAX_DIMS);
      return FALSE;
    }

  for (guint d = 0; d < n_dims; d++)
    {
      if (shape[d] == -1)
        {
          if (infer_dim >= 0)
            {
              text = lt_layout_shape_to_string (n_dims, shape);
              g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("%s: shape %s has more than one -1; only one dim can be inferred"), op,
                           text);
              return FALSE;
            }
          infer_dim = (int) d;
        }
      else if (shape[d] < 0)
        {
          text = lt_layout_shape_to_string (n_dims, shape);
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: shape %s has the invalid size %" PRId64
                         "; sizes are >= 0, or -1 for one inferred dim"),
                       op, text, shape[d]);
          return FALSE;
        }
      else if (__builtin_mul_overflow (known, shape[d], &known))
        {
          text = lt_layout_shape_to_string (n_dims, shape);
          g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                       _("%s: the number of elements of shape %s does not fit in 64 bits"), op,
                       text);
          return FALSE;
        }
    }

  if (n_dims > 0)
    memcpy (out_shape, shape, n_dims * sizeof (gint64));

  if (infer_dim >= 0 && known == 0)
    {
      text = lt_layout_shape_to_string (n_dims, shape);
      whole = describe_whole (self, whole_dim);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%s: cannot infer the -1 in shape %s for %s: with another size 0, any size "
                     "would do"),
                   op, text, whole);
      return FALSE;
    }

  if (infer_dim >= 0 && numel % known == 0)
    {
      out_shape[infer_dim] = numel / known;
      return TRUE;
    }
  if (infer_dim < 0 && numel == known)
    return TRUE;

  text = lt_layout_shape_to_string (n_dims, shape);
  whole = describe_whole (self, whole_dim);
  g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
               _("%s: shape %s does not fit %s; the sizes must multiply to %" PRId64),
               op, text, whole, numel);
  return FALSE;
}

static LtTensor *
view_inferred (LtTensor     *self,
               const gint64 *shape,
               guint         n_dims,
               GError      **error)
{
  gint64 strides[LT_MAX_DIMS];
  guint bad_dim;

  if (!lt_layout_view_strides (self->ndim, self->sizes, self->strides, n_dims, shape, strides,
                               &bad_dim))
    {
      g_autofree char *layout = lt_tensor_describe_layout (self);
      g_autofree char *target = lt_layout_shape_to_string (n_dims, shape);
      /* The call as the user wrote it: view(4, 2, 3), view(6). */
      g_autofree char *call = g_strndup (target + 1, strlen (target) - (n_dims == 1 ? 3 : 2));

      if (bad_dim > 0)
        g_set_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE,
                     _("view(%s): the tensor's %s cannot be viewed as %s without copying, because "
                       "dims %u and %u (strides %" PRId64 " and %" PRId64
                       ") are not contiguous with each other; use reshape() or "
                       "contiguous().view()"),
                     call, layout, target, bad_dim - 1, bad_dim, self->strides[bad_dim - 1],
                     self->strides[bad_dim]);
      else
        g_set_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE,
                     _("view(%s): the tensor's %s cannot be viewed as %s without copying; use "
                       "reshape() or contiguous().view()"),
                     call, layout, target);
      return NULL;
    }

  return lt_tensor_new_view (self->storage, n_dims, shape, strides, self->storage_offset);
}

/**
 * lt_tensor_view:
 * @self: an #LtTensor
 * @shape: (array length=n_dims): the new sizes; one of them may be -1, to be
 *   inferred from the element count
 * @n_dims: the number of new dims
 * @error: return location for a #GError
 *
 * The same elements in the same row-major order, seen with another shape,
 * without copying. This follows PyTorch's rule exactly: it works on some
 * non-contiguous tensors, as long as each new dim falls inside a run of old
 * dims that are contiguous with each other. When it cannot, the error names
 * the two dims that would have to be merged; reshape() copies instead.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_view (LtTensor     *self,
                const gint64 *shape,
                guint         n_dims,
                GError      **error)
{
  gint64 inferred[LT_MAX_DIMS];

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("view()", self, error))
    return NULL;

  if (!infer_shape ("view()", shape, n_dims, self, -1, inferred, error))
    return NULL;
  return view_inferred (self, inferred, n_dims, error);
}

/**
 * lt_tensor_reshape:
 * @self: an #LtTensor
 * @shape: (array length=n_dims): the new sizes; one of them may be -1
 * @n_dims: the number of new dims
 * @error: return location for a #GError
 *
 * Like lt_tensor_view(), but when the strides do not allow a view, the
 * elements are first copied into a contiguous tensor. Do not rely on whether
 * the result shares storage with @self.
 *
 * Returns: (transfer full): the view or the reshaped copy, or %NULL with
 *   @error set
 */
LtTensor *
lt_tensor_reshape (LtTensor     *self,
                   const gint64 *shape,
                   guint         n_dims,
                   GError      **error)
{
  gint64 inferred[LT_MAX_DIMS];
  gint64 strides[LT_MAX_DIMS];
  g_autoptr (LtTensor) copy = NULL;
  guint bad_dim;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("reshape()", self, error))
    return NULL;

  if (!infer_shape ("reshape()", shape, n_dims, self, -1, inferred, error))
    return NULL;

  if (lt_layout_view_strides (self->ndim, self->sizes, self->strides, n_dims, inferred, strides,
                              &bad_dim))
    return lt_tensor_new_view (self->storage, n_dims, inferred, strides, self->storage_offset);

  copy = lt_tensor_contiguous (self, error);
  if (copy == NULL)
    return NULL;
  lt_layout_contiguous_strides (n_dims, inferred, strides);
  return lt_tensor_new_view (copy->storage, n_dims, inferred, strides, copy->storage_offset);
}

/**
 * lt_tensor_flatten:
 * @self: an #LtTensor
 * @start_dim: the first dim to merge (negative counts from the end)
 * @end_dim: the last dim to merge
 * @error: return location for a #GError
 *
 * Merges the dims from @start_dim to @end_dim into one, in row-major order,
 * as lt_tensor_reshape() does: a view when the strides allow it, a copy
 * otherwise. A 0-dim tensor becomes a 1-dim one.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 */
LtTensor *
lt_tensor_flatten (LtTensor *self,
                   int       start_dim,
                   int       end_dim,
                   GError  **error)
{
  gint64 shape[LT_MAX_DIMS];
  guint start, end, n = 0;
  gint64 merged = 1;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_wrap_dim ("flatten()", start_dim, self->ndim, &start, error)
      || !lt_tensor_wrap_dim ("flatten()", end_dim, self->ndim, &end, error))
    return NULL;
  if (start > end)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("flatten(): start dim %u comes after end dim %u"), start, end);
      return NULL;
    }

  if (self->ndim == 0)
    {
      shape[0] = 1;
      return lt_tensor_reshape (self, shape, 1, error);
    }
  /* Nothing to merge: PyTorch returns the tensor, names and all. */
  if (start == end)
    return g_object_ref (self);
  if (!lt_tensor_check_unnamed ("flatten()", self, error))
    return NULL;

  for (guint d = 0; d < start; d++)
    shape[n++] = self->sizes[d];
  for (guint d = start; d <= end; d++)
    merged *= self->sizes[d];
  shape[n++] = merged;
  for (guint d = end + 1; d < self->ndim; d++)
    shape[n++] = self->sizes[d];

  return lt_tensor_reshape (self, shape, n, error);
}

/**
 * lt_tensor_unflatten:
 * @self: an #LtTensor
 * @dim: the dim to split (negative counts from the end)
 * @sizes: (array length=n_sizes): the sizes it splits into; one may be -1
 * @n_sizes: the number of sizes, at least 1
 * @error: return location for a #GError
 *
 * Splits one dim into several whose sizes multiply to its size. Always a view.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_unflatten (LtTensor     *self,
                     int           dim,
                     const gint64 *sizes,
                     guint         n_sizes,
                     GError      **error)
{
  gint64 inferred[LT_MAX_DIMS];
  gint64 shape[LT_MAX_DIMS];
  guint d, n = 0;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("unflatten()", self, error))
    return NULL;

  if (self->ndim == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                           _("unflatten(): cannot unflatten a 0-dim tensor; it has no dims"));
      return NULL;
    }
  if (!lt_tensor_wrap_dim ("unflatten()", dim, self->ndim, &d, error))
    return NULL;
  if (n_sizes == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("unflatten(): sizes must not be empty"));
      return NULL;
    }
  if (self->ndim - 1 + n_sizes > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("unflatten(): the result would have more than %d dims"), LT_MAX_DIMS);
      return NULL;
    }
  if (!infer_shape ("unflatten()", sizes, n_sizes, self, (int) d, inferred, error))
    return NULL;

  for (guint i = 0; i < d; i++)
    shape[n++] = self->sizes[i];
  for (guint i = 0; i < n_sizes; i++)
    shape[n++] = inferred[i];
  for (guint i = d + 1; i < self->ndim; i++)
    shape[n++] = self->sizes[i];

  return view_inferred (self, shape, n, error);
}

static LtTensor *
expand_to (const char   *op,
           LtTensor     *self,
           const gint64 *sizes,
           guint         n_sizes,
           GError      **error)
{
  gint64 new_sizes[LT_MAX_DIMS];
  gint64 new_strides[LT_MAX_DIMS];

  if (n_sizes < self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: %u sizes given for a tensor with %u dims; give at least one size per "
                     "dim"),
                   op, n_sizes, self->ndim);
      return NULL;
    }
  if (n_sizes > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: %u dims are more than the %d a tensor can have"), op, n_sizes,
                   LT_MAX_DIMS);
      return NULL;
    }

  /* ATen's inferExpandGeometry, from the last dim to the first. */
  for (guint i = n_sizes; i-- > 0;)
    {
      gint64 existing = (gint64) i - (gint64) (n_sizes - self->ndim);
      gint64 size = existing >= 0 ? self->sizes[existing] : 1;
      gint64 stride;
      gint64 target = sizes[i];

      /* A new leading dim continues the dim inside it; a 0-dim tensor has
       * none, and PyTorch then gives every dim stride 0. */
      if (existing >= 0)
        stride = self->strides[existing];
      else if (i + 1 < n_sizes)
        stride = new_sizes[i + 1] * new_strides[i + 1];
      else
        stride = 0;

      if (target == -1)
        {
          if (existing < 0)
            {
              g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("%s: size -1 is not allowed for the new leading dim %u; -1 keeps an "
                             "existing size"),
                           op, i);
              return NULL;
            }
          target = size;
        }
      else if (target < 0)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: size %" PRId64 " of dim %u is negative"), op, target, i);
          return NULL;
        }

      if (size != target)
        {
          if (size != 1)
            {
              g_autofree char *wanted = lt_layout_shape_to_string (n_sizes, sizes);
              g_autofree char *have = lt_layout_shape_to_string (self->ndim, self->sizes);
              g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                           _("%s: the size %" PRId64 " of dim %u must match the existing "
                             "size %" PRId64 ", because only dims of size 1 can be "
                             "expanded (target sizes %s, tensor sizes %s)"),
                           op, target, i, size, wanted, have);
              return NULL;
            }
          size = target;
          stride = 0;
        }

      new_sizes[i] = size;
      new_strides[i] = stride;
    }

  if (!lt_tensor_check_sizes (op, new_sizes, n_sizes, error))
    return NULL;

  {
    LtTensor *view = lt_tensor_new_view (self->storage, n_sizes, new_sizes, new_strides,
                                         self->storage_offset);

    if (self->names != NULL)
      {
        const char *names[LT_MAX_DIMS] = { NULL };

        memcpy (names + (n_sizes - self->ndim), self->names, self->ndim * sizeof (char *));
        lt_tensor_set_names_internal (view, names);
      }
    return view;
  }
}

/**
 * lt_tensor_expand:
 * @self: an #LtTensor
 * @sizes: (array length=n_sizes): the new sizes; -1 keeps a dim's size; new
 *   leading dims may be added
 * @n_sizes: the number of sizes, at least the number of dims
 * @error: return location for a #GError
 *
 * Repeats dims of size 1 without copying, by giving them stride 0. The result
 * has elements that share storage, so writes into it are refused.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_expand (LtTensor     *self,
                  const gint64 *sizes,
                  guint         n_sizes,
                  GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return expand_to ("expand()", self, sizes, n_sizes, error);
}

/**
 * lt_tensor_expand_as:
 * @self: an #LtTensor
 * @other: the tensor whose sizes to expand to
 * @error: return location for a #GError
 *
 * lt_tensor_expand() to the sizes of @other.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_expand_as (LtTensor *self,
                     LtTensor *other,
                     GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return expand_to ("expand_as()", self, other->sizes, other->ndim, error);
}

/**
 * lt_tensor_broadcast_to:
 * @self: an #LtTensor
 * @sizes: (array length=n_sizes): the shape to broadcast to
 * @n_sizes: the number of sizes
 * @error: return location for a #GError
 *
 * The view of @self broadcast to @sizes by NumPy's rules, as lt_tensor_expand().
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_broadcast_to (LtTensor     *self,
                        const gint64 *sizes,
                        guint         n_sizes,
                        GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return expand_to ("broadcast_to()", self, sizes, n_sizes, error);
}

static LtTensor *
strided_view (const char   *op,
              LtStorage    *storage,
              const gint64 *sizes,
              guint         n_sizes,
              const gint64 *strides,
              guint         n_strides,
              gint64        storage_offset,
              GError      **error)
{
  gint64 numel, lowest, highest;
  gint64 n_elements = lt_storage_get_n_elements (storage);

  if (n_sizes != n_strides)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: %u sizes but %u strides; give one stride per size"), op, n_sizes,
                   n_strides);
      return NULL;
    }
  if (!lt_tensor_check_sizes (op, sizes, n_sizes, error))
    return NULL;
  if (storage_offset < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS,
                   _("%s: storage offset %" PRId64 " is negative"), op, storage_offset);
      return NULL;
    }

  lt_layout_numel (n_sizes, sizes, &numel);
  if (numel == 0)
    return lt_tensor_new_view (storage, n_sizes, sizes, strides, storage_offset);

  if (!lt_layout_extent (n_sizes, sizes, strides, storage_offset, &lowest, &highest))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the storage indices these sizes, strides and offset reach do not fit in "
                     "64 bits"),
                   op);
      return NULL;
    }
  if (lowest < 0 || highest >= n_elements)
    {
      g_autofree char *size_text = lt_layout_shape_to_string (n_sizes, sizes);
      g_autofree char *stride_text = lt_layout_shape_to_string (n_strides, strides);
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_BOUNDS,
                   g_dngettext (lt_gettext_domain (),
                                "%s: sizes %s and strides %s at storage offset %" PRId64
                                " reach storage indices %" PRId64 " to %" PRId64
                                ", outside the storage of %" PRId64 " element",
                                "%s: sizes %s and strides %s at storage offset %" PRId64
                                " reach storage indices %" PRId64 " to %" PRId64
                                ", outside the storage of %" PRId64 " elements",
                                (gulong) n_elements),
                   op, size_text, stride_text, storage_offset, lowest, highest, n_elements);
      return NULL;
    }

  return lt_tensor_new_view (storage, n_sizes, sizes, strides, storage_offset);
}

/**
 * lt_tensor_as_strided:
 * @self: an #LtTensor
 * @sizes: (array length=n_sizes): the sizes of the view
 * @n_sizes: the number of dims
 * @strides: (array length=n_strides): the strides of the view, in elements;
 *   unlike PyTorch, they may be negative
 * @n_strides: the number of strides, which must equal @n_sizes
 * @storage_offset: the storage index of the first element (not relative to
 *   @self's offset)
 * @error: return location for a #GError
 *
 * Any view of @self's storage. Every storage index the view reaches, the
 * lowest and the highest, must lie inside the storage. Views whose elements
 * overlap are allowed but cannot be written to.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_as_strided (LtTensor     *self,
                      const gint64 *sizes,
                      guint         n_sizes,
                      const gint64 *strides,
                      guint         n_strides,
                      gint64        storage_offset,
                      GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (strides != NULL || n_strides == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return strided_view ("as_strided()", self->storage, sizes, n_sizes, strides, n_strides,
                       storage_offset, error);
}

/**
 * lt_tensor_new_with_storage:
 * @storage: the storage to view
 * @sizes: (array length=n_sizes): the sizes of the view
 * @n_sizes: the number of dims
 * @strides: (array length=n_strides): the strides, in elements
 * @n_strides: the number of strides, which must equal @n_sizes
 * @storage_offset: the storage index of the first element
 * @error: return location for a #GError
 *
 * A tensor over an existing storage, checked as lt_tensor_as_strided() checks.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_with_storage (LtStorage    *storage,
                            const gint64 *sizes,
                            guint         n_sizes,
                            const gint64 *strides,
                            guint         n_strides,
                            gint64        storage_offset,
                            GError      **error)
{
  g_return_val_if_fail (LT_IS_STORAGE (storage), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (strides != NULL || n_strides == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return strided_view ("new_with_storage()", storage, sizes, n_sizes, strides, n_strides,
                       storage_offset, error);
}

/**
 * lt_tensor_diagonal:
 * @self: an #LtTensor with at least 2 dims
 * @offset: which diagonal: 0 the main one, > 0 above it, < 0 below it
 * @dim1: the first dim of the matrices (negative counts from the end)
 * @dim2: the second dim
 * @error: return location for a #GError
 *
 * The view of a diagonal of the matrices formed by @dim1 and @dim2. Both dims
 * are removed and the diagonal becomes the last dim, with stride
 * `stride[dim1] + stride[dim2]`.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_diagonal (LtTensor *self,
                    gint64    offset,
                    int       dim1,
                    int       dim2,
                    GError  **error)
{
  ViewMeta meta;
  guint d1, d2;
  gint64 size1, size2, diag_size, diag_stride;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ndim < 2)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("diagonal(): needs a tensor with at least 2 dims, but this one has %u"),
                   self->ndim);
      return NULL;
    }
  if (!lt_tensor_wrap_dim ("diagonal()", dim1, self->ndim, &d1, error)
      || !lt_tensor_wrap_dim ("diagonal()", dim2, self->ndim, &d2, error))
    return NULL;
  if (d1 == d2)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("diagonal(): dim1 and dim2 are both dim %u; give two different dims"), d1);
      return NULL;
    }

  size1 = self->sizes[d1];
  size2 = self->sizes[d2];
  /* Offsets beyond the matrix give an empty diagonal; clamp first so the
   * arithmetic below cannot overflow. */
  offset = CLAMP (offset, -size1 - 1, size2 + 1);
  if (offset >= 0)
    diag_size = MAX (MIN (size1, size2 - offset), 0);
  else
    diag_size = MAX (MIN (size1 + offset, size2), 0);

  meta_init (&meta, self);
  if (diag_size > 0
      && !meta_shift (&meta, "diagonal()", offset >= 0 ? offset : -offset,
                      offset >= 0 ? self->strides[d2] : self->strides[d1], error))
    return NULL;

  /* The sum only overflows when the diagonal has at most one element or the
   * tensor has none, and the stride is never used: it then wraps around, as
   * PyTorch's int64 arithmetic does. */
  (void) __builtin_add_overflow (self->strides[d1], self->strides[d2], &diag_stride);
  meta_remove_dim (&meta, MAX (d1, d2));
  meta_remove_dim (&meta, MIN (d1, d2));
  meta_insert_dim (&meta, meta.ndim, diag_size, diag_stride);

  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_unfold:
 * @self: an #LtTensor
 * @dim: the dim to slide along (negative counts from the end)
 * @size: the length of each window
 * @step: the distance between the starts of consecutive windows, > 0
 * @error: return location for a #GError
 *
 * The view of every window of @size elements along @dim, @step apart: @dim
 * becomes the window count and a new last dim of size @size walks the window.
 * Windows overlap when @step < @size.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_unfold (LtTensor *self,
                  int       dim,
                  gint64    size,
                  gint64    step,
                  GError  **error)
{
  ViewMeta meta;
  guint d;
  gint64 max_size, inner_stride;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("unfold()", self, error))
    return NULL;

  if (!lt_tensor_wrap_dim ("unfold()", dim, self->ndim, &d, error))
    return NULL;
  if (!check_dim_room ("unfold()", self->ndim, error))
    return NULL;

  max_size = self->ndim == 0 ? 1 : self->sizes[d];
  if (size < 0 || size > max_size)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("unfold(): window size %" PRId64 " must be from 0 to the size %"
                     PRId64 " of dim %u"),
                   size, max_size, d);
      return NULL;
    }
  if (step <= 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("unfold(): step %" PRId64 " must be > 0"), step);
      return NULL;
    }

  meta_init (&meta, self);
  inner_stride = self->ndim == 0 ? 1 : self->strides[d];
  if (self->ndim > 0)
    {
      meta.sizes[d] = (self->sizes[d] - size) / step + 1;
      if (__builtin_mul_overflow (step, self->strides[d], &meta.strides[d]))
        {
          if (meta.sizes[d] > 1)
            {
              g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                           _("unfold(): step %" PRId64 " times stride %" PRId64
                             " does not fit in 64 bits"),
                           step, self->strides[d]);
              return NULL;
            }
          meta.strides[d] = self->strides[d];
        }
    }
  meta_insert_dim (&meta, meta.ndim, size, inner_stride);
  /* Overlapping windows can hold more elements than the tensor. */
  if (!lt_tensor_check_sizes ("unfold()", meta.sizes, meta.ndim, error))
    return NULL;

  return meta_to_view (&meta, self->storage);
}

/**
 * lt_tensor_flip:
 * @self: an #LtTensor
 * @dims: (array length=n_dims): the dims to reverse
 * @n_dims: the number of dims
 * @error: return location for a #GError
 *
 * The view with the order of the elements along each of @dims reversed.
 * Unlike PyTorch, which copies, this is a view with negative strides, as in
 * NumPy.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_flip (LtTensor  *self,
                const int *dims,
                guint      n_dims,
                GError   **error)
{
  guint wrapped[LT_MAX_DIMS];
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("flip()", self, error))
    return NULL;

  if (n_dims > MAX (self->ndim, 1))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("flip(): %u dims given for a tensor with %u dims"), n_dims, self->ndim);
      return NULL;
    }
  if (!wrap_dim_list ("flip()", dims, n_dims, self->ndim, wrapped, error))
    return NULL;

  meta_init (&meta, self);
  if (meta.ndim == 0)
    return meta_to_view (&meta, self->storage);

  for (guint i = 0; i < n_dims; i++)
    {
      guint d = wrapped[i];

      if (meta.sizes[d] == 0)
        continue;
      if (!meta_shift (&meta, "flip()", meta.sizes[d] - 1, meta.strides[d], error))
        return NULL;
      meta.strides[d] = -meta.strides[d];
    }

  return meta_to_view (&meta, self->storage);
}

static gboolean
check_split_dim (const char *op,
                 LtTensor   *self,
                 int         dim,
                 guint      *out_dim,
                 GError    **error)
{
  if (self->ndim == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("%s: needs a tensor with at least 1 dim"), op);
      return FALSE;
    }
  return lt_tensor_wrap_dim (op, dim, self->ndim, out_dim, error);
}

static GPtrArray *
split_by_sizes (const char   *op,
                LtTensor     *self,
                guint         d,
                const gint64 *sizes,
                gint64        n_pieces,
                gint64        uniform_size,
                GError      **error)
{
  g_autoptr (GPtrArray) pieces = g_ptr_array_new_full ((guint) n_pieces, g_object_unref);
  gint64 start = 0;

  for (gint64 i = 0; i < n_pieces; i++)
    {
      ViewMeta meta;
      gint64 length = sizes != NULL ? sizes[i] : MIN (uniform_size, self->sizes[d] - start);

      meta_init (&meta, self);
      if (!meta_shift (&meta, op, start, self->strides[d], error))
        return NULL;
      meta.sizes[d] = length;
      g_ptr_array_add (pieces, meta_to_view (&meta, self->storage));
      start += length;
    }

  return g_steal_pointer (&pieces);
}

/**
 * lt_tensor_split:
 * @self: an #LtTensor with at least 1 dim
 * @split_size: the size of each piece; the last one may be smaller
 * @dim: the dim to split (negative counts from the end)
 * @error: return location for a #GError
 *
 * Views of consecutive pieces of @split_size along @dim.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_split (LtTensor *self,
                 gint64    split_size,
                 int       dim,
                 GError  **error)
{
  guint d;
  gint64 dim_size, n_pieces = 1;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_dim ("split()", self, dim, &d, error))
    return NULL;

  dim_size = self->sizes[d];
  if (split_size < 0 || (split_size == 0 && dim_size != 0))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("split(): split size %" PRId64 " is invalid for dim %u of size %"
                     PRId64 "; it must be > 0 (or 0 for a dim of size 0)"),
                   split_size, d, dim_size);
      return NULL;
    }
  if (split_size > 0)
    n_pieces = MAX (dim_size / split_size + (dim_size % split_size != 0), 1);
  if (n_pieces > G_MAXUINT)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("split(): %" PRId64 " pieces are too many"), n_pieces);
      return NULL;
    }

  return split_by_sizes ("split()", self, d, NULL, n_pieces, split_size, error);
}

/**
 * lt_tensor_split_with_sizes:
 * @self: an #LtTensor with at least 1 dim
 * @split_sizes: (array length=n_split_sizes): the size of each piece
 * @n_split_sizes: the number of pieces
 * @dim: the dim to split (negative counts from the end)
 * @error: return location for a #GError
 *
 * Views of consecutive pieces of the given sizes along @dim, which must add
 * up to its size.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_split_with_sizes (LtTensor     *self,
                            const gint64 *split_sizes,
                            guint         n_split_sizes,
                            int           dim,
                            GError      **error)
{
  guint d;
  gint64 total = 0;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (split_sizes != NULL || n_split_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_dim ("split_with_sizes()", self, dim, &d, error))
    return NULL;

  for (guint i = 0; i < n_split_sizes; i++)
    {
      if (split_sizes[i] < 0 || __builtin_add_overflow (total, split_sizes[i], &total))
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("split_with_sizes(): piece %u has the invalid size %" PRId64),
                       i, split_sizes[i]);
          return NULL;
        }
    }
  if (total != self->sizes[d])
    {
      g_autofree char *text = lt_layout_shape_to_string (n_split_sizes, split_sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("split_with_sizes(): sizes %s add up to %" PRId64
                     ", not to the size %" PRId64 " of dim %u"),
                   text, total, self->sizes[d], d);
      return NULL;
    }

  return split_by_sizes ("split_with_sizes()", self, d, split_sizes, n_split_sizes, 0, error);
}

/**
 * lt_tensor_chunk:
 * @self: an #LtTensor with at least 1 dim
 * @chunks: the number of pieces wanted, > 0
 * @dim: the dim to split (negative counts from the end)
 * @error: return location for a #GError
 *
 * Splits @dim into pieces of `ceil(size / chunks)`, as PyTorch does; there may
 * be fewer than @chunks pieces.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_chunk (LtTensor *self,
                 gint64    chunks,
                 int       dim,
                 GError  **error)
{
  guint d;
  gint64 dim_size, split_size;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_dim ("chunk()", self, dim, &d, error))
    return NULL;
  if (chunks <= 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("chunk(): the number of chunks %" PRId64 " must be > 0"), chunks);
      return NULL;
    }

  dim_size = self->sizes[d];
  split_size = dim_size / chunks + (dim_size % chunks != 0);

  if (split_size == 0 && dim_size == 0)
    {
      /* Every chunk of an empty dim is empty: keep the count asked for. */
      if (chunks > G_MAXUINT)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("chunk(): %" PRId64 " chunks are too many"), chunks);
          return NULL;
        }
      return split_by_sizes ("chunk()", self, d, NULL, chunks, 0, error);
    }

  return lt_tensor_split (self, split_size, (int) d, error);
}

/**
 * lt_tensor_unbind:
 * @self: an #LtTensor with at least 1 dim
 * @dim: the dim to remove (negative counts from the end)
 * @error: return location for a #GError
 *
 * Views of every index along @dim, each without that dim: lt_tensor_select()
 * for each index in turn.
 *
 * Returns: (transfer container) (element-type LtTensor): the views, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_unbind (LtTensor *self,
                  int       dim,
                  GError  **error)
{
  g_autoptr (GPtrArray) pieces = NULL;
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_dim ("unbind()", self, dim, &d, error))
    return NULL;
  if (self->sizes[d] > G_MAXUINT)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("unbind(): %" PRId64 " views are too many"), self->sizes[d]);
      return NULL;
    }

  pieces = g_ptr_array_new_full ((guint) self->sizes[d], g_object_unref);
  for (gint64 i = 0; i < self->sizes[d]; i++)
    {
      ViewMeta meta;

      meta_init (&meta, self);
      if (!meta_shift (&meta, "unbind()", i, self->strides[d], error))
        return NULL;
      meta_remove_dim (&meta, d);
      g_ptr_array_add (pieces, meta_to_view (&meta, self->storage));
    }

  return g_steal_pointer (&pieces);
}

/**
 * lt_tensor_view_as_real:
 * @self: a complex #LtTensor
 * @error: return location for a #GError
 *
 * The same memory seen as real numbers: a new last dim of size 2 holds the
 * real and imaginary parts. Strides and offset double, since each complex
 * element is two real ones. The result's storage is a float storage over the
 * same memory.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_view_as_real (LtTensor *self,
                        GError  **error)
{
  g_autoptr (LtStorage) storage = NULL;
  LtDType dtype;
  ViewMeta meta;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("view_as_real()", self, error))
    return NULL;

  dtype = lt_tensor_get_dtype (self);
  if (!lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("view_as_real(): needs a complex tensor, but this one is %s"),
                   lt_dtype_get_name (dtype));
      return NULL;
    }
  if (!check_dim_room ("view_as_real()", self->ndim, error))
    return NULL;

  meta_init (&meta, self);
  /* A doubled stride only overflows on a dim of size 1, or in a tensor
   * without elements, where it is never used: it then wraps around (and
   * stays even, as view_as_complex() wants). The offset of a view with
   * elements is inside the storage and always doubles; only an empty view
   * can have one too large. */
  for (guint d = 0; d < meta.ndim; d++)
    (void) __builtin_mul_overflow (meta.strides[d], 2, &meta.strides[d]);
  if (__builtin_mul_overflow (meta.offset, 2, &meta.offset))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("view_as_real(): the storage offset %" PRId64 " of this empty view "
                     "does not fit in 64 bits once doubled; give it a smaller offset with "
                     "as_strided() first"),
                   self->storage_offset);
      return NULL;
    }
  meta_insert_dim (&meta, meta.ndim, 2, 1);

  storage = lt_storage_new_reinterpreted (self->storage, lt_dtype_to_real (dtype));
  return meta_to_view (&meta, storage);
}

/**
 * lt_tensor_view_as_complex:
 * @self: a float32 or float64 #LtTensor whose last dim has size 2 and stride 1
 * @error: return location for a #GError
 *
 * The same memory seen as complex numbers, each pair of the last dim being
 * one real and one imaginary part. The other strides and the offset must be
 * even, and are halved.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_view_as_complex (LtTensor *self,
                           GError  **error)
{
  g_autoptr (LtStorage) storage = NULL;
  LtDType dtype;
  ViewMeta meta;
  const char *problem = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_tensor_check_unnamed ("view_as_complex()", self, error))
    return NULL;

  dtype = lt_tensor_get_dtype (self);
  if (dtype != LT_DTYPE_FLOAT32 && dtype != LT_DTYPE_FLOAT64)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("view_as_complex(): needs a float32 or float64 tensor, but this one is %s"),
                   lt_dtype_get_name (dtype));
      return NULL;
    }

  if (self->ndim == 0)
    problem = N_("it has no dims; it needs a last dim of size 2");
  else if (self->sizes[self->ndim - 1] != 2)
    problem = N_("its last dim does not have size 2");
  else if (self->strides[self->ndim - 1] != 1)
    problem = N_("its last dim does not have stride 1");
  else if (self->storage_offset % 2 != 0)
    problem = N_("its storage offset is odd");
  else
    for (guint d = 0; d + 1 < self->ndim; d++)
      if (self->strides[d] % 2 != 0)
        problem = N_("a stride other than the last one is odd");

  if (problem != NULL)
    {
      g_autofree char *layout = lt_tensor_describe_layout (self);
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("view_as_complex(): cannot view the tensor with %s at storage offset %"
                     PRId64 " as complex: %s"),
                   layout, self->storage_offset, _(problem));
      return NULL;
    }

  meta_init (&meta, self);
  meta_remove_dim (&meta, meta.ndim - 1);
  for (guint d = 0; d < meta.ndim; d++)
    meta.strides[d] /= 2;
  meta.offset /= 2;

  storage = lt_storage_new_reinterpreted (self->storage, lt_dtype_to_complex (dtype));
  return meta_to_view (&meta, storage);
}
