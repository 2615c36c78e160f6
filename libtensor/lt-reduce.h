/* lt-reduce.h: reduce operations on strided tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-tensor.h"

G_BEGIN_DECLS

/* Reductions over a list of dims (lt-tensor-reduce.c) */
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_sum           (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_prod          (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_mean          (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_amax          (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_amin          (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_all           (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_any           (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_logsumexp     (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_var           (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   double      correction,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_std           (LtTensor   *self,
                                   const int  *dims,
                                   guint       n_dims,
                                   double      correction,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_norm          (LtTensor   *self,
                                   double      p,
                                   const int  *dims,
                                   guint       n_dims,
                                   gboolean    keepdim,
                                   GError    **error);

/* Extremes and where they are */
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_max_dim       (LtTensor   *self,
                                   int         dim,
                                   gboolean    keepdim,
                                   LtTensor  **values,
                                   LtTensor  **indices,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_min_dim       (LtTensor   *self,
                                   int         dim,
                                   gboolean    keepdim,
                                   LtTensor  **values,
                                   LtTensor  **indices,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_max           (LtTensor   *self,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_min           (LtTensor   *self,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_argmax        (LtTensor   *self,
                                   int         dim,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_argmin        (LtTensor   *self,
                                   int         dim,
                                   gboolean    keepdim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_argmax_all    (LtTensor   *self,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_argmin_all    (LtTensor   *self,
                                   GError    **error);

/* Along one dim */
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_cumsum        (LtTensor   *self,
                                   int         dim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_cumprod       (LtTensor   *self,
                                   int         dim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_softmax       (LtTensor   *self,
                                   int         dim,
                                   GError    **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_log_softmax   (LtTensor   *self,
                                   int         dim,
                                   GError    **error);

/* Comparisons */
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_equal         (LtTensor   *self,
                                   LtTensor   *other);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_allclose      (LtTensor   *self,
                                   LtTensor   *other,
                                   double      rtol,
                                   double      atol,
                                   gboolean    equal_nan,
                                   gboolean   *out_result,
                                   GError    **error);

G_END_DECLS
