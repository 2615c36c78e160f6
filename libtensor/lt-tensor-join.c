/* lt-tensor-join.c: joining and repeating tensors, and the triangles of
 * matrices
 *
 * cat(), stack(), hstack(), vstack(), dstack(), repeat(), tile(), roll(),
 * tril() and triu() with PyTorch's semantics. None needs a kernel of its
 * own: each makes its result on the inputs' device and fills it through
 * copies into views of it (lt_tensor_copy_from()) or an element-wise
 * where(), so every backend runs them.
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
#include "lt-tensor-private.h"

/* For g_return_val_if_fail(): @tensors holds @n_tensors tensors. */
static gboolean
are_tensors (LtTensor *const *tensors,
             guint            n_tensors)
{
  if (tensors == NULL && n_tensors > 0)
    return FALSE;
  for (guint i = 0; i < n_tensors; i++)
    if (!LT_IS_TENSOR (tensors[i]))
      return FALSE;
  return TRUE;
}

static gboolean
same_sizes (LtTensor *a,
            LtTensor *b)
{
  return a->ndim == b->ndim && memcmp (a->sizes, b->sizes, a->ndim * sizeof (gint64)) == 0;
}

/* PyTorch's legacy rule: 1-dim empty tensors are left out of cat(),
 * whatever the other tensors' dims. */
static gboolean
skipped_by_cat (LtTensor *tensor)
{
  return tensor->ndim == 1 && tensor->sizes[0] == 0;
}

static gboolean
check_tensor_list (const char      *op,
                   LtTensor *const *tensors,
                   guint            n_tensors,
                   GError         **error)
{
  if (n_tensors == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s expects a non-empty list of tensors"), op);
      return FALSE;
    }
  return lt_tensor_check_same_device (op, tensors, n_tensors, error);
}

/* The names of the joined tensors: those they all have, which must agree. */
static gboolean
joined_names (const char       *op,
              LtTensor *const  *tensors,
              guint             n_tensors,
              const char     ***out_names,
              GError          **error)
{
  LtTensor *first = tensors[0];

  *out_names = NULL;
  for (guint i = 0; i < n_tensors; i++)
    {
      gboolean same = tensors[i]->ndim == first->ndim;

      for (guint d = 0; same && d < first->ndim; d++)
        {
          const char *a = first->names != NULL ? first->names[d] : NULL;
          const char *b = tensors[i]->names != NULL ? tensors[i]->names[d] : NULL;

          same = a == b;
        }
      if (!same)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("%s: tensor %u has other dim names than tensor 0; rename or "
                         "align them first"),
                       op, i);
          return FALSE;
        }
    }
  *out_names = (const char **) first->names;
  return TRUE;
}

static LtTensor *
cat_checked (const char      *op,
             LtTensor *const *tensors,
             guint            n_tensors,
             int              dim,
             GError         **error)
{
  g_autoptr (LtTensor) result = NULL;
  g_autoptr (GPtrArray) kept = g_ptr_array_new ();
  gint64 sizes[LT_MAX_DIMS];
  const char **names;
  LtTensor *first;
  LtDType dtype;
  guint d, ndim;
  gint64 offset = 0;

  if (!check_tensor_list (op, tensors, n_tensors, error))
    return NULL;

  for (guint i = 0; i < n_tensors; i++)
    {
      if (tensors[i]->ndim == 0)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: tensor %u has no dims, and a 0-dim tensor cannot be joined; "
                         "unsqueeze it, or use stack()"),
                       op, i);
          return NULL;
        }
      if (!skipped_by_cat (tensors[i]))
        g_ptr_array_add (kept, tensors[i]);
    }

  dtype = lt_tensor_result_type_of (tensors, n_tensors);
  if (kept->len == 0)
    {
      /* Only 1-dim empty tensors: the result is one. */
      return lt_tensor_new_contiguous_on (lt_storage_get_backend (tensors[0]->storage), op,
                                          dtype, 1, (gint64[]) { 0 }, error);
    }

  first = g_ptr_array_index (kept, 0);
  ndim = first->ndim;
  if (!lt_tensor_wrap_dim (op, dim, ndim, &d, error))
    return NULL;
  memcpy (sizes, first->sizes, ndim * sizeof (gint64));
  sizes[d] = 0;

  for (guint i = 0; i < kept->len; i++)
    {
      LtTensor *tensor = g_ptr_array_index (kept, i);

      if (tensor->ndim != ndim)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                       _("%s: the tensors must have the same number of dims (or be 1-dim and "
                         "empty), but one has %u and another %u"),
                       op, ndim, tensor->ndim);
          return NULL;
        }
      for (guint k = 0; k < ndim; k++)
        if (k != d && tensor->sizes[k] != first->sizes[k])
          {
            g_autofree char *a = lt_layout_shape_to_string (ndim, first->sizes);
            g_autofree char *b = lt_layout_shape_to_string (ndim, tensor->sizes);

            g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                         _("%s: sizes must match except in dim %u, but %s and %s differ in "
                           "dim %u"),
                         op, d, a, b, k);
            return NULL;
          }
      if (tensor->sizes[d] > G_MAXINT64 - sizes[d])
        {
          g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                       _("%s: the joined size of dim %u does not fit in 64 bits"), op, d);
          return NULL;
        }
      sizes[d] += tensor->sizes[d];
    }

  if (!joined_names (op, (LtTensor *const *) kept->pdata, kept->len, &names, error))
    return NULL;
  if (!lt_tensor_check_sizes (op, sizes, ndim, error))
    return NULL;

  result = lt_tensor_new_contiguous_on (lt_storage_get_backend (first->storage), op, dtype,
                                        ndim, sizes, error);
  if (result == NULL)
    return NULL;

  for (guint i = 0; i < kept->len; i++)
    {
      LtTensor *tensor = g_ptr_array_index (kept, i);
      g_autoptr (LtTensor) slot = NULL;

      if (tensor->sizes[d] == 0)
        continue;
      slot = lt_tensor_narrow (result, d, offset, tensor->sizes[d], error);
      if (slot == NULL || !lt_tensor_copy_from (slot, tensor, error))
        return NULL;
      offset += tensor->sizes[d];
    }
  lt_tensor_set_names_internal (result, names);
  return g_steal_pointer (&result);
}

/**
 * lt_cat:
 * @tensors: (array length=n_tensors): the tensors to join, on one device
 * @n_tensors: the number of tensors, at least 1
 * @dim: the dim to join along (negative counts from the end)
 * @error: return location for a #GError
 *
 * PyTorch's `torch.cat()`: the tensors one after the other along @dim, in
 * a new contiguous tensor of their promoted dtype. Their sizes must match
 * in every other dim. As in PyTorch, 1-dim empty tensors are left out
 * whatever their dims, and 0-dim tensors are an error.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 */
LtTensor *
lt_cat (LtTensor **tensors,
        guint      n_tensors,
        int        dim,
        GError   **error)
{
  g_return_val_if_fail (are_tensors (tensors, n_tensors), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return cat_checked ("cat()", tensors, n_tensors, dim, error);
}

/* Each tensor of @tensors reshaped by @make (unsqueeze or atleast_Nd), then
 * joined along @dim. */
typedef LtTensor *(*Reshape) (LtTensor *tensor,
                              int       dim,
                              GError  **error);

static LtTensor *
join_reshaped (const char      *op,
               LtTensor *const *tensors,
               guint            n_tensors,
               Reshape          reshape,
               int              reshape_dim,
               int              dim,
               GError         **error)
{
  g_autoptr (GPtrArray) reshaped = NULL;

  if (!check_tensor_list (op, tensors, n_tensors, error))
    return NULL;

  reshaped = g_ptr_array_new_full (n_tensors, g_object_unref);
  for (guint i = 0; i < n_tensors; i++)
    {
      LtTensor *tensor = reshape (tensors[i], reshape_dim, error);

      if (tensor == NULL)
        return NULL;
      g_ptr_array_add (reshaped, tensor);
    }
  return cat_checked (op, (LtTensor *const *) reshaped->pdata, n_tensors, dim, error);
}

/**
 * lt_stack:
 * @tensors: (array length=n_tensors): the tensors to stack, of equal sizes
 * @n_tensors: the number of tensors, at least 1
 * @dim: where the new dim goes, from -(dim + 1) to dim of the tensors
 * @error: return location for a #GError
 *
 * PyTorch's `torch.stack()`: the tensors joined along a new dim @dim, so
 * that `stack(ts, 0)[i]` is `ts[i]`.
 *
 * Returns: (transfer full): the stacked tensor, or %NULL with @error set
 */
LtTensor *
lt_stack (LtTensor **tensors,
          guint      n_tensors,
          int        dim,
          GError   **error)
{
  guint d;

  g_return_val_if_fail (are_tensors (tensors, n_tensors), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_tensor_list ("stack()", tensors, n_tensors, error))
    return NULL;
  for (guint i = 1; i < n_tensors; i++)
    if (!same_sizes (tensors[i], tensors[0]))
      {
        g_autofree char *a = lt_layout_shape_to_string (tensors[0]->ndim, tensors[0]->sizes);
        g_autofree char *b = lt_layout_shape_to_string (tensors[i]->ndim, tensors[i]->sizes);

        g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                     _("stack(): the tensors must have equal sizes, but tensor 0 has %s and "
                       "tensor %u has %s"),
                     a, i, b);
        return NULL;
      }
  if (!lt_tensor_wrap_dim ("stack()", dim, tensors[0]->ndim + 1, &d, error))
    return NULL;
  return join_reshaped ("stack()", tensors, n_tensors, lt_tensor_unsqueeze, d, d, error);
}

/* NumPy's atleast_1d/2d/3d, as PyTorch has them: views with dims of size 1
 * added where NumPy adds them (a vector (n) is (1, n) in 2 dims and
 * (1, n, 1) in 3). */
static LtTensor *
at_least_dims (LtTensor *tensor,
               int       min_dims,
               GError  **error)
{
  g_autoptr (LtTensor) result = lt_tensor_alias (tensor);

  while (result->ndim < (guint) min_dims)
    {
      /* New dims go in front, but for the 3 dims of a vector or a matrix: a
       * vector (n) becomes (1, n, 1), a matrix (m, n) becomes (m, n, 1). */
      int position = min_dims == 3 && result->ndim == 2 && tensor->ndim > 0 ? 2 : 0;
      LtTensor *grown = lt_tensor_unsqueeze (result, position, error);

      if (grown == NULL)
        return NULL;
      g_object_unref (result);
      result = grown;
    }
  return g_steal_pointer (&result);
}

/**
 * lt_hstack:
 * @tensors: (array length=n_tensors): the tensors to join
 * @n_tensors: the number of tensors, at least 1
 * @error: return location for a #GError
 *
 * PyTorch's `torch.hstack()`: the tensors joined along dim 1 (columns), or
 * along dim 0 if they are vectors; 0-dim tensors count as vectors of one.
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 */
LtTensor *
lt_hstack (LtTensor **tensors,
           guint      n_tensors,
           GError   **error)
{
  g_return_val_if_fail (are_tensors (tensors, n_tensors), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_tensor_list ("hstack()", tensors, n_tensors, error))
    return NULL;
  return join_reshaped ("hstack()", tensors, n_tensors, at_least_dims, 1,
                        tensors[0]->ndim <= 1 ? 0 : 1, error);
}

/**
 * lt_vstack:
 * @tensors: (array length=n_tensors): the tensors to join
 * @n_tensors: the number of tensors, at least 1
 * @error: return location for a #GError
 *
 * PyTorch's `torch.vstack()`: the tensors joined along dim 0 (rows), after
 * vectors of n become matrices of (1, n).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 */
LtTensor *
lt_vstack (LtTensor **tensors,
           guint      n_tensors,
           GError   **error)
{
  g_return_val_if_fail (are_tensors (tensors, n_tensors), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return join_reshaped ("vstack()", tensors, n_tensors, at_least_dims, 2, 0, error);
}

/**
 * lt_dstack:
 * @tensors: (array length=n_tensors): the tensors to join
 * @n_tensors: the number of tensors, at least 1
 * @error: return location for a #GError
 *
 * PyTorch's `torch.dstack()`: the tensors joined along dim 2 (depth), after
 * vectors of n become (1, n, 1) and matrices of (m, n) become (m, n, 1).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 */
LtTensor *
lt_dstack (LtTensor **tensors,
           guint      n_tensors,
           GError   **error)
{
  g_return_val_if_fail (are_tensors (tensors, n_tensors), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return join_reshaped ("dstack()", tensors, n_tensors, at_least_dims, 3, 2, error);
}

/**
 * lt_tensor_repeat:
 * @self: an #LtTensor
 * @repeats: (array length=n_repeats): how many times to repeat each dim
 * @n_repeats: the number of repeats, at least the number of dims
 * @error: return location for a #GError
 *
 * PyTorch's `repeat()`: a new tensor holding @repeats[d] copies of @self
 * along each dim d, after @self gains leading dims of size 1 up to
 * @n_repeats dims. `tensor([1, 2]).repeat(2, 2)` is `[[1, 2, 1, 2],
 * [1, 2, 1, 2]]`.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_repeat (LtTensor     *self,
                  const gint64 *repeats,
                  guint         n_repeats,
                  GError      **error)
{
  g_autoptr (LtTensor) interleaved = NULL;
  g_autoptr (LtTensor) expanded = NULL;
  g_autoptr (LtTensor) copy = NULL;
  gint64 sizes[LT_MAX_DIMS], expanded_sizes[LT_MAX_DIMS];
  gint64 spread_sizes[LT_MAX_DIMS], spread_strides[LT_MAX_DIMS];
  guint lead;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (repeats != NULL || n_repeats == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_repeats < self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("repeat(): %u repeats are fewer than the tensor's %u dims; give one for "
                     "each dim (or more, for new leading dims)"),
                   n_repeats, self->ndim);
      return NULL;
    }
  if (2 * n_repeats > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("repeat(): %u repeats are more than the %d it can take"), n_repeats,
                   LT_MAX_DIMS / 2);
      return NULL;
    }
  if (!lt_tensor_check_unnamed ("repeat()", self, error))
    return NULL;

  lead = n_repeats - self->ndim;
  for (guint d = 0; d < n_repeats; d++)
    {
      gint64 size = d < lead ? 1 : self->sizes[d - lead];

      if (repeats[d] < 0)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("repeat(): repeat %" PRId64 " of dim %u is negative; repeats "
                         "must be >= 0"), repeats[d], d);
          return NULL;
        }
      if (size != 0 && repeats[d] > G_MAXINT64 / size)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                       _("repeat(): dim %u of size %" PRId64 " repeated %"
                         PRId64 " times does not fit in 64 bits"), d, size, repeats[d]);
          return NULL;
        }
      sizes[d] = size * repeats[d];
      /* Each dim d becomes the pair (repeats[d], size): the copies, then
       * the elements, the first with stride 0. */
      spread_sizes[2 * d] = 1;
      spread_strides[2 * d] = 0;
      spread_sizes[2 * d + 1] = size;
      spread_strides[2 * d + 1] = d < lead ? 0 : self->strides[d - lead];
    }
  if (!lt_tensor_check_sizes ("repeat()", sizes, n_repeats, error))
    return NULL;

  interleaved = lt_tensor_new_view (self->storage, 2 * n_repeats, spread_sizes, spread_strides,
                                    self->storage_offset);
  for (guint d = 0; d < n_repeats; d++)
    {
      expanded_sizes[2 * d] = repeats[d];
      expanded_sizes[2 * d + 1] = spread_sizes[2 * d + 1];
    }
  expanded = lt_tensor_expand (interleaved, expanded_sizes, 2 * n_repeats, error);
  if (expanded == NULL)
    return NULL;
  /* Always a copy, even where every repeat is 1, as in PyTorch. */
  copy = lt_tensor_new_contiguous_on (lt_storage_get_backend (self->storage), "repeat()",
                                      lt_tensor_get_dtype (self), 2 * n_repeats,
                                      expanded_sizes, error);
  if (copy == NULL || !lt_tensor_copy_from (copy, expanded, error))
    return NULL;
  return lt_tensor_view (copy, sizes, n_repeats, error);
}

/**
 * lt_tensor_tile:
 * @self: an #LtTensor
 * @reps: (array length=n_reps): how many times to repeat each dim
 * @n_reps: the number of reps
 * @error: return location for a #GError
 *
 * PyTorch's (and NumPy's) `tile()`: lt_tensor_repeat(), except that fewer
 * reps than dims are allowed and count from the last dim: `reps` (2,) of a
 * matrix repeats its columns.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_tile (LtTensor     *self,
                const gint64 *reps,
                guint         n_reps,
                GError      **error)
{
  gint64 padded[LT_MAX_DIMS];
  guint lead;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (reps != NULL || n_reps == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_reps >= self->ndim)
    return lt_tensor_repeat (self, reps, n_reps, error);
  lead = self->ndim - n_reps;
  for (guint d = 0; d < self->ndim; d++)
    padded[d] = d < lead ? 1 : reps[d - lead];
  return lt_tensor_repeat (self, padded, self->ndim, error);
}

/* @self rolled by @shift along @dim into a new contiguous tensor. */
static LtTensor *
roll_dim (LtTensor *self,
          gint64    shift,
          guint     dim,
          GError  **error)
{
  g_autoptr (LtTensor) result = NULL;
  g_autoptr (LtTensor) head = NULL;
  g_autoptr (LtTensor) tail = NULL;
  g_autoptr (LtTensor) head_slot = NULL;
  g_autoptr (LtTensor) tail_slot = NULL;
  gint64 size = self->sizes[dim];
  gint64 start;

  result = lt_tensor_new_contiguous_on (lt_storage_get_backend (self->storage), "roll()",
                                        lt_tensor_get_dtype (self), self->ndim, self->sizes,
                                        error);
  if (result == NULL)
    return NULL;
  if (size == 0)
    return g_steal_pointer (&result);

  /* Element i goes to (i + shift) mod size: the last `shift` elements come
   * first. */
  start = ((size - shift % size) % size + size) % size;
  tail = lt_tensor_narrow (self, dim, start, size - start, error);
  head = lt_tensor_narrow (self, dim, 0, start, error);
  if (tail == NULL || head == NULL)
    return NULL;
  tail_slot = lt_tensor_narrow (result, dim, 0, size - start, error);
  head_slot = lt_tensor_narrow (result, dim, size - start, start, error);
  if (tail_slot == NULL || head_slot == NULL
      || !lt_tensor_copy_from (tail_slot, tail, error)
      || !lt_tensor_copy_from (head_slot, head, error))
    return NULL;
  return g_steal_pointer (&result);
}

/**
 * lt_tensor_roll:
 * @self: an #LtTensor
 * @shifts: (array length=n_shifts): how far to move the elements along each
 *   dim of @dims; negative moves them back
 * @n_shifts: the number of shifts
 * @dims: (array length=n_dims) (nullable): the dims to roll, one per shift;
 *   %NULL or none to roll the flattened tensor by one shift
 * @n_dims: the number of dims
 * @error: return location for a #GError
 *
 * PyTorch's `roll()`: a copy with the elements moved @shifts[i] places
 * along @dims[i], those that fall off one end coming back at the other.
 * Without dims the tensor is rolled as if flattened, and keeps its shape.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_roll (LtTensor     *self,
                const gint64 *shifts,
                guint         n_shifts,
                const int    *dims,
                guint         n_dims,
                GError      **error)
{
  g_autoptr (LtTensor) result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shifts != NULL || n_shifts == 0, NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_dims == 0)
    {
      g_autoptr (LtTensor) flat = NULL;
      g_autoptr (LtTensor) rolled = NULL;

      if (n_shifts != 1)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("roll(): without dims it takes one shift, not %u; give a dim for each "
                         "shift"), n_shifts);
          return NULL;
        }
      flat = lt_tensor_reshape (self, (gint64[]) { -1 }, 1, error);
      if (flat == NULL)
        return NULL;
      rolled = roll_dim (flat, shifts[0], 0, error);
      if (rolled == NULL)
        return NULL;
      return lt_tensor_view (rolled, self->sizes, self->ndim, error);
    }
  if (n_shifts != n_dims)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("roll(): %u shifts for %u dims; give one shift for each dim"), n_shifts,
                   n_dims);
      return NULL;
    }
  if (!lt_tensor_check_unnamed ("roll()", self, error))
    return NULL;
  if (self->ndim == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("roll(): a 0-dim tensor has no dim %d to roll; roll it without dims"),
                   dims[0]);
      return NULL;
    }

  result = lt_tensor_alias (self);
  for (guint i = 0; i < n_dims; i++)
    {
      LtTensor *rolled;
      guint d;

      if (!lt_tensor_wrap_dim ("roll()", dims[i], self->ndim, &d, error))
        return NULL;
      rolled = roll_dim (result, shifts[i], d, error);
      if (rolled == NULL)
        return NULL;
      g_object_unref (result);
      result = rolled;
    }
  return g_steal_pointer (&result);
}

/* tril() and triu(): where(keep, self, 0), keep being whether column - row
 * is at most (tril) or at least (triu) @diagonal, made on the CPU and moved
 * to @self's device. */
static LtTensor *
triangle (const char *op,
          LtTensor   *self,
          gint64      diagonal,
          gboolean    lower,
          GError    **error)
{
  g_autoptr (LtTensor) rows = NULL;
  g_autoptr (LtTensor) row_column = NULL;
  g_autoptr (LtTensor) columns = NULL;
  g_autoptr (LtTensor) offsets = NULL;
  g_autoptr (LtTensor) bound = NULL;
  g_autoptr (LtTensor) keep = NULL;
  g_autoptr (LtTensor) keep_here = NULL;
  g_autoptr (LtTensor) zero = NULL;
  g_autoptr (LtTensor) zero_here = NULL;
  g_autoptr (LtTensor) kept = NULL;
  g_autoptr (LtDevice) device = NULL;
  gint64 n_rows, n_columns;

  if (self->ndim < 2)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   g_dngettext (lt_gettext_domain (),
                                "%s needs a matrix or a batch of them, but this tensor has %u dim",
                                "%s needs a matrix or a batch of them, but this tensor has %u dims",
                                self->ndim),
                   op, self->ndim);
      return NULL;
    }
  n_rows = self->sizes[self->ndim - 2];
  n_columns = self->sizes[self->ndim - 1];

  rows = lt_tensor_new_arange (0, (double) n_rows, 1, LT_DTYPE_INT64, error);
  columns = lt_tensor_new_arange (0, (double) n_columns, 1, LT_DTYPE_INT64, error);
  if (rows == NULL || columns == NULL)
    return NULL;
  row_column = lt_tensor_unsqueeze (rows, 1, error);
  if (row_column == NULL)
    return NULL;
  offsets = lt_tensor_binary (columns, LT_BINARY_OP_SUB, row_column, error);
  if (offsets == NULL)
    return NULL;
  bound = lt_tensor_new_scalar_int (diagonal);
  keep = lt_tensor_binary (offsets, lower ? LT_BINARY_OP_LE : LT_BINARY_OP_GE, bound, error);
  zero = lt_tensor_new_zeros (lt_tensor_get_dtype (self), NULL, 0, error);
  if (keep == NULL || zero == NULL)
    return NULL;

  device = lt_tensor_get_device (self);
  keep_here = lt_tensor_to_device (keep, device, error);
  zero_here = lt_tensor_to_device (zero, device, error);
  if (keep_here == NULL || zero_here == NULL)
    return NULL;
  kept = lt_tensor_where (keep_here, self, zero_here, error);
  if (kept == NULL)
    return NULL;
  /* PyTorch's result is contiguous whatever the input's layout. */
  return lt_tensor_contiguous (kept, error);
}

/**
 * lt_tensor_tril:
 * @self: an #LtTensor with at least 2 dims
 * @diagonal: the last diagonal kept: 0 the main one, 1 the one above it, -1
 *   the one below
 * @error: return location for a #GError
 *
 * PyTorch's `tril()`: a copy of the lower triangle of each matrix of @self
 * (the last two dims), the elements above diagonal @diagonal set to 0.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_tril (LtTensor *self,
                gint64    diagonal,
                GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return triangle ("tril()", self, diagonal, TRUE, error);
}

/**
 * lt_tensor_triu:
 * @self: an #LtTensor with at least 2 dims
 * @diagonal: the first diagonal kept: 0 the main one, 1 the one above it,
 *   -1 the one below
 * @error: return location for a #GError
 *
 * PyTorch's `triu()`: a copy of the upper triangle of each matrix of @self
 * (the last two dims), the elements below diagonal @diagonal set to 0.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_triu (LtTensor *self,
                gint64    diagonal,
                GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return triangle ("triu()", self, diagonal, FALSE, error);
}
