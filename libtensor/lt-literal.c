/* lt-literal.c: parsing nested list literals such as `[[4.0, 1.0], [5.0, 3.0]]`
 *
 * The grammar is Python's for nested lists of numbers:
 *
 *   value   := list | number
 *   list    := '[' (value (',' value)* ','?)? ']'
 *   number  := real | real ('+' | '-') unsigned 'j' | real 'j' | boolean
 *   real    := ('+' | '-')? (digits ('.' digits?)? exponent? | '.' digits exponent?
 *              | 'inf' | 'nan')
 *   boolean := 'True' | 'False' | 'true' | 'false'
 *
 * Lists at the same depth must have the same length and the same nesting,
 * as for torch.tensor(). Errors name the 1-based column.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt-dtype-private.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-literal.h"
#include "lt-parse-private.h"

typedef struct
{
  const char *text;
  const char *pos;
  LtLiteral *literal;
  /* The depth at which numbers appear, once known: every number must sit
   * at the same depth. */
  int leaf_depth;
  /* Whether sizes[depth] has been fixed by a first list at that depth. */
  gboolean size_known[LT_MAX_DIMS];
  LtValueKind widest;
  GError **error;
} Parser;

static guint
column (Parser     *parser,
        const char *at)
{
  return lt_parse_column (parser->text, at);
}

static void
skip_spaces (Parser *parser)
{
  while (g_ascii_isspace (*parser->pos))
    parser->pos++;
}

static gboolean
fail_at (Parser     *parser,
         const char *at,
         const char *what)
{
  if (*at == '\0')
    g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                 _("tensor literal ends at column %u; expected %s"), column (parser, at), what);
  else
    {
      g_autofree char *unexpected = lt_parse_describe_char (at);
      g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                   _("tensor literal: unexpected %s at column %u; expected %s"), unexpected,
                   column (parser, at), what);
    }
  return FALSE;
}

static gboolean
keyword (Parser     *parser,
         const char *word)
{
  gsize length = strlen (word);

  if (strncmp (parser->pos, word, length) != 0 || g_ascii_isalnum (parser->pos[length])
      || parser->pos[length] == '_')
    return FALSE;
  parser->pos += length;
  return TRUE;
}

/* A real number, with g_ascii_strtod doing the conversion once the extent
 * of the token is known (so that "1e" or "0x10" are errors, not prefixes). */
static gboolean
parse_real (Parser   *parser,
            gboolean  allow_sign,
            double   *out_value,
            gboolean *out_is_integer)
{
  const char *start = parser->pos;
  const char *p = start;
  gboolean negative = FALSE;
  gboolean digits = FALSE;
  gboolean is_integer = TRUE;
  g_autofree char *token = NULL;

  if (allow_sign && (*p == '+' || *p == '-'))
    negative = *p++ == '-';

  parser->pos = p;
  if (keyword (parser, "inf"))
    {
      *out_value = negative ? -INFINITY : INFINITY;
      *out_is_integer = FALSE;
      return TRUE;
    }
  if (keyword (parser, "nan"))
    {
      *out_value = NAN;
      *out_is_integer = FALSE;
      return TRUE;
    }

  while (g_ascii_isdigit (*p))
    p++, digits = TRUE;
  if (*p == '.')
    {
      is_integer = FALSE;
      p++;
      while (g_ascii_isdigit (*p))
        p++, digits = TRUE;
    }
  if (!digits)
    return fail_at (parser, start, _("a number, a list, True or False"));
  if (*p == 'e' || *p == 'E')
    {
      p++;
      is_integer = FALSE;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        return fail_at (parser, p, _("the digits of the exponent"));
      while (g_ascii_isdigit (*p))
        p++;
    }

  token = g_strndup (start, (gsize) (p - start));
  *out_value = g_ascii_strtod (token, NULL);
  *out_is_integer = is_integer;
  parser->pos = p;
  return TRUE;
}

static gboolean
parse_integer_token (const char *start,
                     const char *end,
                     gint64     *out_value)
{
  g_autofree char *token = g_strndup (start, (gsize) (end - start));
  char *stop = NULL;
  gint64 value;

  errno = 0;
  value = g_ascii_strtoll (token, &stop, 10);
  if (errno != 0 || stop == token || *stop != '\0')
    return FALSE;
  *out_value = value;
  return TRUE;
}

static gboolean
parse_number (Parser  *parser,
              LtValue *out_value)
{
  const char *start = parser->pos;
  double real;
  gboolean is_integer;

  if (keyword (parser, "True") || keyword (parser, "true"))
    {
      *out_value = (LtValue) { .kind = LT_VALUE_BOOL, .i = 1 };
      return TRUE;
    }
  if (keyword (parser, "False") || keyword (parser, "false"))
    {
      *out_value = (LtValue) { .kind = LT_VALUE_BOOL, .i = 0 };
      return TRUE;
    }

  if (!parse_real (parser, TRUE, &real, &is_integer))
    return FALSE;

  if (*parser->pos == 'j')
    {
      /* Python reads -1j as -(1j), whose real part is -0.0. */
      parser->pos++;
      *out_value = lt_value_from_complex (*start == '-' ? -0.0 : 0.0, real);
      return TRUE;
    }

  if ((*parser->pos == '+' || *parser->pos == '-')
      && (g_ascii_isdigit (parser->pos[1]) || parser->pos[1] == '.' || parser->pos[1] == 'i'
          || parser->pos[1] == 'n'))
    {
      gboolean negative = *parser->pos == '-';
      double imag;
      gboolean imag_is_integer;

      parser->pos++;
      if (!parse_real (parser, FALSE, &imag, &imag_is_integer))
        return FALSE;
      if (*parser->pos != 'j')
        return fail_at (parser, parser->pos, _("'j' after the imaginary part"));
      parser->pos++;
      *out_value = lt_value_from_complex (real, negative ? -imag : imag);
      return TRUE;
    }

  if (is_integer)
    {
      gint64 value;

      if (!parse_integer_token (start, parser->pos, &value))
        {
          g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                       _("tensor literal: the integer at column %u does not fit in 64 bits"),
                       column (parser, start));
          return FALSE;
        }
      *out_value = lt_value_from_int64 (value);
      return TRUE;
    }

  *out_value = lt_value_from_double (real);
  return TRUE;
}

static gboolean parse_value (Parser *parser,
                             guint   depth);

static gboolean
parse_list (Parser *parser,
            guint   depth)
{
  const char *open = parser->pos;
  gint64 count = 0;

  if (depth >= LT_MAX_DIMS)
    {
      g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                   _("tensor literal: the list at column %u nests deeper than the %d dims a "
                     "tensor can have"),
                   column (parser, open), LT_MAX_DIMS);
      return FALSE;
    }

  parser->pos++;
  skip_spaces (parser);

  while (*parser->pos != ']')
    {
      if (!parse_value (parser, depth + 1))
        return FALSE;
      count++;

      skip_spaces (parser);
      if (*parser->pos == ',')
        {
          parser->pos++;
          skip_spaces (parser);
        }
      else if (*parser->pos != ']')
        return fail_at (parser, parser->pos, _("',' or ']'"));
    }
  parser->pos++;

  /* An empty list ends the nesting here: its depth is the leaf depth. */
  if (count == 0)
    {
      if (parser->leaf_depth >= 0 && parser->leaf_depth != (int) depth + 1)
        goto ragged;
      parser->leaf_depth = (int) depth + 1;
    }

  if (!parser->size_known[depth])
    {
      parser->size_known[depth] = TRUE;
      parser->literal->sizes[depth] = count;
    }
  else if (parser->literal->sizes[depth] != count)
    goto ragged;

  return TRUE;

ragged:
  g_set_error (parser->error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
               _("tensor literal: the list at column %u has %" PRId64
                 " elements or a nesting unlike the other lists at the same depth; a tensor "
                 "needs lists of the same length at each depth"),
               column (parser, open), count);
  return FALSE;
}

static gboolean
parse_value (Parser *parser,
             guint   depth)
{
  const char *start;
  LtValue value;

  skip_spaces (parser);
  start = parser->pos;

  if (*parser->pos == '[')
    {
      if (parser->leaf_depth >= 0 && (int) depth >= parser->leaf_depth)
        goto ragged;
      return parse_list (parser, depth);
    }

  if (parser->leaf_depth >= 0 && parser->leaf_depth != (int) depth)
    goto ragged;
  parser->leaf_depth = (int) depth;

  if (!parse_number (parser, &value))
    return FALSE;
  if (value.kind > parser->widest)
    parser->widest = value.kind;
  g_array_append_val (parser->literal->values, value);
  return TRUE;

ragged:
  g_set_error (parser->error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
               _("tensor literal: the value at column %u is nested at a different depth from the "
                 "others; a tensor needs lists of the same length at each depth"),
               column (parser, start));
  return FALSE;
}

void
lt_literal_free (LtLiteral *literal)
{
  if (literal == NULL)
    return;
  g_clear_pointer (&literal->values, g_array_unref);
  g_free (literal);
}

/* The parsed literal, or NULL with @error set. */
LtLiteral *
lt_literal_parse (const char *text,
                  GError    **error)
{
  g_autoptr (LtLiteral) literal = NULL;
  Parser parser = { 0 };

  if (!lt_parse_check_utf8 (N_("the tensor literal"), text, error))
    return NULL;

  literal = g_new0 (LtLiteral, 1);

  literal->values = g_array_new (FALSE, FALSE, sizeof (LtValue));
  parser.text = text;
  parser.pos = text;
  parser.literal = literal;
  parser.leaf_depth = -1;
  parser.widest = LT_VALUE_BOOL;
  parser.error = error;

  if (!parse_value (&parser, 0))
    return NULL;
  skip_spaces (&parser);
  if (*parser.pos != '\0')
    {
      fail_at (&parser, parser.pos, _("the end of the literal"));
      return NULL;
    }

  literal->ndim = (guint) parser.leaf_depth;

  /* Lists that were empty at some depth leave the deeper sizes unset; they
   * cannot exist, since an empty list fixes the leaf depth. */
  switch (parser.widest)
    {
    case LT_VALUE_BOOL:
      /* Only an empty literal has no values; torch.tensor([]) is float32. */
      literal->inferred_dtype = literal->values->len == 0 ? LT_DTYPE_FLOAT32 : LT_DTYPE_BOOL;
      break;
    case LT_VALUE_INT:
      literal->inferred_dtype = LT_DTYPE_INT64;
      break;
    case LT_VALUE_FLOAT:
      literal->inferred_dtype = LT_DTYPE_FLOAT32;
      break;
    case LT_VALUE_COMPLEX:
    default:
      literal->inferred_dtype = LT_DTYPE_COMPLEX64;
      break;
    }

  return g_steal_pointer (&literal);
}

/* Writes the values, converted to @dtype, into contiguous memory at @data. */
void
lt_literal_write (const LtLiteral *literal,
                  LtDType          dtype,
                  gpointer         data)
{
  gsize element_size = lt_dtype_get_element_size (dtype);

  for (guint i = 0; i < literal->values->len; i++)
    lt_value_write (dtype, (guint8 *) data + i * element_size,
                    g_array_index (literal->values, LtValue, i));
}
