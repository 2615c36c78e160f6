/* lt-viewer-window.c: Tensor Viewer's main window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <glib/gi18n.h>

#include "lt-viewer-resources.h"

#include "lt-viewer-export.h"
#include "lt-viewer-figure.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-swatch.h"
#include "lt-viewer-view-grid.h"
#include "lt-viewer-view-row.h"
#include "lt-viewer-window-private.h"

G_DEFINE_FINAL_TYPE (LtViewerWindow, lt_viewer_window, ADW_TYPE_APPLICATION_WINDOW)

static void schedule_modified_check (LtViewerWindow *self);
static void update_legend           (LtViewerWindow *self);

static void stop_playing (LtViewerWindow *self);
static void update_selected_view (LtViewerWindow *self);

/* Small helpers */

static char *
format_int (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/* "(3, 2)", as PyTorch prints sizes and strides. */
static char *
format_tuple (const gint64 *values,
              guint         n)
{
  GString *text = g_string_new (NULL);

  lt_viewer_append_tuple (text, values, n);
  return g_string_free (text, FALSE);
}

static void
set_badge (GtkLabel   *badge,
           const char *text,
           const char *style)
{
  static const char *const styles[] = { "success", "warning", "error" };

  gtk_label_set_text (badge, text);
  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    if (g_strcmp0 (styles[i], style) == 0)
      gtk_widget_add_css_class (GTK_WIDGET (badge), styles[i]);
    else
      gtk_widget_remove_css_class (GTK_WIDGET (badge), styles[i]);
}

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

/* The lesson's title and notes */

static void
update_title (LtViewerWindow *self)
{
  const char *title = lt_viewer_lesson_get_title (self->lesson);
  g_autofree char *subtitle = NULL;
  g_autofree char *shown = NULL;

  if (title == NULL || title[0] == '\0')
    title = _("Untitled Lesson");
  /* Translators: the window title of a lesson with unsaved changes */
  shown = self->modified ? g_strdup_printf (_("• %s"), title) : g_strdup (title);

  if (self->file != NULL)
    subtitle = g_file_get_basename (self->file);
  else if (self->builtin != NULL)
    subtitle = g_strdup (_("Built-in lesson"));
  else
    subtitle = g_strdup (_("New lesson"));

  adw_window_title_set_title (self->window_title, shown);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), shown);
  gtk_label_set_text (self->title_label, title);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->title_entry)),
                 lt_viewer_lesson_get_title (self->lesson)) != 0)
    {
      self->updating = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->title_entry),
                             lt_viewer_lesson_get_title (self->lesson));
      self->updating = FALSE;
    }
}

static void
update_notes (LtViewerWindow *self)
{
  const char *notes = lt_viewer_lesson_get_notes (self->lesson);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->notes_view);
  g_autofree char *shown = NULL;
  GtkTextIter start, end;

  gtk_label_set_text (self->notes_label, notes);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_label), notes[0] != '\0');

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (shown, notes) != 0)
    {
      self->updating = TRUE;
      gtk_text_buffer_set_text (buffer, notes, -1);
      self->updating = FALSE;
    }
}

static void
on_title_entry_changed (LtViewerWindow *self)
{
  if (self->updating || self->lesson == NULL)
    return;
  lt_viewer_lesson_set_title (self->lesson, gtk_editable_get_text (GTK_EDITABLE (self->title_entry)));
}

static void
on_notes_buffer_changed (LtViewerWindow *self,
                         GtkTextBuffer  *buffer)
{
  g_autofree char *notes = NULL;
  GtkTextIter start, end;

  if (self->updating || self->lesson == NULL)
    return;
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  notes = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  lt_viewer_lesson_set_notes (self->lesson, notes);
}

static void
on_edit_toggled (LtViewerWindow *self)
{
  gboolean editing = gtk_toggle_button_get_active (self->edit_button);
  const char *page = editing ? "edit" : "show";

  gtk_stack_set_visible_child_name (self->title_stack, page);
  gtk_stack_set_visible_child_name (self->notes_stack, page);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_stack),
                          editing || lt_viewer_lesson_get_notes (self->lesson)[0] != '\0');
  if (editing)
    gtk_widget_grab_focus (GTK_WIDGET (self->title_entry));
}

/* The base tensor */

static void
update_storage_summary (LtViewerWindow *self)
{
  LtTensor *base = lt_viewer_lesson_get_base (self->lesson);
  gint64 n = base != NULL ? lt_storage_get_n_elements (lt_tensor_get_storage (base)) : 0;
  g_autofree char *count = format_int (n);
  g_autofree char *summary = NULL;
  LtDType dtype = lt_viewer_lesson_get_dtype (self->lesson);
  guint element_size = (guint) lt_dtype_get_element_size (dtype);
  g_autofree char *cells = NULL;
  g_autofree char *bytes = NULL;

  /* Translators: the storage's size, %s is a count: "6 cells of float32". */
  cells = g_strdup_printf (ngettext ("%s cell of %s", "%s cells of %s", (gulong) MIN (n, G_MAXLONG)),
                           count, lt_dtype_get_name (dtype));
  /* Translators: the size of one storage cell. */
  bytes = g_strdup_printf (ngettext ("%u byte each", "%u bytes each", element_size),
                           element_size);
  /* Translators: "6 cells of float32" and "4 bytes each". */
  summary = g_strdup_printf (_("%s, %s"), cells, bytes);
  gtk_label_set_text (self->storage_summary_label, summary);
}

static void
update_base_visibility (LtViewerWindow *self)
{
  guint contents = adw_combo_row_get_selected (self->contents_row);

  gtk_widget_set_visible (GTK_WIDGET (self->shape_row), contents != LT_VIEWER_CONTENTS_LITERAL);
  gtk_widget_set_visible (GTK_WIDGET (self->literal_row), contents == LT_VIEWER_CONTENTS_LITERAL);
  gtk_widget_set_visible (GTK_WIDGET (self->seed_row), contents == LT_VIEWER_CONTENTS_RANDOM);
}

static void
update_base_editor (LtViewerWindow *self)
{
  LtTensor *base = lt_viewer_lesson_get_base (self->lesson);
  const char *literal = lt_viewer_lesson_get_literal (self->lesson);
  g_autofree char *shape = NULL;
  const gint64 *sizes;
  guint ndim;

  sizes = lt_viewer_lesson_get_shape (self->lesson, &ndim);
  if (base != NULL)
    sizes = lt_tensor_get_sizes (base, &ndim);
  shape = format_tuple (sizes, ndim);
  /* Without the parentheses: "3, 2". */
  shape[strlen (shape) - (ndim == 1 ? 2 : 1)] = '\0';

  self->updating = TRUE;
  adw_combo_row_set_selected (self->dtype_row, lt_viewer_lesson_get_dtype (self->lesson));
  adw_combo_row_set_selected (self->contents_row, lt_viewer_lesson_get_contents (self->lesson));
  gtk_editable_set_text (GTK_EDITABLE (self->shape_row), shape + 1);
  if (literal != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->literal_row), literal);
  gtk_spin_button_set_value (self->seed_spin, (double) lt_viewer_lesson_get_seed (self->lesson));
  self->updating = FALSE;

  update_base_visibility (self);
  update_storage_summary (self);
}

/* The base's values as a literal, for switching to literal contents:
 * "[[0.0, 1.0], [2.0, 3.0]]". */
static char *
format_literal (LtTensor *base)
{
  LtStorage *storage = lt_tensor_get_storage (base);
  const gint64 *sizes, *strides;
  gint64 index[LT_MAX_DIMS] = { 0 };
  gint64 numel = lt_tensor_get_numel (base);
  GString *text;
  guint ndim;

  if (numel > MAX_LITERAL_ELEMENTS || numel == 0)
    return NULL;

  sizes = lt_tensor_get_sizes (base, &ndim);
  strides = lt_tensor_get_strides (base, &ndim);
  text = g_string_new (NULL);
  for (gint64 e = 0; e < numel; e++)
    {
      char value[64];
      gint64 cell = lt_tensor_get_storage_offset (base);
      guint opened = 0;

      /* Open a bracket for every dim whose index is back at 0. */
      for (guint d = ndim; d > 0 && index[d - 1] == 0; d--)
        opened++;
      if (e > 0)
        g_string_append (text, ", ");
      for (guint i = 0; i < MIN (opened, ndim); i++)
        g_string_append_c (text, '[');

      for (guint d = 0; d < ndim; d++)
        cell += index[d] * strides[d];
      lt_viewer_format_value_exact (storage, cell, value, sizeof value);
      g_string_append (text, value);

      /* Close a bracket for every dim that wraps. */
      for (guint d = ndim; d > 0; d--)
        {
          if (++index[d - 1] < sizes[d - 1])
            break;
          index[d - 1] = 0;
          g_string_append_c (text, ']');
        }
    }
  return g_string_free (text, FALSE);
}

/* The seed spin button holds a double: exact up to 2^53, where lesson files
 * may give seeds up to 2^64 - 1. Until it is edited, it stands for the
 * lesson's own seed. */
static guint64
read_seed (LtViewerWindow *self)
{
  guint64 seed = lt_viewer_lesson_get_seed (self->lesson);
  double shown = gtk_spin_button_get_value (self->seed_spin);
  double upper = gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (self->seed_spin));

  if (shown == MIN ((double) seed, upper))
    return seed;
  return (guint64) shown;
}

static void
on_base_edited (LtViewerWindow *self)
{
  g_autoptr (GError) error = NULL;
  gint64 shape[LT_MAX_DIMS];
  guint n_dims = 0;
  LtViewerContents contents;
  LtDType dtype;

  if (self->updating || self->lesson == NULL)
    return;

  dtype = adw_combo_row_get_selected (self->dtype_row);
  contents = adw_combo_row_get_selected (self->contents_row);

  if (contents == LT_VIEWER_CONTENTS_LITERAL
      || lt_viewer_parse_shape (gtk_editable_get_text (GTK_EDITABLE (self->shape_row)), FALSE,
                                shape, &n_dims, &error))
    lt_viewer_lesson_set_base (self->lesson, dtype, shape, n_dims, contents,
                               gtk_editable_get_text (GTK_EDITABLE (self->literal_row)),
                               read_seed (self), &error);

  /* On error the lesson keeps its base, and the fields what was typed. */
  gtk_label_set_text (self->base_error_label, error != NULL ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->base_error_label), error != NULL);
  if (error == NULL)
    update_base_editor (self);
}

static void
on_contents_selected (LtViewerWindow *self)
{
  LtTensor *base;

  if (self->updating || self->lesson == NULL)
    return;

  base = lt_viewer_lesson_get_base (self->lesson);
  if (adw_combo_row_get_selected (self->contents_row) == LT_VIEWER_CONTENTS_LITERAL
      && gtk_editable_get_text (GTK_EDITABLE (self->literal_row))[0] == '\0' && base != NULL)
    {
      g_autofree char *literal = format_literal (base);

      if (literal != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->literal_row), literal);
    }

  update_base_visibility (self);
  on_base_edited (self);
}

/* The views list */

/* What the lesson's "changed" leaves out but the file and the legend
 * keep: a view's name, its expression when it fails, its probe. */
static void
on_view_notify (LtViewerWindow *self,
                GParamSpec     *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "cursor") || g_str_equal (name, "tensor"))
    return;
  update_legend (self);
  schedule_modified_check (self);
}

static GtkWidget *
create_row (gpointer item,
            gpointer data)
{
  LtViewerWindow *self = data;

  g_signal_connect_object (item, "notify", G_CALLBACK (on_view_notify), self, G_CONNECT_SWAPPED);
  return lt_viewer_view_row_new (self->lesson, item);
}

static LtViewerViewRow *
find_row (LtViewerWindow *self,
          LtViewerView   *view)
{
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->views_list, i)) != NULL; i++)
    if (lt_viewer_view_row_get_view (LT_VIEWER_VIEW_ROW (row)) == view)
      return LT_VIEWER_VIEW_ROW (row);
  return NULL;
}

static void
on_row_selected (LtViewerWindow *self,
                 GtkListBoxRow  *row)
{
  if (self->lesson == NULL)
    return;
  lt_viewer_lesson_set_selected (self->lesson,
                                 row != NULL ? lt_viewer_view_row_get_view (LT_VIEWER_VIEW_ROW (row))
                                             : NULL);
}

/* The selected view: its grid, order and badges */

static void
update_flat_dims (LtViewerWindow *self,
                  guint           ndim)
{
  if (ndim != self->n_flat_dims)
    {
      g_autoptr (GtkStringList) dims = gtk_string_list_new (NULL);

      for (guint d = 0; d < ndim; d++)
        {
          g_autofree char *name = g_strdup_printf (_("dim %u"), d);

          gtk_string_list_append (dims, name);
        }

      self->n_flat_dims = ndim;
      self->row_dim = ndim >= 2 ? (int) ndim - 2 : 0;
      self->col_dim = ndim >= 1 ? (int) ndim - 1 : 0;

      self->updating = TRUE;
      gtk_drop_down_set_model (self->row_dim_dropdown, G_LIST_MODEL (dims));
      gtk_drop_down_set_model (self->col_dim_dropdown, G_LIST_MODEL (dims));
      gtk_drop_down_set_selected (self->row_dim_dropdown, self->row_dim);
      gtk_drop_down_set_selected (self->col_dim_dropdown, self->col_dim);
      self->updating = FALSE;

      if (ndim >= 2)
        lt_viewer_view_grid_set_flat_dims (self->view_grid, self->row_dim, self->col_dim);
      else
        lt_viewer_view_grid_set_flat_dims (self->view_grid, -2, -1);
    }

  /* One dim or none: there is nothing to choose. */
  gtk_widget_set_visible (self->flat_dims_box, ndim >= 2);
}

static void
on_flat_dims_selected (LtViewerWindow *self)
{
  int row_dim, col_dim;

  if (self->updating || self->n_flat_dims < 2)
    return;

  row_dim = gtk_drop_down_get_selected (self->row_dim_dropdown);
  col_dim = gtk_drop_down_get_selected (self->col_dim_dropdown);

  /* Choosing the other dropdown's dim swaps the two. */
  if (row_dim == col_dim)
    {
      if (row_dim != self->row_dim)
        col_dim = self->row_dim;
      else
        row_dim = self->col_dim;
      self->updating = TRUE;
      gtk_drop_down_set_selected (self->row_dim_dropdown, row_dim);
      gtk_drop_down_set_selected (self->col_dim_dropdown, col_dim);
      self->updating = FALSE;
    }

  self->row_dim = row_dim;
  self->col_dim = col_dim;
  lt_viewer_view_grid_set_flat_dims (self->view_grid, row_dim, col_dim);
  lt_viewer_window_queue_layout (self);
}

static void
update_order (LtViewerWindow *self)
{
  LtTensor *tensor = self->selected != NULL ? lt_viewer_view_get_tensor (self->selected) : NULL;
  gint64 numel = tensor != NULL ? lt_tensor_get_numel (tensor) : 0;
  gint64 cursor = self->selected != NULL ? lt_viewer_view_get_cursor (self->selected) : -1;
  g_autofree char *text = NULL;
  g_autofree char *address = NULL;
  GAction *action;

  if (numel == 0)
    text = g_strdup (_("The view has no elements."));
  else if (cursor < 0)
    text = g_strdup (_("Press Play, or Ctrl+Space, to walk through the elements in row-major "
                       "order."));
  else
    {
      gint64 cell = lt_viewer_view_get_storage_index (self->selected, cursor);
      g_autofree char *element = format_int (cursor);
      g_autofree char *storage = format_int (cell);

      if (cursor == 0)
        /* Translators: the order stepper: the element's row-major index, then
         * its storage index. */
        text = g_strdup_printf (_("element %s → storage %s"), element, storage);
      else
        {
          gint64 jump = cell - lt_viewer_view_get_storage_index (self->selected, cursor - 1);
          g_autofree char *step = g_strdup_printf ("%+" G_GINT64_FORMAT, jump);

          /* Translators: the order stepper: the element's row-major index, its
           * storage index, and how far that is from the previous element's. */
          text = g_strdup_printf (_("element %s → storage %s (jump %s)"), element, storage, step);
        }
      address = lt_viewer_view_format_address (self->selected, cursor);
    }

  gtk_label_set_text (self->order_label, text);
  gtk_label_set_text (self->address_label, address != NULL ? address : "");

  action = g_action_map_lookup_action (G_ACTION_MAP (self), "step-forward");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), numel > 0 && cursor < numel - 1);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "step-back");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), numel > 0 && cursor >= 0);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "play-pause");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), numel > 0);
}

static void
update_view_as (LtViewerWindow *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *reason = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->view_as_entry));
  gint64 shape[LT_MAX_DIMS];
  guint n_dims;

  if (self->selected == NULL)
    return;

  if (text[0] == '\0')
    text = "-1";

  if (!lt_viewer_parse_shape (text, TRUE, shape, &n_dims, &error))
    {
      set_badge (self->view_as_badge, _("Not a shape"), "error");
      gtk_label_set_text (self->view_as_reason, error->message);
      return;
    }

  if (lt_viewer_view_explain_view_as (self->selected, shape, n_dims, &reason))
    set_badge (self->view_as_badge, _("view() possible"), "success");
  else
    set_badge (self->view_as_badge, _("view() not possible"), "error");
  gtk_label_set_text (self->view_as_reason, reason != NULL ? reason : "");
}

static void
on_view_as_changed (LtViewerWindow *self)
{
  if (!self->updating && self->selected != NULL)
    {
      lt_viewer_view_set_probe (self->selected,
                                gtk_editable_get_text (GTK_EDITABLE (self->view_as_entry)));
    }
  update_view_as (self);
}

static void
update_badges (LtViewerWindow *self)
{
  g_autofree char *contiguity = NULL;
  g_autofree char *aliasing = NULL;
  g_autofree char *pytorch = NULL;
  gboolean pytorch_same;
  gboolean has_tensor = self->selected != NULL && lt_viewer_view_get_tensor (self->selected) != NULL;

  /* A view whose expression never evaluated has no layout to judge: its
   * error shows in its row. */
  gtk_widget_set_visible (self->badges_grid, has_tensor);
  if (!has_tensor)
    return;

  if (lt_viewer_view_explain_contiguity (self->selected, &contiguity))
    set_badge (self->contiguous_badge, _("Contiguous"), "success");
  else
    set_badge (self->contiguous_badge, _("Not contiguous"), "warning");
  gtk_label_set_text (self->contiguous_reason, contiguity != NULL ? contiguity : "");

  if (lt_viewer_view_explain_aliasing (self->selected, &aliasing))
    set_badge (self->aliasing_badge, _("Aliases itself"), "warning");
  else
    set_badge (self->aliasing_badge, _("No aliasing"), "success");
  gtk_label_set_text (self->aliasing_reason, aliasing != NULL ? aliasing : "");

  /* Said only where PyTorch differs. */
  pytorch_same = lt_viewer_view_explain_pytorch (self->selected, &pytorch);
  gtk_widget_set_visible (GTK_WIDGET (self->pytorch_badge), !pytorch_same);
  gtk_widget_set_visible (GTK_WIDGET (self->pytorch_reason), !pytorch_same);
  if (!pytorch_same)
    {
      set_badge (self->pytorch_badge, _("Not in PyTorch"), "warning");
      gtk_label_set_text (self->pytorch_reason, pytorch);
    }

  update_view_as (self);
}

/* A copy (contiguous() of a non-contiguous view, clone(), a reshape that
 * copies) is drawn with its own storage, labelled, where the grid's
 * storage indices point; the selected view's step shows there too. */
static void
update_copy_strip (LtViewerWindow *self)
{
  LtTensor *tensor = self->selected != NULL && lt_viewer_view_get_error (self->selected) == NULL
                       ? lt_viewer_view_get_tensor (self->selected) : NULL;
  LtTensor *base = self->lesson != NULL ? lt_viewer_lesson_get_base (self->lesson) : NULL;
  LtStorage *storage, *base_storage;
  gboolean copy = FALSE;

  if (tensor != NULL && base != NULL)
    {
      storage = lt_tensor_get_storage (tensor);
      base_storage = lt_tensor_get_storage (base);
      copy = storage != base_storage && !lt_storage_shares_memory (storage, base_storage);
    }
  gtk_widget_set_visible (self->copy_box, copy);
  if (!copy)
    {
      lt_viewer_storage_strip_set_lesson (self->copy_strip, NULL);
      g_clear_object (&self->copy_lesson);
      g_clear_object (&self->copy_source);
      return;
    }

  if (tensor != self->copy_source)
    {
      g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *count = g_strdup_printf (
        "%" G_GINT64_FORMAT, lt_storage_get_n_elements (lt_tensor_get_storage (tensor)));
      g_autofree char *cells = NULL;
      g_autofree char *heading = NULL;
      LtViewerView *view;

      if (!lt_viewer_lesson_set_base_tensor (lesson, tensor, &error)
          || (view = lt_viewer_lesson_add_tensor_view (lesson,
                                                       lt_viewer_view_get_name (self->selected),
                                                       lt_viewer_view_get_color (self->selected),
                                                       tensor, &error)) == NULL)
        {
          g_warning ("The copy's storage cannot be drawn: %s", error->message);
          gtk_widget_set_visible (self->copy_box, FALSE);
          return;
        }
      lt_viewer_lesson_set_selected (lesson, view);
      g_set_object (&self->copy_lesson, lesson);
      g_set_object (&self->copy_source, tensor);
      lt_viewer_storage_strip_set_lesson (self->copy_strip, lesson);

      /* Translators: a storage's size: the count, then the dtype */
      cells = g_strdup_printf (ngettext ("%s %s element", "%s %s elements",
                                         (gulong) lt_storage_get_n_elements (
                                           lt_tensor_get_storage (tensor))),
                               count, lt_dtype_get_name (lt_tensor_get_dtype (tensor)));
      /* Translators: the heading of a copy's own storage: the view's name,
       * then "6 float32 elements" */
      heading = g_strdup_printf (_("Storage of the copy %s: %s"),
                                 lt_viewer_view_get_name (self->selected), cells);
      gtk_label_set_text (self->copy_label, heading);
    }
  lt_viewer_view_set_cursor (lt_viewer_lesson_get_view (self->copy_lesson, 0),
                             lt_viewer_view_get_cursor (self->selected));
}

static void
update_selected_view (LtViewerWindow *self)
{
  LtTensor *tensor;
  g_autofree char *sizes_text = NULL;
  g_autofree char *strides_text = NULL;
  g_autofree char *offset_text = NULL;
  g_autofree char *layout = NULL;
  const gint64 *sizes, *strides;
  guint ndim;

  if (self->selected == NULL)
    {
      /* A lesson without views has nothing to select: say how to add one. */
      if (self->lesson != NULL && lt_viewer_lesson_get_n_views (self->lesson) == 0)
        {
          adw_status_page_set_title (self->empty_page, _("No Views Yet"));
          adw_status_page_set_description (self->empty_page,
                                           _("Add a view with the + button beside Views: "
                                             "an expression over t such as t[1] or t.t(), "
                                             "whose cells are then coloured."));
        }
      else
        {
          adw_status_page_set_title (self->empty_page, _("No View Selected"));
          adw_status_page_set_description (self->empty_page,
                                           _("Select a view in the list to see its elements, "
                                             "step through them in order and read whether it "
                                             "is contiguous."));
        }
      gtk_stack_set_visible_child_name (self->view_stack, "empty");
      update_order (self);
      update_copy_strip (self);
      lt_viewer_window_queue_layout (self);
      return;
    }

  gtk_label_set_text (self->view_name_label, lt_viewer_view_get_name (self->selected));
  if (lt_viewer_view_get_error (self->selected) != NULL)
    {
      /* The error in place of the grid, which would show an older state. */
      g_autofree char *title = NULL;

      if (lt_viewer_view_get_expect_error (self->selected))
        /* Translators: the heading of a view a lesson shows failing; %s is
         * its expression */
        title = g_strdup_printf (_("%s Fails, as the Lesson Shows"),
                                 lt_viewer_view_get_expression (self->selected));
      else
        /* Translators: %s is a view's expression */
        title = g_strdup_printf (_("%s Fails"), lt_viewer_view_get_expression (self->selected));
      adw_status_page_set_title (self->view_error_page, title);
      adw_status_page_set_description (self->view_error_page,
                                       lt_viewer_view_get_error (self->selected));
      gtk_stack_set_visible_child_name (self->view_stack, "error");
    }
  else
    gtk_stack_set_visible_child_name (self->view_stack, "view");

  tensor = lt_viewer_view_get_tensor (self->selected);
  if (tensor != NULL)
    {
      sizes = lt_tensor_get_sizes (tensor, &ndim);
      strides = lt_tensor_get_strides (tensor, &ndim);
      sizes_text = format_tuple (sizes, ndim);
      strides_text = format_tuple (strides, ndim);
      offset_text = format_int (lt_tensor_get_storage_offset (tensor));
      /* Translators: the selected view's layout, as PyTorch names it. */
      layout = g_strdup_printf (_("size %s · stride %s · offset %s"), sizes_text, strides_text,
                                offset_text);
      update_flat_dims (self, ndim);
    }
  else
    update_flat_dims (self, 0);

  gtk_label_set_text (self->view_layout_label, layout != NULL ? layout : "");
  update_order (self);
  update_badges (self);
  update_copy_strip (self);
  lt_viewer_window_queue_layout (self);
}

static void
on_selected_view_changed (LtViewerWindow *self)
{
  update_selected_view (self);
}

static void
on_selected_view_name (LtViewerWindow *self)
{
  gtk_label_set_text (self->view_name_label, lt_viewer_view_get_name (self->selected));
}

static void
watch_selected (LtViewerWindow *self)
{
  LtViewerView *view = lt_viewer_lesson_get_selected (self->lesson);
  LtViewerViewRow *row;

  if (view != self->selected)
    {
      stop_playing (self);
      if (self->selected != NULL)
        g_signal_handlers_disconnect_by_data (self->selected, self);
      g_set_object (&self->selected, view);
      if (view != NULL)
        {
          g_signal_connect_object (view, "changed", G_CALLBACK (on_selected_view_changed), self,
                                   G_CONNECT_SWAPPED);
          g_signal_connect_object (view, "notify::name", G_CALLBACK (on_selected_view_name),
                                   self, G_CONNECT_SWAPPED);
          /* A failing expression leaves the tensor, so no "changed". */
          g_signal_connect_object (view, "notify::error", G_CALLBACK (on_selected_view_changed),
                                   self, G_CONNECT_SWAPPED);
        }
      self->n_flat_dims = G_MAXUINT;
      lt_viewer_view_grid_set_view (self->view_grid, view);
      /* The view() badge tries the shape the lesson gives this view. */
      self->updating = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->view_as_entry),
                             view != NULL ? lt_viewer_view_get_probe (view) : "");
      self->updating = FALSE;
    }

  row = view != NULL ? find_row (self, view) : NULL;
  if ((GtkListBoxRow *) row != gtk_list_box_get_selected_row (self->views_list))
    {
      if (row != NULL)
        gtk_list_box_select_row (self->views_list, GTK_LIST_BOX_ROW (row));
      else
        gtk_list_box_unselect_all (self->views_list);
    }

  update_selected_view (self);
}

/* Playing: one element further at each tick */

static void
set_playing (LtViewerWindow *self,
             gboolean        playing)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "play-pause");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (playing));
  gtk_button_set_icon_name (self->play_button, playing ? "media-playback-pause-symbolic"
                                                       : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button), playing ? _("Pause") : _("Play"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, playing ? _("Pause") : _("Play"),
                                  -1);
}

static void
stop_playing (LtViewerWindow *self)
{
  if (self->play_source == 0)
    return;
  g_clear_handle_id (&self->play_source, g_source_remove);
  set_playing (self, FALSE);
}

static gboolean
step (LtViewerWindow *self,
      int             direction)
{
  LtTensor *tensor = self->selected != NULL ? lt_viewer_view_get_tensor (self->selected) : NULL;
  gint64 numel = tensor != NULL ? lt_tensor_get_numel (tensor) : 0;
  gint64 cursor;

  if (numel == 0)
    return FALSE;

  cursor = lt_viewer_view_get_cursor (self->selected) + direction;
  if (cursor < -1 || cursor >= numel)
    return FALSE;
  lt_viewer_view_set_cursor (self->selected, cursor);
  return cursor < numel - 1;
}

static gboolean
on_play_tick (gpointer data)
{
  LtViewerWindow *self = data;

  if (!step (self, 1))
    {
      self->play_source = 0;
      set_playing (self, FALSE);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
start_playing (LtViewerWindow *self)
{
  LtTensor *tensor = self->selected != NULL ? lt_viewer_view_get_tensor (self->selected) : NULL;
  double speed = gtk_adjustment_get_value (self->speed_adjustment);

  if (tensor == NULL || lt_tensor_get_numel (tensor) == 0)
    return;

  /* From the start again once the end was reached. */
  if (lt_viewer_view_get_cursor (self->selected) >= lt_tensor_get_numel (tensor) - 1)
    lt_viewer_view_set_cursor (self->selected, -1);

  g_clear_handle_id (&self->play_source, g_source_remove);
  self->play_source = g_timeout_add ((guint) (1000.0 / MAX (speed, 0.1)), on_play_tick, self);
  set_playing (self, TRUE);
  step (self, 1);
}

static void
on_speed_changed (LtViewerWindow *self)
{
  if (self->play_source != 0)
    {
      double speed = gtk_adjustment_get_value (self->speed_adjustment);

      g_source_remove (self->play_source);
      self->play_source = g_timeout_add ((guint) (1000.0 / MAX (speed, 0.1)), on_play_tick, self);
    }
}

/* The legend: each view's swatch (colour and pattern) and name, the
 * selected one in bold and the others dimmed, as the strip draws them. */
static void
update_legend (LtViewerWindow *self)
{
  LtViewerView *selected = lt_viewer_lesson_get_selected (self->lesson);
  guint n = lt_viewer_lesson_get_n_views (self->lesson);
  g_autoptr (GString) key = g_string_new (NULL);
  GtkWidget *child;

  /* Rebuilt only when what it shows changes, not on every step of Play. */
  for (guint i = 0; i < n; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (self->lesson, i);

      g_string_append_printf (key, "%s\n%s\n%s\n%d\n", lt_viewer_view_get_color (view),
                              lt_viewer_view_get_name (view), lt_viewer_view_get_expression (view),
                              view == selected);
    }
  if (g_strcmp0 (key->str, self->legend_key) == 0)
    return;
  g_free (self->legend_key);
  self->legend_key = g_strdup (key->str);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend_box))) != NULL)
    gtk_flow_box_remove (self->legend_box, child);
  for (guint i = 0; i < n; i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (self->lesson, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *swatch = lt_viewer_swatch_new (lt_viewer_view_get_color (view), i);
      const char *name = lt_viewer_view_get_name (view);
      GtkWidget *label = gtk_label_new (name[0] != '\0' ? name
                                                          : lt_viewer_view_get_expression (view));

      lt_viewer_swatch_set_dimmed (LT_VIEWER_SWATCH (swatch), selected != NULL && view != selected);
      /* Whole, unless the name is longer than a legend entry can be:
       * an ellipsized label could be given less than its width. */
      if (g_utf8_strlen (gtk_label_get_text (GTK_LABEL (label)), -1) > MAX_LEGEND_CHARS)
        {
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_width_chars (GTK_LABEL (label), MAX_LEGEND_CHARS);
          gtk_label_set_max_width_chars (GTK_LABEL (label), MAX_LEGEND_CHARS);
          gtk_widget_set_tooltip_text (label, gtk_label_get_text (GTK_LABEL (label)));
        }
      if (view == selected)
        gtk_widget_add_css_class (label, "heading");
      else if (selected != NULL)
        gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (box), swatch);
      gtk_box_append (GTK_BOX (box), label);
      gtk_flow_box_append (self->legend_box, box);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->legend_box), n > 0);
  lt_viewer_window_queue_layout (self);
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
      update_title (self);
    }
  return G_SOURCE_REMOVE;
}

static void
schedule_modified_check (LtViewerWindow *self)
{
  if (self->modified_source == 0)
    self->modified_source = g_idle_add (check_modified, self);
}

/* The lesson as it is now is the saved one. */
static void
mark_saved (LtViewerWindow *self)
{
  g_free (self->saved_data);
  self->saved_data = lt_viewer_lesson_save_to_data (self->lesson, NULL);
  g_clear_handle_id (&self->modified_source, g_source_remove);
  self->modified = FALSE;
  update_title (self);
}

/* The lesson */

static void
on_lesson_notify (LtViewerWindow *self,
                  GParamSpec     *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (!g_str_equal (name, "selected") && !g_str_equal (name, "hover-cell"))
    schedule_modified_check (self);

  if (g_str_equal (name, "title"))
    update_title (self);
  else if (g_str_equal (name, "notes"))
    update_notes (self);
  else if (g_str_equal (name, "selected"))
    {
      watch_selected (self);
      update_legend (self);
    }
  else if (g_str_equal (name, "base") || g_str_equal (name, "dtype"))
    update_storage_summary (self);
}

static void
on_lesson_changed (LtViewerWindow *self)
{
  /* A view's colour or tensor, or the base: the badges may change. */
  update_selected_view (self);
  update_legend (self);
  schedule_modified_check (self);
}

static void
remember_lesson (LtViewerWindow *self)
{
  g_autofree char *uri = NULL;

  if (self->settings == NULL)
    return;

  if (self->builtin != NULL)
    g_settings_set_string (self->settings, "last-lesson", self->builtin);
  else if (self->file != NULL)
    {
      uri = g_file_get_uri (self->file);
      g_settings_set_string (self->settings, "last-lesson", uri);
    }
}

/* Until a lesson is shown there is nothing to save, export or add to. */
static void
set_lesson_actions_enabled (LtViewerWindow *self,
                            gboolean        enabled)
{
  static const char *const names[] = { "save", "save-as", "export", "add-view" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
    }
}

/**
 * lt_viewer_window_set_lesson:
 * @self: a #LtViewerWindow
 * @lesson: the lesson to show
 * @builtin: (nullable): the built-in lesson's name, when it is one
 * @file: (nullable): the file it was opened from
 *
 * Shows @lesson instead of the lesson shown so far, and remembers it as
 * the lesson to open on the next start.
 */
static void set_zoom (LtViewerWindow *self,
                      double          zoom);

/* The "PyTorch only" preference: every view evaluated again. */
static void
on_pytorch_only_changed (LtViewerWindow *self)
{
  if (self->lesson != NULL)
    lt_viewer_lesson_set_pytorch_only (self->lesson,
                                       g_settings_get_boolean (self->settings, "pytorch-only"));
}

/* A lesson's CellsPerRow holds while it is open, without becoming the
 * user's setting; a lesson without one gets the setting back. Its Zoom
 * holds until zoomed. */
static void
apply_lesson_geometry (LtViewerWindow *self)
{
  guint cells_per_row = lt_viewer_lesson_get_cells_per_row (self->lesson);
  double zoom = lt_viewer_lesson_get_zoom (self->lesson);

  if (self->settings != NULL)
    {
      g_settings_unbind (self->storage_strip, "wrap-width");
      if (cells_per_row == 0)
        g_settings_bind (self->settings, "wrap-width", self->storage_strip, "wrap-width",
                         G_SETTINGS_BIND_DEFAULT);
    }
  if (cells_per_row > 0)
    lt_viewer_storage_strip_set_wrap_width (self->storage_strip, cells_per_row);
  if (zoom > 0)
    set_zoom (self, zoom);
}

void
lt_viewer_window_set_lesson (LtViewerWindow *self,
                             LtViewerLesson *lesson,
                             const char     *builtin,
                             GFile          *file)
{
  g_return_if_fail (LT_VIEWER_IS_WINDOW (self));
  g_return_if_fail (LT_VIEWER_IS_LESSON (lesson));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  stop_playing (self);

  if (self->lesson != NULL)
    g_signal_handlers_disconnect_by_data (self->lesson, self);
  if (self->selected != NULL)
    g_signal_handlers_disconnect_by_data (self->selected, self);
  g_clear_object (&self->selected);
  lt_viewer_view_grid_set_view (self->view_grid, NULL);
  g_set_object (&self->lesson, lesson);
  set_lesson_actions_enabled (self, TRUE);
  g_free (self->builtin);
  self->builtin = g_strdup (builtin);
  g_set_object (&self->file, file);

  g_signal_connect_object (lesson, "notify", G_CALLBACK (on_lesson_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (lesson, "changed", G_CALLBACK (on_lesson_changed), self,
                           G_CONNECT_SWAPPED);
  self->close_confirmed = FALSE;
  self->close_after_save = FALSE;
  mark_saved (self);
  update_legend (self);

  lt_viewer_storage_strip_set_lesson (self->storage_strip, lesson);
  lt_viewer_view_grid_set_lesson (self->view_grid, lesson);
  apply_lesson_geometry (self);
  if (self->settings != NULL)
    lt_viewer_lesson_set_pytorch_only (lesson,
                                       g_settings_get_boolean (self->settings, "pytorch-only"));
  gtk_list_box_bind_model (self->views_list, G_LIST_MODEL (lesson), create_row, self, NULL);

  gtk_toggle_button_set_active (self->edit_button, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->base_error_label), FALSE);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->literal_row), "");
  gtk_editable_set_text (GTK_EDITABLE (self->view_as_entry), "");
  self->updating = FALSE;

  update_title (self);
  update_notes (self);
  on_edit_toggled (self);
  update_base_editor (self);

  /* The first view, unless the lesson says otherwise. */
  if (lt_viewer_lesson_get_selected (lesson) == NULL && lt_viewer_lesson_get_n_views (lesson) > 0)
    lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 0));
  else
    watch_selected (self);

  remember_lesson (self);
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

static void
open_activated (GSimpleAction *action,
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

static void
save_as_activated (GSimpleAction *action,
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

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GError) error = NULL;

  /* A built-in lesson is not a file to write: it asks where. */
  if (self->file == NULL)
    {
      save_as_activated (action, parameter, data);
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

static void
export_activated (GSimpleAction *action,
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

/* Views */

static void
add_view_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GError) error = NULL;
  LtViewerViewRow *row;
  LtViewerView *view;

  view = lt_viewer_lesson_add_view (self->lesson, NULL, NULL, "t", &error);
  if (view == NULL)
    {
      lt_viewer_window_show_toast (self, error->message);
      return;
    }

  lt_viewer_lesson_set_selected (self->lesson, view);
  row = find_row (self, view);
  if (row != NULL)
    lt_viewer_view_row_focus_expression (row);
}

static void
play_pause_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  LtViewerWindow *self = data;

  if (self->play_source != 0)
    stop_playing (self);
  else
    start_playing (self);
}

static void
step_forward_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       data)
{
  LtViewerWindow *self = data;

  stop_playing (self);
  step (self, 1);
}

static void
step_back_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       data)
{
  LtViewerWindow *self = data;

  stop_playing (self);
  step (self, -1);
}

/* Zoom */

static void
set_zoom (LtViewerWindow *self,
          double          zoom)
{
  lt_viewer_storage_strip_set_zoom (self->storage_strip, CLAMP (zoom, MIN_ZOOM, MAX_ZOOM));
}

static void
zoom_in_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  LtViewerWindow *self = data;

  set_zoom (self, lt_viewer_storage_strip_get_zoom (self->storage_strip) * ZOOM_STEP);
}

static void
zoom_out_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  LtViewerWindow *self = data;

  set_zoom (self, lt_viewer_storage_strip_get_zoom (self->storage_strip) / ZOOM_STEP);
}

static void
zoom_reset_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  LtViewerWindow *self = data;

  set_zoom (self, 1.0);
}

static void
on_zoom_notify (LtViewerWindow *self)
{
  double zoom = lt_viewer_storage_strip_get_zoom (self->storage_strip);
  /* Translators: the storage strip's zoom, such as 125%; use the percent
   * sign and spacing of your language. */
  g_autofree char *label = g_strdup_printf (_("%d%%"), (int) (zoom * 100.0 + 0.5));
  GAction *action;

  gtk_button_set_label (self->zoom_button, label);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "zoom-in");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), zoom < MAX_ZOOM - 1e-9);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "zoom-out");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), zoom > MIN_ZOOM + 1e-9);
}

static const GActionEntry win_actions[] = {
  { "open", open_activated, NULL, NULL, NULL },
  { "save", save_activated, NULL, NULL, NULL },
  { "save-as", save_as_activated, NULL, NULL, NULL },
  { "export", export_activated, NULL, NULL, NULL },
  { "add-view", add_view_activated, NULL, NULL, NULL },
  { "play-pause", play_pause_activated, NULL, "false", NULL },
  { "step-forward", step_forward_activated, NULL, NULL, NULL },
  { "step-back", step_back_activated, NULL, NULL, NULL },
  { "zoom-in", zoom_in_activated, NULL, NULL, NULL },
  { "zoom-out", zoom_out_activated, NULL, NULL, NULL },
  { "zoom-reset", zoom_reset_activated, NULL, NULL, NULL },
};

/* The lessons menu: the built-in lessons by their translated titles. */
static GMenuModel *
build_lessons_menu (void)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin (names[i], NULL);
      g_autoptr (GMenuItem) item = NULL;

      if (lesson == NULL)
        continue;
      item = g_menu_item_new (lt_viewer_lesson_get_title (lesson), NULL);
      g_menu_item_set_action_and_target_value (item, "app.open-lesson",
                                               g_variant_new_string (names[i]));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (g_steal_pointer (&menu));
}

/* Window state */

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

static gboolean
lt_viewer_window_close_request (GtkWindow *window)
{
  LtViewerWindow *self = LT_VIEWER_WINDOW (window);

  /* Changes made just now count too. */
  if (self->modified_source != 0)
    {
      g_source_remove (self->modified_source);
      check_modified (self);
    }
  if (self->modified && !self->close_confirmed)
    {
      ask_save_changes (self);
      return TRUE;
    }

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
    }

  return GTK_WINDOW_CLASS (lt_viewer_window_parent_class)->close_request (window);
}

/* The window's size, maximized state and wrap width come from the
 * application's settings and go back to them; in screenshot mode the size is
 * the screenshot's. */
static void
apply_settings (LtViewerWindow      *self,
                LtViewerApplication *application)
{
  GSettings *settings = lt_viewer_application_get_settings (application);

  if (settings == NULL)
    return;
  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::pytorch-only", G_CALLBACK (on_pytorch_only_changed),
                           self, G_CONNECT_SWAPPED);

  if (!lt_viewer_application_get_screenshot_mode (application))
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (settings, "window-width"),
                                   g_settings_get_int (settings, "window-height"));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  g_settings_bind (settings, "wrap-width", self->storage_strip, "wrap-width",
                   G_SETTINGS_BIND_DEFAULT);
}

static void
lt_viewer_window_constructed (GObject *object)
{
  LtViewerWindow *self = LT_VIEWER_WINDOW (object);
  g_autoptr (GMenuModel) lessons = NULL;

  G_OBJECT_CLASS (lt_viewer_window_parent_class)->constructed (object);

  lessons = build_lessons_menu ();
  gtk_menu_button_set_menu_model (self->lessons_button, lessons);
}

static void
lt_viewer_window_dispose (GObject *object)
{
  LtViewerWindow *self = LT_VIEWER_WINDOW (object);

  g_clear_handle_id (&self->play_source, g_source_remove);
  g_clear_handle_id (&self->modified_source, g_source_remove);
  if (self->selected != NULL)
    g_signal_handlers_disconnect_by_data (self->selected, self);
  if (self->lesson != NULL)
    g_signal_handlers_disconnect_by_data (self->lesson, self);
  if (self->views_list != NULL)
    gtk_list_box_bind_model (self->views_list, NULL, NULL, NULL, NULL);

  lt_viewer_window_clear_layout (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LT_VIEWER_TYPE_WINDOW);

  g_clear_object (&self->selected);
  g_clear_object (&self->lesson);
  g_clear_object (&self->copy_lesson);
  g_clear_object (&self->copy_source);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->builtin, g_free);
  g_clear_pointer (&self->saved_data, g_free);
  g_clear_pointer (&self->legend_key, g_free);

  G_OBJECT_CLASS (lt_viewer_window_parent_class)->dispose (object);
}

static void
lt_viewer_window_class_init (LtViewerWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = lt_viewer_window_constructed;
  object_class->dispose = lt_viewer_window_dispose;
  window_class->close_request = lt_viewer_window_close_request;

  g_type_ensure (LT_VIEWER_TYPE_STORAGE_STRIP);
  g_type_ensure (LT_VIEWER_TYPE_VIEW_GRID);

  /* The resources are compiled into this static library: referring to them
   * links them in, and their constructor registers them (the templates, the
   * style sheet, the shortcuts window and the icons). */
  (void) lt_viewer_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/libtensor/TensorViewer/lt-viewer-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, main_box);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, legend_box);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_error_page);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, lessons_button);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, copy_box);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, copy_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, copy_strip);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, title_stack);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, notes_stack);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, title_entry);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, notes_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, notes_view);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, edit_button);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, dtype_row);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, dtype_list);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, contents_row);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, shape_row);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, literal_row);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, seed_row);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, base_error_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, views_list);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, storage_summary_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, wrap_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, zoom_button);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, storage_strip);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_name_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_layout_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, flat_dims_box);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, row_dim_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, col_dim_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_grid);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, play_button);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, speed_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, order_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, address_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, badges_grid);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, contiguous_badge);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, contiguous_reason);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, aliasing_badge);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, aliasing_reason);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, pytorch_badge);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, pytorch_reason);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_as_badge);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_as_reason);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, view_as_entry);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, drawing_paned);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, storage_scroller);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, grid_scroller);
  gtk_widget_class_bind_template_callback (widget_class, on_title_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_base_edited);
  gtk_widget_class_bind_template_callback (widget_class, on_contents_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_flat_dims_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_view_as_changed);
}

static void
lt_viewer_window_init (LtViewerWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);
  set_lesson_actions_enabled (self, FALSE);

  /* Every dtype, in the order of LtDType, so that the position is the
   * value. */
  for (int dtype = 0; lt_dtype_is_valid (dtype); dtype++)
    gtk_string_list_append (self->dtype_list, lt_dtype_get_name (dtype));

  g_object_bind_property (self->wrap_adjustment, "value", self->storage_strip, "wrap-width",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  /* A copy's storage in the same geometry as the lesson's. */
  g_object_bind_property (self->storage_strip, "wrap-width", self->copy_strip, "wrap-width",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->storage_strip, "zoom", self->copy_strip, "zoom",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->storage_strip, "notify::zoom", G_CALLBACK (on_zoom_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->speed_adjustment, "value-changed", G_CALLBACK (on_speed_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_text_view_get_buffer (self->notes_view), "changed",
                           G_CALLBACK (on_notes_buffer_changed), self, G_CONNECT_SWAPPED);
  on_zoom_notify (self);
  lt_viewer_window_init_layout (self);

  /* Until a lesson is set: an empty one. */
  self->n_flat_dims = G_MAXUINT;
}

/**
 * lt_viewer_window_new:
 * @application: the application
 *
 * Returns: (transfer none): a new window, which @application holds
 */
LtViewerWindow *
lt_viewer_window_new (LtViewerApplication *application)
{
  LtViewerWindow *self;

  g_return_val_if_fail (LT_VIEWER_IS_APPLICATION (application), NULL);

  self = g_object_new (LT_VIEWER_TYPE_WINDOW, "application", application, NULL);
  apply_settings (self, application);
  return self;
}

/**
 * lt_viewer_window_get_lesson:
 * @self: a #LtViewerWindow
 *
 * Returns: (transfer none) (nullable): the lesson shown
 */
LtViewerLesson *
lt_viewer_window_get_lesson (LtViewerWindow *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), NULL);

  return self->lesson;
}

/**
 * lt_viewer_window_get_file:
 * @self: a #LtViewerWindow
 *
 * Returns: (transfer none) (nullable): the lesson's file
 */
GFile *
lt_viewer_window_get_file (LtViewerWindow *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), NULL);

  return self->file;
}

/**
 * lt_viewer_window_get_builtin:
 * @self: a #LtViewerWindow
 *
 * Returns: (nullable): the name of the built-in lesson shown
 */
const char *
lt_viewer_window_get_builtin (LtViewerWindow *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), NULL);

  return self->builtin;
}

/**
 * lt_viewer_window_open_builtin:
 * @self: a #LtViewerWindow
 * @name: a built-in lesson's name, such as "points"
 * @error: return location for a #GError
 *
 * Shows the built-in lesson @name.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_window_open_builtin (LtViewerWindow  *self,
                               const char      *name,
                               GError         **error)
{
  g_autoptr (LtViewerLesson) lesson = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  lesson = lt_viewer_lesson_load_builtin (name, error);
  if (lesson == NULL)
    return FALSE;
  lt_viewer_window_set_lesson (self, lesson, name, NULL);
  return TRUE;
}

/**
 * lt_viewer_window_open_file:
 * @self: a #LtViewerWindow
 * @file: a lesson file
 *
 * Shows the lesson in @file. A file that cannot be read or is not a valid
 * lesson is reported in an error dialog, and the lesson shown stays.
 *
 * Returns: %TRUE when the file was opened
 */
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
  mark_saved (self);
  remember_lesson (self);
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

/**
 * lt_viewer_window_show_toast:
 * @self: a #LtViewerWindow
 * @message: the text
 *
 * Shows @message in a toast over the drawings.
 */
void
lt_viewer_window_show_toast (LtViewerWindow *self,
                             const char     *message)
{
  g_autofree char *markup = NULL;
  AdwToast *toast;

  g_return_if_fail (LT_VIEWER_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  /* A toast's title is markup; messages quote expressions with < and &. */
  markup = g_markup_escape_text (message, -1);
  toast = adw_toast_new (markup);
  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}
