/* lt-names.c: names for the dims of a tensor, as PyTorch's named tensors
 *
 * A name is an identifier (letters, digits and underscores, not starting
 * with a digit); the empty string stands for an unnamed dim in arrays of
 * names, and "..." for "the other dims" where PyTorch takes Ellipsis.
 * Names are interned, so they compare as pointers, and a tensor without
 * names carries no array at all.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-names.h"
#include "lt-names-private.h"

#define ELLIPSIS "..."

/* Internal */

void
lt_tensor_set_names_internal (LtTensor          *self,
                              const char *const *names)
{
  gboolean any = FALSE;

  for (guint d = 0; names != NULL && d < self->ndim; d++)
    any |= names[d] != NULL;

  g_clear_pointer (&self->names, g_free);
  if (any)
    self->names = g_memdup2 (names, self->ndim * sizeof (char *));
}

gboolean
lt_tensor_check_unnamed (const char *op,
                         LtTensor   *self,
                         GError    **error)
{
  g_autofree char *described = NULL;

  if (self->names == NULL)
    return TRUE;
  described = lt_names_describe (self->ndim, self->names);
  g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
               _("%s does not take named tensors (as in PyTorch), and this one is %s; drop the "
                 "names with rename() first and name the result with refine_names()"),
               op, described);
  return FALSE;
}

char *
lt_names_describe (guint              ndim,
                   const char *const *names)
{
  GString *text = g_string_new ("Tensor[");

  for (guint d = 0; d < ndim; d++)
    {
      if (d > 0)
        g_string_append (text, ", ");
      if (names != NULL && names[d] != NULL)
        g_string_append_printf (text, "'%s'", names[d]);
      else
        g_string_append (text, "None");
    }
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* "['N', 'C', 'H']", the name lists PyTorch's broadcasting errors show. */
static char *
describe_list (guint              ndim,
               const char *const *names)
{
  g_autofree char *tensor = lt_names_describe (ndim, names);

  return g_strdup (tensor + strlen ("Tensor"));
}

gboolean
lt_names_unify_lists (const char        *op,
                      guint              a_ndim,
                      const char *const *a_names,
                      guint              b_ndim,
                      const char *const *b_names,
                      guint              out_ndim,
                      const char       **out_names,
                      GError           **error)
{
  memset (out_names, 0, out_ndim * sizeof (char *));
  if (a_names == NULL && b_names == NULL)
    return TRUE;

  for (guint k = 0; k < out_ndim; k++)
    {
      const char *na = k < a_ndim && a_names != NULL ? a_names[a_ndim - 1 - k] : NULL;
      const char *nb = k < b_ndim && b_names != NULL ? b_names[b_ndim - 1 - k] : NULL;

      if (na != NULL && nb != NULL && na != nb)
        {
          g_autofree char *la = describe_list (a_ndim, a_names);
          g_autofree char *lb = describe_list (b_ndim, b_names);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("%s: cannot broadcast dims %s and dims %s: dim '%s' and dim '%s' are at "
                         "the same position from the right but do not match; rename() or "
                         "align_to() one of them"),
                       op, la, lb, na, nb);
          return FALSE;
        }
      out_names[out_ndim - 1 - k] = na != NULL ? na : nb;
    }

  /* A name that both have, but at different places from the right. */
  for (guint i = 0; i < out_ndim; i++)
    for (guint j = i + 1; j < out_ndim; j++)
      if (out_names[i] != NULL && out_names[i] == out_names[j])
        {
          g_autofree char *la = describe_list (a_ndim, a_names);
          g_autofree char *lb = describe_list (b_ndim, b_names);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("%s: misaligned dims when broadcasting dims %s and dims %s: dim '%s' "
                         "appears at different positions from the right; use align_as() to line "
                         "them up"),
                       op, la, lb, out_names[i]);
          return FALSE;
        }
  return TRUE;
}

gboolean
lt_names_unify (const char  *op,
                LtTensor    *a,
                LtTensor    *b,
                guint        out_ndim,
                const char **out_names,
                GError     **error)
{
  return lt_names_unify_lists (op, a->ndim, a->names, b->ndim, b->names, out_ndim, out_names,
                               error);
}

gboolean
lt_names_reduce (LtTensor       *self,
                 const gboolean *reduced,
                 gboolean        keepdim,
                 const char    **out_names)
{
  guint n = 0;

  if (self->names == NULL)
    return FALSE;
  for (guint d = 0; d < self->ndim; d++)
    if (keepdim || !reduced[d])
      out_names[n++] = self->names[d];
  return TRUE;
}

/* Checking names */

static gboolean
is_identifier (const char *name)
{
  if (!g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (const char *c = name + 1; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  return TRUE;
}

/* @name as a dim name: interned, NULL for "", an error for anything that is
 * not an identifier. */
static gboolean
intern_name (const char  *op,
             const char  *name,
             const char **out,
             GError     **error)
{
  if (name == NULL || name[0] == '\0')
    {
      *out = NULL;
      return TRUE;
    }
  if (!is_identifier (name))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                   _("%s: '%s' is not a valid dim name; a name has only letters, digits and "
                     "underscores, and does not start with a digit"),
                   op, name);
      return FALSE;
    }
  *out = g_intern_string (name);
  return TRUE;
}

static gboolean
check_no_duplicates (const char        *op,
                     guint              ndim,
                     const char *const *names,
                     GError           **error)
{
  for (guint i = 0; i < ndim; i++)
    for (guint j = i + 1; j < ndim; j++)
      if (names[i] != NULL && names[i] == names[j])
        {
          g_autofree char *described = describe_list (ndim, names);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("%s: a tensor cannot have two dims named '%s' (names %s)"), op, names[i],
                       described);
          return FALSE;
        }
  return TRUE;
}

/* Expands a list of names that may hold one "..." into @ndim names:
 * @out_from_self[d] is TRUE where "..." covers dim d. */
static gboolean
expand_ellipsis (const char         *op,
                 const char * const *names,
                 guint               n_names,
                 guint               ndim,
                 const char        **out,
                 gboolean           *out_from_self,
                 GError            **error)
{
  int ellipsis = -1;
  guint n = 0;

  for (guint i = 0; i < n_names; i++)
    if (g_strcmp0 (names[i], ELLIPSIS) == 0)
      {
        if (ellipsis >= 0)
          {
            g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                         _("%s: '...' may appear only once among the names"), op);
            return FALSE;
          }
        ellipsis = (int) i;
      }

  if ((ellipsis < 0 && n_names != ndim) || (ellipsis >= 0 && n_names - 1 > ndim))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                   _("%s: %u names given for a tensor with %u dims; give one name per dim, or "
                     "'...' for the dims between"),
                   op, ellipsis >= 0 ? n_names - 1 : n_names, ndim);
      return FALSE;
    }

  for (guint i = 0; i < n_names; i++)
    {
      if ((int) i == ellipsis)
        {
          guint covered = ndim - (n_names - 1);

          for (guint k = 0; k < covered; k++)
            {
              out_from_self[n] = TRUE;
              out[n++] = NULL;
            }
          continue;
        }
      out_from_self[n] = FALSE;
      if (!intern_name (op, names[i], &out[n], error))
        return FALSE;
      n++;
    }
  return TRUE;
}

static LtTensor *
alias_with_names (LtTensor          *self,
                  const char *const *names)
{
  LtTensor *result = lt_tensor_alias (self);

  lt_tensor_set_names_internal (result, names);
  return result;
}

/* Public API */

/**
 * lt_tensor_has_names:
 * @self: an #LtTensor
 *
 * Returns: whether at least one dim of @self has a name
 */
gboolean
lt_tensor_has_names (LtTensor *self)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);

  return self->names != NULL;
}

/**
 * lt_tensor_get_names:
 * @self: an #LtTensor
 *
 * The name of each dim, as `Tensor.names`: the empty string for a dim
 * without a name.
 *
 * Returns: (transfer full) (array zero-terminated=1): one name per dim
 */
GStrv
lt_tensor_get_names (LtTensor *self)
{
  GStrv names;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);

  names = g_new0 (char *, self->ndim + 1);
  for (guint d = 0; d < self->ndim; d++)
    names[d] = g_strdup (self->names != NULL && self->names[d] != NULL ? self->names[d] : "");
  return names;
}

/**
 * lt_tensor_refine_names:
 * @self: an #LtTensor
 * @names: (array length=n_names): a name per dim ("" for none), with at
 *   most one "..." standing for the dims it leaves out
 * @n_names: the number of names
 * @error: return location for a #GError
 *
 * A view of @self whose unnamed dims take the names given, as
 * `Tensor.refine_names()`: a dim that has a name keeps it, and giving it
 * another is an error. `refine_names ("N", "...")` names the first dim.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_refine_names (LtTensor           *self,
                        const char * const *names,
                        guint               n_names,
                        GError            **error)
{
  const char *wanted[LT_MAX_DIMS];
  gboolean from_self[LT_MAX_DIMS];
  const char *result[LT_MAX_DIMS];

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (names != NULL || n_names == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!expand_ellipsis ("refine_names()", names, n_names, self->ndim, wanted, from_self, error))
    return NULL;

  for (guint d = 0; d < self->ndim; d++)
    {
      const char *have = self->names != NULL ? self->names[d] : NULL;

      if (from_self[d] || wanted[d] == have)
        result[d] = have;
      else if (have == NULL)
        result[d] = wanted[d];
      else
        {
          g_autofree char *described = lt_names_describe (self->ndim, self->names);

          if (wanted[d] != NULL)
            g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                         _("refine_names(): dim %u of %s is named '%s', which cannot become "
                           "'%s'; use rename() to change names"),
                         d, described, have, wanted[d]);
          else
            g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                         _("refine_names(): dim %u of %s is named '%s', which cannot become "
                           "unnamed; use rename() to change names"),
                         d, described, have);
          return NULL;
        }
    }

  if (!check_no_duplicates ("refine_names()", self->ndim, result, error))
    return NULL;
  return alias_with_names (self, result);
}

/**
 * lt_tensor_rename:
 * @self: an #LtTensor
 * @names: (array length=n_names) (nullable): a name per dim ("" for none),
 *   with at most one "..." keeping the names of the dims it stands for; none
 *   at all to remove every name
 * @n_names: the number of names
 * @error: return location for a #GError
 *
 * A view of @self with the names given, as `Tensor.rename(*names)`; with no
 * names, the view has none, as `Tensor.rename(None)`.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_rename (LtTensor           *self,
                  const char * const *names,
                  guint               n_names,
                  GError            **error)
{
  const char *wanted[LT_MAX_DIMS];
  gboolean from_self[LT_MAX_DIMS];

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (names != NULL || n_names == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_names == 0)
    return alias_with_names (self, NULL);

  if (!expand_ellipsis ("rename()", names, n_names, self->ndim, wanted, from_self, error))
    return NULL;
  for (guint d = 0; d < self->ndim; d++)
    if (from_self[d])
      wanted[d] = self->names != NULL ? self->names[d] : NULL;
  if (!check_no_duplicates ("rename()", self->ndim, wanted, error))
    return NULL;
  return alias_with_names (self, wanted);
}

/**
 * lt_tensor_rename_dims:
 * @self: an #LtTensor
 * @old_names: (array length=n_names): names of dims of @self
 * @new_names: (array length=n_names): the name each of them gets ("" for none)
 * @n_names: the number of names
 * @error: return location for a #GError
 *
 * A view of @self with some dims renamed, as `Tensor.rename(C='channels')`.
 *
 * Returns: (transfer full): the view, or %NULL with @error set when a name
 *   is not one of @self's
 */
LtTensor *
lt_tensor_rename_dims (LtTensor           *self,
                       const char * const *old_names,
                       const char * const *new_names,
                       guint               n_names,
                       GError            **error)
{
  const char *result[LT_MAX_DIMS] = { NULL };

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (old_names != NULL || n_names == 0, NULL);
  g_return_val_if_fail (new_names != NULL || n_names == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->names != NULL)
    memcpy (result, self->names, self->ndim * sizeof (char *));

  for (guint i = 0; i < n_names; i++)
    {
      const char *renamed;
      int dim;

      if (!lt_tensor_dim_of_name (self, old_names[i], &dim, error))
        {
          /* TRANSLATORS: before a message about the names given */
          g_prefix_error (error, _("rename(): "));
          return NULL;
        }
      if (!intern_name ("rename()", new_names[i], &renamed, error))
        return NULL;
      result[dim] = renamed;
    }

  if (!check_no_duplicates ("rename()", self->ndim, result, error))
    return NULL;
  return alias_with_names (self, result);
}

/**
 * lt_tensor_align_to:
 * @self: an #LtTensor whose dims have names (those "..." stands for may not)
 * @names: (array length=n_names): the order wanted, with at most one "..."
 *   standing for the dims of @self the list leaves out, in their order
 * @n_names: the number of names
 * @error: return location for a #GError
 *
 * A view of @self with its dims in the order of @names, as
 * `Tensor.align_to()`; names @self lacks, and empty names, become new dims
 * of size 1. Every dim of @self must appear (by name or in "...").
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_align_to (LtTensor           *self,
                    const char * const *names,
                    guint               n_names,
                    GError            **error)
{
  gint64 sizes[LT_MAX_DIMS], strides[LT_MAX_DIMS];
  const char *result[LT_MAX_DIMS];
  gboolean placed[LT_MAX_DIMS] = { FALSE };
  int ellipsis = -1;
  guint n = 0;
  LtTensor *view;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (names != NULL || n_names == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* First the dims named in the list, to know what "..." covers. */
  for (guint i = 0; i < n_names; i++)
    {
      const char *name;

      if (g_strcmp0 (names[i], ELLIPSIS) == 0)
        {
          if (ellipsis >= 0)
            {
              g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                           _("align_to(): '...' may appear only once among the names"));
              return NULL;
            }
          ellipsis = (int) i;
          continue;
        }
      if (!intern_name ("align_to()", names[i], &name, error))
        return NULL;
      if (name == NULL)
        continue;
      for (guint d = 0; d < self->ndim; d++)
        if (self->names != NULL && self->names[d] == name)
          placed[d] = TRUE;
    }

  /* Without "...", every dim must be named to be placed; with it, the
   * unnamed ones are among those it stands for. */
  if (ellipsis < 0)
    for (guint d = 0; d < self->ndim; d++)
      if (self->names == NULL || self->names[d] == NULL)
        {
          g_autofree char *described = lt_names_describe (self->ndim, self->names);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("align_to(): every dim must be named, but dim %u of %s is not; name it "
                         "with refine_names() first, or let '...' stand for it"),
                       d, described);
          return NULL;
        }

  for (guint i = 0; i < n_names; i++)
    {
      if ((int) i == ellipsis)
        {
          for (guint d = 0; d < self->ndim; d++)
            if (!placed[d])
              {
                if (n == LT_MAX_DIMS)
                  goto too_many;
                sizes[n] = self->sizes[d];
                strides[n] = self->strides[d];
                result[n++] = self->names != NULL ? self->names[d] : NULL;
              }
          continue;
        }
      if (n == LT_MAX_DIMS)
        goto too_many;
      result[n] = names[i][0] != '\0' ? g_intern_string (names[i]) : NULL;
      sizes[n] = 1;
      strides[n] = 0;
      for (guint d = 0; result[n] != NULL && d < self->ndim; d++)
        if (self->names != NULL && self->names[d] == result[n])
          {
            sizes[n] = self->sizes[d];
            strides[n] = self->strides[d];
          }
      n++;
    }

  if (ellipsis < 0)
    for (guint d = 0; d < self->ndim; d++)
      if (!placed[d])
        {
          g_autofree char *described = lt_names_describe (self->ndim, self->names);
          g_autofree char *wanted = describe_list (n, result);

          g_set_error (error, LT_ERROR, LT_ERROR_NAMES,
                       _("align_to(): dim '%s' of %s is not in the order wanted, %s; list every "
                         "dim, or add '...'"),
                       self->names[d], described, wanted);
          return NULL;
        }

  if (!check_no_duplicates ("align_to()", n, result, error))
    return NULL;

  /* New dims of size 1 get the stride unsqueeze() would give them. */
  for (guint i = n; i-- > 0;)
    if (sizes[i] == 1 && strides[i] == 0)
      strides[i] = i + 1 < n ? sizes[i + 1] * strides[i + 1] : 1;

  view = lt_tensor_new_view (self->storage, n, sizes, strides, self->storage_offset);
  lt_tensor_set_names_internal (view, result);
  return view;

too_many:
  g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
               _("align_to(): the result would have more than %d dims"), LT_MAX_DIMS);
  return NULL;
}

/**
 * lt_tensor_align_as:
 * @self: an #LtTensor whose dims all have names
 * @other: the tensor whose dim names give the order
 * @error: return location for a #GError
 *
 * lt_tensor_align_to() with @other's names, as `Tensor.align_as()`: the
 * weights of the seed's grayscale example, named "channels", line up with an
 * image named ("channels", "rows", "columns") as a (3, 1, 1) view.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 */
LtTensor *
lt_tensor_align_as (LtTensor  *self,
                    LtTensor  *other,
                    GError   **error)
{
  const char *names[LT_MAX_DIMS];

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint d = 0; d < other->ndim; d++)
    names[d] = other->names != NULL && other->names[d] != NULL ? other->names[d] : "";
  return lt_tensor_align_to (self, names, other->ndim, error);
}

/**
 * lt_tensor_dim_of_name:
 * @self: an #LtTensor
 * @name: a dim name
 * @out_dim: (out): where to store the dim
 * @error: return location for a #GError
 *
 * Finds the dim named @name, so that operations taking dims can take names.
 *
 * Returns: %TRUE when found; %FALSE with @error set otherwise
 */
gboolean
lt_tensor_dim_of_name (LtTensor    *self,
                       const char  *name,
                       int         *out_dim,
                       GError     **error)
{
  const char *interned;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_dim != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  interned = g_intern_string (name);
  for (guint d = 0; self->names != NULL && d < self->ndim; d++)
    if (self->names[d] == interned)
      {
        *out_dim = (int) d;
        return TRUE;
      }

  {
    g_autofree char *described = lt_names_describe (self->ndim, self->names);

    g_set_error (error, LT_ERROR, LT_ERROR_NAMES, _("no dim is named '%s' in %s"), name, described);
  }
  return FALSE;
}
