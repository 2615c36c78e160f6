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

#include <type_traits>

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
      Index quotient = sizeof (Index) == 4
                         ? (Index) lt_cuda_divide ((uint32_t) i, shape.div_magic[d],
                                                   shape.div_shift[d])
                         : i / (Index) shape.sizes[d];
      Index position = i - quotient * (Index) shape.sizes[d];

      i = quotient;
      for (int k = 0; k < N; k++)
        at[k] += position * (Index) shape.strides[k][d];
    }
}

#define GRID_STRIDE_LOOP(i, n)                                                   \
  for (Index i = (Index) blockIdx.x * blockDim.x + threadIdx.x; i < (n);        \
       i += (Index) gridDim.x * blockDim.x)

/* The unary and binary kernels take UNROLL elements a pass, blockDim.x
 * apart, and load them all before storing any: a GPU's memory runs at
 * speed only with many bytes in flight, more than one narrow element per
 * thread gives. The launch has a quarter of the blocks (LAUNCH_UNROLLED). */
#define UNROLL 4
#define UNROLLED_LOOP(base, n)                                                   \
  for (Index base = (Index) blockIdx.x * blockDim.x * UNROLL + threadIdx.x;     \
       base < (n); base += (Index) gridDim.x * blockDim.x * UNROLL)

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

  UNROLLED_LOOP (base, n)
    {
      Index at[UNROLL][2];
      typename Ops::C x[UNROLL];

#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          {
            offsets4<2> (base + u * (Index) blockDim.x, shape, at[u]);
            x[u] = Ops::load (a[at[u][1]]);
          }
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          {
            if (predicate)
              out[at[u][0]] = (uint8_t) Ops::test (op, x[u]);
            else if (real_abs)
              ((typename Ops::R *) out)[at[u][0]] = Ops::abs_real (x[u]);
            else
              ((typename Ops::T *) out)[at[u][0]] = Ops::store (Ops::unary (op, x[u]));
          }
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
  bool predicate;

  op = Ops::fixed_op >= 0 ? Ops::fixed_op : op;
  predicate = LT_K_BINARY_IS_PREDICATE (op);
  UNROLLED_LOOP (base, n)
    {
      Index at[UNROLL][3];
      typename Ops::C x[UNROLL], y[UNROLL];

#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          {
            offsets4<3> (base + u * (Index) blockDim.x, shape, at[u]);
            x[u] = Ops::load (a[at[u][1]]);
            y[u] = Ops::load (b[at[u][2]]);
          }
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          {
            if (predicate)
              out[at[u][0]] = (uint8_t) Ops::compare (op, x[u], y[u]);
            else
              ((typename Ops::T *) out)[at[u][0]]
                = Ops::store (Ops::binary (op, x[u], y[u], alpha_i, alpha, use_alpha));
          }
    }
}

/* Float32 binary ops along a contiguous innermost dim, four elements a
 * 16-byte vector: the output and each operand either run along it
 * (stride 1, every line 16 bytes aligned) or repeat one value (stride 0,
 * a broadcast), and it is a multiple of four long (runs_in_vectors ()).
 * A thread finds the offsets once for four elements. Element by element,
 * a broadcast add read and wrote an H200's memory at half a copy's
 * speed. */
static __device__ inline float4
load_float4 (const float *p,
             bool         runs)
{
  if (runs)
    return *(const float4 *) p;
  return make_float4 (*p, *p, *p, *p);
}

template <typename Ops>
static __device__ inline float
binary_float (int op, float x, float y, int64_t alpha_i, typename Ops::C alpha, int use_alpha)
{
  return Ops::store (Ops::binary (op, Ops::load (x), Ops::load (y), alpha_i, alpha, use_alpha));
}

template <typename Ops>
static __global__ void
binary_float4_kernel (float          *out,
                      const float    *a,
                      const float    *b,
                      int             op,
                      int64_t         alpha_i,
                      typename Ops::C alpha,
                      int             use_alpha,
                      LtCudaShape4    shape,
                      int32_t         n)
{
  int last = shape.ndim - 1;
  bool a_runs = shape.strides[1][last] == 1, b_runs = shape.strides[2][last] == 1;
  int32_t n_vectors = n / 4;

  op = Ops::fixed_op >= 0 ? Ops::fixed_op : op;
  for (int32_t base = (int32_t) (blockIdx.x * blockDim.x * UNROLL + threadIdx.x); base < n_vectors;
       base += (int32_t) (gridDim.x * blockDim.x * UNROLL))
    {
      int32_t at[UNROLL][3];
      float4 x[UNROLL], y[UNROLL];

#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (int32_t) blockDim.x < n_vectors)
          {
            offsets4<3> (4 * (base + u * (int32_t) blockDim.x), shape, at[u]);
            x[u] = load_float4 (a + at[u][1], a_runs);
            y[u] = load_float4 (b + at[u][2], b_runs);
          }
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (int32_t) blockDim.x < n_vectors)
          {
            float4 r;

            r.x = binary_float<Ops> (op, x[u].x, y[u].x, alpha_i, alpha, use_alpha);
            r.y = binary_float<Ops> (op, x[u].y, y[u].y, alpha_i, alpha, use_alpha);
            r.z = binary_float<Ops> (op, x[u].z, y[u].z, alpha_i, alpha, use_alpha);
            r.w = binary_float<Ops> (op, x[u].w, y[u].w, alpha_i, alpha, use_alpha);
            *(float4 *) (out + at[u][0]) = r;
          }
    }
}

/* Whether binary_float4_kernel can take a launch over @shape of float32
 * operands at @bases (the output first) with 32-bit indices. */
static bool
runs_in_vectors (const LtCudaShape4 &shape,
                 const void *const   bases[3],
                 int64_t             n,
                 bool                narrow)
{
  int last = shape.ndim - 1;

  if (!narrow || last < 0 || shape.sizes[last] % 4 != 0 || n > INT32_MAX - 4
      || shape.strides[0][last] != 1)
    return false;
  for (int k = 0; k < 3; k++)
    {
      if (shape.strides[k][last] == 0)
        continue;
      if (shape.strides[k][last] != 1 || (uintptr_t) bases[k] % 16 != 0
          || shape.offsets[k] % 4 != 0)
        return false;
      for (int d = 0; d < last; d++)
        if (shape.strides[k][d] % 4 != 0)
          return false;
    }
  return true;
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

#define LAUNCH_ON(blocks, kernel, Ops, narrow, n, ...)                          \
  do                                                                             \
    {                                                                            \
      if (narrow)                                                                \
        LT_CUDA_LAUNCH ((blocks), threads_per_block, kernel<Ops, int32_t>) (     \
          __VA_ARGS__, (int32_t) (n));                                           \
      else                                                                       \
        LT_CUDA_LAUNCH ((blocks), threads_per_block, kernel<Ops, int64_t>) (     \
          __VA_ARGS__, (int64_t) (n));                                           \
    }                                                                            \
  while (0)
#define LAUNCH(kernel, Ops, narrow, n, ...)                                      \
  LAUNCH_ON (blocks_for (n), kernel, Ops, narrow, n, __VA_ARGS__)
#define LAUNCH_UNROLLED(kernel, Ops, narrow, n, ...)                             \
  LAUNCH_ON (blocks_for (((n) + UNROLL - 1) / UNROLL), kernel, Ops, narrow, n, __VA_ARGS__)

struct UnaryLaunch
{
  int op;
  void *out;
  const void *in;

  template <typename Ops>
  void
  run (const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    LAUNCH_UNROLLED (unary_kernel, Ops, narrow, n, (uint8_t *) out,
                     (const typename Ops::T *) in, op, shape);
  }
};

/* @Ops compiled for binary op @Op alone: the common arithmetic of
 * floating-point tensors runs without the switch over every op, whose
 * registers would otherwise limit how many threads a GPU keeps busy. */
template <typename Ops, int Op>
struct FixedOp : Ops
{
  static const int fixed_op = Op;
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
    if (Ops::kind == LT_PW_KIND_FLOAT && op == LT_K_ADD)
      launch<FixedOp<Ops, LT_K_ADD>> (alpha_c, shape, n, narrow);
    else if (Ops::kind == LT_PW_KIND_FLOAT && op == LT_K_SUB)
      launch<FixedOp<Ops, LT_K_SUB>> (alpha_c, shape, n, narrow);
    else if (Ops::kind == LT_PW_KIND_FLOAT && op == LT_K_MUL)
      launch<FixedOp<Ops, LT_K_MUL>> (alpha_c, shape, n, narrow);
    else if (Ops::kind == LT_PW_KIND_FLOAT && op == LT_K_DIV)
      launch<FixedOp<Ops, LT_K_DIV>> (alpha_c, shape, n, narrow);
    else
      launch<Ops> (alpha_c, shape, n, narrow);
  }

  template <typename Ops>
  void
  launch (typename Ops::C alpha_c, const LtCudaShape4 &shape, int64_t n, bool narrow) const
  {
    const void *bases[3] = { out, a, b };

    if constexpr (std::is_same<typename Ops::T, float>::value)
      if (!LT_K_BINARY_IS_PREDICATE (op) && runs_in_vectors (shape, bases, n, narrow))
        {
          LT_CUDA_LAUNCH (blocks_for ((n / 4 + UNROLL - 1) / UNROLL), threads_per_block,
                          binary_float4_kernel<Ops>) (
            (float *) out, (const float *) a, (const float *) b, op, alpha_i, alpha_c, use_alpha,
            shape, (int32_t) n);
          return;
        }
    LAUNCH_UNROLLED (binary_kernel, Ops, narrow, n, (uint8_t *) out,
                     (const typename Ops::T *) a, (const typename Ops::T *) b, op, alpha_i,
                     alpha_c, use_alpha, shape);
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
          const LtCudaShape4 *given,
          int64_t             n,
          int                 narrow)
{
  LtCudaShape4 divided = *given;
  const LtCudaShape4 *shape = &divided;

  lt_cuda_set_dividers (divided.sizes, divided.ndim, divided.div_magic, divided.div_shift);
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
