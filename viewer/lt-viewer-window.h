/* lt-viewer-window.h: Tensor Viewer's main window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>

#include "lt-viewer-application.h"
#include "lt-viewer-lesson.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_WINDOW (lt_viewer_window_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerWindow, lt_viewer_window, LT_VIEWER, WINDOW, AdwApplicationWindow)

/* What a window can export. */
typedef enum
{
  LT_VIEWER_DRAWING_STORAGE, /* the storage strip */
  LT_VIEWER_DRAWING_VIEW,    /* the selected view's grid */
  LT_VIEWER_DRAWING_FIGURE,  /* both, composed with a legend and a caption */
} LtViewerDrawing;

/* One lesson per window: its notes, base tensor and views beside the
 * storage strip, the selected view's grid, its order stepper and badges.
 *
 * Window actions (accels set by the application): win.open, win.save,
 * win.save-as, win.export, win.add-view, win.zoom-in, win.zoom-out,
 * win.zoom-reset; and, when the focus is not in a text field, win.play-pause
 * (Space), win.step-back (Left) and win.step-forward (Right). */

LtViewerWindow *lt_viewer_window_new           (LtViewerApplication *application);

LtViewerLesson *lt_viewer_window_get_lesson    (LtViewerWindow      *self);
/* The file the lesson was opened from or saved to, or NULL. */
GFile          *lt_viewer_window_get_file      (LtViewerWindow      *self);
/* The name of the built-in lesson shown, or NULL. */
const char     *lt_viewer_window_get_builtin   (LtViewerWindow      *self);

/* Shows @lesson, which came from the built-in lesson @builtin or from
 * @file (or neither, for a new lesson), and remembers it as the last one. */
void            lt_viewer_window_set_lesson    (LtViewerWindow      *self,
                                                LtViewerLesson      *lesson,
                                                const char          *builtin,
                                                GFile               *file);
gboolean        lt_viewer_window_open_builtin  (LtViewerWindow      *self,
                                                const char          *name,
                                                GError             **error);
/* Opens @file; on error, the lesson shown stays and an error dialog says
 * what is wrong with the file. Returns whether the file was opened. */
gboolean        lt_viewer_window_open_file     (LtViewerWindow      *self,
                                                GFile               *file);
/* Saves the lesson to @file, which becomes the window's file. Refuses while
 * a view's expression is in error: the file could not be opened again. */
gboolean        lt_viewer_window_save_to_file  (LtViewerWindow      *self,
                                                GFile               *file,
                                                GError             **error);
/* Writes @drawing as it is shown, as SVG when @file's name ends in .svg,
 * otherwise as PNG. */
gboolean        lt_viewer_window_export        (LtViewerWindow      *self,
                                                LtViewerDrawing      drawing,
                                                GFile               *file,
                                                GError             **error);
/* Shows @message in a toast over the drawings. */
void            lt_viewer_window_show_toast    (LtViewerWindow      *self,
                                                const char          *message);

G_END_DECLS
