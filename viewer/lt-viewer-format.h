/* lt-viewer-format.h: tensor values as the drawings write them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libtensor.h>

G_BEGIN_DECLS

/* The value of element @index of @storage as both drawings show it:
 * integers as integers, floating point to 4 significant digits (1.234e5
 * when large or small), complex as a+bj, bool as True/False. Writes at
 * most @size bytes (NUL included) into @buffer; no allocation, so it can
 * run for every visible cell. */
void            lt_viewer_format_value                  (LtStorage            *storage,
                                                         gint64                index,
                                                         char                 *buffer,
                                                         gsize                 size);
/* The same with as many digits as reading it back as the same value takes. */
void            lt_viewer_format_value_exact            (LtStorage            *storage,
                                                         gint64                index,
                                                         char                 *buffer,
                                                         gsize                 size);
/* Reads a shape such as "3, 4", "(3, 4)", "[3, 4]", "3 4" or "3;4" into
 * @shape (room for LT_MAX_DIMS sizes); with @allow_minus_one a size may be
 * -1, as for view(). */
gboolean        lt_viewer_parse_shape                   (const char           *text,
                                                         gboolean              allow_minus_one,
                                                         gint64               *shape,
                                                         guint                *n_dims,
                                                         GError              **error);
/* One way of writing the values of a drawing: exactly while every drawn
 * value fits its cell, else in scientific notation with the same decimals
 * for all. Zero it, add every drawn value, then write each with it. */
typedef struct
{
  gboolean scientific;
  guint max_chars;
} LtViewerValueStyle;

void            lt_viewer_value_style_add               (LtViewerValueStyle   *style,
                                                         LtStorage            *storage,
                                                         gint64                index,
                                                         guint                 max_chars);
void            lt_viewer_format_value_styled           (const LtViewerValueStyle *style,
                                                         LtStorage            *storage,
                                                         gint64                index,
                                                         char                 *buffer,
                                                         gsize                 size);
/* The style of a drawing that may show any value of @storage: every value
 * taken into account up to 65536 of them, an even sample of that many
 * beyond. */
void            lt_viewer_value_style_for_storage       (LtViewerValueStyle   *style,
                                                         LtStorage            *storage,
                                                         guint                 max_chars);

/* "(3, 2)", "(4,)", "()": as PyTorch prints sizes and strides. */
void            lt_viewer_append_tuple                  (GString              *text,
                                                         const gint64         *values,
                                                         guint                 n);
/* A zoom written with a dot ("1.5"), within the lesson's range. */
gboolean        lt_viewer_parse_zoom                    (const char           *text,
                                                         double               *zoom);

G_END_DECLS
