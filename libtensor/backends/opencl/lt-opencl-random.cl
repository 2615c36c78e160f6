/* lt-opencl-random.cl: random fills on an OpenCL device
 *
 * Built once per device after lt-kernel-convert.h, lt-philox.h and
 * lt-kernel-random.h, which compute each element from its Philox block as
 * the CPU does; work item i fills the elements i, i + global size, ... in
 * row-major order of the view.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

__kernel void
random_fill_strided (__global uchar       *dst,
                     __global const uchar *probabilities,
                     LtRandomArgs          args)
{
  for (long i = get_global_id (0); i < args.n; i += get_global_size (0))
    lt_random_element (i, &args, dst, probabilities);
}
