/* lt-opencl-kernels.cl: the OpenCL backend's strided copy and fill
 *
 * Compiled at run time, once per device and element size, with ELEMENT
 * defined as uchar, ushort, uint, ulong or ulong2: a copy or a fill moves
 * elements without looking at their values, so five builds cover every
 * dtype. Offsets and strides are in elements. Each work item walks the
 * elements i, i + global size, ... (a grid-stride loop), so any launch size
 * covers any element count. Built after lt-opencl-shape.cl.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

__kernel void
copy_strided (__global ELEMENT       *dst,
              long                   dst_offset,
              __global const ELEMENT *src,
              long                   src_offset,
              LtOpenCLShape          shape,
              long                   n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at_dst = dst_offset, at_src = src_offset;

      lt_add_offsets (i, &shape, &at_dst, &at_src);
      dst[at_dst] = src[at_src];
    }
}

__kernel void
fill_strided (__global ELEMENT *dst,
              long              dst_offset,
              ELEMENT           value,
              LtOpenCLShape     shape,
              long              n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long at_dst = dst_offset, at_src = 0;

      lt_add_offsets (i, &shape, &at_dst, &at_src);
      dst[at_dst] = value;
    }
}
