/* lt-i18n.c: binding the library's message catalogue
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-i18n-private.h"

/*
 * lt_gettext_domain:
 *
 * Binds GETTEXT_PACKAGE to its catalogue the first time it is called: the
 * one in $LIBTENSOR_LOCALEDIR when that is set (the build tree's, so that the
 * tests and `meson devenv` use the catalogue just built), else the installed
 * one. The messages come back in UTF-8 whatever the locale's encoding, as
 * GError messages are.
 *
 * Returns: GETTEXT_PACKAGE
 */
const char *
lt_gettext_domain (void)
{
  static gsize bound = 0;

  if (g_once_init_enter (&bound))
    {
      const char *localedir = g_getenv ("LIBTENSOR_LOCALEDIR");

      bindtextdomain (GETTEXT_PACKAGE,
                      localedir != NULL && localedir[0] != '\0' ? localedir : LT_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&bound, 1);
    }
  return GETTEXT_PACKAGE;
}
