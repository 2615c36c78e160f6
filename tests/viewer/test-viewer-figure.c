/* test-viewer-figure.c: lessons composed into figures, without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer-test"
#define _GNU_SOURCE /* memmem */

#include <string.h>

#include <cairo.h>
#include <glib/gstdio.h>

#include "lt-viewer-figure.h"
#include "lt-viewer-lesson-file.h"

/* What an SVG document holds, read with GMarkup (so it is well-formed). */
typedef struct
{
  GHashTable *element_counts;  /* name -> count */
  GPtrArray *texts;            /* every <text>'s content, in order */
  GPtrArray *bold_texts;       /* those in bold */
  gboolean in_text;
  gboolean in_bold;
  GString *current;
  double width, height;
} Svg;

static void
svg_start (GMarkupParseContext  *context,
           const char           *name,
           const char          **attribute_names,
           const char          **attribute_values,
           gpointer              data,
           GError              **error)
{
  Svg *svg = data;
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (svg->element_counts, name));

  g_hash_table_replace (svg->element_counts, g_strdup (name), GUINT_TO_POINTER (count + 1));
  if (strcmp (name, "svg") == 0)
    for (guint i = 0; attribute_names[i] != NULL; i++)
      {
        if (strcmp (attribute_names[i], "width") == 0)
          svg->width = g_ascii_strtod (attribute_values[i], NULL);
        else if (strcmp (attribute_names[i], "height") == 0)
          svg->height = g_ascii_strtod (attribute_values[i], NULL);
      }
  if (strcmp (name, "text") == 0)
    {
      svg->in_text = TRUE;
      svg->in_bold = FALSE;
      g_string_truncate (svg->current, 0);
      for (guint i = 0; attribute_names[i] != NULL; i++)
        if (strcmp (attribute_names[i], "font-weight") == 0
            && strcmp (attribute_values[i], "bold") == 0)
          svg->in_bold = TRUE;
    }
}

static void
svg_end (GMarkupParseContext  *context,
         const char           *name,
         gpointer              data,
         GError              **error)
{
  Svg *svg = data;

  if (strcmp (name, "text") == 0)
    {
      g_ptr_array_add (svg->texts, g_strdup (svg->current->str));
      if (svg->in_bold)
        g_ptr_array_add (svg->bold_texts, g_strdup (svg->current->str));
      svg->in_text = FALSE;
    }
}

static void
svg_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 length,
          gpointer              data,
          GError              **error)
{
  Svg *svg = data;

  if (svg->in_text)
    g_string_append_len (svg->current, text, (gssize) length);
}

static void
svg_clear (Svg *svg)
{
  g_hash_table_unref (svg->element_counts);
  g_ptr_array_unref (svg->texts);
  g_ptr_array_unref (svg->bold_texts);
  g_string_free (svg->current, TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Svg, svg_clear)

static void
svg_parse (Svg        *svg,
           const char *document)
{
  static const GMarkupParser parser = { svg_start, svg_end, svg_text, NULL, NULL };
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;

  svg->element_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  svg->texts = g_ptr_array_new_with_free_func (g_free);
  svg->bold_texts = g_ptr_array_new_with_free_func (g_free);
  svg->current = g_string_new (NULL);
  /* GMarkup skips the <?xml ?> declaration but not a DOCTYPE: none is
   * written. */
  context = g_markup_parse_context_new (&parser, 0, svg, NULL);
  g_markup_parse_context_parse (context, document, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
}

static guint
svg_count (Svg        *svg,
           const char *element)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (svg->element_counts, element));
}

static gboolean
svg_has_text (Svg        *svg,
              const char *text)
{
  for (guint i = 0; i < svg->texts->len; i++)
    if (strstr (g_ptr_array_index (svg->texts, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* The words of every <text>, joined: a sentence wrapped over lines reads
 * whole again. */
static char *
svg_all_text (Svg *svg)
{
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < svg->texts->len; i++)
    g_string_append_printf (all, "%s ", (const char *) g_ptr_array_index (svg->texts, i));
  return g_string_free (all, FALSE);
}

static LtViewerLesson *
load_builtin (const char *name,
              guint       view)
{
  g_autoptr (GError) error = NULL;
  LtViewerLesson *lesson = lt_viewer_lesson_load_builtin (name, &error);

  g_assert_no_error (error);
  if (view > 0)
    lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, view - 1));
  return lesson;
}

static char *
figure_svg (LtViewerLesson *lesson)
{
  g_autoptr (LtViewerFigure) figure = lt_viewer_figure_new (lesson);

  return lt_viewer_figure_to_svg (figure);
}

static char *
format_tuple (const gint64 *values,
              guint         n)
{
  GString *text = g_string_new ("(");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", values[i]);
  if (n == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

/* Every built-in lesson with each view selected: a vector document with
 * the title, the legend, and the selected view's sizes, strides and
 * offset, or its error. */
static void
test_builtin_vector (void)
{
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  for (guint l = 0; names[l] != NULL; l++)
    {
      g_autoptr (LtViewerLesson) lesson = load_builtin (names[l], 0);
      guint n_views = lt_viewer_lesson_get_n_views (lesson);

      for (guint v = 0; v <= n_views; v++)
        {
          g_autofree char *document = NULL;
          g_auto (Svg) svg = { 0 };
          g_autofree char *all = NULL;
          LtViewerView *view = v > 0 ? lt_viewer_lesson_get_view (lesson, v - 1) : NULL;

          lt_viewer_lesson_set_selected (lesson, view);
          document = figure_svg (lesson);
          svg_parse (&svg, document);
          all = svg_all_text (&svg);

          g_test_message ("%s, view %u: %u texts, %u rects", names[l], v, svg.texts->len,
                          svg_count (&svg, "rect"));
          g_assert_cmpuint (svg_count (&svg, "svg"), ==, 1);
          g_assert_cmpuint (svg_count (&svg, "image"), ==, 0);
          g_assert_null (strstr (document, "data:image"));
          g_assert_cmpuint (svg_count (&svg, "title"), ==, 1);
          g_assert_nonnull (strstr (all, lt_viewer_lesson_get_title (lesson)));
          /* One cell per storage element at least, and text for each. */
          g_assert_cmpuint (svg_count (&svg, "rect"), >=,
                            lt_storage_get_n_elements (
                              lt_tensor_get_storage (lt_viewer_lesson_get_base (lesson))));
          g_assert_cmpfloat (svg.width, >, 0);
          g_assert_cmpfloat (svg.height, >, 0);

          /* The legend names every view. */
          for (guint i = 0; i < n_views; i++)
            g_assert_true (svg_has_text (&svg,
                                         lt_viewer_view_get_name (
                                           lt_viewer_lesson_get_view (lesson, i))));

          if (view != NULL && lt_viewer_view_get_error (view) == NULL)
            {
              LtTensor *tensor = lt_viewer_view_get_tensor (view);
              guint ndim, n_strides;
              const gint64 *size_values = lt_tensor_get_sizes (tensor, &ndim);
              const gint64 *stride_values = lt_tensor_get_strides (tensor, &n_strides);
              g_autofree char *sizes = format_tuple (size_values, ndim);
              g_autofree char *strides = format_tuple (stride_values, n_strides);
              g_autofree char *caption = g_strdup_printf (
                "size %s · stride %s · offset %" G_GINT64_FORMAT, sizes, strides,
                lt_tensor_get_storage_offset (tensor));

              g_assert_true (svg_has_text (&svg, caption));
              g_assert_true (svg_has_text (&svg, "Contiguous")
                             || svg_has_text (&svg, "Not contiguous"));
            }
          else if (view != NULL)
            {
              g_assert_true (svg_has_text (&svg, "Fails, as the lesson shows"));
              g_assert_nonnull (strstr (all, "use reshape()"));
            }
        }
    }
}

/* The storage strip is about the selected view: in storage order, the cells
 * carry the row-major position of the element on them. transpose(0, 2)
 * of a (3, 4, 5) tensor has strides (1, 5, 20): cell c holds element
 * [c % 5, c / 5 % 4, c / 20], at position (c % 5) * 12 + (c / 5 % 4) * 3
 * + c / 20. */
static void
test_selected_order (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("transpose-3d", 2);
  g_autofree char *document = figure_svg (lesson);
  g_auto (Svg) svg = { 0 };
  guint first = G_MAXUINT;

  svg_parse (&svg, document);
  /* The bold texts: the title, the storage heading, then the 60 cells'
   * positions. */
  for (guint i = 0; i < svg.bold_texts->len && first == G_MAXUINT; i++)
    if (strcmp (g_ptr_array_index (svg.bold_texts, i), "0") == 0)
      first = i;
  g_assert_cmpuint (first, !=, G_MAXUINT);
  g_assert_cmpuint (svg.bold_texts->len, >=, first + 60);
  for (guint c = 0; c < 60; c++)
    {
      g_autofree char *expected = g_strdup_printf ("%u", (c % 5) * 12 + (c / 5 % 4) * 3 + c / 20);

      g_assert_cmpstr (g_ptr_array_index (svg.bold_texts, first + c), ==, expected);
    }

  /* The first view, t itself, carries the positions 0 to 59 in order:
   * another picture. */
  {
    g_autofree char *other = NULL;
    g_auto (Svg) other_svg = { 0 };

    lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 0));
    other = figure_svg (lesson);
    svg_parse (&other_svg, other);
    g_assert_cmpstr (other, !=, document);
    first = G_MAXUINT;
    for (guint i = 0; i < other_svg.bold_texts->len && first == G_MAXUINT; i++)
      if (strcmp (g_ptr_array_index (other_svg.bold_texts, i), "0") == 0)
        first = i;
    for (guint c = 0; c < 60; c++)
      {
        g_autofree char *expected = g_strdup_printf ("%u", c);

        g_assert_cmpstr (g_ptr_array_index (other_svg.bold_texts, first + c), ==, expected);
      }
  }
}

/* A cell reached twice says so: expand() reaches each cell of its row
 * several times. */
static void
test_counts (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  gint64 shape[] = { 3 };
  g_autofree char *document = NULL;
  g_auto (Svg) svg = { 0 };
  guint counts = 0;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 1,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  lt_viewer_lesson_set_title (lesson, "Expand");
  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_add_view (lesson, "e", NULL,
                                                                    "t.expand(4, 3)", &error));
  g_assert_no_error (error);
  document = figure_svg (lesson);
  svg_parse (&svg, document);
  for (guint i = 0; i < svg.bold_texts->len; i++)
    if (strcmp (g_ptr_array_index (svg.bold_texts, i), "×4") == 0)
      counts++;
  g_assert_cmpuint (counts, ==, 3);
  g_assert_true (svg_has_text (&svg, "Aliases itself"));
}

/* A copy gets a strip of its own storage, named as a copy; a view does
 * not. */
static void
test_copy_strip (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("points", 0);
  guint n_views = lt_viewer_lesson_get_n_views (lesson);
  guint copies = 0;

  for (guint v = 0; v < n_views; v++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, v);
      LtTensor *tensor = lt_viewer_view_get_tensor (view);
      gboolean copy = !lt_tensor_shares_storage (tensor, lt_viewer_lesson_get_base (lesson));
      g_autofree char *document = NULL;
      g_auto (Svg) svg = { 0 };

      lt_viewer_lesson_set_selected (lesson, view);
      document = figure_svg (lesson);
      svg_parse (&svg, document);
      g_assert_cmpint (svg_has_text (&svg, "Storage of the copy"), ==, copy);
      copies += copy;
    }
  /* points.t().contiguous() */
  g_assert_cmpuint (copies, ==, 1);
}

/* The order stepper's element is outlined and its address written out. */
static void
test_step (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("points", 3);
  LtViewerView *view = lt_viewer_lesson_get_selected (lesson);
  g_autofree char *before = figure_svg (lesson);
  g_autofree char *after = NULL;
  g_autofree char *address = NULL;
  g_autofree char *expected = NULL;
  g_auto (Svg) svg = { 0 };

  lt_viewer_view_set_cursor (view, 1);
  after = figure_svg (lesson);
  svg_parse (&svg, after);
  address = lt_viewer_view_format_address (view, 1);
  expected = g_strdup_printf ("element [0, 1]: %s", address);
  g_assert_true (svg_has_text (&svg, expected));
  g_assert_null (strstr (before, "element [0, 1]"));
}

/* Cells per row and zoom: the figure's own, else the lesson's, else 16
 * and 1. */
static void
test_geometry (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("diagonal", 0);
  g_autoptr (LtViewerFigure) figure = lt_viewer_figure_new (lesson);
  gint64 n_cells = lt_storage_get_n_elements (
    lt_tensor_get_storage (lt_viewer_lesson_get_base (lesson)));
  double width, height, width_4, height_4, width_zoomed, height_zoomed;
  double pitch = 48 + 4;

  g_assert_cmpint (n_cells, ==, 16);
  lt_viewer_lesson_set_cells_per_row (lesson, 0);
  lt_viewer_figure_get_size (figure, &width, &height);

  /* 16 cells in one row, then 4 rows of 4: three rows more. */
  lt_viewer_figure_set_cells_per_row (figure, 4);
  lt_viewer_figure_get_size (figure, &width_4, &height_4);
  g_assert_cmpfloat_with_epsilon (height_4 - height, 3 * pitch, 1e-9);

  /* The lesson's, when the figure leaves it open. */
  lt_viewer_figure_set_cells_per_row (figure, 0);
  lt_viewer_lesson_set_cells_per_row (lesson, 4);
  lt_viewer_figure_get_size (figure, &width, &height);
  g_assert_cmpfloat (height, ==, height_4);

  /* Zoom scales everything. */
  lt_viewer_figure_set_zoom (figure, 2);
  lt_viewer_figure_get_size (figure, &width_zoomed, &height_zoomed);
  g_assert_cmpfloat_with_epsilon (width_zoomed, 2 * width, 1e-9);
  g_assert_cmpfloat_with_epsilon (height_zoomed, 2 * height, 1e-9);
  lt_viewer_figure_set_zoom (figure, 0);
  lt_viewer_lesson_set_zoom (lesson, 0.5);
  lt_viewer_figure_get_size (figure, &width_zoomed, &height_zoomed);
  g_assert_cmpfloat_with_epsilon (height_zoomed, height / 2, 1e-9);

  /* The SVG's size is the zoomed one; its viewBox the figure's own. */
  {
    g_autofree char *document = lt_viewer_figure_to_svg (figure);
    g_auto (Svg) svg = { 0 };

    svg_parse (&svg, document);
    g_assert_cmpfloat_with_epsilon (svg.width, width / 2, 0.01);
    g_assert_cmpfloat_with_epsilon (svg.height, height / 2, 0.01);
  }
}

/* A storage too large to draw whole is cut, and says so. */
static void
test_large_storage (void)
{
  g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
  g_autoptr (GError) error = NULL;
  gint64 shape[] = { 1000, 1000 };
  g_autoptr (LtViewerFigure) figure = NULL;
  g_autofree char *document = NULL;
  g_auto (Svg) svg = { 0 };
  double width, height;

  g_assert_true (lt_viewer_lesson_set_base (lesson, LT_DTYPE_FLOAT32, shape, 2,
                                            LT_VIEWER_CONTENTS_ARANGE, NULL, 0, &error));
  lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_add_view (lesson, NULL, NULL,
                                                                    "t[::100, ::100]", &error));
  g_assert_no_error (error);
  figure = lt_viewer_figure_new (lesson);
  lt_viewer_figure_get_size (figure, &width, &height);
  g_assert_cmpfloat (height, <, 10000);
  document = lt_viewer_figure_to_svg (figure);
  svg_parse (&svg, document);
  g_assert_true (svg_has_text (&svg, "more cells"));
  /* The overview: the whole storage, 101 cells a square, the view's reach
   * in its colour (one run of squares for each of its 10 rows). */
  g_assert_true (svg_has_text (&svg, "The whole storage, 101 cells a square"));
  {
    g_autofree char *fill = g_strdup_printf ("fill=\"%s\"",
                                             lt_viewer_view_get_color (
                                               lt_viewer_lesson_get_view (lesson, 0)));
    guint runs = 0;

    for (const char *at = document; (at = strstr (at, "height=\"4\" " )) != NULL; at++)
      if (g_str_has_prefix (at + strlen ("height=\"4\" "), fill))
        runs++;
    g_assert_cmpuint (runs, ==, 10);
  }
  g_assert_true (svg_has_text (&svg, "size (10, 10) · stride (100000, 100) · offset 0"));
}

static gboolean
bytes_contain (GBytes     *bytes,
               const char *needle)
{
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  /* Binary: NULs inside. */
  return memmem (data, size, needle, strlen (needle)) != NULL;
}

typedef struct
{
  const guint8 *data;
  gsize size;
  gsize offset;
} Reader;

static cairo_status_t
read_bytes (void          *closure,
            unsigned char *data,
            unsigned int   length)
{
  Reader *reader = closure;

  if (reader->offset + length > reader->size)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, reader->data + reader->offset, length);
  reader->offset += length;
  return CAIRO_STATUS_SUCCESS;
}

/* PNG at the figure's size; PDF vector, with fonts and no images. */
static void
test_png_and_pdf (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("points", 2);
  g_autoptr (LtViewerFigure) figure = lt_viewer_figure_new (lesson);
  g_autoptr (GBytes) png = NULL;
  g_autoptr (GBytes) pdf = NULL;
  g_autoptr (GError) error = NULL;
  cairo_surface_t *image;
  Reader reader = { 0 };
  double width, height;

  lt_viewer_figure_set_zoom (figure, 1.5);
  lt_viewer_figure_get_size (figure, &width, &height);

  png = lt_viewer_figure_to_bytes (figure, LT_VIEWER_FIGURE_FORMAT_PNG, &error);
  g_assert_no_error (error);
  reader.data = g_bytes_get_data (png, &reader.size);
  image = cairo_image_surface_create_from_png_stream (read_bytes, &reader);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, (int) (width + 0.999));
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, (int) (height + 0.999));
  /* The corner is the white background. */
  cairo_surface_flush (image);
  g_assert_cmphex (((guint32 *) cairo_image_surface_get_data (image))[0], ==, 0xffffffff);
  cairo_surface_destroy (image);

  pdf = lt_viewer_figure_to_bytes (figure, LT_VIEWER_FIGURE_FORMAT_PDF, &error);
  g_assert_no_error (error);
  g_assert_true (bytes_contain (pdf, "%PDF-"));
  g_assert_true (bytes_contain (pdf, "/Font"));
  g_assert_false (bytes_contain (pdf, "/Subtype /Image"));
}

/* The page: every view's figure (ids of their own), the notes, the data
 * its script reads, nothing from elsewhere; the lesson as it was. */
static void
test_html (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("points", 3);
  g_autoptr (LtViewerFigure) figure = lt_viewer_figure_new (lesson);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GRegex) id_regex = g_regex_new ("\\sid=\"([^\"]*)\"", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  LtViewerView *selected = lt_viewer_lesson_get_selected (lesson);
  guint n_views = lt_viewer_lesson_get_n_views (lesson);
  const char *page;
  guint figures = 0, hidden = 0;

  lt_viewer_view_set_cursor (selected, 1);
  bytes = lt_viewer_figure_to_bytes (figure, LT_VIEWER_FIGURE_FORMAT_HTML, &error);
  g_assert_no_error (error);
  page = g_bytes_get_data (bytes, NULL);
  g_assert_true (g_str_has_prefix (page, "<!DOCTYPE html>"));
  g_assert_true (g_utf8_validate (page, (gssize) g_bytes_get_size (bytes), NULL));
  for (const char *at = page; (at = strstr (at, "<div class=\"figure\"")) != NULL; at++)
    {
      figures++;
      if (strncmp (strchr (at, '>') - 7, " hidden", 7) == 0)
        hidden++;
    }
  g_assert_cmpuint (figures, ==, n_views);
  g_assert_cmpuint (hidden, ==, n_views - 1);
  g_assert_nonnull (strstr (page, "<div class=\"figure\" data-view=\"2\">"));
  g_assert_nonnull (strstr (page, "id=\"lesson-data\">{\"selected\":2,"));
  g_assert_nonnull (strstr (page, "\"sizes\":[2,3],\"strides\":[1,2],\"offset\":0"));
  /* The hit areas the script finds. */
  g_assert_nonnull (strstr (page, "data-cell=\"5\" data-value=\"1.0\""));
  g_assert_nonnull (strstr (page, "data-element=\"5\""));
  /* No step in the figures: the page steps. */
  g_assert_null (strstr (page, "element [0, 1]:"));
  /* Nothing from elsewhere. */
  g_assert_null (strstr (page, "src="));
  g_assert_null (strstr (page, "<link"));
  g_assert_null (strstr (page, "https:"));
  /* The notes, escaped. */
  g_assert_nonnull (strstr (page, "<section id=\"notes\">\n<p>"));

  /* Every id once. */
  g_regex_match (id_regex, page, 0, &match);
  while (g_match_info_matches (match))
    {
      char *id = g_match_info_fetch (match, 1);

      g_assert_false (g_hash_table_contains (ids, id));
      g_hash_table_add (ids, id);
      g_match_info_next (match, NULL);
    }
  g_assert_cmpuint (g_hash_table_size (ids), >, n_views);

  /* The lesson as it was. */
  g_assert_true (lt_viewer_lesson_get_selected (lesson) == selected);
  g_assert_cmpint (lt_viewer_view_get_cursor (selected), ==, 1);
}

static gboolean
svg_has_exact_text (Svg        *svg,
                    const char *text)
{
  for (guint i = 0; i < svg->texts->len; i++)
    if (strcmp (g_ptr_array_index (svg->texts, i), text) == 0)
      return TRUE;
  return FALSE;
}

/* Values: exactly, as Python writes them, wherever every drawn value fits
 * a cell; otherwise all of them in one scientific style. Never "1e4"
 * beside "1.1e4". */
static void
test_value_style (void)
{
  const struct
  {
    const char *literal;
    const char *dtype;
    const char *expected[4];
  } cases[] = {
    { "[10000.0, 11000.0, 100.0, 0.5]", "float32", { "10000.0", "11000.0", "100.0", "0.5" } },
    { "[0.0001, 0.1, 1.5, -0.0]", "float32", { "0.0001", "0.1", "1.5", "-0.0" } },
    { "[1e-05, 2.0, 1e+16]", "float64", { "1e-5", "2.0", "1e16" } },
    { "[123456789.0, 1.0]", "float64", { "1.235e8", "1.000e0" } },
    { "[7, 123456789]", "int64", { "7", "123456789" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("[Lesson]\nVersion=1\nTitle=Values\n"
                                               "Contents=literal\nDType=%s\nLiteral=%s\n",
                                               cases[i].dtype, cases[i].literal);
      g_autoptr (GError) error = NULL;
      g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_from_data (text, -1, "v.lesson",
                                                                           &error);
      g_autofree char *document = NULL;
      g_auto (Svg) svg = { 0 };

      g_assert_no_error (error);
      document = figure_svg (lesson);
      svg_parse (&svg, document);
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].expected) && cases[i].expected[j]; j++)
        {
          if (!svg_has_exact_text (&svg, cases[i].expected[j]))
            g_test_message ("%s: no %s", cases[i].literal, cases[i].expected[j]);
          g_assert_true (svg_has_exact_text (&svg, cases[i].expected[j]));
        }
    }
}

/* Files: the extension says the format; a wrong one or an unwritable place
 * is an error and leaves nothing behind. */
static void
test_write (void)
{
  g_autoptr (LtViewerLesson) lesson = load_builtin ("unfold", 2);
  g_autoptr (LtViewerFigure) figure = lt_viewer_figure_new (lesson);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("figure-XXXXXX", &error);
  const char *names[] = { "a.svg", "b.PNG", "c.pdf", "d.html" };
  const char *magic[] = { "<?xml", "\x89PNG", "%PDF", "<!DOCTYPE html>" };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (lt_viewer_figure_write (figure, file, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_true (g_str_has_prefix (contents, magic[i]));
      g_unlink (path);
    }

  {
    g_autofree char *path = g_build_filename (dir, "figure.jpg", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);

    g_assert_false (lt_viewer_figure_write (figure, file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    g_assert_nonnull (strstr (error->message, "end the name with .svg, .png, .pdf or .html"));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_clear_error (&error);
  }
  {
    g_autofree char *path = g_build_filename (dir, "missing", "figure.svg", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);

    g_assert_false (lt_viewer_figure_write (figure, file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* No display is needed: make sure none is used. */
  g_unsetenv ("DISPLAY");
  g_unsetenv ("WAYLAND_DISPLAY");

  g_test_add_func ("/viewer/figure/builtin-vector", test_builtin_vector);
  g_test_add_func ("/viewer/figure/selected-order", test_selected_order);
  g_test_add_func ("/viewer/figure/counts", test_counts);
  g_test_add_func ("/viewer/figure/copy-strip", test_copy_strip);
  g_test_add_func ("/viewer/figure/step", test_step);
  g_test_add_func ("/viewer/figure/geometry", test_geometry);
  g_test_add_func ("/viewer/figure/large-storage", test_large_storage);
  g_test_add_func ("/viewer/figure/png-and-pdf", test_png_and_pdf);
  g_test_add_func ("/viewer/figure/value-style", test_value_style);
  g_test_add_func ("/viewer/figure/html", test_html);
  g_test_add_func ("/viewer/figure/write", test_write);

  return g_test_run ();
}
