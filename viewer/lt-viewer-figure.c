/* lt-viewer-figure.c: a lesson composed into one figure, written without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <cairo-pdf.h>
#include "lt-viewer-i18n-private.h"

#include "lt-viewer-canvas.h"
#include "lt-viewer-figure.h"
#include "lt-viewer-figure-composer.h"
#include "lt-viewer-figure-page.h"
#include "lt-viewer-file.h"
#include "lt-viewer-format.h"

/* Storage cells per row when neither the figure nor the lesson says. */
#define AUTO_CELLS_PER_ROW 16

/* Drawn over white, so that the figure reads on dark slides too. */
static const LtViewerColor background = { 1, 1, 1, 1 };

struct _LtViewerFigure
{
  GObject parent_instance;

  LtViewerLesson *lesson;
  guint cells_per_row;
  double zoom;
};

enum
{
  PROP_0,
  PROP_LESSON,
  PROP_CELLS_PER_ROW,
  PROP_ZOOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (LtViewerFigure, lt_viewer_figure, G_TYPE_OBJECT)

static guint
get_cells_per_row (LtViewerFigure *self)
{
  if (self->cells_per_row > 0)
    return self->cells_per_row;
  if (lt_viewer_lesson_get_cells_per_row (self->lesson) > 0)
    return lt_viewer_lesson_get_cells_per_row (self->lesson);
  return AUTO_CELLS_PER_ROW;
}

static double
get_zoom (LtViewerFigure *self)
{
  if (self->zoom > 0)
    return self->zoom;
  if (lt_viewer_lesson_get_zoom (self->lesson) > 0)
    return lt_viewer_lesson_get_zoom (self->lesson);
  return 1;
}

/* GObject */

static void
lt_viewer_figure_dispose (GObject *object)
{
  LtViewerFigure *self = LT_VIEWER_FIGURE (object);

  g_clear_object (&self->lesson);
  G_OBJECT_CLASS (lt_viewer_figure_parent_class)->dispose (object);
}

static void
lt_viewer_figure_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LtViewerFigure *self = LT_VIEWER_FIGURE (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      g_value_set_object (value, self->lesson);
      break;
    case PROP_CELLS_PER_ROW:
      g_value_set_uint (value, self->cells_per_row);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_figure_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  LtViewerFigure *self = LT_VIEWER_FIGURE (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      self->lesson = g_value_dup_object (value);
      break;
    case PROP_CELLS_PER_ROW:
      lt_viewer_figure_set_cells_per_row (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      lt_viewer_figure_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_figure_class_init (LtViewerFigureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lt_viewer_figure_dispose;
  object_class->get_property = lt_viewer_figure_get_property;
  object_class->set_property = lt_viewer_figure_set_property;

  /**
   * LtViewerFigure:lesson:
   *
   * The lesson the figure shows, as it is when the figure is written.
   */
  properties[PROP_LESSON] =
    g_param_spec_object ("lesson", NULL, NULL, LT_VIEWER_TYPE_LESSON,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerFigure:cells-per-row:
   *
   * Storage cells per row of the strip; 0 takes the lesson's, or up to 16.
   */
  properties[PROP_CELLS_PER_ROW] =
    g_param_spec_uint ("cells-per-row", NULL, NULL, 0, LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerFigure:zoom:
   *
   * The scale of the figure; 0 takes the lesson's, or 1.
   */
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, LT_VIEWER_LESSON_MAX_ZOOM, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lt_viewer_figure_init (LtViewerFigure *self)
{
}

/**
 * lt_viewer_figure_new:
 * @lesson: the lesson to show
 *
 * Returns: (transfer full): a figure of @lesson
 */
LtViewerFigure *
lt_viewer_figure_new (LtViewerLesson *lesson)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (lesson), NULL);

  return g_object_new (LT_VIEWER_TYPE_FIGURE, "lesson", lesson, NULL);
}

/**
 * lt_viewer_figure_get_lesson:
 * @self: a #LtViewerFigure
 *
 * Returns: (transfer none): the lesson the figure shows
 */
LtViewerLesson *
lt_viewer_figure_get_lesson (LtViewerFigure *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), NULL);

  return self->lesson;
}

/**
 * lt_viewer_figure_get_cells_per_row:
 * @self: a #LtViewerFigure
 *
 * Returns: the storage cells per strip row asked of the figure, 0 for the
 *   lesson's
 */
guint
lt_viewer_figure_get_cells_per_row (LtViewerFigure *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), 0);

  return self->cells_per_row;
}

/**
 * lt_viewer_figure_set_cells_per_row:
 * @self: a #LtViewerFigure
 * @cells_per_row: from 1 to %LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, or 0 for the
 *   lesson's
 *
 * Sets how many storage cells a row of the strip holds.
 */
void
lt_viewer_figure_set_cells_per_row (LtViewerFigure *self,
                                    guint           cells_per_row)
{
  g_return_if_fail (LT_VIEWER_IS_FIGURE (self));
  g_return_if_fail (cells_per_row <= LT_VIEWER_LESSON_MAX_CELLS_PER_ROW);

  if (self->cells_per_row == cells_per_row)
    return;
  self->cells_per_row = cells_per_row;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CELLS_PER_ROW]);
}

/**
 * lt_viewer_figure_get_zoom:
 * @self: a #LtViewerFigure
 *
 * Returns: the scale asked of the figure, 0 for the lesson's
 */
double
lt_viewer_figure_get_zoom (LtViewerFigure *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), 0);

  return self->zoom;
}

/**
 * lt_viewer_figure_set_zoom:
 * @self: a #LtViewerFigure
 * @zoom: from %LT_VIEWER_LESSON_MIN_ZOOM to %LT_VIEWER_LESSON_MAX_ZOOM, or 0
 *   for the lesson's
 *
 * Sets the scale of the figure: text and cells alike.
 */
void
lt_viewer_figure_set_zoom (LtViewerFigure *self,
                           double          zoom)
{
  g_return_if_fail (LT_VIEWER_IS_FIGURE (self));
  g_return_if_fail (zoom == 0
                    || (zoom >= LT_VIEWER_LESSON_MIN_ZOOM && zoom <= LT_VIEWER_LESSON_MAX_ZOOM));

  if (self->zoom == zoom)
    return;
  self->zoom = zoom;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/**
 * lt_viewer_figure_get_size:
 * @self: a #LtViewerFigure
 * @width: (out) (optional): return location for the width
 * @height: (out) (optional): return location for the height
 *
 * The size of the figure as written: pixels for SVG and PNG, points for
 * PDF; the zoom included.
 */
void
lt_viewer_figure_get_size (LtViewerFigure *self,
                           double         *width,
                           double         *height)
{
  g_autoptr (LtViewerCanvas) canvas = NULL;
  double zoom, w, h;

  g_return_if_fail (LT_VIEWER_IS_FIGURE (self));

  canvas = lt_viewer_compose_figure (self->lesson, get_cells_per_row (self), FALSE, &w, &h,
                                     NULL);
  zoom = get_zoom (self);
  if (width != NULL)
    *width = w * zoom;
  if (height != NULL)
    *height = h * zoom;
}

static char *
to_svg (LtViewerFigure *self)
{
  g_autofree char *description = NULL;
  g_autoptr (LtViewerCanvas) canvas = NULL;
  double width, height;

  canvas = lt_viewer_compose_figure (self->lesson, get_cells_per_row (self), FALSE, &width,
                                     &height, &description);
  /* The zoom scales the document's size; its viewBox stays in figure
   * units. */
  return lt_viewer_canvas_to_svg (canvas, width, height, get_zoom (self), NULL, &background,
                                  lt_viewer_lesson_get_title (self->lesson), description);
}

/**
 * lt_viewer_figure_to_svg:
 * @self: a #LtViewerFigure
 *
 * The figure as an SVG 1.1 document: text as `<text>`, cells as shapes,
 * patterns as `<pattern>`s; no bitmaps. Its `<title>` is the lesson's
 * title and its `<desc>` the figure's text, for screen readers.
 *
 * Returns: (transfer full): the document
 */
char *
lt_viewer_figure_to_svg (LtViewerFigure *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), NULL);

  return to_svg (self);
}

static GBytes *
render_with_cairo (LtViewerFigure        *self,
                   LtViewerFigureFormat   format,
                   GError               **error)
{
  g_autoptr (LtViewerCanvas) canvas = NULL;
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  double zoom = get_zoom (self);
  double width, height;
  cairo_t *cr;

  canvas = lt_viewer_compose_figure (self->lesson, get_cells_per_row (self), FALSE, &width,
                                     &height, NULL);
  if (format == LT_VIEWER_FIGURE_FORMAT_PDF)
    surface = cairo_pdf_surface_create_for_stream (lt_viewer_cairo_append_bytes, bytes,
                                                   width * zoom, height * zoom);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (width * zoom + 0.999),
                                          (int) (height * zoom + 0.999));

  cr = cairo_create (surface);
  cairo_scale (cr, zoom, zoom);
  cairo_set_source_rgba (cr, background.red, background.green, background.blue,
                         background.alpha);
  cairo_paint (cr);
  lt_viewer_canvas_render (canvas, cr);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == LT_VIEWER_FIGURE_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, lt_viewer_cairo_append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("The figure could not be drawn: %s"), cairo_status_to_string (status));
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/**
 * lt_viewer_figure_to_bytes:
 * @self: a #LtViewerFigure
 * @format: the file format
 * @error: return location for a #GError
 *
 * The figure as the contents of an SVG, PNG, PDF or HTML file. PDF is
 * vector, with its text as text; HTML is a self-contained interactive page
 * (a figure per view, hovering and stepping with the keyboard).
 *
 * Returns: (transfer full): the bytes, or %NULL with @error set
 */
GBytes *
lt_viewer_figure_to_bytes (LtViewerFigure        *self,
                           LtViewerFigureFormat   format,
                           GError               **error)
{
  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (format == LT_VIEWER_FIGURE_FORMAT_SVG)
    {
      char *svg = to_svg (self);

      return g_bytes_new_take (svg, strlen (svg));
    }
  if (format == LT_VIEWER_FIGURE_FORMAT_HTML)
    {
      char *page = lt_viewer_figure_page_new (self->lesson, get_cells_per_row (self),
                                              get_zoom (self));

      return g_bytes_new_take (page, strlen (page));
    }
  return render_with_cairo (self, format, error);
}

/**
 * lt_viewer_figure_format_for_file:
 * @file: a file to write a figure to
 * @format: (out): return location for the format its name asks for
 * @error: return location for a #GError
 *
 * The format a file name's extension asks for: `.svg`, `.png`, `.pdf` or
 * `.html`, in any case.
 *
 * Returns: %TRUE when the extension names one, else %FALSE with @error
 *   set to %G_IO_ERROR_INVALID_FILENAME
 */
gboolean
lt_viewer_figure_format_for_file (GFile                 *file,
                                  LtViewerFigureFormat  *format,
                                  GError               **error)
{
  static const char *const extensions[] = { ".svg", ".png", ".pdf", ".html" };
  g_autofree char *basename = NULL;
  g_autofree char *lower = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  basename = g_file_get_basename (file);
  lower = g_ascii_strdown (basename != NULL ? basename : "", -1);
  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    if (g_str_has_suffix (lower, extensions[i]))
      {
        *format = (LtViewerFigureFormat) i;
        return TRUE;
      }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
               _("“%s” does not say which format to write: end the name with .svg, .png, .pdf "
                 "or .html"),
               basename != NULL ? basename : "");
  return FALSE;
}

/**
 * lt_viewer_figure_write:
 * @self: a #LtViewerFigure
 * @file: the file to write
 * @error: return location for a #GError
 *
 * Writes the figure to @file in the format its name ends with (see
 * lt_viewer_figure_format_for_file()). The file is replaced atomically: on
 * error, an existing file is left as it was.
 *
 * Returns: %TRUE on success, else %FALSE with @error set
 */
gboolean
lt_viewer_figure_write (LtViewerFigure  *self,
                        GFile           *file,
                        GError         **error)
{
  g_autoptr (GBytes) bytes = NULL;
  LtViewerFigureFormat format;

  g_return_val_if_fail (LT_VIEWER_IS_FIGURE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!lt_viewer_figure_format_for_file (file, &format, error))
    return FALSE;
  bytes = lt_viewer_figure_to_bytes (self, format, error);
  if (bytes == NULL)
    return FALSE;
  return lt_viewer_file_replace_contents (file, g_bytes_get_data (bytes, NULL),
                                          g_bytes_get_size (bytes), error);
}
