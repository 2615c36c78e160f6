/* lt-tensor.c: the tensor object, its metadata and its inspection
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-enums.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-memory-private.h"
#include "lt-tensor-private.h"

/**
 * LtTensor:
 *
 * A strided view of an [class@Lt.Storage].
 *
 * A tensor is a storage plus sizes, strides and a storage offset: element
 * `[i0, ..., ik]` is the storage element `offset + stride0 * i0 + ... +
 * stridek * ik`. Indexing, slicing, transposing, reshaping with view() and
 * the other view operations only compute new sizes, strides and offsets over
 * the same storage, so they cost the same whatever the size of the data, and
 * writes through a view are seen by every other view of the storage.
 * [method@Lt.Tensor.contiguous] and [method@Lt.Tensor.clone] copy.
 *
 * The semantics of every operation (the resulting sizes, strides, offset and
 * values, and which arguments are errors) are PyTorch's, with one deliberate
 * difference, as in NumPy: strides may be negative. [method@Lt.Tensor.flip]
 * returns a view instead of a copy, slices accept a negative step and
 * [method@Lt.Tensor.as_strided] accepts negative strides.
 *
 * The metadata of a tensor never changes after it is created, except
 * through the in-place view operations PyTorch has
 * ([method@Lt.Tensor.unsqueeze_], [method@Lt.Tensor.transpose_] and the
 * others ending in `_` in lt-tensor-views-in-place.c), which give the tensor
 * they are called on a new shape over the same storage. Tensors may be read
 * from several threads at once, as long as none of them calls those.
 */

enum
{
  PROP_0,
  PROP_DTYPE,
  PROP_DIM,
  PROP_NUMEL,
  PROP_STORAGE,
  PROP_STORAGE_OFFSET,
  PROP_CONTIGUOUS_LAYOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (LtTensor, lt_tensor, G_TYPE_OBJECT)

static void
lt_tensor_finalize (GObject *object)
{
  LtTensor *self = LT_TENSOR (object);

  if (self->sizes != self->inline_shape)
    g_free (self->sizes);
  g_free (self->names);
  g_clear_object (&self->storage);

  G_OBJECT_CLASS (lt_tensor_parent_class)->finalize (object);
}

static void
lt_tensor_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  LtTensor *self = LT_TENSOR (object);

  switch (prop_id)
    {
    case PROP_DTYPE:
      g_value_set_enum (value, lt_tensor_get_dtype (self));
      break;
    case PROP_DIM:
      g_value_set_uint (value, self->ndim);
      break;
    case PROP_NUMEL:
      g_value_set_int64 (value, self->numel);
      break;
    case PROP_STORAGE:
      g_value_set_object (value, self->storage);
      break;
    case PROP_STORAGE_OFFSET:
      g_value_set_int64 (value, self->storage_offset);
      break;
    case PROP_CONTIGUOUS_LAYOUT:
      g_value_set_boolean (value, self->is_contiguous);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_tensor_class_init (LtTensorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lt_tensor_finalize;
  object_class->get_property = lt_tensor_get_property;

  /**
   * LtTensor:dtype:
   *
   * The type of the elements, which is the storage's.
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, LT_TYPE_DTYPE, LT_DTYPE_DEFAULT,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtTensor:dim:
   *
   * The number of dimensions.
   */
  properties[PROP_DIM] =
    g_param_spec_uint ("dim", NULL, NULL, 0, LT_MAX_DIMS, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtTensor:numel:
   *
   * The number of elements: the product of the sizes.
   */
  properties[PROP_NUMEL] =
    g_param_spec_int64 ("numel", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtTensor:storage:
   *
   * The storage the tensor is a view of.
   */
  properties[PROP_STORAGE] =
    g_param_spec_object ("storage", NULL, NULL, LT_TYPE_STORAGE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtTensor:storage-offset:
   *
   * The storage index of the first element.
   */
  properties[PROP_STORAGE_OFFSET] =
    g_param_spec_int64 ("storage-offset", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtTensor:contiguous-layout:
   *
   * Whether the elements lie in the storage in row-major order without gaps,
   * as lt_tensor_is_contiguous() defines it.
   *
   * The property is not called "is-contiguous" because JavaScript (gjs)
   * gives properties and methods one namespace, and such a property would
   * hide the is_contiguous() method.
   */
  properties[PROP_CONTIGUOUS_LAYOUT] =
    g_param_spec_boolean ("contiguous-layout", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lt_tensor_init (LtTensor *self)
{
}

/* A tensor over @storage with the given metadata, which the caller has
 * validated: sizes >= 0, element count and storage range checked. */
LtTensor *
lt_tensor_new_view (LtStorage    *storage,
                    guint         ndim,
                    const gint64 *sizes,
                    const gint64 *strides,
                    gint64        storage_offset)
{
  LtTensor *self = g_object_new (LT_TYPE_TENSOR, NULL);

  g_assert (ndim <= LT_MAX_DIMS);

  self->storage = g_object_ref (storage);
  self->storage_offset = storage_offset;
  self->ndim = ndim;

  if (ndim <= LT_TENSOR_INLINE_DIMS)
    self->sizes = self->inline_shape;
  else
    self->sizes = g_new (gint64, 2 * ndim);
  self->strides = self->sizes + ndim;

  if (ndim > 0)
    {
      memcpy (self->sizes, sizes, ndim * sizeof (gint64));
      memcpy (self->strides, strides, ndim * sizeof (gint64));
    }

  if (!lt_layout_numel (ndim, sizes, &self->numel))
    g_assert_not_reached ();
  self->is_contiguous = lt_layout_is_contiguous (ndim, sizes, strides);

  return self;
}

/* Gives @self @view's sizes, strides, offset and names (@view, a view of the
 * same storage, gives its names up), for the in-place view operations. */
void
lt_tensor_take_layout (LtTensor *self,
                       LtTensor *view)
{
  g_assert (self->storage == view->storage);

  if (self->sizes != self->inline_shape)
    g_free (self->sizes);
  self->ndim = view->ndim;
  if (self->ndim <= LT_TENSOR_INLINE_DIMS)
    self->sizes = self->inline_shape;
  else
    self->sizes = g_new (gint64, 2 * self->ndim);
  self->strides = self->sizes + self->ndim;
  if (self->ndim > 0)
    {
      memcpy (self->sizes, view->sizes, self->ndim * sizeof (gint64));
      memcpy (self->strides, view->strides, self->ndim * sizeof (gint64));
    }
  self->storage_offset = view->storage_offset;
  self->numel = view->numel;
  self->is_contiguous = view->is_contiguous;
  g_free (self->names);
  self->names = g_steal_pointer (&view->names);

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NUMEL]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORAGE_OFFSET]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTIGUOUS_LAYOUT]);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
lt_tensor_check_sizes (const char   *op,
                       const gint64 *sizes,
                       guint         n_sizes,
                       GError      **error)
{
  gint64 numel;

  if (n_sizes > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: %u dims are more than the %d a tensor can have"), op, n_sizes,
                   LT_MAX_DIMS);
      return FALSE;
    }

  for (guint d = 0; d < n_sizes; d++)
    if (sizes[d] < 0)
      {
        g_autofree char *shape = lt_layout_shape_to_string (n_sizes, sizes);
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s: size %" PRId64 " of dim %u in %s is negative; sizes must be "
                       ">= 0"),
                     op, sizes[d], d, shape);
        return FALSE;
      }

  if (!lt_layout_numel (n_sizes, sizes, &numel))
    {
      g_autofree char *shape = lt_layout_shape_to_string (n_sizes, sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the number of elements of %s does not fit in 64 bits"), op, shape);
      return FALSE;
    }

  return TRUE;
}

static LtTensor *
new_contiguous (const LtBackend *backend,
                const char      *op,
                LtDType          dtype,
                guint            ndim,
                const gint64    *sizes,
                gboolean         zeroed,
                GError         **error)
{
  g_autoptr (LtStorage) storage = NULL;
  gint64 strides[LT_MAX_DIMS];
  gint64 numel;

  if (!lt_tensor_check_sizes (op, sizes, ndim, error))
    return NULL;

  if (!lt_layout_contiguous_strides (ndim, sizes, strides))
    {
      g_autofree char *shape = lt_layout_shape_to_string (ndim, sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the strides of %s do not fit in 64 bits"), op, shape);
      return NULL;
    }

  lt_layout_numel (ndim, sizes, &numel);
  storage = lt_storage_new_on_backend (backend, dtype, numel, zeroed, error);
  if (storage == NULL)
    return NULL;

  return lt_tensor_new_view (storage, ndim, sizes, strides, 0);
}

/* A zero-filled, contiguous tensor of a new storage. */
LtTensor *
lt_tensor_new_contiguous (const char   *op,
                          LtDType       dtype,
                          guint         ndim,
                          const gint64 *sizes,
                          GError      **error)
{
  return new_contiguous (lt_cpu_backend_get (), op, dtype, ndim, sizes, TRUE, error);
}

/* The same with elements holding anything, for a result the caller's kernel
 * writes in full (copies, pointwise results): no zeroing pass, and the
 * memory may come from the backend's cache of freed blocks. */
LtTensor *
lt_tensor_new_contiguous_uninitialized (const char   *op,
                                        LtDType       dtype,
                                        guint         ndim,
                                        const gint64 *sizes,
                                        GError      **error)
{
  return new_contiguous (lt_cpu_backend_get (), op, dtype, ndim, sizes, FALSE, error);
}

/* The same on the device of @backend. */
LtTensor *
lt_tensor_new_contiguous_on (const LtBackend *backend,
                             const char      *op,
                             LtDType          dtype,
                             guint            ndim,
                             const gint64    *sizes,
                             GError         **error)
{
  return new_contiguous (backend, op, dtype, ndim, sizes, FALSE, error);
}

/* A new tensor shaped like @like whose strides keep @like's memory order
 * (PyTorch's preserve_format): the same strides when @like is dense and
 * non-overlapping, dense strides in the same dim order otherwise. Unless
 * @zeroed, its elements hold anything: the caller writes every one (the
 * layout is dense, so that covers the whole storage). */
LtTensor *
lt_tensor_new_strided_like (LtTensor *like,
                            LtDType   dtype,
                            gboolean  zeroed,
                            GError  **error)
{
  g_autoptr (LtStorage) storage = NULL;
  gint64 strides[LT_MAX_DIMS];
  gboolean has_negative = FALSE;

  for (guint d = 0; d < like->ndim; d++)
    has_negative |= like->strides[d] < 0;

  /* Contiguous tensors count as dense even when empty with any strides, as
   * in PyTorch. */
  if (like->is_contiguous
      || (!has_negative
          && lt_layout_is_non_overlapping_and_dense (like->ndim, like->sizes, like->strides)))
    memcpy (strides, like->strides, like->ndim * sizeof (gint64));
  else
    lt_layout_dense_strides_like (like->ndim, like->sizes, like->strides, strides);

  /* On @like's device: copies stay where their source is. */
  storage = lt_storage_new_on_backend (lt_storage_get_backend (like->storage), dtype, like->numel,
                                       zeroed, error);
  if (storage == NULL)
    return NULL;

  return lt_tensor_new_view (storage, like->ndim, like->sizes, strides, 0);
}

/* PyTorch's maybe_wrap_dim: negative dims count from the end, and a 0-dim
 * tensor accepts 0 and -1 as if it had one dim. */
gboolean
lt_tensor_wrap_dim (const char *op,
                    int         dim,
                    guint       ndim,
                    guint      *out_dim,
                    GError    **error)
{
  gint64 range = MAX (ndim, 1);

  if (dim < -range || dim >= range)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   g_dngettext (lt_gettext_domain (),
                                "%s: dim %d is out of range for a tensor with %u dim (expected a "
                                "dim from %" PRId64 " to %" PRId64 ")",
                                "%s: dim %d is out of range for a tensor with %u dims (expected a "
                                "dim from %" PRId64 " to %" PRId64 ")",
                                ndim),
                   op, dim, ndim, -range, range - 1);
      return FALSE;
    }

  *out_dim = (guint) (dim < 0 ? dim + range : dim);
  return TRUE;
}

/* Writes into a tensor whose elements share memory would make the result
 * depend on the order of the writes. */
gboolean
lt_tensor_check_writable (const char *op,
                          LtTensor   *self,
                          GError    **error)
{
  if (lt_tensor_has_internal_overlap (self))
    {
      g_autofree char *layout = lt_tensor_describe_layout (self);
      g_set_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP,
                   _("%s: cannot write into a tensor with %s, because several of its elements "
                     "are the same storage element (an expanded or overlapping view); "
                     "write into clone() or contiguous() instead"),
                   op, layout);
      return FALSE;
    }
  return TRUE;
}

LtOperand
lt_tensor_operand (LtTensor *self)
{
  LtDType dtype = lt_storage_get_dtype (self->storage);
  guint8 *data = lt_storage_get_handle (self->storage);
  gboolean on_host = lt_storage_get_device_type (self->storage) == LT_DEVICE_TYPE_CPU;

  return (LtOperand) {
    .data = on_host ? data + self->storage_offset * (gint64) lt_dtype_get_element_size (dtype)
                    : NULL,
    .dtype = dtype,
    .strides = self->strides,
    .buffer = data,
    .offset = self->storage_offset,
  };
}

/* "sizes (2, 3) and strides (1, 2)", for error messages. */
char *
lt_tensor_describe_layout (LtTensor *self)
{
  g_autofree char *sizes = lt_layout_shape_to_string (self->ndim, self->sizes);
  g_autofree char *strides = lt_layout_shape_to_string (self->ndim, self->strides);

  return g_strdup_printf (_("sizes %s and strides %s"), sizes, strides);
}

/**
 * lt_tensor_get_dtype:
 * @self: an #LtTensor
 *
 * Returns: the type of the elements
 */
LtDType
lt_tensor_get_dtype (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), LT_DTYPE_DEFAULT);

  return lt_storage_get_dtype (self->storage);
}

/**
 * lt_tensor_get_dim:
 * @self: an #LtTensor
 *
 * Returns: the number of dimensions; 0 for a scalar
 */
guint
lt_tensor_get_dim (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), 0);

  return self->ndim;
}

/**
 * lt_tensor_get_numel:
 * @self: an #LtTensor
 *
 * Returns: the number of elements, the product of the sizes
 */
gint64
lt_tensor_get_numel (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), 0);

  return self->numel;
}

/**
 * lt_tensor_get_sizes:
 * @self: an #LtTensor
 * @n_dims: (out): return location for the number of dims
 *
 * The size of each dim, PyTorch's `size()` and NumPy's `shape`.
 *
 * Returns: (array length=n_dims) (transfer none): the sizes, owned by @self
 */
const gint64 *
lt_tensor_get_sizes (LtTensor *self,
                     guint    *n_dims)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (n_dims != NULL, NULL);

  *n_dims = self->ndim;
  return self->sizes;
}

/**
 * lt_tensor_get_strides:
 * @self: an #LtTensor
 * @n_dims: (out): return location for the number of dims
 *
 * The stride of each dim: how many storage elements apart two elements are
 * whose index differs by one in that dim. Strides are in elements, not bytes.
 *
 * Returns: (array length=n_dims) (transfer none): the strides, owned by @self
 */
const gint64 *
lt_tensor_get_strides (LtTensor *self,
                       guint    *n_dims)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (n_dims != NULL, NULL);

  *n_dims = self->ndim;
  return self->strides;
}

/**
 * lt_tensor_get_storage_offset:
 * @self: an #LtTensor
 *
 * Returns: the storage index of the first element
 */
gint64
lt_tensor_get_storage_offset (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), 0);

  return self->storage_offset;
}

/**
 * lt_tensor_get_storage:
 * @self: an #LtTensor
 *
 * Returns: (transfer none): the storage @self is a view of
 */
LtStorage *
lt_tensor_get_storage (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  return self->storage;
}

/**
 * lt_tensor_is_contiguous:
 * @self: an #LtTensor
 *
 * Whether the elements lie in the storage in row-major order without gaps.
 * As in PyTorch, dims of size 1 may have any stride, and a tensor without
 * elements is contiguous.
 *
 * Returns: %TRUE if @self is contiguous
 */
gboolean
lt_tensor_is_contiguous (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return self->is_contiguous;
}

/**
 * lt_tensor_shares_storage:
 * @self: an #LtTensor
 * @other: another #LtTensor
 *
 * Whether the two tensors are views of the same memory, so that writes
 * through one may be seen through the other.
 *
 * Returns: %TRUE if the storages share memory
 */
gboolean
lt_tensor_shares_storage (LtTensor *self,
                          LtTensor *other)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);

  return lt_storage_shares_memory (self->storage, other->storage);
}

/**
 * lt_tensor_has_internal_overlap:
 * @self: an #LtTensor
 *
 * Whether two different elements of @self are the same storage element, as
 * in an expanded view (stride 0) or an overlapping as_strided() view. Writes
 * into such tensors are refused. For very large views whose strides do not
 * rule overlap out, the answer errs on the side of %TRUE.
 *
 * Returns: %TRUE if some storage element is reached more than once
 */
gboolean
lt_tensor_has_internal_overlap (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return lt_layout_has_internal_overlap (self->ndim, self->sizes, self->strides);
}

/**
 * lt_tensor_get_storage_indices:
 * @self: an #LtTensor
 * @n_indices: (out): return location for the number of indices, the element count
 * @error: return location for a #GError
 *
 * The storage index of every element of @self, in row-major order: which
 * storage cell each element is. This is what Tensor Viewer draws.
 *
 * An expanded view can have far more elements than its storage has cells;
 * when there is no memory for one index per element, this fails instead of
 * aborting.
 *
 * Returns: (array length=n_indices) (transfer full) (nullable): the indices,
 *   or %NULL for a tensor without elements (@error not set), or %NULL with
 *   @error set (%LT_ERROR_OUT_OF_MEMORY) and @n_indices 0 when the indices do
 *   not fit in memory
 */
gint64 *
lt_tensor_get_storage_indices (LtTensor *self,
                               gsize    *n_indices,
                               GError  **error)
{
  gint64 *indices;
  gsize nbytes;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *n_indices = 0;
  if (self->numel == 0)
    return NULL;

  if (__builtin_mul_overflow ((gsize) self->numel, sizeof (gint64), &nbytes))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("the storage indices of %" PRId64 " elements would need more "
                     "memory than can be addressed"), self->numel);
      return NULL;
    }
  indices = lt_memory_alloc (nbytes, N_("the storage indices of a tensor"), error);
  if (indices == NULL)
    return NULL;
  lt_layout_storage_indices (self->ndim, self->sizes, self->strides, self->storage_offset,
                             indices);
  *n_indices = (gsize) self->numel;
  return indices;
}

/**
 * lt_tensor_get_storage_index_tensor:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * The same numbers as lt_tensor_get_storage_indices(), as a new contiguous
 * int64 tensor of @self's sizes: element [i, j] is the storage index of
 * element [i, j] of @self. Unlike a C array, a tensor crosses into Python
 * or JavaScript without being converted element by element
 * (`numpy.asarray()` shares its memory), which is what makes this the fast
 * way to get the indices of a large view from a script.
 *
 * Returns: (transfer full): the indices, or %NULL with @error set when the
 *   memory cannot be allocated
 */
LtTensor *
lt_tensor_get_storage_index_tensor (LtTensor *self,
                                    GError  **error)
{
  g_autoptr (LtTensor) indices = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  indices = lt_tensor_new_contiguous ("get_storage_index_tensor()", LT_DTYPE_INT64, self->ndim,
                                      self->sizes, error);
  if (indices == NULL)
    return NULL;
  if (self->numel > 0)
    lt_layout_storage_indices (self->ndim, self->sizes, self->strides, self->storage_offset,
                               lt_storage_get_data (indices->storage));
  return g_steal_pointer (&indices);
}

/**
 * lt_tensor_storage_index_of:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim; negative indices
 *   count from the end
 * @n_indices: the number of indices, which must be the number of dims
 * @out_index: (out): return location for the storage index
 * @error: return location for a #GError
 *
 * The storage index of one element: `offset + stride0 * i0 + ...`.
 *
 * Returns: %TRUE on success, %FALSE with @error set when the number of
 *   indices is wrong or an index is out of range
 */
gboolean
lt_tensor_storage_index_of (LtTensor     *self,
                            const gint64 *indices,
                            guint         n_indices,
                            gint64       *out_index,
                            GError      **error)
{
  gint64 position;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (indices != NULL || n_indices == 0, FALSE);
  g_return_val_if_fail (out_index != NULL, FALSE);

  if (n_indices != self->ndim)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%u indices given for a tensor with %u dims; give one index per dim"),
                   n_indices, self->ndim);
      return FALSE;
    }

  position = self->storage_offset;
  for (guint d = 0; d < n_indices; d++)
    {
      gint64 index = indices[d];

      if (index < -self->sizes[d] || index >= self->sizes[d])
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                       _("index %" PRId64 " is out of range for dim %u of size %"
                         PRId64),
                       index, d, self->sizes[d]);
          return FALSE;
        }
      if (index < 0)
        index += self->sizes[d];
      position += index * self->strides[d];
    }

  *out_index = position;
  return TRUE;
}
