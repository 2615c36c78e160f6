/* lt-viewer-storage-strip.h: the storage drawn as a wrapping strip of cells
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-format.h"
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
 * 1..4096, default 16), zoom (double, 0.25..4, default 1: cells of 48 px).
 *
 * Actions: storage.zoom-in, storage.zoom-out, storage.zoom-reset (bound to
 * Ctrl+plus, Ctrl+minus, Ctrl+0; Ctrl+wheel zooms too). With the focus, the
 * arrows, Page Up/Down, Home and End move the lesson's :hover-cell and
 * scroll it into view; stepping the selected view's :cursor does too. */

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
/* The cell's tooltip: index, value, and each view's elements on it by their
 * indices; NULL outside the storage. */
char           *lt_viewer_storage_strip_describe_cell   (LtViewerStorageStrip *self,
                                                         gint64                cell);
gboolean        lt_viewer_storage_strip_get_visible_cells (LtViewerStorageStrip *self,
                                                         gint64               *first,
                                                         gint64               *end);
void            lt_viewer_storage_strip_scroll_to_cell  (LtViewerStorageStrip *self,
                                                         gint64                cell);

G_END_DECLS
