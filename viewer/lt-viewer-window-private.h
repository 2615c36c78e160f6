/* lt-viewer-window-private.h: what the files of Tensor Viewer's window share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-viewer-storage-overview.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-view-grid.h"
#include "lt-viewer-view-row.h"
#include "lt-viewer-window.h"

G_BEGIN_DECLS

/* The zoom steps of the storage strip, within its own limits. */
#define ZOOM_STEP 1.25
#define MIN_ZOOM  0.25
#define MAX_ZOOM  4.0

/* Literal values are offered for the current contents up to this many
 * elements; beyond, the entry starts empty. */
#define MAX_LITERAL_ELEMENTS 4096

/* A legend entry shows a view's name whole up to this many characters. */
#define MAX_LEGEND_CHARS 48

struct _LtViewerWindow
{
  AdwApplicationWindow parent_instance;

  GSettings *settings;

  LtViewerLesson *lesson;
  char *builtin;
  GFile *file;

  /* The selected view, watched for its tensor and cursor. */
  LtViewerView *selected;
  guint n_flat_dims;       /* the dims the dropdowns offer */
  int row_dim, col_dim;

  guint play_source;

  /* The lesson as last opened or saved, in its file format: the lesson is
   * modified while it saves to anything else. Checked once per main loop
   * iteration after changes. */
  char *saved_data;
  gboolean modified;
  guint modified_source;
  /* Set once the user has answered the save-changes question with
   * Discard, or saved from it. */
  gboolean close_confirmed;
  gboolean close_after_save;

  /* Set while widgets are filled from the model, so that their change
   * signals do not write back. */
  gboolean updating;

  /* Template children */
  GtkWidget *main_box;
  AdwWindowTitle *window_title;
  GtkMenuButton *lessons_button;
  AdwToastOverlay *toast_overlay;

  /* A copy's own storage, drawn under the lesson's: a lesson of its own
   * whose base is the copy and whose one view follows the selected one. */
  GtkWidget *copy_box;
  GtkLabel *copy_label;
  LtViewerStorageStrip *copy_strip;
  LtViewerLesson *copy_lesson;
  LtTensor *copy_source;
  GtkStack *title_stack;
  GtkStack *notes_stack;
  GtkLabel *title_label;
  GtkEntry *title_entry;
  GtkLabel *notes_label;
  GtkFlowBox *legend_box;
  AdwStatusPage *view_error_page;
  AdwStatusPage *empty_page;
  char *legend_key;        /* what the legend shows, to rebuild it on change only */
  GtkTextView *notes_view;
  GtkToggleButton *edit_button;
  AdwComboRow *dtype_row;
  GtkStringList *dtype_list;
  AdwComboRow *contents_row;
  AdwEntryRow *shape_row;
  AdwEntryRow *literal_row;
  AdwActionRow *seed_row;
  GtkSpinButton *seed_spin;
  GtkLabel *base_error_label;
  GtkListBox *views_list;
  GtkLabel *storage_summary_label;
  GtkAdjustment *wrap_adjustment;
  GtkButton *zoom_button;
  LtViewerStorageStrip *storage_strip;
  GtkStack *view_stack;
  GtkLabel *view_name_label;
  GtkLabel *view_layout_label;
  GtkWidget *flat_dims_box;
  GtkDropDown *row_dim_dropdown;
  GtkDropDown *col_dim_dropdown;
  LtViewerViewGrid *view_grid;
  GtkButton *play_button;
  GtkAdjustment *speed_adjustment;
  GtkLabel *order_label;
  GtkLabel *address_label;
  GtkWidget *badges_grid;
  GtkLabel *contiguous_badge;
  GtkLabel *contiguous_reason;
  GtkLabel *aliasing_badge;
  GtkLabel *aliasing_reason;
  GtkLabel *pytorch_badge;
  GtkLabel *pytorch_reason;
  GtkLabel *view_as_badge;
  GtkLabel *view_as_reason;
  GtkEntry *view_as_entry;

  /* The drawing panes: the storage above, the selected view below, the
   * divider placed by lt-viewer-window-layout.c after each change. */
  GtkPaned *drawing_paned;
  GtkScrolledWindow *storage_scroller;
  GtkWidget *storage_overview;  /* shown over storages of many rows */
  GtkScrolledWindow *grid_scroller;
  guint layout_source;
};

/* lt-viewer-window.c: the lesson, its title and notes, the views and the
 * selected one */
char            *lt_viewer_window_format_int      (gint64          value);
char            *lt_viewer_window_format_tuple    (const gint64   *values,
                                                   guint           n);
void             lt_viewer_window_update_title    (LtViewerWindow *self);
void             lt_viewer_window_remember_lesson (LtViewerWindow *self);
LtViewerViewRow *lt_viewer_window_find_row        (LtViewerWindow *self,
                                                   LtViewerView   *view);

/* lt-viewer-window-base.c: the base tensor's editor */
void lt_viewer_window_update_storage_summary (LtViewerWindow *self);
void lt_viewer_window_update_base_editor     (LtViewerWindow *self);
void lt_viewer_window_on_base_edited         (LtViewerWindow *self);
void lt_viewer_window_on_contents_selected   (LtViewerWindow *self);

/* lt-viewer-window-files.c: unsaved changes, open, save and export */
void     lt_viewer_window_schedule_modified_check (LtViewerWindow *self);
void     lt_viewer_window_mark_saved              (LtViewerWindow *self);
gboolean lt_viewer_window_may_close               (LtViewerWindow *self);
void     lt_viewer_window_open_activated          (GSimpleAction  *action,
                                                   GVariant       *parameter,
                                                   gpointer        data);
void     lt_viewer_window_save_activated          (GSimpleAction  *action,
                                                   GVariant       *parameter,
                                                   gpointer        data);
void     lt_viewer_window_save_as_activated       (GSimpleAction  *action,
                                                   GVariant       *parameter,
                                                   gpointer        data);
void     lt_viewer_window_export_activated        (GSimpleAction  *action,
                                                   GVariant       *parameter,
                                                   gpointer        data);

/* lt-viewer-window-actions.c: the window's actions and the lessons menu */
void lt_viewer_window_init_actions               (LtViewerWindow *self);
void lt_viewer_window_set_lesson_actions_enabled (LtViewerWindow *self,
                                                  gboolean        enabled);
void lt_viewer_window_stop_playing               (LtViewerWindow *self);
void lt_viewer_window_set_zoom                   (LtViewerWindow *self,
                                                  double          zoom);
void lt_viewer_window_init_lessons_menu          (LtViewerWindow *self);

/* lt-viewer-window-layout.c: the drawing panes sized to their content */
void lt_viewer_window_init_layout  (LtViewerWindow *self);
void lt_viewer_window_queue_layout (LtViewerWindow *self);
void lt_viewer_window_clear_layout (LtViewerWindow *self);

G_END_DECLS
