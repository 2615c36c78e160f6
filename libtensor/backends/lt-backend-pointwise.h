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

G_END_DECLS
