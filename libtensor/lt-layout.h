/* lt-layout.h: stride arithmetic, with no objects and no allocation
 *
 * The one place the rules about sizes and strides live: element counts,
 * contiguity, view compatibility, broadcasting, the storage range a view
 * reaches, overlap, and the dim coalescing every strided loop starts with.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-types.h"

G_BEGIN_DECLS

gboolean lt_layout_numel                   (guint         ndim,
                                            const gint64 *sizes,
                                            gint64       *out_numel);
gboolean lt_layout_contiguous_strides      (guint         ndim,
                                            const gint64 *sizes,
                                            gint64       *out_strides);
gboolean lt_layout_is_contiguous           (guint         ndim,
                                            const gint64 *sizes,
                                            const gint64 *strides);
gboolean lt_layout_is_non_overlapping_and_dense (guint         ndim,
                                                 const gint64 *sizes,
                                                 const gint64 *strides);
void     lt_layout_iteration_order         (guint                ndim,
                                            const gint64        *sizes,
                                            guint                n_operands,
                                            const gint64 *const *strides,
                                            guint               *out_perm);
void     lt_layout_dense_strides_like      (guint         ndim,
                                            const gint64 *sizes,
                                            const gint64 *strides,
                                            gint64       *out_strides);
gboolean lt_layout_view_strides            (guint         old_ndim,
                                            const gint64 *old_sizes,
                                            const gint64 *old_strides,
                                            guint         new_ndim,
                                            const gint64 *new_sizes,
                                            gint64       *out_strides,
                                            guint        *out_bad_dim);
gboolean lt_layout_extent                  (guint         ndim,
                                            const gint64 *sizes,
                                            const gint64 *strides,
                                            gint64        offset,
                                            gint64       *out_lowest,
                                            gint64       *out_highest);
gboolean lt_layout_has_internal_overlap    (guint         ndim,
                                            const gint64 *sizes,
                                            const gint64 *strides);
gboolean lt_layout_broadcast_shapes        (guint         a_ndim,
                                            const gint64 *a_sizes,
                                            guint         b_ndim,
                                            const gint64 *b_sizes,
                                            guint        *out_ndim,
                                            gint64       *out_sizes,
                                            guint        *out_bad_dim);
void     lt_layout_storage_indices         (guint         ndim,
                                            const gint64 *sizes,
                                            const gint64 *strides,
                                            gint64        offset,
                                            gint64       *out_indices);
char    *lt_layout_shape_to_string         (guint         ndim,
                                            const gint64 *sizes);

/* A strided loop over up to LT_LOOP_MAX_OPERANDS operands that share one
 * shape. lt_loop_shape_simplify() drops size-1 dims, puts the dim with the
 * smallest stride of operand 0 innermost and merges neighbouring dims that
 * every operand walks as one, so kernels see as few and as long inner rows
 * as the strides allow. Strides here are in whatever unit the caller uses
 * (elements or bytes), the same for all operands. */
#define LT_LOOP_MAX_OPERANDS 4

typedef struct
{
  guint ndim;
  guint n_operands;
  gint64 sizes[LT_MAX_DIMS];
  gint64 strides[LT_LOOP_MAX_OPERANDS][LT_MAX_DIMS];
} LtLoopShape;

void     lt_loop_shape_init                (LtLoopShape  *shape,
                                            guint         ndim,
                                            const gint64 *sizes,
                                            guint         n_operands,
                                            const gint64 *const *strides);
void     lt_loop_shape_simplify            (LtLoopShape  *shape);
gint64   lt_loop_shape_numel               (const LtLoopShape *shape);

G_END_DECLS
