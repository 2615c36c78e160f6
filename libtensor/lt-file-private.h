/* lt-file-private.h: whole files for the loaders and savers (lt-npy.c,
 * lt-safetensors.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"
#include "lt-error.h"

G_BEGIN_DECLS

GBytes   *lt_file_map              (const char    *filename,
                                    GError       **error);
gboolean  lt_file_write_atomically (const char    *filename,
                                    GBytes *const *parts,
                                    guint          n_parts,
                                    GError       **error);

/* Sets @error to @code in LT_ERROR, the message prefixed with @source (the
 * file's display name, or what the bytes are). */
void      lt_file_set_error        (GError       **error,
                                    LtError        code,
                                    const char    *source,
                                    const char    *format,
                                    ...) G_GNUC_PRINTF (4, 5);
/* The elements of @bytes (of @dtype) in the other byte order; complex
 * elements swap each part. */
GBytes   *lt_file_swap_bytes       (GBytes        *bytes,
                                    LtDType        dtype);

G_END_DECLS
