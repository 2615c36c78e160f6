/* lt-generator-private.h: taking counter ranges from a generator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-generator.h"

G_BEGIN_DECLS

/* Atomically takes @n_blocks Philox blocks from @self: the caller owns the
 * counters [*out_offset, *out_offset + n_blocks) under key *out_seed. */
void lt_generator_take_blocks (LtGenerator *self,
                               guint64      n_blocks,
                               guint64     *out_seed,
                               guint64     *out_offset);

G_END_DECLS
