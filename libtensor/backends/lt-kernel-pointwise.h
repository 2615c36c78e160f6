/* lt-kernel-pointwise.h: the element-wise rules, for device kernels
 *
 * What each unary, binary and ternary op computes on one element, written
 * once in the C that OpenCL C and CUDA C++ both compile, by the CPU's rules
 * (lt-cpu-pointwise.c): integers wrap as unsigned 64-bit arithmetic does,
 * integer division rounds as Python's and never traps, float16 and
 * bfloat16 compute in float, maximum and minimum let NaN through, complex
 * division is Smith's and complex powers are exp (y log x), as C's cpow.
 * Exact ops (arithmetic, comparisons, rounding) give the CPU's bits as long
 * as the compiler does not contract a * b + c (OpenCL: FP_CONTRACT OFF;
 * nvcc: -fmad=false); transcendental ones are as close as the device's
 * math library.
 *
 * Included once per computation dtype, after lt-kernel-convert.h and
 * lt-kernel-ops.h, with these defined:
 *   LT_PW_KIND       LT_PW_KIND_INT (bool and integers), _FLOAT or _COMPLEX
 *   LT_PW_IS_BOOL    1 for bool (stored as 0 or 1, ~ is logical)
 *   LT_PW_T          the storage type of an element
 *   LT_PW_C          the type computed in (float for float16 and bfloat16)
 *   LT_PW_R          the real type of a complex LT_PW_C (else LT_PW_C)
 *   LT_PW_LOAD(t)    T to C;  LT_PW_STORE(c)  C to T, rounding
 *   LT_PW_MAKE(r, i) a complex C from its parts (complex only)
 *   LT_PW_FN(name)   the name of this dtype's copy of a helper
 * and it defines, for this dtype:
 *   C   LT_PW_FN (lt_pw_unary) (op, x)           ops that keep the dtype
 *   int LT_PW_FN (lt_pw_test) (op, x)            ops that give bools
 *   C   LT_PW_FN (lt_pw_binary) (op, x, y, alpha_i, alpha, use_alpha)
 *   int LT_PW_FN (lt_pw_compare) (op, x, y)
 *   C   LT_PW_FN (lt_pw_lerp) (x, y, w)          (float and complex)
 *   C   LT_PW_FN (lt_pw_clamp) (x, lo, hi)       (bool, int and float)
 *   R   LT_PW_FN (lt_pw_abs) (x)                 (complex: |x| is real)
 *   int LT_PW_FN (lt_pw_is_zero) (x)
 * Ops a dtype has no rule for (the tensor layer refuses them before any
 * kernel runs) give 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef LT_KERNEL_POINTWISE_COMMON
#define LT_KERNEL_POINTWISE_COMMON

#define LT_PW_KIND_INT 1
#define LT_PW_KIND_FLOAT 2
#define LT_PW_KIND_COMPLEX 3

/* Python's floor division; the most negative value / -1 wraps around. */
LT_FUNCTION lt_i64
lt_pw_int_floordiv (lt_i64 a,
                    lt_i64 b)
{
  lt_i64 q, r;

  if (b == -1)
    return (lt_i64) (0 - (lt_u64) a);
  q = a / b;
  r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    q--;
  return q;
}

LT_FUNCTION lt_i64
lt_pw_int_truncdiv (lt_i64 a,
                    lt_i64 b)
{
  if (b == -1)
    return (lt_i64) (0 - (lt_u64) a);
  return a / b;
}

LT_FUNCTION lt_i64
lt_pw_int_remainder (lt_i64 a,
                     lt_i64 b)
{
  lt_i64 r;

  if (b == -1)
    return 0;
  r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

/* PyTorch's powi: negative exponents give 1, -1 or 0 by the base. */
LT_FUNCTION lt_u64
lt_pw_int_pow (lt_i64 base,
               lt_i64 exponent)
{
  lt_u64 result = 1, b = (lt_u64) base;

  if (exponent < 0)
    {
      if (base == 1)
        return 1;
      if (base == -1)
        return (exponent & 1) ? (lt_u64) -1 : 1;
      return 0;
    }
  while (exponent != 0)
    {
      if (exponent & 1)
        result *= b;
      b *= b;
      exponent >>= 1;
    }
  return result;
}

#endif /* LT_KERNEL_POINTWISE_COMMON */

/* The CPU includes only the integer helpers above. */
#ifdef LT_PW_KIND

#if LT_PW_KIND == LT_PW_KIND_INT

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_unary) (int     op,
                        LT_PW_C x)
{
  lt_i64 v = (lt_i64) x;

  switch (op)
    {
    case LT_K_NEG:
      return (LT_PW_C) (0 - (lt_u64) x);
    case LT_K_ABS:
      return (LT_PW_C) (v < 0 ? 0 - (lt_u64) v : (lt_u64) v);
    case LT_K_SIGN:
      return (LT_PW_C) ((v > 0) - (v < 0));
    case LT_K_RELU:
      return v > 0 ? x : (LT_PW_C) 0;
    case LT_K_FLOOR:
    case LT_K_CEIL:
    case LT_K_ROUND:
    case LT_K_TRUNC:
      return x;
    case LT_K_BITWISE_NOT:
#if LT_PW_IS_BOOL
      return (LT_PW_C) (x == 0);
#else
      return (LT_PW_C) ~x;
#endif
    }
  return (LT_PW_C) 0;
}

LT_FUNCTION int
LT_PW_FN (lt_pw_test) (int     op,
                       LT_PW_C x)
{
  switch (op)
    {
    case LT_K_LOGICAL_NOT:
      return x == 0;
    case LT_K_ISFINITE:
      return 1;
    }
  return 0;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_binary) (int     op,
                         LT_PW_C x,
                         LT_PW_C y,
                         lt_i64  alpha_i,
                         LT_PW_C alpha,
                         int     use_alpha)
{
  lt_u64 a = (lt_u64) x, b = (lt_u64) y;

  (void) alpha;
  switch (op)
    {
    case LT_K_ADD:
      return (LT_PW_C) (use_alpha ? a + (lt_u64) alpha_i * b : a + b);
    case LT_K_SUB:
      return (LT_PW_C) (use_alpha ? a - (lt_u64) alpha_i * b : a - b);
    case LT_K_MUL:
      return (LT_PW_C) (a * b);
    case LT_K_FLOOR_DIVIDE:
      return (LT_PW_C) lt_pw_int_floordiv ((lt_i64) x, (lt_i64) y);
    case LT_K_TRUNC_DIVIDE:
      return (LT_PW_C) lt_pw_int_truncdiv ((lt_i64) x, (lt_i64) y);
    case LT_K_REMAINDER:
      return (LT_PW_C) lt_pw_int_remainder ((lt_i64) x, (lt_i64) y);
    case LT_K_POW:
      return (LT_PW_C) lt_pw_int_pow ((lt_i64) x, (lt_i64) y);
    case LT_K_MAXIMUM:
      return x > y ? x : y;
    case LT_K_MINIMUM:
      return x < y ? x : y;
    case LT_K_BITWISE_AND:
      return (LT_PW_C) (x & y);
    case LT_K_BITWISE_OR:
      return (LT_PW_C) (x | y);
    case LT_K_BITWISE_XOR:
      return (LT_PW_C) (x ^ y);
    }
  return (LT_PW_C) 0;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_clamp) (LT_PW_C x,
                        LT_PW_C lo,
                        LT_PW_C hi)
{
  LT_PW_C m = x > lo ? x : lo;

  return m < hi ? m : hi;
}

LT_FUNCTION int
LT_PW_FN (lt_pw_is_zero) (LT_PW_C x)
{
  return x == 0;
}

#elif LT_PW_KIND == LT_PW_KIND_FLOAT

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_floordiv) (LT_PW_C a,
                           LT_PW_C b)
{
  LT_PW_C mod, div, floordiv;

  if (b == 0)
    return a / b;
  mod = fmod (a, b);
  div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0)))
    div -= 1;
  if (div != 0)
    {
      floordiv = floor (div);
      if (div - floordiv > (LT_PW_C) 0.5)
        floordiv += 1;
    }
  else
    floordiv = copysign ((LT_PW_C) 0, a / b);
  return floordiv;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_remainder) (LT_PW_C a,
                            LT_PW_C b)
{
  LT_PW_C mod = fmod (a, b);

  if (mod != 0 && ((b < 0) != (mod < 0)))
    mod += b;
  return mod;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_unary) (int     op,
                        LT_PW_C x)
{
  switch (op)
    {
    case LT_K_NEG:
      return -x;
    case LT_K_ABS:
      return fabs (x);
    case LT_K_SIGN:
      return (LT_PW_C) ((x > 0) - (x < 0));
    case LT_K_SQRT:
      return sqrt (x);
    case LT_K_RSQRT:
      return (LT_PW_C) 1 / sqrt (x);
    case LT_K_EXP:
      return exp (x);
    case LT_K_LOG:
      return log (x);
    case LT_K_LOG1P:
      return log1p (x);
    case LT_K_EXPM1:
      return expm1 (x);
    case LT_K_SIN:
      return sin (x);
    case LT_K_COS:
      return cos (x);
    case LT_K_TAN:
      return tan (x);
    case LT_K_TANH:
      return tanh (x);
    case LT_K_ERF:
      return erf (x);
    case LT_K_SIGMOID:
      return (LT_PW_C) 1 / ((LT_PW_C) 1 + exp (-x));
    case LT_K_RELU:
      return x != x ? x : x > 0 ? x : (LT_PW_C) 0;
    case LT_K_FLOOR:
      return floor (x);
    case LT_K_CEIL:
      return ceil (x);
    case LT_K_ROUND:
      return rint (x);
    case LT_K_TRUNC:
      return trunc (x);
    }
  return (LT_PW_C) 0;
}

LT_FUNCTION int
LT_PW_FN (lt_pw_test) (int     op,
                       LT_PW_C x)
{
  switch (op)
    {
    case LT_K_LOGICAL_NOT:
      return x == 0;
    case LT_K_ISNAN:
      return x != x;
    case LT_K_ISINF:
      return isinf (x) != 0;
    case LT_K_ISFINITE:
      return isfinite (x) != 0;
    }
  return 0;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_binary) (int     op,
                         LT_PW_C x,
                         LT_PW_C y,
                         lt_i64  alpha_i,
                         LT_PW_C alpha,
                         int     use_alpha)
{
  (void) alpha_i;
  switch (op)
    {
    case LT_K_ADD:
      return use_alpha ? x + alpha * y : x + y;
    case LT_K_SUB:
      return use_alpha ? x - alpha * y : x - y;
    case LT_K_MUL:
      return x * y;
    case LT_K_DIV:
      return x / y;
    case LT_K_FLOOR_DIVIDE:
      return LT_PW_FN (lt_pw_floordiv) (x, y);
    case LT_K_TRUNC_DIVIDE:
      return trunc (x / y);
    case LT_K_REMAINDER:
      return LT_PW_FN (lt_pw_remainder) (x, y);
    case LT_K_POW:
      return pow (x, y);
    case LT_K_MAXIMUM:
      return x != x ? x : y != y ? y : x > y ? x : y;
    case LT_K_MINIMUM:
      return x != x ? x : y != y ? y : x < y ? x : y;
    }
  return (LT_PW_C) 0;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_lerp) (LT_PW_C x,
                       LT_PW_C y,
                       LT_PW_C w)
{
  return fabs (w) < (LT_PW_C) 0.5 ? x + w * (y - x) : y - (y - x) * ((LT_PW_C) 1 - w);
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_clamp) (LT_PW_C x,
                        LT_PW_C lo,
                        LT_PW_C hi)
{
  LT_PW_C m = x != x ? x : lo != lo ? lo : x > lo ? x : lo;

  return m != m ? m : hi != hi ? hi : m < hi ? m : hi;
}

LT_FUNCTION int
LT_PW_FN (lt_pw_is_zero) (LT_PW_C x)
{
  return x == 0;
}

#elif LT_PW_KIND == LT_PW_KIND_COMPLEX

/* Complex numbers are pairs (.x real, .y imaginary); each function is C's
 * complex function, for finite values to within the device's rounding. */

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_cmul) (LT_PW_C a,
                       LT_PW_C b)
{
  return LT_PW_MAKE (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

/* Smith's algorithm, as PyTorch divides. */
LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_cdiv) (LT_PW_C x,
                       LT_PW_C y)
{
  LT_PW_R a = x.x, b = x.y, c = y.x, d = y.y;
  LT_PW_R abs_c = fabs (c), abs_d = fabs (d), re, im;

  if (abs_c >= abs_d)
    {
      if (abs_c == 0 && abs_d == 0)
        {
          re = a / abs_c;
          im = b / abs_d;
        }
      else
        {
          LT_PW_R rat = d / c, scl = (LT_PW_R) 1 / (c + d * rat);

          re = (a + b * rat) * scl;
          im = (b - a * rat) * scl;
        }
    }
  else
    {
      LT_PW_R rat = c / d, scl = (LT_PW_R) 1 / (d + c * rat);

      re = (a * rat + b) * scl;
      im = (b * rat - a) * scl;
    }
  return LT_PW_MAKE (re, im);
}

/* C's complex division (the CPU's 1 / z): Smith's, then Annex G's
 * recovery of infinities and zeros from what came out NaN. */
LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_cdiv_c) (LT_PW_C x,
                         LT_PW_C y)
{
  LT_PW_C r = LT_PW_FN (lt_pw_cdiv) (x, y);
  LT_PW_R a = x.x, b = x.y, c = y.x, d = y.y;

  if (!(r.x != r.x && r.y != r.y))
    return r;
  if (c == 0 && d == 0 && (a == a || b == b))
    return LT_PW_MAKE (copysign ((LT_PW_R) INFINITY, c) * a, copysign ((LT_PW_R) INFINITY, c) * b);
  if ((isinf (a) || isinf (b)) && isfinite (c) && isfinite (d))
    {
      a = copysign (isinf (a) ? (LT_PW_R) 1 : (LT_PW_R) 0, a);
      b = copysign (isinf (b) ? (LT_PW_R) 1 : (LT_PW_R) 0, b);
      return LT_PW_MAKE ((LT_PW_R) INFINITY * (a * c + b * d),
                         (LT_PW_R) INFINITY * (b * c - a * d));
    }
  if ((isinf (c) || isinf (d)) && isfinite (a) && isfinite (b))
    {
      c = copysign (isinf (c) ? (LT_PW_R) 1 : (LT_PW_R) 0, c);
      d = copysign (isinf (d) ? (LT_PW_R) 1 : (LT_PW_R) 0, d);
      return LT_PW_MAKE ((LT_PW_R) 0 * (a * c + b * d), (LT_PW_R) 0 * (b * c - a * d));
    }
  return r;
}

LT_FUNCTION LT_PW_R
LT_PW_FN (lt_pw_abs) (LT_PW_C z)
{
  return hypot (z.x, z.y);
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_cexp) (LT_PW_C z)
{
  LT_PW_R magnitude = exp (z.x);

  if (z.y == 0)
    return LT_PW_MAKE (magnitude, z.y);
  /* C's Annex G: e^-inf is 0 whatever the angle, e^inf at an angle that is
   * not a number is inf at an unknown angle. */
  if (isinf (z.x) && !isfinite (z.y))
    return z.x < 0 ? LT_PW_MAKE ((LT_PW_R) 0, (LT_PW_R) 0) : LT_PW_MAKE (z.x, z.y - z.y);
  return LT_PW_MAKE (magnitude * cos (z.y), magnitude * sin (z.y));
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_clog) (LT_PW_C z)
{
  return LT_PW_MAKE (log (hypot (z.x, z.y)), atan2 (z.y, z.x));
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_csqrt) (LT_PW_C z)
{
  LT_PW_R t;

  if (z.x == 0 && z.y == 0)
    return LT_PW_MAKE ((LT_PW_R) 0, z.y);
  /* C's Annex G for infinite parts. */
  if (isinf (z.y))
    return LT_PW_MAKE ((LT_PW_R) INFINITY, z.y);
  if (isinf (z.x) && z.x < 0)
    return LT_PW_MAKE (z.y != z.y ? z.y : (LT_PW_R) 0, copysign ((LT_PW_R) INFINITY, z.y));
  if (isinf (z.x))
    return LT_PW_MAKE (z.x, z.y != z.y ? z.y : copysign ((LT_PW_R) 0, z.y));
  t = sqrt ((fabs (z.x) + hypot (z.x, z.y)) * (LT_PW_R) 0.5);
  if (z.x >= 0)
    return LT_PW_MAKE (t, z.y / (2 * t));
  return LT_PW_MAKE (fabs (z.y) / (2 * t), copysign (t, z.y));
}

/* Kahan's formula, which neither overflows nor cancels. */
LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_ctanh) (LT_PW_C z)
{
  LT_PW_R t, beta, s, rho, denominator;

  if (fabs (z.x) >= (LT_PW_R) 22)
    return LT_PW_MAKE (copysign ((LT_PW_R) 1, z.x),
                       isfinite (z.y) ? 4 * sin (z.y) * cos (z.y) * exp (-2 * fabs (z.x))
                                      : copysign ((LT_PW_R) 0, z.y));
  t = tan (z.y);
  beta = 1 + t * t;
  s = sinh (z.x);
  rho = sqrt (1 + s * s);
  denominator = 1 + beta * s * s;
  return LT_PW_MAKE (beta * rho * s / denominator, t / denominator);
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_unary) (int     op,
                        LT_PW_C x)
{
  switch (op)
    {
    case LT_K_NEG:
      return LT_PW_MAKE (-x.x, -x.y);
    case LT_K_SQRT:
      return LT_PW_FN (lt_pw_csqrt) (x);
    case LT_K_RSQRT:
      return LT_PW_FN (lt_pw_cdiv_c) (LT_PW_MAKE ((LT_PW_R) 1, (LT_PW_R) 0),
                                    LT_PW_FN (lt_pw_csqrt) (x));
    case LT_K_EXP:
      return LT_PW_FN (lt_pw_cexp) (x);
    case LT_K_LOG:
      return LT_PW_FN (lt_pw_clog) (x);
    case LT_K_SIN:
      return LT_PW_MAKE (sin (x.x) * cosh (x.y), cos (x.x) * sinh (x.y));
    case LT_K_COS:
      return LT_PW_MAKE (cos (x.x) * cosh (x.y), -(sin (x.x) * sinh (x.y)));
    case LT_K_TAN:
      {
        /* tan z = -i tanh (i z) */
        LT_PW_C w = LT_PW_FN (lt_pw_ctanh) (LT_PW_MAKE (-x.y, x.x));

        return LT_PW_MAKE (w.y, -w.x);
      }
    case LT_K_TANH:
      return LT_PW_FN (lt_pw_ctanh) (x);
    case LT_K_SIGMOID:
      {
        LT_PW_C e = LT_PW_FN (lt_pw_cexp) (LT_PW_MAKE (-x.x, -x.y));

        return LT_PW_FN (lt_pw_cdiv_c) (LT_PW_MAKE ((LT_PW_R) 1, (LT_PW_R) 0),
                                        LT_PW_MAKE (1 + e.x, e.y));
      }
    }
  return LT_PW_MAKE ((LT_PW_R) 0, (LT_PW_R) 0);
}

LT_FUNCTION int
LT_PW_FN (lt_pw_test) (int     op,
                       LT_PW_C x)
{
  switch (op)
    {
    case LT_K_LOGICAL_NOT:
      return x.x == 0 && x.y == 0;
    case LT_K_ISNAN:
      return x.x != x.x || x.y != x.y;
    case LT_K_ISINF:
      return isinf (x.x) != 0 || isinf (x.y) != 0;
    case LT_K_ISFINITE:
      return isfinite (x.x) != 0 && isfinite (x.y) != 0;
    }
  return 0;
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_binary) (int     op,
                         LT_PW_C x,
                         LT_PW_C y,
                         lt_i64  alpha_i,
                         LT_PW_C alpha,
                         int     use_alpha)
{
  (void) alpha_i;
  if (use_alpha && (op == LT_K_ADD || op == LT_K_SUB))
    y = LT_PW_FN (lt_pw_cmul) (alpha, y);
  switch (op)
    {
    case LT_K_ADD:
      return LT_PW_MAKE (x.x + y.x, x.y + y.y);
    case LT_K_SUB:
      return LT_PW_MAKE (x.x - y.x, x.y - y.y);
    case LT_K_MUL:
      return LT_PW_FN (lt_pw_cmul) (x, y);
    case LT_K_DIV:
      return LT_PW_FN (lt_pw_cdiv) (x, y);
    case LT_K_POW:
      return LT_PW_FN (lt_pw_cexp) (LT_PW_FN (lt_pw_cmul) (y, LT_PW_FN (lt_pw_clog) (x)));
    }
  return LT_PW_MAKE ((LT_PW_R) 0, (LT_PW_R) 0);
}

LT_FUNCTION LT_PW_C
LT_PW_FN (lt_pw_lerp) (LT_PW_C x,
                       LT_PW_C y,
                       LT_PW_C w)
{
  LT_PW_C d = LT_PW_MAKE (y.x - x.x, y.y - x.y);

  if (hypot (w.x, w.y) < (LT_PW_R) 0.5)
    {
      LT_PW_C step = LT_PW_FN (lt_pw_cmul) (w, d);

      return LT_PW_MAKE (x.x + step.x, x.y + step.y);
    }
  else
    {
      LT_PW_C step = LT_PW_FN (lt_pw_cmul) (d, LT_PW_MAKE (1 - w.x, -w.y));

      return LT_PW_MAKE (y.x - step.x, y.y - step.y);
    }
}

LT_FUNCTION int
LT_PW_FN (lt_pw_is_zero) (LT_PW_C x)
{
  return x.x == 0 && x.y == 0;
}

#endif

/* Comparisons and logical ops, for every kind. */
LT_FUNCTION int
LT_PW_FN (lt_pw_compare) (int     op,
                          LT_PW_C x,
                          LT_PW_C y)
{
  int x_true = !LT_PW_FN (lt_pw_is_zero) (x);
  int y_true = !LT_PW_FN (lt_pw_is_zero) (y);

  switch (op)
    {
#if LT_PW_KIND == LT_PW_KIND_COMPLEX
    case LT_K_EQ:
      return x.x == y.x && x.y == y.y;
    case LT_K_NE:
      return !(x.x == y.x && x.y == y.y);
#else
    case LT_K_EQ:
      return x == y;
    case LT_K_NE:
      return x != y;
    case LT_K_LT:
      return x < y;
    case LT_K_LE:
      return x <= y;
    case LT_K_GT:
      return x > y;
    case LT_K_GE:
      return x >= y;
#endif
    case LT_K_LOGICAL_AND:
      return x_true && y_true;
    case LT_K_LOGICAL_OR:
      return x_true || y_true;
    case LT_K_LOGICAL_XOR:
      return x_true != y_true;
    }
  return 0;
}

#endif /* LT_PW_KIND */
