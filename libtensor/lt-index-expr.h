/* lt-index-expr.h: parsing `[1:, ::2]`-style index expressions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  LT_INDEX_ITEM_INTEGER,
  LT_INDEX_ITEM_SLICE,
  LT_INDEX_ITEM_NONE,
  LT_INDEX_ITEM_ELLIPSIS,
  LT_INDEX_ITEM_NAME,
} LtIndexItemKind;

/* One comma-separated part of an expression. Missing slice bounds take
 * Python's defaults, which depend on the sign of the step: has_start and
 * has_stop say whether they were written. A name (a tensor argument, as in
 * `[idx, 1:]`) is the name_length bytes at name in the expression. */
typedef struct
{
  LtIndexItemKind kind;
  guint column;
  gint64 index;
  gboolean has_start;
  gboolean has_stop;
  gint64 start;
  gint64 stop;
  gint64 step;
  const char *name;
  gsize name_length;
} LtIndexItem;

GArray *lt_index_expr_parse (const char *expression,
                             GError    **error);

G_END_DECLS
