/* cublas_api.h: the part of cuBLAS's interface lt-cuda-blas.c uses
 *
 * For the CUDA backend built against the host emulation (see
 * cuda_runtime.h): the types, constants and values of CUDA 13's cuBLAS,
 * so that the module it builds opens a cuBLAS (a stand-in, in the tests)
 * as the real one would.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "cuda_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUBLAS_VER_MAJOR 13
#define CUBLASWINAPI

typedef struct cublasContext *cublasHandle_t;

typedef enum
{
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;

typedef enum
{
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
} cublasOperation_t;

typedef enum
{
  CUDA_R_32F = 0,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
} cudaDataType;

typedef enum
{
  CUBLAS_COMPUTE_32F = 68,
} cublasComputeType_t;

typedef enum
{
  CUBLAS_GEMM_DEFAULT = -1,
} cublasGemmAlgo_t;

typedef struct
{
  float x, y;
} cuComplex;

typedef struct
{
  double x, y;
} cuDoubleComplex;

#ifdef __cplusplus
}
#endif
