/* lt-viewer-lesson.h: a lesson: a base tensor, the views over its storage, notes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libtensor.h>

#include "lt-viewer-view.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_LESSON (lt_viewer_lesson_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerLesson, lt_viewer_lesson, LT_VIEWER, LESSON, GObject)

/* How the base tensor's contents are made. */
typedef enum
{
  LT_VIEWER_CONTENTS_ARANGE,  /* 0, 1, 2, ... */
  LT_VIEWER_CONTENTS_ZEROS,
  LT_VIEWER_CONTENTS_RANDOM,  /* uniform in [0, 1) from the lesson's seed */
  LT_VIEWER_CONTENTS_LITERAL, /* a nested list literal; it also gives the shape */
} LtViewerContents;

/* At most this many views: each storage cell records its views as bits. */
#define LT_VIEWER_MAX_VIEWS 32

/* The lesson is a GListModel of LtViewerView (item type LT_VIEWER_TYPE_VIEW).
 *
 * Properties (all notify):
 *   title       string, read-write
 *   notes       string, read-write (the teacher's text, shown beside the drawing)
 *   base        LtTensor, read-only (the tensor `t` every expression starts from)
 *   dtype       LtDType, read-only; shape and contents: see the getters
 *   hover-cell  gint64, read-write: the storage cell under the pointer in either
 *               drawing, -1 for none (widgets set it; both drawings show it)
 *   selected    LtViewerView, read-write, nullable: the view the grid and the
 *               order stepper show
 *   cells-per-row  guint, read-write: storage cells per strip row, 0 for any
 *   zoom        double, read-write: the scale to draw at, 0 for any
 *   pytorch-only  gboolean, read-write: views evaluated as PyTorch would
 *
 * Signal "changed": emitted once after anything that alters the drawing
 * (base, a view's tensor or colour, views added, removed or moved), after
 * property notifications and items-changed. */

LtViewerLesson *lt_viewer_lesson_new               (void);

const char     *lt_viewer_lesson_get_title         (LtViewerLesson   *self);
void            lt_viewer_lesson_set_title         (LtViewerLesson   *self,
                                                    const char       *title);
const char     *lt_viewer_lesson_get_notes         (LtViewerLesson   *self);
void            lt_viewer_lesson_set_notes         (LtViewerLesson   *self,
                                                    const char       *notes);

/* The lesson's geometry: storage cells per row of the strip and the scale
 * it is drawn at; 0 leaves either to the reader (the app's settings, or a
 * figure's own choice). */
#define LT_VIEWER_LESSON_MAX_CELLS_PER_ROW 4096
#define LT_VIEWER_LESSON_MIN_ZOOM 0.25
#define LT_VIEWER_LESSON_MAX_ZOOM 4.0

guint           lt_viewer_lesson_get_cells_per_row (LtViewerLesson   *self);
void            lt_viewer_lesson_set_cells_per_row (LtViewerLesson   *self,
                                                    guint             cells_per_row);
double          lt_viewer_lesson_get_zoom          (LtViewerLesson   *self);
void            lt_viewer_lesson_set_zoom          (LtViewerLesson   *self,
                                                    double            zoom);

/* The reader's "PyTorch only": every view evaluated as PyTorch would. */
gboolean        lt_viewer_lesson_get_pytorch_only  (LtViewerLesson   *self);
void            lt_viewer_lesson_set_pytorch_only  (LtViewerLesson   *self,
                                                    gboolean          pytorch_only);

/* Replaces the base tensor. For LITERAL, @literal gives the values and the
 * shape (and @shape is ignored); otherwise @shape and @contents do, with
 * @seed for RANDOM. Every view is re-evaluated. On error nothing changes. */
gboolean        lt_viewer_lesson_set_base          (LtViewerLesson   *self,
                                                    LtDType           dtype,
                                                    const gint64     *shape,
                                                    guint             n_dims,
                                                    LtViewerContents  contents,
                                                    const char       *literal,
                                                    guint64           seed,
                                                    GError          **error);
/* Makes @tensor itself the base `t` (its storage is drawn); the contents
 * become a literal of its values. */
gboolean        lt_viewer_lesson_set_base_tensor   (LtViewerLesson   *self,
                                                    LtTensor         *tensor,
                                                    GError          **error);
LtTensor       *lt_viewer_lesson_get_base          (LtViewerLesson   *self);
LtDType         lt_viewer_lesson_get_dtype         (LtViewerLesson   *self);
const gint64   *lt_viewer_lesson_get_shape         (LtViewerLesson   *self,
                                                    guint            *n_dims);
LtViewerContents lt_viewer_lesson_get_contents     (LtViewerLesson   *self);
const char     *lt_viewer_lesson_get_literal       (LtViewerLesson   *self);
guint64         lt_viewer_lesson_get_seed          (LtViewerLesson   *self);

/* Views. add_view fails when the lesson already has LT_VIEWER_MAX_VIEWS or
 * the expression is invalid (nothing is added then). A NULL colour picks the
 * next one of a built-in palette that stays readable on light and dark. */
LtViewerView   *lt_viewer_lesson_add_view          (LtViewerLesson   *self,
                                                    const char       *name,
                                                    const char       *color,
                                                    const char       *expression,
                                                    GError          **error);
/* A view that is @tensor's layout over the base's storage (a script's own
 * tensor), as t.as_strided(...); a copy cannot be one. */
LtViewerView   *lt_viewer_lesson_add_tensor_view   (LtViewerLesson   *self,
                                                    const char       *name,
                                                    const char       *color,
                                                    LtTensor         *tensor,
                                                    GError          **error);
/* A view that is there to show an error: its expression must fail. */
LtViewerView   *lt_viewer_lesson_add_failing_view (LtViewerLesson *self,
                                                   const char     *name,
                                                   const char     *color,
                                                   const char     *expression,
                                                   GError        **error);
void            lt_viewer_lesson_remove_view       (LtViewerLesson   *self,
                                                    guint             position);
void            lt_viewer_lesson_move_view         (LtViewerLesson   *self,
                                                    guint             from,
                                                    guint             to);
LtViewerView   *lt_viewer_lesson_get_view          (LtViewerLesson   *self,
                                                    guint             position);
guint           lt_viewer_lesson_get_n_views       (LtViewerLesson   *self);

/* Per storage cell (index = storage index of the base's storage), bit i is
 * set when view i reaches the cell (cell_views) or reaches it more than once
 * (cell_aliases). Cached; recomputed after "changed". n_cells is the
 * storage's element count. */
const guint32  *lt_viewer_lesson_get_cell_views    (LtViewerLesson   *self,
                                                    gsize            *n_cells);
const guint32  *lt_viewer_lesson_get_cell_aliases  (LtViewerLesson   *self,
                                                    gsize            *n_cells);

gint64          lt_viewer_lesson_get_hover_cell    (LtViewerLesson   *self);
void            lt_viewer_lesson_set_hover_cell    (LtViewerLesson   *self,
                                                    gint64            cell);
LtViewerView   *lt_viewer_lesson_get_selected      (LtViewerLesson   *self);
void            lt_viewer_lesson_set_selected      (LtViewerLesson   *self,
                                                    LtViewerView     *view);

G_END_DECLS
