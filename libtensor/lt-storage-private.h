/* lt-storage-private.h: storage internals shared with the tensor code
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-storage.h"
#include "backends/lt-backend.h"

G_BEGIN_DECLS

LtStorage       *lt_storage_new_on_backend    (const LtBackend *backend,
                                               LtDType          dtype,
                                               gint64           n_elements,
                                               gboolean         zeroed,
                                               GError         **error);
gpointer         lt_storage_get_handle        (LtStorage *self);
LtStorage       *lt_storage_new_uninitialized (LtDType    dtype,
                                               gint64     n_elements,
                                               GError   **error);
LtStorage       *lt_storage_new_reinterpreted (LtStorage *base,
                                               LtDType    dtype);
const LtBackend *lt_storage_get_backend       (LtStorage *self);

G_END_DECLS
