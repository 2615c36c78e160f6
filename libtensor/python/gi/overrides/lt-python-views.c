/* lt-python-views.c: views made from Python without PyGObject's invoke (_lt_views)
 *
 * A method called through introspection costs about half a microsecond
 * in PyGObject's invoke (the arguments' marshalling from the typelib's
 * description) before libtensor's code runs: as much again as the view
 * itself, and what put t.t() behind PyTorch's (bench/NOTES.md, section
 * 13). These entry points take the tensor from its wrapper, call
 * libtensor, and wrap the new view with PyGObject's C API, for the
 * overrides' t(), transpose(), select() and basic indexing. Errors are
 * raised as GLib.Error, with the domain, code and message the
 * introspected calls give them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pygobject.h>

#include <libtensor.h>

PyMODINIT_FUNC PyInit__lt_views (void);

/* GLib.Error, the class the introspected calls raise. */
static PyObject *glib_error;

/* The tensor wrapped by @object, or NULL with TypeError raised. */
static LtTensor *
tensor_of (PyObject *object)
{
  if (PyObject_TypeCheck (object, &PyGObject_Type) && LT_IS_TENSOR (pygobject_get (object)))
    return LT_TENSOR (pygobject_get (object));
  PyErr_Format (PyExc_TypeError, "expected an Lt.Tensor, not %s", Py_TYPE (object)->tp_name);
  return NULL;
}

/* The Python wrapper of @view (which it takes), or NULL with @error
 * raised as GLib.Error. (Callers make the view before they pass @error:
 * the order arguments are evaluated in is unspecified.) */
static PyObject *
wrap (LtTensor *view,
      GError   *error)
{
  PyObject *result;

  if (view == NULL)
    {
      PyObject *exception = PyObject_CallFunction (glib_error, "ssi", error->message,
                                                   g_quark_to_string (error->domain),
                                                   error->code);

      if (exception != NULL)
        {
          PyErr_SetObject (glib_error, exception);
          Py_DECREF (exception);
        }
      g_error_free (error);
      return NULL;
    }
  result = pygobject_new (G_OBJECT (view));
  g_object_unref (view);
  return result;
}

/* Reads @n int arguments after the tensor into @values. */
static gboolean
int_args (PyObject *const *args,
          Py_ssize_t       n_args,
          Py_ssize_t       n,
          const char      *name,
          long long       *values)
{
  if (n_args != n + 1)
    {
      PyErr_Format (PyExc_TypeError, "%s() takes %zd arguments after the tensor, not %zd",
                    name, n, n_args - 1);
      return FALSE;
    }
  for (Py_ssize_t i = 0; i < n; i++)
    {
      values[i] = PyLong_AsLongLong (args[i + 1]);
      if (values[i] == -1 && PyErr_Occurred ())
        return FALSE;
    }
  return TRUE;
}

/* A dim from Python: out of int's range is refused as libtensor refuses
 * an out-of-range dim, by passing one that no tensor has. */
static int
dim_arg (long long value)
{
  return value < G_MININT ? G_MININT : value > G_MAXINT ? G_MAXINT : (int) value;
}

static PyObject *
views_t (PyObject *module,
         PyObject *object)
{
  LtTensor *self = tensor_of (object), *view;
  GError *error = NULL;

  if (self == NULL)
    return NULL;
  view = lt_tensor_t (self, &error);
  return wrap (view, error);
}

static PyObject *
views_transpose (PyObject         *module,
                 PyObject *const  *args,
                 Py_ssize_t        n_args)
{
  long long dims[2];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 2, "transpose", dims) || (self = tensor_of (args[0])) == NULL)
    return NULL;
  view = lt_tensor_transpose (self, dim_arg (dims[0]), dim_arg (dims[1]), &error);
  return wrap (view, error);
}

static PyObject *
views_select (PyObject         *module,
              PyObject *const  *args,
              Py_ssize_t        n_args)
{
  long long values[2];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 2, "select", values) || (self = tensor_of (args[0])) == NULL)
    return NULL;
  view = lt_tensor_select (self, dim_arg (values[0]), values[1], &error);
  return wrap (view, error);
}

static PyObject *
views_slice (PyObject         *module,
             PyObject *const  *args,
             Py_ssize_t        n_args)
{
  long long values[4];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 4, "slice", values) || (self = tensor_of (args[0])) == NULL)
    return NULL;
  view = lt_tensor_slice (self, dim_arg (values[0]), values[1], values[2], values[3], &error);
  return wrap (view, error);
}

static PyMethodDef views_methods[] = {
  { "t", views_t, METH_O, "t(tensor): lt_tensor_t()" },
  { "transpose", (PyCFunction) (void (*) (void)) views_transpose, METH_FASTCALL,
    "transpose(tensor, dim0, dim1): lt_tensor_transpose()" },
  { "select", (PyCFunction) (void (*) (void)) views_select, METH_FASTCALL,
    "select(tensor, dim, index): lt_tensor_select()" },
  { "slice", (PyCFunction) (void (*) (void)) views_slice, METH_FASTCALL,
    "slice(tensor, dim, start, stop, step): lt_tensor_slice()" },
  { NULL, NULL, 0, NULL },
};

static struct PyModuleDef views_module = {
  PyModuleDef_HEAD_INIT, "_lt_views", "Views made without PyGObject's invoke.", -1,
  views_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__lt_views (void)
{
  PyObject *gobject = pygobject_init (3, 0, 0);
  PyObject *glib;

  if (gobject == NULL)
    return NULL;
  Py_DECREF (gobject);
  glib = PyImport_ImportModule ("gi.repository.GLib");
  if (glib == NULL)
    return NULL;
  glib_error = PyObject_GetAttrString (glib, "Error");
  Py_DECREF (glib);
  if (glib_error == NULL)
    return NULL;
  return PyModule_Create (&views_module);
}
