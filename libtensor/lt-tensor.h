/* lt-tensor.h: a strided view of a storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-dtype.h"
#include "lt-generator.h"
#include "lt-storage.h"

G_BEGIN_DECLS

#define LT_TYPE_TENSOR (lt_tensor_get_type ())

LT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (LtTensor, lt_tensor, LT, TENSOR, GObject)

/* Creation (lt-tensor-create.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_empty            (LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_empty_like       (LtTensor       *like,
                                              LtDType        dtype,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_zeros            (LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_ones             (LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_full             (LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              double         value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_arange           (double         start,
                                              double         end,
                                              double         step,
                                              LtDType        dtype,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_linspace         (double         start,
                                              double         end,
                                              gint64         steps,
                                              LtDType        dtype,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_eye              (gint64         n,
                                              gint64         m,
                                              LtDType        dtype,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_rand             (LtGenerator   *generator,
                                              LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_randn            (LtGenerator   *generator,
                                              LtDType        dtype,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_from_data        (LtDType        dtype,
                                              const double  *values,
                                              gsize          n_values,
                                              const gint64  *shape,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_from_literal     (const char    *literal,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_from_literal_with_dtype (const char *literal,
                                                     LtDType     dtype,
                                                     GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_from_bytes       (LtDType        dtype,
                                              GBytes        *bytes,
                                              const gint64  *shape,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_new_with_storage     (LtStorage     *storage,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              const gint64  *strides,
                                              guint          n_strides,
                                              gint64         storage_offset,
                                              GError       **error);

/* Metadata (lt-tensor.c) */
LT_AVAILABLE_IN_ALL
LtDType       lt_tensor_get_dtype            (LtTensor      *self);
LT_AVAILABLE_IN_ALL
guint         lt_tensor_get_dim              (LtTensor      *self);
LT_AVAILABLE_IN_ALL
gint64        lt_tensor_get_numel            (LtTensor      *self);
LT_AVAILABLE_IN_ALL
const gint64 *lt_tensor_get_sizes            (LtTensor      *self,
                                              guint         *n_dims);
LT_AVAILABLE_IN_ALL
const gint64 *lt_tensor_get_strides          (LtTensor      *self,
                                              guint         *n_dims);
LT_AVAILABLE_IN_ALL
gint64        lt_tensor_get_storage_offset   (LtTensor      *self);
LT_AVAILABLE_IN_ALL
LtStorage    *lt_tensor_get_storage          (LtTensor      *self);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_is_contiguous        (LtTensor      *self);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_shares_storage       (LtTensor      *self,
                                              LtTensor      *other);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_has_internal_overlap (LtTensor      *self);
LT_AVAILABLE_IN_ALL
gint64       *lt_tensor_get_storage_indices  (LtTensor      *self,
                                              gsize         *n_indices,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_get_storage_index_tensor (LtTensor  *self,
                                                  GError   **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_storage_index_of     (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              gint64        *out_index,
                                              GError       **error);

/* Devices (lt-tensor-device.c) */
LT_AVAILABLE_IN_ALL
LtDevice     *lt_tensor_get_device           (LtTensor       *self);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_to_device            (LtTensor       *self,
                                              const LtDevice *device,
                                              GError        **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_to_cpu               (LtTensor       *self,
                                              GError        **error);

/* Views (lt-tensor-views.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_alias                (LtTensor      *self);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_select               (LtTensor      *self,
                                              int            dim,
                                              gint64         index,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_slice                (LtTensor      *self,
                                              int            dim,
                                              gint64         start,
                                              gint64         stop,
                                              gint64         step,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_narrow               (LtTensor      *self,
                                              int            dim,
                                              gint64         start,
                                              gint64         length,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_index                (LtTensor      *self,
                                              const char    *expression,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_index_with_tensors   (LtTensor      *self,
                                              const char    *expression,
                                              const char *const *names,
                                              LtTensor *const *tensors,
                                              guint          n_tensors,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_index_put_with_tensors_ (LtTensor   *self,
                                              const char    *expression,
                                              const char *const *names,
                                              LtTensor *const *tensors,
                                              guint          n_tensors,
                                              LtTensor      *values,
                                              gboolean       accumulate,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_unsqueeze            (LtTensor      *self,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_squeeze              (LtTensor      *self);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_squeeze_dim          (LtTensor      *self,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_transpose            (LtTensor      *self,
                                              int            dim0,
                                              int            dim1,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_t                    (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_permute              (LtTensor      *self,
                                              const int     *dims,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_movedim              (LtTensor      *self,
                                              const int     *source,
                                              guint          n_source,
                                              const int     *destination,
                                              guint          n_destination,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_view                 (LtTensor      *self,
                                              const gint64  *shape,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_reshape              (LtTensor      *self,
                                              const gint64  *shape,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_flatten              (LtTensor      *self,
                                              int            start_dim,
                                              int            end_dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_unflatten            (LtTensor      *self,
                                              int            dim,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_expand               (LtTensor      *self,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_expand_as            (LtTensor      *self,
                                              LtTensor      *other,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_broadcast_to         (LtTensor      *self,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_as_strided           (LtTensor      *self,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              const gint64  *strides,
                                              guint          n_strides,
                                              gint64         storage_offset,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_diagonal             (LtTensor      *self,
                                              gint64         offset,
                                              int            dim1,
                                              int            dim2,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_unfold               (LtTensor      *self,
                                              int            dim,
                                              gint64         size,
                                              gint64         step,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_flip                 (LtTensor      *self,
                                              const int     *dims,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_split                (LtTensor      *self,
                                              gint64         split_size,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_split_with_sizes     (LtTensor      *self,
                                              const gint64  *split_sizes,
                                              guint          n_split_sizes,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_chunk                (LtTensor      *self,
                                              gint64         chunks,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_unbind               (LtTensor      *self,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_view_as_real         (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_view_as_complex      (LtTensor      *self,
                                              GError       **error);

/* Views PyTorch defines through the ones above (lt-tensor-views-derived.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_view_as              (LtTensor      *self,
                                              LtTensor      *other,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_reshape_as           (LtTensor      *self,
                                              LtTensor      *other,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_swapaxes             (LtTensor      *self,
                                              int            axis0,
                                              int            axis1,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_mt                   (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_conj                 (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_adjoint              (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_real                 (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_imag                 (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_detach               (LtTensor      *self);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_tensor_split         (LtTensor      *self,
                                              gint64         sections,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_tensor_split_indices (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_hsplit               (LtTensor      *self,
                                              gint64         sections,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_hsplit_indices       (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_vsplit               (LtTensor      *self,
                                              gint64         sections,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_vsplit_indices       (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_dsplit               (LtTensor      *self,
                                              gint64         sections,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
GPtrArray    *lt_tensor_dsplit_indices       (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              GError       **error);

/* Joining, repeating, triangles: new tensors (lt-tensor-join.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_cat                         (LtTensor     **tensors,
                                              guint          n_tensors,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_stack                       (LtTensor     **tensors,
                                              guint          n_tensors,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_hstack                      (LtTensor     **tensors,
                                              guint          n_tensors,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_vstack                      (LtTensor     **tensors,
                                              guint          n_tensors,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_dstack                      (LtTensor     **tensors,
                                              guint          n_tensors,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_repeat               (LtTensor      *self,
                                              const gint64  *repeats,
                                              guint          n_repeats,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_tile                 (LtTensor      *self,
                                              const gint64  *reps,
                                              guint          n_reps,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_roll                 (LtTensor      *self,
                                              const gint64  *shifts,
                                              guint          n_shifts,
                                              const int     *dims,
                                              guint          n_dims,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_tril                 (LtTensor      *self,
                                              gint64         diagonal,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_triu                 (LtTensor      *self,
                                              gint64         diagonal,
                                              GError       **error);

/* Advanced indexing: copies by index (lt-tensor-index.c), writes by index
 * (lt-tensor-index-put.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_index_select         (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_gather               (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_take                 (LtTensor      *self,
                                              LtTensor      *index,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_nonzero              (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_masked_select        (LtTensor      *self,
                                              LtTensor      *mask,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_masked_fill          (LtTensor      *self,
                                              LtTensor      *mask,
                                              LtTensor      *value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_masked_fill_         (LtTensor      *self,
                                              LtTensor      *mask,
                                              LtTensor      *value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_scatter_             (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              LtTensor      *src,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_index_copy_          (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              LtTensor      *source,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_scatter_add_         (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              LtTensor      *src,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_index_add_           (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              LtTensor      *source,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_index_fill_          (LtTensor      *self,
                                              int            dim,
                                              LtTensor      *index,
                                              LtTensor      *value,
                                              GError       **error);

/* Ordering (lt-tensor-sort.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_argsort              (LtTensor      *self,
                                              int            dim,
                                              gboolean       descending,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_sort                 (LtTensor      *self,
                                              int            dim,
                                              gboolean       descending,
                                              LtTensor     **values,
                                              LtTensor     **indices,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_topk                 (LtTensor      *self,
                                              gint64         k,
                                              int            dim,
                                              gboolean       largest,
                                              LtTensor     **values,
                                              LtTensor     **indices,
                                              GError       **error);

/* In-place views: @self takes the new shape (lt-tensor-views-in-place.c) */
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_unsqueeze_           (LtTensor      *self,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
void          lt_tensor_squeeze_             (LtTensor      *self);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_squeeze_dim_         (LtTensor      *self,
                                              int            dim,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_transpose_           (LtTensor      *self,
                                              int            dim0,
                                              int            dim1,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_t_                   (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_as_strided_          (LtTensor      *self,
                                              const gint64  *sizes,
                                              guint          n_sizes,
                                              const gint64  *strides,
                                              guint          n_strides,
                                              gint64         storage_offset,
                                              GError       **error);

/* Copies (lt-tensor-copy.c) */
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_contiguous           (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_clone                (LtTensor      *self,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor     *lt_tensor_to_dtype             (LtTensor      *self,
                                              LtDType        dtype,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_copy_from            (LtTensor      *self,
                                              LtTensor      *src,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_fill                 (LtTensor      *self,
                                              double         value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_zero                 (LtTensor      *self,
                                              GError       **error);

/* Elements (lt-tensor-elements.c) */
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_get_double           (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              double        *out_value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_set_double           (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              double         value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_get_int64            (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              gint64        *out_value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_set_int64            (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              gint64         value,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_get_complex          (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              double        *out_real,
                                              double        *out_imag,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_tensor_set_complex          (LtTensor      *self,
                                              const gint64  *indices,
                                              guint          n_indices,
                                              double         real,
                                              double         imag,
                                              GError       **error);
LT_AVAILABLE_IN_ALL
double       *lt_tensor_to_doubles           (LtTensor      *self,
                                              gsize         *n_values);
LT_AVAILABLE_IN_ALL
GBytes       *lt_tensor_to_bytes             (LtTensor      *self,
                                              GError       **error);

/* Printing (lt-format.c) */
LT_AVAILABLE_IN_ALL
char         *lt_tensor_to_string            (LtTensor      *self);

G_END_DECLS
