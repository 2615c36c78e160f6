/* lt-viewer-expression.h: evaluating view expressions such as `t[1:, ::2].t()`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libtensor.h>

G_BEGIN_DECLS

/* Evaluates @expression, a chain of PyTorch-style calls on the base tensor
 * named `t`, for instance
 *
 *   t[1:, ::2]            t.t()                  t.transpose(0, 2)
 *   t.view(2, 8)          t.view(-1)             t.reshape(4, 4)
 *   t.permute(2, 0, 1)    t.expand(3, 4)         t.unfold(0, 3, 1)
 *   t.diagonal()          t.diagonal(1, 0, 1)    t.flatten(1)
 *   t.as_strided((2, 2), (1, 2), 1)              t.unsqueeze(0)
 *   t.squeeze()  t.squeeze(1)  t.narrow(0, 1, 2)  t.select(0, 1)
 *   t.movedim(0, -1)      t.flip(0)              t.unflatten(1, (2, 2))
 *   t.contiguous()        t.clone()              t.expand_as(t)
 *   t.view_as_real()      t.view_as_complex()    t[None]  t[..., 0]
 *
 * and any chain of these: `t.t()[1:].contiguous().view(-1)`. Arguments are
 * integers, tuples or lists of integers, and keyword arguments where PyTorch
 * names them (`dim=`, `start_dim=`, `end_dim=`, `offset=`, `dim1=`, `dim2=`).
 * Errors are GErrors in LT_ERROR: LT_ERROR_PARSE naming the column for
 * syntax, otherwise the library's own error for the failing call, prefixed
 * with the call. Returns the resulting tensor (a view of @base unless a call
 * copies). */
LtTensor *lt_viewer_expression_evaluate (LtTensor   *base,
                                         const char *expression,
                                         GError    **error);

/* How far evaluation follows libtensor where PyTorch differs. */
typedef enum
{
  LT_VIEWER_EXPRESSION_DEFAULT = 0,
  /* As PyTorch does: negative steps and strides are errors (PyTorch's
   * messages, with a hint), and flip() copies instead of making a view
   * with a negative stride. */
  LT_VIEWER_EXPRESSION_PYTORCH_ONLY = 1 << 0,
} LtViewerExpressionFlags;

LtTensor *lt_viewer_expression_evaluate_with_flags (LtTensor                *base,
                                                    const char              *expression,
                                                    LtViewerExpressionFlags  flags,
                                                    GError                 **error);

G_END_DECLS
