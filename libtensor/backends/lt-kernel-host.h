/* lt-kernel-host.h: the device-neutral kernel rules, compiled for the host
 *
 * What lt-kernel-reduce.h and lt-kernel-pointwise.h expect, in the
 * library's C: the CPU backend computes by the same rules as the devices,
 * and the device backends' host code shares their argument layouts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>
#include <math.h>

#define LT_FUNCTION static inline
typedef gint64 lt_i64;
typedef guint64 lt_u64;
typedef guint32 lt_u32;

#include "backends/lt-kernel-reduce.h"
#define LT_KERNEL_RANDOM_LAYOUT_ONLY
#include "backends/lt-kernel-random.h"
#undef LT_KERNEL_RANDOM_LAYOUT_ONLY
#define LT_KERNEL_LINALG_LAYOUT_ONLY
#include "backends/lt-kernel-linalg.h"
#undef LT_KERNEL_LINALG_LAYOUT_ONLY
