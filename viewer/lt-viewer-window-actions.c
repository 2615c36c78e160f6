/* lt-viewer-window-actions.c: the actions of Tensor Viewer's window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <glib/gi18n.h>

#include "lt-viewer-lesson-file.h"
#include "lt-viewer-view-row.h"
#include "lt-viewer-window-private.h"

/* Playing: one element further at each tick */

static void
set_playing (LtViewerWindow *self,
             gboolean        playing)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "play-pause");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (playing));
  gtk_button_set_icon_name (self->play_button, playing ? "media-playback-pause-symbolic"
                                                       : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button), playing ? _("Pause") : _("Play"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, playing ? _("Pause") : _("Play"),
                                  -1);
}

void
lt_viewer_window_stop_playing (LtViewerWindow *self)
{
  if (self->play_source == 0)
    return;
  g_clear_handle_id (&self->play_source, g_source_remove);
  set_playing (self, FALSE);
}

static gboolean
step (LtViewerWindow *self,
      int             direction)
{
  LtTensor *tensor = self->selected != NULL ? lt_viewer_view_get_tensor (self->selected) : NULL;
  gint64 numel = tensor != NULL ? lt_tensor_get_numel (tensor) : 0;
  gint64 cursor;

  if (numel == 0)
    return FALSE;

  cursor = lt_viewer_view_get_cursor (self->selected) + direction;
  if (cursor < -1 || cursor >= numel)
    return FALSE;
  lt_viewer_view_set_cursor (self->selected, cursor);
  return cursor < numel - 1;
}

static gboolean
on_play_tick (gpointer data)
{
  LtViewerWindow *self = data;

  if (!step (self, 1))
    {
      self->play_source = 0;
      set_playing (self, FALSE);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
start_playing (LtViewerWindow *self)
{
  LtTensor *tensor = self->selected != NULL ? lt_viewer_view_get_tensor (self->selected) : NULL;
  double speed = gtk_adjustment_get_value (self->speed_adjustment);

  if (tensor == NULL || lt_tensor_get_numel (tensor) == 0)
    return;

  /* From the start again once the end was reached. */
  if (lt_viewer_view_get_cursor (self->selected) >= lt_tensor_get_numel (tensor) - 1)
    lt_viewer_view_set_cursor (self->selected, -1);

  g_clear_handle_id (&self->play_source, g_source_remove);
  self->play_source = g_timeout_add ((guint) (1000.0 / MAX (speed, 0.1)), on_play_tick, self);
  set_playing (self, TRUE);
  step (self, 1);
}

static void
on_speed_changed (LtViewerWindow *self)
{
  if (self->play_source != 0)
    {
      double speed = gtk_adjustment_get_value (self->speed_adjustment);

      g_source_remove (self->play_source);
      self->play_source = g_timeout_add ((guint) (1000.0 / MAX (speed, 0.1)), on_play_tick, self);
    }
}

/* Views */

static void
add_view_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  LtViewerWindow *self = data;
  g_autoptr (GError) error = NULL;
  LtViewerViewRow *row;
  LtViewerView *view;

  view = lt_viewer_lesson_add_view (self->lesson, NULL, NULL, "t", &error);
  if (view == NULL)
    {
      lt_viewer_window_show_toast (self, error->message);
      return;
    }

  lt_viewer_lesson_set_selected (self->lesson, view);
  row = lt_viewer_window_find_row (self, view);
  if (row != NULL)
    lt_viewer_view_row_focus_expression (row);
}

static void
play_pause_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  LtViewerWindow *self = data;

  if (self->play_source != 0)
    lt_viewer_window_stop_playing (self);
  else
    start_playing (self);
}

static void
step_forward_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       data)
{
  LtViewerWindow *self = data;

  lt_viewer_window_stop_playing (self);
  step (self, 1);
}

static void
step_back_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       data)
{
  LtViewerWindow *self = data;

  lt_viewer_window_stop_playing (self);
  step (self, -1);
}

/* Zoom */

void
lt_viewer_window_set_zoom (LtViewerWindow *self,
                           double          zoom)
{
  lt_viewer_storage_strip_set_zoom (self->storage_strip, CLAMP (zoom, MIN_ZOOM, MAX_ZOOM));
}

static void
zoom_in_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  LtViewerWindow *self = data;

  lt_viewer_window_set_zoom (self,
                             lt_viewer_storage_strip_get_zoom (self->storage_strip) * ZOOM_STEP);
}

static void
zoom_out_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  LtViewerWindow *self = data;

  lt_viewer_window_set_zoom (self,
                             lt_viewer_storage_strip_get_zoom (self->storage_strip) / ZOOM_STEP);
}

static void
zoom_reset_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  LtViewerWindow *self = data;

  lt_viewer_window_set_zoom (self, 1.0);
}

static void
on_zoom_notify (LtViewerWindow *self)
{
  double zoom = lt_viewer_storage_strip_get_zoom (self->storage_strip);
  /* Translators: the storage strip's zoom, such as 125%; use the percent
   * sign and spacing of your language. */
  g_autofree char *label = g_strdup_printf (_("%d%%"), (int) (zoom * 100.0 + 0.5));
  GAction *action;

  gtk_button_set_label (self->zoom_button, label);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "zoom-in");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), zoom < MAX_ZOOM - 1e-9);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "zoom-out");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), zoom > MIN_ZOOM + 1e-9);
}

static const GActionEntry win_actions[] = {
  { "open", lt_viewer_window_open_activated, NULL, NULL, NULL },
  { "save", lt_viewer_window_save_activated, NULL, NULL, NULL },
  { "save-as", lt_viewer_window_save_as_activated, NULL, NULL, NULL },
  { "export", lt_viewer_window_export_activated, NULL, NULL, NULL },
  { "add-view", add_view_activated, NULL, NULL, NULL },
  { "play-pause", play_pause_activated, NULL, "false", NULL },
  { "step-forward", step_forward_activated, NULL, NULL, NULL },
  { "step-back", step_back_activated, NULL, NULL, NULL },
  { "zoom-in", zoom_in_activated, NULL, NULL, NULL },
  { "zoom-out", zoom_out_activated, NULL, NULL, NULL },
  { "zoom-reset", zoom_reset_activated, NULL, NULL, NULL },
};

/* Until a lesson is shown there is nothing to save, export or add to. */
void
lt_viewer_window_set_lesson_actions_enabled (LtViewerWindow *self,
                                             gboolean        enabled)
{
  static const char *const names[] = { "save", "save-as", "export", "add-view" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
    }
}

/* The window's actions, the lesson's disabled until there is one; zooming
 * stops at the strip's limits, and a new speed applies while playing. */
void
lt_viewer_window_init_actions (LtViewerWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);
  lt_viewer_window_set_lesson_actions_enabled (self, FALSE);

  g_signal_connect_object (self->storage_strip, "notify::zoom", G_CALLBACK (on_zoom_notify), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->speed_adjustment, "value-changed", G_CALLBACK (on_speed_changed),
                           self, G_CONNECT_SWAPPED);
  on_zoom_notify (self);
}

/* The lessons menu: the built-in lessons by their translated titles. */
static GMenuModel *
build_lessons_menu (void)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autoptr (LtViewerLesson) lesson = lt_viewer_lesson_load_builtin (names[i], NULL);
      g_autoptr (GMenuItem) item = NULL;

      if (lesson == NULL)
        continue;
      item = g_menu_item_new (lt_viewer_lesson_get_title (lesson), NULL);
      g_menu_item_set_action_and_target_value (item, "app.open-lesson",
                                               g_variant_new_string (names[i]));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (g_steal_pointer (&menu));
}

void
lt_viewer_window_init_lessons_menu (LtViewerWindow *self)
{
  g_autoptr (GMenuModel) lessons = build_lessons_menu ();

  gtk_menu_button_set_menu_model (self->lessons_button, lessons);
}
