/* lt-backend-module.h: what a separately built backend module exports
 *
 * The CUDA and OpenCL backends are shared modules loaded at run time
 * (lt-backend.c), so that libtensor installs and runs where neither exists.
 * A module exports one function, LT_BACKEND_MODULE_QUERY, returning a
 * static LtBackendModule; the registry checks its ABI version and device
 * type before using anything else in it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "backends/lt-backend.h"
#include "backends/lt-kernel-host.h"
#include "lt-layout.h"

G_BEGIN_DECLS

/* Bumped whenever LtBackend, LtBackendModule or LtBackendServices change
 * shape. */
#define LT_BACKEND_MODULE_ABI 8

#define LT_BACKEND_MODULE_QUERY "lt_backend_module_query"

typedef struct
{
  guint abi_version;
  LtDeviceType device_type;

  /* How many devices of this type there are. 0 with @error set (in
   * LT_ERROR, LT_ERROR_DEVICE) saying why none can be used, in words a user
   * can act on: "no CUDA driver found", "no OpenCL platform found". */
  guint (*count_devices) (GError **error);

  /* A name for device @index < count_devices(): the GPU model, or the
   * OpenCL platform and device. */
  char *(*get_device_name) (guint index);

  /* The backend of device @index < count_devices(), created on first use
   * and kept for the life of the process; NULL with @error set when the
   * device cannot be opened. */
  const LtBackend *(*get_backend) (guint    index,
                                   GError **error);
} LtBackendModule;

/* The most dims a device kernel walks, after the library has merged what
 * it can. */
#define LT_LAUNCH_MAX_DIMS 16

/* An element-wise launch (a copy, a fill, an element-wise op) as device
 * kernels walk it: the operands' dims simplified as the CPU's loops are
 * (size-1 dims dropped, mergeable dims merged, operand 0's smallest stride
 * innermost), each operand's element strides and offset, the element
 * count, and whether the count and every element offset the launch
 * reaches stay below 2^30, so that kernels can index in 32 bits (with room
 * for a grid-stride loop's last step past the end). */
typedef struct
{
  guint ndim;
  guint n_operands;
  gint64 numel;
  gboolean narrow;
  gint64 sizes[LT_LAUNCH_MAX_DIMS];
  gint64 strides[LT_LOOP_MAX_OPERANDS][LT_LAUNCH_MAX_DIMS];
  gint64 offsets[LT_LOOP_MAX_OPERANDS];
} LtLaunchPlan;

/* The library's internal helpers a module needs, handed to it by the
 * registry: they are not exported from libtensor, which a module links
 * only for its public API. */
typedef struct
{
  void (*value_write) (LtDType  dtype,
                       gpointer element,
                       LtValue  value);
  void (*loop_shape_init) (LtLoopShape         *shape,
                           guint                ndim,
                           const gint64        *sizes,
                           guint                n_operands,
                           const gint64 *const *strides);
  void (*loop_shape_simplify) (LtLoopShape *shape);
  gint64 (*loop_shape_numel) (const LtLoopShape *shape);

  /* The launch over @n_operands operands of @sizes (at most
   * LT_LOOP_MAX_OPERANDS, the output first: a copy's destination and
   * source, a fill's destination) into @plan; when plan->numel is 0 there
   * is nothing to launch. FALSE with @error set when more than
   * LT_LAUNCH_MAX_DIMS dims are left that cannot be merged. Every GPU
   * backend plans its element-wise launches with this. */
  gboolean (*plan_elementwise) (guint                   ndim,
                                const gint64           *sizes,
                                const LtOperand *const *operands,
                                guint                   n_operands,
                                LtLaunchPlan           *plan,
                                GError                **error);

  /* A reduction (as LtReduceKernels.reduce() gets it) laid out for
   * lt_reduce_output(): the kept and reduced dims of size above 1, the
   * offsets, dtypes and op. args->n_out is 0 when there is nothing to
   * write. FALSE with @error set when more than LT_KR_MAX_DIMS dims of
   * either kind are left. */
  gboolean (*plan_reduce) (const LtReduceParams *params,
                           guint                 ndim,
                           const gint64         *sizes,
                           const LtOperand      *dst,
                           const LtOperand      *indices,
                           const LtOperand      *src,
                           LtReduceArgs         *args,
                           LtReduceShape        *shape,
                           GError              **error);

  /* A scan or softmax along @dim laid out for lt_line_output(), with @op
   * one of LT_KR_SUM, LT_KR_PROD, LT_KR_SOFTMAX, LT_KR_LOG_SOFTMAX:
   * args->n_out lines (0: nothing to do). */
  gboolean (*plan_lines) (int              op,
                          guint            ndim,
                          const gint64    *sizes,
                          guint            dim,
                          const LtOperand *dst,
                          const LtOperand *src,
                          LtReduceArgs    *args,
                          LtReduceShape   *shape,
                          GError         **error);

  /* allclose (as LtReduceKernels.allclose() gets it) laid out for
   * lt_allclose_element(): @a as the source, @b as the destination. */
  gboolean (*plan_allclose) (guint            ndim,
                             const gint64    *sizes,
                             const LtOperand *a,
                             const LtOperand *b,
                             double           rtol,
                             double           atol,
                             gboolean         equal_nan,
                             LtReduceArgs    *args,
                             LtReduceShape   *shape,
                             GError         **error);

  /* A random fill (as LtBackend.random_fill() gets it) laid out for
   * lt_random_element(); FALSE with @error set when more than
   * LT_KRAND_MAX_DIMS dims of size above 1 are left. */
  gboolean (*plan_random) (guint                 ndim,
                           const gint64         *sizes,
                           const LtOperand      *dst,
                           const LtOperand      *probabilities,
                           const LtRandomParams *params,
                           guint64               seed,
                           guint64               counter,
                           LtRandomArgs         *args,
                           GError              **error);

  /* A batch of matrix products (as LtLinalgKernels.matmul() gets it) laid
   * out for lt_matmul_element(); FALSE with @error set when more than
   * LT_KM_MAX_BATCH_DIMS batch dims of size above 1 are left. */
  gboolean (*plan_matmul) (guint            batch_ndim,
                           const gint64    *batch_sizes,
                           gint64           m,
                           gint64           n,
                           gint64           k,
                           const LtOperand *out,
                           const LtOperand *a,
                           const LtOperand *b,
                           LtMatmulArgs    *args,
                           GError         **error);
} LtBackendServices;

typedef const LtBackendModule *(*LtBackendModuleQueryFunc) (const LtBackendServices *services);

/* The registry (lt-backend.c). */
guint lt_backend_count_devices (LtDeviceType device_type,
                                GError     **error);
char *lt_backend_get_device_name (LtDeviceType device_type,
                                  guint        index);

G_END_DECLS
