/* fuzz-npy.c: .npy files from bytes
 *
 * A file that loads must save to a file that loads to the same tensor.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (bytes, &error);
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (LtTensor) again = NULL;

  g_assert ((tensor == NULL) != (error == NULL));
  if (tensor == NULL)
    return 0;
  fuzz_check_view (tensor);
  saved = lt_tensor_to_npy_bytes (tensor, &error);
  g_assert_no_error (error);
  again = lt_tensor_new_from_npy_bytes (saved, &error);
  g_assert_no_error (error);
  g_assert (fuzz_same_bits (tensor, again));
  return 0;
}
