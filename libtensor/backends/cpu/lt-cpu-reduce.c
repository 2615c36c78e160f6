/* lt-cpu-reduce.c: the CPU backend's reduce kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"

const LtReduceKernels lt_cpu_reduce_kernels = { NULL };
