/* test-viewer-storage-strip.c: hit-testing, hovering and the cost of drawing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <gtk/gtk.h>

#include "viewer-test-utils.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-cell-painter.h"
#include "lt-viewer-storage-strip.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"

/* At zoom 1 a cell is 48 pixels with gaps of 4 and a margin of 8. */
#define CELL   48
#define PITCH  52
#define MARGIN 8

static LtViewerLesson *
new_points_lesson (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, NULL, 0,
                                            LT_VIEWER_CONTENTS_LITERAL, POINTS, 0, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&lesson);
}

static LtViewerLesson *
new_arange_lesson (gint64 n_cells)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, &n_cells, 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&lesson);
}

static void
add_view (LtViewerLesson *lesson,
          const char     *name,
          const char     *color,
          const char     *expression)
{
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (lt_viewer_lesson_add_view (lesson, name, color, expression, &error));
  g_assert_no_error (error);
}

/* A window with the strip in a scrolled window, shown. */
static GtkWidget *
show_strip (LtViewerLesson *lesson,
            int             width,
            int             height)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *strip = lt_viewer_storage_strip_new ();

  lt_viewer_storage_strip_set_lesson (LT_VIEWER_STORAGE_STRIP (strip), lesson);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), strip);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  viewer_test_wait_for_frame (strip);
  return strip;
}

static void
assert_cell_bounds (LtViewerStorageStrip *strip,
                    gint64                cell,
                    double                x,
                    double                y,
                    double                size)
{
  graphene_rect_t bounds;

  g_assert_true (lt_viewer_storage_strip_get_cell_bounds (strip, cell, &bounds));
  g_assert_cmpfloat_with_epsilon (bounds.origin.x, x, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.origin.y, y, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, size, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.size.height, size, 1e-3);
}

static void
test_hit_testing (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *widget = show_strip (lesson, 600, 400);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  graphene_rect_t bounds;

  /* Six cells in one row. */
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + 24), ==, 0);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + PITCH + 1, MARGIN), ==, 1);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 5 * PITCH + CELL - 1,
                                                    MARGIN + CELL - 1), ==, 5);
  /* The margin, a gap, beyond the last cell, below the row. */
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, 2, 2), ==, -1);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + CELL + 1, MARGIN + 24), ==, -1);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 6 * PITCH + 24, MARGIN + 24),
                   ==, -1);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + PITCH + 24), ==,
                   -1);
  assert_cell_bounds (strip, 3, MARGIN + 3 * PITCH, MARGIN, CELL);
  g_assert_false (lt_viewer_storage_strip_get_cell_bounds (strip, 6, &bounds));
  g_assert_false (lt_viewer_storage_strip_get_cell_bounds (strip, -1, &bounds));

  /* Two cells a row: cell 2 starts the second row, 5 ends the third. */
  lt_viewer_storage_strip_set_wrap_width (strip, 2);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + PITCH + 24), ==,
                   2);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + PITCH + 24,
                                                    MARGIN + 2 * PITCH + 24), ==, 5);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 2 * PITCH + 24, MARGIN + 24),
                   ==, -1);
  assert_cell_bounds (strip, 5, MARGIN + PITCH, MARGIN + 2 * PITCH, CELL);

  /* Zoom 2: cells of 96 with gaps of 8 and a margin of 16. */
  lt_viewer_storage_strip_set_zoom (strip, 2.0);
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 2.0);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, 16 + 104 + 95, 16 + 104), ==, 3);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, 16 + 104 + 97, 16 + 104), ==, -1);
  assert_cell_bounds (strip, 3, 16 + 104, 16 + 104, 96);

  /* The zoom and the wrap width stay in range. */
  lt_viewer_storage_strip_set_zoom (strip, 100);
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 4.0);
  lt_viewer_storage_strip_set_wrap_width (strip, 0);
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_hit_testing_scrolled (void)
{
  g_autoptr (LtViewerLesson) lesson = new_arange_lesson (1000);
  GtkWidget *widget = show_strip (lesson, 400, 300);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  GtkAdjustment *hadjustment = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (widget));
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));

  /* 16 a row: 63 rows, far more than the window shows. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), ==, 2 * MARGIN + 63 * PITCH - 4);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (vadjustment), <=, 300);

  gtk_adjustment_set_value (vadjustment, 10 * PITCH);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + 24), ==, 160);
  assert_cell_bounds (strip, 160, MARGIN, MARGIN, CELL);
  assert_cell_bounds (strip, 0, MARGIN, MARGIN - 10 * PITCH, CELL);

  gtk_adjustment_set_value (hadjustment, 3 * PITCH);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + 24), ==, 163);
  assert_cell_bounds (strip, 163, MARGIN, MARGIN, CELL);

  /* A wider row: the vertical range shrinks, the value stays in it. */
  lt_viewer_storage_strip_set_wrap_width (strip, 100);
  viewer_test_wait_for_frame (widget);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), ==, 2 * MARGIN + 10 * PITCH - 4);
  g_assert_cmpfloat (gtk_adjustment_get_upper (hadjustment), ==, 2 * MARGIN + 100 * PITCH - 4);
  gtk_adjustment_set_value (vadjustment, 2 * PITCH);
  gtk_adjustment_set_value (hadjustment, 50 * PITCH);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + PITCH + 24, MARGIN + 24), ==,
                   251);

  /* Zooming keeps the same cells at the top left. */
  lt_viewer_storage_strip_set_wrap_width (strip, 20);
  viewer_test_wait_for_frame (widget);
  gtk_adjustment_set_value (vadjustment, 10 * PITCH);
  gtk_adjustment_set_value (hadjustment, 0);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 24, MARGIN + 24), ==, 200);
  lt_viewer_storage_strip_set_zoom (strip, 0.5);
  viewer_test_wait_for_frame (widget);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, 4 + 12, 4 + 12), ==, 200);
  assert_cell_bounds (strip, 201, 4 + 26, 4, 24);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_hover (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *widget = show_strip (lesson, 600, 400);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  GtkEventController *motion = viewer_test_find_controller (widget, GTK_TYPE_EVENT_CONTROLLER_MOTION);

  g_assert_nonnull (motion);
  lt_viewer_storage_strip_set_wrap_width (strip, 2);
  viewer_test_wait_for_frame (widget);

  g_signal_emit_by_name (motion, "motion", (double) MARGIN + PITCH + 10,
                         (double) MARGIN + PITCH + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 3);
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + 10, (double) MARGIN + 2 * PITCH + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 4);
  /* Between cells, nothing is hovered. */
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + CELL + 2, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + 10, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);
  g_signal_emit_by_name (motion, "leave");
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

/* Activates the widget's shortcut for a key, as pressing it would. */
static void
press_key (GtkWidget       *widget,
           guint            keyval,
           GdkModifierType  modifiers)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger)
              && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
              && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers)
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                           GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                                           gtk_shortcut_get_arguments (shortcut)));
              return;
            }
        }
    }
  g_assert_not_reached ();
}

static void
test_keyboard (void)
{
  g_autoptr (LtViewerLesson) lesson = new_arange_lesson (1000);
  GtkWidget *widget = show_strip (lesson, 400, 300);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));

  /* Nothing hovered: the first key starts at the first cell. */
  press_key (widget, GDK_KEY_Right, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);
  press_key (widget, GDK_KEY_Right, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 1);
  press_key (widget, GDK_KEY_Down, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 17);
  press_key (widget, GDK_KEY_Left, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 16);
  press_key (widget, GDK_KEY_Up, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);
  press_key (widget, GDK_KEY_Up, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);
  press_key (widget, GDK_KEY_Left, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);

  /* End goes to the last cell and scrolls it into view; Home back. */
  press_key (widget, GDK_KEY_End, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 999);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==,
                     gtk_adjustment_get_upper (vadjustment)
                     - gtk_adjustment_get_page_size (vadjustment));
  press_key (widget, GDK_KEY_Home, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  press_key (widget, GDK_KEY_Page_Down, 0);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), >, 16);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson) % 16, ==, 0);

  /* Control and plus or minus zoom. */
  press_key (widget, GDK_KEY_plus, GDK_CONTROL_MASK);
  g_assert_cmpfloat_with_epsilon (lt_viewer_storage_strip_get_zoom (strip), 1.25, 1e-9);
  press_key (widget, GDK_KEY_minus, GDK_CONTROL_MASK);
  press_key (widget, GDK_KEY_minus, GDK_CONTROL_MASK);
  g_assert_cmpfloat_with_epsilon (lt_viewer_storage_strip_get_zoom (strip), 0.8, 1e-9);
  press_key (widget, GDK_KEY_0, GDK_CONTROL_MASK);
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_zoom_actions (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *widget = show_strip (lesson, 600, 400);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);

  g_assert_true (gtk_widget_get_focusable (widget));
  g_assert_true (gtk_widget_activate_action (widget, "storage.zoom-in", NULL));
  g_assert_cmpfloat_with_epsilon (lt_viewer_storage_strip_get_zoom (strip), 1.25, 1e-9);
  g_assert_true (gtk_widget_activate_action (widget, "storage.zoom-out", NULL));
  g_assert_true (gtk_widget_activate_action (widget, "storage.zoom-out", NULL));
  g_assert_cmpfloat_with_epsilon (lt_viewer_storage_strip_get_zoom (strip), 0.8, 1e-9);
  g_assert_true (gtk_widget_activate_action (widget, "storage.zoom-reset", NULL));
  g_assert_cmpfloat (lt_viewer_storage_strip_get_zoom (strip), ==, 1.0);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

/* The tooltip names the elements that land on a cell by their indices,
 * the first four when more do. */
static void
test_describe_cell (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *widget;
  LtViewerStorageStrip *strip;
  g_autofree char *cell_1 = NULL;
  g_autofree char *cell_2 = NULL;
  g_autofree char *cell_5 = NULL;

  add_view (lesson, "points.t()", "#0072b2", "t.t()");
  add_view (lesson, "repeated", "#e69f00", "t[1].expand(3, 2)");
  add_view (lesson, "many", "#009e73", "t[2:3, 1].expand(6)");
  widget = show_strip (lesson, 600, 400);
  strip = LT_VIEWER_STORAGE_STRIP (widget);

  cell_1 = lt_viewer_storage_strip_describe_cell (strip, 1);
  g_assert_cmpstr (cell_1, ==, "Cell 1: 1.0\npoints.t(): element [1, 0]");
  cell_2 = lt_viewer_storage_strip_describe_cell (strip, 2);
  g_assert_cmpstr (cell_2, ==,
                   "Cell 2: 5.0\npoints.t(): element [0, 1]\nrepeated: elements [0, 0], [1, 0], [2, 0]");
  cell_5 = lt_viewer_storage_strip_describe_cell (strip, 5);
  g_assert_cmpstr (cell_5, ==, "Cell 5: 1.0\npoints.t(): element [1, 2]\n"
                               "many: elements [0], [1], [2], [3] and 2 more");
  g_assert_null (lt_viewer_storage_strip_describe_cell (strip, 6));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_follows_lesson (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *widget = show_strip (lesson, 600, 400);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  g_autoptr (GError) error = NULL;
  const gint64 shape[] = { 4, 5 };
  graphene_rect_t bounds;

  g_assert_false (lt_viewer_storage_strip_get_cell_bounds (strip, 6, &bounds));
  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_INT64, shape, 2,
                                            LT_VIEWER_CONTENTS_ZEROS, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_true (lt_viewer_storage_strip_get_cell_bounds (strip, 19, &bounds));
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 3 * PITCH + 1,
                                                    MARGIN + PITCH + 1), ==, 19);
  viewer_test_wait_for_frame (widget);

  lt_viewer_storage_strip_set_lesson (strip, NULL);
  g_assert_null (lt_viewer_storage_strip_get_lesson (strip));
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, MARGIN + 1, MARGIN + 1), ==, -1);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_cursor_scrolls (void)
{
  g_autoptr (LtViewerLesson) lesson = new_arange_lesson (1000);
  GtkWidget *widget = show_strip (lesson, 400, 300);
  LtViewerStorageStrip *strip = LT_VIEWER_STORAGE_STRIP (widget);
  LtViewerView *view;
  graphene_rect_t bounds;

  add_view (lesson, "odd", "#e01b24", "t[1::2]");
  view = lt_viewer_lesson_get_view (lesson, 0);
  lt_viewer_lesson_set_selected (lesson, view);
  g_assert_true (lt_viewer_storage_strip_get_cell_bounds (strip, 901, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >, 300);

  /* Stepping to element 450, storage cell 901, brings it into view. */
  lt_viewer_view_set_cursor (view, 450);
  g_assert_true (lt_viewer_storage_strip_get_cell_bounds (strip, 901, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, 300);
  g_assert_cmpint (lt_viewer_storage_strip_cell_at (strip, bounds.origin.x + 1,
                                                    bounds.origin.y + 1), ==, 901);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

/* The strip and the grid write a storage's values in one style: exactly
 * when all fit in a cell, else all in scientific notation with the same
 * decimals ("1.000e0" beside "1.001e5", never "1e5" beside "1.001e5"). */
static void
test_value_style (void)
{
  const float short_values[] = { 4.0f, 1.0f, 0.5f, -24.25f };
  const float long_values[] = { 1.0f, 100100.0f, 0.5f };
  const gint64 big_ints[] = { 7, 123456789012 };
  g_autoptr (LtStorage) exact = lt_storage_new_for_data (LT_DTYPE_FLOAT32, (gpointer) short_values,
                                                         G_N_ELEMENTS (short_values), NULL, NULL,
                                                         NULL);
  g_autoptr (LtStorage) wide = lt_storage_new_for_data (LT_DTYPE_FLOAT32, (gpointer) long_values,
                                                        G_N_ELEMENTS (long_values), NULL, NULL,
                                                        NULL);
  g_autoptr (LtStorage) ints = lt_storage_new_for_data (LT_DTYPE_INT64, (gpointer) big_ints,
                                                        G_N_ELEMENTS (big_ints), NULL, NULL, NULL);
  g_autoptr (LtStorage) large = NULL;
  LtViewerValueStyleCache cache = { 0 };
  const LtViewerValueStyle *style;
  LtViewerValueStyle sampled;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) arange = NULL;
  char text[64];

  style = lt_viewer_value_style_cache_get (&cache, exact);
  g_assert_false (style->scientific);
  lt_viewer_format_value_styled (style, exact, 3, text, sizeof text);
  g_assert_cmpstr (text, ==, "-24.25");

  style = lt_viewer_value_style_cache_get (&cache, wide);
  g_assert_true (style->scientific);
  lt_viewer_format_value_styled (style, wide, 0, text, sizeof text);
  g_assert_cmpstr (text, ==, "1.000e0");
  lt_viewer_format_value_styled (style, wide, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "1.001e5");
  /* Kept while the storage is the same; worked out again for another one,
   * even with the same address free to be reused. */
  g_assert_true (cache.storage == wide);
  style = lt_viewer_value_style_cache_get (&cache, exact);
  g_assert_true (cache.storage == exact);
  g_assert_false (style->scientific);

  /* Integers are written whole. */
  style = lt_viewer_value_style_cache_get (&cache, ints);
  lt_viewer_format_value_styled (style, ints, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "123456789012");
  lt_viewer_value_style_cache_clear (&cache);
  g_assert_null (cache.storage);

  /* A million values, judged on a sample that reaches the last ones: the
   * first 65536 would all fit. */
  arange = lt_tensor_new_arange (0, 1000000, 1, LT_DTYPE_FLOAT32, &error);
  g_assert_no_error (error);
  large = g_object_ref (lt_tensor_get_storage (arange));
  lt_viewer_value_style_for_storage (&sampled, large, 7);
  g_assert_true (sampled.scientific);
}

static void
test_format_value (void)
{
  const float floats[] = { 4.0f, 0.5f, 3.14159f, 12345.0f, -2.0f, 1e-5f, 1e10f };
  const gint64 ints[] = { 7, -3 };
  const guint8 bools[] = { 1, 0 };
  const float complex[] = { 1.0f, 2.0f, 0.5f, -1.5f };
  g_autoptr (LtStorage) f = lt_storage_new_for_data (LT_DTYPE_FLOAT32, (gpointer) floats,
                                                     G_N_ELEMENTS (floats), NULL, NULL, NULL);
  g_autoptr (LtStorage) i = lt_storage_new_for_data (LT_DTYPE_INT64, (gpointer) ints,
                                                     G_N_ELEMENTS (ints), NULL, NULL, NULL);
  g_autoptr (LtStorage) b = lt_storage_new_for_data (LT_DTYPE_BOOL, (gpointer) bools,
                                                     G_N_ELEMENTS (bools), NULL, NULL, NULL);
  g_autoptr (LtStorage) c = lt_storage_new_for_data (LT_DTYPE_COMPLEX64, (gpointer) complex, 2,
                                                     NULL, NULL, NULL);
  char text[64];

  lt_viewer_format_value (f, 0, text, sizeof text);
  g_assert_cmpstr (text, ==, "4.0");
  lt_viewer_format_value (f, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "0.5");
  lt_viewer_format_value (f, 2, text, sizeof text);
  g_assert_cmpstr (text, ==, "3.142");
  lt_viewer_format_value (f, 3, text, sizeof text);
  g_assert_cmpstr (text, ==, "1.234e4");
  lt_viewer_format_value (f, 4, text, sizeof text);
  g_assert_cmpstr (text, ==, "-2.0");
  lt_viewer_format_value (f, 5, text, sizeof text);
  g_assert_cmpstr (text, ==, "1e-5");
  lt_viewer_format_value (f, 6, text, sizeof text);
  g_assert_cmpstr (text, ==, "1e10");
  lt_viewer_format_value (i, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "-3");
  lt_viewer_format_value (b, 0, text, sizeof text);
  g_assert_cmpstr (text, ==, "True");
  lt_viewer_format_value (b, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "False");
  lt_viewer_format_value (c, 0, text, sizeof text);
  g_assert_cmpstr (text, ==, "1+2j");
  lt_viewer_format_value (c, 1, text, sizeof text);
  g_assert_cmpstr (text, ==, "0.5-1.5j");
  lt_viewer_format_value (f, 7, text, sizeof text);
  g_assert_cmpstr (text, ==, "");
}

int
main (int   argc,
      char *argv[])
{
  /* Under xvfb-run there is no session bus for the accessibility bridge,
   * and GTK would warn that it cannot reach it. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/viewer/storage-strip/format-value", test_format_value);
  g_test_add_func ("/viewer/storage-strip/value-style", test_value_style);
  g_test_add_func ("/viewer/storage-strip/hit-testing", test_hit_testing);
  g_test_add_func ("/viewer/storage-strip/hit-testing/scrolled", test_hit_testing_scrolled);
  g_test_add_func ("/viewer/storage-strip/hover/pointer", test_hover);
  g_test_add_func ("/viewer/storage-strip/zoom-actions", test_zoom_actions);
  g_test_add_func ("/viewer/storage-strip/keyboard", test_keyboard);
  g_test_add_func ("/viewer/storage-strip/follows-lesson", test_follows_lesson);
  g_test_add_func ("/viewer/storage-strip/describe-cell", test_describe_cell);
  g_test_add_func ("/viewer/storage-strip/cursor-scrolls", test_cursor_scrolls);

  return g_test_run ();
}
