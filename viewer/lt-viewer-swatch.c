/* lt-viewer-swatch.c: a view's colour and pattern
 *
 * The patterns are made of rectangles only (lines across, lines down,
 * dots, a checkerboard, a grid), laid tile by tile, so they stay crisp at
 * any zoom.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-swatch.h"

#define SWATCH_SIZE 14
#define PATTERN_ALPHA 0.8

void
lt_viewer_append_view_fill (GtkSnapshot           *snapshot,
                            const graphene_rect_t *rect,
                            const GdkRGBA         *color,
                            double                 alpha,
                            guint                  pattern,
                            double                 scale)
{
  GdkRGBA tint = *color;
  GdkRGBA ink = *color;
  float line = MAX (1.0f, (float) (scale + 0.5) - 0.5f);
  float tile = 4 * line + 1;

  tint.alpha *= alpha;
  ink.alpha *= MIN (1.0, alpha * PATTERN_ALPHA / 0.35);
  gtk_snapshot_append_color (snapshot, &tint, rect);

  pattern %= LT_VIEWER_N_PATTERNS;
  if (pattern == 0 || rect->size.width <= 0 || rect->size.height <= 0)
    return;

  /* Tile by tile (GTK 4.8's cairo renderer leaks a little for each repeat
   * node), clipped to the stripe. */
  gtk_snapshot_push_clip (snapshot, rect);
  for (float y = rect->origin.y; y < rect->origin.y + rect->size.height; y += tile)
    for (float x = rect->origin.x; x < rect->origin.x + rect->size.width; x += tile)
      switch (pattern)
        {
        case 1: /* lines across */
          if (x == rect->origin.x)
            gtk_snapshot_append_color (snapshot, &ink,
                                       &GRAPHENE_RECT_INIT (x, y, rect->size.width, line));
          break;
        case 2: /* lines down */
          if (y == rect->origin.y)
            gtk_snapshot_append_color (snapshot, &ink,
                                       &GRAPHENE_RECT_INIT (x, y, line, rect->size.height));
          break;
        case 3: /* dots */
          gtk_snapshot_append_color (snapshot, &ink,
                                     &GRAPHENE_RECT_INIT (x + line, y + line,
                                                          line * 1.5f, line * 1.5f));
          break;
        case 4: /* checkerboard */
          gtk_snapshot_append_color (snapshot, &ink,
                                     &GRAPHENE_RECT_INIT (x, y, tile / 2, tile / 2));
          gtk_snapshot_append_color (snapshot, &ink,
                                     &GRAPHENE_RECT_INIT (x + tile / 2, y + tile / 2,
                                                          tile / 2, tile / 2));
          break;
        default: /* grid */
          if (x == rect->origin.x)
            gtk_snapshot_append_color (snapshot, &ink,
                                       &GRAPHENE_RECT_INIT (x, y, rect->size.width, line));
          if (y == rect->origin.y)
            gtk_snapshot_append_color (snapshot, &ink,
                                       &GRAPHENE_RECT_INIT (x, y, line, rect->size.height));
          break;
        }
  gtk_snapshot_pop (snapshot);
}

struct _LtViewerSwatch
{
  GtkWidget parent_instance;

  GdkRGBA color;
  guint pattern;
  gboolean dimmed;
};

G_DEFINE_FINAL_TYPE (LtViewerSwatch, lt_viewer_swatch, GTK_TYPE_WIDGET)

static void
lt_viewer_swatch_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = *natural = SWATCH_SIZE;
}

static void
lt_viewer_swatch_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  LtViewerSwatch *self = LT_VIEWER_SWATCH (widget);
  graphene_rect_t rect = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                             gtk_widget_get_height (widget));
  GskRoundedRect shape;
  const float widths[4] = { 1, 1, 1, 1 };
  GdkRGBA border = self->color;
  GdkRGBA colors[4];

  border.alpha = self->dimmed ? 0.4 : 1.0;
  for (guint i = 0; i < 4; i++)
    colors[i] = border;
  gsk_rounded_rect_init_from_rect (&shape, &rect, 3);
  gtk_snapshot_push_rounded_clip (snapshot, &shape);
  lt_viewer_append_view_fill (snapshot, &rect, &self->color, self->dimmed ? 0.2 : 0.5,
                              self->pattern, 1);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_append_border (snapshot, &shape, widths, colors);
}

static void
lt_viewer_swatch_class_init (LtViewerSwatchClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = lt_viewer_swatch_measure;
  widget_class->snapshot = lt_viewer_swatch_snapshot;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
lt_viewer_swatch_init (LtViewerSwatch *self)
{
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
}

GtkWidget *
lt_viewer_swatch_new (const char *color,
                      guint       pattern)
{
  LtViewerSwatch *self = g_object_new (LT_VIEWER_TYPE_SWATCH, NULL);

  if (color == NULL || !gdk_rgba_parse (&self->color, color))
    self->color = (GdkRGBA) { 0.5, 0.5, 0.5, 1 };
  self->pattern = pattern;
  return GTK_WIDGET (self);
}

void
lt_viewer_swatch_set_dimmed (LtViewerSwatch *self,
                             gboolean        dimmed)
{
  g_return_if_fail (LT_VIEWER_IS_SWATCH (self));

  if (self->dimmed == dimmed)
    return;
  self->dimmed = dimmed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
