/* lt-cuda-backend-private.h: what the CUDA backend's C files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cuda_runtime_api.h>
#include <glib-object.h>

#include "backends/lt-backend.h"
#include "backends/lt-backend-module.h"

G_BEGIN_DECLS

/* The library's helpers, set when the module is queried. */
extern const LtBackendServices *lt_cuda_services;

/* Sets @error from a failed CUDA call @what (LT_ERROR_OUT_OF_MEMORY when
 * memory ran out, else LT_ERROR_DEVICE). */
void        lt_cuda_set_error    (GError         **error,
                                  cudaError_t      status,
                                  const char      *what);
/* Makes @backend's device current on this thread: CUDA keeps the current
 * device per thread. */
cudaError_t lt_cuda_use_device   (const LtBackend *backend);
/* The nick of @value of the enum @enum_type (LT_TYPE_BINARY_OP, ...), for
 * messages that name a kernel. */
const char *lt_cuda_enum_nick    (GType            enum_type,
                                  int              value);
/* Whether LT_CUDA_SYNC=1 asks for every launch to be waited for. */
gboolean    lt_cuda_sync_each_launch (void);
/* lt_cuda_check_launch()'s work past the common case. */
gboolean    lt_cuda_check_launch_slowly (cudaError_t      status,
                                         GError         **error,
                                         const char      *kernel_format,
                                         ...) G_GNUC_PRINTF (3, 4);
/* TRUE when a launch's @status is a success, else FALSE with @error set,
 * naming the kernel (@kernel_format, printf-style). With LT_CUDA_SYNC=1 in
 * the environment, every launch is also waited for here, so that a kernel
 * that faults is named at its launch rather than at the next transfer.
 * The format's arguments (an op's name looked up in its enum type) are
 * evaluated only then, or on failure: never on a launch's common path. */
#define lt_cuda_check_launch(status, error, ...)                              \
  ((status) == cudaSuccess && !lt_cuda_sync_each_launch ()                      \
     ? TRUE                                                                     \
     : lt_cuda_check_launch_slowly ((status), (error), __VA_ARGS__))

/* lt-cuda-blas.c: the product @args describes through cuBLAS, on the
 * current device, when cuBLAS is there and can take it (*@done); FALSE
 * with @error set when cuBLAS fails. */
gboolean    lt_cuda_blas_matmul  (const LtBackend    *self,
                                  const LtMatmulArgs *args,
                                  gpointer            out,
                                  gconstpointer       a,
                                  gconstpointer       b,
                                  gboolean           *done,
                                  GError            **error);

extern const LtPointwiseKernels lt_cuda_pointwise_kernels;
extern const LtReduceKernels lt_cuda_reduce_kernels;
extern const LtLinalgKernels lt_cuda_linalg_kernels;

gboolean lt_cuda_random_fill (const LtBackend      *self,
                              guint                 ndim,
                              const gint64         *sizes,
                              const LtOperand      *dst,
                              const LtOperand      *probabilities,
                              const LtRandomParams *params,
                              guint64               seed,
                              guint64               counter,
                              GError              **error);

G_END_DECLS
