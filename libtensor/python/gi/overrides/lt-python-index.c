/* lt-python-index.c: t[key] for the commonest keys, in C (_lt_views)
 *
 * PyTorch's basic indexing, t[1], t[1:3], t[:, 0], t[None], t[..., -1]:
 * Python ints, slices of Python int bounds (or none) and a positive step
 * (or none), None and one Ellipsis, alone or in a tuple. The overrides'
 * __getitem__ wrote such a key as an index expression for libtensor to
 * parse, or made it by calls to select() and slice() from Python: about
 * a microsecond before the view, more than PyTorch's whole call
 * (bench/NOTES.md, section 25). lt_python_index () makes the same view by
 * the same calls, in C.
 *
 * Every other key (advanced indexing, bools, NumPy's ints, negative
 * steps...), and every key libtensor refuses, is left to the overrides'
 * __getitem__, which makes the view or raises what PyTorch raises.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-python-index.h"

/* @object as a 64-bit int, where it is a Python int that fits. */
static gboolean
plain_int (PyObject *object,
           gint64   *value)
{
  int overflow;

  if (!PyLong_CheckExact (object))
    return FALSE;
  *value = PyLong_AsLongLongAndOverflow (object, &overflow);
  return overflow == 0;
}

/* A slice bound: @absent for None, else as plain_int (). */
static gboolean
plain_bound (PyObject *bound,
             gint64    absent,
             gint64   *value)
{
  *value = absent;
  return bound == Py_None || plain_int (bound, value);
}

/* @object as slice (dim, @bounds[0], @bounds[1], @bounds[2]), where it is
 * a slice slice() takes as it is. */
static gboolean
plain_slice (PyObject *object,
             gint64   *bounds)
{
  PySliceObject *slice = (PySliceObject *) object;

  return PySlice_Check (object)
         && plain_bound (slice->start, 0, &bounds[0])
         && plain_bound (slice->stop, G_MAXINT64, &bounds[1])
         && plain_bound (slice->step, 1, &bounds[2]) && bounds[2] > 0;
}

/**
 * lt_python_index:
 * @tensor: a tensor
 * @key: the key of @tensor[@key]
 *
 * The view @tensor[@key] for a key of ints, plain slices, None and one
 * Ellipsis, alone or in a tuple, as the overrides' __getitem__ makes it.
 *
 * Returns: (transfer full) (nullable): the view, or NULL, with no error
 *   raised, for any other key and any key libtensor refuses
 */
LtTensor *
lt_python_index (LtTensor *tensor,
                 PyObject *key)
{
  PyObject *const *items = &key;
  Py_ssize_t n_items = 1, n_indexed = 0;
  gboolean has_ellipsis = FALSE;
  /* The view so far; NULL while it is @tensor. */
  g_autoptr (LtTensor) view = NULL;
  guint dim = 0;

  if (PyTuple_CheckExact (key))
    {
      items = &PyTuple_GET_ITEM (key, 0);
      n_items = PyTuple_GET_SIZE (key);
    }
  /* What each item is, and how many of the dims the ints and slices
   * take: those the Ellipsis stands for are the others. */
  for (Py_ssize_t i = 0; i < n_items; i++)
    {
      gint64 values[3];

      if (plain_int (items[i], values) || plain_slice (items[i], values))
        n_indexed++;
      else if (items[i] == Py_Ellipsis && !has_ellipsis)
        has_ellipsis = TRUE;
      else if (items[i] != Py_None)
        return NULL;
    }
  if (n_indexed > (Py_ssize_t) lt_tensor_get_dim (tensor))
    return NULL;
  for (Py_ssize_t i = 0; i < n_items; i++)
    {
      PyObject *item = items[i];
      LtTensor *current = view != NULL ? view : tensor, *next = current;
      gint64 values[3];

      if (plain_int (item, values))
        next = lt_tensor_select (current, (int) dim, values[0], NULL);
      else if (item == Py_Ellipsis)
        dim += lt_tensor_get_dim (tensor) - (guint) n_indexed;
      else if (item == Py_None)
        next = lt_tensor_unsqueeze (current, (int) dim++, NULL);
      else if (plain_slice (item, values) && (values[0] != 0 || values[1] != G_MAXINT64
                                               || values[2] != 1))
        next = lt_tensor_slice (current, (int) dim++, values[0], values[1], values[2], NULL);
      else
        dim++;
      if (next == NULL)
        return NULL;
      if (next != current)
        {
          g_clear_object (&view);
          view = next;
        }
    }
  if (view == NULL)
    return lt_tensor_alias (tensor);
  return g_steal_pointer (&view);
}
