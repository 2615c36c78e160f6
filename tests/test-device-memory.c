/* test-device-memory.c: the GPU backend modules' devices and memory
 *
 * Each test runs once per kind of device (CUDA, OpenCL) on every device of
 * that kind here (PoCL's CPU device in CI), and skips with the reason where
 * there is none (no CUDA driver here).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include "backends/lt-backend.h"
#include "backends/lt-backend-module.h"
#include "lt-dtype-private.h"

/* The backends of every device of the test's kind, or NULL after
 * g_test_skip(). */
static GPtrArray *
device_backends (gconstpointer data)
{
  LtDeviceType device_type = GPOINTER_TO_INT (data);
  g_autoptr (GError) error = NULL;
  guint count = lt_backend_count_devices (device_type, &error);
  g_autoptr (GPtrArray) backends = g_ptr_array_new ();

  if (count == 0)
    {
      /* build-aux/test.sh installs PoCL and sets this: there, OpenCL must
       * run for real rather than skip. */
      if (device_type == LT_DEVICE_TYPE_OPENCL && g_getenv ("LT_TEST_EXPECT_OPENCL") != NULL)
        g_error ("LT_TEST_EXPECT_OPENCL is set, but there is no OpenCL device: %s",
                 error->message);
      g_test_skip (error->message);
      return NULL;
    }
  for (guint i = 0; i < count; i++)
    {
      g_autoptr (LtDevice) device = lt_device_new (device_type, i);
      const LtBackend *backend = lt_backend_for_device (device, &error);

      g_assert_no_error (error);
      g_assert_nonnull (backend);
      g_assert_cmpint (backend->device_type, ==, device_type);
      g_ptr_array_add (backends, (gpointer) backend);
    }
  return g_steal_pointer (&backends);
}

static const char *
device_prefix (gconstpointer data)
{
  return GPOINTER_TO_INT (data) == LT_DEVICE_TYPE_CUDA ? "cuda" : "opencl";
}

static void
test_devices_are_listed (gconstpointer data)
{
  g_autoptr (GPtrArray) backends = device_backends (data);
  g_auto (GStrv) names = lt_device_list ();

  if (backends == NULL)
    return;
  for (guint i = 0; i < backends->len; i++)
    {
      g_autofree char *expected = g_strdup_printf ("%s:%u", device_prefix (data), i);
      g_autoptr (LtDevice) device = lt_device_new (GPOINTER_TO_INT (data), i);
      g_autoptr (GError) error = NULL;
      g_autofree char *name = lt_device_get_name (device, &error);

      g_assert_true (g_strv_contains ((const char *const *) names, expected));
      g_assert_no_error (error);
      g_assert_cmpstr (name, !=, "");
      /* OpenCL names are "<platform>: <device>". */
      if (GPOINTER_TO_INT (data) == LT_DEVICE_TYPE_OPENCL)
        g_assert_nonnull (strstr (name, ": "));
    }
}

static void
test_memory_round_trip (gconstpointer data)
{
  g_autoptr (GPtrArray) backends = device_backends (data);

  if (backends == NULL)
    return;
  for (guint b = 0; b < backends->len; b++)
    {
      const LtBackend *backend = g_ptr_array_index (backends, b);
      const gsize n = 100003;
      g_autofree guint8 *pattern = g_malloc (n);
      g_autofree guint8 *back = g_malloc (n);
      g_autoptr (GError) error = NULL;
      gpointer zeroed = backend->alloc (backend, n, TRUE, NULL);
      gpointer empty = backend->alloc (backend, 0, TRUE, NULL);

      g_assert_nonnull (zeroed);
      g_assert_nonnull (empty);

      /* Fresh zeroed memory reads back as zeros. */
      memset (back, 0xff, n);
      g_assert_true (backend->download (backend, back, zeroed, 0, n, &error));
      g_assert_no_error (error);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpuint (back[i], ==, 0);

      /* A pattern written at an offset comes back there, the rest stays. */
      for (gsize i = 0; i < n; i++)
        pattern[i] = (guint8) (i * 7 + 3);
      g_assert_true (backend->upload (backend, zeroed, 1000, pattern, n - 1000, &error));
      g_assert_no_error (error);
      g_assert_true (backend->download (backend, back, zeroed, 0, n, &error));
      g_assert_no_error (error);
      for (gsize i = 0; i < 1000; i++)
        g_assert_cmpuint (back[i], ==, 0);
      g_assert_cmpmem (back + 1000, n - 1000, pattern, n - 1000);

      /* And a read from an offset. */
      g_assert_true (backend->download (backend, back, zeroed, 5000, 10, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (back, 10, pattern + 4000, 10);

      g_assert_true (backend->synchronize (backend, &error));
      g_assert_no_error (error);
      backend->free (backend, zeroed, n);
      backend->free (backend, empty, 0);
    }
}

/* A transfer the device refuses (past the end of the buffer) is a GError,
 * not a crash. (OpenCL checks buffer bounds; CUDA cannot, so this runs on
 * OpenCL only.) */
static void
test_transfer_errors (gconstpointer data)
{
  g_autoptr (GPtrArray) backends = device_backends (data);

  if (backends == NULL)
    return;
  if (GPOINTER_TO_INT (data) != LT_DEVICE_TYPE_OPENCL)
    {
      g_test_skip ("only OpenCL checks transfers against buffer bounds");
      return;
    }
  for (guint b = 0; b < backends->len; b++)
    {
      const LtBackend *backend = g_ptr_array_index (backends, b);
      guint8 bytes[64] = { 0 };
      g_autoptr (GError) error = NULL;
      gpointer buffer = backend->alloc (backend, 16, TRUE, NULL);

      g_assert_false (backend->upload (backend, buffer, 8, bytes, 64, &error));
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_clear_error (&error);
      g_assert_false (backend->download (backend, bytes, buffer, 0, 64, &error));
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      backend->free (backend, buffer, 16);
    }
}

/* A transposed copy into a destination at an offset, then a fill of a
 * stepped view of it, for every element size; checked byte by byte on the
 * host. */
static void
test_copy_and_fill (gconstpointer data)
{
  static const LtDType dtypes[] = { LT_DTYPE_UINT8, LT_DTYPE_INT16, LT_DTYPE_FLOAT32,
                                    LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX128 };
  g_autoptr (GPtrArray) backends = device_backends (data);

  if (backends == NULL)
    return;
  for (guint b = 0; b < backends->len; b++)
    {
      const LtBackend *backend = g_ptr_array_index (backends, b);

      g_assert_nonnull (backend->copy);
      g_assert_nonnull (backend->fill);
      for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
        {
          const gsize size = lt_dtype_get_element_size (dtypes[d]);
          const gint64 rows = 67, cols = 45, offset = 3, n = rows * cols;
          const gint64 view_sizes[] = { cols, rows }, transposed[] = { 1, cols };
          const gint64 dense[] = { rows, 1 }, stepped[] = { rows, 2 };
          const gint64 stepped_sizes[] = { cols, (rows + 1) / 2 };
          g_autofree guint8 *source = g_malloc (n * size);
          g_autofree guint8 *back = g_malloc ((n + offset) * size);
          guint8 five[16] = { 0 };
          gpointer src_buffer = backend->alloc (backend, n * size, FALSE, NULL);
          gpointer dst_buffer = backend->alloc (backend, (n + offset) * size, TRUE, NULL);
          LtOperand src = { .dtype = dtypes[d], .strides = transposed, .buffer = src_buffer };
          LtOperand dst = { .dtype = dtypes[d], .strides = dense, .buffer = dst_buffer,
                            .offset = offset };
          g_autoptr (GError) error = NULL;

          for (gint64 i = 0; i < n * (gint64) size; i++)
            source[i] = (guint8) (i * 131 + 7);
          g_assert_true (backend->upload (backend, src_buffer, 0, source, n * size, &error));
          g_assert_no_error (error);

          /* dst[j, i] = source[i, j]: source is rows x cols. */
          g_assert_true (backend->copy (backend, 2, view_sizes, &dst, &src, &error));
          g_assert_no_error (error);
          g_assert_true (backend->download (backend, back, dst_buffer, 0, (n + offset) * size,
                                            &error));
          g_assert_no_error (error);
          for (gsize k = 0; k < offset * size; k++)
            g_assert_cmpuint (back[k], ==, 0);
          for (gint64 j = 0; j < cols; j++)
            for (gint64 i = 0; i < rows; i++)
              g_assert_cmpmem (back + (offset + j * rows + i) * size, size,
                               source + (i * cols + j) * size, size);

          /* Every other column of dst becomes 5. */
          dst.strides = stepped;
          lt_value_write (dtypes[d], five, lt_value_from_double (5));
          g_assert_true (backend->fill (backend, 2, stepped_sizes, &dst,
                                        lt_value_from_double (5), &error));
          g_assert_no_error (error);
          g_assert_true (backend->download (backend, back, dst_buffer, 0, (n + offset) * size,
                                            &error));
          g_assert_no_error (error);
          for (gint64 j = 0; j < cols; j++)
            for (gint64 i = 0; i < rows; i++)
              g_assert_cmpmem (back + (offset + j * rows + i) * size, size,
                               i % 2 == 0 ? five : source + (i * cols + j) * size, size);

          backend->free (backend, src_buffer, n * size);
          backend->free (backend, dst_buffer, (n + offset) * size);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    LtDeviceType device_type;
  } kinds[] = {
    { "cuda", LT_DEVICE_TYPE_CUDA },
    { "opencl", LT_DEVICE_TYPE_OPENCL },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      gconstpointer data = GINT_TO_POINTER (kinds[k].device_type);
      g_autofree char *listed = g_strdup_printf ("/device-memory/%s/listed", kinds[k].name);
      g_autofree char *round_trip = g_strdup_printf ("/device-memory/%s/round-trip",
                                                     kinds[k].name);
      g_autofree char *errors = g_strdup_printf ("/device-memory/%s/transfer-errors",
                                                 kinds[k].name);
      g_autofree char *copy = g_strdup_printf ("/device-memory/%s/copy-and-fill", kinds[k].name);

      g_test_add_data_func (listed, data, test_devices_are_listed);
      g_test_add_data_func (round_trip, data, test_memory_round_trip);
      g_test_add_data_func (errors, data, test_transfer_errors);
      g_test_add_data_func (copy, data, test_copy_and_fill);
    }

  return g_test_run ();
}
