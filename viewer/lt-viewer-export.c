/* lt-viewer-export.c: rendering widgets to PNG and SVG
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <cairo-svg.h>
#include "lt-viewer-i18n-private.h"

#include "lt-viewer-canvas.h"
#include "lt-viewer-export.h"
#include "lt-viewer-file.h"

/* The render node the widget was last drawn with: the one on screen. */
static GskRenderNode *
get_widget_node (GtkWidget        *widget,
                 graphene_rect_t  *viewport,
                 GError          **error)
{
  g_autoptr (GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  int width, height;

  if (!gtk_widget_get_realized (widget) || gtk_widget_get_native (widget) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The drawing cannot be exported before it is shown in a window"));
      return NULL;
    }

  /* A widget paintable replays the widget's last render node, at the size
   * of its border box; it has none until the widget has been drawn once. */
  paintable = gtk_widget_paintable_new (widget);
  width = gdk_paintable_get_intrinsic_width (paintable);
  height = gdk_paintable_get_intrinsic_height (paintable);
  if (width <= 0 || height <= 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The drawing cannot be exported before it has been drawn once"));
      return NULL;
    }

  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The drawing cannot be exported before it has been drawn once"));
      return NULL;
    }

  graphene_rect_init (viewport, 0, 0, width, height);
  return node;
}

/**
 * lt_viewer_export_texture:
 * @widget: a realized widget that has been drawn
 * @error: return location for a #GError
 *
 * Renders what @widget shows, its last render node, with the renderer of
 * its window.
 *
 * Returns: (transfer full): the texture, or %NULL with @error set
 */
GdkTexture *
lt_viewer_export_texture (GtkWidget  *widget,
                          GError    **error)
{
  g_autoptr (GskRenderNode) node = NULL;
  GskRenderer *renderer;
  graphene_rect_t viewport;
  GdkTexture *texture;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  node = get_widget_node (widget, &viewport, error);
  if (node == NULL)
    return NULL;

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  if (renderer == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The drawing cannot be exported: its window has no renderer"));
      return NULL;
    }

  texture = gsk_renderer_render_texture (renderer, node, &viewport);
  if (texture == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The drawing could not be rendered"));
      return NULL;
    }
  return texture;
}

/**
 * lt_viewer_export_png:
 * @widget: a realized widget that has been drawn
 * @file: where to write the PNG
 * @error: return location for a #GError
 *
 * Writes what @widget shows as a PNG image. The file is replaced atomically:
 * on error, an existing file is left as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_export_png (GtkWidget  *widget,
                      GFile      *file,
                      GError    **error)
{
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  texture = lt_viewer_export_texture (widget, error);
  if (texture == NULL)
    return FALSE;

  bytes = gdk_texture_save_to_png_bytes (texture);
  if (bytes == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The drawing could not be encoded as PNG"));
      return FALSE;
    }

  return lt_viewer_file_replace_contents (file, g_bytes_get_data (bytes, NULL),
                                          g_bytes_get_size (bytes), error);
}

/**
 * lt_viewer_export_svg:
 * @widget: a realized widget that has been drawn
 * @file: where to write the SVG
 * @error: return location for a #GError
 *
 * Writes what @widget shows as an SVG image, drawing the same render nodes
 * with cairo. The file is replaced atomically: on error, an existing file
 * is left as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_export_svg (GtkWidget  *widget,
                      GFile      *file,
                      GError    **error)
{
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GByteArray) svg = NULL;
  graphene_rect_t viewport;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  node = get_widget_node (widget, &viewport, error);
  if (node == NULL)
    return FALSE;

  /* Drawn whole before anything is written, then written as the PNG is. */
  svg = g_byte_array_new ();
  surface = cairo_svg_surface_create_for_stream (lt_viewer_cairo_append_bytes, svg,
                                                 viewport.size.width, viewport.size.height);
  cairo_svg_surface_restrict_to_version (surface, CAIRO_SVG_VERSION_1_1);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("The drawing could not be written as SVG: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }

  return lt_viewer_file_replace_contents (file, (const char *) svg->data, svg->len, error);
}
