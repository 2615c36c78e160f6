/* lt-cpu-copy.c: strided copy, cast and fill on the CPU
 *
 * Every loop here starts from a simplified LtLoopShape (size-1 dims dropped,
 * dims ordered by the destination's strides, mergeable dims merged), so the
 * per-element work is an inner row with fixed strides and the outer dims cost
 * one counter step per row. A copy whose source is contiguous along another
 * dim than the destination (a transpose) is done in square tiles that stay
 * in L1 instead of striding through memory on one side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"

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

#define TILE_BYTES 128

static void
copy_tiled (const LtLoopShape *shape,
            guint              k_dim,
            gsize              element_size,
            char              *dst,
            const char        *src)
{
  RowCopyFunc row_copy = row_copy_for_size (element_size);
  guint i_dim = shape->ndim - 1;
  gint64 tile = MAX (TILE_BYTES / (gint64) element_size, 8);
  gint64 size_i = shape->sizes[i_dim], size_k = shape->sizes[k_dim];
  gint64 dst_i = shape->strides[0][i_dim], src_i = shape->strides[1][i_dim];
  gint64 dst_k = shape->strides[0][k_dim], src_k = shape->strides[1][k_dim];
  LtLoopShape outer = { .n_operands = 2 };
  gint64 counters[LT_MAX_DIMS] = { 0 };
  char *ptrs[2] = { dst, (char *) src };

  for (guint d = 0; d < shape->ndim; d++)
    {
      if (d == i_dim || d == k_dim)
        continue;
      outer.sizes[outer.ndim] = shape->sizes[d];
      outer.strides[0][outer.ndim] = shape->strides[0][d];
      outer.strides[1][outer.ndim] = shape->strides[1][d];
      outer.ndim++;
    }

  do
    {
      for (gint64 kb = 0; kb < size_k; kb += tile)
        {
          gint64 k_end = MIN (kb + tile, size_k);

          for (gint64 ib = 0; ib < size_i; ib += tile)
            {
              gint64 n = MIN (tile, size_i - ib);

              for (gint64 k = kb; k < k_end; k++)
                row_copy (ptrs[0] + k * dst_k + ib * dst_i, dst_i,
                          ptrs[1] + k * src_k + ib * src_i, src_i, n);
            }
        }
    }
  while (lt_cpu_next_row (&outer, outer.ndim, counters, ptrs));
}

static void
copy_rows (const LtLoopShape *shape,
           gsize              element_size,
           char              *dst,
           const char        *src)
{
  RowCopyFunc row_copy = row_copy_for_size (element_size);
  guint inner = shape->ndim - 1;
  gint64 counters[LT_MAX_DIMS] = { 0 };
  char *ptrs[2] = { dst, (char *) src };

  do
    row_copy (ptrs[0], shape->strides[0][inner], ptrs[1], shape->strides[1][inner],
              shape->sizes[inner]);
  while (lt_cpu_next_row (shape, inner, counters, ptrs));
}

static void
cast_rows (const LtLoopShape *shape,
           LtDType            dst_dtype,
           LtDType            src_dtype,
           char              *dst,
           const char        *src)
{
  guint inner = shape->ndim - 1;
  gint64 n = shape->sizes[inner];
  gint64 dst_stride = shape->strides[0][inner], src_stride = shape->strides[1][inner];
  gint64 counters[LT_MAX_DIMS] = { 0 };
  char *ptrs[2] = { dst, (char *) src };

  do
    for (gint64 k = 0; k < n; k++)
      lt_value_write (dst_dtype, ptrs[0] + k * dst_stride,
                      lt_value_read (src_dtype, ptrs[1] + k * src_stride));
  while (lt_cpu_next_row (shape, inner, counters, ptrs));
}

void
lt_cpu_copy (guint            ndim,
             const gint64    *sizes,
             const LtOperand *dst,
             const LtOperand *src)
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
    return;
  lt_loop_shape_simplify (&shape);

  if (shape.ndim == 0)
    {
      /* One element: give the row loops a dim of size 1 to walk. */
      shape.ndim = 1;
      shape.sizes[0] = 1;
      shape.strides[0][0] = (gint64) dst_size;
      shape.strides[1][0] = (gint64) src_size;
    }

  if (dst->dtype != src->dtype)
    {
      cast_rows (&shape, dst->dtype, src->dtype, dst->data, src->data);
      return;
    }

  {
    int k_dim = transposed_dim (&shape);

    if (k_dim >= 0)
      copy_tiled (&shape, (guint) k_dim, dst_size, dst->data, src->data);
    else
      copy_rows (&shape, dst_size, dst->data, src->data);
  }
}

#define DEFINE_ROW_FILL(name, type)                                          \
  static void                                                                \
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

void
lt_cpu_fill (guint            ndim,
             const gint64    *sizes,
             const LtOperand *dst,
             LtValue          value)
{
  gsize element_size = lt_dtype_get_element_size (dst->dtype);
  gint64 strides[LT_MAX_DIMS];
  const gint64 *operands[1] = { strides };
  gint64 counters[LT_MAX_DIMS] = { 0 };
  Element16 pattern = { 0, 0 };
  char *ptrs[1] = { dst->data };
  void (*row_fill) (char *, gint64, const void *, gint64);
  LtLoopShape shape;
  guint inner;

  lt_value_write (dst->dtype, &pattern, value);

  lt_cpu_byte_strides (ndim, sizes, dst->strides, element_size, strides);
  lt_loop_shape_init (&shape, ndim, sizes, 1, operands);
  if (lt_loop_shape_numel (&shape) == 0)
    return;
  lt_loop_shape_simplify (&shape);

  if (shape.ndim == 0)
    {
      memcpy (dst->data, &pattern, element_size);
      return;
    }

  switch (element_size)
    {
    case 1:
      row_fill = row_fill_1;
      break;
    case 2:
      row_fill = row_fill_2;
      break;
    case 4:
      row_fill = row_fill_4;
      break;
    case 8:
      row_fill = row_fill_8;
      break;
    default:
      row_fill = row_fill_16;
      break;
    }

  inner = shape.ndim - 1;
  do
    row_fill (ptrs[0], shape.strides[0][inner], &pattern, shape.sizes[inner]);
  while (lt_cpu_next_row (&shape, inner, counters, ptrs));
}
