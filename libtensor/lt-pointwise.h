/* lt-pointwise.h: pointwise operations on strided tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-tensor.h"

G_BEGIN_DECLS

G_END_DECLS
