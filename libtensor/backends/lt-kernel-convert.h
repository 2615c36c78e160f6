/* lt-kernel-convert.h: the dtype conversion rules, for device kernels
 *
 * The same rules as lt-dtype.c's lt_value_read() / lt_value_write(),
 * written once in the C that both OpenCL C and CUDA C++ compile, so that a
 * conversion on any device gives the CPU's bits: integers from floats
 * truncate toward zero, with the most negative value for NaN and for values
 * out of range (as x86-64's cvttsd2si does); integer dtypes narrower than
 * 64 bits keep the low bits of a 32-bit conversion; float16 and bfloat16
 * round to nearest even from float; bool is "nonzero".
 *
 * The including file defines first:
 *   LT_GLOBAL      the address space of device memory (__global, or nothing)
 *   LT_FUNCTION    how helpers are declared (static, static __device__ inline)
 *   LT_AS_FLOAT(u) LT_AS_UINT(f)  bit casts between float and uint32
 *   lt_u8 lt_i8 lt_u16 lt_i16 lt_u32 lt_i32 lt_i64 lt_u64  integer types
 *   LT_BOOL ... LT_COMPLEX128  the numbers of LtDType's values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define LT_KIND_INT 0
#define LT_KIND_FLOAT 1
#define LT_KIND_COMPLEX 2

typedef struct
{
  int kind;
  lt_i64 i;
  double re, im;
} LtKernelValue;

/* Every float16 value is a float exactly. */
LT_FUNCTION float
lt_half_to_float (lt_u16 h)
{
  lt_u32 sign = (lt_u32) (h & 0x8000) << 16;
  lt_u32 exponent = (h >> 10) & 0x1f;
  lt_u32 mantissa = h & 0x3ff;
  float magnitude;

  if (exponent == 0x1f)
    return LT_AS_FLOAT (sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return LT_AS_FLOAT (sign | ((exponent + 112) << 23) | (mantissa << 13));
  /* Zero or subnormal: mantissa * 2^-24. */
  magnitude = (float) mantissa * 5.9604644775390625e-8f;
  return sign != 0 ? -magnitude : magnitude;
}

LT_FUNCTION LtKernelValue
lt_kernel_load (const LT_GLOBAL lt_u8 *p,
                int                   dtype)
{
  LtKernelValue v;

  v.kind = LT_KIND_INT;
  v.i = 0;
  v.re = 0.0;
  v.im = 0.0;
  switch (dtype)
    {
    case LT_BOOL:
      v.i = p[0] != 0;
      break;
    case LT_UINT8:
      v.i = p[0];
      break;
    case LT_INT8:
      v.i = *(const LT_GLOBAL lt_i8 *) p;
      break;
    case LT_INT16:
      v.i = *(const LT_GLOBAL lt_i16 *) p;
      break;
    case LT_INT32:
      v.i = *(const LT_GLOBAL lt_i32 *) p;
      break;
    case LT_INT64:
      v.i = *(const LT_GLOBAL lt_i64 *) p;
      break;
    case LT_FLOAT16:
      v.kind = LT_KIND_FLOAT;
      v.re = lt_half_to_float (*(const LT_GLOBAL lt_u16 *) p);
      break;
    case LT_BFLOAT16:
      v.kind = LT_KIND_FLOAT;
      v.re = LT_AS_FLOAT ((lt_u32) *(const LT_GLOBAL lt_u16 *) p << 16);
      break;
    case LT_FLOAT32:
      v.kind = LT_KIND_FLOAT;
      v.re = *(const LT_GLOBAL float *) p;
      break;
    case LT_FLOAT64:
      v.kind = LT_KIND_FLOAT;
      v.re = *(const LT_GLOBAL double *) p;
      break;
    case LT_COMPLEX64:
      v.kind = LT_KIND_COMPLEX;
      v.re = ((const LT_GLOBAL float *) p)[0];
      v.im = ((const LT_GLOBAL float *) p)[1];
      break;
    case LT_COMPLEX128:
      v.kind = LT_KIND_COMPLEX;
      v.re = ((const LT_GLOBAL double *) p)[0];
      v.im = ((const LT_GLOBAL double *) p)[1];
      break;
    }
  return v;
}

LT_FUNCTION lt_i64
lt_double_to_int64 (double value)
{
  if (!(value >= -0x1p63 && value < 0x1p63))
    return (lt_i64) 0x8000000000000000ull;
  return (lt_i64) value;
}

LT_FUNCTION lt_i32
lt_double_to_int32 (double value)
{
  if (!(value > -0x1p31 - 1.0 && value < 0x1p31))
    return (lt_i32) 0x80000000u;
  return (lt_i32) value;
}

LT_FUNCTION lt_i64
lt_narrow_int (LtKernelValue v)
{
  return v.kind == LT_KIND_INT ? v.i : (lt_i64) lt_double_to_int32 (v.re);
}

LT_FUNCTION float
lt_value_float (LtKernelValue v)
{
  return v.kind == LT_KIND_INT ? (float) v.i : (float) v.re;
}

LT_FUNCTION lt_u16
lt_float16_from_float (float value)
{
  lt_u32 bits = LT_AS_UINT (value);
  lt_u32 sign = (bits >> 16) & 0x8000;
  lt_u32 magnitude = bits & 0x7fffffff;

  if (magnitude >= 0x7f800000)
    return (lt_u16) (sign | (magnitude > 0x7f800000 ? 0x7e00 : 0x7c00));
  if (magnitude >= 0x477ff000)
    return (lt_u16) (sign | 0x7c00);
  if (magnitude < 0x38800000)
    {
      /* Adding 0.5 lines the value up so that the FPU's round to nearest
       * even leaves the subnormal half's mantissa in the low bits. */
      float shifted = LT_AS_FLOAT (magnitude) + 0.5f;
      return (lt_u16) (sign | (LT_AS_UINT (shifted) - LT_AS_UINT (0.5f)));
    }
  {
    lt_u32 mantissa_odd = (magnitude >> 13) & 1;
    magnitude += ((lt_u32) (15 - 127) << 23) + 0xfff + mantissa_odd;
    return (lt_u16) (sign | (magnitude >> 13));
  }
}

LT_FUNCTION lt_u16
lt_bfloat16_from_float (float value)
{
  lt_u32 bits = LT_AS_UINT (value);

  if ((bits & 0x7fffffff) > 0x7f800000)
    return (lt_u16) ((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return (lt_u16) (bits >> 16);
}

LT_FUNCTION void
lt_kernel_store (LT_GLOBAL lt_u8 *p,
                 int             dtype,
                 LtKernelValue   v)
{
  switch (dtype)
    {
    case LT_BOOL:
      p[0] = v.kind == LT_KIND_INT     ? v.i != 0
             : v.kind == LT_KIND_FLOAT ? v.re != 0.0
                                       : (v.re != 0.0 || v.im != 0.0);
      break;
    case LT_UINT8:
      p[0] = (lt_u8) lt_narrow_int (v);
      break;
    case LT_INT8:
      *(LT_GLOBAL lt_i8 *) p = (lt_i8) lt_narrow_int (v);
      break;
    case LT_INT16:
      *(LT_GLOBAL lt_i16 *) p = (lt_i16) lt_narrow_int (v);
      break;
    case LT_INT32:
      *(LT_GLOBAL lt_i32 *) p = (lt_i32) lt_narrow_int (v);
      break;
    case LT_INT64:
      *(LT_GLOBAL lt_i64 *) p = v.kind == LT_KIND_INT ? v.i : lt_double_to_int64 (v.re);
      break;
    case LT_FLOAT16:
      *(LT_GLOBAL lt_u16 *) p = lt_float16_from_float (lt_value_float (v));
      break;
    case LT_BFLOAT16:
      *(LT_GLOBAL lt_u16 *) p = lt_bfloat16_from_float (lt_value_float (v));
      break;
    case LT_FLOAT32:
      *(LT_GLOBAL float *) p = lt_value_float (v);
      break;
    case LT_FLOAT64:
      *(LT_GLOBAL double *) p = v.kind == LT_KIND_INT ? (double) v.i : v.re;
      break;
    case LT_COMPLEX64:
      ((LT_GLOBAL float *) p)[0] = lt_value_float (v);
      ((LT_GLOBAL float *) p)[1] = v.kind == LT_KIND_COMPLEX ? (float) v.im : 0.0f;
      break;
    case LT_COMPLEX128:
      ((LT_GLOBAL double *) p)[0] = v.kind == LT_KIND_INT ? (double) v.i : v.re;
      ((LT_GLOBAL double *) p)[1] = v.kind == LT_KIND_COMPLEX ? v.im : 0.0;
      break;
    }
}
