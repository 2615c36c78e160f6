/* lt-cpu-generate.c: kernels that fill a new tensor with values they compute
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>

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
