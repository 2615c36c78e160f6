/* lt-viewer-window-base.c: the base tensor's editor in Tensor Viewer's window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <glib/gi18n.h>

#include "lt-viewer-window-private.h"

void
lt_viewer_window_update_storage_summary (LtViewerWindow *self)
{
  LtTensor *base = lt_viewer_lesson_get_base (self->lesson);
  gint64 n = base != NULL ? lt_storage_get_n_elements (lt_tensor_get_storage (base)) : 0;
  g_autofree char *count = lt_viewer_window_format_int (n);
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

void
lt_viewer_window_update_base_editor (LtViewerWindow *self)
{
  LtTensor *base = lt_viewer_lesson_get_base (self->lesson);
  const char *literal = lt_viewer_lesson_get_literal (self->lesson);
  g_autofree char *shape = NULL;
  const gint64 *sizes;
  guint ndim;

  sizes = lt_viewer_lesson_get_shape (self->lesson, &ndim);
  if (base != NULL)
    sizes = lt_tensor_get_sizes (base, &ndim);
  shape = lt_viewer_window_format_tuple (sizes, ndim);
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
  lt_viewer_window_update_storage_summary (self);
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

void
lt_viewer_window_on_base_edited (LtViewerWindow *self)
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
    lt_viewer_window_update_base_editor (self);
}

void
lt_viewer_window_on_contents_selected (LtViewerWindow *self)
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
  lt_viewer_window_on_base_edited (self);
}
