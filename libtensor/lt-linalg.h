/* lt-linalg.h: linalg operations on strided tensors
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
LtTensor *lt_tensor_dot    (LtTensor *self,
                            LtTensor *other,
                            GError  **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_mv     (LtTensor *self,
                            LtTensor *vec,
                            GError  **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_mm     (LtTensor *self,
                            LtTensor *other,
                            GError  **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_bmm    (LtTensor *self,
                            LtTensor *other,
                            GError  **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_matmul (LtTensor *self,
                            LtTensor *other,
                            GError  **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_outer  (LtTensor *self,
                            LtTensor *other,
                            GError  **error);

LT_AVAILABLE_IN_ALL
LtTensor *lt_einsum        (const char *equation,
                            LtTensor  **operands,
                            guint       n_operands,
                            GError    **error);

G_END_DECLS
