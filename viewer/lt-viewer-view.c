/* lt-viewer-view.c: one view of a lesson's storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-expression.h"
#include "lt-viewer-format.h"
#include "lt-viewer-view.h"

/* The most elements a view may have to be drawn: each has a cached storage
 * index, and the element lookup by cell indexes them with 32 bits. */
#define MAX_ELEMENTS (G_GINT64_CONSTANT (1) << 24)
#define DEFAULT_COLOR "#0072b2"

struct _LtViewerView
{
  GObject parent_instance;

  char *name;
  char *color;
  char *expression;
  char *error;
  LtTensor *base;
  LtTensor *tensor;
  gint64 cursor;
  /* What the lesson says about the view: it is there to show an error, and
   * the shape to try view() with ("" for the default, -1). */
  gboolean expect_error;
  char *probe;
  /* The reader's preference: evaluate as PyTorch would. */
  gboolean pytorch_only;

  /* Caches of the tensor, dropped when it changes: the storage index of
   * every element, and the elements sorted by storage index (a counting
   * sort), so that starts[cell - lowest] .. starts[cell - lowest + 1] are
   * the positions in order[] of the elements on that cell. */
  gint64 *indices;
  gsize n_indices;
  gint64 lowest;
  gint64 highest;
  guint32 *starts;
  guint32 *order;
};

G_DEFINE_FINAL_TYPE (LtViewerView, lt_viewer_view, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_NAME,
  PROP_COLOR,
  PROP_EXPRESSION,
  PROP_TENSOR,
  PROP_ERROR,
  PROP_CURSOR,
  PROP_EXPECT_ERROR,
  PROP_PROBE,
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

static gboolean
is_color (const char *color)
{
  if (color == NULL || strlen (color) != 7 || color[0] != '#')
    return FALSE;
  for (guint i = 1; i < 7; i++)
    if (!g_ascii_isxdigit (color[i]))
      return FALSE;
  return TRUE;
}

static void
clear_caches (LtViewerView *self)
{
  g_clear_pointer (&self->indices, g_free);
  g_clear_pointer (&self->starts, g_free);
  g_clear_pointer (&self->order, g_free);
  self->n_indices = 0;
}

static void
lt_viewer_view_finalize (GObject *object)
{
  LtViewerView *self = LT_VIEWER_VIEW (object);

  clear_caches (self);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->color, g_free);
  g_clear_pointer (&self->expression, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->probe, g_free);
  g_clear_object (&self->base);
  g_clear_object (&self->tensor);

  G_OBJECT_CLASS (lt_viewer_view_parent_class)->finalize (object);
}

static void
lt_viewer_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  LtViewerView *self = LT_VIEWER_VIEW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_COLOR:
      g_value_set_string (value, self->color);
      break;
    case PROP_EXPRESSION:
      g_value_set_string (value, self->expression);
      break;
    case PROP_TENSOR:
      g_value_set_object (value, self->tensor);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_CURSOR:
      g_value_set_int64 (value, self->cursor);
      break;
    case PROP_EXPECT_ERROR:
      g_value_set_boolean (value, self->expect_error);
      break;
    case PROP_PROBE:
      g_value_set_string (value, lt_viewer_view_get_probe (self));
      break;
    case PROP_PYTORCH_ONLY:
      g_value_set_boolean (value, self->pytorch_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  LtViewerView *self = LT_VIEWER_VIEW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      lt_viewer_view_set_name (self, g_value_get_string (value));
      break;
    case PROP_COLOR:
      lt_viewer_view_set_color (self, g_value_get_string (value));
      break;
    case PROP_EXPRESSION:
      lt_viewer_view_set_expression (self, g_value_get_string (value), NULL);
      break;
    case PROP_CURSOR:
      lt_viewer_view_set_cursor (self, g_value_get_int64 (value));
      break;
    case PROP_EXPECT_ERROR:
      lt_viewer_view_set_expect_error (self, g_value_get_boolean (value));
      break;
    case PROP_PROBE:
      lt_viewer_view_set_probe (self, g_value_get_string (value));
      break;
    case PROP_PYTORCH_ONLY:
      lt_viewer_view_set_pytorch_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_viewer_view_class_init (LtViewerViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lt_viewer_view_finalize;
  object_class->get_property = lt_viewer_view_get_property;
  object_class->set_property = lt_viewer_view_set_property;

  /**
   * LtViewerView:name:
   *
   * The name the view is shown with, such as `points.t()`.
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:color:
   *
   * The colour of the view's cells, as "#rrggbb".
   */
  properties[PROP_COLOR] =
    g_param_spec_string ("color", NULL, NULL, DEFAULT_COLOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:expression:
   *
   * The expression over the base tensor `t`. Setting it evaluates it; when
   * that fails, :tensor keeps its value and :error says why.
   */
  properties[PROP_EXPRESSION] =
    g_param_spec_string ("expression", NULL, NULL, "t",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:tensor:
   *
   * The tensor the expression last evaluated to, or %NULL.
   */
  properties[PROP_TENSOR] =
    g_param_spec_object ("tensor", NULL, NULL, LT_TYPE_TENSOR,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:error:
   *
   * Why the expression cannot be evaluated, or %NULL when it can.
   */
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:cursor:
   *
   * The row-major index of the element the order stepper is on, or -1.
   */
  properties[PROP_CURSOR] =
    g_param_spec_int64 ("cursor", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:expect-error:
   *
   * Whether the view is in its lesson to show an error: its expression is
   * meant to fail (the post's transpose(1, 0).view(4, 2, 3)).
   */
  properties[PROP_EXPECT_ERROR] =
    g_param_spec_boolean ("expect-error", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:probe:
   *
   * The shape to try view() with, as typed ("4, 2, 3"); empty for -1.
   */
  properties[PROP_PROBE] =
    g_param_spec_string ("probe", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtViewerView:pytorch-only:
   *
   * Whether the expression is evaluated as PyTorch would: negative steps
   * and strides are errors, and flip() copies.
   */
  properties[PROP_PYTORCH_ONLY] =
    g_param_spec_boolean ("pytorch-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LtViewerView::changed:
   *
   * Emitted once after a change to what is drawn (the tensor, the colour or
   * the cursor), after the property notifications.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
lt_viewer_view_init (LtViewerView *self)
{
  self->name = g_strdup ("");
  self->color = g_strdup (DEFAULT_COLOR);
  self->expression = g_strdup ("t");
  self->cursor = -1;
}

/* Evaluates @expression over @base, refusing tensors too large to draw. */
static LtTensor *
evaluate (LtViewerView *self,
          LtTensor     *base,
          const char   *expression,
          GError      **error)
{
  g_autoptr (LtTensor) tensor =
    lt_viewer_expression_evaluate_with_flags (base, expression,
                                              self->pytorch_only
                                                ? LT_VIEWER_EXPRESSION_PYTORCH_ONLY
                                                : LT_VIEWER_EXPRESSION_DEFAULT,
                                              error);

  if (tensor == NULL)
    return NULL;
  if (lt_tensor_get_numel (tensor) > MAX_ELEMENTS)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, lt_tensor_get_numel (tensor));
      g_autofree char *limit = g_strdup_printf ("%" G_GINT64_FORMAT, MAX_ELEMENTS);
      g_autofree char *text = g_strstrip (g_strdup (expression));

      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the view has %s elements; Tensor Viewer draws at most %s"),
                   text, count, limit);
      return NULL;
    }
  return g_steal_pointer (&tensor);
}

static gboolean
set_string (char       **field,
            const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gint64
clamp_cursor (LtViewerView *self,
              gint64        cursor)
{
  gint64 numel = self->tensor != NULL ? lt_tensor_get_numel (self->tensor) : 0;

  if (cursor < 0 || numel == 0)
    return -1;
  return MIN (cursor, numel - 1);
}

/* Replaces the tensor, queueing the notifications; the caller thaws them
 * and emits ::changed. */
static void
replace_tensor (LtViewerView *self,
                LtTensor     *tensor)
{
  gint64 cursor;

  if (!g_set_object (&self->tensor, tensor))
    return;
  clear_caches (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENSOR]);

  cursor = clamp_cursor (self, self->cursor);
  if (cursor != self->cursor)
    {
      self->cursor = cursor;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
    }
}

static void
replace_error (LtViewerView *self,
               const char   *message)
{
  if (set_string (&self->error, message))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/**
 * lt_viewer_view_new:
 * @name: (nullable): the name to show
 * @color: (nullable): the colour, "#rrggbb"; %NULL for blue
 * @base: the tensor `t` the expression starts from
 * @expression: (nullable): the expression; %NULL for `t`
 *
 * A view of @base. When @expression is invalid, the view has no tensor and
 * :error says why.
 *
 * Returns: (transfer full): the view
 */
LtViewerView *
lt_viewer_view_new (const char *name,
                    const char *color,
                    LtTensor   *base,
                    const char *expression)
{
  LtViewerView *self;

  g_return_val_if_fail (color == NULL || is_color (color), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (base), NULL);

  self = g_object_new (LT_VIEWER_TYPE_VIEW,
                       "name", name != NULL ? name : "",
                       "color", color != NULL ? color : DEFAULT_COLOR,
                       NULL);
  self->base = g_object_ref (base);
  lt_viewer_view_set_expression (self, expression != NULL ? expression : "t", NULL);
  return self;
}

/**
 * lt_viewer_view_get_name:
 * @self: a #LtViewerView
 *
 * Returns: the name the view is shown with
 */
const char *
lt_viewer_view_get_name (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->name;
}

/**
 * lt_viewer_view_set_name:
 * @self: a #LtViewerView
 * @name: (nullable): the name to show
 *
 * Sets the name the view is shown with.
 */
void
lt_viewer_view_set_name (LtViewerView *self,
                         const char   *name)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));

  if (set_string (&self->name, name != NULL ? name : ""))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

/**
 * lt_viewer_view_get_color:
 * @self: a #LtViewerView
 *
 * Returns: the colour, as "#rrggbb"
 */
const char *
lt_viewer_view_get_color (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->color;
}

/**
 * lt_viewer_view_set_color:
 * @self: a #LtViewerView
 * @color: the colour as "#rrggbb"
 *
 * Sets the colour the view's cells are drawn in.
 */
void
lt_viewer_view_set_color (LtViewerView *self,
                          const char   *color)
{
  g_autofree char *lower = NULL;

  g_return_if_fail (LT_VIEWER_IS_VIEW (self));
  g_return_if_fail (is_color (color));

  lower = g_ascii_strdown (color, -1);
  if (!set_string (&self->color, lower))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR]);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * lt_viewer_view_get_expression:
 * @self: a #LtViewerView
 *
 * Returns: the expression, as last set, valid or not
 */
const char *
lt_viewer_view_get_expression (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->expression;
}

/**
 * lt_viewer_view_set_expression:
 * @self: a #LtViewerView
 * @expression: the expression over `t`
 * @error: return location for a #GError
 *
 * Sets and evaluates the expression. When it fails, the expression is kept
 * (it is what the user typed), the previous tensor stays, :error is set to
 * the message of @error and ::changed is not emitted: nothing drawn changed.
 *
 * Returns: %TRUE when the expression is valid
 */
gboolean
lt_viewer_view_set_expression (LtViewerView *self,
                               const char   *expression,
                               GError      **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);
  g_return_val_if_fail (expression != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Constructing: the base is not there yet. */
  if (self->base == NULL)
    {
      if (set_string (&self->expression, expression))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPRESSION]);
      return TRUE;
    }

  tensor = evaluate (self, self->base, expression, &local_error);

  g_object_freeze_notify (G_OBJECT (self));
  if (set_string (&self->expression, expression))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPRESSION]);
  if (tensor != NULL)
    {
      replace_tensor (self, tensor);
      replace_error (self, NULL);
    }
  else
    replace_error (self, local_error->message);
  g_object_thaw_notify (G_OBJECT (self));

  if (tensor == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/* Evaluates the expression again (a new base, another way to evaluate):
 * on failure the view has no tensor, and its error says why. */
static void
reevaluate (LtViewerView *self)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  gboolean had_tensor = self->tensor != NULL;

  tensor = evaluate (self, self->base, self->expression, &local_error);

  g_object_freeze_notify (G_OBJECT (self));
  replace_tensor (self, tensor);
  replace_error (self, local_error != NULL ? local_error->message : NULL);
  g_object_thaw_notify (G_OBJECT (self));

  if (tensor != NULL || had_tensor)
    g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * lt_viewer_view_set_base:
 * @self: a #LtViewerView
 * @base: the new tensor `t`
 *
 * Re-evaluates the expression over @base. When it fails there, the view has
 * no tensor (the old one belongs to the old base) and :error says why.
 */
void
lt_viewer_view_set_base (LtViewerView *self,
                         LtTensor     *base)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));
  g_return_if_fail (LT_IS_TENSOR (base));

  if (g_set_object (&self->base, base))
    reevaluate (self);
}

/**
 * lt_viewer_view_get_pytorch_only:
 * @self: a #LtViewerView
 *
 * Returns: whether the expression is evaluated as PyTorch would
 */
gboolean
lt_viewer_view_get_pytorch_only (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);

  return self->pytorch_only;
}

/**
 * lt_viewer_view_set_pytorch_only:
 * @self: a #LtViewerView
 * @pytorch_only: whether to evaluate as PyTorch would
 *
 * Evaluates the expression again, refusing what PyTorch refuses (a
 * negative step or stride) and copying for flip(), or as libtensor does.
 * A view PyTorch refuses has no tensor and shows PyTorch's message.
 */
void
lt_viewer_view_set_pytorch_only (LtViewerView *self,
                                 gboolean      pytorch_only)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));

  pytorch_only = !!pytorch_only;
  if (self->pytorch_only == pytorch_only)
    return;
  self->pytorch_only = pytorch_only;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PYTORCH_ONLY]);
  reevaluate (self);
}

/**
 * lt_viewer_view_get_tensor:
 * @self: a #LtViewerView
 *
 * Returns: (transfer none) (nullable): the tensor the expression last evaluated to
 */
LtTensor *
lt_viewer_view_get_tensor (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->tensor;
}

/**
 * lt_viewer_view_get_error:
 * @self: a #LtViewerView
 *
 * Returns: (nullable): why the expression cannot be evaluated, or %NULL
 */
const char *
lt_viewer_view_get_error (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->error;
}

/**
 * lt_viewer_view_set_layout:
 * @self: a #LtViewerView
 * @sizes: (array length=n_dims): the sizes
 * @strides: (array length=n_dims): the strides, in storage cells
 * @n_dims: the number of dims
 * @offset: the storage index of the first element
 * @error: return location for a #GError
 *
 * Replaces the expression by `t.as_strided(sizes, strides, offset)`, as when
 * the sizes and strides are edited directly. When the layout reaches outside
 * the storage, nothing changes and @error says so.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_view_set_layout (LtViewerView *self,
                           const gint64 *sizes,
                           const gint64 *strides,
                           guint         n_dims,
                           gint64        offset,
                           GError      **error)
{
  g_autoptr (GString) text = NULL;
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);
  g_return_val_if_fail (sizes != NULL || n_dims == 0, FALSE);
  g_return_val_if_fail (strides != NULL || n_dims == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (self->base != NULL, FALSE);

  if (n_dims > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("as_strided(): %u dims are more than the %d a tensor can have"), n_dims,
                   LT_MAX_DIMS);
      return FALSE;
    }

  text = g_string_new ("t.as_strided(");
  lt_viewer_append_tuple (text, sizes, n_dims);
  g_string_append (text, ", ");
  lt_viewer_append_tuple (text, strides, n_dims);
  g_string_append_printf (text, ", %" G_GINT64_FORMAT ")", offset);

  tensor = evaluate (self, self->base, text->str, error);
  if (tensor == NULL)
    return FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  if (set_string (&self->expression, text->str))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPRESSION]);
  replace_tensor (self, tensor);
  replace_error (self, NULL);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/**
 * lt_viewer_view_get_storage_indices:
 * @self: a #LtViewerView
 * @n_indices: (out): return location for the number of indices
 *
 * The storage index of every element of the tensor in row-major order, in
 * the tensor's own storage (the base's, unless the expression copies).
 * Computed once per tensor.
 *
 * Returns: (array length=n_indices) (transfer none) (nullable): the indices,
 *   or %NULL when there is no tensor or it has no elements
 */
const gint64 *
lt_viewer_view_get_storage_indices (LtViewerView *self,
                                    gsize        *n_indices)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);

  *n_indices = 0;
  if (self->tensor == NULL || lt_tensor_get_numel (self->tensor) == 0)
    return NULL;

  if (self->indices == NULL)
    {
      g_autoptr (GError) error = NULL;

      /* Views are capped at MAX_ELEMENTS, so this fails only when the
       * machine is out of memory; the view then shows no cells. */
      self->indices = lt_tensor_get_storage_indices (self->tensor, &self->n_indices, &error);
      if (error != NULL)
        g_warning ("Cannot list the storage cells of %s: %s", self->expression, error->message);
    }
  *n_indices = self->n_indices;
  return self->indices;
}

/**
 * lt_viewer_view_get_storage_index:
 * @self: a #LtViewerView
 * @element: a row-major element index
 *
 * Returns: the storage index of element @element, or -1 when there is no
 *   such element
 */
gint64
lt_viewer_view_get_storage_index (LtViewerView *self,
                                  gint64        element)
{
  const gint64 *sizes, *strides;
  guint ndim;
  gint64 position;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), -1);

  if (self->tensor == NULL || element < 0 || element >= lt_tensor_get_numel (self->tensor))
    return -1;
  if (self->indices != NULL)
    return self->indices[element];

  sizes = lt_tensor_get_sizes (self->tensor, &ndim);
  strides = lt_tensor_get_strides (self->tensor, &ndim);
  position = lt_tensor_get_storage_offset (self->tensor);
  for (guint d = ndim; d-- > 0;)
    {
      position += (element % sizes[d]) * strides[d];
      element /= sizes[d];
    }
  return position;
}

/* The multi-index of a row-major element index. */
static void
unravel (LtTensor *tensor,
         gint64    element,
         gint64   *out_index)
{
  guint ndim;
  const gint64 *sizes = lt_tensor_get_sizes (tensor, &ndim);

  for (guint d = ndim; d-- > 0;)
    {
      out_index[d] = element % sizes[d];
      element /= sizes[d];
    }
}

/**
 * lt_viewer_view_format_address:
 * @self: a #LtViewerView
 * @element: a row-major element index
 *
 * The address formula of one element filled in: the storage offset, then
 * `stride*index` for each dim, then the storage index, as
 * `2 + 2*1 + 1*0 = 4`. A 0-dim tensor gives `2 = 2`.
 *
 * Returns: (transfer full) (nullable): the formula, or %NULL when there is
 *   no such element
 */
char *
lt_viewer_view_format_address (LtViewerView *self,
                               gint64        element)
{
  gint64 index[LT_MAX_DIMS];
  const gint64 *strides;
  guint ndim;
  GString *text;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  if (self->tensor == NULL || element < 0 || element >= lt_tensor_get_numel (self->tensor))
    return NULL;

  strides = lt_tensor_get_strides (self->tensor, &ndim);
  unravel (self->tensor, element, index);

  text = g_string_new (NULL);
  g_string_append_printf (text, "%" G_GINT64_FORMAT, lt_tensor_get_storage_offset (self->tensor));
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (text, strides[d] < 0 ? " + (%" G_GINT64_FORMAT ")*%" G_GINT64_FORMAT
                                                 : " + %" G_GINT64_FORMAT "*%" G_GINT64_FORMAT,
                            strides[d], index[d]);
  g_string_append_printf (text, " = %" G_GINT64_FORMAT,
                          lt_viewer_view_get_storage_index (self, element));
  return g_string_free (text, FALSE);
}

/* Sorts the elements by storage index once per tensor: a counting sort over
 * the range of cells the view reaches, which is stable, so the elements on
 * one cell stay in increasing order. The range lies inside a storage. */
static gboolean
ensure_lookup (LtViewerView *self)
{
  const gint64 *indices;
  gsize n;
  gsize range;

  if (self->order != NULL)
    return TRUE;

  indices = lt_viewer_view_get_storage_indices (self, &n);
  if (indices == NULL)
    return FALSE;

  self->lowest = self->highest = indices[0];
  for (gsize i = 1; i < n; i++)
    {
      self->lowest = MIN (self->lowest, indices[i]);
      self->highest = MAX (self->highest, indices[i]);
    }
  range = (gsize) (self->highest - self->lowest) + 1;

  self->starts = g_new0 (guint32, range + 1);
  self->order = g_new (guint32, n);
  for (gsize i = 0; i < n; i++)
    self->starts[indices[i] - self->lowest + 1]++;
  for (gsize c = 1; c <= range; c++)
    self->starts[c] += self->starts[c - 1];
  /* Filling moves each start to the next cell's start; shift them back. */
  for (gsize i = 0; i < n; i++)
    self->order[self->starts[indices[i] - self->lowest]++] = (guint32) i;
  memmove (self->starts + 1, self->starts, range * sizeof (guint32));
  self->starts[0] = 0;
  return TRUE;
}

/**
 * lt_viewer_view_find_elements:
 * @self: a #LtViewerView
 * @cell: a storage index
 *
 * The elements whose storage index is @cell: none, one, or several when the
 * view aliases itself. The first call for a tensor sorts its elements by
 * cell; every later one is a lookup.
 *
 * Returns: (transfer full) (element-type gint64): the row-major element
 *   indices, in increasing order
 */
GArray *
lt_viewer_view_find_elements (LtViewerView *self,
                              gint64        cell)
{
  GArray *elements;
  guint32 begin, end;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  elements = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (!ensure_lookup (self) || cell < self->lowest || cell > self->highest)
    return elements;

  begin = self->starts[cell - self->lowest];
  end = self->starts[cell - self->lowest + 1];
  for (guint32 i = begin; i < end; i++)
    {
      gint64 element = self->order[i];
      g_array_append_val (elements, element);
    }
  return elements;
}

gboolean
lt_viewer_view_get_expect_error (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);

  return self->expect_error;
}

void
lt_viewer_view_set_expect_error (LtViewerView *self,
                                 gboolean      expect_error)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));

  expect_error = !!expect_error;
  if (self->expect_error == expect_error)
    return;
  self->expect_error = expect_error;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPECT_ERROR]);
}

const char *
lt_viewer_view_get_probe (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), NULL);

  return self->probe != NULL ? self->probe : "";
}

void
lt_viewer_view_set_probe (LtViewerView *self,
                          const char   *probe)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));

  if (g_strcmp0 (lt_viewer_view_get_probe (self), probe != NULL ? probe : "") == 0)
    return;
  g_free (self->probe);
  self->probe = g_strdup (probe != NULL ? probe : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBE]);
}

/**
 * lt_viewer_view_count_elements:
 * @self: a #LtViewerView
 * @cell: a storage index
 * @out_first: (out) (optional): the row-major index of the first element on
 *   @cell, -1 when none is
 *
 * How many elements land on @cell, without listing them: what a drawing of
 * the storage needs for each cell on screen.
 *
 * Returns: the number of elements whose storage index is @cell
 */
guint
lt_viewer_view_count_elements (LtViewerView *self,
                               gint64        cell,
                               gint64       *out_first)
{
  guint32 begin, end;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), 0);

  if (out_first != NULL)
    *out_first = -1;
  if (!ensure_lookup (self) || cell < self->lowest || cell > self->highest)
    return 0;
  begin = self->starts[cell - self->lowest];
  end = self->starts[cell - self->lowest + 1];
  if (out_first != NULL && end > begin)
    *out_first = self->order[begin];
  return end - begin;
}

static void
set_reason (char       **reason,
            const char  *text)
{
  if (reason != NULL)
    *reason = g_strdup (text);
}

static char *
format_int (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

static char *
format_tuple (const gint64 *values,
              guint         n)
{
  g_autoptr (GString) text = g_string_new (NULL);

  lt_viewer_append_tuple (text, values, n);
  return g_strdup (text->str);
}

/* "4, 6", the arguments of a call. */
static char *
format_list (const gint64 *values,
             guint         n)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", values[i]);
  return g_strdup (text->str);
}

/**
 * lt_viewer_view_explain_contiguity:
 * @self: a #LtViewerView
 * @reason: (out) (optional) (transfer full): return location for the reason,
 *   a sentence naming the stride that breaks row-major order
 *
 * Whether the view is contiguous, and why, in words for the teacher to read
 * out: `Not contiguous: dim 0 has stride 1, but row-major order needs 3.`
 *
 * Returns: %TRUE when the tensor is contiguous
 */
gboolean
lt_viewer_view_explain_contiguity (LtViewerView *self,
                                   char        **reason)
{
  const gint64 *sizes, *strides;
  guint ndim;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);

  if (self->tensor == NULL)
    {
      set_reason (reason, _("No tensor: the expression has not been valid yet."));
      return FALSE;
    }

  if (lt_tensor_is_contiguous (self->tensor))
    {
      if (lt_tensor_get_numel (self->tensor) == 0)
        set_reason (reason, _("Contiguous: the view has no elements."));
      else
        set_reason (reason, _("Contiguous: each dim's stride is the product of the sizes after "
                              "it."));
      return TRUE;
    }

  /* Row-major order needs stride[d] = sizes[d + 1] * ... * sizes[n - 1] for
   * every dim of more than one element; name the first that differs. */
  sizes = lt_tensor_get_sizes (self->tensor, &ndim);
  strides = lt_tensor_get_strides (self->tensor, &ndim);
  for (guint d = 0; d < ndim; d++)
    {
      gint64 needed = 1;

      for (guint e = d + 1; e < ndim; e++)
        needed *= sizes[e];
      if (sizes[d] != 1 && strides[d] != needed)
        {
          g_autofree char *stride = format_int (strides[d]);
          g_autofree char *need = format_int (needed);

          if (reason != NULL)
            *reason = g_strdup_printf (_("Not contiguous: dim %u has stride %s, but row-major "
                                         "order needs %s."),
                                       d, stride, need);
          return FALSE;
        }
    }

  set_reason (reason, _("Not contiguous: the strides are not the row-major ones."));
  return FALSE;
}

/**
 * lt_viewer_view_explain_pytorch:
 * @self: a #LtViewerView
 * @reason: (out) (optional) (transfer full): return location for the reason
 *   when PyTorch differs
 *
 * Whether PyTorch makes the same view: libtensor, like NumPy, has negative
 * strides (`t[::-1]`, `t.flip(0)`, `as_strided()` with a negative stride),
 * which PyTorch refuses or, for flip(), copies. The reason names the dim and
 * says how PyTorch differs.
 *
 * Returns: %TRUE when PyTorch has this view too (or there is no tensor)
 */
gboolean
lt_viewer_view_explain_pytorch (LtViewerView *self,
                                char        **reason)
{
  const gint64 *sizes, *strides;
  guint ndim;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), TRUE);

  if (reason != NULL)
    *reason = NULL;
  if (self->tensor == NULL)
    return TRUE;
  sizes = lt_tensor_get_sizes (self->tensor, &ndim);
  strides = lt_tensor_get_strides (self->tensor, &ndim);
  for (guint d = 0; d < ndim; d++)
    if (sizes[d] > 1 && strides[d] < 0)
      {
        g_autofree char *stride = format_int (strides[d]);

        if (reason != NULL)
          /* Translators: %u is a dim, %s its (negative) stride */
          *reason = g_strdup_printf (_("Not in PyTorch: dim %u has stride %s. PyTorch has no "
                                       "negative strides: it refuses a negative step (t[::-1]) "
                                       "and negative strides in as_strided(), and its flip() "
                                       "copies. NumPy makes this view, as libtensor does."),
                                     d, stride);
        return FALSE;
      }
  return TRUE;
}

/**
 * lt_viewer_view_explain_aliasing:
 * @self: a #LtViewerView
 * @reason: (out) (optional) (transfer full): return location for the reason
 *
 * Whether two elements of the view are the same storage cell, and which:
 * `Elements 0 and 4 share storage cell 0: dim 0 has stride 0 (expanded).`
 *
 * Returns: %TRUE when the view aliases itself
 */
gboolean
lt_viewer_view_explain_aliasing (LtViewerView *self,
                                 char        **reason)
{
  const gint64 *sizes, *strides;
  const gint64 *indices;
  guint ndim;
  gsize n;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);

  if (self->tensor == NULL)
    {
      set_reason (reason, _("No tensor: the expression has not been valid yet."));
      return FALSE;
    }

  sizes = lt_tensor_get_sizes (self->tensor, &ndim);
  strides = lt_tensor_get_strides (self->tensor, &ndim);

  /* An expanded dim is the plainest reason: elements 0 and one step along
   * it; the innermost such dim gives the nearest pair. */
  if (lt_tensor_get_numel (self->tensor) > 1)
    for (guint d = ndim; d-- > 0;)
      if (sizes[d] > 1 && strides[d] == 0)
        {
          gint64 step = 1;
          g_autofree char *second = NULL;
          g_autofree char *cell = NULL;

          for (guint e = d + 1; e < ndim; e++)
            step *= sizes[e];
          second = format_int (step);
          cell = format_int (lt_tensor_get_storage_offset (self->tensor));
          if (reason != NULL)
            *reason = g_strdup_printf (_("Elements 0 and %s share storage cell %s: dim %u has "
                                         "stride 0 (expanded)."),
                                       second, cell, d);
          return TRUE;
        }

  if (!ensure_lookup (self))
    {
      set_reason (reason, _("No aliasing: the view has no elements."));
      return FALSE;
    }

  /* The first element, in row-major order, whose cell an earlier element
   * already reached; the earliest element on that cell is its partner. */
  indices = lt_viewer_view_get_storage_indices (self, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint32 first = self->order[self->starts[indices[i] - self->lowest]];

      if (first < i)
        {
          gint64 index_a[LT_MAX_DIMS], index_b[LT_MAX_DIMS];
          g_autofree char *a = format_int (first);
          g_autofree char *b = format_int ((gint64) i);
          g_autofree char *cell = format_int (indices[i]);
          g_autofree char *tuple_a = NULL;
          g_autofree char *tuple_b = NULL;
          g_autofree char *stride_text = format_tuple (strides, ndim);

          unravel (self->tensor, first, index_a);
          unravel (self->tensor, (gint64) i, index_b);
          tuple_a = format_tuple (index_a, ndim);
          tuple_b = format_tuple (index_b, ndim);
          if (reason != NULL)
            *reason = g_strdup_printf (_("Elements %s and %s share storage cell %s: indices %s "
                                         "and %s both reach it, because the strides %s "
                                         "overlap."),
                                       a, b, cell, tuple_a, tuple_b, stride_text);
          return TRUE;
        }
    }

  set_reason (reason, _("No aliasing: every element has its own storage cell."));
  return FALSE;
}

/**
 * lt_viewer_view_explain_view_as:
 * @self: a #LtViewerView
 * @shape: (array length=n_dims): the shape to view the tensor as
 * @n_dims: the number of dims of @shape
 * @reason: (out) (optional) (transfer full): return location for the reason
 *
 * Whether `view(shape)` works on the view's tensor, tried without keeping
 * the result; when it does not, the reason is the library's message, with
 * its hint to use reshape() or contiguous().
 *
 * Returns: %TRUE when the view is possible
 */
gboolean
lt_viewer_view_explain_view_as (LtViewerView *self,
                                const gint64 *shape,
                                guint         n_dims,
                                char        **reason)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) view = NULL;
  g_autofree char *call = NULL;
  g_autofree char *strides_text = NULL;
  const gint64 *strides;
  guint ndim;

  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), FALSE);
  g_return_val_if_fail (shape != NULL || n_dims == 0, FALSE);

  if (self->tensor == NULL)
    {
      set_reason (reason, _("No tensor: the expression has not been valid yet."));
      return FALSE;
    }

  view = lt_tensor_view (self->tensor, shape, n_dims, &error);
  if (view == NULL)
    {
      set_reason (reason, error->message);
      return FALSE;
    }

  call = format_list (shape, n_dims);
  strides = lt_tensor_get_strides (view, &ndim);
  strides_text = format_tuple (strides, ndim);
  if (reason != NULL)
    *reason = g_strdup_printf (_("view(%s) works without copying: the result has strides %s "
                                 "over the same storage."),
                               call, strides_text);
  return TRUE;
}

/**
 * lt_viewer_view_get_cursor:
 * @self: a #LtViewerView
 *
 * Returns: the element the order stepper is on, or -1
 */
gint64
lt_viewer_view_get_cursor (LtViewerView *self)
{
  g_return_val_if_fail (LT_VIEWER_IS_VIEW (self), -1);

  return self->cursor;
}

/**
 * lt_viewer_view_set_cursor:
 * @self: a #LtViewerView
 * @cursor: a row-major element index, or -1 for none
 *
 * Moves the order stepper; the value is clamped to the elements there are.
 */
void
lt_viewer_view_set_cursor (LtViewerView *self,
                           gint64        cursor)
{
  g_return_if_fail (LT_VIEWER_IS_VIEW (self));

  cursor = clamp_cursor (self, cursor);
  if (cursor == self->cursor)
    return;
  self->cursor = cursor;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
  g_signal_emit (self, signals[CHANGED], 0);
}
