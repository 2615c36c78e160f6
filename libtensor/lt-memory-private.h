/* lt-memory-private.h: host memory whose size a caller's input decides
 *
 * g_malloc() aborts when it cannot allocate. That is right for the small,
 * fixed bookkeeping of every call, and wrong for memory whose size comes from
 * a caller's tensors: a product of an expanded view can ask for a terabyte of
 * scratch, and that must come back as LT_ERROR_OUT_OF_MEMORY, not end the
 * program. Every such allocation (storages on the host, scratch matrices,
 * index arrays) goes through here, which also lets the tests make any one of
 * them fail.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @nbytes of memory (zero-filled when @zeroed), or NULL when there is not
 * enough; free it with g_free(). */
gpointer lt_memory_try_alloc (gsize    nbytes,
                              gboolean zeroed);

/* As lt_memory_try_alloc(), with @error set (LT_ERROR_OUT_OF_MEMORY, naming
 * @what, marked with N_(), and the size) when it fails. */
gpointer lt_memory_alloc (gsize        nbytes,
                          const char  *what,
                          GError     **error);

/* Whether the allocation about to be made is one a test asked to fail; for
 * allocators that do not call lt_memory_try_alloc() (the CPU backend's
 * mapped blocks). Counts the allocation. */
gboolean lt_memory_injected_failure (void);

/* For the tests: makes the allocation @n allocations from now fail (0 the
 * next one), counting every call of the functions above from any thread;
 * -1 makes none fail. */
void lt_memory_fail_allocation (gint n);

/* For the tests: whether a failure lt_memory_fail_allocation() asked for has
 * not happened yet (the code ran made fewer allocations than that). */
gboolean lt_memory_failure_pending (void);

G_END_DECLS
