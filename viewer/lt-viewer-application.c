/* lt-viewer-application.c: Tensor Viewer's application: actions, command line, settings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "lt-viewer-application.h"
#include "lt-viewer-export.h"
#include "lt-viewer-figure.h"
#include "lt-viewer-format.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-window.h"

/* Frames to let pass before a screenshot: the first lays the window out,
 * the next ones draw what that layout scrolled or resized. */
#define SCREENSHOT_FRAMES 3
#define SCREENSHOT_TIMEOUT_SECONDS 60

struct _LtViewerApplication
{
  AdwApplication parent_instance;

  GSettings *settings;
  int exit_status;
  char *locale_report;  /* shown once, in the first window */

  /* --screenshot */
  gboolean screenshot_mode;
  LtViewerWindow *screenshot_window;
  GFile *screenshot_file;
  GdkFrameClock *screenshot_clock;
  gulong screenshot_paint_handler;
  guint screenshot_frames;
  guint screenshot_timeout;
  guint screenshot_write;
};

G_DEFINE_FINAL_TYPE (LtViewerApplication, lt_viewer_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "lesson", 'l', G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, NULL,
    N_("Open the built-in lesson NAME"), N_("NAME") },
  { "open", 'o', G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME, NULL,
    N_("Open the lesson file FILE"), N_("FILE") },
  { "screenshot", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME, NULL,
    N_("Write what the window shows for the lesson to FILE as a PNG image (SVG when FILE ends "
       "in .svg), then quit"),
    N_("FILE") },
  { "view", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, NULL,
    N_("Select view NUMBER of the lesson, counting from 1"), N_("NUMBER") },
  { "step", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, NULL,
    N_("Put the order stepper on element NUMBER of the selected view, counting from 0 in "
       "row-major order"),
    N_("NUMBER") },
  { "cells-per-row", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, NULL,
    N_("Draw COUNT storage cells a row (1 to 4096), whatever the lesson says"), N_("COUNT") },
  { "zoom", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, NULL,
    N_("Draw at scale ZOOM (0.25 to 4), whatever the lesson says"), N_("ZOOM") },
  { "pytorch-only", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, NULL,
    N_("With --export: evaluate the views as PyTorch would (negative steps and strides "
       "refused, flip() copying), as the “PyTorch Only” preference does"),
    NULL },
  { "export", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME, NULL,
    N_("Write the lesson as one figure (storage, the selected view, legend and caption) to "
       "FILE, ending in .svg, .png or .pdf, or as an interactive web page to FILE.html, "
       "without a window or a display, then quit"),
    N_("FILE") },
  { "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, NULL,
    N_("Show the version and quit"), NULL },
  /* "tensor-viewer columns.lesson", as a file manager or a shell runs it. */
  { G_OPTION_REMAINING, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL,
    N_("[FILE]") },
  { NULL }
};

/**
 * lt_viewer_application_init_i18n:
 *
 * Sets the locale from the environment and binds Tensor Viewer's message
 * catalogue: from $TENSOR_VIEWER_LOCALEDIR when set (the build tree's, so
 * that the application runs translated uninstalled), else the installed one.
 *
 * A locale the environment asks for but the system lacks would leave the
 * application in English without a word: it is reported instead, and the
 * application falls back to C.UTF-8, where $LANGUAGE still chooses the
 * language of its messages.
 *
 * Returns: (transfer full) (nullable): the report, for the user to see, or
 *   %NULL when the locale is there
 */
char *
lt_viewer_application_init_i18n (void)
{
  static const char *const variables[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
  const char *localedir = g_getenv ("TENSOR_VIEWER_LOCALEDIR");
  const char *variable = NULL;
  const char *requested = NULL;
  gboolean missing;

  /* Before the options are parsed: --help is translated too. */
  missing = setlocale (LC_ALL, "") == NULL;
  if (missing)
    {
      for (guint i = 0; i < G_N_ELEMENTS (variables) && requested == NULL; i++)
        {
          const char *value = g_getenv (variables[i]);

          if (value != NULL && value[0] != '\0')
            {
              variable = variables[i];
              requested = value;
            }
        }
      setlocale (LC_ALL, "C.UTF-8");
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir
                                                                             : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!missing)
    return NULL;
  if (requested == NULL)
    return g_strdup (_("The locale the environment asks for is not installed on this system, "
                       "so the language and formats it would give are not used. Install it or "
                       "choose another."));
  /* Translators: the first %s is an environment variable such as LANG, the
   * second its value such as zh_CN.UTF-8 */
  return g_strdup_printf (_("The locale %s=%s is not installed on this system, so Tensor Viewer "
                            "cannot use its language and formats. Install it (on Debian: the "
                            "locales package, then dpkg-reconfigure locales) or choose another."),
                          variable, requested);
}

/**
 * lt_viewer_application_set_locale_report:
 * @self: a #LtViewerApplication
 * @report: (nullable): what lt_viewer_application_init_i18n() returned
 *
 * Keeps the report to show in the first window, as a toast.
 */
void
lt_viewer_application_set_locale_report (LtViewerApplication *self,
                                         const char          *report)
{
  g_return_if_fail (LT_VIEWER_IS_APPLICATION (self));

  g_free (self->locale_report);
  self->locale_report = g_strdup (report);
}

/* Lessons */

static char *
first_builtin (void)
{
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  return names != NULL && names[0] != NULL ? g_strdup (names[0]) : NULL;
}

/* The lesson the settings name, or the first built-in one; a last lesson
 * that cannot be opened any more is reported in a toast. */
static void
restore_last_lesson (LtViewerApplication *self,
                     LtViewerWindow      *window)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *last = NULL;
  g_autofree char *first = NULL;

  if (self->settings != NULL)
    last = g_settings_get_string (self->settings, "last-lesson");

  if (last != NULL && last[0] != '\0')
    {
      if (strstr (last, "://") != NULL)
        {
          g_autoptr (GFile) file = g_file_new_for_uri (last);
          g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_from_file (file, &error);

          if (lesson != NULL)
            {
              lt_viewer_window_set_lesson (window, lesson, NULL, file);
              return;
            }
        }
      else if (lt_viewer_window_open_builtin (window, last, &error))
        return;
    }

  first = first_builtin ();
  if (first != NULL)
    {
      g_autoptr (GError) first_error = NULL;

      if (!lt_viewer_window_open_builtin (window, first, &first_error))
        g_warning ("The built-in lesson %s cannot be opened: %s", first, first_error->message);
    }

  if (error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The last lesson could not be opened: %s"),
                                                  error->message);

      lt_viewer_window_show_toast (window, message);
    }
}

static LtViewerWindow *
get_window (LtViewerApplication *self,
            gboolean            *created)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  LtViewerWindow *new_window;

  *created = !LT_VIEWER_IS_WINDOW (window);
  if (!*created)
    return LT_VIEWER_WINDOW (window);

  new_window = lt_viewer_window_new (self);
  if (self->locale_report != NULL)
    {
      g_autofree char *report = g_steal_pointer (&self->locale_report);

      lt_viewer_window_show_toast (new_window, report);
    }
  return new_window;
}

/* --view: views count from 1, as the [View N] groups of a lesson file do.
 * (A string option: GApplication drops an int option given as 0.) */
static gboolean
select_view (LtViewerLesson *lesson,
             const char     *number,
             GError        **error)
{
  guint n_views = g_list_model_get_n_items (G_LIST_MODEL (lesson));
  g_autoptr (LtViewerView) view = NULL;
  guint64 position;

  if (n_views == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("there is no view %s: the lesson has no views"), number);
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (number, 10, 1, n_views, &position, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   ngettext ("there is no view %s: the lesson has %u view",
                             "there is no view %s: the lesson has %u views", n_views),
                   number, n_views);
      return FALSE;
    }

  view = g_list_model_get_item (G_LIST_MODEL (lesson), (guint) position - 1);
  lt_viewer_lesson_set_selected (lesson, view);
  return TRUE;
}

/* --step, --cells-per-row and --zoom: on the lesson, so that the window
 * and a figure alike show them. (String options, for messages of our
 * own: GApplication drops an int option given as 0.) */
static gboolean
apply_geometry_options (LtViewerLesson  *lesson,
                        GVariantDict    *options,
                        GError         **error)
{
  g_autofree char *step = NULL;
  g_autofree char *cells = NULL;
  g_autofree char *zoom_text = NULL;

  g_variant_dict_lookup (options, "step", "s", &step);
  g_variant_dict_lookup (options, "cells-per-row", "s", &cells);
  g_variant_dict_lookup (options, "zoom", "s", &zoom_text);

  if (step != NULL)
    {
      LtViewerView *view = lt_viewer_lesson_get_selected (lesson);
      LtTensor *tensor = view != NULL && lt_viewer_view_get_error (view) == NULL
                           ? lt_viewer_view_get_tensor (view) : NULL;
      gint64 numel = tensor != NULL ? lt_tensor_get_numel (tensor) : 0;
      guint64 element;

      if (numel == 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--step %s needs a view with elements: select one with --view"), step);
          return FALSE;
        }
      if (!g_ascii_string_to_unsigned (step, 10, 0, (guint64) numel - 1, &element, NULL))
        {
          g_autofree char *last = g_strdup_printf ("%" G_GINT64_FORMAT, numel - 1);

          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("there is no element %s: the view's elements are 0 to %s"), step, last);
          return FALSE;
        }
      lt_viewer_view_set_cursor (view, (gint64) element);
    }

  if (cells != NULL)
    {
      guint64 count;

      if (!g_ascii_string_to_unsigned (cells, 10, 1, LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, &count,
                                       NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--cells-per-row %s is not a number of cells from 1 to %d"), cells,
                       LT_VIEWER_LESSON_MAX_CELLS_PER_ROW);
          return FALSE;
        }
      lt_viewer_lesson_set_cells_per_row (lesson, (guint) count);
    }

  if (zoom_text != NULL)
    {
      double zoom;

      if (!lt_viewer_parse_zoom (zoom_text, &zoom))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--zoom %s is not a scale from %g to %g, such as 1.5"), zoom_text,
                       LT_VIEWER_LESSON_MIN_ZOOM, LT_VIEWER_LESSON_MAX_ZOOM);
          return FALSE;
        }
      lt_viewer_lesson_set_zoom (lesson, zoom);
    }
  return TRUE;
}

/* --export: a figure, written in this process without a display (GTK is
 * never initialised), before the application registers. */
static int
export_figure (GVariantDict *options)
{
  g_autoptr (LtViewerLesson) lesson = NULL;
  g_autoptr (LtViewerFigure) figure = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *builtin = NULL;
  g_autofree char *open_path = NULL;
  g_autofree char *export_path = NULL;
  g_autofree char *view_number = NULL;
  LtViewerFigureFormat format;

  g_variant_dict_lookup (options, "lesson", "s", &builtin);
  g_variant_dict_lookup (options, "open", "^ay", &open_path);
  g_variant_dict_lookup (options, "view", "s", &view_number);
  g_variant_dict_lookup (options, "export", "^ay", &export_path);
  file = g_file_new_for_commandline_arg (export_path);

  /* The file name first: a wrong extension is said before any work. */
  if (lt_viewer_figure_format_for_file (file, &format, &error))
    {
      if (open_path != NULL)
        {
          g_autoptr (GFile) lesson_file = g_file_new_for_commandline_arg (open_path);

          lesson = lt_viewer_lesson_load_from_file (lesson_file, &error);
        }
      else
        {
          if (builtin == NULL)
            builtin = first_builtin ();
          lesson = lt_viewer_lesson_load_builtin (builtin, &error);
        }
    }

  if (lesson != NULL)
    lt_viewer_lesson_set_pytorch_only (lesson, g_variant_dict_contains (options, "pytorch-only"));

  /* The first view unless told otherwise, as the window shows. */
  if (lesson != NULL && view_number == NULL && lt_viewer_lesson_get_n_views (lesson) > 0)
    view_number = g_strdup ("1");
  if (lesson != NULL && view_number != NULL)
    select_view (lesson, view_number, &error);
  if (lesson != NULL && error == NULL)
    apply_geometry_options (lesson, options, &error);

  if (error != NULL)
    {
      g_printerr ("tensor-viewer: %s\n", error->message);
      return 1;
    }

  figure = lt_viewer_figure_new (lesson);
  if (!lt_viewer_figure_write (figure, file, &error))
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_printerr (_("tensor-viewer: the figure could not be written to %s: %s\n"), name,
                  error->message);
      return 1;
    }
  return 0;
}

/* --screenshot */

static void
finish_screenshot (LtViewerApplication *self)
{
  g_clear_handle_id (&self->screenshot_timeout, g_source_remove);
  g_clear_handle_id (&self->screenshot_write, g_source_remove);
  if (self->screenshot_clock != NULL)
    {
      g_clear_signal_handler (&self->screenshot_paint_handler, self->screenshot_clock);
      g_clear_object (&self->screenshot_clock);
    }
  g_clear_object (&self->screenshot_file);
  if (self->screenshot_window != NULL)
    {
      GtkWindow *window = GTK_WINDOW (g_steal_pointer (&self->screenshot_window));

      /* Destroyed, not closed: nothing of it is remembered. */
      gtk_window_destroy (window);
      g_object_unref (window);
    }
}

static gboolean
write_screenshot (gpointer data)
{
  LtViewerApplication *self = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *basename = g_file_get_basename (self->screenshot_file);
  GtkWidget *window = GTK_WIDGET (self->screenshot_window);
  gboolean written;

  self->screenshot_write = 0;
  if (basename != NULL && g_str_has_suffix (basename, ".svg"))
    written = lt_viewer_export_svg (window, self->screenshot_file, &error);
  else
    written = lt_viewer_export_png (window, self->screenshot_file, &error);

  if (written)
    self->exit_status = 0;
  else
    {
      g_autofree char *name = g_file_get_parse_name (self->screenshot_file);

      g_printerr (_("tensor-viewer: the screenshot could not be written to %s: %s\n"), name,
                  error->message);
      self->exit_status = 1;
    }

  finish_screenshot (self);
  return G_SOURCE_REMOVE;
}

static void
on_screenshot_after_paint (GdkFrameClock       *clock,
                           LtViewerApplication *self)
{
  /* Paint again until the layout has settled, then write what was painted
   * last, once the frame is over. */
  if (++self->screenshot_frames < SCREENSHOT_FRAMES)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self->screenshot_window));
      return;
    }

  g_clear_signal_handler (&self->screenshot_paint_handler, clock);
  self->screenshot_write = g_idle_add_full (G_PRIORITY_LOW, write_screenshot, self, NULL);
}

static void
on_screenshot_map (GtkWidget           *window,
                   LtViewerApplication *self)
{
  g_signal_handlers_disconnect_by_func (window, on_screenshot_map, self);

  self->screenshot_clock = g_object_ref (gtk_widget_get_frame_clock (window));
  self->screenshot_paint_handler =
    g_signal_connect (self->screenshot_clock, "after-paint",
                      G_CALLBACK (on_screenshot_after_paint), self);
  gtk_widget_queue_draw (window);
}

static gboolean
on_screenshot_timeout (gpointer data)
{
  LtViewerApplication *self = data;

  self->screenshot_timeout = 0;
  g_printerr (_("tensor-viewer: the window was not drawn within %d seconds; no screenshot was "
                "written\n"),
              SCREENSHOT_TIMEOUT_SECONDS);
  self->exit_status = 1;
  finish_screenshot (self);
  return G_SOURCE_REMOVE;
}

static int
start_screenshot (LtViewerApplication     *self,
                  GApplicationCommandLine *command_line,
                  LtViewerLesson          *lesson,
                  const char              *builtin,
                  GFile                   *lesson_file,
                  GFile                   *file)
{
  LtViewerWindow *window = lt_viewer_window_new (self);

  lt_viewer_window_set_lesson (window, lesson, builtin, lesson_file);
  gtk_window_unmaximize (GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), LT_VIEWER_SCREENSHOT_WIDTH,
                               LT_VIEWER_SCREENSHOT_HEIGHT);

  /* Failed until the file is written. */
  self->exit_status = 1;
  self->screenshot_window = g_object_ref (window);
  self->screenshot_file = g_object_ref (file);
  self->screenshot_frames = 0;
  self->screenshot_timeout = g_timeout_add_seconds (SCREENSHOT_TIMEOUT_SECONDS,
                                                    on_screenshot_timeout, self);
  g_signal_connect (window, "map", G_CALLBACK (on_screenshot_map), self);
  gtk_window_present (GTK_WINDOW (window));
  return 0;
}

/* GApplication */

static int
lt_viewer_application_handle_local_options (GApplication *application,
                                            GVariantDict *options)
{
  LtViewerApplication *self = LT_VIEWER_APPLICATION (application);

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tensor-viewer %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* A lesson file named without --open is opened as with it. */
  if (g_variant_dict_contains (options, G_OPTION_REMAINING))
    {
      g_autofree const char **files = NULL;
      g_autoptr (GVariant) value = g_variant_dict_lookup_value (options, G_OPTION_REMAINING,
                                                                G_VARIANT_TYPE_BYTESTRING_ARRAY);

      files = g_variant_get_bytestring_array (value, NULL);
      if (g_strv_length ((char **) files) > 1 || g_variant_dict_contains (options, "open"))
        {
          g_printerr ("%s\n", _("tensor-viewer: give one lesson file at a time"));
          return 1;
        }
      g_variant_dict_insert_value (options, "open", g_variant_new_bytestring (files[0]));
      g_variant_dict_remove (options, G_OPTION_REMAINING);
    }

  if (g_variant_dict_contains (options, "lesson") && g_variant_dict_contains (options, "open"))
    {
      g_printerr ("%s\n", _("tensor-viewer: give either --lesson or --open, not both"));
      return 1;
    }

  if (g_variant_dict_contains (options, "export"))
    {
      if (g_variant_dict_contains (options, "screenshot"))
        {
          g_printerr ("%s\n", _("tensor-viewer: give either --export or --screenshot, not both"));
          return 1;
        }
      return export_figure (options);
    }

  /* A screenshot is this process's own job: not one for a running
   * instance, and nothing it does is remembered. */
  if (g_variant_dict_contains (options, "screenshot"))
    {
      self->screenshot_mode = TRUE;
      g_application_set_flags (application,
                               g_application_get_flags (application)
                               | G_APPLICATION_NON_UNIQUE);
    }

  return -1;
}

static int
lt_viewer_application_command_line (GApplication            *application,
                                    GApplicationCommandLine *command_line)
{
  LtViewerApplication *self = LT_VIEWER_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autoptr (LtViewerLesson) lesson = NULL;
  g_autoptr (GFile) lesson_file = NULL;
  g_autoptr (GFile) screenshot = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *builtin = NULL;
  g_autofree char *open_path = NULL;
  g_autofree char *screenshot_path = NULL;
  LtViewerWindow *window;
  gboolean created;
  g_autofree char *view_number = NULL;

  g_variant_dict_lookup (options, "lesson", "s", &builtin);
  g_variant_dict_lookup (options, "view", "s", &view_number);
  g_variant_dict_lookup (options, "open", "^ay", &open_path);
  g_variant_dict_lookup (options, "screenshot", "^ay", &screenshot_path);

  if (open_path != NULL)
    lesson_file = g_application_command_line_create_file_for_arg (command_line, open_path);
  if (screenshot_path != NULL)
    screenshot = g_application_command_line_create_file_for_arg (command_line, screenshot_path);

  if (screenshot != NULL && builtin == NULL && lesson_file == NULL)
    builtin = first_builtin ();

  if (builtin != NULL)
    lesson = lt_viewer_lesson_load_builtin (builtin, &error);
  else if (lesson_file != NULL && screenshot != NULL)
    lesson = lt_viewer_lesson_load_from_file (lesson_file, &error);

  if (lesson != NULL && view_number != NULL)
    select_view (lesson, view_number, &error);
  if (lesson != NULL && error == NULL)
    apply_geometry_options (lesson, options, &error);

  if (error != NULL)
    {
      g_application_command_line_printerr (command_line, "tensor-viewer: %s\n", error->message);
      return 1;
    }

  if (screenshot != NULL)
    return start_screenshot (self, command_line, lesson, builtin, lesson_file, screenshot);

  window = get_window (self, &created);
  if (lesson != NULL)
    lt_viewer_window_set_lesson (window, lesson, builtin, NULL);
  else if (lesson_file != NULL)
    {
      /* A file that cannot be opened is reported in a dialog over the
       * window, which shows the last lesson meanwhile. */
      if (created)
        restore_last_lesson (self, window);
      gtk_window_present (GTK_WINDOW (window));
      if (!lt_viewer_window_open_file (window, lesson_file))
        return 0;
    }
  else if (created)
    restore_last_lesson (self, window);

  gtk_window_present (GTK_WINDOW (window));

  /* Without --lesson: a view of the lesson the window shows. */
  if (lesson == NULL && lt_viewer_window_get_lesson (window) != NULL
      && ((view_number != NULL
           && !select_view (lt_viewer_window_get_lesson (window), view_number, &error))
          || !apply_geometry_options (lt_viewer_window_get_lesson (window), options, &error)))
    {
      g_application_command_line_printerr (command_line, "tensor-viewer: %s\n", error->message);
      lt_viewer_window_show_toast (window, error->message);
      return 1;
    }
  return 0;
}

static void
lt_viewer_application_activate (GApplication *application)
{
  LtViewerApplication *self = LT_VIEWER_APPLICATION (application);
  LtViewerWindow *window;
  gboolean created;

  window = get_window (self, &created);
  if (created)
    restore_last_lesson (self, window);
  gtk_window_present (GTK_WINDOW (window));
}

/* Actions */

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  GtkApplication *application = data;
  g_autoptr (GList) windows = g_list_copy (gtk_application_get_windows (application));

  /* Closed, so that each remembers its size. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_application_quit (G_APPLICATION (application));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       data)
{
  GtkApplication *application = data;
  GtkWindow *parent = gtk_application_get_active_window (application);
  g_autofree char *release_notes = NULL;
  const char *developers[] = { _("The libtensor developers"), NULL };
  AdwAboutWindow *about;

  release_notes = g_strdup_printf ("<p>%s</p>",
                                   _("The first release of Tensor Viewer, with seven built-in "
                                     "lessons, expressions, editable layouts, badges, the order "
                                     "stepper, lesson files, PNG and SVG export, and a "
                                     "Simplified Chinese translation."));

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  adw_about_window_set_application_name (about, _("Tensor Viewer"));
  adw_about_window_set_application_icon (about, APPLICATION_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, _("The libtensor developers"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_comments (about, _("Tensor Viewer teaches how strided tensors work: it "
                                          "draws a tensor’s storage as cells and colours the "
                                          "cells each view reaches."));
  adw_about_window_set_website (about, "https://gitlab.gnome.org/libtensor/libtensor");
  adw_about_window_set_issue_url (about, "https://gitlab.gnome.org/libtensor/libtensor/-/issues");
  adw_about_window_set_license_type (about, GTK_LICENSE_LGPL_2_1);
  adw_about_window_set_copyright (about, _("© 2026 The libtensor developers"));
  /* Translators: your names, one a line, to be credited in the About window. */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  adw_about_window_set_release_notes_version (about, PACKAGE_VERSION);
  adw_about_window_set_release_notes (about, release_notes);
  gtk_window_present (GTK_WINDOW (about));
}

static void
shortcuts_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (data));

  /* GtkApplicationWindow makes the window from gtk/help-overlay.ui. */
  if (window != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
}

static void
open_lesson_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       data)
{
  LtViewerApplication *self = data;
  g_autoptr (GError) error = NULL;
  LtViewerWindow *window;
  gboolean created;

  window = get_window (self, &created);
  if (!lt_viewer_window_open_builtin (window, g_variant_get_string (parameter, NULL), &error))
    {
      if (created)
        restore_last_lesson (self, window);
      lt_viewer_window_show_toast (window, error->message);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated, NULL, NULL, NULL },
  { "about", about_activated, NULL, NULL, NULL },
  { "shortcuts", shortcuts_activated, NULL, NULL, NULL },
  { "open-lesson", open_lesson_activated, "s", NULL, NULL },
};

static const struct
{
  const char *action;
  const char *accels[3];
} app_accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.shortcuts", { "<Control>question", "F1", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as", { "<Control><Shift>s", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.add-view", { "<Control>n", NULL } },
  { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
  { "win.zoom-out", { "<Control>minus", NULL } },
  { "win.zoom-reset", { "<Control>0", NULL } },
  /* As Rhythmbox has them; they work in text fields too, where Space and
   * the arrows edit text. */
  { "win.play-pause", { "<Control>space", NULL } },
  { "win.step-back", { "<Alt>Left", NULL } },
  { "win.step-forward", { "<Alt>Right", NULL } },
  /* app.shortcuts shows it: one action per accel. */
  { "win.show-help-overlay", { NULL } },
};

static void
lt_viewer_application_startup (GApplication *application)
{
  LtViewerApplication *self = LT_VIEWER_APPLICATION (application);
  GSettingsSchemaSource *source;
  g_autoptr (GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (lt_viewer_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  for (guint i = 0; i < G_N_ELEMENTS (app_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), app_accels[i].action,
                                           app_accels[i].accels);

  /* Without the schema (run from the build tree outside `meson devenv`),
   * the application still runs, with the defaults. */
  source = g_settings_schema_source_get_default ();
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema != NULL)
    {
      g_autoptr (GAction) pytorch_only = NULL;

      self->settings = g_settings_new_full (schema, NULL, NULL);
      if (self->screenshot_mode)
        g_settings_delay (self->settings);
      /* The preference, as a check item of the primary menu. */
      pytorch_only = g_settings_create_action (self->settings, "pytorch-only");
      g_action_map_add_action (G_ACTION_MAP (self), pytorch_only);
    }
  else
    g_message ("The settings schema %s is not installed; settings will not be kept",
               APPLICATION_ID);
}

static void
lt_viewer_application_dispose (GObject *object)
{
  LtViewerApplication *self = LT_VIEWER_APPLICATION (object);

  finish_screenshot (self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->locale_report, g_free);

  G_OBJECT_CLASS (lt_viewer_application_parent_class)->dispose (object);
}

static void
lt_viewer_application_class_init (LtViewerApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = lt_viewer_application_dispose;

  application_class->handle_local_options = lt_viewer_application_handle_local_options;
  application_class->command_line = lt_viewer_application_command_line;
  application_class->activate = lt_viewer_application_activate;
  application_class->startup = lt_viewer_application_startup;
}

static void
lt_viewer_application_init (LtViewerApplication *self)
{
  g_autoptr (GString) lessons = g_string_new (NULL);
  g_autofree char *description = NULL;
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Draw a tensor’s storage cells and the cells "
                                              "each of its views reaches."));

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_string_append_printf (lessons, "%s%s", i > 0 ? ", " : "", names[i]);
  description = g_strdup_printf (_("Built-in lessons: %s."), lessons->str);
  g_application_set_option_context_description (G_APPLICATION (self), description);
}

/**
 * lt_viewer_application_new:
 *
 * Returns: (transfer full): Tensor Viewer's application
 */
LtViewerApplication *
lt_viewer_application_new (void)
{
  return g_object_new (LT_VIEWER_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/org/libtensor/TensorViewer",
                       NULL);
}

/**
 * lt_viewer_application_get_settings:
 * @self: a #LtViewerApplication
 *
 * Returns: (transfer none) (nullable): the settings, or %NULL when the
 *   schema is not installed
 */
GSettings *
lt_viewer_application_get_settings (LtViewerApplication *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_APPLICATION (self), NULL);

  return self->settings;
}

/**
 * lt_viewer_application_get_screenshot_mode:
 * @self: a #LtViewerApplication
 *
 * Returns: whether the application runs for --screenshot
 */
gboolean
lt_viewer_application_get_screenshot_mode (LtViewerApplication *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_APPLICATION (self), FALSE);

  return self->screenshot_mode;
}

/**
 * lt_viewer_application_get_exit_status:
 * @self: a #LtViewerApplication
 *
 * Returns: the status main() returns when g_application_run() returned 0
 */
int
lt_viewer_application_get_exit_status (LtViewerApplication *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_APPLICATION (self), 1);

  return self->exit_status;
}
