/* lt-linalg-private.h: the matrix product lt-tensor-linalg.c and lt-einsum.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-tensor-private.h"

G_BEGIN_DECLS

/* A new contiguous tensor of @out_sizes holding, for every index of the
 * batch, a @ b: a read from @a's storage and offset with @a_strides (in
 * elements, @batch_ndim + 2 of them: batch dims, rows, columns) as an @m x @k
 * matrix, b likewise from @b as @k x @n. @out_sizes must hold
 * prod (@batch_sizes) * @m * @n elements in the order (batch..., m, n). The
 * dtypes must have been checked with lt_linalg_check_dtypes(). */
LtTensor *lt_linalg_product      (const char   *op,
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
                                  GError      **error);

/* Both operands have the same dtype and, unless @any_dtype, one PyTorch's CPU
 * matrix products take (not float16, not bool). */
gboolean  lt_linalg_check_dtypes (const char   *op,
                                  LtTensor     *a,
                                  LtTensor     *b,
                                  gboolean      any_dtype,
                                  GError      **error);

G_END_DECLS
