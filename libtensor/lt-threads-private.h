/* lt-threads-private.h: splitting a kernel's work across threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Runs @func on the ranges of [0, @n) in as many pieces as there are threads
 * (lt_get_num_threads()), none smaller than @grain items, and returns when
 * every piece is done. The calling thread runs the first piece; a call made
 * from inside a piece runs everything on its own thread. Work of fewer than
 * 2 * @grain items is not split at all. */
typedef void (*LtParallelFunc) (gint64   begin,
                                gint64   end,
                                gpointer data);

void lt_parallel_for (gint64         n,
                      gint64         grain,
                      LtParallelFunc func,
                      gpointer       data);

/* The number of pieces lt_parallel_for() would split @n items into. */
guint lt_parallel_n_pieces (gint64 n,
                            gint64 grain);

/* Between these, BLAS runs each call on the calling thread alone: for
 * products whose batches the pool spreads across its threads. Calls may
 * nest and overlap; the last end gives BLAS the pool's thread count again. */
void lt_blas_one_thread_begin (void);
void lt_blas_one_thread_end   (void);

G_END_DECLS
