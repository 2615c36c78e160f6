/* lt-cuda-private.h: what the CUDA backend's C and CUDA files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The launchers stay inside the module (nvcc does not apply the build's
 * hidden visibility). */
#define LT_CUDA_INTERNAL __attribute__ ((visibility ("hidden")))

/* Dims a kernel walks after the host has merged what it can. */
#define LT_CUDA_MAX_DIMS 16

/* A launch's shape, passed to kernels by value: element offsets and
 * strides, innermost dim last. */
typedef struct
{
  int64_t sizes[LT_CUDA_MAX_DIMS];
  int64_t dst_strides[LT_CUDA_MAX_DIMS];
  int64_t src_strides[LT_CUDA_MAX_DIMS];
  int64_t dst_offset;
  int64_t src_offset;
  int ndim;
} LtCudaShape;

/* Each returns the launch's status (cudaGetLastError()). @narrow: every
 * element and byte offset the launch reaches fits in 32 bits. */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_copy (void              *dst,
                                 const void        *src,
                                 size_t             element_size,
                                 const LtCudaShape *shape,
                                 int64_t            n,
                                 int                narrow);
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_fill (void              *dst,
                                 const void        *value,
                                 size_t             element_size,
                                 const LtCudaShape *shape,
                                 int64_t            n,
                                 int                narrow);
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_cast (void              *dst,
                                 int                dst_dtype,
                                 int                dst_size,
                                 const void        *src,
                                 int                src_dtype,
                                 int                src_size,
                                 const LtCudaShape *shape,
                                 int64_t            n,
                                 int                narrow);

#ifdef __cplusplus
}
#endif
