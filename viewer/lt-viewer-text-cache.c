/* lt-viewer-text-cache.c: short texts drawn from glyphs shaped once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-text-cache.h"

/* The characters values and indices are written with, shaped once per font
 * and size: a Pango layout costs tens of microseconds a string, too much
 * for the thousands of cells of a screen. A string with other characters
 * (or with characters found in another font) goes through the layout. */
#define GLYPH_CHARS "0123456789.-+ejnaifTruFls"

struct _LtViewerTextCache
{
  PangoFont *font;
  guint key;              /* of the font description it is for */
  int baseline;           /* pixels below the top of a line */
  int line_height;        /* pixels */
  PangoGlyphInfo glyphs[128];
  gboolean valid[128];
};

/**
 * lt_viewer_text_cache_new:
 *
 * Returns: (transfer full): an empty cache
 */
LtViewerTextCache *
lt_viewer_text_cache_new (void)
{
  return g_new0 (LtViewerTextCache, 1);
}

static void
text_cache_clear (LtViewerTextCache *cache)
{
  g_clear_object (&cache->font);
  cache->key = 0;
  memset (cache->valid, 0, sizeof cache->valid);
}

/**
 * lt_viewer_text_cache_free:
 * @cache: (nullable): a cache
 */
void
lt_viewer_text_cache_free (LtViewerTextCache *cache)
{
  if (cache == NULL)
    return;
  text_cache_clear (cache);
  g_free (cache);
}

/**
 * lt_viewer_text_cache_reset:
 * @cache: a cache
 *
 * Forgets the glyphs, as when the fonts' settings change.
 */
void
lt_viewer_text_cache_reset (LtViewerTextCache *cache)
{
  g_return_if_fail (cache != NULL);

  text_cache_clear (cache);
}

static void
text_cache_ensure (LtViewerTextCache *cache,
                   PangoLayout       *layout)
{
  const PangoFontDescription *font = pango_layout_get_font_description (layout);
  guint key = font != NULL ? pango_font_description_hash (font) : 1;

  if (cache->font != NULL && cache->key == key)
    return;

  text_cache_clear (cache);
  cache->key = key;
  for (const char *c = GLYPH_CHARS; *c != '\0'; c++)
    {
      PangoLayoutLine *line;
      PangoGlyphItem *run;

      pango_layout_set_text (layout, c, 1);
      line = pango_layout_get_line_readonly (layout, 0);
      if (line == NULL || line->runs == NULL || line->runs->next != NULL)
        continue;
      run = line->runs->data;
      if (run->glyphs->num_glyphs != 1)
        continue;
      if (cache->font == NULL)
        {
          cache->font = g_object_ref (run->item->analysis.font);
          cache->baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
          pango_layout_get_pixel_size (layout, NULL, &cache->line_height);
        }
      else if (run->item->analysis.font != cache->font)
        continue;
      cache->glyphs[(guchar) *c] = run->glyphs->glyphs[0];
      cache->valid[(guchar) *c] = TRUE;
    }
}

/* One text node from the cached glyphs, or FALSE when they cannot write
 * @text, or only too small to read. */
static gboolean
append_glyphs (LtViewerTextCache     *cache,
               GtkSnapshot           *snapshot,
               const char            *text,
               const graphene_rect_t *box,
               float                  xalign,
               float                  yalign,
               const GdkRGBA         *color)
{
  PangoGlyphInfo infos[64];
  PangoGlyphString glyphs = { 0, infos, NULL, 0 };
  g_autoptr (GskRenderNode) node = NULL;
  double width = 0, scale = 1;

  if (cache->font == NULL)
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    {
      if ((guchar) *c >= G_N_ELEMENTS (cache->valid) || !cache->valid[(guchar) *c]
          || glyphs.num_glyphs == G_N_ELEMENTS (infos))
        return FALSE;
      infos[glyphs.num_glyphs++] = cache->glyphs[(guchar) *c];
      width += (double) cache->glyphs[(guchar) *c].geometry.width / PANGO_SCALE;
    }
  if (glyphs.num_glyphs == 0)
    return TRUE;
  /* Squeezed rather than cut: 1.234e+05 stays whole. */
  if (width > box->size.width)
    {
      scale = box->size.width / width;
      if (scale < 0.5)
        return FALSE;
    }

  node = gsk_text_node_new (cache->font, &glyphs, color,
                            &GRAPHENE_POINT_INIT (0, cache->baseline));
  if (node == NULL)
    return TRUE;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (box->origin.x
                                                + (box->size.width - width * scale) * xalign,
                                                box->origin.y
                                                + (box->size.height - cache->line_height * scale)
                                                  * yalign));
  if (scale != 1)
    gtk_snapshot_scale (snapshot, scale, scale);
  gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
  return TRUE;
}

/**
 * lt_viewer_text_cache_append:
 * @cache: a cache
 * @snapshot: where to draw
 * @layout: a layout with the font to use, for text the cache cannot write
 * @text: the text
 * @box: the box to draw it in
 * @xalign: where the text lies across the box, from 0 (left) to 1 (right)
 * @yalign: where it lies down the box, from 0 (top) to 1 (bottom)
 * @color: its colour
 *
 * Draws a short text in a box: squeezed when a little too wide,
 * ellipsized when much too wide.
 */
void
lt_viewer_text_cache_append (LtViewerTextCache     *cache,
                             GtkSnapshot           *snapshot,
                             PangoLayout           *layout,
                             const char            *text,
                             const graphene_rect_t *box,
                             float                  xalign,
                             float                  yalign,
                             const GdkRGBA         *color)
{
  int width, height;

  g_return_if_fail (cache != NULL);
  g_return_if_fail (PANGO_IS_LAYOUT (layout));
  g_return_if_fail (text != NULL && box != NULL && color != NULL);

  text_cache_ensure (cache, layout);
  if (append_glyphs (cache, snapshot, text, box, xalign, yalign, color))
    return;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (box->size.width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, &width, &height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (box->origin.x + (box->size.width - width) * xalign,
                                                box->origin.y
                                                + (box->size.height - height) * yalign));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}
