/* fuzz-view-chain.c: chains of view operations decoded from bytes
 *
 * The first bytes give a tensor's shape (1 to 4 dims of 0 to 5); each
 * following group of bytes is one view operation with its arguments
 * (transpose, permute, select, slice, narrow, unsqueeze, squeeze, expand,
 * flip, diagonal, unfold, movedim, view, reshape, as_strided over the same
 * storage). Refusals are fine; after every view that is made, the
 * invariants of fuzz_check_view() must hold, and views share the storage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "fuzz-common.h"

typedef struct
{
  const guint8 *data;
  size_t size;
  size_t at;
} Bytes;

static guint8
next (Bytes *bytes)
{
  return bytes->at < bytes->size ? bytes->data[bytes->at++] : 0;
}

/* A small signed number: -8 .. 7. */
static int
small (Bytes *bytes)
{
  return (int) (next (bytes) % 16) - 8;
}

#define N_OPERATIONS 15

static LtTensor *
apply (LtTensor *t,
       Bytes    *bytes,
       GError  **error)
{
  guint ndim = lt_tensor_get_dim (t);
  int op = next (bytes) % N_OPERATIONS;
  /* Read in a fixed order (argument evaluation order is the compiler's). */
  int a = small (bytes), b = small (bytes), c = small (bytes), e = small (bytes);

  switch (op)
    {
    case 0:
      return lt_tensor_transpose (t, a, b, error);
    case 1:
      {
        int dims[LT_MAX_DIMS];

        for (guint d = 0; d < ndim; d++)
          dims[d] = small (bytes);
        return lt_tensor_permute (t, dims, ndim, error);
      }
    case 2:
      return lt_tensor_select (t, a, b, error);
    case 3:
      return lt_tensor_slice (t, a, b, c, e, error);
    case 4:
      return lt_tensor_narrow (t, a, b, c, error);
    case 5:
      return lt_tensor_unsqueeze (t, a, error);
    case 6:
      return lt_tensor_squeeze_dim (t, a, error);
    case 7:
      {
        gint64 sizes[LT_MAX_DIMS];
        guint n = ndim + next (bytes) % 2;

        for (guint d = 0; d < n && d < LT_MAX_DIMS; d++)
          sizes[d] = small (bytes);
        return lt_tensor_expand (t, sizes, MIN (n, LT_MAX_DIMS), error);
      }
    case 8:
      {
        int dims[2] = { a, b };

        return lt_tensor_flip (t, dims, 1 + (guint) (c & 1), error);
      }
    case 9:
      return lt_tensor_diagonal (t, a, b, c, error);
    case 10:
      return lt_tensor_unfold (t, a, b, c, error);
    case 11:
      {
        int source[1] = { a }, destination[1] = { b };

        return lt_tensor_movedim (t, source, 1, destination, 1, error);
      }
    case 12:
    case 13:
      {
        gint64 shape[4];
        guint n = 1 + next (bytes) % 4;

        for (guint d = 0; d < n; d++)
          shape[d] = small (bytes);
        return op == 12 ? lt_tensor_view (t, shape, n, error)
                        : lt_tensor_reshape (t, shape, n, error);
      }
    default:
      {
        gint64 sizes[3], strides[3];
        guint n = next (bytes) % 4;

        for (guint d = 0; d < n; d++)
          {
            sizes[d] = small (bytes);
            strides[d] = small (bytes);
          }
        return lt_tensor_as_strided (t, sizes, n, strides, n, next (bytes) % 64, error);
      }
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  Bytes bytes = { data, size, 0 };
  gint64 sizes[4];
  guint ndim = 1 + next (&bytes) % 4;
  g_autoptr (LtTensor) base = NULL;
  g_autoptr (LtTensor) current = NULL;

  for (guint d = 0; d < ndim; d++)
    sizes[d] = next (&bytes) % 6;
  base = fuzz_arange (ndim, sizes);
  current = g_object_ref (base);
  fuzz_check_view (current);

  for (guint step = 0; step < 16 && bytes.at < bytes.size; step++)
    {
      g_autoptr (GError) error = NULL;
      LtTensor *made = apply (current, &bytes, &error);

      g_assert ((made == NULL) != (error == NULL));
      if (made == NULL)
        continue;
      fuzz_check_view (made);
      /* reshape() may copy; everything else is a view of the same storage. */
      g_assert (lt_tensor_get_storage (made) == lt_tensor_get_storage (current)
                || lt_tensor_is_contiguous (made));
      g_object_unref (current);
      current = made;
    }
  return 0;
}
