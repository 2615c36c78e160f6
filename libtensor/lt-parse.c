/* lt-parse.c: what the text parsers share for their error messages
 *
 * Error messages are UTF-8 and read by people who may type any script into
 * an index expression or a literal, so positions count characters and an
 * unexpected character is quoted whole, never as a lone byte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-parse-private.h"

/* The 1-based column of @at in @text, in characters: the parsers only read
 * text that lt_parse_check_utf8() accepted. */
guint
lt_parse_column (const char *text,
                 const char *at)
{
  return (guint) g_utf8_pointer_to_offset (text, at) + 1;
}

/* Refuses text that is not valid UTF-8, naming what it is (@what, marked
 * with N_()) and where the first bad byte is, so that every later message
 * can quote the text. */
gboolean
lt_parse_check_utf8 (const char *what,
                     const char *text,
                     GError    **error)
{
  const char *end;

  if (g_utf8_validate (text, -1, &end))
    return TRUE;

  g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
               _("%s is not valid UTF-8: byte 0x%02x at byte offset %zu starts no character"),
               _(what), (guint) (guchar) *end, (gsize) (end - text));
  return FALSE;
}

/* The character at @at, quoted whole: "'x'", "'点'". */
char *
lt_parse_describe_char (const char *at)
{
  char buffer[8] = { 0 };

  g_unichar_to_utf8 (g_utf8_get_char (at), buffer);
  return g_strdup_printf ("'%s'", buffer);
}
