/* lt-viewer-palette.h: the colours views get
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The number of colours, and colour @index ("#rrggbb"), wrapping around. */
guint        lt_viewer_palette_get_n_colors (void);
const char  *lt_viewer_palette_get_color    (guint index);

G_END_DECLS
