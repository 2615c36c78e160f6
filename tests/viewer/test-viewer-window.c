/* test-viewer-window.c: Tensor Viewer's main window, driven as a user would
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <glib/gstdio.h>

#include "viewer-test-utils.h"
#include "lt-viewer-application.h"
#include "lt-viewer-export.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-view-row.h"
#include "lt-viewer-window.h"

static LtViewerApplication *app;

/* Windows and their parts */

static LtViewerWindow *
open_window (const char *lesson)
{
  g_autoptr (GError) error = NULL;
  LtViewerWindow *window = lt_viewer_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_assert_true (lt_viewer_window_open_builtin (window, lesson, &error));
  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (window));
  viewer_test_wait_for_frame (GTK_WIDGET (window));
  return window;
}

static void
close_window (LtViewerWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  viewer_test_spin_until_idle ();
}

static gpointer
get_child (LtViewerWindow *window,
           const char     *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window), LT_VIEWER_TYPE_WINDOW, name);

  g_assert_nonnull (child);
  return child;
}

static LtViewerViewRow *
get_row (LtViewerWindow *window,
         int             index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (get_child (window, "views_list"), index);

  g_assert_true (LT_VIEWER_IS_VIEW_ROW (row));
  return LT_VIEWER_VIEW_ROW (row);
}

static gpointer
get_row_child (LtViewerViewRow *row,
               const char      *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (row), LT_VIEWER_TYPE_VIEW_ROW,
                                                  name);

  g_assert_nonnull (child);
  return child;
}

static const char *
label_text (gpointer label)
{
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
select_view (LtViewerWindow *window,
             guint           index)
{
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);

  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, index));
  g_assert_true (gtk_list_box_get_selected_row (get_child (window, "views_list"))
                 == GTK_LIST_BOX_ROW (get_row (window, index)));
}

static void
activate (LtViewerWindow *window,
          const char     *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, NULL);
}

/* The storage drawing's pixels, as shown. */
static GBytes *
download_strip (LtViewerWindow *window,
                int            *width,
                int            *height)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  gsize stride;
  guchar *data;

  viewer_test_wait_for_frame (GTK_WIDGET (window));
  texture = lt_viewer_export_texture (get_child (window, "storage_strip"), &error);
  g_assert_no_error (error);
  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  stride = (gsize) *width * 4;
  data = g_malloc (stride * *height);
  gdk_texture_download (texture, data, stride);
  return g_bytes_new_take (data, stride * *height);
}

static GFile *
temp_file (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-viewer-window-XXXXXX", &error);

  g_assert_no_error (error);
  return g_file_new_build_filename (dir, name, NULL);
}

static void
delete_temp_file (GFile *file)
{
  g_autoptr (GFile) dir = g_file_get_parent (file);

  g_file_delete (file, NULL, NULL);
  g_file_delete (dir, NULL, NULL);
}

/* The message dialog shown over @window, or NULL. */
static AdwMessageDialog *
find_message_dialog (LtViewerWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel)
          && gtk_window_get_transient_for (GTK_WINDOW (toplevel)) == GTK_WINDOW (window))
        return ADW_MESSAGE_DIALOG (toplevel);
    }
  return NULL;
}

/* Tests */

static void
test_builtin_lessons (void)
{
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  g_assert_cmpuint (g_strv_length (names), ==, 7);
  for (guint i = 0; names[i] != NULL; i++)
    {
      LtViewerWindow *window = open_window (names[i]);
      LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
      guint n_views = lt_viewer_lesson_get_n_views (lesson);
      g_autoptr (GdkTexture) texture = NULL;
      g_autoptr (GError) error = NULL;

      g_test_message ("lesson %s", names[i]);
      g_assert_cmpstr (lt_viewer_window_get_builtin (window), ==, names[i]);
      g_assert_cmpstr (label_text (get_child (window, "title_label")), ==,
                       lt_viewer_lesson_get_title (lesson));
      g_assert_cmpstr (adw_window_title_get_title (get_child (window, "window_title")), ==,
                       lt_viewer_lesson_get_title (lesson));
      g_assert_cmpstr (adw_window_title_get_subtitle (get_child (window, "window_title")), ==,
                       "Built-in lesson");

      /* A row per view, the first selected and drawn in the grid. */
      g_assert_cmpuint (n_views, >, 0);
      for (guint v = 0; v < n_views; v++)
        g_assert_true (lt_viewer_view_row_get_view (get_row (window, v))
                       == lt_viewer_lesson_get_view (lesson, v));
      g_assert_null (gtk_list_box_get_row_at_index (get_child (window, "views_list"), n_views));
      g_assert_true (lt_viewer_lesson_get_selected (lesson) == lt_viewer_lesson_get_view (lesson, 0));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (get_child (window, "view_stack")), ==,
                       "view");
      g_assert_cmpstr (label_text (get_child (window, "view_name_label")), ==,
                       lt_viewer_view_get_name (lt_viewer_lesson_get_view (lesson, 0)));

      /* Both drawings were drawn. */
      texture = lt_viewer_export_texture (get_child (window, "storage_strip"), &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >, 0);
      g_clear_object (&texture);
      texture = lt_viewer_export_texture (get_child (window, "view_grid"), &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >, 0);

      close_window (window);
    }
}

/* Lets the window lay out what changed and paint it. */
static void
wait_for_layout (LtViewerWindow *window)
{
  viewer_test_spin_until_idle ();
  viewer_test_wait_for_frame (GTK_WIDGET (window));
  viewer_test_spin_until_idle ();
  viewer_test_wait_for_frame (GTK_WIDGET (window));
}

/* How far @scroller's content reaches past what it shows, in pixels. */
static double
hidden_extent (GtkScrolledWindow *scroller,
               GtkOrientation     orientation)
{
  GtkAdjustment *adjustment = orientation == GTK_ORIENTATION_VERTICAL
                                ? gtk_scrolled_window_get_vadjustment (scroller)
                                : gtk_scrolled_window_get_hadjustment (scroller);

  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment)
         - gtk_adjustment_get_page_size (adjustment);
}

static void
assert_legend_whole (LtViewerWindow *window)
{
  for (GtkWidget *child = gtk_widget_get_first_child (get_child (window, "legend_box"));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      /* flow box child > box > swatch, label */
      GtkWidget *label = gtk_widget_get_last_child (gtk_widget_get_first_child (child));

      g_assert_true (GTK_IS_LABEL (label));
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
    }
}

/* At 1280×800 every built-in lesson's views are drawn whole: the storage
 * pane as tall as its cells, the grid below it unclipped, the legend and
 * the headers uncut. */
static void
test_nothing_clipped (void)
{
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      LtViewerWindow *window = open_window (names[i]);
      LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);

      for (guint v = 0; v < lt_viewer_lesson_get_n_views (lesson); v++)
        {
          LtViewerView *view = lt_viewer_lesson_get_view (lesson, v);
          GtkLabel *name = get_child (window, "view_name_label");

          g_test_message ("lesson %s, view %u, %s", names[i], v, lt_viewer_view_get_name (view));
          select_view (window, v);
          wait_for_layout (window);

          g_assert_cmpfloat (hidden_extent (get_child (window, "storage_scroller"),
                                            GTK_ORIENTATION_VERTICAL), <=, 0.5);
          g_assert_cmpfloat (hidden_extent (get_child (window, "storage_scroller"),
                                            GTK_ORIENTATION_HORIZONTAL), <=, 0.5);
          assert_legend_whole (window);
          if (lt_viewer_view_get_error (view) != NULL)
            continue;
          g_assert_cmpfloat (hidden_extent (get_child (window, "grid_scroller"),
                                            GTK_ORIENTATION_VERTICAL), <=, 0.5);
          g_assert_cmpfloat (hidden_extent (get_child (window, "grid_scroller"),
                                            GTK_ORIENTATION_HORIZONTAL), <=, 0.5);
          g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (name)));
          g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (name)), >=, 1);
        }
      close_window (window);
    }
}

/* A storage far taller than the window leaves the selected view the room
 * it needs, and scrolls; a long view name wraps rather than being cut. */
static void
test_large_storage_layout (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  const gint64 shape[] = { 1000, 1000 };
  g_autoptr (GError) error = NULL;
  const char *name = "every 200th row and column, t[::200, ::200], of a million cells";
  LtViewerView *view;
  GtkPaned *paned = get_child (window, "drawing_paned");
  int height;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  view = lt_viewer_lesson_add_view (lesson, name, NULL, "t[::200, ::200]", &error);
  g_assert_no_error (error);
  lt_viewer_lesson_set_selected (lesson, view);
  wait_for_layout (window);

  /* The storage scrolls, within its share, under an overview of all of
   * it; the 5×5 grid is whole. */
  height = gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_true (gtk_widget_get_mapped (get_child (window, "storage_overview")));
  g_assert_cmpint (gtk_widget_get_height (get_child (window, "storage_overview")), >, 0);
  g_assert_cmpfloat (hidden_extent (get_child (window, "storage_scroller"),
                                    GTK_ORIENTATION_VERTICAL), >, 1000.0);
  g_assert_cmpint (gtk_paned_get_position (paned), >=, MIN (160, height / 4));
  g_assert_cmpfloat (hidden_extent (get_child (window, "grid_scroller"),
                                    GTK_ORIENTATION_VERTICAL), <=, 0.5);
  g_assert_false (pango_layout_is_ellipsized (
    gtk_label_get_layout (get_child (window, "view_name_label"))));
  g_assert_cmpstr (label_text (get_child (window, "view_name_label")), ==, name);

  /* Back to six cells: the storage pane shrinks to them. */
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, (gint64[]) { 2, 3 }, 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  wait_for_layout (window);
  g_assert_cmpfloat (hidden_extent (get_child (window, "storage_scroller"),
                                    GTK_ORIENTATION_VERTICAL), <=, 0.5);
  g_assert_cmpint (gtk_paned_get_position (paned), <, height / 2);
  g_assert_false (gtk_widget_get_visible (get_child (window, "storage_overview")));

  close_window (window);
}

static void
test_invalid_expression (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 2);
  LtViewerViewRow *row = get_row (window, 2);
  GtkEntry *entry = get_row_child (row, "expression_entry");
  GtkLabel *error_label = get_row_child (row, "error_label");
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  const gint64 *indices;
  int width, height, width_after, height_after;
  gsize n;

  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.t()");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  before = download_strip (window, &width, &height);

  /* points.t() is not contiguous: view() cannot flatten it. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "t.t().view(6)");
  g_signal_emit_by_name (entry, "activate");

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_nonnull (strstr (label_text (error_label), "view(6)"));
  g_assert_nonnull (strstr (label_text (error_label), "reshape()"));
  g_assert_cmpstr (label_text (error_label), ==, lt_viewer_view_get_error (view));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "t.t().view(6)");

  /* The last valid state stays: points.t() reaches storage 0, 2, 4, 1, 3, 5. */
  indices = lt_viewer_view_get_storage_indices (view, &n);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpint (indices[0], ==, 0);
  g_assert_cmpint (indices[1], ==, 2);
  g_assert_cmpint (indices[2], ==, 4);
  g_assert_cmpint (indices[3], ==, 1);
  g_assert_cmpint (indices[4], ==, 3);
  g_assert_cmpint (indices[5], ==, 5);
  after = download_strip (window, &width_after, &height_after);
  g_assert_cmpint (width_after, ==, width);
  g_assert_cmpint (height_after, ==, height);
  g_assert_true (g_bytes_equal (before, after));

  /* A syntax error names its column. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "t.t(");
  g_signal_emit_by_name (entry, "activate");
  g_assert_nonnull (strstr (label_text (error_label), "column"));

  /* A valid expression clears the error. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "t.t().contiguous().view(6)");
  g_signal_emit_by_name (entry, "activate");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_null (lt_viewer_view_get_error (view));

  close_window (window);
}

static void
test_layout_spins (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 1);
  LtViewerViewRow *row = get_row (window, 1);
  GtkGrid *grid = get_row_child (row, "layout_grid");
  GtkLabel *error_label = get_row_child (row, "error_label");
  GtkSpinButton *size, *stride, *offset;
  const gint64 *indices;
  gsize n;

  /* points[1]: a header line, dim 0 (size 2, stride 1), then the offset 2. */
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t[1]");
  size = GTK_SPIN_BUTTON (gtk_grid_get_child_at (grid, 1, 1));
  stride = GTK_SPIN_BUTTON (gtk_grid_get_child_at (grid, 2, 1));
  offset = GTK_SPIN_BUTTON (gtk_grid_get_child_at (grid, 1, 2));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (size), ==, 2);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (stride), ==, 1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (offset), ==, 2);

  /* Moving the offset to 4 makes it points[2], as an as_strided() view. */
  gtk_spin_button_set_value (offset, 4);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((2,), (1,), 4)");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (get_row_child (row, "expression_entry"))),
                   ==, "t.as_strided((2,), (1,), 4)");
  indices = lt_viewer_view_get_storage_indices (view, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (indices[0], ==, 4);
  g_assert_cmpint (indices[1], ==, 5);

  /* Offset 5 would reach cell 6 of a storage of 6: refused, and said. */
  gtk_spin_button_set_value (offset, 5);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_cmpstr (label_text (error_label), !=, "");
  indices = lt_viewer_view_get_storage_indices (view, &n);
  g_assert_cmpint (indices[0], ==, 4);
  g_assert_cmpint (indices[1], ==, 5);

  /* Stride 2 from offset 0: cells 0 and 2, the first column. */
  gtk_spin_button_set_value (offset, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  gtk_spin_button_set_value (stride, 2);
  indices = lt_viewer_view_get_storage_indices (view, &n);
  g_assert_cmpint (indices[0], ==, 0);
  g_assert_cmpint (indices[1], ==, 2);

  close_window (window);
}

/* A wheel step over @widget, its controllers run as GTK runs them:
 * capture, target, then bubble phase, until one handles it. */
static void
scroll_over (GtkWidget *widget,
             double     dy)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  const GtkPropagationPhase phases[] = { GTK_PHASE_CAPTURE, GTK_PHASE_TARGET, GTK_PHASE_BUBBLE };

  for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);
        gboolean handled = FALSE;

        if (!GTK_IS_EVENT_CONTROLLER_SCROLL (controller)
            || gtk_event_controller_get_propagation_phase (controller) != phases[p])
          continue;
        g_signal_emit_by_name (controller, "scroll", 0.0, dy, &handled);
        if (handled)
          return;
      }
}

/* The wheel over a spin button the pointer only passes edits nothing
 * (points[1] once became t.as_strided((1,), (1,), 2) that way); with the
 * focus in it, it steps the value. */
static void
test_wheel_over_spins (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 1);
  LtViewerViewRow *row = get_row (window, 1);
  GtkGrid *grid = get_row_child (row, "layout_grid");
  GtkWidget *size = gtk_grid_get_child_at (grid, 1, 1);

  gtk_widget_grab_focus (GTK_WIDGET (get_child (window, "views_list")));
  scroll_over (size, 1);
  scroll_over (size, -1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (size)), ==, 2);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t[1]");

  /* (Up, a negative dy, steps up.) */
  g_assert_true (gtk_widget_grab_focus (size));
  scroll_over (size, -1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (size)), ==, 3);
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t.as_strided((3,), (1,), 2)");

  close_window (window);
}

/* The label of legend entry @index. */
static GtkWidget *
legend_label (LtViewerWindow *window,
              int             index)
{
  GtkFlowBoxChild *child = gtk_flow_box_get_child_at_index (get_child (window, "legend_box"),
                                                            index);
  GtkWidget *box;

  if (child == NULL)
    return NULL;
  box = gtk_flow_box_child_get_child (child);
  return gtk_widget_get_last_child (box);
}

/* The legend names every view beside its swatch, the selected one in bold,
 * and follows the views. */
static void
test_legend (void)
{
  g_autoptr (GError) error = NULL;
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  guint n = lt_viewer_lesson_get_n_views (lesson);

  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (label_text (legend_label (window, i)), ==,
                     lt_viewer_view_get_name (lt_viewer_lesson_get_view (lesson, i)));
  g_assert_null (legend_label (window, n));

  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 1));
  g_assert_true (gtk_widget_has_css_class (legend_label (window, 1), "heading"));
  g_assert_true (gtk_widget_has_css_class (legend_label (window, 0), "dim-label"));

  g_assert_nonnull (lt_viewer_lesson_add_view (lesson, "rows", NULL, "t[::2]", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (label_text (legend_label (window, n)), ==, "rows");
  lt_viewer_view_set_name (lt_viewer_lesson_get_view (lesson, n), "even rows");
  g_assert_cmpstr (label_text (legend_label (window, n)), ==, "even rows");

  close_window (window);
}

/* A lesson's CellsPerRow and Zoom hold while it is open, and do not become
 * the user's setting; a lesson without them gets the setting back. */
static void
test_lesson_geometry (void)
{
  g_autoptr (GError) error = NULL;
  GSettings *settings = lt_viewer_application_get_settings (app);
  LtViewerWindow *window;
  LtViewerStorageStrip *strip;
  g_autoptr (LtViewerLesson) square = lt_viewer_lesson_load_from_data (
    "[Lesson]\nVersion=1\nTitle=Square\nContents=arange\nShape=4;4\nCellsPerRow=4\n"
    "Zoom=2\n[View 1]\nExpression=t.diagonal()\n", -1, "square.lesson", &error);

  g_assert_no_error (error);
  g_assert_nonnull (settings);
  g_settings_set_uint (settings, "wrap-width", 12);
  window = open_window ("points");
  strip = get_child (window, "storage_strip");
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 12);
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 1);

  lt_viewer_window_set_lesson (window, square, NULL, NULL);
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 4);
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 2);
  g_assert_cmpuint (g_settings_get_uint (settings, "wrap-width"), ==, 12);

  g_assert_true (lt_viewer_window_open_builtin (window, "points", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 12);
  /* Back in the settings' hands: changing it changes the strip. */
  g_settings_set_uint (settings, "wrap-width", 8);
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 8);

  close_window (window);
}

/* The "PyTorch only" preference: a menu item (the settings' action) that
 * every lesson the window shows follows. */
static void
test_pytorch_only (void)
{
  GSettings *settings = lt_viewer_application_get_settings (app);
  LtViewerWindow *window;
  LtViewerLesson *lesson;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (settings);
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "pytorch-only"));
  g_settings_set_boolean (settings, "pytorch-only", FALSE);
  window = open_window ("points");
  lesson = lt_viewer_window_get_lesson (window);
  g_assert_false (lt_viewer_lesson_get_pytorch_only (lesson));
  g_assert_nonnull (lt_viewer_lesson_add_view (lesson, "reversed", NULL, "t[::-1]", &error));
  g_assert_no_error (error);

  /* Turned on from the menu: the view fails as in PyTorch. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "pytorch-only", NULL);
  g_assert_true (g_settings_get_boolean (settings, "pytorch-only"));
  g_assert_true (lt_viewer_lesson_get_pytorch_only (lesson));
  g_assert_nonnull (strstr (lt_viewer_view_get_error (
                              lt_viewer_lesson_get_view (lesson,
                                                         lt_viewer_lesson_get_n_views (lesson) - 1)),
                            "step must be greater than zero"));

  /* A lesson opened then follows it too. */
  g_assert_true (lt_viewer_window_open_builtin (window, "expand", &error));
  g_assert_no_error (error);
  g_assert_true (lt_viewer_lesson_get_pytorch_only (lt_viewer_window_get_lesson (window)));

  g_settings_set_boolean (settings, "pytorch-only", FALSE);
  g_assert_false (lt_viewer_lesson_get_pytorch_only (lt_viewer_window_get_lesson (window)));
  close_window (window);
}

/* The post's failing view(4, 2, 3) is taught from the lesson: the view
 * shows the library's error in place of its grid, and the transpose's
 * view() badge tries (4, 2, 3), as the lesson says. An error typed in live
 * shows the same way. */
static void
test_failing_views (void)
{
  LtViewerWindow *window = open_window ("view-vs-reshape");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *transpose = lt_viewer_lesson_get_view (lesson, 2);
  LtViewerView *failing = lt_viewer_lesson_get_view (lesson, 3);
  GtkStack *stack = get_child (window, "view_stack");
  AdwStatusPage *card = get_child (window, "view_error_page");

  g_assert_true (lt_viewer_view_get_expect_error (failing));
  lt_viewer_lesson_set_selected (lesson, failing);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  g_assert_nonnull (strstr (adw_status_page_get_description (card),
                            "cannot be viewed as (4, 2, 3) without copying"));

  lt_viewer_lesson_set_selected (lesson, transpose);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "view");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (get_child (window, "view_as_entry"))),
                   ==, "4, 2, 3");
  g_assert_cmpstr (label_text (get_child (window, "view_as_badge")), ==, "view() not possible");

  g_assert_false (lt_viewer_view_set_expression (transpose, "t.transpose(1, 0).view(24, 2)",
                                                 NULL));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  g_assert_true (lt_viewer_view_set_expression (transpose, "t.transpose(1, 0)", NULL));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "view");

  close_window (window);
}

/* A lesson without views says how to add one, not to select one. */
static void
test_empty_lesson_state (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  AdwStatusPage *page = get_child (window, "empty_page");

  lt_viewer_lesson_set_selected (lesson, NULL);
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No View Selected");
  while (lt_viewer_lesson_get_n_views (lesson) > 0)
    lt_viewer_lesson_remove_view (lesson, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (get_child (window, "view_stack")), ==,
                   "empty");
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No Views Yet");

  close_window (window);
}

/* A badge says where PyTorch would not make the view, and only there. */
static void
test_pytorch_badge (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 1);
  GtkWidget *badge = get_child (window, "pytorch_badge");

  lt_viewer_lesson_set_selected (lesson, view);
  g_assert_false (gtk_widget_get_visible (badge));
  g_assert_true (lt_viewer_view_set_expression (view, "t.flip(0)", NULL));
  g_assert_true (gtk_widget_get_visible (badge));
  g_assert_cmpstr (label_text (badge), ==, "Not in PyTorch");
  g_assert_nonnull (strstr (label_text (get_child (window, "pytorch_reason")),
                            "dim 0 has stride -2"));
  g_assert_true (lt_viewer_view_set_expression (view, "t[1]", NULL));
  g_assert_false (gtk_widget_get_visible (badge));

  close_window (window);
}

static void
test_malformed_file (void)
{
  static const char *const files[] = {
    /* A typo in a key */
    "[Lesson]\nVersion=1\nTitel=Typo\nContents=arange\nShape=3\n",
    /* Not a key file */
    "this is not a lesson\n",
    /* Binary data */
    "[Lesson]\nVersion=1\0\xff\xfe",
    /* An expression that does not evaluate */
    "[Lesson]\nVersion=1\nTitle=Bad view\nContents=arange\nShape=3\n\n"
    "[View 1]\nExpression=t.tt()\n",
  };
  static const gsize lengths[] = { 0, 0, 21, 0 };
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (GFile) file = temp_file ("broken.lesson");
      g_autoptr (GError) error = NULL;
      AdwMessageDialog *dialog;

      g_file_replace_contents (file, files[i], lengths[i] > 0 ? lengths[i] : strlen (files[i]),
                               NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
      g_assert_no_error (error);

      g_assert_null (find_message_dialog (window));
      g_assert_false (lt_viewer_window_open_file (window, file));

      dialog = find_message_dialog (window);
      g_assert_nonnull (dialog);
      g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Could Not Open the Lesson");
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "broken.lesson"));
      viewer_test_wait_for_frame (GTK_WIDGET (dialog));

      /* The lesson shown stays. */
      g_assert_true (lt_viewer_window_get_lesson (window) == lesson);
      g_assert_cmpstr (lt_viewer_window_get_builtin (window), ==, "points");

      /* Closing it, as Escape does, answers "close". */
      gtk_window_close (GTK_WINDOW (dialog));
      viewer_test_spin_until_idle ();
      g_assert_null (find_message_dialog (window));
      delete_temp_file (file);
    }

  close_window (window);
}

static void
test_save_open (void)
{
  g_autoptr (GFile) file = temp_file ("points-and-more.lesson");
  g_autoptr (GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *opened = NULL;
  LtViewerWindow *window = open_window ("points");
  LtViewerWindow *other;
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view;

  view = lt_viewer_lesson_add_view (lesson, "second column", "#e01b24", "t[:, 1]", &error);
  g_assert_no_error (error);
  lt_viewer_lesson_set_notes (lesson, "Notes with a line break:\nthe second line.");

  /* A view in error is saved as one meant to fail, and opens showing it. */
  g_assert_false (lt_viewer_view_set_expression (view, "t[:, 5]", NULL));
  g_assert_true (lt_viewer_window_save_to_file (window, file, &error));
  g_assert_no_error (error);
  {
    g_autoptr (LtViewerLesson) failing = lt_viewer_lesson_load_from_file (file, &error);
    LtViewerView *reopened;

    g_assert_no_error (error);
    reopened = lt_viewer_lesson_get_view (failing, 4);
    g_assert_true (lt_viewer_view_get_expect_error (reopened));
    g_assert_null (lt_viewer_view_get_tensor (reopened));
    g_assert_nonnull (strstr (lt_viewer_view_get_error (reopened), "index 5"));
  }
  g_assert_true (lt_viewer_view_set_expression (view, "t[:, 1]", NULL));

  g_assert_true (lt_viewer_window_save_to_file (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (lt_viewer_window_get_file (window) == file);
  g_assert_null (lt_viewer_window_get_builtin (window));
  g_assert_cmpstr (adw_window_title_get_subtitle (get_child (window, "window_title")), ==,
                   "points-and-more.lesson");

  other = lt_viewer_window_new (app);
  g_assert_true (lt_viewer_window_open_file (other, file));
  g_assert_null (find_message_dialog (other));
  gtk_window_present (GTK_WINDOW (other));
  viewer_test_wait_for_frame (GTK_WIDGET (other));

  saved = lt_viewer_lesson_save_to_data (lesson, NULL);
  opened = lt_viewer_lesson_save_to_data (lt_viewer_window_get_lesson (other), NULL);
  g_assert_cmpstr (opened, ==, saved);
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lt_viewer_window_get_lesson (other)), ==, 5);
  view = lt_viewer_lesson_get_view (lt_viewer_window_get_lesson (other), 4);
  g_assert_cmpstr (lt_viewer_view_get_name (view), ==, "second column");
  g_assert_cmpstr (lt_viewer_view_get_color (view), ==, "#e01b24");
  g_assert_cmpstr (lt_viewer_view_get_expression (view), ==, "t[:, 1]");
  g_assert_cmpstr (label_text (get_child (other, "notes_label")), ==,
                   "Notes with a line break:\nthe second line.");

  close_window (other);
  close_window (window);
  delete_temp_file (file);
}

static const char *
window_title (LtViewerWindow *window)
{
  return adw_window_title_get_title (get_child (window, "window_title"));
}

/* Edits mark the title; undoing them, or saving, clears the mark; closing
 * with unsaved changes asks first. Selecting and stepping are not edits. */
static void
test_unsaved_changes (void)
{
  g_autoptr (GFile) file = temp_file ("modified.lesson");
  g_autoptr (GError) error = NULL;
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 1);
  g_autofree char *title = g_strdup (lt_viewer_lesson_get_title (lesson));
  AdwMessageDialog *dialog;
  gboolean destroyed = FALSE;

  viewer_test_spin_until_idle ();
  g_assert_cmpstr (window_title (window), ==, title);

  lt_viewer_lesson_set_selected (lesson, view);
  lt_viewer_view_set_cursor (view, 1);
  viewer_test_spin_until_idle ();
  g_assert_cmpstr (window_title (window), ==, title);

  lt_viewer_lesson_set_title (lesson, "Changed");
  viewer_test_spin_until_idle ();
  g_assert_cmpstr (window_title (window), ==, "• Changed");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Changed");
  lt_viewer_lesson_set_title (lesson, title);
  viewer_test_spin_until_idle ();
  g_assert_cmpstr (window_title (window), ==, title);

  /* A rename is a change too (the lesson's "changed" leaves names out). */
  lt_viewer_view_set_name (view, "renamed");
  viewer_test_spin_until_idle ();
  g_assert_true (g_str_has_prefix (window_title (window), "• "));
  lt_viewer_view_set_name (view, "points[1]");
  viewer_test_spin_until_idle ();
  g_assert_cmpstr (window_title (window), ==, title);

  /* Saving clears the mark. */
  g_assert_true (lt_viewer_view_set_expression (view, "t[2]", NULL));
  viewer_test_spin_until_idle ();
  g_assert_true (g_str_has_prefix (window_title (window), "• "));
  g_assert_true (lt_viewer_window_save_to_file (window, file, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (window_title (window), ==, title);

  /* Closing with changes asks; Cancel keeps the window, Discard closes. */
  lt_viewer_lesson_set_notes (lesson, "New notes.");
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (viewer_test_set_flag), &destroyed);
  gtk_window_close (GTK_WINDOW (window));
  viewer_test_spin_until_idle ();
  g_assert_false (destroyed);
  dialog = find_message_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Save Changes?");
  /* (A button answers, then closes the dialog.) */
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  viewer_test_spin_until_idle ();
  g_assert_null (find_message_dialog (window));
  g_assert_false (destroyed);

  gtk_window_close (GTK_WINDOW (window));
  dialog = find_message_dialog (window);
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "discard");
  gtk_window_close (GTK_WINDOW (dialog));
  viewer_test_spin_until_idle ();
  g_assert_true (destroyed);
  delete_temp_file (file);
}

/* Save from the question writes the file and closes. */
static void
test_save_changes_on_close (void)
{
  g_autoptr (GFile) file = temp_file ("saved-on-close.lesson");
  g_autoptr (GError) error = NULL;
  g_autoptr (LtViewerLesson) reopened = NULL;
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  AdwMessageDialog *dialog;
  gboolean destroyed = FALSE;

  g_assert_true (lt_viewer_window_save_to_file (window, file, &error));
  lt_viewer_lesson_set_notes (lesson, "Saved on close.");
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (viewer_test_set_flag), &destroyed);
  gtk_window_close (GTK_WINDOW (window));
  dialog = find_message_dialog (window);
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "save");
  gtk_window_close (GTK_WINDOW (dialog));
  viewer_test_spin_until_idle ();
  g_assert_true (destroyed);

  reopened = lt_viewer_lesson_load_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lt_viewer_lesson_get_notes (reopened), ==, "Saved on close.");
  delete_temp_file (file);
}

static void
test_export (void)
{
  LtViewerWindow *window = open_window ("expand");
  const char *names[] = { "storage.png", "storage.svg", "view.png", "view.svg" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GFile) file = temp_file (names[i]);
      g_autoptr (GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (lt_viewer_window_export (window, i < 2 ? LT_VIEWER_DRAWING_STORAGE
                                                            : LT_VIEWER_DRAWING_VIEW,
                                              file, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, &error));
      g_assert_no_error (error);
      if (g_str_has_suffix (names[i], ".png"))
        g_assert_cmpint (memcmp (contents, "\x89PNG", 4), ==, 0);
      else
        g_assert_nonnull (strstr (contents, "<svg"));
      delete_temp_file (file);
    }

  /* The figure, at the window's cells per row: vector SVG and PDF with the
   * legend, a PNG. */
  {
    LtViewerStorageStrip *strip = get_child (window, "storage_strip");
    const char *figures[] = { "figure.svg", "figure.pdf", "figure.png", "figure.html" };

    lt_viewer_storage_strip_set_wrap_width (strip, 2);
    for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
      {
        g_autoptr (GFile) file = temp_file (figures[i]);
        g_autoptr (GError) error = NULL;
        g_autofree char *contents = NULL;
        gsize length;

        g_assert_true (lt_viewer_window_export (window, LT_VIEWER_DRAWING_FIGURE, file, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, &error));
        if (i == 0)
          {
            LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
            g_autofree char *legend = g_strdup_printf (
              ">%s</text>", lt_viewer_view_get_name (lt_viewer_lesson_get_view (lesson, 0)));

            g_assert_nonnull (strstr (contents, "<svg"));
            g_assert_null (strstr (contents, "<image"));
            g_assert_nonnull (strstr (contents, legend));
          }
        else if (i == 1)
          g_assert_cmpint (memcmp (contents, "%PDF", 4), ==, 0);
        else if (i == 2)
          g_assert_cmpint (memcmp (contents, "\x89PNG", 4), ==, 0);
        else
          g_assert_true (g_str_has_prefix (contents, "<!DOCTYPE html>"));
        delete_temp_file (file);
      }

    /* The storage alone is no page. */
    {
      g_autoptr (GFile) file = temp_file ("storage.html");
      g_autoptr (GError) error = NULL;

      g_assert_false (lt_viewer_window_export (window, LT_VIEWER_DRAWING_STORAGE, file, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    }

    /* Another extension is refused, and says which to use. */
    {
      g_autoptr (GFile) file = temp_file ("figure.gif");
      g_autoptr (GError) error = NULL;

      g_assert_false (lt_viewer_window_export (window, LT_VIEWER_DRAWING_FIGURE, file, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    }
  }

  close_window (window);
}

static void
test_actions (void)
{
  static const struct
  {
    const char *action;
    const char *accel;
  } accels[] = {
    { "win.open", "<Control>o" },
    { "win.save", "<Control>s" },
    { "win.save-as", "<Shift><Control>s" },
    { "win.export", "<Control>e" },
    { "win.add-view", "<Control>n" },
    { "win.zoom-in", "<Control>plus" },
    { "win.zoom-out", "<Control>minus" },
    { "win.zoom-reset", "<Control>0" },
    { "app.shortcuts", "<Control>question" },
    { "app.shortcuts", "F1" },
    { "app.quit", "<Control>q" },
  };
  static const struct
  {
    const char *trigger;
    const char *action;
  } keys[] = {
    { "space", "action(win.play-pause)" },
    { "Left", "action(win.step-back)" },
    { "Right", "action(win.step-forward)" },
  };
  LtViewerWindow *window = open_window ("points");
  g_autoptr (GListModel) controllers = NULL;
  guint found = 0;

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    {
      g_auto (GStrv) set = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                 accels[i].action);
      const char *name = strchr (accels[i].action, '.') + 1;
      GActionGroup *group = g_str_has_prefix (accels[i].action, "win.") ? G_ACTION_GROUP (window)
                                                                         : G_ACTION_GROUP (app);

      g_test_message ("%s", accels[i].action);
      g_assert_true (g_action_group_has_action (group, name));
      g_assert_true (g_strv_contains ((const char * const *) set, accels[i].accel));
    }

  /* Space, Left and Right play and step outside text fields: a shortcut
   * controller on the window's content, not accels that would take the keys
   * from the entries. */
  controllers = gtk_widget_observe_controllers (get_child (window, "main_box"));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      g_assert_cmpint (gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)),
                       ==, GTK_PHASE_BUBBLE);
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          g_autofree char *action = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));

          for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
            if (g_str_equal (trigger, keys[k].trigger))
              {
                g_assert_cmpstr (action, ==, keys[k].action);
                found++;
              }
        }
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (keys));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "play-pause"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "step-back"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "step-forward"));

  close_window (window);
}

static gboolean
is_playing (LtViewerWindow *window)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window),
                                                                "play-pause");

  return g_variant_get_boolean (state);
}

static void
test_order_stepper (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 2);
  gboolean timed_out = FALSE;
  guint timeout;

  /* points.t(): sizes (2, 3), strides (1, 2). */
  select_view (window, 2);
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, -1);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-back"));

  activate (window, "step-forward");
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 0);
  g_assert_cmpstr (label_text (get_child (window, "order_label")), ==,
                   "element 0 → storage 0");
  activate (window, "step-forward");
  g_assert_cmpstr (label_text (get_child (window, "order_label")), ==,
                   "element 1 → storage 2 (jump +2)");
  g_assert_cmpstr (label_text (get_child (window, "address_label")), ==, "0 + 1*0 + 2*1 = 2");
  activate (window, "step-forward");
  activate (window, "step-forward");
  g_assert_cmpstr (label_text (get_child (window, "order_label")), ==,
                   "element 3 → storage 1 (jump -3)");
  activate (window, "step-back");
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 2);
  g_assert_cmpstr (label_text (get_child (window, "order_label")), ==,
                   "element 2 → storage 4 (jump +2)");

  /* Playing fast runs to the last element and stops there. */
  gtk_adjustment_set_value (get_child (window, "speed_adjustment"), 20);
  activate (window, "play-pause");
  g_assert_true (is_playing (window));
  timeout = g_timeout_add_seconds (10, viewer_test_set_flag, &timed_out);
  while (lt_viewer_view_get_cursor (view) < 5 && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  viewer_test_spin_until_idle ();
  g_source_remove (timeout);
  g_assert_cmpstr (label_text (get_child (window, "order_label")), ==,
                   "element 5 → storage 5 (jump +2)");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step-forward"));

  /* Playing again starts over; pausing stops. */
  activate (window, "play-pause");
  g_assert_cmpint (lt_viewer_view_get_cursor (view), ==, 0);
  activate (window, "play-pause");
  g_assert_false (is_playing (window));

  close_window (window);
}

static void
test_badges (void)
{
  LtViewerWindow *window = open_window ("points");
  GtkEntry *shape = get_child (window, "view_as_entry");

  /* points: contiguous, no aliasing, view(-1) possible. */
  g_assert_cmpstr (label_text (get_child (window, "contiguous_badge")), ==, "Contiguous");
  g_assert_cmpstr (label_text (get_child (window, "aliasing_badge")), ==, "No aliasing");
  g_assert_cmpstr (label_text (get_child (window, "view_as_badge")), ==, "view() possible");

  /* points.t(): dim 1 has stride 2 where row-major order needs 1. */
  select_view (window, 2);
  g_assert_cmpstr (label_text (get_child (window, "contiguous_badge")), ==, "Not contiguous");
  g_assert_cmpstr (label_text (get_child (window, "contiguous_reason")), ==,
                   "Not contiguous: dim 0 has stride 1, but row-major order needs 3.");
  gtk_editable_set_text (GTK_EDITABLE (shape), "6");
  g_assert_cmpstr (label_text (get_child (window, "view_as_badge")), ==, "view() not possible");
  g_assert_true (gtk_widget_has_css_class (get_child (window, "view_as_badge"), "error"));
  gtk_editable_set_text (GTK_EDITABLE (shape), "2, 3");
  g_assert_cmpstr (label_text (get_child (window, "view_as_badge")), ==, "view() possible");
  gtk_editable_set_text (GTK_EDITABLE (shape), "2, x");
  g_assert_cmpstr (label_text (get_child (window, "view_as_badge")), ==, "Not a shape");

  close_window (window);

  /* expand: stride 0 reaches a cell many times. */
  window = open_window ("expand");
  select_view (window, 1);
  g_assert_cmpstr (label_text (get_child (window, "aliasing_badge")), ==, "Aliases itself");
  close_window (window);

  /* A view that has no tensor over a new base (points[1] of one element)
   * has no badges to show; its row says why. */
  window = open_window ("points");
  {
    LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
    gint64 one = 1;
    g_autoptr (GError) error = NULL;
    g_autoptr (GFile) file = temp_file ("no-tensor.png");

    select_view (window, 1);
    g_assert_true (gtk_widget_get_visible (get_child (window, "badges_grid")));
    g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, &one, 1,
                                              LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
    g_assert_no_error (error);
    g_assert_null (lt_viewer_view_get_tensor (lt_viewer_lesson_get_view (lesson, 1)));
    g_assert_false (gtk_widget_get_visible (get_child (window, "badges_grid")));

    /* Exporting it says what is wrong rather than writing an empty image. */
    g_assert_false (lt_viewer_window_export (window, LT_VIEWER_DRAWING_VIEW, file, &error));
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_clear_error (&error);
    g_assert_false (g_file_query_exists (file, NULL));
    delete_temp_file (file);

    /* Back on a base where it evaluates: the badges again. */
    select_view (window, 0);
    select_view (window, 1);
    g_assert_false (gtk_widget_get_visible (get_child (window, "badges_grid")));
    lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, (gint64[]) { 3, 2 }, 2,
                               LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error);
    g_assert_no_error (error);
    g_assert_true (gtk_widget_get_visible (get_child (window, "badges_grid")));
    g_assert_cmpstr (label_text (get_child (window, "contiguous_badge")), ==, "Contiguous");
  }
  close_window (window);
}

/* A copy's layout is over a storage of its own: editing it would make it
 * an as_strided view of t, another thing altogether. */
static void
test_copy_layout (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  g_autoptr (GError) error = NULL;
  LtViewerViewRow *row;

  g_assert_nonnull (lt_viewer_lesson_add_view (lesson, "copy", NULL, "t.t().contiguous()", &error));
  g_assert_no_error (error);
  row = get_row (window, lt_viewer_lesson_get_n_views (lesson) - 1);
  g_assert_true (gtk_widget_get_visible (get_row_child (row, "copy_label")));
  g_assert_false (gtk_widget_get_sensitive (get_row_child (row, "layout_grid")));

  /* The same row, as a view again. */
  g_assert_true (lt_viewer_view_set_expression (lt_viewer_view_row_get_view (row), "t.t()",
                                                &error));
  g_assert_no_error (error);
  g_assert_false (gtk_widget_get_visible (get_row_child (row, "copy_label")));
  g_assert_true (gtk_widget_get_sensitive (get_row_child (row, "layout_grid")));

  close_window (window);
}

/* A copy is drawn with a storage of its own, labelled, which the grid's
 * storage indices refer to; its step shows there too. A view hides it. */
static void
test_copy_strip (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  GtkWidget *copy_box = get_child (window, "copy_box");
  LtViewerStorageStrip *copy_strip = get_child (window, "copy_strip");
  LtViewerStorageStrip *strip = get_child (window, "storage_strip");
  LtViewerLesson *copy_lesson;
  LtViewerView *copy = NULL;
  LtViewerView *copy_view;
  gsize n_cells;
  const guint32 *reached;
  char value[64];

  for (guint i = 0; i < lt_viewer_lesson_get_n_views (lesson); i++)
    if (g_strcmp0 (lt_viewer_view_get_expression (lt_viewer_lesson_get_view (lesson, i)),
                   "t.t().contiguous()") == 0)
      copy = lt_viewer_lesson_get_view (lesson, i);
  g_assert_nonnull (copy);

  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 0));
  g_assert_false (gtk_widget_get_visible (copy_box));

  lt_viewer_lesson_set_selected (lesson, copy);
  viewer_test_wait_for_frame (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_visible (copy_box));
  g_assert_cmpstr (gtk_label_get_text (get_child (window, "copy_label")), ==,
                   "Storage of the copy points.t().contiguous(): 6 float32 elements");
  copy_lesson = lt_viewer_storage_strip_get_lesson (copy_strip);
  g_assert_nonnull (copy_lesson);
  /* The copy's storage, row by row: its cell 1 holds 5.0, as the grid's
   * element [0, 1] says; every cell reached by the copy's one view. */
  g_assert_true (lt_tensor_get_storage (lt_viewer_lesson_get_base (copy_lesson))
                 == lt_tensor_get_storage (lt_viewer_view_get_tensor (copy)));
  lt_viewer_format_value (lt_tensor_get_storage (lt_viewer_lesson_get_base (copy_lesson)), 1,
                          value, sizeof value);
  g_assert_cmpstr (value, ==, "5.0");
  reached = lt_viewer_lesson_get_cell_views (copy_lesson, &n_cells);
  g_assert_cmpuint (n_cells, ==, 6);
  for (gsize i = 0; i < n_cells; i++)
    g_assert_cmpuint (reached[i], ==, 1);
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (copy_strip), ==,
                    lt_viewer_storage_strip_get_wrap_width (strip));

  /* Stepping the copy steps its strip. */
  copy_view = lt_viewer_lesson_get_view (copy_lesson, 0);
  lt_viewer_view_set_cursor (copy, 4);
  g_assert_cmpint (lt_viewer_view_get_cursor (copy_view), ==, 4);

  /* Another view: no copy strip. */
  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 1));
  g_assert_false (gtk_widget_get_visible (copy_box));
  g_assert_null (lt_viewer_storage_strip_get_lesson (copy_strip));

  close_window (window);
}

/* Before a lesson is shown there is nothing to save, export or add to. */
static void
test_no_lesson (void)
{
  LtViewerWindow *window = lt_viewer_window_new (app);
  g_autoptr (GError) error = NULL;
  const char *const actions[] = { "save", "save-as", "export", "add-view" };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), actions[i]));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "open"));
  /* Activating a disabled action does nothing (it crashed before). */
  g_action_group_activate_action (G_ACTION_GROUP (window), "add-view", NULL);

  g_assert_true (lt_viewer_window_open_builtin (window, "points", &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), actions[i]));

  close_window (window);
}

static void
test_base_editor (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  AdwComboRow *contents = get_child (window, "contents_row");
  AdwEntryRow *shape = get_child (window, "shape_row");
  GtkLabel *error_label = get_child (window, "base_error_label");
  LtTensor *base;

  g_assert_cmpint (adw_combo_row_get_selected (contents), ==, LT_VIEWER_CONTENTS_LITERAL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (shape)));

  /* arange over the shape shown, (3, 2), then another shape. */
  adw_combo_row_set_selected (contents, LT_VIEWER_CONTENTS_ARANGE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (shape)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (shape)), ==, "3, 2");
  g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_ARANGE);
  gtk_editable_set_text (GTK_EDITABLE (shape), "(4, 4)");
  g_signal_emit_by_name (shape, "apply");
  base = lt_viewer_lesson_get_base (lesson);
  g_assert_cmpint (lt_tensor_get_numel (base), ==, 16);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (shape)), ==, "4, 4");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));

  /* A bad shape is said, and the base stays. */
  gtk_editable_set_text (GTK_EDITABLE (shape), "4, x");
  g_signal_emit_by_name (shape, "apply");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_nonnull (strstr (label_text (error_label), "4, x"));
  g_assert_true (lt_viewer_lesson_get_base (lesson) == base);

  /* Back to literal values: the current ones are offered. */
  gtk_editable_set_text (GTK_EDITABLE (get_child (window, "literal_row")), "");
  gtk_editable_set_text (GTK_EDITABLE (shape), "2, 2");
  g_signal_emit_by_name (shape, "apply");
  adw_combo_row_set_selected (contents, LT_VIEWER_CONTENTS_LITERAL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (get_child (window, "literal_row"))), ==,
                   "[[0.0, 1.0], [2.0, 3.0]]");
  g_assert_cmpint (lt_viewer_lesson_get_contents (lesson), ==, LT_VIEWER_CONTENTS_LITERAL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));

  /* Random values become a literal of the very same values: each with as
   * many digits as reading it back takes, not the 4 the cells show. */
  for (LtDType dtype = LT_DTYPE_FLOAT16; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    {
      g_autoptr (LtTensor) random = NULL;
      gint64 n;

      g_test_message ("%s", lt_dtype_get_name (dtype));
      adw_combo_row_set_selected (get_child (window, "dtype_row"), dtype);
      adw_combo_row_set_selected (contents, LT_VIEWER_CONTENTS_RANDOM);
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
      random = g_object_ref (lt_viewer_lesson_get_base (lesson));
      g_assert_cmpint (lt_tensor_get_dtype (random), ==, dtype);
      gtk_editable_set_text (GTK_EDITABLE (get_child (window, "literal_row")), "");
      adw_combo_row_set_selected (contents, LT_VIEWER_CONTENTS_LITERAL);
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error_label)));
      base = lt_viewer_lesson_get_base (lesson);
      g_assert_true (base != random);
      n = lt_storage_get_n_elements (lt_tensor_get_storage (base));
      g_assert_cmpint (n, ==, lt_storage_get_n_elements (lt_tensor_get_storage (random)));
      g_assert_cmpmem (lt_storage_get_data (lt_tensor_get_storage (base)),
                       n * lt_dtype_get_element_size (dtype),
                       lt_storage_get_data (lt_tensor_get_storage (random)),
                       n * lt_dtype_get_element_size (dtype));
    }

  close_window (window);
}

/* The storage summary under the strip, in words. */
static void
test_storage_summary (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  g_autoptr (GError) error = NULL;

  g_assert_cmpstr (label_text (get_child (window, "storage_summary_label")), ==,
                   "6 cells of float32, 4 bytes each");
  lt_viewer_lesson_set_base (lesson, LT_DTYPE_BOOL, (gint64[]) { 1 }, 1,
                             LT_VIEWER_CONTENTS_ZEROS, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (label_text (get_child (window, "storage_summary_label")), ==,
                   "1 cell of bool, 1 byte each");
  close_window (window);
}

static void
test_add_view (void)
{
  LtViewerWindow *window = open_window ("points");
  LtViewerLesson *lesson = lt_viewer_window_get_lesson (window);
  LtViewerViewRow *row;
  GtkWidget *focus;

  activate (window, "add-view");
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 5);
  g_assert_true (lt_viewer_lesson_get_selected (lesson) == lt_viewer_lesson_get_view (lesson, 4));
  row = get_row (window, 4);
  g_assert_cmpstr (lt_viewer_view_get_expression (lt_viewer_view_row_get_view (row)), ==, "t");

  /* The new view's expression has the focus, ready to be typed over. */
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, get_row_child (row, "expression_entry")));

  /* Removing it with its row's button. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.remove", NULL));
  g_assert_cmpuint (lt_viewer_lesson_get_n_views (lesson), ==, 4);
  g_assert_null (lt_viewer_lesson_get_selected (lesson));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (get_child (window, "view_stack")), ==,
                   "empty");

  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  /* Under xvfb-run there is no session bus for the accessibility bridge. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  /* The English texts and titles. */
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_unsetenv ("LANGUAGE");
  g_test_init (&argc, &argv, NULL);
  g_free (lt_viewer_application_init_i18n ());

  app = lt_viewer_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/viewer/window/builtin-lessons", test_builtin_lessons);
  g_test_add_func ("/viewer/window/nothing-clipped", test_nothing_clipped);
  g_test_add_func ("/viewer/window/large-storage-layout", test_large_storage_layout);
  g_test_add_func ("/viewer/window/invalid-expression", test_invalid_expression);
  g_test_add_func ("/viewer/window/layout-spins", test_layout_spins);
  g_test_add_func ("/viewer/window/wheel-over-spins", test_wheel_over_spins);
  g_test_add_func ("/viewer/window/legend", test_legend);
  g_test_add_func ("/viewer/window/lesson-geometry", test_lesson_geometry);
  g_test_add_func ("/viewer/window/pytorch-only", test_pytorch_only);
  g_test_add_func ("/viewer/window/failing-views", test_failing_views);
  g_test_add_func ("/viewer/window/empty-lesson-state", test_empty_lesson_state);
  g_test_add_func ("/viewer/window/pytorch-badge", test_pytorch_badge);
  g_test_add_func ("/viewer/window/malformed-file", test_malformed_file);
  g_test_add_func ("/viewer/window/save-open", test_save_open);
  g_test_add_func ("/viewer/window/unsaved-changes", test_unsaved_changes);
  g_test_add_func ("/viewer/window/save-changes-on-close", test_save_changes_on_close);
  g_test_add_func ("/viewer/window/export", test_export);
  g_test_add_func ("/viewer/window/actions", test_actions);
  g_test_add_func ("/viewer/window/order-stepper", test_order_stepper);
  g_test_add_func ("/viewer/window/badges", test_badges);
  g_test_add_func ("/viewer/window/base-editor", test_base_editor);
  g_test_add_func ("/viewer/window/add-view", test_add_view);
  g_test_add_func ("/viewer/window/copy-layout", test_copy_layout);
  g_test_add_func ("/viewer/window/copy-strip", test_copy_strip);
  g_test_add_func ("/viewer/window/no-lesson", test_no_lesson);
  g_test_add_func ("/viewer/window/storage-summary", test_storage_summary);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
