/* lt-viewer-file.h: replacing a file without ever leaving half of one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean lt_viewer_file_replace_contents (GFile       *file,
                                          const char  *data,
                                          gsize        length,
                                          GError     **error);

G_END_DECLS
