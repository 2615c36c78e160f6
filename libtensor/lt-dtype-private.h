/* lt-dtype-private.h: reading and writing single elements of any dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-dtype.h"

G_BEGIN_DECLS

/* One element, wide enough to hold any dtype without loss: integers stay
 * integers (so int64 survives a round trip), floating point values are
 * doubles, complex values a pair of doubles. Conversions between kinds are the
 * C conversions PyTorch uses, with out-of-range float to integer conversions
 * given the value x86-64 produces instead of undefined behaviour. */
typedef enum
{
  LT_VALUE_BOOL,
  LT_VALUE_INT,
  LT_VALUE_FLOAT,
  LT_VALUE_COMPLEX,
} LtValueKind;

typedef struct
{
  LtValueKind kind;
  gint64 i;
  double re;
  double im;
} LtValue;

static inline LtValue
lt_value_from_double (double value)
{
  return (LtValue) { .kind = LT_VALUE_FLOAT, .re = value };
}

static inline LtValue
lt_value_from_int64 (gint64 value)
{
  return (LtValue) { .kind = LT_VALUE_INT, .i = value };
}

static inline LtValue
lt_value_from_complex (double re,
                       double im)
{
  return (LtValue) { .kind = LT_VALUE_COMPLEX, .re = re, .im = im };
}

LtValue  lt_value_read       (LtDType       dtype,
                              gconstpointer element);
void     lt_value_write      (LtDType       dtype,
                              gpointer      element,
                              LtValue       value);
double   lt_value_to_double  (LtValue       value);
gint64   lt_value_to_int64   (LtValue       value);
gboolean lt_value_is_nonzero (LtValue       value);

G_END_DECLS
