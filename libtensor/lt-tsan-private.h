/* lt-tsan-private.h: GLib's locks, made visible to ThreadSanitizer
 *
 * GMutex, GCond and GThreadPool wait on futexes, which ThreadSanitizer does
 * not intercept, and GLib is not built with it: every handover through them
 * would read as a data race. In a ThreadSanitizer build these wrappers mark
 * each handover (release before an unlock or a push, acquire after a lock or
 * a pop); in any other build they are the GLib calls alone.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#if defined (__SANITIZE_THREAD__)
# define LT_TSAN 1
#elif defined (__has_feature)
# if __has_feature (thread_sanitizer)
#  define LT_TSAN 1
# endif
#endif

#ifdef LT_TSAN
# include <sanitizer/tsan_interface.h>
# define lt_tsan_acquire(address) __tsan_acquire ((void *) (address))
# define lt_tsan_release(address) __tsan_release ((void *) (address))
#else
# define lt_tsan_acquire(address) ((void) (address))
# define lt_tsan_release(address) ((void) (address))
#endif

G_BEGIN_DECLS

static inline void
lt_mutex_lock (GMutex *mutex)
{
  g_mutex_lock (mutex);
  lt_tsan_acquire (mutex);
}

static inline void
lt_mutex_unlock (GMutex *mutex)
{
  lt_tsan_release (mutex);
  g_mutex_unlock (mutex);
}

/* g_cond_wait(): gives @mutex up while it waits and takes it back. */
static inline void
lt_cond_wait (GCond  *cond,
              GMutex *mutex)
{
  lt_tsan_release (mutex);
  g_cond_wait (cond, mutex);
  lt_tsan_acquire (mutex);
}

G_END_DECLS
