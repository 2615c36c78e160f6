/* lt-viewer-cell-painter.c: what the storage strip and the view grid draw alike
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-cell-painter.h"

/**
 * lt_viewer_visible_items:
 * @origin: where the first item starts
 * @pitch: from the start of one item to the start of the next
 * @count: the number of items
 * @from: the start of the visible span
 * @to: its end
 * @first: (out): return location for the first item that meets it
 * @last: (out): return location for one past the last
 *
 * Finds the items along one axis that meet [@from, @to) by arithmetic:
 * cells of the strip, blocks and elements of the grid. With @origin 8,
 * @pitch 52 and 100 items, [100, 300) meets items 1 to 5: @first 1,
 * @last 6.
 */
void
lt_viewer_visible_items (double  origin,
                         double  pitch,
                         gint64  count,
                         double  from,
                         double  to,
                         gint64 *first,
                         gint64 *last)
{
  *first = CLAMP (lt_viewer_floor_int ((from - origin) / pitch), 0, count);
  *last = CLAMP (lt_viewer_ceil_int ((to - origin) / pitch), 0, count);
}

/**
 * lt_viewer_get_foreground:
 * @widget: a widget
 * @color: (out caller-allocates): return location for the colour
 *
 * Gets the colour @widget's text is drawn in.
 */
void
lt_viewer_get_foreground (GtkWidget *widget,
                          GdkRGBA   *color)
{
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* GTK 4.8 has no gtk_widget_get_color() yet. */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
G_GNUC_END_IGNORE_DEPRECATIONS
}

/**
 * lt_viewer_with_alpha:
 * @color: a colour
 * @alpha: how much of its opacity to keep, from 0 to 1
 *
 * Returns: @color, fainter
 */
GdkRGBA
lt_viewer_with_alpha (const GdkRGBA *color,
                      double         alpha)
{
  GdkRGBA result = *color;

  result.alpha *= alpha;
  return result;
}

/* A layout in @widget's font, its size @scale times the widget's, or
 * @pixels high when @pixels is positive. */
static PangoLayout *
create_layout (GtkWidget *widget,
               double     scale,
               double     pixels)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autoptr (PangoFontDescription) font = NULL;
  const PangoFontDescription *base;

  base = pango_context_get_font_description (pango_layout_get_context (layout));
  font = base != NULL ? pango_font_description_copy (base) : pango_font_description_new ();
  if (pixels > 0)
    pango_font_description_set_absolute_size (font, pixels * PANGO_SCALE);
  else if (pango_font_description_get_size (font) > 0)
    {
      double size = pango_font_description_get_size (font) * scale;

      if (pango_font_description_get_size_is_absolute (font))
        pango_font_description_set_absolute_size (font, size);
      else
        pango_font_description_set_size (font, (int) size);
    }
  pango_layout_set_font_description (layout, font);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

/**
 * lt_viewer_create_scaled_layout:
 * @widget: the widget whose font to use
 * @scale: the size of the text against the widget's, such as 0.7
 *
 * A layout for a cell's single-line labels, as the grid draws them at one
 * size whatever its zoom.
 *
 * Returns: (transfer full): the layout
 */
PangoLayout *
lt_viewer_create_scaled_layout (GtkWidget *widget,
                                double     scale)
{
  return create_layout (widget, scale, 0);
}

/**
 * lt_viewer_create_sized_layout:
 * @widget: the widget whose font to use
 * @pixels: the size of the text, in pixels (more than 0)
 *
 * A layout for a cell's single-line labels, as the strip draws them in
 * proportion to its cells.
 *
 * Returns: (transfer full): the layout
 */
PangoLayout *
lt_viewer_create_sized_layout (GtkWidget *widget,
                               double     pixels)
{
  return create_layout (widget, 1, pixels);
}

/**
 * lt_viewer_append_rounded_fill:
 * @snapshot: where to draw
 * @shape: the shape to fill
 * @color: its colour
 */
void
lt_viewer_append_rounded_fill (GtkSnapshot          *snapshot,
                               const GskRoundedRect *shape,
                               const GdkRGBA        *color)
{
  gtk_snapshot_push_rounded_clip (snapshot, shape);
  gtk_snapshot_append_color (snapshot, color, &shape->bounds);
  gtk_snapshot_pop (snapshot);
}

/**
 * lt_viewer_append_outline:
 * @snapshot: where to draw
 * @rect: the rectangle
 * @radius: the radius of its corners
 * @width: the width of the line, which lies inside @rect
 * @color: its colour
 */
void
lt_viewer_append_outline (GtkSnapshot           *snapshot,
                          const graphene_rect_t *rect,
                          double                 radius,
                          double                 width,
                          const GdkRGBA         *color)
{
  GskRoundedRect shape;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&shape, rect, radius);
  gtk_snapshot_append_border (snapshot, &shape, widths, colors);
}

/**
 * lt_viewer_append_ring:
 * @snapshot: where to draw
 * @cell: the bounds of the cell
 * @radius: the radius of its corners
 * @gap: how far out from the cell the ring lies: %LT_VIEWER_CURSOR_RING or
 *   %LT_VIEWER_HOVER_RING
 * @color: the colour of the ring
 *
 * Rings a cell around it, not over it, so that its value stays readable.
 */
void
lt_viewer_append_ring (GtkSnapshot           *snapshot,
                       const graphene_rect_t *cell,
                       double                 radius,
                       double                 gap,
                       const GdkRGBA         *color)
{
  graphene_rect_t bounds = *cell;

  graphene_rect_inset (&bounds, -gap, -gap);
  lt_viewer_append_outline (snapshot, &bounds, radius + gap, 3, color);
}

/**
 * lt_viewer_cell_painter_append_frame:
 * @painter: what the cells are drawn with
 * @cell: the bounds of the cell
 * @radius: the radius of its corners
 * @fill: the colour inside it
 * @line_width: the width of its outline
 * @line_color: the colour of its outline
 *
 * Draws a cell's box of one colour, outlined.
 */
void
lt_viewer_cell_painter_append_frame (const LtViewerCellPainter *painter,
                                     const graphene_rect_t     *cell,
                                     double                     radius,
                                     const GdkRGBA             *fill,
                                     double                     line_width,
                                     const GdkRGBA             *line_color)
{
  GskRoundedRect shape;

  gsk_rounded_rect_init_from_rect (&shape, cell, radius);
  lt_viewer_append_rounded_fill (painter->snapshot, &shape, fill);
  lt_viewer_append_outline (painter->snapshot, cell, radius, line_width, line_color);
}

/**
 * lt_viewer_cell_painter_append_index:
 * @painter: what the cells are drawn with
 * @cell: the bounds of the cell
 * @index: the storage index to write
 * @color: the colour of the text
 *
 * Writes @index small, at the top left of the cell, in @painter's index
 * layout.
 */
void
lt_viewer_cell_painter_append_index (const LtViewerCellPainter *painter,
                                     const graphene_rect_t     *cell,
                                     gint64                     index,
                                     const GdkRGBA             *color)
{
  double pad = painter->index_pad;
  char text[24];

  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, index);
  lt_viewer_text_cache_append (painter->index_text, painter->snapshot, painter->index_layout, text,
                               &GRAPHENE_RECT_INIT (cell->origin.x + pad, cell->origin.y + pad / 2,
                                                    cell->size.width - 2 * pad,
                                                    cell->size.height / 2),
                               0, 0, color);
}

/**
 * lt_viewer_value_style_cache_get:
 * @cache: a cache, zeroed before its first use
 * @storage: the storage drawn
 *
 * Returns: (transfer none): the style @storage's values are written in,
 *   worked out again only when the storage is another
 */
const LtViewerValueStyle *
lt_viewer_value_style_cache_get (LtViewerValueStyleCache *cache,
                                 LtStorage               *storage)
{
  if (cache->storage != storage)
    {
      g_set_object (&cache->storage, storage);
      lt_viewer_value_style_for_storage (&cache->style, storage, LT_VIEWER_CELL_VALUE_CHARS);
    }
  return &cache->style;
}

/**
 * lt_viewer_value_style_cache_clear:
 * @cache: a cache
 *
 * Drops the storage the cache holds.
 */
void
lt_viewer_value_style_cache_clear (LtViewerValueStyleCache *cache)
{
  g_clear_object (&cache->storage);
}

/**
 * lt_viewer_cell_painter_append_value:
 * @painter: what the cells are drawn with
 * @cell: the bounds of the cell
 * @index: the storage index whose value to write
 * @color: the colour of the text
 *
 * Writes the value at @index of @painter's storage at the bottom of the
 * cell, centred, in @painter's value layout.
 */
void
lt_viewer_cell_painter_append_value (const LtViewerCellPainter *painter,
                                     const graphene_rect_t     *cell,
                                     gint64                     index,
                                     const GdkRGBA             *color)
{
  graphene_rect_t box = GRAPHENE_RECT_INIT (cell->origin.x + 2, cell->origin.y,
                                            cell->size.width - 4,
                                            cell->size.height - painter->value_pad);
  char text[64];

  if (painter->value_style != NULL)
    lt_viewer_format_value_styled (painter->value_style, painter->storage, index, text,
                                   sizeof text);
  else
    lt_viewer_format_value (painter->storage, index, text, sizeof text);
  lt_viewer_text_cache_append (painter->value_text, painter->snapshot, painter->value_layout, text,
                               &box, 0.5, 1, color);
}
