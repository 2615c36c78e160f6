/* lt-names-private.h: how operations carry dim names along
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "lt-tensor-private.h"

G_BEGIN_DECLS

/* "Tensor['N', 'C', None]", as PyTorch describes a named tensor. */
char     *lt_names_describe (guint              ndim,
                             const char *const *names);

/* The same on name arrays (NULL: no names) of @a_ndim and @b_ndim dims. */
gboolean  lt_names_unify_lists (const char        *op,
                                guint              a_ndim,
                                const char *const *a_names,
                                guint              b_ndim,
                                const char *const *b_names,
                                guint              out_ndim,
                                const char       **out_names,
                                GError           **error);

/* The names of the broadcast of @a and @b (@out_ndim dims), matched from
 * the right as PyTorch does: an unnamed dim takes the other's name, two
 * names at the same place must be equal, and a name may not end up in two
 * places. @out_names is set to all NULL when neither has names. */
gboolean  lt_names_unify    (const char  *op,
                             LtTensor    *a,
                             LtTensor    *b,
                             guint        out_ndim,
                             const char **out_names,
                             GError     **error);

/* @self's names without the dims @reduced marks (all kept with @keepdim),
 * into @out_names; FALSE when @self has none. */
gboolean  lt_names_reduce   (LtTensor       *self,
                             const gboolean *reduced,
                             gboolean        keepdim,
                             const char    **out_names);

G_END_DECLS
