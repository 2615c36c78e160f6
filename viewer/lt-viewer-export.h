/* lt-viewer-export.h: rendering widgets to PNG and SVG
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* All three render the same snapshot the widget draws on screen (its render
 * nodes), so an export equals what is shown. The widget must be realized
 * and have been drawn in a frame (else G_IO_ERROR_NOT_INITIALIZED); files
 * are replaced atomically. */
GdkTexture *lt_viewer_export_texture (GtkWidget *widget,
                                      GError   **error);
gboolean    lt_viewer_export_png     (GtkWidget *widget,
                                      GFile     *file,
                                      GError   **error);
gboolean    lt_viewer_export_svg     (GtkWidget *widget,
                                      GFile     *file,
                                      GError   **error);

G_END_DECLS
