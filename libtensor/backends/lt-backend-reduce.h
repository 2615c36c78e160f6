/* lt-backend-reduce.h: the reduce kernels a backend provides
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "backends/lt-operand.h"

G_BEGIN_DECLS

typedef struct _LtBackend LtBackend;

/* What a reduction computes per output element. */
typedef enum
{
  LT_REDUCE_SUM,
  LT_REDUCE_PROD,
  LT_REDUCE_MEAN,
  LT_REDUCE_AMAX,
  LT_REDUCE_AMIN,
  LT_REDUCE_ALL,
  LT_REDUCE_ANY,
  LT_REDUCE_LOGSUMEXP,
  LT_REDUCE_VAR,
  LT_REDUCE_STD,
  LT_REDUCE_NORM,
  /* Value and int64 index of the largest (smallest) element; NaN wins, the
   * first of equal elements wins. */
  LT_REDUCE_MAX_INDEX,
  LT_REDUCE_MIN_INDEX,
} LtReduceOp;

typedef struct
{
  LtReduceOp op;
  /* The correction of var and std (1 for Bessel's). */
  double correction;
  /* The order of norm: 0, any p > 0, INFINITY or -INFINITY. */
  double p;
} LtReduceParams;

typedef enum
{
  LT_SCAN_CUMSUM,
  LT_SCAN_CUMPROD,
} LtScanOp;

typedef enum
{
  LT_SOFTMAX,
  LT_LOG_SOFTMAX,
} LtSoftmaxOp;

typedef struct
{
  /* Reduces @src (of @sizes) over the dims where @dst's strides are 0 into
   * @dst, which has the same ndim and stride 0 on every reduced dim and no
   * overlap elsewhere; @dst may have another dtype than @src (int64 sums of
   * integers, bool of all/any, the real dtype of a complex var). For
   * MAX_INDEX/MIN_INDEX, @indices (int64, same strides as @dst) gets the
   * index of each winner in row-major order over the reduced dims, and
   * @dst may be NULL. A reduction over no element writes the op's identity
   * (0, 1, NaN for mean and var, -inf for logsumexp); the caller refuses
   * the ops that have none. These kernels return FALSE with @error set
   * where a device fails. */
  gboolean (*reduce) (const LtBackend      *self,
                      const LtReduceParams *params,
                      guint                 ndim,
                      const gint64         *sizes,
                      const LtOperand      *dst,
                      const LtOperand      *indices,
                      const LtOperand      *src,
                      GError              **error);

  /* Running sum or product of @src along @dim into @dst (same sizes, no
   * overlap with @src). */
  gboolean (*scan) (const LtBackend *self,
                    LtScanOp         op,
                    guint            ndim,
                    const gint64    *sizes,
                    guint            dim,
                    const LtOperand *dst,
                    const LtOperand *src,
                    GError         **error);

  /* Softmax or log-softmax of @src along @dim into @dst (same sizes and
   * floating dtype, no overlap with @src). */
  gboolean (*softmax) (const LtBackend *self,
                       LtSoftmaxOp      op,
                       guint            ndim,
                       const gint64    *sizes,
                       guint            dim,
                       const LtOperand *dst,
                       const LtOperand *src,
                       GError         **error);

  /* Whether every pair of elements of @a and @b (broadcast to @sizes
   * already) satisfies |a - b| <= atol + rtol * |b|, with NaNs equal when
   * @equal_nan; rtol = atol = 0 and !equal_nan compares for equality. The
   * answer goes to *@close. */
  gboolean (*allclose) (const LtBackend *self,
                        guint            ndim,
                        const gint64    *sizes,
                        const LtOperand *a,
                        const LtOperand *b,
                        double           rtol,
                        double           atol,
                        gboolean         equal_nan,
                        gboolean        *close,
                        GError         **error);
} LtReduceKernels;

G_END_DECLS
