/* lt-kernel-linalg.h: matrix products, for device kernels
 *
 * One element of a batch of matrix products, accumulated as the CPU's
 * kernels accumulate where they do not call BLAS: integers in wrapping
 * 64-bit arithmetic, bool as an or of ands, everything else in double
 * (complex as pairs of doubles), rounded once into the dtype. The CPU
 * sends float32, float64 and complex products to BLAS, whose sums differ
 * from these in rounding only.
 *
 * The including file defines what lt-kernel-convert.h needs and includes
 * it first; the host's C includes this file with
 * LT_KERNEL_LINALG_LAYOUT_ONLY for the argument layout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef LT_KERNEL_LINALG_H
#define LT_KERNEL_LINALG_H

#define LT_KM_MAX_BATCH_DIMS 16

/* out[batch, i, j] = sum over l of a[batch, i, l] * b[batch, l, j], strides
 * in elements, batch dims of size 1 dropped. */
typedef struct
{
  lt_i64 batch_sizes[LT_KM_MAX_BATCH_DIMS];
  lt_i64 out_batch_strides[LT_KM_MAX_BATCH_DIMS];
  lt_i64 a_batch_strides[LT_KM_MAX_BATCH_DIMS];
  lt_i64 b_batch_strides[LT_KM_MAX_BATCH_DIMS];
  lt_i64 out_offset, a_offset, b_offset;
  lt_i64 out_row, out_col, a_row, a_col, b_row, b_col;
  lt_i64 m, n, k;
  /* Elements of out: the batch's times m times n. */
  lt_i64 n_out;
  int batch_ndim;
  int dtype;
  int size;
  int padding;
} LtMatmulArgs;

#ifndef LT_KERNEL_LINALG_LAYOUT_ONLY

LT_FUNCTION void
lt_matmul_element (lt_i64                 o,
                   const LtMatmulArgs    *args,
                   LT_GLOBAL lt_u8       *out,
                   const LT_GLOBAL lt_u8 *a,
                   const LT_GLOBAL lt_u8 *b)
{
  lt_i64 j = o % args->n, rest = o / args->n;
  lt_i64 i = rest % args->m, batch = rest / args->m;
  lt_i64 at_out = args->out_offset + i * args->out_row + j * args->out_col;
  lt_i64 at_a = args->a_offset + i * args->a_row;
  lt_i64 at_b = args->b_offset + j * args->b_col;
  LtKernelValue sum;

  for (int d = args->batch_ndim - 1; d >= 0; d--)
    {
      lt_i64 position = batch % args->batch_sizes[d];

      batch /= args->batch_sizes[d];
      at_out += position * args->out_batch_strides[d];
      at_a += position * args->a_batch_strides[d];
      at_b += position * args->b_batch_strides[d];
    }

  sum.kind = LT_KIND_INT;
  sum.i = 0;
  sum.re = 0;
  sum.im = 0;
  for (lt_i64 l = 0; l < args->k; l++)
    {
      LtKernelValue x = lt_kernel_load (a + (at_a + l * args->a_col) * args->size, args->dtype);
      LtKernelValue y = lt_kernel_load (b + (at_b + l * args->b_row) * args->size, args->dtype);

      if (x.kind == LT_KIND_INT)
        {
          if (args->dtype == LT_BOOL)
            sum.i |= x.i != 0 && y.i != 0;
          else
            sum.i = (lt_i64) ((lt_u64) sum.i + (lt_u64) x.i * (lt_u64) y.i);
        }
      else
        {
          sum.kind = x.kind;
          sum.re += x.re * y.re - x.im * y.im;
          sum.im += x.re * y.im + x.im * y.re;
        }
    }
  lt_kernel_store (out + at_out * args->size, args->dtype, sum);
}

#endif /* LT_KERNEL_LINALG_LAYOUT_ONLY */

#endif /* LT_KERNEL_LINALG_H */
