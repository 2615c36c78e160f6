/* lt-viewer-window-layout.c: the drawing panes of Tensor Viewer's window,
 * sized to their content
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-window-private.h"

/* When the storage and the selected view do not both fit, the storage
 * gives way first, down to this share of the height: the view is what
 * the lesson is about, but the cells it reaches must stay in sight. */
#define MIN_STORAGE_SHARE 0.25

/* A storage of more rows of cells than this gets an overview above it. */
#define OVERVIEW_MIN_ROWS 12

/* The height @widget asks for at @width. */
static int
natural_height (GtkWidget *widget,
                int        width)
{
  int minimum = 0, natural = 0;

  if (widget == NULL || !gtk_widget_get_visible (widget))
    return 0;
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, NULL, NULL);
  return MAX (minimum, natural);
}

/* The divider of @self's drawing panes, from the heights the storage and
 * the selected view ask for: the storage gets what it asks for when both
 * fit, the view the rest; otherwise the storage shrinks until the view
 * fits or the storage is down to its share, and both scroll. */
static int
fit_position (int height,
              int storage,
              int view)
{
  int position;

  if (storage + view <= height)
    return storage;
  position = MAX (height - view, (int) (height * MIN_STORAGE_SHARE));
  return MIN (position, storage);
}

/* The overview, for storages one cannot take in by scrolling. */
static void
update_overview (LtViewerWindow *self)
{
  LtTensor *base = self->lesson != NULL ? lt_viewer_lesson_get_base (self->lesson) : NULL;
  gint64 n_cells = base != NULL ? lt_storage_get_n_elements (lt_tensor_get_storage (base)) : 0;
  guint per_row = MAX (lt_viewer_storage_strip_get_wrap_width (self->storage_strip), 1);

  gtk_widget_set_visible (self->storage_overview,
                          (n_cells + per_row - 1) / per_row > OVERVIEW_MIN_ROWS);
}

static gboolean
layout_panes (gpointer data)
{
  LtViewerWindow *self = data;
  GtkWidget *paned = GTK_WIDGET (self->drawing_paned);
  GtkWidget *start = gtk_paned_get_start_child (self->drawing_paned);
  GtkWidget *end = gtk_stack_get_visible_child (self->view_stack);
  int width = gtk_widget_get_width (paned);
  int height = gtk_widget_get_height (paned);
  int handle, storage, view;

  self->layout_source = 0;
  update_overview (self);
  if (width <= 0 || height <= 0 || start == NULL)
    return G_SOURCE_REMOVE;

  /* The handle is what the two children leave of the height. */
  handle = height - gtk_widget_get_height (start)
           - gtk_widget_get_height (gtk_paned_get_end_child (self->drawing_paned));
  handle = CLAMP (handle, 0, 16);

  storage = natural_height (start, width);
  view = natural_height (end, width);
  gtk_paned_set_position (self->drawing_paned, fit_position (height - handle, storage, view));
  return G_SOURCE_REMOVE;
}

/**
 * lt_viewer_window_queue_layout:
 * @self: a window
 *
 * Places the divider between the storage and the selected view again,
 * once the changes now pending have been measured: after a lesson, a view,
 * the cells per row or the zoom changed, and when the window is resized.
 * A divider the user dragged holds until then.
 */
void
lt_viewer_window_queue_layout (LtViewerWindow *self)
{
  g_return_if_fail (LT_VIEWER_IS_WINDOW (self));

  /* Before the frame is laid out and painted, so that it shows the
   * divider in its place. */
  if (self->layout_source == 0)
    self->layout_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 15, layout_panes, self, NULL);
}

/**
 * lt_viewer_window_init_layout:
 * @self: a window whose template has been built
 *
 * Watches what changes the room the drawing panes have.
 */
void
lt_viewer_window_init_layout (LtViewerWindow *self)
{
  /* The paned's largest position follows its height; the window's width
   * changes how labels wrap. */
  g_signal_connect_object (self->drawing_paned, "notify::max-position",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::default-width",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::maximized",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::fullscreened",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->storage_strip, "notify::wrap-width",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->storage_strip, "notify::zoom",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view_stack, "notify::visible-child",
                           G_CALLBACK (lt_viewer_window_queue_layout), self, G_CONNECT_SWAPPED);
}

/**
 * lt_viewer_window_clear_layout:
 * @self: a window being disposed
 *
 * Drops a pending layout.
 */
void
lt_viewer_window_clear_layout (LtViewerWindow *self)
{
  g_clear_handle_id (&self->layout_source, g_source_remove);
}
