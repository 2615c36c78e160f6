/* lt-viewer-figure.h: a lesson composed into one figure, written without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_FIGURE (lt_viewer_figure_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerFigure, lt_viewer_figure, LT_VIEWER, FIGURE, GObject)

/* The file formats a figure is written in. */
typedef enum
{
  LT_VIEWER_FIGURE_FORMAT_SVG,
  LT_VIEWER_FIGURE_FORMAT_PNG,
  LT_VIEWER_FIGURE_FORMAT_PDF,
  LT_VIEWER_FIGURE_FORMAT_HTML,  /* an interactive page, self-contained */
} LtViewerFigureFormat;

/* One still image of a lesson for slides and handouts: the title, the
 * storage strip with the selected view's order on its cells, a strip of
 * its own for a view that copies, the selected view's sizes, strides,
 * offset and badges, its elements in their logical layout (or its error),
 * the step the view's cursor is on, and a legend of every view. Sized to
 * its content. Composed with Pango and cairo only: no display, no GTK.
 *
 * It shows the lesson as it is when written: its selected view (none
 * selected: the storage and the legend) and that view's cursor.
 *
 * Properties:
 *   lesson         LtViewerLesson, construct-only
 *   cells-per-row  guint: storage cells per strip row, 0 for the lesson's
 *                  (or up to 16 when the lesson leaves it open)
 *   zoom           double: the scale, 0 for the lesson's (or 1) */

LtViewerFigure *lt_viewer_figure_new               (LtViewerLesson        *lesson);
LtViewerLesson *lt_viewer_figure_get_lesson        (LtViewerFigure        *self);
guint           lt_viewer_figure_get_cells_per_row (LtViewerFigure        *self);
void            lt_viewer_figure_set_cells_per_row (LtViewerFigure        *self,
                                                    guint                  cells_per_row);
double          lt_viewer_figure_get_zoom          (LtViewerFigure        *self);
void            lt_viewer_figure_set_zoom          (LtViewerFigure        *self,
                                                    double                 zoom);

/* The figure's size in pixels (points for PDF), zoom included. */
void            lt_viewer_figure_get_size          (LtViewerFigure        *self,
                                                    double                *width,
                                                    double                *height);
/* The figure as an SVG document: text as text, cells as shapes. */
char           *lt_viewer_figure_to_svg            (LtViewerFigure        *self);
/* The figure in @format, as the bytes of a file. */
GBytes         *lt_viewer_figure_to_bytes          (LtViewerFigure        *self,
                                                    LtViewerFigureFormat   format,
                                                    GError               **error);
/* The format a file name asks for by its extension (.svg, .png, .pdf,
 * .html, in any case); FALSE with G_IO_ERROR_INVALID_FILENAME for any
 * other. */
gboolean        lt_viewer_figure_format_for_file   (GFile                 *file,
                                                    LtViewerFigureFormat  *format,
                                                    GError               **error);
/* Writes the figure to @file in the format its extension names, replacing
 * it atomically. */
gboolean        lt_viewer_figure_write             (LtViewerFigure        *self,
                                                    GFile                 *file,
                                                    GError               **error);

G_END_DECLS
