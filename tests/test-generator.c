/* test-generator.c: Philox, seeding and the random creation functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-philox.h"

/* The known-answer tests published with Random123 (kat_vectors). */
static void
test_philox_known_answers (void)
{
  static const struct
  {
    uint32_t counter[4];
    uint32_t key[2];
    uint32_t expected[4];
  } vectors[] = {
    { { 0, 0, 0, 0 }, { 0, 0 }, { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
    { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0xffffffff, 0xffffffff },
      { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
    { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 }, { 0xa4093822, 0x299f31d0 },
      { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
    {
      uint32_t out[4];

      lt_philox4x32_10_block (vectors[i].counter, vectors[i].key, out);
      for (guint k = 0; k < 4; k++)
        g_assert_cmphex (out[k], ==, vectors[i].expected[k]);
    }
}

static double *
draw (LtGenerator *generator,
      gboolean     normal,
      LtDType      dtype,
      gint64       n,
      gsize       *n_values)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) t = NULL;

  if (normal)
    t = lt_tensor_new_randn (generator, dtype, &n, 1, &error);
  else
    t = lt_tensor_new_rand (generator, dtype, &n, 1, &error);
  g_assert_no_error (error);
  return lt_tensor_to_doubles (t, n_values);
}

static void
test_same_seed_same_numbers (void)
{
  g_autoptr (LtGenerator) a = lt_generator_new (1234);
  g_autoptr (LtGenerator) b = lt_generator_new (1234);
  g_autoptr (LtGenerator) c = lt_generator_new (1235);
  gsize n;
  g_autofree double *a1 = draw (a, FALSE, LT_DTYPE_FLOAT32, 100, &n);
  g_autofree double *b1 = draw (b, FALSE, LT_DTYPE_FLOAT32, 100, &n);
  g_autofree double *c1 = draw (c, FALSE, LT_DTYPE_FLOAT32, 100, &n);
  g_autofree double *a2 = draw (a, FALSE, LT_DTYPE_FLOAT32, 100, &n);

  g_assert_cmpmem (a1, 100 * sizeof (double), b1, 100 * sizeof (double));
  g_assert_true (memcmp (a1, c1, 100 * sizeof (double)) != 0);
  /* The second draw continues the sequence instead of repeating it. */
  g_assert_true (memcmp (a1, a2, 100 * sizeof (double)) != 0);
  g_assert_cmpuint (lt_generator_get_offset (a), ==, 50);

  lt_generator_set_seed (a, 1234);
  g_assert_cmpuint (lt_generator_get_offset (a), ==, 0);
  {
    g_autofree double *again = draw (a, FALSE, LT_DTYPE_FLOAT32, 100, &n);
    g_assert_cmpmem (a1, 100 * sizeof (double), again, 100 * sizeof (double));
  }
}

/* The numbers are pinned to the published Philox stream, so they are the same
 * on every machine and can be reproduced by any Philox implementation. */
static void
test_values_are_pinned (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (0);
  gsize n;
  g_autofree double *values = draw (generator, FALSE, LT_DTYPE_FLOAT32, 4, &n);
  uint32_t words[4];

  /* Seed 0, block 0 is the first known-answer vector: each float32 value is
   * the top 24 bits of a word. */
  lt_philox4x32_10 (0, 0, words);
  g_assert_cmphex (words[0], ==, 0x6627e8d5);
  g_assert_cmpfloat (values[0], ==, (0x6627e8d5u >> 8) * 0x1p-24);
  g_assert_cmpfloat (values[1], ==, (0xe169c58du >> 8) * 0x1p-24);
  g_assert_cmpfloat (values[2], ==, (0xbc57ac4cu >> 8) * 0x1p-24);
  g_assert_cmpfloat (values[3], ==, (0x9b00dbd8u >> 8) * 0x1p-24);
}

static void
test_uniform_range (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (7);
  const LtDType dtypes[] = { LT_DTYPE_FLOAT16, LT_DTYPE_BFLOAT16, LT_DTYPE_FLOAT32,
                             LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX64, LT_DTYPE_COMPLEX128 };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      gsize n;
      g_autofree double *values = draw (generator, FALSE, dtypes[d], 20000, &n);
      double sum = 0;

      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpfloat (values[i], >=, 0.0);
          g_assert_cmpfloat (values[i], <, 1.0);
          sum += values[i];
        }
      /* The mean of 20000+ uniform values is within 0.02 of 1/2. */
      g_assert_cmpfloat_with_epsilon (sum / n, 0.5, 0.02);
    }
}

static void
test_normal_moments (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (99);
  gsize n;
  g_autofree double *values = draw (generator, TRUE, LT_DTYPE_FLOAT64, 100001, &n);
  double sum = 0, sum_sq = 0;

  for (gsize i = 0; i < n; i++)
    {
      g_assert_true (isfinite (values[i]));
      sum += values[i];
      sum_sq += values[i] * values[i];
    }
  g_assert_cmpfloat_with_epsilon (sum / n, 0.0, 0.02);
  g_assert_cmpfloat_with_epsilon (sum_sq / n, 1.0, 0.02);
}

static void
test_complex_normal_variance (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (5);
  gsize n;
  g_autofree double *values = draw (generator, TRUE, LT_DTYPE_COMPLEX64, 50000, &n);
  double real_sq = 0, imag_sq = 0;

  g_assert_cmpuint (n, ==, 100000);
  for (gsize i = 0; i < n; i += 2)
    {
      real_sq += values[i] * values[i];
      imag_sq += values[i + 1] * values[i + 1];
    }
  /* Each part has variance 1/2, as in PyTorch. */
  g_assert_cmpfloat_with_epsilon (real_sq / 50000, 0.5, 0.02);
  g_assert_cmpfloat_with_epsilon (imag_sq / 50000, 0.5, 0.02);
}

static void
test_integer_dtype_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtGenerator) generator = lt_generator_new (0);
  g_autoptr (LtTensor) t = lt_tensor_new_rand (generator, LT_DTYPE_INT32, I64S (3), 1, &error);

  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_null (t);
  /* A refused request takes no numbers. */
  g_assert_cmpuint (lt_generator_get_offset (generator), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/generator/philox/known-answers", test_philox_known_answers);
  g_test_add_func ("/generator/same-seed-same-numbers", test_same_seed_same_numbers);
  g_test_add_func ("/generator/values-are-pinned", test_values_are_pinned);
  g_test_add_func ("/generator/rand/range", test_uniform_range);
  g_test_add_func ("/generator/randn/moments", test_normal_moments);
  g_test_add_func ("/generator/randn/complex-variance", test_complex_normal_variance);
  g_test_add_func ("/generator/rand/integer-refused", test_integer_dtype_refused);

  return g_test_run ();
}
