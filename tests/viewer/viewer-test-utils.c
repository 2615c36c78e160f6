/* viewer-test-utils.c: what the widget tests share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "viewer-test-utils.h"

gboolean
viewer_test_set_flag (gpointer flag)
{
  *(gboolean *) flag = TRUE;
  return G_SOURCE_REMOVE;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  *(gboolean *) data = TRUE;
}

void
viewer_test_wait_for_frame (GtkWidget *widget)
{
  gboolean painted = FALSE, timed_out = FALSE;
  GdkFrameClock *clock;
  guint timeout;
  gulong handler;

  timeout = g_timeout_add_seconds (10, viewer_test_set_flag, &timed_out);
  while (!gtk_widget_get_mapped (widget) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);

  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  while (!painted && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, handler);
  g_source_remove (timeout);
  g_assert_false (timed_out);
}

void
viewer_test_spin_until_idle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

GtkEventController *
viewer_test_find_controller (GtkWidget *widget,
                             GType      type)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return controller;
    }
  return NULL;
}
