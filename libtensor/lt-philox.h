/* lt-philox.h: the Philox4x32-10 counter-based generator
 *
 * Salmon et al., "Parallel random numbers: as easy as 1, 2, 3" (SC '11). A
 * block of four 32-bit words is a pure function of a 64-bit key (the seed)
 * and a 128-bit counter, so element i of a random tensor is the same number
 * whichever device, thread or order computes it. Plain C99 so that a GPU
 * kernel can include it as it is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* OpenCL C has the fixed-width types built in (the program's prelude names
 * them), and reads this file as part of its program; CUDA wants device
 * functions. */
#ifndef __OPENCL_VERSION__
#pragma once
#include <stdint.h>
#endif
#ifndef LT_PHILOX_FUNCTION
#define LT_PHILOX_FUNCTION static inline
#endif

#define LT_PHILOX_M0 UINT32_C (0xD2511F53)
#define LT_PHILOX_M1 UINT32_C (0xCD9E8D57)
#define LT_PHILOX_W0 UINT32_C (0x9E3779B9)
#define LT_PHILOX_W1 UINT32_C (0xBB67AE85)

LT_PHILOX_FUNCTION void
lt_philox4x32_10_block (const uint32_t counter[4],
                        const uint32_t key[2],
                        uint32_t       out[4])
{
  uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
  uint32_t k0 = key[0], k1 = key[1];

  for (int round = 0; round < 10; round++)
    {
      uint64_t p0 = (uint64_t) LT_PHILOX_M0 * c0;
      uint64_t p1 = (uint64_t) LT_PHILOX_M1 * c2;
      uint32_t hi0 = (uint32_t) (p0 >> 32), lo0 = (uint32_t) p0;
      uint32_t hi1 = (uint32_t) (p1 >> 32), lo1 = (uint32_t) p1;

      c0 = hi1 ^ c1 ^ k0;
      c1 = lo1;
      c2 = hi0 ^ c3 ^ k1;
      c3 = lo0;
      k0 += LT_PHILOX_W0;
      k1 += LT_PHILOX_W1;
    }

  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* The block for a 64-bit seed and a 64-bit block counter, the form the
 * library uses: counter words 2 and 3 stay zero. */
LT_PHILOX_FUNCTION void
lt_philox4x32_10 (uint64_t  seed,
                  uint64_t  counter,
                  uint32_t  out[4])
{
  const uint32_t words[4] = { (uint32_t) counter, (uint32_t) (counter >> 32), 0, 0 };
  const uint32_t key[2] = { (uint32_t) seed, (uint32_t) (seed >> 32) };

  lt_philox4x32_10_block (words, key, out);
}
