/* fuzz-index-expr.c: index expressions ("[1:, ::-2, None]") from bytes
 *
 * The bytes are an expression: parsed, then applied to a (2, 3, 4) tensor,
 * whose view must reach only elements of its storage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "fuzz-common.h"

#include "lt-index-expr.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) items = lt_index_expr_parse (text, &error);
  g_autoptr (LtTensor) base = fuzz_arange (3, (const gint64[]) { 2, 3, 4 });
  g_autoptr (LtTensor) view = NULL;

  g_assert ((items == NULL) != (error == NULL));
  g_clear_error (&error);
  view = lt_tensor_index (base, text, &error);
  g_assert ((view == NULL) != (error == NULL));
  if (view != NULL)
    fuzz_check_view (view);
  return 0;
}
