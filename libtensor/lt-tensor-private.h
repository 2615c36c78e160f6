/* lt-tensor-private.h: the tensor's fields and the helpers its files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-tensor.h"
#include "lt-storage-private.h"
#include "backends/lt-backend.h"

G_BEGIN_DECLS

/* Shapes up to this many dims live inside the object; larger ones get their
 * own allocation. */
#define LT_TENSOR_INLINE_DIMS 6

struct _LtTensor
{
  GObject parent_instance;

  /* Immutable once the tensor is returned (views are new objects), but for
   * the in-place view operations, through lt_tensor_take_layout(). */
  LtStorage *storage;
  gint64 storage_offset;
  guint ndim;
  gint64 numel;
  gboolean is_contiguous;
  /* Made from a Python-style number (lt_tensor_new_scalar_*): promotes as
   * a scalar does, below every tensor. Views never inherit it. */
  gboolean is_wrapped_number;
  gint64 *sizes;
  gint64 *strides;
  gint64 inline_shape[2 * LT_TENSOR_INLINE_DIMS];

  /* Dim names (lt-names.c): one interned string or NULL per dim, or NULL
   * itself while no dim has a name. */
  const char **names;
};

LtTensor *lt_tensor_new_view          (LtStorage    *storage,
                                       guint         ndim,
                                       const gint64 *sizes,
                                       const gint64 *strides,
                                       gint64        storage_offset);
LtTensor *lt_tensor_new_contiguous    (const char   *op,
                                       LtDType       dtype,
                                       guint         ndim,
                                       const gint64 *sizes,
                                       GError      **error);
LtTensor *lt_tensor_new_contiguous_uninitialized (const char   *op,
                                                  LtDType       dtype,
                                                  guint         ndim,
                                                  const gint64 *sizes,
                                                  GError      **error);
LtTensor *lt_tensor_new_contiguous_on (const LtBackend *backend,
                                       const char      *op,
                                       LtDType          dtype,
                                       guint            ndim,
                                       const gint64    *sizes,
                                       GError         **error);
LtTensor *lt_tensor_new_strided_like  (LtTensor     *like,
                                       LtDType       dtype,
                                       gboolean      zeroed,
                                       GError      **error);

gboolean  lt_tensor_wrap_dim          (const char   *op,
                                       int           dim,
                                       guint         ndim,
                                       guint        *out_dim,
                                       GError      **error);
gboolean  lt_tensor_check_sizes       (const char   *op,
                                       const gint64 *sizes,
                                       guint         n_sizes,
                                       GError      **error);
gboolean  lt_tensor_check_host        (const char      *op,
                                       LtTensor *const *tensors,
                                       guint            n_tensors,
                                       GError         **error);
gboolean  lt_tensor_check_same_device (const char      *op,
                                       LtTensor *const *tensors,
                                       guint            n_tensors,
                                       GError         **error);
gboolean  lt_tensor_check_writable    (const char   *op,
                                       LtTensor     *self,
                                       GError      **error);

void      lt_tensor_take_layout       (LtTensor     *self,
                                       LtTensor     *view);
/* The view basic index items (lt-index-expr.h, no names) make. */
LtTensor *lt_tensor_index_items       (LtTensor     *self,
                                       const char   *expression,
                                       const GArray *items,
                                       GError      **error);

void      lt_tensor_set_names_internal (LtTensor         *self,
                                        const char *const *names);
gboolean  lt_tensor_check_unnamed     (const char   *op,
                                       LtTensor     *self,
                                       GError      **error);
LtDType   lt_tensor_result_type_of    (LtTensor *const *tensors,
                                       guint            n_tensors);

LtOperand lt_tensor_operand           (LtTensor     *self);
char     *lt_tensor_describe_layout   (LtTensor     *self);

G_END_DECLS
