/* test-viewer-expression.c: the view expressions Tensor Viewer evaluates
 *
 * Expected sizes, strides and offsets are PyTorch's for the same calls.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer-test"

#include "../lt-test-utils.h"

#include "lt-viewer-expression.h"

#define POINTS "[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]"

static LtTensor *
new_literal (const char *literal)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal (literal, &error);

  g_assert_no_error (error);
  return tensor;
}

/* A base tensor by letter: P the seed's points (3, 2); A arange(24) viewed
 * as (2, 3, 4); C the complex (2,) [1+2j, 3-1j]. */
static LtTensor *
new_base (char which)
{
  switch (which)
    {
    case 'P':
      return new_literal (POINTS);
    case 'A':
      return lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 3, 4);
    case 'C':
      return new_literal ("[1+2j, 3-1j]");
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  char base;
  const char *expression;
  guint ndim;
  gint64 sizes[4];
  gint64 strides[4];
  gint64 offset;
  gboolean shares;
} Case;

static const Case cases[] = {
  /* Every method of the header's list, on the points tensor. */
  { 'P', "t", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t[1]", 1, { 2 }, { 1 }, 2, TRUE },
  { 'P', "t[1:, ::2]", 2, { 2, 1 }, { 2, 2 }, 2, TRUE },
  { 'P', "t[None]", 3, { 1, 3, 2 }, { 6, 2, 1 }, 0, TRUE },
  { 'P', "t[..., 0]", 1, { 3 }, { 2 }, 0, TRUE },
  { 'P', "t.t()", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.transpose(0, 1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.view(2, 3)", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.view((2, 3))", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.view([2, 3])", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.view(-1)", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.view(size=(6,))", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.reshape(6)", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.reshape(shape=(2, -1))", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.expand(2, 3, 2)", 3, { 2, 3, 2 }, { 0, 2, 1 }, 0, TRUE },
  { 'P', "t[0].expand(3, 2)", 2, { 3, 2 }, { 0, 1 }, 0, TRUE },
  { 'P', "t.unfold(0, 2, 1)", 3, { 2, 2, 2 }, { 2, 1, 2 }, 0, TRUE },
  { 'P', "t.diagonal()", 1, { 2 }, { 3 }, 0, TRUE },
  { 'P', "t.diagonal(1, 0, 1)", 1, { 1 }, { 3 }, 1, TRUE },
  { 'P', "t.diagonal(offset=-1)", 1, { 2 }, { 3 }, 2, TRUE },
  { 'P', "t.flatten()", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.as_strided((2, 2), (1, 2), 1)", 2, { 2, 2 }, { 1, 2 }, 1, TRUE },
  /* Without an offset, as_strided() keeps the tensor's own, as PyTorch. */
  { 'P', "t[1].as_strided((2,), (2,))", 1, { 2 }, { 2 }, 2, TRUE },
  { 'P', "t.as_strided(size=(3,), stride=(2,), storage_offset=1)", 1, { 3 }, { 2 }, 1, TRUE },
  { 'P', "t.unsqueeze(0)", 3, { 1, 3, 2 }, { 6, 2, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(1)", 3, { 3, 1, 2 }, { 2, 2, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(dim=-1)", 3, { 3, 2, 1 }, { 2, 1, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(0).squeeze()", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(1).squeeze(1)", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(1).squeeze(0)", 3, { 3, 1, 2 }, { 2, 2, 1 }, 0, TRUE },
  { 'P', "t.unsqueeze(1).squeeze(dim=1)", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t.narrow(0, 1, 2)", 2, { 2, 2 }, { 2, 1 }, 2, TRUE },
  { 'P', "t.select(0, 1)", 1, { 2 }, { 1 }, 2, TRUE },
  { 'P', "t.select(1, -1)", 1, { 3 }, { 2 }, 1, TRUE },
  { 'P', "t.movedim(0, -1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.flip(0)", 2, { 3, 2 }, { -2, 1 }, 4, TRUE },
  { 'P', "t.flatten().unflatten(0, (2, 3))", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.unflatten(0, (3, 1))", 3, { 3, 1, 2 }, { 2, 2, 1 }, 0, TRUE },
  { 'P', "t.contiguous()", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t.t().contiguous()", 2, { 2, 3 }, { 3, 1 }, 0, FALSE },
  { 'P', "t.clone()", 2, { 3, 2 }, { 2, 1 }, 0, FALSE },
  { 'P', "t.expand_as(t)", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'P', "t[0:1].expand_as(t)", 2, { 3, 2 }, { 0, 1 }, 0, TRUE },
  { 'P', "t.view_as_complex()", 1, { 3 }, { 1 }, 0, TRUE },
  { 'P', "t.view_as_complex().view_as_real()", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
  { 'C', "t.view_as_real()", 2, { 2, 2 }, { 2, 1 }, 0, TRUE },
  /* Aliases PyTorch has. */
  { 'P', "t.swapaxes(0, 1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.swapdims(0, 1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.moveaxis(1, 0)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  /* Keyword arguments. */
  { 'P', "t.transpose(dim0=0, dim1=1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.transpose(0, dim1=1)", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.diagonal(offset=0, dim1=1, dim2=0)", 1, { 2 }, { 3 }, 0, TRUE },
  { 'P', "t.diagonal(offset=1, dim1=1, dim2=0)", 1, { 2 }, { 3 }, 2, TRUE },
  { 'P', "t.diagonal(dim2=0, dim1=1, offset=1)", 1, { 2 }, { 3 }, 2, TRUE },
  { 'P', "t.flatten(start_dim=0, end_dim=1)", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.unfold(dimension=0, size=2, step=1)", 3, { 2, 2, 2 }, { 2, 1, 2 }, 0, TRUE },
  { 'P', "t.permute(dims=(1, 0))", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  /* Three dims. */
  { 'A', "t.permute(2, 0, 1)", 3, { 4, 2, 3 }, { 1, 12, 4 }, 0, TRUE },
  { 'A', "t.permute((2, 0, 1))", 3, { 4, 2, 3 }, { 1, 12, 4 }, 0, TRUE },
  { 'A', "t.transpose(0, 2)", 3, { 4, 3, 2 }, { 1, 4, 12 }, 0, TRUE },
  { 'A', "t.flatten(1)", 2, { 2, 12 }, { 12, 1 }, 0, TRUE },
  { 'A', "t.flatten(start_dim=1)", 2, { 2, 12 }, { 12, 1 }, 0, TRUE },
  { 'A', "t.flatten(0, 1)", 2, { 6, 4 }, { 4, 1 }, 0, TRUE },
  { 'A', "t.movedim(0, -1)", 3, { 3, 4, 2 }, { 4, 1, 12 }, 0, TRUE },
  { 'A', "t.movedim((0, 1), (1, 2))", 3, { 4, 2, 3 }, { 1, 12, 4 }, 0, TRUE },
  { 'A', "t.diagonal(0, 1, 2)", 2, { 2, 3 }, { 12, 5 }, 0, TRUE },
  { 'A', "t.flip(0, 2)", 3, { 2, 3, 4 }, { -12, 4, -1 }, 15, TRUE },
  { 'A', "t.flip((0, 2))", 3, { 2, 3, 4 }, { -12, 4, -1 }, 15, TRUE },
  { 'A', "t.unflatten(2, (2, 2))", 4, { 2, 3, 2, 2 }, { 12, 4, 2, 1 }, 0, TRUE },
  { 'A', "t.view(6, 4)", 2, { 6, 4 }, { 4, 1 }, 0, TRUE },
  { 'A', "t.transpose(0, 1).reshape(6, 4)", 2, { 6, 4 }, { 4, 1 }, 0, FALSE },
  { 'A', "t.unfold(2, 2, 2)", 4, { 2, 3, 2, 2 }, { 12, 4, 2, 1 }, 0, TRUE },
  { 'A', "t.narrow(2, 1, 2)", 3, { 2, 3, 2 }, { 12, 4, 1 }, 1, TRUE },
  { 'A', "t[1, :, ::2]", 2, { 3, 2 }, { 4, 2 }, 12, TRUE },
  { 'A', "t.expand(2, 2, 3, 4)", 4, { 2, 2, 3, 4 }, { 0, 12, 4, 1 }, 0, TRUE },
  { 'A', "t.transpose(0, 2).squeeze()", 3, { 4, 3, 2 }, { 1, 4, 12 }, 0, TRUE },
  /* Chains, and the spacing and trailing commas Python allows. */
  { 'P', "t.t()[1:].contiguous().view(-1)", 1, { 3 }, { 1 }, 0, FALSE },
  { 'P', "t.t()[1]", 1, { 3 }, { 2 }, 1, TRUE },
  { 'P', "t[1][0]", 0, { 0 }, { 0 }, 2, TRUE },
  { 'P', "  t . t ( ) ", 2, { 2, 3 }, { 1, 2 }, 0, TRUE },
  { 'P', "t.view(2, 3,)", 2, { 2, 3 }, { 3, 1 }, 0, TRUE },
  { 'P', "t.view((6))", 1, { 6 }, { 1 }, 0, TRUE },
  { 'P', "t.select(+0, - 1)", 1, { 2 }, { 1 }, 4, TRUE },
  { 'P', "t.transpose(0, 1).transpose(0, 1).t().t()", 2, { 3, 2 }, { 2, 1 }, 0, TRUE },
};

static void
test_methods (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) base = new_base (c->base);
      g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (base, c->expression, &error);
      g_autofree char *location = g_strdup_printf ("expression '%s'", c->expression);

      g_test_message ("%s", location);
      g_assert_no_error (error);
      g_assert_nonnull (result);
      lt_test_assert_array (location, "sizes", lt_tensor_get_sizes (result, &(guint) { 0 }),
                            lt_tensor_get_dim (result), c->sizes, c->ndim);
      lt_test_assert_array (location, "strides", lt_tensor_get_strides (result, &(guint) { 0 }),
                            lt_tensor_get_dim (result), c->strides, c->ndim);
      g_assert_cmpint (lt_tensor_get_storage_offset (result), ==, c->offset);
      g_assert_cmpint (lt_tensor_shares_storage (result, base), ==, c->shares);
    }
}

static void
test_values (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) second = lt_viewer_expression_evaluate (points, "t[1]", &error);
  g_autoptr (LtTensor) transposed = lt_viewer_expression_evaluate (points, "t.t()", &error);
  g_autoptr (LtTensor) copy = lt_viewer_expression_evaluate (points, "t.t().contiguous()", &error);
  g_autoptr (LtTensor) chain = lt_viewer_expression_evaluate (points,
                                                              "t.t()[1:].contiguous().view(-1)",
                                                              &error);

  g_assert_no_error (error);
  lt_assert_values (second, 5.0, 3.0);
  lt_assert_storage_indices (second, 2, 3);
  lt_assert_values (transposed, 4.0, 5.0, 2.0, 1.0, 3.0, 1.0);
  lt_assert_storage_indices (transposed, 0, 2, 4, 1, 3, 5);
  lt_assert_values (copy, 4.0, 5.0, 2.0, 1.0, 3.0, 1.0);
  lt_assert_storage_indices (copy, 0, 1, 2, 3, 4, 5);
  lt_assert_values (chain, 1.0, 3.0, 1.0);
}

typedef struct
{
  const char *expression;
  guint column;
  const char *expected; /* part of the message */
} SyntaxCase;

static void
test_syntax_errors (void)
{
  static const SyntaxCase syntax_cases[] = {
    { "", 1, "expected the tensor t" },
    { "   ", 4, "expected the tensor t" },
    { "x", 1, "unexpected 'x'" },
    { "tt", 1, "expected the tensor t" },
    { "t.", 3, "expected a method name after '.'" },
    { "t.t", 4, "expected '(' after 't'" },
    { "t.view(2, 8", 12, "expected ',' or ')'" },
    { "t.view(2 8)", 10, "unexpected '8'" },
    { "t.view(2,,3)", 10, "expected an integer, a tuple of integers or t" },
    { "t.t() x", 7, "expected '.', '[' or the end of the expression" },
    { "t[1", 4, "expected ']' to close the '[' at column 2" },
    { "t.view((2, 3)", 14, "expected ',' or ')'" },
    { "t.view((2, x))", 12, "expected an integer" },
    { "t.view(2x)", 9, "unexpected 'x'" },
    { "t.view(99999999999999999999)", 8, "does not fit in 64 bits" },
    { "t.view(-)", 8, "unexpected '-'" },
    { "t.view(None)", 8, "unexpected 'N'" },
    { "t[é]", 3, "unexpected 'é'" },
    { "t.view(2)é", 10, "unexpected 'é'" },
  };

  g_autoptr (LtTensor) points = new_base ('P');

  for (guint i = 0; i < G_N_ELEMENTS (syntax_cases); i++)
    {
      const SyntaxCase *c = &syntax_cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (points, c->expression, &error);
      g_autofree char *column = g_strdup_printf ("column %u", c->column);

      g_test_message ("expression '%s': %s", c->expression,
                      error != NULL ? error->message : "(no error)");
      g_assert_null (result);
      g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, column));
      g_assert_nonnull (strstr (error->message, c->expected));
      g_assert_true (g_str_has_prefix (error->message, "expression '"));
    }
}

static void
test_syntax_error_message (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (points, "t.view(2, 8", &error);

  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==,
                   "expression 't.view(2, 8' ends at column 12; expected ',' or ')'");
}

static void
test_unknown_method (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (points, "t.t().veiw(2, 3)", &error);

  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==,
                   "expression 't.t().veiw(2, 3)': unknown method 'veiw' at column 7; the known "
                   "methods are as_strided, clone, contiguous, diagonal, expand, expand_as, "
                   "flatten, flip, moveaxis, movedim, narrow, permute, reshape, select, squeeze, "
                   "swapaxes, swapdims, t, transpose, unflatten, unfold, unsqueeze, view, "
                   "view_as_complex, view_as_real");
}

/* The brief's example: the library's error, prefixed with the call. */
static void
test_library_error_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) direct_error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (points, "t.view(2, 8)", &error);
  g_autoptr (LtTensor) direct = lt_tensor_view (points, I64S (2, 8), 2, &direct_error);
  g_autofree char *expected = NULL;

  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH);
  g_assert_cmpstr (error->message, ==,
                   "t.view(2, 8): view(): shape (2, 8) does not fit a tensor of 6 elements; the "
                   "sizes must multiply to 6");
  expected = g_strconcat ("t.view(2, 8): ", direct_error->message, NULL);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_library_error_not_viewable (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2, 2, 3);
  g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (x, "t.transpose(1, 0).view(4, 2, 3)",
                                                               &error);

  g_assert_null (result);
  g_assert_error (error, LT_ERROR, LT_ERROR_NOT_VIEWABLE);
  g_assert_cmpstr (error->message, ==,
                   "t.transpose(1, 0).view(4, 2, 3): view(4, 2, 3): the tensor's sizes "
                   "(2, 2, 2, 3) and strides (6, 12, 3, 1) cannot be viewed as (4, 2, 3) "
                   "without copying, because dims 0 and 1 (strides 6 and 12) are not "
                   "contiguous with each other; use reshape() or contiguous().view()");
}

typedef struct
{
  const char *expression;
  int code;
  const char *prefix;
} CallCase;

/* Errors of a call keep their code, and say which call failed. */
static void
test_call_errors (void)
{
  static const CallCase call_cases[] = {
    { "t.t().view(-1)", LT_ERROR_NOT_VIEWABLE, "t.t().view(-1): view(6): " },
    { "t.transpose(0, 5)", LT_ERROR_INDEX_OUT_OF_RANGE, "t.transpose(0, 5): transpose(): " },
    { "t.transpose(0, 99999999999)", LT_ERROR_INDEX_OUT_OF_RANGE,
      "t.transpose(0, 99999999999): transpose(): dim 99999999999 is out of range" },
    { "t[5]", LT_ERROR_INDEX_OUT_OF_RANGE, "t[5]: index expression '[5]'" },
    { "t[1:x]", LT_ERROR_PARSE, "t[1:x]: index expression '[1:x]'" },
    { "t[::0]", LT_ERROR_INVALID_ARGUMENT, "t[::0]: index expression '[::0]'" },
    { "t.t()[7]", LT_ERROR_INDEX_OUT_OF_RANGE, "t.t()[7]: " },
    { "t.as_strided((2, 2), (3, 3), 1)", LT_ERROR_OUT_OF_BOUNDS,
      "t.as_strided((2, 2), (3, 3), 1): as_strided(): " },
    { "t.as_strided((2,), (1,), -1)", LT_ERROR_OUT_OF_BOUNDS, "t.as_strided((2,), (1,), -1): " },
    { "t.expand(4, 4)", LT_ERROR_SHAPE_MISMATCH, "t.expand(4, 4): expand(): " },
    { "t.permute(0, 0)", LT_ERROR_INVALID_ARGUMENT, "t.permute(0, 0): permute(): " },
    { "t.view_as_real()", LT_ERROR_DTYPE, "t.view_as_real(): view_as_real(): " },
    { "t.t().view_as_complex()", LT_ERROR_INVALID_ARGUMENT, "t.t().view_as_complex(): " },
    { "t.unfold(0, 5, 1)", LT_ERROR_INVALID_ARGUMENT, "t.unfold(0, 5, 1): unfold(): " },
    { "t.diagonal(0, 0, 0)", LT_ERROR_INVALID_ARGUMENT, "t.diagonal(0, 0, 0): diagonal(): " },
    { "t.unflatten(0, (2, 2))", LT_ERROR_SHAPE_MISMATCH, "t.unflatten(0, (2, 2)): " },
    { "t.narrow(0, 2, 2)", LT_ERROR_INDEX_OUT_OF_RANGE, "t.narrow(0, 2, 2): " },
    { "t.flatten(1, 0)", LT_ERROR_INVALID_ARGUMENT, "t.flatten(1, 0): flatten(): " },
    { "t.unsqueeze(0).t()", LT_ERROR_INVALID_ARGUMENT, "t.unsqueeze(0).t(): t(): " },
    /* Arguments that do not fit the method, in the library's manner. */
    { "t.t(1)", LT_ERROR_INVALID_ARGUMENT, "t.t(1): t(): takes no arguments, but 1 were given" },
    { "t.transpose(0)", LT_ERROR_INVALID_ARGUMENT,
      "t.transpose(0): transpose(): argument 'dim1' is missing; it is transpose(dim0, dim1)" },
    { "t.transpose(0, 1, 2)", LT_ERROR_INVALID_ARGUMENT, "t.transpose(0, 1, 2): transpose(): " },
    { "t.diagonal(foo=1)", LT_ERROR_INVALID_ARGUMENT,
      "t.diagonal(foo=1): diagonal(): has no argument named 'foo'" },
    { "t.diagonal(offset=1, offset=2)", LT_ERROR_INVALID_ARGUMENT,
      "t.diagonal(offset=1, offset=2): diagonal(): argument 'offset' is given twice" },
    { "t.diagonal(offset=1, 0)", LT_ERROR_INVALID_ARGUMENT, "t.diagonal(offset=1, 0): " },
    { "t.view(2, (3,))", LT_ERROR_INVALID_ARGUMENT, "t.view(2, (3,)): view(): " },
    { "t.transpose((0, 1), 1)", LT_ERROR_INVALID_ARGUMENT,
      "t.transpose((0, 1), 1): transpose(): argument 'dim0' must be an integer, not a tuple" },
    { "t.expand_as(1)", LT_ERROR_INVALID_ARGUMENT, "t.expand_as(1): expand_as(): " },
    { "t.view(t)", LT_ERROR_INVALID_ARGUMENT, "t.view(t): view(): " },
    /* Copies are refused above a size, before any memory is taken. */
    { "t.expand(100000, 1000, 3, 2).contiguous()", LT_ERROR_OUT_OF_MEMORY,
      "t.expand(100000, 1000, 3, 2).contiguous(): contiguous(): would copy 600000000 elements" },
    { "t.expand(100000, 1000, 3, 2).clone()", LT_ERROR_OUT_OF_MEMORY,
      "t.expand(100000, 1000, 3, 2).clone(): clone(): " },
    { "t.expand(100000, 1000, 3, 2).reshape(-1)", LT_ERROR_OUT_OF_MEMORY,
      "t.expand(100000, 1000, 3, 2).reshape(-1): reshape(): " },
    { "t.expand(100000, 1000, 3, 2).flatten()", LT_ERROR_OUT_OF_MEMORY,
      "t.expand(100000, 1000, 3, 2).flatten(): flatten(): " },
    { "t.expand(100000, 1000, 3, 2).reshape(7)", LT_ERROR_SHAPE_MISMATCH,
      "t.expand(100000, 1000, 3, 2).reshape(7): reshape(): " },
  };

  g_autoptr (LtTensor) points = new_base ('P');

  for (guint i = 0; i < G_N_ELEMENTS (call_cases); i++)
    {
      const CallCase *c = &call_cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (points, c->expression, &error);

      g_test_message ("expression '%s': %s", c->expression,
                      error != NULL ? error->message : "(no error)");
      g_assert_null (result);
      g_assert_error (error, LT_ERROR, c->code);
      g_assert_true (g_str_has_prefix (error->message, c->prefix));
    }
}

/* Large views that need no copy are fine: only copies are limited. */
static void
test_large_views (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) wide = lt_viewer_expression_evaluate (points,
                                                             "t.expand(100000, 1000, 3, 2)"
                                                             ".flatten(2)",
                                                             &error);

  g_assert_no_error (error);
  lt_assert_sizes (wide, 100000, 1000, 6);
  lt_assert_strides (wide, 0, 0, 1);
}

static void
test_chain_limit (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (GString) text = g_string_new ("t");
  g_autoptr (LtTensor) ok = NULL;
  g_autoptr (LtTensor) too_long = NULL;

  for (guint i = 0; i < 256; i++)
    g_string_append (text, ".t()");
  ok = lt_viewer_expression_evaluate (points, text->str, &error);
  g_assert_no_error (error);
  lt_assert_sizes (ok, 3, 2);

  g_string_append (text, ".t()");
  too_long = lt_viewer_expression_evaluate (points, text->str, &error);
  g_assert_null (too_long);
  g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "chains more than 256 calls"));
}

static void
check_garbage (LtTensor   *base,
               const char *text,
               gssize      length)
{
  g_autofree char *copy = g_strndup (text, length < 0 ? strlen (text) : (gsize) length);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = lt_viewer_expression_evaluate (base, copy, &error);

  if (result != NULL)
    g_assert_no_error (error);
  else
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == LT_ERROR);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
}

/* Random text never crashes the evaluator: every input gives a tensor or an
 * error in LT_ERROR with a readable message. */
static void
test_random_garbage (void)
{
  static const char *const tokens[] = {
    "t", ".", "(", ")", "[", "]", ",", ":", "=", "-", "+", " ", "0", "1", "2", "-1", "3",
    "99999999999999999999", "None", "...", "view", "t()", "transpose", "expand", "unfold",
    "diagonal", "as_strided", "flatten", "dim=", "offset=", "start_dim=", "contiguous()",
    "clone", "permute", "reshape", "squeeze", "unsqueeze", "flip", "movedim", "narrow",
    "select", "unflatten", "expand_as", "view_as_real", "view_as_complex", "(2, 2)", "é",
    "\xff", "\x01", "\t", "\n", "((", "))", "[[", "]]", "1000000", "-9223372036854775808",
  };
  g_autoptr (LtTensor) points = new_base ('P');
  g_autoptr (LtTensor) cube = new_base ('A');
  guint n = g_test_thorough () ? 200000 : 20000;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      guint length = (guint) g_test_rand_int_range (0, 24);

      if (g_test_rand_bit ())
        g_string_append (text, "t");
      for (guint j = 0; j < length; j++)
        {
          if (g_test_rand_int_range (0, 8) == 0)
            g_string_append_c (text, (char) g_test_rand_int_range (1, 256));
          else
            g_string_append (text, tokens[g_test_rand_int_range (0, G_N_ELEMENTS (tokens))]);
        }
      check_garbage (i % 2 ? points : cube, text->str, (gssize) text->len);
    }

  /* Nesting that a recursive parser would follow. */
  {
    g_autoptr (GString) deep = g_string_new ("t.view(");
    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '(');
    check_garbage (points, deep->str, -1);
  }
  check_garbage (points, "t.view(-9223372036854775808)", -1);
  check_garbage (points, "t.expand(9223372036854775807, 9223372036854775807, 3, 2)", -1);
  check_garbage (points, "t.unfold(0, 1, 9223372036854775807)", -1);
  check_garbage (points, "t.diagonal(-9223372036854775808)", -1);
  check_garbage (points, "t.as_strided((9223372036854775807,), (9223372036854775807,), 0)", -1);
  check_garbage (points, "t.narrow(0, 9223372036854775807, 9223372036854775807)", -1);
  check_garbage (points, "t[9223372036854775807:-9223372036854775808:-9223372036854775808]", -1);
}

/* Mutations of valid expressions: one character changed, dropped or doubled. */
static void
test_mutations (void)
{
  static const char *const seeds[] = {
    "t.t()[1:].contiguous().view(-1)",
    "t.as_strided((2, 2), (1, 2), 1)",
    "t.diagonal(offset=1, dim1=0, dim2=1)",
    "t.flatten(start_dim=1).unflatten(1, (2, 1))",
    "t[None, ..., ::-1].expand(2, 3, 2).permute(2, 0, 1)",
  };
  g_autoptr (LtTensor) points = new_base ('P');

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      gsize length = strlen (seeds[s]);

      for (gsize at = 0; at < length; at++)
        for (int c = 1; c < 128; c++)
          {
            g_autofree char *changed = g_strdup (seeds[s]);
            g_autoptr (GString) dropped = g_string_new (seeds[s]);
            g_autoptr (GString) doubled = g_string_new (seeds[s]);

            changed[at] = (char) c;
            check_garbage (points, changed, -1);
            g_string_erase (dropped, (gssize) at, 1);
            check_garbage (points, dropped->str, -1);
            g_string_insert_c (doubled, (gssize) at, seeds[s][at]);
            check_garbage (points, doubled->str, -1);
          }
    }
}

/* "PyTorch only": what PyTorch refuses fails with PyTorch's message and a
 * hint; flip() copies; everything else evaluates as before. */
static void
test_pytorch_only (void)
{
  g_autoptr (LtTensor) base = new_base ('P');
  const struct
  {
    const char *expression;
    const char *message;
  } refused[] = {
    { "t[::-1]", "t[::-1]: step must be greater than zero (PyTorch has no negative strides" },
    { "t[:, ::-2]", "t[:, ::-2]: step must be greater than zero" },
    { "t.as_strided((2, 2), (-2, 1), 4)",
      "as_strided: Negative strides are not supported at the moment, got strides: [-2, 1]" },
    { "t.t()[::-1]", "t.t()[::-1]: step must be greater than zero" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) plain = lt_viewer_expression_evaluate (base, refused[i].expression,
                                                                  &error);
      g_autoptr (LtTensor) strict = NULL;

      /* libtensor, like NumPy, makes the view... */
      g_assert_no_error (error);
      g_assert_true (lt_tensor_shares_storage (plain, base));
      /* ...PyTorch refuses it. */
      strict = lt_viewer_expression_evaluate_with_flags (base, refused[i].expression,
                                                         LT_VIEWER_EXPRESSION_PYTORCH_ONLY,
                                                         &error);
      g_assert_null (strict);
      g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, refused[i].message));
      g_assert_nonnull (strstr (error->message, "turn off “PyTorch only”"));
    }

  /* flip(): a view with a negative stride, or PyTorch's copy, with the
   * same values. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (LtTensor) view = lt_viewer_expression_evaluate (base, "t.flip(0)", &error);
    g_autoptr (LtTensor) copy = lt_viewer_expression_evaluate_with_flags (
      base, "t.flip(0)", LT_VIEWER_EXPRESSION_PYTORCH_ONLY, &error);
    gsize n_view, n_copy;
    g_autofree double *view_values = NULL;
    g_autofree double *copy_values = NULL;
    guint ndim;

    g_assert_no_error (error);
    g_assert_true (lt_tensor_shares_storage (view, base));
    g_assert_cmpint (lt_tensor_get_strides (view, &ndim)[0], ==, -2);
    g_assert_false (lt_tensor_shares_storage (copy, base));
    g_assert_cmpint (lt_tensor_get_strides (copy, &ndim)[0], ==, 2);
    view_values = lt_tensor_to_doubles (view, &n_view);
    copy_values = lt_tensor_to_doubles (copy, &n_copy);
    g_assert_cmpuint (n_view, ==, n_copy);
    for (gsize i = 0; i < n_view; i++)
      g_assert_cmpfloat (view_values[i], ==, copy_values[i]);
    g_assert_cmpfloat (copy_values[0], ==, 2.0);
  }

  /* What PyTorch shares evaluates as before. */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) case_base = new_base (cases[i].base);
      g_autoptr (LtTensor) tensor = NULL;
      gboolean negative = FALSE;

      for (guint d = 0; d < cases[i].ndim; d++)
        negative |= cases[i].strides[d] < 0;
      if (negative || strstr (cases[i].expression, "flip") != NULL)
        continue;
      tensor = lt_viewer_expression_evaluate_with_flags (case_base, cases[i].expression,
                                                         LT_VIEWER_EXPRESSION_PYTORCH_ONLY,
                                                         &error);
      g_assert_no_error (error);
      g_assert_cmpint (lt_tensor_get_storage_offset (tensor), ==, cases[i].offset);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/expression/methods", test_methods);
  g_test_add_func ("/viewer/expression/values", test_values);
  g_test_add_func ("/viewer/expression/syntax-errors", test_syntax_errors);
  g_test_add_func ("/viewer/expression/syntax-errors/message", test_syntax_error_message);
  g_test_add_func ("/viewer/expression/unknown-method", test_unknown_method);
  g_test_add_func ("/viewer/expression/library-errors/view", test_library_error_view);
  g_test_add_func ("/viewer/expression/library-errors/not-viewable",
                   test_library_error_not_viewable);
  g_test_add_func ("/viewer/expression/call-errors", test_call_errors);
  g_test_add_func ("/viewer/expression/large-views", test_large_views);
  g_test_add_func ("/viewer/expression/chain-limit", test_chain_limit);
  g_test_add_func ("/viewer/expression/pytorch-only", test_pytorch_only);
  g_test_add_func ("/viewer/expression/fuzz/random", test_random_garbage);
  g_test_add_func ("/viewer/expression/fuzz/mutations", test_mutations);

  return g_test_run ();
}
