/* lt-backend-reduce.h: the reduce kernels a backend provides
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "backends/lt-operand.h"

G_BEGIN_DECLS

/* To be filled: the kernel entry points of this family. */
typedef struct
{
  gpointer reserved;
} LtReduceKernels;

G_END_DECLS
