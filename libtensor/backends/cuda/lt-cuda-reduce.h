/* lt-cuda-reduce.h: the launchers of the CUDA reduce, random and matmul kernels
 *
 * Included after lt-kernel-reduce.h (through lt-kernel-host.h in C, or
 * lt-cuda-kernels.h in CUDA), which defines the argument layouts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-cuda-private.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reduces as lt_reduce_output() describes, one thread per output element;
 * @dst or @indices may be any valid pointer where @args says there is
 * none. Returns the launch's status. */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_reduce (void                *dst,
                                                    int64_t             *indices,
                                                    const void          *src,
                                                    const LtReduceArgs  *args,
                                                    const LtReduceShape *shape);

/* Scans and softmaxes, one thread per line (lt_line_output()). */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_lines (void                *dst,
                                                   const void          *src,
                                                   const LtReduceArgs  *args,
                                                   const LtReduceShape *shape);

/* Clears the device int at @close when some pair of elements of @a and @b
 * is not close (lt_allclose_element()). */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_allclose (const void          *b,
                                                      const void          *a,
                                                      int                 *close,
                                                      const LtReduceArgs  *args,
                                                      const LtReduceShape *shape);

/* Fills a view with random numbers as lt_random_element() describes, one
 * thread per element; @probabilities may be any valid pointer where @args
 * says there are none. */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_random_fill (void               *dst,
                                                         const void         *probabilities,
                                                         const LtRandomArgs *args);

/* Matrix products, one thread per output element (lt_matmul_element()). */
LT_CUDA_INTERNAL cudaError_t lt_cuda_launch_matmul (void               *out,
                                                    const void         *a,
                                                    const void         *b,
                                                    const LtMatmulArgs *args);

#ifdef __cplusplus
}
#endif
