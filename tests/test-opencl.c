/* test-opencl.c: the OpenCL backend module's devices and memory
 *
 * Runs on every OpenCL device here (PoCL's CPU device in CI), and skips
 * with the reason where there is none.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include "backends/lt-backend.h"
#include "backends/lt-backend-module.h"

/* The OpenCL backends of every device, or NULL after g_test_skip(). */
static GPtrArray *
opencl_backends (void)
{
  g_autoptr (GError) error = NULL;
  guint count = lt_backend_count_devices (LT_DEVICE_TYPE_OPENCL, &error);
  g_autoptr (GPtrArray) backends = g_ptr_array_new ();

  if (count == 0)
    {
      g_autofree char *why = g_strdup_printf ("no OpenCL device: %s", error->message);

      g_test_skip (why);
      return NULL;
    }
  for (guint i = 0; i < count; i++)
    {
      g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_OPENCL, i);
      const LtBackend *backend = lt_backend_for_device (device, &error);

      g_assert_no_error (error);
      g_assert_nonnull (backend);
      g_assert_cmpint (backend->device_type, ==, LT_DEVICE_TYPE_OPENCL);
      g_ptr_array_add (backends, (gpointer) backend);
    }
  return g_steal_pointer (&backends);
}

static void
test_devices_are_listed (void)
{
  g_autoptr (GPtrArray) backends = opencl_backends ();
  g_auto (GStrv) names = lt_device_list ();

  if (backends == NULL)
    return;
  for (guint i = 0; i < backends->len; i++)
    {
      g_autofree char *expected = g_strdup_printf ("opencl:%u", i);
      g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_OPENCL, i);
      g_autoptr (GError) error = NULL;
      g_autofree char *name = lt_device_get_name (device, &error);

      g_assert_true (g_strv_contains ((const char *const *) names, expected));
      g_assert_no_error (error);
      /* "<platform>: <device>" */
      g_assert_nonnull (strstr (name, ": "));
    }
}

static void
test_memory_round_trip (void)
{
  g_autoptr (GPtrArray) backends = opencl_backends ();

  if (backends == NULL)
    return;
  for (guint b = 0; b < backends->len; b++)
    {
      const LtBackend *backend = g_ptr_array_index (backends, b);
      const gsize n = 100003;
      g_autofree guint8 *pattern = g_malloc (n);
      g_autofree guint8 *back = g_malloc (n);
      g_autoptr (GError) error = NULL;
      gpointer zeroed = backend->alloc (backend, n, TRUE);
      gpointer empty = backend->alloc (backend, 0, TRUE);

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

      backend->synchronize (backend);
      backend->free (backend, zeroed, n);
      backend->free (backend, empty, 0);
    }
}

/* A transfer the device refuses (past the end of the buffer) is a GError,
 * not a crash. */
static void
test_transfer_errors (void)
{
  g_autoptr (GPtrArray) backends = opencl_backends ();

  if (backends == NULL)
    return;
  for (guint b = 0; b < backends->len; b++)
    {
      const LtBackend *backend = g_ptr_array_index (backends, b);
      guint8 bytes[64] = { 0 };
      g_autoptr (GError) error = NULL;
      gpointer buffer = backend->alloc (backend, 16, TRUE);

      g_assert_false (backend->upload (backend, buffer, 8, bytes, 64, &error));
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_assert_nonnull (strstr (error->message, "clEnqueueWriteBuffer()"));
      g_clear_error (&error);
      g_assert_false (backend->download (backend, bytes, buffer, 0, 64, &error));
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      backend->free (backend, buffer, 16);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/opencl/devices-are-listed", test_devices_are_listed);
  g_test_add_func ("/opencl/memory-round-trip", test_memory_round_trip);
  g_test_add_func ("/opencl/transfer-errors", test_transfer_errors);

  return g_test_run ();
}
