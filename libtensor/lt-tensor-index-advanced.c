/* lt-tensor-index-advanced.c: index expressions with tensor arguments
 *
 * `t[idx, 1:]` where idx is a tensor: NumPy's and PyTorch's advanced
 * indexing, read (a copy) and written (in place). A key is resolved in
 * three steps:
 *
 * 1. Every item that is not a tensor, and every tensor item turned into
 *    the basic item it stands for (a full slice for an int64 index, one
 *    per dim for a bool mask, None for a 0-dim mask, the integer a 0-dim
 *    integer tensor holds), makes a view V of the tensor.
 * 2. The index tensors (a mask counting as the coordinates of its true
 *    elements, from nonzero()) are checked against the sizes of the dims of
 *    V they index, counted from the end where negative, and broadcast
 *    together to sizes B.
 * 3. B takes the place of the dims the indices index when those dims are
 *    adjacent, else goes first; the other dims of V follow in order.
 *
 * Reads lay their result out in memory as PyTorch's TensorIterator does
 * (the order of the source's and the indices' strides), so that strides
 * match PyTorch's too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-index-expr.h"
#include "lt-index-private.h"
#include "lt-layout.h"
#include "lt-pointwise.h"

typedef struct
{
  LtTensor *view;
  guint n_indices;
  /* As given (their strides order the result in memory), and as storage
   * offsets along their dims. */
  LtTensor *given[LT_MAX_DIMS];
  LtTensor *indices[LT_MAX_DIMS];
  guint view_dims[LT_MAX_DIMS];
  /* The broadcast sizes of the indices, and where they go in the result. */
  guint broadcast_ndim;
  gint64 broadcast[LT_MAX_DIMS];
  guint first;
  guint ndim;
  gint64 sizes[LT_MAX_DIMS];
  /* The dim of V each result dim outside B comes from. */
  guint source_dims[LT_MAX_DIMS];
  gint64 numel;
} AdvancedKey;

static void
advanced_key_clear (AdvancedKey *key)
{
  g_clear_object (&key->view);
  for (guint k = 0; k < key->n_indices; k++)
    {
      g_clear_object (&key->given[k]);
      g_clear_object (&key->indices[k]);
    }
  key->n_indices = 0;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AdvancedKey, advanced_key_clear)

static LtTensor *
find_tensor (const char        *expression,
             const LtIndexItem *item,
             const char *const *names,
             LtTensor *const   *tensors,
             guint              n_tensors,
             GError           **error)
{
  for (guint k = 0; k < n_tensors; k++)
    if (strlen (names[k]) == item->name_length
        && memcmp (names[k], item->name, item->name_length) == 0)
      return tensors[k];
  g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
               _("index expression '%s': no tensor is named '%.*s' (column %u); pass each "
                 "tensor the expression names, with its name"),
               expression, (int) item->name_length, item->name, item->column);
  return NULL;
}

static gboolean
is_mask (LtTensor *index)
{
  LtDType dtype = lt_tensor_get_dtype (index);

  return dtype == LT_DTYPE_BOOL || dtype == LT_DTYPE_UINT8;
}

/* How many dims of the tensor @item consumes. */
static guint
consumed_dims (const LtIndexItem *item,
               LtTensor          *tensor)
{
  switch (item->kind)
    {
    case LT_INDEX_ITEM_INTEGER:
    case LT_INDEX_ITEM_SLICE:
      return 1;
    case LT_INDEX_ITEM_NAME:
      return is_mask (tensor) ? tensor->ndim : 1;
    case LT_INDEX_ITEM_NONE:
    case LT_INDEX_ITEM_ELLIPSIS:
    default:
      return 0;
    }
}

static void
append_full_slice (GArray *basic,
                   guint   column)
{
  LtIndexItem slice = { .kind = LT_INDEX_ITEM_SLICE, .column = column, .step = 1 };

  g_array_append_val (basic, slice);
}

/* Where an index lands among V's dims: the basic items before it, less
 * the integers, which remove their dims. */
static guint
view_dim_at (GArray *basic)
{
  guint dim = 0;

  for (guint i = 0; i < basic->len; i++)
    dim += g_array_index (basic, LtIndexItem, i).kind != LT_INDEX_ITEM_INTEGER;
  return dim;
}

static gboolean
add_index (AdvancedKey *key,
           guint        view_dim,
           LtTensor    *index,
           GError     **error)
{
  if (key->n_indices == LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("an index can hold at most %d index tensors"), LT_MAX_DIMS);
      return FALSE;
    }
  key->view_dims[key->n_indices] = view_dim;
  key->given[key->n_indices] = g_object_ref (index);
  key->indices[key->n_indices++] = g_object_ref (index);
  return TRUE;
}

/* A tensor item while the view is made: PyTorch's slicing gives it the
 * one dim @slot, whatever its dims; a mask spreads over its dims only
 * afterwards. */
typedef struct
{
  guint slot;
  guint column;
  LtTensor *tensor;
} TensorSlot;

/* Appends the basic item tensor item @item stands for, and its slot. */
static gboolean
add_tensor_item (GArray            *basic,
                 GArray            *slots,
                 const char        *expression,
                 const LtIndexItem *item,
                 LtTensor          *tensor,
                 GError           **error)
{
  LtDType dtype = lt_tensor_get_dtype (tensor);
  TensorSlot slot = { view_dim_at (basic), item->column, NULL };

  if (tensor->ndim == 0 && !is_mask (tensor) && lt_dtype_is_integer (dtype))
    {
      /* A 0-dim integer tensor indexes as the integer it holds: a view. */
      LtIndexItem integer = { .kind = LT_INDEX_ITEM_INTEGER, .column = item->column };

      if (!lt_tensor_get_int64 (tensor, NULL, 0, &integer.index, error))
        return FALSE;
      g_array_append_val (basic, integer);
      return TRUE;
    }

  if (tensor->ndim == 0 && is_mask (tensor))
    {
      /* A new dim of size 1 for the one element, picked where true. */
      LtIndexItem none = { .kind = LT_INDEX_ITEM_NONE, .column = item->column };
      g_autoptr (LtTensor) one = lt_tensor_reshape (tensor, (gint64[]) { 1 }, 1, error);
      g_autoptr (LtTensor) coordinates = one != NULL ? lt_tensor_nonzero (one, error) : NULL;

      slot.tensor = coordinates != NULL ? lt_tensor_select (coordinates, 1, 0, error) : NULL;
      if (slot.tensor == NULL)
        return FALSE;
      g_array_append_val (slots, slot);
      g_array_append_val (basic, none);
      return TRUE;
    }

  if (!is_mask (tensor) && dtype != LT_DTYPE_INT64)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("index expression '%s', item at column %u: tensors used as indices must "
                     "be int64 (long), uint8 or bool tensors, not %s"),
                   expression, item->column, lt_dtype_get_name (dtype));
      return FALSE;
    }
  slot.tensor = g_object_ref (tensor);
  g_array_append_val (slots, slot);
  append_full_slice (basic, item->column);
  return TRUE;
}

/* The indices of the tensor items in @slots, over the view's dims: a mask
 * stands for the coordinates of its true elements and takes as many dims
 * as it has, from its slot on (moving the slots after it along, as in
 * PyTorch). */
static gboolean
spread_slots (AdvancedKey *key,
              const char  *expression,
              GArray      *slots,
              GError     **error)
{
  guint shift = 0;

  for (guint i = 0; i < slots->len; i++)
    {
      const TensorSlot *slot = &g_array_index (slots, TensorSlot, i);
      guint at = slot->slot + shift;
      g_autoptr (LtTensor) coordinates = NULL;

      if (!is_mask (slot->tensor))
        {
          if (!add_index (key, at, slot->tensor, error))
            return FALSE;
          continue;
        }

      if (at + slot->tensor->ndim > key->view->ndim
          || memcmp (slot->tensor->sizes, key->view->sizes + at,
                     slot->tensor->ndim * sizeof (gint64)) != 0)
        {
          g_autofree char *mask_text = lt_layout_shape_to_string (slot->tensor->ndim,
                                                                  slot->tensor->sizes);
          g_autofree char *view_text = lt_layout_shape_to_string (key->view->ndim,
                                                                  key->view->sizes);

          g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                       _("index expression '%s', item at column %u: the mask of sizes %s does "
                         "not match the sizes %s of the tensor indexed, from its dim %u"),
                       expression, slot->column, mask_text, view_text, at);
          return FALSE;
        }
      coordinates = lt_tensor_nonzero (slot->tensor, error);
      if (coordinates == NULL)
        return FALSE;
      for (guint j = 0; j < slot->tensor->ndim; j++)
        {
          g_autoptr (LtTensor) column = lt_tensor_select (coordinates, 1, j, error);

          if (column == NULL || !add_index (key, at + j, column, error))
            return FALSE;
        }
      shift += slot->tensor->ndim - 1;
    }
  return TRUE;
}

static void
clear_slot (gpointer data)
{
  g_clear_object (&((TensorSlot *) data)->tensor);
}

/* Steps 1 and 2 but the indices' values: the view, and the indices. */
static gboolean
resolve_items (AdvancedKey       *key,
               LtTensor          *self,
               const char        *expression,
               const char *const *names,
               LtTensor *const   *tensors,
               guint              n_tensors,
               GError           **error)
{
  g_autoptr (GArray) items = lt_index_expr_parse (expression, error);
  g_autoptr (GArray) basic = NULL;
  g_autoptr (GArray) slots = NULL;
  /* At most one item per dim of the tensor, one None per dim of the
   * view, and one ellipsis. */
  LtTensor *resolved[LT_MAX_DIMS * 2 + 1] = { NULL };
  guint consumed = 0;

  if (items == NULL)
    return FALSE;
  if (items->len > G_N_ELEMENTS (resolved))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("index expression '%s' has %u items, too many for a tensor with %u dims"),
                   expression, items->len, self->ndim);
      return FALSE;
    }

  for (guint i = 0; i < items->len; i++)
    {
      const LtIndexItem *item = &g_array_index (items, LtIndexItem, i);

      if (item->kind == LT_INDEX_ITEM_NAME)
        {
          resolved[i] = find_tensor (expression, item, names, tensors, n_tensors, error);
          if (resolved[i] == NULL)
            return FALSE;
        }
      consumed += consumed_dims (item, resolved[i]);
    }
  if (consumed > self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   g_dngettext (lt_gettext_domain (),
                                "index expression '%s' indexes %u dims (a mask as many as it "
                                "has), too many for a tensor with %u dim",
                                "index expression '%s' indexes %u dims (a mask as many as it "
                                "has), too many for a tensor with %u dims",
                                self->ndim),
                   expression, consumed, self->ndim);
      return FALSE;
    }

  basic = g_array_new (FALSE, TRUE, sizeof (LtIndexItem));
  slots = g_array_new (FALSE, TRUE, sizeof (TensorSlot));
  g_array_set_clear_func (slots, clear_slot);
  for (guint i = 0; i < items->len; i++)
    {
      const LtIndexItem *item = &g_array_index (items, LtIndexItem, i);

      switch (item->kind)
        {
        case LT_INDEX_ITEM_ELLIPSIS:
          /* Written out as the full slices it stands for, so that the
           * dims the indices land on can be counted. */
          for (guint d = consumed; d < self->ndim; d++)
            append_full_slice (basic, item->column);
          break;
        case LT_INDEX_ITEM_NAME:
          if (!add_tensor_item (basic, slots, expression, item, resolved[i], error))
            return FALSE;
          break;
        case LT_INDEX_ITEM_INTEGER:
        case LT_INDEX_ITEM_SLICE:
        case LT_INDEX_ITEM_NONE:
        default:
          g_array_append_val (basic, *item);
          break;
        }
    }

  key->view = lt_tensor_index_items (self, expression, basic, error);
  return key->view != NULL && spread_slots (key, expression, slots, error);
}

/* Step 2's checks: every index value within its dim, then counted from
 * the start, on the view's device. */
static gboolean
wrap_indices (AdvancedKey *key,
              GError     **error)
{
  for (guint k = 0; k < key->n_indices; k++)
    {
      gint64 size = key->view->sizes[key->view_dims[k]];
      g_autofree char *what = g_strdup_printf (_("dim %u with size %" PRId64),
                                               key->view_dims[k], size);
      g_autoptr (LtTensor) here = lt_index_on_device_of (key->indices[k], key->view, error);
      LtTensor *wrapped;

      if (here == NULL || !lt_index_check_range (_("advanced indexing"), here, -size, size, what,
                                                 error))
        return FALSE;
      wrapped = lt_index_as_offsets (here, size, TRUE, error);
      if (wrapped == NULL)
        return FALSE;
      g_object_unref (key->indices[k]);
      key->indices[k] = wrapped;
    }
  return TRUE;
}

static gboolean
broadcast_indices (AdvancedKey *key,
                   GError     **error)
{
  gint64 so_far[LT_MAX_DIMS];
  guint bad_dim;

  key->broadcast_ndim = 0;
  for (guint k = 0; k < key->n_indices; k++)
    {
      GString *shapes;

      memcpy (so_far, key->broadcast, key->broadcast_ndim * sizeof (gint64));
      if (lt_layout_broadcast_shapes (key->broadcast_ndim, so_far, key->indices[k]->ndim,
                                      key->indices[k]->sizes, &key->broadcast_ndim,
                                      key->broadcast, &bad_dim))
        continue;

      shapes = g_string_new (NULL);
      for (guint m = 0; m < key->n_indices; m++)
        {
          g_autofree char *text = lt_layout_shape_to_string (key->indices[m]->ndim,
                                                             key->indices[m]->sizes);

          g_string_append_printf (shapes, "%s%s", m > 0 ? ", " : "", text);
        }
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("shape mismatch: the index tensors could not be broadcast together with "
                     "sizes %s"), shapes->str);
      g_string_free (shapes, TRUE);
      return FALSE;
    }
  return TRUE;
}

/* Step 3: the result's sizes, and which dim of V each of its dims is. */
static gboolean
place_result_dims (AdvancedKey *key,
                   GError     **error)
{
  guint view_ndim = key->view->ndim;
  const gint64 *view_sizes = key->view->sizes;
  gboolean adjacent = TRUE;
  guint rest = 0;
  guint r = 0;

  for (guint k = 1; k < key->n_indices; k++)
    adjacent &= key->view_dims[k] == key->view_dims[0] + k;
  key->first = 0;
  for (guint d = 0; d < view_ndim; d++)
    {
      gboolean indexed = FALSE;

      for (guint k = 0; k < key->n_indices; k++)
        indexed |= key->view_dims[k] == d;
      if (indexed)
        continue;
      if (adjacent && d < key->view_dims[0])
        key->first++;
      rest++;
    }
  if (rest + key->broadcast_ndim > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("advanced indexing: the result would have %u dims; at most %d are allowed"),
                   rest + key->broadcast_ndim, LT_MAX_DIMS);
      return FALSE;
    }

  key->ndim = rest + key->broadcast_ndim;
  for (guint d = 0; d < view_ndim; d++)
    {
      gboolean indexed = FALSE;

      for (guint k = 0; k < key->n_indices; k++)
        indexed |= key->view_dims[k] == d;
      if (indexed)
        continue;
      if (r == key->first)
        r += key->broadcast_ndim;
      key->source_dims[r] = d;
      key->sizes[r++] = view_sizes[d];
    }
  for (guint j = 0; j < key->broadcast_ndim; j++)
    {
      key->source_dims[key->first + j] = G_MAXUINT;
      key->sizes[key->first + j] = key->broadcast[j];
    }
  return TRUE;
}

static gboolean
resolve_key (AdvancedKey       *key,
             LtTensor          *self,
             const char        *expression,
             const char *const *names,
             LtTensor *const   *tensors,
             guint              n_tensors,
             GError           **error)
{
  gint64 picks;

  if (!resolve_items (key, self, expression, names, tensors, n_tensors, error))
    return FALSE;
  if (key->n_indices == 0)
    return TRUE;
  if (!broadcast_indices (key, error) || !place_result_dims (key, error))
    return FALSE;
  if (!lt_layout_numel (key->broadcast_ndim, key->broadcast, &picks)
      || !lt_layout_numel (key->ndim, key->sizes, &key->numel))
    {
      g_autofree char *sizes = lt_layout_shape_to_string (key->ndim, key->sizes);

      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("advanced indexing: a result of sizes %s has more elements than fit in 64 "
                     "bits"), sizes);
      return FALSE;
    }
  /* No value indexes a dim of size 0, so only an empty index may: PyTorch
   * checks this even where the result is empty. */
  for (guint k = 0; k < key->n_indices && picks != 0; k++)
    if (key->view->sizes[key->view_dims[k]] == 0)
      {
        g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                     _("advanced indexing: an index is out of range for dim %u with size 0 "
                       "(only an empty index can index an empty dim)"), key->view_dims[k]);
        return FALSE;
      }
  /* As in PyTorch, whose kernels check the index values as they read
   * them, an empty result checks none. */
  return key->numel == 0 || wrap_indices (key, error);
}

/* @index broadcast to B and placed among the result's dims (sizes 1
 * elsewhere), as PyTorch reshapes it: a view where one exists. */
static LtTensor *
placed_index (AdvancedKey *key,
              LtTensor    *index,
              GError     **error)
{
  g_autoptr (LtTensor) spread = lt_tensor_expand (index, key->broadcast,
                                                  key->broadcast_ndim, error);
  gint64 shape[LT_MAX_DIMS];

  if (spread == NULL)
    return NULL;
  for (guint r = 0; r < key->ndim; r++)
    shape[r] = 1;
  memcpy (shape + key->first, key->broadcast, key->broadcast_ndim * sizeof (gint64));
  return lt_tensor_reshape (spread, shape, key->ndim, error);
}

static gboolean
overflow (AdvancedKey *key,
          GError     **error)
{
  g_autofree char *sizes = lt_layout_shape_to_string (key->ndim, key->sizes);

  g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
               _("advanced indexing: the strides of a result of sizes %s do not fit in 64 bits"),
               sizes);
  return FALSE;
}

static gboolean
contiguous_strides (AdvancedKey *key,
                    gint64      *out_strides,
                    GError     **error)
{
  return lt_layout_contiguous_strides (key->ndim, key->sizes, out_strides)
         || overflow (key, error);
}

/* The strides PyTorch gives the result: its TensorIterator reads the
 * source (the view's strides outside B, 0 inside) and the placed indices.
 * Where every operand has the result's sizes and all are contiguous, the
 * result is; where all are dense, it takes the source's strides; else its
 * dims are sorted by the operands' strides, and laid out in that order. */
static gboolean
result_strides (AdvancedKey *key,
                gint64      *out_strides,
                GError     **error)
{
  gint64 strides[LT_MAX_DIMS + 1][LT_MAX_DIMS];
  const gint64 *operands[LT_MAX_DIMS + 1];
  gboolean same_sizes = TRUE;
  gboolean contiguous, dense;
  guint order[LT_MAX_DIMS];
  gboolean natural = TRUE;
  gint64 next = 1;

  for (guint r = 0; r < key->ndim; r++)
    strides[0][r] = key->source_dims[r] == G_MAXUINT ? 0
                                                     : key->view->strides[key->source_dims[r]];
  contiguous = lt_layout_is_contiguous (key->ndim, key->sizes, strides[0]);
  dense = lt_layout_is_non_overlapping_and_dense (key->ndim, key->sizes, strides[0]);
  for (guint k = 0; k < key->n_indices; k++)
    {
      g_autoptr (LtTensor) placed = placed_index (key, key->given[k], error);

      if (placed == NULL)
        return FALSE;
      same_sizes &= memcmp (placed->sizes, key->sizes, key->ndim * sizeof (gint64)) == 0;
      contiguous &= lt_layout_is_contiguous (key->ndim, placed->sizes, placed->strides);
      dense &= lt_layout_is_non_overlapping_and_dense (key->ndim, placed->sizes,
                                                       placed->strides);
      for (guint r = 0; r < key->ndim; r++)
        strides[k + 1][r] = key->sizes[r] != 1 && placed->sizes[r] == 1
                              ? 0 : placed->strides[r];
    }

  if (same_sizes && contiguous)
    return contiguous_strides (key, out_strides, error);
  if (same_sizes && dense)
    {
      memcpy (out_strides, strides[0], key->ndim * sizeof (gint64));
      return TRUE;
    }

  for (guint op = 0; op <= key->n_indices; op++)
    operands[op] = strides[op];
  lt_layout_iteration_order (key->ndim, key->sizes, key->n_indices + 1, operands, order);
  for (guint i = 0; i < key->ndim; i++)
    natural &= order[i] == key->ndim - 1 - i;
  if (natural)
    return contiguous_strides (key, out_strides, error);
  /* Each stride the product of the sizes of the faster dims, zeros
   * included (an empty result's strides are PyTorch's then too). */
  for (guint i = 0; i < key->ndim; i++)
    {
      out_strides[order[i]] = next;
      if (__builtin_mul_overflow (next, key->sizes[order[i]], &next))
        return overflow (key, error);
    }
  return TRUE;
}

/* The coordinate along result dim @r for every element of the result. */
static LtTensor *
coordinates_along_result_dim (AdvancedKey *key,
                              guint        r,
                              GError     **error)
{
  g_autoptr (LtTensor) line = lt_tensor_new_arange (0, (double) key->sizes[r], 1, LT_DTYPE_INT64,
                                                    error);
  g_autoptr (LtTensor) placed = NULL;
  gint64 shape[LT_MAX_DIMS];

  if (line == NULL)
    return NULL;
  for (guint d = 0; d < key->ndim; d++)
    shape[d] = d == r ? key->sizes[r] : 1;
  placed = lt_tensor_view (line, shape, key->ndim, error);
  return placed != NULL ? lt_index_on_device_of (placed, key->view, error) : NULL;
}

/* The storage index in V's storage of every element of the result, over
 * the result's dims taken in @order (slowest first) when @order is given,
 * else in their own order. */
static LtTensor *
result_offsets (AdvancedKey  *key,
                const guint  *order,
                GError      **error)
{
  guint view_ndim = key->view->ndim;
  LtTensor *coordinates[LT_MAX_DIMS] = { NULL };
  gint64 sizes[LT_MAX_DIMS];
  int dims[LT_MAX_DIMS];
  LtTensor *offsets = NULL;
  gboolean ok = TRUE;

  for (guint r = 0; r < key->ndim; r++)
    {
      dims[r] = order != NULL ? (int) order[r] : (int) r;
      sizes[r] = key->sizes[dims[r]];
    }
  for (guint d = 0; ok && d < view_ndim; d++)
    {
      g_autoptr (LtTensor) along = NULL;
      guint k, r;

      for (k = 0; k < key->n_indices && key->view_dims[k] != d; k++)
        ;
      for (r = 0; r < key->ndim && key->source_dims[r] != d; r++)
        ;
      along = k < key->n_indices ? placed_index (key, key->indices[k], error)
                                 : coordinates_along_result_dim (key, r, error);
      coordinates[d] = along != NULL ? lt_tensor_permute (along, dims, key->ndim, error) : NULL;
      ok = coordinates[d] != NULL;
    }
  if (ok)
    offsets = lt_index_storage_offsets (key->view, coordinates, sizes, key->ndim, error);
  lt_index_clear_grid (coordinates, view_ndim);
  return offsets;
}

/* An empty result with @strides. */
static LtTensor *
empty_result (AdvancedKey  *key,
              LtTensor     *self,
              const gint64 *strides,
              GError      **error)
{
  g_autoptr (LtTensor) empty = lt_tensor_new_contiguous_on (lt_index_backend_of (self),
                                                            _("advanced indexing"),
                                                            lt_tensor_get_dtype (self), 1,
                                                            (gint64[]) { 0 }, error);

  if (empty == NULL)
    return NULL;
  return lt_tensor_as_strided (empty, key->sizes, key->ndim, strides, key->ndim, 0, error);
}

static gboolean
check_names_and_tensors (const char        *op,
                         const char *const *names,
                         guint              n_tensors,
                         GError           **error)
{
  guint n_names = names != NULL ? g_strv_length ((char **) names) : 0;

  if (n_names == n_tensors)
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
               _("%s: %u names for %u tensors; give each tensor one name"), op, n_names,
               n_tensors);
  return FALSE;
}

/**
 * lt_tensor_index_with_tensors:
 * @self: an #LtTensor
 * @expression: an index such as `[idx, 1:]`, where each name (here `idx`)
 *   is one of @tensors; the items of lt_tensor_index() are allowed too
 * @names: (array zero-terminated=1) (nullable): the names of @tensors, in
 *   order
 * @tensors: (array length=n_tensors): the tensors the names stand for:
 *   int64 indices, or bool (or uint8) masks
 * @n_tensors: the length of @tensors
 * @error: return location for a #GError
 *
 * Indexes @self as Python indexes a PyTorch tensor with a key that holds
 * tensors: `t[idx, 1:]`. An int64 tensor picks, along its dim, the elements
 * at its values (negative ones counted from the end); a bool mask picks
 * the elements where it is true, over as many dims as it has; index tensors
 * broadcast together. Their sizes take the place of the dims they index
 * where those are adjacent, else come first. The result is then a copy,
 * laid out in memory as PyTorch lays it out. A key whose only tensors are
 * 0-dim integer ones indexes as the integers they hold, and the result is
 * a view, as in PyTorch.
 *
 * Returns: (transfer full): the copy (or view), or %NULL with @error set
 */
LtTensor *
lt_tensor_index_with_tensors (LtTensor          *self,
                              const char        *expression,
                              const char *const *names,
                              LtTensor *const   *tensors,
                              guint              n_tensors,
                              GError           **error)
{
  g_auto (AdvancedKey) key = { 0 };
  gint64 strides[LT_MAX_DIMS];
  guint slowest_first[LT_MAX_DIMS];
  g_autoptr (LtTensor) offsets = NULL;
  g_autoptr (LtTensor) gathered = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_names_and_tensors ("lt_tensor_index_with_tensors()", names, n_tensors, error)
      || !lt_tensor_check_unnamed (_("advanced indexing"), self, error)
      || !resolve_key (&key, self, expression, names, tensors, n_tensors, error))
    return NULL;
  if (key.n_indices == 0)
    return g_steal_pointer (&key.view);
  if (!result_strides (&key, strides, error))
    return NULL;
  if (key.numel == 0)
    return empty_result (&key, self, strides, error);

  /* Gathered with the dims in memory order (the largest stride first),
   * then given the strides. */
  for (guint r = 0; r < key.ndim; r++)
    slowest_first[r] = r;
  for (guint i = 1; i < key.ndim; i++)
    for (guint j = i; j > 0 && strides[slowest_first[j - 1]] < strides[slowest_first[j]]; j--)
      {
        guint swap = slowest_first[j];

        slowest_first[j] = slowest_first[j - 1];
        slowest_first[j - 1] = swap;
      }
  offsets = result_offsets (&key, slowest_first, error);
  gathered = offsets != NULL ? lt_index_gather_storage (_("advanced indexing"), key.view, offsets,
                                                        error)
                             : NULL;
  if (gathered == NULL)
    return NULL;
  return lt_tensor_as_strided (gathered, key.sizes, key.ndim, strides, key.ndim, 0, error);
}

/* The mask of an expression that is one bool mask over leading dims of
 * @self, such as `[m]`, spread with dims of 1 to @self's dims and on its
 * device: `t[m] = value` is then a masked_fill_(), which lists no
 * elements. NULL for any other expression. */
static LtTensor *
leading_mask (LtTensor          *self,
              const char        *expression,
              const char *const *names,
              LtTensor *const   *tensors,
              guint              n_tensors)
{
  g_autoptr (GArray) items = lt_index_expr_parse (expression, NULL);
  g_autoptr (LtTensor) spread = NULL;
  const LtIndexItem *item;
  LtTensor *mask;
  gint64 shape[LT_MAX_DIMS];

  if (items == NULL || items->len != 1)
    return NULL;
  item = &g_array_index (items, LtIndexItem, 0);
  if (item->kind != LT_INDEX_ITEM_NAME)
    return NULL;
  mask = find_tensor (expression, item, names, tensors, n_tensors, NULL);
  if (mask == NULL || lt_tensor_get_dtype (mask) != LT_DTYPE_BOOL || mask->ndim > self->ndim
      || memcmp (mask->sizes, self->sizes, mask->ndim * sizeof (gint64)) != 0)
    return NULL;
  for (guint d = 0; d < self->ndim; d++)
    shape[d] = d < mask->ndim ? mask->sizes[d] : 1;
  spread = lt_tensor_reshape (mask, shape, self->ndim, NULL);
  return spread != NULL ? lt_index_on_device_of (spread, self, NULL) : NULL;
}

/**
 * lt_tensor_index_put_with_tensors_:
 * @self: the #LtTensor to write into
 * @expression: an index such as `[idx, 1:]`, as for
 *   lt_tensor_index_with_tensors()
 * @names: (array zero-terminated=1) (nullable): the names of @tensors, in
 *   order
 * @tensors: (array length=n_tensors): the tensors the names stand for
 * @n_tensors: the length of @tensors
 * @values: the values, of @self's dtype (or a number, which takes it),
 *   broadcastable to the sizes lt_tensor_index_with_tensors() would return
 * @accumulate: whether to add the values to the elements instead of
 *   writing them
 * @error: return location for a #GError
 *
 * PyTorch's `t[idx, 1:] = values` and `index_put_()`: writes @values into
 * the elements of @self that lt_tensor_index_with_tensors() would read.
 * Where the indices pick an element more than once, the last write stays;
 * with @accumulate, every value picked for it is added.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing written
 */
gboolean
lt_tensor_index_put_with_tensors_ (LtTensor          *self,
                                   const char        *expression,
                                   const char *const *names,
                                   LtTensor *const   *tensors,
                                   guint              n_tensors,
                                   LtTensor          *values,
                                   gboolean           accumulate,
                                   GError           **error)
{
  const char *op = "lt_tensor_index_put_with_tensors_()";
  g_auto (AdvancedKey) key = { 0 };
  g_autoptr (LtTensor) converted = NULL;
  g_autoptr (LtTensor) spread = NULL;
  g_autoptr (LtTensor) offsets = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (expression != NULL, FALSE);
  g_return_val_if_fail (tensors != NULL || n_tensors == 0, FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (values), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_names_and_tensors (op, names, n_tensors, error)
      || !lt_tensor_check_unnamed (op, self, error)
      || !lt_tensor_check_writable (op, self, error))
    return FALSE;
  if (values->is_wrapped_number)
    {
      /* A number (lt_tensor_new_scalar_double()) takes the tensor's dtype
       * and goes to its device. */
      g_autoptr (LtTensor) typed = lt_tensor_to_dtype (values, lt_tensor_get_dtype (self), error);

      converted = typed != NULL ? lt_index_on_device_of (typed, self, error) : NULL;
      if (converted == NULL)
        return FALSE;
      values = converted;
    }
  if (!lt_tensor_check_same_device (op, (LtTensor *[]) { self, values }, 2, error))
    return FALSE;
  if (!accumulate && values->ndim == 0)
    {
      g_autoptr (LtTensor) mask = leading_mask (self, expression, names, tensors, n_tensors);

      if (mask != NULL)
        return lt_tensor_masked_fill_ (self, mask, values, error);
    }
  if (lt_tensor_get_dtype (values) != lt_tensor_get_dtype (self))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: the tensor is %s but the values are %s; convert them with to_dtype() "
                     "first"), op, lt_dtype_get_name (lt_tensor_get_dtype (self)),
                   lt_dtype_get_name (lt_tensor_get_dtype (values)));
      return FALSE;
    }
  if (!resolve_key (&key, self, expression, names, tensors, n_tensors, error))
    return FALSE;

  if (key.n_indices == 0)
    {
      /* A view: written as any view is. */
      g_autoptr (LtTensor) sum = accumulate ? lt_tensor_binary (key.view, LT_BINARY_OP_ADD,
                                                                values, error)
                                            : g_object_ref (values);

      return sum != NULL && lt_tensor_copy_from (key.view, sum, error);
    }

  spread = lt_tensor_expand (values, key.sizes, key.ndim, NULL);
  if (spread == NULL)
    {
      g_autofree char *values_text = lt_layout_shape_to_string (
        values->ndim, values->sizes);
      g_autofree char *sizes_text = lt_layout_shape_to_string (key.ndim, key.sizes);

      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("shape mismatch: values of sizes %s cannot be broadcast to the indexing "
                     "result of sizes %s"), values_text, sizes_text);
      return FALSE;
    }
  if (key.numel == 0)
    return TRUE;
  offsets = result_offsets (&key, NULL, error);
  return offsets != NULL
         && lt_index_scatter_storage (self, offsets, spread, accumulate, error);
}
