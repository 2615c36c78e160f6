/* lt-cuda-kernels-emulated.cc: the CUDA backend's kernels as host C++
 *
 * The same kernel text nvcc compiles, built against the host emulation of
 * CUDA (cuda_runtime.h in this directory) so that it runs on the CPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-cuda-copy.cu"
#include "lt-cuda-pointwise.cu"
#include "lt-cuda-random.cu"
#include "lt-cuda-reduce.cu"
