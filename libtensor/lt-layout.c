/* lt-layout.c: stride arithmetic, with no objects and no allocation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-layout.h"

static inline gboolean
mul_overflows (gint64  a,
               gint64  b,
               gint64 *out)
{
  return __builtin_mul_overflow (a, b, out);
}

static inline gboolean
add_overflows (gint64  a,
               gint64  b,
               gint64 *out)
{
  return __builtin_add_overflow (a, b, out);
}

static inline gint64
abs64 (gint64 value)
{
  /* Callers never pass G_MININT64: strides that large fail extent checks. */
  return value < 0 ? -value : value;
}

/* The number of elements of a shape whose sizes are all >= 0; FALSE when it
 * does not fit in an int64. A zero anywhere makes the count zero, however
 * large the other sizes are. */
gboolean
lt_layout_numel (guint         ndim,
                 const gint64 *sizes,
                 gint64       *out_numel)
{
  gint64 numel = 1;

  for (guint d = 0; d < ndim; d++)
    if (sizes[d] == 0)
      {
        *out_numel = 0;
        return TRUE;
      }

  for (guint d = 0; d < ndim; d++)
    if (mul_overflows (numel, sizes[d], &numel))
      return FALSE;

  *out_numel = numel;
  return TRUE;
}

/* Row-major strides for @sizes, as PyTorch computes them: a size-0 dim counts
 * as 1 so that the strides stay meaningful. FALSE on overflow. */
gboolean
lt_layout_contiguous_strides (guint         ndim,
                              const gint64 *sizes,
                              gint64       *out_strides)
{
  gint64 stride = 1;

  for (guint i = ndim; i-- > 0;)
    {
      out_strides[i] = stride;
      if (mul_overflows (stride, MAX (sizes[i], 1), &stride))
        return FALSE;
    }

  return TRUE;
}

/* PyTorch's definition: every dim of size other than 1 has the row-major
 * stride; empty tensors are contiguous whatever their strides. */
gboolean
lt_layout_is_contiguous (guint         ndim,
                         const gint64 *sizes,
                         const gint64 *strides)
{
  gint64 expected = 1;
  gint64 numel;

  if (!lt_layout_numel (ndim, sizes, &numel) || numel == 0)
    return TRUE;

  for (guint i = ndim; i-- > 0;)
    {
      if (sizes[i] == 1)
        continue;
      if (strides[i] != expected)
        return FALSE;
      expected *= sizes[i];
    }

  return TRUE;
}

/* Whether the elements fill a block of memory exactly once in some order of
 * the dims (a permutation of a contiguous tensor). */
gboolean
lt_layout_is_non_overlapping_and_dense (guint         ndim,
                                        const gint64 *sizes,
                                        const gint64 *strides)
{
  guint order[LT_MAX_DIMS];
  guint n = 0;
  gint64 expected = 1;

  /* Dims of size 0 or 1 place no constraint. */
  for (guint d = 0; d < ndim; d++)
    if (sizes[d] >= 2)
      order[n++] = d;

  /* Insertion sort by stride; the dims are few. */
  for (guint i = 1; i < n; i++)
    {
      guint d = order[i];
      guint j = i;

      while (j > 0 && strides[order[j - 1]] > strides[d])
        {
          order[j] = order[j - 1];
          j--;
        }
      order[j] = d;
    }

  for (guint i = 0; i < n; i++)
    {
      if (strides[order[i]] != expected)
        return FALSE;
      expected *= sizes[order[i]];
    }

  return TRUE;
}

/* Whether dim @a goes outside dim @b by the operands' strides, as
 * PyTorch's TensorIterator decides: 1 if so, -1 if not, 0 if no operand
 * says (a stride of 0 says nothing; equal strides put the smaller size
 * inside or leave it to the next operand). */
static int
compare_iteration_dims (const gint64        *sizes,
                        guint                n_operands,
                        const gint64 *const *strides,
                        guint                a,
                        guint                b)
{
  for (guint op = 0; op < n_operands; op++)
    {
      gint64 stride_a = abs64 (strides[op][a]);
      gint64 stride_b = abs64 (strides[op][b]);

      if (stride_a == 0 || stride_b == 0)
        continue;
      if (stride_a != stride_b)
        return stride_a < stride_b ? -1 : 1;
      if (sizes[a] > sizes[b])
        return 1;
    }
  return 0;
}

/* The dims from the innermost (fastest-moving in memory) to the outermost
 * by the strides of @n_operands operands of @sizes, in TensorIterator's
 * insertion sort, which tolerates undecided comparisons: where no operand
 * decides, dims keep their row-major place. */
void
lt_layout_iteration_order (guint                ndim,
                           const gint64        *sizes,
                           guint                n_operands,
                           const gint64 *const *strides,
                           guint               *out_perm)
{
  for (guint i = 0; i < ndim; i++)
    out_perm[i] = ndim - 1 - i;

  for (guint i = 1; i < ndim; i++)
    {
      guint dim1 = i;

      for (guint dim0 = i; dim0-- > 0;)
        {
          int comparison = compare_iteration_dims (sizes, n_operands, strides,
                                                   out_perm[dim0], out_perm[dim1]);

          if (comparison > 0)
            {
              guint tmp = out_perm[dim0];
              out_perm[dim0] = out_perm[dim1];
              out_perm[dim1] = tmp;
              dim1 = dim0;
            }
          else if (comparison < 0)
            break;
        }
    }
}

/* Dense strides that keep the order of @strides, for copies that preserve a
 * tensor's memory layout (PyTorch's preserve_format). Dims with stride 0
 * keep their row-major place; equal strides put the smaller size inside. */
void
lt_layout_dense_strides_like (guint         ndim,
                              const gint64 *sizes,
                              const gint64 *strides,
                              gint64       *out_strides)
{
  guint perm[LT_MAX_DIMS];
  gint64 stride = 1;

  /* perm[0] is the innermost dim. */
  lt_layout_iteration_order (ndim, sizes, 1, &strides, perm);
  for (guint i = 0; i < ndim; i++)
    {
      out_strides[perm[i]] = stride;
      if (sizes[perm[i]] > 1)
        stride *= sizes[perm[i]];
    }
}

/* The strides that let a tensor of @old_sizes/@old_strides be read as
 * @new_sizes without copying, following ATen's computeStride: the old dims
 * are split into chunks that are contiguous within themselves, and every
 * new dim must fall inside one chunk. The element counts must already agree.
 * On failure @out_bad_dim is the old dim d such that dims d - 1 and d would
 * have to be merged. */
gboolean
lt_layout_view_strides (guint         old_ndim,
                        const gint64 *old_sizes,
                        const gint64 *old_strides,
                        guint         new_ndim,
                        const gint64 *new_sizes,
                        gint64       *out_strides,
                        guint        *out_bad_dim)
{
  gint64 numel;
  gint64 chunk_base_stride;
  gint64 tensor_numel = 1;
  gint64 view_numel = 1;
  gint64 view_d;

  *out_bad_dim = 0;

  if (old_ndim == 0)
    {
      for (guint i = 0; i < new_ndim; i++)
        out_strides[i] = 1;
      return TRUE;
    }

  if (!lt_layout_numel (old_ndim, old_sizes, &numel))
    return FALSE;

  if (numel == 0)
    {
      if (old_ndim == new_ndim && memcmp (old_sizes, new_sizes, old_ndim * sizeof (gint64)) == 0)
        memcpy (out_strides, old_strides, old_ndim * sizeof (gint64));
      else
        lt_layout_contiguous_strides (new_ndim, new_sizes, out_strides);
      return TRUE;
    }

  view_d = (gint64) new_ndim - 1;
  chunk_base_stride = old_strides[old_ndim - 1];

  for (gint64 tensor_d = (gint64) old_ndim - 1; tensor_d >= 0; tensor_d--)
    {
      gboolean chunk_ends;

      tensor_numel *= old_sizes[tensor_d];

      if (tensor_d == 0)
        chunk_ends = TRUE;
      else if (old_sizes[tensor_d - 1] == 1)
        chunk_ends = FALSE;
      else
        {
          gint64 expected;
          chunk_ends = mul_overflows (tensor_numel, chunk_base_stride, &expected)
                       || old_strides[tensor_d - 1] != expected;
        }

      if (!chunk_ends)
        continue;

      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1))
        {
          if (mul_overflows (view_numel, chunk_base_stride, &out_strides[view_d]))
            {
              *out_bad_dim = (guint) tensor_d;
              return FALSE;
            }
          view_numel *= new_sizes[view_d];
          view_d--;
        }

      if (view_numel != tensor_numel)
        {
          *out_bad_dim = (guint) tensor_d;
          return FALSE;
        }

      if (tensor_d > 0)
        {
          chunk_base_stride = old_strides[tensor_d - 1];
          tensor_numel = 1;
          view_numel = 1;
        }
    }

  return view_d == -1;
}

/* The lowest and highest storage index a view reaches. FALSE when either does
 * not fit in an int64. For an empty view both are @offset. */
gboolean
lt_layout_extent (guint         ndim,
                  const gint64 *sizes,
                  const gint64 *strides,
                  gint64        offset,
                  gint64       *out_lowest,
                  gint64       *out_highest)
{
  gint64 lowest = offset;
  gint64 highest = offset;
  gint64 numel;

  if (!lt_layout_numel (ndim, sizes, &numel))
    return FALSE;

  if (numel > 0)
    {
      for (guint d = 0; d < ndim; d++)
        {
          gint64 span;

          if (mul_overflows (strides[d], sizes[d] - 1, &span))
            return FALSE;
          if (span < 0 ? add_overflows (lowest, span, &lowest)
                       : add_overflows (highest, span, &highest))
            return FALSE;
        }
    }

  *out_lowest = lowest;
  *out_highest = highest;
  return TRUE;
}

/* Exact answer by marking every reached position, for shapes whose span is
 * small enough to hold one bit per storage element. */
#define EXACT_OVERLAP_MAX_SPAN (G_GINT64_CONSTANT (1) << 27)

static gboolean
overlap_by_marking (guint         ndim,
                    const gint64 *sizes,
                    const gint64 *strides,
                    gint64        span)
{
  g_autofree guint8 *marks = g_try_malloc0 ((gsize) (span / 8 + 1));
  gint64 counters[LT_MAX_DIMS] = { 0 };
  gint64 position = 0;

  /* Without memory for the marks, say "may overlap": refusing a write is
   * safe, allowing an aliased one is not. */
  if (marks == NULL)
    return TRUE;

  /* Positions are relative to the lowest one so they start at 0. */
  for (guint d = 0; d < ndim; d++)
    if (strides[d] < 0)
      position -= strides[d] * (sizes[d] - 1);

  for (;;)
    {
      guint d;

      if (marks[position / 8] & (1u << (position % 8)))
        return TRUE;
      marks[position / 8] |= (guint8) (1u << (position % 8));

      for (d = ndim; d-- > 0;)
        {
          position += strides[d];
          if (++counters[d] < sizes[d])
            break;
          position -= strides[d] * sizes[d];
          counters[d] = 0;
        }
      if (d == G_MAXUINT)
        return FALSE;
    }
}

/* Whether two different elements share a storage position. A tensor without
 * elements never overlaps, whatever its other dims; otherwise a dim of size
 * > 1 with stride 0 always overlaps; strides that grow faster than the span
 * of the dims inside them never do; anything else is decided exactly when
 * the span is small enough and reported as overlapping otherwise. */
gboolean
lt_layout_has_internal_overlap (guint         ndim,
                                const gint64 *sizes,
                                const gint64 *strides)
{
  guint order[LT_MAX_DIMS];
  gint64 kept_sizes[LT_MAX_DIMS];
  gint64 kept_strides[LT_MAX_DIMS];
  guint n = 0;
  gint64 reach = 0;
  gboolean ambiguous = FALSE;

  /* Checked first: an expanded dim before the empty one must not count. */
  for (guint d = 0; d < ndim; d++)
    if (sizes[d] == 0)
      return FALSE;

  for (guint d = 0; d < ndim; d++)
    {
      if (sizes[d] == 1)
        continue;
      if (strides[d] == 0)
        return TRUE;
      order[n] = n;
      kept_sizes[n] = sizes[d];
      kept_strides[n] = strides[d];
      n++;
    }

  for (guint i = 1; i < n; i++)
    {
      guint d = order[i];
      guint j = i;

      while (j > 0 && abs64 (kept_strides[order[j - 1]]) > abs64 (kept_strides[d]))
        {
          order[j] = order[j - 1];
          j--;
        }
      order[j] = d;
    }

  for (guint i = 0; i < n && !ambiguous; i++)
    {
      gint64 stride = abs64 (kept_strides[order[i]]);
      gint64 span;

      if (stride <= reach || mul_overflows (stride, kept_sizes[order[i]] - 1, &span)
          || add_overflows (reach, span, &reach))
        ambiguous = TRUE;
    }

  if (!ambiguous)
    return FALSE;

  {
    gint64 lowest, highest;

    if (!lt_layout_extent (n, kept_sizes, kept_strides, 0, &lowest, &highest)
        || highest - lowest >= EXACT_OVERLAP_MAX_SPAN)
      return TRUE;

    return overlap_by_marking (n, kept_sizes, kept_strides, highest - lowest);
  }
}

/* NumPy's broadcasting: align the shapes from the right; a size-1 dim
 * stretches to the other's size. @out_bad_dim is the clashing dim counted in
 * the result. */
gboolean
lt_layout_broadcast_shapes (guint         a_ndim,
                            const gint64 *a_sizes,
                            guint         b_ndim,
                            const gint64 *b_sizes,
                            guint        *out_ndim,
                            gint64       *out_sizes,
                            guint        *out_bad_dim)
{
  guint ndim = MAX (a_ndim, b_ndim);

  for (guint i = 0; i < ndim; i++)
    {
      gint64 a = i < a_ndim ? a_sizes[a_ndim - 1 - i] : 1;
      gint64 b = i < b_ndim ? b_sizes[b_ndim - 1 - i] : 1;

      if (a != b && a != 1 && b != 1)
        {
          *out_bad_dim = ndim - 1 - i;
          return FALSE;
        }
      out_sizes[ndim - 1 - i] = a == 1 ? b : a;
    }

  *out_ndim = ndim;
  return TRUE;
}

void
lt_loop_shape_init (LtLoopShape         *shape,
                    guint                ndim,
                    const gint64        *sizes,
                    guint                n_operands,
                    const gint64 *const *strides)
{
  g_assert (ndim <= LT_MAX_DIMS);
  g_assert (n_operands >= 1 && n_operands <= LT_LOOP_MAX_OPERANDS);

  shape->ndim = ndim;
  shape->n_operands = n_operands;
  /* A 0-dim shape may come with NULL arrays, which memcpy must not see. */
  if (ndim == 0)
    return;
  memcpy (shape->sizes, sizes, ndim * sizeof (gint64));
  for (guint op = 0; op < n_operands; op++)
    memcpy (shape->strides[op], strides[op], ndim * sizeof (gint64));
}

gint64
lt_loop_shape_numel (const LtLoopShape *shape)
{
  gint64 numel = 1;

  for (guint d = 0; d < shape->ndim; d++)
    numel *= shape->sizes[d];
  return numel;
}

static int
compare_dims (const LtLoopShape *shape,
              guint              a,
              guint              b)
{
  for (guint op = 0; op < shape->n_operands; op++)
    {
      gint64 sa = abs64 (shape->strides[op][a]);
      gint64 sb = abs64 (shape->strides[op][b]);

      if (sa != sb)
        return sa > sb ? -1 : 1;
    }
  return 0;
}

void
lt_loop_shape_simplify (LtLoopShape *shape)
{
  guint order[LT_MAX_DIMS];
  LtLoopShape sorted;
  guint n = 0;

  if (lt_loop_shape_numel (shape) == 0)
    return;

  for (guint d = 0; d < shape->ndim; d++)
    if (shape->sizes[d] != 1)
      order[n++] = d;

  /* Stable insertion sort, outermost (largest stride of operand 0) first. */
  for (guint i = 1; i < n; i++)
    {
      guint d = order[i];
      guint j = i;

      while (j > 0 && compare_dims (shape, order[j - 1], d) > 0)
        {
          order[j] = order[j - 1];
          j--;
        }
      order[j] = d;
    }

  sorted.n_operands = shape->n_operands;
  sorted.ndim = 0;

  /* Walk from the innermost dim outward, merging a dim into the one inside it
   * when every operand steps over it by exactly the inner dim's extent. */
  for (guint i = n; i-- > 0;)
    {
      guint d = order[i];
      gboolean merge = sorted.ndim > 0;

      for (guint op = 0; merge && op < shape->n_operands; op++)
        {
          guint inner = sorted.ndim - 1;
          if (shape->strides[op][d] != sorted.strides[op][inner] * sorted.sizes[inner])
            merge = FALSE;
        }

      if (merge)
        sorted.sizes[sorted.ndim - 1] *= shape->sizes[d];
      else
        {
          sorted.sizes[sorted.ndim] = shape->sizes[d];
          for (guint op = 0; op < shape->n_operands; op++)
            sorted.strides[op][sorted.ndim] = shape->strides[op][d];
          sorted.ndim++;
        }
    }

  /* sorted holds the dims innermost first; store them outermost first. */
  shape->ndim = sorted.ndim;
  for (guint i = 0; i < sorted.ndim; i++)
    {
      guint from = sorted.ndim - 1 - i;
      shape->sizes[i] = sorted.sizes[from];
      for (guint op = 0; op < shape->n_operands; op++)
        shape->strides[op][i] = sorted.strides[op][from];
    }
}

/* The storage index of every element in row-major order. The caller sizes
 * @out_indices to the element count. */
void
lt_layout_storage_indices (guint         ndim,
                           const gint64 *sizes,
                           const gint64 *strides,
                           gint64        offset,
                           gint64       *out_indices)
{
  gint64 row_major[LT_MAX_DIMS];
  const gint64 *operands[2] = { row_major, strides };
  gint64 counters[LT_MAX_DIMS] = { 0 };
  LtLoopShape shape;
  gint64 inner_size, inner_stride;
  gint64 base = offset;
  gint64 *out = out_indices;

  if (!lt_layout_contiguous_strides (ndim, sizes, row_major))
    g_assert_not_reached ();

  lt_loop_shape_init (&shape, ndim, sizes, 2, operands);
  if (lt_loop_shape_numel (&shape) == 0)
    return;
  lt_loop_shape_simplify (&shape);

  if (shape.ndim == 0)
    {
      out[0] = offset;
      return;
    }

  inner_size = shape.sizes[shape.ndim - 1];
  inner_stride = shape.strides[1][shape.ndim - 1];

  for (;;)
    {
      guint d;

      if (inner_stride == 1)
        for (gint64 k = 0; k < inner_size; k++)
          out[k] = base + k;
      else
        for (gint64 k = 0; k < inner_size; k++)
          out[k] = base + k * inner_stride;
      out += inner_size;

      for (d = shape.ndim - 1; d-- > 0;)
        {
          base += shape.strides[1][d];
          if (++counters[d] < shape.sizes[d])
            break;
          base -= shape.strides[1][d] * shape.sizes[d];
          counters[d] = 0;
        }
      if (d == G_MAXUINT)
        return;
    }
}

char *
lt_layout_shape_to_string (guint         ndim,
                           const gint64 *sizes)
{
  GString *text = g_string_new ("(");

  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d ? ", " : "", sizes[d]);
  if (ndim == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');

  return g_string_free (text, FALSE);
}
