/* lt-viewer-view-grid.h: one view's elements drawn in their logical layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_VIEW_GRID (lt_viewer_view_grid_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerViewGrid, lt_viewer_view_grid, LT_VIEWER, VIEW_GRID, GtkWidget)

/* Draws the elements of a view as a 1-d row, a 2-d grid, or for 3 dims and
 * more nested blocks of grids; :row-dim and :col-dim choose which two dims
 * lie flat (the others become blocks). Each element shows its value in the
 * view's colour; the element under the pointer sets the lesson's
 * :hover-cell to its storage cell and shows the address formula as the
 * tooltip; elements on the lesson's hover cell are outlined; the view's
 * :cursor element is marked.
 *
 * Properties: lesson, view (LtViewerView), row-dim, col-dim (int, negative
 * counts from the end; defaults -2 and -1). */

GtkWidget      *lt_viewer_view_grid_new          (void);
void            lt_viewer_view_grid_set_lesson   (LtViewerViewGrid *self,
                                                  LtViewerLesson   *lesson);
LtViewerLesson *lt_viewer_view_grid_get_lesson   (LtViewerViewGrid *self);
void            lt_viewer_view_grid_set_view     (LtViewerViewGrid *self,
                                                  LtViewerView     *view);
LtViewerView   *lt_viewer_view_grid_get_view     (LtViewerViewGrid *self);
void            lt_viewer_view_grid_set_flat_dims (LtViewerViewGrid *self,
                                                  int               row_dim,
                                                  int               col_dim);
/* The row-major index of the element at widget coordinates, or -1. */
gint64          lt_viewer_view_grid_element_at   (LtViewerViewGrid *self,
                                                  double            x,
                                                  double            y);
gboolean        lt_viewer_view_grid_get_element_bounds (LtViewerViewGrid *self,
                                                  gint64            element,
                                                  graphene_rect_t  *bounds);

G_END_DECLS
