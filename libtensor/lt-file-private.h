/* lt-file-private.h: whole files for the loaders and savers (lt-npy.c,
 * lt-safetensors.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes   *lt_file_map              (const char    *filename,
                                    GError       **error);
gboolean  lt_file_write_atomically (const char    *filename,
                                    GBytes *const *parts,
                                    guint          n_parts,
                                    GError       **error);

G_END_DECLS
