/* lt-viewer-i18n.c: binding the viewer libraries' message catalogue
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-i18n-private.h"

/*
 * lt_viewer_gettext_domain:
 *
 * Binds GETTEXT_PACKAGE to its catalogue the first time it is called: the
 * one in $TENSOR_VIEWER_LOCALEDIR when that is set (the build tree's, for
 * the tests and `meson devenv`), else the installed one, as the app does.
 * The messages come back in UTF-8 whatever the locale's encoding.
 *
 * Returns: GETTEXT_PACKAGE
 */
const char *
lt_viewer_gettext_domain (void)
{
  static gsize bound = 0;

  if (g_once_init_enter (&bound))
    {
      const char *localedir = g_getenv ("TENSOR_VIEWER_LOCALEDIR");

      bindtextdomain (GETTEXT_PACKAGE,
                      localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&bound, 1);
    }
  return GETTEXT_PACKAGE;
}
