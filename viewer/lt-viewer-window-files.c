/* lt-viewer-window-files.c: Tensor Viewer's window and its files: unsaved changes,
 * open, save and export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <glib/gi18n.h>

#include "lt-viewer-export.h"
#include "lt-viewer-figure.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-window-private.h"

/* Errors */

static void
show_error_dialog (LtViewerWindow *self,
                   const char     *heading,
                   const char     *body)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Unsaved changes */

/* Closes the window, the user having chosen what happens to its changes. */
static gboolean
close_after_confirmation (gpointer data)
{
  LtViewerWindow *self = data;

  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
  return G_SOURCE_REMOVE;
}

static gboolean
check_modified (gpointer data)
{
  LtViewerWindow *self = data;
  g_autofree char *current = NULL;
  gboolean modified;

  self->modified_source = 0;
  if (self->lesson == NULL)
    return G_SOURCE_REMOVE;
  current = lt_viewer_lesson_save_to_data (self->lesson, NULL);
  modified = g_strcmp0 (current, self->saved_data) != 0;
  if (modified != self->modified)
    {
      self->modified = modified;
      lt_viewer_window_update_title (self);
    }
  return G_SOURCE_REMOVE;
}

void
lt_viewer_window_schedule_modified_check (LtViewerWindow *self)
{
  if (self->modified_source == 0)
    self->modified_source = g_idle_add (check_modified, self);
}

/* The lesson as it is now is the saved one. */
void
lt_viewer_window_mark_saved (LtViewerWindow *self)
{
  g_free (self->saved_data);
  self->saved_data = lt_viewer_lesson_save_to_data (self->lesson, NULL);
  g_clear_handle_id (&self->modified_source, g_source_remove);
  self->modified = FALSE;
  lt_viewer_window_update_title (self);
}

static void
on_save_changes_response (AdwMessageDialog *dialog,
                          const char       *response,
                          LtViewerWindow   *self)
{
  /* Closed once the dialog, which is transient for the window, is gone. */
  if (g_str_equal (response, "discard"))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_after_confirmation, g_object_ref (self),
                     g_object_unref);
  else if (g_str_equal (response, "save") && self->file != NULL)
    {
      g_autoptr (GError) error = NULL;

      if (lt_viewer_window_save_to_file (self, self->file, &error))
        g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_after_confirmation, g_object_ref (self),
                         g_object_unref);
      else
        show_error_dialog (self, _("Could Not Save the Lesson"), error->message);
    }
  else if (g_str_equal (response, "save"))
    {
      /* A lesson without a file asks where, then closes once saved. */
      self->close_after_save = TRUE;
      g_action_group_activate_action (G_ACTION_GROUP (self), "save-as", NULL);
    }
}

static void
ask_save_changes (LtViewerWindow *self)
{
  const char *title = lt_viewer_lesson_get_title (self->lesson);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (title == NULL || title[0] == '\0')
    title = _("Untitled Lesson");
  body = g_strdup_printf (_("“%s” has changes that are not saved. Closing without saving "
                            "loses them."), title);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Save Changes?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "discard", _("_Discard"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_save_changes_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Whether @self may close now: when its lesson has unsaved changes the
 * user is asked first, and the window closes once answered. */
gboolean
lt_viewer_window_may_close (LtViewerWindow *self)
{
  /* Changes made just now count too. */
  if (self->modified_source != 0)
    {
      g_source_remove (self->modified_source);
      check_modified (self);
    }
  if (self->modified && !self->close_confirmed)
    {
      ask_save_changes (self);
      return FALSE;
    }
  return TRUE;
}

/* Files */

static GtkFileFilter *
new_lesson_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Tensor Viewer Lessons"));
  gtk_file_filter_add_pattern (filter, "*.lesson");
  return filter;
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  LtViewerWindow  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        lt_viewer_window_open_file (self, file);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

void
lt_viewer_window_open_activated (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GtkFileFilter) lessons = new_lesson_filter ();
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();
  GtkFileChooserNative *dialog;

  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");

  dialog = gtk_file_chooser_native_new (_("Open a Lesson"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), lessons);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), lessons);
  /* The window is held until the dialog answers. */
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* @file with @extension appended to its name. */
static GFile *
append_to_name (GFile      *file,
                const char *extension)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *with_extension = g_strconcat (name, extension, NULL);
  g_autoptr (GFile) parent = g_file_get_parent (file);

  return g_file_get_child (parent, with_extension);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  LtViewerWindow  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GFile) file = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *name = NULL;

      if (chosen == NULL)
        {
          g_object_unref (dialog);
          g_object_unref (self);
          return;
        }

      /* A name typed without an extension gets the lesson one. */
      name = g_file_get_basename (chosen);
      file = strchr (name, '.') == NULL ? append_to_name (chosen, ".lesson")
                                        : g_object_ref (chosen);

      if (!lt_viewer_window_save_to_file (self, file, &error))
        show_error_dialog (self, _("Could Not Save the Lesson"), error->message);
      else if (self->close_after_save)
        g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_after_confirmation, g_object_ref (self),
                         g_object_unref);
    }
  self->close_after_save = FALSE;
  g_object_unref (dialog);
  g_object_unref (self);
}

static char *
suggest_name (LtViewerWindow *self,
              const char     *suffix)
{
  g_autofree char *base = NULL;

  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      char *dot = strrchr (name, '.');

      if (dot != NULL)
        *dot = '\0';
      base = g_strdup (name);
    }
  else if (self->builtin != NULL)
    base = g_strdup (self->builtin);
  else
    base = g_strdup (_("lesson"));

  return g_strconcat (base, suffix, NULL);
}

void
lt_viewer_window_save_as_activated (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GtkFileFilter) lessons = new_lesson_filter ();
  g_autofree char *name = suggest_name (self, ".lesson");
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Save the Lesson"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), lessons);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  if (self->file != NULL)
    {
      g_autoptr (GFile) folder = g_file_get_parent (self->file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    }
  /* The window is held until the dialog answers. */
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
lt_viewer_window_save_activated (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GError) error = NULL;

  /* A built-in lesson is not a file to write: it asks where. */
  if (self->file == NULL)
    {
      lt_viewer_window_save_as_activated (action, parameter, data);
      return;
    }

  if (lt_viewer_window_save_to_file (self, self->file, &error))
    {
      g_autofree char *name = g_file_get_basename (self->file);
      g_autofree char *message = g_strdup_printf (_("Saved “%s”"), name);

      lt_viewer_window_show_toast (self, message);
    }
  else
    show_error_dialog (self, _("Could Not Save the Lesson"), error->message);
}

/* Export */

#define EXPORT_CHOICE "drawing"

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    LtViewerWindow  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GFile) file = NULL;
      g_autoptr (GError) error = NULL;
      LtViewerFigureFormat format;
      const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), EXPORT_CHOICE);
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      LtViewerDrawing drawing = g_strcmp0 (choice, "view") == 0      ? LT_VIEWER_DRAWING_VIEW
                                : g_strcmp0 (choice, "storage") == 0 ? LT_VIEWER_DRAWING_STORAGE
                                                                     : LT_VIEWER_DRAWING_FIGURE;

      if (chosen == NULL)
        {
          g_object_unref (dialog);
          g_object_unref (self);
          return;
        }

      /* The chosen filter decides a name typed without an extension. */
      if (!lt_viewer_figure_format_for_file (chosen, &format, NULL))
        {
          const char *extension = filter != NULL ? g_object_get_data (G_OBJECT (filter),
                                                                      "extension")
                                                 : NULL;

          file = append_to_name (chosen, extension != NULL ? extension : ".png");
        }
      else
        file = g_object_ref (chosen);

      if (lt_viewer_window_export (self, drawing, file, &error))
        {
          g_autofree char *basename = g_file_get_basename (file);
          g_autofree char *message = g_strdup_printf (_("Exported “%s”"), basename);

          lt_viewer_window_show_toast (self, message);
        }
      else
        show_error_dialog (self, _("Could Not Export the Drawing"), error->message);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

/* A filter of the export dialog; its extension completes a name typed
 * without one. Returns: (transfer none): the filter */
static GtkFileFilter *
add_export_filter (GtkFileChooser *chooser,
                   const char     *name,
                   const char     *mime_type,
                   const char     *extension)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*", extension, NULL);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_pattern (filter, pattern);
  g_object_set_data (G_OBJECT (filter), "extension", (gpointer) extension);
  gtk_file_chooser_add_filter (chooser, filter);
  return filter;
}

void
lt_viewer_window_export_activated (GSimpleAction *action,
                                   GVariant      *parameter,
                                   gpointer       data)
{
  LtViewerWindow *self = data;
  g_autofree char *name = suggest_name (self, ".svg");
  const char *options[] = { "figure", "storage", "view", NULL };
  const char *labels[] = { _("The figure: storage, view, legend and caption"), _("The storage"),
                           _("The selected view"), NULL };
  GtkFileChooserNative *dialog;
  GtkFileChooser *chooser;

  dialog = gtk_file_chooser_native_new (_("Export a Drawing"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                        _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (dialog);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  add_export_filter (chooser, _("PNG Images"), "image/png", ".png");
  gtk_file_chooser_set_filter (chooser,
                               add_export_filter (chooser, _("SVG Images, for Slides"),
                                                  "image/svg+xml", ".svg"));
  add_export_filter (chooser, _("PDF Documents, for Handouts (the figure only)"),
                     "application/pdf", ".pdf");
  add_export_filter (chooser, _("Web Pages, for Students (the figure only)"), "text/html",
                     ".html");
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), EXPORT_CHOICE, _("Drawing"), options,
                               labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), EXPORT_CHOICE, "figure");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  /* The window is held until the dialog answers. */
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

gboolean
lt_viewer_window_open_file (LtViewerWindow *self,
                            GFile          *file)
{
  g_autoptr (LtViewerLesson) lesson = NULL;
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  lesson = lt_viewer_lesson_load_from_file (file, &error);
  if (lesson == NULL)
    {
      show_error_dialog (self, _("Could Not Open the Lesson"), error->message);
      return FALSE;
    }

  lt_viewer_window_set_lesson (self, lesson, NULL, file);
  return TRUE;
}

/**
 * lt_viewer_window_save_to_file:
 * @self: a #LtViewerWindow
 * @file: where to save the lesson
 * @error: return location for a #GError
 *
 * Saves the lesson to @file, which becomes the window's file. A view whose
 * expression is in error is saved as one meant to fail (Expect=error): it
 * opens again showing its error, as a lesson can teach one.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_window_save_to_file (LtViewerWindow  *self,
                               GFile           *file,
                               GError         **error)
{
  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (self->lesson != NULL, FALSE);

  if (!lt_viewer_lesson_save_to_file (self->lesson, file, error))
    return FALSE;

  g_clear_pointer (&self->builtin, g_free);
  g_set_object (&self->file, file);
  lt_viewer_window_mark_saved (self);
  lt_viewer_window_remember_lesson (self);
  return TRUE;
}

/**
 * lt_viewer_window_export:
 * @self: a #LtViewerWindow
 * @drawing: which drawing
 * @file: where to write it
 * @error: return location for a #GError
 *
 * Writes @drawing as it is shown: as SVG when the name of @file ends in
 * .svg, otherwise as PNG. %LT_VIEWER_DRAWING_FIGURE is the lesson's figure
 * (LtViewerFigure) at the window's cells per row and zoom, vector in .svg
 * and .pdf.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_window_export (LtViewerWindow   *self,
                         LtViewerDrawing   drawing,
                         GFile            *file,
                         GError          **error)
{
  LtViewerFigureFormat format;
  GtkWidget *widget;

  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (drawing == LT_VIEWER_DRAWING_FIGURE)
    {
      g_autoptr (LtViewerFigure) figure = NULL;

      if (self->lesson == NULL)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("There is no lesson to export: open one first."));
          return FALSE;
        }
      /* As the window shows it: its cells per row and zoom. */
      figure = lt_viewer_figure_new (self->lesson);
      lt_viewer_figure_set_cells_per_row (figure,
                                          lt_viewer_storage_strip_get_wrap_width (
                                            self->storage_strip));
      lt_viewer_figure_set_zoom (figure, lt_viewer_storage_strip_get_zoom (self->storage_strip));
      return lt_viewer_figure_write (figure, file, error);
    }

  if (drawing == LT_VIEWER_DRAWING_VIEW)
    {
      if (self->selected == NULL)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("No view is selected: select the view to export in the list."));
          return FALSE;
        }
      if (lt_viewer_view_get_tensor (self->selected) == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The view “%s” has nothing to draw: %s"),
                       lt_viewer_view_get_name (self->selected),
                       lt_viewer_view_get_error (self->selected));
          return FALSE;
        }
      widget = GTK_WIDGET (self->view_grid);
    }
  else
    widget = GTK_WIDGET (self->storage_strip);

  /* PNG unless the name says SVG; PDF and pages are the figure's. */
  if (!lt_viewer_figure_format_for_file (file, &format, NULL))
    format = LT_VIEWER_FIGURE_FORMAT_PNG;
  if (format == LT_VIEWER_FIGURE_FORMAT_PDF || format == LT_VIEWER_FIGURE_FORMAT_HTML)
    {
      g_autofree char *name = g_file_get_basename (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s”: the storage or the view alone is written as PNG or SVG; PDF and web "
                     "pages hold the whole figure"),
                   name);
      return FALSE;
    }
  if (format == LT_VIEWER_FIGURE_FORMAT_SVG)
    return lt_viewer_export_svg (widget, file, error);
  return lt_viewer_export_png (widget, file, error);
}
