/* lt-viewer-view-row.h: one view of a lesson in the views list
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_VIEW_ROW (lt_viewer_view_row_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerViewRow, lt_viewer_view_row, LT_VIEWER, VIEW_ROW, GtkListBoxRow)

/* A row for one view: its colour, name and expression (applied on Enter; an
 * error shows under it and the last valid state stays drawn), its sizes,
 * strides and offset as spin buttons (editing them makes the view an
 * as_strided() one), and a button that removes it from the lesson.
 *
 * Properties: lesson, view (construct-only). */

GtkWidget    *lt_viewer_view_row_new              (LtViewerLesson  *lesson,
                                                   LtViewerView    *view);
LtViewerView *lt_viewer_view_row_get_view         (LtViewerViewRow *self);
/* Moves the focus to the expression and selects its text, as after the
 * view has been added. */
void          lt_viewer_view_row_focus_expression (LtViewerViewRow *self);

G_END_DECLS
