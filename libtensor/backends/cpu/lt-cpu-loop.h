/* lt-cpu-loop.h: the row walk every CPU kernel shares
 *
 * A kernel turns its operands' element strides into byte strides, builds an
 * LtLoopShape, simplifies it (lt-layout.h), then calls its row function on
 * the innermost dim while lt_cpu_next_row() steps the outer dims.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-layout.h"

G_BEGIN_DECLS

/* Moves @ptrs to the next row of the dims [0, n_outer) of @shape, with
 * @counters (zeroed before the first row) keeping the position. FALSE once
 * every row has been visited. */
static inline gboolean
lt_cpu_next_row (const LtLoopShape *shape,
                 guint              n_outer,
                 gint64            *counters,
                 char             **ptrs)
{
  for (guint d = n_outer; d-- > 0;)
    {
      for (guint op = 0; op < shape->n_operands; op++)
        ptrs[op] += shape->strides[op][d];
      if (++counters[d] < shape->sizes[d])
        return TRUE;
      for (guint op = 0; op < shape->n_operands; op++)
        ptrs[op] -= shape->strides[op][d] * shape->sizes[d];
      counters[d] = 0;
    }
  return FALSE;
}

/* Places @ptrs (each operand's first element in @bases) and @counters at
 * row @row of the dims [0, n_outer) of @shape, rows counted in row-major
 * order: where a thread given the rows [row, ...) starts. */
static inline void
lt_cpu_seek_row (const LtLoopShape *shape,
                 guint              n_outer,
                 gint64             row,
                 char *const       *bases,
                 gint64            *counters,
                 char             **ptrs)
{
  for (guint op = 0; op < shape->n_operands; op++)
    ptrs[op] = bases[op];
  for (guint d = n_outer; d-- > 0;)
    {
      counters[d] = row % shape->sizes[d];
      row /= shape->sizes[d];
      for (guint op = 0; op < shape->n_operands; op++)
        ptrs[op] += counters[d] * shape->strides[op][d];
    }
}

/* Strides in bytes. A dim of size 0 or 1 never moves a pointer, and its
 * stride may be anything (up to G_MAXINT64), so it becomes 0 instead of
 * being multiplied; every other stride fits in bytes because the storage
 * bounds check already holds the whole view. */
static inline void
lt_cpu_byte_strides (guint         ndim,
                     const gint64 *sizes,
                     const gint64 *strides,
                     gsize         element_size,
                     gint64       *out)
{
  for (guint d = 0; d < ndim; d++)
    out[d] = sizes[d] <= 1 ? 0 : strides[d] * (gint64) element_size;
}

G_END_DECLS
