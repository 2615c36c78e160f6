/* lt-storage-private.h: storage internals shared with the tensor code
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-storage.h"
#include "backends/lt-backend.h"
#include "lt-dtype-private.h"

G_BEGIN_DECLS

LtStorage       *lt_storage_new_on_backend    (const LtBackend *backend,
                                               LtDType          dtype,
                                               gint64           n_elements,
                                               gboolean         zeroed,
                                               GError         **error);
gpointer         lt_storage_get_handle        (LtStorage *self);
/* A storage over @n_elements at @handle in the memory of @backend's device,
 * owned elsewhere: @destroy (nullable) gets @destroy_data when the storage
 * is finalized. */
LtStorage       *lt_storage_new_for_handle    (const LtBackend *backend,
                                               LtDType          dtype,
                                               gpointer         handle,
                                               gint64           n_elements,
                                               GDestroyNotify   destroy,
                                               gpointer         destroy_data,
                                               GError         **error);
LtStorage       *lt_storage_new_uninitialized (LtDType    dtype,
                                               gint64     n_elements,
                                               GError   **error);
LtStorage       *lt_storage_new_reinterpreted (LtStorage *base,
                                               LtDType    dtype);
const LtBackend *lt_storage_get_backend       (LtStorage *self);

/* Element @index as a value: read in place in host memory, downloaded from
 * a device; and written the same way. FALSE with @error set for an index
 * out of range or a failed transfer. */
gboolean         lt_storage_read_value        (LtStorage *self,
                                               gint64     index,
                                               LtValue   *value,
                                               GError   **error);
gboolean         lt_storage_write_value       (LtStorage *self,
                                               gint64     index,
                                               LtValue    value,
                                               GError   **error);

G_END_DECLS
