/* lt-io.h: tensors in files: NumPy's .npy and safetensors
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
gboolean    lt_tensor_save_npy               (LtTensor    *self,
                                              const char  *filename,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
GBytes     *lt_tensor_to_npy_bytes           (LtTensor    *self,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
LtTensor   *lt_tensor_new_from_npy           (const char  *filename,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
LtTensor   *lt_tensor_new_from_npy_bytes     (GBytes      *bytes,
                                              GError     **error);

LT_AVAILABLE_IN_ALL
gboolean    lt_safetensors_save              (const char  *filename,
                                              GHashTable  *tensors,
                                              GHashTable  *metadata,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
GBytes     *lt_safetensors_to_bytes          (GHashTable  *tensors,
                                              GHashTable  *metadata,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
GHashTable *lt_safetensors_load              (const char  *filename,
                                              GHashTable **metadata,
                                              GError     **error);
LT_AVAILABLE_IN_ALL
GHashTable *lt_safetensors_load_from_bytes   (GBytes      *bytes,
                                              GHashTable **metadata,
                                              GError     **error);

G_END_DECLS
