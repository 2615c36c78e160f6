/* test-cuda-kernels-emulated.cc: test-cuda-kernels on the CPU
 *
 * The CUDA kernels' own test, built as host C++ against the host emulation
 * of CUDA (libtensor/backends/cuda/emulation), with the kernels built the
 * same way: every kernel's text runs, under ASan and UBSan in their build,
 * where UBSan traps a misaligned vector access as a GPU would fault.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "test-cuda-kernels.cu"
