/* lt-opencl-pointwise.cl: element-wise operations on an OpenCL device
 *
 * Built once per device and computation dtype, after a prelude that defines
 * the LT_PW_* macros for that dtype (lt-opencl-pointwise.c), then
 * lt-kernel-convert.h, lt-kernel-ops.h and lt-kernel-pointwise.h, which
 * hold what each op computes. The kernels here only walk the strided
 * operands: work item i handles the elements i, i + global size, ... in
 * row-major order of the (simplified) shape.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* (The prelude turns FP_CONTRACT off.) */

#define LT_OPENCL_MAX_DIMS 16

/* Up to four operands: the output, then the inputs. */
typedef struct
{
  long sizes[LT_OPENCL_MAX_DIMS];
  long strides[4][LT_OPENCL_MAX_DIMS];
  int ndim;
  int padding;
} LtOpenCLShape4;

static void
lt_offsets4 (long                  i,
             const LtOpenCLShape4 *shape,
             long                 *at)
{
  for (int d = shape->ndim - 1; d >= 0; d--)
    {
      long k = i % shape->sizes[d];

      i /= shape->sizes[d];
      at[0] += k * shape->strides[0][d];
      at[1] += k * shape->strides[1][d];
      at[2] += k * shape->strides[2][d];
      at[3] += k * shape->strides[3][d];
    }
}

__kernel void
binary_strided (__global uchar         *out,
                __global const LT_PW_T *a,
                __global const LT_PW_T *b,
                long                    out_offset,
                long                    a_offset,
                long                    b_offset,
                int                     op,
                long                    alpha_i,
                LT_PW_C                 alpha,
                int                     use_alpha,
                LtOpenCLShape4          shape,
                long                    n)
{
  int predicate = LT_K_BINARY_IS_PREDICATE (op);

  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[4] = { out_offset, a_offset, b_offset, 0 };
      LT_PW_C x, y;

      lt_offsets4 (i, &shape, at);
      x = LT_PW_LOAD (a[at[1]]);
      y = LT_PW_LOAD (b[at[2]]);
      if (predicate)
        out[at[0]] = (uchar) LT_PW_FN (lt_pw_compare) (op, x, y);
      else
        ((__global LT_PW_T *) out)[at[0]]
          = LT_PW_STORE (LT_PW_FN (lt_pw_binary) (op, x, y, alpha_i, alpha, use_alpha));
    }
}

__kernel void
unary_strided (__global uchar         *out,
               __global const LT_PW_T *a,
               long                    out_offset,
               long                    a_offset,
               int                     op,
               LtOpenCLShape4          shape,
               long                    n)
{
  int predicate = LT_K_UNARY_IS_PREDICATE (op);

  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[4] = { out_offset, a_offset, 0, 0 };
      LT_PW_C x;

      lt_offsets4 (i, &shape, at);
      x = LT_PW_LOAD (a[at[1]]);
      if (predicate)
        out[at[0]] = (uchar) LT_PW_FN (lt_pw_test) (op, x);
#if LT_PW_KIND == LT_PW_KIND_COMPLEX
      else if (op == LT_K_ABS)
        ((__global LT_PW_R *) out)[at[0]] = LT_PW_FN (lt_pw_abs) (x);
#endif
      else
        ((__global LT_PW_T *) out)[at[0]] = LT_PW_STORE (LT_PW_FN (lt_pw_unary) (op, x));
    }
}

/* out = cond ? a : b, with cond bool. */
__kernel void
where_strided (__global LT_PW_T       *out,
               __global const uchar   *cond,
               __global const LT_PW_T *a,
               __global const LT_PW_T *b,
               long                    out_offset,
               long                    cond_offset,
               long                    a_offset,
               long                    b_offset,
               LtOpenCLShape4          shape,
               long                    n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[4] = { out_offset, cond_offset, a_offset, b_offset };

      lt_offsets4 (i, &shape, at);
      out[at[0]] = cond[at[1]] ? a[at[2]] : b[at[3]];
    }
}

#define LT_TERNARY_LERP 0
#define LT_TERNARY_CLAMP 1

/* lerp (x, y, w) or clamp (x, lo, hi), as the dtype has them. */
__kernel void
ternary_strided (__global LT_PW_T       *out,
                 __global const LT_PW_T *x,
                 __global const LT_PW_T *y,
                 __global const LT_PW_T *z,
                 long                    out_offset,
                 long                    x_offset,
                 long                    y_offset,
                 long                    z_offset,
                 int                     which,
                 LtOpenCLShape4          shape,
                 long                    n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[4] = { out_offset, x_offset, y_offset, z_offset };
      LT_PW_C u, v, w, r;

      lt_offsets4 (i, &shape, at);
      u = LT_PW_LOAD (x[at[1]]);
      v = LT_PW_LOAD (y[at[2]]);
      w = LT_PW_LOAD (z[at[3]]);
      r = u;
#if LT_PW_KIND != LT_PW_KIND_INT
      if (which == LT_TERNARY_LERP)
        r = LT_PW_FN (lt_pw_lerp) (u, v, w);
#endif
#if LT_PW_KIND != LT_PW_KIND_COMPLEX
      if (which == LT_TERNARY_CLAMP)
        r = LT_PW_FN (lt_pw_clamp) (u, v, w);
#endif
      out[at[0]] = LT_PW_STORE (r);
    }
}

/* Sets *found when some element is zero. */
__kernel void
any_zero_strided (__global const LT_PW_T *a,
                  long                    a_offset,
                  __global int           *found,
                  LtOpenCLShape4          shape,
                  long                    n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at[4] = { a_offset, 0, 0, 0 };

      lt_offsets4 (i, &shape, at);
      if (LT_PW_FN (lt_pw_is_zero) (LT_PW_LOAD (a[at[0]])))
        *found = 1;
    }
}
