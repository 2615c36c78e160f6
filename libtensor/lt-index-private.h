/* lt-index-private.h: what the indexing reads (lt-tensor-index.c) and
 * writes (lt-tensor-index-put.c) share
 *
 * Both turn coordinates into storage indices with int64 element-wise
 * arithmetic on the tensors' device, after checking the index values.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-tensor-private.h"

G_BEGIN_DECLS

const LtBackend *lt_index_backend_of   (LtTensor     *self);
gpointer         lt_index_data_of      (LtTensor     *self);
/* @tensor moved to @like's device. */
LtTensor        *lt_index_on_device_of (LtTensor     *tensor,
                                        LtTensor     *like,
                                        GError      **error);
/* @index as int64, negative values counted from @size's end where @wrap. */
LtTensor        *lt_index_as_offsets   (LtTensor     *index,
                                        gint64        size,
                                        gboolean      wrap,
                                        GError      **error);
gboolean         lt_index_check_dtype  (const char   *op,
                                        LtTensor     *index,
                                        gboolean      int32_too,
                                        GError      **error);
/* Every value of @index in [@low, @high), else an error naming one. */
gboolean         lt_index_check_range  (const char   *op,
                                        LtTensor     *index,
                                        gint64        low,
                                        gint64        high,
                                        const char   *what,
                                        GError      **error);
/* storage_offset + sum of coordinates[d] * strides[d], broadcast to the
 * result's @sizes: contiguous int64 on @self's device. */
LtTensor        *lt_index_storage_offsets (LtTensor      *self,
                                           LtTensor     **coordinates,
                                           const gint64  *sizes,
                                           guint          ndim,
                                           GError       **error);
/* The elements of @self's storage at @offsets (valid storage indices), in
 * a new contiguous tensor of @offsets' sizes on @self's device. */
LtTensor        *lt_index_gather_storage (const char *op,
                                          LtTensor   *self,
                                          LtTensor   *offsets,
                                          GError    **error);
/* Writes @values (@self's dtype, @offsets' sizes) into @self's storage at
 * @offsets, adding them where @accumulate. */
gboolean         lt_index_scatter_storage (LtTensor *self,
                                           LtTensor *offsets,
                                           LtTensor *values,
                                           gboolean  accumulate,
                                           GError  **error);
/* A 1-dim view of the whole of @self's storage. */
LtTensor        *lt_index_whole_storage (LtTensor     *self);
/* One coordinate tensor per dim of @self over a grid of @sizes, the one of
 * @replaced_dim (when < ndim) being @replacement; free with clear_grid. */
gboolean         lt_index_grid         (LtTensor     *self,
                                        const gint64 *sizes,
                                        guint         replaced_dim,
                                        LtTensor     *replacement,
                                        LtTensor    **coordinates,
                                        GError      **error);
void             lt_index_clear_grid   (LtTensor    **coordinates,
                                        guint         ndim);

G_END_DECLS
