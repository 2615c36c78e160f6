/* lt-tensor-elements.c: reading and writing single elements, exporting values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-dtype-private.h"
#include "lt-error.h"
#include "lt-memory-private.h"
#include "lt-tensor-private.h"

/* Element @indices of @self, read from its storage (downloaded from a
 * device, one element). */
static gboolean
read_element (LtTensor     *self,
              const gint64 *indices,
              guint         n_indices,
              LtValue      *value,
              GError      **error)
{
  gint64 index;

  return lt_tensor_storage_index_of (self, indices, n_indices, &index, error)
         && lt_storage_read_value (self->storage, index, value, error);
}

static gboolean
write_element (LtTensor     *self,
               const gint64 *indices,
               guint         n_indices,
               LtValue       value,
               GError      **error)
{
  gint64 index;

  return lt_tensor_storage_index_of (self, indices, n_indices, &index, error)
         && lt_storage_write_value (self->storage, index, value, error);
}

/**
 * lt_tensor_get_double:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @out_value: (out): return location for the value
 * @error: return location for a #GError
 *
 * Reads one element as a double; complex elements give their real part.
 *
 * Returns: %TRUE on success, %FALSE with @error set for a wrong number of
 *   indices or an index out of range
 */
gboolean
lt_tensor_get_double (LtTensor     *self,
                      const gint64 *indices,
                      guint         n_indices,
                      double       *out_value,
                      GError      **error)
{
  LtValue value;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (out_value != NULL, FALSE);

  if (!read_element (self, indices, n_indices, &value, error))
    return FALSE;
  *out_value = lt_value_to_double (value);
  return TRUE;
}

/**
 * lt_tensor_set_double:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @value: the new value, converted to the tensor's dtype
 * @error: return location for a #GError
 *
 * Writes one element, into the storage shared with every other view of it.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_set_double (LtTensor     *self,
                      const gint64 *indices,
                      guint         n_indices,
                      double        value,
                      GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return write_element (self, indices, n_indices, lt_value_from_double (value), error);
}

/**
 * lt_tensor_get_int64:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @out_value: (out): return location for the value
 * @error: return location for a #GError
 *
 * Reads one element as an integer: exact for every integer dtype, truncated
 * toward zero for floating point ones.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_get_int64 (LtTensor     *self,
                     const gint64 *indices,
                     guint         n_indices,
                     gint64       *out_value,
                     GError      **error)
{
  LtValue value;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (out_value != NULL, FALSE);

  if (!read_element (self, indices, n_indices, &value, error))
    return FALSE;
  *out_value = lt_value_to_int64 (value);
  return TRUE;
}

/**
 * lt_tensor_set_int64:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @value: the new value, converted to the tensor's dtype
 * @error: return location for a #GError
 *
 * Writes one element from an integer, exactly for int64 tensors.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_set_int64 (LtTensor     *self,
                     const gint64 *indices,
                     guint         n_indices,
                     gint64        value,
                     GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return write_element (self, indices, n_indices, lt_value_from_int64 (value), error);
}

/**
 * lt_tensor_get_complex:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @out_real: (out): return location for the real part
 * @out_imag: (out): return location for the imaginary part, 0 for real dtypes
 * @error: return location for a #GError
 *
 * Reads one element as a complex number.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_get_complex (LtTensor     *self,
                       const gint64 *indices,
                       guint         n_indices,
                       double       *out_real,
                       double       *out_imag,
                       GError      **error)
{
  LtValue value;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (out_real != NULL, FALSE);
  g_return_val_if_fail (out_imag != NULL, FALSE);

  if (!read_element (self, indices, n_indices, &value, error))
    return FALSE;
  *out_real = lt_value_to_double (value);
  *out_imag = value.kind == LT_VALUE_COMPLEX ? value.im : 0.0;
  return TRUE;
}

/**
 * lt_tensor_set_complex:
 * @self: an #LtTensor
 * @indices: (array length=n_indices): one index per dim (negative counts from the end)
 * @n_indices: the number of indices, which must be the number of dims
 * @real: the real part
 * @imag: the imaginary part, dropped for real dtypes
 * @error: return location for a #GError
 *
 * Writes one element from a complex number.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_set_complex (LtTensor     *self,
                       const gint64 *indices,
                       guint         n_indices,
                       double        real,
                       double        imag,
                       GError      **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return write_element (self, indices, n_indices, lt_value_from_complex (real, imag), error);
}

/**
 * lt_tensor_to_doubles:
 * @self: an #LtTensor
 * @n_values: (out): return location for the number of values
 *
 * Every element as a double, in row-major order. Complex tensors give two
 * values per element, the real part then the imaginary part.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the values, or
 *   %NULL for a tensor without elements (or when memory runs out)
 */
double *
lt_tensor_to_doubles (LtTensor *self,
                      gsize    *n_values)
{
  g_autoptr (LtTensor) values = NULL;
  g_autoptr (LtTensor) host = NULL;
  gboolean complex;
  gsize count;
  double *result;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (n_values != NULL, NULL);

  *n_values = 0;
  if (self->numel == 0)
    return NULL;

  /* The values of a tensor on a device are read from a copy on the CPU. */
  host = lt_tensor_to_cpu (self, NULL);
  if (host == NULL)
    return NULL;

  /* A complex128 element is laid out as two doubles, real then imaginary,
   * so a contiguous complex128 copy already holds the wanted values. (Not
   * view_as_real(): that needs one more dim than the tensor may have.) */
  complex = lt_dtype_is_complex (lt_tensor_get_dtype (self));
  values = lt_tensor_new_contiguous ("to_doubles()",
                                     complex ? LT_DTYPE_COMPLEX128 : LT_DTYPE_FLOAT64,
                                     self->ndim, self->sizes, NULL);
  if (values == NULL || !lt_tensor_copy_from (values, host, NULL))
    return NULL;

  count = (gsize) values->numel * (complex ? 2 : 1);
  result = lt_memory_try_alloc (count * sizeof (double), FALSE);
  if (result == NULL)
    return NULL;
  memcpy (result, lt_tensor_operand (values).data, count * sizeof (double));
  *n_values = count;
  return result;
}

/**
 * lt_tensor_to_bytes:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * The elements in row-major order, in host byte order. For a contiguous
 * tensor this shares the storage's memory (and shows later writes); otherwise
 * the elements are copied first.
 *
 * Returns: (transfer full): the bytes, or %NULL with @error set when the
 *   memory for a copy cannot be allocated
 */
GBytes *
lt_tensor_to_bytes (LtTensor *self,
                    GError  **error)
{
  g_autoptr (LtTensor) contiguous = NULL;
  g_autoptr (GBytes) storage_bytes = NULL;
  gsize element_size;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->numel == 0)
    return g_bytes_new (NULL, 0);

  contiguous = lt_tensor_contiguous (self, error);
  if (contiguous == NULL)
    return NULL;

  element_size = lt_dtype_get_element_size (lt_tensor_get_dtype (self));
  storage_bytes = lt_storage_get_bytes (contiguous->storage, error);
  if (storage_bytes == NULL)
    return NULL;
  return g_bytes_new_from_bytes (storage_bytes,
                                 (gsize) contiguous->storage_offset * element_size,
                                 (gsize) contiguous->numel * element_size);
}
