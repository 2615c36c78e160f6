/* test-names.c: dim names, and how views carry them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-names-private.h"

#define NAMES(...) ((const char *const[]) { __VA_ARGS__ })
#define N_NAMES(...) (sizeof ((const char *const[]) { __VA_ARGS__ }) / sizeof (char *))

/* Checks every name of @t, "" standing for an unnamed dim. */
#define assert_names(t, ...) \
  check_names (G_STRLOC, (t), NAMES (__VA_ARGS__), N_NAMES (__VA_ARGS__))

static void
check_names (const char        *location,
             LtTensor          *t,
             const char *const *expected,
             guint              n_expected)
{
  g_auto (GStrv) names = lt_tensor_get_names (t);
  g_autofree char *have = g_strjoinv (", ", names);

  if (g_strv_length (names) != n_expected)
    g_error ("%s: names (%s), expected %u of them", location, have, n_expected);
  for (guint d = 0; d < n_expected; d++)
    if (g_strcmp0 (names[d], expected[d]) != 0)
      g_error ("%s: names (%s): dim %u is '%s', expected '%s'", location, have, d, names[d],
               expected[d]);
}

static LtTensor *
named (const gint64       *sizes,
       guint               n_sizes,
       const char *const  *names)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) plain = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, sizes, n_sizes, &error);
  LtTensor *t;

  g_assert_no_error (error);
  t = lt_tensor_refine_names (plain, names, n_sizes, &error);
  g_assert_no_error (error);
  return t;
}

static void
test_refine_names (void)
{
  g_autoptr (LtTensor) plain = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (2, 3, 4), 3, NULL);
  g_autoptr (LtTensor) first = NULL;
  g_autoptr (LtTensor) both = NULL;
  g_autoptr (LtTensor) again = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_false (lt_tensor_has_names (plain));
  assert_names (plain, "", "", "");

  first = lt_tensor_refine_names (plain, NAMES ("N", "..."), 2, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_has_names (first));
  g_assert_true (lt_tensor_shares_storage (first, plain));
  assert_names (first, "N", "", "");
  /* The original keeps no names: names belong to the view. */
  g_assert_false (lt_tensor_has_names (plain));

  both = lt_tensor_refine_names (first, NAMES ("N", "...", "W"), 3, &error);
  g_assert_no_error (error);
  assert_names (both, "N", "", "W");

  /* A name cannot change by refining, nor repeat, nor be malformed. */
  again = lt_tensor_refine_names (both, NAMES ("X", "..."), 2, &error);
  g_assert_null (again);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "'N'"));
  g_clear_error (&error);

  for (guint i = 0; i < 5; i++)
    {
      const char *const cases[][3] = {
        { "A", "A", "C" }, { "1a", "B", "C" }, { "a b", "B", "C" }, { "...", "...", "C" },
        { "A", "B", "C" },
      };
      g_autoptr (LtTensor) t = lt_tensor_refine_names (plain, cases[i], i == 4 ? 2 : 3, &error);

      g_assert_null (t);
      g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
}

static void
test_rename (void)
{
  g_autoptr (LtTensor) t = named (I64S (2, 3, 4), 3, NAMES ("N", "C", "H"));
  g_autoptr (LtTensor) cleared = NULL;
  g_autoptr (LtTensor) positional = NULL;
  g_autoptr (LtTensor) mapped = NULL;
  g_autoptr (LtTensor) bad = NULL;
  g_autoptr (GError) error = NULL;
  int dim = -1;

  cleared = lt_tensor_rename (t, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_false (lt_tensor_has_names (cleared));

  positional = lt_tensor_rename (t, NAMES ("a", "", "..."), 3, &error);
  g_assert_no_error (error);
  assert_names (positional, "a", "", "H");

  mapped = lt_tensor_rename_dims (t, NAMES ("C"), NAMES ("channels"), 1, &error);
  g_assert_no_error (error);
  assert_names (mapped, "N", "channels", "H");
  g_assert_true (lt_tensor_dim_of_name (mapped, "channels", &dim, &error));
  g_assert_cmpint (dim, ==, 1);

  bad = lt_tensor_rename_dims (t, NAMES ("X"), NAMES ("y"), 1, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "'X'"));
  g_assert_nonnull (strstr (error->message, "Tensor['N', 'C', 'H']"));
  g_clear_error (&error);

  bad = lt_tensor_rename (t, NAMES ("a", "a", "c"), 3, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_clear_error (&error);

  g_assert_false (lt_tensor_dim_of_name (t, "W", &dim, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
}

/* The seed's grayscale example: weights named "channels" line up with an
 * image named (channels, rows, columns) as a (3, 1, 1) view. */
static void
test_align (void)
{
  g_autoptr (LtTensor) image = named (I64S (3, 5, 5), 3, NAMES ("channels", "rows", "columns"));
  g_autoptr (LtTensor) plain_weights = lt_tensor_new_from_literal ("[0.2126, 0.7152, 0.0722]",
                                                                   NULL);
  g_autoptr (LtTensor) weights = lt_tensor_refine_names (plain_weights, NAMES ("channels"), 1,
                                                         NULL);
  g_autoptr (LtTensor) aligned = NULL;
  g_autoptr (LtTensor) reordered = NULL;
  g_autoptr (LtTensor) bad = NULL;
  g_autoptr (GError) error = NULL;

  aligned = lt_tensor_align_as (weights, image, &error);
  g_assert_no_error (error);
  lt_assert_sizes (aligned, 3, 1, 1);
  assert_names (aligned, "channels", "rows", "columns");
  g_assert_true (lt_tensor_shares_storage (aligned, weights));
  lt_assert_values (aligned, 0.2126f, 0.7152f, 0.0722f);

  reordered = lt_tensor_align_to (image, NAMES ("columns", "...", "batch"), 3, &error);
  g_assert_no_error (error);
  lt_assert_sizes (reordered, 5, 3, 5, 1);
  lt_assert_strides (reordered, 1, 25, 5, 1);
  assert_names (reordered, "columns", "channels", "rows", "batch");

  /* Every dim must be named and listed. */
  bad = lt_tensor_align_to (image, NAMES ("channels", "rows"), 2, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "'columns'"));
  g_clear_error (&error);
  bad = lt_tensor_align_to (plain_weights, NAMES ("channels"), 1, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_clear_error (&error);
  bad = lt_tensor_align_to (image, NAMES ("rows", "rows", "..."), 3, &error);
  g_assert_null (bad);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_clear_error (&error);

  /* Unnamed dims are fine where "..." stands for them. */
  {
    g_autoptr (LtTensor) partly = named (I64S (2, 3, 4), 3, NAMES ("A", "", "B"));
    g_autoptr (LtTensor) moved = lt_tensor_align_to (partly, NAMES ("B", "..."), 2, &error);

    g_assert_no_error (error);
    lt_assert_sizes (moved, 4, 2, 3);
    assert_names (moved, "B", "A", "");
  }
}

/* Views carry names where PyTorch does, and refuse where it refuses. */
static void
test_views (void)
{
  g_autoptr (LtTensor) t = named (I64S (2, 3, 4), 3, NAMES ("N", "C", "H"));
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (LtTensor) v = lt_tensor_select (t, 1, 0, &error);
    assert_names (v, "N", "H");
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_index (t, "0", &error);
    assert_names (v, "C", "H");
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_index (t, "..., 1:", &error);
    assert_names (v, "N", "C", "H");
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_transpose (t, 0, 2, &error);
    assert_names (v, "H", "C", "N");
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_diagonal (t, 0, 1, 2, &error);
    assert_names (v, "N", "");
  }
  {
    g_autoptr (LtTensor) row = named (I64S (1, 3), 2, NAMES ("A", "B"));
    g_autoptr (LtTensor) squeezed = lt_tensor_squeeze (row);
    g_autoptr (LtTensor) expanded = lt_tensor_expand (row, I64S (5, 2, 3), 3, &error);

    assert_names (squeezed, "B");
    assert_names (expanded, "", "A", "B");
  }
  {
    g_autoptr (GPtrArray) pieces = lt_tensor_unbind (t, 1, &error);

    g_assert_cmpuint (pieces->len, ==, 3);
    assert_names (g_ptr_array_index (pieces, 2), "N", "H");
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_transpose (t, 0, 1, &error);
    g_autoptr (LtTensor) c = lt_tensor_contiguous (v, &error);
    g_autoptr (LtTensor) d = lt_tensor_to_dtype (t, LT_DTYPE_FLOAT64, &error);
    g_autoptr (LtTensor) s = lt_tensor_as_strided (t, I64S (2), 1, I64S (1), 1, 0, &error);

    assert_names (c, "C", "N", "H");
    assert_names (d, "N", "C", "H");
    g_assert_false (lt_tensor_has_names (s));
  }
  g_assert_no_error (error);

  /* What PyTorch 1.13 refuses for named tensors. */
  {
    LtTensor *refused[] = {
      lt_tensor_permute (t, (const int[]) { 2, 0, 1 }, 3, NULL),
      lt_tensor_unsqueeze (t, 0, NULL),
      lt_tensor_index (t, "None", NULL),
      lt_tensor_view (t, I64S (6, 4), 2, NULL),
      lt_tensor_reshape (t, I64S (24), 1, NULL),
      lt_tensor_flatten (t, 0, 1, NULL),
      lt_tensor_flip (t, (const int[]) { 0 }, 1, NULL),
      lt_tensor_unfold (t, 2, 2, 1, NULL),
    };

    for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
      g_assert_null (refused[i]);
  }
  {
    g_autoptr (LtTensor) v = lt_tensor_view (t, I64S (24), 1, &error);

    g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
    g_assert_nonnull (strstr (error->message, "rename()"));
  }
}

static void
test_to_string (void)
{
  g_autoptr (LtTensor) t = named (I64S (2, 2), 2, NAMES ("A", ""));
  g_autoptr (LtTensor) one = named (I64S (2), 1, NAMES ("A"));
  g_autofree char *text = lt_tensor_to_string (t);
  g_autofree char *text1 = lt_tensor_to_string (one);

  g_assert_cmpstr (text, ==, "tensor([[0., 0.],\n        [0., 0.]], names=('A', None))");
  g_assert_cmpstr (text1, ==, "tensor([0., 0.], names=('A',))");
}

/* Broadcasting names, as binary operations do: matched from the right. */
static void
test_unify (void)
{
  g_autoptr (LtTensor) nch = named (I64S (2, 3, 4), 3, NAMES ("N", "C", "H"));
  g_autoptr (LtTensor) h = named (I64S (4), 1, NAMES ("H"));
  g_autoptr (LtTensor) w = named (I64S (4), 1, NAMES ("W"));
  g_autoptr (LtTensor) plain = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (3, 4), 2, NULL);
  g_autoptr (LtTensor) ab = named (I64S (3, 3), 2, NAMES ("A", "B"));
  g_autoptr (LtTensor) ba = named (I64S (3, 3), 2, NAMES ("B", "A"));
  g_autoptr (LtTensor) a_ = named (I64S (3, 3), 2, NAMES ("A", ""));
  g_autoptr (LtTensor) _a = named (I64S (3, 3), 2, NAMES ("", "A"));
  g_autoptr (GError) error = NULL;
  const char *out[3];

  g_assert_true (lt_names_unify ("add()", nch, h, 3, out, &error));
  g_assert_cmpstr (out[0], ==, "N");
  g_assert_cmpstr (out[2], ==, "H");
  g_assert_true (lt_names_unify ("add()", plain, nch, 3, out, &error));
  g_assert_cmpstr (out[1], ==, "C");
  g_assert_no_error (error);

  g_assert_false (lt_names_unify ("add()", nch, w, 3, out, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "dim 'H' and dim 'W' are at the same position from "
                                            "the right but do not match"));
  g_clear_error (&error);
  g_assert_false (lt_names_unify ("add()", ab, ba, 2, out, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_clear_error (&error);
  g_assert_false (lt_names_unify ("add()", a_, _a, 2, out, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "misaligned"));
}

/* The seed's grayscale example with names: the weights aligned as the
 * image, multiplied, and summed over "channels" by name. */
static void
test_grayscale (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (1);
  g_autoptr (LtTensor) img_t = lt_tensor_new_randn (generator, LT_DTYPE_FLOAT32, I64S (3, 5, 5), 3,
                                                    NULL);
  g_autoptr (LtTensor) plain_weights = lt_tensor_new_from_literal ("[0.2126, 0.7152, 0.0722]",
                                                                   NULL);
  g_autoptr (LtTensor) weights_named = lt_tensor_refine_names (plain_weights, NAMES ("channels"),
                                                               1, NULL);
  g_autoptr (LtTensor) img_named = lt_tensor_refine_names (img_t, NAMES ("...", "channels", "rows",
                                                                         "columns"), 4, NULL);
  g_autoptr (LtTensor) weights_aligned = lt_tensor_align_as (weights_named, img_named, NULL);
  g_autoptr (LtTensor) product = NULL;
  g_autoptr (LtTensor) gray_named = NULL;
  g_autoptr (LtTensor) sliced = NULL;
  g_autoptr (LtTensor) clash = NULL;
  g_autoptr (GError) error = NULL;
  int channels;

  product = lt_tensor_binary (img_named, LT_BINARY_OP_MUL, weights_aligned, &error);
  g_assert_no_error (error);
  assert_names (product, "channels", "rows", "columns");
  g_assert_true (lt_tensor_dim_of_name (product, "channels", &channels, &error));
  gray_named = lt_tensor_sum (product, &channels, 1, FALSE, &error);
  g_assert_no_error (error);
  lt_assert_sizes (gray_named, 5, 5);
  assert_names (gray_named, "rows", "columns");

  /* Each gray value is the weighted sum of its three channels. */
  for (gint64 r = 0; r < 5; r++)
    {
      double gray, expected = 0;

      for (gint64 c = 0; c < 3; c++)
        {
          double value, weight;

          lt_tensor_get_double (img_t, I64S (c, r, 2), 3, &value, NULL);
          lt_tensor_get_double (plain_weights, I64S (c), 1, &weight, NULL);
          expected += (double) ((float) value * (float) weight);
        }
      lt_tensor_get_double (gray_named, I64S (r, 2), 2, &gray, NULL);
      g_assert_cmpfloat_with_epsilon (gray, expected, 1e-5);
    }

  /* Without aligning, the names clash as the seed shows. */
  sliced = lt_tensor_index (img_named, "..., :3", &error);
  g_assert_no_error (error);
  clash = lt_tensor_binary (sliced, LT_BINARY_OP_MUL, weights_named, &error);
  g_assert_null (clash);
  g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  g_assert_nonnull (strstr (error->message, "dims ['channels', 'rows', 'columns'] and dims "
                                            "['channels']: dim 'columns' and dim 'channels' are "
                                            "at the same position from the right but do not "
                                            "match"));
}

/* Operations carry names: element-wise ones keep or broadcast them,
 * reductions drop the reduced dims' names, products keep rows and
 * columns. */
static void
test_operations (void)
{
  g_autoptr (LtTensor) ab = named (I64S (2, 3), 2, NAMES ("A", "B"));
  g_autoptr (LtTensor) b = named (I64S (3), 1, NAMES ("B"));
  g_autoptr (LtTensor) cd = named (I64S (3, 4), 2, NAMES ("C", "D"));
  g_autoptr (LtTensor) plain = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (2, 3), 2, NULL);
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (LtTensor) t = lt_tensor_unary (ab, LT_UNARY_OP_EXP, &error);
    assert_names (t, "A", "B");
  }
  {
    g_autoptr (LtTensor) t = lt_tensor_binary (plain, LT_BINARY_OP_GT, b, &error);
    assert_names (t, "", "B");
  }
  {
    g_autoptr (LtTensor) t = lt_tensor_sum (ab, (const int[]) { 0 }, 1, TRUE, &error);
    g_autoptr (LtTensor) u = lt_tensor_sum (ab, NULL, 0, FALSE, &error);
    g_autoptr (LtTensor) c = lt_tensor_cumsum (ab, 1, &error);

    assert_names (t, "A", "B");
    g_assert_false (lt_tensor_has_names (u));
    assert_names (c, "A", "B");
  }
  {
    g_autoptr (LtTensor) values = NULL;
    g_autoptr (LtTensor) indices = NULL;

    g_assert_true (lt_tensor_max_dim (ab, 1, FALSE, &values, &indices, &error));
    assert_names (values, "A");
    assert_names (indices, "A");
  }
  {
    g_autoptr (LtTensor) t = lt_tensor_mm (ab, cd, &error);
    g_autoptr (LtTensor) ba = lt_tensor_rename (cd, NAMES ("B", "A"), 2, NULL);
    g_autoptr (LtTensor) bad = NULL;

    assert_names (t, "A", "D");
    bad = lt_tensor_matmul (ab, ba, &error);
    g_assert_null (bad);
    g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
    g_clear_error (&error);
  }
  {
    LtTensor *operands[] = { ab, cd };
    g_autoptr (LtTensor) t = lt_einsum ("ij,jk->ik", operands, 2, &error);

    g_assert_null (t);
    g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
    g_clear_error (&error);
  }

  /* In place, the tensor keeps its names, and clashing ones are refused. */
  {
    g_autoptr (LtTensor) w = named (I64S (3), 1, NAMES ("W"));

    g_assert_true (lt_tensor_binary_ (ab, LT_BINARY_OP_ADD, b, &error));
    assert_names (ab, "A", "B");
    g_assert_false (lt_tensor_binary_ (ab, LT_BINARY_OP_ADD, w, &error));
    g_assert_error (error, LT_ERROR, LT_ERROR_NAMES);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/names/refine", test_refine_names);
  g_test_add_func ("/names/rename", test_rename);
  g_test_add_func ("/names/align", test_align);
  g_test_add_func ("/names/views", test_views);
  g_test_add_func ("/names/to-string", test_to_string);
  g_test_add_func ("/names/unify", test_unify);
  g_test_add_func ("/names/grayscale", test_grayscale);
  g_test_add_func ("/names/operations", test_operations);

  return g_test_run ();
}
