/* lt-opencl-kernels.cl: the OpenCL backend's strided copy and fill
 *
 * Compiled at run time, once per device and element size, with ELEMENT
 * defined as uchar, ushort, uint, ulong or ulong2: a copy or a fill moves
 * elements without looking at their values, so five builds cover every
 * dtype. Offsets and strides are in elements. Each work item walks the
 * elements i, i + global size, ... (a grid-stride loop), so any launch size
 * covers any element count.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The same layout as LtOpenCLShape in lt-opencl-backend.c. */
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
copy_strided (__global ELEMENT       *dst,
              long                   dst_offset,
              __global const ELEMENT *src,
              long                   src_offset,
              LtOpenCLShape          shape,
              long                   n)
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
      long rest = i, at_dst = dst_offset;

      for (int d = shape.ndim - 1; d >= 0; d--)
        {
          at_dst += (rest % shape.sizes[d]) * shape.dst_strides[d];
          rest /= shape.sizes[d];
        }
      dst[at_dst] = value;
    }
}
