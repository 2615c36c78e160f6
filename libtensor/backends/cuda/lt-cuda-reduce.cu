/* lt-cuda-reduce.cu: reductions, scans, softmax and allclose on CUDA
 *
 * Every reduction by the accumulators the CPU uses (lt-kernel-reduce.h):
 * short ones one output element per thread in row-major order, long ones a
 * block per output element joined by a warp-shuffle tree, and long ones
 * that would leave the GPU idle split into parts whose partials are joined
 * in order; short scans and softmaxes one line per thread, long ones a
 * block per line; allclose one element per thread into one flag; matrix
 * products
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

/* How a thread's share of an output's reduced elements joins its
 * accumulator: every reduction by the generic rules (GenericWalk), or
 * sums and means of floating-point elements along one reduced dim, the
 * common case, without the per-element dtype and op dispatch and with four
 * independent partial sums, so that four loads are in flight (SumWalk).
 * Each walks the elements begin, begin + step, ... below end. */
struct GenericWalk
{
  static const bool sum_only = false;

  static __device__ inline void
  run (const LtReduceArgs &args, const LtReduceShape &shape, const uint8_t *src, int64_t at_src,
       int64_t begin, int64_t end, int64_t step, LtReduceAcc &acc)
  {
    lt_reduce_accumulate_range (&args, &shape, src, at_src, begin, end, step, &acc);
  }

  /* The block's share, begin to end, walked by all its threads. */
  static __device__ inline void
  run_block (const LtReduceArgs &args, const LtReduceShape &shape, const uint8_t *src,
             int64_t at_src, int64_t begin, int64_t end, LtReduceAcc &acc)
  {
    run (args, shape, src, at_src, begin + threadIdx.x, end, blockDim.x, acc);
  }
};

/* Four float32 lanes joining four double sums: @s[k] += @a.k + @b.k,
 * each pair added in double. */
static __device__ inline void
add_lanes (double       *s,
           const float4 &a,
           const float4 &b)
{
  s[0] += a.x + (double) b.x;
  s[1] += a.y + (double) b.y;
  s[2] += a.z + (double) b.z;
  s[3] += a.w + (double) b.w;
}

template <int Dtype>
struct SumWalk
{
  /* Partials hold their sum in re alone. */
  static const bool sum_only = true;

  static const int size = Dtype == LT_FLOAT64 ? 8 : Dtype == LT_FLOAT32 ? 4 : 2;

  static __device__ inline double
  load (const uint8_t *src, int64_t at)
  {
    return lt_kernel_load (src + at * size, Dtype).re;
  }

  static __device__ inline void
  run (const LtReduceArgs &args, const LtReduceShape &shape, const uint8_t *src, int64_t at_src,
       int64_t begin, int64_t end, int64_t step, LtReduceAcc &acc)
  {
    int64_t stride = shape.reduced_src_strides[0] * step, r = begin;
    int64_t at = at_src + begin * shape.reduced_src_strides[0];
    double s[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };

    /* Eight loads in flight a thread where a block shares the line; four
     * where each thread walks its own column (a warp's loads then span
     * as many rows as there are loads in flight). */
    if (step == 1)
      for (; r + 3 < end; r += 4, at += 4 * stride)
        {
#pragma unroll
          for (int u = 0; u < 4; u++)
            s[u] += load (src, at + u * stride);
        }
    else
      for (; r + 7 * step < end; r += 8 * step, at += 8 * stride)
        {
#pragma unroll
          for (int u = 0; u < 8; u++)
            s[u] += load (src, at + u * stride);
        }
    for (; r < end; r += step, at += stride)
      s[0] += load (src, at);
    acc.re += ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  }

  /* The block's share, begin to end, walked by all its threads: float32
   * elements one after another four at a time (16-byte loads, four in
   * flight a thread: a block of scalar loads read a GPU's memory at
   * two thirds of a copy's speed), the others as run () walks them. */
  static __device__ inline void
  run_block (const LtReduceArgs &args, const LtReduceShape &shape, const uint8_t *src,
             int64_t at_src, int64_t begin, int64_t end, LtReduceAcc &acc)
  {
    const float *p = (const float *) src + at_src + begin;
    int64_t n = end - begin, head, n_vectors, i = threadIdx.x, step = blockDim.x;
    const float4 *v;
    double s[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };

    if (Dtype != LT_FLOAT32 || shape.reduced_src_strides[0] != 1 || ((uintptr_t) p & 3) != 0)
      {
        run (args, shape, src, at_src, begin + threadIdx.x, end, blockDim.x, acc);
        return;
      }
    /* The elements before the first 16-byte boundary, the vectors, and
     * the elements after the last. */
    head = (int64_t) (((16 - ((uintptr_t) p & 15)) & 15) / 4);
    head = head < n ? head : n;
    n_vectors = (n - head) / 4;
    v = (const float4 *) (p + head);
    for (; i + 3 * step < n_vectors; i += 4 * step)
      {
        float4 a = v[i], b = v[i + step], c = v[i + 2 * step], d = v[i + 3 * step];

        add_lanes (s, a, c);
        add_lanes (s + 4, b, d);
      }
    for (; i < n_vectors; i += step)
      add_lanes (s, v[i], make_float4 (0, 0, 0, 0));
    if (threadIdx.x < head)
      s[4] += p[threadIdx.x];
    for (int64_t t = head + 4 * n_vectors + threadIdx.x; t < n; t += step)
      s[5] += p[t];
    acc.re += ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  }
};

/* Short reductions, or many outputs: a thread per output and part. */
template <typename Walk>
static __global__ void
reduce_kernel (uint8_t        *dst,
               int64_t        *indices,
               const uint8_t  *src,
               LtReduceArgs    args,
               LtReduceShape   shape,
               LtReduceAcc    *partials,
               int64_t         n_parts)
{
  int64_t begin, end;

  part_range (args, blockIdx.y, n_parts, begin, end);
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    {
      int64_t at_src = args.src_offset, at_out = 0;
      LtReduceAcc acc;

      lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
      lt_reduce_init (args.op, args.p, &acc);
      Walk::run (args, shape, src, at_src, begin, end, 1, acc);
      if (partials != NULL)
        partials[o * n_parts + blockIdx.y] = acc;
      else
        lt_reduce_store (&args, &acc, at_out, dst, indices);
    }
}

/* Float32 sums and means over columns: outputs four at a time that lie
 * one after another in the source (its kept innermost dim contiguous, a
 * multiple of four long, every line 16 bytes aligned), each thread
 * reading the four columns' rows as one 16-byte vector, eight rows in
 * flight. Thread per output, scalar loads, read an H200's memory at half
 * a copy's speed; four rows in flight at two thirds. */
static const int column_rows_in_flight = 8;

static __global__ void
sum_columns_kernel (uint8_t        *dst,
                    int64_t        *indices,
                    const uint8_t  *src,
                    LtReduceArgs    args,
                    LtReduceShape   shape,
                    double         *partials,
                    int64_t         n_parts)
{
  int64_t begin, end, row_step = shape.reduced_src_strides[0] / 4;
  int64_t out_step = shape.kept_dst_strides[shape.n_kept - 1];

  part_range (args, blockIdx.y, n_parts, begin, end);
  for (int64_t g = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; g < args.n_out / 4;
       g += (int64_t) gridDim.x * blockDim.x)
    {
      int64_t at_src = args.src_offset, at_out = 0, r = begin;
      const float4 *v;
      double s[4] = { 0, 0, 0, 0 }, t[4] = { 0, 0, 0, 0 };

      lt_reduce_kept_offsets (4 * g, &shape, &at_src, &at_out);
      v = (const float4 *) ((const float *) src + at_src) + begin * row_step;
      for (; r + column_rows_in_flight - 1 < end;
           r += column_rows_in_flight, v += column_rows_in_flight * row_step)
        {
          float4 rows[column_rows_in_flight];

#pragma unroll
          for (int k = 0; k < column_rows_in_flight; k++)
            rows[k] = v[k * row_step];
#pragma unroll
          for (int k = 0; k < column_rows_in_flight; k += 4)
            {
              add_lanes (s, rows[k], rows[k + 2]);
              add_lanes (t, rows[k + 1], rows[k + 3]);
            }
        }
      for (; r < end; r++, v += row_step)
        add_lanes (s, v[0], make_float4 (0, 0, 0, 0));
      for (int k = 0; k < 4; k++)
        {
          LtReduceAcc acc;

          if (partials != NULL)
            {
              partials[blockIdx.y * args.n_out + 4 * g + k] = s[k] + t[k];
              continue;
            }
          lt_reduce_init (args.op, args.p, &acc);
          acc.re += s[k] + t[k];
          lt_reduce_store (&args, &acc, at_out + k * out_step, dst, indices);
        }
    }
}

/* The partial sums of each output joined in order and stored, a thread
 * per output: sum_columns_kernel leaves few partials to many outputs,
 * where combine_kernel's block per output would leave most threads idle.
 * The partials are plain sums, part after part (partials[part * n_out +
 * output]), so that neighbouring threads write and read neighbouring
 * doubles: as 48-byte accumulators, output after output, they cost a
 * float32 sum over dim 0 of 2^28 elements a fifth of its time on an H100
 * (bench/NOTES.md, section 17). */
static __global__ void
combine_sums_kernel (uint8_t            *dst,
                     int64_t            *indices,
                     LtReduceArgs        args,
                     LtReduceShape       shape,
                     const double       *partials,
                     int64_t             n_parts)
{
  for (int64_t o = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; o < args.n_out;
       o += (int64_t) gridDim.x * blockDim.x)
    {
      int64_t at_src = 0, at_out = 0;
      LtReduceAcc acc;

      lt_reduce_init (args.op, args.p, &acc);
      for (int64_t part = 0; part < n_parts; part++)
        acc.re += partials[part * args.n_out + o];
      lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
      lt_reduce_store (&args, &acc, at_out, dst, indices);
    }
}

/* Whether sum_columns_kernel can take a float32 sum: its outputs' source
 * elements four at a time in aligned 16-byte vectors, on every line. */
static bool
sums_columns (const LtReduceArgs  *args,
              const LtReduceShape *shape,
              const void          *src)
{
  int inner = shape->n_kept - 1;

  if (inner < 0 || shape->kept_src_strides[inner] != 1 || shape->kept_sizes[inner] % 4 != 0
      || shape->reduced_src_strides[0] % 4 != 0 || args->src_offset % 4 != 0
      || (uintptr_t) src % 16 != 0)
    return false;
  for (int d = 0; d < inner; d++)
    if (shape->kept_src_strides[d] % 4 != 0)
      return false;
  return true;
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

/* Lane 0 ends with the partial of the whole warp; of partials that are
 * sums in re alone (@sum_only), with one shuffle a step. */
static __device__ inline void
warp_combine (const LtReduceArgs &args,
              LtReduceAcc        &acc,
              bool                sum_only = false)
{
  for (int offset = 16; offset > 0; offset /= 2)
    {
      if (sum_only)
        {
          acc.re += __shfl_down_sync (0xffffffffu, acc.re, offset);
          continue;
        }
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
template <typename Walk>
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
      Walk::run_block (args, shape, src, at_src, begin, end, acc);
      warp_combine (args, acc, Walk::sum_only);
      if (lane == 0)
        warp_partials[warp] = acc;
      __syncthreads ();
      if (warp == 0)
        {
          if (lane < n_warps)
            acc = warp_partials[lane];
          else
            lt_reduce_init (args.op, args.p, &acc);
          warp_combine (args, acc, Walk::sum_only);
          if (lane == 0 && partials != NULL)
            partials[o * n_parts + blockIdx.y] = acc;
          else if (lane == 0)
            lt_reduce_store (&args, &acc, at_out, dst, indices);
        }
      /* warp_partials is reused by the next output. */
      __syncthreads ();
    }
}

/* Each output's partials joined and the result stored, a block per output
 * (the block's join is written out as in reduce_block_kernel: a shared
 * helper taking sum_only at run time halved the speed of the float sums
 * on an H200, 0.42 -> 0.83 ms for 2^28 floats):
 * thread t joins partials t, t + blockDim.x, ... in order, then the block's
 * threads meet in the warp-shuffle tree. The order is fixed by the number
 * of parts alone, so results do not vary from run to run. */
static __global__ void
combine_kernel (uint8_t            *dst,
                int64_t            *indices,
                LtReduceArgs        args,
                LtReduceShape       shape,
                const LtReduceAcc  *partials,
                int64_t             n_parts,
                bool                sum_only)
{
  __shared__ LtReduceAcc warp_partials[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, n_warps = blockDim.x / 32;

  for (int64_t o = blockIdx.x; o < args.n_out; o += gridDim.x)
    {
      int64_t at_src = 0, at_out = 0;
      LtReduceAcc acc;

      lt_reduce_init (args.op, args.p, &acc);
      for (int64_t part = threadIdx.x; part < n_parts; part += blockDim.x)
        lt_reduce_combine (args.op, args.p, args.integral, args.is_complex, &acc,
                           &partials[o * n_parts + part]);
      warp_combine (args, acc, sum_only);
      if (lane == 0)
        warp_partials[warp] = acc;
      __syncthreads ();
      if (warp == 0)
        {
          if (lane < n_warps)
            acc = warp_partials[lane];
          else
            lt_reduce_init (args.op, args.p, &acc);
          warp_combine (args, acc, sum_only);
          if (lane == 0)
            {
              lt_reduce_kept_offsets (o, &shape, &at_src, &at_out);
              lt_reduce_store (&args, &acc, at_out, dst, indices);
            }
        }
      __syncthreads ();
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

/* One launch of the reduction kernel @blocks picks, walking by @Walk. */
template <typename Walk>
static void
launch_walk (bool                 blocks,
             dim3                 grid,
             void                *dst,
             int64_t             *indices,
             const void          *src,
             const LtReduceArgs  *args,
             const LtReduceShape *shape,
             LtReduceAcc         *partials,
             int64_t              n_parts)
{
  if (blocks)
    LT_CUDA_LAUNCH_COOPERATIVE (grid, threads_per_block, reduce_block_kernel<Walk>) (
      (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape, partials, n_parts);
  else
    LT_CUDA_LAUNCH (grid, threads_per_block, reduce_kernel<Walk>) (
      (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape, partials, n_parts);
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
  bool float_sum = (args->op == LT_KR_SUM || args->op == LT_KR_MEAN) && !args->integral
                   && !args->is_complex && shape->n_reduced == 1;
  /* Columns whichever way the rest would go: a block per column reads
   * its elements one row apart, a thread per column four bytes a row. */
  bool columns = float_sum && args->src_dtype == LT_FLOAT32 && sums_columns (args, shape, src);
  LtReduceAcc *partials = NULL;
  cudaError_t status;
  dim3 grid;

  if (columns)
    {
      /* A quarter of the threads, each with eight rows of 16 bytes in
       * flight: about 2^17 of them in all. */
      int64_t groups = args->n_out / 4;

      n_parts = (131072 + groups - 1) / groups;
      n_parts = n_parts < args->n_reduced / 64 ? n_parts : args->n_reduced / 64;
      n_parts = n_parts < 4096 ? (n_parts > 1 ? n_parts : 1) : 4096;
    }
  if (n_parts > 1)
    {
      /* Stream-ordered: no device-wide synchronisation to free it. */
      status = cudaMallocAsync ((void **) &partials,
                                (size_t) (args->n_out * n_parts)
                                  * (columns ? sizeof (double) : sizeof *partials), 0);
      if (status != cudaSuccess)
        return status;
    }
  grid.x = blocks ? (unsigned int) (args->n_out < 65535 ? args->n_out : 65535)
                  : blocks_for (args->n_out);
  grid.y = (unsigned int) n_parts;
  if (columns)
    {
      grid.x = blocks_for (args->n_out / 4);
      LT_CUDA_LAUNCH (grid, threads_per_block, sum_columns_kernel) (
        (uint8_t *) dst, indices, (const uint8_t *) src, *args, *shape, (double *) partials,
        n_parts);
    }
  else if (float_sum && args->src_dtype == LT_FLOAT32)
    launch_walk<SumWalk<LT_FLOAT32>> (blocks, grid, dst, indices, src, args, shape, partials,
                                      n_parts);
  else if (float_sum && args->src_dtype == LT_FLOAT64)
    launch_walk<SumWalk<LT_FLOAT64>> (blocks, grid, dst, indices, src, args, shape, partials,
                                      n_parts);
  else if (float_sum && args->src_dtype == LT_FLOAT16)
    launch_walk<SumWalk<LT_FLOAT16>> (blocks, grid, dst, indices, src, args, shape, partials,
                                      n_parts);
  else if (float_sum && args->src_dtype == LT_BFLOAT16)
    launch_walk<SumWalk<LT_BFLOAT16>> (blocks, grid, dst, indices, src, args, shape, partials,
                                       n_parts);
  else
    launch_walk<GenericWalk> (blocks, grid, dst, indices, src, args, shape, partials, n_parts);
  if (partials != NULL)
    {
      status = cudaGetLastError ();
      if (status == cudaSuccess && columns)
        LT_CUDA_LAUNCH (blocks_for (args->n_out), threads_per_block, combine_sums_kernel) (
          (uint8_t *) dst, indices, *args, *shape, (const double *) partials, n_parts);
      else if (status == cudaSuccess)
        LT_CUDA_LAUNCH_COOPERATIVE ((unsigned int) (args->n_out < 65535 ? args->n_out : 65535),
                        threads_per_block, combine_kernel) (
          (uint8_t *) dst, indices, *args, *shape, partials, n_parts, float_sum);
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

/* @value joined across the block (its max, NaN winning, or its sum); every
 * thread gets the result. @shared holds 32 doubles; blockDim.x is a
 * multiple of 32. */
static __device__ inline double
block_join (double  value,
            bool    max,
            double *shared)
{
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, n_warps = blockDim.x / 32;

  for (int pass = 0; pass < 2; pass++)
    {
      for (int offset = 16; offset > 0; offset /= 2)
        {
          double other = __shfl_down_sync (0xffffffffu, value, offset);

          value = !max ? value + other
                  : isnan (value) || isnan (other) ? (isnan (value) ? value : other)
                  : fmax (value, other);
        }
      if (pass == 1)
        break;
      if (lane == 0)
        shared[warp] = value;
      __syncthreads ();
      value = lane < n_warps ? shared[lane] : max ? -INFINITY : 0.0;
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    shared[0] = value;
  __syncthreads ();
  value = shared[0];
  __syncthreads ();
  return value;
}

/* Element @t of the line from @at_src, as a double. */
static __device__ inline double
load_line (const uint8_t      *src,
           const LtReduceArgs &args,
           int64_t             at_src,
           int64_t             step,
           int64_t             t)
{
  return lt_reduce_load_real (src + (at_src + t * step) * args.src_size, args.src_dtype);
}

/* Long softmax and log-softmax lines: a block per line, which finds the
 * max, then the sum of exp (x - max), then writes, each step spread over
 * the block (lt_line_output () does one line on one thread). The results
 * follow the CPU's: float32 softmax is exp () rounded to float, times the
 * float reciprocal of the sum. */
static __global__ void
softmax_block_kernel (uint8_t        *dst,
                      const uint8_t  *src,
                      LtReduceArgs    args,
                      LtReduceShape   shape)
{
  __shared__ double shared[32];
  int64_t src_step = shape.reduced_src_strides[0], dst_step = shape.line_dst_stride;

  for (int64_t o = blockIdx.x; o < args.n_out; o += gridDim.x)
    {
      int64_t at_src = args.src_offset, at_dst = args.dst_offset;
      double max = -INFINITY, sum = 0;

      lt_reduce_kept_offsets (o, &shape, &at_src, &at_dst);
      /* One element at a time: unrolling by four, with exp () in double,
       * made it slower on an H200 (4.0 ms against 3.0 for 2^28 floats). */
      for (int64_t t = threadIdx.x; t < args.n_reduced; t += blockDim.x)
        {
          double x = load_line (src, args, at_src, src_step, t);

          if (isnan (x) || x > max)
            max = isnan (max) ? max : x;
        }
      max = block_join (max, true, shared);
      for (int64_t t = threadIdx.x; t < args.n_reduced; t += blockDim.x)
        sum += exp (load_line (src, args, at_src, src_step, t) - max);
      sum = block_join (sum, false, shared);
      for (int64_t t = threadIdx.x; t < args.n_reduced; t += blockDim.x)
        {
          double x = load_line (src, args, at_src, src_step, t);
          LT_GLOBAL lt_u8 *out = dst + (at_dst + t * dst_step) * args.dst_size;

          if (args.op == LT_KR_SOFTMAX && args.dst_dtype == LT_FLOAT32)
            *(float *) out = (float) exp (x - max) * (float) (1 / sum);
          else
            lt_reduce_store_real (out, args.dst_dtype,
                                  args.op == LT_KR_SOFTMAX ? exp (x - max) * (1 / sum)
                                                           : x - (max + log (sum)));
        }
    }
}

/* Float32 softmax lines that fit a block's registers, at most
 * softmax_threads * softmax_cached elements: each element is read once
 * and exp () taken once, in float as PyTorch's CUDA kernel takes it, the
 * sum in double. The block_kernel above reads a line three times and
 * takes exp () in double twice: four times PyTorch's time on an H200. */
static const int softmax_threads = 512;
static const int softmax_cached = 32;

template <bool Log>
static __global__ void __launch_bounds__ (softmax_threads)
softmax_float_kernel (float          *dst,
                      const float    *src,
                      LtReduceArgs    args,
                      LtReduceShape   shape)
{
  __shared__ double shared[32];
  int64_t src_step = shape.reduced_src_strides[0], dst_step = shape.line_dst_stride;
  int n = (int) args.n_reduced, first = (int) threadIdx.x;

  for (int64_t o = blockIdx.x; o < args.n_out; o += gridDim.x)
    {
      int64_t at_src = args.src_offset, at_dst = args.dst_offset;
      float x[softmax_cached];
      double max = -INFINITY, sum = 0;
      float max_f;

      lt_reduce_kept_offsets (o, &shape, &at_src, &at_dst);
#pragma unroll
      for (int k = 0; k < softmax_cached; k++)
        {
          int t = first + k * softmax_threads;

          x[k] = t < n ? src[at_src + t * src_step] : -INFINITY;
        }
      /* A NaN anywhere makes the max, and so every result, NaN. */
#pragma unroll
      for (int k = 0; k < softmax_cached; k++)
        if (isnan (x[k]) || x[k] > max)
          max = isnan (max) ? max : x[k];
      max = block_join (max, true, shared);
      max_f = (float) max;
#pragma unroll
      for (int k = 0; k < softmax_cached; k++)
        if (first + k * softmax_threads < n)
          {
            float e = expf (x[k] - max_f);

            sum += e;
            if (!Log)
              x[k] = e;
          }
      sum = block_join (sum, false, shared);
      if (Log)
        {
          double shift = max + log (sum);

#pragma unroll
          for (int k = 0; k < softmax_cached; k++)
            {
              int t = first + k * softmax_threads;

              if (t < n)
                dst[at_dst + t * dst_step] = (float) (x[k] - shift);
            }
        }
      else
        {
          float scale = (float) (1 / sum);

#pragma unroll
          for (int k = 0; k < softmax_cached; k++)
            {
              int t = first + k * softmax_threads;

              if (t < n)
                dst[at_dst + t * dst_step] = x[k] * scale;
            }
        }
    }
}

/* The running value of the earlier elements @acc joined by @later's. */
static __device__ inline void
scan_join (const LtReduceArgs &args,
           LtReduceAcc        *acc,
           const LtReduceAcc  &later)
{
  LtReduceElem e;

  e.re = later.re;
  e.im = later.im;
  e.i = later.i;
  lt_reduce_scan_add (args.op, args.integral, args.is_complex, acc, &e);
}

/* Elements of a long scan each thread takes in turn. */
static const int scan_run = 8;

/* Long running sums and products: a block per line, which takes the line
 * in chunks of scan_run elements a thread: each thread joins its run,
 * the block scans the runs' values (Hillis and Steele, in shared memory),
 * then each thread writes its run from the value before it, and the
 * chunk's total carries into the next. Integers come out exact; float
 * values in double, in another order than the CPU's one at a time, so
 * within rounding of it, as PyTorch's CUDA scans are of its CPU's. */
static __global__ void
scan_block_kernel (uint8_t        *dst,
                   const uint8_t  *src,
                   LtReduceArgs    args,
                   LtReduceShape   shape)
{
  __shared__ LtReduceAcc runs[threads_per_block];
  int64_t src_step = shape.reduced_src_strides[0], dst_step = shape.line_dst_stride;
  int64_t chunk = (int64_t) scan_run * blockDim.x;

  for (int64_t o = blockIdx.x; o < args.n_out; o += gridDim.x)
    {
      int64_t at_src = args.src_offset, at_dst = args.dst_offset;
      LtReduceAcc carry;

      lt_reduce_kept_offsets (o, &shape, &at_src, &at_dst);
      lt_reduce_init (args.op, 0, &carry);
      for (int64_t start = 0; start < args.n_reduced; start += chunk)
        {
          int64_t first = start + (int64_t) threadIdx.x * scan_run;
          int64_t end = first + scan_run < args.n_reduced ? first + scan_run : args.n_reduced;
          LtReduceAcc mine, before;

          lt_reduce_init (args.op, 0, &mine);
          for (int64_t t = first; t < end; t++)
            {
              LtReduceElem e = lt_scan_load (src + (at_src + t * src_step) * args.src_size,
                                             args.src_dtype);

              lt_reduce_scan_add (args.op, args.integral, args.is_complex, &mine, &e);
            }
          runs[threadIdx.x] = mine;
          __syncthreads ();
          /* runs[i] becomes the join of runs 0 to i. */
          for (unsigned int d = 1; d < blockDim.x; d *= 2)
            {
              LtReduceAcc joined = runs[threadIdx.x];

              if (threadIdx.x >= d)
                {
                  joined = runs[threadIdx.x - d];
                  scan_join (args, &joined, runs[threadIdx.x]);
                }
              __syncthreads ();
              runs[threadIdx.x] = joined;
              __syncthreads ();
            }
          before = carry;
          if (threadIdx.x > 0)
            scan_join (args, &before, runs[threadIdx.x - 1]);
          for (int64_t t = first; t < end; t++)
            {
              LtReduceElem e = lt_scan_load (src + (at_src + t * src_step) * args.src_size,
                                             args.src_dtype);

              lt_reduce_scan_add (args.op, args.integral, args.is_complex, &before, &e);
              lt_scan_store (dst + (at_dst + t * dst_step) * args.dst_size, &args, &before);
            }
          scan_join (args, &carry, runs[blockDim.x - 1]);
          /* Everyone has read runs before the next chunk writes it. */
          __syncthreads ();
        }
    }
}

extern "C" cudaError_t
lt_cuda_launch_lines (void                *dst,
                      const void          *src,
                      const LtReduceArgs  *args,
                      const LtReduceShape *shape)
{
  unsigned int blocks = (unsigned int) (args->n_out < 65535 ? args->n_out : 65535);
  bool softmax = args->op == LT_KR_SOFTMAX || args->op == LT_KR_LOG_SOFTMAX;

  /* Lines of 1024 elements or more: a block each. */
  if (softmax && args->n_reduced >= 1024
      && args->n_reduced <= (int64_t) softmax_threads * softmax_cached
      && args->src_dtype == LT_FLOAT32 && args->dst_dtype == LT_FLOAT32)
    {
      if (args->op == LT_KR_SOFTMAX)
        LT_CUDA_LAUNCH_COOPERATIVE (blocks, softmax_threads, softmax_float_kernel<false>) (
          (float *) dst, (const float *) src, *args, *shape);
      else
        LT_CUDA_LAUNCH_COOPERATIVE (blocks, softmax_threads, softmax_float_kernel<true>) (
          (float *) dst, (const float *) src, *args, *shape);
    }
  else if (softmax && args->n_reduced >= 1024)
    LT_CUDA_LAUNCH_COOPERATIVE (blocks, threads_per_block, softmax_block_kernel) (
      (uint8_t *) dst, (const uint8_t *) src, *args, *shape);
  else if (args->n_reduced >= 1024)
    LT_CUDA_LAUNCH_COOPERATIVE (blocks, threads_per_block, scan_block_kernel) (
      (uint8_t *) dst, (const uint8_t *) src, *args, *shape);
  else
    LT_CUDA_LAUNCH (blocks_for (args->n_out), threads_per_block, lines_kernel) (
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
  LT_CUDA_LAUNCH (blocks_for (args->n_out), threads_per_block, allclose_kernel) (
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
  LT_CUDA_LAUNCH (blocks_for (args->n_out), threads_per_block, matmul_kernel) (
    (uint8_t *) out, (const uint8_t *) a, (const uint8_t *) b, *args);
  return cudaGetLastError ();
}
