/* lt-random-private.h: how random tensors map elements to Philox words
 *
 * Every backend follows this so that a seed gives the same tensor on every
 * device. A tensor of n elements has r = n real values (2n for complex,
 * real part first). Values are taken in order from consecutive blocks of four
 * 32-bit words: four values per block for dtypes of 32 bits or less per real
 * value (one word each), two per block for float64-based dtypes (two words
 * each, high word first). A normal value 2k and 2k + 1 come from the uniform
 * values 2k and 2k + 1 by the Box-Muller transform.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-dtype.h"

/* The other distributions of random_fill(), one value an element:
 * integers in a range of at most 2^32 values take one word each (four a
 * block), wider ranges two words each (high word first, two a block);
 * Bernoulli draws take a 53-bit uniform from two words each (two a block)
 * and give 1 when it is below the probability. */
static inline guint
lt_random_integer_values_per_block (guint64 range)
{
  return range <= G_GUINT64_CONSTANT (1) << 32 ? 4 : 2;
}

#define LT_RANDOM_BERNOULLI_VALUES_PER_BLOCK 2

static inline guint
lt_random_values_per_block (LtDType dtype)
{
  return lt_dtype_to_real (dtype) == LT_DTYPE_FLOAT64 ? 2 : 4;
}

static inline guint64
lt_random_blocks_needed (LtDType dtype,
                         gint64  n_elements)
{
  guint64 values = (guint64) n_elements * (lt_dtype_is_complex (dtype) ? 2 : 1);
  guint per_block = lt_random_values_per_block (dtype);

  return (values + per_block - 1) / per_block;
}
