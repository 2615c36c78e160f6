/* test-cuda-emulated.c: the CUDA backend's error paths, on cuda:0 emulated
 *
 * The test suite builds the CUDA backend module a second time against the
 * host emulation of CUDA (libtensor/backends/cuda/emulation) and puts it
 * first in $LT_BACKEND_PATH, so cuda:0 runs the backend's own host code
 * and kernel text on the CPU. The emulation can fail any allocation, copy
 * or kernel on request (lt_cuda_emulation_inject_fault ()), which no GPU
 * does when asked: each test here makes one fail and checks that the
 * backend reports it as a GError naming the call, at the right time, and
 * goes on working where CUDA itself would.
 *
 * With LT_CUDA_SYNC=1 in the environment (the run cuda-emulated-sync),
 * every launch is waited for, and a kernel's fault is reported by the
 * operation that launched it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include <dlpack/dlpack.h>
#include <gmodule.h>

/* The emulation's own calls (emulation/cuda_runtime_api.h), found in the
 * module the library loaded. */
enum
{
  CUDA_ERROR_MEMORY_ALLOCATION = 2,
  CUDA_ERROR_LAUNCH_FAILURE = 719,
};
static void (*inject_fault) (const char *call, int successes, int error);
static void (*reset) (void);
static long (*launch_count) (void);

static LtDevice *
emulated_device (void)
{
  g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_CUDA, 0);
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_device_is_available (device, &error));
  g_assert_no_error (error);
  reset ();
  return g_steal_pointer (&device);
}

static LtTensor *
arange_on (LtDevice *device,
           gint64    n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = lt_test_arange (LT_DTYPE_FLOAT32, I64S (n), 1);
  LtTensor *moved = lt_tensor_to_device (host, device, &error);

  g_assert_no_error (error);
  return moved;
}

static void
assert_arange (LtTensor *tensor,
               gint64    n,
               double    scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) here = lt_tensor_to_cpu (tensor, &error);
  gsize n_values;
  g_autofree double *values = NULL;

  g_assert_no_error (error);
  values = lt_tensor_to_doubles (here, &n_values);
  g_assert_cmpuint (n_values, ==, (gsize) n);
  for (gint64 i = 0; i < n; i++)
    g_assert_cmpfloat (values[i], ==, scale * (double) i);
}

static void
test_name (void)
{
  g_autoptr (LtDevice) device = emulated_device ();
  g_autofree char *name = lt_device_get_name (device, NULL);

  g_assert_cmpstr (name, ==, "libtensor's CUDA emulation on the host");
}

/* Memory runs out once: the pool is trimmed and the allocation tried
 * again, and it succeeds. Twice: LT_ERROR_OUT_OF_MEMORY, and the next
 * storage is allocated as if nothing had happened (the failed call's
 * error is not reported by the next launch). */
static void
test_out_of_memory (void)
{
  g_autoptr (LtDevice) device = emulated_device ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = lt_test_arange (LT_DTYPE_FLOAT32, I64S (1000), 1);
  g_autoptr (LtTensor) retried = NULL, refused = NULL, after = NULL, sum = NULL;

  inject_fault ("cudaMallocAsync", 0, CUDA_ERROR_MEMORY_ALLOCATION);
  retried = lt_tensor_to_device (host, device, &error);
  g_assert_no_error (error);
  assert_arange (retried, 1000, 1);

  inject_fault ("cudaMallocAsync", 0, CUDA_ERROR_MEMORY_ALLOCATION);
  inject_fault ("cudaMallocAsync", 0, CUDA_ERROR_MEMORY_ALLOCATION);
  refused = lt_tensor_to_device (host, device, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_null (refused);
  g_clear_error (&error);

  after = lt_tensor_to_device (host, device, &error);
  g_assert_no_error (error);
  sum = lt_tensor_add (after, after, 1, &error);
  g_assert_no_error (error);
  assert_arange (sum, 1000, 2);
}

/* A transfer that fails is a GError naming it, and leaves the device
 * usable. */
static void
test_failed_copy (void)
{
  g_autoptr (LtDevice) device = emulated_device ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) on_device = arange_on (device, 100);
  g_autoptr (LtTensor) lost = NULL;

  inject_fault ("cudaMemcpy", 0, CUDA_ERROR_MEMORY_ALLOCATION);
  lost = lt_tensor_to_cpu (on_device, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY);
  g_assert_true (strstr (error->message, "cudaMemcpy() from the device failed") != NULL);
  g_assert_null (lost);
  assert_arange (on_device, 100, 1);
}

/* A kernel that faults: the operation that launched it returns before it
 * runs, as on a GPU, so the fault shows at the next call that waits for the
 * device: lt_device_synchronize (), DLPack's export, a read. With
 * LT_CUDA_SYNC=1 the launching operation reports it, naming the kernel.
 * Either way the error is sticky: the context is lost, as CUDA's is. */
static void
test_kernel_fault (void)
{
  gboolean sync_each_launch = g_strcmp0 (g_getenv ("LT_CUDA_SYNC"), "1") == 0;
  g_autoptr (LtDevice) device = emulated_device ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) a = arange_on (device, 100);
  g_autoptr (LtTensor) sum = NULL, here = NULL;
  gpointer exported;
  long launched = launch_count ();

  inject_fault ("launch", 0, CUDA_ERROR_LAUNCH_FAILURE);
  sum = lt_tensor_add (a, a, 1, &error);
  g_assert_cmpint (launch_count (), ==, launched + 1);
  if (sync_each_launch)
    {
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_assert_null (sum);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, "running the CUDA kernel "));
      g_assert_true (strstr (error->message, "unspecified launch failure") != NULL);
      g_clear_error (&error);
    }
  else
    {
      g_assert_no_error (error);
      g_assert_nonnull (sum);

      g_assert_false (lt_device_synchronize (device, &error));
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_test_message ("%s", error->message);
      g_assert_true (strstr (error->message, "cudaDeviceSynchronize()") != NULL);
      g_assert_true (strstr (error->message, "cudaErrorLaunchFailure") != NULL);
      g_clear_error (&error);

      /* Its values were never written: no consumer gets them. */
      exported = lt_tensor_to_dlpack (sum, &error);
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_assert_null (exported);
      g_clear_error (&error);

      here = lt_tensor_to_cpu (sum, &error);
      g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
      g_assert_null (here);
      g_clear_error (&error);
    }

  /* Sticky: nothing runs any more, and nothing crashes either. */
  g_assert_false (lt_device_synchronize (device, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_clear_error (&error);
  here = lt_tensor_add (a, a, 1, &error);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_true (strstr (error->message, "unspecified launch failure") != NULL);
  g_assert_null (here);
}

/* Without cuBLAS, a product says once, at message level, that it takes
 * libtensor's own kernel and how to get cuBLAS used; the result is
 * still right. */
static void
test_without_cublas (void)
{
  g_autoptr (LtDevice) device = emulated_device ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = lt_tensor_new_from_literal ("[[1., 2.], [3., 4.]]", &error);
  g_autoptr (LtTensor) a = NULL, product = NULL, again = NULL;

  g_assert_no_error (error);
  a = lt_tensor_to_device (host, device, &error);
  g_assert_no_error (error);
  g_test_expect_message ("Lt", G_LOG_LEVEL_MESSAGE, "cuBLAS could not be loaded*own kernel*libcublas.so.13*");
  product = lt_tensor_matmul (a, a, &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  {
    g_autoptr (LtTensor) here = lt_tensor_to_cpu (product, &error);

    g_assert_no_error (error);
    lt_assert_values (here, 7, 10, 15, 22);
  }
  /* Once only. */
  again = lt_tensor_matmul (a, a, &error);
  g_assert_no_error (error);
}

/* A DLPack import keeps the producer's pointer, which may be misaligned
 * for the kernels' vector accesses (torch_tensor[1:]): copies of it go
 * element by element. In the ASan build, UBSan traps a misaligned vector
 * access, as a GPU faults on it. */
static void
test_misaligned_import (void)
{
  g_autoptr (LtDevice) device = emulated_device ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) base = arange_on (device, 4099);

  for (gint64 skip = 1; skip < 8; skip++)
    {
      g_autoptr (LtTensor) view = NULL, imported = NULL, copy = NULL, here = NULL;
      g_autofree char *index = g_strdup_printf ("[%" G_GINT64_FORMAT ":]", skip);
      DLManagedTensor *managed;
      gsize n_values;
      g_autofree double *values = NULL;

      view = lt_tensor_index (base, index, &error);
      g_assert_no_error (error);
      managed = lt_tensor_to_dlpack (view, &error);
      g_assert_no_error (error);
      g_assert_cmpint (managed->dl_tensor.device.device_type, ==, kDLCUDA);
      g_assert_cmpint (managed->dl_tensor.device.device_id, ==, 0);
      g_assert_cmpuint ((guintptr) managed->dl_tensor.data % 16, ==, (guint) (skip * 4 % 16));
      imported = lt_tensor_new_from_dlpack (managed, &error);
      g_assert_no_error (error);
      copy = lt_tensor_clone (imported, &error);
      g_assert_no_error (error);
      here = lt_tensor_to_cpu (copy, &error);
      g_assert_no_error (error);
      values = lt_tensor_to_doubles (here, &n_values);
      g_assert_cmpuint (n_values, ==, (gsize) (4099 - skip));
      for (gsize i = 0; i < n_values; i++)
        g_assert_cmpfloat (values[i], ==, (double) (i + (gsize) skip));
    }
}

int
main (int   argc,
      char *argv[])
{
  const char *path = g_getenv ("LT_CUDA_EMULATED_MODULE");
  g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_CUDA, 0);
  GModule *module;

  g_test_init (&argc, &argv, NULL);

  /* The library loads the module first; this finds the same one. */
  g_assert_true (lt_device_is_available (device, NULL));
  g_assert_nonnull (path);
  module = g_module_open (path, G_MODULE_BIND_LOCAL);
  g_assert_nonnull (module);
  g_assert_true (g_module_symbol (module, "lt_cuda_emulation_inject_fault",
                                  (gpointer *) &inject_fault));
  g_assert_true (g_module_symbol (module, "lt_cuda_emulation_reset", (gpointer *) &reset));
  g_assert_true (g_module_symbol (module, "lt_cuda_emulation_launch_count",
                                  (gpointer *) &launch_count));

  g_test_add_func ("/cuda-emulated/name", test_name);
  g_test_add_func ("/cuda-emulated/out-of-memory", test_out_of_memory);
  g_test_add_func ("/cuda-emulated/failed-copy", test_failed_copy);
  g_test_add_func ("/cuda-emulated/misaligned-import", test_misaligned_import);
  g_test_add_func ("/cuda-emulated/without-cublas", test_without_cublas);
  g_test_add_func ("/cuda-emulated/kernel-fault", test_kernel_fault);

  return g_test_run ();
}
