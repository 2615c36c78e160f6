/* lt-operand.h: one strided operand of a kernel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"

G_BEGIN_DECLS

/* @data points at the operand's first element (storage data plus the
 * storage offset) in host memory, for the CPU backend; device backends use
 * @buffer, the storage's memory handle (a cl_mem, a CUDA pointer), and
 * @offset, the first element's index in it. @strides are in elements and
 * may be negative or 0. */
typedef struct
{
  gpointer data;
  LtDType dtype;
  const gint64 *strides;
  gpointer buffer;
  gint64 offset;
} LtOperand;

G_END_DECLS
