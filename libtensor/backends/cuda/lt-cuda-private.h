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
  /* Filled by the launchers (lt_cuda_set_dividers ()): each size as a
   * multiplier and a shift, for 32-bit index arithmetic. */
  uint32_t div_magic[LT_CUDA_MAX_DIMS];
  uint32_t div_shift[LT_CUDA_MAX_DIMS];
} LtCudaShape;

/* Each returns the launch's status (cudaGetLastError()). @narrow: the
 * element count and every element offset the launch reaches are below
 * 2^30, so that indices can be 32-bit (bytes are counted in 64). */
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

/* The shape of an element-wise launch over up to four operands (the
 * output first): element offsets and strides, innermost dim last. */
typedef struct
{
  int64_t sizes[LT_CUDA_MAX_DIMS];
  int64_t strides[4][LT_CUDA_MAX_DIMS];
  int64_t offsets[4];
  int ndim;
  /* As LtCudaShape's. */
  uint32_t div_magic[LT_CUDA_MAX_DIMS];
  uint32_t div_shift[LT_CUDA_MAX_DIMS];
} LtCudaShape4;

/* lt-cuda-pointwise.cu: the element-wise kernels, by the rules of
 * lt-kernel-pointwise.h, for @dtype (an LtDType, the computation dtype)
 * and @op (an LtUnaryOp or LtBinaryOp). @alpha points at a value of the
 * computation type (lt_pointwise_alpha_for_kernels()). */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_unary (int                 dtype,
                                                   int                 op,
                                                   void               *out,
                                                   const void         *in,
                                                   const LtCudaShape4 *shape,
                                                   int64_t             n,
                                                   int                 narrow);
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_binary (int                 dtype,
                                                    int                 op,
                                                    void               *out,
                                                    const void         *a,
                                                    const void         *b,
                                                    int64_t             alpha_i,
                                                    const void         *alpha,
                                                    int                 use_alpha,
                                                    const LtCudaShape4 *shape,
                                                    int64_t             n,
                                                    int                 narrow);
/* out = cond ? a : b, cond being bool. */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_where (int                 dtype,
                                                   void               *out,
                                                   const void         *cond,
                                                   const void         *a,
                                                   const void         *b,
                                                   const LtCudaShape4 *shape,
                                                   int64_t             n,
                                                   int                 narrow);
/* lerp (x, y, z) when @clamp is 0, else clamp (x, y, z). */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_ternary (int                 dtype,
                                                     int                 clamp,
                                                     void               *out,
                                                     const void         *x,
                                                     const void         *y,
                                                     const void         *z,
                                                     const LtCudaShape4 *shape,
                                                     int64_t             n,
                                                     int                 narrow);
/* Sets the device int at @found to 1 when some element of @a is zero. */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_any_zero (int                 dtype,
                                                      const void         *a,
                                                      int                *found,
                                                      const LtCudaShape4 *shape,
                                                      int64_t             n,
                                                      int                 narrow);

#ifdef __cplusplus
}
#endif
