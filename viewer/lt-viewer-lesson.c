/* lt-viewer-lesson.c: a lesson: a base tensor, the views over its storage, notes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-format.h"
#include "lt-viewer-lesson.h"
#include "lt-viewer-palette.h"

/* The most storage cells a base tensor may have: each gets two 32-bit masks
 * and is drawn. */
#define MAX_CELLS (G_GINT64_CONSTANT (1) << 24)

struct _LtViewerLesson
{
  GObject parent_instance;

  char *title;
  char *notes;
  guint cells_per_row;  /* 0: as the reader likes */
  double zoom;          /* 0: as the reader likes */
  gboolean pytorch_only;  /* the reader's: every view evaluated as PyTorch would */

  LtDType dtype;
  gint64 shape[LT_MAX_DIMS];
  guint n_dims;
  LtViewerContents contents;
  char *literal;
  guint64 seed;
  LtTensor *base;

  GPtrArray *views;
  LtViewerView *selected;
  gint64 hover_cell;

  /* Per storage cell, one bit per view; valid until a view's tensor, the
   * views or the base change. */
  guint32 *cell_views;
  guint32 *cell_aliases;
  gsize n_cells;
  gboolean masks_valid;

  /* While set_base() re-evaluates every view, their changes are gathered
   * into one ::changed. */
  guint batch;
  gboolean pending_change;
};

static void lt_viewer_lesson_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LtViewerLesson, lt_viewer_lesson, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      lt_viewer_lesson_list_model_init))

enum
{
  PROP_0,
  PROP_TITLE,
  PROP_NOTES,
  PROP_BASE,
  PROP_DTYPE,
  PROP_HOVER_CELL,
  PROP_SELECTED,
  PROP_CELLS_PER_ROW,
  PROP_ZOOM,
  PROP_PYTORCH_ONLY,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static GType
lt_viewer_lesson_get_item_type (GListModel *model)
{
  return LT_VIEWER_TYPE_VIEW;
}

static guint
lt_viewer_lesson_get_n_items (GListModel *model)
{
  return LT_VIEWER_LESSON (model)->views->len;
}

static gpointer
lt_viewer_lesson_get_item (GListModel *model,
                           guint       position)
{
  LtViewerLesson *self = LT_VIEWER_LESSON (model);

  if (position >= self->views->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->views, position));
}

static void
lt_viewer_lesson_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = lt_viewer_lesson_get_item_type;
  iface->get_n_items = lt_viewer_lesson_get_n_items;
  iface->get_item = lt_viewer_lesson_get_item;
}

/* Emits ::changed now, or at the end of the batch. */
static void
emit_changed (LtViewerLesson *self)
{
  if (self->batch > 0)
    {
      self->pending_change = TRUE;
      return;
    }
  self->pending_change = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_view_tensor (LtViewerView   *view,
                GParamSpec     *pspec,
                LtViewerLesson *self)
{
  self->masks_valid = FALSE;
  self->pending_change = TRUE;
}

static void
on_view_color (LtViewerView   *view,
               GParamSpec     *pspec,
               LtViewerLesson *self)
{
  self->pending_change = TRUE;
}

/* A view emits ::changed after its notifications, which said whether the
 * drawing of the lesson changed (a cursor move alone does not). */
static void
on_view_changed (LtViewerView   *view,
                 LtViewerLesson *self)
{
  if (self->pending_change && self->batch == 0)
    emit_changed (self);
}

static void
watch_view (LtViewerLesson *self,
            LtViewerView   *view)
{
  g_signal_connect (view, "notify::tensor", G_CALLBACK (on_view_tensor), self);
  g_signal_connect (view, "notify::color", G_CALLBACK (on_view_color), self);
  g_signal_connect (view, "changed", G_CALLBACK (on_view_changed), self);
}

static void
unwatch_view (gpointer view,
              gpointer self)
{
  g_signal_handlers_disconnect_by_data (view, self);
}

static void
lt_viewer_lesson_dispose (GObject *object)
{
  LtViewerLesson *self = LT_VIEWER_LESSON (object);

  if (self->views != NULL)
    {
      g_ptr_array_foreach (self->views, unwatch_view, self);
      g_ptr_array_set_size (self->views, 0);
    }
  self->selected = NULL;
  g_clear_object (&self->base);

  G_OBJECT_CLASS (lt_viewer_lesson_parent_class)->dispose (object);
}

static void
lt_viewer_lesson_finalize (GObject *object)
{
  LtViewerLesson *self = LT_VIEWER_LESSON (object);

  g_clear_pointer (&self->views, g_ptr_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->notes, g_free);
  g_clear_pointer (&self->literal, g_free);
  g_clear_pointer (&self->cell_views, g_free);
  g_clear_pointer (&self->cell_aliases, g_free);

  G_OBJECT_CLASS (lt_viewer_lesson_parent_class)->finalize (object);
}

static void
lt_viewer_lesson_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LtViewerLesson *self = LT_VIEWER_LESSON (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_NOTES:
      g_value_set_string (value, self->notes);
      break;
    case PROP_BASE:
      g_value_set_object (value, self->base);
      break;
    case PROP_DTYPE:
      g_value_set_enum (value, self->dtype);
      break;
    case PROP_HOVER_CELL:
      g_value_set_int64 (value, self->hover_cell);
      break;
    case PROP_SELECTED:
      g_value_set_object (value, self->selected);
      break;
    case PROP_CELLS_PER_ROW:
      g_value_set_uint (value, self->cells_per_row);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_PYTORCH_ONLY:
      g_value_set_boolean (value, self->pytorch_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_lesson_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  LtViewerLesson *self = LT_VIEWER_LESSON (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      lt_viewer_lesson_set_title (self, g_value_get_string (value));
      break;
    case PROP_NOTES:
      lt_viewer_lesson_set_notes (self, g_value_get_string (value));
      break;
    case PROP_HOVER_CELL:
      lt_viewer_lesson_set_hover_cell (self, g_value_get_int64 (value));
      break;
    case PROP_SELECTED:
      lt_viewer_lesson_set_selected (self, g_value_get_object (value));
      break;
    case PROP_CELLS_PER_ROW:
      lt_viewer_lesson_set_cells_per_row (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      lt_viewer_lesson_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_PYTORCH_ONLY:
      lt_viewer_lesson_set_pytorch_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_lesson_class_init (LtViewerLessonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lt_viewer_lesson_dispose;
  object_class->finalize = lt_viewer_lesson_finalize;
  object_class->get_property = lt_viewer_lesson_get_property;
  object_class->set_property = lt_viewer_lesson_set_property;

  /**
   * LtViewerLesson:title:
   *
   * The lesson's title.
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:notes:
   *
   * The teacher's text, shown beside the drawing.
   */
  properties[PROP_NOTES] =
    g_param_spec_string ("notes", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:base:
   *
   * The tensor `t` every view's expression starts from.
   */
  properties[PROP_BASE] =
    g_param_spec_object ("base", NULL, NULL, LT_TYPE_TENSOR,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:dtype:
   *
   * The dtype of the base tensor.
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, LT_TYPE_DTYPE, LT_DTYPE_FLOAT32,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:hover-cell:
   *
   * The storage cell under the pointer in either drawing, or -1.
   */
  properties[PROP_HOVER_CELL] =
    g_param_spec_int64 ("hover-cell", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:selected:
   *
   * The view the grid and the order stepper show, or %NULL.
   */
  properties[PROP_SELECTED] =
    g_param_spec_object ("selected", NULL, NULL, LT_VIEWER_TYPE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:cells-per-row:
   *
   * How many storage cells a row of the strip holds, for the lesson's
   * geometry (4 for a 4×4 diagonal), from 1 to
   * %LT_VIEWER_LESSON_MAX_CELLS_PER_ROW; 0 leaves it to the reader.
   */
  properties[PROP_CELLS_PER_ROW] =
    g_param_spec_uint ("cells-per-row", NULL, NULL, 0, LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:zoom:
   *
   * The scale the lesson is drawn at, from %LT_VIEWER_LESSON_MIN_ZOOM to
   * %LT_VIEWER_LESSON_MAX_ZOOM; 0 leaves it to the reader.
   */
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, LT_VIEWER_LESSON_MAX_ZOOM, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerLesson:pytorch-only:
   *
   * Whether every view is evaluated as PyTorch would: what PyTorch refuses
   * (negative steps and strides) fails with PyTorch's message, and flip()
   * copies. The reader's preference, not part of the lesson's file.
   */
  properties[PROP_PYTORCH_ONLY] =
    g_param_spec_boolean ("pytorch-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LtViewerLesson::changed:
   *
   * Emitted once after anything that alters the drawing: the base, a view's
   * tensor or colour, views added, removed or moved. It comes after the
   * property notifications and ::items-changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

/* Checks a shape for a base tensor and counts its cells. */
static gboolean
check_shape (const gint64 *shape,
             guint         n_dims,
             GError      **error)
{
  gint64 numel = 1;
  g_autoptr (GString) text = g_string_new ("(");

  for (guint d = 0; d < MIN (n_dims, LT_MAX_DIMS); d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", shape[d]);
  g_string_append (text, n_dims == 1 ? ",)" : ")");

  if (n_dims > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("the shape has %u dims, more than the %d a tensor can have"), n_dims,
                   LT_MAX_DIMS);
      return FALSE;
    }
  for (guint d = 0; d < n_dims; d++)
    {
      if (shape[d] < 0)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("the shape %s has a negative size; sizes are 0 or more"), text->str);
          return FALSE;
        }
      if (numel != 0 && shape[d] > MAX_CELLS)
        numel = MAX_CELLS + 1;
      else
        numel = MIN (numel * shape[d], MAX_CELLS + 1);
    }
  if (numel > MAX_CELLS)
    {
      g_autofree char *limit = g_strdup_printf ("%" G_GINT64_FORMAT, MAX_CELLS);

      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("the shape %s has more than %s elements, more than Tensor Viewer draws"),
                   text->str, limit);
      return FALSE;
    }
  return TRUE;
}

static LtTensor *
new_arange (LtDType       dtype,
            const gint64 *shape,
            guint         n_dims,
            GError      **error)
{
  g_autoptr (LtTensor) flat = NULL;
  gint64 numel = 1;

  for (guint d = 0; d < n_dims; d++)
    numel *= shape[d];

  /* arange() has no bool or complex form; count in float64 and convert. */
  if (dtype == LT_DTYPE_BOOL || lt_dtype_is_complex (dtype))
    {
      g_autoptr (LtTensor) counted = lt_tensor_new_arange (0, (double) numel, 1,
                                                           LT_DTYPE_FLOAT64, error);
      if (counted == NULL)
        return NULL;
      flat = lt_tensor_to_dtype (counted, dtype, error);
    }
  else
    flat = lt_tensor_new_arange (0, (double) numel, 1, dtype, error);
  if (flat == NULL)
    return NULL;
  return lt_tensor_view (flat, shape, n_dims, error);
}

static LtTensor *
new_base (LtDType           dtype,
          const gint64     *shape,
          guint             n_dims,
          LtViewerContents  contents,
          const char       *literal,
          guint64           seed,
          GError          **error)
{
  g_autoptr (LtTensor) base = NULL;

  if (!lt_dtype_is_valid (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE, _("%d is not a dtype"), (int) dtype);
      return NULL;
    }

  if (contents == LT_VIEWER_CONTENTS_LITERAL)
    {
      if (literal == NULL)
        {
          g_set_error_literal (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                               _("literal contents need a literal, such as [[4.0, 1.0], "
                                 "[5.0, 3.0]]"));
          return NULL;
        }
      base = lt_tensor_new_from_literal_with_dtype (literal, dtype, error);
      if (base == NULL)
        return NULL;
      shape = lt_tensor_get_sizes (base, &n_dims);
      if (!check_shape (shape, n_dims, error))
        return NULL;
      return g_steal_pointer (&base);
    }

  g_return_val_if_fail (shape != NULL || n_dims == 0, NULL);
  if (!check_shape (shape, n_dims, error))
    return NULL;

  switch (contents)
    {
    case LT_VIEWER_CONTENTS_ARANGE:
      return new_arange (dtype, shape, n_dims, error);
    case LT_VIEWER_CONTENTS_ZEROS:
      return lt_tensor_new_zeros (dtype, shape, n_dims, error);
    case LT_VIEWER_CONTENTS_RANDOM:
      {
        g_autoptr (LtGenerator) generator = lt_generator_new (seed);
        return lt_tensor_new_rand (generator, dtype, shape, n_dims, error);
      }
    case LT_VIEWER_CONTENTS_LITERAL:
    default:
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%d is not a kind of contents"), (int) contents);
      return NULL;
    }
}

static void
lt_viewer_lesson_init (LtViewerLesson *self)
{
  static const gint64 default_shape[] = { 3, 4 };

  self->title = g_strdup ("");
  self->notes = g_strdup ("");
  self->views = g_ptr_array_new_with_free_func (g_object_unref);
  self->hover_cell = -1;

  self->dtype = LT_DTYPE_FLOAT32;
  self->contents = LT_VIEWER_CONTENTS_ARANGE;
  self->n_dims = G_N_ELEMENTS (default_shape);
  memcpy (self->shape, default_shape, sizeof default_shape);
  self->base = new_base (self->dtype, self->shape, self->n_dims, self->contents, NULL, 0, NULL);
  g_assert (self->base != NULL);
}

/**
 * lt_viewer_lesson_new:
 *
 * A lesson without views over `arange(12).view(3, 4)` in float32.
 *
 * Returns: (transfer full): the lesson
 */
LtViewerLesson *
lt_viewer_lesson_new (void)
{
  return g_object_new (LT_VIEWER_TYPE_LESSON, NULL);
}

/**
 * lt_viewer_lesson_get_title:
 * @self: a #LtViewerLesson
 *
 * Returns: the title
 */
const char *
lt_viewer_lesson_get_title (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  return self->title;
}

/**
 * lt_viewer_lesson_set_title:
 * @self: a #LtViewerLesson
 * @title: (nullable): the title
 *
 * Sets the title.
 */
void
lt_viewer_lesson_set_title (LtViewerLesson *self,
                            const char     *title)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));

  if (title == NULL)
    title = "";
  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/**
 * lt_viewer_lesson_get_notes:
 * @self: a #LtViewerLesson
 *
 * Returns: the teacher's notes
 */
const char *
lt_viewer_lesson_get_notes (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  return self->notes;
}

/**
 * lt_viewer_lesson_set_notes:
 * @self: a #LtViewerLesson
 * @notes: (nullable): the notes
 *
 * Sets the teacher's notes.
 */
void
lt_viewer_lesson_set_notes (LtViewerLesson *self,
                            const char     *notes)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));

  if (notes == NULL)
    notes = "";
  if (g_strcmp0 (self->notes, notes) == 0)
    return;
  g_free (self->notes);
  self->notes = g_strdup (notes);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
}

/**
 * lt_viewer_lesson_get_cells_per_row:
 * @self: a #LtViewerLesson
 *
 * Returns: the storage cells per row the lesson asks for, 0 for none
 */
guint
lt_viewer_lesson_get_cells_per_row (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), 0);

  return self->cells_per_row;
}

/**
 * lt_viewer_lesson_set_cells_per_row:
 * @self: a #LtViewerLesson
 * @cells_per_row: from 1 to %LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, or 0 to
 *   leave it to the reader
 *
 * Sets how many storage cells a row of the strip holds in this lesson.
 */
void
lt_viewer_lesson_set_cells_per_row (LtViewerLesson *self,
                                    guint           cells_per_row)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));
  g_return_if_fail (cells_per_row <= LT_VIEWER_LESSON_MAX_CELLS_PER_ROW);

  if (self->cells_per_row == cells_per_row)
    return;
  self->cells_per_row = cells_per_row;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CELLS_PER_ROW]);
}

/**
 * lt_viewer_lesson_get_zoom:
 * @self: a #LtViewerLesson
 *
 * Returns: the scale the lesson asks to be drawn at, 0 for none
 */
double
lt_viewer_lesson_get_zoom (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), 0);

  return self->zoom;
}

/**
 * lt_viewer_lesson_set_zoom:
 * @self: a #LtViewerLesson
 * @zoom: from %LT_VIEWER_LESSON_MIN_ZOOM to %LT_VIEWER_LESSON_MAX_ZOOM, or 0
 *   to leave it to the reader
 *
 * Sets the scale the lesson is drawn at.
 */
void
lt_viewer_lesson_set_zoom (LtViewerLesson *self,
                           double          zoom)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));
  g_return_if_fail (zoom == 0
                    || (zoom >= LT_VIEWER_LESSON_MIN_ZOOM && zoom <= LT_VIEWER_LESSON_MAX_ZOOM));

  if (self->zoom == zoom)
    return;
  self->zoom = zoom;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/**
 * lt_viewer_lesson_get_pytorch_only:
 * @self: a #LtViewerLesson
 *
 * Returns: whether the views are evaluated as PyTorch would
 */
gboolean
lt_viewer_lesson_get_pytorch_only (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), FALSE);

  return self->pytorch_only;
}

/**
 * lt_viewer_lesson_set_pytorch_only:
 * @self: a #LtViewerLesson
 * @pytorch_only: whether to evaluate every view as PyTorch would
 *
 * Evaluates every view again, as PyTorch would or as libtensor does; one
 * ::changed follows.
 */
void
lt_viewer_lesson_set_pytorch_only (LtViewerLesson *self,
                                   gboolean        pytorch_only)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));

  pytorch_only = !!pytorch_only;
  if (self->pytorch_only == pytorch_only)
    return;
  self->pytorch_only = pytorch_only;

  self->batch++;
  for (guint i = 0; i < self->views->len; i++)
    lt_viewer_view_set_pytorch_only (g_ptr_array_index (self->views, i), pytorch_only);
  self->batch--;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PYTORCH_ONLY]);
  if (self->pending_change)
    emit_changed (self);
}

/* The base and what it was made from (@literal is taken); every view is
 * evaluated again over it, then one ::changed. */
static void
replace_base (LtViewerLesson   *self,
              LtTensor         *base,
              LtViewerContents  contents,
              char             *literal,
              guint64           seed)
{
  LtDType old_dtype = self->dtype;
  const gint64 *sizes;

  self->dtype = lt_tensor_get_dtype (base);
  sizes = lt_tensor_get_sizes (base, &self->n_dims);
  if (self->n_dims > 0)
    memcpy (self->shape, sizes, self->n_dims * sizeof (gint64));
  self->contents = contents;
  g_free (self->literal);
  self->literal = literal;
  self->seed = seed;
  g_set_object (&self->base, base);
  self->masks_valid = FALSE;

  self->batch++;
  for (guint i = 0; i < self->views->len; i++)
    lt_viewer_view_set_base (g_ptr_array_index (self->views, i), base);
  self->batch--;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE]);
  if (old_dtype != self->dtype)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DTYPE]);
  if (self->hover_cell >= lt_storage_get_n_elements (lt_tensor_get_storage (base)))
    {
      self->hover_cell = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_CELL]);
    }
  emit_changed (self);
}

/**
 * lt_viewer_lesson_set_base:
 * @self: a #LtViewerLesson
 * @dtype: the dtype of the elements
 * @shape: (array length=n_dims) (nullable): the shape, unless @contents is
 *   %LT_VIEWER_CONTENTS_LITERAL
 * @n_dims: the number of dims of @shape
 * @contents: how the values are made
 * @literal: (nullable): for %LT_VIEWER_CONTENTS_LITERAL, the values as a
 *   nested list, which also gives the shape
 * @seed: for %LT_VIEWER_CONTENTS_RANDOM, the generator's seed
 * @error: return location for a #GError
 *
 * Replaces the base tensor and re-evaluates every view over it; views whose
 * expression fails on the new base have no tensor and an error. Emits
 * ::changed once. On error nothing changes.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_lesson_set_base (LtViewerLesson   *self,
                           LtDType           dtype,
                           const gint64     *shape,
                           guint             n_dims,
                           LtViewerContents  contents,
                           const char       *literal,
                           guint64           seed,
                           GError          **error)
{
  g_autoptr (LtTensor) base = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  base = new_base (dtype, shape, n_dims, contents, literal, seed, error);
  if (base == NULL)
    {
      /* libtensor's literal parser may quote half of a character. */
      if (error != NULL && *error != NULL && !g_utf8_validate ((*error)->message, -1, NULL))
        {
          char *valid = g_utf8_make_valid ((*error)->message, -1);

          g_free ((*error)->message);
          (*error)->message = valid;
        }
      return FALSE;
    }

  replace_base (self, base, contents,
                contents == LT_VIEWER_CONTENTS_LITERAL ? g_strdup (literal) : NULL, seed);
  return TRUE;
}

/* The values of @tensor as a nested list literal that reads back as the
 * same values: [[4.0, 1.0], [5.0, 3.0]]. */
static char *
format_literal (LtTensor  *tensor,
                GError   **error)
{
  g_autoptr (LtTensor) dense = lt_tensor_contiguous (tensor, error);
  g_autoptr (GString) text = NULL;
  LtStorage *storage;
  const gint64 *sizes;
  guint ndim;
  gint64 numel, offset;

  if (dense == NULL)
    return NULL;
  storage = lt_tensor_get_storage (dense);
  sizes = lt_tensor_get_sizes (dense, &ndim);
  numel = lt_tensor_get_numel (dense);
  offset = lt_tensor_get_storage_offset (dense);
  text = g_string_new (NULL);

  if (ndim == 0)
    {
      char value[64];

      lt_viewer_format_value_exact (storage, offset, value, sizeof value);
      g_string_append (text, value);
      return g_strdup (text->str);
    }
  for (guint d = 0; d < ndim; d++)
    g_string_append_c (text, '[');
  for (gint64 i = 0; i < numel; i++)
    {
      char value[64];
      gint64 stride = 1;
      guint closed = 0;

      lt_viewer_format_value_exact (storage, offset + i, value, sizeof value);
      g_string_append (text, value);
      /* How many dims end with this element. */
      for (guint d = ndim; d-- > 0;)
        {
          stride *= sizes[d];
          if ((i + 1) % stride != 0)
            break;
          closed++;
        }
      for (guint c = 0; c < closed; c++)
        g_string_append_c (text, ']');
      if (i + 1 < numel)
        {
          g_string_append (text, ", ");
          for (guint c = 0; c < closed; c++)
            g_string_append_c (text, '[');
        }
    }
  return g_strdup (text->str);
}

/**
 * lt_viewer_lesson_set_base_tensor:
 * @self: a #LtViewerLesson
 * @tensor: the tensor `t`, on the CPU
 * @error: return location for a #GError
 *
 * Makes @tensor itself the base: its storage is the one drawn, and views
 * added with lt_viewer_lesson_add_tensor_view() over the same storage
 * reach its cells. The lesson's contents become a literal of its values
 * (saving writes those). Every view is evaluated again.
 *
 * Returns: %TRUE on success, else %FALSE with @error set
 */
gboolean
lt_viewer_lesson_set_base_tensor (LtViewerLesson  *self,
                                  LtTensor        *tensor,
                                  GError         **error)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (lt_storage_get_n_elements (lt_tensor_get_storage (tensor)) > MAX_CELLS)
    {
      g_autofree char *count = g_strdup_printf (
        "%" G_GINT64_FORMAT, lt_storage_get_n_elements (lt_tensor_get_storage (tensor)));
      g_autofree char *limit = g_strdup_printf ("%" G_GINT64_FORMAT, MAX_CELLS);

      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("the tensor's storage has %s elements; a lesson draws at most %s"), count,
                   limit);
      return FALSE;
    }
  /* The literal is written when asked for (saving): a lesson drawn from
   * a large tensor never pays for it otherwise. */
  replace_base (self, tensor, LT_VIEWER_CONTENTS_LITERAL, NULL, 0);
  return TRUE;
}

/**
 * lt_viewer_lesson_get_base:
 * @self: a #LtViewerLesson
 *
 * Returns: (transfer none): the tensor `t`
 */
LtTensor *
lt_viewer_lesson_get_base (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  return self->base;
}

/**
 * lt_viewer_lesson_get_dtype:
 * @self: a #LtViewerLesson
 *
 * Returns: the dtype of the base tensor
 */
LtDType
lt_viewer_lesson_get_dtype (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), LT_DTYPE_FLOAT32);

  return self->dtype;
}

/**
 * lt_viewer_lesson_get_shape:
 * @self: a #LtViewerLesson
 * @n_dims: (out): return location for the number of dims
 *
 * The shape of the base tensor (for literal contents, the literal's).
 *
 * Returns: (array length=n_dims) (transfer none): the sizes
 */
const gint64 *
lt_viewer_lesson_get_shape (LtViewerLesson *self,
                            guint          *n_dims)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (n_dims != NULL, NULL);

  *n_dims = self->n_dims;
  return self->shape;
}

/**
 * lt_viewer_lesson_get_contents:
 * @self: a #LtViewerLesson
 *
 * Returns: how the base tensor's values are made
 */
LtViewerContents
lt_viewer_lesson_get_contents (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), LT_VIEWER_CONTENTS_ARANGE);

  return self->contents;
}

/**
 * lt_viewer_lesson_get_literal:
 * @self: a #LtViewerLesson
 *
 * Returns: (nullable): the literal of literal contents, otherwise %NULL
 */
const char *
lt_viewer_lesson_get_literal (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  /* A base given as a tensor: its values, written the first time. */
  if (self->contents == LT_VIEWER_CONTENTS_LITERAL && self->literal == NULL && self->base != NULL)
    {
      g_autoptr (GError) error = NULL;

      self->literal = format_literal (self->base, &error);
      if (self->literal == NULL)
        {
          g_warning ("The values of the lesson's base cannot be read: %s", error->message);
          self->literal = g_strdup ("[]");
        }
    }
  return self->literal;
}

/**
 * lt_viewer_lesson_get_seed:
 * @self: a #LtViewerLesson
 *
 * Returns: the seed of random contents
 */
guint64
lt_viewer_lesson_get_seed (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), 0);

  return self->seed;
}

/* The first palette colour no view has, or the next in turn. */
static const char *
next_color (LtViewerLesson *self)
{
  for (guint c = 0; c < lt_viewer_palette_get_n_colors (); c++)
    {
      const char *color = lt_viewer_palette_get_color (c);
      gboolean used = FALSE;

      for (guint i = 0; i < self->views->len && !used; i++)
        used = g_ascii_strcasecmp (lt_viewer_view_get_color (g_ptr_array_index (self->views, i)),
                                   color) == 0;
      if (!used)
        return color;
    }
  return lt_viewer_palette_get_color (self->views->len);
}

/* A view of the base, named @name or its expression and coloured @color
 * or the next colour, evaluating @first; NULL with @error set when the
 * lesson is full or @color is not a colour. */
static LtViewerView *
new_view (LtViewerLesson *self,
          const char     *name,
          const char     *color,
          const char     *expression,
          const char     *first,
          GError        **error)
{
  if (self->views->len >= LT_VIEWER_MAX_VIEWS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("A lesson has at most %d views; remove one to add another."),
                   LT_VIEWER_MAX_VIEWS);
      return NULL;
    }
  if (color != NULL && (strlen (color) != 7 || color[0] != '#'
                        || strspn (color + 1, "0123456789abcdefABCDEF") != 6))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("the colour '%s' is not of the form #rrggbb"), color);
      return NULL;
    }
  {
    LtViewerView *view = lt_viewer_view_new (name != NULL ? name : expression,
                                             color != NULL ? color : next_color (self),
                                             self->base, first);

    lt_viewer_view_set_pytorch_only (view, self->pytorch_only);
    return view;
  }
}

static LtViewerView *
append_view (LtViewerLesson *self,
             LtViewerView   *view)
{
  watch_view (self, view);
  g_ptr_array_add (self->views, g_object_ref (view));
  self->masks_valid = FALSE;

  g_list_model_items_changed (G_LIST_MODEL (self), self->views->len - 1, 0, 1);
  emit_changed (self);
  return view;
}

/**
 * lt_viewer_lesson_add_view:
 * @self: a #LtViewerLesson
 * @name: (nullable): the name to show; %NULL for the expression
 * @color: (nullable): "#rrggbb", or %NULL for the next colour of the palette
 * @expression: the expression over `t`
 * @error: return location for a #GError
 *
 * Appends a view. Fails, adding nothing, when the lesson already has
 * %LT_VIEWER_MAX_VIEWS views or the expression is invalid.
 *
 * Returns: (transfer none) (nullable): the view, owned by the lesson, or
 *   %NULL with @error set
 */
LtViewerView *
lt_viewer_lesson_add_view (LtViewerLesson *self,
                           const char     *name,
                           const char     *color,
                           const char     *expression,
                           GError        **error)
{
  g_autoptr (LtViewerView) view = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Made from t, so that a failing expression is an error, not a view. */
  view = new_view (self, name, color, expression, "t", error);
  if (view == NULL || !lt_viewer_view_set_expression (view, expression, error))
    return NULL;
  return append_view (self, view);
}

/**
 * lt_viewer_lesson_add_tensor_view:
 * @self: a #LtViewerLesson
 * @name: the name to show, such as "points.t()"
 * @color: (nullable): "#rrggbb", or %NULL for the next colour of the palette
 * @tensor: a view of the base's storage
 * @error: return location for a #GError
 *
 * Appends a view that is @tensor's layout over the base's storage, written
 * as `t.as_strided(sizes, strides, offset)`: how a script shows tensors it
 * made itself. A tensor with a storage of its own (a copy) cannot be one:
 * add its expression with lt_viewer_lesson_add_view() instead.
 *
 * Returns: (transfer none) (nullable): the view, or %NULL with @error set
 */
LtViewerView *
lt_viewer_lesson_add_tensor_view (LtViewerLesson *self,
                                  const char     *name,
                                  const char     *color,
                                  LtTensor       *tensor,
                                  GError        **error)
{
  g_autoptr (GString) expression = NULL;
  const gint64 *sizes, *strides;
  guint ndim;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (LT_IS_TENSOR (tensor), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (lt_tensor_get_storage (tensor) != lt_tensor_get_storage (self->base)
      || lt_tensor_get_dtype (tensor) != lt_tensor_get_dtype (self->base))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s is not a view of t's storage (a copy, or another tensor's view): add it "
                     "as an expression over t instead, such as t.t().contiguous()"),
                   name);
      return NULL;
    }

  sizes = lt_tensor_get_sizes (tensor, &ndim);
  strides = lt_tensor_get_strides (tensor, &ndim);
  expression = g_string_new ("t.as_strided(");
  lt_viewer_append_tuple (expression, sizes, ndim);
  g_string_append (expression, ", ");
  lt_viewer_append_tuple (expression, strides, ndim);
  g_string_append_printf (expression, ", %" G_GINT64_FORMAT ")",
                          lt_tensor_get_storage_offset (tensor));
  return lt_viewer_lesson_add_view (self, name, color, expression->str, error);
}

/**
 * lt_viewer_lesson_add_failing_view:
 * @self: a #LtViewerLesson
 * @name: (nullable): the view's name, or %NULL for the expression
 * @color: (nullable): "#rrggbb", or %NULL for the next colour of the palette
 * @expression: an expression over `t` that fails, as the lesson means it to
 * @error: return location for a #GError
 *
 * Adds a view that is there to show an error, such as the post's
 * `t.transpose(1, 0).view(4, 2, 3)`: it has no tensor, its :error is the
 * library's message and :expect-error is set. An expression that does
 * evaluate is refused, so that a lesson never shows a success as a
 * failure.
 *
 * Returns: (transfer none): the new view, or %NULL with @error set
 */
LtViewerView *
lt_viewer_lesson_add_failing_view (LtViewerLesson *self,
                                   const char     *name,
                                   const char     *color,
                                   const char     *expression,
                                   GError        **error)
{
  g_autoptr (LtViewerView) view = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  view = new_view (self, name, color, expression, expression, error);
  if (view == NULL)
    return NULL;
  if (lt_viewer_view_get_error (view) == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("the view %s is meant to fail, but %s evaluates without an error"),
                   name != NULL ? name : expression, expression);
      return NULL;
    }
  lt_viewer_view_set_expect_error (view, TRUE);
  return append_view (self, view);
}

/**
 * lt_viewer_lesson_remove_view:
 * @self: a #LtViewerLesson
 * @position: the view's position
 *
 * Removes a view; when it was :selected, nothing is selected any more.
 */
void
lt_viewer_lesson_remove_view (LtViewerLesson *self,
                              guint           position)
{
  g_autoptr (LtViewerView) view = NULL;

  g_return_if_fail (LT_VIEWER_IS_LESSON (self));
  g_return_if_fail (position < self->views->len);

  view = g_object_ref (g_ptr_array_index (self->views, position));
  unwatch_view (view, self);
  g_ptr_array_remove_index (self->views, position);
  self->masks_valid = FALSE;

  if (self->selected == view)
    {
      self->selected = NULL;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  emit_changed (self);
}

/**
 * lt_viewer_lesson_move_view:
 * @self: a #LtViewerLesson
 * @from: the view's position
 * @to: its new position
 *
 * Moves a view, which also moves its bit in the cell masks.
 */
void
lt_viewer_lesson_move_view (LtViewerLesson *self,
                            guint           from,
                            guint           to)
{
  gpointer view;
  guint first, n;

  g_return_if_fail (LT_VIEWER_IS_LESSON (self));
  g_return_if_fail (from < self->views->len);
  g_return_if_fail (to < self->views->len);

  if (from == to)
    return;

  view = g_ptr_array_steal_index (self->views, from);
  g_ptr_array_insert (self->views, (gint) to, view);
  self->masks_valid = FALSE;

  first = MIN (from, to);
  n = MAX (from, to) - first + 1;
  g_list_model_items_changed (G_LIST_MODEL (self), first, n, n);
  emit_changed (self);
}

/**
 * lt_viewer_lesson_get_view:
 * @self: a #LtViewerLesson
 * @position: a position
 *
 * Returns: (transfer none) (nullable): the view at @position, or %NULL
 */
LtViewerView *
lt_viewer_lesson_get_view (LtViewerLesson *self,
                           guint           position)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  if (position >= self->views->len)
    return NULL;
  return g_ptr_array_index (self->views, position);
}

/**
 * lt_viewer_lesson_get_n_views:
 * @self: a #LtViewerLesson
 *
 * Returns: the number of views
 */
guint
lt_viewer_lesson_get_n_views (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), 0);

  return self->views->len;
}

/* A view over the same memory read as another dtype (view_as_real(),
 * view_as_complex()): each of its elements covers part of one base cell or
 * several; mark every cell it covers. Aliasing is a repeated element of the
 * view's own storage, not two halves of one base cell. */
static void
mark_reinterpreted (LtViewerLesson *self,
                    LtStorage      *base_storage,
                    LtStorage      *storage,
                    const gint64   *indices,
                    gsize           n,
                    guint32         bit)
{
  gint64 base_size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (base_storage));
  gint64 size = (gint64) lt_dtype_get_element_size (lt_storage_get_dtype (storage));
  gint64 delta = (gint64) (lt_storage_get_data_address (storage)
                           - lt_storage_get_data_address (base_storage));
  gint64 n_elements = lt_storage_get_n_elements (storage);
  g_autofree guint8 *seen = g_new0 (guint8, n_elements / 8 + 1);

  for (gsize i = 0; i < n; i++)
    {
      gint64 x = indices[i];
      gint64 first = (delta + x * size) / base_size;
      gint64 last = (delta + (x + 1) * size - 1) / base_size;
      gboolean repeated = (seen[x / 8] >> (x % 8)) & 1;

      seen[x / 8] |= (guint8) (1 << (x % 8));
      for (gint64 c = MAX (first, 0); c <= last && c < (gint64) self->n_cells; c++)
        {
          self->cell_views[c] |= bit;
          if (repeated)
            self->cell_aliases[c] |= bit;
        }
    }
}

/* A view of the base's own storage: walk its elements, the innermost dim
 * as a plain loop, without materializing the storage indices (the grids
 * ask the view for those, for the views they show). A cell this view
 * already reached is reached again: aliased. */
static void
mark_direct (LtViewerLesson *self,
             LtTensor       *tensor,
             guint32         bit)
{
  guint ndim;
  const gint64 *sizes = lt_tensor_get_sizes (tensor, &ndim);
  const gint64 *strides = lt_tensor_get_strides (tensor, &ndim);
  gint64 index[LT_MAX_DIMS] = { 0 };
  gint64 position = lt_tensor_get_storage_offset (tensor);
  gint64 inner_size, inner_stride;
  guint32 *views = self->cell_views;
  guint32 *aliases = self->cell_aliases;

  if (lt_tensor_get_numel (tensor) == 0)
    return;
  if (ndim == 0)
    {
      if (views[position] & bit)
        aliases[position] |= bit;
      views[position] |= bit;
      return;
    }

  inner_size = sizes[ndim - 1];
  inner_stride = strides[ndim - 1];
  for (;;)
    {
      gint64 cell = position;
      guint d;

      for (gint64 i = 0; i < inner_size; i++, cell += inner_stride)
        {
          if (views[cell] & bit)
            aliases[cell] |= bit;
          views[cell] |= bit;
        }

      /* The next row: an odometer over the outer dims. */
      for (d = ndim - 1; d-- > 0;)
        {
          position += strides[d];
          if (++index[d] < sizes[d])
            break;
          position -= index[d] * strides[d];
          index[d] = 0;
        }
      if (d == G_MAXUINT)
        return;
    }
}

static void
ensure_masks (LtViewerLesson *self)
{
  LtStorage *base_storage;
  gsize n_cells;

  if (self->masks_valid)
    return;

  base_storage = lt_tensor_get_storage (self->base);
  n_cells = (gsize) lt_storage_get_n_elements (base_storage);
  if (n_cells != self->n_cells || self->cell_views == NULL)
    {
      g_free (self->cell_views);
      g_free (self->cell_aliases);
      self->n_cells = n_cells;
      self->cell_views = g_new0 (guint32, MAX (n_cells, 1));
      self->cell_aliases = g_new0 (guint32, MAX (n_cells, 1));
    }
  else
    {
      memset (self->cell_views, 0, n_cells * sizeof (guint32));
      memset (self->cell_aliases, 0, n_cells * sizeof (guint32));
    }

  for (guint v = 0; v < self->views->len; v++)
    {
      LtViewerView *view = g_ptr_array_index (self->views, v);
      LtTensor *tensor = lt_viewer_view_get_tensor (view);
      guint32 bit = (guint32) 1 << v;
      const gint64 *indices;
      LtStorage *storage;
      gsize n;

      /* A copy (contiguous() of a non-contiguous view, clone()) has a
       * storage of its own: it reaches no cell of this one. */
      if (tensor == NULL)
        continue;
      storage = lt_tensor_get_storage (tensor);
      if (storage != base_storage && !lt_storage_shares_memory (storage, base_storage))
        continue;

      if (storage == base_storage
          || (lt_storage_get_dtype (storage) == lt_storage_get_dtype (base_storage)
              && lt_storage_get_data_address (storage)
                   == lt_storage_get_data_address (base_storage)))
        {
          mark_direct (self, tensor, bit);
          continue;
        }

      indices = lt_viewer_view_get_storage_indices (view, &n);
      if (indices != NULL)
        mark_reinterpreted (self, base_storage, storage, indices, n, bit);
    }

  self->masks_valid = TRUE;
}

/**
 * lt_viewer_lesson_get_cell_views:
 * @self: a #LtViewerLesson
 * @n_cells: (out): return location for the number of cells of the base's
 *   storage
 *
 * For each cell of the base's storage, bit i is set when view i reaches it.
 * Views that copy (their tensor has a storage of its own) reach none.
 *
 * Returns: (array length=n_cells) (transfer none): the masks
 */
const guint32 *
lt_viewer_lesson_get_cell_views (LtViewerLesson *self,
                                 gsize          *n_cells)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (n_cells != NULL, NULL);

  ensure_masks (self);
  *n_cells = self->n_cells;
  return self->cell_views;
}

/**
 * lt_viewer_lesson_get_cell_aliases:
 * @self: a #LtViewerLesson
 * @n_cells: (out): return location for the number of cells
 *
 * For each cell of the base's storage, bit i is set when view i reaches it
 * more than once (an expanded or overlapping view).
 *
 * Returns: (array length=n_cells) (transfer none): the masks
 */
const guint32 *
lt_viewer_lesson_get_cell_aliases (LtViewerLesson *self,
                                   gsize          *n_cells)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);
  g_return_val_if_fail (n_cells != NULL, NULL);

  ensure_masks (self);
  *n_cells = self->n_cells;
  return self->cell_aliases;
}

/**
 * lt_viewer_lesson_get_hover_cell:
 * @self: a #LtViewerLesson
 *
 * Returns: the storage cell under the pointer, or -1
 */
gint64
lt_viewer_lesson_get_hover_cell (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), -1);

  return self->hover_cell;
}

/**
 * lt_viewer_lesson_set_hover_cell:
 * @self: a #LtViewerLesson
 * @cell: the storage cell under the pointer, or -1 for none
 *
 * Sets the cell both drawings highlight.
 */
void
lt_viewer_lesson_set_hover_cell (LtViewerLesson *self,
                                 gint64          cell)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));

  if (cell < 0 || cell >= lt_storage_get_n_elements (lt_tensor_get_storage (self->base)))
    cell = -1;
  if (cell == self->hover_cell)
    return;
  self->hover_cell = cell;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_CELL]);
}

/**
 * lt_viewer_lesson_get_selected:
 * @self: a #LtViewerLesson
 *
 * Returns: (transfer none) (nullable): the selected view
 */
LtViewerView *
lt_viewer_lesson_get_selected (LtViewerLesson *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_LESSON (self), NULL);

  return self->selected;
}

/**
 * lt_viewer_lesson_set_selected:
 * @self: a #LtViewerLesson
 * @view: (nullable): one of the lesson's views, or %NULL
 *
 * Selects the view the grid and the order stepper show.
 */
void
lt_viewer_lesson_set_selected (LtViewerLesson *self,
                               LtViewerView   *view)
{
  g_return_if_fail (LT_VIEWER_IS_LESSON (self));
  g_return_if_fail (view == NULL || LT_VIEWER_IS_VIEW (view));
  g_return_if_fail (view == NULL || g_ptr_array_find (self->views, view, NULL));

  if (self->selected == view)
    return;
  self->selected = view;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}
