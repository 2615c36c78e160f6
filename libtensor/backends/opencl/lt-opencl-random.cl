/* lt-opencl-random.cl: random fills on an OpenCL device
 *
 * Built per device and distribution after lt-kernel-convert.h, lt-philox.h and
 * lt-kernel-random.h, which compute each element from its Philox block as
 * the CPU does; work item i fills the elements i, i + global size, ... in
 * row-major order of the view.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Built once per distribution (LT_RANDOM_DISTRIBUTION, one of LtKRandom's):
 * with it a constant, the compiler drops the other distributions' code,
 * which for uniform fills is most of it (the normal's log, sin and cos). */
__kernel void
random_fill_strided (__global uchar       *dst,
                     __global const uchar *probabilities,
                     LtRandomArgs          args)
{
  args.distribution = LT_RANDOM_DISTRIBUTION;
  for (long i = get_global_id (0); i < args.n; i += get_global_size (0))
    lt_random_element (i, &args, dst, probabilities);
}
