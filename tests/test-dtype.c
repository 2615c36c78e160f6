/* test-dtype.c: dtype names, sizes and the float16/bfloat16 conversions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

static void
test_sizes_and_names (void)
{
  static const struct
  {
    LtDType dtype;
    gsize size;
    const char *name;
  } expected[] = {
    { LT_DTYPE_BOOL, 1, "bool" },         { LT_DTYPE_UINT8, 1, "uint8" },
    { LT_DTYPE_INT8, 1, "int8" },         { LT_DTYPE_INT16, 2, "int16" },
    { LT_DTYPE_INT32, 4, "int32" },       { LT_DTYPE_INT64, 8, "int64" },
    { LT_DTYPE_FLOAT16, 2, "float16" },   { LT_DTYPE_BFLOAT16, 2, "bfloat16" },
    { LT_DTYPE_FLOAT32, 4, "float32" },   { LT_DTYPE_FLOAT64, 8, "float64" },
    { LT_DTYPE_COMPLEX64, 8, "complex64" }, { LT_DTYPE_COMPLEX128, 16, "complex128" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (GError) error = NULL;
      LtDType parsed;

      g_assert_cmpuint (lt_dtype_get_element_size (expected[i].dtype), ==, expected[i].size);
      g_assert_cmpstr (lt_dtype_get_name (expected[i].dtype), ==, expected[i].name);
      g_assert_true (lt_dtype_from_name (expected[i].name, &parsed, &error));
      g_assert_no_error (error);
      g_assert_cmpint (parsed, ==, expected[i].dtype);
    }
  g_assert_cmpint (LT_DTYPE_DEFAULT, ==, LT_DTYPE_FLOAT32);
}

static void
test_aliases (void)
{
  g_autoptr (GError) error = NULL;
  LtDType dtype;

  g_assert_true (lt_dtype_from_name ("double", &dtype, &error));
  g_assert_cmpint (dtype, ==, LT_DTYPE_FLOAT64);
  g_assert_true (lt_dtype_from_name ("torch.long", &dtype, &error));
  g_assert_cmpint (dtype, ==, LT_DTYPE_INT64);
  g_assert_true (lt_dtype_from_name ("half", &dtype, &error));
  g_assert_cmpint (dtype, ==, LT_DTYPE_FLOAT16);
  g_assert_no_error (error);

  dtype = LT_DTYPE_BOOL;
  g_assert_false (lt_dtype_from_name ("float128", &dtype, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "float128"));
  g_assert_cmpint (dtype, ==, LT_DTYPE_BOOL);
}

static void
test_categories (void)
{
  g_assert_true (lt_dtype_is_floating_point (LT_DTYPE_BFLOAT16));
  g_assert_false (lt_dtype_is_floating_point (LT_DTYPE_COMPLEX64));
  g_assert_true (lt_dtype_is_complex (LT_DTYPE_COMPLEX128));
  g_assert_true (lt_dtype_is_integer (LT_DTYPE_UINT8));
  g_assert_false (lt_dtype_is_integer (LT_DTYPE_BOOL));
  g_assert_cmpint (lt_dtype_to_real (LT_DTYPE_COMPLEX128), ==, LT_DTYPE_FLOAT64);
  g_assert_cmpint (lt_dtype_to_complex (LT_DTYPE_FLOAT32), ==, LT_DTYPE_COMPLEX64);
  g_assert_false (lt_dtype_is_valid (12));
  g_assert_false (lt_dtype_is_valid (-1));
}

/* Expected bits from NumPy's float32 -> float16 conversion. */
static void
test_float16_rounding (void)
{
  static const struct
  {
    float value;
    guint16 bits;
  } cases[] = {
    { 1.0f, 0x3c00 },
    { 65504.0f, 0x7bff },        /* the largest half */
    { 65520.0f, 0x7c00 },        /* halfway to the next binade rounds to infinity */
    { 65519.99f, 0x7bff },
    { 1e5f, 0x7c00 },
    { 1.0009765625f, 0x3c01 },   /* exactly representable */
    { 1.00048828125f, 0x3c00 },  /* a tie rounds to the even mantissa 0 */
    { 1.00146484375f, 0x3c02 },  /* a tie rounds to the even mantissa 2 */
    { 0.1f, 0x2e66 },
    { -0.0f, 0x8000 },
    { 0x1p-24f, 0x0001 },        /* the smallest subnormal */
    { 0x1p-25f, 0x0000 },        /* a tie between 0 and the smallest subnormal */
    { 0x1.8p-25f, 0x0001 },
    { 3.0f * 0x1p-26f, 0x0001 },
    { 1e-8f, 0x0000 },
    { 0x1p-14f, 0x0400 },        /* the smallest normal */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmphex (lt_float16_from_float (cases[i].value), ==, cases[i].bits);

  g_assert_cmphex (lt_float16_from_float (INFINITY), ==, 0x7c00);
  g_assert_cmphex (lt_float16_from_float (-INFINITY), ==, 0xfc00);
  g_assert_true (isnan (lt_float16_to_float (lt_float16_from_float (NAN))));
}

static void
test_float16_round_trip (void)
{
  /* Every finite half converts to float and back unchanged. */
  for (guint bits = 0; bits < 0x10000; bits++)
    {
      guint exponent = (bits >> 10) & 0x1f;

      if (exponent == 0x1f && (bits & 0x3ff) != 0)
        continue;
      g_assert_cmphex (lt_float16_from_float (lt_float16_to_float ((guint16) bits)), ==, bits);
    }
  g_assert_cmpfloat (lt_float16_to_float (0x0001), ==, 0x1p-24);
  g_assert_cmpfloat (lt_float16_to_float (0xc000), ==, -2.0);
}

/* Expected bits from PyTorch's float32 -> bfloat16 conversion. */
static void
test_bfloat16_rounding (void)
{
  static const struct
  {
    float value;
    guint16 bits;
  } cases[] = {
    { 1.0f, 0x3f80 },    { 65504.0f, 0x4780 }, { 0.1f, 0x3dcd },
    { 1e5f, 0x47c3 },    { -0.0f, 0x8000 },    { 1e-8f, 0x322c },
    { 0x1.01p0f, 0x3f80 }, /* a tie rounds to even */
    { 0x1.03p0f, 0x3f82 }, /* a tie rounds to even, upward */
    { 0x1.018p0f, 0x3f81 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmphex (lt_bfloat16_from_float (cases[i].value), ==, cases[i].bits);

  g_assert_cmpfloat (lt_bfloat16_to_float (0x3f80), ==, 1.0f);
  g_assert_true (isnan (lt_bfloat16_to_float (lt_bfloat16_from_float (NAN))));
  g_assert_cmphex (lt_bfloat16_from_float (INFINITY), ==, 0x7f80);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dtype/sizes-and-names", test_sizes_and_names);
  g_test_add_func ("/dtype/aliases", test_aliases);
  g_test_add_func ("/dtype/categories", test_categories);
  g_test_add_func ("/dtype/float16/rounding", test_float16_rounding);
  g_test_add_func ("/dtype/float16/round-trip", test_float16_round_trip);
  g_test_add_func ("/dtype/bfloat16/rounding", test_bfloat16_rounding);

  return g_test_run ();
}
