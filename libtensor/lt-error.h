/* lt-error.h: the LT_ERROR domain
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
 * LT_ERROR:
 *
 * The error domain of libtensor. Errors in this domain use the codes of #LtError.
 */
#define LT_ERROR (lt_error_quark ())

/**
 * LtError:
 * @LT_ERROR_INVALID_ARGUMENT: an argument has a value the operation does not accept
 *   (a negative size, a zero step, a repeated dim, ...)
 * @LT_ERROR_INDEX_OUT_OF_RANGE: a dim or an index is outside the tensor
 * @LT_ERROR_SHAPE_MISMATCH: shapes or element counts do not agree
 * @LT_ERROR_NOT_VIEWABLE: view() would need to copy; reshape() or contiguous() is the way out
 * @LT_ERROR_OUT_OF_BOUNDS: a view would reach storage elements that do not exist
 * @LT_ERROR_OVERFLOW: an element count, a byte size or an offset does not fit in 64 bits
 * @LT_ERROR_PARSE: an index expression or a literal is malformed
 * @LT_ERROR_DTYPE: an unknown dtype, or a dtype the operation does not support
 * @LT_ERROR_INTERNAL_OVERLAP: a write into a tensor whose elements share memory
 * @LT_ERROR_OUT_OF_MEMORY: the memory for a storage could not be allocated
 * @LT_ERROR_NAMES: dim names are invalid, repeat, are missing or do not match
 * @LT_ERROR_DEVICE: a device is not available here (no driver, no such
 *   index, backend not installed), or tensors on different devices meet
 * @LT_ERROR_FILE_FORMAT: a file (or bytes read as one) does not follow its
 *   format: a wrong magic number, a malformed or inconsistent header, data
 *   missing or left over
 *
 * The kinds of mistakes a caller can make, each reported as a #GError in %LT_ERROR.
 */
typedef enum
{
  LT_ERROR_INVALID_ARGUMENT,
  LT_ERROR_INDEX_OUT_OF_RANGE,
  LT_ERROR_SHAPE_MISMATCH,
  LT_ERROR_NOT_VIEWABLE,
  LT_ERROR_OUT_OF_BOUNDS,
  LT_ERROR_OVERFLOW,
  LT_ERROR_PARSE,
  LT_ERROR_DTYPE,
  LT_ERROR_INTERNAL_OVERLAP,
  LT_ERROR_OUT_OF_MEMORY,
  LT_ERROR_NAMES,
  LT_ERROR_DEVICE,
  LT_ERROR_FILE_FORMAT,
} LtError;

LT_AVAILABLE_IN_ALL
GQuark lt_error_quark (void);

G_END_DECLS
