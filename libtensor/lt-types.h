/* lt-types.h: the export macro and limits shared by every public header
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#if defined (_WIN32) && defined (LT_COMPILATION)
# define _LT_EXPORT __declspec (dllexport) extern
#elif defined (__GNUC__)
# define _LT_EXPORT __attribute__ ((visibility ("default"))) extern
#else
# define _LT_EXPORT extern
#endif

/**
 * LT_AVAILABLE_IN_ALL: (skip)
 *
 * Marks a symbol as part of the public ABI. Everything not so marked is hidden.
 */
#define LT_AVAILABLE_IN_ALL _LT_EXPORT

/**
 * LT_MAX_DIMS:
 *
 * The largest number of dimensions a tensor may have.
 */
#define LT_MAX_DIMS 64

G_END_DECLS
