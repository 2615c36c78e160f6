/* lt-names.h: names for the dims of a tensor
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

LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_has_names     (LtTensor           *self);
LT_AVAILABLE_IN_ALL
GStrv     lt_tensor_get_names     (LtTensor           *self);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_refine_names  (LtTensor           *self,
                                   const char * const *names,
                                   guint               n_names,
                                   GError            **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_rename        (LtTensor           *self,
                                   const char * const *names,
                                   guint               n_names,
                                   GError            **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_rename_dims   (LtTensor           *self,
                                   const char * const *old_names,
                                   const char * const *new_names,
                                   guint               n_names,
                                   GError            **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_align_to      (LtTensor           *self,
                                   const char * const *names,
                                   guint               n_names,
                                   GError            **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_align_as      (LtTensor           *self,
                                   LtTensor           *other,
                                   GError            **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_dim_of_name   (LtTensor           *self,
                                   const char         *name,
                                   int                *out_dim,
                                   GError            **error);

G_END_DECLS
