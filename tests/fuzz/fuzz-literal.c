/* fuzz-literal.c: nested literals ("[[1, 2.5], [3, -inf]]") from bytes
 *
 * The first byte picks a dtype (or none, for the inferred one), the rest is
 * the literal; a tensor made from it must print and read back whole.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  int choice;

  if (size == 0)
    return 0;
  choice = data[0] % (LT_DTYPE_COMPLEX128 + 2);
  text = g_strndup ((const char *) data + 1, size - 1);
  if (choice == LT_DTYPE_COMPLEX128 + 1)
    tensor = lt_tensor_new_from_literal (text, &error);
  else
    tensor = lt_tensor_new_from_literal_with_dtype (text, (LtDType) choice, &error);
  g_assert ((tensor == NULL) != (error == NULL));
  if (tensor != NULL)
    {
      g_autofree char *printed = lt_tensor_to_string (tensor);

      g_assert (printed != NULL);
      fuzz_check_view (tensor);
    }
  return 0;
}
