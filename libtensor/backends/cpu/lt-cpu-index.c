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
  .compact = cpu_compact,
};
