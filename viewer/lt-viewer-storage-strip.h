/* lt-viewer-storage-strip.h: the storage drawn as a wrapping strip of cells
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_STORAGE_STRIP (lt_viewer_storage_strip_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerStorageStrip, lt_viewer_storage_strip, LT_VIEWER, STORAGE_STRIP,
                      GtkWidget)

/* Draws every storage cell of the lesson's base tensor as a box with its index
 * and value, wrapping after :wrap-width cells. A cell reached by views shows
 * their colours (all of them when several reach it), a cell a view reaches
 * twice is marked as aliased, unreached cells are dimmed, and the lesson's
 * :hover-cell is outlined. Implements GtkScrollable: only the visible rows
 * are drawn, the static cell layer is cached as a render node, and the cell
 * under a point is found by arithmetic, not by scanning.
 *
 * Properties: lesson (LtViewerLesson), wrap-width (guint, cells per row,
 * 1..4096, default 16), zoom (double, 0.25..4, default 1: cells of 48 px). */

GtkWidget      *lt_viewer_storage_strip_new             (void);
LtViewerLesson *lt_viewer_storage_strip_get_lesson      (LtViewerStorageStrip *self);
void            lt_viewer_storage_strip_set_lesson      (LtViewerStorageStrip *self,
                                                         LtViewerLesson       *lesson);
guint           lt_viewer_storage_strip_get_wrap_width  (LtViewerStorageStrip *self);
void            lt_viewer_storage_strip_set_wrap_width  (LtViewerStorageStrip *self,
                                                         guint                 wrap_width);
double          lt_viewer_storage_strip_get_zoom        (LtViewerStorageStrip *self);
void            lt_viewer_storage_strip_set_zoom        (LtViewerStorageStrip *self,
                                                         double                zoom);
/* The cell at widget coordinates (x, y), taking scrolling into account, or
 * -1 when the point is between or beyond the cells. */
gint64          lt_viewer_storage_strip_cell_at         (LtViewerStorageStrip *self,
                                                         double                x,
                                                         double                y);
/* The bounds of @cell in widget coordinates (it may be scrolled out of view). */
gboolean        lt_viewer_storage_strip_get_cell_bounds (LtViewerStorageStrip *self,
                                                         gint64                cell,
                                                         graphene_rect_t      *bounds);

G_END_DECLS
