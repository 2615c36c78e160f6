/* test-viewer-storage-overview.c: the minimap of a whole storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <gtk/gtk.h>

#include "viewer-test-utils.h"
#include "lt-viewer-export.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-storage-overview.h"
#include "lt-viewer-storage-strip.h"

#define BLUE   "#0072b2"
#define ORANGE "#e69f00"

typedef struct
{
  GtkWidget *window;
  LtViewerLesson *lesson;
  LtViewerStorageStrip *strip;
  LtViewerStorageOverview *overview;
} Fixture;

/* A million cells: every 100th row and column (blue, selected), and row
 * 550 (orange), over a storage the strip shows a few rows of. */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const gint64 shape[] = { 1000, 1000 };
  g_autoptr (GError) error = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  fixture->lesson = lt_viewer_lesson_new ();
  g_assert_true (lt_viewer_lesson_set_base (fixture->lesson, LT_DTYPE_FLOAT32, shape, 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_nonnull (lt_viewer_lesson_add_view (fixture->lesson, "every 100th", BLUE,
                                               "t[::100, ::100]", &error));
  g_assert_nonnull (lt_viewer_lesson_add_view (fixture->lesson, "row 550", ORANGE, "t[550]",
                                               &error));
  g_assert_no_error (error);
  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 0));

  fixture->strip = LT_VIEWER_STORAGE_STRIP (lt_viewer_storage_strip_new ());
  lt_viewer_storage_strip_set_lesson (fixture->strip, fixture->lesson);
  fixture->overview = LT_VIEWER_STORAGE_OVERVIEW (lt_viewer_storage_overview_new ());
  lt_viewer_storage_overview_set_strip (fixture->overview, fixture->strip);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (fixture->strip));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->overview));
  gtk_box_append (GTK_BOX (box), scrolled);
  fixture->window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (fixture->window), box);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 800, 400);
  gtk_window_present (GTK_WINDOW (fixture->window));
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->overview));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  viewer_test_spin_until_idle ();
  g_clear_object (&fixture->lesson);
}

static void
assert_square (Fixture  *fixture,
               gint64    cell,
               int       view,
               gboolean  dimmed)
{
  gboolean is_dimmed = !dimmed;

  g_assert_cmpint (lt_viewer_storage_overview_get_square_view (fixture->overview, cell,
                                                               &is_dimmed), ==, view);
  g_assert_true (is_dimmed == dimmed);
}

/* The colour drawn at the square holding @cell. */
static void
assert_pixel (Fixture    *fixture,
              gint64      cell,
              const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  gint64 per = lt_viewer_storage_overview_get_per_square (fixture->overview);
  int width, across, x, y;
  g_autofree guchar *pixels = NULL;
  GdkRGBA color;
  const guchar *pixel;

  viewer_test_wait_for_frame (GTK_WIDGET (fixture->overview));
  texture = lt_viewer_export_texture (GTK_WIDGET (fixture->overview), &error);
  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  across = gtk_widget_get_width (GTK_WIDGET (fixture->overview)) / 4;
  x = (int) ((cell / per) % across) * 4 + 2;
  y = (int) ((cell / per) / across) * 4 + 2;
  g_assert_cmpint (y, <, gdk_texture_get_height (texture));
  pixels = g_malloc ((gsize) width * 4 * gdk_texture_get_height (texture));
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  pixel = pixels + (gsize) y * width * 4 + (gsize) x * 4;
  g_assert_true (gdk_rgba_parse (&color, expected));
  /* BGRA, premultiplied: an opaque view colour. */
  g_assert_cmpint (pixel[3], ==, 255);
  g_assert_cmpint (ABS (pixel[2] - (int) (color.red * 255 + 0.5)), <=, 1);
  g_assert_cmpint (ABS (pixel[1] - (int) (color.green * 255 + 0.5)), <=, 1);
  g_assert_cmpint (ABS (pixel[0] - (int) (color.blue * 255 + 0.5)), <=, 1);
}

/* Each square the colour of the selected view where it reaches one of
 * its cells, of another view, dimmed, where only that one does. */
static void
test_reach (Fixture       *fixture,
            gconstpointer  data)
{
  gint64 per = lt_viewer_storage_overview_get_per_square (fixture->overview);
  int height = gtk_widget_get_height (GTK_WIDGET (fixture->overview));

  /* 200 squares across, 16 rows at most: 313 cells a square. */
  g_assert_cmpint (per, ==, 313);
  g_assert_cmpint (height, ==, 16 * 4);

  assert_square (fixture, 0, 0, FALSE);
  assert_square (fixture, 50000, -1, FALSE);
  assert_square (fixture, 550400, 1, TRUE);
  assert_pixel (fixture, 0, BLUE);

  /* Selecting row 550 swaps which is dimmed (and scrolls the strip there:
   * its frame is read away from the square sampled). */
  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 1));
  assert_square (fixture, 550400, 1, FALSE);
  assert_square (fixture, 0, 0, TRUE);
  assert_pixel (fixture, 550900, ORANGE);
}

/* A point in the overview is the first cell of its square; going there
 * scrolls the strip to it. */
static void
test_scroll_strip (Fixture       *fixture,
                   gconstpointer  data)
{
  gint64 per = lt_viewer_storage_overview_get_per_square (fixture->overview);
  gint64 first, end, cell;

  g_assert_true (lt_viewer_storage_strip_get_visible_cells (fixture->strip, &first, &end));
  g_assert_cmpint (first, ==, 0);
  g_assert_cmpint (end, >, 0);
  g_assert_cmpint (end, <, 550000);

  g_assert_cmpint (lt_viewer_storage_overview_cell_at (fixture->overview, 1, 1), ==, 0);
  g_assert_cmpint (lt_viewer_storage_overview_cell_at (fixture->overview, 9, 5), ==, 202 * per);
  g_assert_cmpint (lt_viewer_storage_overview_cell_at (fixture->overview, -1, 5), ==, -1);
  g_assert_cmpint (lt_viewer_storage_overview_cell_at (fixture->overview, 1, 64), ==, -1);

  cell = lt_viewer_storage_overview_cell_at (fixture->overview, 4 * ((550400 / per) % 200) + 1,
                                             4 * ((550400 / per) / 200) + 1);
  g_assert_cmpint (cell / per, ==, 550400 / per);
  lt_viewer_storage_strip_scroll_to_cell (fixture->strip, cell);
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->strip));
  g_assert_true (lt_viewer_storage_strip_get_visible_cells (fixture->strip, &first, &end));
  g_assert_cmpint (first, <=, cell);
  g_assert_cmpint (end, >, cell);
}

/* Selecting a view none of whose cells is on screen scrolls the strip to
 * its cursor's cell; one with a cell on screen leaves it. */
static void
test_reveal_selected (Fixture       *fixture,
                      gconstpointer  data)
{
  gint64 first, end;

  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 1));
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->strip));
  g_assert_true (lt_viewer_storage_strip_get_visible_cells (fixture->strip, &first, &end));
  g_assert_cmpint (first, <=, 550000);
  g_assert_cmpint (end, >, 550000);

  /* Every 100th row and column: none of row 550, so back to its cell 0. */
  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 0));
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->strip));
  g_assert_true (lt_viewer_storage_strip_get_visible_cells (fixture->strip, &first, &end));
  g_assert_cmpint (first, ==, 0);

  /* Row 550 again, then a view that reaches it too: no scrolling. */
  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 1));
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->strip));
  g_assert_nonnull (lt_viewer_lesson_add_view (fixture->lesson, "t", NULL, "t", NULL));
  lt_viewer_lesson_set_selected (fixture->lesson, lt_viewer_lesson_get_view (fixture->lesson, 2));
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->strip));
  g_assert_true (lt_viewer_storage_strip_get_visible_cells (fixture->strip, &first, &end));
  g_assert_cmpint (first, <=, 550000);
  g_assert_cmpint (end, >, 550000);
}

/* A smaller storage: fewer cells a square, fewer rows. */
static void
test_follows_lesson (Fixture       *fixture,
                     gconstpointer  data)
{
  const gint64 shape[] = { 100 };
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_viewer_lesson_set_base (fixture->lesson, LT_DTYPE_FLOAT32, shape, 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->overview));
  g_assert_cmpint (lt_viewer_storage_overview_get_per_square (fixture->overview), ==, 1);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (fixture->overview)), ==, 4);

  /* Another strip's lesson. */
  lt_viewer_storage_strip_set_lesson (fixture->strip, NULL);
  viewer_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (fixture->overview)), ==, 0);
  g_assert_cmpint (lt_viewer_storage_overview_cell_at (fixture->overview, 1, 1), ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/viewer/storage-overview/reach", Fixture, NULL, fixture_set_up, test_reach,
              fixture_tear_down);
  g_test_add ("/viewer/storage-overview/scroll-strip", Fixture, NULL, fixture_set_up,
              test_scroll_strip, fixture_tear_down);
  g_test_add ("/viewer/storage-overview/reveal-selected", Fixture, NULL, fixture_set_up,
              test_reveal_selected, fixture_tear_down);
  g_test_add ("/viewer/storage-overview/follows-lesson", Fixture, NULL, fixture_set_up,
              test_follows_lesson, fixture_tear_down);
  return g_test_run ();
}
