/* lt-cpu-linalg.c: the CPU backend's linalg kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"

const LtLinalgKernels lt_cpu_linalg_kernels = { NULL };
