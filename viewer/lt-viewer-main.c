/* lt-viewer-main.c: Tensor Viewer's entry point
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr (LtViewerApplication) app = NULL;
  g_autofree char *locale_report = NULL;
  int status;

  locale_report = lt_viewer_application_init_i18n ();
  if (locale_report != NULL)
    g_printerr ("tensor-viewer: %s\n", locale_report);

  app = lt_viewer_application_new ();
  lt_viewer_application_set_locale_report (app, locale_report);
  status = g_application_run (G_APPLICATION (app), argc, argv);

  /* The main loop ran for --screenshot, so GApplication reports success
   * whatever happened; the application knows better. */
  if (status == 0)
    status = lt_viewer_application_get_exit_status (app);

  return status;
}
