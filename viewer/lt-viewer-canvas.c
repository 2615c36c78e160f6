/* lt-viewer-canvas.c: a figure's shapes and text, written as SVG or drawn with cairo
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <pango/pangocairo.h>

#include "lt-viewer-canvas.h"

typedef enum
{
  OP_RECT,
  OP_PATTERN,
  OP_TEXT,
  OP_PUSH_CLIP,
  OP_POP_CLIP,
} OpKind;

typedef struct
{
  OpKind kind;
  double x, y, width, height;
  double radius;      /* rect, clip */
  double line_width;  /* rect */
  gboolean has_fill, has_outline;
  LtViewerColor fill; /* rect; the ink of a pattern; the colour of text */
  LtViewerColor outline;
  guint pattern;
  double scale;
  double size;        /* text */
  double xalign;
  LtViewerTextStyle style;
  char *text;
  char *attributes;   /* SVG attributes of the shape, for scripts: data-cell="5" */
} Op;

struct _LtViewerCanvas
{
  GArray *ops;
  PangoContext *context;
  PangoLayout *layouts[3];   /* by style, for measuring */
  char *families[3];         /* the fonts' family names, for SVG */
  guint open_clips;
};

static void
clear_op (gpointer data)
{
  Op *op = data;

  g_free (op->text);
  g_free (op->attributes);
}

static const char *const requested_families[] = { "Sans", "Sans", "Monospace" };

/**
 * lt_viewer_canvas_new:
 *
 * Returns: (transfer full): an empty canvas
 */
LtViewerCanvas *
lt_viewer_canvas_new (void)
{
  LtViewerCanvas *self = g_new0 (LtViewerCanvas, 1);
  PangoFontMap *font_map = pango_cairo_font_map_get_default ();
  cairo_font_options_t *options = cairo_font_options_create ();

  self->ops = g_array_new (FALSE, TRUE, sizeof (Op));
  g_array_set_clear_func (self->ops, clear_op);

  /* Unhinted metrics: the widths measured here are the widths a vector
   * file has at any scale. */
  self->context = pango_font_map_create_context (font_map);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (self->context, options);
  cairo_font_options_destroy (options);
  pango_context_set_round_glyph_positions (self->context, FALSE);

  for (guint style = 0; style < G_N_ELEMENTS (self->layouts); style++)
    {
      g_autoptr (PangoFontDescription) description =
        pango_font_description_from_string (requested_families[style]);
      g_autoptr (PangoFont) font = NULL;

      if (style == LT_VIEWER_TEXT_BOLD)
        pango_font_description_set_weight (description, PANGO_WEIGHT_BOLD);
      pango_font_description_set_absolute_size (description, 12 * PANGO_SCALE);
      self->layouts[style] = pango_layout_new (self->context);
      pango_layout_set_font_description (self->layouts[style], description);

      font = pango_context_load_font (self->context, description);
      if (font != NULL)
        {
          g_autoptr (PangoFontDescription) found = pango_font_describe (font);

          self->families[style] = g_strdup (pango_font_description_get_family (found));
        }
      if (self->families[style] == NULL)
        self->families[style] = g_strdup (requested_families[style]);
    }

  return self;
}

void
lt_viewer_canvas_free (LtViewerCanvas *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->ops);
  for (guint style = 0; style < G_N_ELEMENTS (self->layouts); style++)
    {
      g_clear_object (&self->layouts[style]);
      g_free (self->families[style]);
    }
  g_clear_object (&self->context);
  g_free (self);
}

gboolean
lt_viewer_color_parse (const char    *text,
                       double         alpha,
                       LtViewerColor *color)
{
  guint channels[3];

  *color = (LtViewerColor) { 0, 0, 0, alpha };
  if (text == NULL || strlen (text) != 7 || text[0] != '#')
    return FALSE;
  for (guint i = 0; i < 3; i++)
    {
      int high = g_ascii_xdigit_value (text[1 + 2 * i]);
      int low = g_ascii_xdigit_value (text[2 + 2 * i]);

      if (high < 0 || low < 0)
        return FALSE;
      channels[i] = (guint) (high * 16 + low);
    }
  *color = (LtViewerColor) { channels[0] / 255.0, channels[1] / 255.0, channels[2] / 255.0,
                             alpha };
  return TRUE;
}

static Op *
append_op (LtViewerCanvas *self,
           OpKind          kind,
           double          x,
           double          y,
           double          width,
           double          height)
{
  Op op = { .kind = kind, .x = x, .y = y, .width = width, .height = height };

  g_array_append_val (self->ops, op);
  return &g_array_index (self->ops, Op, self->ops->len - 1);
}

void
lt_viewer_canvas_rect (LtViewerCanvas      *self,
                       double               x,
                       double               y,
                       double               width,
                       double               height,
                       double               radius,
                       const LtViewerColor *fill,
                       const LtViewerColor *outline,
                       double               line_width)
{
  Op *op;

  g_return_if_fail (self != NULL);

  if (width <= 0 || height <= 0 || (fill == NULL && outline == NULL))
    return;
  op = append_op (self, OP_RECT, x, y, width, height);
  op->radius = MIN (radius, MIN (width, height) / 2);
  op->has_fill = fill != NULL;
  op->has_outline = outline != NULL && line_width > 0;
  if (fill != NULL)
    op->fill = *fill;
  if (outline != NULL)
    op->outline = *outline;
  op->line_width = MIN (line_width, MIN (width, height) / 2);
}

void
lt_viewer_canvas_hit_area (LtViewerCanvas *self,
                           double          x,
                           double          y,
                           double          width,
                           double          height,
                           double          radius,
                           const char     *attributes)
{
  const LtViewerColor clear = { 0, 0, 0, 0 };
  Op *op;

  g_return_if_fail (self != NULL && attributes != NULL);

  lt_viewer_canvas_rect (self, x, y, width, height, radius, &clear, NULL, 0);
  op = &g_array_index (self->ops, Op, self->ops->len - 1);
  op->attributes = g_strdup (attributes);
}

void
lt_viewer_canvas_pattern (LtViewerCanvas      *self,
                          double               x,
                          double               y,
                          double               width,
                          double               height,
                          guint                pattern,
                          double               scale,
                          const LtViewerColor *ink)
{
  Op *op;

  g_return_if_fail (self != NULL && ink != NULL);

  pattern %= LT_VIEWER_N_CANVAS_PATTERNS;
  if (pattern == 0 || width <= 0 || height <= 0)
    return;
  op = append_op (self, OP_PATTERN, x, y, width, height);
  op->pattern = pattern;
  op->scale = MAX (scale, 0.25);
  op->fill = *ink;
}

static PangoLayout *
get_layout (LtViewerCanvas    *self,
            const char        *text,
            double             size,
            LtViewerTextStyle  style)
{
  PangoLayout *layout = self->layouts[CLAMP ((guint) style, 0, 2)];
  PangoFontDescription *description =
    pango_font_description_copy (pango_layout_get_font_description (layout));

  pango_font_description_set_absolute_size (description, size * PANGO_SCALE);
  pango_layout_set_font_description (layout, description);
  pango_font_description_free (description);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

double
lt_viewer_canvas_text_width (LtViewerCanvas    *self,
                             const char        *text,
                             double             size,
                             LtViewerTextStyle  style)
{
  PangoRectangle logical;

  g_return_val_if_fail (self != NULL && text != NULL, 0);

  pango_layout_get_extents (get_layout (self, text, size, style), NULL, &logical);
  return (double) logical.width / PANGO_SCALE;
}

void
lt_viewer_canvas_font_extents (LtViewerCanvas    *self,
                               double             size,
                               LtViewerTextStyle  style,
                               double            *ascent,
                               double            *descent)
{
  PangoLayout *layout;
  PangoRectangle logical;
  double baseline;

  g_return_if_fail (self != NULL);

  layout = get_layout (self, "0", size, style);
  pango_layout_get_extents (layout, NULL, &logical);
  baseline = (double) pango_layout_get_baseline (layout) / PANGO_SCALE;
  *ascent = baseline;
  *descent = (double) logical.height / PANGO_SCALE - baseline;
}

void
lt_viewer_canvas_text (LtViewerCanvas      *self,
                       double               x,
                       double               baseline,
                       double               xalign,
                       const char          *text,
                       double               size,
                       LtViewerTextStyle    style,
                       const LtViewerColor *color)
{
  Op *op;

  g_return_if_fail (self != NULL && text != NULL && color != NULL);

  if (text[0] == '\0')
    return;
  op = append_op (self, OP_TEXT, x, baseline, 0, 0);
  op->xalign = CLAMP (xalign, 0, 1);
  op->text = g_strdup (text);
  op->size = size;
  op->style = style;
  op->fill = *color;
}

GStrv
lt_viewer_canvas_wrap (LtViewerCanvas    *self,
                       const char        *text,
                       double             size,
                       LtViewerTextStyle  style,
                       double             width)
{
  g_autoptr (GStrvBuilder) lines = g_strv_builder_new ();
  g_auto (GStrv) paragraphs = g_strsplit (text, "\n", -1);

  g_return_val_if_fail (self != NULL && text != NULL, NULL);

  for (guint p = 0; paragraphs[p] != NULL; p++)
    {
      g_auto (GStrv) words = g_strsplit (paragraphs[p], " ", -1);
      g_autoptr (GString) line = g_string_new (NULL);

      for (guint w = 0; words[w] != NULL; w++)
        {
          gsize before = line->len;

          if (words[w][0] == '\0')
            continue;
          if (line->len > 0)
            g_string_append_c (line, ' ');
          g_string_append (line, words[w]);
          if (before > 0 && lt_viewer_canvas_text_width (self, line->str, size, style) > width)
            {
              g_string_truncate (line, before);
              g_strv_builder_add (lines, line->str);
              g_string_assign (line, words[w]);
            }
        }
      g_strv_builder_add (lines, line->str);
    }
  return g_strv_builder_end (lines);
}

void
lt_viewer_canvas_push_clip (LtViewerCanvas *self,
                            double          x,
                            double          y,
                            double          width,
                            double          height,
                            double          radius)
{
  Op *op;

  g_return_if_fail (self != NULL);

  op = append_op (self, OP_PUSH_CLIP, x, y, MAX (width, 0), MAX (height, 0));
  op->radius = MIN (radius, MIN (op->width, op->height) / 2);
  self->open_clips++;
}

void
lt_viewer_canvas_pop_clip (LtViewerCanvas *self)
{
  g_return_if_fail (self != NULL && self->open_clips > 0);

  append_op (self, OP_POP_CLIP, 0, 0, 0, 0);
  self->open_clips--;
}

/* Patterns: a tile of 4 lines and a gap, lines of @scale units, as the
 * widgets draw them. */

typedef struct
{
  double x, y, width, height;
} Box;

static double
get_tile (double  scale,
          double *line)
{
  *line = MAX (1.0, scale);
  return 4 * *line + 1;
}

static guint
get_tile_boxes (guint  pattern,
                double scale,
                Box    boxes[2])
{
  double line, tile = get_tile (scale, &line);

  switch (pattern)
    {
    case 1: /* lines across */
      boxes[0] = (Box) { 0, 0, tile, line };
      return 1;
    case 2: /* lines down */
      boxes[0] = (Box) { 0, 0, line, tile };
      return 1;
    case 3: /* dots */
      boxes[0] = (Box) { line, line, line * 1.5, line * 1.5 };
      return 1;
    case 4: /* checkerboard */
      boxes[0] = (Box) { 0, 0, tile / 2, tile / 2 };
      boxes[1] = (Box) { tile / 2, tile / 2, tile / 2, tile / 2 };
      return 2;
    case 5: /* grid */
      boxes[0] = (Box) { 0, 0, tile, line };
      boxes[1] = (Box) { 0, 0, line, tile };
      return 2;
    default:
      return 0;
    }
}

/* SVG */

static void
append_number (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  g_ascii_formatd (buffer, sizeof buffer, "%.3f", value);
  end = buffer + strlen (buffer) - 1;
  while (*end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  if (strcmp (buffer, "-0") == 0)
    strcpy (buffer, "0");
  g_string_append (out, buffer);
}

static void
append_attribute (GString    *out,
                  const char *name,
                  double      value)
{
  g_string_append_printf (out, " %s=\"", name);
  append_number (out, value);
  g_string_append_c (out, '"');
}

static void
append_paint (GString             *out,
              const char          *name,
              const LtViewerColor *color)
{
  g_string_append_printf (out, " %s=\"#%02x%02x%02x\"", name,
                          (guint) (CLAMP (color->red, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (color->green, 0, 1) * 255 + 0.5),
                          (guint) (CLAMP (color->blue, 0, 1) * 255 + 0.5));
  if (color->alpha < 1)
    {
      g_string_append_printf (out, " %s-opacity=\"", name);
      append_number (out, CLAMP (color->alpha, 0, 1));
      g_string_append_c (out, '"');
    }
}

static void
append_box (GString *out,
            double   x,
            double   y,
            double   width,
            double   height,
            double   radius)
{
  append_attribute (out, "x", x);
  append_attribute (out, "y", y);
  append_attribute (out, "width", width);
  append_attribute (out, "height", height);
  if (radius > 0)
    append_attribute (out, "rx", radius);
}

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (out, escaped);
}

/* The id of the <pattern> for @op's pattern, scale and ink, defined once. */
static const char *
get_svg_pattern (GHashTable *ids,
                 GString    *defs,
                 const char *prefix,
                 const Op   *op)
{
  g_autoptr (GString) key = g_string_new (NULL);
  const char *id;
  Box boxes[2];
  guint n_boxes = get_tile_boxes (op->pattern, op->scale, boxes);
  double line, tile = get_tile (op->scale, &line);

  g_string_append_printf (key, "%u ", op->pattern);
  append_number (key, op->scale);
  append_paint (key, "c", &op->fill);
  id = g_hash_table_lookup (ids, key->str);
  if (id != NULL)
    return id;

  id = g_strdup_printf ("%spattern%u", prefix, g_hash_table_size (ids) + 1);
  g_hash_table_insert (ids, g_strdup (key->str), (gpointer) id);
  g_string_append_printf (defs, "<pattern id=\"%s\" patternUnits=\"userSpaceOnUse\"", id);
  append_box (defs, 0, 0, tile, tile, 0);
  g_string_append (defs, ">");
  for (guint i = 0; i < n_boxes; i++)
    {
      g_string_append (defs, "<rect");
      append_box (defs, boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height, 0);
      append_paint (defs, "fill", &op->fill);
      g_string_append (defs, "/>");
    }
  g_string_append (defs, "</pattern>\n");
  return id;
}

static void
append_svg_rect (GString  *body,
                 const Op *op)
{
  if (op->has_fill)
    {
      g_string_append (body, "<rect");
      append_box (body, op->x, op->y, op->width, op->height, op->radius);
      append_paint (body, "fill", &op->fill);
      if (op->attributes != NULL)
        g_string_append_printf (body, " %s", op->attributes);
      g_string_append (body, "/>\n");
    }
  if (op->has_outline)
    {
      double inset = op->line_width / 2;

      g_string_append (body, "<rect");
      append_box (body, op->x + inset, op->y + inset, op->width - op->line_width,
                  op->height - op->line_width, MAX (op->radius - inset, 0));
      g_string_append (body, " fill=\"none\"");
      append_paint (body, "stroke", &op->outline);
      append_attribute (body, "stroke-width", op->line_width);
      g_string_append (body, "/>\n");
    }
}

static void
append_svg_text (LtViewerCanvas *self,
                 GString        *body,
                 const Op       *op)
{
  double x = op->x;
  const char *anchor = "start";

  if (op->xalign == 0.5)
    anchor = "middle";
  else if (op->xalign == 1)
    anchor = "end";
  else if (op->xalign > 0)
    x -= op->xalign * lt_viewer_canvas_text_width (self, op->text, op->size, op->style);

  g_string_append (body, "<text");
  append_attribute (body, "x", x);
  append_attribute (body, "y", op->y);
  append_attribute (body, "font-size", op->size);
  /* The font the text was measured with, then what any reader has. */
  g_string_append (body, " font-family=\"");
  append_escaped (body, self->families[op->style]);
  g_string_append (body, op->style == LT_VIEWER_TEXT_MONOSPACE ? ", monospace\"" : ", sans-serif\"");
  if (op->style == LT_VIEWER_TEXT_BOLD)
    g_string_append (body, " font-weight=\"bold\"");
  if (strcmp (anchor, "start") != 0)
    g_string_append_printf (body, " text-anchor=\"%s\"", anchor);
  append_paint (body, "fill", &op->fill);
  g_string_append_c (body, '>');
  append_escaped (body, op->text);
  g_string_append (body, "</text>\n");
}

char *
lt_viewer_canvas_to_svg (LtViewerCanvas      *self,
                         double               width,
                         double               height,
                         double               scale,
                         const char          *prefix,
                         const LtViewerColor *background,
                         const char          *title,
                         const char          *description)
{
  g_autoptr (GString) defs = g_string_new (NULL);
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (GHashTable) pattern_ids = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                              g_free, g_free);
  GString *out = g_string_new (NULL);
  guint n_clips = 0, depth = 0;

  g_return_val_if_fail (self != NULL, NULL);

  if (prefix == NULL)
    prefix = "";
  for (guint i = 0; i < self->ops->len; i++)
    {
      const Op *op = &g_array_index (self->ops, Op, i);

      switch (op->kind)
        {
        case OP_RECT:
          append_svg_rect (body, op);
          break;
        case OP_PATTERN:
          g_string_append (body, "<rect");
          append_box (body, op->x, op->y, op->width, op->height, 0);
          g_string_append_printf (body, " fill=\"url(#%s)\"/>\n",
                                  get_svg_pattern (pattern_ids, defs, prefix, op));
          break;
        case OP_TEXT:
          append_svg_text (self, body, op);
          break;
        case OP_PUSH_CLIP:
          n_clips++;
          g_string_append_printf (defs, "<clipPath id=\"%sclip%u\"><rect", prefix, n_clips);
          append_box (defs, op->x, op->y, op->width, op->height, op->radius);
          g_string_append (defs, "/></clipPath>\n");
          g_string_append_printf (body, "<g clip-path=\"url(#%sclip%u)\">\n", prefix, n_clips);
          depth++;
          break;
        case OP_POP_CLIP:
          g_string_append (body, "</g>\n");
          depth--;
          break;
        default:
          g_assert_not_reached ();
        }
    }
  for (; depth > 0; depth--)
    g_string_append (body, "</g>\n");

  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" xml:space=\"preserve\"");
  append_attribute (out, "width", width * scale);
  append_attribute (out, "height", height * scale);
  g_string_append (out, " viewBox=\"0 0 ");
  append_number (out, width);
  g_string_append_c (out, ' ');
  append_number (out, height);
  g_string_append (out, "\">\n");
  if (title != NULL)
    {
      g_string_append (out, "<title>");
      append_escaped (out, title);
      g_string_append (out, "</title>\n");
    }
  if (description != NULL)
    {
      g_string_append (out, "<desc>");
      append_escaped (out, description);
      g_string_append (out, "</desc>\n");
    }
  if (defs->len > 0)
    g_string_append_printf (out, "<defs>\n%s</defs>\n", defs->str);
  if (background != NULL)
    {
      g_string_append (out, "<rect");
      append_box (out, 0, 0, width, height, 0);
      append_paint (out, "fill", background);
      g_string_append (out, "/>\n");
    }
  g_string_append (out, body->str);
  g_string_append (out, "</svg>\n");
  return g_string_free (out, FALSE);
}

/* cairo */

static void
rounded_rect_path (cairo_t *cr,
                   double   x,
                   double   y,
                   double   width,
                   double   height,
                   double   radius)
{
  if (radius <= 0)
    {
      cairo_rectangle (cr, x, y, width, height);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + width - radius, y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, x + width - radius, y + height - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, x + radius, y + height - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
set_color (cairo_t             *cr,
           const LtViewerColor *color)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

static void
render_pattern (cairo_t  *cr,
                const Op *op)
{
  Box boxes[2];
  guint n_boxes = get_tile_boxes (op->pattern, op->scale, boxes);
  double line, tile = get_tile (op->scale, &line);
  cairo_rectangle_t extents = { 0, 0, tile, tile };
  cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA,
                                                               &extents);
  cairo_t *tile_cr = cairo_create (recording);
  cairo_pattern_t *pattern;

  /* A vector tile, repeated: PDF keeps it a pattern of shapes. */
  set_color (tile_cr, &op->fill);
  for (guint i = 0; i < n_boxes; i++)
    cairo_rectangle (tile_cr, boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height);
  cairo_fill (tile_cr);
  cairo_destroy (tile_cr);

  pattern = cairo_pattern_create_for_surface (recording);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_REPEAT);
  cairo_set_source (cr, pattern);
  cairo_rectangle (cr, op->x, op->y, op->width, op->height);
  cairo_fill (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (recording);
}

static void
render_text (LtViewerCanvas *self,
             cairo_t        *cr,
             const Op       *op)
{
  PangoLayout *layout = get_layout (self, op->text, op->size, op->style);
  PangoRectangle logical;
  double baseline = (double) pango_layout_get_baseline (layout) / PANGO_SCALE;

  pango_layout_get_extents (layout, NULL, &logical);
  set_color (cr, &op->fill);
  cairo_move_to (cr, op->x - op->xalign * logical.width / PANGO_SCALE, op->y - baseline);
  pango_cairo_show_layout (cr, layout);
}

cairo_status_t
lt_viewer_cairo_append_bytes (void                *closure,
                              const unsigned char *data,
                              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

void
lt_viewer_canvas_render (LtViewerCanvas *self,
                         cairo_t        *cr)
{
  guint depth = 0;

  g_return_if_fail (self != NULL && cr != NULL);

  for (guint i = 0; i < self->ops->len; i++)
    {
      const Op *op = &g_array_index (self->ops, Op, i);

      switch (op->kind)
        {
        case OP_RECT:
          if (op->has_fill && op->fill.alpha > 0)
            {
              rounded_rect_path (cr, op->x, op->y, op->width, op->height, op->radius);
              set_color (cr, &op->fill);
              cairo_fill (cr);
            }
          if (op->has_outline)
            {
              double inset = op->line_width / 2;

              rounded_rect_path (cr, op->x + inset, op->y + inset, op->width - op->line_width,
                                 op->height - op->line_width, MAX (op->radius - inset, 0));
              set_color (cr, &op->outline);
              cairo_set_line_width (cr, op->line_width);
              cairo_stroke (cr);
            }
          break;
        case OP_PATTERN:
          render_pattern (cr, op);
          break;
        case OP_TEXT:
          render_text (self, cr, op);
          break;
        case OP_PUSH_CLIP:
          cairo_save (cr);
          rounded_rect_path (cr, op->x, op->y, op->width, op->height, op->radius);
          cairo_clip (cr);
          depth++;
          break;
        case OP_POP_CLIP:
          cairo_restore (cr);
          depth--;
          break;
        default:
          g_assert_not_reached ();
        }
    }
  for (; depth > 0; depth--)
    cairo_restore (cr);
}
