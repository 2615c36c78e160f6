/* lt-viewer-application.h: Tensor Viewer's application: actions, command line, settings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_APPLICATION (lt_viewer_application_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerApplication, lt_viewer_application, LT_VIEWER, APPLICATION,
                      AdwApplication)

/* The application (id org.libtensor.TensorViewer). Actions: app.quit,
 * app.about, app.shortcuts and app.open-lesson (a built-in lesson's name).
 * Command line: --lesson NAME, --open FILE, --screenshot FILE.png, --version.
 *
 * With --screenshot the application runs alone (not as a remote of a running
 * one), opens the lesson in a window of the screenshot size, writes what the
 * window shows once it has been drawn, and quits; the exit status, which
 * lt_viewer_application_get_exit_status() returns after g_application_run(),
 * says whether that worked. */

#define LT_VIEWER_SCREENSHOT_WIDTH  1280
#define LT_VIEWER_SCREENSHOT_HEIGHT 800

/* Sets the locale and binds the message catalogue: the installed one, or
 * the build tree's when TENSOR_VIEWER_LOCALEDIR names it (set by `meson
 * devenv`). Call it before anything is translated. Returns a report, to
 * print and to show, when the locale the environment asks for is missing. */
char                *lt_viewer_application_init_i18n       (void);

LtViewerApplication *lt_viewer_application_new             (void);
void                 lt_viewer_application_set_locale_report (LtViewerApplication *self,
                                                              const char          *report);

/* The application's settings, or NULL when the schema is not installed (the
 * application then runs with the defaults and remembers nothing). In
 * screenshot mode, changes are never written. */
GSettings           *lt_viewer_application_get_settings    (LtViewerApplication *self);

/* Whether the application runs for --screenshot: nothing it does is kept. */
gboolean             lt_viewer_application_get_screenshot_mode (LtViewerApplication *self);

/* The status for main() to return when g_application_run() returned 0: not
 * zero when --screenshot failed. */
int                  lt_viewer_application_get_exit_status (LtViewerApplication *self);

G_END_DECLS
