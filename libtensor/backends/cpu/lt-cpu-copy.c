/* lt-cpu-copy.c: strided copy, cast and fill on the CPU
 *
 * Every loop here starts from a simplified LtLoopShape (size-1 dims dropped,
 * dims ordered by the destination's strides, mergeable dims merged), so the
 * per-element work is an inner row with fixed strides and the outer dims cost
 * one counter step per row. A copy whose source is contiguous along another
 * dim than the destination (a transpose) is done in square tiles
 * (lt-cpu-transpose.c) instead of striding through memory on one side.
 * Rows, or bands of tiles, are split across threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"
#include "lt-threads-private.h"

typedef struct
{
  guint64 lo, hi;
} Element16;

typedef void (*RowCopyFunc) (char       *dst,
                             gint64      dst_stride,
                             const char *src,
                             gint64      src_stride,
                             gint64      n);

#define DEFINE_ROW_COPY(name, type)                                                     \
  static void                                                                           \
  name (char *dst, gint64 dst_stride, const char *src, gint64 src_stride, gint64 n)     \
  {                                                                                     \
    if (dst_stride == (gint64) sizeof (type) && src_stride == (gint64) sizeof (type))   \
      memcpy (dst, src, (gsize) n * sizeof (type));                                     \
    else if (dst_stride == (gint64) sizeof (type))                                      \
      {                                                                                 \
        type *out = (type *) dst;                                                       \
        for (gint64 k = 0; k < n; k++)                                                  \
          out[k] = *(const type *) (src + k * src_stride);                              \
      }                                                                                 \
    else                                                                                \
      for (gint64 k = 0; k < n; k++)                                                    \
        *(type *) (dst + k * dst_stride) = *(const type *) (src + k * src_stride);      \
  }

DEFINE_ROW_COPY (row_copy_1, guint8)
DEFINE_ROW_COPY (row_copy_2, guint16)
DEFINE_ROW_COPY (row_copy_4, guint32)
DEFINE_ROW_COPY (row_copy_8, guint64)
DEFINE_ROW_COPY (row_copy_16, Element16)

static RowCopyFunc
row_copy_for_size (gsize element_size)
{
  switch (element_size)
    {
    case 1:
      return row_copy_1;
    case 2:
      return row_copy_2;
    case 4:
      return row_copy_4;
    case 8:
      return row_copy_8;
    case 16:
      return row_copy_16;
    default:
      g_assert_not_reached ();
    }
}

/* Index of the dim the source walks fastest, when that is not the innermost
 * dim: the sign of a transpose. -1 otherwise. */
static int
transposed_dim (const LtLoopShape *shape)
{
  guint inner = shape->ndim - 1;
  int best = -1;
  gint64 best_stride = ABS (shape->strides[1][inner]);

  for (guint d = 0; d < inner; d++)
    {
      gint64 stride = ABS (shape->strides[1][d]);
      if (stride < best_stride)
        {
          best = (int) d;
          best_stride = stride;
        }
    }

  return best;
}

/* Elements per piece of work handed to a thread. */
#define GRAIN 65536

/* Transposing copies from this size up write past the caches: about the
 * size of a large last-level cache (32 MiB on the EPYC the benchmarks ran
 * on), so what is written can no longer be in it when it is next read.
 * bench/NOTES.md, section 20. */
#define STREAM_BYTES (32 << 20)

/* A transposing copy: the source walks dim @k_dim fastest, the destination
 * the innermost dim @i_dim. The outer dims and the tiles of k are the items
 * split across threads; each tile is a band of k over the whole of i, cut
 * into squares of side @tile. */
typedef struct
{
  LtLoopShape outer;
  guint i_dim, k_dim;
  gint64 size_i, size_k, dst_i, src_i, dst_k, src_k;
  gint64 tile, n_tiles;
  gsize element_size;
  gboolean rows_contiguous, stream;
  char *bases[2];
} TiledCopy;

static void
copy_tile (const TiledCopy *copy,
           char            *dst,
           const char      *src,
           gint64           kb)
{
  gint64 n_k = MIN (copy->tile, copy->size_k - kb);

  for (gint64 ib = 0; ib < copy->size_i; ib += copy->tile)
    {
      gint64 n_i = MIN (copy->tile, copy->size_i - ib);
      char *out = dst + kb * copy->dst_k + ib * copy->dst_i;
      const char *in = src + kb * copy->src_k + ib * copy->src_i;

      if (copy->rows_contiguous)
        lt_cpu_transpose_block (out, copy->dst_k, in, copy->src_i, n_k, n_i, copy->element_size,
                                copy->stream);
      else
        {
          RowCopyFunc row_copy = row_copy_for_size (copy->element_size);

          for (gint64 k = 0; k < n_k; k++)
            row_copy (out + k * copy->dst_k, copy->dst_i, in + k * copy->src_k, copy->src_i, n_i);
        }
    }
}

static void
copy_tiles_range (gint64   begin,
                  gint64   end,
                  gpointer data)
{
  const TiledCopy *copy = data;
  gint64 counters[LT_MAX_DIMS];
  char *ptrs[2];
  gint64 item = begin;

  lt_cpu_seek_row (&copy->outer, copy->outer.ndim, begin / copy->n_tiles, copy->bases, counters,
                   ptrs);
  while (item < end)
    {
      copy_tile (copy, ptrs[0], ptrs[1], (item % copy->n_tiles) * copy->tile);
      item++;
      if (item % copy->n_tiles == 0)
        lt_cpu_next_row (&copy->outer, copy->outer.ndim, counters, ptrs);
    }
}

static void
copy_tiled (const LtLoopShape *shape,
            guint              k_dim,
            gsize              element_size,
            char              *dst,
            const char        *src)
{
  TiledCopy copy = {
    .outer = { .n_operands = 2 },
    .i_dim = shape->ndim - 1,
    .k_dim = k_dim,
    .element_size = element_size,
    .bases = { dst, (char *) src },
  };
  gint64 n_outer = 1;

  copy.size_i = shape->sizes[copy.i_dim];
  copy.size_k = shape->sizes[k_dim];
  copy.dst_i = shape->strides[0][copy.i_dim];
  copy.src_i = shape->strides[1][copy.i_dim];
  copy.dst_k = shape->strides[0][k_dim];
  copy.src_k = shape->strides[1][k_dim];
  copy.rows_contiguous = copy.dst_i == (gint64) element_size && copy.src_k == (gint64) element_size;

  /* Squares of 512 bytes a side at most (128 float32s: a 64 KiB source
   * block, which stays in L2 while it is read down its columns), 32
   * elements at least. bench/NOTES.md has the measurements. */
  copy.tile = CLAMP (512 / (gint64) element_size, 32, 128);
  copy.n_tiles = (copy.size_k + copy.tile - 1) / copy.tile;

  for (guint d = 0; d < shape->ndim; d++)
    {
      if (d == copy.i_dim || d == k_dim)
        continue;
      copy.outer.sizes[copy.outer.ndim] = shape->sizes[d];
      copy.outer.strides[0][copy.outer.ndim] = shape->strides[0][d];
      copy.outer.strides[1][copy.outer.ndim] = shape->strides[1][d];
      n_outer *= shape->sizes[d];
      copy.outer.ndim++;
    }

  /* A destination larger than the last-level cache is written past the
   * caches, as memcpy writes one. */
  copy.stream = n_outer * copy.size_i * copy.size_k * (gint64) element_size >= STREAM_BYTES;

  lt_parallel_for (n_outer * copy.n_tiles, MAX (1, GRAIN / (copy.tile * copy.size_i)),
                   copy_tiles_range, &copy);
}

/* Work by rows of the innermost dim, each row cut into pieces of at most
 * GRAIN elements: the pieces are the items split across threads, so that
 * one long row (a contiguous copy or fill, merged into one dim) takes
 * every thread, not one. @func does @count elements of a row from element
 * @first, @ptrs pointing at the row's start. */
typedef void (*PieceFunc) (gconstpointer  data,
                           char          *const *ptrs,
                           gint64         first,
                           gint64         count);

typedef struct
{
  const LtLoopShape *shape;
  char *bases[2];
  gint64 piece;     /* elements in a piece */
  gint64 n_pieces;  /* pieces in a row */
  PieceFunc func;
  gconstpointer data;
} Pieces;

static void
pieces_range (gint64   begin,
              gint64   end,
              gpointer data)
{
  const Pieces *pieces = data;
  const LtLoopShape *shape = pieces->shape;
  guint inner = shape->ndim - 1;
  gint64 n = shape->sizes[inner];
  gint64 counters[LT_MAX_DIMS];
  char *ptrs[2];
  gint64 item = begin;

  lt_cpu_seek_row (shape, inner, begin / pieces->n_pieces, pieces->bases, counters, ptrs);
  while (item < end)
    {
      gint64 first = item % pieces->n_pieces * pieces->piece;

      pieces->func (pieces->data, ptrs, first, MIN (pieces->piece, n - first));
      item++;
      if (item % pieces->n_pieces == 0)
        lt_cpu_next_row (shape, inner, counters, ptrs);
    }
}

static void
run_pieces (const LtLoopShape *shape,
            char              *dst,
            const char        *src,
            PieceFunc          func,
            gconstpointer      data)
{
  gint64 n = shape->sizes[shape->ndim - 1];
  gint64 n_rows = lt_loop_shape_numel (shape) / n;
  Pieces pieces = {
    .shape = shape,
    .bases = { dst, (char *) src },
    .piece = MIN (n, GRAIN),
    .func = func,
    .data = data,
  };

  /* One long row (a contiguous copy or fill) in one piece a thread: libc's
   * memcpy and memset store around the cache (non-temporal stores) only
   * for blocks past a large threshold, which pieces of GRAIN never reach,
   * so each written line was read first: a third more traffic. */
  if (n_rows == 1 && n > GRAIN)
    {
      gint64 threads = lt_parallel_n_pieces (n, GRAIN);

      pieces.piece = (n + threads - 1) / threads;
    }
  pieces.n_pieces = (n + pieces.piece - 1) / pieces.piece;
  lt_parallel_for (n_rows * pieces.n_pieces, MAX (1, GRAIN / pieces.piece), pieces_range,
                   &pieces);
}

typedef struct
{
  gint64 dst_stride, src_stride;
  LtDType dst_dtype, src_dtype;
  RowCopyFunc row_copy;  /* NULL for a cast */
} RowsCopy;

static void
copy_piece (gconstpointer  data,
            char          *const *ptrs,
            gint64         first,
            gint64         count)
{
  const RowsCopy *copy = data;
  char *dst = ptrs[0] + first * copy->dst_stride;
  const char *src = ptrs[1] + first * copy->src_stride;

  if (copy->row_copy != NULL)
    copy->row_copy (dst, copy->dst_stride, src, copy->src_stride, count);
  else
    for (gint64 k = 0; k < count; k++)
      lt_value_write (copy->dst_dtype, dst + k * copy->dst_stride,
                      lt_value_read (copy->src_dtype, src + k * copy->src_stride));
}

static void
copy_rows (const LtLoopShape *shape,
           LtDType            dst_dtype,
           LtDType            src_dtype,
           char              *dst,
           const char        *src)
{
  guint inner = shape->ndim - 1;
  RowsCopy copy = {
    .dst_stride = shape->strides[0][inner],
    .src_stride = shape->strides[1][inner],
    .dst_dtype = dst_dtype,
    .src_dtype = src_dtype,
    .row_copy = dst_dtype == src_dtype ? row_copy_for_size (lt_dtype_get_element_size (dst_dtype))
                                       : NULL,
  };

  run_pieces (shape, dst, src, copy_piece, &copy);
}

gboolean
lt_cpu_copy (const LtBackend *self,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *dst,
             const LtOperand *src,
             GError         **error)
{
  gsize dst_size = lt_dtype_get_element_size (dst->dtype);
  gsize src_size = lt_dtype_get_element_size (src->dtype);
  gint64 dst_strides[LT_MAX_DIMS], src_strides[LT_MAX_DIMS];
  const gint64 *operands[2] = { dst_strides, src_strides };
  LtLoopShape shape;

  lt_cpu_byte_strides (ndim, sizes, dst->strides, dst_size, dst_strides);
  lt_cpu_byte_strides (ndim, sizes, src->strides, src_size, src_strides);
  lt_loop_shape_init (&shape, ndim, sizes, 2, operands);
  if (lt_loop_shape_numel (&shape) == 0)
    return TRUE;
  lt_loop_shape_simplify (&shape);

  if (shape.ndim == 0)
    {
      /* One element: give the row loops a dim of size 1 to walk. */
      shape.ndim = 1;
      shape.sizes[0] = 1;
      shape.strides[0][0] = (gint64) dst_size;
      shape.strides[1][0] = (gint64) src_size;
    }

  {
    int k_dim = dst->dtype == src->dtype ? transposed_dim (&shape) : -1;

    if (k_dim >= 0)
      copy_tiled (&shape, (guint) k_dim, dst_size, dst->data, src->data);
    else
      copy_rows (&shape, dst->dtype, src->dtype, dst->data, src->data);
  }
  return TRUE;
}

#define DEFINE_ROW_FILL(name, type)                                          \
  LT_CPU_MULTIVERSION static void                                            \
  name (char *dst, gint64 stride, const void *value, gint64 n)               \
  {                                                                          \
    type v;                                                                  \
    memcpy (&v, value, sizeof v);                                            \
    if (stride == (gint64) sizeof (type))                                    \
      {                                                                      \
        type *out = (type *) dst;                                            \
        for (gint64 k = 0; k < n; k++)                                       \
          out[k] = v;                                                        \
      }                                                                      \
    else                                                                     \
      for (gint64 k = 0; k < n; k++)                                         \
        *(type *) (dst + k * stride) = v;                                    \
  }

DEFINE_ROW_FILL (row_fill_1, guint8)
DEFINE_ROW_FILL (row_fill_2, guint16)
DEFINE_ROW_FILL (row_fill_4, guint32)
DEFINE_ROW_FILL (row_fill_8, guint64)
DEFINE_ROW_FILL (row_fill_16, Element16)

typedef struct
{
  gint64 stride;
  Element16 pattern;
  void (*row_fill) (char *, gint64, const void *, gint64);
} RowsFill;

static void
fill_piece (gconstpointer  data,
            char          *const *ptrs,
            gint64         first,
            gint64         count)
{
  const RowsFill *fill = data;

  fill->row_fill (ptrs[0] + first * fill->stride, fill->stride, &fill->pattern, count);
}

gboolean
lt_cpu_fill (const LtBackend *self,
             guint            ndim,
             const gint64    *sizes,
             const LtOperand *dst,
             LtValue          value,
             GError         **error)
{
  gsize element_size = lt_dtype_get_element_size (dst->dtype);
  gint64 strides[LT_MAX_DIMS];
  const gint64 *operands[1] = { strides };
  RowsFill fill = { .pattern = { 0, 0 } };
  LtLoopShape shape;

  lt_value_write (dst->dtype, &fill.pattern, value);

  lt_cpu_byte_strides (ndim, sizes, dst->strides, element_size, strides);
  lt_loop_shape_init (&shape, ndim, sizes, 1, operands);
  if (lt_loop_shape_numel (&shape) == 0)
    return TRUE;
  lt_loop_shape_simplify (&shape);

  if (shape.ndim == 0)
    {
      memcpy (dst->data, &fill.pattern, element_size);
      return TRUE;
    }

  switch (element_size)
    {
    case 1:
      fill.row_fill = row_fill_1;
      break;
    case 2:
      fill.row_fill = row_fill_2;
      break;
    case 4:
      fill.row_fill = row_fill_4;
      break;
    case 8:
      fill.row_fill = row_fill_8;
      break;
    default:
      fill.row_fill = row_fill_16;
      break;
    }

  fill.stride = shape.strides[0][shape.ndim - 1];
  run_pieces (&shape, dst->data, NULL, fill_piece, &fill);
  return TRUE;
}
