/* lt-cuda-pointwise.cu: element-wise operations on a CUDA device
 *
 * Every unary and binary op, where, lerp and clamp, for the twelve dtypes,
 * by the rules of lt-kernel-pointwise.h, which the OpenCL kernels share
 * and which the OpenCL tests check against the CPU op by op. Each dtype's
 * rules become a struct of static functions (lt-cuda-pointwise-dtype.h)
 * that the kernel templates below take as a parameter; the kernels only
 * walk the strided operands, with a grid-stride loop and 32-bit index
 * arithmetic where the launch allows it. Built with -fmad=false: a * b + c
 * in one rounding would not be the CPU's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "lt-cuda-private.h"
#include "lt-cuda-kernels.h"

#include "lt-cuda-pointwise-dtypes.h"

/* The kernels */

/* The storage offsets of element @i of a launch over @shape, for the
 * first @N operands. */
template <int N, typename Index>
static __device__ inline void
offsets4 (Index               i,
          const LtCudaShape4 &shape,
          Index              *at)
{
  for (int k = 0; k < N; k++)
    at[k] = (Index) shape.offsets[k];
  for (int d = shape.ndim - 1; d >= 0; d--)
    {
      Index position = i % (Index) shape.sizes[d];

      i /= (Index) shape.sizes[d];
      for (int k = 0; k < N; k++)
        at[k] += position * (Index) shape.strides[k][d];
    }
}

#define GRID_STRIDE_LOOP(i, n)                                                   \
  for (Index i = (Index) blockIdx.x * blockDim.x + threadIdx.x; i < (n);        \
       i += (Index) gridDim.x * blockDim.x)

template <typename Ops, typename Index>
static __global__ void
unary_kernel (uint8_t                    *out,
              const typename Ops::T      *a,
              int                         op,
              LtCudaShape4                shape,
              Index                       n)
{
  bool predicate = LT_K_UNARY_IS_PREDICATE (op);
  bool real_abs = Ops::kind == LT_PW_KIND_COMPLEX && op == LT_K_ABS;

  GRID_STRIDE_LOOP (i, n)
    {
      Index at[2];
      typename Ops::C x;

      offsets4<2> (i, shape, at);
      x = Ops::load (a[at[1]]);
      if (predicate)
        out[at[0]] = (uint8_t) Ops::test (op, x);
      else if (real_abs)
        ((typename Ops::R *) out)[at[0]] = Ops::abs_real (x);
      else
        ((typename Ops::T *) out)[at[0]] = Ops::store (Ops::unary (op, x));
    }
}

template <typename Ops, typename Index>
static __global__ void
binary_kernel (uint8_t                *out,
               const typename Ops::T  *a,
               const typename Ops::T  *b,
               int                     op,
               int64_t                 alpha_i,
               typename Ops::C         alpha,
               int                     use_alpha,
               LtCudaShape4            shape,
               Index                   n)
{
  bool predicate = LT_K_BINARY_IS_PREDICATE (op);

  GRID_STRIDE_LOOP (i, n)
    {
      Index at[3];
      typename Ops::C x, y;

      offsets4<3> (i, shape, at);
      x = Ops::load (a[at[1]]);
      y = Ops::load (b[at[2]]);
      if (predicate)
        out[at[0]] = (uint8_t) Ops::compare (op, x, y);
      else
        ((typename Ops::T *) out)[at[0]]
          = Ops::store (Ops::binary (op, x, y, alpha_i, alpha, use_alpha));
    }
}

template <typename Ops, typename Index>
static __global__ void
where_kernel (typename Ops::T        *out,
              const uint8_t          *cond,
              const typename Ops::T  *a,
              const typename Ops::T  *b,
              LtCudaShape4            shape,
              Index                   n)
{
  GRID_STRIDE_LOOP (i, n)
    {
      Index at[4];

      offsets4<4> (i, shape, at);
      out[at[0]] = cond[at[1]] ? a[at[2]] : b[at[3]];
    }
}

template <typename Ops, typename Index>
static __global__ void
ternary_kernel (typename Ops::T        *out,
                const typename Ops::T  *x,
                const typename Ops::T  *y,
                const typename Ops::T  *z,
                int                     clamp,
                LtCudaShape4            shape,
                Index                   n)
{
  GRID_STRIDE_LOOP (i, n)
    {
      Index at[4];
      typename Ops::C u, v, w;

      offsets4<4> (i, shape, at);
      u = Ops::load (x[at[1]]);
      v = Ops::load (y[at[2]]);
      w = Ops::load (z[at[3]]);
      out[at[0]] = Ops::store (clamp ? Ops::clamp (u, v, w) : Ops::lerp (u, v, w));
    }
}

template <typename Ops, typename Index>
static __global__ void
any_zero_kernel (const typename Ops::T *a,
                 int                   *found,
                 LtCudaShape4           shape,
                 Index                  n)
{
  GRID_STRIDE_LOOP (i, n)
    {
      Index at[1];

      offsets4<1> (i, shape, at);
      if (Ops::is_zero (Ops::load (a[at[0]])))
        *found = 1;
    }
}

/* Launchers: one kernel launch of @Ops with 32- or 64-bit indices. */

#define LAUNCH(kernel, Ops, narrow, n, ...)                                      \
  do                                                                             \
    {                                                                            \
      if (narrow)                                                                \
        kernel<Ops, int32_t><<<blocks_for (n), threads_per_block>>> (            \
          __VA_ARGS__, (int32_t) (n));                                           \
      else                                                                       \
        kernel<Ops, int64_t><<<blocks_for (n), threads_per_block>>> (            \
          __VA_ARGS__, (int64_t) (n));                                           \
    }                                                                            \
  while (0)

struct UnaryLaunch
{
  int op;
  void *out;
  const void *in;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    LAUNCH (unary_kernel, Ops, narrow, n, (uint8_t *) out, (const typename Ops::T *) in, op,
            shape);
  }
};

struct BinaryLaunch
{
  int op;
  void *out;
  const void *a, *b;
  int64_t alpha_i;
  const void *alpha;
  int use_alpha;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    typename Ops::C alpha_c;

    memcpy (&alpha_c, alpha, sizeof alpha_c);
    LAUNCH (binary_kernel, Ops, narrow, n, (uint8_t *) out, (const typename Ops::T *) a,
            (const typename Ops::T *) b, op, alpha_i, alpha_c, use_alpha, shape);
  }
};

struct WhereLaunch
{
  void *out;
  const void *cond, *a, *b;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    LAUNCH (where_kernel, Ops, narrow, n, (typename Ops::T *) out, (const uint8_t *) cond,
            (const typename Ops::T *) a, (const typename Ops::T *) b, shape);
  }
};

struct TernaryLaunch
{
  int clamp;
  void *out;
  const void *x, *y, *z;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    LAUNCH (ternary_kernel, Ops, narrow, n, (typename Ops::T *) out,
            (const typename Ops::T *) x, (const typename Ops::T *) y,
            (const typename Ops::T *) z, clamp, shape);
  }
};

struct AnyZeroLaunch
{
  const void *a;
  int *found;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    LAUNCH (any_zero_kernel, Ops, narrow, n, (const typename Ops::T *) a, found, shape);
  }
};

/* Runs @launch for @dtype's rules and returns the launch's status. */
template <typename Launch>
static cudaError_t
dispatch (int                 dtype,
          const Launch       &launch,
          const LtCudaShape4 *shape,
          int64_t             n,
          int                 narrow)
{
  switch (dtype)
    {
    case LT_BOOL:
      launch.template run<OpsBool> (*shape, n, narrow);
      break;
    case LT_UINT8:
      launch.template run<OpsUInt8> (*shape, n, narrow);
      break;
    case LT_INT8:
      launch.template run<OpsInt8> (*shape, n, narrow);
      break;
    case LT_INT16:
      launch.template run<OpsInt16> (*shape, n, narrow);
      break;
    case LT_INT32:
      launch.template run<OpsInt32> (*shape, n, narrow);
      break;
    case LT_INT64:
      launch.template run<OpsInt64> (*shape, n, narrow);
      break;
    case LT_FLOAT16:
      launch.template run<OpsFloat16> (*shape, n, narrow);
      break;
    case LT_BFLOAT16:
      launch.template run<OpsBFloat16> (*shape, n, narrow);
      break;
    case LT_FLOAT32:
      launch.template run<OpsFloat32> (*shape, n, narrow);
      break;
    case LT_FLOAT64:
      launch.template run<OpsFloat64> (*shape, n, narrow);
      break;
    case LT_COMPLEX64:
      launch.template run<OpsComplex64> (*shape, n, narrow);
      break;
    case LT_COMPLEX128:
      launch.template run<OpsComplex128> (*shape, n, narrow);
      break;
    default:
      return cudaErrorInvalidValue;
    }
  return cudaGetLastError ();
}

extern "C" cudaError_t
lt_cuda_launch_unary (int                 dtype,
                      int                 op,
                      void               *out,
                      const void         *in,
                      const LtCudaShape4 *shape,
                      int64_t             n,
                      int                 narrow)
{
  UnaryLaunch launch = { op, out, in };

  return dispatch (dtype, launch, shape, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_binary (int                 dtype,
                       int                 op,
                       void               *out,
                       const void         *a,
                       const void         *b,
                       int64_t             alpha_i,
                       const void         *alpha,
                       int                 use_alpha,
                       const LtCudaShape4 *shape,
                       int64_t             n,
                       int                 narrow)
{
  BinaryLaunch launch = { op, out, a, b, alpha_i, alpha, use_alpha };

  return dispatch (dtype, launch, shape, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_where (int                 dtype,
                      void               *out,
                      const void         *cond,
                      const void         *a,
                      const void         *b,
                      const LtCudaShape4 *shape,
                      int64_t             n,
                      int                 narrow)
{
  WhereLaunch launch = { out, cond, a, b };

  return dispatch (dtype, launch, shape, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_ternary (int                 dtype,
                        int                 clamp,
                        void               *out,
                        const void         *x,
                        const void         *y,
                        const void         *z,
                        const LtCudaShape4 *shape,
                        int64_t             n,
                        int                 narrow)
{
  TernaryLaunch launch = { clamp, out, x, y, z };

  return dispatch (dtype, launch, shape, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_any_zero (int                 dtype,
                         const void         *a,
                         int                *found,
                         const LtCudaShape4 *shape,
                         int64_t             n,
                         int                 narrow)
{
  AnyZeroLaunch launch = { a, found };

  return dispatch (dtype, launch, shape, n, narrow);
}
