/* validate-ui-types.c: the types gtk4-builder-tool needs to validate the viewer's .ui files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gtk4-builder-tool finds a type in a .ui file by looking up its get_type()
 * function in the process, but a template's parent type must already be
 * registered. Preloaded (LD_PRELOAD), this module brings the viewer's
 * widgets and libadwaita into the process and registers the parents of the
 * viewer's templates before the tool runs.
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <adwaita.h>

#include "lt-viewer-storage-strip.h"
#include "lt-viewer-view-grid.h"

static void register_types (void) __attribute__ ((constructor));

static void
register_types (void)
{
  g_type_ensure (ADW_TYPE_APPLICATION_WINDOW);
  g_type_ensure (GTK_TYPE_LIST_BOX_ROW);
  g_type_ensure (LT_VIEWER_TYPE_STORAGE_STRIP);
  g_type_ensure (LT_VIEWER_TYPE_VIEW_GRID);
}
