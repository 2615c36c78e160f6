/* lt-viewer-view-row.c: one view of a lesson in the views list
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <glib/gi18n.h>

#include "lt-viewer-resources.h"

#include "lt-viewer-view-row.h"

/* The spin buttons' ranges: a base tensor has at most 2^24 cells, so
 * nothing larger can be a valid size, stride or offset. */
#define MAX_EXTENT 16777216.0

struct _LtViewerViewRow
{
  GtkListBoxRow parent_instance;

  LtViewerLesson *lesson;
  LtViewerView *view;

  /* Template children */
  GtkColorButton *color_button;
  GtkEntry *name_entry;
  GtkEntry *expression_entry;
  GtkLabel *error_label;
  GtkGrid *layout_grid;
  GtkLabel *copy_label;

  /* One size and one stride spin button per dim, then the offset's. */
  GPtrArray *size_spins;
  GPtrArray *stride_spins;
  GtkSpinButton *offset_spin;

  /* Why the last edit of the spin buttons failed; cleared by the next
   * change of the view's tensor. */
  char *layout_error;

  /* Set while the widgets are filled from the view, so that their change
   * signals do not write back. */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (LtViewerViewRow, lt_viewer_view_row, GTK_TYPE_LIST_BOX_ROW)

enum
{
  PROP_0,
  PROP_LESSON,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The error text under the expression: the expression's, or else the
 * layout's. The library's message says what to do (use reshape(), ...). */
static void
update_error (LtViewerViewRow *self)
{
  const char *error = lt_viewer_view_get_error (self->view);

  if (error == NULL)
    error = self->layout_error;

  gtk_label_set_text (self->error_label, error != NULL ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);

  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->expression_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->expression_entry), "error");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->expression_entry),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  error != NULL ? error : "", -1);
}

static void
update_name (LtViewerViewRow *self)
{
  const char *name = lt_viewer_view_get_name (self->view);
  g_autofree char *label = g_strdup_printf (_("View %s"), name);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->name_entry)), name) != 0)
    {
      self->updating = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->name_entry), name);
      self->updating = FALSE;
    }
}

static void
update_expression (LtViewerViewRow *self)
{
  const char *expression = lt_viewer_view_get_expression (self->view);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->expression_entry)), expression) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->expression_entry), expression);
}

static void
update_color (LtViewerViewRow *self)
{
  GdkRGBA color, shown;

  if (!gdk_rgba_parse (&color, lt_viewer_view_get_color (self->view)))
    return;

  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (self->color_button), &shown);
  if (!gdk_rgba_equal (&color, &shown))
    {
      self->updating = TRUE;
      gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (self->color_button), &color);
      self->updating = FALSE;
    }
}

/* The layout table */

static void on_layout_value_changed (LtViewerViewRow *self);

/* The wheel over a spin button changes its value only while it has the
 * focus; otherwise it scrolls the sidebar, as the pointer passing over a
 * spin button on the way down must not edit a view. */
static gboolean
on_spin_scroll (GtkEventControllerScroll *controller,
                double                    dx,
                double                    dy,
                gpointer                  data)
{
  GtkWidget *spin = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkRoot *root = gtk_widget_get_root (spin);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *scrolled;

  if (focus != NULL && (focus == spin || gtk_widget_is_ancestor (focus, spin)))
    return FALSE;

  scrolled = gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL)
    {
      GtkAdjustment *adjustment =
        gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      double step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
                      ? MAX (gtk_adjustment_get_page_size (adjustment) / 8, 20) : 1;

      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy * step);
    }
  return TRUE;
}

static GtkSpinButton *
add_spin (LtViewerViewRow *self,
          double           lower,
          double           upper,
          int              column,
          int              row,
          const char      *accessible_label)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, 1);
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 3);
  gtk_widget_set_hexpand (spin, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible_label, -1);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_spin_scroll), NULL);
  gtk_widget_add_controller (spin, scroll);
  g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (on_layout_value_changed), self);
  gtk_grid_attach (self->layout_grid, spin, column, row, 1, 1);
  return GTK_SPIN_BUTTON (spin);
}

static GtkWidget *
add_label (LtViewerViewRow *self,
           const char      *text,
           int              column,
           int              row,
           const char      *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.0f : 0.5f);
  gtk_widget_add_css_class (label, css_class);
  gtk_grid_attach (self->layout_grid, label, column, row, 1, 1);
  return label;
}

static void
clear_layout_grid (LtViewerViewRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->layout_grid))) != NULL)
    gtk_grid_remove (self->layout_grid, child);
  g_ptr_array_set_size (self->size_spins, 0);
  g_ptr_array_set_size (self->stride_spins, 0);
  self->offset_spin = NULL;
}

/* One line per dim with its size and stride, then the offset: as many
 * lines as the tensor has dims, however many that is. */
static void
build_layout_grid (LtViewerViewRow *self,
                   guint            ndim)
{
  int row = 0;

  clear_layout_grid (self);

  if (ndim > 0)
    {
      add_label (self, C_("layout table", "size"), 1, row, "dim-label");
      add_label (self, C_("layout table", "stride"), 2, row, "dim-label");
      row++;
    }

  for (guint d = 0; d < ndim; d++, row++)
    {
      g_autofree char *dim = g_strdup_printf (_("dim %u"), d);
      g_autofree char *size_label = g_strdup_printf (_("Size of dim %u"), d);
      g_autofree char *stride_label = g_strdup_printf (_("Stride of dim %u"), d);

      add_label (self, dim, 0, row, "caption");
      g_ptr_array_add (self->size_spins, add_spin (self, 0, MAX_EXTENT, 1, row, size_label));
      g_ptr_array_add (self->stride_spins,
                       add_spin (self, -MAX_EXTENT, MAX_EXTENT, 2, row, stride_label));
    }

  add_label (self, _("offset"), 0, row, "caption");
  self->offset_spin = add_spin (self, 0, MAX_EXTENT - 1, 1, row, _("Storage offset"));
}

static void
update_layout (LtViewerViewRow *self)
{
  LtTensor *tensor = lt_viewer_view_get_tensor (self->view);
  LtTensor *base = lt_viewer_lesson_get_base (self->lesson);
  const gint64 *sizes, *strides;
  guint ndim;
  gboolean copy;

  gtk_widget_set_visible (GTK_WIDGET (self->layout_grid), tensor != NULL);
  if (tensor == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->copy_label), FALSE);
      return;
    }

  sizes = lt_tensor_get_sizes (tensor, &ndim);
  strides = lt_tensor_get_strides (tensor, &ndim);
  if (self->offset_spin == NULL || self->size_spins->len != ndim)
    build_layout_grid (self, ndim);

  self->updating = TRUE;
  for (guint d = 0; d < ndim; d++)
    {
      gtk_spin_button_set_value (g_ptr_array_index (self->size_spins, d), sizes[d]);
      gtk_spin_button_set_value (g_ptr_array_index (self->stride_spins, d), strides[d]);
    }
  gtk_spin_button_set_value (self->offset_spin, lt_tensor_get_storage_offset (tensor));
  self->updating = FALSE;

  /* A copy's layout is over a storage of its own: editing it as
   * as_strided over t's storage would make it another view altogether. */
  copy = base != NULL && lt_tensor_get_storage (tensor) != lt_tensor_get_storage (base);
  gtk_widget_set_visible (GTK_WIDGET (self->copy_label), copy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->layout_grid), !copy);
}

/* Editing the spin buttons turns the view into t.as_strided(sizes,
 * strides, offset); when that reaches outside the storage, the error shows
 * and the view keeps its tensor. */
static void
on_layout_value_changed (LtViewerViewRow *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree gint64 *sizes = NULL;
  g_autofree gint64 *strides = NULL;
  guint ndim;

  if (self->updating)
    return;

  ndim = self->size_spins->len;
  sizes = g_new0 (gint64, MAX (ndim, 1));
  strides = g_new0 (gint64, MAX (ndim, 1));
  for (guint d = 0; d < ndim; d++)
    {
      sizes[d] = gtk_spin_button_get_value_as_int (g_ptr_array_index (self->size_spins, d));
      strides[d] = gtk_spin_button_get_value_as_int (g_ptr_array_index (self->stride_spins, d));
    }

  g_clear_pointer (&self->layout_error, g_free);
  if (!lt_viewer_view_set_layout (self->view, sizes, strides, ndim,
                                  gtk_spin_button_get_value_as_int (self->offset_spin), &error))
    self->layout_error = g_strdup (error->message);
  update_error (self);
}

/* Signals from the view and the widgets */

static void
on_view_notify (LtViewerViewRow *self,
                GParamSpec      *pspec,
                LtViewerView    *view)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "name"))
    update_name (self);
  else if (g_str_equal (name, "color"))
    update_color (self);
  else if (g_str_equal (name, "expression"))
    update_expression (self);
  else if (g_str_equal (name, "error"))
    update_error (self);
  else if (g_str_equal (name, "tensor"))
    {
      g_clear_pointer (&self->layout_error, g_free);
      update_layout (self);
      update_error (self);
    }
}

static void
on_base_notify (LtViewerViewRow *self)
{
  update_layout (self);
}

static void
on_name_changed (LtViewerViewRow *self)
{
  if (self->updating || self->view == NULL)
    return;
  lt_viewer_view_set_name (self->view, gtk_editable_get_text (GTK_EDITABLE (self->name_entry)));
}

static void
on_expression_activate (LtViewerViewRow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->expression_entry));

  /* The error, if any, comes back through the view's :error. */
  g_clear_pointer (&self->layout_error, g_free);
  lt_viewer_view_set_expression (self->view, text, NULL);
  update_error (self);
}

static void
on_color_notify (LtViewerViewRow *self)
{
  GdkRGBA rgba;
  g_autofree char *color = NULL;

  if (self->updating)
    return;

  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (self->color_button), &rgba);
  color = g_strdup_printf ("#%02x%02x%02x",
                           (guint) (CLAMP (rgba.red, 0.0f, 1.0f) * 255.0f + 0.5f),
                           (guint) (CLAMP (rgba.green, 0.0f, 1.0f) * 255.0f + 0.5f),
                           (guint) (CLAMP (rgba.blue, 0.0f, 1.0f) * 255.0f + 0.5f));
  lt_viewer_view_set_color (self->view, color);
}

/* Working in a row shows its view: the row is selected when the focus
 * enters it, as when it is clicked. */
static void
on_focus_enter (LtViewerViewRow *self)
{
  GtkWidget *list = gtk_widget_get_parent (GTK_WIDGET (self));

  if (GTK_IS_LIST_BOX (list) && !gtk_list_box_row_is_selected (GTK_LIST_BOX_ROW (self)))
    gtk_list_box_select_row (GTK_LIST_BOX (list), GTK_LIST_BOX_ROW (self));
}

static void
remove_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (widget);
  guint n = lt_viewer_lesson_get_n_views (self->lesson);

  for (guint i = 0; i < n; i++)
    if (lt_viewer_lesson_get_view (self->lesson, i) == self->view)
      {
        /* The list drops this row: keep it alive until the action is done. */
        g_autoptr (LtViewerViewRow) hold = g_object_ref (self);

        lt_viewer_lesson_remove_view (hold->lesson, i);
        return;
      }
}

/* GObject */

static void
lt_viewer_view_row_constructed (GObject *object)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (object);

  G_OBJECT_CLASS (lt_viewer_view_row_parent_class)->constructed (object);

  g_return_if_fail (self->lesson != NULL && self->view != NULL);

  g_signal_connect_object (self->view, "notify", G_CALLBACK (on_view_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lesson, "notify::base", G_CALLBACK (on_base_notify), self,
                           G_CONNECT_SWAPPED);

  update_name (self);
  update_color (self);
  update_expression (self);
  update_layout (self);
  update_error (self);
}

static void
lt_viewer_view_row_dispose (GObject *object)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  if (self->lesson != NULL)
    g_signal_handlers_disconnect_by_data (self->lesson, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LT_VIEWER_TYPE_VIEW_ROW);
  g_clear_object (&self->view);
  g_clear_object (&self->lesson);

  G_OBJECT_CLASS (lt_viewer_view_row_parent_class)->dispose (object);
}

static void
lt_viewer_view_row_finalize (GObject *object)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (object);

  g_clear_pointer (&self->size_spins, g_ptr_array_unref);
  g_clear_pointer (&self->stride_spins, g_ptr_array_unref);
  g_clear_pointer (&self->layout_error, g_free);

  G_OBJECT_CLASS (lt_viewer_view_row_parent_class)->finalize (object);
}

static void
lt_viewer_view_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      g_value_set_object (value, self->lesson);
      break;

    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  LtViewerViewRow *self = LT_VIEWER_VIEW_ROW (object);

  switch (prop_id)
    {
    case PROP_LESSON:
      self->lesson = g_value_dup_object (value);
      break;

    case PROP_VIEW:
      self->view = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_row_class_init (LtViewerViewRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = lt_viewer_view_row_constructed;
  object_class->dispose = lt_viewer_view_row_dispose;
  object_class->finalize = lt_viewer_view_row_finalize;
  object_class->get_property = lt_viewer_view_row_get_property;
  object_class->set_property = lt_viewer_view_row_set_property;

  /**
   * LtViewerViewRow:lesson:
   *
   * The lesson the view belongs to.
   */
  properties[PROP_LESSON] =
    g_param_spec_object ("lesson", NULL, NULL, LT_VIEWER_TYPE_LESSON,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerViewRow:view:
   *
   * The view the row shows and edits.
   */
  properties[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL, LT_VIEWER_TYPE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The resources are compiled into this static library: referring to them
   * links them in, and their constructor registers them (the templates, the
   * style sheet, the shortcuts window and the icons). */
  (void) lt_viewer_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/libtensor/TensorViewer/lt-viewer-view-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, color_button);
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, expression_entry);
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, layout_grid);
  gtk_widget_class_bind_template_child (widget_class, LtViewerViewRow, copy_label);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_expression_activate);

  gtk_widget_class_install_action (widget_class, "row.remove", NULL, remove_activated);
}

static void
lt_viewer_view_row_init (LtViewerViewRow *self)
{
  GtkEventController *focus;

  self->size_spins = g_ptr_array_new ();
  self->stride_spins = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect_swapped (self->color_button, "notify::rgba", G_CALLBACK (on_color_notify),
                            self);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (on_focus_enter), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
}

/**
 * lt_viewer_view_row_new:
 * @lesson: the lesson @view belongs to
 * @view: the view
 *
 * Creates a row that shows and edits @view.
 *
 * Returns: (transfer floating): the row
 */
GtkWidget *
lt_viewer_view_row_new (LtViewerLesson *lesson,
                        LtViewerView   *view)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (lesson), NULL);
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (view), NULL);

  return g_object_new (LT_VIEWER_TYPE_VIEW_ROW, "lesson", lesson, "view", view, NULL);
}

/**
 * lt_viewer_view_row_get_view:
 * @self: a #LtViewerViewRow
 *
 * Returns: (transfer none): the view the row shows
 */
LtViewerView *
lt_viewer_view_row_get_view (LtViewerViewRow *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW_ROW (self), NULL);

  return self->view;
}

/**
 * lt_viewer_view_row_focus_expression:
 * @self: a #LtViewerViewRow
 *
 * Moves the focus to the expression entry and selects its text.
 */
void
lt_viewer_view_row_focus_expression (LtViewerViewRow *self)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW_ROW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->expression_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->expression_entry), 0, -1);
}
