/* lt-threads.h: how many threads the CPU kernels use
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"

G_BEGIN_DECLS

LT_AVAILABLE_IN_ALL
void  lt_set_num_threads (guint n_threads);
LT_AVAILABLE_IN_ALL
guint lt_get_num_threads (void);

G_END_DECLS
