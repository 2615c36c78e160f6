/* lt-kernel-ops.h: the numbers of the pointwise ops, for device kernels
 *
 * The values of LtUnaryOp and LtBinaryOp (lt-pointwise.h), which device
 * kernels cannot include; lt-backend.c checks at compile time that they
 * agree. Plain C that OpenCL C and CUDA C++ both read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef LT_KERNEL_OPS_H
#define LT_KERNEL_OPS_H

#define LT_K_NEG 0
#define LT_K_ABS 1
#define LT_K_SIGN 2
#define LT_K_SQRT 3
#define LT_K_RSQRT 4
#define LT_K_EXP 5
#define LT_K_LOG 6
#define LT_K_LOG1P 7
#define LT_K_EXPM1 8
#define LT_K_SIN 9
#define LT_K_COS 10
#define LT_K_TAN 11
#define LT_K_TANH 12
#define LT_K_SIGMOID 13
#define LT_K_RELU 14
#define LT_K_FLOOR 15
#define LT_K_CEIL 16
#define LT_K_ROUND 17
#define LT_K_TRUNC 18
#define LT_K_LOGICAL_NOT 19
#define LT_K_BITWISE_NOT 20
#define LT_K_ISNAN 21
#define LT_K_ISINF 22
#define LT_K_ISFINITE 23
#define LT_K_ERF 24

#define LT_K_ADD 0
#define LT_K_SUB 1
#define LT_K_MUL 2
#define LT_K_DIV 3
#define LT_K_FLOOR_DIVIDE 4
#define LT_K_TRUNC_DIVIDE 5
#define LT_K_REMAINDER 6
#define LT_K_POW 7
#define LT_K_MAXIMUM 8
#define LT_K_MINIMUM 9
#define LT_K_EQ 10
#define LT_K_NE 11
#define LT_K_LT 12
#define LT_K_LE 13
#define LT_K_GT 14
#define LT_K_GE 15
#define LT_K_LOGICAL_AND 16
#define LT_K_LOGICAL_OR 17
#define LT_K_LOGICAL_XOR 18
#define LT_K_BITWISE_AND 19
#define LT_K_BITWISE_OR 20
#define LT_K_BITWISE_XOR 21

/* Whether a unary or binary op writes bools. */
#define LT_K_UNARY_IS_PREDICATE(op) \
  ((op) == LT_K_LOGICAL_NOT || (op) == LT_K_ISNAN || (op) == LT_K_ISINF || (op) == LT_K_ISFINITE)
#define LT_K_BINARY_IS_PREDICATE(op) \
  (((op) >= LT_K_EQ && (op) <= LT_K_GE) || ((op) >= LT_K_LOGICAL_AND && (op) <= LT_K_LOGICAL_XOR))

#endif
