/* lt-tensor-create.c: making new tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>

#include "lt-error.h"
#include "lt-generator-private.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-literal.h"
#include "lt-random-private.h"
#include "lt-tensor-private.h"

static gpointer
tensor_data (LtTensor *self)
{
  return lt_tensor_operand (self).data;
}

static const LtBackend *
tensor_backend (LtTensor *self)
{
  return lt_storage_get_backend (self->storage);
}

static gboolean
check_dtype (const char *op,
             LtDType     dtype,
             GError    **error)
{
  if (!lt_dtype_is_valid (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE, _("%s: %d is not a dtype"), op, dtype);
      return FALSE;
    }
  return TRUE;
}

/**
 * lt_tensor_new_empty:
 * @dtype: the element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new contiguous tensor. Unlike PyTorch's `empty()`, the memory is zeroed:
 * it costs nothing extra for large tensors and never exposes stale data.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set when a size
 *   is negative, the element count overflows or the memory cannot be allocated
 */
LtTensor *
lt_tensor_new_empty (LtDType       dtype,
                     const gint64 *sizes,
                     guint         n_sizes,
                     GError      **error)
{
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("empty()", dtype, error))
    return NULL;
  return lt_tensor_new_contiguous ("empty()", dtype, n_sizes, sizes, error);
}

/**
 * lt_tensor_new_empty_like: (constructor)
 * @like: the #LtTensor whose sizes, names, device and memory order to take
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * PyTorch's `empty_like(like, dtype=dtype)`: a new tensor of @like's sizes
 * and dim names on @like's device, laid out in @like's memory order
 * (PyTorch's `preserve_format`: @like's strides where it is dense, dense
 * strides in the same dim order otherwise, so that the result of a
 * transposed tensor is transposed too). As lt_tensor_new_empty(), its
 * memory is zeroed; nothing is read from @like.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_empty_like (LtTensor *like,
                          LtDType   dtype,
                          GError  **error)
{
  LtTensor *result;

  g_return_val_if_fail (LT_IS_TENSOR (like), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("empty_like()", dtype, error))
    return NULL;
  result = lt_tensor_new_strided_like (like, dtype, TRUE, error);
  if (result != NULL)
    lt_tensor_set_names_internal (result, (const char *const *) like->names);
  return result;
}

/**
 * lt_tensor_new_zeros:
 * @dtype: the element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new contiguous tensor filled with zeros.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_zeros (LtDType       dtype,
                     const gint64 *sizes,
                     guint         n_sizes,
                     GError      **error)
{
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("zeros()", dtype, error))
    return NULL;
  return lt_tensor_new_contiguous ("zeros()", dtype, n_sizes, sizes, error);
}

/**
 * lt_tensor_new_ones:
 * @dtype: the element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new contiguous tensor filled with ones.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_ones (LtDType       dtype,
                    const gint64 *sizes,
                    guint         n_sizes,
                    GError      **error)
{
  return lt_tensor_new_full (dtype, sizes, n_sizes, 1.0, error);
}

/**
 * lt_tensor_new_full:
 * @dtype: the element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @value: the value of every element, converted to @dtype
 * @error: return location for a #GError
 *
 * A new contiguous tensor with every element set to @value.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_full (LtDType       dtype,
                    const gint64 *sizes,
                    guint         n_sizes,
                    double        value,
                    GError      **error)
{
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("full()", dtype, error))
    return NULL;
  tensor = lt_tensor_new_contiguous ("full()", dtype, n_sizes, sizes, error);
  if (tensor == NULL || !lt_tensor_fill (tensor, value, error))
    return NULL;
  return g_steal_pointer (&tensor);
}

static gboolean
is_exact_integer (double value)
{
  return value == floor (value) && fabs (value) <= 0x1p53;
}

/**
 * lt_tensor_new_arange:
 * @start: the first value
 * @end: the value to stop before
 * @step: the difference between consecutive values, nonzero
 * @dtype: an integer or floating point element type
 * @error: return location for a #GError
 *
 * The 1-dim tensor `start, start + step, ...` of the `ceil((end - start) /
 * step)` values before @end, as PyTorch's `arange()`. Integer dtypes with
 * integral @start and @step are computed exactly.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_arange (double   start,
                      double   end,
                      double   step,
                      LtDType  dtype,
                      GError **error)
{
  g_autoptr (LtTensor) tensor = NULL;
  double size;
  gint64 length;
  LtValue first, delta;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("arange()", dtype, error))
    return NULL;
  if (dtype == LT_DTYPE_BOOL || lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("arange(): needs an integer or floating point dtype, not %s"),
                   lt_dtype_get_name (dtype));
      return NULL;
    }
  if (!isfinite (start) || !isfinite (end) || !isfinite (step))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("arange(): start %g, end %g and step %g must be finite"), start, end, step);
      return NULL;
    }
  if (step == 0)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("arange(): the step is zero; it must be nonzero"));
      return NULL;
    }
  if ((step > 0 && end < start) || (step < 0 && end > start))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("arange(): a step of %g never gets from %g to %g; the step's sign must "
                     "point from start to end"),
                   step, start, end);
      return NULL;
    }

  size = ceil ((end - start) / step);
  if (!(size >= 0 && size <= 0x1p62))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("arange(): %g values from %g to %g are too many"), size, start, end);
      return NULL;
    }
  length = (gint64) size;

  tensor = lt_tensor_new_contiguous ("arange()", dtype, 1, &length, error);
  if (tensor == NULL)
    return NULL;

  if (lt_dtype_is_integer (dtype) && is_exact_integer (start) && is_exact_integer (step))
    {
      first = lt_value_from_int64 ((gint64) start);
      delta = lt_value_from_int64 ((gint64) step);
    }
  else
    {
      first = lt_value_from_double (start);
      delta = lt_value_from_double (step);
    }
  tensor_backend (tensor)->arange (tensor_data (tensor), dtype, length, first, delta);

  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_linspace:
 * @start: the first value
 * @end: the last value
 * @steps: the number of values, >= 0
 * @dtype: a numeric element type
 * @error: return location for a #GError
 *
 * The 1-dim tensor of @steps values evenly spaced from @start to @end, both
 * included, as PyTorch's `linspace()`.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_linspace (double   start,
                        double   end,
                        gint64   steps,
                        LtDType  dtype,
                        GError **error)
{
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("linspace()", dtype, error))
    return NULL;
  if (dtype == LT_DTYPE_BOOL)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_DTYPE,
                           _("linspace(): needs a numeric dtype, not bool"));
      return NULL;
    }
  if (steps < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("linspace(): the number of steps %" PRId64 " must be >= 0"), steps);
      return NULL;
    }

  tensor = lt_tensor_new_contiguous ("linspace()", dtype, 1, &steps, error);
  if (tensor == NULL)
    return NULL;

  if (steps == 1)
    lt_tensor_fill (tensor, start, NULL);
  else if (steps > 1)
    tensor_backend (tensor)->linspace (tensor_data (tensor), dtype, steps, start, end);

  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_eye:
 * @n: the number of rows, >= 0
 * @m: the number of columns, >= 0, or -1 for as many as rows
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * A 2-dim tensor with ones on the main diagonal and zeros elsewhere.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_eye (gint64   n,
                   gint64   m,
                   LtDType  dtype,
                   GError **error)
{
  g_autoptr (LtTensor) tensor = NULL;
  g_autoptr (LtTensor) diagonal = NULL;
  gint64 sizes[2];

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (m == -1)
    m = n;
  if (n < 0 || m < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("eye(): %" PRId64 " rows and %" PRId64
                     " columns: both must be >= 0"),
                   n, m);
      return NULL;
    }
  if (!check_dtype ("eye()", dtype, error))
    return NULL;

  sizes[0] = n;
  sizes[1] = m;
  tensor = lt_tensor_new_contiguous ("eye()", dtype, 2, sizes, error);
  if (tensor == NULL)
    return NULL;

  diagonal = lt_tensor_diagonal (tensor, 0, 0, 1, error);
  if (diagonal == NULL || !lt_tensor_fill (diagonal, 1.0, error))
    return NULL;

  return g_steal_pointer (&tensor);
}

static LtTensor *
new_random (const char          *op,
            LtGenerator         *generator,
            LtDType              dtype,
            const gint64        *sizes,
            guint                n_sizes,
            LtRandomDistribution distribution,
            GError             **error)
{
  g_autoptr (LtTensor) tensor = NULL;
  guint64 seed, counter;

  if (!check_dtype (op, dtype, error))
    return NULL;
  if (!lt_dtype_is_floating_point (dtype) && !lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: needs a floating point or complex dtype, not %s"), op,
                   lt_dtype_get_name (dtype));
      return NULL;
    }

  tensor = lt_tensor_new_contiguous (op, dtype, n_sizes, sizes, error);
  if (tensor == NULL)
    return NULL;

  lt_generator_take_blocks (generator, lt_random_blocks_needed (dtype, tensor->numel), &seed,
                            &counter);
  tensor_backend (tensor)->random (tensor_data (tensor), dtype, tensor->numel, distribution, seed,
                                   counter);

  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_rand:
 * @generator: the source of the numbers
 * @dtype: a floating point or complex element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new tensor of numbers drawn uniformly from [0, 1). The same generator
 * state gives the same numbers on every machine.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_rand (LtGenerator  *generator,
                    LtDType       dtype,
                    const gint64 *sizes,
                    guint         n_sizes,
                    GError      **error)
{
  g_return_val_if_fail (LT_IS_GENERATOR (generator), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_random ("rand()", generator, dtype, sizes, n_sizes, LT_RANDOM_UNIFORM, error);
}

/**
 * lt_tensor_new_randn:
 * @generator: the source of the numbers
 * @dtype: a floating point or complex element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new tensor of numbers drawn from the standard normal distribution
 * (complex values have real and imaginary parts of variance 1/2 each, as in
 * PyTorch). The same generator state gives the same numbers on every machine.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_randn (LtGenerator  *generator,
                     LtDType       dtype,
                     const gint64 *sizes,
                     guint         n_sizes,
                     GError      **error)
{
  g_return_val_if_fail (LT_IS_GENERATOR (generator), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_random ("randn()", generator, dtype, sizes, n_sizes, LT_RANDOM_NORMAL, error);
}

/**
 * lt_tensor_new_from_data:
 * @dtype: the element type
 * @values: (array length=n_values): the values in row-major order
 * @n_values: the number of values, which must be the element count of @shape
 * @shape: (array length=n_dims): the size of each dim
 * @n_dims: the number of dims
 * @error: return location for a #GError
 *
 * A new contiguous tensor holding @values converted to @dtype. Integers
 * beyond 2^53 cannot be passed exactly as doubles; use
 * lt_tensor_new_from_bytes() for those.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_from_data (LtDType       dtype,
                         const double *values,
                         gsize         n_values,
                         const gint64 *shape,
                         guint         n_dims,
                         GError      **error)
{
  g_autoptr (LtTensor) tensor = NULL;
  gint64 flat_size;
  const gint64 unit_stride = 1;
  LtOperand dst, src;

  g_return_val_if_fail (values != NULL || n_values == 0, NULL);
  g_return_val_if_fail (shape != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("new_from_data()", dtype, error)
      || !lt_tensor_check_sizes ("new_from_data()", shape, n_dims, error))
    return NULL;

  lt_layout_numel (n_dims, shape, &flat_size);
  if ((guint64) flat_size != n_values)
    {
      g_autofree char *text = lt_layout_shape_to_string (n_dims, shape);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("new_from_data(): %zu values given for shape %s, which has %"
                     PRId64 " elements"),
                   n_values, text, flat_size);
      return NULL;
    }

  tensor = lt_tensor_new_contiguous ("new_from_data()", dtype, n_dims, shape, error);
  if (tensor == NULL)
    return NULL;

  /* Both sides as one flat row: the backend converts from float64. */
  dst = lt_tensor_operand (tensor);
  dst.strides = &unit_stride;
  src = (LtOperand) { .data = (gpointer) values, .dtype = LT_DTYPE_FLOAT64,
                      .strides = &unit_stride };
  if (!tensor_backend (tensor)->copy (tensor_backend (tensor), 1, &flat_size, &dst, &src, error))
    return NULL;

  return g_steal_pointer (&tensor);
}

static LtTensor *
new_from_literal (const char *literal_text,
                  gboolean    infer_dtype,
                  LtDType     dtype,
                  GError    **error)
{
  g_autoptr (LtLiteral) literal = lt_literal_parse (literal_text, error);
  g_autoptr (LtTensor) tensor = NULL;

  if (literal == NULL)
    return NULL;
  if (infer_dtype)
    dtype = literal->inferred_dtype;

  tensor = lt_tensor_new_contiguous ("new_from_literal()", dtype, literal->ndim, literal->sizes,
                                     error);
  if (tensor == NULL)
    return NULL;
  lt_literal_write (literal, dtype, tensor_data (tensor));

  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_from_literal:
 * @literal: nested lists of numbers as Python writes them, such as
 *   `[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]`; a single number gives a 0-dim tensor
 * @error: return location for a #GError
 *
 * A new tensor from a literal, with the dtype `torch.tensor()` would infer:
 * bool when every value is True or False, int64 when every value is an
 * integer, complex64 when some value is complex (`1+2j`), float32 otherwise.
 * Lists at the same depth must have the same length. Errors name the column.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_from_literal (const char *literal,
                            GError    **error)
{
  g_return_val_if_fail (literal != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_from_literal (literal, TRUE, LT_DTYPE_DEFAULT, error);
}

/**
 * lt_tensor_new_from_literal_with_dtype:
 * @literal: nested lists of numbers, as for lt_tensor_new_from_literal()
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * A new tensor from a literal with the values converted to @dtype (without
 * first rounding them to an inferred dtype).
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_from_literal_with_dtype (const char *literal,
                                       LtDType     dtype,
                                       GError    **error)
{
  g_return_val_if_fail (literal != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("new_from_literal_with_dtype()", dtype, error))
    return NULL;
  return new_from_literal (literal, FALSE, dtype, error);
}

/**
 * lt_tensor_new_from_bytes:
 * @dtype: the element type
 * @bytes: the elements in row-major order, in host byte order
 * @shape: (array length=n_dims): the size of each dim
 * @n_dims: the number of dims
 * @error: return location for a #GError
 *
 * A contiguous tensor over the memory of @bytes, without copying (see
 * lt_storage_new_from_bytes()). Writes through the tensor write into @bytes.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set when the
 *   size of @bytes does not match @shape
 */
LtTensor *
lt_tensor_new_from_bytes (LtDType       dtype,
                          GBytes       *bytes,
                          const gint64 *shape,
                          guint         n_dims,
                          GError      **error)
{
  g_autoptr (LtStorage) storage = NULL;
  gint64 strides[LT_MAX_DIMS];
  gint64 numel;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (shape != NULL || n_dims == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_dtype ("new_from_bytes()", dtype, error)
      || !lt_tensor_check_sizes ("new_from_bytes()", shape, n_dims, error))
    return NULL;

  storage = lt_storage_new_from_bytes (dtype, bytes, error);
  if (storage == NULL)
    return NULL;

  lt_layout_numel (n_dims, shape, &numel);
  if (numel != lt_storage_get_n_elements (storage))
    {
      g_autofree char *text = lt_layout_shape_to_string (n_dims, shape);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("new_from_bytes(): %zu bytes hold %" PRId64
                     " %s elements, but shape %s has %" PRId64),
                   g_bytes_get_size (bytes), lt_storage_get_n_elements (storage),
                   lt_dtype_get_name (dtype), text, numel);
      return NULL;
    }

  lt_layout_contiguous_strides (n_dims, shape, strides);
  return lt_tensor_new_view (storage, n_dims, shape, strides, 0);
}
