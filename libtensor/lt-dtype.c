/* lt-dtype.c: element types, their names and conversions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-dtype.h"
#include "lt-dtype-private.h"
#include "lt-error.h"
#include "lt-i18n-private.h"

typedef struct
{
  const char *name;
  gsize element_size;
} DTypeInfo;

static const DTypeInfo dtype_info[] = {
  [LT_DTYPE_BOOL] = { "bool", 1 },
  [LT_DTYPE_UINT8] = { "uint8", 1 },
  [LT_DTYPE_INT8] = { "int8", 1 },
  [LT_DTYPE_INT16] = { "int16", 2 },
  [LT_DTYPE_INT32] = { "int32", 4 },
  [LT_DTYPE_INT64] = { "int64", 8 },
  [LT_DTYPE_FLOAT16] = { "float16", 2 },
  [LT_DTYPE_BFLOAT16] = { "bfloat16", 2 },
  [LT_DTYPE_FLOAT32] = { "float32", 4 },
  [LT_DTYPE_FLOAT64] = { "float64", 8 },
  [LT_DTYPE_COMPLEX64] = { "complex64", 8 },
  [LT_DTYPE_COMPLEX128] = { "complex128", 16 },
};

/* PyTorch's other spellings of the same types. */
static const struct
{
  const char *alias;
  LtDType dtype;
} dtype_aliases[] = {
  { "float", LT_DTYPE_FLOAT32 },
  { "double", LT_DTYPE_FLOAT64 },
  { "half", LT_DTYPE_FLOAT16 },
  { "short", LT_DTYPE_INT16 },
  { "int", LT_DTYPE_INT32 },
  { "long", LT_DTYPE_INT64 },
  { "cfloat", LT_DTYPE_COMPLEX64 },
  { "cdouble", LT_DTYPE_COMPLEX128 },
};

/**
 * lt_dtype_is_valid:
 * @dtype: a value that may be an #LtDType
 *
 * Checks whether @dtype names one of the element types, for callers that
 * receive the value as a plain integer.
 *
 * Returns: %TRUE if @dtype is a member of #LtDType
 */
gboolean
lt_dtype_is_valid (int dtype)
{
  return dtype >= LT_DTYPE_BOOL && dtype <= LT_DTYPE_COMPLEX128;
}

/**
 * lt_dtype_get_element_size:
 * @dtype: an #LtDType
 *
 * The number of bytes one element of @dtype occupies.
 *
 * Returns: the element size in bytes
 */
gsize
lt_dtype_get_element_size (LtDType dtype)
{
  g_return_val_if_fail (lt_dtype_is_valid (dtype), 0);

  return dtype_info[dtype].element_size;
}

/**
 * lt_dtype_get_name:
 * @dtype: an #LtDType
 *
 * The name of @dtype as PyTorch spells it without the `torch.` prefix, such as
 * `float32` or `int64`.
 *
 * Returns: (transfer none): the name
 */
const char *
lt_dtype_get_name (LtDType dtype)
{
  g_return_val_if_fail (lt_dtype_is_valid (dtype), NULL);

  return dtype_info[dtype].name;
}

/**
 * lt_dtype_from_name:
 * @name: a dtype name such as `float32`, `torch.int64` or `double`
 * @out_dtype: (out): return location for the dtype
 * @error: return location for a #GError
 *
 * Looks up a dtype by name. The names of lt_dtype_get_name(), PyTorch's
 * aliases (`float`, `double`, `half`, `short`, `int`, `long`, `cfloat`,
 * `cdouble`) and a leading `torch.` are accepted.
 *
 * Returns: %TRUE on success, %FALSE with @error set to %LT_ERROR_DTYPE
 */
gboolean
lt_dtype_from_name (const char *name,
                    LtDType    *out_dtype,
                    GError    **error)
{
  const char *bare;

  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_dtype != NULL, FALSE);

  bare = g_str_has_prefix (name, "torch.") ? name + strlen ("torch.") : name;

  for (guint i = 0; i < G_N_ELEMENTS (dtype_info); i++)
    {
      if (strcmp (bare, dtype_info[i].name) == 0)
        {
          *out_dtype = (LtDType) i;
          return TRUE;
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (dtype_aliases); i++)
    {
      if (strcmp (bare, dtype_aliases[i].alias) == 0)
        {
          *out_dtype = dtype_aliases[i].dtype;
          return TRUE;
        }
    }

  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("unknown dtype '%s': expected one of bool, uint8, int8, int16, int32, int64, "
                 "float16, bfloat16, float32, float64, complex64, complex128"),
               name);
  return FALSE;
}

/**
 * lt_dtype_is_floating_point:
 * @dtype: an #LtDType
 *
 * Whether @dtype is a real floating point type (float16, bfloat16, float32, float64).
 *
 * Returns: %TRUE for the real floating point types
 */
gboolean
lt_dtype_is_floating_point (LtDType dtype)
{
  return dtype == LT_DTYPE_FLOAT16 || dtype == LT_DTYPE_BFLOAT16 || dtype == LT_DTYPE_FLOAT32
         || dtype == LT_DTYPE_FLOAT64;
}

/**
 * lt_dtype_is_complex:
 * @dtype: an #LtDType
 *
 * Whether @dtype is complex64 or complex128.
 *
 * Returns: %TRUE for the complex types
 */
gboolean
lt_dtype_is_complex (LtDType dtype)
{
  return dtype == LT_DTYPE_COMPLEX64 || dtype == LT_DTYPE_COMPLEX128;
}

/**
 * lt_dtype_is_integer:
 * @dtype: an #LtDType
 *
 * Whether @dtype is one of the integer types. bool is not an integer type.
 *
 * Returns: %TRUE for uint8, int8, int16, int32 and int64
 */
gboolean
lt_dtype_is_integer (LtDType dtype)
{
  return dtype >= LT_DTYPE_UINT8 && dtype <= LT_DTYPE_INT64;
}

/**
 * lt_dtype_to_real:
 * @dtype: an #LtDType
 *
 * The real type that makes up each half of a complex type: float32 for
 * complex64, float64 for complex128. Other dtypes are returned unchanged.
 *
 * Returns: the real counterpart of @dtype
 */
LtDType
lt_dtype_to_real (LtDType dtype)
{
  switch (dtype)
    {
    case LT_DTYPE_COMPLEX64:
      return LT_DTYPE_FLOAT32;
    case LT_DTYPE_COMPLEX128:
      return LT_DTYPE_FLOAT64;
    default:
      return dtype;
    }
}

/**
 * lt_dtype_to_complex:
 * @dtype: an #LtDType
 *
 * The complex type whose halves are @dtype: complex128 for float64, complex64
 * for every other real type. Complex dtypes are returned unchanged.
 *
 * Returns: the complex counterpart of @dtype
 */
LtDType
lt_dtype_to_complex (LtDType dtype)
{
  switch (dtype)
    {
    case LT_DTYPE_FLOAT64:
    case LT_DTYPE_COMPLEX128:
      return LT_DTYPE_COMPLEX128;
    default:
      return LT_DTYPE_COMPLEX64;
    }
}

static inline guint32
float_bits (float value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  return bits;
}

static inline float
bits_float (guint32 bits)
{
  float value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

/**
 * lt_float16_from_float:
 * @value: a float
 *
 * Converts @value to IEEE 754 half precision, rounding to nearest with ties to
 * even. Values too large for half precision become infinities; NaN stays NaN.
 *
 * Returns: the bits of the half precision value
 */
guint16
lt_float16_from_float (float value)
{
  guint32 bits = float_bits (value);
  guint32 sign = (bits >> 16) & 0x8000;
  guint32 magnitude = bits & 0x7fffffff;

  if (magnitude >= 0x7f800000)
    return sign | (magnitude > 0x7f800000 ? 0x7e00 : 0x7c00);

  /* 65520 and above round to infinity. */
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;

  if (magnitude < 0x38800000)
    {
      /* Below the smallest normal half: adding 0.5 lines the value up so
       * that the FPU's own round-to-nearest-even leaves the subnormal half's
       * mantissa in the low bits. */
      float shifted = bits_float (magnitude) + 0.5f;
      return sign | (guint16) (float_bits (shifted) - float_bits (0.5f));
    }

  /* Normal: rebias the exponent, then round to nearest even on bit 13. */
  {
    guint32 mantissa_odd = (magnitude >> 13) & 1;
    magnitude += ((guint32) (15 - 127) << 23) + 0xfff + mantissa_odd;
    return sign | (guint16) (magnitude >> 13);
  }
}

/**
 * lt_float16_to_float:
 * @bits: the bits of a half precision value
 *
 * Converts a half precision value to float. Every half precision value,
 * subnormals included, is exactly representable as a float.
 *
 * Returns: the value as a float
 */
float
lt_float16_to_float (guint16 bits)
{
  guint32 sign = (guint32) (bits & 0x8000) << 16;
  guint32 exponent = (bits >> 10) & 0x1f;
  guint32 mantissa = bits & 0x3ff;

  if (exponent == 0)
    {
      float magnitude = (float) mantissa * 0x1p-24f;
      return sign ? -magnitude : magnitude;
    }
  if (exponent == 31)
    return bits_float (sign | 0x7f800000 | (mantissa << 13));

  return bits_float (sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/**
 * lt_bfloat16_from_float:
 * @value: a float
 *
 * Converts @value to bfloat16, rounding to nearest with ties to even. NaN stays
 * NaN.
 *
 * Returns: the bits of the bfloat16 value
 */
guint16
lt_bfloat16_from_float (float value)
{
  guint32 bits = float_bits (value);

  if ((bits & 0x7fffffff) > 0x7f800000)
    return (guint16) ((bits >> 16) | 0x40);

  bits += 0x7fff + ((bits >> 16) & 1);
  return (guint16) (bits >> 16);
}

/**
 * lt_bfloat16_to_float:
 * @bits: the bits of a bfloat16 value
 *
 * Converts a bfloat16 value to float, which is exact.
 *
 * Returns: the value as a float
 */
float
lt_bfloat16_to_float (guint16 bits)
{
  return bits_float ((guint32) bits << 16);
}

/* Float to integer the way x86-64's cvttsd2si does it, which is what
 * PyTorch's casts compile to: truncate toward zero, and give the most
 * negative value for NaN and for values out of range, so that the library's
 * behaviour is defined where C's is not. Conversions to int64 use the 64-bit
 * form; those to narrower integers the 32-bit form, then keep the low bits. */
static gint64
double_to_int64 (double value)
{
  if (!(value >= -0x1p63 && value < 0x1p63))
    return G_MININT64;
  return (gint64) value;
}

static gint32
double_to_int32 (double value)
{
  if (!(value > -0x1p31 - 1.0 && value < 0x1p31))
    return G_MININT32;
  return (gint32) value;
}

/* The integer a value becomes in an integer dtype narrower than 64 bits,
 * before the dtype keeps its low bits. */
static gint64
value_to_narrow_int (LtValue value)
{
  if (value.kind == LT_VALUE_FLOAT || value.kind == LT_VALUE_COMPLEX)
    return double_to_int32 (value.re);
  return value.i;
}

LtValue
lt_value_read (LtDType       dtype,
               gconstpointer element)
{
  switch (dtype)
    {
    case LT_DTYPE_BOOL:
      return (LtValue) { .kind = LT_VALUE_BOOL, .i = *(const guint8 *) element != 0 };
    case LT_DTYPE_UINT8:
      return lt_value_from_int64 (*(const guint8 *) element);
    case LT_DTYPE_INT8:
      return lt_value_from_int64 (*(const gint8 *) element);
    case LT_DTYPE_INT16:
      return lt_value_from_int64 (*(const gint16 *) element);
    case LT_DTYPE_INT32:
      return lt_value_from_int64 (*(const gint32 *) element);
    case LT_DTYPE_INT64:
      return lt_value_from_int64 (*(const gint64 *) element);
    case LT_DTYPE_FLOAT16:
      return lt_value_from_double (lt_float16_to_float (*(const guint16 *) element));
    case LT_DTYPE_BFLOAT16:
      return lt_value_from_double (lt_bfloat16_to_float (*(const guint16 *) element));
    case LT_DTYPE_FLOAT32:
      return lt_value_from_double (*(const float *) element);
    case LT_DTYPE_FLOAT64:
      return lt_value_from_double (*(const double *) element);
    case LT_DTYPE_COMPLEX64:
      {
        const float *pair = element;
        return lt_value_from_complex (pair[0], pair[1]);
      }
    case LT_DTYPE_COMPLEX128:
      {
        const double *pair = element;
        return lt_value_from_complex (pair[0], pair[1]);
      }
    default:
      g_assert_not_reached ();
    }
}

double
lt_value_to_double (LtValue value)
{
  switch (value.kind)
    {
    case LT_VALUE_BOOL:
    case LT_VALUE_INT:
      return (double) value.i;
    case LT_VALUE_FLOAT:
    case LT_VALUE_COMPLEX:
    default:
      return value.re;
    }
}

gint64
lt_value_to_int64 (LtValue value)
{
  switch (value.kind)
    {
    case LT_VALUE_BOOL:
    case LT_VALUE_INT:
      return value.i;
    case LT_VALUE_FLOAT:
    case LT_VALUE_COMPLEX:
    default:
      return double_to_int64 (value.re);
    }
}

gboolean
lt_value_is_nonzero (LtValue value)
{
  switch (value.kind)
    {
    case LT_VALUE_BOOL:
    case LT_VALUE_INT:
      return value.i != 0;
    case LT_VALUE_FLOAT:
      return value.re != 0.0;
    case LT_VALUE_COMPLEX:
    default:
      return value.re != 0.0 || value.im != 0.0;
    }
}

/* The value as a float, converted straight from its own kind so that an
 * int64 is rounded once, as C's (float) cast does. */
static float
value_to_float (LtValue value)
{
  if (value.kind == LT_VALUE_INT || value.kind == LT_VALUE_BOOL)
    return (float) value.i;
  return (float) value.re;
}

void
lt_value_write (LtDType  dtype,
                gpointer element,
                LtValue  value)
{
  switch (dtype)
    {
    case LT_DTYPE_BOOL:
      *(guint8 *) element = lt_value_is_nonzero (value);
      break;
    case LT_DTYPE_UINT8:
      *(guint8 *) element = (guint8) value_to_narrow_int (value);
      break;
    case LT_DTYPE_INT8:
      *(gint8 *) element = (gint8) value_to_narrow_int (value);
      break;
    case LT_DTYPE_INT16:
      *(gint16 *) element = (gint16) value_to_narrow_int (value);
      break;
    case LT_DTYPE_INT32:
      *(gint32 *) element = (gint32) value_to_narrow_int (value);
      break;
    case LT_DTYPE_INT64:
      *(gint64 *) element = lt_value_to_int64 (value);
      break;
    case LT_DTYPE_FLOAT16:
      *(guint16 *) element = lt_float16_from_float (value_to_float (value));
      break;
    case LT_DTYPE_BFLOAT16:
      *(guint16 *) element = lt_bfloat16_from_float (value_to_float (value));
      break;
    case LT_DTYPE_FLOAT32:
      *(float *) element = value_to_float (value);
      break;
    case LT_DTYPE_FLOAT64:
      *(double *) element = lt_value_to_double (value);
      break;
    case LT_DTYPE_COMPLEX64:
      {
        float *pair = element;
        pair[0] = value_to_float (value);
        pair[1] = value.kind == LT_VALUE_COMPLEX ? (float) value.im : 0.0f;
        break;
      }
    case LT_DTYPE_COMPLEX128:
      {
        double *pair = element;
        pair[0] = lt_value_to_double (value);
        pair[1] = value.kind == LT_VALUE_COMPLEX ? value.im : 0.0;
        break;
      }
    default:
      g_assert_not_reached ();
    }
}
