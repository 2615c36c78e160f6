/* cuda_runtime_api.h: CUDA's runtime API as the host emulation provides it
 *
 * The kernel sources (the .cu files of the CUDA backend) compile a second
 * time as host C++ against this directory's headers, which stand in for
 * the CUDA toolkit's: see cuda_runtime.h. Only what the backend and its
 * tests use is here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorMisalignedAddress = 716,
} cudaError_t;

typedef enum
{
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
} cudaMemcpyKind;

typedef struct LtCudaEmulatedStream *cudaStream_t;

typedef struct
{
  char name[256];
  size_t totalGlobalMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerBlock;
  int warpSize;
} cudaDeviceProp;

cudaError_t cudaGetDeviceCount (int *count);
cudaError_t cudaGetDeviceProperties (cudaDeviceProp *properties, int device);
cudaError_t cudaSetDevice (int device);
cudaError_t cudaGetLastError (void);
cudaError_t cudaPeekAtLastError (void);
const char *cudaGetErrorString (cudaError_t error);
cudaError_t cudaMalloc (void **pointer, size_t size);
cudaError_t cudaFree (void *pointer);
cudaError_t cudaMallocAsync (void **pointer, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync (void *pointer, cudaStream_t stream);
cudaError_t cudaMemcpy (void *dst, const void *src, size_t size, cudaMemcpyKind kind);
cudaError_t cudaMemset (void *pointer, int value, size_t size);
cudaError_t cudaDeviceSynchronize (void);

#ifdef __cplusplus
}
#endif
