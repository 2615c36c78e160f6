/* lt-memory.c: host memory whose size a caller's input decides
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-memory-private.h"

/* How many fallible allocations are left before the one a test asked to
 * fail; -1 when no test asked. The only state: tests set it, and it costs
 * every allocation one atomic read. */
static gint allocations_before_failure = -1;

gboolean
lt_memory_injected_failure (void)
{
  gint left = g_atomic_int_get (&allocations_before_failure);

  while (left >= 0)
    {
      /* Count down; the allocation that takes the count from 0 to -1 fails
       * and turns the injection off. */
      if (g_atomic_int_compare_and_exchange_full (&allocations_before_failure, left, left - 1,
                                                  &left))
        return left == 0;
    }
  return FALSE;
}

gpointer
lt_memory_try_alloc (gsize    nbytes,
                     gboolean zeroed)
{
  if (G_UNLIKELY (lt_memory_injected_failure ()))
    return NULL;

  /* g_try_malloc (0) is NULL, which here would read as a failure. */
  nbytes = MAX (nbytes, 1);
  return zeroed ? g_try_malloc0 (nbytes) : g_try_malloc (nbytes);
}

gpointer
lt_memory_alloc (gsize        nbytes,
                 const char  *what,
                 GError     **error)
{
  gpointer memory = lt_memory_try_alloc (nbytes, FALSE);

  if (memory == NULL)
    g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                 _("cannot allocate %zu bytes for %s"), nbytes, _(what));
  return memory;
}

void
lt_memory_fail_allocation (gint n)
{
  g_return_if_fail (n >= -1);

  g_atomic_int_set (&allocations_before_failure, n);
}

gboolean
lt_memory_failure_pending (void)
{
  return g_atomic_int_get (&allocations_before_failure) >= 0;
}
