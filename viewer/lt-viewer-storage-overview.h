/* lt-viewer-storage-overview.h: a minimap of a whole storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "lt-viewer-lesson.h"
#include "lt-viewer-storage-strip.h"

G_BEGIN_DECLS

#define LT_VIEWER_TYPE_STORAGE_OVERVIEW (lt_viewer_storage_overview_get_type ())

G_DECLARE_FINAL_TYPE (LtViewerStorageOverview, lt_viewer_storage_overview, LT_VIEWER,
                      STORAGE_OVERVIEW, GtkWidget)

GtkWidget            *lt_viewer_storage_overview_new           (void);
LtViewerStorageStrip *lt_viewer_storage_overview_get_strip     (LtViewerStorageOverview *self);
void                  lt_viewer_storage_overview_set_strip     (LtViewerStorageOverview *self,
                                                                LtViewerStorageStrip    *strip);
gint64                lt_viewer_storage_overview_get_per_square (LtViewerStorageOverview *self);
gint64                lt_viewer_storage_overview_cell_at       (LtViewerStorageOverview *self,
                                                                double                   x,
                                                                double                   y);
int                   lt_viewer_storage_overview_get_square_view (LtViewerStorageOverview *self,
                                                                  gint64                   cell,
                                                                  gboolean                *dimmed);

G_END_DECLS
