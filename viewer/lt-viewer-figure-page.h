/* lt-viewer-figure-page.h: a lesson as one interactive web page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

/* Private to the viewer's library: the page LtViewerFigure writes for
 * .html. */
char *lt_viewer_figure_page_new (LtViewerLesson *lesson,
                                 guint           cells_per_row,
                                 double          zoom);

G_END_DECLS
