/* lt-viewer-swatch.h: a view's colour and pattern
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The number of patterns; view i has pattern i modulo it. */
#define LT_VIEWER_N_PATTERNS 6

/* Fills @rect with @color at @alpha and draws pattern @pattern over it in
 * @color, its strokes @scale pixels wide (1 at the strip's zoom 1): the
 * same fill in the storage strip, the view grid and the legend, so that
 * views differ by more than their colour. Pattern 0 is plain. */
void        lt_viewer_append_view_fill (GtkSnapshot           *snapshot,
                                        const graphene_rect_t *rect,
                                        const GdkRGBA         *color,
                                        double                 alpha,
                                        guint                  pattern,
                                        double                 scale);

#define LT_VIEWER_TYPE_SWATCH (lt_viewer_swatch_get_type ())
G_DECLARE_FINAL_TYPE (LtViewerSwatch, lt_viewer_swatch, LT_VIEWER, SWATCH, GtkWidget)

/* A small square in a view's colour ("#rrggbb") and pattern, as the
 * legend shows it; dimmed for the views not selected. */
GtkWidget  *lt_viewer_swatch_new       (const char *color,
                                        guint       pattern);
void        lt_viewer_swatch_set_dimmed (LtViewerSwatch *self,
                                         gboolean        dimmed);

G_END_DECLS
