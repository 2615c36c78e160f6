/* lt-python-wrapper.c: Lt.Tensor's Python wrappers, made and freed in C (_lt_views)
 *
 * A view made from Python is a GObject and its PyGObject wrapper. Of the
 * 0.75 µs t.t() took, freeing the wrapper was two thirds (bench/NOTES.md,
 * section 25): PyGObject's dealloc gives the GObject instance data that
 * records the wrapper's class, releases the GIL around g_object_unref (),
 * and the instance data's destroy notify, run by the finalization, takes
 * the GIL and releases it again; three round trips of the GIL and four
 * of GLib's qdata locks for each view.
 *
 * lt_python_wrapper_adopt () gives the overrides' Lt.Tensor class a
 * dealloc that skips them for the wrappers that carry nothing on the
 * Python side: of that class exactly (the class PyGObject makes for an
 * LtTensor without instance data, so none is needed to make the same
 * class again), with no instance dict and no toggle reference, of a
 * tensor in host memory. It drops the wrapper's reference with the GIL
 * held: freeing host memory waits for no other thread, and the destroy
 * notifies that call into Python (PyGObject's instance data, a DLPack
 * producer's deleter) take it with PyGILState_Ensure (), which nests.
 * (Freeing a device's memory can wait for the device, and so for a host
 * callback another library queued, which may want the GIL.) Every other
 * wrapper is freed by PyGObject's own dealloc.
 *
 * This knows PyGObject's wrappers as PyGObject 3.42 to 3.54 makes them
 * (pygobject-object.c): 3.55 moved the instance dict into the instance
 * data, dropped toggle references and added a finalizer. With another
 * version, lt_python_wrapper_adopt () leaves the wrappers to PyGObject.
 *
 * lt_python_wrapper_new () wraps a tensor just made, which nothing else
 * holds and so has no wrapper (any instance data it has names this same
 * class), without PyGObject's lookups.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* lt-python-views.c defines PyGObject's API table. */
#define NO_IMPORT_PYGOBJECT
#include "lt-python-wrapper.h"

/* The overrides' Lt.Tensor, once adopted. */
static PyTypeObject *tensor_class;

/* Where PyGObject keeps a GObject's wrapper (pygobject-object.c). */
static GQuark wrapper_key;

static void
tensor_dealloc (PyObject *object)
{
  PyGObject *self = (PyGObject *) object;
  PyTypeObject *type = Py_TYPE (object);
  GObject *gobject = self->obj;

  /* Subclasses reach here from CPython's subtype_dealloc (), which leaves
   * the type's reference to its base's dealloc when the base is a heap
   * type, as this class is. (PyGObject takes a toggle reference only for
   * a wrapper with an instance dict; the flag is checked as well.) */
  if (type != tensor_class || gobject == NULL || self->inst_dict != NULL
      || (self->private_flags.flags & PYGOBJECT_USING_TOGGLE_REF) != 0
      || lt_storage_get_device_type (lt_tensor_get_storage (LT_TENSOR (gobject)))
         != LT_DEVICE_TYPE_CPU)
    {
      PyGObject_Type.tp_dealloc (object);
      Py_DECREF (type);
      return;
    }
  PyObject_GC_UnTrack (object);
  if (self->weakreflist != NULL)
    PyObject_ClearWeakRefs (object);
  g_object_set_qdata (gobject, wrapper_key, NULL);
  self->obj = NULL;
  g_object_unref (gobject);
  PyObject_GC_Del (object);
  Py_DECREF (type);
}

/**
 * lt_python_wrapper_adopt:
 * @class: the overrides' Lt.Tensor
 *
 * Frees @class's plain wrappers without PyGObject's GIL round trips, and
 * lets lt_python_wrapper_new () make them.
 *
 * Returns: 0 (having left the wrappers to PyGObject where its version is
 *   not one this knows), or -1 with TypeError raised where @class is not
 *   the class PyGObject makes for an LtTensor, or has fields of its own.
 */
int
lt_python_wrapper_adopt (PyTypeObject *class)
{
  PyObject *gi, *version, *first_unknown;
  int known;

  if (pygobject_lookup_class (LT_TYPE_TENSOR) != class)
    {
      PyErr_Format (PyExc_TypeError, "%s is not the class PyGObject wraps an LtTensor in",
                    class->tp_name);
      return -1;
    }
  if (class->tp_basicsize != sizeof (PyGObject) || class->tp_itemsize != 0
      || (class->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0)
    {
      PyErr_Format (PyExc_TypeError, "%s has fields of its own: its wrappers are not PyGObject's",
                    class->tp_name);
      return -1;
    }
  gi = PyImport_ImportModule ("gi");
  version = gi != NULL ? PyObject_GetAttrString (gi, "version_info") : NULL;
  first_unknown = Py_BuildValue ("(ii)", 3, 55);
  Py_XDECREF (gi);
  known = version != NULL && first_unknown != NULL
          ? PyObject_RichCompareBool (version, first_unknown, Py_LT) : -1;
  Py_XDECREF (version);
  Py_XDECREF (first_unknown);
  if (known <= 0)
    return known;
  wrapper_key = g_quark_from_static_string ("PyGObject::wrapper");
  Py_INCREF (class);
  Py_XSETREF (tensor_class, class);
  class->tp_dealloc = tensor_dealloc;
  return 0;
}

/**
 * lt_python_wrapper_new:
 * @tensor: (transfer full): a tensor
 *
 * The Python wrapper of @tensor, as pygobject_new () makes it. A tensor
 * only the caller holds, of LtTensor's own type, is wrapped directly:
 * nothing else holds it, so it has no wrapper and no instance data.
 *
 * Returns: (transfer full) (nullable): the wrapper, or NULL with an error
 *   raised.
 */
PyObject *
lt_python_wrapper_new (LtTensor *tensor)
{
  GObject *gobject = G_OBJECT (tensor);
  PyGObject *self;

  if (tensor_class == NULL || G_OBJECT_TYPE (gobject) != LT_TYPE_TENSOR
      || g_atomic_int_get (&gobject->ref_count) != 1)
    return pygobject_new_full (gobject, TRUE, NULL);
  self = PyObject_GC_New (PyGObject, tensor_class);
  if (self == NULL)
    {
      g_object_unref (gobject);
      return NULL;
    }
  self->obj = gobject;
  self->inst_dict = NULL;
  self->weakreflist = NULL;
  self->private_flags.flags = 0;
  g_object_set_qdata (gobject, wrapper_key, self);
  PyObject_GC_Track ((PyObject *) self);
  return (PyObject *) self;
}
