/* lt-dlpack.h: tensors shared with other libraries through DLPack
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
gpointer  lt_tensor_to_dlpack       (LtTensor  *self,
                                     GError   **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_from_dlpack (gpointer   dl_managed_tensor,
                                     GError   **error);

G_END_DECLS
