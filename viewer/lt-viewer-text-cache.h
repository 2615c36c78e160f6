/* lt-viewer-text-cache.h: short texts drawn from glyphs shaped once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Short texts (numbers) for both drawings, without a Pango layout per
 * string: the glyphs of the characters numbers are written with are
 * shaped once per font, which thousands of cells a screen need. One cache
 * per font; the layout gives the font, and draws what the cache cannot. */
typedef struct _LtViewerTextCache LtViewerTextCache;

LtViewerTextCache *lt_viewer_text_cache_new    (void);
void               lt_viewer_text_cache_free   (LtViewerTextCache     *cache);
void               lt_viewer_text_cache_reset  (LtViewerTextCache     *cache);
void               lt_viewer_text_cache_append (LtViewerTextCache     *cache,
                                                GtkSnapshot           *snapshot,
                                                PangoLayout           *layout,
                                                const char            *text,
                                                const graphene_rect_t *box,
                                                float                  xalign,
                                                float                  yalign,
                                                const GdkRGBA         *color);

G_END_DECLS
