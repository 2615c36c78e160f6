/* test-random.c: randint, normal, the in-place random fills and bernoulli
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-philox.h"

static double *
values_of (LtTensor *tensor,
           gsize    *n)
{
  double *values = lt_tensor_to_doubles (tensor, n);

  g_assert_nonnull (values);
  return values;
}

static void
mean_and_std (const double *values,
              gsize         n,
              double       *mean,
              double       *std)
{
  double sum = 0, squares = 0;

  for (gsize i = 0; i < n; i++)
    sum += values[i];
  *mean = sum / n;
  for (gsize i = 0; i < n; i++)
    squares += (values[i] - *mean) * (values[i] - *mean);
  *std = sqrt (squares / (n - 1));
}

/* randint() draws low + word % range, one 32-bit Philox word an element
 * for ranges up to 2^32, as lt-random-private.h documents: every machine
 * and device gives these numbers. */
static void
test_randint_mapping (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (42);
  g_autoptr (LtTensor) t = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree double *values = NULL;
  gsize n;

  t = lt_tensor_new_randint (generator, -5, 1000, LT_DTYPE_INT64, I64S (2, 3), 2, &error);
  g_assert_no_error (error);
  lt_assert_sizes (t, 2, 3);
  values = values_of (t, &n);
  for (gsize i = 0; i < n; i++)
    {
      uint32_t words[4];

      lt_philox4x32_10 (42, i / 4, words);
      g_assert_cmpfloat (values[i], ==, -5 + (double) (words[i % 4] % 1005));
    }
  /* Six values in two blocks. */
  g_assert_cmpuint (lt_generator_get_offset (generator), ==, 2);
}

static void
test_randint (void)
{
  static const struct
  {
    LtDType dtype;
    gint64 low, high;
  } cases[] = {
    { LT_DTYPE_INT64, 0, 10 },
    { LT_DTYPE_UINT8, 0, 256 },
    { LT_DTYPE_INT8, -128, 128 },
    { LT_DTYPE_BOOL, 0, 2 },
    { LT_DTYPE_FLOAT32, -3, 4 },
    { LT_DTYPE_FLOAT16, -2048, 2049 },
    /* Wider than 2^32: 64-bit draws. */
    { LT_DTYPE_INT64, G_MININT64 / 2, G_MAXINT64 / 2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (LtGenerator) generator = lt_generator_new (7);
      g_autoptr (LtGenerator) again = lt_generator_new (7);
      g_autoptr (LtTensor) t = NULL;
      g_autoptr (LtTensor) u = NULL;
      g_autoptr (GError) error = NULL;
      gint64 lowest = G_MAXINT64, highest = G_MININT64;
      gsize n;

      t = lt_tensor_new_randint (generator, cases[c].low, cases[c].high, cases[c].dtype,
                                 I64S (5000), 1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (lt_tensor_get_dtype (t), ==, cases[c].dtype);
      n = (gsize) lt_tensor_get_numel (t);
      for (gsize i = 0; i < n; i++)
        {
          gint64 value;

          g_assert_true (lt_tensor_get_int64 (t, I64S ((gint64) i), 1, &value, &error));
          g_assert_no_error (error);
          g_assert_cmpint (value, >=, cases[c].low);
          g_assert_cmpint (value, <, cases[c].high);
          lowest = MIN (lowest, value);
          highest = MAX (highest, value);
        }
      /* 5000 draws reach both ends of the small ranges. */
      if (cases[c].high - cases[c].low <= 300)
        {
          g_assert_cmpint (lowest, ==, cases[c].low);
          g_assert_cmpint (highest, ==, cases[c].high - 1);
        }

      /* The same seed, the same numbers. */
      u = lt_tensor_new_randint (again, cases[c].low, cases[c].high, cases[c].dtype, I64S (5000),
                                 1, &error);
      g_assert_no_error (error);
      {
        g_autoptr (GBytes) a = lt_tensor_to_bytes (t, NULL);
        g_autoptr (GBytes) b = lt_tensor_to_bytes (u, NULL);

        g_assert_true (g_bytes_equal (a, b));
      }
    }
}

static void
test_randint_errors (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (1);
  static const struct
  {
    LtDType dtype;
    gint64 low, high;
  } cases[] = {
    { LT_DTYPE_INT64, 5, 5 },
    { LT_DTYPE_INT64, 9, 2 },
    { LT_DTYPE_UINT8, 0, 300 },
    { LT_DTYPE_UINT8, -1, 3 },
    { LT_DTYPE_BOOL, 0, 3 },
    { LT_DTYPE_FLOAT16, 0, 5000 },
    { LT_DTYPE_COMPLEX64, 0, 3 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) t = lt_tensor_new_randint (generator, cases[c].low, cases[c].high,
                                                      cases[c].dtype, I64S (3), 1, &error);

      g_assert_null (t);
      g_assert_nonnull (error);
      g_assert_true (error->domain == LT_ERROR);
      g_test_message ("%s", error->message);
    }
  /* Nothing was drawn. */
  g_assert_cmpuint (lt_generator_get_offset (generator), ==, 0);
}

static void
test_normal (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (3);
  g_autoptr (GError) error = NULL;

  for (LtDType dtype = LT_DTYPE_FLOAT16; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    {
      g_autoptr (LtTensor) t = lt_tensor_new_normal (generator, 2.5, 3.0, dtype, I64S (200, 100),
                                                     2, &error);
      g_autofree double *values = NULL;
      double mean, std, expected_std = lt_dtype_is_complex (dtype) ? 3.0 * sqrt (0.5) : 3.0;
      gsize n;

      g_assert_no_error (error);
      g_assert_cmpint (lt_tensor_get_dtype (t), ==, dtype);
      if (lt_dtype_is_complex (dtype))
        {
          g_autoptr (LtTensor) real = lt_tensor_view_as_real (t, &error);

          g_assert_no_error (error);
          values = values_of (real, &n);
        }
      else
        values = values_of (t, &n);

      /* Each part of a complex value: the mean, half the variance. The
       * numbers are fixed by the seed; 20000 of them land well within. */
      mean_and_std (values, n, &mean, &std);
      g_test_message ("%s: mean %g std %g", lt_dtype_get_name (dtype), mean, std);
      g_assert_cmpfloat (fabs (mean - 2.5), <, 0.05 * expected_std);
      g_assert_cmpfloat (fabs (std - expected_std), <, 0.03 * expected_std);
    }

  {
    g_autoptr (LtTensor) t = lt_tensor_new_normal (generator, 0, -1, LT_DTYPE_FLOAT32, I64S (2), 1,
                                                   &error);

    g_assert_null (t);
    g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    g_autoptr (LtTensor) t = lt_tensor_new_normal (generator, 0, 1, LT_DTYPE_INT64, I64S (2), 1,
                                                   &error);

    g_assert_null (t);
    g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  }
}

/* A fill gives the elements of a view their numbers in the view's
 * row-major order: filling points.t() gives the transpose of filling a
 * contiguous (2, 3) tensor with the same seed. */
static void
test_fill_order (void)
{
  for (guint kind = 0; kind < 3; kind++)
    {
      g_autoptr (LtGenerator) a = lt_generator_new (11);
      g_autoptr (LtGenerator) b = lt_generator_new (11);
      g_autoptr (LtTensor) base = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (3, 2), 2, NULL);
      g_autoptr (LtTensor) transposed = lt_tensor_t (base, NULL);
      g_autoptr (LtTensor) plain = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (2, 3), 2, NULL);
      g_autoptr (LtTensor) plain_t = lt_tensor_t (plain, NULL);
      g_autoptr (GError) error = NULL;
      g_autofree double *x = NULL;
      g_autofree double *y = NULL;
      gsize n;

      if (kind == 0)
        {
          g_assert_true (lt_tensor_uniform_ (transposed, a, -1, 1, &error));
          g_assert_true (lt_tensor_uniform_ (plain, b, -1, 1, &error));
        }
      else if (kind == 1)
        {
          g_assert_true (lt_tensor_normal_ (transposed, a, 0, 1, &error));
          g_assert_true (lt_tensor_normal_ (plain, b, 0, 1, &error));
        }
      else
        {
          g_assert_true (lt_tensor_random_ (transposed, a, 0, 100, &error));
          g_assert_true (lt_tensor_random_ (plain, b, 0, 100, &error));
        }
      g_assert_no_error (error);

      /* base is (3, 2): base == plain.t() element by element. */
      x = values_of (base, &n);
      y = values_of (plain_t, &n);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpfloat (x[i], ==, y[i]);
    }
}

static void
test_uniform (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (5);
  g_autoptr (GError) error = NULL;

  for (LtDType dtype = LT_DTYPE_FLOAT16; dtype <= LT_DTYPE_COMPLEX128; dtype++)
    {
      g_autoptr (LtTensor) t = lt_tensor_new_zeros (dtype, I64S (4000), 1, NULL);
      g_autoptr (LtTensor) stepped = lt_tensor_slice (t, 0, 1, G_MAXINT64, 2, NULL);
      g_autoptr (LtTensor) checked = NULL;
      g_autofree double *values = NULL;
      double lowest = INFINITY, highest = -INFINITY;
      gsize n;

      /* Through a stepped view: the other elements stay 0. */
      g_assert_true (lt_tensor_uniform_ (stepped, generator, 1, 3, &error));
      g_assert_no_error (error);
      checked = lt_dtype_is_complex (dtype) ? lt_tensor_view_as_real (t, NULL) : g_object_ref (t);
      values = values_of (checked, &n);
      for (gsize i = 0; i < n; i++)
        {
          gsize element = lt_dtype_is_complex (dtype) ? i / 2 : i;

          if (element % 2 == 0)
            {
              g_assert_cmpfloat (values[i], ==, 0);
              continue;
            }
          g_assert_cmpfloat (values[i], >=, 1);
          g_assert_cmpfloat (values[i], <, 3);
          lowest = MIN (lowest, values[i]);
          highest = MAX (highest, values[i]);
        }
      /* Both ends are reached, to bfloat16's spacing of 1/64 below 3. */
      g_assert_cmpfloat (lowest, <, 1.02);
      g_assert_cmpfloat (highest, >, 2.98);
    }

  /* A bound close to the values still stays excluded. */
  {
    g_autoptr (LtTensor) t = lt_tensor_new_zeros (LT_DTYPE_FLOAT32, I64S (10000), 1, NULL);
    g_autofree double *values = NULL;
    gsize n;

    g_assert_true (lt_tensor_uniform_ (t, generator, 1.0, 1.0 + 1e-7, &error));
    values = values_of (t, &n);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (values[i], <, 1.0 + 1e-7);
  }
}

static void
test_fill_errors (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (5);
  g_autoptr (LtTensor) row = lt_tensor_new_full (LT_DTYPE_FLOAT32, I64S (3), 1, 7, NULL);
  g_autoptr (LtTensor) expanded = lt_tensor_expand (row, I64S (2, 3), 2, NULL);
  g_autoptr (LtTensor) integers = lt_tensor_new_zeros (LT_DTYPE_INT64, I64S (3), 1, NULL);
  g_autoptr (LtTensor) halves = lt_tensor_new_zeros (LT_DTYPE_FLOAT16, I64S (3), 1, NULL);
  g_autoptr (LtTensor) complex = lt_tensor_new_zeros (LT_DTYPE_COMPLEX64, I64S (3), 1, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_false (lt_tensor_uniform_ (expanded, generator, 0, 1, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);
  g_assert_false (lt_tensor_normal_ (expanded, generator, 0, 1, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);
  g_assert_false (lt_tensor_bernoulli_ (expanded, generator, 0.5, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INTERNAL_OVERLAP);
  g_clear_error (&error);
  lt_assert_values (row, 7, 7, 7);

  g_assert_false (lt_tensor_uniform_ (integers, generator, 0, 1, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (lt_tensor_uniform_ (row, generator, 2, 1, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_uniform_ (halves, generator, 0, 70000, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_uniform_ (row, generator, 0, INFINITY, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_random_ (row, generator, 9, 2, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_bernoulli_ (row, generator, 1.5, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_bernoulli_ (row, generator, NAN, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (lt_tensor_bernoulli_ (complex, generator, 0.5, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);

  /* None of these drew numbers or wrote anything. */
  g_assert_cmpuint (lt_generator_get_offset (generator), ==, 0);
  lt_assert_values (row, 7, 7, 7);
  lt_assert_values (integers, 0, 0, 0);
}

static void
test_bernoulli_ (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (8);
  g_autoptr (GError) error = NULL;
  const double ps[] = { 0.0, 0.25, 0.5, 1.0 };

  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    for (guint d = 0; d < 3; d++)
      {
        LtDType dtype = d == 0 ? LT_DTYPE_BOOL : d == 1 ? LT_DTYPE_INT64 : LT_DTYPE_FLOAT32;
        g_autoptr (LtTensor) t = lt_tensor_new_full (dtype, I64S (20000), 1, 0, NULL);
        g_autofree double *values = NULL;
        double ones = 0;
        gsize n;

        g_assert_true (lt_tensor_bernoulli_ (t, generator, ps[i], &error));
        g_assert_no_error (error);
        values = values_of (t, &n);
        for (gsize k = 0; k < n; k++)
          {
            g_assert_true (values[k] == 0 || values[k] == 1);
            ones += values[k];
          }
        if (ps[i] == 0 || ps[i] == 1)
          g_assert_cmpfloat (ones, ==, ps[i] * n);
        else
          g_assert_cmpfloat (fabs (ones / n - ps[i]), <, 0.02);
      }

  /* One 53-bit uniform from two words each, 1 below p. */
  {
    g_autoptr (LtGenerator) seeded = lt_generator_new (99);
    g_autoptr (LtTensor) t = lt_tensor_new_zeros (LT_DTYPE_INT64, I64S (6), 1, NULL);
    g_autofree double *values = NULL;
    gsize n;

    g_assert_true (lt_tensor_bernoulli_ (t, seeded, 0.5, &error));
    values = values_of (t, &n);
    for (gsize k = 0; k < n; k++)
      {
        uint32_t words[4];
        double u;

        lt_philox4x32_10 (99, k / 2, words);
        u = ((((guint64) words[2 * (k % 2)] << 32) | words[2 * (k % 2) + 1]) >> 11) * 0x1p-53;
        g_assert_cmpfloat (values[k], ==, u < 0.5 ? 1 : 0);
      }
    g_assert_cmpuint (lt_generator_get_offset (seeded), ==, 3);
  }
}

static void
test_bernoulli (void)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (12);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) p = lt_tensor_new_from_literal ("[0.0, 1.0, 0.5]", &error);
  g_autoptr (LtTensor) rows = NULL;
  g_autoptr (LtTensor) drawn = NULL;
  g_autofree double *values = NULL;
  double halves = 0;
  gsize n;

  g_assert_no_error (error);
  /* Probabilities through an expanded view: one per column. */
  rows = lt_tensor_expand (p, I64S (4000, 3), 2, &error);
  drawn = lt_tensor_bernoulli (rows, generator, &error);
  g_assert_no_error (error);
  lt_assert_sizes (drawn, 4000, 3);
  g_assert_cmpint (lt_tensor_get_dtype (drawn), ==, LT_DTYPE_FLOAT32);
  values = values_of (drawn, &n);
  for (gsize i = 0; i < n; i += 3)
    {
      g_assert_cmpfloat (values[i], ==, 0);
      g_assert_cmpfloat (values[i + 1], ==, 1);
      g_assert_true (values[i + 2] == 0 || values[i + 2] == 1);
      halves += values[i + 2];
    }
  g_assert_cmpfloat (fabs (halves / 4000 - 0.5), <, 0.03);

  {
    g_autoptr (LtTensor) bad = lt_tensor_new_from_literal ("[0.5, 1.5]", NULL);
    g_autoptr (LtTensor) none = lt_tensor_bernoulli (bad, generator, &error);

    g_assert_null (none);
    g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "element 1"));
    g_clear_error (&error);
  }
  {
    g_autoptr (LtTensor) integers = lt_tensor_new_zeros (LT_DTYPE_INT64, I64S (2), 1, NULL);
    g_autoptr (LtTensor) none = lt_tensor_bernoulli (integers, generator, &error);

    g_assert_null (none);
    g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/random/randint/mapping", test_randint_mapping);
  g_test_add_func ("/random/randint/dtypes", test_randint);
  g_test_add_func ("/random/randint/errors", test_randint_errors);
  g_test_add_func ("/random/normal", test_normal);
  g_test_add_func ("/random/fill/order", test_fill_order);
  g_test_add_func ("/random/fill/uniform", test_uniform);
  g_test_add_func ("/random/fill/errors", test_fill_errors);
  g_test_add_func ("/random/bernoulli/in-place", test_bernoulli_);
  g_test_add_func ("/random/bernoulli/probabilities", test_bernoulli);

  return g_test_run ();
}
