/* lt-python-views.c: views made from Python without PyGObject's invoke (_lt_views)
 *
 * A method called through introspection costs about half a microsecond
 * in PyGObject's invoke (the arguments' marshalling from the typelib's
 * description) before libtensor's code runs, and an override written in
 * Python a frame more: together more than the view itself, and what put
 * views from Python behind PyTorch's (bench/NOTES.md, sections 13 and
 * 25).
 *
 * The module's one function, adopt(Lt.Tensor), makes the methods and
 * properties here the class's own, in place of the overrides' and
 * introspected ones of the same names, and has lt-python-wrapper.c make
 * and free the class's wrappers. t[key] calls tensor_getitem () from the
 * class's slot itself: CPython's wrapper of a __getitem__ in the class's
 * dict looks it up on every call (30-40 ns of a 450 ns view).
 *
 * Each method takes the commonest calls, those with positional Python
 * ints (or what has __index__, and a tensor or a sequence of ints where
 * the method takes one), calls libtensor and wraps the view, or raises
 * libtensor's error as GLib.Error with the domain, code and message the
 * introspected calls give it. A float or a bool (NumPy's too) where an
 * int goes is a TypeError, as in PyTorch. Every other call goes to the
 * method it replaced, which converts what it converts and raises what it
 * raises: a dim beyond int's range, for one, is its OverflowError.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "lt-python-index.h"
#include "lt-python-wrapper.h"

PyMODINIT_FUNC PyInit__lt_views (void);

/* The methods, in tensor_methods' order. */
typedef enum {
  METHOD_T,
  METHOD_TRANSPOSE,
  METHOD_SWAPAXES,
  METHOD_SWAPDIMS,
  METHOD_SELECT,
  METHOD_SLICE,
  METHOD_NARROW,
  METHOD_UNFOLD,
  METHOD_DIAGONAL,
  METHOD_FLATTEN,
  METHOD_UNSQUEEZE,
  METHOD_SQUEEZE,
  METHOD_VIEW,
  METHOD_RESHAPE,
  METHOD_EXPAND,
  METHOD_PERMUTE,
  METHOD_MOVEDIM,
  METHOD_VIEW_AS,
  METHOD_RESHAPE_AS,
  METHOD_EXPAND_AS,
  METHOD_ALIAS,
  METHOD_DETACH,
  METHOD_CONTIGUOUS,
  METHOD_GETITEM,
  N_METHODS,
  /* The properties, in tensor_properties' order. */
  PROPERTY_T = N_METHODS,
  PROPERTY_MT,
  N_REPLACED
} Method;

#define N_PROPERTIES (N_REPLACED - N_METHODS)

/* The class's own methods and properties, before adopt() replaced them. */
static PyObject *replaced[N_REPLACED];

/* The class adopt() gave the methods to. */
static PyObject *adopted;

/* GLib.Error, the class the introspected calls raise. */
static PyObject *glib_error;

/* The tensor @object wraps: NULL for a wrapper without one. */
static LtTensor *
tensor_of (PyObject *object)
{
  GObject *gobject = pygobject_get (object);

  return LT_IS_TENSOR (gobject) ? LT_TENSOR (gobject) : NULL;
}

/* Whether @object is a bool (Python's or NumPy's, whose __index__ only
 * warns), a float or another number without __index__: what PyTorch
 * refuses where an int goes, and PyGObject's invoke would truncate. A
 * tensor, which has the number protocol too, is not one: view_as () and
 * its kind take one, by keyword too. */
static gboolean
refused_number (PyObject *object)
{
  const char *type_name = Py_TYPE (object)->tp_name;

  if (PyBool_Check (object) || strcmp (type_name, "numpy.bool_") == 0
      || strcmp (type_name, "numpy.bool") == 0)
    return TRUE;
  if (adopted != NULL && PyObject_TypeCheck (object, (PyTypeObject *) adopted))
    return FALSE;
  return !PyIndex_Check (object) && PyNumber_Check (object);
}

/* The wrapper of @view (which it takes), or NULL with *@error (which it
 * frees) raised as the introspected call raises it: GLib.Error, with its
 * domain, code and message. (@error is where the call that made @view
 * put it: passing the error itself, in the same call's arguments, could
 * read it before that call.) */
static PyObject *
wrap (LtTensor  *view,
      GError   **error)
{
  PyObject *exception;

  if (view != NULL)
    return lt_python_wrapper_new (view);
  exception = PyObject_CallFunction (glib_error, "ssi", (*error)->message,
                                     g_quark_to_string ((*error)->domain), (*error)->code);
  if (exception != NULL)
    {
      PyErr_SetObject (glib_error, exception);
      Py_DECREF (exception);
    }
  g_clear_error (error);
  return NULL;
}

/* What the replaced @method gives for a call the methods do not take. */
static PyObject *
call_replaced (Method            method,
               PyObject         *self,
               PyObject *const  *args,
               Py_ssize_t        n_args,
               PyObject         *kwnames)
{
  Py_ssize_t n_all = n_args + (kwnames != NULL ? PyTuple_GET_SIZE (kwnames) : 0);
  PyObject *small[8], **stack, *result;

  /* An argument refused (a float where an int goes) has its error
   * raised already; keyword arguments are refused here, as positional
   * ones are (none of these methods takes a float or a bool). */
  if (PyErr_Occurred ())
    return NULL;
  for (Py_ssize_t i = n_args; i < n_all; i++)
    if (refused_number (args[i]))
      return PyErr_Format (PyExc_TypeError, "%S expects an int, not %s",
                           PyTuple_GET_ITEM (kwnames, i - n_args), Py_TYPE (args[i])->tp_name);
  stack = n_all < (Py_ssize_t) G_N_ELEMENTS (small) ? small : PyMem_New (PyObject *, n_all + 1);
  if (stack == NULL)
    return PyErr_NoMemory ();
  stack[0] = self;
  for (Py_ssize_t i = 0; i < n_all; i++)
    stack[i + 1] = args[i];
  result = PyObject_Vectorcall (replaced[method], stack, n_args + 1, kwnames);
  if (stack != small)
    PyMem_Free (stack);
  return result;
}

/* The tensor of a call the methods take: positional arguments only, from
 * @min_args to @max_args of them, on a wrapper of a tensor. */
static LtTensor *
plain_call (PyObject   *self,
            Py_ssize_t  n_args,
            PyObject   *kwnames,
            Py_ssize_t  min_args,
            Py_ssize_t  max_args)
{
  if (kwnames != NULL || n_args < min_args || n_args > max_args)
    return NULL;
  return tensor_of (self);
}

/* @object as a Python int, where it is an int or has __index__ (NumPy's
 * ints): a new reference, or NULL. A bool, a float or another number is
 * refused with TypeError, as PyTorch refuses them where an int goes
 * (PyGObject's invoke would truncate a float); anything else (a name, a
 * sequence...) is left to the replaced method, with nothing raised. */
static PyObject *
python_int_of (PyObject *object)
{
  PyObject *number;

  if (PyLong_CheckExact (object))
    return Py_NewRef (object);
  if (refused_number (object))
    return PyErr_Format (PyExc_TypeError, "expected an int, not %s", Py_TYPE (object)->tp_name);
  if (!PyIndex_Check (object))
    return NULL;
  /* Where __index__ refuses (a NumPy array of several elements), the
   * replaced method says what it makes of the object. */
  number = PyNumber_Index (object);
  if (number == NULL)
    PyErr_Clear ();
  return number;
}

/* @object as a 64-bit int in @value, where python_int_of () gives one;
 * @overflow -1 or 1 where it does not fit (@value then meaningless). */
static gboolean
wide_int_of (PyObject *object,
             gint64   *value,
             int      *overflow)
{
  PyObject *number = python_int_of (object);

  if (number == NULL)
    return FALSE;
  *value = PyLong_AsLongLongAndOverflow (number, overflow);
  Py_DECREF (number);
  return TRUE;
}

/* @object as a 64-bit int: FALSE where python_int_of () gives none, or
 * where it does not fit (the replaced method says so). */
static gboolean
int64_of (PyObject *object,
          gint64   *value)
{
  int overflow;

  return wide_int_of (object, value, &overflow) && overflow == 0;
}

/* @object as a dim: as int64_of (), and FALSE for a dim beyond int's
 * range too, which the replaced method refuses with an OverflowError
 * that names it (as it does given by keyword). */
static gboolean
dim_of (PyObject *object,
        int      *dim)
{
  gint64 value;

  if (!int64_of (object, &value) || value < G_MININT || value > G_MAXINT)
    return FALSE;
  *dim = (int) value;
  return TRUE;
}

/* The @n_args dims @args, at most LT_MAX_DIMS. */
static gboolean
dims_of (PyObject *const *args,
         Py_ssize_t       n_args,
         int             *dims)
{
  if (n_args > LT_MAX_DIMS)
    return FALSE;
  for (Py_ssize_t i = 0; i < n_args; i++)
    if (!dim_of (args[i], &dims[i]))
      return FALSE;
  return TRUE;
}

/* PyTorch's f(*ints) or f(sequence) convention: @args, or the items of
 * the one tuple or list @args holds (an Lt.Size is a tuple), at most
 * LT_MAX_DIMS of them. A list is read from a tuple copy, in *@held
 * (NULL otherwise; the caller releases it): an item's __index__ could
 * change the list under the pointers. */
static gboolean
int_list_of (PyObject *const  *args,
             Py_ssize_t        n_args,
             PyObject        **held,
             PyObject *const **items,
             Py_ssize_t       *n_items)
{
  PyObject *sequence = n_args == 1 ? args[0] : NULL;

  *held = NULL;
  *items = args;
  *n_items = n_args;
  if (sequence != NULL && PyList_Check (sequence))
    sequence = *held = PyList_AsTuple (sequence);
  if (sequence != NULL && PyTuple_Check (sequence))
    {
      *items = &PyTuple_GET_ITEM (sequence, 0);
      *n_items = PyTuple_GET_SIZE (sequence);
    }
  return *n_items <= LT_MAX_DIMS;
}

/* The tensor wrapped by @object where it is an Lt.Tensor, else NULL. */
static LtTensor *
tensor_arg (PyObject *object)
{
  return PyObject_TypeCheck (object, &PyGObject_Type) ? tensor_of (object) : NULL;
}

/* The methods. Each is called with the wrapper @self and the arguments
 * after it, @kwnames naming the last of them; a call it does not take
 * goes to the method it replaced. */

#define METHOD_ARGS PyObject *self, PyObject *const *args, Py_ssize_t n_args, PyObject *kwnames
#define REPLACED(method) call_replaced (method, self, args, n_args, kwnames)

static PyObject *
tensor_t (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 0);
  GError *error = NULL;

  if (tensor == NULL)
    return REPLACED (METHOD_T);
  return wrap (lt_tensor_t (tensor, &error), &error);
}

/* transpose(), swapaxes() and swapdims(): two dims swapped. */
static PyObject *
swapped (Method method,
         METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 2, 2);
  GError *error = NULL;
  int dims[2];

  if (tensor == NULL || !dims_of (args, 2, dims))
    return REPLACED (method);
  return wrap (lt_tensor_transpose (tensor, dims[0], dims[1], &error), &error);
}

static PyObject *
tensor_transpose (METHOD_ARGS)
{
  return swapped (METHOD_TRANSPOSE, self, args, n_args, kwnames);
}

static PyObject *
tensor_swapaxes (METHOD_ARGS)
{
  return swapped (METHOD_SWAPAXES, self, args, n_args, kwnames);
}

static PyObject *
tensor_swapdims (METHOD_ARGS)
{
  return swapped (METHOD_SWAPDIMS, self, args, n_args, kwnames);
}

static PyObject *
tensor_select (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 2, 2);
  GError *error = NULL;
  gint64 index;
  int dim;

  if (tensor == NULL || !dim_of (args[0], &dim) || !int64_of (args[1], &index))
    return REPLACED (METHOD_SELECT);
  return wrap (lt_tensor_select (tensor, dim, index, &error), &error);
}

/* slice(), narrow() and unfold(): a dim, then three (slice) or two
 * 64-bit ints. */
static PyObject *
dim_and_int64s (Method method,
                METHOD_ARGS)
{
  Py_ssize_t n_ints = method == METHOD_SLICE ? 3 : 2;
  LtTensor *tensor = plain_call (self, n_args, kwnames, n_ints + 1, n_ints + 1);
  LtTensor *view;
  GError *error = NULL;
  gint64 values[3];
  int dim;

  if (tensor == NULL || !dim_of (args[0], &dim))
    return REPLACED (method);
  for (Py_ssize_t i = 0; i < n_ints; i++)
    if (!int64_of (args[i + 1], &values[i]))
      return REPLACED (method);
  if (method == METHOD_SLICE)
    view = lt_tensor_slice (tensor, dim, values[0], values[1], values[2], &error);
  else if (method == METHOD_NARROW)
    view = lt_tensor_narrow (tensor, dim, values[0], values[1], &error);
  else
    view = lt_tensor_unfold (tensor, dim, values[0], values[1], &error);
  return wrap (view, &error);
}

static PyObject *
tensor_slice (METHOD_ARGS)
{
  return dim_and_int64s (METHOD_SLICE, self, args, n_args, kwnames);
}

static PyObject *
tensor_narrow (METHOD_ARGS)
{
  return dim_and_int64s (METHOD_NARROW, self, args, n_args, kwnames);
}

static PyObject *
tensor_unfold (METHOD_ARGS)
{
  return dim_and_int64s (METHOD_UNFOLD, self, args, n_args, kwnames);
}

/* diagonal(offset=0, dim1=0, dim2=1) */
static PyObject *
tensor_diagonal (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 3);
  GError *error = NULL;
  gint64 offset = 0;
  int dims[2] = { 0, 1 };

  if (tensor == NULL || (n_args > 0 && !int64_of (args[0], &offset))
      || (n_args > 1 && !dims_of (args + 1, n_args - 1, dims)))
    return REPLACED (METHOD_DIAGONAL);
  return wrap (lt_tensor_diagonal (tensor, offset, dims[0], dims[1], &error), &error);
}

/* flatten(start_dim=0, end_dim=-1) */
static PyObject *
tensor_flatten (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 2);
  LtTensor *view;
  GError *error = NULL;
  int dims[2] = { 0, -1 };

  if (tensor == NULL || !dims_of (args, n_args, dims))
    return REPLACED (METHOD_FLATTEN);
  /* It may copy: other Python threads run meanwhile. */
  Py_BEGIN_ALLOW_THREADS
  view = lt_tensor_flatten (tensor, dims[0], dims[1], &error);
  Py_END_ALLOW_THREADS
  return wrap (view, &error);
}

static PyObject *
tensor_unsqueeze (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 1, 1);
  GError *error = NULL;
  int dim;

  if (tensor == NULL || !dim_of (args[0], &dim))
    return REPLACED (METHOD_UNSQUEEZE);
  return wrap (lt_tensor_unsqueeze (tensor, dim, &error), &error);
}

/* squeeze(), or squeeze(dim) of one dim */
static PyObject *
tensor_squeeze (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 1);
  GError *error = NULL;
  int dim;

  if (tensor != NULL && n_args == 0)
    return wrap (lt_tensor_squeeze (tensor), NULL);
  if (tensor == NULL || !dim_of (args[0], &dim))
    return REPLACED (METHOD_SQUEEZE);
  return wrap (lt_tensor_squeeze_dim (tensor, dim, &error), &error);
}

/* view(), reshape() and expand(): f(*sizes) or f(sizes) */
static PyObject *
sized (Method method,
       METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 1, G_MAXSSIZE);
  PyObject *const *items;
  PyObject *held = NULL;
  Py_ssize_t n_items = 0;
  gint64 sizes[LT_MAX_DIMS];
  LtTensor *view;
  GError *error = NULL;
  gboolean taken = tensor != NULL && int_list_of (args, n_args, &held, &items, &n_items);

  for (Py_ssize_t i = 0; taken && i < n_items; i++)
    taken = int64_of (items[i], &sizes[i]);
  Py_XDECREF (held);
  if (!taken)
    return REPLACED (method);
  if (method == METHOD_VIEW)
    view = lt_tensor_view (tensor, sizes, (guint) n_items, &error);
  else if (method == METHOD_EXPAND)
    view = lt_tensor_expand (tensor, sizes, (guint) n_items, &error);
  else
    {
      /* It may copy: other Python threads run meanwhile. */
      Py_BEGIN_ALLOW_THREADS
      view = lt_tensor_reshape (tensor, sizes, (guint) n_items, &error);
      Py_END_ALLOW_THREADS
    }
  return wrap (view, &error);
}

static PyObject *
tensor_view (METHOD_ARGS)
{
  return sized (METHOD_VIEW, self, args, n_args, kwnames);
}

static PyObject *
tensor_reshape (METHOD_ARGS)
{
  return sized (METHOD_RESHAPE, self, args, n_args, kwnames);
}

static PyObject *
tensor_expand (METHOD_ARGS)
{
  return sized (METHOD_EXPAND, self, args, n_args, kwnames);
}

/* permute(*dims) or permute(dims) */
static PyObject *
tensor_permute (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 1, G_MAXSSIZE);
  PyObject *const *items;
  PyObject *held = NULL;
  Py_ssize_t n_items = 0;
  int dims[LT_MAX_DIMS];
  GError *error = NULL;
  gboolean taken = tensor != NULL && int_list_of (args, n_args, &held, &items, &n_items)
                   && dims_of (items, n_items, dims);

  Py_XDECREF (held);
  if (!taken)
    return REPLACED (METHOD_PERMUTE);
  return wrap (lt_tensor_permute (tensor, dims, (guint) n_items, &error), &error);
}

/* movedim(source, destination) of one dim each */
static PyObject *
tensor_movedim (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 2, 2);
  GError *error = NULL;
  int dims[2];

  if (tensor == NULL || !dims_of (args, 2, dims))
    return REPLACED (METHOD_MOVEDIM);
  return wrap (lt_tensor_movedim (tensor, &dims[0], 1, &dims[1], 1, &error), &error);
}

/* view_as(), reshape_as() and expand_as() */
static PyObject *
shaped_as (Method method,
           METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 1, 1);
  LtTensor *other = tensor != NULL ? tensor_arg (args[0]) : NULL;
  LtTensor *view;
  GError *error = NULL;

  if (other == NULL)
    return REPLACED (method);
  if (method == METHOD_VIEW_AS)
    view = lt_tensor_view_as (tensor, other, &error);
  else if (method == METHOD_RESHAPE_AS)
    {
      /* It may copy: other Python threads run meanwhile. */
      Py_BEGIN_ALLOW_THREADS
      view = lt_tensor_reshape_as (tensor, other, &error);
      Py_END_ALLOW_THREADS
    }
  else
    view = lt_tensor_expand_as (tensor, other, &error);
  return wrap (view, &error);
}

static PyObject *
tensor_view_as (METHOD_ARGS)
{
  return shaped_as (METHOD_VIEW_AS, self, args, n_args, kwnames);
}

static PyObject *
tensor_reshape_as (METHOD_ARGS)
{
  return shaped_as (METHOD_RESHAPE_AS, self, args, n_args, kwnames);
}

static PyObject *
tensor_expand_as (METHOD_ARGS)
{
  return shaped_as (METHOD_EXPAND_AS, self, args, n_args, kwnames);
}

static PyObject *
tensor_alias (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 0);

  return tensor == NULL ? REPLACED (METHOD_ALIAS) : wrap (lt_tensor_alias (tensor), NULL);
}

static PyObject *
tensor_detach (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 0);

  return tensor == NULL ? REPLACED (METHOD_DETACH) : wrap (lt_tensor_detach (tensor), NULL);
}

/* contiguous(): @self itself where it is contiguous, as PyTorch. */
static PyObject *
tensor_contiguous (METHOD_ARGS)
{
  LtTensor *tensor = plain_call (self, n_args, kwnames, 0, 0);
  LtTensor *result;
  GError *error = NULL;

  if (tensor == NULL)
    return REPLACED (METHOD_CONTIGUOUS);
  if (lt_tensor_is_contiguous (tensor))
    return Py_NewRef (self);
  /* A copy: other Python threads run meanwhile. */
  Py_BEGIN_ALLOW_THREADS
  result = lt_tensor_contiguous (tensor, &error);
  Py_END_ALLOW_THREADS
  return wrap (result, &error);
}

/* t[key]: the index expression's view where lt_python_index () makes
 * it, else the overrides' __getitem__, which makes the views it does not
 * and raises what PyTorch raises. */
static PyObject *
tensor_getitem (PyObject *self,
                PyObject *key)
{
  LtTensor *tensor = tensor_of (self);
  LtTensor *view = tensor != NULL ? lt_python_index (tensor, key) : NULL;

  if (view != NULL)
    return lt_python_wrapper_new (view);
  return PyObject_CallFunctionObjArgs (replaced[METHOD_GETITEM], self, key, NULL);
}

/* The properties, and what their replaced versions give where they do
 * not make the view. */

static PyObject *
replaced_property (Method    property,
                   PyObject *self)
{
  PyObject *descriptor = replaced[property];

  return Py_TYPE (descriptor)->tp_descr_get (descriptor, self, (PyObject *) Py_TYPE (self));
}

/* T: the transpose of a matrix; for other dims, as PyTorch 1.13, the
 * dims reversed. */
static PyObject *
tensor_get_t (PyObject *self,
              void     *unused)
{
  LtTensor *tensor = tensor_of (self);
  int dims[LT_MAX_DIMS];
  GError *error = NULL;
  guint n_dims;

  if (tensor == NULL)
    return replaced_property (PROPERTY_T, self);
  n_dims = lt_tensor_get_dim (tensor);
  for (guint i = 0; i < n_dims; i++)
    dims[i] = (int) (n_dims - 1 - i);
  return wrap (lt_tensor_permute (tensor, dims, n_dims, &error), &error);
}

/* mT: the last two dims swapped. */
static PyObject *
tensor_get_mt (PyObject *self,
               void     *unused)
{
  LtTensor *tensor = tensor_of (self);
  GError *error = NULL;

  if (tensor == NULL)
    return replaced_property (PROPERTY_MT, self);
  return wrap (lt_tensor_mt (tensor, &error), &error);
}

/* In Method's order, from PROPERTY_T. */
static PyGetSetDef tensor_properties[] = {
  { "T", tensor_get_t, NULL,
    "The transpose of a matrix; for other dims, as PyTorch 1.13, the dims reversed (a view).",
    NULL },
  { "mT", tensor_get_mt, NULL,
    "The batch of transposed matrices: the last two dims swapped (a view).", NULL },
};

G_STATIC_ASSERT (G_N_ELEMENTS (tensor_properties) == N_PROPERTIES);

#define FAST(function) (PyCFunction) (void (*) (void)) function, METH_FASTCALL | METH_KEYWORDS

/* In Method's order. Each doc starts with the signature inspect.signature ()
 * and help () show (CPython's "name(...)\n--\n\n" convention). */
static PyMethodDef tensor_methods[] = {
  { "t", FAST (tensor_t),
    "t($self)\n--\n\n"
    "The transpose of a tensor of at most 2 dims, a view." },
  { "transpose", FAST (tensor_transpose),
    "transpose($self, dim0, dim1)\n--\n\n"
    "The view with dims dim0 and dim1 swapped." },
  { "swapaxes", FAST (tensor_swapaxes),
    "swapaxes($self, axis0, axis1)\n--\n\n"
    "The same as transpose()." },
  { "swapdims", FAST (tensor_swapdims),
    "swapdims($self, dim0, dim1)\n--\n\n"
    "The same as transpose()." },
  { "select", FAST (tensor_select),
    "select($self, dim, index)\n--\n\n"
    "The view at index of dim dim, without that dim." },
  { "slice", FAST (tensor_slice),
    "slice($self, dim, start, stop, step)\n--\n\n"
    "The view of elements start, start + step, ... before stop of dim dim." },
  { "narrow", FAST (tensor_narrow),
    "narrow($self, dim, start, length)\n--\n\n"
    "The view of length elements of dim dim from start." },
  { "unfold", FAST (tensor_unfold),
    "unfold($self, dimension, size, step)\n--\n\n"
    "The view of every window of size elements of dim dimension, step apart, in a new last dim." },
  { "diagonal", FAST (tensor_diagonal),
    "diagonal($self, offset=0, dim1=0, dim2=1)\n--\n\n"
    "The view of a diagonal of dims dim1 and dim2." },
  { "flatten", FAST (tensor_flatten),
    "flatten($self, start_dim=0, end_dim=-1)\n--\n\n"
    "Dims start_dim to end_dim as one: a view where the strides allow, else a copy." },
  { "unsqueeze", FAST (tensor_unsqueeze),
    "unsqueeze($self, dim)\n--\n\n"
    "The view with a dim of size 1 at dim." },
  { "squeeze", FAST (tensor_squeeze),
    "squeeze($self, dim=None)\n--\n\n"
    "The view without the dims of size 1 (of dim, or of those in dim)." },
  { "view", FAST (tensor_view),
    "view($self, *shape)\n--\n\n"
    "The same elements in shape, a view; one size may be -1." },
  { "reshape", FAST (tensor_reshape),
    "reshape($self, *shape)\n--\n\n"
    "The same as view(), or a copy where the strides do not allow a view." },
  { "expand", FAST (tensor_expand),
    "expand($self, *sizes)\n--\n\n"
    "The view with dims of size 1 repeated to sizes (-1 keeps a size)." },
  { "permute", FAST (tensor_permute),
    "permute($self, *dims)\n--\n\n"
    "The view with its dims in that order." },
  { "movedim", FAST (tensor_movedim),
    "movedim($self, source, destination)\n--\n\n"
    "The view with dims source moved to destination." },
  { "view_as", FAST (tensor_view_as),
    "view_as($self, other)\n--\n\n"
    "The same as view(other.shape)." },
  { "reshape_as", FAST (tensor_reshape_as),
    "reshape_as($self, other)\n--\n\n"
    "The same as reshape(other.shape)." },
  { "expand_as", FAST (tensor_expand_as),
    "expand_as($self, other)\n--\n\n"
    "The same as expand(other.shape)." },
  { "alias", FAST (tensor_alias),
    "alias($self)\n--\n\n"
    "A new view of the same elements." },
  { "detach", FAST (tensor_detach),
    "detach($self)\n--\n\n"
    "The same as alias(): libtensor records no gradients." },
  { "contiguous", FAST (tensor_contiguous),
    "contiguous($self)\n--\n\n"
    "The tensor itself where it is contiguous, else a contiguous copy." },
  { "__getitem__", tensor_getitem, METH_O,
    "__getitem__($self, key, /)\n--\n\n"
    "t[key], as PyTorch indexes." },
};

G_STATIC_ASSERT (G_N_ELEMENTS (tensor_methods) == N_METHODS);

/* The name of what replaces replaced[@i]. */
static const char *
replacement_name (guint i)
{
  return i < N_METHODS ? tensor_methods[i].ml_name : tensor_properties[i - N_METHODS].name;
}

/* Gives @class tensor_methods and tensor_properties, in place of its
 * own of the same names, which they call for what they do not take. */
static PyObject *
views_adopt (PyObject *module,
             PyObject *class)
{
  PyTypeObject *type = (PyTypeObject *) class;
  PyObject *own[N_REPLACED];

  if (!PyType_Check (class))
    return PyErr_Format (PyExc_TypeError, "adopt() takes a class, not %s", Py_TYPE (class)->tp_name);
  /* Once: adopted again, the class's own methods would be these. */
  if (adopted != NULL)
    {
      if (adopted == class)
        Py_RETURN_NONE;
      return PyErr_Format (PyExc_TypeError, "adopt() already gave %s these methods",
                           ((PyTypeObject *) adopted)->tp_name);
    }
  if (lt_python_wrapper_adopt (type) < 0)
    return NULL;
  for (guint i = 0; i < N_REPLACED; i++)
    {
      own[i] = PyObject_GetAttrString (class, replacement_name (i));
      if (own[i] != NULL && i >= N_METHODS && Py_TYPE (own[i])->tp_descr_get == NULL)
        {
          PyErr_Format (PyExc_TypeError, "%s.%s is not a property", type->tp_name,
                        replacement_name (i));
          Py_CLEAR (own[i]);
        }
      if (own[i] == NULL)
        {
          while (i-- > 0)
            Py_DECREF (own[i]);
          return NULL;
        }
    }
  for (guint i = 0; i < N_REPLACED; i++)
    Py_XSETREF (replaced[i], own[i]);
  adopted = Py_NewRef (class);
  for (guint i = 0; i < N_REPLACED; i++)
    {
      PyObject *descriptor = i < N_METHODS
                             ? PyDescr_NewMethod (type, &tensor_methods[i])
                             : PyDescr_NewGetSet (type, &tensor_properties[i - N_METHODS]);
      int set = descriptor == NULL ? -1 : PyObject_SetAttrString (class, replacement_name (i),
                                                                  descriptor);

      Py_XDECREF (descriptor);
      if (set < 0)
        return NULL;
    }
  /* After __getitem__'s own descriptor, which set the slot to CPython's
   * wrapper; a __getitem__ set later sets it again. */
  type->tp_as_mapping->mp_subscript = tensor_getitem;
  Py_RETURN_NONE;
}

static PyMethodDef views_methods[] = {
  { "adopt", views_adopt, METH_O,
    "adopt(cls): makes this module's views cls's methods, and its wrappers' life "
    "lt-python-wrapper.c's" },
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
