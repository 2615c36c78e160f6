/* test-layout.c: the stride rules of lt-layout, tested directly
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-layout.h"

static void
test_numel (void)
{
  gint64 numel;

  g_assert_true (lt_layout_numel (3, I64S (2, 3, 4), &numel));
  g_assert_cmpint (numel, ==, 24);
  g_assert_true (lt_layout_numel (0, NULL, &numel));
  g_assert_cmpint (numel, ==, 1);
  g_assert_true (lt_layout_numel (3, I64S (G_MAXINT64, 0, G_MAXINT64), &numel));
  g_assert_cmpint (numel, ==, 0);
  g_assert_false (lt_layout_numel (2, I64S (G_MAXINT64 / 2, 3), &numel));
}

static void
test_contiguous_strides (void)
{
  gint64 strides[4];

  g_assert_true (lt_layout_contiguous_strides (4, I64S (2, 2, 2, 3), strides));
  lt_test_assert_array (G_STRLOC, "strides", strides, 4, I64S (12, 6, 3, 1), 4);
  /* A size-0 dim counts as 1, as in PyTorch. */
  g_assert_true (lt_layout_contiguous_strides (3, I64S (2, 0, 3), strides));
  lt_test_assert_array (G_STRLOC, "strides", strides, 3, I64S (3, 3, 1), 3);
}

static void
test_is_contiguous (void)
{
  g_assert_true (lt_layout_is_contiguous (2, I64S (3, 2), I64S (2, 1)));
  g_assert_false (lt_layout_is_contiguous (2, I64S (2, 3), I64S (1, 2)));
  g_assert_true (lt_layout_is_contiguous (3, I64S (2, 1, 3), I64S (3, 99, 1)));
  g_assert_true (lt_layout_is_contiguous (2, I64S (0, 3), I64S (7, 7)));
  g_assert_true (lt_layout_is_contiguous (0, NULL, NULL));
  g_assert_false (lt_layout_is_contiguous (1, I64S (3), I64S (-1)));
}

static void
test_non_overlapping_and_dense (void)
{
  g_assert_true (lt_layout_is_non_overlapping_and_dense (2, I64S (2, 3), I64S (1, 2)));
  g_assert_false (lt_layout_is_non_overlapping_and_dense (2, I64S (2, 3), I64S (0, 1)));
  g_assert_false (lt_layout_is_non_overlapping_and_dense (2, I64S (2, 3), I64S (6, 1)));
  g_assert_true (lt_layout_is_non_overlapping_and_dense (3, I64S (1, 4, 3), I64S (4, 1, 4)));
}

/* Expected strides from PyTorch's clone() of the same layouts. */
static void
test_dense_strides_like (void)
{
  gint64 strides[3];

  lt_layout_dense_strides_like (3, I64S (4, 2, 2), I64S (1, 12, 8), strides);
  lt_test_assert_array (G_STRLOC, "strides", strides, 3, I64S (1, 8, 4), 3);
  lt_layout_dense_strides_like (2, I64S (4, 3), I64S (0, 1), strides);
  lt_test_assert_array (G_STRLOC, "strides", strides, 2, I64S (3, 1), 2);
}

static void
test_view_strides (void)
{
  gint64 strides[4];
  guint bad_dim;

  g_assert_true (lt_layout_view_strides (3, I64S (3, 2, 4), I64S (4, 12, 1), 4,
                                         I64S (3, 2, 2, 2), strides, &bad_dim));
  lt_test_assert_array (G_STRLOC, "strides", strides, 4, I64S (4, 12, 2, 1), 4);

  g_assert_false (lt_layout_view_strides (3, I64S (3, 2, 4), I64S (4, 12, 1), 2, I64S (3, 8),
                                          strides, &bad_dim));
  g_assert_cmpuint (bad_dim, ==, 2);

  g_assert_false (lt_layout_view_strides (4, I64S (2, 2, 2, 3), I64S (6, 12, 3, 1), 3,
                                          I64S (4, 2, 3), strides, &bad_dim));
  g_assert_cmpuint (bad_dim, ==, 1);

  /* A 0-dim tensor views as anything of one element with strides 1. */
  g_assert_true (lt_layout_view_strides (0, NULL, NULL, 2, I64S (1, 1), strides, &bad_dim));
  lt_test_assert_array (G_STRLOC, "strides", strides, 2, I64S (1, 1), 2);
}

static void
test_extent (void)
{
  gint64 lowest, highest;

  g_assert_true (lt_layout_extent (2, I64S (2, 3), I64S (3, -1), 2, &lowest, &highest));
  g_assert_cmpint (lowest, ==, 0);
  g_assert_cmpint (highest, ==, 5);
  g_assert_true (lt_layout_extent (2, I64S (0, 3), I64S (3, -1), 2, &lowest, &highest));
  g_assert_cmpint (lowest, ==, 2);
  g_assert_cmpint (highest, ==, 2);
  g_assert_false (lt_layout_extent (1, I64S (3), I64S (G_MAXINT64 / 2 + 1), 0, &lowest,
                                    &highest));
}

static void
test_internal_overlap (void)
{
  /* Expanded. */
  g_assert_true (lt_layout_has_internal_overlap (2, I64S (3, 4), I64S (1, 0)));
  /* Size-1 dims with stride 0 do not overlap. */
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (1, 4), I64S (0, 1)));
  /* Sliding windows overlap; disjoint interleavings do not. */
  g_assert_true (lt_layout_has_internal_overlap (2, I64S (4, 3), I64S (1, 1)));
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (2, 3), I64S (1, 2)));
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (3, 2), I64S (-2, -1)));
  /* Strides that interleave without a collision need the exact check. */
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (2, 2), I64S (3, 2)));
  g_assert_true (lt_layout_has_internal_overlap (2, I64S (4, 3), I64S (2, 3)));
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (3, 3), I64S (3, 2)));
  g_assert_false (lt_layout_has_internal_overlap (2, I64S (0, 5), I64S (0, 0)));
}

static void
test_broadcast_shapes (void)
{
  gint64 sizes[4];
  guint ndim, bad_dim;

  g_assert_true (lt_layout_broadcast_shapes (3, I64S (2, 1, 4), 2, I64S (3, 1), &ndim, sizes,
                                             &bad_dim));
  lt_test_assert_array (G_STRLOC, "sizes", sizes, ndim, I64S (2, 3, 4), 3);
  g_assert_false (lt_layout_broadcast_shapes (2, I64S (2, 3), 1, I64S (4), &ndim, sizes,
                                              &bad_dim));
  g_assert_cmpuint (bad_dim, ==, 1);
}

static void
test_loop_shape_simplify (void)
{
  gint64 dst[3], src[3] = { 1, 12, 4 };
  const gint64 *operands[2] = { dst, src };
  LtLoopShape shape;

  /* A contiguous copy of a contiguous tensor is one flat row. */
  lt_layout_contiguous_strides (3, I64S (2, 3, 4), dst);
  lt_loop_shape_init (&shape, 3, I64S (2, 3, 4), 2, (const gint64 *[]) { dst, dst });
  lt_loop_shape_simplify (&shape);
  g_assert_cmpuint (shape.ndim, ==, 1);
  g_assert_cmpint (shape.sizes[0], ==, 24);

  /* permute(2, 0, 1) of a (2, 3, 4) source: the destination's order is kept,
   * and its two inner dims merge because the source walks them as one. */
  lt_layout_contiguous_strides (3, I64S (4, 2, 3), dst);
  lt_loop_shape_init (&shape, 3, I64S (4, 2, 3), 2, operands);
  lt_loop_shape_simplify (&shape);
  g_assert_cmpuint (shape.ndim, ==, 2);
  g_assert_cmpint (shape.sizes[0], ==, 4);
  g_assert_cmpint (shape.sizes[1], ==, 6);
  g_assert_cmpint (shape.strides[0][0], ==, 6);
  g_assert_cmpint (shape.strides[1][0], ==, 1);
  g_assert_cmpint (shape.strides[0][1], ==, 1);
  g_assert_cmpint (shape.strides[1][1], ==, 4);

  /* Size-1 dims disappear. */
  lt_loop_shape_init (&shape, 3, I64S (1, 5, 1), 1, (const gint64 *[]) { I64S (9, 1, 9) });
  lt_loop_shape_simplify (&shape);
  g_assert_cmpuint (shape.ndim, ==, 1);
  g_assert_cmpint (shape.sizes[0], ==, 5);
}

static void
test_storage_indices (void)
{
  gint64 indices[6];

  lt_layout_storage_indices (2, I64S (2, 3), I64S (1, 2), 0, indices);
  lt_test_assert_array (G_STRLOC, "indices", indices, 6, I64S (0, 2, 4, 1, 3, 5), 6);
  lt_layout_storage_indices (2, I64S (3, 2), I64S (-2, 1), 4, indices);
  lt_test_assert_array (G_STRLOC, "indices", indices, 6, I64S (4, 5, 2, 3, 0, 1), 6);
  lt_layout_storage_indices (0, NULL, NULL, 7, indices);
  g_assert_cmpint (indices[0], ==, 7);
}

static void
test_shape_to_string (void)
{
  g_autofree char *one = lt_layout_shape_to_string (1, I64S (3));
  g_autofree char *two = lt_layout_shape_to_string (2, I64S (3, -4));
  g_autofree char *none = lt_layout_shape_to_string (0, NULL);

  g_assert_cmpstr (one, ==, "(3,)");
  g_assert_cmpstr (two, ==, "(3, -4)");
  g_assert_cmpstr (none, ==, "()");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/layout/numel", test_numel);
  g_test_add_func ("/layout/contiguous-strides", test_contiguous_strides);
  g_test_add_func ("/layout/is-contiguous", test_is_contiguous);
  g_test_add_func ("/layout/non-overlapping-and-dense", test_non_overlapping_and_dense);
  g_test_add_func ("/layout/dense-strides-like", test_dense_strides_like);
  g_test_add_func ("/layout/view-strides", test_view_strides);
  g_test_add_func ("/layout/extent", test_extent);
  g_test_add_func ("/layout/internal-overlap", test_internal_overlap);
  g_test_add_func ("/layout/broadcast-shapes", test_broadcast_shapes);
  g_test_add_func ("/layout/loop-shape/simplify", test_loop_shape_simplify);
  g_test_add_func ("/layout/storage-indices", test_storage_indices);
  g_test_add_func ("/layout/shape-to-string", test_shape_to_string);

  return g_test_run ();
}
