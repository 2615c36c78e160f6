/* lt-kernel-reduce.h: what a reduction accumulates, for every backend
 *
 * The accumulator of each reduction and how an element or another partial
 * joins it, written once in plain C that the CPU backend, OpenCL C and
 * CUDA C++ all compile, so that every device reduces by the CPU's rules:
 * integers in wrapping 64-bit arithmetic, everything else in double;
 * max/min (and their indices) let NaN win and the first of equals win;
 * logsumexp shifts by the running maximum unless it is infinite; var and
 * std use Welford's update (Chan et al.'s to join partials); norms of any
 * order. The CPU's own fast paths (float sums) only change the order in
 * which elements join.
 *
 * The including file defines first LT_FUNCTION (how helpers are declared)
 * and the integer types lt_i64 and lt_u64; device code also needs double
 * precision, or defines double as float where the device has none (then
 * accumulating in float).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef LT_KERNEL_REDUCE_H
#define LT_KERNEL_REDUCE_H

/* Real launch arguments: double, unless the including file defines
 * LT_ARG_REAL first (OpenCL devices without float64 take a float in the
 * same 8 bytes, so that the host's layout still holds). */
#ifndef LT_ARG_REAL
typedef double lt_arg_real;
#define LT_ARG_REAL(x) (x)
#endif

/* The numbers of LtReduceOp (lt-backend-reduce.h; lt-backend.c checks). */
#define LT_KR_SUM 0
#define LT_KR_PROD 1
#define LT_KR_MEAN 2
#define LT_KR_AMAX 3
#define LT_KR_AMIN 4
#define LT_KR_ALL 5
#define LT_KR_ANY 6
#define LT_KR_LOGSUMEXP 7
#define LT_KR_VAR 8
#define LT_KR_STD 9
#define LT_KR_NORM 10
#define LT_KR_MAX_INDEX 11
#define LT_KR_MIN_INDEX 12

#define LT_KR_I64_MIN (-(lt_i64) 0x7fffffffffffffff - 1)
#define LT_KR_I64_MAX ((lt_i64) 0x7fffffffffffffff)

/* Line operations (lt_line_output()): LtScanOp's ops are LT_KR_SUM and
 * LT_KR_PROD; these are LtSoftmaxOp's. */
#define LT_KR_SOFTMAX 100
#define LT_KR_LOG_SOFTMAX 101

/* What a result is, for lt_reduce_result(). */
#define LT_KR_RESULT_INT 0
#define LT_KR_RESULT_REAL 1
#define LT_KR_RESULT_COMPLEX 2

/* One element: integers in @i, real values in @re, complex ones in @re and @im. */
typedef struct
{
  double re, im;
  lt_i64 i;
} LtReduceElem;

typedef struct
{
  double re, im; /* float sum, product, mean, extreme value, Welford mean, logsumexp max */
  double m2;     /* Welford's sum of squared deviations, logsumexp's scaled sum */
  double m2_im;  /* the same of the imaginary parts */
  lt_i64 i;      /* integer sum, product or extreme value; all, any */
  lt_i64 n;      /* Welford's count, the winner's index, the norm's count */
} LtReduceAcc;

LT_FUNCTION void
lt_reduce_init (int          op,
                double       p,
                LtReduceAcc *acc)
{
  acc->re = 0;
  acc->im = 0;
  acc->m2 = 0;
  acc->m2_im = 0;
  acc->i = 0;
  acc->n = 0;
  switch (op)
    {
    case LT_KR_PROD:
      acc->re = 1;
      acc->i = 1;
      break;
    case LT_KR_AMAX:
    case LT_KR_MAX_INDEX:
      acc->re = -INFINITY;
      acc->i = LT_KR_I64_MIN;
      acc->n = LT_KR_I64_MAX;
      break;
    case LT_KR_AMIN:
    case LT_KR_MIN_INDEX:
      acc->re = INFINITY;
      acc->i = LT_KR_I64_MAX;
      acc->n = LT_KR_I64_MAX;
      break;
    case LT_KR_ALL:
      acc->i = 1;
      break;
    case LT_KR_LOGSUMEXP:
      acc->re = -INFINITY;
      break;
    case LT_KR_NORM:
      if (p == -INFINITY)
        acc->re = INFINITY;
      break;
    }
}

/* Whether (value, index) beats the winner so far: larger (smaller), NaN
 * beating everything, the lower index winning ties. */
LT_FUNCTION int
lt_reduce_float_wins (int    max,
                      double v,
                      lt_i64 index,
                      double best,
                      lt_i64 best_index)
{
  if (isnan (v))
    return !isnan (best) || index < best_index;
  if (isnan (best))
    return 0;
  if (v == best)
    return index < best_index;
  return max ? v > best : v < best;
}

LT_FUNCTION int
lt_reduce_int_wins (int    max,
                    lt_i64 v,
                    lt_i64 index,
                    lt_i64 best,
                    lt_i64 best_index)
{
  if (v == best)
    return index < best_index;
  return max ? v > best : v < best;
}

/* The logsumexp of a partial is m' + log (s) with m' = m, or 0 where m is
 * infinite (as PyTorch shifts by the max unless it is infinite). */
LT_FUNCTION double
lt_reduce_lse_shift (double m)
{
  return isinf (m) ? 0 : m;
}

LT_FUNCTION void
lt_reduce_lse_combine (LtReduceAcc *acc,
                       double       m,
                       double       s)
{
  double new_m;

  if (isnan (acc->re) || s == 0)
    return;
  if (isnan (m))
    {
      acc->re = m;
      return;
    }
  new_m = acc->re > m ? acc->re : m;
  if (acc->m2 != 0)
    acc->m2 *= exp (lt_reduce_lse_shift (acc->re) - lt_reduce_lse_shift (new_m));
  acc->m2 += s * exp (lt_reduce_lse_shift (m) - lt_reduce_lse_shift (new_m));
  acc->re = new_m;
}

/* Chan et al.'s pairwise update of Welford's running mean and M2. */
LT_FUNCTION void
lt_reduce_welford_combine (LtReduceAcc       *acc,
                           const LtReduceAcc *other)
{
  lt_i64 n = acc->n + other->n;
  double dre, dim;

  if (other->n == 0)
    return;
  if (acc->n == 0)
    {
      *acc = *other;
      return;
    }
  dre = other->re - acc->re;
  dim = other->im - acc->im;
  acc->m2 += other->m2 + dre * dre * ((double) acc->n * (double) other->n / (double) n);
  acc->m2_im += other->m2_im + dim * dim * ((double) acc->n * (double) other->n / (double) n);
  acc->re += dre * ((double) other->n / (double) n);
  acc->im += dim * ((double) other->n / (double) n);
  acc->n = n;
}

/* |re + im i|: exact for real values, hypot () for complex ones. */
LT_FUNCTION double
lt_reduce_magnitude (double re,
                     double im)
{
  return im == 0 ? fabs (re) : hypot (re, im);
}

/* Products (LT_KR_PROD of floating-point and complex elements) are kept
 * as a mantissa (re, im) and a power of two (n): the product so far is
 * (re + im i) * 2^n, and after each step the mantissa is brought back
 * within [2^-32, 2^32]. No partial product then overflows or underflows,
 * so the result does not depend on how the work was split: a 0 among
 * elements whose running product would overflow gives 0 (not 0 * inf =
 * NaN) on one thread or on a thousand, and only a real inf or NaN among
 * the elements makes the result inf or NaN. The bounds fit float too, for
 * OpenCL devices without float64. */
#define LT_KR_PROD_HIGH 4294967296.0
#define LT_KR_PROD_LOW (1.0 / 4294967296.0)

LT_FUNCTION void
lt_reduce_prod_normalize (double *re,
                          double *im,
                          lt_i64 *exponent)
{
  double m = fmax (fabs (*re), fabs (*im));
  int e;

  /* Zero, inf and NaN stay as they are. */
  if (!(m >= LT_KR_PROD_HIGH || (m < LT_KR_PROD_LOW && m > 0)) || isinf (m))
    return;
  frexp (m, &e);
  *re = ldexp (*re, -e);
  *im = ldexp (*im, -e);
  *exponent += e;
}

/* Element @e, at row-major position @index among the reduced elements,
 * joins @acc. */
LT_FUNCTION void
lt_reduce_add (int                 op,
               double              p,
               int                 integral,
               int                 is_complex,
               LtReduceAcc        *acc,
               const LtReduceElem *e,
               lt_i64              index)
{
  switch (op)
    {
    case LT_KR_SUM:
    case LT_KR_MEAN:
      if (integral)
        acc->i = (lt_i64) ((lt_u64) acc->i + (lt_u64) e->i);
      else
        {
          acc->re += e->re;
          acc->im += e->im;
        }
      break;
    case LT_KR_PROD:
      if (integral)
        acc->i = (lt_i64) ((lt_u64) acc->i * (lt_u64) e->i);
      else
        {
          double re = e->re, im = is_complex ? e->im : 0;

          lt_reduce_prod_normalize (&re, &im, &acc->n);
          if (is_complex)
            {
              double product_re = acc->re * re - acc->im * im;

              acc->im = acc->re * im + acc->im * re;
              acc->re = product_re;
            }
          else
            acc->re *= re;
          lt_reduce_prod_normalize (&acc->re, &acc->im, &acc->n);
        }
      break;
    case LT_KR_AMAX:
    case LT_KR_AMIN:
    case LT_KR_MAX_INDEX:
    case LT_KR_MIN_INDEX:
      {
        int max = op == LT_KR_AMAX || op == LT_KR_MAX_INDEX;

        if (integral ? lt_reduce_int_wins (max, e->i, index, acc->i, acc->n)
                     : lt_reduce_float_wins (max, e->re, index, acc->re, acc->n))
          {
            acc->i = e->i;
            acc->re = e->re;
            acc->n = index;
          }
      }
      break;
    /* PyTorch 1.13 tests complex elements by their real part alone. */
    case LT_KR_ALL:
      acc->i &= integral ? e->i != 0 : e->re != 0;
      break;
    case LT_KR_ANY:
      acc->i |= integral ? e->i != 0 : e->re != 0;
      break;
    case LT_KR_LOGSUMEXP:
      /* One element x is the partial (x, exp (x - shift (x))). */
      lt_reduce_lse_combine (acc, e->re, exp (e->re - lt_reduce_lse_shift (e->re)));
      break;
    case LT_KR_VAR:
    case LT_KR_STD:
      {
        double dre = e->re - acc->re, dim = e->im - acc->im;

        acc->n++;
        acc->re += dre / (double) acc->n;
        acc->im += dim / (double) acc->n;
        acc->m2 += dre * (e->re - acc->re);
        acc->m2_im += dim * (e->im - acc->im);
      }
      break;
    case LT_KR_NORM:
      {
        double a = lt_reduce_magnitude (e->re, e->im);

        acc->n++;
        if (p == INFINITY)
          acc->re = isnan (a) || a > acc->re ? a : acc->re;
        else if (p == -INFINITY)
          acc->re = isnan (a) || a < acc->re ? a : acc->re;
        else if (p == 0)
          acc->re += a != 0;
        else if (p == 1)
          acc->re += a;
        else if (p == 2)
          acc->re += a * a;
        else
          acc->re += pow (a, p);
      }
      break;
    }
}

/* One step of a running sum or product (a scan, whose every step is an
 * output): in order, as the CPU's loop computes it, products unscaled. */
LT_FUNCTION void
lt_reduce_scan_add (int                 op,
                    int                 integral,
                    int                 is_complex,
                    LtReduceAcc        *acc,
                    const LtReduceElem *e)
{
  if (op != LT_KR_PROD)
    lt_reduce_add (op, 0, integral, is_complex, acc, e, 0);
  else if (integral)
    acc->i = (lt_i64) ((lt_u64) acc->i * (lt_u64) e->i);
  else if (is_complex)
    {
      double re = acc->re * e->re - acc->im * e->im;

      acc->im = acc->re * e->im + acc->im * e->re;
      acc->re = re;
    }
  else
    acc->re *= e->re;
}

/* The partial @other (of later elements) joins @acc. */
LT_FUNCTION void
lt_reduce_combine (int                op,
                   double             p,
                   int                integral,
                   int                is_complex,
                   LtReduceAcc       *acc,
                   const LtReduceAcc *other)
{
  LtReduceElem e;

  e.re = other->re;
  e.im = other->im;
  e.i = other->i;
  switch (op)
    {
    case LT_KR_LOGSUMEXP:
      lt_reduce_lse_combine (acc, other->re, other->m2);
      break;
    case LT_KR_VAR:
    case LT_KR_STD:
      lt_reduce_welford_combine (acc, other);
      break;
    case LT_KR_NORM:
      {
        lt_i64 n = acc->n + other->n;

        e.im = 0;
        if (p == INFINITY || p == -INFINITY)
          {
            if (other->n > 0)
              lt_reduce_add (op, p, integral, is_complex, acc, &e, 0);
          }
        else
          acc->re += other->re;
        acc->n = n;
      }
      break;
    case LT_KR_AMAX:
    case LT_KR_AMIN:
    case LT_KR_MAX_INDEX:
    case LT_KR_MIN_INDEX:
      if (other->n != LT_KR_I64_MAX)
        {
          e.im = 0;
          lt_reduce_add (op, p, integral, is_complex, acc, &e, other->n);
        }
      break;
    case LT_KR_ALL:
      acc->i &= other->i;
      break;
    case LT_KR_ANY:
      acc->i |= other->i;
      break;
    case LT_KR_PROD:
      lt_reduce_add (op, p, integral, is_complex, acc, &e, 0);
      if (!integral)
        acc->n += other->n;
      break;
    default:
      lt_reduce_add (op, p, integral, is_complex, acc, &e, 0);
      break;
    }
}

/* The result of @acc over @count elements, into *@i or *@re and *@im;
 * returns which (LT_KR_RESULT_*). A complex result written to a real dtype
 * keeps its real part, which is what every real input's accumulator
 * holds. */
LT_FUNCTION int
lt_reduce_result (int                op,
                  double             correction,
                  double             p,
                  int                integral,
                  int                is_complex,
                  const LtReduceAcc *acc,
                  lt_i64             count,
                  lt_i64            *i,
                  double            *re,
                  double            *im)
{
  *i = 0;
  *re = 0;
  *im = 0;
  switch (op)
    {
    case LT_KR_PROD:
      if (!integral)
        {
          /* Far enough beyond any dtype's range to give inf or 0. */
          int scale = (int) (acc->n > 100000 ? 100000 : acc->n < -100000 ? -100000 : acc->n);

          *re = ldexp (acc->re, scale);
          *im = ldexp (acc->im, scale);
          return LT_KR_RESULT_COMPLEX;
        }
      *i = acc->i;
      return LT_KR_RESULT_INT;
    case LT_KR_SUM:
    case LT_KR_AMAX:
    case LT_KR_AMIN:
    case LT_KR_MAX_INDEX:
    case LT_KR_MIN_INDEX:
      if (integral)
        {
          *i = acc->i;
          return LT_KR_RESULT_INT;
        }
      *re = acc->re;
      *im = acc->im;
      return LT_KR_RESULT_COMPLEX;
    case LT_KR_ALL:
    case LT_KR_ANY:
      *i = acc->i;
      return LT_KR_RESULT_INT;
    case LT_KR_MEAN:
      {
        double c = (double) count;

        /* PyTorch divides by the is_complex count, (c + 0i), with the textbook
         * formula, where an infinite part times 0 makes the other part NaN. */
        *re = (acc->re * c + acc->im * 0.0) / (c * c);
        *im = (acc->im * c - acc->re * 0.0) / (c * c);
        return LT_KR_RESULT_COMPLEX;
      }
    case LT_KR_LOGSUMEXP:
      *re = isnan (acc->re) ? acc->re : log (acc->m2) + lt_reduce_lse_shift (acc->re);
      return LT_KR_RESULT_REAL;
    case LT_KR_VAR:
    case LT_KR_STD:
      {
        double divisor = (double) acc->n - correction;
        double var;

        divisor = divisor > 0.0 ? divisor : 0.0;
        /* A complex variance is that of the real parts plus that of the
         * imaginary parts, each divided on its own as PyTorch does (0 / 0
         * in one is NaN even when the other is infinite). */
        var = acc->m2 / divisor + (is_complex ? acc->m2_im / divisor : 0.0);
        *re = op == LT_KR_STD ? sqrt (var) : var;
        return LT_KR_RESULT_REAL;
      }
    case LT_KR_NORM:
      {
        double r = acc->re;

        if (acc->n == 0)
          r = 0;
        else if (p == 2)
          r = sqrt (r);
        else if (p != 0 && p != 1 && !isinf (p))
          r = pow (r, 1.0 / p);
        *re = r;
        return LT_KR_RESULT_REAL;
      }
    }
  return LT_KR_RESULT_INT;
}

/* A reduction on a device: the dims kept (walked by the output elements)
 * and the dims reduced (walked by each output's loop, in row-major order),
 * in element strides, size-1 dims dropped; the same layout in the host's C
 * and in the kernels. */
#define LT_KR_MAX_DIMS 16

typedef struct
{
  lt_i64 kept_sizes[LT_KR_MAX_DIMS];
  lt_i64 kept_src_strides[LT_KR_MAX_DIMS];
  lt_i64 kept_dst_strides[LT_KR_MAX_DIMS];
  lt_i64 reduced_sizes[LT_KR_MAX_DIMS];
  lt_i64 reduced_src_strides[LT_KR_MAX_DIMS];
  /* Line operations: the line's step in dst (one reduced dim). */
  lt_i64 line_dst_stride;
  int n_kept;
  int n_reduced;
} LtReduceShape;

typedef struct
{
  lt_i64 dst_offset;
  lt_i64 indices_offset;
  lt_i64 src_offset;
  lt_i64 n_out;
  lt_i64 n_reduced;
  lt_arg_real correction;
  lt_arg_real p;
  /* allclose: |a - b| <= atol + rtol * |b|, NaNs equal when equal_nan. */
  lt_arg_real rtol;
  lt_arg_real atol;
  int equal_nan;
  int op;
  int dst_dtype;
  int dst_size;
  int src_dtype;
  int src_size;
  int integral;
  int is_complex;
  int has_dst;
  int has_indices;
} LtReduceArgs;

#ifdef LT_KERNEL_REDUCE_WALK

/* Element @r (row-major over the reduced dims) joins @acc. */
LT_FUNCTION void
lt_reduce_accumulate_one (const LtReduceArgs    *args,
                          const LT_GLOBAL lt_u8 *src,
                          lt_i64                 at,
                          lt_i64                 r,
                          LtReduceAcc           *acc)
{
  LtKernelValue v = lt_kernel_load (src + at * args->src_size, args->src_dtype);
  LtReduceElem e;

  e.i = v.kind == LT_KIND_INT ? v.i : 0;
  e.re = v.kind == LT_KIND_INT ? (double) v.i : v.re;
  e.im = v.im;
  lt_reduce_add (args->op, LT_ARG_REAL (args->p), args->integral, args->is_complex, acc, &e, r);
}

/* The reduced elements r_begin, r_begin + r_step, ... below r_end
 * (row-major over the reduced dims, from @at_src) join @acc. */
LT_FUNCTION void
lt_reduce_accumulate_range (const LtReduceArgs    *args,
                            const LtReduceShape   *shape,
                            const LT_GLOBAL lt_u8 *src,
                            lt_i64                 at_src,
                            lt_i64                 r_begin,
                            lt_i64                 r_end,
                            lt_i64                 r_step,
                            LtReduceAcc           *acc)
{
  if (shape->n_reduced == 1)
    {
      /* One reduced dim (the usual case once the host merged what it
       * could): no division per element. */
      lt_i64 stride = shape->reduced_src_strides[0];

      for (lt_i64 r = r_begin; r < r_end; r += r_step)
        lt_reduce_accumulate_one (args, src, at_src + r * stride, r, acc);
      return;
    }
  for (lt_i64 r = r_begin; r < r_end; r += r_step)
    {
      lt_i64 at = at_src, rest_r = r;

      for (int d = shape->n_reduced - 1; d >= 0; d--)
        {
          lt_i64 k = rest_r % shape->reduced_sizes[d];

          rest_r /= shape->reduced_sizes[d];
          at += k * shape->reduced_src_strides[d];
        }
      lt_reduce_accumulate_one (args, src, at, r, acc);
    }
}

/* The reduced elements r_begin, r_begin + r_step, ... (row-major over the
 * reduced dims, from @at_src) join @acc. */
LT_FUNCTION void
lt_reduce_accumulate (const LtReduceArgs    *args,
                      const LtReduceShape   *shape,
                      const LT_GLOBAL lt_u8 *src,
                      lt_i64                 at_src,
                      lt_i64                 r_begin,
                      lt_i64                 r_step,
                      LtReduceAcc           *acc)
{
  lt_reduce_accumulate_range (args, shape, src, at_src, r_begin, args->n_reduced, r_step, acc);
}

/* The result of @acc stored in dst's dtype, and the winner's index in
 * indices, at output offset @at_out. */
LT_FUNCTION void
lt_reduce_store (const LtReduceArgs *args,
                 const LtReduceAcc  *acc,
                 lt_i64              at_out,
                 LT_GLOBAL lt_u8    *dst,
                 LT_GLOBAL lt_i64   *indices)
{
  LtKernelValue v;
  int kind = lt_reduce_result (args->op, LT_ARG_REAL (args->correction), LT_ARG_REAL (args->p),
                               args->integral, args->is_complex, acc, args->n_reduced, &v.i,
                               &v.re, &v.im);

  v.kind = kind == LT_KR_RESULT_INT    ? LT_KIND_INT
           : kind == LT_KR_RESULT_REAL ? LT_KIND_FLOAT
                                       : LT_KIND_COMPLEX;
  if (args->has_dst)
    lt_kernel_store (dst + (args->dst_offset + at_out) * args->dst_size, args->dst_dtype, v);
  if (args->has_indices)
    indices[args->indices_offset + at_out] = acc->n;
}

/* The storage offsets of output element (or line) @o's first source and
 * destination elements, over the kept dims. */
LT_FUNCTION void
lt_reduce_kept_offsets (lt_i64               o,
                        const LtReduceShape *shape,
                        lt_i64              *at_src,
                        lt_i64              *at_out)
{
  for (int d = shape->n_kept - 1; d >= 0; d--)
    {
      lt_i64 k = o % shape->kept_sizes[d];

      o /= shape->kept_sizes[d];
      *at_src += k * shape->kept_src_strides[d];
      *at_out += k * shape->kept_dst_strides[d];
    }
}

/* Output element @o of a reduction (device kernels only: needs
 * lt-kernel-convert.h): its reduced elements in row-major order, one
 * accumulator, the result stored in dst's dtype and the winner's index in
 * indices. */
LT_FUNCTION void
lt_reduce_output (lt_i64                 o,
                  const LtReduceArgs    *args,
                  const LtReduceShape   *shape,
                  LT_GLOBAL lt_u8       *dst,
                  LT_GLOBAL lt_i64      *indices,
                  const LT_GLOBAL lt_u8 *src)
{
  lt_i64 at_src = args->src_offset, at_out = 0;
  LtReduceAcc acc;

  lt_reduce_kept_offsets (o, shape, &at_src, &at_out);
  lt_reduce_init (args->op, LT_ARG_REAL (args->p), &acc);
  lt_reduce_accumulate (args, shape, src, at_src, 0, 1, &acc);
  lt_reduce_store (args, &acc, at_out, dst, indices);
}

LT_FUNCTION double
lt_reduce_load_real (const LT_GLOBAL lt_u8 *p,
                     int                    dtype)
{
  LtKernelValue v = lt_kernel_load (p, dtype);

  return v.kind == LT_KIND_INT ? (double) v.i : v.re;
}

LT_FUNCTION void
lt_reduce_store_real (LT_GLOBAL lt_u8 *p,
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

/* The element at @p of a scan's input, as lt_reduce_scan_add () takes it. */
LT_FUNCTION LtReduceElem
lt_scan_load (const LT_GLOBAL lt_u8 *p,
              int                    dtype)
{
  LtKernelValue v = lt_kernel_load (p, dtype);
  LtReduceElem e;

  e.i = v.kind == LT_KIND_INT ? v.i : 0;
  e.re = v.kind == LT_KIND_INT ? (double) v.i : v.re;
  e.im = v.im;
  return e;
}

/* A scan's running value @acc, stored at @p. */
LT_FUNCTION void
lt_scan_store (LT_GLOBAL lt_u8          *p,
               const LtReduceArgs       *args,
               const LtReduceAcc        *acc)
{
  LtKernelValue v;

  v.kind = args->integral ? LT_KIND_INT : args->is_complex ? LT_KIND_COMPLEX : LT_KIND_FLOAT;
  v.i = acc->i;
  v.re = acc->re;
  v.im = acc->im;
  lt_kernel_store (p, args->dst_dtype, v);
}

/* Line @o of a scan (running sum or product, args->op LT_KR_SUM or
 * LT_KR_PROD) or a softmax (LT_KR_SOFTMAX, LT_KR_LOG_SOFTMAX) along the
 * one reduced dim, as the CPU computes them. */
LT_FUNCTION void
lt_line_output (lt_i64                 o,
                const LtReduceArgs    *args,
                const LtReduceShape   *shape,
                LT_GLOBAL lt_u8       *dst,
                const LT_GLOBAL lt_u8 *src)
{
  lt_i64 at_src = args->src_offset, at_dst = args->dst_offset;
  lt_i64 src_step = shape->reduced_src_strides[0], dst_step = shape->line_dst_stride;
  lt_i64 length = args->n_reduced;
  double max = -INFINITY, sum = 0;

  lt_reduce_kept_offsets (o, shape, &at_src, &at_dst);
  if (args->op == LT_KR_SUM || args->op == LT_KR_PROD)
    {
      LtReduceAcc acc;

      lt_reduce_init (args->op, 0, &acc);
      for (lt_i64 t = 0; t < length; t++)
        {
          LtReduceElem e = lt_scan_load (src + (at_src + t * src_step) * args->src_size,
                                         args->src_dtype);

          lt_reduce_scan_add (args->op, args->integral, args->is_complex, &acc, &e);
          lt_scan_store (dst + (at_dst + t * dst_step) * args->dst_size, args, &acc);
        }
      return;
    }

  /* A NaN anywhere makes the max, and so every result, NaN. */
  for (lt_i64 t = 0; t < length; t++)
    {
      double x = lt_reduce_load_real (src + (at_src + t * src_step) * args->src_size,
                                      args->src_dtype);

      if (isnan (x) || x > max)
        max = isnan (max) ? max : x;
    }
  if (args->op == LT_KR_SOFTMAX && args->dst_dtype == LT_FLOAT32)
    {
      /* As the CPU: the float32 results hold exp () until the sum is known. */
      float scale;

      for (lt_i64 t = 0; t < length; t++)
        {
          double e = exp (lt_reduce_load_real (src + (at_src + t * src_step) * args->src_size,
                                               args->src_dtype)
                          - max);

          ((LT_GLOBAL float *) dst)[at_dst + t * dst_step] = (float) e;
          sum += e;
        }
      scale = (float) (1 / sum);
      for (lt_i64 t = 0; t < length; t++)
        ((LT_GLOBAL float *) dst)[at_dst + t * dst_step] *= scale;
      return;
    }
  for (lt_i64 t = 0; t < length; t++)
    sum += exp (lt_reduce_load_real (src + (at_src + t * src_step) * args->src_size,
                                     args->src_dtype)
                - max);
  for (lt_i64 t = 0; t < length; t++)
    {
      double x = lt_reduce_load_real (src + (at_src + t * src_step) * args->src_size,
                                      args->src_dtype);

      lt_reduce_store_real (dst + (at_dst + t * dst_step) * args->dst_size, args->dst_dtype,
                            args->op == LT_KR_SOFTMAX ? exp (x - max) * (1 / sum)
                                                      : x - (max + log (sum)));
    }
}

/* Whether element @o of a (src) and b (dst, read only) are close, as the
 * CPU's allclose decides. */
LT_FUNCTION int
lt_allclose_element (lt_i64                 o,
                     const LtReduceArgs    *args,
                     const LtReduceShape   *shape,
                     const LT_GLOBAL lt_u8 *b,
                     const LT_GLOBAL lt_u8 *a)
{
  lt_i64 at_a = args->src_offset, at_b = args->dst_offset;
  LtKernelValue x, y;
  double dre, dim, error, magnitude;
  double atol = LT_ARG_REAL (args->atol), rtol = LT_ARG_REAL (args->rtol);

  lt_reduce_kept_offsets (o, shape, &at_a, &at_b);
  x = lt_kernel_load (a + at_a * args->src_size, args->src_dtype);
  y = lt_kernel_load (b + at_b * args->dst_size, args->dst_dtype);
  if (x.kind == LT_KIND_INT && y.kind == LT_KIND_INT)
    {
      double diff;

      if (x.i == y.i)
        return 1;
      /* At least 1: doubles may round two large int64 together. */
      diff = fabs ((double) x.i - (double) y.i);
      diff = diff > 1.0 ? diff : 1.0;
      return diff <= atol + rtol * fabs ((double) y.i);
    }
  if (x.kind == LT_KIND_INT)
    x.re = (double) x.i;
  if (y.kind == LT_KIND_INT)
    y.re = (double) y.i;
  if (x.re == y.re && x.im == y.im)
    return 1;
  if ((isnan (x.re) || isnan (x.im)) && (isnan (y.re) || isnan (y.im)))
    return args->equal_nan;
  dre = x.re - y.re;
  dim = x.im - y.im;
  error = lt_reduce_magnitude (dre, dim);
  magnitude = lt_reduce_magnitude (y.re, y.im);
  /* An infinite difference is never close, even against an infinite
   * tolerance. */
  return isfinite (error) && error <= atol + rtol * magnitude;
}

#endif /* LT_KERNEL_REDUCE_WALK */

#endif /* LT_KERNEL_REDUCE_H */
