/* lt-viewer-figure-composer.c: a lesson's storage, views and legend laid out on a canvas
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-figure-composer.h"
#include "lt-viewer-format.h"

/* Geometry, in figure units (pixels at zoom 1), as the widgets draw. */
#define MARGIN        24
#define SECTION_GAP   20
#define LINE_GAP      6
#define CELL          48
#define CELL_GAP      4
#define CELL_RADIUS   6
#define BLOCK_GAP     20
#define MIN_TEXT_WIDTH 480
#define MAX_BLOCK_ROW_WIDTH 960

/* Font sizes. */
#define TITLE_FONT    20
#define HEADING_FONT  15
#define BODY_FONT     13
#define VALUE_FONT    13
#define SMALL_FONT    10
#define MIN_VALUE_FONT 8

/* What a cell holds of a value, in characters, before the figure writes
 * all its values in scientific notation. */
#define MAX_VALUE_CHARS 8

/* What a figure draws of a large lesson: the rest is counted. */
#define MAX_STRIP_ROWS     48
#define MAX_GRID_ROWS      24
#define MAX_GRID_COLS      24
#define MAX_GRID_BLOCKS    12

/* The overview of a storage too large to draw whole: squares of this
 * side, at most this many rows of them. */
#define OVERVIEW_SQUARE    4
#define OVERVIEW_ROWS      48

/* As the storage strip: tints, dimming. */
#define TINT_ALPHA     0.35
#define DIMMED_TINT    0.4
#define PATTERN_ALPHA  0.8
#define DIM_FILL_ALPHA 0.05
#define DIM_LINE_ALPHA 0.15
#define DIM_TEXT_ALPHA 0.45

static const LtViewerColor foreground = { 0.12, 0.12, 0.14, 1 };
static const LtViewerColor error_color = { 0.75, 0.11, 0.16, 1 };
static const LtViewerColor success_color = { 0.15, 0.48, 0.27, 1 };
static const LtViewerColor warning_color = { 0.61, 0.43, 0.01, 1 };

typedef struct
{
  LtViewerCanvas *canvas;
  LtViewerLesson *lesson;
  LtViewerView *selected;
  int selected_bit;          /* -1 for none */
  guint cells_per_row;
  double text_width;         /* what text wraps at */
  double width;              /* the widest part */
  double y;                  /* where the next part goes */
  GString *description;      /* the figure in words, for <desc> */
  gboolean interactive;      /* hit areas for the page's script */
  LtViewerValueStyle values; /* one way of writing every drawn value */
} Composer;

static LtViewerColor
with_alpha (const LtViewerColor *color,
            double               alpha)
{
  LtViewerColor result = *color;

  result.alpha *= alpha;
  return result;
}

static LtViewerColor
view_color (LtViewerView *view,
            double        alpha)
{
  LtViewerColor color;

  lt_viewer_color_parse (lt_viewer_view_get_color (view), alpha, &color);
  return color;
}

/* Black or white, whichever reads better on @color. */
static LtViewerColor
text_color_on (const LtViewerColor *color)
{
  double luma = 0.2126 * color->red + 0.7152 * color->green + 0.0722 * color->blue;

  return luma > 0.55 ? (LtViewerColor) { 0, 0, 0, 1 } : (LtViewerColor) { 1, 1, 1, 1 };
}

/* "[1, 0]": the indices of row-major element @element of @tensor. */
static char *
format_element (LtTensor *tensor,
                gint64    element)
{
  guint ndim;
  const gint64 *sizes = lt_tensor_get_sizes (tensor, &ndim);
  gint64 index[LT_MAX_DIMS] = { 0 };
  GString *text = g_string_new ("[");

  for (guint d = ndim; d-- > 0;)
    {
      index[d] = sizes[d] > 0 ? element % sizes[d] : 0;
      element = sizes[d] > 0 ? element / sizes[d] : 0;
    }
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", index[d]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static double
line_height (Composer          *composer,
             double             size,
             LtViewerTextStyle  style,
             double            *ascent)
{
  double descent;

  lt_viewer_canvas_font_extents (composer->canvas, size, style, ascent, &descent);
  return *ascent + descent;
}

/* A paragraph at the left margin, wrapped to the text width. */
static void
add_paragraph (Composer            *composer,
               const char          *text,
               double               size,
               LtViewerTextStyle    style,
               const LtViewerColor *color,
               double               indent)
{
  g_auto (GStrv) lines = lt_viewer_canvas_wrap (composer->canvas, text, size, style,
                                                composer->text_width - indent);
  double ascent, height = line_height (composer, size, style, &ascent);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      lt_viewer_canvas_text (composer->canvas, MARGIN + indent, composer->y + ascent, 0,
                             lines[i], size, style, color);
      composer->width = MAX (composer->width,
                             indent + lt_viewer_canvas_text_width (composer->canvas, lines[i],
                                                                   size, style));
      composer->y += height + 2;
    }
  if (composer->description->len > 0)
    g_string_append_c (composer->description, '\n');
  g_string_append (composer->description, text);
}

/* A pill of @color with @text on it, placed so that the point @xalign of
 * the way along it is at @x, its middle at @middle; returns its width. */
static double
add_pill (Composer            *composer,
          double               x,
          double               xalign,
          double               middle,
          const char          *text,
          double               size,
          const LtViewerColor *color)
{
  double ascent, height = line_height (composer, size, LT_VIEWER_TEXT_BOLD, &ascent);
  double width = lt_viewer_canvas_text_width (composer->canvas, text, size, LT_VIEWER_TEXT_BOLD)
                 + height * 0.8;
  double pill_height = height + 2;
  double left = x - xalign * width;
  LtViewerColor on_color = text_color_on (color);

  lt_viewer_canvas_rect (composer->canvas, left, middle - pill_height / 2, width, pill_height,
                         pill_height / 2, color, NULL, 0);
  lt_viewer_canvas_text (composer->canvas, left + width / 2, middle - height / 2 + ascent, 0.5,
                         text, size, LT_VIEWER_TEXT_BOLD, &on_color);
  return width;
}

/* The cells of a storage */

/* A value at the bottom of a cell, in the figure's style, smaller where
 * it would not fit. */
static void
add_value (Composer            *composer,
           LtStorage           *storage,
           gint64               index,
           double               x,
           double               y,
           const LtViewerColor *color)
{
  char text[64];
  double size = VALUE_FONT;
  double width;

  lt_viewer_format_value_styled (&composer->values, storage, index, text, sizeof text);
  width = lt_viewer_canvas_text_width (composer->canvas, text, size, LT_VIEWER_TEXT_REGULAR);
  if (width > CELL - 6)
    size = MAX (MIN_VALUE_FONT, size * (CELL - 6) / width);
  lt_viewer_canvas_text (composer->canvas, x + CELL / 2.0, y + CELL - 5, 0.5, text, size,
                         LT_VIEWER_TEXT_REGULAR, color);
}


typedef struct
{
  LtStorage *storage;
  const guint32 *views;     /* per cell; NULL for a copy's own storage */
  guint n_views;
  LtViewerView *order_view; /* whose order the cells carry, or NULL */
  const LtViewerColor *colors;
  gint64 cursor_cell;       /* -1 for none */
  const char *hit_name;     /* the hit area's attribute: data-cell, data-copy-cell */
} StripPainter;

/* For the page's script: the cell (or element) under the pointer. */
static void
add_hit_area (Composer   *composer,
              double      x,
              double      y,
              const char *cell_name,
              gint64      cell,
              gint64      element,
              LtStorage  *storage)
{
  g_autoptr (GString) attributes = g_string_new (NULL);
  g_autofree char *escaped = NULL;
  char value[64];

  lt_viewer_format_value_exact (storage, cell, value, sizeof value);
  escaped = g_markup_escape_text (value, -1);
  g_string_append_printf (attributes, "%s=\"%" G_GINT64_FORMAT "\" data-value=\"%s\"",
                          cell_name, cell, escaped);
  if (element >= 0)
    g_string_append_printf (attributes, " data-element=\"%" G_GINT64_FORMAT "\"", element);
  lt_viewer_canvas_hit_area (composer->canvas, x, y, CELL, CELL, CELL_RADIUS, attributes->str);
}

static void
paint_strip_cell (Composer           *composer,
                  const StripPainter *painter,
                  gint64              cell,
                  double              x,
                  double              y)
{
  LtViewerCanvas *canvas = composer->canvas;
  guint32 mask = painter->views != NULL ? painter->views[cell] : 0;
  int focus = composer->selected_bit;
  guint count = 0;
  gint64 first = -1;
  LtViewerColor text_color = foreground;
  char text[64];

  if (painter->order_view != NULL)
    count = lt_viewer_view_count_elements (painter->order_view, cell, &first);

  if (painter->views == NULL && count > 0)
    {
      /* A copy's storage: every cell is the copy's. */
      LtViewerColor tint = with_alpha (&painter->colors[focus], TINT_ALPHA);

      lt_viewer_canvas_rect (canvas, x, y, CELL, CELL, CELL_RADIUS, &tint,
                             &painter->colors[focus], 2);
    }
  else if (mask == 0)
    {
      LtViewerColor fill = with_alpha (&foreground, DIM_FILL_ALPHA);
      LtViewerColor line = with_alpha (&foreground, DIM_LINE_ALPHA);

      lt_viewer_canvas_rect (canvas, x, y, CELL, CELL, CELL_RADIUS, &fill, &line, 1);
      text_color = with_alpha (&foreground, DIM_TEXT_ALPHA);
    }
  else
    {
      double slot = (double) CELL / MAX (painter->n_views, 1);
      gboolean reached = focus >= 0 && (mask & (1u << focus)) != 0;
      LtViewerColor line;

      /* Each view in its own slot, its colour and its pattern; the other
       * views dimmed when one is selected. */
      lt_viewer_canvas_push_clip (canvas, x, y, CELL, CELL, CELL_RADIUS);
      for (int bit = -1; (bit = g_bit_nth_lsf (mask, bit)) != -1;)
        {
          double alpha = focus >= 0 && bit != focus ? TINT_ALPHA * DIMMED_TINT : TINT_ALPHA;
          double x0 = x + bit * slot;
          LtViewerColor tint = with_alpha (&painter->colors[bit], alpha);
          LtViewerColor ink = with_alpha (&painter->colors[bit],
                                          MIN (1.0, alpha * PATTERN_ALPHA / TINT_ALPHA));

          lt_viewer_canvas_rect (canvas, x0, y, slot, CELL, 0, &tint, NULL, 0);
          lt_viewer_canvas_pattern (canvas, x0, y, slot, CELL, (guint) bit, 1, &ink);
        }
      lt_viewer_canvas_pop_clip (canvas);

      if (reached)
        line = painter->colors[focus];
      else if (focus < 0 && (mask & (mask - 1)) == 0)
        line = painter->colors[g_bit_nth_lsf (mask, -1)];
      else
        line = with_alpha (&foreground, focus >= 0 ? 0.3 : 0.6);
      lt_viewer_canvas_rect (canvas, x, y, CELL, CELL, CELL_RADIUS, NULL, &line, 2);
      if (focus >= 0 && !reached)
        text_color = with_alpha (&foreground, 0.7);
    }

  if (cell == painter->cursor_cell)
    lt_viewer_canvas_rect (canvas, x - 3, y - 3, CELL + 6, CELL + 6, CELL_RADIUS + 3, NULL,
                           &foreground, 2.5);

  /* The index at the top, the order's position in the middle, the value at
   * the bottom. */
  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, cell);
  {
    LtViewerColor index_color = with_alpha (&text_color, 0.7);

    lt_viewer_canvas_text (canvas, x + 4, y + 3 + SMALL_FONT * 0.95, 0, text, SMALL_FONT,
                           LT_VIEWER_TEXT_REGULAR, &index_color);
  }
  if (count > 0 && focus >= 0)
    {
      g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, first);
      add_pill (composer, x + CELL / 2.0, 0.5, y + 0.47 * CELL, text, SMALL_FONT,
                &painter->colors[focus]);
    }
  if (count > 1 && focus >= 0)
    {
      /* Translators: how many elements of a view land on one storage
       * cell, as in "×3" */
      g_snprintf (text, sizeof text, _("×%u"), count);
      add_pill (composer, x + CELL - 2, 1, y + 9, text, SMALL_FONT - 1, &painter->colors[focus]);
    }
  add_value (composer, painter->storage, cell, x, y, &text_color);
  if (composer->interactive)
    add_hit_area (composer, x, y, painter->hit_name, cell, -1, painter->storage);
}

static double
strip_width (Composer *composer,
             gint64    n_cells)
{
  gint64 per_row = MIN ((gint64) composer->cells_per_row, MAX (n_cells, 1));

  return (double) per_row * (CELL + CELL_GAP) - CELL_GAP;
}

/* What an overview's bucket of cells shows: the selected view's colour
 * where it reaches one of them, another view's (lighter) where only that
 * one does, else the colour of unreached cells. */
static LtViewerColor
bucket_color (const StripPainter *painter,
              int                 selected_bit,
              guint32             mask)
{
  if (selected_bit >= 0 && (mask & (1u << selected_bit)) != 0)
    return painter->colors[selected_bit];
  if (mask != 0)
    return with_alpha (&painter->colors[g_bit_nth_lsf (mask, -1)], selected_bit >= 0 ? 0.35 : 1);
  return with_alpha (&foreground, 0.08);
}

static gboolean
same_color (const LtViewerColor *a,
            const LtViewerColor *b)
{
  return a->red == b->red && a->green == b->green && a->blue == b->blue && a->alpha == b->alpha;
}

/* The whole storage when the strip is cut: each small square a bucket of
 * consecutive cells, in storage order, row by row; runs of one colour are
 * one shape. */
static void
add_overview (Composer           *composer,
              const StripPainter *painter)
{
  gint64 n_cells = lt_storage_get_n_elements (painter->storage);
  double width = strip_width (composer, n_cells);
  gint64 across = MAX ((gint64) (width / OVERVIEW_SQUARE), 1);
  gint64 per_bucket = (n_cells + across * OVERVIEW_ROWS - 1) / (across * OVERVIEW_ROWS);
  gint64 n_buckets = (n_cells + per_bucket - 1) / per_bucket;
  gint64 rows = (n_buckets + across - 1) / across;
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, per_bucket);
  g_autofree char *heading = g_strdup_printf (ngettext ("The whole storage, %s cell a square",
                                                       "The whole storage, %s cells a square",
                                                       (gulong) per_bucket),
                                              count);
  LtViewerColor dim = with_alpha (&foreground, 0.65);

  composer->y += LINE_GAP;
  add_paragraph (composer, heading, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &dim, 0);
  composer->y += 2;
  for (gint64 row = 0; row < rows; row++)
    {
      gint64 run_start = 0;
      LtViewerColor run_color = { 0 };

      for (gint64 column = 0; column <= across; column++)
        {
          gint64 bucket = row * across + column;
          gboolean end = column == across || bucket >= n_buckets;
          LtViewerColor color = { 0 };

          if (!end)
            {
              guint32 mask = 0;

              for (gint64 cell = bucket * per_bucket;
                   cell < MIN ((bucket + 1) * per_bucket, n_cells); cell++)
                mask |= painter->views[cell];
              color = bucket_color (painter, composer->selected_bit, mask);
            }
          if (column > 0 && (end || !same_color (&color, &run_color)))
            lt_viewer_canvas_rect (composer->canvas, MARGIN + run_start * OVERVIEW_SQUARE,
                                   composer->y + row * OVERVIEW_SQUARE,
                                   (column - run_start) * OVERVIEW_SQUARE, OVERVIEW_SQUARE, 0,
                                   &run_color, NULL, 0);
          if (end)
            break;
          if (column == 0 || !same_color (&color, &run_color))
            {
              run_start = column;
              run_color = color;
            }
        }
    }
  composer->y += rows * OVERVIEW_SQUARE + LINE_GAP;
}

static void
add_strip (Composer           *composer,
           const StripPainter *painter)
{
  gint64 n_cells = lt_storage_get_n_elements (painter->storage);
  gint64 per_row = composer->cells_per_row;
  gint64 rows = (n_cells + per_row - 1) / per_row;
  gint64 shown = MIN (rows, MAX_STRIP_ROWS) * per_row;

  for (gint64 cell = 0; cell < MIN (shown, n_cells); cell++)
    paint_strip_cell (composer, painter, cell,
                      MARGIN + (double) (cell % per_row) * (CELL + CELL_GAP),
                      composer->y + (double) (cell / per_row) * (CELL + CELL_GAP));
  composer->y += (double) MIN (rows, MAX_STRIP_ROWS) * (CELL + CELL_GAP) - CELL_GAP + LINE_GAP;
  composer->width = MAX (composer->width, strip_width (composer, n_cells));

  if (shown < n_cells)
    {
      g_autofree char *more = g_strdup_printf ("%" G_GINT64_FORMAT, n_cells - shown);
      g_autofree char *text = g_strdup_printf (ngettext ("… and %s more cell",
                                                         "… and %s more cells",
                                                         (gulong) (n_cells - shown)),
                                               more);
      LtViewerColor dim = with_alpha (&foreground, 0.65);

      composer->y += LINE_GAP;
      add_paragraph (composer, text, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &dim, 0);
      if (painter->views != NULL)
        add_overview (composer, painter);
    }
}

/* The selected view's elements */

typedef struct
{
  guint ndim;
  const gint64 *sizes;
  gint64 rows, cols;          /* of a block */
  gint64 n_blocks;
  gint64 shown_rows, shown_cols, shown_blocks;
  gint64 block_cols;          /* blocks side by side */
  double block_width, block_height, label_height;
} GridLayout;

static void
layout_grid (Composer   *composer,
             LtTensor   *tensor,
             GridLayout *grid)
{
  double ascent;

  memset (grid, 0, sizeof *grid);
  grid->sizes = lt_tensor_get_sizes (tensor, &grid->ndim);
  grid->rows = grid->ndim >= 2 ? grid->sizes[grid->ndim - 2] : 1;
  grid->cols = grid->ndim >= 1 ? grid->sizes[grid->ndim - 1] : 1;
  grid->n_blocks = 1;
  for (guint d = 0; d + 2 < grid->ndim; d++)
    grid->n_blocks *= grid->sizes[d];
  grid->shown_rows = MIN (grid->rows, MAX_GRID_ROWS);
  grid->shown_cols = MIN (grid->cols, MAX_GRID_COLS);
  grid->shown_blocks = MIN (grid->n_blocks, MAX_GRID_BLOCKS);
  grid->label_height = grid->ndim > 2 ? line_height (composer, SMALL_FONT + 1,
                                                     LT_VIEWER_TEXT_MONOSPACE, &ascent) + 4
                                      : 0;
  grid->block_width = (double) grid->shown_cols * (CELL + CELL_GAP) - CELL_GAP;
  grid->block_height = grid->label_height + (double) grid->shown_rows * (CELL + CELL_GAP)
                       - CELL_GAP;
  /* Blocks go across along the innermost block dim, wrapping when wide. */
  grid->block_cols = grid->ndim > 2 ? grid->sizes[grid->ndim - 3] : 1;
  grid->block_cols = CLAMP ((gint64) ((MAX_BLOCK_ROW_WIDTH + BLOCK_GAP)
                                      / (grid->block_width + BLOCK_GAP)),
                            1, MAX (grid->block_cols, 1));
}

static double
grid_width (const GridLayout *grid)
{
  gint64 across = MIN (grid->block_cols, grid->shown_blocks);

  return (double) across * (grid->block_width + BLOCK_GAP) - BLOCK_GAP;
}

static void
format_block_label (const GridLayout *grid,
                    gint64            block,
                    GString          *label)
{
  gint64 index[LT_MAX_DIMS] = { 0 };

  for (guint d = grid->ndim - 2; d-- > 0;)
    {
      index[d] = block % grid->sizes[d];
      block /= grid->sizes[d];
    }
  g_string_append_c (label, '[');
  for (guint d = 0; d < grid->ndim; d++)
    {
      if (d > 0)
        g_string_append (label, ", ");
      if (d + 2 < grid->ndim)
        g_string_append_printf (label, "%" G_GINT64_FORMAT, index[d]);
      else
        g_string_append_c (label, ':');
    }
  g_string_append_c (label, ']');
}

static void
add_grid (Composer *composer,
          LtTensor *tensor)
{
  LtViewerCanvas *canvas = composer->canvas;
  LtViewerView *view = composer->selected;
  LtStorage *storage = lt_tensor_get_storage (tensor);
  LtViewerColor color = view_color (view, 1);
  LtViewerColor tint = view_color (view, TINT_ALPHA);
  LtViewerColor index_color = with_alpha (&foreground, 0.6);
  gint64 cursor = lt_viewer_view_get_cursor (view);
  GridLayout grid;
  gint64 shown_block_rows;
  double top = composer->y;

  layout_grid (composer, tensor, &grid);
  if (lt_tensor_get_numel (tensor) == 0)
    {
      LtViewerColor dim = with_alpha (&foreground, 0.65);

      add_paragraph (composer, _("The view has no elements."), BODY_FONT,
                     LT_VIEWER_TEXT_REGULAR, &dim, 0);
      return;
    }

  for (gint64 block = 0; block < grid.shown_blocks; block++)
    {
      double bx = MARGIN + (double) (block % grid.block_cols) * (grid.block_width + BLOCK_GAP);
      double by = top + (double) (block / grid.block_cols) * (grid.block_height + BLOCK_GAP);

      if (grid.ndim > 2)
        {
          g_autoptr (GString) label = g_string_new (NULL);
          double ascent;

          line_height (composer, SMALL_FONT + 1, LT_VIEWER_TEXT_MONOSPACE, &ascent);
          format_block_label (&grid, block, label);
          lt_viewer_canvas_text (canvas, bx, by + ascent, 0, label->str, SMALL_FONT + 1,
                                 LT_VIEWER_TEXT_MONOSPACE, &foreground);
        }

      for (gint64 row = 0; row < grid.shown_rows; row++)
        for (gint64 col = 0; col < grid.shown_cols; col++)
          {
            gint64 element = (block * grid.rows + row) * grid.cols + col;
            gint64 index = lt_viewer_view_get_storage_index (view, element);
            double x = bx + (double) col * (CELL + CELL_GAP);
            double y = by + grid.label_height + (double) row * (CELL + CELL_GAP);
            char text[64];

            lt_viewer_canvas_rect (canvas, x, y, CELL, CELL, CELL_RADIUS, &tint, &color, 1.5);
            if (element == cursor)
              lt_viewer_canvas_rect (canvas, x - 3, y - 3, CELL + 6, CELL + 6, CELL_RADIUS + 3,
                                     NULL, &foreground, 2.5);
            /* The storage index, small, then the value. */
            g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, index);
            lt_viewer_canvas_text (canvas, x + 4, y + 3 + SMALL_FONT * 0.95, 0, text,
                                   SMALL_FONT, LT_VIEWER_TEXT_REGULAR, &index_color);
            add_value (composer, storage, index, x, y, &foreground);
            if (composer->interactive)
              add_hit_area (composer, x, y, "data-storage", index, element, storage);
          }
    }

  shown_block_rows = (grid.shown_blocks + grid.block_cols - 1) / grid.block_cols;
  composer->y = top + (double) shown_block_rows * (grid.block_height + BLOCK_GAP) - BLOCK_GAP
                + LINE_GAP;
  composer->width = MAX (composer->width, grid_width (&grid));

  if (grid.shown_rows < grid.rows || grid.shown_cols < grid.cols
      || grid.shown_blocks < grid.n_blocks)
    {
      gint64 shown = grid.shown_rows * grid.shown_cols * grid.shown_blocks;
      gint64 numel = lt_tensor_get_numel (tensor);
      g_autofree char *shown_text = g_strdup_printf ("%" G_GINT64_FORMAT, shown);
      g_autofree char *numel_text = g_strdup_printf ("%" G_GINT64_FORMAT, numel);
      g_autofree char *text = g_strdup_printf (ngettext ("%s of its %s element are drawn.",
                                                         "%s of its %s elements are drawn.",
                                                         (gulong) numel),
                                               shown_text, numel_text);
      LtViewerColor dim = with_alpha (&foreground, 0.65);

      composer->y += LINE_GAP;
      add_paragraph (composer, text, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &dim, 0);
    }
}

/* Every value the figure draws, for one style: the strip's first cells,
 * a copy's, the grid's elements. */
static void
choose_value_style (Composer *composer,
                    LtStorage *storage,
                    LtTensor  *selected)
{
  gint64 shown = (gint64) MAX_STRIP_ROWS * composer->cells_per_row;

  for (gint64 cell = 0; cell < MIN (shown, lt_storage_get_n_elements (storage)); cell++)
    lt_viewer_value_style_add (&composer->values, storage, cell, MAX_VALUE_CHARS);
  if (selected != NULL)
    {
      LtStorage *own = lt_tensor_get_storage (selected);
      GridLayout grid;

      if (own != storage)
        for (gint64 cell = 0; cell < MIN (shown, lt_storage_get_n_elements (own)); cell++)
          lt_viewer_value_style_add (&composer->values, own, cell, MAX_VALUE_CHARS);
      layout_grid (composer, selected, &grid);
      for (gint64 block = 0; block < grid.shown_blocks; block++)
        for (gint64 row = 0; row < grid.shown_rows; row++)
          for (gint64 col = 0; col < grid.shown_cols; col++)
            lt_viewer_value_style_add (&composer->values, own,
                                       lt_viewer_view_get_storage_index (
                                         composer->selected,
                                         (block * grid.rows + row) * grid.cols + col),
                                       MAX_VALUE_CHARS);
    }
}

/* Parts of the figure */

static void
add_heading (Composer   *composer,
             const char *text,
             double      size)
{
  add_paragraph (composer, text, size, LT_VIEWER_TEXT_BOLD, &foreground, 0);
  composer->y += LINE_GAP;
}

/* A badge: a pill saying what, then the sentence saying why. */
static void
add_badge (Composer            *composer,
           const char          *what,
           const LtViewerColor *color,
           const char          *why)
{
  double ascent, height = line_height (composer, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &ascent);
  double width = add_pill (composer, MARGIN, 0, composer->y + height / 2, what, SMALL_FONT + 1,
                           color);

  g_string_append_printf (composer->description, "%s%s", composer->description->len > 0
                                                          ? "\n" : "", what);
  if (why != NULL && why[0] != '\0')
    {
      double before = composer->y;

      add_paragraph (composer, why, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &foreground, width + 8);
      composer->y = MAX (composer->y, before + height + 2);
    }
  else
    composer->y += height + 2;
  composer->y += 4;
}

static void
add_badges (Composer *composer)
{
  LtViewerView *view = composer->selected;
  g_autofree char *contiguity = NULL;
  g_autofree char *aliasing = NULL;
  g_autofree char *pytorch = NULL;
  const char *probe = lt_viewer_view_get_probe (view);

  if (lt_viewer_view_explain_contiguity (view, &contiguity))
    add_badge (composer, _("Contiguous"), &success_color, contiguity);
  else
    add_badge (composer, _("Not contiguous"), &warning_color, contiguity);

  if (lt_viewer_view_explain_aliasing (view, &aliasing))
    add_badge (composer, _("Aliases itself"), &warning_color, aliasing);
  else
    add_badge (composer, _("No aliasing"), &success_color, aliasing);

  /* Said only where PyTorch differs. */
  if (!lt_viewer_view_explain_pytorch (view, &pytorch))
    add_badge (composer, _("Not in PyTorch"), &warning_color, pytorch);

  /* The view() badge, where the lesson gives the shape to try. */
  if (probe[0] != '\0')
    {
      gint64 shape[LT_MAX_DIMS];
      guint n_dims;
      g_autofree char *reason = NULL;
      g_autoptr (GError) error = NULL;

      if (!lt_viewer_parse_shape (probe, TRUE, shape, &n_dims, &error))
        add_badge (composer, _("Not a shape"), &error_color, error->message);
      else
        {
          g_autoptr (GString) what = g_string_new ("view");

          lt_viewer_append_tuple (what, shape, n_dims);
          if (n_dims == 1)
            g_string_erase (what, what->len - 2, 1);
          if (lt_viewer_view_explain_view_as (view, shape, n_dims, &reason))
            {
              /* Translators: %s is a call such as view(4, 2, 3) */
              g_autofree char *title = g_strdup_printf (_("%s possible"), what->str);

              add_badge (composer, title, &success_color, reason);
            }
          else
            {
              /* Translators: %s is a call such as view(4, 2, 3) */
              g_autofree char *title = g_strdup_printf (_("%s not possible"), what->str);

              add_badge (composer, title, &error_color, reason);
            }
        }
    }
}

/* The view's error, in place of its elements. */
static void
add_error_card (Composer   *composer,
                const char *message)
{
  const double padding = 12;
  const char *title = lt_viewer_view_get_expect_error (composer->selected)
                        ? _("Fails, as the lesson shows") : _("This view fails");
  LtViewerColor fill = with_alpha (&error_color, 0.08);
  double saved_width = composer->text_width;
  double title_ascent, title_height = line_height (composer, HEADING_FONT,
                                                   LT_VIEWER_TEXT_BOLD, &title_ascent);
  double ascent, body_height = line_height (composer, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &ascent);
  g_auto (GStrv) lines = lt_viewer_canvas_wrap (composer->canvas, message, BODY_FONT,
                                                LT_VIEWER_TEXT_REGULAR,
                                                composer->text_width - 2 * padding);
  double card_height = 2 * padding + title_height + LINE_GAP
                       + g_strv_length (lines) * (body_height + 2);

  /* The card first, then its text on it. */
  lt_viewer_canvas_rect (composer->canvas, MARGIN, composer->y, composer->text_width,
                         card_height, CELL_RADIUS, &fill, &error_color, 1.5);
  composer->y += padding;
  lt_viewer_canvas_text (composer->canvas, MARGIN + padding, composer->y + title_ascent, 0,
                         title, HEADING_FONT, LT_VIEWER_TEXT_BOLD, &error_color);
  g_string_append_printf (composer->description, "\n%s", title);
  composer->y += title_height + LINE_GAP;
  composer->text_width -= padding;
  add_paragraph (composer, message, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &foreground, padding);
  composer->text_width = saved_width;
  composer->y += padding;
  composer->width = MAX (composer->width, composer->text_width);
}

static void
add_step (Composer *composer,
          LtTensor *tensor)
{
  LtViewerView *view = composer->selected;
  gint64 cursor = lt_viewer_view_get_cursor (view);
  g_autofree char *element = NULL;
  g_autofree char *address = NULL;
  g_autofree char *text = NULL;

  if (cursor < 0 || cursor >= lt_tensor_get_numel (tensor))
    return;
  element = format_element (tensor, cursor);
  address = lt_viewer_view_format_address (view, cursor);
  /* Translators: the order stepper in a figure: the element's indices and
   * its address, as in "element [1, 0]: 0 + 1*1 + 2*0 = 1" */
  text = g_strdup_printf (_("element %s: %s"), element, address);
  add_paragraph (composer, text, BODY_FONT, LT_VIEWER_TEXT_MONOSPACE, &foreground, 0);
  composer->y += LINE_GAP;
}

static void
add_legend (Composer            *composer,
            const LtViewerColor *colors)
{
  guint n_views = lt_viewer_lesson_get_n_views (composer->lesson);
  double ascent, height = line_height (composer, BODY_FONT, LT_VIEWER_TEXT_REGULAR, &ascent);
  double swatch = 16;
  double x = MARGIN;
  double row_height = MAX (height, swatch);
  double right = MARGIN + MAX (composer->text_width, composer->width);

  for (guint i = 0; i < n_views; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (composer->lesson, i);
      gboolean dimmed = composer->selected_bit >= 0 && (int) i != composer->selected_bit;
      LtViewerTextStyle style = (int) i == composer->selected_bit ? LT_VIEWER_TEXT_BOLD
                                                                  : LT_VIEWER_TEXT_REGULAR;
      const char *name = lt_viewer_view_get_name (view);
      double name_width = lt_viewer_canvas_text_width (composer->canvas, name, BODY_FONT, style);
      double item_width = swatch + 6 + name_width;
      double alpha = dimmed ? 0.2 : 0.5;
      LtViewerColor tint = with_alpha (&colors[i], alpha);
      LtViewerColor ink = with_alpha (&colors[i], MIN (1.0, alpha * PATTERN_ALPHA / TINT_ALPHA));
      LtViewerColor text_color = dimmed ? with_alpha (&foreground, 0.65) : foreground;
      double sy = composer->y + (row_height - swatch) / 2;

      if (x > MARGIN && x + item_width > right)
        {
          x = MARGIN;
          composer->y += row_height + LINE_GAP;
          sy = composer->y + (row_height - swatch) / 2;
        }
      lt_viewer_canvas_push_clip (composer->canvas, x, sy, swatch, swatch, 3);
      lt_viewer_canvas_rect (composer->canvas, x, sy, swatch, swatch, 0, &tint, NULL, 0);
      lt_viewer_canvas_pattern (composer->canvas, x, sy, swatch, swatch, i, 1, &ink);
      lt_viewer_canvas_pop_clip (composer->canvas);
      lt_viewer_canvas_rect (composer->canvas, x, sy, swatch, swatch, 3, NULL, &colors[i], 1.5);
      lt_viewer_canvas_text (composer->canvas, x + swatch + 6,
                             composer->y + (row_height - height) / 2 + ascent, 0, name,
                             BODY_FONT, style, &text_color);
      composer->width = MAX (composer->width, x + item_width - MARGIN);
      x += item_width + 18;
    }
  if (n_views > 0)
    composer->y += row_height;
}

/* "6 float32 elements" */
static char *
format_cell_count (LtStorage *storage)
{
  gint64 n = lt_storage_get_n_elements (storage);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, n);

  /* Translators: a storage's size in a figure: the count, then the dtype */
  return g_strdup_printf (ngettext ("%s %s element", "%s %s elements", (gulong) n), count,
                          lt_dtype_get_name (lt_storage_get_dtype (storage)));
}

static void
add_view (Composer *composer)
{
  LtViewerView *view = composer->selected;
  LtTensor *tensor = lt_viewer_view_get_tensor (view);
  const char *error = lt_viewer_view_get_error (view);
  const char *name = lt_viewer_view_get_name (view);
  const char *expression = lt_viewer_view_get_expression (view);
  g_autofree char *heading = NULL;

  if (g_strcmp0 (name, expression) == 0)
    heading = g_strdup_printf (_("View: %s"), name);
  else
    heading = g_strdup_printf (_("View: %s = %s"), name, expression);
  add_heading (composer, heading, HEADING_FONT);

  if (error != NULL || tensor == NULL)
    {
      add_error_card (composer, error != NULL ? error : "");
      return;
    }

  {
    guint ndim;
    const gint64 *sizes = lt_tensor_get_sizes (tensor, &ndim);
    const gint64 *strides = lt_tensor_get_strides (tensor, &ndim);

    g_autoptr (GString) size_text = g_string_new (NULL);
    g_autoptr (GString) stride_text = g_string_new (NULL);
    g_autofree char *offset = g_strdup_printf ("%" G_GINT64_FORMAT,
                                               lt_tensor_get_storage_offset (tensor));
    g_autofree char *text = NULL;

    lt_viewer_append_tuple (size_text, sizes, ndim);
    lt_viewer_append_tuple (stride_text, strides, ndim);
    /* Translators: a view's layout in a figure, as in "size (3, 2) ·
     * stride (1, 2) · offset 0" */
    text = g_strdup_printf (_("size %s · stride %s · offset %s"), size_text->str,
                            stride_text->str, offset);
    add_paragraph (composer, text, BODY_FONT, LT_VIEWER_TEXT_MONOSPACE, &foreground, 0);
    composer->y += LINE_GAP;
  }

  add_badges (composer);
  composer->y += LINE_GAP;
  add_step (composer, tensor);
  add_grid (composer, tensor);
}

static gboolean
is_copy (LtViewerLesson *lesson,
         LtTensor       *tensor)
{
  LtStorage *storage = lt_tensor_get_storage (tensor);
  LtStorage *base_storage = lt_tensor_get_storage (lt_viewer_lesson_get_base (lesson));

  return storage != base_storage && !lt_storage_shares_memory (storage, base_storage);
}

/**
 * lt_viewer_compose_figure:
 * @lesson: the lesson
 * @cells_per_row: storage cells per strip row, 1 or more
 * @interactive: whether to add hit areas for a page's script: data-cell
 *   (and data-value) on the storage's cells, data-copy-cell on a copy's,
 *   data-element and data-storage on the view's elements
 * @width: (out): return location for the figure's width, in figure units
 * @height: (out): return location for its height
 * @description: (out) (optional) (transfer full): return location for the
 *   figure's text, in reading order
 *
 * Composes a figure of @lesson as it is: its selected view and that
 * view's cursor.
 *
 * Returns: (transfer full): the canvas it is drawn on
 */
LtViewerCanvas *
lt_viewer_compose_figure (LtViewerLesson  *lesson,
                          guint            cells_per_row,
                          gboolean         interactive,
                          double          *width,
                          double          *height,
                          char           **description)
{
  LtTensor *base = lt_viewer_lesson_get_base (lesson);
  LtStorage *storage = lt_tensor_get_storage (base);
  guint n_views = lt_viewer_lesson_get_n_views (lesson);
  LtViewerColor colors[LT_VIEWER_MAX_VIEWS];
  g_autoptr (GString) words = g_string_new (NULL);
  LtTensor *selected_tensor = NULL;
  gboolean selected_copies = FALSE;
  Composer composer = { 0 };
  StripPainter painter = { 0 };
  g_autofree char *storage_heading = NULL;
  gsize n_cells;
  double widest;

  composer.canvas = lt_viewer_canvas_new ();
  composer.lesson = lesson;
  composer.description = words;
  composer.selected = lt_viewer_lesson_get_selected (lesson);
  composer.selected_bit = -1;
  composer.cells_per_row = MAX (cells_per_row, 1);
  composer.interactive = interactive;
  for (guint i = 0; i < n_views; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);

      colors[i] = view_color (view, 1);
      if (view == composer.selected)
        composer.selected_bit = (int) i;
    }
  if (composer.selected != NULL)
    {
      selected_tensor = lt_viewer_view_get_tensor (composer.selected);
      if (lt_viewer_view_get_error (composer.selected) != NULL)
        selected_tensor = NULL;
      selected_copies = selected_tensor != NULL && is_copy (lesson, selected_tensor);
    }

  /* The widest part sets where text wraps. */
  widest = strip_width (&composer, lt_storage_get_n_elements (storage));
  if (selected_tensor != NULL)
    {
      GridLayout grid;

      layout_grid (&composer, selected_tensor, &grid);
      widest = MAX (widest, grid_width (&grid));
      if (selected_copies)
        widest = MAX (widest, strip_width (&composer,
                                           lt_storage_get_n_elements (
                                             lt_tensor_get_storage (selected_tensor))));
    }
  composer.text_width = MAX (widest, MIN_TEXT_WIDTH);
  choose_value_style (&composer, storage, selected_tensor);

  composer.y = MARGIN;
  add_heading (&composer, lt_viewer_lesson_get_title (lesson), TITLE_FONT);
  composer.y += LINE_GAP;

  {
    g_autofree char *count = format_cell_count (storage);

    /* Translators: the storage's heading in a figure, as in "Storage: 6
     * float32 elements" */
    storage_heading = g_strdup_printf (_("Storage: %s"), count);
    add_heading (&composer, storage_heading, HEADING_FONT);
  }
  painter.storage = storage;
  painter.views = lt_viewer_lesson_get_cell_views (lesson, &n_cells);
  painter.n_views = n_views;
  painter.colors = colors;
  painter.cursor_cell = -1;
  painter.hit_name = "data-cell";
  if (selected_tensor != NULL && !selected_copies)
    {
      gint64 cursor = lt_viewer_view_get_cursor (composer.selected);

      painter.order_view = composer.selected;
      if (cursor >= 0 && cursor < lt_tensor_get_numel (selected_tensor))
        painter.cursor_cell = lt_viewer_view_get_storage_index (composer.selected, cursor);
    }
  add_strip (&composer, &painter);
  composer.y += SECTION_GAP - LINE_GAP;

  if (selected_copies)
    {
      LtStorage *copy_storage = lt_tensor_get_storage (selected_tensor);
      g_autofree char *heading = NULL;
      g_autofree char *count = format_cell_count (copy_storage);
      gint64 cursor = lt_viewer_view_get_cursor (composer.selected);

      /* Translators: the heading of a copy's own storage in a figure: the
       * view's name, then "6 float32 elements" */
      heading = g_strdup_printf (_("Storage of the copy %s: %s"),
                                 lt_viewer_view_get_name (composer.selected), count);
      add_heading (&composer, heading, HEADING_FONT);
      painter = (StripPainter) {
        .storage = copy_storage,
        .views = NULL,
        .n_views = 1,
        .order_view = composer.selected,
        .colors = colors,
        .cursor_cell = cursor >= 0 && cursor < lt_tensor_get_numel (selected_tensor)
                         ? lt_viewer_view_get_storage_index (composer.selected, cursor) : -1,
        .hit_name = "data-copy-cell",
      };
      add_strip (&composer, &painter);
      composer.y += SECTION_GAP - LINE_GAP;
    }

  if (composer.selected != NULL)
    {
      add_view (&composer);
      composer.y += SECTION_GAP - LINE_GAP;
    }

  add_legend (&composer, colors);
  if (n_views == 0)
    {
      LtViewerColor dim = with_alpha (&foreground, 0.65);

      add_paragraph (&composer, _("The lesson has no views yet."), BODY_FONT,
                     LT_VIEWER_TEXT_REGULAR, &dim, 0);
    }

  *width = MAX (composer.width, composer.text_width) + 2 * MARGIN;
  *height = composer.y + MARGIN;
  if (description != NULL)
    *description = g_strdup (words->str);
  return composer.canvas;
}
