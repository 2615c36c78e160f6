/* lt-index-expr.c: parsing `[1:, ::2]`-style index expressions
 *
 * The grammar is Python's basic indexing, which PyTorch and NumPy share:
 *
 *   expression := '[' items ']' | items
 *   items      := (item (',' item)* ','?)?
 *   item       := integer | slice | 'None' | '...' | name
 *   slice      := integer? ':' integer? (':' integer?)?
 *   integer    := ('+' | '-')? digit+
 *   name       := (letter | '_') (letter | digit | '_')*, other than None
 *
 * A name stands for a tensor argument (advanced indexing, in
 * lt-tensor-index-advanced.c); basic indexing refuses names.
 * with spaces allowed between tokens. Errors name the 1-based column.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-index-expr.h"
#include "lt-parse-private.h"

typedef struct
{
  const char *text;
  const char *pos;
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
  while (*parser->pos == ' ' || *parser->pos == '\t')
    parser->pos++;
}

static gboolean
fail (Parser     *parser,
      const char *at,
      const char *expected)
{
  if (*at == '\0')
    g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                 _("index expression '%s' ends at column %u; expected %s"),
                 parser->text, column (parser, at), expected);
  else
    {
      g_autofree char *unexpected = lt_parse_describe_char (at);
      g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                   _("index expression '%s': unexpected %s at column %u; expected %s"),
                   parser->text, unexpected, column (parser, at), expected);
    }
  return FALSE;
}

static gboolean
at_integer (Parser *parser)
{
  const char *p = parser->pos;

  if (*p == '+' || *p == '-')
    p++;
  return g_ascii_isdigit (*p);
}

static gboolean
parse_integer (Parser *parser,
               gint64 *out_value)
{
  const char *start = parser->pos;
  gboolean negative = FALSE;
  guint64 magnitude = 0;
  guint64 limit;

  if (*parser->pos == '+' || *parser->pos == '-')
    negative = *parser->pos++ == '-';

  if (!g_ascii_isdigit (*parser->pos))
    return fail (parser, parser->pos, _("a digit"));

  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  while (g_ascii_isdigit (*parser->pos))
    {
      guint digit = (guint) (*parser->pos - '0');

      if (magnitude > (limit - digit) / 10)
        {
          g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                       _("index expression '%s': the integer at column %u does not fit in 64 bits"),
                       parser->text, column (parser, start));
          return FALSE;
        }
      magnitude = magnitude * 10 + digit;
      parser->pos++;
    }

  *out_value = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

static gboolean
parse_optional_integer (Parser   *parser,
                        gboolean *out_present,
                        gint64   *out_value)
{
  skip_spaces (parser);
  *out_present = at_integer (parser);
  if (!*out_present)
    return TRUE;
  return parse_integer (parser, out_value);
}

static gboolean
parse_item (Parser      *parser,
            LtIndexItem *item)
{
  gboolean has_first;
  gint64 first = 0;

  skip_spaces (parser);
  item->column = column (parser, parser->pos);
  item->step = 1;

  if (strncmp (parser->pos, "None", 4) == 0 && !g_ascii_isalnum (parser->pos[4])
      && parser->pos[4] != '_')
    {
      parser->pos += 4;
      item->kind = LT_INDEX_ITEM_NONE;
      return TRUE;
    }

  if (g_ascii_isalpha (*parser->pos) || *parser->pos == '_')
    {
      item->kind = LT_INDEX_ITEM_NAME;
      item->name = parser->pos;
      while (g_ascii_isalnum (*parser->pos) || *parser->pos == '_')
        parser->pos++;
      item->name_length = (gsize) (parser->pos - item->name);
      return TRUE;
    }

  if (strncmp (parser->pos, "...", 3) == 0)
    {
      parser->pos += 3;
      item->kind = LT_INDEX_ITEM_ELLIPSIS;
      return TRUE;
    }

  if (!parse_optional_integer (parser, &has_first, &first))
    return FALSE;

  skip_spaces (parser);
  if (*parser->pos != ':')
    {
      if (!has_first)
        return fail (parser, parser->pos, _("an integer, a slice, None, ... or a name"));
      item->kind = LT_INDEX_ITEM_INTEGER;
      item->index = first;
      return TRUE;
    }

  parser->pos++;
  item->kind = LT_INDEX_ITEM_SLICE;
  item->has_start = has_first;
  item->start = first;

  if (!parse_optional_integer (parser, &item->has_stop, &item->stop))
    return FALSE;

  skip_spaces (parser);
  if (*parser->pos == ':')
    {
      gboolean has_step;
      const char *step_at;

      parser->pos++;
      skip_spaces (parser);
      step_at = parser->pos;
      if (!parse_optional_integer (parser, &has_step, &item->step))
        return FALSE;
      if (!has_step)
        item->step = 1;
      else if (item->step == 0)
        {
          g_set_error (parser->error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("index expression '%s': the slice step at column %u is zero; a step must "
                         "be a nonzero integer"),
                       parser->text, column (parser, step_at));
          return FALSE;
        }
    }

  return TRUE;
}

/* Returns the items of @expression, or NULL with @error set. */
GArray *
lt_index_expr_parse (const char *expression,
                     GError    **error)
{
  g_autoptr (GArray) items = g_array_new (FALSE, TRUE, sizeof (LtIndexItem));
  Parser parser = { expression, expression, error };
  gboolean bracketed;
  gboolean seen_ellipsis = FALSE;

  if (!lt_parse_check_utf8 (N_("the index expression"), expression, error))
    return NULL;

  skip_spaces (&parser);
  bracketed = *parser.pos == '[';
  if (bracketed)
    parser.pos++;
  skip_spaces (&parser);

  while (*parser.pos != '\0' && *parser.pos != ']')
    {
      LtIndexItem item = { 0 };

      if (!parse_item (&parser, &item))
        return NULL;

      if (item.kind == LT_INDEX_ITEM_ELLIPSIS)
        {
          if (seen_ellipsis)
            {
              g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
                           _("index expression '%s': a second ... at column %u; an index can "
                             "have only one ellipsis"),
                           expression, item.column);
              return NULL;
            }
          seen_ellipsis = TRUE;
        }
      g_array_append_val (items, item);

      skip_spaces (&parser);
      if (*parser.pos == ',')
        {
          parser.pos++;
          skip_spaces (&parser);
        }
      else if (*parser.pos != '\0' && *parser.pos != ']')
        {
          fail (&parser, parser.pos, _("',' or the end of the index"));
          return NULL;
        }
    }

  if (bracketed)
    {
      if (*parser.pos != ']')
        {
          fail (&parser, parser.pos, "']'");
          return NULL;
        }
      parser.pos++;
    }
  else if (*parser.pos == ']')
    {
      fail (&parser, parser.pos, _("an index item, or '[' before the index"));
      return NULL;
    }

  skip_spaces (&parser);
  if (*parser.pos != '\0')
    {
      fail (&parser, parser.pos, _("the end of the expression"));
      return NULL;
    }

  return g_steal_pointer (&items);
}
