/* lt-cpu-generate.c: kernels that fill a new tensor with values they compute
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-cpu-private.h"
#include "lt-philox.h"
#include "lt-random-private.h"

/* Uniform in [0, 1) with as many random bits as the dtype's significand
 * holds, so rounding can never produce 1. */
static double
uniform_from_word (guint32 word,
                   LtDType real_dtype)
{
  switch (real_dtype)
    {
    case LT_DTYPE_FLOAT16:
      return (word >> 21) * 0x1p-11;
    case LT_DTYPE_BFLOAT16:
      return (word >> 24) * 0x1p-8;
    default:
      return (word >> 8) * 0x1p-24;
    }
}

/* The r-th uniform value of the stream, 0 <= r < values in all. */
static void
uniform_values (LtDType  dtype,
                guint64  seed,
                guint64  counter,
                gint64   n_values,
                double  *out)
{
  LtDType real_dtype = lt_dtype_to_real (dtype);
  guint per_block = lt_random_values_per_block (dtype);

  for (gint64 first = 0; first < n_values; first += per_block)
    {
      guint32 words[4];

      lt_philox4x32_10 (seed, counter + (guint64) first / per_block, words);
      for (guint k = 0; k < per_block && first + k < n_values; k++)
        {
          if (per_block == 2)
            {
              guint64 bits = ((guint64) words[2 * k] << 32) | words[2 * k + 1];
              out[first + k] = (bits >> 11) * 0x1p-53;
            }
          else
            out[first + k] = uniform_from_word (words[k], real_dtype);
        }
    }
}

void
lt_cpu_random (gpointer             data,
               LtDType              dtype,
               gint64               n,
               LtRandomDistribution distribution,
               guint64              seed,
               guint64              counter)
{
  gboolean is_complex = lt_dtype_is_complex (dtype);
  LtDType real_dtype = lt_dtype_to_real (dtype);
  gsize real_size = lt_dtype_get_element_size (real_dtype);
  gint64 n_values = is_complex ? 2 * n : n;
  /* Generate in slices so that the scratch buffer stays small. */
  enum { SLICE = 4096 };
  double values[SLICE];

  for (gint64 base = 0; base < n_values; base += SLICE)
    {
      gint64 count = MIN (SLICE, n_values - base);
      guint per_block = lt_random_values_per_block (dtype);

      /* SLICE is a multiple of every per_block, so slices start on blocks. */
      uniform_values (dtype, seed, counter + (guint64) base / per_block, count, values);

      if (distribution == LT_RANDOM_NORMAL)
        {
          double scale = is_complex ? sqrt (0.5) : 1.0;

          for (gint64 k = 0; k < count; k += 2)
            {
              double u1 = 1.0 - values[k];
              double u2 = k + 1 < count ? values[k + 1] : 0.0;
              double radius = sqrt (-2.0 * log (u1)) * scale;

              values[k] = radius * cos (2.0 * G_PI * u2);
              if (k + 1 < count)
                values[k + 1] = radius * sin (2.0 * G_PI * u2);
            }
        }

      for (gint64 k = 0; k < count; k++)
        lt_value_write (real_dtype, (guint8 *) data + (gsize) (base + k) * real_size,
                        lt_value_from_double (values[k]));
    }
}

void
lt_cpu_arange (gpointer data,
               LtDType  dtype,
               gint64   n,
               LtValue  start,
               LtValue  step)
{
  gsize element_size = lt_dtype_get_element_size (dtype);
  guint8 *out = data;

  if (start.kind == LT_VALUE_INT && step.kind == LT_VALUE_INT)
    for (gint64 i = 0; i < n; i++)
      lt_value_write (dtype, out + (gsize) i * element_size,
                      lt_value_from_int64 (start.i + i * step.i));
  else
    {
      double first = lt_value_to_double (start), delta = lt_value_to_double (step);

      for (gint64 i = 0; i < n; i++)
        lt_value_write (dtype, out + (gsize) i * element_size,
                        lt_value_from_double (first + (double) i * delta));
    }
}

void
lt_cpu_linspace (gpointer data,
                 LtDType  dtype,
                 gint64   n,
                 double   start,
                 double   end)
{
  gsize element_size = lt_dtype_get_element_size (dtype);
  gint64 halfway = n / 2;
  guint8 *out = data;

  /* Each half counts from its own end so that both ends come out exact.
   * Types of float precision or less do the arithmetic in float, as
   * PyTorch does, so that the values round the same way. */
  if (lt_dtype_to_real (dtype) != LT_DTYPE_FLOAT64 && !lt_dtype_is_integer (dtype))
    {
      float first = (float) start, last = (float) end;
      float step = (last - first) / (float) (n - 1);

      for (gint64 i = 0; i < n; i++)
        {
          float value = i < halfway ? first + step * (float) i : last - step * (float) (n - 1 - i);
          lt_value_write (dtype, out + (gsize) i * element_size, lt_value_from_double (value));
        }
    }
  else
    {
      double step = (end - start) / (double) (n - 1);

      for (gint64 i = 0; i < n; i++)
        {
          double value = i < halfway ? start + step * (double) i : end - step * (double) (n - 1 - i);
          lt_value_write (dtype, out + (gsize) i * element_size, lt_value_from_double (value));
        }
    }
}

/* Elements of a view in row-major order: the order random_fill() gives
 * values in, whatever the strides. */
typedef struct
{
  guint ndim;
  const gint64 *sizes;
  gint64 counters[LT_MAX_DIMS];
  guint n_operands;
  guint8 *ptrs[2];
  gint64 strides[2][LT_MAX_DIMS];  /* in bytes */
} RowMajorWalk;

static void
walk_init (RowMajorWalk    *walk,
           guint            ndim,
           const gint64    *sizes,
           const LtOperand *operands,
           guint            n_operands)
{
  walk->ndim = ndim;
  walk->sizes = sizes;
  walk->n_operands = n_operands;
  memset (walk->counters, 0, sizeof walk->counters);
  for (guint op = 0; op < n_operands; op++)
    {
      gsize element_size = lt_dtype_get_element_size (operands[op].dtype);

      walk->ptrs[op] = operands[op].data;
      for (guint d = 0; d < ndim; d++)
        walk->strides[op][d] = sizes[d] <= 1 ? 0 : operands[op].strides[d] * (gint64) element_size;
    }
}

static void
walk_next (RowMajorWalk *walk)
{
  for (guint d = walk->ndim; d-- > 0;)
    {
      for (guint op = 0; op < walk->n_operands; op++)
        walk->ptrs[op] += walk->strides[op][d];
      if (++walk->counters[d] < walk->sizes[d])
        return;
      for (guint op = 0; op < walk->n_operands; op++)
        walk->ptrs[op] -= walk->strides[op][d] * walk->sizes[d];
      walk->counters[d] = 0;
    }
}

/* @count 53-bit uniform values in [0, 1), two a block. */
static void
uniform53_values (guint64 seed,
                  guint64 counter,
                  gint64  count,
                  double *out)
{
  for (gint64 first = 0; first < count; first += 2)
    {
      guint32 words[4];

      lt_philox4x32_10 (seed, counter + (guint64) first / 2, words);
      for (guint k = 0; k < 2 && first + k < count; k++)
        out[first + k] = ((((guint64) words[2 * k] << 32) | words[2 * k + 1]) >> 11) * 0x1p-53;
    }
}

/* @count integers in [low, high), as 32-bit or 64-bit draws. */
static void
integer_values (guint64 seed,
                guint64 counter,
                gint64  low,
                gint64  high,
                gint64  count,
                gint64 *out)
{
  guint64 range = (guint64) high - (guint64) low;
  guint per_block = lt_random_integer_values_per_block (range);

  for (gint64 first = 0; first < count; first += per_block)
    {
      guint32 words[4];

      lt_philox4x32_10 (seed, counter + (guint64) first / per_block, words);
      for (guint k = 0; k < per_block && first + k < count; k++)
        {
          guint64 draw = per_block == 4 ? words[k]
                                        : ((guint64) words[2 * k] << 32) | words[2 * k + 1];

          out[first + k] = (gint64) ((guint64) low + draw % range);
        }
    }
}

/* Uniform or normal real values for @count elements (2 * @count for
 * complex), from uniform_values() of the dtype. */
static void
real_values (const LtRandomParams *params,
             LtDType               dtype,
             guint64               seed,
             guint64               counter,
             gint64                n_values,
             double               *values)
{
  gboolean is_complex = lt_dtype_is_complex (dtype);

  uniform_values (dtype, seed, counter, n_values, values);
  if (params->distribution == LT_RANDOM_UNIFORM)
    {
      for (gint64 k = 0; k < n_values; k++)
        values[k] = params->a + (params->b - params->a) * values[k];
      return;
    }

  {
    /* Complex values: both parts around the mean, each with half the
     * variance, as PyTorch's normal_() of a complex tensor. */
    double scale = is_complex ? params->b * sqrt (0.5) : params->b;

    for (gint64 k = 0; k < n_values; k += 2)
      {
        double u1 = 1.0 - values[k];
        double u2 = k + 1 < n_values ? values[k + 1] : 0.0;
        double radius = sqrt (-2.0 * log (u1)) * scale;

        values[k] = params->a + radius * cos (2.0 * G_PI * u2);
        if (k + 1 < n_values)
          values[k + 1] = params->a + radius * sin (2.0 * G_PI * u2);
      }
  }
}

/* Writes a uniform value, which rounding into the dtype may have put on the
 * excluded upper bound; then it takes the largest value below the bound. */
static void
write_below (LtDType  real_dtype,
             guint8  *element,
             double   value,
             double   upper)
{
  if (real_dtype == LT_DTYPE_FLOAT32)
    {
      float rounded = (float) value;

      if (rounded >= upper)
        rounded = nextafterf ((float) upper, -INFINITY);
      while (rounded >= upper)
        rounded = nextafterf (rounded, -INFINITY);
      memcpy (element, &rounded, sizeof rounded);
    }
  else if (real_dtype == LT_DTYPE_FLOAT64)
    {
      if (value >= upper)
        value = nextafter (upper, -INFINITY);
      memcpy (element, &value, sizeof value);
    }
  else
    {
      /* float16 and bfloat16: one step down is one step of the bits, up
       * for negative values (the sign is the top bit in both). */
      lt_value_write (real_dtype, element, lt_value_from_double (value));
      while (lt_value_to_double (lt_value_read (real_dtype, element)) >= upper)
        {
          guint16 bits;

          memcpy (&bits, element, sizeof bits);
          if (bits == 0)
            bits = 0x8001;
          else if (bits & 0x8000)
            bits++;
          else
            bits--;
          memcpy (element, &bits, sizeof bits);
        }
    }
}

void
lt_cpu_random_fill (guint                 ndim,
                    const gint64         *sizes,
                    const LtOperand      *dst,
                    const LtOperand      *probabilities,
                    const LtRandomParams *params,
                    guint64               seed,
                    guint64               counter)
{
  LtOperand operands[2] = { *dst, probabilities != NULL ? *probabilities : *dst };
  LtDType real_dtype = lt_dtype_to_real (dst->dtype);
  gboolean is_complex = lt_dtype_is_complex (dst->dtype);
  gsize real_size = lt_dtype_get_element_size (real_dtype);
  gint64 n = 1;
  enum { SLICE = 4096 };
  double values[SLICE];
  gint64 integers[SLICE];
  RowMajorWalk walk;
  guint per_block;
  gint64 per_slice;

  for (guint d = 0; d < ndim; d++)
    n *= sizes[d];
  if (n == 0)
    return;
  walk_init (&walk, ndim, sizes, operands, probabilities != NULL ? 2 : 1);

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
      per_block = lt_random_values_per_block (dst->dtype);
      break;
    }
  /* Whole blocks a slice, so that each slice starts on a block. */
  per_slice = is_complex ? SLICE / 2 : SLICE;

  for (gint64 base = 0; base < n; base += per_slice)
    {
      gint64 count = MIN (per_slice, n - base);
      gint64 n_values = is_complex ? 2 * count : count;
      guint64 slice_counter = counter + (guint64) (is_complex ? 2 * base : base) / per_block;

      if (params->distribution == LT_RANDOM_INTEGER)
        integer_values (seed, slice_counter, params->low, params->high, count, integers);
      else if (params->distribution == LT_RANDOM_BERNOULLI)
        uniform53_values (seed, slice_counter, count, values);
      else
        real_values (params, dst->dtype, seed, slice_counter, n_values, values);

      for (gint64 k = 0; k < count; k++, walk_next (&walk))
        {
          switch (params->distribution)
            {
            case LT_RANDOM_INTEGER:
              lt_value_write (dst->dtype, walk.ptrs[0], lt_value_from_int64 (integers[k]));
              break;

            case LT_RANDOM_BERNOULLI:
              {
                double p = params->a;

                if (probabilities != NULL)
                  p = lt_value_to_double (lt_value_read (probabilities->dtype, walk.ptrs[1]));
                lt_value_write (dst->dtype, walk.ptrs[0],
                                lt_value_from_int64 (values[k] < p ? 1 : 0));
              }
              break;

            default:
              if (is_complex)
                {
                  double re = values[2 * k], im = values[2 * k + 1];

                  if (params->distribution == LT_RANDOM_UNIFORM)
                    {
                      write_below (real_dtype, walk.ptrs[0], re, params->b);
                      write_below (real_dtype, walk.ptrs[0] + real_size, im, params->b);
                    }
                  else
                    {
                      lt_value_write (real_dtype, walk.ptrs[0], lt_value_from_double (re));
                      lt_value_write (real_dtype, walk.ptrs[0] + real_size,
                                      lt_value_from_double (im));
                    }
                }
              else
                {
                  if (params->distribution == LT_RANDOM_UNIFORM)
                    write_below (real_dtype, walk.ptrs[0], values[k], params->b);
                  else
                    lt_value_write (dst->dtype, walk.ptrs[0], lt_value_from_double (values[k]));
                }
              break;
            }
        }
    }
}
