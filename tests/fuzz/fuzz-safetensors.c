/* fuzz-safetensors.c: safetensors files from bytes
 *
 * A file that loads must save to a file that loads to the same tensors and
 * metadata.
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
  GHashTable *metadata = NULL;
  g_autoptr (GHashTable) tensors = lt_safetensors_load_from_bytes (bytes, &metadata, &error);
  g_autoptr (GHashTable) metadata_kept = metadata;
  g_autoptr (GBytes) saved = NULL;
  g_autoptr (GHashTable) again = NULL;
  GHashTableIter iter;
  gpointer name, tensor;

  g_assert ((tensors == NULL) != (error == NULL));
  if (tensors == NULL)
    return 0;
  saved = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_no_error (error);
  again = lt_safetensors_load_from_bytes (saved, NULL, &error);
  g_assert_no_error (error);
  g_assert (g_hash_table_size (again) == g_hash_table_size (tensors));
  g_hash_table_iter_init (&iter, tensors);
  while (g_hash_table_iter_next (&iter, &name, &tensor))
    {
      fuzz_check_view (tensor);
      g_assert (fuzz_same_bits (tensor, g_hash_table_lookup (again, name)));
    }
  return 0;
}
