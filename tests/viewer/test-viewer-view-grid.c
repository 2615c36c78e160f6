/* test-viewer-view-grid.c: a view's elements in their logical layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <gtk/gtk.h>

#include "viewer-test-utils.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-view-grid.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"

/* Elements are 44 pixels with gaps of 4 and a margin of 8; blocks are 20
 * apart. */
#define SIZE   44
#define PITCH  48
#define MARGIN 8
#define BLOCK_GAP 20

static LtViewerLesson *
new_lesson (const char   *literal,
            const gint64 *shape,
            guint         n_dims)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, n_dims,
                                            literal != NULL ? LT_VIEWER_CONTENTS_LITERAL
                                                            : LT_VIEWER_CONTENTS_ARANGE,
                                            literal, 0, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&lesson);
}

static LtViewerView *
add_view (LtViewerLesson *lesson,
          const char     *expression)
{
  g_autoptr (GError) error = NULL;
  LtViewerView *view = lt_viewer_lesson_add_view (lesson, expression, NULL, expression, &error);

  g_assert_no_error (error);
  g_assert_nonnull (view);
  return view;
}

static GtkWidget *
show_grid (LtViewerLesson *lesson,
           LtViewerView   *view)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *grid = lt_viewer_view_grid_new ();

  lt_viewer_view_grid_set_lesson (LT_VIEWER_VIEW_GRID (grid), lesson);
  lt_viewer_view_grid_set_view (LT_VIEWER_VIEW_GRID (grid), view);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), grid);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_present (GTK_WINDOW (window));
  viewer_test_wait_for_frame (grid);
  return grid;
}

static void
assert_bounds (LtViewerViewGrid *grid,
               gint64            element,
               double            x,
               double            y)
{
  graphene_rect_t bounds;

  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, element, &bounds));
  g_assert_cmpfloat_with_epsilon (bounds.origin.x, x, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.origin.y, y, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, SIZE, 1e-3);
  g_assert_cmpfloat_with_epsilon (bounds.size.height, SIZE, 1e-3);
}

/* Every element's bounds lead back to it, and its corners just outside
 * lead to no other element. */
static void
assert_round_trip (LtViewerViewGrid *grid,
                   gint64            numel)
{
  graphene_rect_t bounds;

  for (gint64 element = 0; element < numel; element++)
    {
      g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, element, &bounds));
      g_assert_cmpint (lt_viewer_view_grid_element_at (grid, bounds.origin.x + 1,
                                                       bounds.origin.y + 1), ==, element);
      g_assert_cmpint (lt_viewer_view_grid_element_at (grid,
                                                       bounds.origin.x + SIZE - 1,
                                                       bounds.origin.y + SIZE - 1), ==, element);
      g_assert_cmpint (lt_viewer_view_grid_element_at (grid, bounds.origin.x + SIZE + 1,
                                                       bounds.origin.y + 1), ==, -1);
    }
  g_assert_false (lt_viewer_view_grid_get_element_bounds (grid, numel, &bounds));
  g_assert_false (lt_viewer_view_grid_get_element_bounds (grid, -1, &bounds));
}

static void
test_layout_2d (void)
{
  g_autoptr (LtViewerLesson) lesson = new_lesson (POINTS, NULL, 0);
  LtViewerView *view = add_view (lesson, "t.t()");
  GtkWidget *widget = show_grid (lesson, view);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);
  int width, height;

  /* Sizes (2, 3): two rows of three. */
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 1, MARGIN + 1), ==, 0);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + PITCH + 1, MARGIN + 1), ==, 1);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 1, MARGIN + PITCH + 1), ==, 3);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 2 * PITCH + 43,
                                                   MARGIN + PITCH + 43), ==, 5);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + SIZE + 2, MARGIN + 1), ==, -1);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 3 * PITCH + 1, MARGIN + 1),
                   ==, -1);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, 2, 2), ==, -1);
  assert_bounds (grid, 4, MARGIN + PITCH, MARGIN + PITCH);
  assert_round_trip (grid, 6);

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &width, NULL, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, -1, &height, NULL, NULL, NULL);
  g_assert_cmpint (width, ==, 2 * MARGIN + 3 * PITCH - 4);
  g_assert_cmpint (height, ==, 2 * MARGIN + 2 * PITCH - 4);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_layout_0d_1d (void)
{
  g_autoptr (LtViewerLesson) lesson = new_lesson (POINTS, NULL, 0);
  LtViewerView *row = add_view (lesson, "t[1]");
  LtViewerView *scalar = add_view (lesson, "t[1, 0]");
  GtkWidget *widget = show_grid (lesson, row);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);

  assert_bounds (grid, 1, MARGIN + PITCH, MARGIN);
  assert_round_trip (grid, 2);

  lt_viewer_view_grid_set_view (grid, scalar);
  g_assert_true (lt_viewer_view_grid_get_view (grid) == scalar);
  assert_bounds (grid, 0, MARGIN, MARGIN);
  assert_round_trip (grid, 1);
  viewer_test_wait_for_frame (widget);

  lt_viewer_view_grid_set_view (grid, NULL);
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 1, MARGIN + 1), ==, -1);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_layout_3d (void)
{
  const gint64 shape[] = { 2, 3, 4 };
  g_autoptr (LtViewerLesson) lesson = new_lesson (NULL, shape, G_N_ELEMENTS (shape));
  LtViewerView *view = add_view (lesson, "t");
  GtkWidget *widget = show_grid (lesson, view);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);
  double block_width = 4 * PITCH - 4;
  graphene_rect_t first, bounds;
  double label;

  /* Two blocks [0, :, :] and [1, :, :] of 3 x 4 side by side, each under
   * its label. */
  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, 0, &first));
  g_assert_cmpfloat (first.origin.x, ==, MARGIN);
  label = first.origin.y - MARGIN;
  g_assert_cmpfloat (label, >, 8);
  assert_bounds (grid, 12, MARGIN + block_width + BLOCK_GAP, MARGIN + label);
  assert_bounds (grid, 23, MARGIN + block_width + BLOCK_GAP + 3 * PITCH,
                 MARGIN + label + 2 * PITCH);
  assert_bounds (grid, 6, MARGIN + 2 * PITCH, MARGIN + label + PITCH);
  assert_round_trip (grid, 24);
  /* On a label, no element. */
  g_assert_cmpint (lt_viewer_view_grid_element_at (grid, MARGIN + 1, MARGIN + 1), ==, -1);

  /* Dims 0 and 2 flat: three blocks [:, j, :] of 2 x 4, in a row. */
  lt_viewer_view_grid_set_flat_dims (grid, 0, 2);
  /* Element (1, 2, 3) = 23 is in block 2, row 1, column 3. */
  assert_bounds (grid, 23, MARGIN + 2 * (block_width + BLOCK_GAP) + 3 * PITCH,
                 MARGIN + label + PITCH);
  /* Element (1, 0, 0) = 12 is in block 0, row 1. */
  assert_bounds (grid, 12, MARGIN, MARGIN + label + PITCH);
  assert_round_trip (grid, 24);

  /* Negative dims count from the end: (-1, -3) puts dim 2 down the rows. */
  lt_viewer_view_grid_set_flat_dims (grid, -1, -3);
  /* Element (0, 1, 3) = 7: block 1, row 3, column 0. */
  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, 7, &bounds));
  g_assert_cmpfloat (bounds.origin.x, ==, MARGIN + 2 * PITCH - 4 + BLOCK_GAP);
  g_assert_cmpfloat (bounds.origin.y, ==, MARGIN + label + 3 * PITCH);
  assert_round_trip (grid, 24);

  /* The same dim twice falls back to the last two. */
  lt_viewer_view_grid_set_flat_dims (grid, 1, 1);
  assert_bounds (grid, 12, MARGIN + block_width + BLOCK_GAP, MARGIN + label);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_layout_blocks_wrap (void)
{
  const gint64 shape[] = { 2, 10, 3, 4 };
  g_autoptr (LtViewerLesson) lesson = new_lesson (NULL, shape, G_N_ELEMENTS (shape));
  LtViewerView *view = add_view (lesson, "t");
  GtkWidget *widget = show_grid (lesson, view);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);
  graphene_rect_t a, b;
  int width;

  /* Twenty blocks of 3 x 4 do not fit in one row: they wrap, in row-major
   * order, and the drawing stays less than 1000 pixels wide. */
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &width, NULL, NULL, NULL);
  g_assert_cmpint (width, <, 1000);
  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, 0, &a));
  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, 12, &b));
  g_assert_cmpfloat (b.origin.x, >, a.origin.x);
  g_assert_cmpfloat (b.origin.y, ==, a.origin.y);
  g_assert_true (lt_viewer_view_grid_get_element_bounds (grid, 12 * 19, &b));
  g_assert_cmpfloat (b.origin.y, >, a.origin.y);
  assert_round_trip (grid, 240);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_hover (void)
{
  g_autoptr (LtViewerLesson) lesson = new_lesson (POINTS, NULL, 0);
  LtViewerView *rows = add_view (lesson, "t[1:]");
  LtViewerView *copy = add_view (lesson, "t.t().contiguous()");
  GtkWidget *widget = show_grid (lesson, rows);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);
  GtkEventController *motion = viewer_test_find_controller (widget, GTK_TYPE_EVENT_CONTROLLER_MOTION);
  g_autofree char *tooltip = NULL;

  g_assert_nonnull (motion);

  /* t[1:] has sizes (2, 2), strides (2, 1), offset 2: element (1, 0) is
   * storage cell 4. */
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + 10, (double) MARGIN + PITCH + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 4);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (widget), ==, "2 + 2*1 + 1*0 = 4");

  g_signal_emit_by_name (motion, "motion", (double) MARGIN + PITCH + 10, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 3);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (widget), ==, "2 + 2*0 + 1*1 = 3");

  /* Between elements, and outside. */
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + SIZE + 2, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);
  g_assert_null (gtk_widget_get_tooltip_text (widget));
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + 10, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, 2);
  g_signal_emit_by_name (motion, "leave");
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);

  /* A copy has a storage of its own: hovering it reaches no cell of the
   * lesson's, but the formula is still shown. */
  lt_viewer_view_grid_set_view (grid, copy);
  g_signal_emit_by_name (motion, "motion", (double) MARGIN + PITCH + 10, (double) MARGIN + 10);
  g_assert_cmpint (lt_viewer_lesson_get_hover_cell (lesson), ==, -1);
  tooltip = g_strdup (gtk_widget_get_tooltip_text (widget));
  g_assert_cmpstr (tooltip, ==, "0 + 3*0 + 1*1 = 1");
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

static void
test_follows_view (void)
{
  g_autoptr (LtViewerLesson) lesson = new_lesson (POINTS, NULL, 0);
  LtViewerView *view = add_view (lesson, "t[1]");
  GtkWidget *widget = show_grid (lesson, view);
  LtViewerViewGrid *grid = LT_VIEWER_VIEW_GRID (widget);
  g_autoptr (GError) error = NULL;
  graphene_rect_t bounds;

  g_assert_false (lt_viewer_view_grid_get_element_bounds (grid, 2, &bounds));
  g_assert_true (lt_viewer_view_set_expression (view, "t.t()", &error));
  g_assert_no_error (error);
  assert_bounds (grid, 5, MARGIN + 2 * PITCH, MARGIN + PITCH);

  /* An invalid expression keeps the last valid tensor, so the layout too. */
  g_assert_false (lt_viewer_view_set_expression (view, "t.view(4)", &error));
  g_assert_nonnull (error);
  assert_bounds (grid, 5, MARGIN + 2 * PITCH, MARGIN + PITCH);
  viewer_test_wait_for_frame (widget);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
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

  g_test_add_func ("/viewer/view-grid/layout/2d", test_layout_2d);
  g_test_add_func ("/viewer/view-grid/layout/0d-1d", test_layout_0d_1d);
  g_test_add_func ("/viewer/view-grid/layout/3d", test_layout_3d);
  g_test_add_func ("/viewer/view-grid/layout/blocks-wrap", test_layout_blocks_wrap);
  g_test_add_func ("/viewer/view-grid/hover/pointer", test_hover);
  g_test_add_func ("/viewer/view-grid/follows-view", test_follows_view);

  return g_test_run ();
}
