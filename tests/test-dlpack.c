/* test-dlpack.c: tensors exchanged through DLPack
 *
 * What an exported DLManagedTensor says (dtype codes from the DLPack
 * standard, sizes, strides, where data points), that importing it gives the
 * same view over the same memory, who frees what and when, and that
 * malformed or unsupported tensors are refused without taking ownership.
 * tests/test-dlpack-interop.py exchanges tensors with NumPy and PyTorch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <dlpack/dlpack.h>

#include "lt-test-utils.h"

#include "lt-storage-private.h"

static LtTensor *
index_view (LtTensor   *tensor,
            const char *expression)
{
  g_autoptr (GError) error = NULL;
  LtTensor *view = lt_tensor_index (tensor, expression, &error);

  g_assert_no_error (error);
  return view;
}

static gpointer
first_element (LtTensor *tensor)
{
  LtStorage *storage = lt_tensor_get_storage (tensor);
  gsize element_size = lt_dtype_get_element_size (lt_tensor_get_dtype (tensor));

  return (guint8 *) lt_storage_get_data (storage)
         + lt_tensor_get_storage_offset (tensor) * element_size;
}

/* The exported tensor describes the view; importing it gives the view
 * back over the same memory; the storage lives until both sides are done. */
static void
test_round_trip_shares_memory (void)
{
  g_autoptr (LtTensor) base = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 4, 6);
  g_autoptr (LtTensor) transposed = NULL;
  g_autoptr (LtTensor) flipped = index_view (base, "[1:, ::-2]");
  g_autoptr (LtTensor) scalar = index_view (base, "[2, 3]");
  g_autoptr (LtTensor) empty = index_view (base, "[4:]");
  g_autoptr (GError) error = NULL;
  LtTensor *cases[4];

  transposed = lt_tensor_t (base, &error);
  g_assert_no_error (error);
  cases[0] = transposed;
  cases[1] = flipped;
  cases[2] = scalar;
  cases[3] = empty;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      DLManagedTensor *managed = lt_tensor_to_dlpack (cases[c], &error);
      const DLTensor *t;
      guint ndim = 0;
      const gint64 *sizes = lt_tensor_get_sizes (cases[c], &ndim);
      const gint64 *strides = lt_tensor_get_strides (cases[c], &ndim);
      g_autoptr (LtTensor) back = NULL;
      gint64 indices[2] = { 0, 0 };

      g_assert_no_error (error);
      t = &managed->dl_tensor;
      g_assert_cmpint (t->device.device_type, ==, kDLCPU);
      g_assert_cmpint (t->device.device_id, ==, 0);
      g_assert_cmpint (t->ndim, ==, ndim);
      g_assert_cmpuint (t->dtype.code, ==, kDLFloat);
      g_assert_cmpuint (t->dtype.bits, ==, 32);
      g_assert_cmpuint (t->dtype.lanes, ==, 1);
      g_assert_cmpuint (t->byte_offset, ==, 0);
      lt_test_assert_array (G_STRLOC, "shape", t->shape, t->ndim, sizes, ndim);
      lt_test_assert_array (G_STRLOC, "strides", t->strides, t->ndim, strides, ndim);
      if (lt_tensor_get_numel (cases[c]) > 0)
        g_assert_true (t->data == first_element (cases[c]));

      back = lt_tensor_new_from_dlpack (managed, &error);
      g_assert_no_error (error);
      g_assert_true (lt_tensor_equal (back, cases[c]));
      lt_test_assert_array (G_STRLOC, "strides", lt_tensor_get_strides (back, &ndim), ndim,
                            strides, ndim);
      if (lt_tensor_get_numel (back) > 0)
        {
          /* Writes through the import reach the original. */
          g_assert_true (first_element (back) == first_element (cases[c]));
          g_assert_true (lt_tensor_set_double (back, indices, ndim, -100, &error));
          g_assert_no_error (error);
          {
            double value = 0;

            g_assert_true (lt_tensor_get_double (cases[c], indices, ndim, &value, &error));
            g_assert_cmpfloat (value, ==, -100);
          }
        }
    }
}

/* The exported tensor keeps the storage alive after every tensor is gone,
 * until its deleter runs; an imported one runs it when its last view goes. */
static void
test_lifetimes (void)
{
  LtTensor *tensor = lt_test_arange_shaped (LT_DTYPE_INT64, 3, 3);
  LtStorage *storage = lt_tensor_get_storage (tensor);
  g_autoptr (GError) error = NULL;
  DLManagedTensor *managed;
  LtTensor *imported;
  LtTensor *row;

  g_object_add_weak_pointer (G_OBJECT (storage), (gpointer *) &storage);
  managed = lt_tensor_to_dlpack (tensor, &error);
  g_assert_no_error (error);
  g_object_unref (tensor);
  g_assert_nonnull (storage);

  imported = lt_tensor_new_from_dlpack (managed, &error);
  g_assert_no_error (error);
  row = index_view (imported, "[1]");
  g_object_unref (imported);
  g_assert_nonnull (storage);
  lt_assert_values (row, 3, 4, 5);
  g_object_unref (row);
  /* The imported storage ran the deleter, which let the original go. */
  g_assert_null (storage);
}

/* Element types carry the DLPack standard's codes. */
static void
test_dtype_codes (void)
{
  static const struct
  {
    LtDType dtype;
    guint8 code;
    guint8 bits;
  } expected[] = {
    { LT_DTYPE_BOOL, 6, 8 },        /* kDLBool, DLPack 0.8 */
    { LT_DTYPE_UINT8, 1, 8 },
    { LT_DTYPE_INT8, 0, 8 },
    { LT_DTYPE_INT16, 0, 16 },
    { LT_DTYPE_INT32, 0, 32 },
    { LT_DTYPE_INT64, 0, 64 },
    { LT_DTYPE_FLOAT16, 2, 16 },
    { LT_DTYPE_BFLOAT16, 4, 16 },
    { LT_DTYPE_FLOAT32, 2, 32 },
    { LT_DTYPE_FLOAT64, 2, 64 },
    { LT_DTYPE_COMPLEX64, 5, 64 },
    { LT_DTYPE_COMPLEX128, 5, 128 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (LtTensor) tensor = lt_test_arange_shaped (expected[i].dtype, 2);
      g_autoptr (GError) error = NULL;
      DLManagedTensor *managed = lt_tensor_to_dlpack (tensor, &error);
      g_autoptr (LtTensor) back = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (managed->dl_tensor.dtype.code, ==, expected[i].code);
      g_assert_cmpuint (managed->dl_tensor.dtype.bits, ==, expected[i].bits);
      back = lt_tensor_new_from_dlpack (managed, &error);
      g_assert_no_error (error);
      g_assert_cmpint (lt_tensor_get_dtype (back), ==, expected[i].dtype);
    }
}

/* A DLManagedTensor over a static buffer, as another library makes one,
 * counting its deleter's calls. */
typedef struct
{
  DLManagedTensor managed;
  int64_t shape[4];
  int64_t strides[4];
  int deleted;
} Foreign;

static void
foreign_delete (DLManagedTensor *managed)
{
  Foreign *foreign = managed->manager_ctx;

  foreign->deleted++;
}

static double buffer[32];

static void
foreign_init (Foreign *foreign,
              int      ndim,
              gint64   size0,
              gint64   size1)
{
  memset (foreign, 0, sizeof *foreign);
  for (guint i = 0; i < G_N_ELEMENTS (buffer); i++)
    buffer[i] = i;
  foreign->managed.dl_tensor.data = buffer;
  foreign->managed.dl_tensor.device.device_type = kDLCPU;
  foreign->managed.dl_tensor.ndim = ndim;
  foreign->managed.dl_tensor.dtype.code = kDLFloat;
  foreign->managed.dl_tensor.dtype.bits = 64;
  foreign->managed.dl_tensor.dtype.lanes = 1;
  foreign->managed.dl_tensor.shape = foreign->shape;
  foreign->shape[0] = size0;
  foreign->shape[1] = size1;
  foreign->managed.manager_ctx = foreign;
  foreign->managed.deleter = foreign_delete;
}

/* Imports honour byte_offset, missing strides (row-major) and negative
 * strides, treat pinned and managed CUDA memory as host memory, and call
 * the deleter exactly once, when the tensor goes. */
static void
test_import_foreign (void)
{
  g_autoptr (GError) error = NULL;
  Foreign foreign;
  LtTensor *tensor;

  foreign_init (&foreign, 2, 2, 3);
  foreign.managed.dl_tensor.byte_offset = 4 * sizeof (double);
  tensor = lt_tensor_new_from_dlpack (&foreign.managed, &error);
  g_assert_no_error (error);
  lt_assert_strides (tensor, 3, 1);
  lt_assert_values (tensor, 4, 5, 6, 7, 8, 9);
  g_object_unref (tensor);
  g_assert_cmpint (foreign.deleted, ==, 1);

  /* Rows backwards from element 10, every other column. */
  foreign_init (&foreign, 2, 3, 2);
  foreign.managed.dl_tensor.device.device_type = kDLCUDAHost;
  foreign.managed.dl_tensor.data = buffer + 10;
  foreign.managed.dl_tensor.strides = foreign.strides;
  foreign.strides[0] = -4;
  foreign.strides[1] = 2;
  tensor = lt_tensor_new_from_dlpack (&foreign.managed, &error);
  g_assert_no_error (error);
  lt_assert_values (tensor, 10, 12, 6, 8, 2, 4);
  /* The storage starts at the lowest element reached. */
  g_assert_cmpint (lt_tensor_get_storage_offset (tensor), ==, 8);
  g_assert_cmpint (lt_storage_get_n_elements (lt_tensor_get_storage (tensor)), ==, 11);
  g_assert_cmpint (foreign.deleted, ==, 0);
  g_object_unref (tensor);
  g_assert_cmpint (foreign.deleted, ==, 1);
}

/* Malformed and unsupported tensors are refused, and the caller keeps
 * them: the deleter is not called. */
static void
test_refusals (void)
{
  static const struct
  {
    const char *what;
    int code;
    const char *message;
  } cases[] = {
    { "lanes", LT_ERROR_DTYPE, "4 lanes" },
    { "uint16", LT_ERROR_DTYPE, "only uint8" },
    { "float8", LT_ERROR_DTYPE, "code 2 with 8 bits" },
    { "negative ndim", LT_ERROR_INVALID_ARGUMENT, "-1 dims" },
    { "too many dims", LT_ERROR_INVALID_ARGUMENT, "65 dims" },
    { "no shape", LT_ERROR_INVALID_ARGUMENT, "no shape" },
    { "negative size", LT_ERROR_INVALID_ARGUMENT, "negative" },
    { "rocm", LT_ERROR_DEVICE, "device type 10" },
    { "opencl", LT_ERROR_DEVICE, "OpenCL memory cannot be imported" },
    { "no data", LT_ERROR_INVALID_ARGUMENT, "no data" },
    { "misaligned", LT_ERROR_INVALID_ARGUMENT, "not aligned" },
    { "odd byte offset", LT_ERROR_INVALID_ARGUMENT, "not aligned" },
    { "huge strides", LT_ERROR_OVERFLOW, "64 bits" },
    { "huge extent", LT_ERROR_OVERFLOW, "64 bits" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) tensor = NULL;
      Foreign foreign;
      DLTensor *t = &foreign.managed.dl_tensor;

      foreign_init (&foreign, 2, 2, 3);
      switch (c)
        {
        case 0: t->dtype.lanes = 4; break;
        case 1: t->dtype.code = kDLUInt; t->dtype.bits = 16; break;
        case 2: t->dtype.bits = 8; break;
        case 3: t->ndim = -1; break;
        case 4: t->ndim = 65; break;
        case 5: t->shape = NULL; break;
        case 6: foreign.shape[1] = -3; break;
        case 7: t->device.device_type = kDLROCM; break;
        case 8: t->device.device_type = kDLOpenCL; break;
        case 9: t->data = NULL; break;
        case 10: t->data = (guint8 *) buffer + 4; break;
        case 11: t->byte_offset = 3; break;
        case 12:
          t->strides = foreign.strides;
          foreign.shape[0] = G_GINT64_CONSTANT (1) << 40;
          foreign.strides[0] = G_GINT64_CONSTANT (1) << 40;
          foreign.strides[1] = 1;
          break;
        case 13:
          t->strides = foreign.strides;
          foreign.shape[0] = foreign.shape[1] = 2;
          foreign.strides[0] = G_MAXINT64;
          foreign.strides[1] = -G_MAXINT64;
          break;
        default:
          g_assert_not_reached ();
        }
      tensor = lt_tensor_new_from_dlpack (&foreign.managed, &error);
      g_assert_null (tensor);
      if (error == NULL || error->domain != LT_ERROR || error->code != cases[c].code
          || strstr (error->message, cases[c].message) == NULL)
        g_error ("%s: got “%s”, expected code %d saying “%s”", cases[c].what,
                 error != NULL ? error->message : "no error", cases[c].code, cases[c].message);
      g_assert_cmpint (foreign.deleted, ==, 0);
    }
}

/* CUDA memory needs the CUDA backend; without a device that is the
 * device's error, and the caller keeps the tensor. */
static void
test_cuda_import_without_device (void)
{
  g_autoptr (LtDevice) cuda = lt_device_new (LT_DEVICE_TYPE_CUDA, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  Foreign foreign;

  if (lt_device_is_available (cuda, NULL))
    {
      g_test_skip ("a CUDA device is here: this checks the refusal without one");
      return;
    }
  foreign_init (&foreign, 2, 2, 3);
  foreign.managed.dl_tensor.device.device_type = kDLCUDA;
  tensor = lt_tensor_new_from_dlpack (&foreign.managed, &error);
  g_assert_null (tensor);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_true (g_str_has_prefix (error->message, "cuda:0 is not available"));
  g_assert_cmpint (foreign.deleted, ==, 0);
}

/* An OpenCL tensor goes out as its cl_mem, the view's offset in
 * byte_offset, as DLPack says for OpenCL. */
static void
test_opencl_export (void)
{
  g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_OPENCL, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = lt_test_arange_shaped (LT_DTYPE_INT32, 4, 5);
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (LtTensor) row = NULL;
  DLManagedTensor *managed;

  if (!lt_device_is_available (device, &error))
    {
      g_test_skip (error->message);
      return;
    }
  on_device = lt_tensor_to_device (host, device, &error);
  g_assert_no_error (error);
  row = index_view (on_device, "[2]");
  managed = lt_tensor_to_dlpack (row, &error);
  g_assert_no_error (error);
  g_assert_cmpint (managed->dl_tensor.device.device_type, ==, kDLOpenCL);
  g_assert_cmpuint (managed->dl_tensor.byte_offset, ==, 10 * sizeof (gint32));
  g_assert_true (managed->dl_tensor.data
                 == lt_storage_get_handle (lt_tensor_get_storage (on_device)));
  managed->deleter (managed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dlpack/round-trip", test_round_trip_shares_memory);
  g_test_add_func ("/dlpack/lifetimes", test_lifetimes);
  g_test_add_func ("/dlpack/dtype-codes", test_dtype_codes);
  g_test_add_func ("/dlpack/import-foreign", test_import_foreign);
  g_test_add_func ("/dlpack/refusals", test_refusals);
  g_test_add_func ("/dlpack/cuda-without-device", test_cuda_import_without_device);
  g_test_add_func ("/dlpack/opencl-export", test_opencl_export);

  return g_test_run ();
}
