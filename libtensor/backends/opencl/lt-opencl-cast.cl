/* lt-opencl-cast.cl: strided copies that convert between dtypes
 *
 * Built once per device, after lt-kernel-convert.h (the conversion rules
 * the CUDA kernels share, see lt-opencl-copy.c for the definitions it
 * expects), so that every pair of dtypes converts as on the CPU. Needs
 * cl_khr_fp64.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  long sizes[LT_OPENCL_MAX_DIMS];
  long dst_strides[LT_OPENCL_MAX_DIMS];
  long src_strides[LT_OPENCL_MAX_DIMS];
  int ndim;
  int padding;
} LtOpenCLShape;

__kernel void
cast_strided (__global uchar       *dst,
              long                  dst_offset,
              int                   dst_dtype,
              long                  dst_size,
              __global const uchar *src,
              long                  src_offset,
              int                   src_dtype,
              long                  src_size,
              LtOpenCLShape         shape,
              long                  n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long rest = i, at_dst = dst_offset, at_src = src_offset;

      for (int d = shape.ndim - 1; d >= 0; d--)
        {
          long k = rest % shape.sizes[d];

          rest /= shape.sizes[d];
          at_dst += k * shape.dst_strides[d];
          at_src += k * shape.src_strides[d];
        }
      lt_kernel_store (dst + at_dst * dst_size, dst_dtype,
                       lt_kernel_load (src + at_src * src_size, src_dtype));
    }
}
