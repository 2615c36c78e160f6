/* lt-pointwise.h: pointwise operations on strided tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-dtype.h"
#include "lt-tensor.h"

G_BEGIN_DECLS

/**
 * LtUnaryOp:
 * @LT_UNARY_OP_NEG: -x (refused for bool)
 * @LT_UNARY_OP_ABS: |x|; the real dtype for complex inputs
 * @LT_UNARY_OP_SIGN: -1, 0 or 1 in the input's dtype (not for complex)
 * @LT_UNARY_OP_SQRT: square root
 * @LT_UNARY_OP_RSQRT: 1 / sqrt(x)
 * @LT_UNARY_OP_EXP: e to the x
 * @LT_UNARY_OP_LOG: natural logarithm
 * @LT_UNARY_OP_LOG1P: log(1 + x), accurate near 0 (not for complex)
 * @LT_UNARY_OP_EXPM1: exp(x) - 1, accurate near 0 (not for complex)
 * @LT_UNARY_OP_SIN: sine
 * @LT_UNARY_OP_COS: cosine
 * @LT_UNARY_OP_TAN: tangent
 * @LT_UNARY_OP_TANH: hyperbolic tangent
 * @LT_UNARY_OP_SIGMOID: 1 / (1 + exp(-x))
 * @LT_UNARY_OP_RELU: max(x, 0), keeping the dtype (not for bool or complex)
 * @LT_UNARY_OP_FLOOR: rounding down (integers are unchanged)
 * @LT_UNARY_OP_CEIL: rounding up
 * @LT_UNARY_OP_ROUND: rounding to nearest, half to even
 * @LT_UNARY_OP_TRUNC: rounding toward zero
 * @LT_UNARY_OP_LOGICAL_NOT: whether x is zero, as bool
 * @LT_UNARY_OP_BITWISE_NOT: ~x for integers, not x for bool
 * @LT_UNARY_OP_ISNAN: whether x is NaN, as bool
 * @LT_UNARY_OP_ISINF: whether x is infinite, as bool
 * @LT_UNARY_OP_ISFINITE: whether x is neither infinite nor NaN, as bool
 * @LT_UNARY_OP_ERF: the error function, 2 / sqrt(pi) times the integral of
 *   exp(-t²) from 0 to x (not for complex)
 *
 * The operations of lt_tensor_unary(). The floating point functions (sqrt to
 * sigmoid, and erf) of bool and integer tensors give float32, as in PyTorch.
 */
typedef enum
{
  LT_UNARY_OP_NEG,
  LT_UNARY_OP_ABS,
  LT_UNARY_OP_SIGN,
  LT_UNARY_OP_SQRT,
  LT_UNARY_OP_RSQRT,
  LT_UNARY_OP_EXP,
  LT_UNARY_OP_LOG,
  LT_UNARY_OP_LOG1P,
  LT_UNARY_OP_EXPM1,
  LT_UNARY_OP_SIN,
  LT_UNARY_OP_COS,
  LT_UNARY_OP_TAN,
  LT_UNARY_OP_TANH,
  LT_UNARY_OP_SIGMOID,
  LT_UNARY_OP_RELU,
  LT_UNARY_OP_FLOOR,
  LT_UNARY_OP_CEIL,
  LT_UNARY_OP_ROUND,
  LT_UNARY_OP_TRUNC,
  LT_UNARY_OP_LOGICAL_NOT,
  LT_UNARY_OP_BITWISE_NOT,
  LT_UNARY_OP_ISNAN,
  LT_UNARY_OP_ISINF,
  LT_UNARY_OP_ISFINITE,
  LT_UNARY_OP_ERF,
} LtUnaryOp;

/**
 * LtBinaryOp:
 * @LT_BINARY_OP_ADD: a + b
 * @LT_BINARY_OP_SUB: a - b (refused for bool)
 * @LT_BINARY_OP_MUL: a * b
 * @LT_BINARY_OP_DIV: true division; integers give float32
 * @LT_BINARY_OP_FLOOR_DIVIDE: division rounded down (Python's //)
 * @LT_BINARY_OP_TRUNC_DIVIDE: division rounded toward zero (C's /)
 * @LT_BINARY_OP_REMAINDER: the remainder with the sign of b (Python's %)
 * @LT_BINARY_OP_POW: a to the power b
 * @LT_BINARY_OP_MAXIMUM: the larger of a and b, NaN if either is NaN
 * @LT_BINARY_OP_MINIMUM: the smaller of a and b, NaN if either is NaN
 * @LT_BINARY_OP_EQ: a == b, as bool
 * @LT_BINARY_OP_NE: a != b, as bool
 * @LT_BINARY_OP_LT: a < b, as bool (not for complex)
 * @LT_BINARY_OP_LE: a <= b, as bool (not for complex)
 * @LT_BINARY_OP_GT: a > b, as bool (not for complex)
 * @LT_BINARY_OP_GE: a >= b, as bool (not for complex)
 * @LT_BINARY_OP_LOGICAL_AND: both nonzero, as bool
 * @LT_BINARY_OP_LOGICAL_OR: either nonzero, as bool
 * @LT_BINARY_OP_LOGICAL_XOR: exactly one nonzero, as bool
 * @LT_BINARY_OP_BITWISE_AND: a & b (bool and integers only)
 * @LT_BINARY_OP_BITWISE_OR: a | b (bool and integers only)
 * @LT_BINARY_OP_BITWISE_XOR: a ^ b (bool and integers only)
 *
 * The operations of lt_tensor_binary(). Operands broadcast against each other
 * and promote to a common dtype as torch.result_type() says.
 */
typedef enum
{
  LT_BINARY_OP_ADD,
  LT_BINARY_OP_SUB,
  LT_BINARY_OP_MUL,
  LT_BINARY_OP_DIV,
  LT_BINARY_OP_FLOOR_DIVIDE,
  LT_BINARY_OP_TRUNC_DIVIDE,
  LT_BINARY_OP_REMAINDER,
  LT_BINARY_OP_POW,
  LT_BINARY_OP_MAXIMUM,
  LT_BINARY_OP_MINIMUM,
  LT_BINARY_OP_EQ,
  LT_BINARY_OP_NE,
  LT_BINARY_OP_LT,
  LT_BINARY_OP_LE,
  LT_BINARY_OP_GT,
  LT_BINARY_OP_GE,
  LT_BINARY_OP_LOGICAL_AND,
  LT_BINARY_OP_LOGICAL_OR,
  LT_BINARY_OP_LOGICAL_XOR,
  LT_BINARY_OP_BITWISE_AND,
  LT_BINARY_OP_BITWISE_OR,
  LT_BINARY_OP_BITWISE_XOR,
} LtBinaryOp;

/* Type promotion and scalars (lt-promote.c) */
LT_AVAILABLE_IN_ALL
LtDType   lt_dtype_promote             (LtDType     a,
                                        LtDType     b);
LT_AVAILABLE_IN_ALL
gboolean  lt_dtype_can_cast            (LtDType     from,
                                        LtDType     to);
LT_AVAILABLE_IN_ALL
LtDType   lt_tensor_result_type        (LtTensor   *self,
                                        LtTensor   *other);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_scalar_bool    (gboolean    value);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_scalar_int     (gint64      value);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_scalar_double  (double      value);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_scalar_complex (double      re,
                                        double      im);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_is_wrapped_number  (LtTensor   *self);

/* Pointwise operations (lt-tensor-pointwise.c) */
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_unary              (LtTensor   *self,
                                        LtUnaryOp   op,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_unary_             (LtTensor   *self,
                                        LtUnaryOp   op,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_binary             (LtTensor   *self,
                                        LtBinaryOp  op,
                                        LtTensor   *other,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_binary_            (LtTensor   *self,
                                        LtBinaryOp  op,
                                        LtTensor   *other,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_add                (LtTensor   *self,
                                        LtTensor   *other,
                                        double      alpha,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_add_               (LtTensor   *self,
                                        LtTensor   *other,
                                        double      alpha,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_sub                (LtTensor   *self,
                                        LtTensor   *other,
                                        double      alpha,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_sub_               (LtTensor   *self,
                                        LtTensor   *other,
                                        double      alpha,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_where              (LtTensor   *condition,
                                        LtTensor   *self,
                                        LtTensor   *other,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_lerp               (LtTensor   *self,
                                        LtTensor   *end,
                                        LtTensor   *weight,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_lerp_              (LtTensor   *self,
                                        LtTensor   *end,
                                        LtTensor   *weight,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_clamp              (LtTensor   *self,
                                        LtTensor   *min,
                                        LtTensor   *max,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_clamp_             (LtTensor   *self,
                                        LtTensor   *min,
                                        LtTensor   *max,
                                        GError    **error);

G_END_DECLS
