/* lt-promote.c: type promotion and wrapped-number scalars
 *
 * The rules are PyTorch's (c10/core/ScalarType.h promoteTypes and
 * ATen's ResultTypeState): categories bool < integer < floating < complex,
 * the wider type winning within one, with three priorities of operands:
 * tensors with dims, zero-dim tensors, then wrapped numbers (Python
 * scalars), where the lower priorities only raise the category.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-tensor-private.h"

typedef enum
{
  CATEGORY_BOOL,
  CATEGORY_INTEGER,
  CATEGORY_FLOATING,
  CATEGORY_COMPLEX,
} Category;

static Category
category_of (LtDType dtype)
{
  if (dtype == LT_DTYPE_BOOL)
    return CATEGORY_BOOL;
  if (lt_dtype_is_integer (dtype))
    return CATEGORY_INTEGER;
  if (lt_dtype_is_complex (dtype))
    return CATEGORY_COMPLEX;
  return CATEGORY_FLOATING;
}

static LtDType
promote_integers (LtDType a,
                  LtDType b)
{
  /* uint8 holds values int8 does not: together they need int16. */
  if (a == LT_DTYPE_UINT8 && b == LT_DTYPE_INT8)
    return LT_DTYPE_INT16;
  if (b == LT_DTYPE_UINT8 && a == LT_DTYPE_INT8)
    return LT_DTYPE_INT16;
  if (a == LT_DTYPE_UINT8)
    return MAX (b, LT_DTYPE_INT16);
  if (b == LT_DTYPE_UINT8)
    return MAX (a, LT_DTYPE_INT16);
  return MAX (a, b);
}

static LtDType
promote_floats (LtDType a,
                LtDType b)
{
  /* Neither float16 nor bfloat16 holds the other's values. */
  if ((a == LT_DTYPE_FLOAT16 && b == LT_DTYPE_BFLOAT16)
      || (a == LT_DTYPE_BFLOAT16 && b == LT_DTYPE_FLOAT16))
    return LT_DTYPE_FLOAT32;
  return MAX (a, b);
}

/**
 * lt_dtype_promote:
 * @a: an #LtDType
 * @b: another #LtDType
 *
 * The smallest dtype both @a and @b convert to without leaving their
 * category, as torch.promote_types(): int8 and uint8 give int16, float16
 * and bfloat16 give float32, float64 and complex64 give complex128.
 *
 * Returns: the promoted dtype
 */
LtDType
lt_dtype_promote (LtDType a,
                  LtDType b)
{
  Category ca, cb;

  g_return_val_if_fail (lt_dtype_is_valid (a), LT_DTYPE_FLOAT32);
  g_return_val_if_fail (lt_dtype_is_valid (b), LT_DTYPE_FLOAT32);

  if (a == b)
    return a;
  ca = category_of (a);
  cb = category_of (b);
  if (ca == CATEGORY_COMPLEX || cb == CATEGORY_COMPLEX)
    {
      LtDType ra = ca == CATEGORY_COMPLEX ? lt_dtype_to_real (a) : a;
      LtDType rb = cb == CATEGORY_COMPLEX ? lt_dtype_to_real (b) : b;

      if (category_of (ra) != CATEGORY_FLOATING)
        return b;
      if (category_of (rb) != CATEGORY_FLOATING)
        return a;
      return lt_dtype_to_complex (promote_floats (ra, rb));
    }
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == CATEGORY_INTEGER)
    return promote_integers (a, b);
  return promote_floats (a, b);
}

/**
 * lt_dtype_can_cast:
 * @from: the dtype of a result
 * @to: the dtype it would be written into
 *
 * Whether an operation may write a result of dtype @from into a tensor of
 * dtype @to, as torch.can_cast(): never from a higher category to a lower
 * one (complex to real, floating point to integer, anything to bool).
 * Narrowing within a category is allowed.
 *
 * Returns: %TRUE if the cast is allowed
 */
gboolean
lt_dtype_can_cast (LtDType from,
                   LtDType to)
{
  g_return_val_if_fail (lt_dtype_is_valid (from), FALSE);
  g_return_val_if_fail (lt_dtype_is_valid (to), FALSE);

  return category_of (from) <= category_of (to);
}

/* ResultTypeState's combine_categories. */
static LtDType
combine (int higher,
         int lower)
{
  if (higher < 0)
    return lower;
  if (lower < 0)
    return higher;
  if (lt_dtype_is_complex (higher))
    return higher;
  if (lt_dtype_is_complex (lower))
    return lt_dtype_is_floating_point (higher) ? lt_dtype_to_complex (higher) : (LtDType) lower;
  if (lt_dtype_is_floating_point (higher))
    return higher;
  if (higher == LT_DTYPE_BOOL || lt_dtype_is_floating_point (lower))
    return lt_dtype_promote (higher, lower);
  return higher;
}

/* The dtype of an operation on @tensors, PyTorch's result_type over all of
 * them. Undefined states are -1. */
LtDType
lt_tensor_result_type_of (LtTensor *const *tensors,
                          guint            n_tensors)
{
  int dim_result = -1, zero_result = -1, wrapped_result = -1;

  for (guint i = 0; i < n_tensors; i++)
    {
      LtTensor *t = tensors[i];
      LtDType dtype = lt_tensor_get_dtype (t);
      int *state;

      if (t->is_wrapped_number)
        {
          /* Python floats and complex numbers count as the default dtypes. */
          if (lt_dtype_is_complex (dtype))
            dtype = LT_DTYPE_COMPLEX64;
          else if (lt_dtype_is_floating_point (dtype))
            dtype = LT_DTYPE_DEFAULT;
          state = &wrapped_result;
        }
      else if (t->ndim == 0)
        state = &zero_result;
      else
        state = &dim_result;

      *state = *state < 0 ? (int) dtype : (int) lt_dtype_promote (*state, dtype);
    }

  return combine (dim_result, combine (zero_result, wrapped_result));
}

/**
 * lt_tensor_result_type:
 * @self: an #LtTensor
 * @other: another #LtTensor
 *
 * The dtype of a binary operation on @self and @other, as
 * torch.result_type(): tensors with dims decide before zero-dim tensors,
 * which decide before wrapped numbers (lt_tensor_new_scalar_int() and
 * friends); a lower-priority operand only raises the category. An int32
 * tensor with a zero-dim float64 tensor gives float64; an int32 tensor with
 * a wrapped float gives float32; a float32 tensor with a zero-dim float64
 * tensor stays float32.
 *
 * Returns: the result dtype
 */
LtDType
lt_tensor_result_type (LtTensor *self,
                       LtTensor *other)
{
  LtTensor *tensors[2] = { self, other };

  g_return_val_if_fail (LT_IS_TENSOR (self), LT_DTYPE_DEFAULT);
  g_return_val_if_fail (LT_IS_TENSOR (other), LT_DTYPE_DEFAULT);

  return lt_tensor_result_type_of (tensors, 2);
}

static LtTensor *
new_wrapped (LtDType dtype,
             LtValue value)
{
  g_autoptr (GError) error = NULL;
  LtTensor *self = lt_tensor_new_contiguous ("scalar", dtype, 0, NULL, &error);

  /* One element always fits. */
  g_assert_no_error (error);
  lt_value_write (dtype, lt_tensor_operand (self).data, value);
  self->is_wrapped_number = TRUE;
  return self;
}

/**
 * lt_tensor_new_scalar_bool:
 * @value: the value
 *
 * A zero-dim bool tensor that promotes as a Python bool does: it never
 * changes the dtype of an operation with a tensor.
 *
 * Returns: (transfer full): the wrapped number
 */
LtTensor *
lt_tensor_new_scalar_bool (gboolean value)
{
  return new_wrapped (LT_DTYPE_BOOL, lt_value_from_int64 (value != FALSE));
}

/**
 * lt_tensor_new_scalar_int:
 * @value: the value
 *
 * A zero-dim int64 tensor that promotes as a Python int does: with an
 * integer tensor the tensor's dtype wins (uint8 + 300 stays uint8), with a
 * bool tensor the result is int64.
 *
 * Returns: (transfer full): the wrapped number
 */
LtTensor *
lt_tensor_new_scalar_int (gint64 value)
{
  return new_wrapped (LT_DTYPE_INT64, lt_value_from_int64 (value));
}

/**
 * lt_tensor_new_scalar_double:
 * @value: the value
 *
 * A zero-dim float64 tensor that promotes as a Python float does: with a
 * floating point tensor the tensor's dtype wins, with a bool or integer
 * tensor the result is float32 (the default dtype).
 *
 * Returns: (transfer full): the wrapped number
 */
LtTensor *
lt_tensor_new_scalar_double (double value)
{
  return new_wrapped (LT_DTYPE_FLOAT64, lt_value_from_double (value));
}

/**
 * lt_tensor_new_scalar_complex:
 * @re: the real part
 * @im: the imaginary part
 *
 * A zero-dim complex128 tensor that promotes as a Python complex does: with
 * a float64 tensor the result is complex128, with other real tensors
 * complex64, with complex tensors their own dtype.
 *
 * Returns: (transfer full): the wrapped number
 */
LtTensor *
lt_tensor_new_scalar_complex (double re,
                              double im)
{
  return new_wrapped (LT_DTYPE_COMPLEX128, lt_value_from_complex (re, im));
}

/**
 * lt_tensor_is_wrapped_number:
 * @self: an #LtTensor
 *
 * Whether @self was made by one of the lt_tensor_new_scalar_*() functions
 * and promotes as a Python number. Views of it are ordinary tensors.
 *
 * Returns: %TRUE for a wrapped number
 */
gboolean
lt_tensor_is_wrapped_number (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return self->is_wrapped_number;
}
