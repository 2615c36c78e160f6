/* lt-viewer-format.c: tensor values as the drawings write them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <math.h>
#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-format.h"
#include "lt-viewer-lesson.h"

/* 1.234e+05 is 1.234e5 in a cell: two characters fewer, the same number. */
static void
compact_exponent (char *text)
{
  char *e = strchr (text, 'e');
  char *digits;

  if (e == NULL)
    return;
  digits = e + 1;
  if (*digits == '+')
    memmove (digits, digits + 1, strlen (digits + 1) + 1);
  else if (*digits == '-')
    digits++;
  while (digits[0] == '0' && digits[1] != '\0')
    memmove (digits, digits + 1, strlen (digits + 1) + 1);
}

/* @value to 4 significant digits, or with @exact_dtype other than
 * LT_DTYPE_BOOL, to the fewest digits that read back as the same value of
 * that dtype. */
static void
format_real (double   value,
             LtDType  exact_dtype,
             char    *buffer,
             gsize    size)
{
  if (isnan (value))
    g_strlcpy (buffer, "nan", size);
  else if (isinf (value))
    g_strlcpy (buffer, value > 0 ? "inf" : "-inf", size);
  else
    {
      /* g_ascii_formatd: a dot whatever the locale, as Python prints. */
      if (exact_dtype == LT_DTYPE_BOOL)
        g_ascii_formatd (buffer, size, "%.4g", value);
      else
        {
          char format[8];
          int digits, exponent;

          for (digits = 1; digits <= 17; digits++)
            {
              double back;

              g_snprintf (format, sizeof format, "%%.%de", digits - 1);
              g_ascii_formatd (buffer, size, format, value);
              back = g_ascii_strtod (buffer, NULL);
              /* float16 and bfloat16 values are floats too. */
              if (exact_dtype == LT_DTYPE_FLOAT64 || exact_dtype == LT_DTYPE_COMPLEX128
                  ? back == value : (float) back == (float) value)
                break;
            }
          /* As Python's repr: positional from 1e-4 to below 1e16 (100.0,
           * 0.0001, 123456789.0), scientific outside (1e-05, 1e+16). */
          exponent = (int) g_ascii_strtoll (strchr (buffer, 'e') + 1, NULL, 10);
          if (exponent >= -4 && exponent < 16)
            {
              g_snprintf (format, sizeof format, "%%.%df", MAX (digits - 1 - exponent, 0));
              g_ascii_formatd (buffer, size, format, value);
            }
        }
      /* A float that happens to be whole still reads as a float: 4.0. */
      if (strpbrk (buffer, ".e") == NULL)
        g_strlcat (buffer, ".0", size);
      compact_exponent (buffer);
    }
}

static void
drop_point_zero (char *text)
{
  gsize length = strlen (text);

  if (length > 2 && g_str_has_suffix (text, ".0"))
    text[length - 2] = '\0';
}

static void
format_value (LtStorage *storage,
              gint64     index,
              gboolean   exact,
              char      *buffer,
              gsize      size)
{
  LtDType dtype;
  LtDType exact_dtype;

  g_return_if_fail (LT_IS_STORAGE (storage));
  g_return_if_fail (buffer != NULL && size > 0);

  buffer[0] = '\0';
  if (index < 0 || index >= lt_storage_get_n_elements (storage))
    return;

  dtype = lt_storage_get_dtype (storage);
  exact_dtype = exact ? dtype : LT_DTYPE_BOOL;
  if (dtype == LT_DTYPE_BOOL)
    {
      gint64 value = 0;

      lt_storage_get_int64 (storage, index, &value, NULL);
      g_strlcpy (buffer, value != 0 ? "True" : "False", size);
    }
  else if (lt_dtype_is_integer (dtype))
    {
      gint64 value = 0;

      lt_storage_get_int64 (storage, index, &value, NULL);
      g_snprintf (buffer, size, "%" G_GINT64_FORMAT, value);
    }
  else if (lt_dtype_is_complex (dtype))
    {
      /* lt_storage_get_double() gives the real part only. */
      const guint8 *data = lt_storage_get_data (storage);
      double re = 0, im = 0;
      char re_text[G_ASCII_DTOSTR_BUF_SIZE];
      char im_text[G_ASCII_DTOSTR_BUF_SIZE];

      if (data != NULL && dtype == LT_DTYPE_COMPLEX64)
        {
          float pair[2];

          memcpy (pair, data + index * sizeof pair, sizeof pair);
          re = pair[0];
          im = pair[1];
        }
      else if (data != NULL)
        {
          double pair[2];

          memcpy (pair, data + index * sizeof pair, sizeof pair);
          re = pair[0];
          im = pair[1];
        }
      else
        lt_storage_get_double (storage, index, &re, NULL);

      format_real (re, exact_dtype, re_text, sizeof re_text);
      format_real (signbit (im) ? -im : im, exact_dtype, im_text, sizeof im_text);
      /* As Python writes complex numbers: 1+2j, not 1.0+2.0j. */
      drop_point_zero (re_text);
      drop_point_zero (im_text);
      g_snprintf (buffer, size, "%s%s%sj", re_text, signbit (im) ? "-" : "+", im_text);
    }
  else
    {
      double value = 0;

      lt_storage_get_double (storage, index, &value, NULL);
      format_real (value, exact_dtype, buffer, size);
    }
}

/**
 * lt_viewer_format_value:
 * @storage: a storage
 * @index: an element index in @storage
 * @buffer: (out caller-allocates) (array length=size): where to write the text
 * @size: the size of @buffer
 *
 * Writes one element as the drawings show it: integers as integers,
 * floating point to 4 significant digits with a compact exponent (4.0, 0.5,
 * 1.234e5), complex as a+bj, bool as True or False; an empty string for an
 * index out of range. It allocates nothing, so it runs for every visible
 * cell.
 */
void
lt_viewer_format_value (LtStorage *storage,
                        gint64     index,
                        char      *buffer,
                        gsize      size)
{
  format_value (storage, index, FALSE, buffer, size);
}

/**
 * lt_viewer_format_value_exact:
 * @storage: a storage
 * @index: an element index in @storage
 * @buffer: (out caller-allocates) (array length=size): where to write the text
 * @size: the size of @buffer
 *
 * Like lt_viewer_format_value(), but with as many digits as it takes for
 * the text to read back as the same value (0.1, not 0.100000001, for the
 * float32 nearest 0.1): for writing a tensor's values as a literal.
 */
void
lt_viewer_format_value_exact (LtStorage *storage,
                              gint64     index,
                              char      *buffer,
                              gsize      size)
{
  format_value (storage, index, TRUE, buffer, size);
}

/**
 * lt_viewer_parse_shape:
 * @text: a shape as typed
 * @allow_minus_one: whether sizes may be -1, as view() allows
 * @shape: (out caller-allocates) (array fixed-size=64): the sizes
 * @n_dims: (out): the number of sizes
 * @error: return location for a #GError
 *
 * Reads a shape such as "3, 4", "(3, 4)", "[3, 4]", "3 4" or "3;4"; an
 * empty one has no dims.
 *
 * Returns: %TRUE on success, else %FALSE with @error set in %LT_ERROR
 */
gboolean
lt_viewer_parse_shape (const char  *text,
                       gboolean     allow_minus_one,
                       gint64      *shape,
                       guint       *n_dims,
                       GError     **error)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  g_auto (GStrv) parts = NULL;
  char *inner = copy;
  gsize length = strlen (copy);
  guint n = 0;

  if (length >= 2 && ((copy[0] == '(' && copy[length - 1] == ')')
                      || (copy[0] == '[' && copy[length - 1] == ']')))
    {
      copy[length - 1] = '\0';
      inner = copy + 1;
    }

  g_strdelimit (inner, ",; \t", ' ');
  parts = g_strsplit (inner, " ", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      gint64 size;

      if (parts[i][0] == '\0')
        continue;
      if (n == LT_MAX_DIMS
          || !g_ascii_string_to_signed (parts[i], 10, allow_minus_one ? -1 : 0, G_MAXINT32,
                                        &size, NULL))
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       allow_minus_one
                       ? _("“%s” is not a shape: write sizes separated by commas, such as 3, 2, "
                           "with at most one -1")
                       : _("“%s” is not a shape: write sizes separated by commas, such as 3, 4"),
                       text);
          return FALSE;
        }
      shape[n++] = size;
    }

  *n_dims = n;
  return TRUE;
}

/**
 * lt_viewer_append_tuple:
 * @text: where to append
 * @values: (array length=n): the values
 * @n: how many
 *
 * Appends the values as PyTorch prints sizes and strides: "(3, 2)", "(4,)"
 * for one, "()" for none.
 */
void
lt_viewer_append_tuple (GString      *text,
                        const gint64 *values,
                        guint         n)
{
  g_return_if_fail (text != NULL);
  g_return_if_fail (values != NULL || n == 0);

  g_string_append_c (text, '(');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", values[i]);
  if (n == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');
}

/**
 * lt_viewer_parse_zoom:
 * @text: a scale as written, with a dot whatever the locale: "1.5"
 * @zoom: (out): return location for the scale
 *
 * Reads a lesson's or the command line's zoom.
 *
 * Returns: %TRUE when @text is a number from %LT_VIEWER_LESSON_MIN_ZOOM to
 *   %LT_VIEWER_LESSON_MAX_ZOOM and nothing else
 */
gboolean
lt_viewer_parse_zoom (const char *text,
                      double     *zoom)
{
  char *end = NULL;
  double value;

  g_return_val_if_fail (text != NULL && zoom != NULL, FALSE);

  value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(value >= LT_VIEWER_LESSON_MIN_ZOOM)
      || !(value <= LT_VIEWER_LESSON_MAX_ZOOM))
    return FALSE;
  *zoom = value;
  return TRUE;
}

/**
 * lt_viewer_value_style_add:
 * @style: a style, zeroed before the first value
 * @storage: a storage
 * @index: an element of @storage a drawing shows
 * @max_chars: how many characters a cell holds
 *
 * Takes one more drawn value into account: the drawing's values are all
 * written exactly while each fits in @max_chars; once one does not, all of
 * them are written in scientific notation with as many decimals as fit,
 * the same for every value ("1.00e4", "1.10e4"), so that a drawing never
 * mixes "1e4" with "1.1e4".
 */
void
lt_viewer_value_style_add (LtViewerValueStyle *style,
                           LtStorage          *storage,
                           gint64              index,
                           guint               max_chars)
{
  LtDType dtype;
  char text[64];

  g_return_if_fail (style != NULL && LT_IS_STORAGE (storage));

  dtype = lt_storage_get_dtype (storage);
  style->max_chars = max_chars;
  /* Integers, booleans and complex numbers are always written exactly. */
  if (style->scientific || !lt_dtype_is_floating_point (dtype) || lt_dtype_is_complex (dtype))
    return;
  format_value (storage, index, TRUE, text, sizeof text);
  if (strlen (text) > max_chars)
    style->scientific = TRUE;
}

/**
 * lt_viewer_format_value_styled:
 * @style: the drawing's style (see lt_viewer_value_style_add())
 * @storage: a storage
 * @index: an element index in @storage
 * @buffer: (out caller-allocates) (array length=size): where to write the text
 * @size: the size of @buffer
 *
 * Writes one element in the drawing's style.
 */
void
lt_viewer_format_value_styled (const LtViewerValueStyle *style,
                               LtStorage                *storage,
                               gint64                    index,
                               char                     *buffer,
                               gsize                     size)
{
  double value = 0;
  char format[8];
  int decimals;

  g_return_if_fail (style != NULL);

  if (!style->scientific || !lt_dtype_is_floating_point (lt_storage_get_dtype (storage))
      || lt_dtype_is_complex (lt_storage_get_dtype (storage)))
    {
      format_value (storage, index, TRUE, buffer, size);
      return;
    }
  buffer[0] = '\0';
  if (index < 0 || index >= lt_storage_get_n_elements (storage))
    return;
  lt_storage_get_double (storage, index, &value, NULL);
  if (isnan (value) || isinf (value))
    {
      format_real (value, LT_DTYPE_BOOL, buffer, size);
      return;
    }
  /* "d.dde5": the mantissa's decimals that fit beside an exponent. */
  decimals = CLAMP ((int) style->max_chars - 4, 0, 3);
  g_snprintf (format, sizeof format, "%%.%de", decimals);
  g_ascii_formatd (buffer, size, format, value);
  compact_exponent (buffer);
}

/* Beyond this many values, a storage's style is taken from a sample. */
#define MAX_STYLED_VALUES 65536

/**
 * lt_viewer_value_style_for_storage:
 * @style: (out caller-allocates): the style
 * @storage: a storage
 * @max_chars: how many characters a cell holds
 *
 * The one style of a drawing that scrolls over all of @storage, so that
 * its values are written alike wherever it is scrolled: exactly when they
 * all fit in @max_chars, else in scientific notation. Storages of more
 * than 65536 values are judged on an even sample of that many, the last
 * value included.
 */
void
lt_viewer_value_style_for_storage (LtViewerValueStyle *style,
                                   LtStorage          *storage,
                                   guint               max_chars)
{
  gint64 n;

  g_return_if_fail (style != NULL && LT_IS_STORAGE (storage));

  *style = (LtViewerValueStyle) { .max_chars = max_chars };
  n = lt_storage_get_n_elements (storage);
  if (n <= MAX_STYLED_VALUES)
    {
      for (gint64 i = 0; i < n && !style->scientific; i++)
        lt_viewer_value_style_add (style, storage, i, max_chars);
      return;
    }
  for (gint64 k = 0; k < MAX_STYLED_VALUES && !style->scientific; k++)
    lt_viewer_value_style_add (style, storage, k * (n - 1) / (MAX_STYLED_VALUES - 1), max_chars);
}
