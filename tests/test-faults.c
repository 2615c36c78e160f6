/* test-faults.c: operations that run out of memory part-way
 *
 * Each case builds its inputs, then runs one operation again and again,
 * making the first, the second, the third... of the allocations it makes
 * fail (lt_memory_fail_allocation()), until it runs out of allocations to
 * fail and succeeds. Every failed run must end in LT_ERROR_OUT_OF_MEMORY with
 * no result, its inputs holding what they held before, byte for byte, and
 * no more references to them than before; the run that succeeds must give
 * what a run without any failure gives. Leaks show up in the sanitizer and
 * valgrind runs of this test (README.md).
 *
 * Sizes the machine can never hold (expanded views whose products or index
 * lists would take terabytes) fail the same way without any injection.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "lt-test-utils.h"

#include "lt-memory-private.h"

#define MAX_INPUTS 3

typedef struct
{
  LtTensor *inputs[MAX_INPUTS];
  guint n_inputs;
  GBytes *file;
} Inputs;

typedef struct
{
  const char *name;
  void (*setup) (Inputs *inputs);
  /* The result (a new reference), or NULL with @error set. */
  LtTensor *(*run) (Inputs  *inputs,
                    GError **error);
  /* How many allocations the operation makes at least, where BLAS packs
   * operands (HAVE_CBLAS) and where it does not. */
  guint min_allocations_blas;
  guint min_allocations;
} FaultCase;

static void
inputs_clear (Inputs *inputs)
{
  for (guint i = 0; i < inputs->n_inputs; i++)
    g_clear_object (&inputs->inputs[i]);
  g_clear_pointer (&inputs->file, g_bytes_unref);
  inputs->n_inputs = 0;
}

static void
inputs_add (Inputs   *inputs,
            LtTensor *tensor)
{
  g_assert_nonnull (tensor);
  g_assert_cmpuint (inputs->n_inputs, <, MAX_INPUTS);
  inputs->inputs[inputs->n_inputs++] = tensor;
}

static LtTensor *
arange_view (const char *index,
             gint64      rows,
             gint64      cols)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, rows, cols);
  LtTensor *view = lt_tensor_index (base, index, &error);

  g_assert_no_error (error);
  return view;
}

/* What the inputs hold, to compare after a failed run. */
typedef struct
{
  GBytes *contents[MAX_INPUTS];
  guint storage_refs[MAX_INPUTS];
  guint tensor_refs[MAX_INPUTS];
} Snapshot;

static void
snapshot_take (Snapshot     *snapshot,
               const Inputs *inputs)
{
  for (guint i = 0; i < inputs->n_inputs; i++)
    {
      LtStorage *storage = lt_tensor_get_storage (inputs->inputs[i]);
      g_autoptr (GBytes) shared = lt_storage_get_bytes (storage, NULL);

      /* A copy: the bytes of a host storage are the storage itself. */
      snapshot->contents[i] = g_bytes_new (g_bytes_get_data (shared, NULL),
                                           g_bytes_get_size (shared));
      g_clear_pointer (&shared, g_bytes_unref);
      snapshot->storage_refs[i] = G_OBJECT (storage)->ref_count;
      snapshot->tensor_refs[i] = G_OBJECT (inputs->inputs[i])->ref_count;
    }
}

static void
snapshot_check (Snapshot     *snapshot,
                const Inputs *inputs,
                const char   *name,
                guint         failing)
{
  for (guint i = 0; i < inputs->n_inputs; i++)
    {
      LtStorage *storage = lt_tensor_get_storage (inputs->inputs[i]);
      g_autoptr (GBytes) now = lt_storage_get_bytes (storage, NULL);

      if (!g_bytes_equal (now, snapshot->contents[i]))
        g_error ("%s: input %u changed when allocation %u failed", name, i, failing);
      g_clear_pointer (&now, g_bytes_unref);
      if (G_OBJECT (storage)->ref_count != snapshot->storage_refs[i]
          || G_OBJECT (inputs->inputs[i])->ref_count != snapshot->tensor_refs[i])
        g_error ("%s: input %u is referenced more than before when allocation %u failed", name,
                 i, failing);
      g_clear_pointer (&snapshot->contents[i], g_bytes_unref);
    }
}

static void
test_fault_case (gconstpointer data)
{
  const FaultCase *fault = data;
  g_autoptr (LtTensor) expected = NULL;
  g_autoptr (GError) error = NULL;
  Inputs inputs = { { NULL }, 0, NULL };
  guint min_allocations;
  guint failing;

#ifdef HAVE_CBLAS
  min_allocations = fault->min_allocations_blas;
#else
  min_allocations = fault->min_allocations;
#endif

  fault->setup (&inputs);
  expected = fault->run (&inputs, &error);
  g_assert_no_error (error);
  g_assert_nonnull (expected);
  inputs_clear (&inputs);

  for (failing = 0;; failing++)
    {
      g_autoptr (LtTensor) result = NULL;
      Snapshot snapshot = { { NULL } };
      gboolean never_failed;

      fault->setup (&inputs);
      snapshot_take (&snapshot, &inputs);

      lt_memory_fail_allocation ((gint) failing);
      result = fault->run (&inputs, &error);
      never_failed = lt_memory_failure_pending ();
      lt_memory_fail_allocation (-1);

      if (never_failed)
        {
          /* Fewer allocations than @failing + 1: the run went through. */
          g_assert_no_error (error);
          g_assert_nonnull (result);
          g_assert_true (lt_tensor_equal (result, expected));
          for (guint i = 0; i < inputs.n_inputs; i++)
            g_clear_pointer (&snapshot.contents[i], g_bytes_unref);
          inputs_clear (&inputs);
          break;
        }

      g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
      g_assert_null (result);
      g_clear_error (&error);
      snapshot_check (&snapshot, &inputs, fault->name, failing);
      inputs_clear (&inputs);
    }

  g_test_message ("%s: %u allocations, each failed in turn", fault->name, failing);
  g_assert_cmpuint (failing, >=, min_allocations);
}

/* The cases ------------------------------------------------------------- */

static void
setup_transposed (Inputs *inputs)
{
  g_autoptr (LtTensor) matrix = arange_view (":, :", 6, 5);

  inputs_add (inputs, lt_tensor_t (matrix, NULL));
}

static LtTensor *
run_contiguous (Inputs  *inputs,
                GError **error)
{
  return lt_tensor_contiguous (inputs->inputs[0], error);
}

/* Operands BLAS cannot take as they lie: an expanded column and every other
 * element of a matrix. */
static void
setup_product (Inputs *inputs)
{
  g_autoptr (LtTensor) column = arange_view (":, :1", 24, 3);

  inputs_add (inputs, lt_tensor_expand (column, I64S (24, 16), 2, NULL));
  inputs_add (inputs, arange_view ("::2, ::3", 32, 60));
}

static LtTensor *
run_matmul (Inputs  *inputs,
            GError **error)
{
  return lt_tensor_matmul (inputs->inputs[0], inputs->inputs[1], error);
}

/* Batches of small products, which the CPU spreads across two threads,
 * each packing b into scratch of its own: a failure in either thread
 * fails the whole product. */
static LtTensor *
arange_view_3d (const char *index)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 4, 24, 20);
  LtTensor *view = lt_tensor_index (base, index, &error);

  g_assert_no_error (error);
  return view;
}

static void
setup_batched_product (Inputs *inputs)
{
  inputs_add (inputs, arange_view_3d (":, ::2, :"));
  inputs_add (inputs, arange_view_3d (":, 4:, ::2"));
}

static LtTensor *
run_matmul_on_threads (Inputs  *inputs,
                       GError **error)
{
  guint saved = lt_get_num_threads ();
  LtTensor *product;

  lt_set_num_threads (2);
  product = lt_tensor_matmul (inputs->inputs[0], inputs->inputs[1], error);
  lt_set_num_threads (saved);
  return product;
}

static void
setup_chain (Inputs *inputs)
{
  inputs_add (inputs, arange_view ("::2, :", 8, 5));
  inputs_add (inputs, arange_view (":, 1:", 5, 7));
  inputs_add (inputs, arange_view ("::-1, :", 6, 4));
}

static LtTensor *
run_einsum (Inputs  *inputs,
            GError **error)
{
  return lt_einsum ("ij,jk,kl->il", inputs->inputs, 3, error);
}

/* x += its own reverse: the operand overlaps what is written, so it must be
 * copied before anything is. */
static void
setup_self_overlap (Inputs *inputs)
{
  inputs_add (inputs, arange_view (":, :", 7, 3));
}

static LtTensor *
run_add_reversed (Inputs  *inputs,
                  GError **error)
{
  LtTensor *x = inputs->inputs[0];
  g_autoptr (LtTensor) reversed = lt_tensor_flip (x, (const int[]) { 0 }, 1, error);

  if (reversed == NULL || !lt_tensor_add_ (x, reversed, 1.0, error))
    return NULL;
  return g_object_ref (x);
}

static void
setup_reduce (Inputs *inputs)
{
  inputs_add (inputs, arange_view ("::, 1::2", 9, 8));
}

static LtTensor *
run_sum (Inputs  *inputs,
         GError **error)
{
  return lt_tensor_sum (inputs->inputs[0], (const int[]) { 0 }, 1, FALSE, error);
}

/* A file of three tensors, loaded from memory into one copy they share. */
static void
setup_file (Inputs *inputs)
{
  g_autoptr (GHashTable) tensors = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                          g_object_unref);
  g_autoptr (GError) error = NULL;

  g_hash_table_insert (tensors, "a", lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 4));
  g_hash_table_insert (tensors, "b", lt_test_arange_shaped (LT_DTYPE_INT16, 5));
  g_hash_table_insert (tensors, "c", lt_test_arange_shaped (LT_DTYPE_FLOAT64, 2, 2, 2));
  inputs->file = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
}

static LtTensor *
run_load (Inputs  *inputs,
          GError **error)
{
  g_autoptr (GBytes) before = g_bytes_new (g_bytes_get_data (inputs->file, NULL),
                                           g_bytes_get_size (inputs->file));
  g_autoptr (GHashTable) tensors = lt_safetensors_load_from_bytes (inputs->file, NULL, error);

  /* The file is an input too: it must not change either. */
  g_assert_true (g_bytes_equal (before, inputs->file));
  if (tensors == NULL)
    return NULL;
  g_assert_cmpuint (g_hash_table_size (tensors), ==, 3);
  return g_object_ref (g_hash_table_lookup (tensors, "c"));
}

/* A view written as a .npy file in memory and read back. */
static void
setup_npy (Inputs *inputs)
{
  inputs_add (inputs, arange_view ("1::2, ::-1", 9, 4));
}

static LtTensor *
run_npy_round_trip (Inputs  *inputs,
                    GError **error)
{
  g_autoptr (GBytes) file = lt_tensor_to_npy_bytes (inputs->inputs[0], error);

  if (file == NULL)
    return NULL;
  return lt_tensor_new_from_npy_bytes (file, error);
}

static const FaultCase fault_cases[] = {
  { "contiguous", setup_transposed, run_contiguous, 1, 1 },
  /* The result, then A and B packed for BLAS. */
  { "matmul", setup_product, run_matmul, 3, 1 },
  /* The result, then each thread's packed copy of b (a's stepped rows
   * BLAS takes as they are). */
  { "matmul-batches-on-threads", setup_batched_product, run_matmul_on_threads, 3, 1 },
  { "einsum", setup_chain, run_einsum, 2, 2 },
  /* The copy of the reversed operand. */
  { "add-overlapping", setup_self_overlap, run_add_reversed, 1, 1 },
  { "sum", setup_reduce, run_sum, 1, 1 },
  { "safetensors-load", setup_file, run_load, 1, 1 },
  /* The rows in order, the file, the loaded storage. */
  { "npy-round-trip", setup_npy, run_npy_round_trip, 3, 3 },
};

/* Sizes no machine holds ------------------------------------------------- */

#ifdef HAVE_CBLAS
/* An 800,000 x 800,000 matrix that is one element, expanded: BLAS would
 * need it packed into 5 TB. Before scratch memory was fallible this aborted
 * in g_malloc(). (Without BLAS nothing is packed, and the loops would take
 * hours over the view as it is.) */
static void
test_product_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) one = lt_tensor_new_ones (LT_DTYPE_FLOAT64, I64S (1, 1), 2, &error);
  g_autoptr (LtTensor) huge = lt_tensor_expand (one, I64S (800000, 800000), 2, &error);
  g_autoptr (LtTensor) column = lt_tensor_new_ones (LT_DTYPE_FLOAT64, I64S (800000, 1), 2,
                                                    &error);
  g_autoptr (LtTensor) product = NULL;

  g_assert_no_error (error);
  product = lt_tensor_matmul (huge, column, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (product);
  g_assert_nonnull (strstr (error->message, "scratch matrix"));
}
#endif

/* The storage indices of views with more elements than memory holds, one
 * whose byte count does not even fit in a gsize. */
static void
test_indices_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) one = lt_tensor_new_ones (LT_DTYPE_INT8, I64S (1), 1, &error);
  g_autoptr (LtTensor) large = lt_tensor_expand (one, I64S (1 << 20, 1 << 20), 2, &error);
  g_autoptr (LtTensor) larger = lt_tensor_expand (one, I64S (1 << 20, 1 << 20, 1 << 21), 3,
                                                  &error);
  gint64 *indices;
  gsize n = 99;

  g_assert_no_error (error);
  indices = lt_tensor_get_storage_indices (large, &n, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (indices);
  g_assert_cmpuint (n, ==, 0);
  g_clear_error (&error);

  n = 99;
  indices = lt_tensor_get_storage_indices (larger, &n, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (indices);
  g_assert_cmpuint (n, ==, 0);
}

/* A storage or a result too large to allocate. */
static void
test_results_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) one = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (1, 1), 2, &error);
  g_autoptr (LtTensor) huge = lt_tensor_expand (one, I64S (1 << 22, 1 << 22), 2, &error);
  g_autoptr (LtTensor) copy = NULL;
  g_autoptr (LtStorage) storage = NULL;
  gsize n_values = 99;

  g_assert_no_error (error);
  copy = lt_tensor_contiguous (huge, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (copy);
  g_clear_error (&error);

  /* to_doubles() has no GError: it says so with NULL and no values. */
  g_assert_null (lt_tensor_to_doubles (huge, &n_values));
  g_assert_cmpuint (n_values, ==, 0);

  storage = lt_storage_new (LT_DTYPE_COMPLEX128, G_GINT64_CONSTANT (1) << 40, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (storage);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fault_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/faults/each-allocation/%s", fault_cases[i].name);

      g_test_add_data_func (path, &fault_cases[i], test_fault_case);
    }
#ifdef HAVE_CBLAS
  g_test_add_func ("/faults/too-large/product", test_product_too_large);
#endif
  g_test_add_func ("/faults/too-large/indices", test_indices_too_large);
  g_test_add_func ("/faults/too-large/results", test_results_too_large);

  return g_test_run ();
}
