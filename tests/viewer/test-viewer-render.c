/* test-viewer-render.c: what the drawings look like, rendered as on screen
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "viewer-test-utils.h"
#include "lt-viewer-export.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-view-grid.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"

#define RED    "#e01b24"
#define BLUE   "#3584e4"
#define PURPLE "#9141ac"

/* Lessons and windows */

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

static LtViewerView *
add_view (LtViewerLesson *lesson,
          const char     *color,
          const char     *expression)
{
  g_autoptr (GError) error = NULL;
  LtViewerView *view = lt_viewer_lesson_add_view (lesson, expression, color, expression, &error);

  g_assert_no_error (error);
  g_assert_nonnull (view);
  return view;
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

static GtkWidget *
show_strip (LtViewerLesson *lesson,
            int             width,
            int             height)
{
  GtkWidget *strip = lt_viewer_storage_strip_new ();

  lt_viewer_storage_strip_set_lesson (LT_VIEWER_STORAGE_STRIP (strip), lesson);
  return show_in_window (strip, width, height);
}

static void
close_window (GtkWidget *widget)
{
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (widget)));
}

/* Pixels */

typedef struct
{
  int width;
  int height;
  guchar *data;  /* premultiplied B, G, R, A, as cairo's ARGB32 */
} Image;

static void
image_clear (Image *image)
{
  g_clear_pointer (&image->data, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Image, image_clear)

static void
render (GtkWidget *widget,
        Image     *image)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  viewer_test_wait_for_frame (widget);
  texture = lt_viewer_export_texture (widget, &error);
  g_assert_no_error (error);
  g_assert_nonnull (texture);

  image->width = gdk_texture_get_width (texture);
  image->height = gdk_texture_get_height (texture);
  g_assert_cmpint (image->width, ==, gtk_widget_get_width (widget));
  g_assert_cmpint (image->height, ==, gtk_widget_get_height (widget));
  image->data = g_malloc (4 * image->width * image->height);
  gdk_texture_download (texture, image->data, 4 * image->width);
}

typedef struct
{
  int r, g, b;
} Rgb;

static Rgb
pixel (const Image *image,
       double       x,
       double       y)
{
  int ix = (int) x, iy = (int) y;
  const guchar *p;
  Rgb rgb;

  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, image->width);
  g_assert_cmpint (iy, <, image->height);
  p = image->data + 4 * (iy * image->width + ix);
  /* Opaque (the strip has the theme's view background), so premultiplied
   * is plain. */
  g_assert_cmpint (p[3], ==, 255);
  rgb.b = p[0];
  rgb.g = p[1];
  rgb.r = p[2];
  return rgb;
}

/* Whether a pixel is tinted with a colour: the channels that dominate the
 * colour dominate the pixel by a margin. Red #e01b24 tints red above green
 * and blue; blue #3584e4 tints blue above red and green. */
static gboolean
is_reddish (Rgb c)
{
  return c.r - MAX (c.g, c.b) > 25;
}

static gboolean
is_bluish (Rgb c)
{
  return c.b - c.r > 25 && c.b > c.g;
}

static gboolean
is_neutral (Rgb c)
{
  return ABS (c.r - c.g) < 12 && ABS (c.g - c.b) < 12 && ABS (c.r - c.b) < 12;
}

static int
luminance (Rgb c)
{
  return (c.r * 299 + c.g * 587 + c.b * 114) / 1000;
}

static void
cell_bounds (GtkWidget       *strip,
             gint64           cell,
             graphene_rect_t *bounds)
{
  g_assert_true (lt_viewer_storage_strip_get_cell_bounds (LT_VIEWER_STORAGE_STRIP (strip), cell,
                                                          bounds));
}

static Rgb
cell_pixel (const Image *image,
            GtkWidget   *strip,
            gint64       cell,
            double       fx,
            double       fy)
{
  graphene_rect_t bounds;

  cell_bounds (strip, cell, &bounds);
  return pixel (image, bounds.origin.x + fx * bounds.size.width,
                bounds.origin.y + fy * bounds.size.height);
}

/* The points tensor's storage is 4, 1, 5, 3, 2, 1. t[1] (red) reaches
 * cells 2 and 3; t.t()[0], the first column (blue), reaches 0, 2 and 4;
 * cell 2 is reached by both, 1 and 5 by neither. Each view has its slot in
 * every cell, red the left half and blue the right, so a cell one view
 * reaches is tinted in that view's half only. */
static void
check_points_colors (gboolean dark)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *strip;
  g_auto (Image) image = { 0, };
  const gboolean red[] = { FALSE, FALSE, TRUE, TRUE, FALSE, FALSE };
  const gboolean blue[] = { TRUE, FALSE, TRUE, FALSE, TRUE, FALSE };

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  add_view (lesson, RED, "t[1]");
  add_view (lesson, BLUE, "t.t()[0]");
  strip = show_strip (lesson, 500, 200);
  render (strip, &image);

  for (gint64 cell = 0; cell < 6; cell++)
    {
      Rgb centre = cell_pixel (&image, strip, cell, 0.5, 0.5);
      Rgb left = cell_pixel (&image, strip, cell, 0.25, 0.5);
      Rgb right = cell_pixel (&image, strip, cell, 0.75, 0.5);

      g_test_message ("cell %" G_GINT64_FORMAT ": left %d,%d,%d centre %d,%d,%d right %d,%d,%d",
                      cell, left.r, left.g, left.b, centre.r, centre.g, centre.b,
                      right.r, right.g, right.b);
      if (red[cell] && blue[cell])
        {
          /* Both colours, as stripes in the order of the views. */
          g_assert_true (is_reddish (left));
          g_assert_true (is_bluish (right));
        }
      else if (red[cell])
        {
          g_assert_true (is_reddish (left));
          g_assert_true (is_neutral (right));
        }
      else if (blue[cell])
        {
          g_assert_true (is_bluish (right));
          g_assert_true (is_neutral (left));
        }
      else
        {
          /* Unreached: dimmed, neither colour. */
          g_assert_true (is_neutral (centre));
          g_assert_false (is_reddish (centre) || is_bluish (centre));
        }
      if (!red[cell])
        g_assert_false (is_reddish (centre) || is_reddish (left) || is_reddish (right));
      if (!blue[cell])
        g_assert_false (is_bluish (centre) || is_bluish (left) || is_bluish (right));
    }

  /* The text takes the theme's colour: dark on light, light on dark. The
   * value is drawn in the bottom third of each cell. */
  {
    graphene_rect_t bounds;
    int darkest = 255, lightest = 0;

    cell_bounds (strip, 3, &bounds);
    for (double y = bounds.origin.y + bounds.size.height * 0.6;
         y < bounds.origin.y + bounds.size.height - 3; y++)
      for (double x = bounds.origin.x + 3; x < bounds.origin.x + bounds.size.width - 3; x++)
        {
          int l = luminance (pixel (&image, x, y));

          darkest = MIN (darkest, l);
          lightest = MAX (lightest, l);
        }
    if (dark)
      g_assert_cmpint (lightest, >, 200);
    else
      g_assert_cmpint (darkest, <, 80);
  }

  close_window (strip);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
}

static void
test_strip_colors (void)
{
  check_points_colors (FALSE);
}

static void
test_strip_colors_dark (void)
{
  check_points_colors (TRUE);
}

/* Pixels of a cell, away from its outer border and its rounded corners,
 * that have @color itself rather than a tint of it. */
static int
count_solid (const Image *image,
             GtkWidget   *strip,
             gint64       cell,
             Rgb          color)
{
  graphene_rect_t bounds;
  int count = 0;

  cell_bounds (strip, cell, &bounds);
  for (int y = 3; y < bounds.size.height - 3; y++)
    for (int x = 3; x < bounds.size.width - 3; x++)
      {
        Rgb c;

        if ((y < 8 || y >= bounds.size.height - 8) && (x < 8 || x >= bounds.size.width - 8))
          continue;
        c = pixel (image, bounds.origin.x + x, bounds.origin.y + y);
        if (ABS (c.r - color.r) + ABS (c.g - color.g) + ABS (c.b - color.b) < 60)
          count++;
      }
  return count;
}

static void
test_strip_aliasing (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *strip;
  g_auto (Image) image = { 0, };
  const Rgb purple = { 0x91, 0x41, 0xac };
  gsize n_cells;

  /* t[0].expand(3, 2) reaches cells 0 and 1 three times each; t[2], in the
   * same colour and the plain pattern of the first view, reaches cells 4
   * and 5 once. */
  add_view (lesson, PURPLE, "t[2]");
  add_view (lesson, PURPLE, "t[0].expand(3, 2)");
  g_assert_cmpuint (lt_viewer_lesson_get_cell_aliases (lesson, &n_cells)[0], ==, 2);
  strip = show_strip (lesson, 500, 200);
  render (strip, &image);

  for (gint64 cell = 0; cell < 6; cell++)
    g_test_message ("cell %" G_GINT64_FORMAT ": %d solid pixels inside", cell,
                    count_solid (&image, strip, cell, purple));

  /* Aliased cells carry a mark in the view's own colour inside the cell; a
   * cell reached once is only tinted there. */
  g_assert_cmpint (count_solid (&image, strip, 0, purple), >, 40);
  g_assert_cmpint (count_solid (&image, strip, 1, purple), >, 40);
  g_assert_cmpint (count_solid (&image, strip, 4, purple), <, 5);
  g_assert_cmpint (count_solid (&image, strip, 5, purple), <, 5);
  g_assert_cmpint (count_solid (&image, strip, 2, purple), <, 5);

  close_window (strip);
}

/* Whether the pixels in the middle of cell @cell, where the position is
 * written, are the same in @a and @b. */
static gboolean
same_position_text (const Image *a,
                    const Image *b,
                    GtkWidget   *strip,
                    gint64       cell)
{
  graphene_rect_t bounds;

  cell_bounds (strip, cell, &bounds);
  for (int y = 0.38 * bounds.size.height; y < 0.56 * bounds.size.height; y++)
    for (int x = 0.42 * bounds.size.width; x < 0.58 * bounds.size.width; x++)
      {
        Rgb p = pixel (a, bounds.origin.x + x, bounds.origin.y + y);
        Rgb q = pixel (b, bounds.origin.x + x, bounds.origin.y + y);

        if (p.r != q.r || p.g != q.g || p.b != q.b)
          return FALSE;
      }
  return TRUE;
}

/* A still image shows the selected view's order: t and t.t(), in one
 * colour, reach the same cells, but their elements land there in other
 * orders (t.t() reads cells 0, 2, 4, 1, 3, 5), so selecting one or the
 * other changes the position written in exactly the cells where it
 * differs. */
static void
test_strip_shows_selected_order (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  LtViewerView *t = add_view (lesson, BLUE, "t");
  LtViewerView *transposed = add_view (lesson, BLUE, "t.t()");
  GtkWidget *strip;
  g_auto (Image) none = { 0, };
  g_auto (Image) first = { 0, };
  g_auto (Image) second = { 0, };

  strip = show_strip (lesson, 500, 200);
  render (strip, &none);
  lt_viewer_lesson_set_selected (lesson, t);
  render (strip, &first);
  lt_viewer_lesson_set_selected (lesson, transposed);
  render (strip, &second);

  for (gint64 cell = 0; cell < 6; cell++)
    {
      gboolean same_position = cell == 0 || cell == 5;

      g_assert_cmpint (same_position_text (&first, &second, strip, cell), ==, same_position);
      /* Without a selection no position is written. */
      g_assert_false (same_position_text (&none, &first, strip, cell));
    }

  close_window (strip);
}

/* With a view selected, the other views' stripes are dimmed. */
static void
test_strip_dims_other_views (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  LtViewerView *red = add_view (lesson, RED, "t[1]");
  GtkWidget *strip;
  g_auto (Image) none = { 0, };
  g_auto (Image) selected = { 0, };
  Rgb before, after;

  add_view (lesson, BLUE, "t.t()[0]");
  strip = show_strip (lesson, 500, 200);
  render (strip, &none);
  lt_viewer_lesson_set_selected (lesson, red);
  render (strip, &selected);

  /* Cell 4 is blue's only, in blue's half. */
  before = cell_pixel (&none, strip, 4, 0.75, 0.3);
  after = cell_pixel (&selected, strip, 4, 0.75, 0.3);
  g_test_message ("blue's stripe: %d,%d,%d, then %d,%d,%d", before.r, before.g, before.b,
                  after.r, after.g, after.b);
  g_assert_true (is_bluish (before));
  g_assert_cmpint (after.b - after.r, <, (before.b - before.r) / 2);

  close_window (strip);
}

static void
test_strip_hover_outline (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  GtkWidget *strip;
  g_auto (Image) before = { 0, };
  g_auto (Image) after = { 0, };
  graphene_rect_t bounds;
  Rgb a, b;

  strip = show_strip (lesson, 500, 200);
  render (strip, &before);
  lt_viewer_lesson_set_hover_cell (lesson, 4);
  render (strip, &after);

  /* Just outside the hovered cell, in the gap, the outline appears. */
  cell_bounds (strip, 4, &bounds);
  a = pixel (&before, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
  b = pixel (&after, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
  g_assert_cmpint (luminance (b), <, luminance (a) - 80);
  /* Not around the others. */
  cell_bounds (strip, 2, &bounds);
  a = pixel (&before, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
  b = pixel (&after, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
  g_assert_cmpint (ABS (luminance (a) - luminance (b)), <, 5);

  close_window (strip);
}

/* Counting what a snapshot drew */

static void
count_nodes (GskRenderNode *node,
             GskRenderNodeType type,
             guint         *count)
{
  if (node == NULL)
    return;
  if (gsk_render_node_get_node_type (node) == type)
    (*count)++;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        count_nodes (gsk_container_node_get_child (node, i), type, count);
      break;
    case GSK_TRANSFORM_NODE:
      count_nodes (gsk_transform_node_get_child (node), type, count);
      break;
    case GSK_CLIP_NODE:
      count_nodes (gsk_clip_node_get_child (node), type, count);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      count_nodes (gsk_rounded_clip_node_get_child (node), type, count);
      break;
    case GSK_OPACITY_NODE:
      count_nodes (gsk_opacity_node_get_child (node), type, count);
      break;
    case GSK_DEBUG_NODE:
      count_nodes (gsk_debug_node_get_child (node), type, count);
      break;
    default:
      break;
    }
}

/* A million cells: a snapshot draws the visible ones (and a margin), never
 * all of them. (How long it takes is bench-viewer-drawing's to measure.) */
static void
test_strip_large (void)
{
  const gint64 shape[] = { 1000000 };
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  GtkWidget *widget;
  GtkAdjustment *vadjustment;
  g_auto (Image) image = { 0, };
  const struct { double zoom; guint wrap; } cases[] = {
    { 1.0, 16 }, { 1.0, 64 }, { 0.25, 256 }, { 4.0, 16 },
  };

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  add_view (lesson, RED, "t[::3]");
  add_view (lesson, BLUE, "t.view(1000, 1000).t()[1]");
  add_view (lesson, PURPLE, "t[:1000].expand(2, 1000)");

  widget = show_strip (lesson, 1024, 768);
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      GtkWidgetClass *widget_class = GTK_WIDGET_GET_CLASS (widget);
      double cell = 48 * cases[c].zoom, pitch = cell + MAX (2, 4 * cases[c].zoom);
      gint64 visible_rows = (gint64) (gtk_widget_get_height (widget) / pitch) + 2;
      gint64 visible_cols = MIN ((gint64) (gtk_widget_get_width (widget) / pitch) + 2,
                                 (gint64) cases[c].wrap);
      gint64 visible = visible_rows * visible_cols;
      g_autoptr (GskRenderNode) node = NULL;
      GtkSnapshot *snapshot;
      guint borders = 0, cached_borders = 0;

      lt_viewer_storage_strip_set_zoom (LT_VIEWER_STORAGE_STRIP (widget), cases[c].zoom);
      lt_viewer_storage_strip_set_wrap_width (LT_VIEWER_STORAGE_STRIP (widget), cases[c].wrap);
      viewer_test_wait_for_frame (widget);
      gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment) / 2);

      /* The first snapshot after scrolling far builds the cached layer of
       * the rows now shown. */
      snapshot = gtk_snapshot_new ();
      widget_class->snapshot (widget, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      count_nodes (node, GSK_BORDER_NODE, &borders);

      /* Scrolling a little within it reuses the cached layer: the same
       * node, moved. */
      gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_value (vadjustment) + pitch);
      snapshot = gtk_snapshot_new ();
      widget_class->snapshot (widget, snapshot);
      g_clear_pointer (&node, gsk_render_node_unref);
      node = gtk_snapshot_free_to_node (snapshot);
      count_nodes (node, GSK_BORDER_NODE, &cached_borders);

      g_test_message ("1,000,000 cells, zoom %.2f, wrap %u: %" G_GINT64_FORMAT " cells visible, "
                      "%u drawn (border nodes)", cases[c].zoom, cases[c].wrap, visible, borders);
      /* One border a cell, two for an aliased one: the visible cells and a
       * band of half a screen around them, not a million. */
      g_assert_cmpuint (borders, >=, visible / 2);
      g_assert_cmpuint (borders, <=, 2 * 3 * visible);
      g_assert_cmpuint (cached_borders, ==, borders);
    }

  render (widget, &image);
  close_window (widget);
}

/* The view grid */

static void
test_grid_hover_outline (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  LtViewerView *view = add_view (lesson, PURPLE, "t[0].expand(3, 2)");
  GtkWidget *grid = lt_viewer_view_grid_new ();
  g_auto (Image) before = { 0, };
  g_auto (Image) after = { 0, };

  lt_viewer_view_grid_set_lesson (LT_VIEWER_VIEW_GRID (grid), lesson);
  lt_viewer_view_grid_set_view (LT_VIEWER_VIEW_GRID (grid), view);
  gtk_widget_add_css_class (grid, "view");
  show_in_window (grid, 400, 300);
  render (grid, &before);

  /* Cell 1 is element (i, 1) for every row i: 1, 3 and 5 are outlined. */
  lt_viewer_lesson_set_hover_cell (lesson, 1);
  render (grid, &after);
  for (gint64 element = 0; element < 6; element++)
    {
      graphene_rect_t bounds;
      Rgb a, b;

      g_assert_true (lt_viewer_view_grid_get_element_bounds (LT_VIEWER_VIEW_GRID (grid), element,
                                                             &bounds));
      a = pixel (&before, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
      b = pixel (&after, bounds.origin.x - 1, bounds.origin.y + bounds.size.height / 2);
      if (element % 2 == 1)
        g_assert_cmpint (luminance (b), <, luminance (a) - 80);
      else
        g_assert_cmpint (ABS (luminance (a) - luminance (b)), <, 5);

      /* Every element is tinted with the view's colour: purple has more
       * red and blue than green. */
      a = pixel (&after, bounds.origin.x + bounds.size.width / 2,
                 bounds.origin.y + bounds.size.height / 2);
      g_assert_cmpint (a.r - a.g, >, 20);
      g_assert_cmpint (a.b - a.g, >, 20);
    }

  close_window (grid);
}

/* A view of a million elements: the grid draws the visible ones (and a
 * margin). (How long it takes is bench-viewer-drawing's to measure.) */
static void
test_grid_large (void)
{
  const gint64 shape[] = { 1000000 };
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  GtkWidget *grid = lt_viewer_view_grid_new ();
  GtkWidget *scrolled;
  GtkAdjustment *hadjustment, *vadjustment;
  GtkSnapshot *snapshot;
  LtViewerView *view;
  graphene_rect_t bounds;
  guint borders = 0;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  g_assert_no_error (error);
  view = add_view (lesson, BLUE, "t.view(1000, 1000)");
  lt_viewer_view_grid_set_lesson (LT_VIEWER_VIEW_GRID (grid), lesson);
  lt_viewer_view_grid_set_view (LT_VIEWER_VIEW_GRID (grid), view);
  show_in_window (grid, 800, 600);

  scrolled = gtk_widget_get_ancestor (grid, GTK_TYPE_SCROLLED_WINDOW);
  hadjustment = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled));
  vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (hadjustment, gtk_adjustment_get_upper (hadjustment) / 2);
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment) / 2);
  viewer_test_wait_for_frame (grid);

  /* The element in the middle is on screen. */
  g_assert_true (lt_viewer_view_grid_get_element_bounds (LT_VIEWER_VIEW_GRID (grid),
                                                         500 * 1000 + 500, &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, gtk_adjustment_get_value (hadjustment));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=,
                     gtk_adjustment_get_value (hadjustment)
                     + gtk_adjustment_get_page_size (hadjustment));

  /* New values rebuild the cached layer. */
  g_signal_emit_by_name (lesson, "changed");
  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (grid)->snapshot (grid, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  count_nodes (node, GSK_BORDER_NODE, &borders);

  /* About 17 x 13 elements show in 800 x 600; the layer holds twice as
   * many each way. */
  g_test_message ("1,000,000 elements: %u drawn (border nodes)", borders);
  g_assert_cmpuint (borders, >=, 17 * 12);
  g_assert_cmpuint (borders, <=, 4 * 19 * 15);

  close_window (grid);
}

/* Export */

typedef struct
{
  char *root;
} SvgCheck;

static void
on_start_element (GMarkupParseContext  *context,
                  const char           *element_name,
                  const char          **attribute_names,
                  const char          **attribute_values,
                  gpointer              user_data,
                  GError              **error)
{
  SvgCheck *check = user_data;

  if (check->root == NULL)
    check->root = g_strdup (element_name);
}

static void
test_export_files (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *png_path = NULL;
  g_autofree char *svg_path = NULL;
  g_autofree char *svg = NULL;
  g_autoptr (GFile) png_file = NULL;
  g_autoptr (GFile) svg_file = NULL;
  g_autoptr (GFile) missing = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GdkTexture) loaded = NULL;
  g_autoptr (GMarkupParseContext) parser = NULL;
  const GMarkupParser svg_parser = { on_start_element, NULL, NULL, NULL, NULL };
  SvgCheck check = { NULL };
  const char *start;
  GtkWidget *strip;
  gsize length;

  add_view (lesson, RED, "t[1]");
  add_view (lesson, BLUE, "t.t()[0]");
  strip = show_strip (lesson, 500, 200);
  viewer_test_wait_for_frame (strip);

  dir = g_dir_make_tmp ("test-viewer-render-XXXXXX", &error);
  g_assert_no_error (error);
  png_path = g_build_filename (dir, "strip.png", NULL);
  svg_path = g_build_filename (dir, "strip.svg", NULL);
  png_file = g_file_new_for_path (png_path);
  svg_file = g_file_new_for_path (svg_path);

  /* PNG: loads back at the size rendered. */
  texture = lt_viewer_export_texture (strip, &error);
  g_assert_no_error (error);
  g_assert_true (lt_viewer_export_png (strip, png_file, &error));
  g_assert_no_error (error);
  loaded = gdk_texture_new_from_file (png_file, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (loaded), ==, gdk_texture_get_width (texture));
  g_assert_cmpint (gdk_texture_get_height (loaded), ==, gdk_texture_get_height (texture));

  /* SVG: XML whose root element is svg. */
  g_assert_true (lt_viewer_export_svg (strip, svg_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg_path, &svg, &length, &error));
  g_assert_no_error (error);
  start = svg;
  if (g_str_has_prefix (start, "<?xml"))
    start = strstr (start, "?>") + 2;
  while (g_ascii_isspace (*start))
    start++;
  g_assert_true (g_str_has_prefix (start, "<svg"));
  parser = g_markup_parse_context_new (&svg_parser, 0, &check, NULL);
  g_assert_true (g_markup_parse_context_parse (parser, svg, length, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (parser, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (check.root, ==, "svg");
  g_free (check.root);

  /* A folder that does not exist is an error, and nothing is written. */
  missing = g_file_new_build_filename (dir, "missing", "strip.svg", NULL);
  g_assert_false (lt_viewer_export_svg (strip, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_clear_object (&missing);
  missing = g_file_new_build_filename (dir, "missing", "strip.png", NULL);
  g_assert_false (lt_viewer_export_png (strip, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  close_window (strip);
  g_assert_cmpint (g_remove (png_path), ==, 0);
  g_assert_cmpint (g_remove (svg_path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Run in a subprocess: writes fail past 100 bytes there, as on a full disk. */
static void
export_past_the_limit (void)
{
  g_autoptr (LtViewerLesson) lesson = new_points_lesson ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-viewer-render-XXXXXX", &error);
  const char *names[] = { "strip.png", "strip.svg" };
  struct rlimit limit = { 100, 100 };
  g_autoptr (GDir) listing = NULL;
  guint n_files = 0;
  GtkWidget *strip;

  g_assert_no_error (error);
  add_view (lesson, RED, "t[1]");
  strip = show_strip (lesson, 500, 200);
  viewer_test_wait_for_frame (strip);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_assert_true (g_file_set_contents (path, "the old drawing", -1, &error));
    }

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autofree char *contents = NULL;
      gboolean saved;

      saved = g_str_has_suffix (path, ".png") ? lt_viewer_export_png (strip, file, &error)
                                              : lt_viewer_export_svg (strip, file, &error);
      g_assert_false (saved);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", names[i], error->message);
      g_clear_error (&error);
      g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
      g_assert_cmpstr (contents, ==, "the old drawing");
    }

  /* No temporary file is left beside them. */
  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, G_N_ELEMENTS (names));

  close_window (strip);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* An export whose write fails half-way leaves the previous file whole. */
static void
test_export_write_fails (void)
{
  if (g_test_subprocess ())
    {
      export_past_the_limit ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_export_unrealized (void)
{
  g_autoptr (GError) error = NULL;
  GtkWidget *strip = g_object_ref_sink (lt_viewer_storage_strip_new ());
  g_autoptr (GdkTexture) texture = NULL;

  texture = lt_viewer_export_texture (strip, &error);
  g_assert_null (texture);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_object_unref (strip);
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

  g_test_add_func ("/viewer/render/strip/colors", test_strip_colors);
  g_test_add_func ("/viewer/render/strip/colors-dark", test_strip_colors_dark);
  g_test_add_func ("/viewer/render/strip/aliasing", test_strip_aliasing);
  g_test_add_func ("/viewer/render/strip/selected-order", test_strip_shows_selected_order);
  g_test_add_func ("/viewer/render/strip/dims-other-views", test_strip_dims_other_views);
  g_test_add_func ("/viewer/render/strip/hover-outline", test_strip_hover_outline);
  g_test_add_func ("/viewer/render/strip/large", test_strip_large);
  g_test_add_func ("/viewer/render/grid/hover-outline", test_grid_hover_outline);
  g_test_add_func ("/viewer/render/grid/large", test_grid_large);
  g_test_add_func ("/viewer/render/export/files", test_export_files);
  g_test_add_func ("/viewer/render/export/write-fails", test_export_write_fails);
  g_test_add_func ("/viewer/render/export/unrealized", test_export_unrealized);

  return g_test_run ();
}
