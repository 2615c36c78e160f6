/* lt-viewer-figure-page.c: a lesson as one interactive web page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-figure-composer.h"
#include "lt-viewer-figure-page.h"
#include "lt-viewer-page.h"

#define PAGE_RESOURCES "/org/libtensor/TensorViewer/page/"

static const LtViewerColor page_background = { 1, 1, 1, 1 };

static void
append_html (GString    *page,
             const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (page, escaped);
}

/* A JSON string; '<' escaped too, so that the JSON cannot end its
 * <script> element. */
static void
append_json_string (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '"');
  for (const char *c = text; c != NULL && *c != '\0'; c++)
    {
      guchar byte = (guchar) *c;

      if (byte == '"' || byte == '\\')
        g_string_append_printf (out, "\\%c", byte);
      else if (byte < 0x20 || byte == '<' || byte == '>' || byte == '&')
        g_string_append_printf (out, "\\u%04x", byte);
      else
        g_string_append_c (out, (char) byte);
    }
  g_string_append_c (out, '"');
}

static void
append_json_ints (GString      *out,
                  const gint64 *values,
                  guint         n)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", values[i]);
  g_string_append_c (out, ']');
}

static const char *
storage_kind (LtViewerLesson *lesson,
              LtTensor       *tensor)
{
  LtStorage *storage = lt_tensor_get_storage (tensor);
  LtStorage *base_storage = lt_tensor_get_storage (lt_viewer_lesson_get_base (lesson));

  if (storage == base_storage)
    return "base";
  if (!lt_storage_shares_memory (storage, base_storage))
    return "copy";
  return "other";
}

/* The data the page's script reads: each view's layout, and the page's
 * sentences in the reader's language. */
static void
append_data (GString        *page,
             LtViewerLesson *lesson,
             int             selected)
{
  guint n_views = lt_viewer_lesson_get_n_views (lesson);
  g_autoptr (GString) json = g_string_new ("{\"selected\":");

  g_string_append_printf (json, "%d,\"views\":[", MAX (selected, 0));
  for (guint i = 0; i < n_views; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);
      LtTensor *tensor = lt_viewer_view_get_error (view) == NULL
                           ? lt_viewer_view_get_tensor (view) : NULL;
      guint ndim = 0;
      const gint64 *sizes = tensor != NULL ? lt_tensor_get_sizes (tensor, &ndim) : NULL;
      const gint64 *strides = tensor != NULL ? lt_tensor_get_strides (tensor, &ndim) : NULL;

      g_string_append (json, i > 0 ? ",{\"name\":" : "{\"name\":");
      append_json_string (json, lt_viewer_view_get_name (view));
      g_string_append (json, ",\"sizes\":");
      append_json_ints (json, sizes, ndim);
      g_string_append (json, ",\"strides\":");
      append_json_ints (json, strides, ndim);
      g_string_append_printf (json, ",\"offset\":%" G_GINT64_FORMAT ",\"numel\":%" G_GINT64_FORMAT,
                              tensor != NULL ? lt_tensor_get_storage_offset (tensor) : 0,
                              tensor != NULL ? lt_tensor_get_numel (tensor) : 0);
      g_string_append (json, ",\"storage\":");
      append_json_string (json, tensor != NULL ? storage_kind (lesson, tensor) : "none");
      g_string_append (json, ",\"error\":");
      if (lt_viewer_view_get_error (view) != NULL)
        append_json_string (json, lt_viewer_view_get_error (view));
      else
        g_string_append (json, "null");
      g_string_append_c (json, '}');
    }
  g_string_append (json, "],\"strings\":{\"element\":");
  /* Translators: the web page's status line while stepping or hovering an
   * element: its indices and its address, as in "element [1, 0]: 0 + 1*1
   * + 2*0 = 1" */
  append_json_string (json, _("element %s: %s"));
  g_string_append (json, ",\"cell\":");
  /* Translators: the web page's status line over a storage cell: its index
   * and its value */
  append_json_string (json, _("storage cell %s: %s"));
  g_string_append (json, "}}");

  g_string_append (page, "<script type=\"application/json\" id=\"lesson-data\">");
  g_string_append (page, json->str);
  g_string_append (page, "</script>\n");
}

static void
append_resource (GString    *page,
                 const char *name)
{
  g_autofree char *path = g_strconcat (PAGE_RESOURCES, name, NULL);
  /* The resource by name, not from the global list: nothing else would
   * pull its object file out of the static library. */
  g_autoptr (GBytes) bytes = g_resource_lookup_data (lt_viewer_page_get_resource (), path,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

  /* Compiled in: always there. */
  g_assert (bytes != NULL);
  g_string_append_len (page, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes));
}

static void
append_notes (GString    *page,
              const char *notes)
{
  g_auto (GStrv) paragraphs = g_strsplit (notes, "\n\n", -1);

  for (guint i = 0; paragraphs[i] != NULL; i++)
    {
      g_auto (GStrv) lines = g_strsplit (paragraphs[i], "\n", -1);

      if (paragraphs[i][0] == '\0')
        continue;
      g_string_append (page, "<p>");
      for (guint j = 0; lines[j] != NULL; j++)
        {
          if (j > 0)
            g_string_append (page, "<br>");
          append_html (page, lines[j]);
        }
      g_string_append (page, "</p>\n");
    }
}

/* The figure with @view selected (none: -1), as an inline <svg>. */
static void
append_figure (GString        *page,
               LtViewerLesson *lesson,
               guint           cells_per_row,
               double          zoom,
               int             view,
               gboolean        hidden)
{
  g_autoptr (LtViewerCanvas) canvas = NULL;
  g_autofree char *svg = NULL;
  g_autofree char *prefix = g_strdup_printf ("view%d-", view);
  const char *start;
  double width, height;

  lt_viewer_lesson_set_selected (lesson, view >= 0 ? lt_viewer_lesson_get_view (lesson, view)
                                                   : NULL);
  canvas = lt_viewer_compose_figure (lesson, cells_per_row, TRUE, &width, &height, NULL);
  svg = lt_viewer_canvas_to_svg (canvas, width, height, zoom, prefix, &page_background, NULL,
                                 NULL);
  /* Inline: without the XML declaration. */
  start = strstr (svg, "<svg");
  g_string_append_printf (page, "<div class=\"figure\" data-view=\"%d\"%s>\n", view,
                          hidden ? " hidden" : "");
  g_string_append (page, start != NULL ? start : svg);
  g_string_append (page, "</div>\n");
}

/**
 * lt_viewer_figure_page_new:
 * @lesson: the lesson
 * @cells_per_row: storage cells per strip row
 * @zoom: the figures' scale
 *
 * One self-contained HTML page (no network, no other file): the lesson's
 * title and notes, a button per view, the figure of each view (the
 * selected one shown), and a script for hovering and stepping. The
 * lesson's selection and cursors are as they were afterwards.
 *
 * Returns: (transfer full): the page
 */
char *
lt_viewer_figure_page_new (LtViewerLesson *lesson,
                           guint           cells_per_row,
                           double          zoom)
{
  g_autoptr (LtViewerView) selected = NULL;
  g_autoptr (GArray) cursors = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n_views = lt_viewer_lesson_get_n_views (lesson);
  const char *language = g_get_language_names ()[0];
  GString *page = g_string_new (NULL);
  int shown = -1;
  g_autofree char *html_language = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (lesson), NULL);

  selected = lt_viewer_lesson_get_selected (lesson) != NULL
               ? g_object_ref (lt_viewer_lesson_get_selected (lesson)) : NULL;
  for (guint i = 0; i < n_views; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);
      gint64 cursor = lt_viewer_view_get_cursor (view);

      g_array_append_val (cursors, cursor);
      if (view == selected)
        shown = (int) i;
      /* The page steps; the figures start without a step. */
      lt_viewer_view_set_cursor (view, -1);
    }
  if (shown < 0 && n_views > 0)
    shown = 0;

  /* "zh_CN.UTF-8" is zh-CN to a browser; C is English. */
  html_language = g_strdelimit (g_strndup (language, strcspn (language, ".@")), "_", '-');
  if (strcmp (html_language, "C") == 0 || strcmp (html_language, "POSIX") == 0)
    g_clear_pointer (&html_language, g_free);

  g_string_append_printf (page, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
                                "<meta charset=\"utf-8\">\n"
                                "<meta name=\"viewport\" content=\"width=device-width\">\n"
                                "<meta name=\"generator\" content=\"Tensor Viewer\">\n<title>",
                          html_language != NULL ? html_language : "en");
  append_html (page, lt_viewer_lesson_get_title (lesson));
  g_string_append (page, "</title>\n<style>\n");
  append_resource (page, "figure-page.css");
  g_string_append (page, "</style>\n</head>\n<body>\n<header><h1>");
  append_html (page, lt_viewer_lesson_get_title (lesson));
  g_string_append (page, "</h1></header>\n<main>\n<section id=\"notes\">\n");
  append_notes (page, lt_viewer_lesson_get_notes (lesson));
  g_string_append (page, "</section>\n<section id=\"stage\">\n<nav id=\"views\">\n");
  for (guint i = 0; i < n_views; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);

      g_string_append_printf (page, "<button type=\"button\" aria-pressed=\"%s\">"
                                    "<span class=\"swatch\" style=\"background:%s\"></span>",
                              (int) i == shown ? "true" : "false",
                              lt_viewer_view_get_color (view));
      append_html (page, lt_viewer_view_get_name (view));
      g_string_append (page, "</button>\n");
    }
  g_string_append (page, "</nav>\n<p id=\"status\" aria-live=\"polite\"></p>\n<p id=\"help\">");
  append_html (page, _("→ and ← step through the view's elements in row-major order, Home and "
                       "End go to the first and the last, Space plays, 1 to 9 choose a view, "
                       "Esc clears; hover a cell or an element to read its address."));
  g_string_append (page, "</p>\n");

  if (n_views == 0)
    append_figure (page, lesson, cells_per_row, zoom, -1, FALSE);
  for (guint i = 0; i < n_views; i++)
    append_figure (page, lesson, cells_per_row, zoom, (int) i, (int) i != shown);
  g_string_append (page, "</section>\n</main>\n");

  append_data (page, lesson, shown);
  g_string_append (page, "<script>\n");
  append_resource (page, "figure-page.js");
  g_string_append (page, "</script>\n</body>\n</html>\n");

  /* As it was. */
  for (guint i = 0; i < n_views; i++)
    lt_viewer_view_set_cursor (lt_viewer_lesson_get_view (lesson, i),
                               g_array_index (cursors, gint64, i));
  lt_viewer_lesson_set_selected (lesson, selected);

  return g_string_free (page, FALSE);
}
