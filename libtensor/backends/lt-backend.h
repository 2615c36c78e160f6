/* lt-backend.h: the internal interface every execution backend implements
 *
 * A backend owns memory on one kind of device and runs the kernels on it. The
 * GObject layer validates arguments, builds the operand descriptions below and
 * calls through the wrappers; it never loops over elements itself. Kernels
 * never allocate objects and never see a GError: everything they could get
 * wrong was checked before they were called.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-device.h"
#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "backends/lt-operand.h"
#include "backends/lt-backend-pointwise.h"
#include "backends/lt-backend-reduce.h"
#include "backends/lt-backend-linalg.h"
#include "backends/lt-backend-index.h"

G_BEGIN_DECLS


typedef enum
{
  LT_RANDOM_UNIFORM,
  LT_RANDOM_NORMAL,
  LT_RANDOM_INTEGER,
  LT_RANDOM_BERNOULLI,
} LtRandomDistribution;

/* What random_fill() draws: uniform in [a, b), normal with mean a and
 * standard deviation b, integers in [low, high), or 1 with probability a
 * (or, with a probabilities operand, the element's own probability). How
 * elements map to Philox words is in lt-random-private.h. */
typedef struct
{
  LtRandomDistribution distribution;
  double a, b;
  gint64 low, high;
} LtRandomParams;

struct _LtBackend
{
  const char *name;
  LtDeviceType device_type;
  /* Which device of its type this backend runs (0 for the CPU). */
  guint device_index;

  /* Memory for @nbytes, or NULL when there is not enough; zero-filled when
   * @zeroed, else holding anything (for results a kernel overwrites in
   * full). Host memory is aligned to LT_STORAGE_ALIGNMENT; device memory
   * is a handle of the backend's (a cl_mem, a CUDA device pointer).
   * NULL when it fails: with @error set where the device itself failed
   * (a CUDA context lost to a kernel's fault), untouched where memory ran
   * out, which the caller reports with what the memory was for. */
  gpointer (*alloc) (const LtBackend *self,
                     gsize            nbytes,
                     gboolean         zeroed,
                     GError         **error);
  /* Frees what alloc() returned for the same @nbytes. */
  void (*free) (const LtBackend *self,
                gpointer         data,
                gsize            nbytes);

  /* Copies @nbytes of host memory at @src into the backend's memory @dst
   * from byte @dst_offset, and back; both return once the copy is done. */
  gboolean (*upload) (const LtBackend *self,
                      gpointer         dst,
                      gsize            dst_offset,
                      gconstpointer    src,
                      gsize            nbytes,
                      GError         **error);
  gboolean (*download) (const LtBackend *self,
                        gpointer         dst,
                        gconstpointer    src,
                        gsize            src_offset,
                        gsize            nbytes,
                        GError         **error);

  /* dst = src element by element, converting dtypes where they differ. The
   * operands have the same shape; dst has no internal overlap and does not
   * overlap src (the caller copies src first if it would). FALSE with
   * @error set only where a device can fail (a launch, a kernel build). */
  gboolean (*copy) (const LtBackend *self,
                    guint            ndim,
                    const gint64    *sizes,
                    const LtOperand *dst,
                    const LtOperand *src,
                    GError         **error);

  /* Every element of dst = value; errors as copy(). */
  gboolean (*fill) (const LtBackend *self,
                    guint            ndim,
                    const gint64    *sizes,
                    const LtOperand *dst,
                    LtValue          value,
                    GError         **error);

  /* n contiguous elements of a floating or complex dtype at data, from the
   * Philox blocks starting at counter under key seed; see lt-random-private.h
   * for which element takes which words. */
  void (*random) (gpointer             data,
                  LtDType              dtype,
                  gint64               n,
                  LtRandomDistribution distribution,
                  guint64              seed,
                  guint64              counter);

  /* Every element of dst, in row-major order of its view, from the Philox
   * blocks starting at counter under key seed. probabilities (nullable, for
   * LT_RANDOM_BERNOULLI only) has dst's sizes and a floating dtype. FALSE
   * with @error set where a device fails. */
  gboolean (*random_fill) (const LtBackend      *self,
                           guint                 ndim,
                           const gint64         *sizes,
                           const LtOperand      *dst,
                           const LtOperand      *probabilities,
                           const LtRandomParams *params,
                           guint64               seed,
                           guint64               counter,
                           GError              **error);

  /* n contiguous elements start + i * step; integer arithmetic when both
   * values are integers. */
  void (*arange) (gpointer data,
                  LtDType  dtype,
                  gint64   n,
                  LtValue  start,
                  LtValue  step);

  /* n >= 2 contiguous elements evenly spaced from start to end, both ends
   * exact, computed from the nearer end as PyTorch does. */
  void (*linspace) (gpointer data,
                    LtDType  dtype,
                    gint64   n,
                    double   start,
                    double   end);

  /* Wait until every kernel launched so far has finished; FALSE with
   * @error set (LT_ERROR_DEVICE) when one of them failed, or the device
   * can no longer run anything. */
  gboolean (*synchronize) (const LtBackend *self,
                           GError         **error);

  /* The math kernels, by family (lt-backend-pointwise.h, ...). */
  const LtPointwiseKernels *pointwise;
  const LtReduceKernels *reduce;
  const LtLinalgKernels *linalg;
  /* NULL where the core runs indexing on the host (lt-backend-index.h). */
  const LtIndexKernels *index;
};

/* Every storage the library allocates is aligned to this many bytes. */
#define LT_STORAGE_ALIGNMENT 64

/* The backend of @device, loading its module on first use; NULL with
 * @error set (LT_ERROR_DEVICE) saying why the device is not available. */
const LtBackend *lt_backend_for_device (const LtDevice *device,
                                        GError        **error);

const LtBackend *lt_cpu_backend_get (void);

/* Where backend modules are looked for, in order (lt-backend.c). */
GStrv lt_backend_module_directories (void);

G_END_DECLS
