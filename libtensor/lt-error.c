/* lt-error.c: the LT_ERROR domain
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"

/**
 * lt_error_quark:
 *
 * The quark of the %LT_ERROR domain.
 *
 * Returns: the error domain
 */
G_DEFINE_QUARK (lt-error-quark, lt_error)
