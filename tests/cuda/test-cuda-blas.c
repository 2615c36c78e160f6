/* test-cuda-blas.c: how the CUDA backend hands products to cuBLAS
 *
 * Runs without a GPU: lt-cuda-blas.c is pointed at a stand-in library
 * (fake-cublas.c, through LT_CUBLAS_LIBRARY) that computes BLAS's
 * column-major GEMM on host memory, so every layout the backend passes to
 * cuBLAS (row-major or transposed operands, broadcast and strided batches,
 * offsets) must give the row-major product a naive loop gives, and the
 * layouts BLAS cannot take must be left to the element kernel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include <gmodule.h>

#include "backends/cuda/lt-cuda-backend-private.h"

static int
fake_calls (void)
{
  GModule *module = g_module_open (g_getenv ("LT_CUBLAS_LIBRARY"), G_MODULE_BIND_LAZY);
  int (*calls) (void) = NULL;

  g_assert_nonnull (module);
  g_assert_true (g_module_symbol (module, "fake_cublas_calls", (gpointer *) &calls));
  return calls ();
}

/* out = a @ b for @args, by the definition, in double. */
static void
naive_product (const LtMatmulArgs *args,
               const double       *a,
               const double       *b,
               double             *out)
{
  gint64 batch = args->batch_ndim == 1 ? args->batch_sizes[0] : 1;

  for (gint64 p = 0; p < batch; p++)
    for (gint64 i = 0; i < args->m; i++)
      for (gint64 j = 0; j < args->n; j++)
        {
          double sum = 0;

          for (gint64 l = 0; l < args->k; l++)
            {
              gint64 at_a = args->a_offset + i * args->a_row + l * args->a_col;
              gint64 at_b = args->b_offset + l * args->b_row + j * args->b_col;

              if (args->batch_ndim == 1)
                {
                  at_a += p * args->a_batch_strides[0];
                  at_b += p * args->b_batch_strides[0];
                }
              sum += a[at_a] * b[at_b];
            }
          out[args->out_offset + p * args->m * args->n + i * args->n + j] = sum;
        }
}

/* The 3 x 5 by 5 x 4 product the tests lay out, a row-major or
 * transposed with leading dimensions wider than the matrices, b row-major,
 * both at offsets. */
static LtMatmulArgs
product_args (LtDType  dtype,
              gsize    size,
              gboolean a_transposed,
              gboolean b_transposed)
{
  LtMatmulArgs args = { 0 };

  args.m = 3;
  args.n = 4;
  args.k = 5;
  args.dtype = dtype;
  args.size = size;
  args.out_row = 4;
  args.out_col = 1;
  args.a_row = a_transposed ? 1 : 7;
  args.a_col = a_transposed ? 6 : 1;
  args.b_row = b_transposed ? 1 : 9;
  args.b_col = b_transposed ? 8 : 1;
  args.a_offset = 3;
  args.b_offset = 2;
  args.n_out = 12;
  return args;
}

static void
test_layouts (void)
{
  static const LtBackend backend = { .name = "cuda", .device_type = LT_DEVICE_TYPE_CUDA };
  double a[400], b[400];
  int calls_before = fake_calls ();
  int expected_calls = 0;

  for (guint i = 0; i < G_N_ELEMENTS (a); i++)
    {
      a[i] = (double) ((i * 7) % 13) - 6;
      b[i] = (double) ((i * 5) % 11) - 5 + 0.5;
    }

  /* m = 3, n = 4, k = 5; a row-major or transposed, b likewise, with and
   * without a batch of 2 (b broadcast along it), with offsets. */
  for (guint a_transposed = 0; a_transposed < 2; a_transposed++)
    for (guint b_transposed = 0; b_transposed < 2; b_transposed++)
      for (guint batched = 0; batched < 2; batched++)
        {
          LtMatmulArgs args = product_args (LT_DTYPE_FLOAT64, 8, a_transposed, b_transposed);
          double got[64] = { 0 }, expected[64] = { 0 };
          gboolean done = FALSE;
          g_autoptr (GError) error = NULL;

          if (batched)
            {
              args.batch_ndim = 1;
              args.batch_sizes[0] = 2;
              args.a_batch_strides[0] = 50;
              args.b_batch_strides[0] = 0;
              args.out_batch_strides[0] = 12;
            }
          args.n_out = (batched ? 2 : 1) * 12;
          naive_product (&args, a, b, expected);
          g_assert_true (lt_cuda_blas_matmul (&backend, &args, got, a, b, &done, &error));
          g_assert_no_error (error);
          g_assert_true (done);
          expected_calls++;
          g_assert_cmpmem (got, sizeof got, expected, sizeof expected);
        }
  g_assert_cmpint (fake_calls () - calls_before, ==, expected_calls);

  /* What BLAS cannot take stays with the element kernel. */
  {
    LtMatmulArgs args = { 0 };
    double out[16];
    gboolean done = TRUE;
    g_autoptr (GError) error = NULL;

    args.m = args.n = args.k = 2;
    args.dtype = LT_DTYPE_FLOAT64;
    args.size = 8;
    args.out_row = 2;
    args.out_col = 1;
    args.a_row = 2;
    args.a_col = 1;
    args.b_row = -2;  /* flipped rows */
    args.b_col = 1;
    args.b_offset = 2;
    g_assert_true (lt_cuda_blas_matmul (&backend, &args, out, a, b, &done, &error));
    g_assert_false (done);

    args.b_row = 2;
    args.dtype = LT_DTYPE_INT32;
    args.size = 4;
    done = TRUE;
    g_assert_true (lt_cuda_blas_matmul (&backend, &args, out, a, b, &done, &error));
    g_assert_false (done);

    args.dtype = LT_DTYPE_FLOAT64;
    args.size = 8;
    args.a_row = 1;  /* overlapping rows and columns */
    args.a_col = 1;
    done = TRUE;
    g_assert_true (lt_cuda_blas_matmul (&backend, &args, out, a, b, &done, &error));
    g_assert_false (done);
    g_assert_no_error (error);
  }
  g_assert_cmpint (fake_calls () - calls_before, ==, expected_calls);
}

/* bfloat16 products go to cuBLAS's GemmEx with the same layouts. */
static void
test_bfloat16 (void)
{
  static const LtBackend backend = { .name = "cuda", .device_type = LT_DEVICE_TYPE_CUDA };
  double a[400], b[400];
  guint16 a16[400], b16[400];
  int calls_before = fake_calls ();

  for (guint i = 0; i < G_N_ELEMENTS (a); i++)
    {
      float fa = (float) ((i * 7) % 13) - 6, fb = (float) ((i * 5) % 11) - 5 + 0.5f;

      /* Exact in bfloat16. */
      a[i] = fa;
      b[i] = fb;
      memcpy (&a16[i], (const guint8 *) &fa + 2, 2);
      memcpy (&b16[i], (const guint8 *) &fb + 2, 2);
    }
  for (guint transposed = 0; transposed < 2; transposed++)
    {
      LtMatmulArgs args = product_args (LT_DTYPE_BFLOAT16, 2, transposed, FALSE);
      double expected[64] = { 0 };
      guint16 got[64] = { 0 };
      gboolean done = FALSE;
      g_autoptr (GError) error = NULL;

      naive_product (&args, a, b, expected);
      g_assert_true (lt_cuda_blas_matmul (&backend, &args, got, a16, b16, &done, &error));
      g_assert_no_error (error);
      g_assert_true (done);
      for (guint i = 0; i < 12; i++)
        {
          float value = (float) expected[i];
          guint16 bits;

          /* The sums of these small products are exact in bfloat16. */
          memcpy (&bits, (const guint8 *) &value + 2, 2);
          g_assert_cmpuint (got[i], ==, bits);
        }
    }
  g_assert_cmpint (fake_calls () - calls_before, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cuda-blas/layouts", test_layouts);
  g_test_add_func ("/cuda-blas/bfloat16", test_bfloat16);
  return g_test_run ();
}
