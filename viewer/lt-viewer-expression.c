/* lt-viewer-expression.c: evaluating view expressions such as `t[1:, ::2].t()`
 *
 * A small recursive-descent parser for the grammar
 *
 *   expression := 't' link* END
 *   link       := '[' index ']' | '.' name '(' arguments? ')'
 *   arguments  := argument (',' argument)* ','?
 *   argument   := (name '=')? value
 *   value      := integer | 't' | '(' ')' | '(' integer ')'
 *               | '(' integer ',' (integer (',' integer)* ','?)? ')'
 *               | '[' (integer (',' integer)* ','?)? ']'
 *   integer    := ('+' | '-')? digit+
 *
 * with spaces allowed between tokens. The whole chain is parsed first, so
 * that a syntax error is reported wherever it is, then each link is applied
 * in turn. The text between the brackets of an index goes to
 * lt_tensor_index() as it is. Tuples hold integers only, so nothing nests
 * and the parser never recurses; the chain has a bounded length. Copies
 * (contiguous(), clone(), a reshape() that cannot be a view) are refused
 * above a size, so that no input makes the viewer allocate gigabytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-expression.h"

/* The longest chain of calls and indexes an expression may have. */
#define MAX_LINKS 256
/* The most arguments one call takes (a shape has at most LT_MAX_DIMS). */
#define MAX_ARGS (LT_MAX_DIMS + 4)
/* The largest tensor a call may copy. */
#define MAX_COPY_ELEMENTS (G_GINT64_CONSTANT (1) << 24)
/* Longer expressions are cut short where error messages quote them. */
#define MAX_QUOTED_CHARS 80

typedef enum
{
  VALUE_INT,
  VALUE_TUPLE,
  VALUE_TENSOR,
} ValueKind;

typedef struct
{
  ValueKind kind;
  const char *keyword; /* into the expression, not terminated */
  gsize keyword_len;
  const char *start;
  guint n_ints;
  gint64 ints[LT_MAX_DIMS];
} Arg;

typedef struct _Method Method;

/* One parsed call, its arguments bound to the method's parameters. */
typedef struct
{
  const Method *method;
  LtTensor *base;
  const Arg *bound[4];
  Arg varargs;
} Call;

typedef LtTensor *(*ApplyFunc) (Call     *call,
                                LtTensor *self,
                                GError  **error);

/* A method of the grammar. With `varargs`, the one parameter is a list that
 * may be written as separate integers, `view(2, 8)`, or as one tuple,
 * `view((2, 8))`, as PyTorch's `*size` parameters can. */
struct _Method
{
  const char *name;
  const char *params[4];
  guint n_params;
  guint n_required;
  gboolean varargs;
  ApplyFunc apply;
};

typedef struct
{
  const char *text;
  const char *pos;
  GError **error;
} Parser;

/* Error messages quote the expression, cut short when it is long. */
static char *
quote_expression (const char *text)
{
  glong n_chars = g_utf8_strlen (text, -1);

  if (n_chars <= MAX_QUOTED_CHARS)
    return g_strdup (text);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (text, MAX_QUOTED_CHARS - 1)
                                          - text),
                          text);
}

static guint
column (Parser     *parser,
        const char *at)
{
  return (guint) g_utf8_pointer_to_offset (parser->text, at) + 1;
}

static void
skip_spaces (Parser *parser)
{
  while (*parser->pos == ' ' || *parser->pos == '\t' || *parser->pos == '\n'
         || *parser->pos == '\r')
    parser->pos++;
}

static gboolean
fail (Parser     *parser,
      const char *at,
      const char *expected)
{
  g_autofree char *quoted = quote_expression (parser->text);

  if (*at == '\0')
    g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                 _("expression '%s' ends at column %u; expected %s"),
                 quoted, column (parser, at), expected);
  else
    g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                 _("expression '%s': unexpected '%.*s' at column %u; expected %s"),
                 quoted, (int) (g_utf8_next_char (at) - at), at, column (parser, at), expected);
  return FALSE;
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gsize
name_length (const char *at)
{
  gsize n = 0;

  if (!is_name_start (at[0]))
    return 0;
  while (is_name_char (at[n]))
    n++;
  return n;
}

/* Whether the text at the cursor is the name `t` on its own. */
static gboolean
at_t (Parser *parser)
{
  return name_length (parser->pos) == 1 && parser->pos[0] == 't';
}

static gboolean
at_integer (Parser *parser)
{
  const char *p = parser->pos;

  if (*p == '+' || *p == '-')
    {
      p++;
      while (*p == ' ' || *p == '\t')
        p++;
    }
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
    {
      negative = *parser->pos++ == '-';
      skip_spaces (parser);
    }
  if (!g_ascii_isdigit (*parser->pos))
    return fail (parser, parser->pos, _("a digit"));

  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  while (g_ascii_isdigit (*parser->pos))
    {
      guint digit = (guint) (*parser->pos - '0');

      if (magnitude > (limit - digit) / 10)
        {
          g_autofree char *quoted = quote_expression (parser->text);

          g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                       _("expression '%s': the integer at column %u does not fit in 64 bits"),
                       quoted, column (parser, start));
          return FALSE;
        }
      magnitude = magnitude * 10 + digit;
      parser->pos++;
    }
  if (is_name_char (*parser->pos))
    return fail (parser, parser->pos, _("a digit, ',' or a closing bracket"));

  *out_value = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

/* `(2, 8)`, `[2, 8]`, `(2,)` and `()` are tuples; `(2)` is the integer 2, as
 * in Python. */
static gboolean
parse_tuple (Parser *parser,
             Arg    *arg)
{
  char close = *parser->pos == '(' ? ')' : ']';
  gboolean had_comma = FALSE;

  parser->pos++;
  skip_spaces (parser);
  arg->kind = VALUE_TUPLE;
  arg->n_ints = 0;

  while (*parser->pos != close)
    {
      const char *item_start = parser->pos;

      if (!at_integer (parser))
        return fail (parser, parser->pos,
                     arg->n_ints == 0 ? (close == ')' ? _("an integer or ')'")
                                                      : _("an integer or ']'"))
                                      : _("an integer"));
      if (arg->n_ints == LT_MAX_DIMS)
        {
          g_autofree char *quoted = quote_expression (parser->text);

          g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                       _("expression '%s': the tuple at column %u has more than %d values"),
                       quoted, column (parser, item_start), LT_MAX_DIMS);
          return FALSE;
        }
      if (!parse_integer (parser, &arg->ints[arg->n_ints++]))
        return FALSE;

      skip_spaces (parser);
      if (*parser->pos == ',')
        {
          had_comma = TRUE;
          parser->pos++;
          skip_spaces (parser);
        }
      else if (*parser->pos != close)
        return fail (parser, parser->pos, close == ')' ? _("',' or ')'") : _("',' or ']'"));
    }
  parser->pos++;

  if (close == ')' && arg->n_ints == 1 && !had_comma)
    arg->kind = VALUE_INT;
  return TRUE;
}

static gboolean
parse_value (Parser *parser,
             Arg    *arg)
{
  skip_spaces (parser);
  arg->start = parser->pos;

  if (at_integer (parser))
    {
      arg->kind = VALUE_INT;
      arg->n_ints = 1;
      return parse_integer (parser, &arg->ints[0]);
    }
  if (*parser->pos == '(' || *parser->pos == '[')
    return parse_tuple (parser, arg);
  if (at_t (parser))
    {
      arg->kind = VALUE_TENSOR;
      arg->n_ints = 0;
      parser->pos++;
      return TRUE;
    }
  return fail (parser, parser->pos, _("an integer, a tuple of integers or t"));
}

/* Parses what follows the '(' of a call, up to and including the ')'. */
static gboolean
parse_arguments (Parser *parser,
                 GArray *args)
{
  skip_spaces (parser);
  while (*parser->pos != ')')
    {
      Arg arg = { 0 };
      gsize n = name_length (parser->pos);

      if (args->len == MAX_ARGS)
        {
          g_autofree char *quoted = quote_expression (parser->text);

          g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                       _("expression '%s': more than %d arguments at column %u"),
                       quoted, MAX_ARGS, column (parser, parser->pos));
          return FALSE;
        }

      /* `name=` starts a keyword argument; `t` alone is a value. */
      if (n > 0)
        {
          const char *after = parser->pos + n;

          while (*after == ' ' || *after == '\t')
            after++;
          if (*after == '=' && after[1] != '=')
            {
              arg.keyword = parser->pos;
              arg.keyword_len = n;
              parser->pos = after + 1;
            }
        }

      if (!parse_value (parser, &arg))
        return FALSE;
      if (arg.keyword != NULL)
        arg.start = arg.keyword;
      g_array_append_val (args, arg);

      skip_spaces (parser);
      if (*parser->pos == ',')
        {
          parser->pos++;
          skip_spaces (parser);
        }
      else if (*parser->pos != ')')
        return fail (parser, parser->pos, _("',' or ')'"));
    }
  parser->pos++;
  return TRUE;
}

/* Errors about arguments read like the library's: "transpose(): ...". */
static gboolean
arg_int (Call   *call,
         guint   param,
         gint64  fallback,
         gint64 *out_value,
         GError **error)
{
  const Arg *arg = call->bound[param];

  if (arg == NULL)
    {
      *out_value = fallback;
      return TRUE;
    }
  if (arg->kind != VALUE_INT)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s(): argument '%s' must be an integer, not %s"),
                   call->method->name, call->method->params[param],
                   arg->kind == VALUE_TUPLE ? _("a tuple") : _("the tensor t"));
      return FALSE;
    }
  *out_value = arg->ints[0];
  return TRUE;
}

/* Dims are C ints in the library; larger values are out of range anyway. */
static gboolean
arg_dim (Call   *call,
         guint   param,
         int     fallback,
         int    *out_dim,
         GError **error)
{
  gint64 value;

  if (!arg_int (call, param, fallback, &value, error))
    return FALSE;
  if (value < G_MININT || value > G_MAXINT)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);

      g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                   _("%s(): dim %s is out of range"), call->method->name, text);
      return FALSE;
    }
  *out_dim = (int) value;
  return TRUE;
}

/* A list of integers; an integer alone counts as a list of one. */
static gboolean
arg_list (Call          *call,
          guint          param,
          const gint64 **out_values,
          guint         *out_n,
          GError       **error)
{
  const Arg *arg = call->bound[param];

  if (arg->kind == VALUE_TENSOR)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s(): argument '%s' must be integers, not the tensor t"),
                   call->method->name, call->method->params[param]);
      return FALSE;
    }
  *out_values = arg->ints;
  *out_n = arg->n_ints;
  return TRUE;
}

static gboolean
arg_dim_list (Call    *call,
              guint    param,
              int     *out_dims,
              guint   *out_n,
              GError **error)
{
  const gint64 *values;

  if (!arg_list (call, param, &values, out_n, error))
    return FALSE;
  for (guint i = 0; i < *out_n; i++)
    {
      if (values[i] < G_MININT || values[i] > G_MAXINT)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, values[i]);

          g_set_error (error, LT_ERROR, LT_ERROR_INDEX_OUT_OF_RANGE,
                       _("%s(): dim %s is out of range"), call->method->name, text);
          return FALSE;
        }
      out_dims[i] = (int) values[i];
    }
  return TRUE;
}

static gboolean
check_copy_size (const char *op,
                 LtTensor   *self,
                 GError    **error)
{
  gint64 numel = lt_tensor_get_numel (self);

  if (numel > MAX_COPY_ELEMENTS)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, numel);
      g_autofree char *limit = g_strdup_printf ("%" G_GINT64_FORMAT, MAX_COPY_ELEMENTS);

      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("%s: would copy %s elements; Tensor Viewer copies at most %s"),
                   op, count, limit);
      return FALSE;
    }
  return TRUE;
}

static LtTensor *
apply_t (Call     *call,
         LtTensor *self,
         GError  **error)
{
  return lt_tensor_t (self, error);
}

static LtTensor *
apply_transpose (Call     *call,
                 LtTensor *self,
                 GError  **error)
{
  int dim0, dim1;

  if (!arg_dim (call, 0, 0, &dim0, error) || !arg_dim (call, 1, 0, &dim1, error))
    return NULL;
  return lt_tensor_transpose (self, dim0, dim1, error);
}

static LtTensor *
apply_permute (Call     *call,
               LtTensor *self,
               GError  **error)
{
  int dims[LT_MAX_DIMS];
  guint n;

  if (!arg_dim_list (call, 0, dims, &n, error))
    return NULL;
  return lt_tensor_permute (self, dims, n, error);
}

static LtTensor *
apply_view (Call     *call,
            LtTensor *self,
            GError  **error)
{
  const gint64 *shape;
  guint n;

  if (!arg_list (call, 0, &shape, &n, error))
    return NULL;
  return lt_tensor_view (self, shape, n, error);
}

/* reshape() and flatten() copy when a view is impossible; that is refused
 * above MAX_COPY_ELEMENTS, with the library's reason for the view failing. */
static LtTensor *
reshape_checked (const char   *op,
                 LtTensor     *self,
                 const gint64 *shape,
                 guint         n,
                 GError      **error)
{
  g_autoptr (GError) view_error = NULL;
  g_autoptr (LtTensor) view = NULL;

  if (lt_tensor_get_numel (self) <= MAX_COPY_ELEMENTS)
    return lt_tensor_reshape (self, shape, n, error);

  view = lt_tensor_view (self, shape, n, &view_error);
  if (view != NULL)
    return g_steal_pointer (&view);
  if (!g_error_matches (view_error, LT_ERROR, LT_ERROR_NOT_VIEWABLE))
    {
      /* A bad shape: reshape() says so in its own words, without copying. */
      return lt_tensor_reshape (self, shape, n, error);
    }
  check_copy_size (op, self, error);
  return NULL;
}

static LtTensor *
apply_reshape (Call     *call,
               LtTensor *self,
               GError  **error)
{
  const gint64 *shape;
  guint n;

  if (!arg_list (call, 0, &shape, &n, error))
    return NULL;
  return reshape_checked ("reshape()", self, shape, n, error);
}

static LtTensor *
apply_expand (Call     *call,
              LtTensor *self,
              GError  **error)
{
  const gint64 *sizes;
  guint n;

  if (!arg_list (call, 0, &sizes, &n, error))
    return NULL;
  return lt_tensor_expand (self, sizes, n, error);
}

static LtTensor *
apply_expand_as (Call     *call,
                 LtTensor *self,
                 GError  **error)
{
  if (call->bound[0]->kind != VALUE_TENSOR)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("expand_as(): argument 'other' must be the tensor t"));
      return NULL;
    }
  return lt_tensor_expand_as (self, call->base, error);
}

static LtTensor *
apply_unfold (Call     *call,
              LtTensor *self,
              GError  **error)
{
  int dim;
  gint64 size, step;

  if (!arg_dim (call, 0, 0, &dim, error) || !arg_int (call, 1, 0, &size, error)
      || !arg_int (call, 2, 0, &step, error))
    return NULL;
  return lt_tensor_unfold (self, dim, size, step, error);
}

static LtTensor *
apply_diagonal (Call     *call,
                LtTensor *self,
                GError  **error)
{
  gint64 offset;
  int dim1, dim2;

  if (!arg_int (call, 0, 0, &offset, error) || !arg_dim (call, 1, 0, &dim1, error)
      || !arg_dim (call, 2, 1, &dim2, error))
    return NULL;
  return lt_tensor_diagonal (self, offset, dim1, dim2, error);
}

static gboolean
wrap_dim (int    dim,
          guint  ndim,
          guint *out_dim)
{
  int range = (int) MAX (ndim, 1);

  if (dim < -range || dim >= range)
    return FALSE;
  *out_dim = (guint) (dim < 0 ? dim + range : dim);
  return TRUE;
}

static LtTensor *
apply_flatten (Call     *call,
               LtTensor *self,
               GError  **error)
{
  int start_dim, end_dim;
  guint ndim = lt_tensor_get_dim (self);
  guint start, end;
  const gint64 *sizes = lt_tensor_get_sizes (self, &ndim);
  gint64 shape[LT_MAX_DIMS];
  guint n = 0;
  g_autoptr (LtTensor) view = NULL;

  if (!arg_dim (call, 0, 0, &start_dim, error) || !arg_dim (call, 1, -1, &end_dim, error))
    return NULL;

  /* Only a flatten that would copy a large tensor needs looking at first;
   * every other one is the library's to judge. */
  if (lt_tensor_get_numel (self) <= MAX_COPY_ELEMENTS || ndim == 0
      || !wrap_dim (start_dim, ndim, &start) || !wrap_dim (end_dim, ndim, &end) || start >= end)
    return lt_tensor_flatten (self, start_dim, end_dim, error);

  for (guint d = 0; d < start; d++)
    shape[n++] = sizes[d];
  shape[n] = 1;
  for (guint d = start; d <= end; d++)
    shape[n] *= sizes[d];
  n++;
  for (guint d = end + 1; d < ndim; d++)
    shape[n++] = sizes[d];

  view = lt_tensor_view (self, shape, n, NULL);
  if (view == NULL)
    {
      check_copy_size ("flatten()", self, error);
      return NULL;
    }
  return lt_tensor_flatten (self, start_dim, end_dim, error);
}

static LtTensor *
apply_unflatten (Call     *call,
                 LtTensor *self,
                 GError  **error)
{
  int dim;
  const gint64 *sizes;
  guint n;

  if (!arg_dim (call, 0, 0, &dim, error) || !arg_list (call, 1, &sizes, &n, error))
    return NULL;
  return lt_tensor_unflatten (self, dim, sizes, n, error);
}

static LtTensor *
apply_as_strided (Call     *call,
                  LtTensor *self,
                  GError  **error)
{
  const gint64 *sizes, *strides;
  guint n_sizes, n_strides;
  gint64 offset;

  if (!arg_list (call, 0, &sizes, &n_sizes, error)
      || !arg_list (call, 1, &strides, &n_strides, error)
      || !arg_int (call, 2, lt_tensor_get_storage_offset (self), &offset, error))
    return NULL;
  return lt_tensor_as_strided (self, sizes, n_sizes, strides, n_strides, offset, error);
}

static LtTensor *
apply_unsqueeze (Call     *call,
                 LtTensor *self,
                 GError  **error)
{
  int dim;

  if (!arg_dim (call, 0, 0, &dim, error))
    return NULL;
  return lt_tensor_unsqueeze (self, dim, error);
}

static LtTensor *
apply_squeeze (Call     *call,
               LtTensor *self,
               GError  **error)
{
  int dim;

  if (call->bound[0] == NULL)
    return lt_tensor_squeeze (self);
  if (!arg_dim (call, 0, 0, &dim, error))
    return NULL;
  return lt_tensor_squeeze_dim (self, dim, error);
}

static LtTensor *
apply_narrow (Call     *call,
              LtTensor *self,
              GError  **error)
{
  int dim;
  gint64 start, length;

  if (!arg_dim (call, 0, 0, &dim, error) || !arg_int (call, 1, 0, &start, error)
      || !arg_int (call, 2, 0, &length, error))
    return NULL;
  return lt_tensor_narrow (self, dim, start, length, error);
}

static LtTensor *
apply_select (Call     *call,
              LtTensor *self,
              GError  **error)
{
  int dim;
  gint64 index;

  if (!arg_dim (call, 0, 0, &dim, error) || !arg_int (call, 1, 0, &index, error))
    return NULL;
  return lt_tensor_select (self, dim, index, error);
}

static LtTensor *
apply_movedim (Call     *call,
               LtTensor *self,
               GError  **error)
{
  int source[LT_MAX_DIMS], destination[LT_MAX_DIMS];
  guint n_source, n_destination;

  if (!arg_dim_list (call, 0, source, &n_source, error)
      || !arg_dim_list (call, 1, destination, &n_destination, error))
    return NULL;
  return lt_tensor_movedim (self, source, n_source, destination, n_destination, error);
}

static LtTensor *
apply_flip (Call     *call,
            LtTensor *self,
            GError  **error)
{
  int dims[LT_MAX_DIMS];
  guint n;

  if (!arg_dim_list (call, 0, dims, &n, error))
    return NULL;
  return lt_tensor_flip (self, dims, n, error);
}

static LtTensor *
apply_contiguous (Call     *call,
                  LtTensor *self,
                  GError  **error)
{
  if (!lt_tensor_is_contiguous (self) && !check_copy_size ("contiguous()", self, error))
    return NULL;
  return lt_tensor_contiguous (self, error);
}

static LtTensor *
apply_clone (Call     *call,
             LtTensor *self,
             GError  **error)
{
  if (!check_copy_size ("clone()", self, error))
    return NULL;
  return lt_tensor_clone (self, error);
}

static LtTensor *
apply_view_as_real (Call     *call,
                    LtTensor *self,
                    GError  **error)
{
  return lt_tensor_view_as_real (self, error);
}

static LtTensor *
apply_view_as_complex (Call     *call,
                       LtTensor *self,
                       GError  **error)
{
  return lt_tensor_view_as_complex (self, error);
}

/* Sorted by name: the error for an unknown method lists them in this order.
 * Parameter names are PyTorch's. */
static const Method methods[] = {
  { "as_strided", { "size", "stride", "storage_offset" }, 3, 2, FALSE, apply_as_strided },
  { "clone", { NULL }, 0, 0, FALSE, apply_clone },
  { "contiguous", { NULL }, 0, 0, FALSE, apply_contiguous },
  { "diagonal", { "offset", "dim1", "dim2" }, 3, 0, FALSE, apply_diagonal },
  { "expand", { "size" }, 1, 0, TRUE, apply_expand },
  { "expand_as", { "other" }, 1, 1, FALSE, apply_expand_as },
  { "flatten", { "start_dim", "end_dim" }, 2, 0, FALSE, apply_flatten },
  { "flip", { "dims" }, 1, 0, TRUE, apply_flip },
  { "moveaxis", { "source", "destination" }, 2, 2, FALSE, apply_movedim },
  { "movedim", { "source", "destination" }, 2, 2, FALSE, apply_movedim },
  { "narrow", { "dim", "start", "length" }, 3, 3, FALSE, apply_narrow },
  { "permute", { "dims" }, 1, 0, TRUE, apply_permute },
  { "reshape", { "shape" }, 1, 0, TRUE, apply_reshape },
  { "select", { "dim", "index" }, 2, 2, FALSE, apply_select },
  { "squeeze", { "dim" }, 1, 0, FALSE, apply_squeeze },
  { "swapaxes", { "axis0", "axis1" }, 2, 2, FALSE, apply_transpose },
  { "swapdims", { "dim0", "dim1" }, 2, 2, FALSE, apply_transpose },
  { "t", { NULL }, 0, 0, FALSE, apply_t },
  { "transpose", { "dim0", "dim1" }, 2, 2, FALSE, apply_transpose },
  { "unflatten", { "dim", "sizes" }, 2, 2, FALSE, apply_unflatten },
  { "unfold", { "dimension", "size", "step" }, 3, 3, FALSE, apply_unfold },
  { "unsqueeze", { "dim" }, 1, 1, FALSE, apply_unsqueeze },
  { "view", { "size" }, 1, 0, TRUE, apply_view },
  { "view_as_complex", { NULL }, 0, 0, FALSE, apply_view_as_complex },
  { "view_as_real", { NULL }, 0, 0, FALSE, apply_view_as_real },
};

static const Method *
find_method (const char *name,
             gsize       length)
{
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (strlen (methods[i].name) == length && strncmp (methods[i].name, name, length) == 0)
      return &methods[i];
  return NULL;
}

static char *
method_signature (const Method *method)
{
  GString *text = g_string_new (method->name);

  g_string_append_c (text, '(');
  for (guint i = 0; i < method->n_params; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      if (method->varargs)
        g_string_append_c (text, '*');
      g_string_append (text, method->params[i]);
      if (i >= method->n_required && !method->varargs)
        g_string_append (text, "=…");
    }
  g_string_append_c (text, ')');
  return g_string_free (text, FALSE);
}

/* Matches the arguments to the parameters as Python would. */
static gboolean
bind_arguments (Call    *call,
                GArray  *args,
                GError **error)
{
  const Method *method = call->method;
  guint n_positional = 0;
  gboolean all_ints = TRUE;

  for (guint i = 0; i < args->len; i++)
    {
      const Arg *arg = &g_array_index (args, Arg, i);

      if (arg->keyword != NULL)
        continue;
      if (n_positional < i)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s(): an argument without a name follows a keyword argument; put the "
                         "keyword arguments last"),
                       method->name);
          return FALSE;
        }
      n_positional++;
      all_ints &= arg->kind == VALUE_INT;
    }

  if (method->varargs && n_positional > 0)
    {
      const Arg *first = &g_array_index (args, Arg, 0);

      if (n_positional == 1 && first->kind != VALUE_INT)
        call->bound[0] = first;
      else if (all_ints && n_positional <= LT_MAX_DIMS)
        {
          call->varargs.kind = VALUE_TUPLE;
          call->varargs.start = first->start;
          call->varargs.n_ints = n_positional;
          for (guint i = 0; i < n_positional; i++)
            call->varargs.ints[i] = g_array_index (args, Arg, i).ints[0];
          call->bound[0] = &call->varargs;
        }
      else
        {
          g_autofree char *signature = method_signature (method);

          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s(): expects integers or one tuple of integers, as in %s"),
                       method->name, signature);
          return FALSE;
        }
    }
  else if (n_positional > method->n_params)
    {
      g_autofree char *signature = method_signature (method);

      if (method->n_params == 0)
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s(): takes no arguments, but %u were given"), method->name,
                     n_positional);
      else
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s(): takes at most %u arguments, but %u were given; it is %s"),
                     method->name, method->n_params, n_positional, signature);
      return FALSE;
    }
  else
    {
      for (guint i = 0; i < n_positional; i++)
        call->bound[i] = &g_array_index (args, Arg, i);
    }

  for (guint i = n_positional; i < args->len; i++)
    {
      const Arg *arg = &g_array_index (args, Arg, i);
      guint p;

      for (p = 0; p < method->n_params; p++)
        if (strlen (method->params[p]) == arg->keyword_len
            && strncmp (method->params[p], arg->keyword, arg->keyword_len) == 0)
          break;

      if (p == method->n_params)
        {
          g_autofree char *signature = method_signature (method);

          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s(): has no argument named '%.*s'; it is %s"),
                       method->name, (int) arg->keyword_len, arg->keyword, signature);
          return FALSE;
        }
      if (call->bound[p] != NULL)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s(): argument '%s' is given twice"), method->name,
                       method->params[p]);
          return FALSE;
        }
      call->bound[p] = arg;
    }

  for (guint p = 0; p < method->n_required; p++)
    if (call->bound[p] == NULL)
      {
        g_autofree char *signature = method_signature (method);

        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s(): argument '%s' is missing; it is %s"), method->name,
                     method->params[p], signature);
        return FALSE;
      }

  /* A varargs list given by keyword, or not at all, is a list all the same:
   * view() is view(()). */
  if (method->varargs && call->bound[0] == NULL)
    {
      call->varargs.kind = VALUE_TUPLE;
      call->varargs.n_ints = 0;
      call->bound[0] = &call->varargs;
    }
  for (guint p = 0; p < method->n_params; p++)
    if (call->bound[p] != NULL && call->bound[p]->kind == VALUE_TENSOR
        && call->method->apply != apply_expand_as)
      {
        g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                     _("%s(): argument '%s' cannot be the tensor t"), method->name,
                     method->params[p]);
        return FALSE;
      }

  return TRUE;
}

static char *
known_methods (void)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, methods[i].name);
    }
  return g_string_free (text, FALSE);
}

/* Parses `.name(arguments)` into @call and @args; the cursor is on the name.
 * Only syntax errors are set here. */
static gboolean
parse_call (Parser *parser,
            Call   *call,
            GArray *args)
{
  const char *name = parser->pos;
  gsize n = name_length (name);

  if (n == 0)
    return fail (parser, parser->pos, _("a method name after '.'"));

  call->method = find_method (name, n);
  if (call->method == NULL)
    {
      g_autofree char *quoted = quote_expression (parser->text);
      g_autofree char *known = known_methods ();

      g_set_error (parser->error, LT_ERROR, LT_ERROR_PARSE,
                   _("expression '%s': unknown method '%.*s' at column %u; the known methods "
                     "are %s"),
                   quoted, (int) n, name, column (parser, name), known);
      return FALSE;
    }
  parser->pos += n;
  skip_spaces (parser);
  if (*parser->pos != '(')
    {
      g_autofree char *expected = g_strdup_printf (_("'(' after '%s'"), call->method->name);

      return fail (parser, parser->pos, expected);
    }
  parser->pos++;

  return parse_arguments (parser, args);
}

/* Finds the text of `[index]`; the cursor is on the '['. Only syntax errors
 * are set here: the index itself is the library's to read. */
static char *
parse_index (Parser *parser)
{
  const char *open = parser->pos;
  const char *close = open + 1;

  /* The library's messages quote the index: keep them to ASCII. */
  while (*close != ']' && *close != '\0')
    {
      if ((guchar) *close >= 0x80 || (g_ascii_iscntrl (*close) && *close != '\t'))
        {
          fail (parser, close, _("an index: integers, ':', ',', None or ..."));
          return NULL;
        }
      close++;
    }
  if (*close == '\0')
    {
      g_autofree char *expected = g_strdup_printf (_("']' to close the '[' at column %u"),
                                                   column (parser, open));

      fail (parser, close, expected);
      return NULL;
    }

  parser->pos = close + 1;
  return g_strndup (open, (gsize) (close - open + 1));
}

/* One link of the chain, parsed: an index or a call. */
typedef struct
{
  const char *end; /* the expression up to here names the link in errors */
  char *index;
  const Method *method;
  GArray *args;
} Link;

static void
link_clear (gpointer data)
{
  Link *link = data;

  g_free (link->index);
  g_clear_pointer (&link->args, g_array_unref);
}

/* Parses one link of the chain; the cursor is on its '[' or '.'. */
static gboolean
parse_link (Parser *parser,
            Link   *link)
{
  if (*parser->pos == '[')
    {
      link->index = parse_index (parser);
      if (link->index == NULL)
        return FALSE;
    }
  else if (*parser->pos == '.')
    {
      Call call = { 0 };

      parser->pos++;
      skip_spaces (parser);
      link->args = g_array_new (FALSE, TRUE, sizeof (Arg));
      if (!parse_call (parser, &call, link->args))
        return FALSE;
      link->method = call.method;
    }
  else
    return fail (parser, parser->pos, _("'.', '[' or the end of the expression"));

  link->end = parser->pos;
  return TRUE;
}

/* Whether a dim of @tensor steps backwards; with @any_size, dims of one
 * element count too (as_strided() refuses any negative stride). */
static gboolean
has_negative_stride (LtTensor *tensor,
                     gboolean  any_size)
{
  guint ndim;
  const gint64 *sizes = lt_tensor_get_sizes (tensor, &ndim);
  const gint64 *strides = lt_tensor_get_strides (tensor, &ndim);

  for (guint d = 0; d < ndim; d++)
    if (strides[d] < 0 && (any_size || sizes[d] > 1))
      return TRUE;
  return FALSE;
}

/* Whether a slice of @index ("[1:, ::-2]") has a negative step: its third
 * part, after the second colon, starts with a minus. Brackets inside nest
 * lists (advanced indexing), whose commas and colons are not the slice's. */
static gboolean
index_has_negative_step (const char *index)
{
  guint depth = 0, colons = 0;

  g_assert (index[0] == '[');
  for (const char *c = index + 1; *c != '\0' && !(depth == 0 && *c == ']'); c++)
    {
      if (*c == '[' || *c == '(')
        depth++;
      else if ((*c == ']' || *c == ')') && depth > 0)
        depth--;
      else if (depth == 0 && *c == ',')
        colons = 0;
      else if (depth == 0 && *c == ':')
        colons++;
      else if (depth == 0 && colons == 2 && *c == '-')
        return TRUE;
      else if (depth == 0 && colons == 2 && !g_ascii_isspace (*c))
        colons = 3;
    }
  return FALSE;
}

/* PyTorch's refusal of what @link made: a negative step in an index, a
 * negative stride from as_strided() (PyTorch's own messages), anything
 * else with a negative stride. */
static void
set_pytorch_error (const Link  *link,
                   LtTensor    *result,
                   GError     **error)
{
  const char *hint = _("PyTorch has no negative strides; turn off “PyTorch only” to see the "
                       "view as libtensor and NumPy make it");

  if (link->index != NULL)
    g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                 _("step must be greater than zero (%s)"), hint);
  else if (strcmp (link->method->name, "as_strided") == 0)
    {
      guint ndim;
      const gint64 *strides = lt_tensor_get_strides (result, &ndim);
      g_autoptr (GString) list = g_string_new ("[");

      for (guint d = 0; d < ndim; d++)
        g_string_append_printf (list, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", strides[d]);
      g_string_append_c (list, ']');
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("as_strided: Negative strides are not supported at the moment, got "
                     "strides: %s (%s)"),
                   list->str, hint);
    }
  else
    g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                 _("the result has a negative stride (%s)"), hint);
}

/* Applies one link to @tensor. Its errors (its arguments, the library's)
 * are prefixed with the expression up to that link. */
static LtTensor *
apply_link (const Link              *link,
            const char              *start,
            LtTensor                *base,
            LtTensor                *tensor,
            LtViewerExpressionFlags  flags,
            GError                 **error)
{
  g_autoptr (GError) call_error = NULL;
  LtTensor *next = NULL;

  if (link->index != NULL)
    next = lt_tensor_index (tensor, link->index, &call_error);
  else
    {
      Call call = { 0 };

      call.method = link->method;
      call.base = base;
      if (bind_arguments (&call, link->args, &call_error))
        next = call.method->apply (&call, tensor, &call_error);
    }

  if (next != NULL && (flags & LT_VIEWER_EXPRESSION_PYTORCH_ONLY) != 0)
    {
      if (link->method != NULL && strcmp (link->method->name, "flip") == 0)
        {
          /* PyTorch's flip() copies. */
          LtTensor *copy = lt_tensor_clone (next, &call_error);

          g_object_unref (next);
          next = copy;
        }
      else if ((link->index != NULL && index_has_negative_step (link->index))
               || (link->method != NULL && strcmp (link->method->name, "as_strided") == 0
                   && has_negative_stride (next, TRUE))
               || (has_negative_stride (next, FALSE) && !has_negative_stride (tensor, FALSE)))
        {
          set_pytorch_error (link, next, &call_error);
          g_clear_object (&next);
        }
    }

  if (next == NULL)
    g_propagate_prefixed_error (error, g_steal_pointer (&call_error), "%.*s: ",
                                (int) (link->end - start), start);
  return next;
}

/**
 * lt_viewer_expression_evaluate:
 * @base: the tensor `t`
 * @expression: the expression, such as `t.t()[1:].contiguous().view(-1)`
 * @error: return location for a #GError
 *
 * Evaluates @expression on @base. Syntax errors and unknown methods are
 * %LT_ERROR_PARSE and name the column; a failing call keeps the library's
 * error code and message, prefixed with the expression up to that call:
 * `t.view(2, 8): view(2, 8): the tensor's sizes ...`.
 *
 * Returns: (transfer full): the resulting tensor, or %NULL with @error set
 */
LtTensor *
lt_viewer_expression_evaluate (LtTensor   *base,
                               const char *expression,
                               GError    **error)
{
  return lt_viewer_expression_evaluate_with_flags (base, expression,
                                                   LT_VIEWER_EXPRESSION_DEFAULT, error);
}

/**
 * lt_viewer_expression_evaluate_with_flags:
 * @base: the tensor `t`
 * @expression: the expression
 * @flags: how far to follow libtensor where PyTorch differs
 * @error: return location for a #GError
 *
 * Like lt_viewer_expression_evaluate(); with
 * %LT_VIEWER_EXPRESSION_PYTORCH_ONLY, what PyTorch refuses (a negative step
 * or stride) is an error with PyTorch's message, and flip() copies.
 *
 * Returns: (transfer full): the resulting tensor, or %NULL with @error set
 */
LtTensor *
lt_viewer_expression_evaluate_with_flags (LtTensor                *base,
                                          const char              *expression,
                                          LtViewerExpressionFlags  flags,
                                          GError                 **error)
{
  g_autoptr (LtTensor) tensor = NULL;
  g_autoptr (GArray) links = NULL;
  const char *invalid;
  const char *start;
  Parser parser = { expression, expression, error };

  g_return_val_if_fail (LT_IS_TENSOR (base), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_utf8_validate (expression, -1, &invalid))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
                   _("the expression is not valid UTF-8 (at byte %u)"),
                   (guint) (invalid - expression) + 1);
      return NULL;
    }

  skip_spaces (&parser);
  start = parser.pos;
  if (!at_t (&parser))
    {
      fail (&parser, parser.pos, _("the tensor t, as in t.t() or t[1:]"));
      return NULL;
    }
  parser.pos++;
  /* The whole expression is parsed before anything is evaluated, so that
   * a syntax error is reported wherever it is. */
  links = g_array_new (FALSE, TRUE, sizeof (Link));
  g_array_set_clear_func (links, link_clear);
  for (;;)
    {
      Link link = { 0 };

      skip_spaces (&parser);
      if (*parser.pos == '\0')
        break;

      if (links->len == MAX_LINKS)
        {
          g_autofree char *quoted = quote_expression (expression);

          g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
                       _("expression '%s' chains more than %d calls"), quoted, MAX_LINKS);
          return NULL;
        }

      if (!parse_link (&parser, &link))
        {
          link_clear (&link);
          return NULL;
        }
      g_array_append_val (links, link);
    }

  tensor = g_object_ref (base);
  for (guint i = 0; i < links->len; i++)
    {
      LtTensor *next = apply_link (&g_array_index (links, Link, i), start, base, tensor, flags,
                                   error);

      if (next == NULL)
        return NULL;
      g_object_unref (tensor);
      tensor = next;
    }

  return g_steal_pointer (&tensor);
}
