/* test-cuda-kernels.cu: the CUDA kernels on their own, against the host
 *
 * Needs nothing but nvcc and a CUDA device: no GLib, no libtensor. It
 * launches the copy, conversion, element-wise, reduce and random kernels of the CUDA
 * backend through their launchers (lt-cuda-private.h) on strided,
 * transposed and broadcast operands, with 32- and 64-bit index arithmetic,
 * and compares every element with the same rules (lt-kernel-convert.h,
 * lt-kernel-pointwise.h) compiled for the host: bit for bit, except where
 * the device's math library may round differently from the host's (exp,
 * sin, pow, ...), which must agree within the dtype's tolerance. The rules
 * themselves are checked against the CPU backend by the OpenCL tests.
 *
 * Exits 77 (skipped) where no CUDA device can be used. Build and run by
 * hand on a GPU machine with:
 *
 *   nvcc -std=c++17 -fmad=false -Ilibtensor -Ilibtensor/backends/cuda \
 *     tests/cuda/test-cuda-kernels.cu libtensor/backends/cuda/lt-cuda-copy.cu \
 *     libtensor/backends/cuda/lt-cuda-pointwise.cu \
 *     libtensor/backends/cuda/lt-cuda-reduce.cu \
 *     libtensor/backends/cuda/lt-cuda-random.cu -o test-cuda-kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-cuda-private.h"

/* The rules, compiled for the host. */
static inline float
host_as_float (uint32_t bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static inline uint32_t
host_as_uint (float f)
{
  uint32_t bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

namespace reference
{
#define LT_GLOBAL
#define LT_FUNCTION static inline
#define LT_AS_FLOAT(u) host_as_float ((uint32_t) (u))
#define LT_AS_UINT(f) host_as_uint ((float) (f))
typedef uint8_t lt_u8;
typedef int8_t lt_i8;
typedef uint16_t lt_u16;
typedef int16_t lt_i16;
typedef uint32_t lt_u32;
typedef int32_t lt_i32;
typedef int64_t lt_i64;
typedef uint64_t lt_u64;
#define LT_BOOL 0
#define LT_UINT8 1
#define LT_INT8 2
#define LT_INT16 3
#define LT_INT32 4
#define LT_INT64 5
#define LT_FLOAT16 6
#define LT_BFLOAT16 7
#define LT_FLOAT32 8
#define LT_FLOAT64 9
#define LT_COMPLEX64 10
#define LT_COMPLEX128 11
#define LT_CUDA_OPS_FUNCTION static inline
#include "backends/lt-kernel-convert.h"
#include "backends/lt-kernel-ops.h"
#define LT_KERNEL_REDUCE_WALK 1
#include "backends/lt-kernel-reduce.h"
#define LT_PHILOX_FUNCTION static inline
#include "lt-philox.h"
#define LT_NEXTAFTERF nextafterf
#include "backends/lt-kernel-random.h"
#include "backends/lt-kernel-linalg.h"
#include "lt-cuda-pointwise-dtypes.h"
} // namespace reference

using namespace reference;

#include "lt-cuda-reduce.h"

static int failures;

#define CHECK_CUDA(call)                                                          \
  do                                                                              \
    {                                                                             \
      cudaError_t status_ = (call);                                               \
      if (status_ != cudaSuccess)                                                 \
        {                                                                         \
          fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                   cudaGetErrorString (status_));                                 \
          exit (1);                                                               \
        }                                                                         \
    }                                                                             \
  while (0)

/* The operands: a (7, 5) tensor read transposed as (5, 7), a (5, 1) one
 * broadcast along the rows, a contiguous (5, 7) output. */
enum
{
  ROWS = 5,
  COLS = 7,
  N = ROWS * COLS,
};

static const double a_values[N] = {
  0.0, -0.0, 1.5, NAN, 3.0, 1e30, -1e30, 4611686018427387904.0, -7.0, 0.1, 2.5, INFINITY,
  -INFINITY, 0.5, -0.5, 100.0, -3.25, 7.0, 1.0, -1.0, 64.0, 0.001, -250.0, 12.0, 3.5, -2.0,
  1e-3, 9.0, -9.0, 0.75, 4.0, -4.0, 17.0, 0.2, -0.2,
};
/* No zeros: the integer divisions divide by these. */
static const double b_values[ROWS] = { 3.0, -2.0, 7.0, -1.0, 5.0 };

static LtCudaShape4
shape_of (void)
{
  LtCudaShape4 shape;

  memset (&shape, 0, sizeof shape);
  shape.ndim = 2;
  shape.sizes[0] = ROWS;
  shape.sizes[1] = COLS;
  shape.strides[0][0] = COLS; /* out */
  shape.strides[0][1] = 1;
  shape.strides[1][0] = 1;    /* a, transposed */
  shape.strides[1][1] = ROWS;
  shape.strides[2][0] = 1;    /* b, broadcast */
  shape.strides[2][1] = 0;
  shape.strides[3][0] = 1;    /* a third input like b */
  shape.strides[3][1] = 0;
  return shape;
}

/* Element (r, c) of an operand of @shape. */
static int64_t
at (const LtCudaShape4 &shape,
    int                 operand,
    int                 r,
    int                 c)
{
  return shape.offsets[operand] + r * shape.strides[operand][0] + c * shape.strides[operand][1];
}

template <typename Ops>
static void
fill_host (typename Ops::T *out,
           int              dtype,
           const double    *values,
           int              n)
{
  for (int i = 0; i < n; i++)
    {
      LtKernelValue v;

      v.kind = dtype >= LT_COMPLEX64 ? LT_KIND_COMPLEX : LT_KIND_FLOAT;
      v.i = 0;
      v.re = values[i];
      v.im = values[i] * 0.5 - 1.0;
      lt_kernel_store ((lt_u8 *) &out[i], dtype, v);
    }
}

template <typename T>
static T *
to_device (const T *host,
           size_t   n)
{
  T *device = NULL;

  CHECK_CUDA (cudaMalloc ((void **) &device, n * sizeof (T) + 16));
  CHECK_CUDA (cudaMemcpy (device, host, n * sizeof (T), cudaMemcpyHostToDevice));
  return device;
}

/* The parts of a result element as doubles: one for real types, two for
 * complex ones. */
static int
parts (const uint8_t *element,
       double        *out,
       int            dtype)
{
  LtKernelValue v = lt_kernel_load (element, dtype);

  out[0] = v.kind == LT_KIND_INT ? (double) v.i : v.re;
  out[1] = v.im;
  return v.kind == LT_KIND_COMPLEX ? 2 : 1;
}

static double
tolerance_of (int dtype)
{
  switch (dtype)
    {
    case LT_FLOAT16:
      return 1e-3;
    case LT_BFLOAT16:
      return 1e-2;
    case LT_FLOAT32:
    case LT_COMPLEX64:
      return 1e-5;
    default:
      return 1e-12;
    }
}

static bool
close_enough (double x,
              double y,
              double tolerance)
{
  if (x != x || y != y)
    return x != x && y != y;
  if (isinf (x) || isinf (y))
    return x == y;
  return fabs (x - y) <= tolerance + tolerance * fabs (y);
}

/* Compares @n device results with the host's, as bytes of @size unless
 * @approximate; the output dtype is @dtype. */
static void
compare (const char *what,
         const void *device_result,
         const void *host_result,
         int         n,
         size_t      size,
         int         dtype,
         bool        approximate)
{
  const uint8_t *got = (const uint8_t *) device_result, *want = (const uint8_t *) host_result;

  for (int i = 0; i < n; i++)
    {
      if (memcmp (got + i * size, want + i * size, size) == 0)
        continue;
      if (approximate || dtype >= LT_FLOAT16)
        {
          double x[2], y[2];
          int k = parts (got + i * size, x, dtype);
          bool ok = true;

          parts (want + i * size, y, dtype);
          /* Exact results may differ only in NaNs' sign and payload
           * (x86 makes negative NaNs, NVIDIA GPUs positive ones), part
           * by part. */
          for (int j = 0; j < k; j++)
            ok = ok && (approximate ? close_enough (x[j], y[j], tolerance_of (dtype))
                                    : (x[j] == y[j] && signbit (x[j]) == signbit (y[j]))
                                        || (x[j] != x[j] && y[j] != y[j]));
          if (ok)
            continue;
        }
      {
        double x[2] = { 0, 0 }, y[2] = { 0, 0 };
        int k = dtype >= LT_FLOAT16 ? parts (got + i * size, x, dtype) : 0;

        if (k > 0)
          parts (want + i * size, y, dtype);
        fprintf (stderr, "FAIL %s: element %d differs", what, i);
        for (int j = 0; j < k; j++)
          fprintf (stderr, "%s %a (%.17g) where the host has %a (%.17g)", j ? "," : ":", x[j],
                   x[j], y[j], y[j]);
        fprintf (stderr, "\n");
      }
      failures++;
      return;
    }
}

static bool
unary_is_approximate (int op,
                      int kind)
{
  /* CUDA's math functions are not the host's libm: erf, like exp to
   * sigmoid, differed from it by an ulp on an H100. */
  if ((op >= LT_K_EXP && op <= LT_K_SIGMOID) || op == LT_K_ERF)
    return true;
  return kind == LT_PW_KIND_COMPLEX && (op == LT_K_ABS || op == LT_K_SQRT || op == LT_K_RSQRT);
}

template <typename Ops>
static void
check_dtype (const char *name,
             int         dtype)
{
  typedef typename Ops::T T;
  typedef typename Ops::C C;
  T a[N], b[ROWS], host_out[N], device_out[N];
  uint8_t host_flags[N], device_flags[N];
  T *d_a, *d_b;
  uint8_t *d_out;
  char what[128];

  fill_host<Ops> (a, dtype, a_values, N);
  fill_host<Ops> (b, dtype, b_values, ROWS);
  d_a = to_device (a, N);
  d_b = to_device (b, ROWS);
  CHECK_CUDA (cudaMalloc ((void **) &d_out, N * 16));

  for (int narrow = 0; narrow < 2; narrow++)
    {
      LtCudaShape4 shape = shape_of ();

      for (int op = LT_K_ADD; op <= LT_K_BITWISE_XOR; op++)
        for (int use_alpha = 0; use_alpha < 2; use_alpha++)
          {
            bool predicate = LT_K_BINARY_IS_PREDICATE (op);
            size_t size = predicate ? 1 : sizeof (T);
            C alpha = Ops::load (b[1]);
            int64_t alpha_i = -2;

            for (int r = 0; r < ROWS; r++)
              for (int c = 0; c < COLS; c++)
                {
                  C x = Ops::load (a[at (shape, 1, r, c)]);
                  C y = Ops::load (b[at (shape, 2, r, c)]);
                  int k = (int) at (shape, 0, r, c);

                  if (predicate)
                    host_flags[k] = (uint8_t) Ops::compare (op, x, y);
                  else
                    host_out[k] = Ops::store (Ops::binary (op, x, y, alpha_i, alpha, use_alpha));
                }
            CHECK_CUDA (lt_cuda_launch_binary (dtype, op, d_out, d_a, d_b, alpha_i, &alpha,
                                               use_alpha, &shape, N, narrow));
            CHECK_CUDA (cudaMemcpy (predicate ? (void *) device_flags : (void *) device_out, d_out,
                                    N * size, cudaMemcpyDeviceToHost));
            snprintf (what, sizeof what, "%s binary op %d (alpha %d, narrow %d)", name, op,
                      use_alpha, narrow);
            compare (what, predicate ? (void *) device_flags : (void *) device_out,
                     predicate ? (void *) host_flags : (void *) host_out, N, size,
                     predicate ? LT_BOOL : dtype, op == LT_K_POW && Ops::kind != LT_PW_KIND_INT);
          }

      for (int op = LT_K_NEG; op <= LT_K_ERF; op++)
        {
          bool predicate = LT_K_UNARY_IS_PREDICATE (op);
          bool real_abs = Ops::kind == LT_PW_KIND_COMPLEX && op == LT_K_ABS;
          size_t size = predicate ? 1 : real_abs ? sizeof (typename Ops::R) : sizeof (T);
          int out_dtype = predicate ? LT_BOOL
                          : real_abs ? (dtype == LT_COMPLEX64 ? LT_FLOAT32 : LT_FLOAT64)
                                     : dtype;
          uint8_t host_bytes[N * 16];

          for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++)
              {
                C x = Ops::load (a[at (shape, 1, r, c)]);
                int k = (int) at (shape, 0, r, c);

                if (predicate)
                  host_bytes[k] = (uint8_t) Ops::test (op, x);
                else if (real_abs)
                  {
                    typename Ops::R value = Ops::abs_real (x);

                    memcpy (host_bytes + k * size, &value, size);
                  }
                else
                  {
                    T value = Ops::store (Ops::unary (op, x));

                    memcpy (host_bytes + k * size, &value, size);
                  }
              }
          CHECK_CUDA (lt_cuda_launch_unary (dtype, op, d_out, d_a, &shape, N, narrow));
          CHECK_CUDA (cudaMemcpy (device_out, d_out, N * size, cudaMemcpyDeviceToHost));
          snprintf (what, sizeof what, "%s unary op %d (narrow %d)", name, op, narrow);
          compare (what, device_out, host_bytes, N, size, out_dtype,
                   unary_is_approximate (op, Ops::kind));
        }

      /* lerp and clamp with b as both other inputs, where on a != 0. */
      for (int clamp = 0; clamp < 2; clamp++)
        {
          if ((clamp && Ops::kind == LT_PW_KIND_COMPLEX) || (!clamp && Ops::kind == LT_PW_KIND_INT))
            continue;
          for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++)
              {
                C x = Ops::load (a[at (shape, 1, r, c)]);
                C y = Ops::load (b[at (shape, 2, r, c)]);

                host_out[at (shape, 0, r, c)]
                  = Ops::store (clamp ? Ops::clamp (x, y, y) : Ops::lerp (x, y, y));
              }
          CHECK_CUDA (lt_cuda_launch_ternary (dtype, clamp, d_out, d_a, d_b, d_b, &shape, N,
                                              narrow));
          CHECK_CUDA (cudaMemcpy (device_out, d_out, N * sizeof (T), cudaMemcpyDeviceToHost));
          snprintf (what, sizeof what, "%s %s (narrow %d)", name, clamp ? "clamp" : "lerp",
                    narrow);
          compare (what, device_out, host_out, N, sizeof (T), dtype, false);
        }

      {
        uint8_t cond[N];
        uint8_t *d_cond;
        int host_found = 0, device_found = 0, *d_found;

        for (int i = 0; i < N; i++)
          cond[i] = !Ops::is_zero (Ops::load (a[i]));
        d_cond = to_device (cond, N);
        /* cond is laid out as a (transposed). */
        for (int r = 0; r < ROWS; r++)
          for (int c = 0; c < COLS; c++)
            host_out[at (shape, 0, r, c)] = cond[at (shape, 1, r, c)] ? a[at (shape, 1, r, c)]
                                                                      : b[at (shape, 2, r, c)];
        {
          LtCudaShape4 where_shape = shape;

          memcpy (where_shape.strides[1], shape.strides[1], sizeof shape.strides[1]);
          memcpy (where_shape.strides[2], shape.strides[1], sizeof shape.strides[1]);
          memcpy (where_shape.strides[3], shape.strides[2], sizeof shape.strides[2]);
          CHECK_CUDA (lt_cuda_launch_where (dtype, d_out, d_cond, d_a, d_b, &where_shape, N,
                                            narrow));
        }
        CHECK_CUDA (cudaMemcpy (device_out, d_out, N * sizeof (T), cudaMemcpyDeviceToHost));
        snprintf (what, sizeof what, "%s where (narrow %d)", name, narrow);
        compare (what, device_out, host_out, N, sizeof (T), dtype, false);

        for (int i = 0; i < N; i++)
          host_found |= Ops::is_zero (Ops::load (a[i]));
        CHECK_CUDA (cudaMalloc ((void **) &d_found, sizeof (int)));
        CHECK_CUDA (cudaMemset (d_found, 0, sizeof (int)));
        CHECK_CUDA (lt_cuda_launch_any_zero (dtype, d_a, d_found, &shape, N, narrow));
        CHECK_CUDA (cudaMemcpy (&device_found, d_found, sizeof (int), cudaMemcpyDeviceToHost));
        if (device_found != host_found)
          {
            fprintf (stderr, "FAIL %s any_zero: %d, expected %d\n", name, device_found,
                     host_found);
            failures++;
          }
        cudaFree (d_found);
        cudaFree (d_cond);
      }
    }
  cudaFree (d_a);
  cudaFree (d_b);
  cudaFree (d_out);
  printf ("ok %s element-wise kernels\n", name);
}

/* Copies and conversions: a transposed float64 copy, and float64 into
 * every dtype through the conversion kernel. */
/* A (4, 12) launch into a contiguous (4, 12) destination, from rows
 * @src_row_stride apart starting at element @src_offset. */
static void
contiguous_rows (LtCudaShape *shape,
                 int64_t      src_row_stride,
                 int64_t      src_offset)
{
  memset (shape, 0, sizeof *shape);
  shape->ndim = 2;
  shape->sizes[0] = 4;
  shape->sizes[1] = 12;
  shape->dst_strides[0] = 12;
  shape->dst_strides[1] = 1;
  shape->src_strides[0] = src_row_stride;
  shape->src_strides[1] = 1;
  shape->src_offset = src_offset;
}

static void
check_copies (void)
{
  double a[N], host[N], device[N];
  double *d_a, *d_out;
  LtCudaShape copy;

  memcpy (a, a_values, sizeof a);
  d_a = to_device (a, N);
  CHECK_CUDA (cudaMalloc ((void **) &d_out, N * 16));
  memset (&copy, 0, sizeof copy);
  copy.ndim = 2;
  copy.sizes[0] = ROWS;
  copy.sizes[1] = COLS;
  copy.dst_strides[0] = COLS;
  copy.dst_strides[1] = 1;
  copy.src_strides[0] = 1;
  copy.src_strides[1] = ROWS;
  for (int narrow = 0; narrow < 2; narrow++)
    {
      for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
          host[r * COLS + c] = a[c * ROWS + r];
      CHECK_CUDA (lt_cuda_launch_copy (d_out, d_a, sizeof (double), &copy, N, narrow));
      CHECK_CUDA (cudaMemcpy (device, d_out, sizeof device, cudaMemcpyDeviceToHost));
      compare ("transposed copy", device, host, N, sizeof (double), LT_FLOAT64, false);

      for (int dtype = LT_BOOL; dtype <= LT_COMPLEX128; dtype++)
        {
          static const int sizes[] = { 1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16 };
          uint8_t host_bytes[N * 16], device_bytes[N * 16];
          char what[64];

          for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++)
              lt_kernel_store (host_bytes + (r * COLS + c) * sizes[dtype], dtype,
                               lt_kernel_load ((const lt_u8 *) &a[c * ROWS + r], LT_FLOAT64));
          CHECK_CUDA (lt_cuda_launch_cast (d_out, dtype, sizes[dtype], d_a, LT_FLOAT64, 8, &copy,
                                           N, narrow));
          CHECK_CUDA (cudaMemcpy (device_bytes, d_out, N * sizes[dtype], cudaMemcpyDeviceToHost));
          snprintf (what, sizeof what, "float64 to dtype %d (narrow %d)", dtype, narrow);
          compare (what, device_bytes, host_bytes, N, sizes[dtype], dtype, false);
        }
    }
  /* Buffers that start past an allocation's boundary: 4 bytes, as a
   * DLPack import of torch_tensor[1:] does, and 1, 2 or 8 bytes, as a view
   * of such memory as another dtype can. No access may be wider than the
   * alignment there (a GPU faults on a misaligned load; the host
   * emulation's UBSan traps it). A contiguous (4, 12) copy and fill of
   * elements of 2 to 16 bytes at each such offset below their size. */
  for (size_t size = 2; size <= 16; size *= 2)
    for (size_t skew = 1; skew < size; skew *= 2)
      {
        uint8_t source[49 * 16], host_bytes[48 * 16], device_bytes[48 * 16];
        uint8_t value[16];
        uint8_t *d_source, *d_target;
        LtCudaShape shape;
        char what[96];

        for (size_t i = 0; i < sizeof source; i++)
          source[i] = (uint8_t) (i * 7 + 3);
        for (size_t i = 0; i < size; i++)
          value[i] = (uint8_t) (0xa0 + i);
        d_source = to_device (source, sizeof source);
        CHECK_CUDA (cudaMalloc ((void **) &d_target, sizeof source));
        contiguous_rows (&shape, 12, 0);
        memcpy (host_bytes, source + skew, 48 * size);
        for (int narrow = 0; narrow < 2; narrow++)
          {
            CHECK_CUDA (lt_cuda_launch_copy (d_target + skew, d_source + skew, size, &shape, 48,
                                             narrow));
            CHECK_CUDA (cudaMemcpy (device_bytes, d_target + skew, 48 * size,
                                    cudaMemcpyDeviceToHost));
            snprintf (what, sizeof what, "copy of %zu-byte elements %zu bytes off (narrow %d)",
                      size, skew, narrow);
            compare (what, device_bytes, host_bytes, (int) (48 * size), 1, LT_UINT8, false);
          }
        for (int i = 0; i < 48; i++)
          memcpy (host_bytes + i * size, value, size);
        CHECK_CUDA (lt_cuda_launch_fill (d_target + skew, value, size, &shape, 48, 1));
        CHECK_CUDA (cudaMemcpy (device_bytes, d_target + skew, 48 * size,
                                cudaMemcpyDeviceToHost));
        snprintf (what, sizeof what, "fill of %zu-byte elements %zu bytes off", size, skew);
        compare (what, device_bytes, host_bytes, (int) (48 * size), 1, LT_UINT8, false);
        CHECK_CUDA (cudaFree (d_source));
        CHECK_CUDA (cudaFree (d_target));
      }
  /* Contiguous rows, moved 16 bytes a thread: (4, 12) float32 out of a
   * (4, 16) buffer from element 4 of each row, into a (4, 12) one; and a
   * fill of the same. */
  {
    float rows[64], host_rows[48], device_rows[48];
    float *d_rows, *d_dst;
    float value = -2.5f;
    LtCudaShape shape;

    for (int i = 0; i < 64; i++)
      rows[i] = (float) i * 0.5f;
    d_rows = to_device (rows, 64);
    CHECK_CUDA (cudaMalloc ((void **) &d_dst, sizeof host_rows));
    contiguous_rows (&shape, 16, 4);
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 12; c++)
        host_rows[r * 12 + c] = rows[4 + r * 16 + c];
    for (int narrow = 0; narrow < 2; narrow++)
      {
        CHECK_CUDA (cudaMemset (d_dst, 0, sizeof host_rows));
        CHECK_CUDA (lt_cuda_launch_copy (d_dst, d_rows, sizeof (float), &shape, 48, narrow));
        CHECK_CUDA (cudaMemcpy (device_rows, d_dst, sizeof device_rows, cudaMemcpyDeviceToHost));
        compare ("contiguous rows", device_rows, host_rows, 48, sizeof (float), LT_FLOAT32,
                 false);
      }
    for (int i = 0; i < 48; i++)
      host_rows[i] = value;
    CHECK_CUDA (lt_cuda_launch_fill (d_dst, &value, sizeof (float), &shape, 48, 1));
    CHECK_CUDA (cudaMemcpy (device_rows, d_dst, sizeof device_rows, cudaMemcpyDeviceToHost));
    compare ("contiguous fill", device_rows, host_rows, 48, sizeof (float), LT_FLOAT32, false);
    cudaFree (d_rows);
    cudaFree (d_dst);
  }

  cudaFree (d_a);
  cudaFree (d_out);
  printf ("ok copies and conversions\n");
}

/* @args and @shape, zeroed, for a launch over one kept dim of @kept
 * elements (source stride @kept_src, destination stride @kept_dst) and one
 * reduced dim of @reduced elements (source stride @reduced_src; a line's
 * destination stride @line_dst), from float64 into float64: callers
 * change what differs. */
static void
one_kept_one_reduced (LtReduceArgs  *args,
                      LtReduceShape *shape,
                      int64_t        kept,
                      int64_t        kept_src,
                      int64_t        kept_dst,
                      int64_t        reduced,
                      int64_t        reduced_src,
                      int64_t        line_dst)
{
  memset (args, 0, sizeof *args);
  memset (shape, 0, sizeof *shape);
  shape->n_kept = 1;
  shape->n_reduced = 1;
  shape->kept_sizes[0] = kept;
  shape->kept_src_strides[0] = kept_src;
  shape->kept_dst_strides[0] = kept_dst;
  shape->reduced_sizes[0] = reduced;
  shape->reduced_src_strides[0] = reduced_src;
  shape->line_dst_stride = line_dst;
  args->n_out = kept;
  args->n_reduced = reduced;
  args->dst_dtype = args->src_dtype = LT_FLOAT64;
  args->dst_size = args->src_size = 8;
  args->has_dst = 1;
}

/* Reductions of a transposed float64 (5, 7) view over each dim, and of an
 * int32 one, by every op, against the same walk on the host. */
static void
check_reductions (void)
{
  static const int ops[] = { LT_KR_SUM, LT_KR_PROD, LT_KR_MEAN, LT_KR_AMAX, LT_KR_AMIN,
                             LT_KR_ALL, LT_KR_ANY, LT_KR_LOGSUMEXP, LT_KR_VAR, LT_KR_STD,
                             LT_KR_NORM, LT_KR_MAX_INDEX, LT_KR_MIN_INDEX };
  double a[N];
  int32_t ints[N];
  double *d_a;
  int32_t *d_ints;
  uint8_t *d_out;
  int64_t *d_indices;

  memcpy (a, a_values, sizeof a);
  for (int i = 0; i < N; i++)
    ints[i] = (int32_t) (isfinite (a_values[i]) && fabs (a_values[i]) < 1e6 ? a_values[i] * 4 : i);
  d_a = to_device (a, N);
  d_ints = to_device (ints, N);
  CHECK_CUDA (cudaMalloc ((void **) &d_out, 20000 * 16));
  CHECK_CUDA (cudaMalloc ((void **) &d_indices, 20000 * sizeof (int64_t)));

  for (int integral = 0; integral < 2; integral++)
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (int reduced = 0; reduced < 2; reduced++)
        {
          LtReduceArgs args;
          LtReduceShape shape;
          const uint8_t *src = integral ? (const uint8_t *) ints : (const uint8_t *) a;
          uint8_t host_out[N * 8], device_out[N * 8];
          int64_t host_indices[N], device_indices[N];
          bool integer_result;
          char what[96];

          /* The (5, 7) view reads element (r, c) at c * 5 + r. */
          one_kept_one_reduced (&args, &shape, reduced ? ROWS : COLS, reduced ? 1 : ROWS, 1,
                                reduced ? COLS : ROWS, reduced ? ROWS : 1, 0);
          args.correction = 1;
          args.p = 2;
          args.op = ops[o];
          integer_result = integral && (ops[o] <= LT_KR_AMIN || ops[o] >= LT_KR_MAX_INDEX)
                           && ops[o] != LT_KR_MEAN;
          args.dst_dtype = ops[o] == LT_KR_ALL || ops[o] == LT_KR_ANY ? LT_BOOL
                           : integer_result                            ? LT_INT64
                                                                       : LT_FLOAT64;
          args.dst_size = args.dst_dtype == LT_BOOL ? 1 : 8;
          args.src_dtype = integral ? LT_INT32 : LT_FLOAT64;
          args.src_size = integral ? 4 : 8;
          args.integral = integral;
          args.has_indices = ops[o] >= LT_KR_MAX_INDEX;

          for (int64_t k = 0; k < args.n_out; k++)
            lt_reduce_output (k, &args, &shape, host_out, host_indices, src);
          CHECK_CUDA (lt_cuda_launch_reduce (d_out, d_indices, integral ? (void *) d_ints : d_a,
                                             &args, &shape));
          CHECK_CUDA (cudaMemcpy (device_out, d_out, args.n_out * args.dst_size,
                                  cudaMemcpyDeviceToHost));
          CHECK_CUDA (cudaMemcpy (device_indices, d_indices, args.n_out * sizeof (int64_t),
                                  cudaMemcpyDeviceToHost));
          snprintf (what, sizeof what, "reduction %d over dim %d of %s", ops[o], reduced,
                    integral ? "int32" : "float64");
          compare (what, device_out, host_out, (int) args.n_out, args.dst_size, args.dst_dtype,
                   args.dst_dtype == LT_FLOAT64);
          if (args.has_indices)
            compare (what, device_indices, host_indices, (int) args.n_out, sizeof (int64_t),
                     LT_INT64, false);
        }
  /* Long reductions, each row summed, searched and measured along its
   * contiguous length, and the same along the strided dim: 3 rows of 3000
   * (a block per output), 2 rows of 20000 (cut into parts, each a block,
   * joined by the combining kernel), and 200 rows of 40 along the strided
   * dim (parts of 64 or more elements a thread, joined likewise). */
  for (int variant = 0; variant < 3; variant++)
  {
    static const int variants[][2] = { { 3, 3000 }, { 2, 20000 }, { 200, 40 } };
    enum { MAX_VALUES = 40000, MAX_OUT = 20000 };
    const int LONG_ROWS = variants[variant][0], LONG = variants[variant][1];
    static double values[MAX_VALUES];
    double *d_values;

    for (int i = 0; i < LONG_ROWS * LONG; i++)
      values[i] = sin (i * 0.37) * 100 + (i % 7);
    values[1234 % (LONG_ROWS * LONG)] = 500;
    values[(LONG_ROWS - 1) * LONG + 77 % LONG] = -500;
    d_values = to_device (values, LONG_ROWS * LONG);
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (int strided = 0; strided < 2; strided++)
        {
          LtReduceArgs args;
          LtReduceShape shape;
          static double host_out[MAX_OUT], device_out[MAX_OUT];
          static int64_t host_indices[MAX_OUT], device_indices[MAX_OUT];
          char what[96];

          one_kept_one_reduced (&args, &shape, strided ? LONG : LONG_ROWS, strided ? 1 : LONG, 1,
                                strided ? LONG_ROWS : LONG, strided ? LONG : 1, 0);
          args.correction = 1;
          args.p = 3;
          args.op = ops[o];
          args.dst_dtype = ops[o] == LT_KR_ALL || ops[o] == LT_KR_ANY ? LT_BOOL : LT_FLOAT64;
          args.dst_size = args.dst_dtype == LT_BOOL ? 1 : 8;
          args.has_indices = ops[o] >= LT_KR_MAX_INDEX;
          for (int64_t k = 0; k < args.n_out; k++)
            lt_reduce_output (k, &args, &shape, (uint8_t *) host_out, host_indices,
                              (const uint8_t *) values);
          CHECK_CUDA (lt_cuda_launch_reduce (d_out, d_indices, d_values, &args, &shape));
          CHECK_CUDA (cudaMemcpy (device_out, d_out, args.n_out * args.dst_size,
                                  cudaMemcpyDeviceToHost));
          CHECK_CUDA (cudaMemcpy (device_indices, d_indices, args.n_out * sizeof (int64_t),
                                  cudaMemcpyDeviceToHost));
          snprintf (what, sizeof what, "long reduction %d (strided %d) of %d rows of %d", ops[o],
                    strided, LONG_ROWS, LONG);
          compare (what, device_out, host_out, (int) args.n_out, args.dst_size, args.dst_dtype,
                   args.dst_dtype == LT_FLOAT64);
          if (args.has_indices)
            compare (what, device_indices, host_indices, (int) args.n_out, sizeof (int64_t),
                     LT_INT64, false);
        }
    cudaFree (d_values);
  }

  /* Lines: running sums and products, softmaxes, along each dim of the
   * float64 view, into a contiguous (5, 7) result. */
  for (int op = 0; op < 4; op++)
    for (int along = 0; along < 2; along++)
      {
        static const int line_ops[] = { LT_KR_SUM, LT_KR_PROD, LT_KR_SOFTMAX, LT_KR_LOG_SOFTMAX };
        LtReduceArgs args;
        LtReduceShape shape;
        double host_out[N], device_out[N];
        char what[64];

        one_kept_one_reduced (&args, &shape, along ? ROWS : COLS, along ? 1 : ROWS,
                              along ? COLS : 1, along ? COLS : ROWS, along ? ROWS : 1,
                              along ? 1 : COLS);
        args.op = line_ops[op];
        for (int64_t k = 0; k < args.n_out; k++)
          lt_line_output (k, &args, &shape, (uint8_t *) host_out, (const uint8_t *) a);
        CHECK_CUDA (lt_cuda_launch_lines (d_out, d_a, &args, &shape));
        CHECK_CUDA (cudaMemcpy (device_out, d_out, sizeof device_out, cudaMemcpyDeviceToHost));
        snprintf (what, sizeof what, "line op %d along %d", line_ops[op], along);
        compare (what, device_out, host_out, N, sizeof (double), LT_FLOAT64, true);
      }

  /* Lines of 3000, a block each: softmaxes (joined in shared memory) and
   * running sums and products (scanned in shared memory, in two chunks
   * of 8 elements a thread), 3 lines along the contiguous dim. The scans take values near
   * 1, whose products neither overflow nor vanish. */
  {
    enum { LINES = 3, LINE = 3000 };
    static const int block_ops[] = { LT_KR_SOFTMAX, LT_KR_LOG_SOFTMAX, LT_KR_SUM, LT_KR_PROD };
    static double values[LINES * LINE], near_one[LINES * LINE];
    static double host_out[LINES * LINE], device_out[LINES * LINE];
    double *d_values, *d_near_one, *d_lines;

    for (int i = 0; i < LINES * LINE; i++)
      {
        values[i] = cos (i * 0.11) * 20 + (i % 13);
        near_one[i] = 1 + 0.01 * sin (i * 0.23);
      }
    d_values = to_device (values, LINES * LINE);
    d_near_one = to_device (near_one, LINES * LINE);
    CHECK_CUDA (cudaMalloc ((void **) &d_lines, sizeof device_out));
    for (unsigned op = 0; op < sizeof block_ops / sizeof block_ops[0]; op++)
      {
        bool scan = block_ops[op] == LT_KR_SUM || block_ops[op] == LT_KR_PROD;
        LtReduceArgs args;
        LtReduceShape shape;
        char what[64];

        one_kept_one_reduced (&args, &shape, LINES, LINE, LINE, LINE, 1, 1);
        args.op = block_ops[op];
        for (int64_t k = 0; k < args.n_out; k++)
          lt_line_output (k, &args, &shape, (uint8_t *) host_out,
                          (const uint8_t *) (scan ? near_one : values));
        CHECK_CUDA (lt_cuda_launch_lines (d_lines, scan ? d_near_one : d_values, &args, &shape));
        CHECK_CUDA (cudaMemcpy (device_out, d_lines, sizeof device_out, cudaMemcpyDeviceToHost));
        snprintf (what, sizeof what, "line op %d over lines of %d", args.op, LINE);
        compare (what, device_out, host_out, LINES * LINE, sizeof (double), LT_FLOAT64, true);
      }
    CHECK_CUDA (cudaFree (d_values));
    CHECK_CUDA (cudaFree (d_near_one));
    CHECK_CUDA (cudaFree (d_lines));
  }

  /* allclose of the values with themselves (NaN equal) and a shifted copy. */
  for (int shifted = 0; shifted < 2; shifted++)
    {
      LtReduceArgs args;
      LtReduceShape shape;
      int host_close = 1, device_close = 1, *d_close;

      memset (&args, 0, sizeof args);
      memset (&shape, 0, sizeof shape);
      shape.n_kept = 1;
      shape.kept_sizes[0] = shifted ? N - 1 : N;
      shape.kept_src_strides[0] = 1;
      shape.kept_dst_strides[0] = 1;
      args.n_out = shape.kept_sizes[0];
      args.dst_offset = shifted;
      args.dst_dtype = args.src_dtype = LT_FLOAT64;
      args.dst_size = args.src_size = 8;
      args.rtol = 1e-5;
      args.atol = 1e-8;
      args.equal_nan = 1;
      for (int64_t k = 0; k < args.n_out; k++)
        host_close &= lt_allclose_element (k, &args, &shape, (const uint8_t *) a,
                                           (const uint8_t *) a);
      CHECK_CUDA (cudaMalloc ((void **) &d_close, sizeof (int)));
      CHECK_CUDA (cudaMemcpy (d_close, &device_close, sizeof (int), cudaMemcpyHostToDevice));
      CHECK_CUDA (lt_cuda_launch_allclose (d_a, d_a, d_close, &args, &shape));
      CHECK_CUDA (cudaMemcpy (&device_close, d_close, sizeof (int), cudaMemcpyDeviceToHost));
      cudaFree (d_close);
      if (device_close != host_close || host_close != !shifted)
        {
          fprintf (stderr, "FAIL allclose (shifted %d): device %d, host %d\n", shifted,
                   device_close, host_close);
          failures++;
        }
    }

  cudaFree (d_a);
  cudaFree (d_ints);
  cudaFree (d_out);
  cudaFree (d_indices);
  printf ("ok reductions, scans, softmax and allclose\n");
}

/* Random fills of a transposed (5, 7) view, every distribution, against
 * the same elements computed on the host. */
static void
check_random (void)
{
  static const struct
  {
    int distribution, dtype, size;
  } cases[] = {
    { LT_KRAND_UNIFORM, LT_FLOAT32, 4 }, { LT_KRAND_UNIFORM, LT_FLOAT64, 8 },
    { LT_KRAND_UNIFORM, LT_FLOAT16, 2 }, { LT_KRAND_UNIFORM, LT_COMPLEX64, 8 },
    { LT_KRAND_NORMAL, LT_FLOAT32, 4 },  { LT_KRAND_NORMAL, LT_FLOAT64, 8 },
    { LT_KRAND_NORMAL, LT_COMPLEX128, 16 }, { LT_KRAND_INTEGER, LT_INT64, 8 },
    { LT_KRAND_INTEGER, LT_INT32, 4 },   { LT_KRAND_BERNOULLI, LT_FLOAT32, 4 },
  };
  uint8_t *d_out;

  CHECK_CUDA (cudaMalloc ((void **) &d_out, N * 16));
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      LtRandomArgs args;
      uint8_t host_out[N * 16], device_out[N * 16];
      bool is_complex = cases[c].dtype >= LT_COMPLEX64;
      char what[64];

      memset (&args, 0, sizeof args);
      args.seed = 0x1234567890abcdefull;
      args.counter = 77;
      args.low = cases[c].dtype == LT_INT64 ? -(1ll << 40) : -5;
      args.high = cases[c].dtype == LT_INT64 ? 1ll << 41 : 100;
      args.a = cases[c].distribution == LT_KRAND_BERNOULLI ? 0.3 : -2.0;
      args.b = 3.0;
      args.n = N;
      args.ndim = 2;
      args.sizes[0] = ROWS;
      args.sizes[1] = COLS;
      args.dst_strides[0] = 1;
      args.dst_strides[1] = ROWS;
      args.distribution = cases[c].distribution;
      args.dst_dtype = cases[c].dtype;
      args.real_dtype = cases[c].dtype == LT_COMPLEX64    ? LT_FLOAT32
                        : cases[c].dtype == LT_COMPLEX128 ? LT_FLOAT64
                                                          : cases[c].dtype;
      args.real_size = is_complex ? cases[c].size / 2 : cases[c].size;
      args.is_complex = is_complex;
      args.per_block = cases[c].distribution == LT_KRAND_INTEGER
                         ? (cases[c].dtype == LT_INT64 ? 2 : 4)
                       : cases[c].distribution == LT_KRAND_BERNOULLI ? 2
                       : args.real_dtype == LT_FLOAT64               ? 2
                                                                     : 4;
      for (int64_t i = 0; i < N; i++)
        lt_random_element (i, &args, host_out, host_out);
      CHECK_CUDA (lt_cuda_launch_random_fill (d_out, d_out, &args));
      CHECK_CUDA (cudaMemcpy (device_out, d_out, N * cases[c].size, cudaMemcpyDeviceToHost));
      snprintf (what, sizeof what, "random distribution %d of dtype %d",
                cases[c].distribution, cases[c].dtype);
      compare (what, device_out, host_out, N, cases[c].size, cases[c].dtype,
               cases[c].distribution == LT_KRAND_NORMAL);
    }
  cudaFree (d_out);
  printf ("ok random fills\n");
}

/* A batch of two products of the transposed float64 view's rows, and an
 * int32 one, against the host. */
static void
check_matmul (void)
{
  double a[N], host_out[2 * ROWS * ROWS], device_out[2 * ROWS * ROWS];
  double *d_a, *d_out;
  LtMatmulArgs args;

  for (int i = 0; i < N; i++)
    a[i] = isfinite (a_values[i]) && fabs (a_values[i]) < 1e6 ? a_values[i] : i * 0.5;
  d_a = to_device (a, N);
  CHECK_CUDA (cudaMalloc ((void **) &d_out, sizeof host_out));
  /* out[batch] (5 x 5) = A (5 x 7) @ A^T (7 x 5), A[r, c] = a[c * 5 + r];
   * the second batch entry reads A shifted by one element. */
  memset (&args, 0, sizeof args);
  args.batch_ndim = 1;
  args.batch_sizes[0] = 2;
  args.out_batch_strides[0] = ROWS * ROWS;
  args.a_batch_strides[0] = 1;
  args.b_batch_strides[0] = 1;
  args.out_row = ROWS;
  args.out_col = 1;
  args.a_row = 1;
  args.a_col = ROWS;
  args.b_row = ROWS;
  args.b_col = 1;
  args.m = ROWS - 1;
  args.n = ROWS - 1;
  args.k = COLS;
  args.n_out = 2 * args.m * args.n;
  args.dtype = LT_FLOAT64;
  args.size = 8;
  memset (host_out, 0, sizeof host_out);
  for (int64_t o = 0; o < args.n_out; o++)
    lt_matmul_element (o, &args, (uint8_t *) host_out, (const uint8_t *) a, (const uint8_t *) a);
  CHECK_CUDA (cudaMemset (d_out, 0, sizeof host_out));
  CHECK_CUDA (lt_cuda_launch_matmul (d_out, d_a, d_a, &args));
  CHECK_CUDA (cudaMemcpy (device_out, d_out, sizeof device_out, cudaMemcpyDeviceToHost));
  compare ("batched float64 matmul", device_out, host_out, 2 * ROWS * ROWS, sizeof (double),
           LT_FLOAT64, false);
  cudaFree (d_a);
  cudaFree (d_out);
  printf ("ok matrix products\n");
}

int
main (void)
{
  int n_devices = 0;

  if (cudaGetDeviceCount (&n_devices) != cudaSuccess || n_devices == 0)
    {
      printf ("skipped: no CUDA device\n");
      return 77;
    }
  {
    cudaDeviceProp properties;

    CHECK_CUDA (cudaGetDeviceProperties (&properties, 0));
    printf ("# %s\n", properties.name);
  }
  check_copies ();
  check_reductions ();
  check_random ();
  check_matmul ();
  check_dtype<OpsBool> ("bool", LT_BOOL);
  check_dtype<OpsUInt8> ("uint8", LT_UINT8);
  check_dtype<OpsInt8> ("int8", LT_INT8);
  check_dtype<OpsInt16> ("int16", LT_INT16);
  check_dtype<OpsInt32> ("int32", LT_INT32);
  check_dtype<OpsInt64> ("int64", LT_INT64);
  check_dtype<OpsFloat16> ("float16", LT_FLOAT16);
  check_dtype<OpsBFloat16> ("bfloat16", LT_BFLOAT16);
  check_dtype<OpsFloat32> ("float32", LT_FLOAT32);
  check_dtype<OpsFloat64> ("float64", LT_FLOAT64);
  check_dtype<OpsComplex64> ("complex64", LT_COMPLEX64);
  check_dtype<OpsComplex128> ("complex128", LT_COMPLEX128);
  if (failures > 0)
    {
      fprintf (stderr, "%d failures\n", failures);
      return 1;
    }
  return 0;
}
