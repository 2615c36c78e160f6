/* lt-opencl-reduce.cl: reductions and matrix products on an OpenCL device
 *
 * Built after lt-kernel-convert.h, lt-kernel-reduce.h and
 * lt-kernel-linalg.h, which hold the accumulators and the walk over one
 * output's elements (lt_reduce_output(), ...); work item i computes the
 * output elements i, i + global size, ... Each kernel is a program of its
 * own, built on first use: LT_OPENCL_REDUCE_KERNEL says which (0 to 3, in
 * the order below).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#if LT_OPENCL_REDUCE_KERNEL == 0
__kernel void
reduce_strided (__global uchar       *dst,
                __global long        *indices,
                __global const uchar *src,
                LtReduceArgs          args,
                LtReduceShape         shape)
{
  for (long o = get_global_id (0); o < args.n_out; o += get_global_size (0))
    lt_reduce_output (o, &args, &shape, dst, indices, src);
}
#endif

#if LT_OPENCL_REDUCE_KERNEL == 1
/* Scans and softmaxes: work item i computes the lines i, i + global
 * size, ... (lt_line_output()). */
__kernel void
lines_strided (__global uchar       *dst,
               __global const uchar *src,
               LtReduceArgs          args,
               LtReduceShape         shape)
{
  for (long o = get_global_id (0); o < args.n_out; o += get_global_size (0))
    lt_line_output (o, &args, &shape, dst, src);
}
#endif

#if LT_OPENCL_REDUCE_KERNEL == 2
/* Clears *close when some pair of elements is not close. */
__kernel void
allclose_strided (__global const uchar *b,
                  __global const uchar *a,
                  __global int         *close,
                  LtReduceArgs          args,
                  LtReduceShape         shape)
{
  for (long o = get_global_id (0); o < args.n_out; o += get_global_size (0))
    if (!lt_allclose_element (o, &args, &shape, b, a))
      *close = 0;
}
#endif

#if LT_OPENCL_REDUCE_KERNEL == 3
/* Matrix products: work item i computes the output elements i, i + global
 * size, ... (lt_matmul_element()). */
__kernel void
matmul_strided (__global uchar       *out,
                __global const uchar *a,
                __global const uchar *b,
                LtMatmulArgs          args)
{
  for (long o = get_global_id (0); o < args.n_out; o += get_global_size (0))
    lt_matmul_element (o, &args, out, a, b);
}
#endif
