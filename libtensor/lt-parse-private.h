/* lt-parse-private.h: what the text parsers share for their error messages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint  lt_parse_column        (const char *text,
                               const char *at);
char  *lt_parse_describe_char (const char *at);
gboolean lt_parse_check_utf8  (const char *what,
                               const char *text,
                               GError    **error);

G_END_DECLS
