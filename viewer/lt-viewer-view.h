/* lt-viewer-view.h: one view of a lesson's storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libtensor.h>

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_VIEW (lt_viewer_view_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerView, lt_viewer_view, LT_VIEWER, VIEW, GObject)

/* A named, coloured expression over the lesson's base tensor, with the tensor
 * it evaluates to. Setting an expression that fails keeps the previous tensor
 * (the last valid state stays drawn) and sets :error to the library's message;
 * a valid one clears :error. The view knows nothing of widgets: its colour is
 * a "#rrggbb" string.
 *
 * Properties (all notify):
 *   name        string, read-write
 *   color       string "#rrggbb", read-write
 *   expression  string, read-write; setting it evaluates it
 *   tensor      LtTensor, read-only; NULL until an expression has been valid
 *   error       string, read-only; NULL when the expression is valid
 *   cursor      gint64, read-write: the element (row-major index) the order
 *               stepper is on, -1 for none
 *   expect-error  gboolean, read-write: the lesson shows the view's error
 *   probe       string, read-write: the shape to try view() with
 *   pytorch-only  gboolean, read-write: evaluate as PyTorch would
 *
 * Signal "changed": emitted once after any change that alters what is drawn
 * (tensor, colour, cursor), after the property notifications. */

LtViewerView  *lt_viewer_view_new                 (const char   *name,
                                                   const char   *color,
                                                   LtTensor     *base,
                                                   const char   *expression);

const char    *lt_viewer_view_get_name            (LtViewerView *self);
void           lt_viewer_view_set_name            (LtViewerView *self,
                                                   const char   *name);
const char    *lt_viewer_view_get_color           (LtViewerView *self);
void           lt_viewer_view_set_color           (LtViewerView *self,
                                                   const char   *color);
const char    *lt_viewer_view_get_expression      (LtViewerView *self);
gboolean       lt_viewer_view_set_expression      (LtViewerView *self,
                                                   const char   *expression,
                                                   GError      **error);
/* Re-evaluates the expression over a new base tensor (when the lesson's
 * base changes). */
void           lt_viewer_view_set_base            (LtViewerView *self,
                                                   LtTensor     *base);
LtTensor      *lt_viewer_view_get_tensor          (LtViewerView *self);
const char    *lt_viewer_view_get_error           (LtViewerView *self);

/* Replaces the expression by t.as_strided(sizes, strides, offset), as when
 * the user edits the spin buttons. Fails (keeping everything) when the
 * layout reaches outside the storage. */
gboolean       lt_viewer_view_set_layout          (LtViewerView *self,
                                                   const gint64 *sizes,
                                                   const gint64 *strides,
                                                   guint         n_dims,
                                                   gint64        offset,
                                                   GError      **error);

/* The storage index of every element, row-major (cached; n is the element
 * count; NULL when there is no tensor or it is empty). */
const gint64  *lt_viewer_view_get_storage_indices (LtViewerView *self,
                                                   gsize        *n_indices);
/* The storage index of the element with row-major index @element. */
gint64         lt_viewer_view_get_storage_index   (LtViewerView *self,
                                                   gint64        element);
/* The address formula of element @element, filled in:
 * "2 + 2*1 + 1*0 = 4" (offset, then stride*index per dim, then the result). */
char          *lt_viewer_view_format_address      (LtViewerView *self,
                                                   gint64        element);
/* The row-major indices of the elements that land on storage cell @cell, in
 * increasing order (several when the view aliases itself). */
GArray        *lt_viewer_view_find_elements       (LtViewerView *self,
                                                   gint64        cell);

/* How many elements land on storage cell @cell, and the row-major index of
 * the first (-1 for none): a lookup. */
guint          lt_viewer_view_count_elements      (LtViewerView *self,
                                                   gint64        cell,
                                                   gint64       *out_first);
/* Badges, in words, for the teacher to read out. */
gboolean       lt_viewer_view_explain_contiguity  (LtViewerView *self,
                                                   char        **reason);
gboolean       lt_viewer_view_explain_aliasing    (LtViewerView *self,
                                                   char        **reason);
gboolean       lt_viewer_view_explain_pytorch     (LtViewerView *self,
                                                   char        **reason);
gboolean       lt_viewer_view_explain_view_as     (LtViewerView *self,
                                                   const gint64 *shape,
                                                   guint         n_dims,
                                                   char        **reason);

/* Whether the lesson keeps the view to show an error; and the shape the
 * view() badge tries ("" for -1), as typed. */
gboolean       lt_viewer_view_get_expect_error    (LtViewerView *self);
void           lt_viewer_view_set_expect_error    (LtViewerView *self,
                                                   gboolean      expect_error);
const char    *lt_viewer_view_get_probe           (LtViewerView *self);
void           lt_viewer_view_set_probe           (LtViewerView *self,
                                                   const char   *probe);
/* The reader's preference "PyTorch only": evaluate as PyTorch would
 * (negative steps and strides refused, flip() copying). Setting it
 * evaluates the expression again. */
gboolean       lt_viewer_view_get_pytorch_only    (LtViewerView *self);
void           lt_viewer_view_set_pytorch_only    (LtViewerView *self,
                                                   gboolean      pytorch_only);
gint64         lt_viewer_view_get_cursor          (LtViewerView *self);
void           lt_viewer_view_set_cursor          (LtViewerView *self,
                                                   gint64        cursor);

G_END_DECLS
