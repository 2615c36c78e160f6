/* lt-cpu-backend.c: host memory and the CPU kernels' entry points
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-cpu-private.h"

/* calloc rather than an aligned allocator: large zeroed blocks then come
 * straight from fresh pages without a memset. The pointer calloc returned is
 * kept just below the aligned one so lt_cpu_free() can find it. */
static gpointer
lt_cpu_alloc (gsize nbytes)
{
  guint8 *raw;
  guintptr aligned;

  if (nbytes > G_MAXSIZE - 2 * LT_STORAGE_ALIGNMENT)
    return NULL;

  raw = g_try_malloc0 (nbytes + LT_STORAGE_ALIGNMENT + sizeof (gpointer));
  if (raw == NULL)
    return NULL;

  aligned = ((guintptr) raw + sizeof (gpointer) + LT_STORAGE_ALIGNMENT - 1)
            & ~(guintptr) (LT_STORAGE_ALIGNMENT - 1);
  ((gpointer *) aligned)[-1] = raw;

  return (gpointer) aligned;
}

static void
lt_cpu_free (gpointer data)
{
  if (data != NULL)
    g_free (((gpointer *) data)[-1]);
}

static void
lt_cpu_synchronize (void)
{
}

static const LtBackend cpu_backend = {
  .name = "cpu",
  .device_type = LT_DEVICE_TYPE_CPU,
  .alloc = lt_cpu_alloc,
  .free = lt_cpu_free,
  .copy = lt_cpu_copy,
  .fill = lt_cpu_fill,
  .random = lt_cpu_random,
  .random_fill = lt_cpu_random_fill,
  .arange = lt_cpu_arange,
  .linspace = lt_cpu_linspace,
  .synchronize = lt_cpu_synchronize,
  .pointwise = &lt_cpu_pointwise_kernels,
  .reduce = &lt_cpu_reduce_kernels,
  .linalg = &lt_cpu_linalg_kernels,
};

const LtBackend *
lt_cpu_backend_get (void)
{
  return &cpu_backend;
}
