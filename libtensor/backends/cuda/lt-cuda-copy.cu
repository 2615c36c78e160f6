/* lt-cuda-copy.cu: strided copies, conversions and fills on a CUDA device
 *
 * Compiled by nvcc when the module is built. The dims are simplified on the
 * host first (lt-cuda-backend.c), so a kernel sees at most LT_CUDA_MAX_DIMS
 * dims; index arithmetic is 32-bit when every offset the launch can reach
 * fits, 64-bit otherwise; each thread walks the elements i, i + grid size,
 * ... (a grid-stride loop), so any grid covers any element count. Plain
 * copies and fills move elements of 1, 2, 4, 8 or 16 bytes without looking
 * at them, 16 bytes a thread where rows are contiguous and aligned, and
 * never by accesses wider than the buffers' alignment;
 * conversions follow lt-kernel-convert.h, the rules the CPU and OpenCL
 * use.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "lt-cuda-private.h"

#include "lt-cuda-kernels.h"

/* Aligned so that a thread moves it with one 128-bit load and store. */
struct __align__ (16) Element16
{
  uint64_t lo, hi;
};

/* An element of @Size bytes at an address aligned only to sizeof (Part):
 * moved part by part, as a GPU faults on a load wider than the alignment
 * of its address. */
template <int Size, typename Part>
struct Packed
{
  Part parts[Size / sizeof (Part)];
};

/* The largest power of two, at most 16, that divides both addresses (only
 * @a's where @b is NULL). Device allocations are 256-byte aligned, but
 * DLPack imports keep the producer's pointer, which need only be aligned
 * to min (element size, 8), and views of them as complex (two floats as a
 * complex64) or as another dtype start wherever those elements do. */
static size_t
alignment_of (const void *a,
              const void *b)
{
  uintptr_t bits = (uintptr_t) a | (uintptr_t) b | 16;

  return (size_t) (bits & -bits);
}

/* Where the innermost dim is contiguous in both operands (the destination
 * alone for a fill) and every row starts on a 16-byte boundary, the same
 * launch in units of 16 bytes: each thread then moves a 128-bit vector
 * instead of one narrow element. The buffers must start on a 16-byte
 * boundary (@alignment) for element offsets that are multiples of the
 * vector's width to be too. Returns whether @shape and @n were rewritten
 * so. */
static bool
widen (LtCudaShape *shape,
       size_t       element_size,
       size_t       alignment,
       int64_t     *n,
       bool         fill)
{
  int inner = shape->ndim - 1;
  int64_t width;

  if (element_size >= 16 || shape->ndim == 0 || alignment < 16)
    return false;
  width = 16 / (int64_t) element_size;
  if (shape->dst_strides[inner] != 1 || (!fill && shape->src_strides[inner] != 1)
      || shape->sizes[inner] % width != 0 || shape->dst_offset % width != 0
      || (!fill && shape->src_offset % width != 0))
    return false;
  for (int d = 0; d < inner; d++)
    if (shape->dst_strides[d] % width != 0 || (!fill && shape->src_strides[d] % width != 0))
      return false;

  shape->sizes[inner] /= width;
  for (int d = 0; d < inner; d++)
    {
      shape->dst_strides[d] /= width;
      shape->src_strides[d] /= width;
    }
  shape->dst_offset /= width;
  shape->src_offset /= width;
  *n /= width;
  return true;
}

/* The storage offsets of element @i of a launch over @shape. */
template <typename Index>
static __device__ inline void
offsets_of (Index                i,
            const LtCudaShape   &shape,
            Index               &at_dst,
            Index               &at_src)
{
  Index rest = i;

  for (int d = shape.ndim - 1; d >= 0; d--)
    {
      Index quotient = sizeof (Index) == 4
                         ? (Index) lt_cuda_divide ((uint32_t) rest, shape.div_magic[d],
                                                   shape.div_shift[d])
                         : rest / (Index) shape.sizes[d];
      Index k = rest - quotient * (Index) shape.sizes[d];

      rest = quotient;
      at_dst += k * (Index) shape.dst_strides[d];
      at_src += k * (Index) shape.src_strides[d];
    }
}

/* Each thread copies UNROLL elements a pass, blockDim.x apart, all loaded
 * before any is stored, for more bytes in flight. */
#define UNROLL 4

template <typename Element, typename Index>
static __global__ void
copy_kernel (Element       *dst,
             const Element *src,
             LtCudaShape    shape,
             Index          n)
{
  for (Index base = (Index) blockIdx.x * blockDim.x * UNROLL + threadIdx.x; base < n;
       base += (Index) gridDim.x * blockDim.x * UNROLL)
    {
      Index at_dst[UNROLL];
      Element values[UNROLL];

#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          {
            Index at_src = (Index) shape.src_offset;

            at_dst[u] = (Index) shape.dst_offset;
            offsets_of<Index> (base + u * (Index) blockDim.x, shape, at_dst[u], at_src);
            values[u] = src[at_src];
          }
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        if (base + u * (Index) blockDim.x < n)
          dst[at_dst[u]] = values[u];
    }
}

/* Copies that transpose the last two dims (the destination's rows
 * contiguous, the source's columns): each block moves tiles of TILE_DOWN
 * rows by TILE columns through shared memory, reading the source along
 * its contiguous dim and writing the destination along its own, so both
 * sides are coalesced. Dims before the last two are a batch. The grid's
 * x, y and z walk the tiles across, the tiles down and the batches, so a
 * tile finds its place without dividing (three 64-bit divisions a thread
 * per tile of 4 KB left an H200 at 40% of a copy's speed); each thread
 * has its eight loads in flight before it stores any. Tiles 32 rows down
 * (four loads a thread) moved 2^28 floats at 68% of an H200's copy speed,
 * 64 rows down at 94% (bench/NOTES.md, section 17). */
enum { TILE = 32, TILE_ROWS = 8, TILE_DOWN = 64 };

template <typename Element>
static __global__ void
transpose_kernel (Element       *dst,
                  const Element *src,
                  LtCudaShape    shape,
                  int64_t        n_batches)
{
  __shared__ Element tile[TILE_DOWN][TILE + 1];
  int last = shape.ndim - 1;
  int64_t rows = shape.sizes[last - 1], cols = shape.sizes[last];
  int64_t tiles_across = (cols + TILE - 1) / TILE, tiles_down = (rows + TILE_DOWN - 1) / TILE_DOWN;

  for (int64_t batch = blockIdx.z; batch < n_batches; batch += gridDim.z)
    {
      int64_t batch_dst = shape.dst_offset, batch_src = shape.src_offset, rest = batch;

      for (int d = last - 2; d >= 0; d--)
        {
          int64_t k = rest % shape.sizes[d];

          rest /= shape.sizes[d];
          batch_dst += k * shape.dst_strides[d];
          batch_src += k * shape.src_strides[d];
        }
      for (int64_t down = blockIdx.y; down < tiles_down; down += gridDim.y)
        for (int64_t across = blockIdx.x; across < tiles_across; across += gridDim.x)
          {
            int64_t r0 = down * TILE_DOWN, c0 = across * TILE;
            Element values[TILE_DOWN / TILE][TILE / TILE_ROWS];

            /* Threads along x read down a source column (contiguous)... */
#pragma unroll
            for (int half = 0; half < TILE_DOWN / TILE; half++)
#pragma unroll
              for (int k = 0; k < TILE / TILE_ROWS; k++)
                {
                  int64_t r = r0 + half * TILE + threadIdx.x, c = c0 + threadIdx.y + k * TILE_ROWS;

                  if (r < rows && c < cols)
                    values[half][k] = src[batch_src + r * shape.src_strides[last - 1]
                                          + c * shape.src_strides[last]];
                }
#pragma unroll
            for (int half = 0; half < TILE_DOWN / TILE; half++)
#pragma unroll
              for (int k = 0; k < TILE / TILE_ROWS; k++)
                tile[half * TILE + threadIdx.x][threadIdx.y + k * TILE_ROWS] = values[half][k];
            __syncthreads ();
            /* ... and along a destination row (contiguous). */
#pragma unroll
            for (int k = 0; k < TILE_DOWN / TILE_ROWS; k++)
              {
                int64_t r = r0 + threadIdx.y + k * TILE_ROWS, c = c0 + threadIdx.x;

                if (r < rows && c < cols)
                  dst[batch_dst + r * shape.dst_strides[last - 1] + c * shape.dst_strides[last]]
                    = tile[threadIdx.y + k * TILE_ROWS][threadIdx.x];
              }
            __syncthreads ();
          }
    }
}

/* Whether @shape transposes its last two dims, as transpose_kernel takes. */
static bool
is_transpose (const LtCudaShape *shape)
{
  int last = shape->ndim - 1;

  return shape->ndim >= 2 && shape->dst_strides[last] == 1 && shape->src_strides[last - 1] == 1
         && shape->src_strides[last] != 1 && shape->sizes[last] > 1 && shape->sizes[last - 1] > 1;
}

template <typename Element, typename Index>
static __global__ void
fill_kernel (Element     *dst,
             Element      value,
             LtCudaShape  shape,
             Index        n)
{
  for (Index i = (Index) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (Index) gridDim.x * blockDim.x)
    {
      Index at_dst = (Index) shape.dst_offset, at_src = 0;

      offsets_of<Index> (i, shape, at_dst, at_src);
      dst[at_dst] = value;
    }
}

template <typename Index>
static __global__ void
cast_kernel (uint8_t       *dst,
             int            dst_dtype,
             int            dst_size,
             const uint8_t *src,
             int            src_dtype,
             int            src_size,
             LtCudaShape    shape,
             Index          n)
{
  for (Index i = (Index) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (Index) gridDim.x * blockDim.x)
    {
      Index at_dst = (Index) shape.dst_offset, at_src = (Index) shape.src_offset;

      offsets_of<Index> (i, shape, at_dst, at_src);
      lt_kernel_store (dst + (int64_t) at_dst * dst_size, dst_dtype,
                       lt_kernel_load (src + (int64_t) at_src * src_size, src_dtype));
    }
}

template <typename Element>
static cudaError_t
launch_copy (void              *dst,
             const void        *src,
             const LtCudaShape *shape,
             int64_t            n,
             bool               narrow)
{
  unsigned int blocks = blocks_for ((n + UNROLL - 1) / UNROLL);

  if (is_transpose (shape))
    {
      int last = shape->ndim - 1;
      int64_t across = (shape->sizes[last] + TILE - 1) / TILE;
      int64_t down = (shape->sizes[last - 1] + TILE_DOWN - 1) / TILE_DOWN;
      int64_t n_batches = n / (shape->sizes[last] * shape->sizes[last - 1]);
      dim3 grid ((unsigned int) (across < (1 << 20) ? across : (1 << 20)),
                 (unsigned int) (down < 65535 ? down : 65535),
                 (unsigned int) (n_batches < 65535 ? n_batches : 65535));

      LT_CUDA_LAUNCH_COOPERATIVE (grid, dim3 (TILE, TILE_ROWS), transpose_kernel<Element>) (
        (Element *) dst, (const Element *) src, *shape, n_batches);
    }
  else if (narrow)
    LT_CUDA_LAUNCH (blocks, threads_per_block, copy_kernel<Element, int32_t>) (
      (Element *) dst, (const Element *) src, *shape, (int32_t) n);
  else
    LT_CUDA_LAUNCH (blocks, threads_per_block, copy_kernel<Element, int64_t>) (
      (Element *) dst, (const Element *) src, *shape, n);
  return cudaGetLastError ();
}

template <typename Element>
static cudaError_t
launch_fill (void              *dst,
             const void        *value,
             const LtCudaShape *shape,
             int64_t            n,
             bool               narrow)
{
  Element element;

  memcpy (&element, value, sizeof element);
  if (narrow)
    LT_CUDA_LAUNCH (blocks_for (n), threads_per_block, fill_kernel<Element, int32_t>) (
      (Element *) dst, element, *shape, (int32_t) n);
  else
    LT_CUDA_LAUNCH (blocks_for (n), threads_per_block, fill_kernel<Element, int64_t>) (
      (Element *) dst, element, *shape, n);
  return cudaGetLastError ();
}

/* launch_copy () or launch_fill () (@Launch) of @Size-byte elements,
 * moved in parts as wide as @alignment allows. */
template <int Size, template <typename> class Launch>
static cudaError_t
launch_packed (size_t             alignment,
               void              *dst,
               const void        *src,
               const LtCudaShape *shape,
               int64_t            n,
               bool               narrow)
{
  if (alignment >= Size || alignment >= 8)
    return Launch<Packed<Size, uint64_t>>::run (dst, src, shape, n, narrow);
  if (alignment >= 4)
    return Launch<Packed<Size, uint32_t>>::run (dst, src, shape, n, narrow);
  if (alignment >= 2)
    return Launch<Packed<Size, uint16_t>>::run (dst, src, shape, n, narrow);
  return Launch<Packed<Size, uint8_t>>::run (dst, src, shape, n, narrow);
}

template <typename Element>
struct CopyLaunch
{
  static cudaError_t
  run (void *dst, const void *src, const LtCudaShape *shape, int64_t n, bool narrow)
  {
    return launch_copy<Element> (dst, src, shape, n, narrow);
  }
};

template <typename Element>
struct FillLaunch
{
  static cudaError_t
  run (void *dst, const void *value, const LtCudaShape *shape, int64_t n, bool narrow)
  {
    return launch_fill<Element> (dst, value, shape, n, narrow);
  }
};

/* Elements of @element_size bytes by the widest accesses @alignment
 * allows: whole elements where aligned to their size, else in parts. */
template <template <typename> class Launch>
static cudaError_t
launch_elements (size_t             element_size,
                 size_t             alignment,
                 void              *dst,
                 const void        *src,
                 const LtCudaShape *shape,
                 int64_t            n,
                 bool               narrow)
{
  switch (element_size)
    {
    case 1:
      return Launch<uint8_t>::run (dst, src, shape, n, narrow);
    case 2:
      if (alignment >= 2)
        return Launch<uint16_t>::run (dst, src, shape, n, narrow);
      return Launch<Packed<2, uint8_t>>::run (dst, src, shape, n, narrow);
    case 4:
      if (alignment >= 4)
        return Launch<uint32_t>::run (dst, src, shape, n, narrow);
      if (alignment >= 2)
        return Launch<Packed<4, uint16_t>>::run (dst, src, shape, n, narrow);
      return Launch<Packed<4, uint8_t>>::run (dst, src, shape, n, narrow);
    case 8:
      if (alignment >= 8)
        return Launch<uint64_t>::run (dst, src, shape, n, narrow);
      if (alignment >= 4)
        return Launch<Packed<8, uint32_t>>::run (dst, src, shape, n, narrow);
      if (alignment >= 2)
        return Launch<Packed<8, uint16_t>>::run (dst, src, shape, n, narrow);
      return Launch<Packed<8, uint8_t>>::run (dst, src, shape, n, narrow);
    default:
      if (alignment >= 16)
        return Launch<Element16>::run (dst, src, shape, n, narrow);
      return launch_packed<16, Launch> (alignment, dst, src, shape, n, narrow);
    }
}

extern "C" cudaError_t
lt_cuda_launch_copy (void              *dst,
                     const void        *src,
                     size_t             element_size,
                     const LtCudaShape *shape,
                     int64_t            n,
                     int                narrow)
{
  size_t alignment = alignment_of (dst, src);
  LtCudaShape wide = *shape;
  int64_t wide_n = n;

  bool widened = widen (&wide, element_size, alignment, &wide_n, false);

  lt_cuda_set_dividers (wide.sizes, wide.ndim, wide.div_magic, wide.div_shift);
  if (widened)
    return launch_copy<Element16> (dst, src, &wide, wide_n, narrow);
  return launch_elements<CopyLaunch> (element_size, alignment, dst, src, &wide, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_fill (void              *dst,
                     const void        *value,
                     size_t             element_size,
                     const LtCudaShape *shape,
                     int64_t            n,
                     int                narrow)
{
  size_t alignment = alignment_of (dst, NULL);
  LtCudaShape wide = *shape;
  int64_t wide_n = n;

  bool widened = widen (&wide, element_size, alignment, &wide_n, true);

  lt_cuda_set_dividers (wide.sizes, wide.ndim, wide.div_magic, wide.div_shift);
  if (widened)
    {
      uint8_t pattern[16];

      /* The value repeated across the vector. */
      for (size_t at = 0; at < sizeof pattern; at += element_size)
        memcpy (pattern + at, value, element_size);
      return launch_fill<Element16> (dst, pattern, &wide, wide_n, narrow);
    }
  return launch_elements<FillLaunch> (element_size, alignment, dst, value, &wide, n, narrow);
}

extern "C" cudaError_t
lt_cuda_launch_cast (void              *dst,
                     int                dst_dtype,
                     int                dst_size,
                     const void        *src,
                     int                src_dtype,
                     int                src_size,
                     const LtCudaShape *shape,
                     int64_t            n,
                     int                narrow)
{
  LtCudaShape divided = *shape;

  lt_cuda_set_dividers (divided.sizes, divided.ndim, divided.div_magic, divided.div_shift);
  if (narrow)
    LT_CUDA_LAUNCH (blocks_for (n), threads_per_block, cast_kernel<int32_t>) (
      (uint8_t *) dst, dst_dtype, dst_size, (const uint8_t *) src, src_dtype, src_size, divided,
      (int32_t) n);
  else
    LT_CUDA_LAUNCH (blocks_for (n), threads_per_block, cast_kernel<int64_t>) (
      (uint8_t *) dst, dst_dtype, dst_size, (const uint8_t *) src, src_dtype, src_size, divided,
      n);
  return cudaGetLastError ();
}
