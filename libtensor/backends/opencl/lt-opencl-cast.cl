/* lt-opencl-cast.cl: strided copies that convert between dtypes
 *
 * One build per device serves every pair of dtypes: each element is read
 * into a value (an integer, a real or a complex number, as lt-dtype.c reads
 * it), then written in the destination's dtype by the very rules the CPU
 * uses (lt-dtype.c): integers from floats truncate toward zero, with the
 * most negative value for NaN and out-of-range values as x86-64 gives;
 * integer dtypes narrower than 64 bits keep the low bits of a 32-bit
 * conversion; float16 and bfloat16 round to nearest even from float; bool
 * is "nonzero". So the device gives the CPU's bits. LT_<DTYPE> are defined
 * by the build options from LtDType; it needs cl_khr_fp64.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  long sizes[LT_OPENCL_MAX_DIMS];
  long dst_strides[LT_OPENCL_MAX_DIMS];
  long src_strides[LT_OPENCL_MAX_DIMS];
  int ndim;
  int padding;
} LtOpenCLShape;

#define KIND_INT 0
#define KIND_FLOAT 1
#define KIND_COMPLEX 2

typedef struct
{
  int kind;
  long i;
  double re, im;
} Value;

static Value
load (__global const uchar *p,
      int                   dtype)
{
  Value v = { KIND_INT, 0, 0.0, 0.0 };

  switch (dtype)
    {
    case LT_BOOL:
      v.i = p[0] != 0;
      break;
    case LT_UINT8:
      v.i = p[0];
      break;
    case LT_INT8:
      v.i = *(__global const char *) p;
      break;
    case LT_INT16:
      v.i = *(__global const short *) p;
      break;
    case LT_INT32:
      v.i = *(__global const int *) p;
      break;
    case LT_INT64:
      v.i = *(__global const long *) p;
      break;
    case LT_FLOAT16:
      v.kind = KIND_FLOAT;
      v.re = vload_half (0, (__global const half *) p);
      break;
    case LT_BFLOAT16:
      v.kind = KIND_FLOAT;
      v.re = as_float ((uint) *(__global const ushort *) p << 16);
      break;
    case LT_FLOAT32:
      v.kind = KIND_FLOAT;
      v.re = *(__global const float *) p;
      break;
    case LT_FLOAT64:
      v.kind = KIND_FLOAT;
      v.re = *(__global const double *) p;
      break;
    case LT_COMPLEX64:
      v.kind = KIND_COMPLEX;
      v.re = ((__global const float *) p)[0];
      v.im = ((__global const float *) p)[1];
      break;
    case LT_COMPLEX128:
      v.kind = KIND_COMPLEX;
      v.re = ((__global const double *) p)[0];
      v.im = ((__global const double *) p)[1];
      break;
    }
  return v;
}

static long
double_to_int64 (double value)
{
  if (!(value >= -0x1p63 && value < 0x1p63))
    return (long) 0x8000000000000000UL;
  return (long) value;
}

static int
double_to_int32 (double value)
{
  if (!(value > -0x1p31 - 1.0 && value < 0x1p31))
    return (int) 0x80000000U;
  return (int) value;
}

static long
narrow_int (Value v)
{
  return v.kind == KIND_INT ? v.i : (long) double_to_int32 (v.re);
}

static float
to_float (Value v)
{
  return v.kind == KIND_INT ? (float) v.i : (float) v.re;
}

static ushort
float16_from_float (float value)
{
  uint bits = as_uint (value);
  uint sign = (bits >> 16) & 0x8000;
  uint magnitude = bits & 0x7fffffff;

  if (magnitude >= 0x7f800000)
    return (ushort) (sign | (magnitude > 0x7f800000 ? 0x7e00 : 0x7c00));
  if (magnitude >= 0x477ff000)
    return (ushort) (sign | 0x7c00);
  if (magnitude < 0x38800000)
    {
      float shifted = as_float (magnitude) + 0.5f;
      return (ushort) (sign | (as_uint (shifted) - as_uint (0.5f)));
    }
  {
    uint mantissa_odd = (magnitude >> 13) & 1;
    magnitude += ((uint) (15 - 127) << 23) + 0xfff + mantissa_odd;
    return (ushort) (sign | (magnitude >> 13));
  }
}

static ushort
bfloat16_from_float (float value)
{
  uint bits = as_uint (value);

  if ((bits & 0x7fffffff) > 0x7f800000)
    return (ushort) ((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return (ushort) (bits >> 16);
}

static void
store (__global uchar *p,
       int             dtype,
       Value           v)
{
  switch (dtype)
    {
    case LT_BOOL:
      p[0] = v.kind == KIND_INT ? v.i != 0
             : v.kind == KIND_FLOAT ? v.re != 0.0
             : (v.re != 0.0 || v.im != 0.0);
      break;
    case LT_UINT8:
      p[0] = (uchar) narrow_int (v);
      break;
    case LT_INT8:
      *(__global char *) p = (char) narrow_int (v);
      break;
    case LT_INT16:
      *(__global short *) p = (short) narrow_int (v);
      break;
    case LT_INT32:
      *(__global int *) p = (int) narrow_int (v);
      break;
    case LT_INT64:
      *(__global long *) p = v.kind == KIND_INT ? v.i : double_to_int64 (v.re);
      break;
    case LT_FLOAT16:
      *(__global ushort *) p = float16_from_float (to_float (v));
      break;
    case LT_BFLOAT16:
      *(__global ushort *) p = bfloat16_from_float (to_float (v));
      break;
    case LT_FLOAT32:
      *(__global float *) p = to_float (v);
      break;
    case LT_FLOAT64:
      *(__global double *) p = v.kind == KIND_INT ? (double) v.i : v.re;
      break;
    case LT_COMPLEX64:
      ((__global float *) p)[0] = to_float (v);
      ((__global float *) p)[1] = v.kind == KIND_COMPLEX ? (float) v.im : 0.0f;
      break;
    case LT_COMPLEX128:
      ((__global double *) p)[0] = v.kind == KIND_INT ? (double) v.i : v.re;
      ((__global double *) p)[1] = v.kind == KIND_COMPLEX ? v.im : 0.0;
      break;
    }
}

__kernel void
cast_strided (__global uchar       *dst,
              long                  dst_offset,
              int                   dst_dtype,
              long                  dst_size,
              __global const uchar *src,
              long                  src_offset,
              int                   src_dtype,
              long                  src_size,
              LtOpenCLShape         shape,
              long                  n)
{
  for (long i = get_global_id (0); i < n; i += get_global_size (0))
    {
      long rest = i, at_dst = dst_offset, at_src = src_offset;

      for (int d = shape.ndim - 1; d >= 0; d--)
        {
          long k = rest % shape.sizes[d];

          rest /= shape.sizes[d];
          at_dst += k * shape.dst_strides[d];
          at_src += k * shape.src_strides[d];
        }
      store (dst + at_dst * dst_size, dst_dtype, load (src + at_src * src_size, src_dtype));
    }
}
