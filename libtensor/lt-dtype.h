/* lt-dtype.h: element types
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"

G_BEGIN_DECLS

/**
 * LtDType:
 * @LT_DTYPE_BOOL: booleans, one byte each
 * @LT_DTYPE_UINT8: unsigned 8-bit integers
 * @LT_DTYPE_INT8: signed 8-bit integers
 * @LT_DTYPE_INT16: signed 16-bit integers
 * @LT_DTYPE_INT32: signed 32-bit integers
 * @LT_DTYPE_INT64: signed 64-bit integers
 * @LT_DTYPE_FLOAT16: IEEE 754 half precision
 * @LT_DTYPE_BFLOAT16: brain floating point (the top half of a float32)
 * @LT_DTYPE_FLOAT32: IEEE 754 single precision, the default
 * @LT_DTYPE_FLOAT64: IEEE 754 double precision
 * @LT_DTYPE_COMPLEX64: two float32, real then imaginary
 * @LT_DTYPE_COMPLEX128: two float64, real then imaginary
 *
 * The type of the elements of a storage. The names and the conversions between
 * them follow PyTorch.
 */
typedef enum
{
  LT_DTYPE_BOOL,
  LT_DTYPE_UINT8,
  LT_DTYPE_INT8,
  LT_DTYPE_INT16,
  LT_DTYPE_INT32,
  LT_DTYPE_INT64,
  LT_DTYPE_FLOAT16,
  LT_DTYPE_BFLOAT16,
  LT_DTYPE_FLOAT32,
  LT_DTYPE_FLOAT64,
  LT_DTYPE_COMPLEX64,
  LT_DTYPE_COMPLEX128,
} LtDType;

/**
 * LT_DTYPE_DEFAULT:
 *
 * The dtype tensors get when none is named: %LT_DTYPE_FLOAT32.
 */
#define LT_DTYPE_DEFAULT LT_DTYPE_FLOAT32

LT_AVAILABLE_IN_ALL
gsize        lt_dtype_get_element_size (LtDType dtype);
LT_AVAILABLE_IN_ALL
const char  *lt_dtype_get_name         (LtDType dtype);
LT_AVAILABLE_IN_ALL
gboolean     lt_dtype_from_name        (const char *name,
                                        LtDType    *out_dtype,
                                        GError    **error);
LT_AVAILABLE_IN_ALL
gboolean     lt_dtype_is_valid         (int dtype);
LT_AVAILABLE_IN_ALL
gboolean     lt_dtype_is_floating_point (LtDType dtype);
LT_AVAILABLE_IN_ALL
gboolean     lt_dtype_is_complex       (LtDType dtype);
LT_AVAILABLE_IN_ALL
gboolean     lt_dtype_is_integer       (LtDType dtype);
LT_AVAILABLE_IN_ALL
LtDType      lt_dtype_to_real          (LtDType dtype);
LT_AVAILABLE_IN_ALL
LtDType      lt_dtype_to_complex       (LtDType dtype);

LT_AVAILABLE_IN_ALL
guint16      lt_float16_from_float     (float    value);
LT_AVAILABLE_IN_ALL
float        lt_float16_to_float       (guint16  bits);
LT_AVAILABLE_IN_ALL
guint16      lt_bfloat16_from_float    (float    value);
LT_AVAILABLE_IN_ALL
float        lt_bfloat16_to_float      (guint16  bits);

G_END_DECLS
