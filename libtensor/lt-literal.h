/* lt-literal.h: parsing nested list literals such as `[[4.0, 1.0], [5.0, 3.0]]`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "lt-dtype.h"
#include "lt-types.h"

G_BEGIN_DECLS

typedef struct _LtLiteral LtLiteral;

struct _LtLiteral
{
  guint ndim;
  gint64 sizes[LT_MAX_DIMS];
  /* The dtype PyTorch's torch.tensor() infers: bool, int64, float32 or
   * complex64, the widest kind of value seen. */
  LtDType inferred_dtype;
  /* LtValue, one per element in row-major order. */
  GArray *values;
};

LtLiteral *lt_literal_parse (const char *text,
                             GError    **error);
void       lt_literal_write (const LtLiteral *literal,
                             LtDType          dtype,
                             gpointer         data);
void       lt_literal_free  (LtLiteral *literal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LtLiteral, lt_literal_free)

G_END_DECLS
