/* lt-opencl-cast.cl: strided copies that convert between dtypes
 *
 * Built once per device, after lt-opencl-shape.cl and lt-kernel-convert.h
 * (the conversion rules
 * the CUDA kernels share, see lt-opencl-copy.c for the definitions it
 * expects), so that every pair of dtypes converts as on the CPU; devices
 * without float64 convert through float, between the other dtypes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

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
      long at_dst = dst_offset, at_src = src_offset;

      lt_add_offsets (i, &shape, &at_dst, &at_src);
      lt_kernel_store (dst + at_dst * dst_size, dst_dtype,
                       lt_kernel_load (src + at_src * src_size, src_dtype));
    }
}
