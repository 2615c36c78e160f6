/* lt-viewer-figure-composer.h: a lesson's storage, views and legend laid out on a canvas
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-viewer-canvas.h"
#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

/* Private to the viewer's library: what LtViewerFigure draws, in figure
 * units (pixels at zoom 1), on a white background the caller paints. */
LtViewerCanvas *lt_viewer_compose_figure (LtViewerLesson  *lesson,
                                          guint            cells_per_row,
                                          gboolean         interactive,
                                          double          *width,
                                          double          *height,
                                          char           **description);

G_END_DECLS
