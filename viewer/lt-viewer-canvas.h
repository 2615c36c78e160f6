/* lt-viewer-canvas.h: a figure's shapes and text, written as SVG or drawn with cairo
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* Private to the viewer's library. A canvas records what a figure draws
 * (rectangles, pattern fills, lines of text, clips) in figure units, so
 * that one composition gives an SVG file with text as text and cells as
 * shapes, and cairo drawings (PNG, PDF) of the same shapes. Text is
 * measured with Pango on its own font map: no display is involved. */

typedef struct
{
  double red, green, blue, alpha;
} LtViewerColor;

typedef enum
{
  LT_VIEWER_TEXT_REGULAR,
  LT_VIEWER_TEXT_BOLD,
  LT_VIEWER_TEXT_MONOSPACE,
} LtViewerTextStyle;

/* The patterns views are told apart by besides their colours; the
 * widgets draw the same ones (lt-viewer-swatch.c). */
#define LT_VIEWER_N_CANVAS_PATTERNS 6

typedef struct _LtViewerCanvas LtViewerCanvas;

LtViewerCanvas *lt_viewer_canvas_new           (void);
void            lt_viewer_canvas_free          (LtViewerCanvas       *self);

/* "#rrggbb" with @alpha; FALSE (and black) for anything else. */
gboolean        lt_viewer_color_parse          (const char           *text,
                                                double                alpha,
                                                LtViewerColor        *color);

/* A rectangle with corners of @radius, filled and outlined (either may be
 * NULL); the outline lies inside the rectangle. */
void            lt_viewer_canvas_rect          (LtViewerCanvas       *self,
                                                double                x,
                                                double                y,
                                                double                width,
                                                double                height,
                                                double                radius,
                                                const LtViewerColor  *fill,
                                                const LtViewerColor  *outline,
                                                double                line_width);
/* An invisible rectangle that scripts find by @attributes (SVG attributes
 * such as data-cell="5", written as given: escape the values) and that the
 * pointer hits over everything drawn before it; nothing in cairo. */
void            lt_viewer_canvas_hit_area      (LtViewerCanvas       *self,
                                                double                x,
                                                double                y,
                                                double                width,
                                                double                height,
                                                double                radius,
                                                const char           *attributes);
/* The ink of pattern @pattern (0 is plain: nothing) over the rectangle,
 * its tiles @scale times the widgets' and aligned to the figure's origin. */
void            lt_viewer_canvas_pattern       (LtViewerCanvas       *self,
                                                double                x,
                                                double                y,
                                                double                width,
                                                double                height,
                                                guint                 pattern,
                                                double                scale,
                                                const LtViewerColor  *ink);
/* One line of text whose baseline is at @baseline, placed so that the point
 * @xalign of the way along it (0 start, 0.5 middle, 1 end) is at @x. */
void            lt_viewer_canvas_text          (LtViewerCanvas       *self,
                                                double                x,
                                                double                baseline,
                                                double                xalign,
                                                const char           *text,
                                                double                size,
                                                LtViewerTextStyle     style,
                                                const LtViewerColor  *color);
double          lt_viewer_canvas_text_width    (LtViewerCanvas       *self,
                                                const char           *text,
                                                double                size,
                                                LtViewerTextStyle     style);
/* The font's ascent and descent at @size. */
void            lt_viewer_canvas_font_extents  (LtViewerCanvas       *self,
                                                double                size,
                                                LtViewerTextStyle     style,
                                                double               *ascent,
                                                double               *descent);
/* @text broken at spaces into lines no wider than @width (a word wider
 * than that gets a line of its own). */
GStrv           lt_viewer_canvas_wrap          (LtViewerCanvas       *self,
                                                const char           *text,
                                                double                size,
                                                LtViewerTextStyle     style,
                                                double                width);

/* What is drawn between a push and its pop is clipped to the rectangle. */
void            lt_viewer_canvas_push_clip     (LtViewerCanvas       *self,
                                                double                x,
                                                double                y,
                                                double                width,
                                                double                height,
                                                double                radius);
void            lt_viewer_canvas_pop_clip      (LtViewerCanvas       *self);

/* An SVG document of @width × @height figure units, @scale times that in
 * size, on @background (NULL for none), with @title as its <title> and
 * @description as its <desc> (NULL for none). Its ids (patterns, clips)
 * start with @prefix (NULL for none), so that documents can share a page. */
char           *lt_viewer_canvas_to_svg        (LtViewerCanvas       *self,
                                                double                width,
                                                double                height,
                                                double                scale,
                                                const char           *prefix,
                                                const LtViewerColor  *background,
                                                const char           *title,
                                                const char           *description);
/* A cairo write function that appends to the GByteArray @closure: cairo's
 * PNG, PDF and SVG output, gathered in memory. */
cairo_status_t  lt_viewer_cairo_append_bytes   (void                 *closure,
                                                const unsigned char  *data,
                                                unsigned int          length);

/* Draws everything on @cr, in figure units. */
void            lt_viewer_canvas_render        (LtViewerCanvas       *self,
                                                cairo_t              *cr);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LtViewerCanvas, lt_viewer_canvas_free)

G_END_DECLS
