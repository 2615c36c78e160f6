/* lt-einsum.c: Einstein summation over strided tensors
 *
 * Every operand is first seen through a view with one dim per label of the
 * whole equation (ellipsis dims first, then the letters in ASCII order),
 * size 1 where it lacks the label, and repeated labels folded into a
 * diagonal by adding their strides. Operands are then contracted two at a
 * time, left to right as PyTorch does: dims both share and still need are
 * batch dims, dims only one has are the rows or columns of a matrix
 * product, dims neither needs any more are its inner dim. A dim only one
 * operand has and nobody needs is summed first, as a product with a vector
 * of ones. Row or column dims that cannot be merged in place stay batch
 * dims (the other operand walking them with stride 0), so only inner dims
 * that do not merge are ever copied. Nothing loops over elements here: the
 * work is views, reshapes and the backend's batched matmul.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-linalg.h"
#include "lt-linalg-private.h"

#define N_LETTERS 52
#define ELLIPSIS (-1)
#define OP "einsum()"

typedef struct
{
  /* The subscripts of one operand, ELLIPSIS where "..." stands. */
  int labels[LT_MAX_DIMS + 1];
  guint n_labels;
  gboolean has_ellipsis;
} Term;

/* A-Z then a-z, so that sorting label numbers sorts in ASCII order as the
 * implicit output wants. */
static int
letter_label (char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return 26 + c - 'a';
  return -1;
}

static char
label_letter (int label)
{
  return label < 26 ? 'A' + label : 'a' + label - 26;
}

static void
set_parse_error (const char *equation,
                 gsize       position,
                 const char *why,
                 GError    **error)
{
  g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
               _("einsum(): %s at position %zu of the equation \"%s\"; subscripts "
                 "are the letters a-z and A-Z, with at most one \"...\" per operand, operands "
                 "separated by \",\" and an optional \"->\" before the output"),
               why, position, equation);
}

/* Parses one term from @p up to a ',', "->" or the end. */
static gboolean
parse_term (const char  *equation,
            const char **p,
            Term        *term,
            GError     **error)
{
  memset (term, 0, sizeof *term);
  while (**p != '\0' && **p != ',' && !(**p == '-' && (*p)[1] == '>'))
    {
      const char *c = *p;
      gsize position = (gsize) (c - equation);

      if (*c == ' ')
        {
          (*p)++;
          continue;
        }
      if (*c == '.')
        {
          if (c[1] != '.' || c[2] != '.')
            {
              set_parse_error (equation, position, _("a \".\" that does not start \"...\""),
                               error);
              return FALSE;
            }
          if (term->has_ellipsis)
            {
              set_parse_error (equation, position, _("a second \"...\" in one operand"), error);
              return FALSE;
            }
          term->has_ellipsis = TRUE;
          term->labels[term->n_labels++] = ELLIPSIS;
          *p += 3;
          continue;
        }
      if (letter_label (*c) < 0)
        {
          g_autofree char *why = g_strdup_printf (_("the character '%c' is not a subscript"), *c);
          set_parse_error (equation, position, why, error);
          return FALSE;
        }
      if (term->n_labels > LT_MAX_DIMS)
        {
          set_parse_error (equation, position, _("more subscripts than a tensor has dims"), error);
          return FALSE;
        }
      term->labels[term->n_labels++] = letter_label (*c);
      (*p)++;
    }
  return TRUE;
}

/* The view of one operand with a dim per equation label. */
typedef struct
{
  guint ndim;
  gint64 sizes[LT_MAX_DIMS];
} Dims;

static LtTensor *
full_view (LtTensor     *t,
           guint         ndim,
           const gint64 *sizes,
           const gint64 *strides,
           GError      **error)
{
  return lt_tensor_as_strided (t, sizes, ndim, strides, ndim, lt_tensor_get_storage_offset (t),
                               error);
}

/* A view of @t (with the equation's @ndim dims) taking the dims @dims in
 * order, then reshaped so that its last @n_merge groups of dims, of
 * @group_sizes[g] dims each, become one dim each. */
static LtTensor *
select_and_merge (LtTensor   *t,
                  const guint *dims,
                  guint        n_dims,
                  const guint *group_sizes,
                  guint        n_groups,
                  GError     **error)
{
  gint64 sizes[LT_MAX_DIMS], strides[LT_MAX_DIMS], merged[LT_MAX_DIMS];
  g_autoptr (LtTensor) view = NULL;
  guint n_merged = 0, d = 0, n_plain = n_dims;

  for (guint g = 0; g < n_groups; g++)
    n_plain -= group_sizes[g];
  for (guint i = 0; i < n_dims; i++)
    {
      sizes[i] = t->sizes[dims[i]];
      strides[i] = t->strides[dims[i]];
    }
  view = full_view (t, n_dims, sizes, strides, error);
  if (view == NULL)
    return NULL;

  for (; d < n_plain; d++)
    merged[n_merged++] = sizes[d];
  for (guint g = 0; g < n_groups; g++)
    {
      gint64 size = 1;

      for (guint i = 0; i < group_sizes[g]; i++)
        size *= sizes[d++];
      merged[n_merged++] = size;
    }
  return lt_tensor_reshape (view, merged, n_merged, error);
}

/* @t with the dims in @mask summed away (left with size 1). */
static LtTensor *
sum_dims (LtTensor       *t,
          const gboolean *mask,
          GError        **error)
{
  guint keep[LT_MAX_DIMS], order[LT_MAX_DIMS];
  guint n_keep = 0, n_red = 0, n = 0;
  gint64 keep_sizes[LT_MAX_DIMS], a_strides[LT_MAX_DIMS + 2], b_strides[LT_MAX_DIMS + 2];
  gint64 full_sizes[LT_MAX_DIMS], full_strides[LT_MAX_DIMS];
  gint64 r;
  g_autoptr (LtTensor) a = NULL;
  g_autoptr (LtTensor) ones = NULL;
  g_autoptr (LtTensor) out = NULL;

  for (guint d = 0; d < t->ndim; d++)
    if (mask[d] && t->sizes[d] != 1)
      n_red++;
  if (n_red == 0)
    return g_object_ref (t);

  for (guint d = 0; d < t->ndim; d++)
    if (!mask[d] && t->sizes[d] != 1)
      {
        keep_sizes[n_keep] = t->sizes[d];
        keep[n_keep++] = d;
        order[n++] = d;
      }
  for (guint d = 0; d < t->ndim; d++)
    if (mask[d] && t->sizes[d] != 1)
      order[n++] = d;

  a = select_and_merge (t, order, n, &n_red, 1, error);
  if (a == NULL)
    return NULL;
  r = a->sizes[n_keep];
  /* On the operand's device, filled there. */
  ones = lt_tensor_new_contiguous_on (lt_storage_get_backend (t->storage), OP,
                                      lt_tensor_get_dtype (t), 1, &r, error);
  if (ones == NULL || !lt_tensor_fill (ones, 1.0, error))
    return NULL;

  /* Each kept index is a batch of one row (1 x r) times the ones (r x 1). */
  for (guint i = 0; i < n_keep; i++)
    {
      a_strides[i] = a->strides[i];
      b_strides[i] = 0;
    }
  a_strides[n_keep] = 0;
  a_strides[n_keep + 1] = a->strides[n_keep];
  b_strides[n_keep] = 1;
  b_strides[n_keep + 1] = 0;
  out = lt_linalg_product (OP, a, a_strides, ones, b_strides, n_keep, keep_sizes, 1, 1, r,
                           n_keep, keep_sizes, error);
  if (out == NULL)
    return NULL;

  for (guint d = 0; d < t->ndim; d++)
    {
      full_sizes[d] = 1;
      full_strides[d] = 0;
    }
  for (guint i = 0; i < n_keep; i++)
    {
      full_sizes[keep[i]] = out->sizes[i];
      full_strides[keep[i]] = out->strides[i];
    }
  return full_view (out, t->ndim, full_sizes, full_strides, error);
}

/* Orders @dims (all of size > 1 in @t) outermost first by @t's strides and
 * returns how many of the outer ones cannot be merged with the rest into one
 * dim without a copy: those are better walked as batch dims. */
static guint
split_unmergeable (LtTensor *t,
                   guint    *dims,
                   guint     n)
{
  guint first;

  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && ABS (t->strides[dims[j - 1]]) < ABS (t->strides[dims[j]]); j--)
      {
        guint tmp = dims[j];

        dims[j] = dims[j - 1];
        dims[j - 1] = tmp;
      }
  if (n == 0)
    return 0;
  first = n - 1;
  while (first > 0
         && t->strides[dims[first - 1]] == t->sizes[dims[first]] * t->strides[dims[first]])
    first--;
  return first;
}

/* The product of @a and @b over the dims neither of them keeps (those only
 * one of them has must have been summed away already). */
static LtTensor *
contract (LtTensor       *a,
          LtTensor       *b,
          const gboolean *kept,
          GError        **error)
{
  guint ndim = a->ndim;
  guint batch[LT_MAX_DIMS], rows[LT_MAX_DIMS], cols[LT_MAX_DIMS], inner[LT_MAX_DIMS];
  guint nb = 0, nr = 0, nc = 0, ni = 0;
  guint a_order[LT_MAX_DIMS], b_order[LT_MAX_DIMS], out_dims[LT_MAX_DIMS];
  gint64 batch_sizes[LT_MAX_DIMS], out_sizes[LT_MAX_DIMS];
  gint64 a_strides[LT_MAX_DIMS + 2], b_strides[LT_MAX_DIMS + 2];
  gint64 full_sizes[LT_MAX_DIMS], full_strides[LT_MAX_DIMS];
  gint64 m = 1, n = 1, k = 1;
  guint n_out = 0;
  g_autoptr (LtTensor) a2 = NULL;
  g_autoptr (LtTensor) b2 = NULL;
  g_autoptr (LtTensor) out = NULL;

  for (guint d = 0; d < ndim; d++)
    {
      gint64 sa = a->sizes[d], sb = b->sizes[d];

      if (sa == 1 && sb == 1)
        continue;
      if (!kept[d])
        inner[ni++] = d;
      else if (sa != 1 && sb != 1)
        batch[nb++] = d;
      else if (sa != 1)
        rows[nr++] = d;
      else
        cols[nc++] = d;
    }

  /* Row (or column) dims that do not merge in place become batch dims, b
   * (or a) walking them with stride 0, instead of being copied together. */
  {
    guint split = split_unmergeable (a, rows, nr);

    for (guint i = 0; i < split; i++)
      batch[nb++] = rows[i];
    memmove (rows, rows + split, (nr - split) * sizeof (guint));
    nr -= split;
    split = split_unmergeable (b, cols, nc);
    for (guint i = 0; i < split; i++)
      batch[nb++] = cols[i];
    memmove (cols, cols + split, (nc - split) * sizeof (guint));
    nc -= split;
  }

  for (guint i = 0; i < nb; i++)
    {
      a_order[i] = b_order[i] = out_dims[n_out++] = batch[i];
      batch_sizes[i] = MAX (a->sizes[batch[i]], b->sizes[batch[i]]);
    }
  for (guint i = 0; i < nr; i++)
    {
      a_order[nb + i] = out_dims[n_out++] = rows[i];
      m *= a->sizes[rows[i]];
    }
  for (guint i = 0; i < ni; i++)
    {
      a_order[nb + nr + i] = b_order[nb + i] = inner[i];
      k *= a->sizes[inner[i]];
    }
  for (guint i = 0; i < nc; i++)
    {
      b_order[nb + ni + i] = out_dims[n_out++] = cols[i];
      n *= b->sizes[cols[i]];
    }

  a2 = select_and_merge (a, a_order, nb + nr + ni, (const guint[]) { nr, ni }, 2, error);
  if (a2 == NULL)
    return NULL;
  b2 = select_and_merge (b, b_order, nb + ni + nc, (const guint[]) { ni, nc }, 2, error);
  if (b2 == NULL)
    return NULL;

  for (guint i = 0; i < nb + 2; i++)
    {
      a_strides[i] = a2->sizes[i] == 1 ? 0 : a2->strides[i];
      b_strides[i] = b2->sizes[i] == 1 ? 0 : b2->strides[i];
    }
  for (guint i = 0; i < n_out; i++)
    out_sizes[i] = i < nb ? batch_sizes[i] : i < nb + nr ? a->sizes[out_dims[i]]
                                                         : b->sizes[out_dims[i]];
  out = lt_linalg_product (OP, a2, a_strides, b2, b_strides, nb, batch_sizes, m, n, k, n_out,
                           out_sizes, error);
  if (out == NULL)
    return NULL;

  for (guint d = 0; d < ndim; d++)
    {
      full_sizes[d] = 1;
      full_strides[d] = 0;
    }
  for (guint i = 0; i < n_out; i++)
    {
      full_sizes[out_dims[i]] = out->sizes[i];
      full_strides[out_dims[i]] = out->strides[i];
    }
  return full_view (out, ndim, full_sizes, full_strides, error);
}

/**
 * lt_einsum:
 * @equation: the subscripts, as in `"bij,bjk->bik"`
 * @operands: (array length=n_operands): the tensors, one per comma-separated
 *   term of @equation, all of one dtype
 * @n_operands: the number of tensors
 * @error: return location for a #GError
 *
 * Einstein summation as PyTorch's `torch.einsum` does it: each operand
 * names its dims with letters; letters repeated within one operand take
 * its diagonal; letters missing from the output are summed over; `...`
 * stands for the dims not named, which broadcast across operands as do
 * dims of size 1. Without `->` the output is the ellipsis dims followed by
 * the letters that appear once in the equation, in alphabetical order
 * (upper case first). The operands are contracted two at a time, left to
 * right, through matrix products. All operands must have the same dtype,
 * not float16 nor bool; when a single integer operand has dims summed
 * away the result is int64, as a sum is in PyTorch.
 *
 * The result may be a view of the operand when nothing is summed, as for
 * `"ii->i"` or `"ij->ji"`.
 *
 * Returns: (transfer full): the result, or %NULL with @error set when the
 *   equation is malformed or does not fit the operands
 */
LtTensor *
lt_einsum (const char *equation,
           LtTensor  **operands,
           guint       n_operands,
           GError    **error)
{
  g_autofree Term *terms = NULL;
  Term output;
  gboolean explicit_output = FALSE;
  const char *p;
  guint n_terms = 0;
  guint ell_ndim = 0, ndim;
  int label_dim[N_LETTERS];
  guint label_count[N_LETTERS] = { 0 };
  gint64 sizes[LT_MAX_DIMS];
  guint out_dims[LT_MAX_DIMS], n_out = 0;
  gboolean in_output[LT_MAX_DIMS] = { FALSE };
  g_autoptr (GPtrArray) full = NULL;
  g_autoptr (LtTensor) current = NULL;
  gint64 result_sizes[LT_MAX_DIMS], result_strides[LT_MAX_DIMS];

  g_return_val_if_fail (equation != NULL, NULL);
  g_return_val_if_fail (operands != NULL || n_operands == 0, NULL);
  for (guint i = 0; i < n_operands; i++)
    g_return_val_if_fail (LT_IS_TENSOR (operands[i]), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Its letters name the dims; PyTorch refuses dim names here too. */
  for (guint i = 0; i < n_operands; i++)
    if (!lt_tensor_check_unnamed ("einsum()", operands[i], error))
      return NULL;

  if (n_operands == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("einsum(): at least one operand is needed"));
      return NULL;
    }

  /* The terms. */
  terms = g_new0 (Term, n_operands);
  p = equation;
  for (;;)
    {
      Term term;

      if (!parse_term (equation, &p, &term, error))
        return NULL;
      if (n_terms < n_operands)
        terms[n_terms] = term;
      n_terms++;
      if (*p != ',')
        break;
      p++;
    }
  if (*p == '-')
    {
      p += 2;
      explicit_output = TRUE;
      if (!parse_term (equation, &p, &output, error))
        return NULL;
      if (*p != '\0')
        {
          set_parse_error (equation, (gsize) (p - equation),
                           *p == ',' ? _("a \",\" in the output") : _("a second \"->\""), error);
          return NULL;
        }
    }
  if (n_terms != n_operands)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("einsum(): the equation \"%s\" has %u operand terms but %u tensors were "
                     "given"),
                   equation, n_terms, n_operands);
      return NULL;
    }

  /* The dtypes, and how many dims "..." stands for in each operand. */
  for (guint i = 0; i < n_operands; i++)
    {
      LtTensor *t = operands[i];
      guint named = terms[i].n_labels - (terms[i].has_ellipsis ? 1 : 0);

      if (!lt_linalg_check_dtypes (OP, operands[0], t, FALSE, error))
        return NULL;
      if (terms[i].has_ellipsis ? named > t->ndim : named != t->ndim)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                       terms[i].has_ellipsis
                         ? _("einsum(): operand %u has %u dims but its term in \"%s\" names %u "
                             "besides \"...\"")
                         : _("einsum(): operand %u has %u dims but its term in \"%s\" names %u; "
                             "use \"...\" for the rest"),
                       i, t->ndim, equation, named);
          return NULL;
        }
      if (terms[i].has_ellipsis)
        ell_ndim = MAX (ell_ndim, t->ndim - named);
    }

  /* One dim per label: the ellipsis dims, then the letters in order. */
  for (guint i = 0; i < n_operands; i++)
    for (guint j = 0; j < terms[i].n_labels; j++)
      if (terms[i].labels[j] != ELLIPSIS)
        label_count[terms[i].labels[j]]++;
  ndim = ell_ndim;
  for (int l = 0; l < N_LETTERS; l++)
    label_dim[l] = label_count[l] > 0 ? (int) ndim++ : -1;
  if (ndim > LT_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("einsum(): the equation has %u dims in all, more than the %d a tensor can "
                     "have"), ndim, LT_MAX_DIMS);
      return NULL;
    }

  /* The output dims. */
  if (explicit_output)
    {
      for (guint j = 0; j < output.n_labels; j++)
        {
          int l = output.labels[j];

          if (l == ELLIPSIS)
            {
              for (guint d = 0; d < ell_ndim; d++)
                out_dims[n_out++] = d;
              continue;
            }
          if (label_dim[l] < 0)
            {
              g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("einsum(): the output subscript %c of \"%s\" appears in no operand"),
                           label_letter (l), equation);
              return NULL;
            }
          if (in_output[label_dim[l]])
            {
              g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                           _("einsum(): the output subscript %c appears more than once in \"%s\""),
                           label_letter (l), equation);
              return NULL;
            }
          in_output[label_dim[l]] = TRUE;
          out_dims[n_out++] = label_dim[l];
        }
    }
  else
    {
      for (guint d = 0; d < ell_ndim; d++)
        out_dims[n_out++] = d;
      for (int l = 0; l < N_LETTERS; l++)
        if (label_count[l] == 1)
          out_dims[n_out++] = label_dim[l];
    }
  memset (in_output, 0, sizeof in_output);
  for (guint i = 0; i < n_out; i++)
    in_output[out_dims[i]] = TRUE;

  /* Every operand seen with all the dims, broadcasting sizes as we go. */
  for (guint d = 0; d < ndim; d++)
    sizes[d] = 1;
  full = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_operands; i++)
    {
      LtTensor *t = operands[i];
      gint64 op_sizes[LT_MAX_DIMS], op_strides[LT_MAX_DIMS];
      guint named = terms[i].n_labels - (terms[i].has_ellipsis ? 1 : 0);
      guint ell_here = t->ndim - named;
      guint src = 0;
      gboolean seen[LT_MAX_DIMS] = { FALSE };
      LtTensor *view;

      for (guint d = 0; d < ndim; d++)
        {
          op_sizes[d] = 1;
          op_strides[d] = 0;
        }
      for (guint j = 0; j < terms[i].n_labels; j++)
        {
          int l = terms[i].labels[j];

          if (l == ELLIPSIS)
            {
              for (guint e = 0; e < ell_here; e++, src++)
                {
                  guint d = ell_ndim - ell_here + e;

                  op_sizes[d] = t->sizes[src];
                  op_strides[d] = t->strides[src];
                }
              continue;
            }
          guint d = label_dim[l];

          if (seen[d])
            {
              /* A repeated letter: the diagonal. */
              if (op_sizes[d] != t->sizes[src])
                {
                  g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                               _("einsum(): subscript %c is repeated in operand %u but its sizes "
                                 "differ, %" PRId64 " and %" PRId64),
                               label_letter (l), i, op_sizes[d], t->sizes[src]);
                  return NULL;
                }
              if (t->sizes[src] > 1)
                op_strides[d] += t->strides[src];
            }
          else
            {
              op_sizes[d] = t->sizes[src];
              op_strides[d] = t->strides[src];
              seen[d] = TRUE;
            }
          src++;
        }
      /* A size-1 dim's stride means nothing; 0 keeps the sums above in range. */
      for (guint d = 0; d < ndim; d++)
        {
          if (op_sizes[d] == 1)
            op_strides[d] = 0;
          if (op_sizes[d] == sizes[d] || op_sizes[d] == 1)
            continue;
          if (sizes[d] != 1)
            {
              g_autofree char *what = NULL;

              if (d < ell_ndim)
                what = g_strdup_printf (_("ellipsis dim %u"), d);
              else
                for (int l = 0; l < N_LETTERS; l++)
                  if (label_dim[l] == (int) d)
                    what = g_strdup_printf (_("subscript %c"), label_letter (l));
              g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                           _("einsum(): %s has size %" PRId64 " in operand %u, which "
                             "does not broadcast with the size %" PRId64 " seen before"),
                           what, op_sizes[d], i, sizes[d]);
              return NULL;
            }
          sizes[d] = op_sizes[d];
        }
      view = full_view (t, ndim, op_sizes, op_strides, error);
      if (view == NULL)
        return NULL;
      g_ptr_array_add (full, view);
    }

  /* Contract left to right. */
  current = g_object_ref (g_ptr_array_index (full, 0));
  if (n_operands == 1)
    {
      gboolean mask[LT_MAX_DIMS];
      gboolean any = FALSE;

      for (guint d = 0; d < ndim; d++)
        {
          mask[d] = !in_output[d];
          any |= mask[d] && current->sizes[d] != 1;
        }
      if (any && lt_dtype_is_integer (lt_tensor_get_dtype (current))
          && lt_tensor_get_dtype (current) != LT_DTYPE_INT64)
        {
          LtTensor *wide = lt_tensor_to_dtype (current, LT_DTYPE_INT64, error);

          if (wide == NULL)
            return NULL;
          g_object_unref (current);
          current = wide;
        }
      if (any)
        {
          LtTensor *summed = sum_dims (current, mask, error);

          if (summed == NULL)
            return NULL;
          g_object_unref (current);
          current = summed;
        }
    }
  for (guint i = 1; i < n_operands; i++)
    {
      LtTensor *other = g_ptr_array_index (full, i);
      gboolean kept[LT_MAX_DIMS], only_a[LT_MAX_DIMS], only_b[LT_MAX_DIMS];
      g_autoptr (LtTensor) a = NULL;
      g_autoptr (LtTensor) b = NULL;
      LtTensor *product;

      for (guint d = 0; d < ndim; d++)
        kept[d] = in_output[d];
      for (guint j = i + 1; j < n_operands; j++)
        for (guint l = 0; l < terms[j].n_labels; l++)
          {
            int label = terms[j].labels[l];

            if (label == ELLIPSIS)
              for (guint d = 0; d < ell_ndim; d++)
                kept[d] = TRUE;
            else
              kept[label_dim[label]] = TRUE;
          }
      for (guint d = 0; d < ndim; d++)
        {
          only_a[d] = !kept[d] && current->sizes[d] != 1 && other->sizes[d] == 1;
          only_b[d] = !kept[d] && other->sizes[d] != 1 && current->sizes[d] == 1;
        }
      a = sum_dims (current, only_a, error);
      if (a == NULL)
        return NULL;
      b = sum_dims (other, only_b, error);
      if (b == NULL)
        return NULL;
      product = contract (a, b, kept, error);
      if (product == NULL)
        return NULL;
      g_object_unref (current);
      current = product;
    }

  /* The output dims, in the output's order. */
  for (guint i = 0; i < n_out; i++)
    {
      result_sizes[i] = current->sizes[out_dims[i]];
      result_strides[i] = current->strides[out_dims[i]];
    }
  return full_view (current, n_out, result_sizes, result_strides, error);
}
