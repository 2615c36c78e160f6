/* lt-opencl-pointwise.cl: element-wise operations on an OpenCL device
 *
 * Built once per device and computation dtype, with T the element type
 * (int, long, float, double), T_IS_FLOAT, and LT_OP_* the numbers of
 * LtUnaryOp and LtBinaryOp. Each operation is the CPU's expression
 * (lt-cpu-pointwise.c): integers wrap as unsigned 64-bit arithmetic does,
 * floats are computed in T without contracting a * b + c into one rounding,
 * and maximum/minimum let NaN through. Comparisons write bools. add and sub
 * always multiply by alpha: multiplying by 1 is exact, so the CPU's
 * shortcut for alpha 1 gives the same bits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma OPENCL FP_CONTRACT OFF

#define LT_OPENCL_MAX_DIMS 16

/* Three operands: the output, then a and b (b unused by unary ops). */
typedef struct
{
  long sizes[LT_OPENCL_MAX_DIMS];
  long strides[3][LT_OPENCL_MAX_DIMS];
  int ndim;
  int padding;
} LtOpenCLShape3;

static void
lt_offsets3 (long                  i,
             const LtOpenCLShape3 *shape,
             long                 *at)
{
  for (int d = shape->ndim - 1; d >= 0; d--)
    {
      long k = i % shape->sizes[d];

      i /= shape->sizes[d];
      at[0] += k * shape->strides[0][d];
      at[1] += k * shape->strides[1][d];
      at[2] += k * shape->strides[2][d];
    }
}

__kernel void
binary_strided (__global uchar   *out,
                __global const T *a,
                __global const T *b,
                long              out_offset,
                long              a_offset,
                long              b_offset,
                int               op,
                long              alpha_i,
                T                 alpha_t,
                LtOpenCLShape3    shape,
                long              n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[3] = { out_offset, a_offset, b_offset };
      T x, y, r = 0;
      int predicate = -1;

      lt_offsets3 (i, &shape, at);
      x = a[at[1]];
      y = b[at[2]];
      switch (op)
        {
#if T_IS_FLOAT
        case LT_OP_ADD:
          r = x + alpha_t * y;
          break;
        case LT_OP_SUB:
          r = x - alpha_t * y;
          break;
        case LT_OP_MUL:
          r = x * y;
          break;
        case LT_OP_MAXIMUM:
          r = x != x ? x : y != y ? y : x > y ? x : y;
          break;
        case LT_OP_MINIMUM:
          r = x != x ? x : y != y ? y : x < y ? x : y;
          break;
#else
        case LT_OP_ADD:
          r = (T) ((ulong) x + (ulong) alpha_i * (ulong) y);
          break;
        case LT_OP_SUB:
          r = (T) ((ulong) x - (ulong) alpha_i * (ulong) y);
          break;
        case LT_OP_MUL:
          r = (T) ((ulong) x * (ulong) y);
          break;
        case LT_OP_MAXIMUM:
          r = x > y ? x : y;
          break;
        case LT_OP_MINIMUM:
          r = x < y ? x : y;
          break;
#endif
        case LT_OP_EQ:
          predicate = x == y;
          break;
        case LT_OP_NE:
          predicate = x != y;
          break;
        case LT_OP_LT:
          predicate = x < y;
          break;
        case LT_OP_LE:
          predicate = x <= y;
          break;
        case LT_OP_GT:
          predicate = x > y;
          break;
        case LT_OP_GE:
          predicate = x >= y;
          break;
        }
      if (predicate >= 0)
        out[at[0]] = (uchar) predicate;
      else
        ((__global T *) out)[at[0]] = r;
    }
}

__kernel void
unary_strided (__global uchar   *out,
               __global const T *a,
               long              out_offset,
               long              a_offset,
               int               op,
               LtOpenCLShape3    shape,
               long              n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[3] = { out_offset, a_offset, 0 };
      T x, r = 0;

      lt_offsets3 (i, &shape, at);
      x = a[at[1]];
      switch (op)
        {
#if T_IS_FLOAT
        case LT_OP_NEG:
          r = -x;
          break;
        case LT_OP_ABS:
          r = fabs (x);
          break;
#else
        case LT_OP_NEG:
          r = (T) (0 - (ulong) x);
          break;
        case LT_OP_ABS:
          r = x < 0 ? (T) (0 - (ulong) x) : x;
          break;
#endif
        }
      ((__global T *) out)[at[0]] = r;
    }
}
