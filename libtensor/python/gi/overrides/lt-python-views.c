/* lt-python-views.c: views made from Python without PyGObject's invoke (_lt_views)
 *
 * A method called through introspection costs about half a microsecond
 * in PyGObject's invoke (the arguments' marshalling from the typelib's
 * description) before libtensor's code runs: as much again as the view
 * itself, and what put t.t() behind PyTorch's (bench/NOTES.md, section
 * 13). The methods here take the tensor from its wrapper, call
 * libtensor, and wrap the new view (lt-python-wrapper.c). Errors are
 * raised as GLib.Error, with the domain, code and message the
 * introspected calls give them.
 *
 * The module's one function, adopt(Lt.Tensor), makes them the class's
 * t(), transpose(), select() and slice(), without a Python function's
 * frame around each; gives it an __getitem__ that makes the commonest
 * views, t[i] and t[a:b:step > 0], before any Python code runs; and has
 * lt-python-wrapper.c make and free the class's wrappers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-python-wrapper.h"

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
  return lt_python_wrapper_new (view);
}

/* Reads the @n int arguments @args into @values. */
static gboolean
int_args (PyObject *const *args,
          Py_ssize_t       n_args,
          Py_ssize_t       n,
          const char      *name,
          long long       *values)
{
  if (n_args != n)
    {
      PyErr_Format (PyExc_TypeError, "%s() takes %zd arguments after the tensor, not %zd",
                    name, n, n_args);
      return FALSE;
    }
  for (Py_ssize_t i = 0; i < n; i++)
    {
      values[i] = PyLong_AsLongLong (args[i]);
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

/* The methods: @object is the tensor, @args the arguments after it. */

static PyObject *
tensor_t (PyObject *object,
          PyObject *unused)
{
  LtTensor *self = tensor_of (object), *view;
  GError *error = NULL;

  if (self == NULL)
    return NULL;
  view = lt_tensor_t (self, &error);
  return wrap (view, error);
}

static PyObject *
tensor_transpose (PyObject         *object,
                  PyObject *const  *args,
                  Py_ssize_t        n_args)
{
  long long dims[2];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 2, "transpose", dims) || (self = tensor_of (object)) == NULL)
    return NULL;
  view = lt_tensor_transpose (self, dim_arg (dims[0]), dim_arg (dims[1]), &error);
  return wrap (view, error);
}

static PyObject *
tensor_select (PyObject         *object,
               PyObject *const  *args,
               Py_ssize_t        n_args)
{
  long long values[2];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 2, "select", values) || (self = tensor_of (object)) == NULL)
    return NULL;
  view = lt_tensor_select (self, dim_arg (values[0]), values[1], &error);
  return wrap (view, error);
}

static PyObject *
tensor_slice (PyObject         *object,
              PyObject *const  *args,
              Py_ssize_t        n_args)
{
  long long values[4];
  LtTensor *self, *view;
  GError *error = NULL;

  if (!int_args (args, n_args, 4, "slice", values) || (self = tensor_of (object)) == NULL)
    return NULL;
  view = lt_tensor_slice (self, dim_arg (values[0]), values[1], values[2], values[3], &error);
  return wrap (view, error);
}

/* The overrides' own __getitem__, for every key but those below. */
static PyObject *python_getitem;

/* A slice's bound: FALSE, with no error raised, where it is not an int
 * of 64 bits. */
static gboolean
slice_bound (PyObject  *bound,
             long long  absent,
             long long *value)
{
  if (bound == Py_None)
    {
      *value = absent;
      return TRUE;
    }
  *value = PyLong_AsLongLong (bound);
  if (*value == -1 && PyErr_Occurred ())
    {
      PyErr_Clear ();
      return FALSE;
    }
  return TRUE;
}

/* t[i] is select (0, i) and t[a:b:step > 0] slice (0, a, b, step), as the
 * overrides' __getitem__ makes them; any other key, and any these calls
 * refuse (where the index expression says what is wrong), go to it. */
static PyObject *
tensor_getitem (PyObject *object,
                PyObject *key)
{
  LtTensor *self = tensor_of (object), *view = NULL;

  if (self == NULL)
    return NULL;
  if (PyLong_CheckExact (key))
    {
      int overflow;
      long long index = PyLong_AsLongLongAndOverflow (key, &overflow);

      if (overflow == 0 && !(index == -1 && PyErr_Occurred ()))
        view = lt_tensor_select (self, 0, index, NULL);
      PyErr_Clear ();
    }
  else if (PySlice_Check (key))
    {
      PySliceObject *slice = (PySliceObject *) key;
      long long start, stop, step;

      if (slice_bound (slice->step, 1, &step) && step > 0
          && slice_bound (slice->start, 0, &start)
          && slice_bound (slice->stop, G_MAXINT64, &stop))
        view = lt_tensor_slice (self, 0, start, stop, step, NULL);
    }
  if (view != NULL)
    return lt_python_wrapper_new (view);
  return PyObject_CallFunctionObjArgs (python_getitem, object, key, NULL);
}

static PyMethodDef tensor_methods[] = {
  { "t", tensor_t, METH_NOARGS,
    "t(): the transpose of a tensor of at most 2 dims, a view." },
  { "transpose", (PyCFunction) (void (*) (void)) tensor_transpose, METH_FASTCALL,
    "transpose(dim0, dim1): the view with dims dim0 and dim1 swapped." },
  { "select", (PyCFunction) (void (*) (void)) tensor_select, METH_FASTCALL,
    "select(dim, index): the view at index of dim dim, without that dim." },
  { "slice", (PyCFunction) (void (*) (void)) tensor_slice, METH_FASTCALL,
    "slice(dim, start, stop, step): the view of elements start, start + step, ... "
    "before stop of dim dim." },
  { "__getitem__", tensor_getitem, METH_O,
    "t[key], as PyTorch indexes." },
  { NULL, NULL, 0, NULL },
};

/* Gives @class tensor_methods, in place of the Python functions of the
 * same names; the overrides' __getitem__ stays as the fallback. */
static PyObject *
views_adopt (PyObject *module,
             PyObject *class)
{
  PyTypeObject *type = (PyTypeObject *) class;
  PyObject *getitem;

  if (!PyType_Check (class))
    return PyErr_Format (PyExc_TypeError, "adopt() takes a class, not %s", Py_TYPE (class)->tp_name);
  if (lt_python_wrapper_adopt (type) < 0)
    return NULL;
  getitem = PyObject_GetAttrString (class, "__getitem__");
  if (getitem == NULL)
    return NULL;
  Py_XSETREF (python_getitem, getitem);
  for (PyMethodDef *method = tensor_methods; method->ml_name != NULL; method++)
    {
      PyObject *descriptor = PyDescr_NewMethod (type, method);
      int set = descriptor == NULL ? -1 : PyObject_SetAttrString (class, method->ml_name, descriptor);

      Py_XDECREF (descriptor);
      if (set < 0)
        return NULL;
    }
  Py_RETURN_NONE;
}

static PyMethodDef views_methods[] = {
  { "adopt", views_adopt, METH_O,
    "adopt(cls): makes these cls's methods, with an __getitem__ for t[i] and t[a:b], "
    "and its wrappers' life lt-python-wrapper.c's" },
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
