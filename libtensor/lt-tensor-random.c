/* lt-tensor-random.c: random tensors and in-place random fills
 *
 * Every function takes its numbers from an LtGenerator: the same seed gives
 * the same tensor on every machine and every backend, and the elements of a
 * strided view get their values in the view's row-major order, so that
 * filling a transposed view gives the transpose of filling a contiguous one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <float.h>
#include <math.h>

#include "lt-error.h"
#include "lt-generator-private.h"
#include "lt-i18n-private.h"
#include "lt-random.h"
#include "lt-random-private.h"
#include "lt-tensor-private.h"

/* Philox blocks a fill of @numel elements with @params takes. */
static guint64
blocks_needed (const LtRandomParams *params,
               LtDType               dtype,
               gint64                numel)
{
  guint per_block;

  switch (params->distribution)
    {
    case LT_RANDOM_INTEGER:
      per_block = lt_random_integer_values_per_block ((guint64) params->high
                                                      - (guint64) params->low);
      break;
    case LT_RANDOM_BERNOULLI:
      per_block = LT_RANDOM_BERNOULLI_VALUES_PER_BLOCK;
      break;
    default:
      return lt_random_blocks_needed (dtype, numel);
    }
  return ((guint64) numel + per_block - 1) / per_block;
}

static gboolean
fill (const char           *op,
      LtTensor             *self,
      LtGenerator          *generator,
      const LtRandomParams *params,
      LtTensor             *probabilities,
      GError              **error)
{
  const LtBackend *backend = lt_storage_get_backend (self->storage);
  LtOperand dst, probability_operand;
  guint64 seed, counter;

  LtTensor *both[] = { self, probabilities };
  guint n_tensors = probabilities != NULL ? 2 : 1;

  if (!lt_tensor_check_same_device (op, both, n_tensors, error)
      || (backend->random_fill == NULL && !lt_tensor_check_host (op, both, n_tensors, error))
      || !lt_tensor_check_writable (op, self, error))
    return FALSE;
  if (self->numel == 0)
    return TRUE;

  dst = lt_tensor_operand (self);
  if (probabilities != NULL)
    probability_operand = lt_tensor_operand (probabilities);
  lt_generator_take_blocks (generator, blocks_needed (params, lt_tensor_get_dtype (self),
                                                      self->numel),
                            &seed, &counter);
  return backend->random_fill (backend, self->ndim, self->sizes, &dst,
                               probabilities != NULL ? &probability_operand : NULL, params, seed,
                               counter, error);
}

static gboolean
check_floating (const char *op,
                LtDType     dtype,
                GError    **error)
{
  if (lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype))
    return TRUE;
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("%s: needs a floating point or complex tensor, not %s; convert it with "
                 "to_dtype() first"), op, lt_dtype_get_name (dtype));
  return FALSE;
}

/* The largest finite value of a floating dtype's real part. */
static double
largest_finite (LtDType dtype)
{
  switch (lt_dtype_to_real (dtype))
    {
    case LT_DTYPE_FLOAT16:
      return 65504.0;
    case LT_DTYPE_BFLOAT16:
      return 0x1.fep127;
    case LT_DTYPE_FLOAT32:
      return FLT_MAX;
    default:
      return DBL_MAX;
    }
}

/* The integers [lowest, highest] @dtype holds exactly: its range for
 * integer types, up to 2^(significand bits) for floating point ones. */
static void
integer_range (LtDType  dtype,
               gint64  *lowest,
               gint64  *highest)
{
  static const struct { LtDType dtype; gint64 lowest, highest; } ranges[] = {
    { LT_DTYPE_BOOL, 0, 1 },
    { LT_DTYPE_UINT8, 0, G_MAXUINT8 },
    { LT_DTYPE_INT8, G_MININT8, G_MAXINT8 },
    { LT_DTYPE_INT16, G_MININT16, G_MAXINT16 },
    { LT_DTYPE_INT32, G_MININT32, G_MAXINT32 },
    { LT_DTYPE_INT64, G_MININT64, G_MAXINT64 },
    { LT_DTYPE_FLOAT16, -(G_GINT64_CONSTANT (1) << 11), G_GINT64_CONSTANT (1) << 11 },
    { LT_DTYPE_BFLOAT16, -(G_GINT64_CONSTANT (1) << 8), G_GINT64_CONSTANT (1) << 8 },
    { LT_DTYPE_FLOAT32, -(G_GINT64_CONSTANT (1) << 24), G_GINT64_CONSTANT (1) << 24 },
    { LT_DTYPE_FLOAT64, -(G_GINT64_CONSTANT (1) << 53), G_GINT64_CONSTANT (1) << 53 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    if (ranges[i].dtype == dtype)
      {
        *lowest = ranges[i].lowest;
        *highest = ranges[i].highest;
        return;
      }
  g_assert_not_reached ();
}

static gboolean
check_integer_bounds (const char *op,
                      LtDType     dtype,
                      gint64      low,
                      gint64      high,
                      GError    **error)
{
  gint64 lowest, highest;

  if (lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: draws integers, which a %s tensor cannot hold; use a real dtype"), op,
                   lt_dtype_get_name (dtype));
      return FALSE;
    }
  if (low >= high)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the range [%" PRId64 ", %" PRId64 ") is empty; the "
                     "lower bound must be less than the upper one"), op, low, high);
      return FALSE;
    }

  integer_range (dtype, &lowest, &highest);
  if (low < lowest || high - 1 > highest)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: the range [%" PRId64 ", %" PRId64 ") holds integers "
                     "that %s cannot represent exactly (it holds [%" PRId64 ", %"
                     PRId64 "])"), op, low, high, lt_dtype_get_name (dtype), lowest,
                   highest);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_normal (const char *op,
              LtDType     dtype,
              double      mean,
              double      std,
              GError    **error)
{
  if (!check_floating (op, dtype, error))
    return FALSE;
  if (!(std >= 0.0) || !isfinite (std) || !isfinite (mean))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: needs a finite mean and a finite standard deviation >= 0, not mean %g "
                     "and std %g"), op, mean, std);
      return FALSE;
    }
  return TRUE;
}

/**
 * lt_tensor_new_randint:
 * @generator: the source of the numbers
 * @low: the lowest value
 * @high: one above the highest value
 * @dtype: the element type (int64 as in PyTorch, or any real dtype)
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new tensor of integers drawn uniformly from [@low, @high), as
 * `torch.randint()`. The same generator state gives the same numbers on
 * every machine.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set when the
 *   range is empty, holds values @dtype cannot represent exactly, or
 *   @dtype is complex
 */
LtTensor *
lt_tensor_new_randint (LtGenerator   *generator,
                       gint64         low,
                       gint64         high,
                       LtDType        dtype,
                       const gint64  *sizes,
                       guint          n_sizes,
                       GError       **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_INTEGER, .low = low, .high = high };
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (LT_IS_GENERATOR (generator), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_valid (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE, _("randint(): %d is not a dtype"), dtype);
      return NULL;
    }
  if (!check_integer_bounds ("randint()", dtype, low, high, error))
    return NULL;
  tensor = lt_tensor_new_contiguous ("randint()", dtype, n_sizes, sizes, error);
  if (tensor == NULL || !fill ("randint()", tensor, generator, &params, NULL, error))
    return NULL;
  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_normal:
 * @generator: the source of the numbers
 * @mean: the mean of the distribution
 * @std: its standard deviation, at least 0
 * @dtype: a floating point or complex element type
 * @sizes: (array length=n_sizes): the size of each dim
 * @n_sizes: the number of dims
 * @error: return location for a #GError
 *
 * A new tensor of numbers drawn from the normal distribution with @mean
 * and @std, as `torch.normal(mean, std, size)`. Complex values have both
 * parts around @mean, each with half the variance.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 */
LtTensor *
lt_tensor_new_normal (LtGenerator   *generator,
                      double         mean,
                      double         std,
                      LtDType        dtype,
                      const gint64  *sizes,
                      guint          n_sizes,
                      GError       **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_NORMAL, .a = mean, .b = std };
  g_autoptr (LtTensor) tensor = NULL;

  g_return_val_if_fail (LT_IS_GENERATOR (generator), NULL);
  g_return_val_if_fail (sizes != NULL || n_sizes == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_dtype_is_valid (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE, _("normal(): %d is not a dtype"), dtype);
      return NULL;
    }
  if (!check_normal ("normal()", dtype, mean, std, error))
    return NULL;
  tensor = lt_tensor_new_contiguous ("normal()", dtype, n_sizes, sizes, error);
  if (tensor == NULL || !fill ("normal()", tensor, generator, &params, NULL, error))
    return NULL;
  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_uniform_:
 * @self: a floating point or complex tensor
 * @generator: the source of the numbers
 * @from: the lowest value
 * @to: the bound the values stay below
 * @error: return location for a #GError
 *
 * Fills @self, through its view, with numbers drawn uniformly from
 * [@from, @to), as `Tensor.uniform_()`: both parts of complex values. The
 * elements take their numbers in row-major order of the view.
 *
 * Returns: %TRUE on success; %FALSE with @error set, @self untouched, when
 *   @from > @to, the range is not finite in @self's dtype, @self is not
 *   floating point, or its elements overlap (an expanded view)
 */
gboolean
lt_tensor_uniform_ (LtTensor     *self,
                    LtGenerator  *generator,
                    double        from,
                    double        to,
                    GError      **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_UNIFORM, .a = from, .b = to };
  LtDType dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_GENERATOR (generator), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  dtype = lt_tensor_get_dtype (self);
  if (!check_floating ("uniform_()", dtype, error))
    return FALSE;
  if (!(from <= to) || !isfinite (from) || !isfinite (to) || to - from > largest_finite (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("uniform_(): the range [%g, %g) is not a finite range of %s with from <= to"),
                   from, to, lt_dtype_get_name (dtype));
      return FALSE;
    }
  return fill ("uniform_()", self, generator, &params, NULL, error);
}

/**
 * lt_tensor_normal_:
 * @self: a floating point or complex tensor
 * @generator: the source of the numbers
 * @mean: the mean of the distribution
 * @std: its standard deviation, at least 0
 * @error: return location for a #GError
 *
 * Fills @self, through its view, with numbers drawn from the normal
 * distribution, as `Tensor.normal_()`, in row-major order of the view.
 *
 * Returns: %TRUE on success; %FALSE with @error set and @self untouched
 */
gboolean
lt_tensor_normal_ (LtTensor     *self,
                   LtGenerator  *generator,
                   double        mean,
                   double        std,
                   GError      **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_NORMAL, .a = mean, .b = std };

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_GENERATOR (generator), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_normal ("normal_()", lt_tensor_get_dtype (self), mean, std, error))
    return FALSE;
  return fill ("normal_()", self, generator, &params, NULL, error);
}

/**
 * lt_tensor_random_:
 * @self: a tensor of a real dtype
 * @generator: the source of the numbers
 * @low: the lowest value
 * @high: one above the highest value
 * @error: return location for a #GError
 *
 * Fills @self, through its view, with integers drawn uniformly from
 * [@low, @high), as `Tensor.random_(from, to)`, in row-major order of the
 * view.
 *
 * Returns: %TRUE on success; %FALSE with @error set and @self untouched
 *   when the range is empty or holds values @self's dtype cannot represent
 *   exactly
 */
gboolean
lt_tensor_random_ (LtTensor     *self,
                   LtGenerator  *generator,
                   gint64        low,
                   gint64        high,
                   GError      **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_INTEGER, .low = low, .high = high };

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_GENERATOR (generator), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_integer_bounds ("random_()", lt_tensor_get_dtype (self), low, high, error))
    return FALSE;
  return fill ("random_()", self, generator, &params, NULL, error);
}

/**
 * lt_tensor_bernoulli_:
 * @self: a tensor of a real dtype
 * @generator: the source of the numbers
 * @p: the probability of a 1
 * @error: return location for a #GError
 *
 * Fills @self, through its view, with 1 with probability @p and 0
 * otherwise, as `Tensor.bernoulli_(p)`.
 *
 * Returns: %TRUE on success; %FALSE with @error set and @self untouched
 *   when @p is not in [0, 1] or @self is complex
 */
gboolean
lt_tensor_bernoulli_ (LtTensor     *self,
                      LtGenerator  *generator,
                      double        p,
                      GError      **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_BERNOULLI, .a = p };

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_GENERATOR (generator), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (lt_dtype_is_complex (lt_tensor_get_dtype (self)))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("bernoulli_(): cannot fill a %s tensor; use a real dtype"),
                   lt_dtype_get_name (lt_tensor_get_dtype (self)));
      return FALSE;
    }
  if (!(p >= 0.0 && p <= 1.0))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("bernoulli_(): p is a probability, in [0, 1], not %g"), p);
      return FALSE;
    }
  return fill ("bernoulli_()", self, generator, &params, NULL, error);
}

/**
 * lt_tensor_bernoulli:
 * @self: a floating point tensor of probabilities
 * @generator: the source of the numbers
 * @error: return location for a #GError
 *
 * A new tensor of @self's sizes and dtype whose elements are 1 with the
 * probability @self holds at their place and 0 otherwise, as
 * `torch.bernoulli()`.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set when
 *   @self is not floating point or holds a value outside [0, 1]
 */
LtTensor *
lt_tensor_bernoulli (LtTensor     *self,
                     LtGenerator  *generator,
                     GError      **error)
{
  LtRandomParams params = { .distribution = LT_RANDOM_BERNOULLI };
  g_autoptr (LtTensor) tensor = NULL;
  g_autofree double *values = NULL;
  LtDType dtype;
  gsize n;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_GENERATOR (generator), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dtype = lt_tensor_get_dtype (self);
  if (!lt_dtype_is_floating_point (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("bernoulli(): the probabilities must be floating point, not %s; convert them "
                     "with to_dtype() first"), lt_dtype_get_name (dtype));
      return NULL;
    }

  values = lt_tensor_to_doubles (self, &n);
  for (gsize i = 0; i < n; i++)
    if (!(values[i] >= 0.0 && values[i] <= 1.0))
      {
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("bernoulli(): probabilities are in [0, 1], but element %zu (in "
                       "row-major order) is %g"),
                     i, values[i]);
        return NULL;
      }

  /* On the probabilities' device. */
  tensor = lt_tensor_new_contiguous_on (lt_storage_get_backend (self->storage), "bernoulli()",
                                        dtype, self->ndim, self->sizes, error);
  if (tensor == NULL || !fill ("bernoulli()", tensor, generator, &params, self, error))
    return NULL;
  return g_steal_pointer (&tensor);
}
