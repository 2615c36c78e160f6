/* lt-threads.c: the thread pool the CPU kernels share
 *
 * One process-wide pool: the thread count is a property of the process, as
 * torch.set_num_threads() is, and threads are too costly to start per call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <stdlib.h>

#ifdef HAVE_CBLAS
#include <cblas.h>
#endif

#include "lt-threads.h"
#include "lt-threads-private.h"
#include "lt-tsan-private.h"

static GThreadPool *pool;
static guint num_threads;  /* 0 until first used */
static GMutex threads_lock;

/* Set on the threads running a piece, so nested calls stay on them. */
static GPrivate in_piece;

typedef struct
{
  LtParallelFunc func;
  gpointer data;
  GMutex lock;
  GCond done;
  guint pending;
} Job;

typedef struct
{
  Job *job;
  gint64 begin, end;
} Piece;

static guint
default_num_threads (void)
{
  const char *env = g_getenv ("LT_NUM_THREADS");
  guint64 n;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 1024, &n, NULL))
    return (guint) n;
  return (guint) MAX (g_get_num_processors (), 1);
}

static void
run_piece (gpointer data,
           gpointer user_data)
{
  Piece *piece = data;
  Job *job;

  /* What lt_parallel_for() wrote before pushing the piece. */
  lt_tsan_acquire (piece);
  job = piece->job;
  g_private_set (&in_piece, GINT_TO_POINTER (1));
  job->func (piece->begin, piece->end, job->data);
  g_private_set (&in_piece, NULL);

  lt_mutex_lock (&job->lock);
  if (--job->pending == 0)
    g_cond_signal (&job->done);
  lt_mutex_unlock (&job->lock);
}

/* The pool, with room for @threads - 1 workers beside the caller. */
static GThreadPool *
get_pool (guint threads)
{
  GThreadPool *result;

  lt_mutex_lock (&threads_lock);
  if (pool == NULL)
    pool = g_thread_pool_new (run_piece, NULL, (int) MAX (threads, 2) - 1, FALSE, NULL);
  result = pool;
  lt_mutex_unlock (&threads_lock);
  return result;
}

/**
 * lt_set_num_threads:
 * @n_threads: the number of threads, at least 1
 *
 * Sets how many threads large pointwise, reduction and copy kernels split
 * their work across, and OpenBLAS its matrix products, as
 * `torch.set_num_threads()` does. The default is the
 * number of processors, or `$LT_NUM_THREADS` when it is set. Results do not
 * depend on it, except float sums, whose rounding may differ in the last
 * bits.
 */
void
lt_set_num_threads (guint n_threads)
{
  g_return_if_fail (n_threads >= 1);

  lt_mutex_lock (&threads_lock);
  num_threads = n_threads;
  if (pool != NULL)
    g_thread_pool_set_max_threads (pool, (int) MAX (n_threads, 2) - 1, NULL);
  lt_mutex_unlock (&threads_lock);

#ifdef HAVE_CBLAS
  /* The matrix products' threads too. */
  openblas_set_num_threads ((int) MIN (n_threads, G_MAXINT));
#endif
}

/**
 * lt_get_num_threads:
 *
 * Returns: how many threads the CPU kernels split large work across
 */
guint
lt_get_num_threads (void)
{
  gboolean first = FALSE;
  guint n;

  lt_mutex_lock (&threads_lock);
  if (num_threads == 0)
    {
      num_threads = default_num_threads ();
      first = TRUE;
    }
  n = num_threads;
  lt_mutex_unlock (&threads_lock);

#ifdef HAVE_CBLAS
  if (first)
    openblas_set_num_threads ((int) MIN (n, G_MAXINT));
#else
  (void) first;
#endif
  return n;
}

guint
lt_parallel_n_pieces (gint64 n,
                      gint64 grain)
{
  gint64 threads;

  if (g_private_get (&in_piece) != NULL || n < 2 * MAX (grain, 1))
    return 1;
  threads = lt_get_num_threads ();
  return (guint) MAX (1, MIN (threads, n / MAX (grain, 1)));
}

void
lt_parallel_for (gint64         n,
                 gint64         grain,
                 LtParallelFunc func,
                 gpointer       data)
{
  guint n_pieces = lt_parallel_n_pieces (n, grain);
  g_autofree Piece *pieces = NULL;
  GThreadPool *workers;
  Job job = { func, data };

  if (n <= 0)
    return;
  if (n_pieces <= 1)
    {
      func (0, n, data);
      return;
    }

  workers = get_pool (lt_get_num_threads ());
  pieces = g_new (Piece, n_pieces);
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  job.pending = n_pieces - 1;

  for (guint p = 0; p < n_pieces; p++)
    {
      pieces[p].job = &job;
      pieces[p].begin = n * p / n_pieces;
      pieces[p].end = n * (p + 1) / n_pieces;
    }
  for (guint p = 1; p < n_pieces; p++)
    {
      lt_tsan_release (&pieces[p]);
      g_thread_pool_push (workers, &pieces[p], NULL);
    }

  /* The first piece here, marked as a piece so that it does not split
   * again. */
  g_private_set (&in_piece, GINT_TO_POINTER (1));
  func (pieces[0].begin, pieces[0].end, data);
  g_private_set (&in_piece, NULL);

  lt_mutex_lock (&job.lock);
  while (job.pending > 0)
    lt_cond_wait (&job.done, &job.lock);
  lt_mutex_unlock (&job.lock);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.done);
}
