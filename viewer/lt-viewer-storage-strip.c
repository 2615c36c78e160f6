/* lt-viewer-storage-strip.c: the storage drawn as a wrapping strip of cells
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <math.h>
#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-cell-painter.h"
#include "lt-viewer-format.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-swatch.h"

/* Cell geometry at zoom 1, in pixels. */
#define CELL_SIZE   48
#define CELL_GAP    4
#define CELL_RADIUS 6

#define MIN_ZOOM 0.25
#define MAX_ZOOM 4.0
#define ZOOM_STEP 1.25

#define MAX_WRAP_WIDTH 4096

/* Below these cell sizes the index, then the value, are left out: they
 * would not be readable and would cost most of the snapshot. */
#define MIN_CELL_FOR_INDEX 32
#define MIN_CELL_FOR_VALUE 20

/* A reached cell is tinted with its view's colour (LT_VIEWER_TINT_ALPHA),
 * an unreached one with the foreground colour at a much lower alpha. */
#define DIM_FILL_ALPHA 0.05
#define DIM_LINE_ALPHA 0.15
#define DIM_TEXT_ALPHA 0.45
/* With a view selected, the others' tints are this much fainter. */
#define DIMMED_TINT    0.4

struct _LtViewerStorageStrip
{
  GtkWidget parent_instance;

  LtViewerLesson *lesson;
  LtViewerView *selected;   /* watched for its cursor */
  gint64 selected_cursor;
  gboolean reveal_pending;  /* a view was selected before the strip had a size */
  guint wrap_width;
  double zoom;

  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint hscroll_policy : 1;
  guint vscroll_policy : 1;

  /* A copy of what the lesson says, refreshed on ::changed. */
  gint64 n_cells;
  guint n_views;
  GdkRGBA view_colors[LT_VIEWER_MAX_VIEWS];

  /* The static layer (cells, text, colours) of a band of rows and columns
   * around the visible ones, in band coordinates: the band's first cell is
   * at (0, 0). Scrolling inside the band only translates it. */
  GskRenderNode *band_node;
  gboolean band_valid;
  gint64 band_row0, band_row1;
  gint64 band_col0, band_col1;
  int band_cell;
  guint band_wrap;
  GdkRGBA band_fg;

  LtViewerTextCache *index_text;
  LtViewerTextCache *value_text;
  LtViewerValueStyleCache value_styles;
  LtViewerTextCache *position_text;
  LtViewerTextCache *count_text;
};

static void lt_viewer_storage_strip_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LtViewerStorageStrip, lt_viewer_storage_strip, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE,
                                                      lt_viewer_storage_strip_scrollable_init))

enum
{
  PROP_0,
  PROP_LESSON,
  PROP_WRAP_WIDTH,
  PROP_ZOOM,
  N_PROPS,

  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

typedef struct
{
  int cell;   /* a cell's side */
  int gap;    /* between cells */
  int pitch;  /* cell + gap */
  int margin; /* around all cells */
} Geometry;

enum
{
  MOVE_LEFT,
  MOVE_RIGHT,
  MOVE_UP,
  MOVE_DOWN,
  MOVE_PAGE_UP,
  MOVE_PAGE_DOWN,
  MOVE_FIRST,
  MOVE_LAST,
};

/* Geometry */

static void
get_geometry (LtViewerStorageStrip *self,
              Geometry             *geometry)
{
  geometry->cell = MAX (4, (int) lt_viewer_round_int (CELL_SIZE * self->zoom));
  geometry->gap = MAX (2, (int) lt_viewer_round_int (CELL_GAP * self->zoom));
  geometry->pitch = geometry->cell + geometry->gap;
  geometry->margin = 2 * geometry->gap;
}

static gint64
get_n_rows (LtViewerStorageStrip *self)
{
  return (self->n_cells + self->wrap_width - 1) / self->wrap_width;
}

static gint64
get_n_cols (LtViewerStorageStrip *self)
{
  return MIN (self->n_cells, (gint64) self->wrap_width);
}

static double
get_content_width (LtViewerStorageStrip *self,
                   const Geometry       *geometry)
{
  gint64 n_cols = get_n_cols (self);

  return 2.0 * geometry->margin + (n_cols > 0 ? (double) n_cols * geometry->pitch - geometry->gap
                                              : 0.0);
}

static double
get_content_height (LtViewerStorageStrip *self,
                    const Geometry       *geometry)
{
  gint64 n_rows = get_n_rows (self);

  return 2.0 * geometry->margin + (n_rows > 0 ? (double) n_rows * geometry->pitch - geometry->gap
                                              : 0.0);
}

static double
get_hvalue (LtViewerStorageStrip *self)
{
  return self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0.0;
}

static double
get_vvalue (LtViewerStorageStrip *self)
{
  return self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0.0;
}

/* The bounds of @cell in content coordinates (before scrolling). */
static void
get_content_bounds (LtViewerStorageStrip *self,
                    const Geometry       *geometry,
                    gint64                cell,
                    double               *x,
                    double               *y)
{
  *x = geometry->margin + (double) (cell % self->wrap_width) * geometry->pitch;
  *y = geometry->margin + (double) (cell / self->wrap_width) * geometry->pitch;
}

/* Cache */

static void
invalidate_band (LtViewerStorageStrip *self)
{
  self->band_valid = FALSE;
  g_clear_pointer (&self->band_node, gsk_render_node_unref);
}

static void
update_accessible (LtViewerStorageStrip *self)
{
  g_autofree char *label = NULL;
  const guint32 *masks;
  gsize n_cells = 0;
  gint64 n_reached = 0;
  char total_text[24], reached_text[24];
  const char *dtype;

  if (self->lesson == NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Storage"),
                                      -1);
      return;
    }

  /* One pass over the masks per change of the lesson, never per frame. */
  masks = lt_viewer_lesson_get_cell_views (self->lesson, &n_cells);
  for (gsize i = 0; i < n_cells; i++)
    n_reached += masks[i] != 0;

  dtype = lt_dtype_get_name (lt_viewer_lesson_get_dtype (self->lesson));
  /* G_GINT64_FORMAT in a message would cut it short for xgettext. */
  g_snprintf (total_text, sizeof total_text, "%" G_GINT64_FORMAT, self->n_cells);
  g_snprintf (reached_text, sizeof reached_text, "%" G_GINT64_FORMAT, n_reached);
  /* Translators: the first and last %s count storage cells; the middle one
   * is a dtype such as float32 */
  label = g_strdup_printf (ngettext ("Storage of %s %s element; %s reached by views",
                                     "Storage of %s %s elements; %s reached by views",
                                     (gulong) MIN (self->n_cells, G_MAXLONG)),
                           total_text, dtype, reached_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

/* Reads what the drawing needs from the lesson. */
static void
refresh (LtViewerStorageStrip *self)
{
  gint64 old_n_cells = self->n_cells;

  self->n_cells = 0;
  self->n_views = 0;
  if (self->lesson != NULL)
    {
      LtTensor *base = lt_viewer_lesson_get_base (self->lesson);

      self->n_cells = base != NULL ? lt_storage_get_n_elements (lt_tensor_get_storage (base)) : 0;
      self->n_views = MIN (lt_viewer_lesson_get_n_views (self->lesson), LT_VIEWER_MAX_VIEWS);
      for (guint i = 0; i < self->n_views; i++)
        {
          LtViewerView *view = lt_viewer_lesson_get_view (self->lesson, i);

          if (!gdk_rgba_parse (&self->view_colors[i], lt_viewer_view_get_color (view)))
            self->view_colors[i] = (GdkRGBA) { 0.5, 0.5, 0.5, 1.0 };
        }
    }

  invalidate_band (self);
  update_accessible (self);
  if (old_n_cells != self->n_cells)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Scrolling */

static void
on_adjustment_value_changed (GtkAdjustment        *adjustment,
                             LtViewerStorageStrip *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (LtViewerStorageStrip  *self,
                GtkAdjustment        **slot,
                GtkAdjustment         *adjustment)
{
  if (adjustment != NULL && *slot == adjustment)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, on_adjustment_value_changed, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", G_CALLBACK (on_adjustment_value_changed), self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
configure_adjustment (GtkAdjustment *adjustment,
                      double         content,
                      double         page,
                      double         step)
{
  double upper = MAX (content, page);

  gtk_adjustment_configure (adjustment,
                            CLAMP (gtk_adjustment_get_value (adjustment), 0, upper - page),
                            0, upper, step, page * 0.9, page);
}

static void
scroll_to_cell (LtViewerStorageStrip *self,
                gint64                cell)
{
  Geometry geometry;
  double x, y, page, value;

  if (cell < 0 || cell >= self->n_cells)
    return;

  get_geometry (self, &geometry);
  get_content_bounds (self, &geometry, cell, &x, &y);

  page = gtk_adjustment_get_page_size (self->vadjustment);
  value = gtk_adjustment_get_value (self->vadjustment);
  if (y - geometry.margin < value)
    gtk_adjustment_set_value (self->vadjustment, y - geometry.margin);
  else if (y + geometry.cell + geometry.margin > value + page)
    gtk_adjustment_set_value (self->vadjustment, y + geometry.cell + geometry.margin - page);

  page = gtk_adjustment_get_page_size (self->hadjustment);
  value = gtk_adjustment_get_value (self->hadjustment);
  if (x - geometry.margin < value)
    gtk_adjustment_set_value (self->hadjustment, x - geometry.margin);
  else if (x + geometry.cell + geometry.margin > value + page)
    gtk_adjustment_set_value (self->hadjustment, x + geometry.cell + geometry.margin - page);
}

/* The storage cells @element of @view covers in the lesson's base storage:
 * one, or several (or part of one) when the view reinterprets the storage
 * with another dtype. */
static gboolean
get_element_cells (LtViewerStorageStrip *self,
                   LtViewerView         *view,
                   gint64                element,
                   gint64               *first,
                   gint64               *last)
{
  LtTensor *tensor = lt_viewer_view_get_tensor (view);
  LtStorage *storage, *base_storage;
  gint64 index, size, base_size, delta;

  if (tensor == NULL)
    return FALSE;
  index = lt_viewer_view_get_storage_index (view, element);
  if (index < 0)
    return FALSE;

  storage = lt_tensor_get_storage (tensor);
  base_storage = lt_tensor_get_storage (lt_viewer_lesson_get_base (self->lesson));
  if (storage == base_storage)
    {
      *first = *last = index;
      return TRUE;
    }
  if (!lt_storage_shares_memory (storage, base_storage))
    return FALSE;

  size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (storage));
  base_size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (base_storage));
  delta = (gint64) (lt_storage_get_data_address (storage)
                    - lt_storage_get_data_address (base_storage));
  *first = MAX ((delta + index * size) / base_size, 0);
  *last = MIN ((delta + (index + 1) * size - 1) / base_size, self->n_cells - 1);
  return *first <= *last;
}

static void
on_selected_changed (LtViewerView         *view,
                     LtViewerStorageStrip *self)
{
  gint64 cursor = lt_viewer_view_get_cursor (view);
  gint64 first, last;

  /* Stepping through a long view must keep its cell on screen. */
  if (cursor != self->selected_cursor
      && get_element_cells (self, view, cursor, &first, &last))
    scroll_to_cell (self, first);
  self->selected_cursor = cursor;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A newly selected view whose cells are all scrolled away is brought into
 * view at its cursor's cell (its first element's without a cursor):
 * selecting t[550] of a million cells shows row 550. A view with a cell on screen stays where it is. */
static void
reveal_selected (LtViewerStorageStrip *self)
{
  const guint32 *cell_views;
  gsize n_cells = 0;
  gint64 first, end, cell_first, cell_last;
  int bit = -1;

  self->reveal_pending = FALSE;
  if (self->selected == NULL)
    return;
  if (!lt_viewer_storage_strip_get_visible_cells (self, &first, &end))
    {
      self->reveal_pending = gtk_widget_get_height (GTK_WIDGET (self)) <= 0;
      return;
    }
  for (guint i = 0; i < lt_viewer_lesson_get_n_views (self->lesson) && i < 32; i++)
    if (lt_viewer_lesson_get_view (self->lesson, i) == self->selected)
      bit = (int) i;
  cell_views = lt_viewer_lesson_get_cell_views (self->lesson, &n_cells);
  if (bit < 0 || cell_views == NULL)
    return;
  for (gint64 cell = first; cell < MIN (end, (gint64) n_cells); cell++)
    if ((cell_views[cell] & (1u << bit)) != 0)
      return;
  if (get_element_cells (self, self->selected, MAX (self->selected_cursor, 0), &cell_first,
                         &cell_last))
    {
      Geometry geometry;
      double x, y;

      /* Its row at the top, where it stays when the pane is resized. */
      get_geometry (self, &geometry);
      get_content_bounds (self, &geometry, cell_first, &x, &y);
      gtk_adjustment_set_value (self->vadjustment, y - geometry.margin);
      scroll_to_cell (self, cell_first);
    }
}

static void
watch_selected (LtViewerStorageStrip *self)
{
  LtViewerView *selected = self->lesson != NULL ? lt_viewer_lesson_get_selected (self->lesson)
                                                : NULL;

  if (selected == self->selected)
    return;
  if (self->selected != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->selected, on_selected_changed, self);
      g_clear_object (&self->selected);
    }
  if (selected != NULL)
    {
      self->selected = g_object_ref (selected);
      self->selected_cursor = lt_viewer_view_get_cursor (selected);
      g_signal_connect (selected, "changed", G_CALLBACK (on_selected_changed), self);
    }
  reveal_selected (self);
  /* The cells show the selected view's order. */
  invalidate_band (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The lesson */

static void
on_lesson_changed (LtViewerLesson       *lesson,
                   LtViewerStorageStrip *self)
{
  refresh (self);
}

static void
on_lesson_hover_cell (LtViewerLesson       *lesson,
                      GParamSpec           *pspec,
                      LtViewerStorageStrip *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_lesson_selected (LtViewerLesson       *lesson,
                    GParamSpec           *pspec,
                    LtViewerStorageStrip *self)
{
  watch_selected (self);
}

/* Drawing */

/* What build_band() draws one band of cells with. */
typedef struct
{
  LtViewerCellPainter cells;  /* its layouts NULL when cells are too small for them */
  const Geometry *geometry;
  GdkRGBA fg;
  PangoLayout *position_layout;
  double index_font;          /* pixels */
  double position_font;
  LtViewerTextCache *position_text;
  LtViewerTextCache *count_text;
  const guint32 *views;
  const guint32 *aliases;
  guint n_views;
  int selected_bit;           /* -1 for none */
  LtViewerView *focus_views[LT_VIEWER_MAX_VIEWS];
} BandPainter;

/* Black or white, whichever reads better on @color. */
static GdkRGBA
text_color_on (const GdkRGBA *color)
{
  double luma = 0.2126 * color->red + 0.7152 * color->green + 0.0722 * color->blue;

  return luma > 0.55 ? (GdkRGBA) { 0, 0, 0, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
}

/* @text on a pill of solid @color, its width fitted to the text, centred
 * horizontally at @centre_x (clamped to the cell) and vertically on
 * @centre_y. */
static void
paint_pill (const BandPainter *painter,
            LtViewerTextCache *cache,
            PangoLayout       *layout,
            const char        *text,
            const GdkRGBA     *color,
            double             x,
            double             size,
            double             centre_x,
            double             centre_y,
            double             font)
{
  GtkSnapshot *snapshot = painter->cells.snapshot;
  double height = (double) lt_viewer_round_int (font * 1.3);
  double width = MIN (size - 2,
                      (double) lt_viewer_round_int (font * (0.62 * strlen (text) + 0.6)));
  double left = CLAMP (centre_x - width / 2, x + 1, x + size - 1 - width);
  graphene_rect_t box = GRAPHENE_RECT_INIT (left,
                                            (double) lt_viewer_round_int (centre_y - height / 2),
                                            width, height);
  GskRoundedRect shape;
  GdkRGBA on_color = text_color_on (color);

  gsk_rounded_rect_init_from_rect (&shape, &box, height / 2);
  lt_viewer_append_rounded_fill (snapshot, &shape, color);
  lt_viewer_text_cache_append (cache, snapshot, layout, text, &box, 0.5, 0.5, &on_color);
}

/* A cell: one stripe per view that reaches it, each view in its own slot
 * (the same in every cell, so that gaps show); with a view selected, the
 * other views' stripes dimmed and, on the cells it reaches, the row-major
 * position of its (first) element there and how many of its elements land
 * there when more than one. */
static void
paint_cell (const BandPainter *painter,
            gint64             cell,
            double             x,
            double             y,
            const GdkRGBA     *view_colors)
{
  GtkSnapshot *snapshot = painter->cells.snapshot;
  const Geometry *geometry = painter->geometry;
  double size = geometry->cell;
  double radius = CELL_RADIUS * size / CELL_SIZE;
  double line = MAX (1.0, (double) lt_viewer_round_int (2.0 * size / CELL_SIZE));
  guint32 mask = painter->views[cell];
  guint32 aliases = painter->aliases[cell];
  graphene_rect_t rect = GRAPHENE_RECT_INIT (x, y, size, size);
  GdkRGBA text_color;
  int focus = painter->selected_bit;
  guint focus_count = 0;
  gint64 focus_first = -1;

  /* The view whose marks the cell carries: the selected one, or without a
   * selection the first that lands on the cell more than once. */
  if (focus < 0 && aliases != 0)
    focus = g_bit_nth_lsf (aliases, -1);
  if (focus >= 0 && (mask & (1u << focus)) != 0)
    focus_count = lt_viewer_view_count_elements (painter->focus_views[focus], cell, &focus_first);

  if (mask == 0)
    {
      GdkRGBA fill = lt_viewer_with_alpha (&painter->fg, DIM_FILL_ALPHA);
      GdkRGBA border = lt_viewer_with_alpha (&painter->fg, DIM_LINE_ALPHA);

      lt_viewer_cell_painter_append_frame (&painter->cells, &rect, radius, &fill, 1, &border);
      text_color = lt_viewer_with_alpha (&painter->fg, DIM_TEXT_ALPHA);
    }
  else
    {
      double slot = size / MAX (painter->n_views, 1);
      gboolean reached_by_selected = painter->selected_bit >= 0
                                     && (mask & (1u << painter->selected_bit)) != 0;
      GskRoundedRect shape;

      gsk_rounded_rect_init_from_rect (&shape, &rect, radius);
      gtk_snapshot_push_rounded_clip (snapshot, &shape);
      for (int bit = -1; (bit = g_bit_nth_lsf (mask, bit)) != -1;)
        {
          gboolean dimmed = painter->selected_bit >= 0 && bit != painter->selected_bit;
          double x0 = x + (double) lt_viewer_round_int (bit * slot);
          double x1 = (guint) bit + 1 == painter->n_views
                        ? x + size : x + (double) lt_viewer_round_int ((bit + 1) * slot);

          /* Each view in its colour and its pattern. */
          lt_viewer_append_view_fill (snapshot, &GRAPHENE_RECT_INIT (x0, y, x1 - x0, size),
                                      &view_colors[bit],
                                      dimmed ? LT_VIEWER_TINT_ALPHA * DIMMED_TINT
                                             : LT_VIEWER_TINT_ALPHA,
                                      bit, size / CELL_SIZE);
        }
      gtk_snapshot_pop (snapshot);

      if (reached_by_selected)
        lt_viewer_append_outline (snapshot, &rect, radius, line,
                                  &view_colors[painter->selected_bit]);
      else if (painter->selected_bit < 0 && (mask & (mask - 1)) == 0)
        lt_viewer_append_outline (snapshot, &rect, radius, line,
                                  &view_colors[g_bit_nth_lsf (mask, -1)]);
      else
        {
          GdkRGBA border = lt_viewer_with_alpha (&painter->fg,
                                                 painter->selected_bit >= 0 ? 0.3 : 0.6);

          lt_viewer_append_outline (snapshot, &rect, radius, line, &border);
        }
      text_color = painter->selected_bit >= 0 && !reached_by_selected
                     ? lt_viewer_with_alpha (&painter->fg, 0.7) : painter->fg;
    }

  if (painter->cells.value_layout != NULL)
    {
      char text[64];
      double pad = painter->cells.index_pad;

      if (painter->cells.index_layout != NULL)
        {
          GdkRGBA index_color = lt_viewer_with_alpha (&text_color, 0.7);

          lt_viewer_cell_painter_append_index (&painter->cells, &rect, cell, &index_color);
        }

      if (focus_count > 0 && painter->position_layout != NULL
          && focus == painter->selected_bit)
        {
          /* The order: the position of the element in the middle. */
          g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, focus_first);
          paint_pill (painter, painter->position_text, painter->position_layout, text,
                      &view_colors[focus], x, size, x + size / 2, y + 0.47 * size,
                      painter->position_font);
        }
      if (focus_count > 1 && painter->cells.index_layout != NULL)
        {
          /* Translators: how many elements of a view land on one storage
           * cell, as in "×3" */
          g_snprintf (text, sizeof text, _("×%u"), focus_count);
          paint_pill (painter, painter->count_text, painter->cells.index_layout, text,
                      &view_colors[focus], x, size, x + size - pad, y + pad / 2 + 0.12 * size,
                      painter->index_font);
        }

      /* At the bottom, clear of the position above it. */
      lt_viewer_cell_painter_append_value (&painter->cells, &rect, cell, &text_color);
    }
  else if (focus_count > 1)
    {
      /* Too small for text: a dot for a cell reached several times. */
      double badge = MAX (3.0, (double) lt_viewer_round_int (10.0 * size / CELL_SIZE));
      GskRoundedRect dot;

      gsk_rounded_rect_init_from_rect (&dot, &GRAPHENE_RECT_INIT (x + size - badge - 1, y + 1,
                                                                  badge, badge), badge / 2);
      lt_viewer_append_rounded_fill (snapshot, &dot, &view_colors[focus]);
    }
}

/* Draws the cells of rows [row0, row1) and columns [col0, col1) into a new
 * render node, with the first one at (0, 0). Only these cells are read. */
static GskRenderNode *
build_band (LtViewerStorageStrip *self,
            const Geometry       *geometry,
            const GdkRGBA        *fg,
            gint64                row0,
            gint64                row1,
            gint64                col0,
            gint64                col1)
{
  g_autoptr (PangoLayout) index_layout = NULL;
  g_autoptr (PangoLayout) value_layout = NULL;
  g_autoptr (PangoLayout) position_layout = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  BandPainter painter = { 0, };
  gsize n_masks = 0;

  painter.index_font = 0.2 * geometry->cell;
  painter.position_font = 0.24 * geometry->cell;
  if (geometry->cell >= MIN_CELL_FOR_INDEX)
    {
      index_layout = lt_viewer_create_sized_layout (GTK_WIDGET (self), painter.index_font);
      position_layout = lt_viewer_create_sized_layout (GTK_WIDGET (self), painter.position_font);
    }
  if (geometry->cell >= MIN_CELL_FOR_VALUE)
    value_layout = lt_viewer_create_sized_layout (GTK_WIDGET (self), 0.26 * geometry->cell);

  painter.cells.snapshot = snapshot;
  painter.cells.storage = lt_tensor_get_storage (lt_viewer_lesson_get_base (self->lesson));
  painter.cells.index_layout = index_layout;
  painter.cells.value_layout = value_layout;
  painter.cells.index_text = self->index_text;
  painter.cells.value_text = self->value_text;
  painter.cells.value_style = lt_viewer_value_style_cache_get (&self->value_styles,
                                                               painter.cells.storage);
  /* The index, the value and the count keep this far from the edges. */
  painter.cells.index_pad = MAX (2.0, (double) lt_viewer_round_int (3.0 * geometry->cell
                                                                     / CELL_SIZE));
  painter.cells.value_pad = painter.cells.index_pad;
  painter.geometry = geometry;
  painter.fg = *fg;
  painter.position_layout = position_layout;
  painter.position_text = self->position_text;
  painter.count_text = self->count_text;
  painter.views = lt_viewer_lesson_get_cell_views (self->lesson, &n_masks);
  painter.aliases = lt_viewer_lesson_get_cell_aliases (self->lesson, &n_masks);
  painter.n_views = self->n_views;
  painter.selected_bit = -1;
  for (guint i = 0; i < self->n_views; i++)
    {
      painter.focus_views[i] = lt_viewer_lesson_get_view (self->lesson, i);
      if (painter.focus_views[i] == self->selected)
        painter.selected_bit = (int) i;
    }

  for (gint64 row = row0; row < row1; row++)
    for (gint64 col = col0; col < col1; col++)
      {
        gint64 cell = row * self->wrap_width + col;

        if (cell >= (gint64) n_masks || cell >= self->n_cells)
          break;
        paint_cell (&painter, cell,
                    (double) (col - col0) * geometry->pitch,
                    (double) (row - row0) * geometry->pitch,
                    self->view_colors);
      }

  return gtk_snapshot_free_to_node (snapshot);
}

static void
lt_viewer_storage_strip_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);
  Geometry geometry;
  GdkRGBA fg;
  double hvalue, vvalue, radius;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gint64 row0, row1, col0, col1, hover;

  if (self->lesson == NULL || self->n_cells == 0 || width <= 0 || height <= 0)
    return;

  get_geometry (self, &geometry);
  lt_viewer_get_foreground (widget, &fg);
  hvalue = get_hvalue (self);
  vvalue = get_vvalue (self);
  lt_viewer_visible_items (geometry.margin, geometry.pitch, get_n_rows (self),
                           vvalue, vvalue + height, &row0, &row1);
  lt_viewer_visible_items (geometry.margin, geometry.pitch, get_n_cols (self),
                           hvalue, hvalue + width, &col0, &col1);

  if (!self->band_valid
      || self->band_cell != geometry.cell
      || self->band_wrap != self->wrap_width
      || !gdk_rgba_equal (&self->band_fg, &fg)
      || row0 < self->band_row0 || row1 > self->band_row1
      || col0 < self->band_col0 || col1 > self->band_col1)
    {
      /* Half a screen more on each side, so that most scrolling only
       * moves the cached node. */
      gint64 extra_rows = (row1 - row0) / 2 + 1;
      gint64 extra_cols = (col1 - col0) / 2 + 1;

      invalidate_band (self);
      self->band_row0 = MAX (row0 - extra_rows, 0);
      self->band_row1 = MIN (row1 + extra_rows, get_n_rows (self));
      self->band_col0 = MAX (col0 - extra_cols, 0);
      self->band_col1 = MIN (col1 + extra_cols, get_n_cols (self));
      self->band_cell = geometry.cell;
      self->band_wrap = self->wrap_width;
      self->band_fg = fg;
      self->band_node = build_band (self, &geometry, &fg,
                                    self->band_row0, self->band_row1,
                                    self->band_col0, self->band_col1);
      self->band_valid = TRUE;
    }

  if (self->band_node != NULL)
    {
      /* Computed in doubles: a million cells are millions of pixels down,
       * beyond what a float offset keeps exact. */
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (geometry.margin
                                                    + (double) self->band_col0 * geometry.pitch
                                                    - hvalue,
                                                    geometry.margin
                                                    + (double) self->band_row0 * geometry.pitch
                                                    - vvalue));
      gtk_snapshot_append_node (snapshot, self->band_node);
      gtk_snapshot_restore (snapshot);
    }

  /* The dynamic layer, on top of the cached one. */
  radius = CELL_RADIUS * geometry.cell / (double) CELL_SIZE;
  if (self->selected != NULL && lt_viewer_view_get_cursor (self->selected) >= 0)
    {
      gint64 first, last;
      GdkRGBA color;

      if (gdk_rgba_parse (&color, lt_viewer_view_get_color (self->selected))
          && get_element_cells (self, self->selected, lt_viewer_view_get_cursor (self->selected),
                                &first, &last))
        for (gint64 cell = first; cell <= last; cell++)
          {
            graphene_rect_t bounds;

            lt_viewer_storage_strip_get_cell_bounds (self, cell, &bounds);
            lt_viewer_append_ring (snapshot, &bounds, radius, LT_VIEWER_CURSOR_RING, &color);
          }
    }

  hover = lt_viewer_lesson_get_hover_cell (self->lesson);
  if (hover >= 0 && hover < self->n_cells)
    {
      graphene_rect_t bounds;

      lt_viewer_storage_strip_get_cell_bounds (self, hover, &bounds);
      lt_viewer_append_ring (snapshot, &bounds, radius, LT_VIEWER_HOVER_RING, &fg);
    }
}

/* Size */

static void
lt_viewer_storage_strip_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);
  Geometry geometry;
  double content;

  get_geometry (self, &geometry);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    content = get_content_width (self, &geometry);
  else
    content = get_content_height (self, &geometry);

  /* It scrolls: one cell is enough; all of them is what it would like,
   * within what a window can be asked for. */
  *minimum = geometry.cell + 2 * geometry.margin;
  *natural = (int) MIN (content, 16384.0);
  *natural = MAX (*natural, *minimum);
}

static void
lt_viewer_storage_strip_size_allocate (GtkWidget *widget,
                                       int        width,
                                       int        height,
                                       int        baseline)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);
  Geometry geometry;

  get_geometry (self, &geometry);
  configure_adjustment (self->hadjustment, get_content_width (self, &geometry), width,
                        geometry.pitch);
  configure_adjustment (self->vadjustment, get_content_height (self, &geometry), height,
                        geometry.pitch);
  if (self->reveal_pending)
    reveal_selected (self);
}

/* Events */

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           LtViewerStorageStrip     *self)
{
  if (self->lesson != NULL)
    lt_viewer_lesson_set_hover_cell (self->lesson, lt_viewer_storage_strip_cell_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller,
          LtViewerStorageStrip     *self)
{
  if (self->lesson != NULL)
    lt_viewer_lesson_set_hover_cell (self->lesson, -1);
}

static void
on_pressed (GtkGestureClick      *gesture,
            int                   n_press,
            double                x,
            double                y,
            LtViewerStorageStrip *self)
{
  /* So that the keys move from the cell clicked. */
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->lesson != NULL)
    lt_viewer_lesson_set_hover_cell (self->lesson, lt_viewer_storage_strip_cell_at (self, x, y));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           LtViewerStorageStrip     *self)
{
  GtkEventController *event_controller = GTK_EVENT_CONTROLLER (controller);
  GdkModifierType state = gtk_event_controller_get_current_event_state (event_controller);

  /* Control and the wheel zooms; the wheel alone scrolls the window. */
  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0)
    return FALSE;
  lt_viewer_storage_strip_set_zoom (self, self->zoom * (dy < 0 ? ZOOM_STEP : 1 / ZOOM_STEP));
  return TRUE;
}

/* "[1, 0]": the indices of the element with row-major index @element. */
static void
append_indices (GString      *text,
                const gint64 *sizes,
                guint         ndim,
                gint64        element)
{
  gint64 digits[LT_MAX_DIMS];

  for (guint d = ndim; d-- > 0;)
    {
      digits[d] = sizes[d] > 0 ? element % sizes[d] : 0;
      element = sizes[d] > 0 ? element / sizes[d] : 0;
    }
  g_string_append_c (text, '[');
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", digits[d]);
  g_string_append_c (text, ']');
}

#define MAX_LISTED_ELEMENTS 4

/**
 * lt_viewer_storage_strip_describe_cell:
 * @self: a #LtViewerStorageStrip
 * @cell: a storage index
 *
 * What the cell's tooltip says: its index and value, then for each view
 * the elements that land on it, by their indices ("points.t(): element
 * [1, 0]"), the first few when there are many.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL outside the
 *   storage
 */
char *
lt_viewer_storage_strip_describe_cell (LtViewerStorageStrip *self,
                                       gint64                cell)
{
  g_autoptr (GString) text = NULL;
  const guint32 *views;
  char value[64];
  char cell_text[24];
  gsize n_cells;

  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), NULL);

  if (self->lesson == NULL || cell < 0 || cell >= self->n_cells)
    return NULL;
  views = lt_viewer_lesson_get_cell_views (self->lesson, &n_cells);
  if (cell >= (gint64) n_cells)
    return NULL;

  lt_viewer_format_value (lt_tensor_get_storage (lt_viewer_lesson_get_base (self->lesson)),
                          cell, value, sizeof value);
  text = g_string_new (NULL);
  g_snprintf (cell_text, sizeof cell_text, "%" G_GINT64_FORMAT, cell);
  /* Translators: a storage cell's index and value */
  g_string_append_printf (text, _("Cell %s: %s"), cell_text, value);
  if (views[cell] == 0)
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Reached by no view"));
    }
  for (int bit = -1; (bit = g_bit_nth_lsf (views[cell], bit)) != -1;)
    {
      LtViewerView *view;
      LtTensor *tensor;
      g_autoptr (GArray) elements = NULL;
      g_autoptr (GString) listed = g_string_new (NULL);
      const gint64 *sizes;
      guint ndim;

      if ((guint) bit >= lt_viewer_lesson_get_n_views (self->lesson))
        break;
      view = lt_viewer_lesson_get_view (self->lesson, bit);
      tensor = lt_viewer_view_get_tensor (view);
      if (tensor == NULL)
        continue;
      sizes = lt_tensor_get_sizes (tensor, &ndim);
      elements = lt_viewer_view_find_elements (view, cell);
      for (guint i = 0; i < MIN (elements->len, MAX_LISTED_ELEMENTS); i++)
        {
          if (i > 0)
            g_string_append (listed, ", ");
          append_indices (listed, sizes, ndim, g_array_index (elements, gint64, i));
        }
      g_string_append_c (text, '\n');
      if (elements->len > MAX_LISTED_ELEMENTS)
        {
          char more[24];

          g_snprintf (more, sizeof more, "%u", elements->len - MAX_LISTED_ELEMENTS);
          /* Translators: a view's name, the indices of the first elements
           * of it that land on a cell, and how many more do */
          g_string_append_printf (text, ngettext ("%s: elements %s and %s more",
                                                  "%s: elements %s and %s more",
                                                  elements->len - MAX_LISTED_ELEMENTS),
                                  lt_viewer_view_get_name (view), listed->str, more);
        }
      else
        /* Translators: a view's name and the indices of the elements of it
         * that land on a cell, such as "[1, 0]" or "[0, 1], [1, 1]" */
        g_string_append_printf (text, ngettext ("%s: element %s", "%s: elements %s",
                                                elements->len),
                                lt_viewer_view_get_name (view), listed->str);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
lt_viewer_storage_strip_query_tooltip (GtkWidget  *widget,
                                       int         x,
                                       int         y,
                                       gboolean    keyboard_mode,
                                       GtkTooltip *tooltip)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);
  g_autofree char *text = NULL;
  graphene_rect_t bounds;
  gint64 cell;

  if (self->lesson == NULL)
    return FALSE;
  cell = keyboard_mode ? lt_viewer_lesson_get_hover_cell (self->lesson)
                       : lt_viewer_storage_strip_cell_at (self, x, y);
  if (cell < 0 || cell >= self->n_cells)
    return FALSE;

  text = lt_viewer_storage_strip_describe_cell (self, cell);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  if (lt_viewer_storage_strip_get_cell_bounds (self, cell, &bounds))
    gtk_tooltip_set_tip_area (tooltip,
                              &(GdkRectangle) { (int) bounds.origin.x, (int) bounds.origin.y,
                                                (int) bounds.size.width,
                                                (int) bounds.size.height });
  return TRUE;
}

static gboolean
move_hover (GtkWidget *widget,
            GVariant  *args,
            gpointer   user_data)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);
  gint64 cell, page_rows;
  int direction;

  if (self->lesson == NULL || self->n_cells == 0)
    return FALSE;

  g_variant_get (args, "(i)", &direction);
  cell = lt_viewer_lesson_get_hover_cell (self->lesson);
  page_rows = 1;
  if (self->vadjustment != NULL)
    {
      Geometry geometry;

      get_geometry (self, &geometry);
      page_rows = MAX (1, (gint64) (gtk_adjustment_get_page_size (self->vadjustment)
                                    / geometry.pitch) - 1);
    }

  if (cell < 0)
    cell = direction == MOVE_LAST ? self->n_cells - 1 : 0;
  else
    switch (direction)
      {
      case MOVE_LEFT:
        cell = MAX (cell - 1, 0);
        break;
      case MOVE_RIGHT:
        cell = MIN (cell + 1, self->n_cells - 1);
        break;
      case MOVE_UP:
        cell = cell >= self->wrap_width ? cell - self->wrap_width : cell;
        break;
      case MOVE_DOWN:
        cell = cell + self->wrap_width < self->n_cells ? cell + self->wrap_width : cell;
        break;
      case MOVE_PAGE_UP:
        cell = MAX (cell - page_rows * self->wrap_width, cell % self->wrap_width);
        break;
      case MOVE_PAGE_DOWN:
        while (page_rows-- > 0 && cell + self->wrap_width < self->n_cells)
          cell += self->wrap_width;
        break;
      case MOVE_FIRST:
        cell = 0;
        break;
      case MOVE_LAST:
        cell = self->n_cells - 1;
        break;
      default:
        g_assert_not_reached ();
      }

  lt_viewer_lesson_set_hover_cell (self->lesson, cell);
  scroll_to_cell (self, cell);
  return TRUE;
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);

  if (g_str_equal (action_name, "storage.zoom-in"))
    lt_viewer_storage_strip_set_zoom (self, self->zoom * ZOOM_STEP);
  else if (g_str_equal (action_name, "storage.zoom-out"))
    lt_viewer_storage_strip_set_zoom (self, self->zoom / ZOOM_STEP);
  else
    lt_viewer_storage_strip_set_zoom (self, 1.0);
}

static void
lt_viewer_storage_strip_system_setting_changed (GtkWidget        *widget,
                                                GtkSystemSetting  setting)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (widget);

  GTK_WIDGET_CLASS (lt_viewer_storage_strip_parent_class)->system_setting_changed (widget,
                                                                                   setting);
  /* Fonts and their rendering are baked into the cached layer. */
  invalidate_band (self);
  lt_viewer_text_cache_reset (self->index_text);
  lt_viewer_text_cache_reset (self->value_text);
  lt_viewer_text_cache_reset (self->position_text);
  lt_viewer_text_cache_reset (self->count_text);
  gtk_widget_queue_draw (widget);
}

/* GObject */

static void
lt_viewer_storage_strip_finalize (GObject *object)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (object);

  g_clear_pointer (&self->index_text, lt_viewer_text_cache_free);
  lt_viewer_value_style_cache_clear (&self->value_styles);
  g_clear_pointer (&self->value_text, lt_viewer_text_cache_free);
  g_clear_pointer (&self->position_text, lt_viewer_text_cache_free);
  g_clear_pointer (&self->count_text, lt_viewer_text_cache_free);

  G_OBJECT_CLASS (lt_viewer_storage_strip_parent_class)->finalize (object);
}

static void
lt_viewer_storage_strip_dispose (GObject *object)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (object);

  lt_viewer_storage_strip_set_lesson (self, NULL);
  invalidate_band (self);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, on_adjustment_value_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, on_adjustment_value_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (lt_viewer_storage_strip_parent_class)->dispose (object);
}

static void
lt_viewer_storage_strip_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      g_value_set_object (value, self->lesson);
      break;
    case PROP_WRAP_WIDTH:
      g_value_set_uint (value, self->wrap_width);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_storage_strip_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  LtViewerStorageStrip *self = LT_VIEWER_STORAGE_STRIP (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      lt_viewer_storage_strip_set_lesson (self, g_value_get_object (value));
      break;
    case PROP_WRAP_WIDTH:
      lt_viewer_storage_strip_set_wrap_width (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      lt_viewer_storage_strip_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (guint) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (guint) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_move_binding (GtkWidgetClass  *widget_class,
                  guint            keyval,
                  GdkModifierType  modifiers,
                  int              direction)
{
  gtk_widget_class_add_binding (widget_class, keyval, modifiers, move_hover, "(i)", direction);
}

static void
lt_viewer_storage_strip_class_init (LtViewerStorageStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lt_viewer_storage_strip_dispose;
  object_class->finalize = lt_viewer_storage_strip_finalize;
  object_class->get_property = lt_viewer_storage_strip_get_property;
  object_class->set_property = lt_viewer_storage_strip_set_property;

  widget_class->snapshot = lt_viewer_storage_strip_snapshot;
  widget_class->measure = lt_viewer_storage_strip_measure;
  widget_class->size_allocate = lt_viewer_storage_strip_size_allocate;
  widget_class->query_tooltip = lt_viewer_storage_strip_query_tooltip;
  widget_class->system_setting_changed = lt_viewer_storage_strip_system_setting_changed;

  /**
   * LtViewerStorageStrip:lesson:
   *
   * The lesson whose base storage is drawn.
   */
  properties[PROP_LESSON] =
    g_param_spec_object ("lesson", NULL, NULL, LT_VIEWER_TYPE_LESSON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerStorageStrip:wrap-width:
   *
   * The number of cells in a row.
   */
  properties[PROP_WRAP_WIDTH] =
    g_param_spec_uint ("wrap-width", NULL, NULL, 1, MAX_WRAP_WIDTH, 16,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerStorageStrip:zoom:
   *
   * The scale of the drawing: at 1, cells are 48 pixels wide.
   */
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, MIN_ZOOM, MAX_ZOOM, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_install_action (widget_class, "storage.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "storage.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "storage.zoom-reset", NULL, zoom_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK,
                                       "storage.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK,
                                       "storage.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK,
                                       "storage.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK,
                                       "storage.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK,
                                       "storage.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK,
                                       "storage.zoom-reset", NULL);

  add_move_binding (widget_class, GDK_KEY_Left, 0, MOVE_LEFT);
  add_move_binding (widget_class, GDK_KEY_KP_Left, 0, MOVE_LEFT);
  add_move_binding (widget_class, GDK_KEY_Right, 0, MOVE_RIGHT);
  add_move_binding (widget_class, GDK_KEY_KP_Right, 0, MOVE_RIGHT);
  add_move_binding (widget_class, GDK_KEY_Up, 0, MOVE_UP);
  add_move_binding (widget_class, GDK_KEY_KP_Up, 0, MOVE_UP);
  add_move_binding (widget_class, GDK_KEY_Down, 0, MOVE_DOWN);
  add_move_binding (widget_class, GDK_KEY_KP_Down, 0, MOVE_DOWN);
  add_move_binding (widget_class, GDK_KEY_Page_Up, 0, MOVE_PAGE_UP);
  add_move_binding (widget_class, GDK_KEY_Page_Down, 0, MOVE_PAGE_DOWN);
  add_move_binding (widget_class, GDK_KEY_Home, 0, MOVE_FIRST);
  add_move_binding (widget_class, GDK_KEY_KP_Home, 0, MOVE_FIRST);
  add_move_binding (widget_class, GDK_KEY_End, 0, MOVE_LAST);
  add_move_binding (widget_class, GDK_KEY_KP_End, 0, MOVE_LAST);

  gtk_widget_class_set_css_name (widget_class, "ltstoragestrip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
lt_viewer_storage_strip_init (LtViewerStorageStrip *self)
{
  GtkEventController *controller;

  self->wrap_width = 16;
  self->zoom = 1.0;
  self->index_text = lt_viewer_text_cache_new ();
  self->value_text = lt_viewer_text_cache_new ();
  self->position_text = lt_viewer_text_cache_new ();
  self->count_text = lt_viewer_text_cache_new ();
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  /* An opaque background of the theme's, so that an export reads on any
   * slide. */
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = GTK_EVENT_CONTROLLER (gtk_gesture_click_new ());
  g_signal_connect (controller, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL
                                                | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  update_accessible (self);
}

static void
lt_viewer_storage_strip_scrollable_init (GtkScrollableInterface *iface)
{
}

/* Public API */

/**
 * lt_viewer_storage_strip_new:
 *
 * Returns: (transfer floating): a new storage strip without a lesson
 */
GtkWidget *
lt_viewer_storage_strip_new (void)
{
  return g_object_new (LT_VIEWER_TYPE_STORAGE_STRIP, NULL);
}

/**
 * lt_viewer_storage_strip_get_lesson:
 * @self: a #LtViewerStorageStrip
 *
 * Returns: (transfer none) (nullable): the lesson drawn
 */
LtViewerLesson *
lt_viewer_storage_strip_get_lesson (LtViewerStorageStrip *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), NULL);

  return self->lesson;
}

/**
 * lt_viewer_storage_strip_set_lesson:
 * @self: a #LtViewerStorageStrip
 * @lesson: (nullable): the lesson to draw
 *
 * Draws the storage of @lesson's base tensor and follows its changes.
 */
void
lt_viewer_storage_strip_set_lesson (LtViewerStorageStrip *self,
                                    LtViewerLesson       *lesson)
{
  g_return_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self));
  g_return_if_fail (lesson == NULL || LT_VIEWER_IS_LESSON (lesson));

  if (self->lesson == lesson)
    return;

  if (self->lesson != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->lesson, self);
      g_clear_object (&self->lesson);
    }
  if (lesson != NULL)
    {
      self->lesson = g_object_ref (lesson);
      g_signal_connect (lesson, "changed", G_CALLBACK (on_lesson_changed), self);
      g_signal_connect (lesson, "notify::hover-cell", G_CALLBACK (on_lesson_hover_cell), self);
      g_signal_connect (lesson, "notify::selected", G_CALLBACK (on_lesson_selected), self);
    }

  watch_selected (self);
  refresh (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LESSON]);
}

/**
 * lt_viewer_storage_strip_get_wrap_width:
 * @self: a #LtViewerStorageStrip
 *
 * Returns: the number of cells in a row
 */
guint
lt_viewer_storage_strip_get_wrap_width (LtViewerStorageStrip *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), 16);

  return self->wrap_width;
}

/**
 * lt_viewer_storage_strip_set_wrap_width:
 * @self: a #LtViewerStorageStrip
 * @wrap_width: the number of cells in a row, 1 to 4096
 *
 * Sets how many cells a row holds before the strip wraps.
 */
void
lt_viewer_storage_strip_set_wrap_width (LtViewerStorageStrip *self,
                                        guint                 wrap_width)
{
  g_return_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self));

  wrap_width = CLAMP (wrap_width, 1, MAX_WRAP_WIDTH);
  if (self->wrap_width == wrap_width)
    return;

  self->wrap_width = wrap_width;
  invalidate_band (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WRAP_WIDTH]);
}

/**
 * lt_viewer_storage_strip_get_zoom:
 * @self: a #LtViewerStorageStrip
 *
 * Returns: the scale of the drawing
 */
double
lt_viewer_storage_strip_get_zoom (LtViewerStorageStrip *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), 1.0);

  return self->zoom;
}

/**
 * lt_viewer_storage_strip_set_zoom:
 * @self: a #LtViewerStorageStrip
 * @zoom: the scale, 0.25 to 4; at 1 cells are 48 pixels wide
 *
 * Scales the drawing, keeping the cell at the top left of the view in view.
 */
void
lt_viewer_storage_strip_set_zoom (LtViewerStorageStrip *self,
                                  double                zoom)
{
  Geometry before, after;

  g_return_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self));

  zoom = CLAMP (zoom, MIN_ZOOM, MAX_ZOOM);
  if (self->zoom == zoom)
    return;

  get_geometry (self, &before);
  self->zoom = zoom;
  get_geometry (self, &after);

  /* The same rows stay at the top: scale the scroll positions. The
   * adjustments are clamped again at the next allocation. */
  gtk_adjustment_set_upper (self->hadjustment,
                            MAX (gtk_adjustment_get_upper (self->hadjustment),
                                 get_content_width (self, &after)));
  gtk_adjustment_set_upper (self->vadjustment,
                            MAX (gtk_adjustment_get_upper (self->vadjustment),
                                 get_content_height (self, &after)));
  gtk_adjustment_set_value (self->hadjustment,
                            get_hvalue (self) * after.pitch / before.pitch);
  gtk_adjustment_set_value (self->vadjustment,
                            get_vvalue (self) * after.pitch / before.pitch);

  invalidate_band (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/**
 * lt_viewer_storage_strip_cell_at:
 * @self: a #LtViewerStorageStrip
 * @x: a widget x coordinate
 * @y: a widget y coordinate
 *
 * Finds the cell under a point by arithmetic, taking scrolling into account.
 *
 * Returns: the storage index of the cell, or -1 between or beyond the cells
 */
gint64
lt_viewer_storage_strip_cell_at (LtViewerStorageStrip *self,
                                 double                x,
                                 double                y)
{
  Geometry geometry;
  double cx, cy;
  gint64 row, col, cell;

  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), -1);

  if (self->n_cells == 0)
    return -1;

  get_geometry (self, &geometry);
  cx = x + get_hvalue (self) - geometry.margin;
  cy = y + get_vvalue (self) - geometry.margin;
  if (cx < 0 || cy < 0)
    return -1;

  col = lt_viewer_floor_int (cx / geometry.pitch);
  row = lt_viewer_floor_int (cy / geometry.pitch);
  if (cx - (double) col * geometry.pitch >= geometry.cell
      || cy - (double) row * geometry.pitch >= geometry.cell)
    return -1;
  if (col >= (gint64) self->wrap_width || row >= get_n_rows (self))
    return -1;

  cell = row * self->wrap_width + col;
  return cell < self->n_cells ? cell : -1;
}

/**
 * lt_viewer_storage_strip_get_cell_bounds:
 * @self: a #LtViewerStorageStrip
 * @cell: a storage index
 * @bounds: (out caller-allocates): return location for the bounds
 *
 * The bounds of a cell in widget coordinates, which may lie outside the
 * widget when the cell is scrolled out of view.
 *
 * Returns: %TRUE, or %FALSE when there is no such cell
 */
gboolean
lt_viewer_storage_strip_get_cell_bounds (LtViewerStorageStrip *self,
                                         gint64                cell,
                                         graphene_rect_t      *bounds)
{
  Geometry geometry;
  double x, y;

  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), FALSE);
  g_return_val_if_fail (bounds != NULL, FALSE);

  if (cell < 0 || cell >= self->n_cells)
    return FALSE;

  get_geometry (self, &geometry);
  get_content_bounds (self, &geometry, cell, &x, &y);
  graphene_rect_init (bounds, x - get_hvalue (self), y - get_vvalue (self),
                      geometry.cell, geometry.cell);
  return TRUE;
}

/**
 * lt_viewer_storage_strip_get_visible_cells:
 * @self: a #LtViewerStorageStrip
 * @first: (out): return location for the first cell of the rows shown
 * @end: (out): return location for one past the last
 *
 * The storage indices of the rows of cells the strip shows, whole or in
 * part, as an overview frames them.
 *
 * Returns: %TRUE, or %FALSE when no cell is shown
 */
gboolean
lt_viewer_storage_strip_get_visible_cells (LtViewerStorageStrip *self,
                                           gint64               *first,
                                           gint64               *end)
{
  Geometry geometry;
  double vvalue;
  gint64 row0, row1;

  g_return_val_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self), FALSE);
  g_return_val_if_fail (first != NULL && end != NULL, FALSE);

  *first = *end = 0;
  if (self->n_cells == 0 || gtk_widget_get_height (GTK_WIDGET (self)) <= 0)
    return FALSE;

  get_geometry (self, &geometry);
  vvalue = get_vvalue (self);
  lt_viewer_visible_items (geometry.margin, geometry.pitch, get_n_rows (self), vvalue,
                           vvalue + gtk_widget_get_height (GTK_WIDGET (self)), &row0, &row1);
  *first = row0 * self->wrap_width;
  *end = MIN (row1 * (gint64) self->wrap_width, self->n_cells);
  return *end > *first;
}

/**
 * lt_viewer_storage_strip_scroll_to_cell:
 * @self: a #LtViewerStorageStrip
 * @cell: a storage index
 *
 * Scrolls as little as brings @cell into view; nothing happens when there
 * is no such cell.
 */
void
lt_viewer_storage_strip_scroll_to_cell (LtViewerStorageStrip *self,
                                        gint64                cell)
{
  g_return_if_fail (LT_VIEWER_IS_STORAGE_STRIP (self));

  scroll_to_cell (self, cell);
}
