/* lt-viewer-storage-overview.c: a minimap of a whole storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-cell-painter.h"
#include "lt-viewer-storage-overview.h"

/**
 * LtViewerStorageOverview:
 *
 * The whole storage of a #LtViewerStorageStrip's lesson at a glance, for
 * storages too large to read cell by cell: each small square stands for a
 * run of consecutive cells, in storage order, and takes the colour of the
 * selected view where it reaches one of them (of another view, lighter,
 * where only that one does). A frame marks the cells the strip shows;
 * clicking or dragging scrolls the strip there.
 */

/* A square's side, and at most this many rows of them. */
#define SQUARE   4
#define MAX_ROWS 16

/* The frame around what the strip shows: its line, and its least width. */
#define FRAME     2
#define MIN_FRAME 12

/* As the strip dims the views that are not selected. */
#define DIMMED_ALPHA     0.35
#define UNREACHED_ALPHA  0.08

struct _LtViewerStorageOverview
{
  GtkWidget parent_instance;

  LtViewerStorageStrip *strip;
  LtViewerLesson *lesson;
  GtkAdjustment *vadjustment;

  /* Per square, the views reaching one of its cells; rebuilt when the
   * lesson changes or the squares do. */
  guint32 *masks;
  gint64 n_squares;
  gint64 per_square;
  gboolean masks_valid;
};

enum
{
  PROP_0,
  PROP_STRIP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (LtViewerStorageOverview, lt_viewer_storage_overview, GTK_TYPE_WIDGET)

static gint64
get_n_cells (LtViewerStorageOverview *self)
{
  LtTensor *base = self->lesson != NULL ? lt_viewer_lesson_get_base (self->lesson) : NULL;

  return base != NULL ? lt_storage_get_n_elements (lt_tensor_get_storage (base)) : 0;
}

/* How many cells a square stands for at @width, so that the whole storage
 * takes at most MAX_ROWS rows. */
static gint64
per_square_at (LtViewerStorageOverview *self,
               int                      width,
               gint64                  *across,
               gint64                  *rows)
{
  gint64 n_cells = get_n_cells (self);
  gint64 n_across = MAX (width / SQUARE, 1);
  gint64 per = MAX ((n_cells + n_across * MAX_ROWS - 1) / (n_across * MAX_ROWS), 1);
  gint64 n_squares = (n_cells + per - 1) / per;

  if (across != NULL)
    *across = n_across;
  if (rows != NULL)
    *rows = (n_squares + n_across - 1) / n_across;
  return per;
}

static void
ensure_masks (LtViewerStorageOverview *self)
{
  gint64 per = per_square_at (self, gtk_widget_get_width (GTK_WIDGET (self)), NULL, NULL);
  const guint32 *cell_views;
  gsize n_cells = 0;

  if (self->masks_valid && per == self->per_square)
    return;

  g_clear_pointer (&self->masks, g_free);
  self->per_square = per;
  self->n_squares = 0;
  self->masks_valid = TRUE;
  if (self->lesson == NULL)
    return;

  cell_views = lt_viewer_lesson_get_cell_views (self->lesson, &n_cells);
  self->n_squares = ((gint64) n_cells + per - 1) / per;
  self->masks = g_new0 (guint32, MAX (self->n_squares, 1));
  if (cell_views == NULL)
    return;
  for (gsize cell = 0; cell < n_cells; cell++)
    self->masks[cell / per] |= cell_views[cell];
}

static void
invalidate (LtViewerStorageOverview *self)
{
  self->masks_valid = FALSE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static int
selected_position (LtViewerStorageOverview *self)
{
  LtViewerView *selected = lt_viewer_lesson_get_selected (self->lesson);

  for (guint i = 0; selected != NULL && i < lt_viewer_lesson_get_n_views (self->lesson); i++)
    if (lt_viewer_lesson_get_view (self->lesson, i) == selected)
      return (int) i;
  return -1;
}

/* The view whose colour a square with @mask takes, or -1. */
static int
square_view (guint32   mask,
             int       selected,
             gboolean *dimmed)
{
  *dimmed = FALSE;
  if (selected >= 0 && (mask & (1u << selected)) != 0)
    return selected;
  if (mask == 0)
    return -1;
  *dimmed = selected >= 0;
  return g_bit_nth_lsf (mask, -1);
}

static GdkRGBA
square_color (LtViewerStorageOverview *self,
              guint32                  mask,
              int                      selected,
              const GdkRGBA           *fg)
{
  gboolean dimmed;
  int view = square_view (mask, selected, &dimmed);
  GdkRGBA color;

  if (view < 0
      || !gdk_rgba_parse (&color,
                          lt_viewer_view_get_color (lt_viewer_lesson_get_view (self->lesson,
                                                                               view))))
    return lt_viewer_with_alpha (fg, UNREACHED_ALPHA);
  return dimmed ? lt_viewer_with_alpha (&color, DIMMED_ALPHA) : color;
}

/* The frame around the squares of the cells the strip shows, one box per
 * row of squares it spans. */
static void
append_viewport (LtViewerStorageOverview *self,
                 GtkSnapshot             *snapshot,
                 gint64                   across,
                 const GdkRGBA           *fg)
{
  gint64 first, end, square0, square1;

  if (self->strip == NULL || !lt_viewer_storage_strip_get_visible_cells (self->strip, &first, &end)
      || end <= first)
    return;
  square0 = first / self->per_square;
  square1 = (end - 1) / self->per_square;
  for (gint64 row = square0 / across; row <= square1 / across; row++)
    {
      gint64 from = MAX (square0, row * across) - row * across;
      gint64 to = MIN (square1, row * across + across - 1) - row * across;
      GskRoundedRect box;

      double width = MAX ((to - from + 1) * SQUARE, MIN_FRAME);
      double x = (from + to + 1) * SQUARE / 2.0 - width / 2.0;

      /* Around the squares, and wide enough to be seen when the strip
       * shows less than a square. */
      gsk_rounded_rect_init_from_rect (&box,
                                       &GRAPHENE_RECT_INIT (x - FRAME, row * SQUARE - FRAME,
                                                            width + 2 * FRAME,
                                                            SQUARE + 2 * FRAME),
                                       FRAME);
      gtk_snapshot_append_border (snapshot, &box, (float[]) { FRAME, FRAME, FRAME, FRAME },
                                  (GdkRGBA[]) { *fg, *fg, *fg, *fg });
    }
}

static void
lt_viewer_storage_overview_snapshot (GtkWidget   *widget,
                                     GtkSnapshot *snapshot)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (widget);
  gint64 across;
  int selected;
  GdkRGBA fg;

  if (self->lesson == NULL)
    return;
  ensure_masks (self);
  per_square_at (self, gtk_widget_get_width (widget), &across, NULL);
  lt_viewer_get_foreground (widget, &fg);
  selected = selected_position (self);

  /* Runs of one colour along a row are one rectangle. */
  for (gint64 row = 0; row * across < self->n_squares; row++)
    {
      gint64 run_start = 0;
      GdkRGBA run = { 0 };

      for (gint64 column = 0; column <= across; column++)
        {
          gint64 square = row * across + column;
          gboolean end = column == across || square >= self->n_squares;
          GdkRGBA color = { 0 };

          if (!end)
            color = square_color (self, self->masks[square], selected, &fg);
          if (column > 0 && (end || !gdk_rgba_equal (&color, &run)))
            gtk_snapshot_append_color (snapshot, &run,
                                       &GRAPHENE_RECT_INIT (run_start * SQUARE, row * SQUARE,
                                                            (column - run_start) * SQUARE,
                                                            SQUARE));
          if (end)
            break;
          if (column == 0 || !gdk_rgba_equal (&color, &run))
            {
              run_start = column;
              run = color;
            }
        }
    }
  append_viewport (self, snapshot, across, &fg);
}

static GtkSizeRequestMode
lt_viewer_storage_overview_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
lt_viewer_storage_overview_measure (GtkWidget      *widget,
                                    GtkOrientation  orientation,
                                    int             for_size,
                                    int            *minimum,
                                    int            *natural,
                                    int            *minimum_baseline,
                                    int            *natural_baseline)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 16 * SQUARE;
      *natural = 64 * SQUARE;
    }
  else
    {
      gint64 rows = 0;

      if (self->lesson != NULL && get_n_cells (self) > 0)
        per_square_at (self, for_size < 0 ? 64 * SQUARE : for_size, NULL, &rows);
      *minimum = *natural = (int) rows * SQUARE;
    }
}

static void
lt_viewer_storage_overview_size_allocate (GtkWidget *widget,
                                          int        width,
                                          int        height,
                                          int        baseline)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (widget);

  if (per_square_at (self, width, NULL, NULL) != self->per_square)
    self->masks_valid = FALSE;
}

/**
 * lt_viewer_storage_overview_cell_at:
 * @self: a #LtViewerStorageOverview
 * @x: a point in the widget
 * @y: a point in the widget
 *
 * Returns: the first cell of the square at (@x, @y), or -1 outside them
 */
gint64
lt_viewer_storage_overview_cell_at (LtViewerStorageOverview *self,
                                    double                   x,
                                    double                   y)
{
  gint64 across, square;

  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_OVERVIEW (self), -1);

  if (self->lesson == NULL || x < 0 || y < 0)
    return -1;
  ensure_masks (self);
  per_square_at (self, gtk_widget_get_width (GTK_WIDGET (self)), &across, NULL);
  if (x >= across * SQUARE)
    return -1;
  square = (gint64) (y / SQUARE) * across + (gint64) (x / SQUARE);
  return square < self->n_squares ? square * self->per_square : -1;
}

static void
scroll_strip_to (LtViewerStorageOverview *self,
                 double                   x,
                 double                   y)
{
  gint64 cell = lt_viewer_storage_overview_cell_at (self, x, y);

  if (cell >= 0 && self->strip != NULL)
    lt_viewer_storage_strip_scroll_to_cell (self->strip, cell);
}

static void
on_drag_begin (GtkGestureDrag          *gesture,
               double                   x,
               double                   y,
               LtViewerStorageOverview *self)
{
  scroll_strip_to (self, x, y);
}

static void
on_drag_update (GtkGestureDrag          *gesture,
                double                   dx,
                double                   dy,
                LtViewerStorageOverview *self)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    scroll_strip_to (self, x + dx, y + dy);
}

static gboolean
lt_viewer_storage_overview_query_tooltip (GtkWidget  *widget,
                                          int         x,
                                          int         y,
                                          gboolean    keyboard_mode,
                                          GtkTooltip *tooltip)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (widget);
  gint64 first = lt_viewer_storage_overview_cell_at (self, x, y);
  g_autofree char *from = NULL, *to = NULL, *cells = NULL, *text = NULL;
  gboolean dimmed;
  int view;

  if (first < 0)
    return FALSE;
  view = lt_viewer_storage_overview_get_square_view (self, first, &dimmed);
  from = g_strdup_printf ("%" G_GINT64_FORMAT, first);
  to = g_strdup_printf ("%" G_GINT64_FORMAT, MIN (first + self->per_square, get_n_cells (self)) - 1);
  if (g_str_equal (from, to))
    /* Translators: one storage cell in the overview, "cell 5" */
    cells = g_strdup_printf (_("Cell %s"), from);
  else
    /* Translators: a run of storage cells in the overview, "cells 0 to 4095" */
    cells = g_strdup_printf (_("Cells %s to %s"), from, to);
  if (view < 0)
    /* Translators: %s is "Cells 0 to 4095" or "Cell 5" */
    text = g_strdup_printf (_("%s: no view reaches them"), cells);
  else
    /* Translators: %s is "Cells 0 to 4095" or "Cell 5", then a view's name */
    text = g_strdup_printf (_("%s: reached by %s"), cells,
                            lt_viewer_view_get_name (lt_viewer_lesson_get_view (self->lesson,
                                                                                view)));
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_lesson_changed (LtViewerStorageOverview *self)
{
  invalidate (self);
}

static void
on_selected (LtViewerStorageOverview *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_lesson (LtViewerStorageOverview *self,
            LtViewerLesson          *lesson)
{
  if (self->lesson == lesson)
    return;
  if (self->lesson != NULL)
    g_signal_handlers_disconnect_by_data (self->lesson, self);
  g_set_object (&self->lesson, lesson);
  if (lesson != NULL)
    {
      g_signal_connect_object (lesson, "changed", G_CALLBACK (on_lesson_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (lesson, "notify::selected", G_CALLBACK (on_selected), self,
                               G_CONNECT_SWAPPED);
    }
  invalidate (self);
}

static void
on_strip_lesson (LtViewerStorageOverview *self)
{
  set_lesson (self, lt_viewer_storage_strip_get_lesson (self->strip));
}

static void
on_strip_scrolled (LtViewerStorageOverview *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_strip_vadjustment (LtViewerStorageOverview *self)
{
  GtkAdjustment *adjustment = NULL;

  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  if (self->strip != NULL)
    g_object_get (self->strip, "vadjustment", &adjustment, NULL);
  g_clear_object (&self->vadjustment);
  self->vadjustment = adjustment;
  if (adjustment != NULL)
    {
      g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (on_strip_scrolled), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (adjustment, "changed", G_CALLBACK (on_strip_scrolled), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
lt_viewer_storage_overview_dispose (GObject *object)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (object);

  lt_viewer_storage_overview_set_strip (self, NULL);
  G_OBJECT_CLASS (lt_viewer_storage_overview_parent_class)->dispose (object);
}

static void
lt_viewer_storage_overview_finalize (GObject *object)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (object);

  g_free (self->masks);
  G_OBJECT_CLASS (lt_viewer_storage_overview_parent_class)->finalize (object);
}

static void
lt_viewer_storage_overview_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_STRIP:
      g_value_set_object (value, self->strip);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_storage_overview_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  LtViewerStorageOverview *self = LT_VIEWER_STORAGE_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_STRIP:
      lt_viewer_storage_overview_set_strip (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_storage_overview_class_init (LtViewerStorageOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lt_viewer_storage_overview_dispose;
  object_class->finalize = lt_viewer_storage_overview_finalize;
  object_class->get_property = lt_viewer_storage_overview_get_property;
  object_class->set_property = lt_viewer_storage_overview_set_property;
  widget_class->snapshot = lt_viewer_storage_overview_snapshot;
  widget_class->get_request_mode = lt_viewer_storage_overview_get_request_mode;
  widget_class->measure = lt_viewer_storage_overview_measure;
  widget_class->size_allocate = lt_viewer_storage_overview_size_allocate;
  widget_class->query_tooltip = lt_viewer_storage_overview_query_tooltip;

  /**
   * LtViewerStorageOverview:strip:
   *
   * The storage strip whose lesson is shown and which clicks scroll.
   */
  properties[PROP_STRIP] =
    g_param_spec_object ("strip", NULL, NULL, LT_VIEWER_TYPE_STORAGE_STRIP,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "storage-overview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
lt_viewer_storage_overview_init (LtViewerStorageOverview *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Overview of the whole storage"), -1);
  self->per_square = 1;
}

/**
 * lt_viewer_storage_overview_new:
 *
 * Returns: (transfer floating): a new overview, following no strip yet
 */
GtkWidget *
lt_viewer_storage_overview_new (void)
{
  return g_object_new (LT_VIEWER_TYPE_STORAGE_OVERVIEW, NULL);
}

/**
 * lt_viewer_storage_overview_get_strip:
 * @self: a #LtViewerStorageOverview
 *
 * Returns: (transfer none) (nullable): the strip it follows
 */
LtViewerStorageStrip *
lt_viewer_storage_overview_get_strip (LtViewerStorageOverview *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_OVERVIEW (self), NULL);

  return self->strip;
}

/**
 * lt_viewer_storage_overview_set_strip:
 * @self: a #LtViewerStorageOverview
 * @strip: (nullable): the strip to follow
 *
 * Shows @strip's lesson, marks the cells @strip shows and scrolls it on
 * clicks.
 */
void
lt_viewer_storage_overview_set_strip (LtViewerStorageOverview *self,
                                      LtViewerStorageStrip    *strip)
{
  g_return_if_fail (LT_VIEWER_IS_STORAGE_OVERVIEW (self));
  g_return_if_fail (strip == NULL || LT_VIEWER_IS_STORAGE_STRIP (strip));

  if (self->strip == strip)
    return;
  if (self->strip != NULL)
    g_signal_handlers_disconnect_by_data (self->strip, self);
  g_set_object (&self->strip, strip);
  if (strip != NULL)
    {
      g_signal_connect_object (strip, "notify::lesson", G_CALLBACK (on_strip_lesson), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (strip, "notify::vadjustment", G_CALLBACK (on_strip_vadjustment),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (strip, "notify::wrap-width", G_CALLBACK (on_strip_scrolled), self,
                               G_CONNECT_SWAPPED);
    }
  set_lesson (self, strip != NULL ? lt_viewer_storage_strip_get_lesson (strip) : NULL);
  on_strip_vadjustment (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STRIP]);
}

/**
 * lt_viewer_storage_overview_get_per_square:
 * @self: a #LtViewerStorageOverview
 *
 * Returns: how many consecutive cells each square stands for
 */
gint64
lt_viewer_storage_overview_get_per_square (LtViewerStorageOverview *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_OVERVIEW (self), 1);

  ensure_masks (self);
  return self->per_square;
}

/**
 * lt_viewer_storage_overview_get_square_view:
 * @self: a #LtViewerStorageOverview
 * @cell: a storage index
 * @dimmed: (out): whether the colour is lightened, another view than the
 *   selected one reaching the square
 *
 * Returns: the position of the view whose colour the square holding
 *   @cell takes, or -1 when no view reaches any of its cells
 */
int
lt_viewer_storage_overview_get_square_view (LtViewerStorageOverview *self,
                                            gint64                   cell,
                                            gboolean                *dimmed)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_OVERVIEW (self), -1);
  g_return_val_if_fail (dimmed != NULL, -1);

  *dimmed = FALSE;
  if (self->lesson == NULL)
    return -1;
  ensure_masks (self);
  if (cell < 0 || cell / self->per_square >= self->n_squares)
    return -1;
  return square_view (self->masks[cell / self->per_square], selected_position (self), dimmed);
}
