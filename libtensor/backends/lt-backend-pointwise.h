/* lt-backend-pointwise.h: the pointwise kernels a backend provides
 *
 * Every operand has the sizes given (broadcast inputs have stride 0) and one
 * dtype: the inputs of a kernel share the computation dtype, and the output
 * has that dtype too, or bool for predicates, or the real dtype for the
 * absolute value of complex numbers. The caller converts inputs, checks
 * which dtypes an op supports, and makes sure the output has no internal
 * overlap and overlaps no input unless it is laid out exactly as that input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>
#include <string.h>

#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "lt-pointwise.h"
#include "backends/lt-operand.h"

G_BEGIN_DECLS

typedef struct _LtBackend LtBackend;

/* A device backend's table may leave kernels NULL, and its kernels may
 * fail (a launch, a kernel build, a dtype the device lacks): FALSE with
 * @error set. The CPU's do everything and never fail. */
typedef struct
{
  /* out = op (in). */
  gboolean (*unary) (const LtBackend *self,
                     LtUnaryOp        op,
                     guint            ndim,
                     const gint64    *sizes,
                     const LtOperand *out,
                     const LtOperand *in,
                     GError         **error);

  /* out = op (a, b); ADD and SUB compute a + alpha * b and a - alpha * b,
   * alpha being an integer value for integer dtypes. Integer divisions never
   * see a zero divisor (the caller checks with any_zero). */
  gboolean (*binary) (const LtBackend *self,
                      LtBinaryOp       op,
                      guint            ndim,
                      const gint64    *sizes,
                      const LtOperand *out,
                      const LtOperand *a,
                      const LtOperand *b,
                      LtValue          alpha,
                      GError         **error);

  /* out = cond ? a : b, cond being bool. */
  gboolean (*where) (const LtBackend *self,
                     guint            ndim,
                     const gint64    *sizes,
                     const LtOperand *out,
                     const LtOperand *cond,
                     const LtOperand *a,
                     const LtOperand *b,
                     GError         **error);

  /* out = a + weight * (b - a), floating point or complex dtypes. */
  gboolean (*lerp) (const LtBackend *self,
                    guint            ndim,
                    const gint64    *sizes,
                    const LtOperand *out,
                    const LtOperand *a,
                    const LtOperand *b,
                    const LtOperand *weight,
                    GError         **error);

  /* out = minimum (maximum (x, lo), hi), NaN when any of them is NaN. */
  gboolean (*clamp) (const LtBackend *self,
                     guint            ndim,
                     const gint64    *sizes,
                     const LtOperand *out,
                     const LtOperand *x,
                     const LtOperand *lo,
                     const LtOperand *hi,
                     GError         **error);

  /* Whether some element of operand is zero, into @found. */
  gboolean (*any_zero) (const LtBackend *self,
                        guint            ndim,
                        const gint64    *sizes,
                        const LtOperand *operand,
                        gboolean        *found,
                        GError         **error);
} LtPointwiseKernels;

/* For device kernels (lt-kernel-pointwise.h), binary()'s alpha as the
 * CPU applies it: in @alpha_i for integer dtypes, in @bytes as a value of
 * @dtype's computation type (float for float16 and bfloat16, complex for
 * complex dtypes, int for bool, the dtype itself for integers: its low
 * bytes on a little-endian device), and in @use_alpha whether it is not
 * 1 (a plain sum then, as on the CPU). Returns the size of the value in
 * @bytes. */
static inline gsize
lt_pointwise_alpha_for_kernels (LtDType   dtype,
                                LtValue   alpha,
                                gint64   *alpha_i,
                                gint32   *use_alpha,
                                guint64   bytes[2])
{
  gboolean integral = alpha.kind == LT_VALUE_INT || alpha.kind == LT_VALUE_BOOL;
  double alpha_f = integral ? (double) alpha.i : alpha.re;

  *alpha_i = integral ? alpha.i : 0;
  *use_alpha = integral ? alpha.i != 1 : alpha_f != 1.0;
  bytes[0] = bytes[1] = 0;
  switch (dtype)
    {
    case LT_DTYPE_FLOAT16:
    case LT_DTYPE_BFLOAT16:
    case LT_DTYPE_FLOAT32:
    case LT_DTYPE_COMPLEX64:
      {
        float value = (float) alpha_f;

        memcpy (bytes, &value, sizeof value);
        return dtype == LT_DTYPE_COMPLEX64 ? 8 : 4;
      }
    case LT_DTYPE_FLOAT64:
    case LT_DTYPE_COMPLEX128:
      memcpy (bytes, &alpha_f, sizeof alpha_f);
      return dtype == LT_DTYPE_COMPLEX128 ? 16 : 8;
    case LT_DTYPE_BOOL:
      {
        gint32 value = (gint32) *alpha_i;

        memcpy (bytes, &value, sizeof value);
        return 4;
      }
    default:
      memcpy (bytes, alpha_i, sizeof *alpha_i);
      return lt_dtype_get_element_size (dtype);
    }
}

G_END_DECLS
