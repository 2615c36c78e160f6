/* bench-viewer-drawing.c: how long Tensor Viewer's drawings take to snapshot
 * a million cells
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run under a display (xvfb-run) with GSK_RENDERER=cairo, as
 * build-aux/bench.sh does. For each case it takes the median, the fastest
 * and the slowest of REPEATS snapshots of:
 *   - the storage strip after a scroll far away (the cached layer of the
 *     cells shown is rebuilt), and after a scroll of one row (the cached
 *     layer is only moved);
 *   - the view grid after the lesson changed (its layer is rebuilt) and
 *     after the hovered cell changed (drawn over the cached layer).
 * A frame at 60 Hz has 16.7 ms; smooth scrolling needs both well under it.
 */

#include <stdlib.h>

#include <gtk/gtk.h>

#include "viewer-test-utils.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-view-grid.h"

#define REPEATS 31
#define N_CELLS 1000000

typedef struct
{
  double median, min, max;
} Timing;

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static Timing
summarise (double *samples,
           guint   n)
{
  qsort (samples, n, sizeof *samples, compare_doubles);
  return (Timing) { samples[n / 2], samples[0], samples[n - 1] };
}

/* One snapshot of @widget as GTK would take it, in milliseconds. */
static double
time_snapshot (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gint64 start = g_get_monotonic_time ();
  gint64 end;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  end = g_get_monotonic_time ();
  g_clear_pointer (&snapshot, gtk_snapshot_free_to_node);
  return (end - start) / 1000.0;
}

static GtkWidget *
show_in_window (GtkWidget *child,
                int        width,
                int        height)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), child);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  viewer_test_wait_for_frame (child);
  return child;
}

static LtViewerLesson *
new_lesson (const char * const *expressions)
{
  const gint64 shape[] = { N_CELLS };
  LtViewerLesson *lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;

  if (!lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 1, LT_VIEWER_CONTENTS_ARANGE,
                                  NULL, 0, &error))
    g_error ("%s", error->message);
  for (guint i = 0; expressions[i] != NULL; i++)
    if (lt_viewer_lesson_add_view (lesson, expressions[i], NULL, expressions[i], &error) == NULL)
      g_error ("%s: %s", expressions[i], error->message);
  return lesson;
}

static void
print_row (const char *drawing,
           const char *setting,
           const char *what,
           Timing      timing)
{
  g_print ("| %s | %s | %s | %.3f | %.3f | %.3f |\n", drawing, setting, what, timing.median,
           timing.min, timing.max);
}

static void
bench_strip (void)
{
  const char *const expressions[] = { "t[::3]", "t.view(1000, 1000).t()[1]",
                                      "t[:1000].expand(2, 1000)", NULL };
  const struct { double zoom; guint wrap; } cases[] = {
    { 1.0, 16 }, { 1.0, 64 }, { 0.25, 256 }, { 4.0, 16 },
  };
  g_autoptr (LtViewerLesson) lesson = new_lesson (expressions);
  GtkWidget *strip = lt_viewer_storage_strip_new ();
  GtkAdjustment *vadjustment;

  lt_viewer_storage_strip_set_lesson (LT_VIEWER_STORAGE_STRIP (strip), lesson);
  show_in_window (strip, 1024, 768);
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (strip));

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *setting = g_strdup_printf ("zoom %.2f, %u cells a row", cases[c].zoom,
                                                  cases[c].wrap);
      double rebuilt[REPEATS], cached[REPEATS];
      double pitch;

      lt_viewer_storage_strip_set_zoom (LT_VIEWER_STORAGE_STRIP (strip), cases[c].zoom);
      lt_viewer_storage_strip_set_wrap_width (LT_VIEWER_STORAGE_STRIP (strip), cases[c].wrap);
      viewer_test_wait_for_frame (strip);
      pitch = gtk_adjustment_get_upper (vadjustment) / ((N_CELLS + cases[c].wrap - 1) / cases[c].wrap);

      for (guint r = 0; r < REPEATS; r++)
        {
          /* Far away: a fifth of the storage further each time. */
          double far = gtk_adjustment_get_upper (vadjustment) * ((r % 4) + 1) / 5.0;

          gtk_adjustment_set_value (vadjustment, far);
          rebuilt[r] = time_snapshot (strip);
          gtk_adjustment_set_value (vadjustment, far + pitch);
          cached[r] = time_snapshot (strip);
        }
      print_row ("storage strip", setting, "scroll far (layer rebuilt)",
                 summarise (rebuilt, REPEATS));
      print_row ("storage strip", setting, "scroll one row (layer cached)",
                 summarise (cached, REPEATS));
    }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (strip)));
}

static void
bench_grid (void)
{
  const char *const expressions[] = { "t.view(1000, 1000)", NULL };
  g_autoptr (LtViewerLesson) lesson = new_lesson (expressions);
  LtViewerView *view = lt_viewer_lesson_get_view (lesson, 0);
  GtkWidget *grid = lt_viewer_view_grid_new ();
  GtkWidget *scrolled;
  double rebuilt[REPEATS], hovered[REPEATS];

  lt_viewer_view_grid_set_lesson (LT_VIEWER_VIEW_GRID (grid), lesson);
  lt_viewer_view_grid_set_view (LT_VIEWER_VIEW_GRID (grid), view);
  show_in_window (grid, 800, 600);
  scrolled = gtk_widget_get_ancestor (grid, GTK_TYPE_SCROLLED_WINDOW);
  for (guint i = 0; i < 2; i++)
    {
      GtkAdjustment *adjustment = i == 0
        ? gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled))
        : gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) / 2);
    }
  viewer_test_wait_for_frame (grid);

  /* The first hover sorts the view's elements by cell, once: the model's
   * cost, paid before timing. */
  g_array_unref (lt_viewer_view_find_elements (view, 0));

  for (guint r = 0; r < REPEATS; r++)
    {
      g_signal_emit_by_name (lesson, "changed");
      rebuilt[r] = time_snapshot (grid);
      lt_viewer_lesson_set_hover_cell (lesson, 500 * 1000 + 500 + (r % 2));
      hovered[r] = time_snapshot (grid);
    }
  print_row ("view grid", "t.view(1000, 1000), 800 x 600", "lesson changed (layer rebuilt)",
             summarise (rebuilt, REPEATS));
  print_row ("view grid", "t.view(1000, 1000), 800 x 600", "hover moved (layer cached)",
             summarise (hovered, REPEATS));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (grid)));
}

int
main (int   argc,
      char *argv[])
{
  gtk_init ();

  g_print ("Snapshots of %d storage cells, %d repeats each, in milliseconds (GSK_RENDERER=%s)\n\n",
           N_CELLS, REPEATS, g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "");
  g_print ("| drawing | setting | snapshot | median | fastest | slowest |\n");
  g_print ("| --- | --- | --- | ---: | ---: | ---: |\n");
  bench_strip ();
  bench_grid ();
  return 0;
}
