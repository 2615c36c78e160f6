/* lt-viewer-cell-painter.h: what the storage strip and the view grid draw alike
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-format.h"
#include "lt-viewer-text-cache.h"

G_BEGIN_DECLS

/* Private to the viewer's widgets. A storage cell in the strip and an
 * element in the grid are the same figure: a rounded box tinted with a
 * view's colour, outlined, with a small storage index at its top left and
 * the value at its bottom; the cursor and the hovered cell are ringed
 * around it. The two widgets draw them with these, so that they cannot
 * drift apart. */

/* A view's colour tints the cells it reaches at this alpha. */
#define LT_VIEWER_TINT_ALPHA 0.35

/* The viewer's libraries do not link libm: floors, ceilings and roundings
 * by hand, for the pixel arithmetic (far inside the range of a gint64). */
static inline gint64
lt_viewer_floor_int (double x)
{
  gint64 i = (gint64) CLAMP (x, -1e15, 1e15);

  return (double) i > x ? i - 1 : i;
}

static inline gint64
lt_viewer_ceil_int (double x)
{
  gint64 i = (gint64) CLAMP (x, -1e15, 1e15);

  return (double) i < x ? i + 1 : i;
}

static inline gint64
lt_viewer_round_int (double x)
{
  return lt_viewer_floor_int (x + 0.5);
}

void         lt_viewer_visible_items        (double                 origin,
                                             double                 pitch,
                                             gint64                 count,
                                             double                 from,
                                             double                 to,
                                             gint64                *first,
                                             gint64                *last);

void         lt_viewer_get_foreground       (GtkWidget             *widget,
                                             GdkRGBA               *color);
GdkRGBA      lt_viewer_with_alpha           (const GdkRGBA         *color,
                                             double                 alpha);

void         lt_viewer_append_rounded_fill  (GtkSnapshot           *snapshot,
                                             const GskRoundedRect  *shape,
                                             const GdkRGBA         *color);
void         lt_viewer_append_outline       (GtkSnapshot           *snapshot,
                                             const graphene_rect_t *rect,
                                             double                 radius,
                                             double                 width,
                                             const GdkRGBA         *color);

/* The cursor's cell (in its view's colour) and the hovered one (in the
 * foreground colour) are ringed this far out, the hover a little closer so
 * that both show on one cell. */
#define LT_VIEWER_CURSOR_RING 2.0
#define LT_VIEWER_HOVER_RING  1.5

void         lt_viewer_append_ring          (GtkSnapshot           *snapshot,
                                             const graphene_rect_t *cell,
                                             double                 radius,
                                             double                 gap,
                                             const GdkRGBA         *color);

/* Layouts for a cell's single-line labels: at a size relative to the
 * widget's font (the grid), or in pixels (the strip, whose text follows
 * its zoom). */
PangoLayout *lt_viewer_create_scaled_layout (GtkWidget             *widget,
                                             double                 scale);
PangoLayout *lt_viewer_create_sized_layout  (GtkWidget             *widget,
                                             double                 pixels);

/* What one layer of cells is drawn with: set once per layer, then used for
 * each cell. */
typedef struct
{
  GtkSnapshot *snapshot;
  LtStorage *storage;             /* whose values the cells show */
  PangoLayout *index_layout;      /* the font of the storage indices */
  PangoLayout *value_layout;      /* the font of the values */
  LtViewerTextCache *index_text;
  LtViewerTextCache *value_text;
  double index_pad;               /* between the index and the cell's sides, half that above */
  double value_pad;               /* between the value and the cell's bottom */
  const LtViewerValueStyle *value_style; /* how values are written; NULL: rounded */
} LtViewerCellPainter;

/* How many characters of a value a cell holds, in the strip (whose text
 * scales with its cells) and in the grid alike. */
#define LT_VIEWER_CELL_VALUE_CHARS 7

/* The value style of the storage a widget draws, kept until the storage
 * changes. Storages are not written while drawn: the same storage has the
 * same style. */
typedef struct
{
  LtStorage *storage;
  LtViewerValueStyle style;
} LtViewerValueStyleCache;

const LtViewerValueStyle *lt_viewer_value_style_cache_get   (LtViewerValueStyleCache *cache,
                                                             LtStorage               *storage);
void                      lt_viewer_value_style_cache_clear (LtViewerValueStyleCache *cache);

void         lt_viewer_cell_painter_append_frame (const LtViewerCellPainter *painter,
                                                  const graphene_rect_t     *cell,
                                                  double                     radius,
                                                  const GdkRGBA             *fill,
                                                  double                     line_width,
                                                  const GdkRGBA             *line_color);
void         lt_viewer_cell_painter_append_index (const LtViewerCellPainter *painter,
                                                  const graphene_rect_t     *cell,
                                                  gint64                     index,
                                                  const GdkRGBA             *color);
void         lt_viewer_cell_painter_append_value (const LtViewerCellPainter *painter,
                                                  const graphene_rect_t     *cell,
                                                  gint64                     index,
                                                  const GdkRGBA             *color);

G_END_DECLS
