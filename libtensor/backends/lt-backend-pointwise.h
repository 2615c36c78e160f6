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

#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "lt-pointwise.h"
#include "backends/lt-operand.h"

G_BEGIN_DECLS

typedef struct _LtBackend LtBackend;

/* A device backend's table may leave kernels NULL, and unary() and binary()
 * may refuse an op or a dtype they have no kernel for yet: FALSE with
 * @error set (LT_ERROR_DEVICE). The CPU's do everything and never fail. */
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
  void (*where) (guint            ndim,
                 const gint64    *sizes,
                 const LtOperand *out,
                 const LtOperand *cond,
                 const LtOperand *a,
                 const LtOperand *b);

  /* out = a + weight * (b - a), floating point or complex dtypes. */
  void (*lerp) (guint            ndim,
                const gint64    *sizes,
                const LtOperand *out,
                const LtOperand *a,
                const LtOperand *b,
                const LtOperand *weight);

  /* out = minimum (maximum (x, lo), hi), NaN when any of them is NaN. */
  void (*clamp) (guint            ndim,
                 const gint64    *sizes,
                 const LtOperand *out,
                 const LtOperand *x,
                 const LtOperand *lo,
                 const LtOperand *hi);

  /* Whether some element of operand is zero. */
  gboolean (*any_zero) (guint            ndim,
                        const gint64    *sizes,
                        const LtOperand *operand);
} LtPointwiseKernels;

G_END_DECLS
