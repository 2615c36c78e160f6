/* lt-viewer-view-grid.c: one view's elements drawn in their logical layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <math.h>
#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-cell-painter.h"
#include "lt-viewer-view-grid.h"

/* Geometry, in pixels. */
#define ELEMENT_SIZE   44
#define ELEMENT_GAP    4
#define ELEMENT_RADIUS 6
#define BLOCK_GAP      20
#define MARGIN         8
#define LABEL_GAP      4

/* Blocks (the dims that do not lie flat) wrap to the next block row beyond
 * this width, whatever the count of the innermost block dim. */
#define MAX_BLOCK_ROW_WIDTH 960.0

/* The drawing stops growing here: cairo's coordinates end at 2^23. */
#define MAX_EXTENT 4194304.0

struct _LtViewerViewGrid
{
  GtkWidget parent_instance;

  LtViewerLesson *lesson;
  LtViewerView *view;
  int row_dim;
  int col_dim;

  /* The scrolled window's adjustments, whose scrolling shows other
   * elements: only the visible ones are drawn. */
  GtkAdjustment *scroll_adjustments[2];

  /* The element under the pointer, -1 for none. */
  gint64 hover_element;

  /* The layout, computed from the view's sizes and the flat dims. */
  gboolean layout_valid;
  guint ndim;
  gint64 sizes[LT_MAX_DIMS];
  gint64 numel;
  int flat_row;            /* the dim along rows, -1 for none */
  int flat_col;            /* the dim along columns, -1 for none */
  guint block_dims[LT_MAX_DIMS];
  guint n_block_dims;
  gint64 rows, cols;       /* of one block */
  gint64 n_blocks;
  gint64 block_cols, block_rows;
  double label_height;     /* 0 without labels */
  double block_width, block_height;

  /* The static layer (tints, borders, values, labels) of the visible area
   * and half a screen around it. The cursor and the hovered elements are
   * drawn over it, so that hovering does not rebuild it. */
  GskRenderNode *layer_node;
  gboolean layer_valid;
  graphene_rect_t layer_area;
  GdkRGBA layer_fg;
  GdkRGBA layer_color;
  LtViewerTextCache *index_text;
  LtViewerTextCache *value_text;
  LtViewerValueStyleCache value_styles;
};

G_DEFINE_FINAL_TYPE (LtViewerViewGrid, lt_viewer_view_grid, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_LESSON,
  PROP_VIEW,
  PROP_ROW_DIM,
  PROP_COL_DIM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static LtTensor *
get_tensor (LtViewerViewGrid *self)
{
  return self->view != NULL ? lt_viewer_view_get_tensor (self->view) : NULL;
}

/* Layout */

static int
normalize_dim (int   dim,
               guint ndim)
{
  if (dim < 0)
    dim += (int) ndim;
  return dim >= 0 && dim < (int) ndim ? dim : -1;
}

static double
measure_label_height (LtViewerViewGrid *self)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "[0, :]");
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  return height + LABEL_GAP;
}

static void
ensure_layout (LtViewerViewGrid *self)
{
  LtTensor *tensor;
  const gint64 *sizes;
  int pitch = ELEMENT_SIZE + ELEMENT_GAP;
  double block_pitch;

  if (self->layout_valid)
    return;
  self->layout_valid = TRUE;

  self->ndim = 0;
  self->numel = 0;
  self->flat_row = self->flat_col = -1;
  self->n_block_dims = 0;
  self->rows = self->cols = 0;
  self->n_blocks = 0;
  self->block_rows = self->block_cols = 0;
  self->label_height = 0;
  self->block_width = self->block_height = 0;

  tensor = get_tensor (self);
  if (tensor == NULL || lt_tensor_get_numel (tensor) == 0)
    return;

  sizes = lt_tensor_get_sizes (tensor, &self->ndim);
  if (self->ndim > 0)
    memcpy (self->sizes, sizes, self->ndim * sizeof (gint64));
  self->numel = lt_tensor_get_numel (tensor);

  if (self->ndim == 1)
    self->flat_col = 0;
  else if (self->ndim >= 2)
    {
      self->flat_row = normalize_dim (self->row_dim, self->ndim);
      self->flat_col = normalize_dim (self->col_dim, self->ndim);
      if (self->flat_row < 0 || self->flat_col < 0 || self->flat_row == self->flat_col)
        {
          self->flat_row = (int) self->ndim - 2;
          self->flat_col = (int) self->ndim - 1;
        }
    }

  for (guint d = 0; d < self->ndim; d++)
    if ((int) d != self->flat_row && (int) d != self->flat_col)
      self->block_dims[self->n_block_dims++] = d;

  self->rows = self->flat_row >= 0 ? self->sizes[self->flat_row] : 1;
  self->cols = self->flat_col >= 0 ? self->sizes[self->flat_col] : 1;
  self->n_blocks = 1;
  for (guint i = 0; i < self->n_block_dims; i++)
    self->n_blocks *= self->sizes[self->block_dims[i]];

  self->label_height = self->n_block_dims > 0 ? measure_label_height (self) : 0;
  self->block_width = (double) self->cols * pitch - ELEMENT_GAP;
  self->block_height = self->label_height + (double) self->rows * pitch - ELEMENT_GAP;

  /* Blocks go across along the innermost block dim, and wrap when that
   * would be too wide. */
  block_pitch = self->block_width + BLOCK_GAP;
  self->block_cols = self->n_block_dims > 0
                       ? self->sizes[self->block_dims[self->n_block_dims - 1]] : 1;
  self->block_cols = CLAMP (lt_viewer_floor_int ((MAX_BLOCK_ROW_WIDTH + BLOCK_GAP)
                                                 / block_pitch),
                            1, self->block_cols);
  self->block_rows = (self->n_blocks + self->block_cols - 1) / self->block_cols;
}

static void
invalidate_layer (LtViewerViewGrid *self)
{
  self->layer_valid = FALSE;
  g_clear_pointer (&self->layer_node, gsk_render_node_unref);
}

static void
invalidate_layout (LtViewerViewGrid *self)
{
  invalidate_layer (self);
  self->layout_valid = FALSE;
  self->hover_element = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static double
get_block_x (LtViewerViewGrid *self,
             gint64            block_col)
{
  return MARGIN + (double) block_col * (self->block_width + BLOCK_GAP);
}

static double
get_block_y (LtViewerViewGrid *self,
             gint64            block_row)
{
  return MARGIN + (double) block_row * (self->block_height + BLOCK_GAP);
}

/* The row-major element index of element (row, col) of block @block. */
static gint64
compose_element (LtViewerViewGrid *self,
                 gint64            block,
                 gint64            row,
                 gint64            col)
{
  gint64 index[LT_MAX_DIMS] = { 0 };
  gint64 element = 0;

  for (guint i = self->n_block_dims; i-- > 0;)
    {
      guint d = self->block_dims[i];

      index[d] = block % self->sizes[d];
      block /= self->sizes[d];
    }
  if (self->flat_row >= 0)
    index[self->flat_row] = row;
  if (self->flat_col >= 0)
    index[self->flat_col] = col;

  for (guint d = 0; d < self->ndim; d++)
    element = element * self->sizes[d] + index[d];
  return element;
}

/* The reverse: the block, row and column of a row-major element index. */
static void
decompose_element (LtViewerViewGrid *self,
                   gint64            element,
                   gint64           *block,
                   gint64           *row,
                   gint64           *col)
{
  gint64 index[LT_MAX_DIMS] = { 0 };

  for (guint d = self->ndim; d-- > 0;)
    {
      index[d] = element % self->sizes[d];
      element /= self->sizes[d];
    }

  *block = 0;
  for (guint i = 0; i < self->n_block_dims; i++)
    *block = *block * self->sizes[self->block_dims[i]] + index[self->block_dims[i]];
  *row = self->flat_row >= 0 ? index[self->flat_row] : 0;
  *col = self->flat_col >= 0 ? index[self->flat_col] : 0;
}

static void
format_block_label (LtViewerViewGrid *self,
                    gint64            block,
                    GString          *label)
{
  gint64 index[LT_MAX_DIMS] = { 0 };
  gboolean is_block_dim[LT_MAX_DIMS] = { FALSE };

  for (guint i = self->n_block_dims; i-- > 0;)
    {
      guint d = self->block_dims[i];

      is_block_dim[d] = TRUE;
      index[d] = block % self->sizes[d];
      block /= self->sizes[d];
    }

  g_string_append_c (label, '[');
  for (guint d = 0; d < self->ndim; d++)
    {
      if (d > 0)
        g_string_append (label, ", ");
      if (is_block_dim[d])
        g_string_append_printf (label, "%" G_GINT64_FORMAT, index[d]);
      else
        g_string_append_c (label, ':');
    }
  g_string_append_c (label, ']');
}

/* Cells of the lesson's storage */

static LtStorage *
get_base_storage (LtViewerViewGrid *self)
{
  LtTensor *base = self->lesson != NULL ? lt_viewer_lesson_get_base (self->lesson) : NULL;

  return base != NULL ? lt_tensor_get_storage (base) : NULL;
}

/* The first cell of the lesson's storage that element @element lands on,
 * or -1 when the view has a storage of its own (a copy). A view with another
 * dtype over the same memory lands on the cell its first byte is in. */
static gint64
element_to_cell (LtViewerViewGrid *self,
                 gint64            element)
{
  LtTensor *tensor = get_tensor (self);
  LtStorage *storage, *base_storage = get_base_storage (self);
  gint64 index, size, base_size, delta, cell;

  if (tensor == NULL || base_storage == NULL)
    return -1;
  index = lt_viewer_view_get_storage_index (self->view, element);
  if (index < 0)
    return -1;

  storage = lt_tensor_get_storage (tensor);
  if (storage == base_storage)
    return index;
  if (!lt_storage_shares_memory (storage, base_storage))
    return -1;

  size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (storage));
  base_size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (base_storage));
  delta = (gint64) (lt_storage_get_data_address (storage)
                    - lt_storage_get_data_address (base_storage));
  cell = (delta + index * size) / base_size;
  return cell >= 0 && cell < lt_storage_get_n_elements (base_storage) ? cell : -1;
}

/* The elements that land on cell @cell of the lesson's storage. */
static GArray *
cell_to_elements (LtViewerViewGrid *self,
                  gint64            cell)
{
  LtTensor *tensor = get_tensor (self);
  LtStorage *storage, *base_storage = get_base_storage (self);
  gint64 size, base_size, delta, first, last;
  GArray *elements;

  if (tensor == NULL || base_storage == NULL || cell < 0)
    return NULL;

  storage = lt_tensor_get_storage (tensor);
  if (storage == base_storage)
    return lt_viewer_view_find_elements (self->view, cell);
  if (!lt_storage_shares_memory (storage, base_storage))
    return NULL;

  /* Another dtype over the same bytes: the view's cells that overlap the
   * bytes of @cell. */
  size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (storage));
  base_size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (base_storage));
  delta = (gint64) (lt_storage_get_data_address (storage)
                    - lt_storage_get_data_address (base_storage));
  first = (cell * base_size - delta) / size;
  last = ((cell + 1) * base_size - 1 - delta) / size;
  elements = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (gint64 index = MAX (first, 0); index <= last; index++)
    {
      g_autoptr (GArray) found = lt_viewer_view_find_elements (self->view, index);

      g_array_append_vals (elements, found->data, found->len);
    }
  return elements;
}

/* Drawing */

static void
append_layout_at (GtkSnapshot   *snapshot,
                  PangoLayout   *layout,
                  double         x,
                  double         y,
                  const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* The part of the widget that can be seen: inside a scrolled window, the
 * part its viewport shows; elsewhere, the part inside the window. */
static void
get_visible_rect (LtViewerViewGrid *self,
                  graphene_rect_t  *visible)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkWidget *clip = GTK_WIDGET (gtk_widget_get_root (widget));
  graphene_rect_t shown;

  graphene_rect_init (visible, 0, 0, gtk_widget_get_width (widget),
                      gtk_widget_get_height (widget));
  for (GtkWidget *ancestor = gtk_widget_get_parent (widget);
       ancestor != NULL;
       ancestor = gtk_widget_get_parent (ancestor))
    if (GTK_IS_SCROLLABLE (ancestor))
      {
        clip = ancestor;
        break;
      }

  if (clip != NULL && clip != widget && gtk_widget_compute_bounds (clip, widget, &shown)
      && !graphene_rect_intersection (visible, &shown, visible))
    graphene_rect_init (visible, 0, 0, 0, 0);
}

/* Draws the elements that meet @area (widget coordinates) into a new
 * render node: their tint, border, storage index and value, and the block
 * labels. Only these elements are read. */
static GskRenderNode *
build_layer (LtViewerViewGrid      *self,
             const graphene_rect_t *area,
             const GdkRGBA         *fg,
             const GdkRGBA         *color)
{
  g_autoptr (PangoLayout) value_layout = lt_viewer_create_scaled_layout (GTK_WIDGET (self), 0.9);
  g_autoptr (PangoLayout) index_layout = lt_viewer_create_scaled_layout (GTK_WIDGET (self), 0.7);
  g_autoptr (PangoLayout) label_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr (GString) label = g_string_new (NULL);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  LtStorage *storage = lt_tensor_get_storage (get_tensor (self));
  LtViewerCellPainter painter = {
    .snapshot = snapshot,
    .storage = storage,
    .value_style = lt_viewer_value_style_cache_get (&self->value_styles, storage),
    .index_layout = index_layout,
    .value_layout = value_layout,
    .index_text = self->index_text,
    .value_text = self->value_text,
    .index_pad = 4,
    .value_pad = 3,
  };
  GdkRGBA tint = lt_viewer_with_alpha (color, LT_VIEWER_TINT_ALPHA);
  GdkRGBA index_color = lt_viewer_with_alpha (fg, 0.6);
  double pitch = ELEMENT_SIZE + ELEMENT_GAP;
  double left = area->origin.x, right = area->origin.x + area->size.width;
  double top = area->origin.y, bottom = area->origin.y + area->size.height;
  gint64 block_row0, block_row1, block_col0, block_col1;

  lt_viewer_visible_items (MARGIN, self->block_width + BLOCK_GAP, self->block_cols, left, right,
                           &block_col0, &block_col1);
  lt_viewer_visible_items (MARGIN, self->block_height + BLOCK_GAP, self->block_rows, top, bottom,
                           &block_row0, &block_row1);

  for (gint64 block_row = block_row0; block_row < block_row1; block_row++)
    for (gint64 block_col = block_col0; block_col < block_col1; block_col++)
      {
        gint64 block = block_row * self->block_cols + block_col;
        double bx = get_block_x (self, block_col);
        double by = get_block_y (self, block_row);
        double gy = by + self->label_height;
        gint64 row0, row1, col0, col1;

        if (block >= self->n_blocks)
          break;

        if (self->label_height > 0)
          {
            g_string_truncate (label, 0);
            format_block_label (self, block, label);
            pango_layout_set_text (label_layout, label->str, -1);
            append_layout_at (snapshot, label_layout, bx, by, fg);
          }

        lt_viewer_visible_items (gy, pitch, self->rows, top, bottom, &row0, &row1);
        lt_viewer_visible_items (bx, pitch, self->cols, left, right, &col0, &col1);

        for (gint64 row = row0; row < row1; row++)
          for (gint64 col = col0; col < col1; col++)
            {
              gint64 element = compose_element (self, block, row, col);
              gint64 index = lt_viewer_view_get_storage_index (self->view, element);
              graphene_rect_t rect = GRAPHENE_RECT_INIT (bx + col * pitch, gy + row * pitch,
                                                         ELEMENT_SIZE, ELEMENT_SIZE);

              lt_viewer_cell_painter_append_frame (&painter, &rect, ELEMENT_RADIUS, &tint, 1.5,
                                                   color);
              /* The storage index, small, then the value. */
              lt_viewer_cell_painter_append_index (&painter, &rect, index, &index_color);
              lt_viewer_cell_painter_append_value (&painter, &rect, index, fg);
            }
      }

  return gtk_snapshot_free_to_node (snapshot);
}

static void
lt_viewer_view_grid_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (widget);
  g_autoptr (GArray) hovered = NULL;
  graphene_rect_t visible;
  GdkRGBA fg, color;
  gint64 cursor, hover_cell;

  ensure_layout (self);
  if (self->numel == 0)
    return;

  lt_viewer_get_foreground (widget, &fg);
  if (!gdk_rgba_parse (&color, lt_viewer_view_get_color (self->view)))
    color = fg;
  get_visible_rect (self, &visible);

  if (!self->layer_valid
      || !gdk_rgba_equal (&self->layer_fg, &fg)
      || !gdk_rgba_equal (&self->layer_color, &color)
      || !graphene_rect_contains_rect (&self->layer_area, &visible))
    {
      /* Half a screen more on each side, so that scrolling a little only
       * shows more of the cached layer. */
      graphene_rect_t area = visible;

      graphene_rect_inset (&area, -visible.size.width / 2, -visible.size.height / 2);
      invalidate_layer (self);
      self->layer_node = build_layer (self, &area, &fg, &color);
      self->layer_area = area;
      self->layer_fg = fg;
      self->layer_color = color;
      self->layer_valid = TRUE;
    }
  if (self->layer_node != NULL)
    gtk_snapshot_append_node (snapshot, self->layer_node);

  /* The dynamic layer: the cursor element, then every element on the
   * hovered storage cell, wherever the pointer is. */
  cursor = lt_viewer_view_get_cursor (self->view);
  if (cursor >= 0)
    {
      graphene_rect_t bounds;

      if (lt_viewer_view_grid_get_element_bounds (self, cursor, &bounds))
        lt_viewer_append_ring (snapshot, &bounds, ELEMENT_RADIUS, LT_VIEWER_CURSOR_RING, &color);
    }

  hover_cell = self->lesson != NULL ? lt_viewer_lesson_get_hover_cell (self->lesson) : -1;
  hovered = cell_to_elements (self, hover_cell);
  for (guint i = 0; hovered != NULL && i < hovered->len; i++)
    {
      graphene_rect_t bounds;

      if (lt_viewer_view_grid_get_element_bounds (self, g_array_index (hovered, gint64, i),
                                                  &bounds))
        lt_viewer_append_ring (snapshot, &bounds, ELEMENT_RADIUS, LT_VIEWER_HOVER_RING, &fg);
    }
}

/* Size */

static void
lt_viewer_view_grid_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (widget);
  double extent = 0;

  ensure_layout (self);
  if (self->numel > 0)
    {
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        extent = 2 * MARGIN + (double) self->block_cols * (self->block_width + BLOCK_GAP)
                 - BLOCK_GAP;
      else
        extent = 2 * MARGIN + (double) self->block_rows * (self->block_height + BLOCK_GAP)
                 - BLOCK_GAP;
    }

  *minimum = *natural = (int) lt_viewer_ceil_int (MIN (extent, MAX_EXTENT));
}

static void
on_scroll_adjustment_changed (GtkAdjustment    *adjustment,
                              LtViewerViewGrid *self)
{
  /* The viewport moves the drawing without asking for a new one; the
   * newly shown elements were not drawn. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
unwatch_scrolling (LtViewerViewGrid *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->scroll_adjustments); i++)
    if (self->scroll_adjustments[i] != NULL)
      {
        g_signal_handlers_disconnect_by_func (self->scroll_adjustments[i],
                                              on_scroll_adjustment_changed, self);
        g_clear_object (&self->scroll_adjustments[i]);
      }
}

static void
lt_viewer_view_grid_map (GtkWidget *widget)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (widget);

  GTK_WIDGET_CLASS (lt_viewer_view_grid_parent_class)->map (widget);

  unwatch_scrolling (self);
  for (GtkWidget *ancestor = gtk_widget_get_parent (widget);
       ancestor != NULL;
       ancestor = gtk_widget_get_parent (ancestor))
    if (GTK_IS_SCROLLABLE (ancestor))
      {
        self->scroll_adjustments[0] = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (ancestor));
        self->scroll_adjustments[1] = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (ancestor));
        for (guint i = 0; i < G_N_ELEMENTS (self->scroll_adjustments); i++)
          if (self->scroll_adjustments[i] != NULL)
            {
              g_object_ref (self->scroll_adjustments[i]);
              g_signal_connect (self->scroll_adjustments[i], "value-changed",
                                G_CALLBACK (on_scroll_adjustment_changed), self);
            }
        break;
      }
}

static void
lt_viewer_view_grid_unmap (GtkWidget *widget)
{
  unwatch_scrolling (LT_VIEWER_VIEW_GRID (widget));

  GTK_WIDGET_CLASS (lt_viewer_view_grid_parent_class)->unmap (widget);
}

/* Events */

static void
set_hover_element (LtViewerViewGrid *self,
                   gint64            element)
{
  g_autofree char *formula = NULL;

  if (element == self->hover_element)
    return;
  self->hover_element = element;

  if (element >= 0)
    formula = lt_viewer_view_format_address (self->view, element);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), formula);

  if (self->lesson != NULL)
    lt_viewer_lesson_set_hover_cell (self->lesson, element >= 0 ? element_to_cell (self, element)
                                                                : -1);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           LtViewerViewGrid         *self)
{
  set_hover_element (self, lt_viewer_view_grid_element_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller,
          LtViewerViewGrid         *self)
{
  set_hover_element (self, -1);
}

static void
lt_viewer_view_grid_system_setting_changed (GtkWidget        *widget,
                                            GtkSystemSetting  setting)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (widget);

  GTK_WIDGET_CLASS (lt_viewer_view_grid_parent_class)->system_setting_changed (widget, setting);
  /* The labels' height is part of the layout, the text of the layer. */
  lt_viewer_text_cache_reset (self->index_text);
  lt_viewer_text_cache_reset (self->value_text);
  invalidate_layout (self);
}

/* The model */

static void
update_accessible (LtViewerViewGrid *self)
{
  g_autofree char *label = NULL;
  g_autoptr (GString) shape = NULL;
  LtTensor *tensor = get_tensor (self);
  const gint64 *sizes;
  guint ndim;

  if (tensor == NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("No view"),
                                      -1);
      return;
    }

  sizes = lt_tensor_get_sizes (tensor, &ndim);
  shape = g_string_new (NULL);
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (shape, d > 0 ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                            sizes[d]);
  /* Translators: the first %s is a view's name, the second its shape as 2, 3 */
  label = g_strdup_printf (_("Elements of %s, of shape (%s)"),
                           lt_viewer_view_get_name (self->view), shape->str);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

static void
on_view_notify_tensor (LtViewerView     *view,
                       GParamSpec       *pspec,
                       LtViewerViewGrid *self)
{
  invalidate_layout (self);
  update_accessible (self);
}

static void
on_view_changed (LtViewerView     *view,
                 LtViewerViewGrid *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_lesson_hover_cell (LtViewerLesson   *lesson,
                      GParamSpec       *pspec,
                      LtViewerViewGrid *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_lesson_changed (LtViewerLesson   *lesson,
                   LtViewerViewGrid *self)
{
  /* The base may have new values. */
  invalidate_layer (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* GObject */

static void
lt_viewer_view_grid_finalize (GObject *object)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (object);

  g_clear_pointer (&self->index_text, lt_viewer_text_cache_free);
  lt_viewer_value_style_cache_clear (&self->value_styles);
  g_clear_pointer (&self->value_text, lt_viewer_text_cache_free);

  G_OBJECT_CLASS (lt_viewer_view_grid_parent_class)->finalize (object);
}

static void
lt_viewer_view_grid_dispose (GObject *object)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (object);

  unwatch_scrolling (self);
  lt_viewer_view_grid_set_view (self, NULL);
  lt_viewer_view_grid_set_lesson (self, NULL);
  invalidate_layer (self);

  G_OBJECT_CLASS (lt_viewer_view_grid_parent_class)->dispose (object);
}

static void
lt_viewer_view_grid_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      g_value_set_object (value, self->lesson);
      break;
    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;
    case PROP_ROW_DIM:
      g_value_set_int (value, self->row_dim);
      break;
    case PROP_COL_DIM:
      g_value_set_int (value, self->col_dim);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_grid_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  LtViewerViewGrid *self = LT_VIEWER_VIEW_GRID (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      lt_viewer_view_grid_set_lesson (self, g_value_get_object (value));
      break;
    case PROP_VIEW:
      lt_viewer_view_grid_set_view (self, g_value_get_object (value));
      break;
    case PROP_ROW_DIM:
      lt_viewer_view_grid_set_flat_dims (self, g_value_get_int (value), self->col_dim);
      break;
    case PROP_COL_DIM:
      lt_viewer_view_grid_set_flat_dims (self, self->row_dim, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_grid_class_init (LtViewerViewGridClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lt_viewer_view_grid_dispose;
  object_class->finalize = lt_viewer_view_grid_finalize;
  object_class->get_property = lt_viewer_view_grid_get_property;
  object_class->set_property = lt_viewer_view_grid_set_property;

  widget_class->snapshot = lt_viewer_view_grid_snapshot;
  widget_class->measure = lt_viewer_view_grid_measure;
  widget_class->map = lt_viewer_view_grid_map;
  widget_class->unmap = lt_viewer_view_grid_unmap;
  widget_class->system_setting_changed = lt_viewer_view_grid_system_setting_changed;

  /**
   * LtViewerViewGrid:lesson:
   *
   * The lesson the view belongs to: it holds the hovered storage cell.
   */
  properties[PROP_LESSON] =
    g_param_spec_object ("lesson", NULL, NULL, LT_VIEWER_TYPE_LESSON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerViewGrid:view:
   *
   * The view whose elements are drawn.
   */
  properties[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL, LT_VIEWER_TYPE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerViewGrid:row-dim:
   *
   * The dim laid out down the rows of each block; negative counts from the
   * end.
   */
  properties[PROP_ROW_DIM] =
    g_param_spec_int ("row-dim", NULL, NULL, -LT_MAX_DIMS, LT_MAX_DIMS - 1, -2,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerViewGrid:col-dim:
   *
   * The dim laid out across the columns of each block; negative counts
   * from the end.
   */
  properties[PROP_COL_DIM] =
    g_param_spec_int ("col-dim", NULL, NULL, -LT_MAX_DIMS, LT_MAX_DIMS - 1, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "ltviewgrid");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
lt_viewer_view_grid_init (LtViewerViewGrid *self)
{
  GtkEventController *controller;

  self->row_dim = -2;
  self->col_dim = -1;
  self->hover_element = -1;
  self->index_text = lt_viewer_text_cache_new ();
  self->value_text = lt_viewer_text_cache_new ();

  /* An opaque background of the theme's, so that an export reads on any
   * slide. */
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  update_accessible (self);
}

/* Public API */

/**
 * lt_viewer_view_grid_new:
 *
 * Returns: (transfer floating): a new view grid showing nothing
 */
GtkWidget *
lt_viewer_view_grid_new (void)
{
  return g_object_new (LT_VIEWER_TYPE_VIEW_GRID, NULL);
}

/**
 * lt_viewer_view_grid_set_lesson:
 * @self: a #LtViewerViewGrid
 * @lesson: (nullable): the lesson the view belongs to
 *
 * Sets the lesson whose :hover-cell the grid shows and sets.
 */
void
lt_viewer_view_grid_set_lesson (LtViewerViewGrid *self,
                                LtViewerLesson   *lesson)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW_GRID (self));
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
      g_signal_connect (lesson, "notify::hover-cell", G_CALLBACK (on_lesson_hover_cell), self);
      g_signal_connect (lesson, "changed", G_CALLBACK (on_lesson_changed), self);
    }
  self->hover_element = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LESSON]);
}

/**
 * lt_viewer_view_grid_get_lesson:
 * @self: a #LtViewerViewGrid
 *
 * Returns: (transfer none) (nullable): the lesson
 */
LtViewerLesson *
lt_viewer_view_grid_get_lesson (LtViewerViewGrid *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW_GRID (self), NULL);

  return self->lesson;
}

/**
 * lt_viewer_view_grid_set_view:
 * @self: a #LtViewerViewGrid
 * @view: (nullable): the view to draw
 *
 * Draws the elements of @view and follows its changes.
 */
void
lt_viewer_view_grid_set_view (LtViewerViewGrid *self,
                              LtViewerView     *view)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW_GRID (self));
  g_return_if_fail (view == NULL || LT_VIEWER_IS_VIEW (view));

  if (self->view == view)
    return;

  if (self->view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->view, self);
      g_clear_object (&self->view);
    }
  if (view != NULL)
    {
      self->view = g_object_ref (view);
      g_signal_connect (view, "notify::tensor", G_CALLBACK (on_view_notify_tensor), self);
      g_signal_connect (view, "changed", G_CALLBACK (on_view_changed), self);
    }

  gtk_widget_set_tooltip_text (GTK_WIDGET (self), NULL);
  invalidate_layout (self);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/**
 * lt_viewer_view_grid_get_view:
 * @self: a #LtViewerViewGrid
 *
 * Returns: (transfer none) (nullable): the view drawn
 */
LtViewerView *
lt_viewer_view_grid_get_view (LtViewerViewGrid *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW_GRID (self), NULL);

  return self->view;
}

/**
 * lt_viewer_view_grid_set_flat_dims:
 * @self: a #LtViewerViewGrid
 * @row_dim: the dim down the rows of each block (negative counts from the end)
 * @col_dim: the dim across its columns
 *
 * Chooses the two dims that lie flat; the others become blocks. When they
 * are the same dim or out of range for the view, the last two lie flat.
 */
void
lt_viewer_view_grid_set_flat_dims (LtViewerViewGrid *self,
                                   int               row_dim,
                                   int               col_dim)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW_GRID (self));

  row_dim = CLAMP (row_dim, -LT_MAX_DIMS, LT_MAX_DIMS - 1);
  col_dim = CLAMP (col_dim, -LT_MAX_DIMS, LT_MAX_DIMS - 1);
  if (self->row_dim == row_dim && self->col_dim == col_dim)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (self->row_dim != row_dim)
    {
      self->row_dim = row_dim;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROW_DIM]);
    }
  if (self->col_dim != col_dim)
    {
      self->col_dim = col_dim;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COL_DIM]);
    }
  invalidate_layout (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * lt_viewer_view_grid_element_at:
 * @self: a #LtViewerViewGrid
 * @x: a widget x coordinate
 * @y: a widget y coordinate
 *
 * Finds the element under a point by arithmetic.
 *
 * Returns: the row-major index of the element, or -1 between or beyond them
 */
gint64
lt_viewer_view_grid_element_at (LtViewerViewGrid *self,
                                double            x,
                                double            y)
{
  double pitch = ELEMENT_SIZE + ELEMENT_GAP;
  double bx, by, ex, ey;
  gint64 block_col, block_row, block, row, col;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW_GRID (self), -1);

  ensure_layout (self);
  if (self->numel == 0 || x < MARGIN || y < MARGIN)
    return -1;

  block_col = lt_viewer_floor_int ((x - MARGIN) / (self->block_width + BLOCK_GAP));
  block_row = lt_viewer_floor_int ((y - MARGIN) / (self->block_height + BLOCK_GAP));
  if (block_col >= self->block_cols || block_row >= self->block_rows)
    return -1;
  block = block_row * self->block_cols + block_col;
  if (block >= self->n_blocks)
    return -1;

  bx = x - get_block_x (self, block_col);
  by = y - get_block_y (self, block_row) - self->label_height;
  if (bx < 0 || by < 0)
    return -1;

  col = lt_viewer_floor_int (bx / pitch);
  row = lt_viewer_floor_int (by / pitch);
  ex = bx - (double) col * pitch;
  ey = by - (double) row * pitch;
  if (col >= self->cols || row >= self->rows || ex >= ELEMENT_SIZE || ey >= ELEMENT_SIZE)
    return -1;

  return compose_element (self, block, row, col);
}

/**
 * lt_viewer_view_grid_get_element_bounds:
 * @self: a #LtViewerViewGrid
 * @element: a row-major element index
 * @bounds: (out caller-allocates): return location for the bounds
 *
 * Returns: %TRUE, or %FALSE when there is no such element
 */
gboolean
lt_viewer_view_grid_get_element_bounds (LtViewerViewGrid *self,
                                        gint64            element,
                                        graphene_rect_t  *bounds)
{
  double pitch = ELEMENT_SIZE + ELEMENT_GAP;
  gint64 block, row, col;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW_GRID (self), FALSE);
  g_return_val_if_fail (bounds != NULL, FALSE);

  ensure_layout (self);
  if (element < 0 || element >= self->numel)
    return FALSE;

  decompose_element (self, element, &block, &row, &col);
  graphene_rect_init (bounds,
                      get_block_x (self, block % self->block_cols) + (double) col * pitch,
                      get_block_y (self, block / self->block_cols) + self->label_height
                      + (double) row * pitch,
                      ELEMENT_SIZE, ELEMENT_SIZE);
  return TRUE;
}
