/* lt-kernel-random.h: random tensor elements, for device kernels
 *
 * Element i (in row-major order of the view) of a random fill, computed
 * from the Philox blocks as lt-random-private.h lays them out and as the
 * CPU backend computes it (lt-cpu-generate.c), so that a seed gives the
 * same tensor on every device: uniform values, integers and Bernoulli
 * draws bit for bit, normal values to within the device's exp, log, sin
 * and cos.
 *
 * The including file defines first what lt-kernel-convert.h needs, includes
 * it and lt-philox.h, and defines LT_NEXTAFTERF (float's nextafter). The
 * argument layout (LtRandomArgs) is shared with the host's C, which
 * includes this file with LT_KERNEL_RANDOM_LAYOUT_ONLY.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef LT_KERNEL_RANDOM_H
#define LT_KERNEL_RANDOM_H

/* Real launch arguments: double, unless the including file defines
 * LT_ARG_REAL first (OpenCL devices without float64 take a float in the
 * same 8 bytes, so that the host's layout still holds). */
#ifndef LT_ARG_REAL
typedef double lt_arg_real;
#define LT_ARG_REAL(x) (x)
#endif

/* The values of LtRandomDistribution (lt-backend.h; lt-backend.c checks). */
#define LT_KRAND_UNIFORM 0
#define LT_KRAND_NORMAL 1
#define LT_KRAND_INTEGER 2
#define LT_KRAND_BERNOULLI 3

#define LT_KRAND_MAX_DIMS 16

typedef struct
{
  lt_u64 seed;
  lt_u64 counter;
  lt_i64 low, high;
  lt_arg_real a, b;
  lt_i64 n;
  lt_i64 dst_offset;
  lt_i64 probability_offset;
  lt_i64 sizes[LT_KRAND_MAX_DIMS];
  lt_i64 dst_strides[LT_KRAND_MAX_DIMS];
  lt_i64 probability_strides[LT_KRAND_MAX_DIMS];
  int ndim;
  int distribution;
  int dst_dtype;
  int real_dtype;
  int real_size;
  int probability_dtype;
  int probability_size;
  /* Values a Philox block gives (lt-random-private.h). */
  int per_block;
  int has_probabilities;
  int is_complex;
} LtRandomArgs;

#ifndef LT_KERNEL_RANDOM_LAYOUT_ONLY

/* The four words of the block that holds value @v, and @v's place in it. */
LT_FUNCTION int
lt_random_words (const LtRandomArgs *args,
                 lt_u64              v,
                 lt_u32             *words)
{
  uint32_t out[4];

  lt_philox4x32_10 (args->seed, args->counter + v / (lt_u64) args->per_block, out);
  words[0] = out[0];
  words[1] = out[1];
  words[2] = out[2];
  words[3] = out[3];
  return (int) (v % (lt_u64) args->per_block);
}

/* Uniform value @v in [0, 1), with as many random bits as the dtype's
 * significand holds (53 from two words where a block gives two values). */
LT_FUNCTION double
lt_random_uniform (const LtRandomArgs *args,
                   lt_u64              v)
{
  lt_u32 words[4];
  int k = lt_random_words (args, v, words);

  if (args->per_block == 2)
    return (double) (((((lt_u64) words[2 * k]) << 32) | words[2 * k + 1]) >> 11) * 0x1p-53;
  switch (args->real_dtype)
    {
    case LT_FLOAT16:
      return (double) (words[k] >> 21) * 0x1p-11;
    case LT_BFLOAT16:
      return (double) (words[k] >> 24) * 0x1p-8;
    default:
      return (double) (words[k] >> 8) * 0x1p-24;
    }
}

/* Normal value @v of @n_values: the Box-Muller pair of uniform values
 * (v & ~1, v | 1), the last one of an odd count paired with 0. */
LT_FUNCTION double
lt_random_normal (const LtRandomArgs *args,
                  lt_u64              v,
                  lt_u64              n_values)
{
  lt_u64 first = v & ~(lt_u64) 1;
  double std = LT_ARG_REAL (args->b);
  double scale = args->is_complex ? std * sqrt (0.5) : std;
  double u1 = 1.0 - lt_random_uniform (args, first);
  double u2 = first + 1 < n_values ? lt_random_uniform (args, first + 1) : 0.0;
  double radius = sqrt (-2.0 * log (u1)) * scale;
  double angle = 2.0 * 3.14159265358979323846 * u2;

  return LT_ARG_REAL (args->a) + radius * (v == first ? cos (angle) : sin (angle));
}

LT_FUNCTION void
lt_random_store_real (LT_GLOBAL lt_u8 *p,
                      int              dtype,
                      double           value)
{
  LtKernelValue v;

  v.kind = LT_KIND_FLOAT;
  v.i = 0;
  v.re = value;
  v.im = 0;
  lt_kernel_store (p, dtype, v);
}

/* Stores a uniform value, which rounding into the dtype may have put on the
 * excluded upper bound; then it takes the largest value below the bound. */
LT_FUNCTION void
lt_random_store_below (LT_GLOBAL lt_u8 *p,
                       int              real_dtype,
                       double           value,
                       double           upper)
{
  if (real_dtype == LT_FLOAT32)
    {
      float rounded = (float) value;

      if (rounded >= upper)
        rounded = LT_NEXTAFTERF ((float) upper, -INFINITY);
      while (rounded >= upper)
        rounded = LT_NEXTAFTERF (rounded, -INFINITY);
      *(LT_GLOBAL float *) p = rounded;
    }
  else if (real_dtype == LT_FLOAT64)
    {
      if (value >= upper)
        value = nextafter (upper, -(double) INFINITY);
      *(LT_GLOBAL double *) p = value;
    }
  else
    {
      /* float16 and bfloat16: one step down is one step of the bits, up
       * for negative values (the sign is the top bit in both). */
      lt_random_store_real (p, real_dtype, value);
      while (lt_kernel_load (p, real_dtype).re >= upper)
        {
          lt_u16 bits = *(LT_GLOBAL lt_u16 *) p;

          if (bits == 0)
            bits = 0x8001;
          else if (bits & 0x8000)
            bits++;
          else
            bits--;
          *(LT_GLOBAL lt_u16 *) p = bits;
        }
    }
}

/* Element @i of the fill, in row-major order of the view. */
LT_FUNCTION void
lt_random_element (lt_i64                 i,
                   const LtRandomArgs    *args,
                   LT_GLOBAL lt_u8       *dst,
                   const LT_GLOBAL lt_u8 *probabilities)
{
  lt_i64 at = args->dst_offset, at_p = args->probability_offset, rest = i;
  LT_GLOBAL lt_u8 *p;
  LtKernelValue out;

  for (int d = args->ndim - 1; d >= 0; d--)
    {
      lt_i64 k = rest % args->sizes[d];

      rest /= args->sizes[d];
      at += k * args->dst_strides[d];
      at_p += k * args->probability_strides[d];
    }
  p = dst + at * (lt_i64) args->real_size * (args->is_complex ? 2 : 1);

  out.kind = LT_KIND_INT;
  out.re = 0;
  out.im = 0;
  switch (args->distribution)
    {
    case LT_KRAND_INTEGER:
      {
        lt_u32 words[4];
        int k = lt_random_words (args, (lt_u64) i, words);
        lt_u64 range = (lt_u64) args->high - (lt_u64) args->low;
        lt_u64 draw = args->per_block == 4
                        ? (lt_u64) words[k]
                        : ((((lt_u64) words[2 * k]) << 32) | words[2 * k + 1]);

        out.i = (lt_i64) ((lt_u64) args->low + draw % range);
        lt_kernel_store (p, args->dst_dtype, out);
      }
      return;
    case LT_KRAND_BERNOULLI:
      {
        double probability = LT_ARG_REAL (args->a);

        if (args->has_probabilities)
          {
            LtKernelValue q = lt_kernel_load (probabilities + at_p * args->probability_size,
                                              args->probability_dtype);

            probability = q.kind == LT_KIND_INT ? (double) q.i : q.re;
          }
        out.i = lt_random_uniform (args, (lt_u64) i) < probability ? 1 : 0;
        lt_kernel_store (p, args->dst_dtype, out);
      }
      return;
    default:
      {
        int parts = args->is_complex ? 2 : 1;
        double low = LT_ARG_REAL (args->a), high = LT_ARG_REAL (args->b);
        lt_u64 n_values = (lt_u64) args->n * (lt_u64) parts;

        for (int part = 0; part < parts; part++)
          {
            lt_u64 v = (lt_u64) i * (lt_u64) parts + (lt_u64) part;
            LT_GLOBAL lt_u8 *q = p + part * args->real_size;

            if (args->distribution == LT_KRAND_UNIFORM)
              lt_random_store_below (q, args->real_dtype,
                                     low + (high - low) * lt_random_uniform (args, v), high);
            else
              lt_random_store_real (q, args->real_dtype, lt_random_normal (args, v, n_values));
          }
      }
      return;
    }
}

#endif /* LT_KERNEL_RANDOM_LAYOUT_ONLY */

#endif /* LT_KERNEL_RANDOM_H */
