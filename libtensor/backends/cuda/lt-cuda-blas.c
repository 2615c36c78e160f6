/* lt-cuda-blas.c: float matrix products through cuBLAS
 *
 * float32, float64, complex64 and complex128 products (and float16 and
 * bfloat16 ones, accumulated in float as PyTorch's are, through
 * cublasGemmStridedBatchedEx) whose operands BLAS
 * can take as they are (each matrix row- or column-major with a positive
 * leading dimension, one batch dim or none) go to cuBLAS's strided batched
 * GEMM, as PyTorch's do; everything else takes the element kernel
 * (lt-kernel-linalg.h). cuBLAS is opened at run time (libcublas.so.N of
 * the toolkit libtensor was built with), so the CUDA backend loads without
 * it, computing every product itself then.
 *
 * A row-major product C = A B is the column-major C^T = B^T A^T, so B is
 * passed as cuBLAS's first operand and A as its second, each transposed or
 * not by how its rows lie in memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <cublas_api.h>
#include <gmodule.h>

#include "lt-error.h"
#include "lt-cuda-backend-private.h"
#include "lt-i18n-private.h"

/* The four GEMMs differ only in their element types, all passed by
 * pointer; one pointer type calls them all. */
typedef cublasStatus_t (*GemmFunc) (cublasHandle_t    handle,
                                    cublasOperation_t transa,
                                    cublasOperation_t transb,
                                    int               m,
                                    int               n,
                                    int               k,
                                    const void       *alpha,
                                    const void       *a,
                                    int               lda,
                                    long long int     stride_a,
                                    const void       *b,
                                    int               ldb,
                                    long long int     stride_b,
                                    const void       *beta,
                                    void             *c,
                                    int               ldc,
                                    long long int     stride_c,
                                    int               batch_count);

#define MAX_DEVICES 64

/* Opened once for the process, as the CUDA runtime's own state is. */
static GMutex blas_lock;
static gboolean blas_tried;
static GModule *blas_module;
static cublasStatus_t (*create_handle) (cublasHandle_t *handle);
static const char *(*status_string) (cublasStatus_t status);
static GemmFunc gemms[4];  /* S, D, C, Z */
/* Half-precision products: element and compute types as arguments. */
typedef cublasStatus_t (*GemmExFunc) (cublasHandle_t      handle,
                                      cublasOperation_t   transa,
                                      cublasOperation_t   transb,
                                      int                 m,
                                      int                 n,
                                      int                 k,
                                      const void         *alpha,
                                      const void         *a,
                                      cudaDataType        a_type,
                                      int                 lda,
                                      long long int       stride_a,
                                      const void         *b,
                                      cudaDataType        b_type,
                                      int                 ldb,
                                      long long int       stride_b,
                                      const void         *beta,
                                      void               *c,
                                      cudaDataType        c_type,
                                      int                 ldc,
                                      long long int       stride_c,
                                      int                 batch_count,
                                      cublasComputeType_t compute_type,
                                      cublasGemmAlgo_t    algo);
static GemmExFunc gemm_ex; /* NULL where this cuBLAS lacks it */
static cublasHandle_t handles[MAX_DEVICES];

/* Said once, when the first product finds no cuBLAS: its products still
 * come out right, far slower, and a user would not know why. */
static void
say_blas_missing (const char *soname,
                  const char *why)
{
  g_message (_("cuBLAS could not be loaded (%s): matrix products on CUDA devices use "
               "libtensor's own kernel, which is much slower. Install NVIDIA's cuBLAS for "
               "CUDA %d, or put the directory that holds %s on LD_LIBRARY_PATH"),
             why, CUBLAS_VER_MAJOR, soname);
}

static gboolean
open_blas_locked (void)
{
  static const char *const names[] = {
    "cublasSgemmStridedBatched", "cublasDgemmStridedBatched", "cublasCgemmStridedBatched",
    "cublasZgemmStridedBatched",
  };
  g_autofree char *soname = g_strdup_printf ("libcublas.so.%d", CUBLAS_VER_MAJOR);
  /* For the tests, which check the layouts against a stand-in. */
  const char *override = g_getenv ("LT_CUBLAS_LIBRARY");

  if (blas_tried)
    return blas_module != NULL;
  blas_tried = TRUE;
  blas_module = g_module_open (override != NULL ? override : soname,
                               G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (blas_module == NULL)
    {
      say_blas_missing (soname, g_module_error ());
      return FALSE;
    }
  if (!g_module_symbol (blas_module, "cublasCreate_v2", (gpointer *) &create_handle)
      || !g_module_symbol (blas_module, "cublasGetStatusString", (gpointer *) &status_string))
    goto missing;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (!g_module_symbol (blas_module, names[i], (gpointer *) &gemms[i]))
      goto missing;
  if (!g_module_symbol (blas_module, "cublasGemmStridedBatchedEx", (gpointer *) &gemm_ex))
    gemm_ex = NULL;
  g_module_make_resident (blas_module);
  return TRUE;

missing:
  say_blas_missing (soname, g_module_error ());
  g_module_close (blas_module);
  blas_module = NULL;
  return FALSE;
}

/* cuBLAS's handle for the current device, created on first use; NULL
 * where cuBLAS cannot be used. */
static cublasHandle_t
handle_for (guint device_index)
{
  cublasHandle_t handle = NULL;

  if (device_index >= MAX_DEVICES)
    return NULL;
  g_mutex_lock (&blas_lock);
  if (open_blas_locked ())
    {
      if (handles[device_index] == NULL
          && create_handle (&handles[device_index]) != CUBLAS_STATUS_SUCCESS)
        handles[device_index] = NULL;
      handle = handles[device_index];
    }
  g_mutex_unlock (&blas_lock);
  return handle;
}

/* How BLAS sees a row-major matrix with strides (@row, @col): its
 * transpose as a column-major matrix (op N, leading dimension @row) when
 * its rows are contiguous, itself (op T, leading dimension @col) when its
 * columns are; FALSE when neither, or the leading dimension is too short
 * for the @rows x @cols matrix or does not fit an int. */
static gboolean
blas_layout (gint64             rows,
             gint64             cols,
             gint64             row,
             gint64             col,
             cublasOperation_t *op,
             int               *ld)
{
  if ((col == 1 || cols == 1) && row >= MAX (1, cols) && row <= G_MAXINT)
    {
      *op = CUBLAS_OP_N;
      *ld = (int) row;
      return TRUE;
    }
  if ((row == 1 || rows == 1) && col >= MAX (1, rows) && col <= G_MAXINT)
    {
      *op = CUBLAS_OP_T;
      *ld = (int) col;
      return TRUE;
    }
  return FALSE;
}

gboolean
lt_cuda_blas_matmul (const LtBackend    *self,
                     const LtMatmulArgs *args,
                     gpointer            out,
                     gconstpointer       a,
                     gconstpointer       b,
                     gboolean           *done,
                     GError            **error)
{
  static const double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
  static const float one_f[2] = { 1, 0 }, zero_f[2] = { 0, 0 };
  cublasOperation_t op_a, op_b;
  int lda, ldb, slot;
  cublasHandle_t handle;
  cublasStatus_t status;
  gint64 batch = args->batch_ndim == 1 ? args->batch_sizes[0] : 1;
  gsize size = (gsize) args->size;

  *done = FALSE;
  switch (args->dtype)
    {
    case LT_DTYPE_FLOAT32:
      slot = 0;
      break;
    case LT_DTYPE_FLOAT64:
      slot = 1;
      break;
    case LT_DTYPE_COMPLEX64:
      slot = 2;
      break;
    case LT_DTYPE_COMPLEX128:
      slot = 3;
      break;
    case LT_DTYPE_FLOAT16:
    case LT_DTYPE_BFLOAT16:
      slot = 4;
      break;
    default:
      return TRUE;
    }
  if (args->batch_ndim > 1 || args->k == 0 || args->m > G_MAXINT || args->n > G_MAXINT
      || args->k > G_MAXINT || batch > G_MAXINT || args->out_col != 1 || args->out_row != args->n
      || (args->batch_ndim == 1
          && (args->a_batch_strides[0] < 0 || args->b_batch_strides[0] < 0
              || args->out_batch_strides[0] != args->m * args->n))
      || !blas_layout (args->k, args->n, args->b_row, args->b_col, &op_a, &lda)
      || !blas_layout (args->m, args->k, args->a_row, args->a_col, &op_b, &ldb))
    return TRUE;

  handle = handle_for ((guint) self->device_index);
  if (handle == NULL || (slot == 4 && gemm_ex == NULL))
    return TRUE;

  if (slot == 4)
    {
      cudaDataType type = args->dtype == LT_DTYPE_FLOAT16 ? CUDA_R_16F : CUDA_R_16BF;

      status = gemm_ex (handle, op_a, op_b, (int) args->n, (int) args->m, (int) args->k, one_f,
                        (const guint8 *) b + args->b_offset * size, type, lda,
                        args->batch_ndim == 1 ? args->b_batch_strides[0] : 0,
                        (const guint8 *) a + args->a_offset * size, type, ldb,
                        args->batch_ndim == 1 ? args->a_batch_strides[0] : 0, zero_f,
                        (guint8 *) out + args->out_offset * size, type, (int) args->n,
                        args->m * args->n, (int) batch, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
    }
  else
    status = gemms[slot] (handle, op_a, op_b, (int) args->n, (int) args->m, (int) args->k,
                        slot == 0 || slot == 2 ? (const void *) one_f : (const void *) one,
                        (const guint8 *) b + args->b_offset * size, lda,
                        args->batch_ndim == 1 ? args->b_batch_strides[0] : 0,
                        (const guint8 *) a + args->a_offset * size, ldb,
                        args->batch_ndim == 1 ? args->a_batch_strides[0] : 0,
                        slot == 0 || slot == 2 ? (const void *) zero_f : (const void *) zero,
                        (guint8 *) out + args->out_offset * size, (int) args->n,
                        args->m * args->n, (int) batch);
  if (status != CUBLAS_STATUS_SUCCESS)
    {
      g_set_error (error, LT_ERROR,
                   status == CUBLAS_STATUS_ALLOC_FAILED ? LT_ERROR_OUT_OF_MEMORY : LT_ERROR_DEVICE,
                   _("cuBLAS's matrix product failed: %s"), status_string (status));
      return FALSE;
    }
  *done = TRUE;
  return TRUE;
}
