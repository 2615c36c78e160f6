/* fuzz-common.h: what every fuzz target checks
 *
 * Each target defines LLVMFuzzerTestOneInput(). Built with clang's
 * -fsanitize=fuzzer it is a libFuzzer program; otherwise fuzz-replay.c
 * gives it a main() that runs it over files (the seed corpus and every
 * input that once failed), as a test. A broken invariant aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stdint.h>
#include <string.h>

#include <libtensor.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

/* A contiguous float64 tensor of @sizes holding 0, 1, 2, ... */
static inline LtTensor *
fuzz_arange (guint         ndim,
             const gint64 *sizes)
{
  gint64 numel = 1;
  g_autofree double *values = NULL;
  LtTensor *tensor;

  for (guint d = 0; d < ndim; d++)
    numel *= sizes[d];
  values = g_new (double, MAX (numel, 1));
  for (gint64 i = 0; i < numel; i++)
    values[i] = (double) i;
  tensor = lt_tensor_new_from_data (LT_DTYPE_FLOAT64, values, (gsize) numel, sizes, ndim, NULL);
  g_assert (tensor != NULL);
  return tensor;
}

/* The invariants of any view: sizes >= 0, strides for each dim, every
 * element inside its storage, and (for small views) contiguous() holding
 * what element-by-element reads give. */
static inline void
fuzz_check_view (LtTensor *view)
{
  guint ndim = 0, n_strides = 0;
  const gint64 *sizes = lt_tensor_get_sizes (view, &ndim);
  LtStorage *storage = lt_tensor_get_storage (view);
  gint64 n_elements = lt_storage_get_n_elements (storage);
  gint64 numel = lt_tensor_get_numel (view), counted = 1;
  g_autofree gint64 *indices = NULL;
  gsize n_indices = 0;

  lt_tensor_get_strides (view, &n_strides);
  g_assert (n_strides == ndim);
  for (guint d = 0; d < ndim; d++)
    {
      g_assert (sizes[d] >= 0);
      counted *= sizes[d];
    }
  g_assert (counted == numel);
  if (numel > 4096)
    return;

  indices = lt_tensor_get_storage_indices (view, &n_indices, NULL);
  g_assert ((gint64) n_indices == numel);
  for (gsize i = 0; i < n_indices; i++)
    g_assert (indices[i] >= 0 && indices[i] < n_elements);

  if (lt_dtype_is_floating_point (lt_tensor_get_dtype (view)))
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) dense = lt_tensor_contiguous (view, &error);
      g_autoptr (LtTensor) flat = NULL;
      gint64 at[LT_MAX_DIMS] = { 0 };

      g_assert (dense != NULL && lt_tensor_is_contiguous (dense));
      flat = lt_tensor_reshape (dense, (const gint64[]) { -1 }, 1, &error);
      g_assert (flat != NULL);
      for (gint64 i = 0; i < numel; i++)
        {
          double expected = 0, got = 0;
          gint64 flat_index[1] = { i };

          g_assert (lt_tensor_get_double (view, at, ndim, &expected, NULL));
          g_assert (lt_tensor_get_double (flat, flat_index, 1, &got, NULL));
          g_assert (memcmp (&expected, &got, sizeof got) == 0 || (expected != expected
                                                                  && got != got));
          /* The next index in row-major order. */
          for (int d = (int) ndim - 1; d >= 0; d--)
            {
              if (++at[d] < sizes[d])
                break;
              at[d] = 0;
            }
        }
    }
}

/* Whether @a and @b have the same dtype, sizes and element bits. */
static inline gboolean
fuzz_same_bits (LtTensor *a,
                LtTensor *b)
{
  guint ndim_a = 0, ndim_b = 0;
  const gint64 *sizes_a = lt_tensor_get_sizes (a, &ndim_a);
  const gint64 *sizes_b = lt_tensor_get_sizes (b, &ndim_b);
  g_autoptr (GBytes) bytes_a = NULL;
  g_autoptr (GBytes) bytes_b = NULL;

  if (lt_tensor_get_dtype (a) != lt_tensor_get_dtype (b) || ndim_a != ndim_b
      || memcmp (sizes_a, sizes_b, ndim_a * sizeof (gint64)) != 0)
    return FALSE;
  bytes_a = lt_tensor_to_bytes (a, NULL);
  bytes_b = lt_tensor_to_bytes (b, NULL);
  return bytes_a != NULL && bytes_b != NULL && g_bytes_equal (bytes_a, bytes_b);
}
