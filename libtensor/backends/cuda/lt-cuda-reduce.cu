/* lt-cuda-reduce.cu: reductions, scans, softmax and allclose on CUDA
 *
 * Every reduction by the accumulators the CPU uses (lt-kernel-reduce.h):
 * short ones one output element per thread in row-major order, long ones a
 * block per output element joined by a warp-shuffle tree, and long ones
 * that would leave the GPU idle split into parts whose partials are joined
 * in order; scans and softmaxes one line per thread; allclose one element per thread into one flag; matrix products
 * one output element per thread (lt-kernel-linalg.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <stdint.h>

#include "lt-cuda-kernels.h"
#include "lt-cuda-reduce.h"

/* Long reductions are split: the reduced elements of each output are cut
 * into @n_parts runs, each run reduced on its own (by a thread or by a
 * block) into partials[o * n_parts + part], and the partials of each
 * output joined in order by combine_kernel. So a reduction to one value
 * (a sum of everything) or to few long columns still fills the GPU. */

/* The range of reduced elements that part @part of @n_parts reduces. */
static __device__ inline void
part_range (const LtReduceArgs &args,
            int64_t             part,
            int64_t             n_parts,
            int64_t            &begin,
            int64_t            &end)
{
  int64_t chunk = (args.n_reduced + n_parts - 1) / n_parts;

  begin = part * chunk;
  end = begin + chunk < args.n_reduced ? begin + chunk : args.n_reduced;
}

/* Short reductions, or many outputs: a thread per output and part. */
static __global__ void
reduce_kernel (uint8_t        *dst,
               int64_t        *indices,
               const uint8_t  *src,
               LtReduceArgs    args,
               LtReduceShape   shape,
               LtReduceAcc    *partials,
               int64_t         n_parts)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    {
      int64_t at_src = args.src_offset, at_out = 0, begin, end;
      LtReduceAcc acc;

      if (partials == NULL)
        {
          lt_reduce_output (o, &args, &shape, dst, indices, src);
          continue;
        }
      part_range (args, blockIdx.y, n_parts, begin, end);
      lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
      lt_reduce_init (args.op, args.p, &acc);
      lt_reduce_accumulate_range (&args, &shape, src, at_src, begin, end, 1, &acc);
      partials[o * n_parts + blockIdx.y] = acc;
    }
}

/* @acc of the lane @offset above, for a warp-shuffle tree. */
static __device__ inline LtReduceAcc
shuffle_down (const LtReduceAcc &acc,
              int                offset)
{
  LtReduceAcc other;

  other.re = __shfl_down_sync (0xffffffffu, acc.re, offset);
  other.im = __shfl_down_sync (0xffffffffu, acc.im, offset);
  other.m2 = __shfl_down_sync (0xffffffffu, acc.m2, offset);
  other.m2_im = __shfl_down_sync (0xffffffffu, acc.m2_im, offset);
  other.i = __shfl_down_sync (0xffffffffu, (long long) acc.i, offset);
  other.n = __shfl_down_sync (0xffffffffu, (long long) acc.n, offset);
  return other;
}

/* Lane 0 ends with the partial of the whole warp. */
static __device__ inline void
warp_combine (const LtReduceArgs &args,
              LtReduceAcc        &acc)
{
  for (int offset = 16; offset > 0; offset /= 2)
    {
      LtReduceAcc other = shuffle_down (acc, offset);

      lt_reduce_combine (args.op, args.p, args.integral, args.is_complex, &acc, &other);
    }
}

/* Long reductions: a block per output and part. Each thread accumulates
 * the part's elements threadIdx.x, threadIdx.x + blockDim.x, ...
 * (neighbouring threads read neighbouring elements where the reduced dim
 * is contiguous), then the partials meet in a warp-shuffle tree, warp by
 * warp and across the warps' results. blockDim.x is a multiple of 32, at
 * most 1024. */
static __global__ void
reduce_block_kernel (uint8_t        *dst,
                     int64_t        *indices,
                     const uint8_t  *src,
                     LtReduceArgs    args,
                     LtReduceShape   shape,
                     LtReduceAcc    *partials,
                     int64_t         n_parts)
{
  __shared__ LtReduceAcc warp_partials[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, n_warps = blockDim.x / 32;
  int64_t begin, end;

  part_range (args, blockIdx.y, n_parts, begin, end);
  for (int64_t o = blockIdx.x; o < args.n_out; o += gridDim.x)
    {
      int64_t at_src = args.src_offset, at_out = 0;
      LtReduceAcc acc;

      lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
      lt_reduce_init (args.op, args.p, &acc);
      lt_reduce_accumulate_range (&args, &shape, src, at_src, begin + threadIdx.x, end,
                                  blockDim.x, &acc);
      warp_combine (args, acc);
      if (lane == 0)
        warp_partials[warp] = acc;
      __syncthreads ();
      if (warp == 0)
        {
          if (lane < n_warps)
            acc = warp_partials[lane];
          else
            lt_reduce_init (args.op, args.p, &acc);
          warp_combine (args, acc);
          if (lane == 0 && partials != NULL)
            partials[o * n_parts + blockIdx.y] = acc;
          else if (lane == 0)
            lt_reduce_store (&args, &acc, at_out, dst, indices);
        }
      /* warp_partials is reused by the next output. */
      __syncthreads ();
    }
}

/* Each output's partials joined in order, and the result stored. */
static __global__ void
combine_kernel (uint8_t            *dst,
                int64_t            *indices,
                LtReduceArgs        args,
                LtReduceShape       shape,
                const LtReduceAcc  *partials,
                int64_t             n_parts)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    {
      int64_t at_src = 0, at_out = 0;
      LtReduceAcc acc = partials[o * n_parts];

      for (int64_t part = 1; part < n_parts; part++)
        lt_reduce_combine (args.op, args.p, args.integral, args.is_complex, &acc,
                           &partials[o * n_parts + part]);
      lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
      lt_reduce_store (&args, &acc, at_out, dst, indices);
    }
}

/* Whether a block per output element pays: long reductions, where a thread
 * per output would leave the GPU mostly idle or read across memory. */
static bool
use_blocks (const LtReduceArgs  *args,
            const LtReduceShape *shape)
{
  int64_t inner_stride = shape->n_reduced > 0
                           ? shape->reduced_src_strides[shape->n_reduced - 1]
                           : 0;

  if (args->n_reduced < 256)
    return false;
  return args->n_out < 8192 || inner_stride == 1 || inner_stride == -1;
}

/* Into how many parts each output's elements are cut: enough for about
 * 2^18 threads (a thread per output) or 2048 blocks (a block per output)
 * in all, each part long enough to be worth a launch's share. */
static int64_t
parts_for (const LtReduceArgs *args,
           bool                blocks)
{
  int64_t wanted = blocks ? 2048 : 262144;
  int64_t shortest = blocks ? 8 * threads_per_block : 64;
  int64_t parts = (wanted + args->n_out - 1) / args->n_out;

  if (parts > args->n_reduced / shortest)
    parts = args->n_reduced / shortest;
  if (parts > 4096)
    parts = 4096;
  return parts > 1 ? parts : 1;
}

extern "C" cudaError_t
lt_cuda_launch_reduce (void                *dst,
                       int64_t             *indices,
                       const void          *src,
                       const LtReduceArgs  *args,
                       const LtReduceShape *shape)
{
  bool blocks = use_blocks (args, shape);
  int64_t n_parts = parts_for (args, blocks);
  LtReduceAcc *partials = NULL;
  cudaError_t status;
  dim3 grid;

  if (n_parts > 1)
    {
      /* Stream-ordered: no device-wide synchronisation to free it. */
      status = cudaMallocAsync ((void **) &partials,
                                (size_t) (args->n_out * n_parts) * sizeof *partials, 0);
      if (status != cudaSuccess)
        return status;
    }
  grid.x = blocks ? (unsigned int) (args->n_out < 65535 ? args->n_out : 65535)
                  : blocks_for (args->n_out);
  grid.y = (unsigned int) n_parts;
  if (blocks)
    reduce_block_kernel<<<grid, threads_per_block>>> (
      (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape, partials, n_parts);
  else
    reduce_kernel<<<grid, threads_per_block>>> (
      (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape, partials, n_parts);
  if (partials != NULL)
    {
      status = cudaGetLastError ();
      if (status == cudaSuccess)
        combine_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
          (uint8_t *) dst, indices, *args, *shape, partials, n_parts);
      status = cudaGetLastError ();
      cudaFreeAsync (partials, 0);
      return status;
    }
  return cudaGetLastError ();
}

static __global__ void
lines_kernel (uint8_t        *dst,
              const uint8_t  *src,
              LtReduceArgs    args,
              LtReduceShape   shape)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    lt_line_output (o, &args, &shape, dst, src);
}

static __global__ void
allclose_kernel (const uint8_t *b,
                 const uint8_t *a,
                 int           *close,
                 LtReduceArgs   args,
                 LtReduceShape  shape)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    if (!lt_allclose_element (o, &args, &shape, b, a))
      *close = 0;
}

extern "C" cudaError_t
lt_cuda_launch_lines (void                *dst,
                      const void          *src,
                      const LtReduceArgs  *args,
                      const LtReduceShape *shape)
{
  lines_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (uint8_t *) dst, (const uint8_t *) src, *args, *shape);
  return cudaGetLastError ();
}

extern "C" cudaError_t
lt_cuda_launch_allclose (const void          *b,
                         const void          *a,
                         int                 *close,
                         const LtReduceArgs  *args,
                         const LtReduceShape *shape)
{
  allclose_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (const uint8_t *) b, (const uint8_t *) a, close, *args, *shape);
  return cudaGetLastError ();
}

static __global__ void
matmul_kernel (uint8_t       *out,
               const uint8_t *a,
               const uint8_t *b,
               LtMatmulArgs   args)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    lt_matmul_element (o, &args, out, a, b);
}

extern "C" cudaError_t
lt_cuda_launch_matmul (void               *out,
                       const void         *a,
                       const void         *b,
                       const LtMatmulArgs *args)
{
  matmul_kernel<<<blocks_for (args->n_out), threads_per_block>>> (
    (uint8_t *) out, (const uint8_t *) a, (const uint8_t *) b, *args);
  return cudaGetLastError ();
}
