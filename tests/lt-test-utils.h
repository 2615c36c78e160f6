/* lt-test-utils.h: assertions shared by the C tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <math.h>
#include <string.h>

#include <libtensor.h>

#define I64S(...) ((const gint64[]) { __VA_ARGS__ })
#define N_ARGS(...) (sizeof ((const gint64[]) { __VA_ARGS__ }) / sizeof (gint64))

/* lt_assert_sizes (t, 2, 3) checks that t has sizes (2, 3). */
#define lt_assert_sizes(t, ...) \
  lt_test_assert_array (G_STRLOC, "sizes", lt_tensor_get_sizes ((t), &(guint) { 0 }), \
                        lt_tensor_get_dim (t), I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__))
#define lt_assert_strides(t, ...) \
  lt_test_assert_array (G_STRLOC, "strides", lt_tensor_get_strides ((t), &(guint) { 0 }), \
                        lt_tensor_get_dim (t), I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__))
#define lt_assert_scalar_shape(t) g_assert_cmpuint (lt_tensor_get_dim (t), ==, 0)

/* lt_assert_values (t, 1.0, 2.0) checks the values in row-major order. */
#define lt_assert_values(t, ...) \
  lt_test_assert_values (G_STRLOC, (t), (const double[]) { __VA_ARGS__ }, \
                         sizeof ((const double[]) { __VA_ARGS__ }) / sizeof (double))

#define lt_assert_storage_indices(t, ...) \
  lt_test_assert_storage_indices (G_STRLOC, (t), I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__))

static inline void
lt_test_assert_array (const char   *location,
                      const char   *what,
                      const gint64 *actual,
                      guint         n_actual,
                      const gint64 *expected,
                      guint         n_expected)
{
  gboolean same = n_actual == n_expected;

  for (guint i = 0; same && i < n_actual; i++)
    same = actual[i] == expected[i];

  if (!same)
    {
      GString *text = g_string_new (NULL);

      g_string_append_printf (text, "%s: %s are (", location, what);
      for (guint i = 0; i < n_actual; i++)
        g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i ? ", " : "", actual[i]);
      g_string_append (text, "), expected (");
      for (guint i = 0; i < n_expected; i++)
        g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i ? ", " : "", expected[i]);
      g_string_append (text, ")");
      g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, text->str);
      g_string_free (text, TRUE);
    }
}

static inline void
lt_test_assert_values (const char   *location,
                       LtTensor     *tensor,
                       const double *expected,
                       gsize         n_expected)
{
  gsize n_values;
  g_autofree double *values = lt_tensor_to_doubles (tensor, &n_values);

  g_assert_cmpuint (n_values, ==, n_expected);
  for (gsize i = 0; i < n_values; i++)
    if (!(values[i] == expected[i] || (values[i] != values[i] && expected[i] != expected[i])))
      {
        g_autofree char *message = g_strdup_printf ("%s: value %" G_GSIZE_FORMAT " is %.17g, "
                                                    "expected %.17g",
                                                    location, i, values[i], expected[i]);
        g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, message);
      }
}

static inline void
lt_test_assert_storage_indices (const char   *location,
                                LtTensor     *tensor,
                                const gint64 *expected,
                                guint         n_expected)
{
  gsize n;
  g_autofree gint64 *indices = lt_tensor_get_storage_indices (tensor, &n, NULL);

  lt_test_assert_array (location, "storage indices", indices, (guint) n, expected, n_expected);
}

/* A new float32 tensor 0, 1, ..., n - 1 viewed with the given shape. */
static inline LtTensor *
lt_test_arange (LtDType       dtype,
                const gint64 *shape,
                guint         n_dims)
{
  g_autoptr (GError) error = NULL;
  gint64 numel = 1;
  g_autoptr (LtTensor) wide = NULL;
  g_autoptr (LtTensor) flat = NULL;
  LtTensor *shaped;

  for (guint i = 0; i < n_dims; i++)
    numel *= shape[i];
  wide = lt_tensor_new_arange (0, (double) numel, 1, LT_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  flat = lt_tensor_to_dtype (wide, dtype, &error);
  g_assert_no_error (error);
  shaped = lt_tensor_view (flat, shape, n_dims, &error);
  g_assert_no_error (error);
  return shaped;
}

#define lt_test_arange_shaped(dtype, ...) \
  lt_test_arange ((dtype), I64S (__VA_ARGS__), N_ARGS (__VA_ARGS__))

/* Whether long double arithmetic keeps bits a double would drop: not
 * under valgrind, which runs x87 arithmetic in double, so that a long
 * double reference for a double result is itself an ulp or two off. */
static inline gboolean
lt_test_long_double_is_wider (void)
{
  volatile long double one = 1.0L, tiny = 0x1p-60L;

  return one + tiny != one;
}
