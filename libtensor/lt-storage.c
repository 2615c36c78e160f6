/* lt-storage.c: the flat typed buffer behind every tensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-dtype-private.h"
#include "lt-enums.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-memory-private.h"
#include "lt-storage-private.h"

/**
 * LtStorage:
 *
 * One flat buffer of elements of a single dtype, on one device.
 *
 * Every tensor is a view of a storage: sizes, strides and an offset that say
 * which of its elements the tensor reaches. Views share their storage and keep
 * it alive; the memory is released when the last view and the last reference
 * to the storage are gone. Storages the library allocates are zero-filled and
 * aligned to 64 bytes.
 */
struct _LtStorage
{
  GObject parent_instance;

  LtDType dtype;
  gint64 n_elements;
  gsize nbytes;
  gpointer data;
  const LtBackend *backend;

  /* Who owns data: the backend (owns_data), a caller's destroy notify, a
   * GBytes, or another storage this one reinterprets. */
  gboolean owns_data;
  GDestroyNotify destroy;
  gpointer destroy_data;
  GBytes *bytes;
  LtStorage *base;
};

enum
{
  PROP_0,
  PROP_DTYPE,
  PROP_N_ELEMENTS,
  PROP_NBYTES,
  PROP_DEVICE_TYPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (LtStorage, lt_storage, G_TYPE_OBJECT)

static void
lt_storage_finalize (GObject *object)
{
  LtStorage *self = LT_STORAGE (object);

  if (self->owns_data)
    self->backend->free (self->backend, self->data, self->nbytes);
  if (self->destroy != NULL)
    self->destroy (self->destroy_data);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_object (&self->base);

  G_OBJECT_CLASS (lt_storage_parent_class)->finalize (object);
}

static void
lt_storage_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  LtStorage *self = LT_STORAGE (object);

  switch (prop_id)
    {
    case PROP_DTYPE:
      g_value_set_enum (value, self->dtype);
      break;
    case PROP_N_ELEMENTS:
      g_value_set_int64 (value, self->n_elements);
      break;
    case PROP_NBYTES:
      g_value_set_uint64 (value, self->nbytes);
      break;
    case PROP_DEVICE_TYPE:
      g_value_set_enum (value, self->backend->device_type);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_storage_class_init (LtStorageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lt_storage_finalize;
  object_class->get_property = lt_storage_get_property;

  /**
   * LtStorage:dtype:
   *
   * The type of every element.
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, LT_TYPE_DTYPE, LT_DTYPE_DEFAULT,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtStorage:n-elements:
   *
   * The number of elements.
   */
  properties[PROP_N_ELEMENTS] =
    g_param_spec_int64 ("n-elements", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtStorage:nbytes:
   *
   * The size of the buffer in bytes.
   */
  properties[PROP_NBYTES] =
    g_param_spec_uint64 ("nbytes", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * LtStorage:device-type:
   *
   * The device the memory lives on.
   */
  properties[PROP_DEVICE_TYPE] =
    g_param_spec_enum ("device-type", NULL, NULL, LT_TYPE_DEVICE_TYPE, LT_DEVICE_TYPE_CPU,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lt_storage_init (LtStorage *self)
{
}

static gboolean
byte_size (LtDType  dtype,
           gint64   n_elements,
           gsize   *out_nbytes,
           GError **error)
{
  gint64 nbytes;

  if (n_elements < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("a storage cannot have a negative number of elements (%" PRId64 ")"),
                   n_elements);
      return FALSE;
    }

  if (__builtin_mul_overflow (n_elements, (gint64) lt_dtype_get_element_size (dtype), &nbytes))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("%" PRId64 " elements of %s would need more than 2^63 bytes"),
                   n_elements, lt_dtype_get_name (dtype));
      return FALSE;
    }

  *out_nbytes = (gsize) nbytes;
  return TRUE;
}

static LtStorage *
storage_new (LtDType          dtype,
             gint64           n_elements,
             gsize            nbytes,
             gpointer         data,
             const LtBackend *backend)
{
  LtStorage *self = g_object_new (LT_TYPE_STORAGE, NULL);

  self->dtype = dtype;
  self->n_elements = n_elements;
  self->nbytes = nbytes;
  self->data = data;
  self->backend = backend;

  return self;
}

static LtStorage *
storage_allocate (const LtBackend *backend,
                  LtDType          dtype,
                  gint64           n_elements,
                  gboolean         zeroed,
                  GError         **error)
{
  g_autoptr (GError) device_error = NULL;
  LtStorage *self;
  gpointer data;
  gsize nbytes;

  if (!byte_size (dtype, n_elements, &nbytes, error))
    return NULL;

  data = backend->alloc (backend, nbytes, zeroed, &device_error);
  if (device_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&device_error));
      return NULL;
    }
  if (data == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("cannot allocate %zu bytes for %" PRId64
                     " elements of %s"),
                   nbytes, n_elements, lt_dtype_get_name (dtype));
      return NULL;
    }

  self = storage_new (dtype, n_elements, nbytes, data, backend);
  self->owns_data = TRUE;
  return self;
}

/**
 * lt_storage_new:
 * @dtype: the element type
 * @n_elements: the number of elements
 * @error: return location for a #GError
 *
 * Allocates a zero-filled storage of @n_elements elements in host memory,
 * aligned to 64 bytes.
 *
 * Returns: (transfer full): the new storage, or %NULL with @error set when
 *   @n_elements is negative or the memory cannot be allocated
 */
LtStorage *
lt_storage_new (LtDType  dtype,
                gint64   n_elements,
                GError **error)
{
  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return storage_allocate (lt_cpu_backend_get (), dtype, n_elements, TRUE, error);
}

/* A storage whose elements hold anything: for results a kernel writes in
 * full, which so skip zeroing (and may reuse a cached block). */
LtStorage *
lt_storage_new_uninitialized (LtDType  dtype,
                              gint64   n_elements,
                              GError **error)
{
  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return storage_allocate (lt_cpu_backend_get (), dtype, n_elements, FALSE, error);
}

static gboolean
is_aligned_for (gconstpointer data,
                LtDType       dtype)
{
  /* Complex elements need the alignment of their real halves. */
  gsize alignment = MIN (lt_dtype_get_element_size (dtype), 8);

  return ((guintptr) data % alignment) == 0;
}

/**
 * lt_storage_new_from_bytes:
 * @dtype: the element type
 * @bytes: the elements, in host byte order
 * @error: return location for a #GError
 *
 * Creates a storage over the memory of @bytes, without copying it when the
 * data is aligned to the element size (always the case for memory GLib
 * allocated); the storage keeps a reference to @bytes. Misaligned data is
 * copied into a new, aligned buffer.
 *
 * The storage may be written to through tensors; that writes into the memory
 * of @bytes, so only pass bytes nobody else relies on being constant.
 *
 * Returns: (transfer full): the new storage, or %NULL with @error set when the
 *   size of @bytes is not a multiple of the element size
 */
LtStorage *
lt_storage_new_from_bytes (LtDType  dtype,
                           GBytes  *bytes,
                           GError **error)
{
  gsize nbytes;
  gconstpointer data;
  gsize element_size;
  LtStorage *self;

  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &nbytes);
  element_size = lt_dtype_get_element_size (dtype);

  if (nbytes % element_size != 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%zu bytes are not a whole number of %s elements "
                     "(%zu bytes each)"),
                   nbytes, lt_dtype_get_name (dtype), element_size);
      return NULL;
    }

  if (data == NULL || !is_aligned_for (data, dtype))
    {
      self = lt_storage_new (dtype, (gint64) (nbytes / element_size), error);
      if (self != NULL && nbytes > 0)
        memcpy (self->data, data, nbytes);
      return self;
    }

  self = storage_new (dtype, (gint64) (nbytes / element_size), nbytes, (gpointer) data,
                      lt_cpu_backend_get ());
  self->bytes = g_bytes_ref (bytes);
  return self;
}

/**
 * lt_storage_new_for_data: (skip)
 * @dtype: the element type
 * @data: host memory holding @n_elements elements, aligned to the element size
 * @n_elements: the number of elements
 * @destroy: (nullable): called with @destroy_data when the storage is finalized
 * @destroy_data: (nullable): the argument for @destroy
 * @error: return location for a #GError
 *
 * Wraps memory the caller allocated, without copying it. The caller keeps the
 * memory valid until @destroy is called.
 *
 * Returns: (transfer full): the new storage, or %NULL with @error set when
 *   @n_elements is negative or @data is not aligned to the element size; then
 *   @destroy is not called
 */
LtStorage *
lt_storage_new_for_data (LtDType        dtype,
                         gpointer       data,
                         gint64         n_elements,
                         GDestroyNotify destroy,
                         gpointer       destroy_data,
                         GError       **error)
{
  LtStorage *self;
  gsize nbytes;

  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);
  g_return_val_if_fail (data != NULL || n_elements == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!byte_size (dtype, n_elements, &nbytes, error))
    return NULL;

  if (!is_aligned_for (data, dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("data at %p is not aligned for %s elements; align it to %zu bytes"),
                   data, lt_dtype_get_name (dtype), MIN (lt_dtype_get_element_size (dtype), 8));
      return NULL;
    }

  self = storage_new (dtype, n_elements, nbytes, data, lt_cpu_backend_get ());
  self->destroy = destroy;
  self->destroy_data = destroy_data;
  return self;
}

LtStorage *
lt_storage_new_for_handle (const LtBackend *backend,
                           LtDType          dtype,
                           gpointer         handle,
                           gint64           n_elements,
                           GDestroyNotify   destroy,
                           gpointer         destroy_data,
                           GError         **error)
{
  LtStorage *self;
  gsize nbytes;

  g_return_val_if_fail (backend != NULL, NULL);
  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);

  if (backend == lt_cpu_backend_get ())
    return lt_storage_new_for_data (dtype, handle, n_elements, destroy, destroy_data, error);
  if (!byte_size (dtype, n_elements, &nbytes, error))
    return NULL;
  self = storage_new (dtype, n_elements, nbytes, handle, backend);
  self->destroy = destroy;
  self->destroy_data = destroy_data;
  return self;
}

/* A storage in the memory of @backend's device, zero-filled or not. */
LtStorage *
lt_storage_new_on_backend (const LtBackend *backend,
                           LtDType          dtype,
                           gint64           n_elements,
                           gboolean         zeroed,
                           GError         **error)
{
  g_return_val_if_fail (backend != NULL, NULL);
  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);

  return storage_allocate (backend, dtype, n_elements, zeroed, error);
}

/**
 * lt_storage_get_device:
 * @self: an #LtStorage
 *
 * Returns: (transfer full): the device the memory lives on
 */
LtDevice *
lt_storage_get_device (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), NULL);

  return lt_device_new (self->backend->device_type, self->backend->device_index);
}

/* A storage of another dtype over the same memory, for view_as_real() and
 * view_as_complex(). It keeps @base alive. */
LtStorage *
lt_storage_new_reinterpreted (LtStorage *base,
                              LtDType    dtype)
{
  LtStorage *self;
  gsize element_size = lt_dtype_get_element_size (dtype);

  g_return_val_if_fail (LT_IS_STORAGE (base), NULL);

  self = storage_new (dtype, (gint64) (base->nbytes / element_size), base->nbytes, base->data,
                      base->backend);
  self->base = g_object_ref (base->base != NULL ? base->base : base);
  return self;
}

const LtBackend *
lt_storage_get_backend (LtStorage *self)
{
  return self->backend;
}

/**
 * lt_storage_get_dtype:
 * @self: an #LtStorage
 *
 * Returns: the type of the elements
 */
LtDType
lt_storage_get_dtype (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), LT_DTYPE_DEFAULT);

  return self->dtype;
}

/**
 * lt_storage_get_n_elements:
 * @self: an #LtStorage
 *
 * Returns: the number of elements
 */
gint64
lt_storage_get_n_elements (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), 0);

  return self->n_elements;
}

/**
 * lt_storage_get_nbytes:
 * @self: an #LtStorage
 *
 * Returns: the size of the buffer in bytes
 */
gsize
lt_storage_get_nbytes (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), 0);

  return self->nbytes;
}

/**
 * lt_storage_get_device_type:
 * @self: an #LtStorage
 *
 * Returns: the kind of device the memory lives on
 */
LtDeviceType
lt_storage_get_device_type (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), LT_DEVICE_TYPE_CPU);

  return self->backend->device_type;
}

static gboolean
on_host (LtStorage *self)
{
  return self->backend->device_type == LT_DEVICE_TYPE_CPU;
}

/**
 * lt_storage_get_data: (skip)
 * @self: an #LtStorage
 *
 * The first element's address, valid as long as @self is alive.
 *
 * Returns: (transfer none) (nullable): the memory of the storage, or %NULL
 *   for a storage on a GPU device, which is not host memory
 */
gpointer
lt_storage_get_data (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), NULL);

  return on_host (self) ? self->data : NULL;
}

/* The backend's handle of the memory: the host address, a cl_mem, a CUDA
 * device pointer. */
gpointer
lt_storage_get_handle (LtStorage *self)
{
  return self->data;
}

/**
 * lt_storage_get_data_address:
 * @self: an #LtStorage
 *
 * The first element's address as an integer, for language bindings that hand
 * the memory to other libraries without copying (NumPy's
 * `__array_interface__`). The address stays valid as long as @self is alive.
 *
 * Returns: the address of the memory of the storage, or 0 for a storage on
 *   a GPU device
 */
guint64
lt_storage_get_data_address (LtStorage *self)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), 0);

  return on_host (self) ? (guint64) (guintptr) self->data : 0;
}

static gboolean
check_index (LtStorage *self,
             gint64     index,
             GError   **error)
{
  if (index < 0 || index >= self->n_elements)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("storage index %" PRId64 " is out of range for a storage of %"
                     PRId64 " elements"),
                   index, self->n_elements);
      return FALSE;
    }
  return TRUE;
}

static gpointer
element_at (LtStorage *self,
            gint64     index)
{
  return (guint8 *) self->data + (gsize) index * lt_dtype_get_element_size (self->dtype);
}

gboolean
lt_storage_read_value (LtStorage *self,
            gint64     index,
            LtValue   *value,
            GError   **error)
{
  gsize size = lt_dtype_get_element_size (self->dtype);
  guint8 element[16];

  if (!check_index (self, index, error))
    return FALSE;
  if (on_host (self))
    {
      *value = lt_value_read (self->dtype, element_at (self, index));
      return TRUE;
    }
  if (!self->backend->download (self->backend, element, self->data, (gsize) index * size, size,
                                error))
    return FALSE;
  *value = lt_value_read (self->dtype, element);
  return TRUE;
}

gboolean
lt_storage_write_value (LtStorage *self,
             gint64     index,
             LtValue    value,
             GError   **error)
{
  gsize size = lt_dtype_get_element_size (self->dtype);
  guint8 element[16];

  if (!check_index (self, index, error))
    return FALSE;
  if (on_host (self))
    {
      lt_value_write (self->dtype, element_at (self, index), value);
      return TRUE;
    }
  lt_value_write (self->dtype, element, value);
  return self->backend->upload (self->backend, self->data, (gsize) index * size, element, size,
                                error);
}

/**
 * lt_storage_get_double:
 * @self: an #LtStorage
 * @index: a flat element index
 * @out_value: (out): return location for the value
 * @error: return location for a #GError
 *
 * Reads one element as a double. Complex elements give their real part.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @index is out of range
 */
gboolean
lt_storage_get_double (LtStorage *self,
                       gint64     index,
                       double    *out_value,
                       GError   **error)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), FALSE);
  g_return_val_if_fail (out_value != NULL, FALSE);

  LtValue value;

  if (!lt_storage_read_value (self, index, &value, error))
    return FALSE;
  *out_value = lt_value_to_double (value);
  return TRUE;
}

/**
 * lt_storage_set_double:
 * @self: an #LtStorage
 * @index: a flat element index
 * @value: the new value, converted to the storage's dtype as PyTorch does
 * @error: return location for a #GError
 *
 * Writes one element.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @index is out of range
 */
gboolean
lt_storage_set_double (LtStorage *self,
                       gint64     index,
                       double     value,
                       GError   **error)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), FALSE);

  return lt_storage_write_value (self, index, lt_value_from_double (value), error);
}

/**
 * lt_storage_get_int64:
 * @self: an #LtStorage
 * @index: a flat element index
 * @out_value: (out): return location for the value
 * @error: return location for a #GError
 *
 * Reads one element as an integer, exactly for every integer dtype; floating
 * point values are truncated toward zero.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @index is out of range
 */
gboolean
lt_storage_get_int64 (LtStorage *self,
                      gint64     index,
                      gint64    *out_value,
                      GError   **error)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), FALSE);
  g_return_val_if_fail (out_value != NULL, FALSE);

  LtValue value;

  if (!lt_storage_read_value (self, index, &value, error))
    return FALSE;
  *out_value = lt_value_to_int64 (value);
  return TRUE;
}

/**
 * lt_storage_set_int64:
 * @self: an #LtStorage
 * @index: a flat element index
 * @value: the new value, converted to the storage's dtype as PyTorch does
 * @error: return location for a #GError
 *
 * Writes one element from an integer, exactly for int64 storages.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @index is out of range
 */
gboolean
lt_storage_set_int64 (LtStorage *self,
                      gint64     index,
                      gint64     value,
                      GError   **error)
{
  g_return_val_if_fail (LT_IS_STORAGE (self), FALSE);

  return lt_storage_write_value (self, index, lt_value_from_int64 (value), error);
}

/**
 * lt_storage_get_bytes:
 * @self: an #LtStorage
 * @error: return location for a #GError
 *
 * The whole buffer as #GBytes. For host memory, without copying: the bytes
 * keep @self alive and show later writes to the storage. For a storage on
 * a GPU device, a copy downloaded now.
 *
 * Returns: (transfer full): the memory of the storage, or %NULL with @error
 *   set when the host has no memory for the copy or the download fails
 */
GBytes *
lt_storage_get_bytes (LtStorage *self,
                      GError   **error)
{
  g_autofree guint8 *copy = NULL;

  g_return_val_if_fail (LT_IS_STORAGE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (on_host (self))
    return g_bytes_new_with_free_func (self->data, self->nbytes, g_object_unref,
                                       g_object_ref (self));

  copy = lt_memory_alloc (self->nbytes, N_("a copy of a device storage on the host"), error);
  if (copy == NULL)
    return NULL;
  if (!self->backend->download (self->backend, copy, self->data, 0, self->nbytes, error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&copy), self->nbytes);
}

/**
 * lt_storage_shares_memory:
 * @self: an #LtStorage
 * @other: another #LtStorage
 *
 * Whether both storages are the same memory, possibly read as different
 * dtypes (as view_as_real() does).
 *
 * Returns: %TRUE when writes through one can be seen through the other
 */
gboolean
lt_storage_shares_memory (LtStorage *self,
                          LtStorage *other)
{
  guintptr self_start, other_start;

  g_return_val_if_fail (LT_IS_STORAGE (self), FALSE);
  g_return_val_if_fail (LT_IS_STORAGE (other), FALSE);

  if (self == other)
    return TRUE;
  if (self->backend != other->backend || self->nbytes == 0 || other->nbytes == 0)
    return FALSE;

  /* OpenCL buffers are handles: the same buffer or none of it. */
  if (self->backend->device_type == LT_DEVICE_TYPE_OPENCL)
    return self->data == other->data;

  /* Compare address ranges, so that storages made separately over the same
   * memory (two from one GBytes, a reinterpreted one) are recognised too. */
  self_start = (guintptr) self->data;
  other_start = (guintptr) other->data;
  return self_start < other_start + other->nbytes && other_start < self_start + self->nbytes;
}
