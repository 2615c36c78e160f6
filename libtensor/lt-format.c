/* lt-format.c: printing tensors the way PyTorch 1.13's repr() does
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-dtype-private.h"
#include "lt-tensor-private.h"

/* PyTorch's default print options (torch._tensor_str.PRINT_OPTS); the
 * precision of 4 is spelled out in the printf formats below. */
#define THRESHOLD 1000
#define EDGEITEMS 3
#define LINEWIDTH 80

/* Enough for "%.4f" of the largest double, which never happens in practice
 * (fixed notation is only chosen for values up to 1e8) but costs nothing. */
#define NUMBER_BUFFER_SIZE 400

/* torch._tensor_str._Formatter: how every element of one tensor (or of the
 * real or imaginary parts of a complex one) is written, decided from the
 * elements that are printed. */
typedef struct
{
  gboolean floating;
  gboolean int_mode;
  gboolean sci_mode;
  int max_width;
} Formatter;

typedef enum
{
  PART_REAL,
  PART_IMAG,
} Part;

typedef struct
{
  const gint64 *sizes;
  guint ndim;
  gboolean summarize;
  gboolean complex;
  Formatter real;
  Formatter imag;
  /* The printed elements (LtValue) in the order they are printed. */
  GArray *values;
  guint next;
} Printer;

/* Whether a dim of @size is shortened to its first and last EDGEITEMS. */
static gboolean
dim_is_summarized (const Printer *printer,
                   gint64         size)
{
  return printer->summarize && size > 2 * EDGEITEMS;
}

/* Reads the elements the printer will print, in order (the elements of
 * get_summarized_data() in torch), so that a summarised tensor of any size
 * costs a few hundred reads. */
static void
collect_values (Printer         *printer,
                const LtOperand *operand,
                const guint8    *element,
                guint            dim)
{
  gint64 size;
  gsize element_size;

  if (dim == printer->ndim)
    {
      LtValue value = lt_value_read (operand->dtype, element);

      g_array_append_val (printer->values, value);
      return;
    }

  size = printer->sizes[dim];
  element_size = lt_dtype_get_element_size (operand->dtype);
  for (gint64 i = 0; i < size; i++)
    {
      if (dim_is_summarized (printer, size) && i == EDGEITEMS)
        i = size - EDGEITEMS;
      collect_values (printer, operand,
                      element + i * operand->strides[dim] * (gint64) element_size, dim + 1);
    }
}

static double
value_part (LtValue value,
            Part    part)
{
  return part == PART_IMAG ? value.im : value.re;
}

/* Python's format (value, spec) for the specs ".4f", ".4e" and ".0f": the
 * C formats round the same way (exactly, ties to even), only a nan's sign
 * differs, which Python never prints. */
static const char *
format_double (char       *buffer,
               const char *format,
               double      value)
{
  if (isnan (value))
    return "nan";
  return g_ascii_formatd (buffer, NUMBER_BUFFER_SIZE, format, value);
}

/* One element as the formatter writes it, before padding to its width. */
static void
format_unpadded (const Formatter *self,
                 LtValue          value,
                 Part             part,
                 GString         *out)
{
  char buffer[NUMBER_BUFFER_SIZE];
  double number;

  if (!self->floating)
    {
      if (value.kind == LT_VALUE_BOOL)
        g_string_append (out, value.i ? "True" : "False");
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, value.i);
      return;
    }

  number = value_part (value, part);
  if (self->sci_mode)
    g_string_append (out, format_double (buffer, "%.4e", number));
  else if (self->int_mode)
    {
      g_string_append (out, format_double (buffer, "%.0f", number));
      if (isfinite (number))
        g_string_append_c (out, '.');
    }
  else
    g_string_append (out, format_double (buffer, "%.4f", number));
}

static int
unpadded_width (const Formatter *self,
                LtValue          value,
                Part             part)
{
  g_autoptr (GString) text = g_string_new (NULL);

  format_unpadded (self, value, part, text);
  return (int) text->len;
}

/* _Formatter.__init__ for the bool and integer dtypes. */
static void
formatter_init_integers (Formatter    *self,
                         const GArray *values)
{
  *self = (Formatter) { .floating = FALSE, .int_mode = TRUE, .max_width = 1 };

  for (guint i = 0; i < values->len; i++)
    self->max_width = MAX (self->max_width,
                           unpadded_width (self, g_array_index (values, LtValue, i), PART_REAL));
}

/* _Formatter.__init__ for floating point values: the notation and the width
 * are decided by the nonzero finite values alone. */
static void
formatter_init_floats (Formatter    *self,
                       const GArray *values,
                       Part          part)
{
  double min = INFINITY;
  double max = 0.0;
  gboolean any = FALSE;

  *self = (Formatter) { .floating = TRUE, .int_mode = TRUE, .max_width = 1 };

  for (guint i = 0; i < values->len; i++)
    {
      double number = value_part (g_array_index (values, LtValue, i), part);

      if (!isfinite (number) || number == 0.0)
        continue;
      any = TRUE;
      min = MIN (min, fabs (number));
      max = MAX (max, fabs (number));
      if (number != ceil (number))
        self->int_mode = FALSE;
    }

  if (!any)
    return;

  self->sci_mode = max / min > 1000.0 || max > 1.0e8 || (!self->int_mode && min < 1.0e-4);

  for (guint i = 0; i < values->len; i++)
    {
      LtValue value = g_array_index (values, LtValue, i);
      double number = value_part (value, part);

      if (!isfinite (number) || number == 0.0)
        continue;
      self->max_width = MAX (self->max_width, unpadded_width (self, value, part));
    }
}

/* _Formatter.format: right-aligned to the width of the widest value. */
static void
append_formatted (const Formatter *self,
                  LtValue          value,
                  Part             part,
                  GString         *out)
{
  gsize start = out->len;

  format_unpadded (self, value, part, out);
  /* Inserting in front of the element moves only the element itself. */
  while (out->len - start < (gsize) self->max_width)
    g_string_insert_c (out, (gssize) start, ' ');
}

static void
append_spaces (GString *out,
               int      count)
{
  for (int i = 0; i < count; i++)
    g_string_append_c (out, ' ');
}

/* The next printed element; a complex one is the real part padded, then the
 * imaginary part unpadded with its sign ("1.+2.j", "-0.-infj"). */
static void
append_element (Printer *printer,
                GString *out)
{
  LtValue value = g_array_index (printer->values, LtValue, printer->next++);
  gsize imag_start;

  append_formatted (&printer->real, value, PART_REAL, out);
  if (!printer->complex)
    return;

  imag_start = out->len;
  format_unpadded (&printer->imag, value, PART_IMAG, out);
  if (out->str[imag_start] != '-' && out->str[imag_start] != '+')
    g_string_insert_c (out, (gssize) imag_start, '+');
  g_string_append_c (out, 'j');
}

/* _vector_str: as many elements per line as fit in the line width. */
static void
append_vector (Printer *printer,
               gint64   size,
               int      indent,
               GString *out)
{
  gboolean summarized = dim_is_summarized (printer, size);
  gint64 n_items = summarized ? 2 * EDGEITEMS + 1 : size;
  int element_length = printer->real.max_width + 2;
  int per_line;

  if (printer->complex)
    element_length += printer->imag.max_width + 1;
  /* Python floors; for a negative numerator both give a count below 1. */
  per_line = MAX (1, (LINEWIDTH - indent) / element_length);

  g_string_append_c (out, '[');
  for (gint64 i = 0; i < n_items; i++)
    {
      if (i > 0 && i % per_line == 0)
        {
          g_string_append (out, ",\n");
          append_spaces (out, indent + 1);
        }
      else if (i > 0)
        g_string_append (out, ", ");

      if (summarized && i == EDGEITEMS)
        g_string_append (out, " ...");
      else
        append_element (printer, out);
    }
  g_string_append_c (out, ']');
}

/* _tensor_str_with_formatter from @dim on: sub-tensors separated by one
 * blank line fewer than the dims they have. */
static void
append_tensor (Printer *printer,
               guint    dim,
               int      indent,
               GString *out)
{
  gint64 size;
  gboolean summarized;
  gint64 n_items;

  if (dim == printer->ndim)
    {
      append_element (printer, out);
      return;
    }

  size = printer->sizes[dim];
  if (dim + 1 == printer->ndim)
    {
      append_vector (printer, size, indent, out);
      return;
    }

  summarized = dim_is_summarized (printer, size);
  n_items = summarized ? 2 * EDGEITEMS + 1 : size;
  g_string_append_c (out, '[');
  for (gint64 i = 0; i < n_items; i++)
    {
      if (i > 0)
        {
          g_string_append_c (out, ',');
          for (guint j = dim + 1; j < printer->ndim; j++)
            g_string_append_c (out, '\n');
          append_spaces (out, indent + 1);
        }

      if (summarized && i == EDGEITEMS)
        g_string_append (out, "...");
      else
        append_tensor (printer, dim + 1, indent + 1, out);
    }
  g_string_append_c (out, ']');
}

/* _tensor_str for a tensor with elements. */
static void
append_elements (LtTensor *self,
                 int       indent,
                 GString  *out)
{
  LtOperand operand = lt_tensor_operand (self);
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (LtValue));
  Printer printer = {
    .sizes = self->sizes,
    .ndim = self->ndim,
    .summarize = self->numel > THRESHOLD,
    .complex = lt_dtype_is_complex (operand.dtype),
    .values = values,
  };

  collect_values (&printer, &operand, operand.data, 0);

  if (printer.complex)
    {
      formatter_init_floats (&printer.real, values, PART_REAL);
      formatter_init_floats (&printer.imag, values, PART_IMAG);
    }
  else if (lt_dtype_is_floating_point (operand.dtype))
    formatter_init_floats (&printer.real, values, PART_REAL);
  else
    formatter_init_integers (&printer.real, values);

  append_tensor (&printer, 0, indent, out);
}

/* _add_suffixes: each suffix goes on the last line if it fits in the line
 * width, otherwise on a new line of its own. */
static void
append_suffixes (GString   *out,
                 GPtrArray *suffixes,
                 int        indent)
{
  const char *newline = strrchr (out->str, '\n');
  gssize last_newline = newline != NULL ? newline - out->str : -1;
  gssize last_line_len = (gssize) out->len - last_newline + 1;

  for (guint i = 0; i < suffixes->len; i++)
    {
      const char *suffix = g_ptr_array_index (suffixes, i);
      gssize suffix_len = (gssize) strlen (suffix);

      if (last_line_len + suffix_len + 2 > LINEWIDTH)
        {
          g_string_append (out, ",\n");
          append_spaces (out, indent);
          last_line_len = indent + suffix_len;
        }
      else
        {
          g_string_append (out, ", ");
          last_line_len += suffix_len + 2;
        }
      g_string_append (out, suffix);
    }
  g_string_append_c (out, ')');
}

static char *
size_suffix (LtTensor *self)
{
  GString *text = g_string_new ("size=(");

  for (guint i = 0; i < self->ndim; i++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", self->sizes[i]);
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

/* "names=('N', None)", as PyTorch ends a named tensor. */
static char *
names_suffix (LtTensor *self)
{
  GString *text = g_string_new ("names=(");

  for (guint d = 0; d < self->ndim; d++)
    {
      if (d > 0)
        g_string_append (text, ", ");
      if (self->names[d] != NULL)
        g_string_append_printf (text, "'%s'", self->names[d]);
      else
        g_string_append (text, "None");
    }
  g_string_append (text, self->ndim == 1 ? ",)" : ")");
  return g_string_free (text, FALSE);
}

/**
 * lt_tensor_to_string:
 * @self: an #LtTensor
 *
 * Writes @self the way PyTorch 1.13 writes a tensor of the same values,
 * dtype and shape with `repr()`, character for character:
 *
 * ```
 * tensor([[4., 1.],
 *         [5., 3.],
 *         [2., 1.]])
 * ```
 *
 * All elements share one notation chosen from the printed values (`4.` when
 * all are integers, four decimals, or scientific notation such as
 * `1.0000e-05` for wide ranges), columns are right-aligned, rows wrap at 80
 * columns, tensors with more than 1000 elements show only the first and last
 * three items of each dim around `...`, and the dtype is named unless it is
 * float32, int64, bool or complex64. Named dims end the text as in
 * PyTorch: `names=('N', None)`.
 *
 * Only the printed elements are read, so summarising a huge tensor is cheap.
 *
 * Returns: (transfer full): the text, without a trailing newline
 */
char *
lt_tensor_to_string (LtTensor *self)
{
  const char *prefix = "tensor(";
  int indent = (int) strlen (prefix);
  g_autoptr (GString) out = g_string_new (prefix);
  g_autoptr (GPtrArray) suffixes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (LtTensor) host = NULL;
  g_autoptr (LtDevice) device = NULL;
  LtDType dtype;
  gboolean default_dtype;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  /* A tensor on a device is printed from a copy on the CPU, and says where
   * it lives, as PyTorch's does. */
  device = lt_tensor_get_device (self);
  if (lt_device_get_device_type (device) != LT_DEVICE_TYPE_CPU)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *name = lt_device_to_string (device);

      host = lt_tensor_to_cpu (self, &error);
      if (host == NULL)
        return g_strdup_printf ("tensor(<the values could not be read from %s: %s>)", name,
                                error->message);
      g_ptr_array_add (suffixes, g_strdup_printf ("device='%s'", name));
    }

  dtype = lt_tensor_get_dtype (self);
  if (self->numel == 0)
    {
      /* Without elements nothing hints at the dtype, so only float32 (the
       * default dtype) goes unnamed; a shape other than (0,) is shown. */
      if (self->ndim != 1)
        g_ptr_array_add (suffixes, size_suffix (self));
      default_dtype = dtype == LT_DTYPE_FLOAT32;
      g_string_append (out, "[]");
    }
  else
    {
      default_dtype = dtype == LT_DTYPE_FLOAT32 || dtype == LT_DTYPE_COMPLEX64
                      || dtype == LT_DTYPE_INT64 || dtype == LT_DTYPE_BOOL;
      append_elements (host != NULL ? host : self, indent, out);
    }

  if (!default_dtype)
    g_ptr_array_add (suffixes, g_strdup_printf ("dtype=torch.%s", lt_dtype_get_name (dtype)));
  if (self->names != NULL)
    g_ptr_array_add (suffixes, names_suffix (self));

  append_suffixes (out, suffixes, indent);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
