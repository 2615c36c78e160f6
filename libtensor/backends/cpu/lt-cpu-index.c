/* lt-cpu-index.c: the CPU's indexing kernels (lt-backend-index.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "lt-cpu-private.h"

/* One loop per element size, so that each copy is a single load and store. */
#define GATHER_AS(type)                                          \
  G_STMT_START {                                                 \
    type *out = dst;                                             \
    const type *in = base;                                       \
    for (gint64 i = 0; i < n; i++)                               \
      out[i] = in[offsets[i]];                                   \
  } G_STMT_END

static void
cpu_gather (gpointer       dst,
            gconstpointer  base,
            gsize          element_size,
            const gint64  *offsets,
            gint64         n)
{
  switch (element_size)
    {
    case 1:
      GATHER_AS (guint8);
      break;
    case 2:
      GATHER_AS (guint16);
      break;
    case 4:
      GATHER_AS (guint32);
      break;
    case 8:
      GATHER_AS (guint64);
      break;
    default:
      for (gint64 i = 0; i < n; i++)
        memcpy ((guint8 *) dst + i * element_size,
                (const guint8 *) base + offsets[i] * element_size, element_size);
      break;
    }
}

#define SCATTER_AS(type)                                         \
  G_STMT_START {                                                 \
    type *out = base;                                            \
    const type *in = src;                                        \
    for (gint64 i = 0; i < n; i++)                               \
      out[offsets[i]] = in[i];                                   \
  } G_STMT_END

static void
cpu_scatter (gpointer       base,
             gconstpointer  src,
             gsize          element_size,
             const gint64  *offsets,
             gint64         n)
{
  switch (element_size)
    {
    case 1:
      SCATTER_AS (guint8);
      break;
    case 2:
      SCATTER_AS (guint16);
      break;
    case 4:
      SCATTER_AS (guint32);
      break;
    case 8:
      SCATTER_AS (guint64);
      break;
    default:
      for (gint64 i = 0; i < n; i++)
        memcpy ((guint8 *) base + offsets[i] * element_size,
                (const guint8 *) src + i * element_size, element_size);
      break;
    }
}

#define SCATTER_ADD_AS(type)                                     \
  G_STMT_START {                                                 \
    type *out = base;                                            \
    const type *in = src;                                        \
    for (gint64 i = 0; i < n; i++)                               \
      out[offsets[i]] += in[i];                                  \
  } G_STMT_END

static void
cpu_scatter_add (gpointer       base,
                 gconstpointer  src,
                 LtDType        dtype,
                 const gint64  *offsets,
                 gint64         n)
{
  gsize size = lt_dtype_get_element_size (dtype);

  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      SCATTER_ADD_AS (float);
      return;
    case LT_DTYPE_FLOAT64:
      SCATTER_ADD_AS (double);
      return;
    default:
      break;
    }

  /* The others through LtValue: integers add as unsigned 64 bits (so they
   * wrap, as the dtype's own arithmetic does, once narrowed), floats in
   * double, which rounds float16, bfloat16 and float32 sums exactly as
   * their own additions would (53 >= 2 * 24 + 2 bits). */
  for (gint64 i = 0; i < n; i++)
    {
      guint8 *at = (guint8 *) base + offsets[i] * size;
      LtValue a = lt_value_read (dtype, at);
      LtValue b = lt_value_read (dtype, (const guint8 *) src + i * size);

      if (a.kind == LT_VALUE_INT)
        a.i = dtype == LT_DTYPE_BOOL ? (a.i || b.i) : (gint64) ((guint64) a.i + (guint64) b.i);
      else
        {
          a.re += b.re;
          a.im += b.im;
        }
      lt_value_write (dtype, at, a);
    }
}

typedef struct
{
  const double *doubles;
  const gint64 *ints;
  gboolean descending;
} OrderKeys;

/* Ascending, NaN above everything; ties are left to the stable sort. */
static int
compare_keys (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const OrderKeys *keys = user_data;
  gint64 i = *(const gint64 *) a, j = *(const gint64 *) b;
  int order;

  if (keys->doubles != NULL)
    {
      double x = keys->doubles[i], y = keys->doubles[j];
      gboolean x_nan = x != x, y_nan = y != y;

      if (x_nan || y_nan)
        order = x_nan - y_nan;
      else
        order = (x > y) - (x < y);
    }
  else
    {
      order = (keys->ints[i] > keys->ints[j]) - (keys->ints[i] < keys->ints[j]);
    }
  return keys->descending ? -order : order;
}

static void
cpu_argsort (gconstpointer  keys,
             gboolean       doubles,
             gint64         n_lines,
             gint64         length,
             gboolean       descending,
             gint64        *order)
{
  for (gint64 line = 0; line < n_lines; line++)
    {
      gint64 *positions = order + line * length;
      OrderKeys line_keys = { NULL, NULL, descending };

      if (doubles)
        line_keys.doubles = (const double *) keys + line * length;
      else
        line_keys.ints = (const gint64 *) keys + line * length;
      for (gint64 i = 0; i < length; i++)
        positions[i] = i;
      /* GLib's sort is a merge sort, and stable. */
      g_qsort_with_data (positions, (gint) length, sizeof (gint64), compare_keys, &line_keys);
    }
}

static gint64
cpu_compact (const guint8 *mask,
             gint64        n,
             gint64       *positions)
{
  gint64 count = 0;

  for (gint64 i = 0; i < n; i++)
    if (mask[i] != 0)
      positions[count++] = i;
  return count;
}

const LtIndexKernels lt_cpu_index_kernels = {
  .gather = cpu_gather,
  .scatter = cpu_scatter,
  .scatter_add = cpu_scatter_add,
  .argsort = cpu_argsort,
  .compact = cpu_compact,
};
