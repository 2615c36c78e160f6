/* lt-generator.h: a seedable, counter-based random number generator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"

G_BEGIN_DECLS

#define LT_TYPE_GENERATOR (lt_generator_get_type ())

LT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (LtGenerator, lt_generator, LT, GENERATOR, GObject)

LT_AVAILABLE_IN_ALL
LtGenerator *lt_generator_new        (guint64      seed);
LT_AVAILABLE_IN_ALL
guint64      lt_generator_get_seed   (LtGenerator *self);
LT_AVAILABLE_IN_ALL
void         lt_generator_set_seed   (LtGenerator *self,
                                      guint64      seed);
LT_AVAILABLE_IN_ALL
guint64      lt_generator_get_offset (LtGenerator *self);

G_END_DECLS
