/* test-threads.c: tensors and storages shared between threads
 *
 * Tensor metadata never changes after creation and storages are reference
 * counted atomically, so views may be made, read and dropped from several
 * threads at once, and kernels may run from several threads at once, sharing
 * the pool. The ThreadSanitizer run (README.md) checks the claim in depth;
 * here the values are checked too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-threads-private.h"

#define N_THREADS 4
#define N_ROUNDS 2000

static gpointer
make_and_drop_views (gpointer data)
{
  LtTensor *base = data;

  for (int round = 0; round < N_ROUNDS; round++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) t = lt_tensor_t (base, &error);
      g_autoptr (LtTensor) row = lt_tensor_index (t, "[1, ::2]", &error);
      g_autoptr (LtTensor) copy = lt_tensor_contiguous (row, &error);
      double value;

      g_assert_no_error (error);
      lt_tensor_get_double (copy, I64S (1), 1, &value, &error);
      g_assert_no_error (error);
      /* base is arange(12).view(3, 4): t[1, ::2] is base[::2, 1] = 1, 9. */
      g_assert_cmpfloat (value, ==, 9.0);
    }

  return NULL;
}

static void
test_views_from_many_threads (void)
{
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4);
  GThread *threads[N_THREADS];

  for (int i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("views", make_and_drop_views, base);
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  /* Every view is gone: the base holds the only reference to its storage. */
  g_assert_cmpuint (G_OBJECT (lt_tensor_get_storage (base))->ref_count, ==, 1);
}

static gpointer
drop_last_reference (gpointer data)
{
  g_object_unref (data);
  return NULL;
}

static void
test_storage_outlives_views_across_threads (void)
{
  g_autoptr (GError) error = NULL;
  LtTensor *base = lt_test_arange_shaped (LT_DTYPE_INT32, 100);
  g_autoptr (LtTensor) tail = lt_tensor_index (base, "[90:]", &error);
  GThread *thread;

  g_assert_no_error (error);
  /* Another thread drops the base; the view keeps the storage alive. */
  thread = g_thread_new ("drop", drop_last_reference, base);
  g_thread_join (thread);
  lt_assert_values (tail, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99);
}

static gpointer
draw_numbers (gpointer data)
{
  LtGenerator *generator = data;

  for (int round = 0; round < 200; round++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) t = lt_tensor_new_rand (generator, LT_DTYPE_FLOAT32, I64S (8), 1,
                                                   &error);
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_shared_generator (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (11);
  GThread *threads[N_THREADS];

  for (int i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("draw", draw_numbers, generator);
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  /* Each draw of 8 float32 values takes 2 blocks; no block is taken twice. */
  g_assert_cmpuint (lt_generator_get_offset (generator), ==, N_THREADS * 200 * 2);
}

/* Views made on some threads, read and dropped on others, while the main
 * thread reads the storage they share: the storage lives exactly as long as
 * its last view, wherever that one is dropped. */
#define N_HANDED 200

typedef struct
{
  LtTensor *base;
  LtTensor *views[N_HANDED];
} Handover;

static gpointer
make_views (gpointer data)
{
  Handover *handover = data;

  for (int i = 0; i < N_HANDED; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *index = g_strdup_printf ("[%d:, ::%d]", i % 3, 1 + i % 4);

      handover->views[i] = lt_tensor_index (handover->base, index, &error);
      g_assert_no_error (error);
    }
  return NULL;
}

static gpointer
read_and_drop_views (gpointer data)
{
  Handover *handover = data;

  for (int i = 0; i < N_HANDED; i++)
    {
      g_autoptr (LtTensor) view = g_steal_pointer (&handover->views[i]);
      double first;

      /* Row i % 3, column 0 of arange(12).view(3, 4). */
      g_assert_true (lt_tensor_get_double (view, I64S (0, 0), 2, &first, NULL));
      g_assert_cmpfloat (first, ==, 4.0 * (i % 3));
    }
  return NULL;
}

static void
test_views_handed_between_threads (void)
{
  LtTensor *base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 4);
  g_autoptr (LtStorage) storage = g_object_ref (lt_tensor_get_storage (base));
  Handover handovers[N_THREADS];
  GThread *threads[N_THREADS];

  for (int i = 0; i < N_THREADS; i++)
    {
      handovers[i].base = base;
      threads[i] = g_thread_new ("make", make_views, &handovers[i]);
    }
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (G_OBJECT (storage)->ref_count, ==, 2 + N_THREADS * N_HANDED);

  /* Each thread drops the views another one made; the base goes first. */
  g_object_unref (base);
  for (int i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("drop", read_and_drop_views, &handovers[(i + 1) % N_THREADS]);
  for (int i = 0; i < 1000; i++)
    g_assert_cmpint (lt_storage_get_n_elements (storage), ==, 12);
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (G_OBJECT (storage)->ref_count, ==, 1);
}

/* Several threads running kernels that split their work across the pool at
 * once, over one shared input. */
typedef struct
{
  LtTensor *input;
  LtTensor *sums;
  LtTensor *transposed;
  LtTensor *product;
} SharedWork;

static gpointer
run_kernels (gpointer data)
{
  SharedWork *work = data;

  for (int round = 0; round < 4; round++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) t = lt_tensor_t (work->input, &error);
      g_autoptr (LtTensor) sums = lt_tensor_sum (work->input, (const int[]) { 0 }, 1, FALSE,
                                                 &error);
      g_autoptr (LtTensor) transposed = lt_tensor_contiguous (t, &error);
      g_autoptr (LtTensor) product = lt_tensor_matmul (work->input, t, &error);

      g_assert_no_error (error);
      g_assert_true (lt_tensor_equal (sums, work->sums));
      g_assert_true (lt_tensor_equal (transposed, work->transposed));
      g_assert_true (lt_tensor_equal (product, work->product));
    }
  return NULL;
}

static void
test_kernels_from_many_threads (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) input = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 384, 256);
  g_autoptr (LtTensor) t = lt_tensor_t (input, &error);
  SharedWork work = { input };
  GThread *threads[N_THREADS];
  guint saved = lt_get_num_threads ();

  /* The expected values, computed with no other thread running. */
  lt_set_num_threads (4);
  work.sums = lt_tensor_sum (input, (const int[]) { 0 }, 1, FALSE, &error);
  work.transposed = lt_tensor_contiguous (t, &error);
  work.product = lt_tensor_matmul (input, t, &error);
  g_assert_no_error (error);

  for (int i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("kernels", run_kernels, &work);
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  g_object_unref (work.sums);
  g_object_unref (work.transposed);
  g_object_unref (work.product);
  lt_set_num_threads (saved);
}

/* lt_parallel_for() visits every index once, across as many pieces as
 * there are threads, and a call from inside a piece stays on its thread. */
typedef struct
{
  gint *visits;
  gint nested_pieces;
} ParallelCount;

static void
count_nested (gint64   begin,
              gint64   end,
              gpointer data)
{
  g_atomic_int_inc ((gint *) data);
}

static void
count_visits (gint64   begin,
              gint64   end,
              gpointer data)
{
  ParallelCount *count = data;

  g_assert_cmpint (begin, <, end);
  for (gint64 i = begin; i < end; i++)
    g_atomic_int_inc (&count->visits[i]);
  lt_parallel_for (1000, 1, count_nested, &count->nested_pieces);
}

static void
test_parallel_for (void)
{
  const gint64 sizes[] = { 0, 1, 7, 64, 1000, 100003 };
  const gint64 grains[] = { 1, 16, 4096 };
  guint saved = lt_get_num_threads ();

  for (guint threads = 1; threads <= 4; threads++)
    {
      lt_set_num_threads (threads);
      g_assert_cmpuint (lt_get_num_threads (), ==, threads);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        for (guint g = 0; g < G_N_ELEMENTS (grains); g++)
          {
            ParallelCount count = { g_new0 (gint, MAX (sizes[s], 1)), 0 };
            guint pieces = lt_parallel_n_pieces (sizes[s], grains[g]);

            lt_parallel_for (sizes[s], grains[g], count_visits, &count);
            for (gint64 i = 0; i < sizes[s]; i++)
              g_assert_cmpint (count.visits[i], ==, 1);
            /* Never more pieces than threads, nor pieces under the grain. */
            g_assert_cmpuint (pieces, <=, threads);
            if (pieces > 1)
              g_assert_cmpint (sizes[s] / pieces, >=, grains[g]);
            /* Split, each piece ran the nested call whole, as one piece;
             * not split, the nested call could split. */
            if (sizes[s] == 0)
              g_assert_cmpint (count.nested_pieces, ==, 0);
            else if (pieces > 1)
              g_assert_cmpint (count.nested_pieces, ==, (gint) pieces);
            else
              g_assert_cmpint (count.nested_pieces, ==, (gint) threads);
            g_free (count.visits);
          }
    }
  lt_set_num_threads (saved);
}

/* The caller claims pieces too, so a pool whose workers never woke would
 * still visit everything: each piece here waits (a second at most) for the
 * other to start, which only a worker running beside the caller can do. */
typedef struct
{
  gint started;
  GThread *runners[2];
} Meeting;

static void
meet (gint64   begin,
      gint64   end,
      gpointer data)
{
  Meeting *meeting = data;
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;

  meeting->runners[begin] = g_thread_self ();
  g_atomic_int_inc (&meeting->started);
  while (g_atomic_int_get (&meeting->started) < 2 && g_get_monotonic_time () < deadline)
    g_usleep (100);
}

/* Lines of work posted back to back from several threads at once: each
 * caller's pieces, whoever runs them, visit its items once. */
static gpointer
post_back_to_back (gpointer data)
{
  gint *visits = g_new0 (gint, 64);

  for (int call = 0; call < 2000; call++)
    {
      ParallelCount count = { visits, 0 };

      memset (visits, 0, 64 * sizeof (gint));
      lt_parallel_for (64, 1, count_visits, &count);
      for (int i = 0; i < 64; i++)
        g_assert_cmpint (visits[i], ==, 1);
      /* Now and then long enough a pause for the workers to fall asleep. */
      if (call % 500 == 0)
        g_usleep (2000);
    }
  g_free (visits);
  return NULL;
}

static void
test_parallel_for_workers (void)
{
  guint saved = lt_get_num_threads ();
  GThread *threads[N_THREADS];
  gboolean met = FALSE;

  lt_set_num_threads (2);
  /* Workers asleep (a pause well past their spin) and awake. */
  for (int attempt = 0; attempt < 5 && !met; attempt++)
    {
      Meeting meeting = { 0 };

      g_usleep (attempt % 2 == 0 ? 5000 : 0);
      lt_parallel_for (2, 1, meet, &meeting);
      g_assert_cmpint (meeting.started, ==, 2);
      met = meeting.runners[0] != meeting.runners[1];
    }
  g_assert_true (met);

  for (int i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("post", post_back_to_back, NULL);
  for (int i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);
  lt_set_num_threads (saved);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/threads/views", test_views_from_many_threads);
  g_test_add_func ("/threads/storage-outlives-views", test_storage_outlives_views_across_threads);
  g_test_add_func ("/threads/views-handed-between-threads", test_views_handed_between_threads);
  g_test_add_func ("/threads/kernels", test_kernels_from_many_threads);
  g_test_add_func ("/threads/shared-generator", test_shared_generator);
  g_test_add_func ("/threads/parallel-for", test_parallel_for);
  g_test_add_func ("/threads/parallel-for/workers", test_parallel_for_workers);

  return g_test_run ();
}
