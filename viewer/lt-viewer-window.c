/* lt-viewer-window.c: Tensor Viewer's main window: the lesson, its title
 * and notes, its views and the selected one. The base tensor's editor,
 * the files and the actions have files of their own beside this one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <glib/gi18n.h>

#include "lt-viewer-resources.h"

#include "lt-viewer-lesson-file.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-swatch.h"
#include "lt-viewer-view-grid.h"
#include "lt-viewer-view-row.h"
#include "lt-viewer-window-private.h"

G_DEFINE_FINAL_TYPE (LtViewerWindow, lt_viewer_window, ADW_TYPE_APPLICATION_WINDOW)

static void update_legend        (LtViewerWindow *self);
static void update_selected_view (LtViewerWindow *self);

/* Small helpers */

char *
lt_viewer_window_format_int (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/* "(3, 2)", as PyTorch prints sizes and strides. */
char *
lt_viewer_window_format_tuple (const gint64 *values,
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

/* The lesson's title and notes */

void
lt_viewer_window_update_title (LtViewerWindow *self)
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
  lt_viewer_window_schedule_modified_check (self);
}

static GtkWidget *
create_row (gpointer item,
            gpointer data)
{
  LtViewerWindow *self = data;

  g_signal_connect_object (item, "notify", G_CALLBACK (on_view_notify), self, G_CONNECT_SWAPPED);
  return lt_viewer_view_row_new (self->lesson, item);
}

LtViewerViewRow *
lt_viewer_window_find_row (LtViewerWindow *self,
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
      g_autofree char *element = lt_viewer_window_format_int (cursor);
      g_autofree char *storage = lt_viewer_window_format_int (cell);

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
      sizes_text = lt_viewer_window_format_tuple (sizes, ndim);
      strides_text = lt_viewer_window_format_tuple (strides, ndim);
      offset_text = lt_viewer_window_format_int (lt_tensor_get_storage_offset (tensor));
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
      lt_viewer_window_stop_playing (self);
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

  row = view != NULL ? lt_viewer_window_find_row (self, view) : NULL;
  if ((GtkListBoxRow *) row != gtk_list_box_get_selected_row (self->views_list))
    {
      if (row != NULL)
        gtk_list_box_select_row (self->views_list, GTK_LIST_BOX_ROW (row));
      else
        gtk_list_box_unselect_all (self->views_list);
    }

  update_selected_view (self);
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

/* The lesson */

static void
on_lesson_notify (LtViewerWindow *self,
                  GParamSpec     *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (!g_str_equal (name, "selected") && !g_str_equal (name, "hover-cell"))
    lt_viewer_window_schedule_modified_check (self);

  if (g_str_equal (name, "title"))
    lt_viewer_window_update_title (self);
  else if (g_str_equal (name, "notes"))
    update_notes (self);
  else if (g_str_equal (name, "selected"))
    {
      watch_selected (self);
      update_legend (self);
    }
  else if (g_str_equal (name, "base") || g_str_equal (name, "dtype"))
    lt_viewer_window_update_storage_summary (self);
}

static void
on_lesson_changed (LtViewerWindow *self)
{
  /* A view's colour or tensor, or the base: the badges may change. */
  update_selected_view (self);
  update_legend (self);
  lt_viewer_window_schedule_modified_check (self);
}

void
lt_viewer_window_remember_lesson (LtViewerWindow *self)
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
    lt_viewer_window_set_zoom (self, zoom);
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
void
lt_viewer_window_set_lesson (LtViewerWindow *self,
                             LtViewerLesson *lesson,
                             const char     *builtin,
                             GFile          *file)
{
  g_return_if_fail (LT_VIEWER_IS_WINDOW (self));
  g_return_if_fail (LT_VIEWER_IS_LESSON (lesson));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  lt_viewer_window_stop_playing (self);

  if (self->lesson != NULL)
    g_signal_handlers_disconnect_by_data (self->lesson, self);
  if (self->selected != NULL)
    g_signal_handlers_disconnect_by_data (self->selected, self);
  g_clear_object (&self->selected);
  lt_viewer_view_grid_set_view (self->view_grid, NULL);
  g_set_object (&self->lesson, lesson);
  lt_viewer_window_set_lesson_actions_enabled (self, TRUE);
  g_free (self->builtin);
  self->builtin = g_strdup (builtin);
  g_set_object (&self->file, file);

  g_signal_connect_object (lesson, "notify", G_CALLBACK (on_lesson_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (lesson, "changed", G_CALLBACK (on_lesson_changed), self,
                           G_CONNECT_SWAPPED);
  self->close_confirmed = FALSE;
  self->close_after_save = FALSE;
  lt_viewer_window_mark_saved (self);
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

  lt_viewer_window_update_title (self);
  update_notes (self);
  on_edit_toggled (self);
  lt_viewer_window_update_base_editor (self);

  /* The first view, unless the lesson says otherwise. */
  if (lt_viewer_lesson_get_selected (lesson) == NULL && lt_viewer_lesson_get_n_views (lesson) > 0)
    lt_viewer_lesson_set_selected (lesson, lt_viewer_lesson_get_view (lesson, 0));
  else
    watch_selected (self);

  lt_viewer_window_remember_lesson (self);
}

/* Window state */

static gboolean
lt_viewer_window_close_request (GtkWindow *window)
{
  LtViewerWindow *self = LT_VIEWER_WINDOW (window);

  if (!lt_viewer_window_may_close (self))
    return TRUE;

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
  G_OBJECT_CLASS (lt_viewer_window_parent_class)->constructed (object);

  lt_viewer_window_init_lessons_menu (LT_VIEWER_WINDOW (object));
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
  /* Disposing the panes may have queued it again. */
  lt_viewer_window_clear_layout (self);

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
  g_type_ensure (LT_VIEWER_TYPE_STORAGE_OVERVIEW);
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
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, storage_overview);
  gtk_widget_class_bind_template_child (widget_class, LtViewerWindow, grid_scroller);
  gtk_widget_class_bind_template_callback (widget_class, on_title_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_toggled);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_base_edited",
                                                G_CALLBACK (lt_viewer_window_on_base_edited));
  gtk_widget_class_bind_template_callback_full (widget_class, "on_contents_selected",
                                                G_CALLBACK (lt_viewer_window_on_contents_selected));
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_flat_dims_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_view_as_changed);
}

static void
lt_viewer_window_init (LtViewerWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

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
  lt_viewer_window_init_actions (self);
  g_signal_connect_object (gtk_text_view_get_buffer (self->notes_view), "changed",
                           G_CALLBACK (on_notes_buffer_changed), self, G_CONNECT_SWAPPED);
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
