/* lt-tensor-linalg.c: matrix and vector products
 *
 * Every product here is one call of the backend's batched matmul kernel:
 * vectors become 1 x k or k x 1 matrices and broadcast batch dims become
 * stride-0 batch dims, by stride arithmetic alone, so no operand is copied
 * or expanded in memory on the way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-linalg.h"
#include "lt-linalg-private.h"
#include "lt-names-private.h"

gboolean
lt_linalg_check_dtypes (const char *op,
                        LtTensor   *a,
                        LtTensor   *b,
                        gboolean    any_dtype,
                        GError    **error)
{
  LtDType a_dtype = lt_tensor_get_dtype (a);
  LtDType b_dtype = lt_tensor_get_dtype (b);
  LtTensor *both[] = { a, b };
  const LtBackend *backend = lt_storage_get_backend (a->storage);

  if (!lt_tensor_check_same_device (op, both, 2, error)
      || (backend->linalg == NULL && !lt_tensor_check_host (op, both, 2, error)))
    return FALSE;

  if (a_dtype != b_dtype)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: expected both operands to have the same dtype, but found %s and %s; "
                     "convert one with to_dtype()"),
                   op, lt_dtype_get_name (a_dtype), lt_dtype_get_name (b_dtype));
      return FALSE;
    }
  if (!any_dtype && (a_dtype == LT_DTYPE_FLOAT16 || a_dtype == LT_DTYPE_BOOL))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: matrix products of %s tensors are not supported (PyTorch has none on "
                     "the CPU either); convert the operands with to_dtype() to float32 first"),
                   op, lt_dtype_get_name (a_dtype));
      return FALSE;
    }
  return TRUE;
}

LtTensor *
lt_linalg_product (const char   *op,
                   LtTensor     *a,
                   const gint64 *a_strides,
                   LtTensor     *b,
                   const gint64 *b_strides,
                   guint         batch_ndim,
                   const gint64 *batch_sizes,
                   gint64        m,
                   gint64        n,
                   gint64        k,
                   guint         out_ndim,
                   const gint64 *out_sizes,
                   GError      **error)
{
  g_autoptr (LtTensor) out = NULL;
  gint64 out_strides[LT_MAX_DIMS + 2];
  gint64 stride = 1;
  const LtBackend *backend;
  LtOperand out_operand, a_operand, b_operand;

  LtTensor *both[] = { a, b };

  g_return_val_if_fail (batch_ndim <= LT_MAX_DIMS, NULL);

  backend = lt_storage_get_backend (a->storage);
  if (!lt_tensor_check_same_device (op, both, 2, error)
      || (backend->linalg == NULL && !lt_tensor_check_host (op, both, 2, error)))
    return NULL;
  out = lt_tensor_new_contiguous_on (backend, op, lt_tensor_get_dtype (a), out_ndim, out_sizes,
                                     error);
  if (out == NULL)
    return NULL;

  /* The product's own view of the output: (batch..., m, n), row-major. */
  out_strides[batch_ndim + 1] = 1;
  stride = MAX (1, n);
  out_strides[batch_ndim] = stride;
  stride *= MAX (1, m);
  for (guint d = batch_ndim; d-- > 0;)
    {
      out_strides[d] = stride;
      stride *= MAX (1, batch_sizes[d]);
    }

  out_operand = lt_tensor_operand (out);
  out_operand.strides = out_strides;
  a_operand = lt_tensor_operand (a);
  a_operand.strides = a_strides;
  b_operand = lt_tensor_operand (b);
  b_operand.strides = b_strides;

  if (!backend->linalg->matmul (backend, batch_ndim, batch_sizes, m, n, k, &out_operand,
                                &a_operand, &b_operand, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* @what names the operand, marked with N_(). */
static gboolean
check_ndim (const char *op,
            const char *what,
            LtTensor   *self,
            guint       ndim,
            GError    **error)
{
  if (self->ndim != ndim)
    {
      g_autofree char *shape = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%s: %s must be %u-d, but it has sizes %s"), op, _(what), ndim, shape);
      return FALSE;
    }
  return TRUE;
}

/* "2x3", as PyTorch writes matrix shapes. */
static char *
shape_with_x (LtTensor *self)
{
  GString *text = g_string_new (NULL);

  for (guint d = 0; d < self->ndim; d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d ? "x" : "", self->sizes[d]);
  return g_string_free (text, FALSE);
}

static void
set_cannot_multiply (const char *op,
                     LtTensor   *a,
                     LtTensor   *b,
                     GError    **error)
{
  g_autofree char *a_shape = shape_with_x (a);
  g_autofree char *b_shape = shape_with_x (b);

  g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
               _("%s: the shapes cannot be multiplied (%s and %s): the last size of the first "
                 "operand must equal the first size of the second's matrix dims"),
               op, a_shape, b_shape);
}

/* Names the product @result of @self and @other as PyTorch does: the batch
 * dims' names broadcast from the right, then the name of @self's row dim and
 * of @other's column dim, where they have them (outer(): both vectors'). */
static LtTensor *
name_product (const char *op,
              LtTensor   *result,
              LtTensor   *self,
              LtTensor   *other,
              gboolean    outer,
              GError    **error)
{
  g_autoptr (LtTensor) owned = result;
  const char *names[LT_MAX_DIMS] = { NULL };
  guint self_batch, other_batch, batch_ndim, n = 0;

  if (result == NULL || (self->names == NULL && other->names == NULL))
    return g_steal_pointer (&owned);

  if (outer)
    {
      names[0] = self->names != NULL ? self->names[0] : NULL;
      names[1] = other->names != NULL ? other->names[0] : NULL;
      n = 2;
    }
  else
    {
      self_batch = self->ndim >= 2 ? self->ndim - 2 : 0;
      other_batch = other->ndim >= 2 ? other->ndim - 2 : 0;
      batch_ndim = result->ndim - (self->ndim >= 2) - (other->ndim >= 2);
      if (!lt_names_unify_lists (op, self_batch, self->names, other_batch, other->names,
                                 batch_ndim, names, error))
        return NULL;
      n = batch_ndim;
      if (self->ndim >= 2)
        names[n++] = self->names != NULL ? self->names[self->ndim - 2] : NULL;
      if (other->ndim >= 2)
        names[n++] = other->names != NULL ? other->names[other->ndim - 1] : NULL;
    }

  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (names[i] != NULL && names[i] == names[j])
        {
          g_autofree char *a = lt_names_describe (self->ndim, self->names);
          g_autofree char *b = lt_names_describe (other->ndim, other->names);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("%s: multiplying %s with %s would give a result with two dims named "
                         "'%s'; rename() one of them"), op, a, b, names[i]);
          return NULL;
        }

  lt_tensor_set_names_internal (owned, names);
  return g_steal_pointer (&owned);
}

/**
 * lt_tensor_dot:
 * @self: a 1-d #LtTensor
 * @other: a 1-d #LtTensor with as many elements and the same dtype
 * @error: return location for a #GError
 *
 * The dot product of two vectors, sum of `self[i] * other[i]`, as a 0-d
 * tensor (PyTorch's `torch.dot`). Complex values are not conjugated.
 * Integer products wrap as the dtype does; float16 and bool are refused.
 *
 * Returns: (transfer full): the 0-d result, or %NULL with @error set
 */
LtTensor *
lt_tensor_dot (LtTensor *self,
               LtTensor *other,
               GError  **error)
{
  const char *op = "dot()";
  LtTensor *product;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ndim != 1 || other->ndim != 1)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("dot(): 1-d tensors expected, but got %u-d and %u-d tensors; use matmul() "
                     "for matrices"), self->ndim, other->ndim);
      return NULL;
    }
  if (self->sizes[0] != other->sizes[0])
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("dot(): the vectors must have the same number of elements, but got %"
                     PRId64 " and %" PRId64), self->sizes[0], other->sizes[0]);
      return NULL;
    }
  if (!lt_linalg_check_dtypes (op, self, other, FALSE, error))
    return NULL;

  product = lt_linalg_product (op, self, (const gint64[]) { 0, self->strides[0] }, other,
                               (const gint64[]) { other->strides[0], 0 }, 0, NULL, 1, 1,
                               self->sizes[0], 0, NULL, error);
  return name_product (op, product, self, other, FALSE, error);
}

/**
 * lt_tensor_mv:
 * @self: a 2-d #LtTensor, n x m
 * @vec: a 1-d #LtTensor of m elements, of the same dtype
 * @error: return location for a #GError
 *
 * The matrix-vector product of @self and @vec, a 1-d tensor of n elements
 * (PyTorch's `torch.mv`).
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
LtTensor *
lt_tensor_mv (LtTensor *self,
              LtTensor *vec,
              GError  **error)
{
  const char *op = "mv()";
  LtTensor *product;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (vec), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_ndim (op, N_("the matrix"), self, 2, error)
      || !check_ndim (op, N_("the vector"), vec, 1, error))
    return NULL;
  if (self->sizes[1] != vec->sizes[0])
    {
      set_cannot_multiply (op, self, vec, error);
      return NULL;
    }
  if (!lt_linalg_check_dtypes (op, self, vec, FALSE, error))
    return NULL;

  product = lt_linalg_product (op, self, self->strides, vec,
                               (const gint64[]) { vec->strides[0], 0 }, 0, NULL, self->sizes[0], 1,
                               self->sizes[1], 1, self->sizes, error);
  return name_product (op, product, self, vec, FALSE, error);
}

/**
 * lt_tensor_mm:
 * @self: a 2-d #LtTensor, n x m
 * @other: a 2-d #LtTensor, m x p, of the same dtype
 * @error: return location for a #GError
 *
 * The matrix product of @self and @other, n x p (PyTorch's `torch.mm`).
 * Transposed operands are read as they lie in memory, without a copy.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
LtTensor *
lt_tensor_mm (LtTensor *self,
              LtTensor *other,
              GError  **error)
{
  const char *op = "mm()";
  LtTensor *product;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_ndim (op, N_("the first matrix"), self, 2, error)
      || !check_ndim (op, N_("the second matrix"), other, 2, error))
    return NULL;
  if (self->sizes[1] != other->sizes[0])
    {
      set_cannot_multiply (op, self, other, error);
      return NULL;
    }
  if (!lt_linalg_check_dtypes (op, self, other, FALSE, error))
    return NULL;

  product = lt_linalg_product (op, self, self->strides, other, other->strides, 0, NULL,
                               self->sizes[0], other->sizes[1], self->sizes[1], 2,
                               (const gint64[]) { self->sizes[0], other->sizes[1] }, error);
  return name_product (op, product, self, other, FALSE, error);
}

/**
 * lt_tensor_bmm:
 * @self: a 3-d #LtTensor, b x n x m
 * @other: a 3-d #LtTensor, b x m x p, of the same dtype
 * @error: return location for a #GError
 *
 * The matrix products of the batches of @self and @other, b x n x p
 * (PyTorch's `torch.bmm`). The batch sizes must be equal: bmm() does not
 * broadcast; matmul() does.
 *
 * Returns: (transfer full): the products, or %NULL with @error set
 */
LtTensor *
lt_tensor_bmm (LtTensor *self,
               LtTensor *other,
               GError  **error)
{
  const char *op = "bmm()";
  LtTensor *product;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_ndim (op, N_("the first batch"), self, 3, error)
      || !check_ndim (op, N_("the second batch"), other, 3, error))
    return NULL;
  if (self->sizes[0] != other->sizes[0] || self->sizes[2] != other->sizes[1])
    {
      g_autofree char *a_shape = lt_layout_shape_to_string (3, self->sizes);
      g_autofree char *b_shape = lt_layout_shape_to_string (3, other->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("bmm(): batches of sizes %s and %s cannot be multiplied: expected the second "
                     "to have sizes (%" PRId64 ", %" PRId64 ", p); use matmul() "
                     "to broadcast batch dims"),
                   a_shape, b_shape, self->sizes[0], self->sizes[2]);
      return NULL;
    }
  if (!lt_linalg_check_dtypes (op, self, other, FALSE, error))
    return NULL;

  product = lt_linalg_product (op, self, self->strides, other, other->strides, 1, self->sizes,
                               self->sizes[1], other->sizes[2], self->sizes[2], 3,
                               (const gint64[]) { self->sizes[0], self->sizes[1], other->sizes[2] },
                               error);
  return name_product (op, product, self, other, FALSE, error);
}

/**
 * lt_tensor_outer:
 * @self: a 1-d #LtTensor of n elements
 * @other: a 1-d #LtTensor of m elements, of the same dtype
 * @error: return location for a #GError
 *
 * The outer product, n x m, element [i, j] being `self[i] * other[j]`
 * (PyTorch's `torch.outer`). Every dtype is accepted, bool and float16
 * included, but both operands must have the same one.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
LtTensor *
lt_tensor_outer (LtTensor *self,
                 LtTensor *other,
                 GError  **error)
{
  const char *op = "outer()";
  LtTensor *product;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_ndim (op, N_("the first vector"), self, 1, error)
      || !check_ndim (op, N_("the second vector"), other, 1, error))
    return NULL;
  if (!lt_linalg_check_dtypes (op, self, other, TRUE, error))
    return NULL;

  product = lt_linalg_product (op, self, (const gint64[]) { self->strides[0], 0 }, other,
                               (const gint64[]) { 0, other->strides[0] }, 0, NULL, self->sizes[0],
                               other->sizes[0], 1, 2,
                               (const gint64[]) { self->sizes[0], other->sizes[0] }, error);
  return name_product (op, product, self, other, TRUE, error);
}

/**
 * lt_tensor_matmul:
 * @self: an #LtTensor of at least 1 dim
 * @other: an #LtTensor of at least 1 dim, of the same dtype
 * @error: return location for a #GError
 *
 * The matrix product as PyTorch's `torch.matmul` (Python's `@`) defines it:
 * two vectors give their dot product; a 1-d @self is treated as a 1 x k
 * row and a 1-d @other as a k x 1 column, the added dim being removed from
 * the result; dims before the last two are batch dims and broadcast against
 * each other, without the broadcast operand being copied.
 *
 * Returns: (transfer full): the product, or %NULL with @error set when an
 *   operand is 0-d, the matrix dims do not agree, the batch dims do not
 *   broadcast or the dtypes differ or are float16 or bool
 */
LtTensor *
lt_tensor_matmul (LtTensor *self,
                  LtTensor *other,
                  GError  **error)
{
  const char *op = "matmul()";
  LtTensor *product;
  gboolean a_vec, b_vec;
  gint64 m, n, k, b_k;
  guint a_batch, b_batch, batch_ndim, bad_dim, out_ndim;
  gint64 batch[LT_MAX_DIMS], out_sizes[LT_MAX_DIMS];
  gint64 a_strides[LT_MAX_DIMS + 2], b_strides[LT_MAX_DIMS + 2];

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ndim == 0 || other->ndim == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("matmul(): both operands need at least 1 dim, but they are %u-d and %u-d; "
                     "multiply by a 0-d tensor element-wise instead"),
                   self->ndim, other->ndim);
      return NULL;
    }

  a_vec = self->ndim == 1;
  b_vec = other->ndim == 1;
  m = a_vec ? 1 : self->sizes[self->ndim - 2];
  k = self->sizes[self->ndim - 1];
  b_k = other->sizes[b_vec ? 0 : other->ndim - 2];
  n = b_vec ? 1 : other->sizes[other->ndim - 1];
  if (k != b_k)
    {
      set_cannot_multiply (op, self, other, error);
      return NULL;
    }

  a_batch = a_vec ? 0 : self->ndim - 2;
  b_batch = b_vec ? 0 : other->ndim - 2;
  if (!lt_layout_broadcast_shapes (a_batch, self->sizes, b_batch, other->sizes, &batch_ndim,
                                   batch, &bad_dim))
    {
      g_autofree char *a_shape = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_autofree char *b_shape = lt_layout_shape_to_string (other->ndim, other->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("matmul(): the batch dims of sizes %s and %s do not broadcast (batch dim %u "
                     "differs and neither size is 1)"),
                   a_shape, b_shape, bad_dim);
      return NULL;
    }
  if (!lt_linalg_check_dtypes (op, self, other, FALSE, error))
    return NULL;

  /* Batch dims aligned to the right; a dim broadcast from size 1 is walked
   * with stride 0. */
  for (guint d = 0; d < batch_ndim; d++)
    {
      gint64 a_size = 1, b_size = 1;
      guint a_off = batch_ndim - a_batch, b_off = batch_ndim - b_batch;

      a_strides[d] = b_strides[d] = 0;
      if (d >= a_off)
        {
          a_size = self->sizes[d - a_off];
          a_strides[d] = a_size == batch[d] ? self->strides[d - a_off] : 0;
        }
      if (d >= b_off)
        {
          b_size = other->sizes[d - b_off];
          b_strides[d] = b_size == batch[d] ? other->strides[d - b_off] : 0;
        }
    }
  a_strides[batch_ndim] = a_vec ? 0 : self->strides[self->ndim - 2];
  a_strides[batch_ndim + 1] = self->strides[self->ndim - 1];
  b_strides[batch_ndim] = b_vec ? other->strides[0] : other->strides[other->ndim - 2];
  b_strides[batch_ndim + 1] = b_vec ? 0 : other->strides[other->ndim - 1];

  memcpy (out_sizes, batch, batch_ndim * sizeof (gint64));
  out_ndim = batch_ndim;
  if (!a_vec)
    out_sizes[out_ndim++] = m;
  if (!b_vec)
    out_sizes[out_ndim++] = n;

  product = lt_linalg_product (op, self, a_strides, other, b_strides, batch_ndim, batch, m, n, k,
                               out_ndim, out_sizes, error);
  return name_product (op, product, self, other, FALSE, error);
}
