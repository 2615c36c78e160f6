/* lt-backend-index.h: the indexing kernels a backend provides
 *
 * Advanced indexing (index_select(), gather(), take(), masked_select(),
 * nonzero(), and the writes scatter_(), index_copy_(), index_fill_())
 * comes down to three loops over host memory: reading and writing the
 * elements of a storage at given storage indices, and listing where a mask
 * is set. Ordering (sort(), argsort(), topk()) needs a fourth: the order
 * of the keys of each line. The core computes the storage indices with element-wise int64
 * arithmetic on the tensors' device and checks them against the storage
 * before any kernel runs. A backend without these kernels (NULL) gets its
 * operands copied to the host and the results copied back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"

G_BEGIN_DECLS

typedef struct
{
  /* dst[i] = base[offsets[i]] for 0 <= i < n, elements of @element_size
   * bytes; every offset is a valid element index of @base. */
  void   (*gather)  (gpointer       dst,
                     gconstpointer  base,
                     gsize          element_size,
                     const gint64  *offsets,
                     gint64         n);
  /* base[offsets[i]] = src[i] for 0 <= i < n, in order of i (where
   * offsets repeat, the last write stays); every offset is a valid element
   * index of @base. */
  void   (*scatter) (gpointer       base,
                     gconstpointer  src,
                     gsize          element_size,
                     const gint64  *offsets,
                     gint64         n);
  /* base[offsets[i]] += src[i] for 0 <= i < n, in order of i, in @dtype's
   * arithmetic (integers wrap, floats round once, bool is or); repeated
   * offsets add up. */
  void   (*scatter_add) (gpointer       base,
                         gconstpointer  src,
                         LtDType        dtype,
                         const gint64  *offsets,
                         gint64         n);
  /* For each of the @n_lines lines of @length contiguous keys at @keys
   * (doubles where @doubles, else int64s), writes to @order the positions
   * of its keys sorted ascending, or descending, stably (equal keys keep
   * their order); NaN sorts above every number. */
  void   (*argsort) (gconstpointer  keys,
                     gboolean       doubles,
                     gint64         n_lines,
                     gint64         length,
                     gboolean       descending,
                     gint64        *order);
  /* Writes to @positions, in ascending order, the index of every nonzero
   * byte of the @n bytes of @mask; returns how many there were.
   * @positions has room for @n. */
  gint64 (*compact) (const guint8  *mask,
                     gint64         n,
                     gint64        *positions);
} LtIndexKernels;

G_END_DECLS
