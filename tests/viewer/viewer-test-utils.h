/* viewer-test-utils.h: what the widget tests share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets the gboolean at @flag to TRUE; a GSourceFunc that runs once, for
 * timeouts. */
gboolean            viewer_test_set_flag         (gpointer   flag);
/* Spins the main loop until @widget is mapped and a frame with its current
 * state has been painted; fails the test after 10 seconds. */
void                viewer_test_wait_for_frame   (GtkWidget *widget);
/* Dispatches what is pending in the main loop, without waiting. */
void                viewer_test_spin_until_idle  (void);
/* The first event controller of @widget of @type, or NULL. */
GtkEventController *viewer_test_find_controller  (GtkWidget *widget,
                                                  GType      type);

G_END_DECLS
