/* lt-opencl-shape.cl: the shape of a launch, shared by the OpenCL programs
 *
 * Built in front of lt-opencl-kernels.cl and lt-opencl-cast.cl. The layout
 * is LtOpenCLShape's in lt-opencl-copy.c: element strides, innermost dim
 * last, at most LT_OPENCL_MAX_DIMS dims after the host merged what it can.
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

/* Adds the offsets of the @i-th element (row-major) of @shape to *@at_dst
 * and *@at_src. */
static void
lt_add_offsets (long                 i,
                const LtOpenCLShape *shape,
                long                *at_dst,
                long                *at_src)
{
  for (int d = shape->ndim - 1; d >= 0; d--)
    {
      long k = i % shape->sizes[d];

      i /= shape->sizes[d];
      *at_dst += k * shape->dst_strides[d];
      *at_src += k * shape->src_strides[d];
    }
}
