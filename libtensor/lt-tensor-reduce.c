/* lt-tensor-reduce.c: reductions, scans, softmax and comparisons
 *
 * Each operation here validates its arguments, decides the result's sizes
 * and dtype as PyTorch 1.13 does, allocates the result and hands the loops
 * to the backend's reduce kernels (lt-backend-reduce.h). The input is read
 * through its strides as it is: transposed, stepped, expanded and flipped
 * views are not copied first.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-names-private.h"
#include "lt-reduce.h"
#include "lt-tensor-private.h"

static const LtReduceKernels *
kernels_for (LtTensor *self)
{
  return lt_storage_get_backend (self->storage)->reduce;
}

static gboolean
is_floating_or_complex (LtDType dtype)
{
  return lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype);
}

static gboolean
is_integral (LtDType dtype)
{
  return dtype == LT_DTYPE_BOOL || lt_dtype_is_integer (dtype);
}

static gboolean
refuse_dtype (const char *op,
              LtTensor   *self,
              const char *expected,
              GError    **error)
{
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("%s: a tensor of dtype %s is not supported; %s"), op,
               lt_dtype_get_name (lt_tensor_get_dtype (self)), expected);
  return FALSE;
}

/* Turns @dims (all dims when @n_dims is 0) into flags in @reduced, refusing
 * dims out of range and dims named twice, as torch does. */
static gboolean
resolve_dims (const char *op,
              LtTensor   *self,
              const int  *dims,
              guint       n_dims,
              gboolean   *reduced,
              GError    **error)
{
  gboolean seen[LT_MAX_DIMS] = { FALSE };

  g_return_val_if_fail (n_dims == 0 || dims != NULL, FALSE);

  for (guint d = 0; d < self->ndim; d++)
    reduced[d] = n_dims == 0;

  for (guint i = 0; i < n_dims; i++)
    {
      guint dim;

      if (!lt_tensor_wrap_dim (op, dims[i], self->ndim, &dim, error))
        return FALSE;
      if (seen[dim])
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: dim %u appears more than once in the list of dims; name each dim "
                         "once"),
                       op, dim);
          return FALSE;
        }
      seen[dim] = TRUE;
      if (dim < self->ndim)
        reduced[dim] = TRUE;
    }
  return TRUE;
}

/* For the reductions that have no identity (amax, max, argmax, ...): an
 * empty tensor can only be reduced over dims that are not empty. */
static gboolean
check_nonempty (const char     *op,
                LtTensor       *self,
                guint           n_dims,
                const gboolean *reduced,
                GError        **error)
{
  if (self->numel != 0)
    return TRUE;
  if (n_dims == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the tensor is empty and there is no value to return when reducing it "
                     "over all its dims; name a dim that is not empty to reduce over"),
                   op);
      return FALSE;
    }
  for (guint d = 0; d < self->ndim; d++)
    if (reduced[d] && self->sizes[d] == 0)
      {
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s: dim %u has size 0, and there is no value to return when reducing "
                       "over nothing; reduce over a dim that is not empty"),
                     op, d);
        return FALSE;
      }
  return TRUE;
}

/* Allocates the result(s) of a reduction of @self over the @reduced dims
 * and runs the kernel. @values_dtype is the dtype of *@values; @indices
 * (int64) is wanted when not NULL, *@values when @values is not NULL. */
static gboolean
run_reduce (const char           *op,
            LtTensor             *self,
            const LtReduceParams *params,
            const gboolean       *reduced,
            gboolean              keepdim,
            LtDType               values_dtype,
            LtTensor            **values,
            LtTensor            **indices,
            GError              **error)
{
  g_autoptr (LtTensor) out = NULL;
  g_autoptr (LtTensor) out_indices = NULL;
  gint64 keep_sizes[LT_MAX_DIMS], keep_strides[LT_MAX_DIMS], out_sizes[LT_MAX_DIMS];
  gint64 dst_strides[LT_MAX_DIMS];
  LtOperand src, dst, idx;
  guint out_ndim = 0;

  const LtBackend *backend = lt_storage_get_backend (self->storage);

  if ((backend->reduce == NULL || backend->reduce->reduce == NULL)
      && !lt_tensor_check_host (op, &self, 1, error))
    return FALSE;

  /* Nothing wanted: the arguments were valid, which is all there is. */
  if (values == NULL && indices == NULL)
    return TRUE;

  for (guint d = 0; d < self->ndim; d++)
    {
      keep_sizes[d] = reduced[d] ? 1 : self->sizes[d];
      if (keepdim || !reduced[d])
        out_sizes[out_ndim++] = keep_sizes[d];
    }
  lt_layout_contiguous_strides (self->ndim, keep_sizes, keep_strides);
  for (guint d = 0; d < self->ndim; d++)
    dst_strides[d] = reduced[d] ? 0 : keep_strides[d];

  if (values != NULL)
    {
      out = lt_tensor_new_contiguous_on (backend, op, values_dtype, out_ndim, out_sizes, error);
      if (out == NULL)
        return FALSE;
    }
  if (indices != NULL)
    {
      out_indices = lt_tensor_new_contiguous_on (backend, op, LT_DTYPE_INT64, out_ndim,
                                                 out_sizes, error);
      if (out_indices == NULL)
        return FALSE;
    }

  src = lt_tensor_operand (self);
  if (out != NULL)
    {
      dst = lt_tensor_operand (out);
      dst.strides = dst_strides;
    }
  if (out_indices != NULL)
    {
      idx = lt_tensor_operand (out_indices);
      idx.strides = dst_strides;
    }
  if (!backend->reduce->reduce (backend, params, self->ndim, self->sizes,
                                out != NULL ? &dst : NULL, out_indices != NULL ? &idx : NULL,
                                &src, error))
    return FALSE;

  /* The dims that remain keep their names. */
  {
    const char *names[LT_MAX_DIMS];

    if (lt_names_reduce (self, reduced, keepdim, names))
      {
        if (out != NULL)
          lt_tensor_set_names_internal (out, names);
        if (out_indices != NULL)
          lt_tensor_set_names_internal (out_indices, names);
      }
  }

  if (values != NULL)
    *values = g_steal_pointer (&out);
  if (indices != NULL)
    *indices = g_steal_pointer (&out_indices);
  return TRUE;
}

static LtTensor *
reduce_dims (const char           *op,
             LtTensor             *self,
             const LtReduceParams *params,
             const int            *dims,
             guint                 n_dims,
             gboolean              keepdim,
             LtDType               out_dtype,
             gboolean              needs_elements,
             GError              **error)
{
  gboolean reduced[LT_MAX_DIMS];
  LtTensor *result = NULL;

  if (!resolve_dims (op, self, dims, n_dims, reduced, error))
    return NULL;
  if (needs_elements && !check_nonempty (op, self, n_dims, reduced, error))
    return NULL;
  if (!run_reduce (op, self, params, reduced, keepdim, out_dtype, &result, NULL, error))
    return NULL;
  return result;
}

static LtDType
sum_dtype (LtDType dtype)
{
  return is_integral (dtype) ? LT_DTYPE_INT64 : dtype;
}

/**
 * lt_tensor_sum:
 * @self: an #LtTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce (negative
 *   counts from the end)
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The sum of the elements of @self over @dims, as `torch.sum()`. Booleans
 * and integers are summed in int64 (wrapping around on overflow) and give an
 * int64 result; floating and complex tensors keep their dtype, with float16
 * and bfloat16 summed in double precision and rounded once. Float32 runs of
 * contiguous elements are summed on the CPU in float lanes cascaded into
 * double, as PyTorch and NumPy sum in float: the error stays within about 18
 * float roundings of the sum of the magnitudes, however many elements there
 * are. The sum of no elements is 0.
 *
 * Returns: (transfer full): the sums, or %NULL with @error set when a dim is
 *   out of range or named twice
 */
LtTensor *
lt_tensor_sum (LtTensor  *self,
               const int *dims,
               guint      n_dims,
               gboolean   keepdim,
               GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_SUM };

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return reduce_dims ("sum()", self, &params, dims, n_dims, keepdim,
                      sum_dtype (lt_tensor_get_dtype (self)), FALSE, error);
}

/**
 * lt_tensor_prod:
 * @self: an #LtTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The product of the elements of @self over @dims, as `torch.prod()` (over
 * several dims at once, which torch.prod() does not offer). Booleans and
 * integers give int64 products. The product of no elements is 1. As in
 * PyTorch 1.13 on the CPU, float16 and bfloat16 are refused.
 *
 * Returns: (transfer full): the products, or %NULL with @error set
 */
LtTensor *
lt_tensor_prod (LtTensor  *self,
                const int *dims,
                guint      n_dims,
                gboolean   keepdim,
                GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_PROD };
  LtDType dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dtype = lt_tensor_get_dtype (self);
  if (dtype == LT_DTYPE_FLOAT16 || dtype == LT_DTYPE_BFLOAT16)
    {
      refuse_dtype ("prod()", self, _("convert it to float32 first"), error);
      return NULL;
    }
  return reduce_dims ("prod()", self, &params, dims, n_dims, keepdim, sum_dtype (dtype), FALSE,
                      error);
}

/**
 * lt_tensor_mean:
 * @self: an #LtTensor of a floating or complex dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The mean of the elements of @self over @dims, as `torch.mean()`, in the
 * dtype of @self. The mean of no elements is NaN.
 *
 * Returns: (transfer full): the means, or %NULL with @error set when @self
 *   has an integer or bool dtype (convert it with lt_tensor_to_dtype()
 *   first) or a dim is out of range or named twice
 */
LtTensor *
lt_tensor_mean (LtTensor  *self,
                const int *dims,
                guint      n_dims,
                gboolean   keepdim,
                GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_MEAN };
  LtDType dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dtype = lt_tensor_get_dtype (self);
  if (!is_floating_or_complex (dtype))
    {
      refuse_dtype ("mean()", self,
                    _("the mean needs a floating point or complex tensor; convert it with "
                      "to_dtype() first"),
                    error);
      return NULL;
    }
  return reduce_dims ("mean()", self, &params, dims, n_dims, keepdim, dtype, FALSE, error);
}

static LtTensor *
extreme (const char *op,
         LtReduceOp  kind,
         LtTensor   *self,
         const int  *dims,
         guint       n_dims,
         gboolean    keepdim,
         GError    **error)
{
  const LtReduceParams params = { .op = kind };

  if (lt_dtype_is_complex (lt_tensor_get_dtype (self)))
    {
      refuse_dtype (op, self, _("complex numbers have no order"), error);
      return NULL;
    }
  return reduce_dims (op, self, &params, dims, n_dims, keepdim, lt_tensor_get_dtype (self), TRUE,
                      error);
}

/**
 * lt_tensor_amax:
 * @self: an #LtTensor of a real dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The largest element of @self over @dims, as `torch.amax()`, in the dtype
 * of @self. A NaN is larger than everything.
 *
 * Returns: (transfer full): the maxima, or %NULL with @error set when @self
 *   is complex, a dim is out of range or named twice, or a reduced dim is
 *   empty
 */
LtTensor *
lt_tensor_amax (LtTensor  *self,
                const int *dims,
                guint      n_dims,
                gboolean   keepdim,
                GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return extreme ("amax()", LT_REDUCE_AMAX, self, dims, n_dims, keepdim, error);
}

/**
 * lt_tensor_amin:
 * @self: an #LtTensor of a real dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The smallest element of @self over @dims, as `torch.amin()`. A NaN is
 * smaller than everything.
 *
 * Returns: (transfer full): the minima, or %NULL with @error set as for
 *   lt_tensor_amax()
 */
LtTensor *
lt_tensor_amin (LtTensor  *self,
                const int *dims,
                guint      n_dims,
                gboolean   keepdim,
                GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return extreme ("amin()", LT_REDUCE_AMIN, self, dims, n_dims, keepdim, error);
}

/* PyTorch 1.13's all() and any() answer uint8 for uint8 and bool for
 * everything else. */
static LtDType
logical_dtype (LtTensor *self)
{
  return lt_tensor_get_dtype (self) == LT_DTYPE_UINT8 ? LT_DTYPE_UINT8 : LT_DTYPE_BOOL;
}

/**
 * lt_tensor_all:
 * @self: an #LtTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * Whether every element of @self over @dims is nonzero (NaN counts as
 * nonzero; a complex element counts by its real part, as in PyTorch 1.13),
 * as `torch.all()`: bool, except uint8 for a uint8 tensor as in
 * PyTorch 1.13. All of no elements is true.
 *
 * Returns: (transfer full): the answers, or %NULL with @error set when a
 *   dim is out of range or named twice
 */
LtTensor *
lt_tensor_all (LtTensor  *self,
               const int *dims,
               guint      n_dims,
               gboolean   keepdim,
               GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_ALL };

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return reduce_dims ("all()", self, &params, dims, n_dims, keepdim, logical_dtype (self), FALSE,
                      error);
}

/**
 * lt_tensor_any:
 * @self: an #LtTensor
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * Whether some element of @self over @dims is nonzero, as `torch.any()`,
 * with the dtype of lt_tensor_all(). Any of no elements is false.
 *
 * Returns: (transfer full): the answers, or %NULL with @error set when a
 *   dim is out of range or named twice
 */
LtTensor *
lt_tensor_any (LtTensor  *self,
               const int *dims,
               guint      n_dims,
               gboolean   keepdim,
               GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_ANY };

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return reduce_dims ("any()", self, &params, dims, n_dims, keepdim, logical_dtype (self), FALSE,
                      error);
}

/**
 * lt_tensor_logsumexp:
 * @self: an #LtTensor of a real dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * log (sum (exp (x))) over @dims, computed without overflow by shifting by
 * the largest element, as `torch.logsumexp()`. Booleans and integers give
 * float32, floating dtypes keep theirs. The logsumexp of no elements is
 * -inf. As in PyTorch 1.13 on the CPU, float16 and complex are refused.
 *
 * Returns: (transfer full): the results, or %NULL with @error set
 */
LtTensor *
lt_tensor_logsumexp (LtTensor  *self,
                     const int *dims,
                     guint      n_dims,
                     gboolean   keepdim,
                     GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_LOGSUMEXP };
  LtDType dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dtype = lt_tensor_get_dtype (self);
  if (lt_dtype_is_complex (dtype) || dtype == LT_DTYPE_FLOAT16)
    {
      refuse_dtype ("logsumexp()", self, _("use a real tensor of another dtype"), error);
      return NULL;
    }
  /* The kernel reads integers as they are; only the result is float32. */
  return reduce_dims ("logsumexp()", self, &params, dims, n_dims, keepdim,
                      is_integral (dtype) ? LT_DTYPE_FLOAT32 : dtype, FALSE, error);
}

static LtTensor *
var_or_std (const char *op,
            LtReduceOp  kind,
            LtTensor   *self,
            const int  *dims,
            guint       n_dims,
            double      correction,
            gboolean    keepdim,
            GError    **error)
{
  const LtReduceParams params = { .op = kind, .correction = correction };
  LtDType dtype = lt_tensor_get_dtype (self);

  if (!is_floating_or_complex (dtype))
    {
      refuse_dtype (op, self,
                    _("the variance needs a floating point or complex tensor; convert it with "
                      "to_dtype() first"),
                    error);
      return NULL;
    }
  return reduce_dims (op, self, &params, dims, n_dims, keepdim, lt_dtype_to_real (dtype), FALSE,
                      error);
}

/**
 * lt_tensor_var:
 * @self: an #LtTensor of a floating or complex dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @correction: subtracted from the element count in the divisor: 1 for the
 *   unbiased estimate (torch's default), 0 for the population variance
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The variance of the elements of @self over @dims, as `torch.var()` with
 * `correction`: the sum of squared deviations from the mean divided by
 * max (0, N - @correction), so NaN or infinity when N <= @correction. The
 * variance of a complex tensor is real: that of the real parts plus that of
 * the imaginary parts.
 *
 * Returns: (transfer full): the variances, or %NULL with @error set when
 *   @self is bool or integer, or a dim is out of range or named twice
 */
LtTensor *
lt_tensor_var (LtTensor  *self,
               const int *dims,
               guint      n_dims,
               double     correction,
               gboolean   keepdim,
               GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return var_or_std ("var()", LT_REDUCE_VAR, self, dims, n_dims, correction, keepdim, error);
}

/**
 * lt_tensor_std:
 * @self: an #LtTensor of a floating or complex dtype
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @correction: as for lt_tensor_var()
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The standard deviation, the square root of lt_tensor_var().
 *
 * Returns: (transfer full): the standard deviations, or %NULL with @error
 *   set as for lt_tensor_var()
 */
LtTensor *
lt_tensor_std (LtTensor  *self,
               const int *dims,
               guint      n_dims,
               double     correction,
               gboolean   keepdim,
               GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return var_or_std ("std()", LT_REDUCE_STD, self, dims, n_dims, correction, keepdim, error);
}

/**
 * lt_tensor_norm:
 * @self: an #LtTensor of a floating or complex dtype
 * @p: the order: 2 for the Euclidean (Frobenius over every dim) norm, 1 for
 *   the sum of absolute values, %INFINITY for the largest and -%INFINITY for
 *   the smallest absolute value, 0 for the count of nonzero elements, any
 *   other p for (sum |x|^p)^(1/p)
 * @dims: (array length=n_dims) (nullable): the dims to reduce
 * @n_dims: the number of dims in @dims; 0 reduces over every dim
 * @keepdim: whether the reduced dims stay in the result, with size 1
 * @error: return location for a #GError
 *
 * The vector p-norm of @self over @dims, as `torch.norm()`, in the real
 * dtype of @self. The norm of no elements is 0.
 *
 * Returns: (transfer full): the norms, or %NULL with @error set when @self
 *   is bool or integer, @p is NaN, or a dim is out of range or named twice
 */
LtTensor *
lt_tensor_norm (LtTensor  *self,
                double     p,
                const int *dims,
                guint      n_dims,
                gboolean   keepdim,
                GError   **error)
{
  const LtReduceParams params = { .op = LT_REDUCE_NORM, .p = p };
  LtDType dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dtype = lt_tensor_get_dtype (self);
  if (!is_floating_or_complex (dtype))
    {
      refuse_dtype ("norm()", self,
                    _("the norm needs a floating point or complex tensor; convert it with "
                      "to_dtype() first"),
                    error);
      return NULL;
    }
  if (isnan (p))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("norm(): the order p is NaN; give a number or an infinity"));
      return NULL;
    }
  return reduce_dims ("norm()", self, &params, dims, n_dims, keepdim, lt_dtype_to_real (dtype),
                      FALSE, error);
}

static gboolean
extreme_dim (const char *op,
             LtReduceOp  kind,
             LtTensor   *self,
             int         dim,
             gboolean    keepdim,
             gboolean    bool_ok,
             LtTensor  **values,
             LtTensor  **indices,
             GError    **error)
{
  const LtReduceParams params = { .op = kind };
  gboolean reduced[LT_MAX_DIMS];
  LtDType dtype = lt_tensor_get_dtype (self);

  if (lt_dtype_is_complex (dtype))
    return refuse_dtype (op, self, _("complex numbers have no order"), error);
  if (dtype == LT_DTYPE_BOOL && !bool_ok)
    return refuse_dtype (op, self, _("convert it to uint8 first"), error);
  if (!resolve_dims (op, self, &dim, 1, reduced, error))
    return FALSE;
  if (!check_nonempty (op, self, 1, reduced, error))
    return FALSE;
  return run_reduce (op, self, &params, reduced, keepdim, dtype, values, indices, error);
}

/**
 * lt_tensor_max_dim:
 * @self: an #LtTensor of a real dtype
 * @dim: the dim to reduce (negative counts from the end)
 * @keepdim: whether @dim stays in the results, with size 1
 * @values: (out) (transfer full) (optional): the largest elements
 * @indices: (out) (transfer full) (optional): their int64 indices along @dim
 * @error: return location for a #GError
 *
 * The largest elements of @self along @dim and where they are, as
 * `torch.max(dim=)`. A NaN is larger than everything, and of equal elements
 * the first one's index is given.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @self is complex,
 *   @dim is out of range or has size 0, in which case the outputs are not
 *   touched
 */
gboolean
lt_tensor_max_dim (LtTensor  *self,
                   int        dim,
                   gboolean   keepdim,
                   LtTensor **values,
                   LtTensor **indices,
                   GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return extreme_dim ("max()", LT_REDUCE_MAX_INDEX, self, dim, keepdim, TRUE, values, indices,
                      error);
}

/**
 * lt_tensor_min_dim:
 * @self: an #LtTensor of a real dtype
 * @dim: the dim to reduce (negative counts from the end)
 * @keepdim: whether @dim stays in the results, with size 1
 * @values: (out) (transfer full) (optional): the smallest elements
 * @indices: (out) (transfer full) (optional): their int64 indices along @dim
 * @error: return location for a #GError
 *
 * The smallest elements of @self along @dim and where they are, as
 * `torch.min(dim=)`, NaN smallest, first index of ties.
 *
 * Returns: %TRUE on success; %FALSE with @error set as for
 *   lt_tensor_max_dim()
 */
gboolean
lt_tensor_min_dim (LtTensor  *self,
                   int        dim,
                   gboolean   keepdim,
                   LtTensor **values,
                   LtTensor **indices,
                   GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return extreme_dim ("min()", LT_REDUCE_MIN_INDEX, self, dim, keepdim, TRUE, values, indices,
                      error);
}

/**
 * lt_tensor_max:
 * @self: an #LtTensor of a real dtype
 * @error: return location for a #GError
 *
 * The largest element of @self as a 0-dim tensor, as `torch.max()` with no
 * dim. A NaN is larger than everything.
 *
 * Returns: (transfer full): the maximum, or %NULL with @error set when
 *   @self is complex or empty
 */
LtTensor *
lt_tensor_max (LtTensor *self,
               GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return extreme ("max()", LT_REDUCE_AMAX, self, NULL, 0, FALSE, error);
}

/**
 * lt_tensor_min:
 * @self: an #LtTensor of a real dtype
 * @error: return location for a #GError
 *
 * The smallest element of @self as a 0-dim tensor, as `torch.min()` with no
 * dim.
 *
 * Returns: (transfer full): the minimum, or %NULL with @error set when
 *   @self is complex or empty
 */
LtTensor *
lt_tensor_min (LtTensor *self,
               GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return extreme ("min()", LT_REDUCE_AMIN, self, NULL, 0, FALSE, error);
}

static LtTensor *
arg_extreme (const char *op,
             LtReduceOp  kind,
             LtTensor   *self,
             const int  *dim,
             gboolean    keepdim,
             GError    **error)
{
  const LtReduceParams params = { .op = kind };
  gboolean reduced[LT_MAX_DIMS];
  LtTensor *indices = NULL;
  LtDType dtype = lt_tensor_get_dtype (self);

  if (lt_dtype_is_complex (dtype))
    {
      refuse_dtype (op, self, _("complex numbers have no order"), error);
      return NULL;
    }
  if (dtype == LT_DTYPE_BOOL)
    {
      refuse_dtype (op, self, _("convert it to uint8 first"), error);
      return NULL;
    }
  if (!resolve_dims (op, self, dim, dim != NULL ? 1 : 0, reduced, error))
    return NULL;
  if (!check_nonempty (op, self, dim != NULL ? 1 : 0, reduced, error))
    return NULL;
  if (!run_reduce (op, self, &params, reduced, keepdim, dtype, NULL, &indices, error))
    return NULL;
  return indices;
}

/**
 * lt_tensor_argmax:
 * @self: an #LtTensor of a real, non-bool dtype
 * @dim: the dim to reduce (negative counts from the end)
 * @keepdim: whether @dim stays in the result, with size 1
 * @error: return location for a #GError
 *
 * The int64 indices along @dim of the largest elements, as
 * `torch.argmax(dim=)`: the first NaN if there is one, else the first of
 * the largest elements.
 *
 * Returns: (transfer full): the indices, or %NULL with @error set when
 *   @self is complex or bool (refused as in PyTorch 1.13), @dim is out of
 *   range or has size 0
 */
LtTensor *
lt_tensor_argmax (LtTensor *self,
                  int       dim,
                  gboolean  keepdim,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return arg_extreme ("argmax()", LT_REDUCE_MAX_INDEX, self, &dim, keepdim, error);
}

/**
 * lt_tensor_argmin:
 * @self: an #LtTensor of a real, non-bool dtype
 * @dim: the dim to reduce (negative counts from the end)
 * @keepdim: whether @dim stays in the result, with size 1
 * @error: return location for a #GError
 *
 * The int64 indices along @dim of the smallest elements, as
 * `torch.argmin(dim=)`, NaN smallest, first index of ties.
 *
 * Returns: (transfer full): the indices, or %NULL with @error set as for
 *   lt_tensor_argmax()
 */
LtTensor *
lt_tensor_argmin (LtTensor *self,
                  int       dim,
                  gboolean  keepdim,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return arg_extreme ("argmin()", LT_REDUCE_MIN_INDEX, self, &dim, keepdim, error);
}

/**
 * lt_tensor_argmax_all:
 * @self: an #LtTensor of a real, non-bool dtype
 * @error: return location for a #GError
 *
 * The index of the largest element of @self in row-major order, as a 0-dim
 * int64 tensor, as `torch.argmax()` with no dim.
 *
 * Returns: (transfer full): the index, or %NULL with @error set when @self
 *   is complex, bool or empty
 */
LtTensor *
lt_tensor_argmax_all (LtTensor *self,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return arg_extreme ("argmax()", LT_REDUCE_MAX_INDEX, self, NULL, FALSE, error);
}

/**
 * lt_tensor_argmin_all:
 * @self: an #LtTensor of a real, non-bool dtype
 * @error: return location for a #GError
 *
 * The index of the smallest element of @self in row-major order, as a 0-dim
 * int64 tensor, as `torch.argmin()` with no dim.
 *
 * Returns: (transfer full): the index, or %NULL with @error set when @self
 *   is complex, bool or empty
 */
LtTensor *
lt_tensor_argmin_all (LtTensor *self,
                      GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return arg_extreme ("argmin()", LT_REDUCE_MIN_INDEX, self, NULL, FALSE, error);
}

/* A contiguous result shaped like @self, on its device, for the ops along
 * one dim; @has_kernel says whether the device can run the op. */
static LtTensor *
along_dim_result (const char *op,
                  LtTensor   *self,
                  int         dim,
                  LtDType     dtype,
                  gboolean    has_kernel,
                  guint      *out_dim,
                  GError    **error)
{
  LtTensor *result;

  if ((!has_kernel && !lt_tensor_check_host (op, &self, 1, error))
      || !lt_tensor_wrap_dim (op, dim, self->ndim, out_dim, error))
    return NULL;
  result = lt_tensor_new_contiguous_on (lt_storage_get_backend (self->storage), op, dtype,
                                        self->ndim, self->sizes, error);
  if (result != NULL)
    lt_tensor_set_names_internal (result, self->names);
  return result;
}

static LtTensor *
scan (const char *op,
      LtScanOp    kind,
      LtTensor   *self,
      int         dim,
      GError    **error)
{
  g_autoptr (LtTensor) result = NULL;
  LtDType dtype = lt_tensor_get_dtype (self);
  LtOperand src, dst;
  guint d;

  if (dtype == LT_DTYPE_FLOAT16)
    {
      refuse_dtype (op, self, _("convert it to float32 first"), error);
      return NULL;
    }
  result = along_dim_result (op, self, dim, sum_dtype (dtype),
                             kernels_for (self) != NULL && kernels_for (self)->scan != NULL, &d,
                             error);
  if (result == NULL)
    return NULL;

  src = lt_tensor_operand (self);
  dst = lt_tensor_operand (result);
  if (!kernels_for (self)->scan (lt_storage_get_backend (self->storage), kind, self->ndim,
                                 self->sizes, d, &dst, &src, error))
    return NULL;
  return g_steal_pointer (&result);
}

/**
 * lt_tensor_cumsum:
 * @self: an #LtTensor
 * @dim: the dim to sum along (negative counts from the end)
 * @error: return location for a #GError
 *
 * The running sums of @self along @dim, as `torch.cumsum()`: element i is
 * the sum of the elements 0 to i. Booleans and integers give int64;
 * floating and complex dtypes keep theirs, summed in double precision.
 *
 * Returns: (transfer full): the running sums, or %NULL with @error set
 *   when @dim is out of range or @self is float16 (refused as in PyTorch
 *   1.13 on the CPU)
 */
LtTensor *
lt_tensor_cumsum (LtTensor *self,
                  int       dim,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return scan ("cumsum()", LT_SCAN_CUMSUM, self, dim, error);
}

/**
 * lt_tensor_cumprod:
 * @self: an #LtTensor
 * @dim: the dim to multiply along (negative counts from the end)
 * @error: return location for a #GError
 *
 * The running products of @self along @dim, as `torch.cumprod()`, with the
 * dtypes of lt_tensor_cumsum().
 *
 * Returns: (transfer full): the running products, or %NULL with @error set
 *   as for lt_tensor_cumsum()
 */
LtTensor *
lt_tensor_cumprod (LtTensor *self,
                   int       dim,
                   GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return scan ("cumprod()", LT_SCAN_CUMPROD, self, dim, error);
}

static LtTensor *
softmax (const char  *op,
         LtSoftmaxOp  kind,
         LtTensor    *self,
         int          dim,
         GError     **error)
{
  g_autoptr (LtTensor) result = NULL;
  LtDType dtype = lt_tensor_get_dtype (self);
  LtOperand src, dst;
  guint d;

  if (!lt_dtype_is_floating_point (dtype) || dtype == LT_DTYPE_FLOAT16)
    {
      refuse_dtype (op, self,
                    _("it needs a float32, float64 or bfloat16 tensor (float16 is refused as in "
                      "PyTorch 1.13 on the CPU); convert it with to_dtype() first"),
                    error);
      return NULL;
    }
  result = along_dim_result (op, self, dim, dtype,
                             kernels_for (self) != NULL && kernels_for (self)->softmax != NULL,
                             &d, error);
  if (result == NULL)
    return NULL;

  src = lt_tensor_operand (self);
  dst = lt_tensor_operand (result);
  if (!kernels_for (self)->softmax (lt_storage_get_backend (self->storage), kind, self->ndim,
                                    self->sizes, d, &dst, &src, error))
    return NULL;
  return g_steal_pointer (&result);
}

/**
 * lt_tensor_softmax:
 * @self: an #LtTensor of dtype float32, float64 or bfloat16
 * @dim: the dim along which the results sum to 1
 * @error: return location for a #GError
 *
 * exp (x) / sum (exp (x)) along @dim, computed with the largest element
 * subtracted first so that nothing overflows, as `torch.softmax()`.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when @dim
 *   is out of range or @self has another dtype
 */
LtTensor *
lt_tensor_softmax (LtTensor *self,
                   int       dim,
                   GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return softmax ("softmax()", LT_SOFTMAX, self, dim, error);
}

/**
 * lt_tensor_log_softmax:
 * @self: an #LtTensor of dtype float32, float64 or bfloat16
 * @dim: the dim to normalize along
 * @error: return location for a #GError
 *
 * x - logsumexp (x) along @dim, as `torch.log_softmax()`: the logarithm of
 * lt_tensor_softmax() without its rounding to 0 for very small results.
 *
 * Returns: (transfer full): the result, or %NULL with @error set as for
 *   lt_tensor_softmax()
 */
LtTensor *
lt_tensor_log_softmax (LtTensor *self,
                       int       dim,
                       GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return softmax ("log_softmax()", LT_LOG_SOFTMAX, self, dim, error);
}

/**
 * lt_tensor_equal:
 * @self: an #LtTensor
 * @other: another #LtTensor
 *
 * Whether @self and @other have the same sizes and the same values, as
 * `torch.equal()`. The dtypes may differ: the values are compared in the
 * dtype both promote to, as PyTorch does (an int 1 equals a float 1.0, an
 * int64 equals its float32 rounding in float32, and 300 does not equal the
 * uint8 44). NaN equals nothing, not even NaN. When the dtypes differ, the
 * values are converted first (a copy of each).
 *
 * Returns: %TRUE when the sizes and every value are equal
 */
gboolean
lt_tensor_equal (LtTensor *self,
                 LtTensor *other)
{
  g_autoptr (LtTensor) x = NULL;
  g_autoptr (LtTensor) y = NULL;
  g_autoptr (GError) error = NULL;
  LtDType dtype;
  LtOperand a, b;
  gboolean same = FALSE;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);

  if (self->ndim != other->ndim
      || memcmp (self->sizes, other->sizes, self->ndim * sizeof (gint64)) != 0)
    return FALSE;

  /* Tensors on a device are compared on the CPU. A tensor that cannot be
   * read back equals nothing. */
  if (lt_storage_get_device_type (self->storage) != LT_DEVICE_TYPE_CPU
      || lt_storage_get_device_type (other->storage) != LT_DEVICE_TYPE_CPU)
    {
      g_autoptr (LtTensor) self_host = lt_tensor_to_cpu (self, NULL);
      g_autoptr (LtTensor) other_host = lt_tensor_to_cpu (other, NULL);

      return self_host != NULL && other_host != NULL && lt_tensor_equal (self_host, other_host);
    }

  /* Values are compared in the promoted dtype, so an int64 equals its
   * float32 rounding there, as in torch.equal(). */
  /* PyTorch's promotion of two dimensioned tensors. */
  dtype = lt_dtype_promote (lt_tensor_get_dtype (self), lt_tensor_get_dtype (other));
  x = lt_tensor_to_dtype (self, dtype, &error);
  if (x == NULL)
    {
      g_warning ("equal(): %s", error->message);
      return FALSE;
    }
  y = lt_tensor_to_dtype (other, dtype, &error);
  if (y == NULL)
    {
      g_warning ("equal(): %s", error->message);
      return FALSE;
    }

  a = lt_tensor_operand (x);
  b = lt_tensor_operand (y);
  return kernels_for (x)->allclose (lt_storage_get_backend (x->storage), x->ndim, x->sizes, &a,
                                    &b, 0, 0, FALSE, &same, NULL)
         && same;
}

/**
 * lt_tensor_allclose:
 * @self: an #LtTensor
 * @other: an #LtTensor of the same dtype, broadcastable with @self
 * @rtol: the relative tolerance
 * @atol: the absolute tolerance
 * @equal_nan: whether two NaNs count as close
 * @out_result: (out): where to store whether every pair of elements is close
 * @error: return location for a #GError
 *
 * Whether |self - other| <= @atol + @rtol * |other| for every pair of
 * elements of @self and @other broadcast together, as `torch.allclose()`.
 * Equal infinities are close; complex values are compared by the modulus of
 * their difference, and an infinite difference is never close. As in
 * PyTorch 1.13, with @equal_nan on a floating or complex dtype @other must
 * broadcast to the sizes of @self. The answer is a separate out argument so that a refusal
 * cannot be mistaken for "not close".
 *
 * Returns: %TRUE when the comparison could be made, with *@out_result set;
 *   %FALSE with @error set when the dtypes differ or the shapes do not
 *   broadcast, in which case *@out_result is not touched
 */
gboolean
lt_tensor_allclose (LtTensor *self,
                    LtTensor *other,
                    double    rtol,
                    double    atol,
                    gboolean  equal_nan,
                    gboolean *out_result,
                    GError  **error)
{
  gint64 sizes[LT_MAX_DIMS];
  g_autoptr (LtTensor) a = NULL;
  g_autoptr (LtTensor) b = NULL;
  LtOperand ao, bo;
  guint ndim, bad_dim;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);
  g_return_val_if_fail (out_result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  {
    LtTensor *both[] = { self, other };

    if (!lt_tensor_check_same_device ("allclose()", both, 2, error)
        || ((kernels_for (self) == NULL || kernels_for (self)->allclose == NULL)
            && !lt_tensor_check_host ("allclose()", both, 2, error)))
      return FALSE;
  }

  if (lt_tensor_get_dtype (self) != lt_tensor_get_dtype (other))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("allclose(): the tensors have dtypes %s and %s; convert one with to_dtype() "
                     "so both have the same dtype"),
                   lt_dtype_get_name (lt_tensor_get_dtype (self)),
                   lt_dtype_get_name (lt_tensor_get_dtype (other)));
      return FALSE;
    }
  if (!lt_layout_broadcast_shapes (self->ndim, self->sizes, other->ndim, other->sizes, &ndim,
                                   sizes, &bad_dim))
    {
      g_autofree char *a_shape = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_autofree char *b_shape = lt_layout_shape_to_string (other->ndim, other->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("allclose(): the sizes %s and %s do not broadcast together (they clash in "
                     "dim %u of the broadcast shape, where neither is 1); give tensors whose "
                     "sizes are equal or 1 in each dim aligned from the end"),
                   a_shape, b_shape, bad_dim);
      return FALSE;
    }

  /* PyTorch 1.13 marks NaN pairs close in place in a tensor of @self's
   * sizes, so there @other must broadcast to @self's sizes. */
  if (equal_nan && !is_integral (lt_tensor_get_dtype (self))
      && (ndim != self->ndim || memcmp (sizes, self->sizes, ndim * sizeof (gint64)) != 0))
    {
      g_autofree char *a_shape = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_autofree char *b_shape = lt_layout_shape_to_string (other->ndim, other->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("allclose(): with equal_nan, the second tensor's sizes %s must broadcast to "
                     "the first's %s (as in PyTorch 1.13); swap the tensors or expand the first"),
                   b_shape, a_shape);
      return FALSE;
    }

  a = lt_tensor_expand (self, sizes, ndim, error);
  if (a == NULL)
    return FALSE;
  b = lt_tensor_expand (other, sizes, ndim, error);
  if (b == NULL)
    return FALSE;

  ao = lt_tensor_operand (a);
  bo = lt_tensor_operand (b);
  return kernels_for (self)->allclose (lt_storage_get_backend (self->storage), ndim, sizes, &ao,
                                       &bo, rtol, atol, equal_nan, out_result, error);
}
