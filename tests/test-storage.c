/* test-storage.c: allocation, wrapping foreign memory and element access
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include "lt-storage-private.h"

static void
test_new_is_zeroed_and_aligned (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_FLOAT64, 1000, &error);
  const double *data;

  g_assert_no_error (error);
  g_assert_cmpint (lt_storage_get_n_elements (storage), ==, 1000);
  g_assert_cmpuint (lt_storage_get_nbytes (storage), ==, 8000);
  g_assert_cmpint (lt_storage_get_dtype (storage), ==, LT_DTYPE_FLOAT64);
  g_assert_cmpint (lt_storage_get_device_type (storage), ==, LT_DEVICE_TYPE_CPU);
  data = lt_storage_get_data (storage);
  g_assert_cmpuint ((guintptr) data % 64, ==, 0);
  g_assert_cmpuint (lt_storage_get_data_address (storage), ==, (guintptr) data);
  for (int i = 0; i < 1000; i++)
    g_assert_cmpfloat (data[i], ==, 0.0);
}

/* Storages of 2 MiB and more are mapped rather than taken from calloc; they
 * must be zeroed and aligned the same, however many are made and freed in
 * turn (the sizes straddle the threshold and a huge page). */
static void
test_large_is_zeroed_and_aligned (void)
{
  static const gint64 sizes[] = {
    (2 << 20) - 1, 2 << 20, (2 << 20) + 1, (4 << 20) - 63, (4 << 20) + 4096, 3 << 21,
  };

  for (guint round = 0; round < 3; round++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_UINT8, sizes[k], &error);
        guint8 *data;

        g_assert_no_error (error);
        data = lt_storage_get_data (storage);
        g_assert_cmpuint ((guintptr) data % 64, ==, 0);
        for (gint64 i = 0; i < sizes[k]; i += 4093)
          g_assert_cmpuint (data[i], ==, 0);
        g_assert_cmpuint (data[sizes[k] - 1], ==, 0);

        /* Dirty every byte, so a block handed out again unzeroed would
         * show in the next round. */
        memset (data, 0xa5, (gsize) sizes[k]);
      }
}

/* A freed large block may serve the next request of its size that does not
 * need zeros (a copy's result), but never one that does. */
static void
test_large_block_reuse (void)
{
  const gint64 n = 3 << 20;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) dirty = lt_storage_new_uninitialized (LT_DTYPE_UINT8, n, &error);
  g_autoptr (LtStorage) again = NULL;
  g_autoptr (LtStorage) zeroed = NULL;
  gpointer address;
  guint8 *data;

  g_assert_no_error (error);
  address = lt_storage_get_data (dirty);
  g_assert_cmpuint ((guintptr) address % 64, ==, 0);
  memset (address, 0x5a, (gsize) n);
  g_clear_object (&dirty);

  again = lt_storage_new_uninitialized (LT_DTYPE_UINT8, n, &error);
  g_assert_no_error (error);
  g_assert_true (lt_storage_get_data (again) == address);
  g_clear_object (&again);

  /* The dirty block is cached again; a zeroed storage must not get it. */
  zeroed = lt_storage_new (LT_DTYPE_UINT8, n, &error);
  g_assert_no_error (error);
  data = lt_storage_get_data (zeroed);
  for (gint64 i = 0; i < n; i += 4093)
    g_assert_cmpuint (data[i], ==, 0);
  g_assert_cmpuint (data[n - 1], ==, 0);
}

/* Frees a large uninitialized storage of @n bytes after dirtying it, then
 * tells whether the next one of that size got the same dirty block back. */
static gboolean
large_block_comes_back (gint64 n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) dirty = lt_storage_new_uninitialized (LT_DTYPE_UINT8, n, &error);
  g_autoptr (LtStorage) again = NULL;
  const guint8 *data;

  g_assert_no_error (error);
  memset (lt_storage_get_data (dirty), 0x5a, (gsize) n);
  g_clear_object (&dirty);

  again = lt_storage_new_uninitialized (LT_DTYPE_UINT8, n, &error);
  g_assert_no_error (error);
  data = lt_storage_get_data (again);
  return data[0] == 0x5a && data[n / 2] == 0x5a && data[n - 1] == 0x5a;
}

/* Large blocks freed long ago make room for the latest: a program that
 * freed many big blocks of other sizes, then loops over one size, must
 * still get its block back each pass, whether the cache was full by its
 * count of blocks or by its bytes. */
static void
test_large_block_cache_keeps_latest (void)
{
  const gint64 loop_size = 20 << 20;
  LtStorage *many[12];
  LtStorage *big[2];

  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    {
      g_autoptr (GError) error = NULL;

      many[i] = lt_storage_new_uninitialized (LT_DTYPE_UINT8, (gint64) (i + 2) << 21, &error);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    g_object_unref (many[i]);
  g_assert_true (large_block_comes_back (loop_size));

  /* Two blocks that, cached, leave no room for the loop's by bytes. */
  for (guint i = 0; i < G_N_ELEMENTS (big); i++)
    {
      g_autoptr (GError) error = NULL;

      big[i] = lt_storage_new_uninitialized (LT_DTYPE_UINT8, (gint64) 126 << 20, &error);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (big); i++)
    g_object_unref (big[i]);
  g_assert_true (large_block_comes_back (loop_size));
}

static void
test_empty_storage (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_INT8, 0, &error);
  g_autoptr (GBytes) bytes = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (lt_storage_get_n_elements (storage), ==, 0);
  bytes = lt_storage_get_bytes (storage, NULL);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);
}

static void
test_bad_sizes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = NULL;

  storage = lt_storage_new (LT_DTYPE_FLOAT32, -1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  storage = lt_storage_new (LT_DTYPE_FLOAT64, G_MAXINT64 / 4, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_clear_error (&error);

  /* A size the machine cannot hold fails cleanly instead of aborting. */
  storage = lt_storage_new (LT_DTYPE_INT8, G_MAXINT64 / 2, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (storage);
}

static void
test_element_access (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_INT64, 4, &error);
  double value;
  gint64 exact;

  g_assert_no_error (error);
  g_assert_true (lt_storage_set_int64 (storage, 3, G_MAXINT64, &error));
  g_assert_true (lt_storage_get_int64 (storage, 3, &exact, &error));
  g_assert_cmpint (exact, ==, G_MAXINT64);
  g_assert_true (lt_storage_set_double (storage, 0, -2.75, &error));
  g_assert_true (lt_storage_get_double (storage, 0, &value, &error));
  g_assert_no_error (error);
  /* Float to integer truncates toward zero. */
  g_assert_cmpfloat (value, ==, -2.0);

  g_assert_false (lt_storage_get_double (storage, 4, &value, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_false (lt_storage_set_double (storage, -1, 1.0, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE);
}

static void
test_from_bytes_shares_memory (void)
{
  g_autoptr (GError) error = NULL;
  float *values = g_new (float, 3);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (LtStorage) storage = NULL;
  g_autoptr (GBytes) exported = NULL;

  values[0] = 1.5f;
  values[1] = 2.5f;
  values[2] = 3.5f;
  bytes = g_bytes_new_take (values, 3 * sizeof (float));
  storage = lt_storage_new_from_bytes (LT_DTYPE_FLOAT32, bytes, &error);
  g_assert_no_error (error);
  g_assert_true (lt_storage_get_data (storage) == g_bytes_get_data (bytes, NULL));
  g_assert_cmpint (lt_storage_get_n_elements (storage), ==, 3);

  exported = lt_storage_get_bytes (storage, NULL);
  g_assert_true (g_bytes_get_data (exported, NULL) == lt_storage_get_data (storage));
  /* The exported bytes keep the storage alive. */
  g_clear_object (&storage);
  g_assert_cmpfloat (((const float *) g_bytes_get_data (exported, NULL))[2], ==, 3.5f);
}

static void
test_from_bytes_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = g_bytes_new ("abcde", 5);
  g_autoptr (LtStorage) storage = lt_storage_new_from_bytes (LT_DTYPE_INT32, bytes, &error);

  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_null (storage);
}

static void
test_from_misaligned_bytes_copies (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc0 (17);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (LtStorage) storage = NULL;
  double one = 1.0, value;

  memcpy (buffer + 1, &one, sizeof one);
  bytes = g_bytes_new_static (buffer + 1, 16);
  storage = lt_storage_new_from_bytes (LT_DTYPE_FLOAT64, bytes, &error);
  g_assert_no_error (error);
  g_assert_true (lt_storage_get_data (storage) != (gpointer) (buffer + 1));
  g_assert_cmpuint ((guintptr) lt_storage_get_data (storage) % 8, ==, 0);
  lt_storage_get_double (storage, 0, &value, &error);
  g_assert_cmpfloat (value, ==, 1.0);
}

static int destroyed;

static void
count_destroy (gpointer data)
{
  destroyed++;
  g_free (data);
}

static void
test_for_data_calls_destroy (void)
{
  g_autoptr (GError) error = NULL;
  gint32 *data = g_new0 (gint32, 8);
  LtStorage *storage;
  g_autoptr (LtTensor) view = NULL;

  destroyed = 0;
  storage = lt_storage_new_for_data (LT_DTYPE_INT32, data, 8, count_destroy, data, &error);
  g_assert_no_error (error);
  view = lt_tensor_new_with_storage (storage, I64S (2, 4), 2, I64S (4, 1), 2, 0, &error);
  g_assert_no_error (error);

  /* The view keeps the storage, and so the caller's memory, alive. */
  g_object_unref (storage);
  g_assert_cmpint (destroyed, ==, 0);
  lt_tensor_set_double (view, I64S (1, 3), 2, 7, &error);
  g_assert_cmpint (data[7], ==, 7);
  g_clear_object (&view);
  g_assert_cmpint (destroyed, ==, 1);
}

static void
test_for_data_misaligned (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc0 (64);
  g_autoptr (LtStorage) storage = lt_storage_new_for_data (LT_DTYPE_FLOAT32, buffer + 2, 4, NULL,
                                                           NULL, &error);

  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_null (storage);
}

static void
test_shares_memory (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) a = lt_storage_new (LT_DTYPE_FLOAT32, 4, &error);
  g_autoptr (LtStorage) b = lt_storage_new (LT_DTYPE_FLOAT32, 4, &error);
  g_autoptr (GBytes) bytes = lt_storage_get_bytes (a, NULL);
  g_autoptr (LtStorage) again = lt_storage_new_from_bytes (LT_DTYPE_INT32, bytes, &error);

  g_assert_no_error (error);
  g_assert_true (lt_storage_shares_memory (a, a));
  g_assert_false (lt_storage_shares_memory (a, b));
  g_assert_true (lt_storage_shares_memory (a, again));
}

static void
test_properties (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtStorage) storage = lt_storage_new (LT_DTYPE_COMPLEX64, 5, &error);
  LtDType dtype;
  gint64 n_elements;
  guint64 nbytes;

  g_assert_no_error (error);
  g_object_get (storage, "dtype", &dtype, "n-elements", &n_elements, "nbytes", &nbytes, NULL);
  g_assert_cmpint (dtype, ==, LT_DTYPE_COMPLEX64);
  g_assert_cmpint (n_elements, ==, 5);
  g_assert_cmpuint (nbytes, ==, 40);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/storage/new/zeroed-and-aligned", test_new_is_zeroed_and_aligned);
  g_test_add_func ("/storage/new/large-zeroed-and-aligned", test_large_is_zeroed_and_aligned);
  g_test_add_func ("/storage/new/large-block-reuse", test_large_block_reuse);
  g_test_add_func ("/storage/new/large-block-cache-keeps-latest",
                   test_large_block_cache_keeps_latest);
  g_test_add_func ("/storage/new/empty", test_empty_storage);
  g_test_add_func ("/storage/new/bad-sizes", test_bad_sizes);
  g_test_add_func ("/storage/elements", test_element_access);
  g_test_add_func ("/storage/from-bytes/shares-memory", test_from_bytes_shares_memory);
  g_test_add_func ("/storage/from-bytes/errors", test_from_bytes_errors);
  g_test_add_func ("/storage/from-bytes/misaligned-copies", test_from_misaligned_bytes_copies);
  g_test_add_func ("/storage/for-data/destroy", test_for_data_calls_destroy);
  g_test_add_func ("/storage/for-data/misaligned", test_for_data_misaligned);
  g_test_add_func ("/storage/shares-memory", test_shares_memory);
  g_test_add_func ("/storage/properties", test_properties);

  return g_test_run ();
}
