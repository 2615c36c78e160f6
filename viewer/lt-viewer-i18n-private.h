/* lt-viewer-i18n-private.h: the libraries' messages, in their own catalogue
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib/gi18n-lib.h>

G_BEGIN_DECLS

/* Each library has its own copy, hidden: binding the domain twice is
 * harmless. */
G_GNUC_INTERNAL const char *lt_viewer_gettext_domain (void);

/* The libraries are used by scripts that never bind their catalogue (nor
 * set a default domain): every message is looked up in the viewer's own
 * domain, bound on first use. */
#undef _
#define _(String) g_dgettext (lt_viewer_gettext_domain (), String)
#undef ngettext
#define ngettext(Singular, Plural, N) \
  g_dngettext (lt_viewer_gettext_domain (), Singular, Plural, N)

G_END_DECLS
