/* lt-i18n-private.h: the library's messages, in a gettext domain of its own
 *
 * Every message a caller may show (a GError's) is marked with _(), N_() or,
 * where a number decides the form, g_dngettext (lt_gettext_domain (), ...),
 * and translated in GETTEXT_PACKAGE, "libtensor-1" (libtensor/po/). The
 * library binds that domain itself, before its first message is translated:
 * an application only calls setlocale(), as for any library.
 *
 * 64-bit numbers in messages are formatted with PRId64 and PRIu64, and sizes
 * with %zu: xgettext understands those, and ends a message at
 * G_GINT64_FORMAT.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <inttypes.h>

#include <glib.h>
#include <glib/gi18n-lib.h>

G_BEGIN_DECLS

const char *lt_gettext_domain (void);

G_END_DECLS

/* gi18n-lib.h's _(), the domain bound on first use. */
#undef _
#define _(String) ((char *) g_dgettext (lt_gettext_domain (), (String)))
