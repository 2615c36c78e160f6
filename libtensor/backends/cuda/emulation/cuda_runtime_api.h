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
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorLaunchFailure = 719,
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
typedef struct LtCudaEmulatedMemPool *cudaMemPool_t;

typedef enum
{
  cudaDevAttrMemoryPoolsSupported = 115,
} cudaDeviceAttr;

typedef enum
{
  cudaMemPoolAttrReleaseThreshold = 4,
} cudaMemPoolAttr;

typedef struct cudaDeviceProp
{
  char name[256];
  size_t totalGlobalMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerBlock;
  int warpSize;
} cudaDeviceProp;

cudaError_t cudaRuntimeGetVersion (int *version);
cudaError_t cudaDriverGetVersion (int *version);
cudaError_t cudaGetDeviceCount (int *count);
cudaError_t cudaDeviceGetAttribute (int *value, cudaDeviceAttr attribute, int device);
cudaError_t cudaGetDeviceProperties (cudaDeviceProp *properties, int device);
cudaError_t cudaSetDevice (int device);
cudaError_t cudaGetLastError (void);
cudaError_t cudaPeekAtLastError (void);
const char *cudaGetErrorString (cudaError_t error);
const char *cudaGetErrorName (cudaError_t error);
cudaError_t cudaMalloc (void **pointer, size_t size);
cudaError_t cudaFree (void *pointer);
cudaError_t cudaMallocAsync (void **pointer, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync (void *pointer, cudaStream_t stream);
cudaError_t cudaMemcpy (void *dst, const void *src, size_t size, cudaMemcpyKind kind);
cudaError_t cudaMemset (void *pointer, int value, size_t size);
cudaError_t cudaMemsetAsync (void *pointer, int value, size_t size, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool (cudaMemPool_t *pool, int device);
cudaError_t cudaMemPoolSetAttribute (cudaMemPool_t pool, cudaMemPoolAttr attribute, void *value);
cudaError_t cudaMemPoolTrimTo (cudaMemPool_t pool, size_t keep);
cudaError_t cudaDeviceSynchronize (void);

/* Not CUDA's: the emulation's fault injection, for the tests of the
 * backend's error paths (tests/test-cuda-emulated-faults.c). After
 * @successes more successful calls of @call ("cudaMalloc",
 * "cudaMallocAsync", "cudaMemcpy", "launch"), the next one fails with
 * @error; "launch" fails the kernel itself, so that the error is sticky,
 * as a kernel's fault is on a GPU: every later call returns it. */
#define LT_CUDA_EMULATION_API __attribute__ ((visibility ("default")))
LT_CUDA_EMULATION_API void lt_cuda_emulation_inject_fault (const char  *call,
                                                           int          successes,
                                                           cudaError_t  error);
/* Forgets every injected fault and sticky error: a new context. */
LT_CUDA_EMULATION_API void lt_cuda_emulation_reset (void);
/* How many kernels have been launched. */
LT_CUDA_EMULATION_API long lt_cuda_emulation_launch_count (void);

#ifdef __cplusplus
}
#endif
