/* lt-backend-linalg.h: the linalg kernels a backend provides
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

typedef struct
{
  /* A batch of matrix products: for every index of the batch (@batch_ndim
   * dims of @batch_sizes, which may be none), out = a @ b with a of @m x @k,
   * b of @k x @n and out of @m x @n. Each operand's strides hold
   * @batch_ndim + 2 entries, in elements: the batch dims, then rows, then
   * columns. The strides of a and b may be anything a view can have (0 for
   * expanded dims, negative for flipped ones); out's elements are distinct
   * and do not overlap a or b. The three operands share one dtype. Floating
   * and complex products may go to BLAS; integers accumulate in 64 bits and
   * wrap to the dtype, bfloat16 and float16 accumulate in float, bool is an
   * or of ands. With @k == 0 every element of out is zero. FALSE with
   * @error set where a device fails. */
  gboolean (*matmul) (const LtBackend *self,
                      guint            batch_ndim,
                      const gint64    *batch_sizes,
                      gint64           m,
                      gint64           n,
                      gint64           k,
                      const LtOperand *out,
                      const LtOperand *a,
                      const LtOperand *b,
                      GError         **error);
} LtLinalgKernels;

/* For the tests: how many times the CPU kernels copied an operand into a
 * scratch matrix because BLAS could not take its strides as they were. */
extern gint lt_cpu_linalg_n_packed;

G_END_DECLS
