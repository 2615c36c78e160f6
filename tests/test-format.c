/* test-format.c: lt_tensor_to_string() against what PyTorch 1.13's repr() prints
 *
 * Every expected string was printed by torch 1.13 for the same values, dtype
 * and shape.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static LtTensor *
new_literal (const char *literal,
             LtDType     dtype)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal_with_dtype (literal, dtype, &error);

  g_assert_no_error (error);
  return tensor;
}

static LtTensor *
new_points (void)
{
  return new_literal ("[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]", LT_DTYPE_FLOAT32);
}

#define assert_prints(tensor, expected) \
  G_STMT_START { \
    g_autofree char *printed_ = lt_tensor_to_string (tensor); \
    g_assert_cmpstr (printed_, ==, (expected)); \
  } G_STMT_END

/* Creates the tensor from a literal, prints it and drops it. */
#define assert_literal_prints(literal, dtype, expected) \
  G_STMT_START { \
    g_autoptr (LtTensor) literal_tensor_ = new_literal ((literal), (dtype)); \
    assert_prints (literal_tensor_, (expected)); \
  } G_STMT_END

static void
test_points (void)
{
  g_autoptr (LtTensor) points = new_points ();

  assert_prints (points,
                 "tensor([[4., 1.],\n"
                 "        [5., 3.],\n"
                 "        [2., 1.]])");
}

static void
test_points_transpose (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) points_t = lt_tensor_t (points, &error);

  g_assert_no_error (error);
  assert_prints (points_t,
                 "tensor([[4., 5., 2.],\n"
                 "        [1., 3., 1.]])");
}

static void
test_points_select (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) second = lt_tensor_select (points, 0, 1, &error);

  g_assert_no_error (error);
  assert_prints (second, "tensor([5., 3.])");
}

static void
test_scalar (void)
{
  assert_literal_prints ("1.0", LT_DTYPE_FLOAT32, "tensor(1.)");
  assert_literal_prints ("0.1", LT_DTYPE_FLOAT32, "tensor(0.1000)");
  assert_literal_prints ("-7", LT_DTYPE_INT64, "tensor(-7)");
}

static void
test_empty (void)
{
  static const struct
  {
    LtDType dtype;
    gint64 sizes[3];
    guint n_sizes;
    const char *expected;
  } cases[] = {
    { LT_DTYPE_FLOAT32, { 0 }, 1, "tensor([])" },
    { LT_DTYPE_FLOAT32, { 0, 3 }, 2, "tensor([], size=(0, 3))" },
    { LT_DTYPE_FLOAT32, { 2, 0, 1 }, 3, "tensor([], size=(2, 0, 1))" },
    /* Without elements even the default integer dtype is named. */
    { LT_DTYPE_INT64, { 0 }, 1, "tensor([], dtype=torch.int64)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) empty = lt_tensor_new_zeros (cases[i].dtype, cases[i].sizes,
                                                        cases[i].n_sizes, &error);

      g_assert_no_error (error);
      assert_prints (empty, cases[i].expected);
    }
}

static void
test_int64 (void)
{
  assert_literal_prints ("[[1, -2, 3], [40, 5, 600]]", LT_DTYPE_INT64,
                         "tensor([[  1,  -2,   3],\n"
                         "        [ 40,   5, 600]])");
}

static void
test_int32 (void)
{
  assert_literal_prints ("[1, 2, 3]", LT_DTYPE_INT32, "tensor([1, 2, 3], dtype=torch.int32)");
}

static void
test_uint8 (void)
{
  assert_literal_prints ("[0, 255, 7]", LT_DTYPE_UINT8,
                         "tensor([  0, 255,   7], dtype=torch.uint8)");
}

static void
test_nested (void)
{
  g_autoptr (LtTensor) cube = lt_test_arange_shaped (LT_DTYPE_INT64, 2, 3, 2);

  assert_prints (cube,
                 "tensor([[[ 0,  1],\n"
                 "         [ 2,  3],\n"
                 "         [ 4,  5]],\n"
                 "\n"
                 "        [[ 6,  7],\n"
                 "         [ 8,  9],\n"
                 "         [10, 11]]])");
}

static void
test_bool (void)
{
  assert_literal_prints ("[True, False, True]", LT_DTYPE_BOOL,
                         "tensor([ True, False,  True])");
}

static void
test_float64 (void)
{
  assert_literal_prints ("[1.5, -0.25, 3.14159265]", LT_DTYPE_FLOAT64,
                         "tensor([ 1.5000, -0.2500,  3.1416], dtype=torch.float64)");
  /* Exact ties round to even, as Python's '{:.4f}' does. */
  assert_literal_prints ("[0.03125, 0.15625, 1.00005]", LT_DTYPE_FLOAT64,
                         "tensor([0.0312, 0.1562, 1.0001], dtype=torch.float64)");
}

static void
test_negative (void)
{
  assert_literal_prints ("[[-1.5, 2.0], [3.25, -4.0]]", LT_DTYPE_FLOAT32,
                         "tensor([[-1.5000,  2.0000],\n"
                         "        [ 3.2500, -4.0000]])");
}

static void
test_sci_mode (void)
{
  assert_literal_prints ("[1e-5, 0.5]", LT_DTYPE_FLOAT32,
                         "tensor([1.0000e-05, 5.0000e-01])");
  assert_literal_prints ("[1e10, 1.0]", LT_DTYPE_FLOAT32,
                         "tensor([1.0000e+10, 1.0000e+00])");
  /* float32's nearest value to 1e-4 is below it. */
  assert_literal_prints ("[1e-4, 0.5]", LT_DTYPE_FLOAT32,
                         "tensor([1.0000e-04, 5.0000e-01])");
}

static void
test_sci_mode_thresholds (void)
{
  assert_literal_prints ("[1.0, 1000.0]", LT_DTYPE_FLOAT32, "tensor([   1., 1000.])");
  assert_literal_prints ("[1.0, 1001.0]", LT_DTYPE_FLOAT32,
                         "tensor([1.0000e+00, 1.0010e+03])");
  /* Only the smallest value asks for scientific notation here. */
  assert_literal_prints ("[1e-4, 0.05]", LT_DTYPE_FLOAT32, "tensor([1.0000e-04, 5.0000e-02])");
  assert_literal_prints ("[1e-4, 0.05]", LT_DTYPE_FLOAT64,
                         "tensor([0.0001, 0.0500], dtype=torch.float64)");
  assert_literal_prints ("[1e8, 2e5]", LT_DTYPE_FLOAT32, "tensor([100000000.,    200000.])");
  assert_literal_prints ("[100000008, 2e5]", LT_DTYPE_FLOAT32,
                         "tensor([1.0000e+08, 2.0000e+05])");
}

static void
test_nonfinite (void)
{
  assert_literal_prints ("[nan, inf, -inf, 1.0]", LT_DTYPE_FLOAT32,
                         "tensor([nan, inf, -inf, 1.])");
  assert_literal_prints ("[0.5, nan, -inf]", LT_DTYPE_FLOAT32,
                         "tensor([0.5000,    nan,   -inf])");
  assert_literal_prints ("[0.0, -0.0, nan]", LT_DTYPE_FLOAT32, "tensor([0., -0., nan])");
}

static void
test_float16 (void)
{
  assert_literal_prints ("[0.1, 1.5, -2.25]", LT_DTYPE_FLOAT16,
                         "tensor([ 0.1000,  1.5000, -2.2500], dtype=torch.float16)");
}

static void
test_bfloat16 (void)
{
  assert_literal_prints ("[3.14159, 100.0, -0.5]", LT_DTYPE_BFLOAT16,
                         "tensor([  3.1406, 100.0000,  -0.5000], dtype=torch.bfloat16)");
}

static void
test_complex64 (void)
{
  assert_literal_prints ("[1+2j, -0.5-0.25j, 3j]", LT_DTYPE_COMPLEX64,
                         "tensor([ 1.0000+2.0000j, -0.5000-0.2500j,  0.0000+3.0000j])");
}

static void
test_complex128 (void)
{
  /* The dtype suffix does not fit on the line and gets its own. */
  assert_literal_prints ("[[1e-5+1j, 2-1e6j]]", LT_DTYPE_COMPLEX128,
                         "tensor([[1.0000e-05+1.0000e+00j, 2.0000e+00-1.0000e+06j]],\n"
                         "       dtype=torch.complex128)");
}

static void
test_suffix_line_width (void)
{
  /* torch counts two more columns on the last line than it has, so the
   * suffix moves to its own line when the result would be exactly 80 wide. */
  assert_literal_prints ("[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5],"
                         " [6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]]",
                         LT_DTYPE_INT32,
                         "tensor([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5],\n"
                         "        [6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]], "
                         "dtype=torch.int32)");
  assert_literal_prints ("[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6],"
                         " [7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3]]",
                         LT_DTYPE_INT32,
                         "tensor([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6],\n"
                         "        [7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3]],\n"
                         "       dtype=torch.int32)");
}

static void
test_summarised_vector (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) range = lt_tensor_new_arange (0, 2000, 1, LT_DTYPE_FLOAT32, &error);

  g_assert_no_error (error);
  assert_prints (range,
                 "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
                 "        1.9990e+03])");
}

static void
test_summarised_matrix (void)
{
  g_autoptr (LtTensor) matrix = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 40, 40);

  assert_prints (matrix,
                 "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 3.7000e+01, 3.8000e+01,\n"
                 "         3.9000e+01],\n"
                 "        [4.0000e+01, 4.1000e+01, 4.2000e+01,  ..., 7.7000e+01, 7.8000e+01,\n"
                 "         7.9000e+01],\n"
                 "        [8.0000e+01, 8.1000e+01, 8.2000e+01,  ..., 1.1700e+02, 1.1800e+02,\n"
                 "         1.1900e+02],\n"
                 "        ...,\n"
                 "        [1.4800e+03, 1.4810e+03, 1.4820e+03,  ..., 1.5170e+03, 1.5180e+03,\n"
                 "         1.5190e+03],\n"
                 "        [1.5200e+03, 1.5210e+03, 1.5220e+03,  ..., 1.5570e+03, 1.5580e+03,\n"
                 "         1.5590e+03],\n"
                 "        [1.5600e+03, 1.5610e+03, 1.5620e+03,  ..., 1.5970e+03, 1.5980e+03,\n"
                 "         1.5990e+03]])");
}

static void
test_summarised_hidden_values (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) ones = lt_tensor_new_ones (LT_DTYPE_FLOAT32, I64S (2000), 1, &error);

  g_assert_no_error (error);
  /* Elements hidden behind "..." take no part in choosing the notation or
   * the width. */
  lt_tensor_set_double (ones, I64S (1000), 1, 1e10, &error);
  g_assert_no_error (error);
  lt_tensor_set_double (ones, I64S (5), 1, 0.5, &error);
  g_assert_no_error (error);
  assert_prints (ones, "tensor([1., 1., 1.,  ..., 1., 1., 1.])");

  lt_tensor_set_double (ones, I64S (1), 1, -3.0, &error);
  g_assert_no_error (error);
  assert_prints (ones, "tensor([ 1., -3.,  1.,  ...,  1.,  1.,  1.])");
}

static void
test_summarised_huge_expanded (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) one = new_literal ("[2.5]", LT_DTYPE_FLOAT32);
  g_autoptr (LtTensor) huge = lt_tensor_expand (one, I64S (100000000), 1, &error);

  g_assert_no_error (error);
  assert_prints (huge, "tensor([2.5000, 2.5000, 2.5000,  ..., 2.5000, 2.5000, 2.5000])");
}

static void
test_wrap (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) range = lt_tensor_new_arange (0.5, 25, 1, LT_DTYPE_FLOAT32, &error);

  g_assert_no_error (error);
  assert_prints (range,
                 "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
                 "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
                 "        16.5000, 17.5000, 18.5000, 19.5000, 20.5000, 21.5000, 22.5000, 23.5000,\n"
                 "        24.5000])");
}

static void
test_flip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_points ();
  g_autoptr (LtTensor) rows_flipped = lt_tensor_flip (points, (const int[]) { 0 }, 1, &error);
  g_autoptr (LtTensor) both_flipped = NULL;

  g_assert_no_error (error);
  assert_prints (rows_flipped,
                 "tensor([[2., 1.],\n"
                 "        [5., 3.],\n"
                 "        [4., 1.]])");

  both_flipped = lt_tensor_flip (points, (const int[]) { 0, 1 }, 2, &error);
  g_assert_no_error (error);
  assert_prints (both_flipped,
                 "tensor([[1., 2.],\n"
                 "        [3., 5.],\n"
                 "        [1., 4.]])");
}

static void
test_expand (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) row = new_literal ("[1.5, -2.0, 3.0]", LT_DTYPE_FLOAT32);
  g_autoptr (LtTensor) rows = lt_tensor_expand (row, I64S (2, 3), 2, &error);

  g_assert_no_error (error);
  assert_prints (rows,
                 "tensor([[ 1.5000, -2.0000,  3.0000],\n"
                 "        [ 1.5000, -2.0000,  3.0000]])");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/points", test_points);
  g_test_add_func ("/format/points/transpose", test_points_transpose);
  g_test_add_func ("/format/points/select", test_points_select);
  g_test_add_func ("/format/scalar", test_scalar);
  g_test_add_func ("/format/empty", test_empty);
  g_test_add_func ("/format/integers/int64", test_int64);
  g_test_add_func ("/format/integers/int32", test_int32);
  g_test_add_func ("/format/integers/uint8", test_uint8);
  g_test_add_func ("/format/integers/nested", test_nested);
  g_test_add_func ("/format/bool", test_bool);
  g_test_add_func ("/format/floats/float64", test_float64);
  g_test_add_func ("/format/floats/negative", test_negative);
  g_test_add_func ("/format/floats/sci-mode", test_sci_mode);
  g_test_add_func ("/format/floats/sci-mode-thresholds", test_sci_mode_thresholds);
  g_test_add_func ("/format/floats/nonfinite", test_nonfinite);
  g_test_add_func ("/format/floats/float16", test_float16);
  g_test_add_func ("/format/floats/bfloat16", test_bfloat16);
  g_test_add_func ("/format/complex/complex64", test_complex64);
  g_test_add_func ("/format/complex/complex128", test_complex128);
  g_test_add_func ("/format/suffix/line-width", test_suffix_line_width);
  g_test_add_func ("/format/summarised/vector", test_summarised_vector);
  g_test_add_func ("/format/summarised/matrix", test_summarised_matrix);
  g_test_add_func ("/format/summarised/hidden-values", test_summarised_hidden_values);
  g_test_add_func ("/format/summarised/huge-expanded", test_summarised_huge_expanded);
  g_test_add_func ("/format/wrap", test_wrap);
  g_test_add_func ("/format/strides/flip", test_flip);
  g_test_add_func ("/format/strides/expand", test_expand);

  return g_test_run ();
}
