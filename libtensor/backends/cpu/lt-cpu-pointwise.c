/* lt-cpu-pointwise.c: the CPU backend's pointwise kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"

const LtPointwiseKernels lt_cpu_pointwise_kernels = { NULL };
