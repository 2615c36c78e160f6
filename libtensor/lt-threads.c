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

static guint num_threads;  /* 0 until first used */
static GMutex threads_lock;
/* Products running batches on the pool, each batch on one BLAS thread
 * (lt_blas_one_thread_begin ()); under threads_lock. */
static guint blas_one_thread_users;

/* Set on the threads running a piece, so nested calls stay on them. */
static GPrivate in_piece;

/* How long a worker, or a caller waiting for its workers, spins before it
 * sleeps: long enough to span the Python between two kernel calls, so a
 * call finds its workers awake instead of paying a wake-up (tens of
 * microseconds on a VM, more than a small kernel takes). OpenMP's workers,
 * PyTorch's, spin the same way. */
#define SPIN_US 200

/* One job at a time is posted to the workers. Its pieces are claimed
 * through one word, @claims: the job's generation (32 bits), its piece
 * count (16) and the next piece to claim (16), so a worker that claims a
 * piece knows it is the posted job's. Whoever claims a piece runs it: the
 * caller claims too, and does every piece itself when the workers are
 * asleep, so nothing waits for a wake-up. Results do not depend on who
 * runs a piece: the pieces are cut from the sizes and thread count alone. */
typedef struct
{
  LtParallelFunc func;
  gpointer data;
  gint64 n;
} Job;

static struct
{
  GMutex posting;     /* held by the caller whose job is posted */
  Job job;            /* written by that caller before it posts */
  guint64 claims;     /* atomic */
  gint done;          /* atomic: the posted job's pieces run */
  GMutex lock;        /* the sleeping below */
  GCond wake;         /* workers: a new generation is posted */
  GCond finished;     /* the caller: every piece has run */
  gint sleepers;      /* atomic: workers asleep on @wake */
  gint caller_asleep; /* atomic: the caller asleep on @finished */
  guint n_workers;    /* written under threads_lock, read atomically */
} team;

#define GENERATION(claims) ((guint32) ((claims) >> 32))
#define N_PIECES(claims) ((guint) (((claims) >> 16) & 0xffff))
#define NEXT_PIECE(claims) ((guint) ((claims) & 0xffff))

static inline void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* TRUE while fewer than SPIN_US have passed since the first call with
 * *@deadline 0; reads the clock one call in 64. */
static gboolean
keep_spinning (gint64 *deadline,
               guint  *spins)
{
  if (++*spins % 64 != 0)
    return TRUE;
  if (*deadline == 0)
    *deadline = g_get_monotonic_time () + SPIN_US;
  return g_get_monotonic_time () < *deadline;
}

/* Claims and runs pieces of generation @generation until none is left. */
static void
run_pieces (guint32 generation)
{
  guint64 claims = __atomic_load_n (&team.claims, __ATOMIC_ACQUIRE);

  while (GENERATION (claims) == generation && NEXT_PIECE (claims) < N_PIECES (claims))
    {
      guint piece = NEXT_PIECE (claims), n_pieces = N_PIECES (claims);
      gint64 n;

      if (!__atomic_compare_exchange_n (&team.claims, &claims, claims + 1, FALSE,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        continue;
      /* The job stays as it is until this piece is counted done. */
      lt_tsan_acquire (&team.job);
      n = team.job.n;
      team.job.func (n * piece / n_pieces, n * (piece + 1) / n_pieces, team.job.data);
      if (__atomic_add_fetch (&team.done, 1, __ATOMIC_SEQ_CST) == (gint) n_pieces
          && __atomic_load_n (&team.caller_asleep, __ATOMIC_SEQ_CST))
        {
          lt_mutex_lock (&team.lock);
          g_cond_signal (&team.finished);
          lt_mutex_unlock (&team.lock);
        }
      claims = __atomic_load_n (&team.claims, __ATOMIC_ACQUIRE);
    }
}

static gpointer
worker_main (gpointer unused)
{
  guint32 seen = GENERATION (__atomic_load_n (&team.claims, __ATOMIC_ACQUIRE));

  g_private_set (&in_piece, GINT_TO_POINTER (1));
  for (;;)
    {
      gint64 deadline = 0;
      guint spins = 0;

      while (GENERATION (__atomic_load_n (&team.claims, __ATOMIC_ACQUIRE)) == seen
             && keep_spinning (&deadline, &spins))
        cpu_relax ();

      lt_mutex_lock (&team.lock);
      __atomic_add_fetch (&team.sleepers, 1, __ATOMIC_SEQ_CST);
      while (GENERATION (__atomic_load_n (&team.claims, __ATOMIC_SEQ_CST)) == seen)
        lt_cond_wait (&team.wake, &team.lock);
      __atomic_sub_fetch (&team.sleepers, 1, __ATOMIC_SEQ_CST);
      lt_mutex_unlock (&team.lock);

      seen = GENERATION (__atomic_load_n (&team.claims, __ATOMIC_ACQUIRE));
      run_pieces (seen);
    }
  return NULL;
}

/* Starts workers until there are @wanted; where the system refuses a
 * thread, the callers run the pieces that thread would have. */
static void
start_workers (guint wanted)
{
  /* Every call asks; once they are there, without taking the lock. */
  if (__atomic_load_n (&team.n_workers, __ATOMIC_ACQUIRE) >= wanted)
    return;
  lt_mutex_lock (&threads_lock);
  while (team.n_workers < wanted)
    {
      g_autoptr (GError) error = NULL;
      GThread *thread = g_thread_try_new ("lt-worker", worker_main, NULL, &error);

      if (thread == NULL)
        {
          g_debug ("Could not start a worker thread: %s", error->message);
          break;
        }
      g_thread_unref (thread);
      __atomic_store_n (&team.n_workers, team.n_workers + 1, __ATOMIC_RELEASE);
    }
  lt_mutex_unlock (&threads_lock);
}

static guint
default_num_threads (void)
{
  const char *env = g_getenv ("LT_NUM_THREADS");
  guint64 n;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 1024, &n, NULL))
    return (guint) n;
  return (guint) MAX (g_get_num_processors (), 1);
}

void
lt_set_num_threads (guint n_threads)
{
  g_return_if_fail (n_threads >= 1);

  lt_mutex_lock (&threads_lock);
  num_threads = n_threads;
#ifdef HAVE_CBLAS
  /* The matrix products' threads too; set when the last batched product
   * running on the pool ends, if one is. */
  if (blas_one_thread_users == 0)
    openblas_set_num_threads ((int) MIN (n_threads, G_MAXINT));
#endif
  lt_mutex_unlock (&threads_lock);
}

void
lt_blas_one_thread_begin (void)
{
  /* The thread count settled first: its first use sets BLAS's. */
  lt_get_num_threads ();

  lt_mutex_lock (&threads_lock);
#ifdef HAVE_CBLAS
  if (blas_one_thread_users == 0)
    openblas_set_num_threads (1);
#endif
  blas_one_thread_users++;
  lt_mutex_unlock (&threads_lock);
}

void
lt_blas_one_thread_end (void)
{
  lt_mutex_lock (&threads_lock);
  g_assert (blas_one_thread_users > 0);
  blas_one_thread_users--;
#ifdef HAVE_CBLAS
  if (blas_one_thread_users == 0)
    openblas_set_num_threads ((int) MIN (num_threads, G_MAXINT));
#endif
  lt_mutex_unlock (&threads_lock);
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
#ifdef HAVE_CBLAS
  /* Under the lock, so that neither a concurrent lt_set_num_threads ()
   * nor a batched product's one BLAS thread is overwritten. */
  if (first && blas_one_thread_users == 0)
    openblas_set_num_threads ((int) MIN (n, G_MAXINT));
#else
  (void) first;
#endif
  lt_mutex_unlock (&threads_lock);
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
  guint64 claims;
  guint32 generation;
  gint64 deadline = 0;
  guint spins = 0;

  if (n <= 0)
    return;
  /* One piece, or another thread's job posted: all of it here. */
  if (n_pieces <= 1 || !g_mutex_trylock (&team.posting))
    {
      func (0, n, data);
      return;
    }
  lt_tsan_acquire (&team.posting);
  n_pieces = MIN (n_pieces, 0xffff);
  start_workers (lt_get_num_threads () - 1);

  team.job = (Job) { func, data, n };
  lt_tsan_release (&team.job);
  __atomic_store_n (&team.done, 0, __ATOMIC_RELAXED);
  claims = __atomic_load_n (&team.claims, __ATOMIC_RELAXED);
  generation = GENERATION (claims) + 1;
  __atomic_store_n (&team.claims, (guint64) generation << 32 | (guint64) n_pieces << 16,
                    __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&team.sleepers, __ATOMIC_SEQ_CST) > 0)
    {
      lt_mutex_lock (&team.lock);
      g_cond_broadcast (&team.wake);
      lt_mutex_unlock (&team.lock);
    }

  /* Pieces here too, marked as pieces so that they do not split again. */
  g_private_set (&in_piece, GINT_TO_POINTER (1));
  run_pieces (generation);
  g_private_set (&in_piece, NULL);

  while (__atomic_load_n (&team.done, __ATOMIC_ACQUIRE) < (gint) n_pieces
         && keep_spinning (&deadline, &spins))
    cpu_relax ();
  if (__atomic_load_n (&team.done, __ATOMIC_ACQUIRE) < (gint) n_pieces)
    {
      lt_mutex_lock (&team.lock);
      __atomic_store_n (&team.caller_asleep, 1, __ATOMIC_SEQ_CST);
      while (__atomic_load_n (&team.done, __ATOMIC_SEQ_CST) < (gint) n_pieces)
        lt_cond_wait (&team.finished, &team.lock);
      __atomic_store_n (&team.caller_asleep, 0, __ATOMIC_SEQ_CST);
      lt_mutex_unlock (&team.lock);
    }
  lt_tsan_acquire (&team.done);
  lt_tsan_release (&team.posting);
  g_mutex_unlock (&team.posting);
}
