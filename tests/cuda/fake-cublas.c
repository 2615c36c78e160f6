/* fake-cublas.c: a stand-in for cuBLAS's strided batched GEMMs, on the host
 *
 * For test-cuda-blas: the reference column-major GEMM of the BLAS
 * interface, computed on host memory, so the way lt-cuda-blas.c lays
 * row-major views out for cuBLAS can be checked without a GPU. Counts its
 * calls (fake_cublas_calls()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cublas_api.h>

static int calls;

int fake_cublas_calls (void);

int
fake_cublas_calls (void)
{
  return calls;
}

cublasStatus_t CUBLASWINAPI
cublasCreate_v2 (cublasHandle_t *handle)
{
  *handle = (cublasHandle_t) &calls;
  return CUBLAS_STATUS_SUCCESS;
}

const char *CUBLASWINAPI
cublasGetStatusString (cublasStatus_t status)
{
  (void) status;
  return "the fake cuBLAS failed";
}

/* Element (i, j) of column-major @m with leading dimension @ld, after op. */
#define AT(m, ld, op, i, j) ((op) == CUBLAS_OP_N ? (m)[(i) + (long long) (j) * (ld)] \
                                                 : (m)[(j) + (long long) (i) * (ld)])

#define REAL_GEMM(name, T)                                                       \
  cublasStatus_t CUBLASWINAPI                                                    \
  name (cublasHandle_t handle, cublasOperation_t transa,                         \
        cublasOperation_t transb, int m, int n, int k, const T *alpha,           \
        const T *a, int lda, long long int stride_a, const T *b, int ldb,        \
        long long int stride_b, const T *beta, T *c, int ldc,                    \
        long long int stride_c, int batch_count)                                 \
  {                                                                              \
    (void) handle;                                                               \
    (void) beta;                                                                 \
    calls++;                                                                     \
    for (int p = 0; p < batch_count; p++)                                        \
      for (int i = 0; i < m; i++)                                                \
        for (int j = 0; j < n; j++)                                              \
          {                                                                      \
            T sum = 0;                                                           \
            for (int l = 0; l < k; l++)                                          \
              sum += AT (a + p * stride_a, lda, transa, i, l)                    \
                     * AT (b + p * stride_b, ldb, transb, l, j);                 \
            c[p * stride_c + i + (long long) j * ldc] = *alpha * sum;           \
          }                                                                      \
    return CUBLAS_STATUS_SUCCESS;                                                \
  }

REAL_GEMM (cublasSgemmStridedBatched, float)
REAL_GEMM (cublasDgemmStridedBatched, double)

#define COMPLEX_GEMM(name, T, R)                                                 \
  cublasStatus_t CUBLASWINAPI                                                    \
  name (cublasHandle_t handle, cublasOperation_t transa,                         \
        cublasOperation_t transb, int m, int n, int k, const T *alpha,           \
        const T *a, int lda, long long int stride_a, const T *b, int ldb,        \
        long long int stride_b, const T *beta, T *c, int ldc,                    \
        long long int stride_c, int batch_count)                                 \
  {                                                                              \
    (void) handle;                                                               \
    (void) alpha;                                                                \
    (void) beta;                                                                 \
    calls++;                                                                     \
    for (int p = 0; p < batch_count; p++)                                        \
      for (int i = 0; i < m; i++)                                                \
        for (int j = 0; j < n; j++)                                              \
          {                                                                      \
            R re = 0, im = 0;                                                    \
            for (int l = 0; l < k; l++)                                          \
              {                                                                  \
                T x = AT (a + p * stride_a, lda, transa, i, l);                  \
                T y = AT (b + p * stride_b, ldb, transb, l, j);                  \
                re += x.x * y.x - x.y * y.y;                                     \
                im += x.x * y.y + x.y * y.x;                                     \
              }                                                                  \
            c[p * stride_c + i + (long long) j * ldc].x = re;                    \
            c[p * stride_c + i + (long long) j * ldc].y = im;                    \
          }                                                                      \
    return CUBLAS_STATUS_SUCCESS;                                                \
  }

COMPLEX_GEMM (cublasCgemmStridedBatched, cuComplex, float)
COMPLEX_GEMM (cublasZgemmStridedBatched, cuDoubleComplex, double)

/* bfloat16: the upper half of a float32. */
static float
from_bf16 (unsigned short bits)
{
  union { unsigned int u; float f; } v = { .u = (unsigned int) bits << 16 };

  return v.f;
}

static unsigned short
to_bf16 (float value)
{
  union { float f; unsigned int u; } v = { .f = value };

  /* Round to nearest, ties to even (no NaNs in the tests). */
  return (unsigned short) ((v.u + 0x7fff + ((v.u >> 16) & 1)) >> 16);
}

/* bfloat16 products only (what the tests ask for), accumulated in float
 * as CUBLAS_COMPUTE_32F does. */
cublasStatus_t CUBLASWINAPI
cublasGemmStridedBatchedEx (cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void *alpha,
                            const void *a, cudaDataType a_type, int lda, long long int stride_a,
                            const void *b, cudaDataType b_type, int ldb, long long int stride_b,
                            const void *beta, void *c, cudaDataType c_type, int ldc,
                            long long int stride_c, int batch_count,
                            cublasComputeType_t compute_type, cublasGemmAlgo_t algo)
{
  const unsigned short *x = a, *y = b;
  unsigned short *z = c;

  (void) handle;
  (void) beta;
  (void) algo;
  if (a_type != CUDA_R_16BF || b_type != CUDA_R_16BF || c_type != CUDA_R_16BF
      || compute_type != CUBLAS_COMPUTE_32F)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  calls++;
  for (int p = 0; p < batch_count; p++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        {
          float sum = 0;

          for (int l = 0; l < k; l++)
            sum += from_bf16 (AT (x + p * stride_a, lda, transa, i, l))
                   * from_bf16 (AT (y + p * stride_b, ldb, transb, l, j));
          z[p * stride_c + i + (long long) j * ldc] = to_bf16 (*(const float *) alpha * sum);
        }
  return CUBLAS_STATUS_SUCCESS;
}
