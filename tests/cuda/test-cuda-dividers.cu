/* test-cuda-dividers.cu: the kernels' division by a multiply and a shift
 *
 * The CUDA kernels divide 32-bit element indices by a launch's sizes as
 * (umulhi (n, magic) + n) >> shift, with magic and shift from
 * lt_cuda_set_dividers (). This checks, on the host (no GPU needed), that
 * the quotient is exact for divisors and numerators across the whole
 * range narrow launches use (below 2^31): small divisors, powers of two
 * and their neighbours, and pseudo-random ones, each against numerators
 * at and around its multiples and at the range's ends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdint.h>
#include <stdio.h>

#include "lt-cuda-private.h"
#include "lt-cuda-kernels.h"

static int failures;

/* lt_cuda_divide (), with the host's 64-bit product for __umulhi (). */
static uint32_t
host_divide (uint32_t n,
             uint32_t magic,
             uint32_t shift)
{
  return (uint32_t) (((uint64_t) n * magic) >> 32) + n >> shift;
}

static void
check (int64_t divisor)
{
  const uint32_t limit = 0x7fffffffu;
  uint32_t magic, shift;
  uint64_t state = (uint64_t) divisor * 0x9e3779b97f4a7c15ull;

  lt_cuda_set_dividers (&divisor, 1, &magic, &shift);
  for (int k = 0; k < 64; k++)
    {
      uint32_t candidates[6];

      state = state * 6364136223846793005ull + 1442695040888963407ull;
      candidates[0] = (uint32_t) (state >> 33) & limit;
      candidates[1] = (uint32_t) ((uint64_t) divisor * (uint64_t) k) < limit
                        ? (uint32_t) (divisor * k) : limit;
      candidates[2] = candidates[1] > 0 ? candidates[1] - 1 : 0;
      candidates[3] = candidates[1] < limit ? candidates[1] + 1 : limit;
      candidates[4] = limit - (uint32_t) k;
      candidates[5] = (uint32_t) k;
      for (int c = 0; c < 6; c++)
        {
          uint32_t n = candidates[c];

          if (host_divide (n, magic, shift) != n / (uint32_t) divisor)
            {
              if (failures++ < 10)
                fprintf (stderr, "FAIL %u / %lld: got %u\n", n, (long long) divisor,
                         host_divide (n, magic, shift));
            }
        }
    }
}

int
main (void)
{
  uint64_t state = 12345;

  for (int64_t d = 1; d <= 70000; d++)
    check (d);
  for (int s = 1; s < 31; s++)
    for (int64_t delta = -2; delta <= 2; delta++)
      if (((int64_t) 1 << s) + delta >= 1)
        check (((int64_t) 1 << s) + delta);
  check (0x7fffffff);
  for (int k = 0; k < 100000; k++)
    {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      check ((int64_t) ((state >> 33) % 0x7fffffffull) + 1);
    }
  if (failures > 0)
    fprintf (stderr, "%d failures\n", failures);
  else
    printf ("ok: every quotient exact\n");
  return failures > 0;
}
