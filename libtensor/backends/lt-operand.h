/* lt-operand.h: one strided operand of a kernel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"

G_BEGIN_DECLS

/* @data points at the operand's first element (storage data plus the
 * storage offset); @strides are in elements and may be negative or 0. */
typedef struct
{
  gpointer data;
  LtDType dtype;
  const gint64 *strides;
} LtOperand;

G_END_DECLS
