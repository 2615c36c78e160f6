/* lt-tensor-views-derived.c: the view operations PyTorch defines in terms
 * of the basic ones
 *
 * view_as(), reshape_as(), swapaxes(), mT, adjoint(), real, imag,
 * tensor_split(), hsplit(), vsplit(), dsplit() and detach() add no metadata
 * arithmetic of their own: each checks its arguments with PyTorch's rules
 * and messages, then calls the view operations of lt-tensor-views.c. The
 * results are views exactly where PyTorch's are, with one exception that
 * follows from libtensor having no conjugate bit: the adjoint of a complex
 * tensor is a copy (see lt_tensor_conj()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-pointwise.h"
#include "lt-tensor-private.h"

/**
 * lt_tensor_view_as:
 * @self: an #LtTensor
 * @other: the tensor whose sizes the view takes
 * @error: return location for a #GError
 *
 * `self.view(other.size())`: a view of @self with @other's sizes, under
 * the rules of lt_tensor_view().
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_view_as (LtTensor *self,
                   LtTensor *other,
                   GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return lt_tensor_view (self, other->sizes, other->ndim, error);
}

/**
 * lt_tensor_reshape_as:
 * @self: an #LtTensor
 * @other: the tensor whose sizes the result takes
 * @error: return location for a #GError
 *
 * `self.reshape(other.size())`: a view where lt_tensor_reshape() can make
 * one, else a copy.
 *
 * Returns: (transfer full): the view or copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_reshape_as (LtTensor *self,
                      LtTensor *other,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return lt_tensor_reshape (self, other->sizes, other->ndim, error);
}

/**
 * lt_tensor_swapaxes:
 * @self: an #LtTensor
 * @axis0: the first dim (negative counts from the end)
 * @axis1: the second dim
 * @error: return location for a #GError
 *
 * NumPy's name for lt_tensor_transpose(), which PyTorch also has as
 * `swapaxes()` and `swapdims()`.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_swapaxes (LtTensor *self,
                    int       axis0,
                    int       axis1,
                    GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return lt_tensor_transpose (self, axis0, axis1, error);
}

/* mT and adjoint() take matrices, batches of them, and (as in PyTorch, as
 * themselves) 0-dim tensors. */
static gboolean
check_matrices (const char *op,
                LtTensor   *self,
                GError    **error)
{
  if (self->ndim != 1)
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
               _("%s is only supported on matrices or batches of matrices, but this tensor has "
                 "1 dim; a vector is its own transpose"), op);
  return FALSE;
}

static LtTensor *
transpose_matrices (LtTensor *self,
                    GError  **error)
{
  if (self->ndim == 0)
    return lt_tensor_alias (self);
  return lt_tensor_transpose (self, -2, -1, error);
}

/**
 * lt_tensor_mt:
 * @self: an #LtTensor with 2 dims or more (or 0)
 * @error: return location for a #GError
 *
 * PyTorch's `mT`: the view with the last two dims swapped, so that a batch
 * of matrices becomes the batch of their transposes. A 0-dim tensor is its
 * own (a new view of it).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_mt (LtTensor *self,
              GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_matrices ("mT", self, error))
    return NULL;
  return transpose_matrices (self, error);
}

/**
 * lt_tensor_conj:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * The complex conjugate. For tensors that are not complex this is @self
 * (a new view of it), as in PyTorch. For complex tensors it is a copy with
 * the imaginary parts negated, in @self's memory order: libtensor has no
 * conjugate bit, so where PyTorch returns a lazily conjugated view, writes
 * through this result do not reach @self.
 *
 * Returns: (transfer full): the view or copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_conj (LtTensor *self,
                GError  **error)
{
  g_autoptr(LtTensor) copy = NULL;
  g_autoptr(LtTensor) pairs = NULL;
  g_autoptr(LtTensor) imaginary = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_complex (lt_tensor_get_dtype (self)))
    return lt_tensor_alias (self);

  copy = lt_tensor_clone (self, error);
  if (copy == NULL)
    return NULL;
  pairs = lt_tensor_view_as_real (copy, error);
  if (pairs == NULL)
    return NULL;
  imaginary = lt_tensor_select (pairs, -1, 1, error);
  if (imaginary == NULL || !lt_tensor_unary_ (imaginary, LT_UNARY_OP_NEG, error))
    return NULL;
  return g_steal_pointer (&copy);
}

/**
 * lt_tensor_adjoint:
 * @self: an #LtTensor with 2 dims or more (or 0)
 * @error: return location for a #GError
 *
 * PyTorch's `adjoint()`, `mH` and (for matrices) `H`: the conjugate of
 * lt_tensor_mt(). A view for tensors that are not complex; a copy for
 * complex ones (see lt_tensor_conj()).
 *
 * Returns: (transfer full): the view or copy, or %NULL with @error set
 */
LtTensor *
lt_tensor_adjoint (LtTensor *self,
                   GError  **error)
{
  g_autoptr(LtTensor) transposed = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_matrices ("adjoint()", self, error))
    return NULL;
  transposed = transpose_matrices (self, error);
  if (transposed == NULL)
    return NULL;
  return lt_tensor_conj (transposed, error);
}

/**
 * lt_tensor_real:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * PyTorch's `real`: for a complex tensor, the view of the real parts (a
 * float tensor over the same storage, with doubled strides); for any other
 * tensor, @self (a new view of it).
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_real (LtTensor *self,
                GError  **error)
{
  g_autoptr(LtTensor) pairs = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_complex (lt_tensor_get_dtype (self)))
    return lt_tensor_alias (self);
  pairs = lt_tensor_view_as_real (self, error);
  if (pairs == NULL)
    return NULL;
  return lt_tensor_select (pairs, -1, 0, error);
}

/**
 * lt_tensor_imag:
 * @self: a complex #LtTensor
 * @error: return location for a #GError
 *
 * PyTorch's `imag`: the view of the imaginary parts of a complex tensor.
 * Other tensors have none, which is an %LT_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_imag (LtTensor *self,
                GError  **error)
{
  g_autoptr(LtTensor) pairs = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_complex (lt_tensor_get_dtype (self)))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("imag: a %s tensor has no imaginary parts; only complex tensors do"),
                   lt_dtype_get_name (lt_tensor_get_dtype (self)));
      return NULL;
    }
  pairs = lt_tensor_view_as_real (self, error);
  if (pairs == NULL)
    return NULL;
  return lt_tensor_select (pairs, -1, 1, error);
}

/**
 * lt_tensor_detach:
 * @self: an #LtTensor
 *
 * PyTorch's `detach()`: a new view of @self. libtensor has no autograd, so
 * there is no graph to detach from; this is lt_tensor_alias() under the
 * name PyTorch code uses.
 *
 * Returns: (transfer full): the view
 */
LtTensor *
lt_tensor_detach (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  return lt_tensor_alias (self);
}

static gboolean
check_split_input (const char *op,
                   LtTensor   *self,
                   guint       min_dims,
                   int         dim,
                   guint      *out_dim,
                   GError    **error)
{
  if (self->ndim < min_dims)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   g_dngettext (lt_gettext_domain (),
                                "%s needs a tensor with at least %u dim, but this one has %u",
                                "%s needs a tensor with at least %u dims, but this one has %u",
                                min_dims),
                   op, min_dims, self->ndim);
      return FALSE;
    }
  return lt_tensor_wrap_dim (op, dim, self->ndim, out_dim, error);
}

/* Each piece is an object of its own: more than this many is a mistake. */
#define MAX_PIECES (1 << 24)

static GPtrArray *
split_at (LtTensor     *self,
          guint         dim,
          const gint64 *indices,
          guint         n_indices,
          GError      **error)
{
  g_autoptr(GPtrArray) pieces = NULL;
  gint64 start = 0;

  if (n_indices >= MAX_PIECES)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("tensor_split(): %u indices make more than the %d pieces a split can have"),
                   n_indices, MAX_PIECES);
      return NULL;
    }

  pieces = g_ptr_array_new_full (n_indices + 1, g_object_unref);
  for (guint i = 0; i <= n_indices; i++)
    {
      gint64 stop = i < n_indices ? indices[i] : self->sizes[dim];
      LtTensor *piece = lt_tensor_slice (self, dim, start, stop, 1, error);

      if (piece == NULL)
        return NULL;
      g_ptr_array_add (pieces, piece);
      start = stop;
    }
  return g_steal_pointer (&pieces);
}

static GPtrArray *
split_sections (const char *op,
                LtTensor   *self,
                guint       dim,
                gint64      sections,
                GError    **error)
{
  g_autofree gint64 *indices = NULL;
  gint64 size, start = 0;

  if (sections <= 0 || sections > MAX_PIECES)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the number of sections must be from 1 to %d, not %" PRId64),
                   op, MAX_PIECES, sections);
      return NULL;
    }

  /* As PyTorch does: the first size % sections pieces are one longer. */
  size = self->sizes[dim];
  indices = g_new (gint64, sections - 1);
  for (gint64 i = 0; i + 1 < sections; i++)
    {
      start += size / sections + (i < size % sections);
      indices[i] = start;
    }
  return split_at (self, dim, indices, (guint) sections - 1, error);
}

/**
 * lt_tensor_tensor_split:
 * @self: an #LtTensor with at least 1 dim
 * @sections: how many pieces to make, > 0
 * @dim: the dim to split (negative counts from the end)
 * @error: return location for a #GError
 *
 * Views of @sections consecutive pieces along @dim, as equal as they can
 * be: when the size does not divide, the first pieces are one longer
 * (size 7 in 3 sections gives 3, 2, 2).
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_tensor_split (LtTensor *self,
                        gint64    sections,
                        int       dim,
                        GError  **error)
{
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_input ("tensor_split()", self, 1, dim, &d, error))
    return NULL;
  return split_sections ("tensor_split()", self, d, sections, error);
}

/**
 * lt_tensor_tensor_split_indices:
 * @self: an #LtTensor with at least 1 dim
 * @indices: (array length=n_indices): where each piece after the first starts
 * @n_indices: the number of indices; there is one more piece
 * @dim: the dim to split (negative counts from the end)
 * @error: return location for a #GError
 *
 * Views of the pieces `[:i0]`, `[i0:i1]`, ..., `[ik:]` along @dim. Indices
 * follow Python's slice rules, as in PyTorch: negative ones count from the
 * end, indices past the end and pieces that would run backwards are empty.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_tensor_split_indices (LtTensor     *self,
                                const gint64 *indices,
                                guint         n_indices,
                                int           dim,
                                GError      **error)
{
  guint d;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_split_input ("tensor_split()", self, 1, dim, &d, error))
    return NULL;
  return split_at (self, d, indices, n_indices, error);
}

/* hsplit(), vsplit() and dsplit(): tensor_split() along a fixed dim, whose
 * size the number of sections must divide. */
static GPtrArray *
split_along (const char *op,
             LtTensor   *self,
             guint       min_dims,
             int         dim,
             gint64      sections,
             GError    **error)
{
  guint d;

  if (!check_split_input (op, self, min_dims, dim, &d, error))
    return NULL;
  if (sections <= 0 || self->sizes[d] % sections != 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: dim %u of size %" PRId64 " cannot be split into %"
                     PRId64 " equal sections; give a number of sections that divides "
                     "it, or the indices to split at"),
                   op, d, self->sizes[d], sections);
      return NULL;
    }
  return split_sections (op, self, d, sections, error);
}

static GPtrArray *
split_along_at (const char   *op,
                LtTensor     *self,
                guint         min_dims,
                int           dim,
                const gint64 *indices,
                guint         n_indices,
                GError      **error)
{
  guint d;

  if (!check_split_input (op, self, min_dims, dim, &d, error))
    return NULL;
  return split_at (self, d, indices, n_indices, error);
}

/**
 * lt_tensor_hsplit:
 * @self: an #LtTensor with at least 1 dim
 * @sections: how many equal pieces to make; must divide the size
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split() along dim 1, or dim 0 of a 1-dim tensor
 * (the columns of a matrix), into equal pieces.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_hsplit (LtTensor *self,
                  gint64    sections,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along ("hsplit()", self, 1, self->ndim == 1 ? 0 : 1, sections, error);
}

/**
 * lt_tensor_hsplit_indices:
 * @self: an #LtTensor with at least 1 dim
 * @indices: (array length=n_indices): where each piece after the first starts
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split_indices() along dim 1, or dim 0 of a 1-dim tensor.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_hsplit_indices (LtTensor     *self,
                          const gint64 *indices,
                          guint         n_indices,
                          GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along_at ("hsplit()", self, 1, self->ndim == 1 ? 0 : 1, indices, n_indices,
                         error);
}

/**
 * lt_tensor_vsplit:
 * @self: an #LtTensor with at least 2 dims
 * @sections: how many equal pieces to make; must divide the size of dim 0
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split() along dim 0 (the rows of a matrix), into equal
 * pieces.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_vsplit (LtTensor *self,
                  gint64    sections,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along ("vsplit()", self, 2, 0, sections, error);
}

/**
 * lt_tensor_vsplit_indices:
 * @self: an #LtTensor with at least 2 dims
 * @indices: (array length=n_indices): where each piece after the first starts
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split_indices() along dim 0.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_vsplit_indices (LtTensor     *self,
                          const gint64 *indices,
                          guint         n_indices,
                          GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along_at ("vsplit()", self, 2, 0, indices, n_indices, error);
}

/**
 * lt_tensor_dsplit:
 * @self: an #LtTensor with at least 3 dims
 * @sections: how many equal pieces to make; must divide the size of dim 2
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split() along dim 2 (the depth), into equal pieces.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_dsplit (LtTensor *self,
                  gint64    sections,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along ("dsplit()", self, 3, 2, sections, error);
}

/**
 * lt_tensor_dsplit_indices:
 * @self: an #LtTensor with at least 3 dims
 * @indices: (array length=n_indices): where each piece after the first starts
 * @n_indices: the number of indices
 * @error: return location for a #GError
 *
 * lt_tensor_tensor_split_indices() along dim 2.
 *
 * Returns: (transfer container) (element-type LtTensor): the pieces, or %NULL with
 *   @error set
 */
GPtrArray *
lt_tensor_dsplit_indices (LtTensor     *self,
                          const gint64 *indices,
                          guint         n_indices,
                          GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return split_along_at ("dsplit()", self, 3, 2, indices, n_indices, error);
}
