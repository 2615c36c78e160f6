/* lt-dlpack-capsule.c: DLPack capsules for the Python overrides (_lt_dlpack)
 *
 * The DLPack protocol hands a DLManagedTensor over in a PyCapsule named
 * "dltensor"; the consumer renames it "used_dltensor" when it takes the
 * tensor, and the capsule's destructor calls the tensor's deleter only if
 * nobody did. The destructor runs while the consumer may be raising an
 * error (NumPy refusing a dtype, say), which a destructor written in
 * Python through ctypes would clobber: it is written here, in C, keeping
 * any error in flight as it was.
 *
 * capsule(address) makes the capsule of an exported tensor
 * (Lt.Tensor.to_dlpack()); take(capsule) gives the address of an untaken
 * tensor for Lt.Tensor.new_from_dlpack(), renaming the capsule at once,
 * and give_back(capsule) renames it back if the import failed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlpack/dlpack.h>

PyMODINIT_FUNC PyInit__lt_dlpack (void);

static const char unused_name[] = "dltensor";
static const char used_name[] = "used_dltensor";

static void
destroy_capsule (PyObject *capsule)
{
  PyObject *type, *value, *traceback;
  DLManagedTensor *managed;

  if (!PyCapsule_IsValid (capsule, unused_name))
    return;
  PyErr_Fetch (&type, &value, &traceback);
  managed = PyCapsule_GetPointer (capsule, unused_name);
  if (managed != NULL && managed->deleter != NULL)
    managed->deleter (managed);
  PyErr_Restore (type, value, traceback);
}

static PyObject *
make_capsule (PyObject *module,
              PyObject *address)
{
  void *managed = PyLong_AsVoidPtr (address);

  if (managed == NULL)
    {
      if (!PyErr_Occurred ())
        PyErr_SetString (PyExc_ValueError, "capsule() needs the address of a DLManagedTensor");
      return NULL;
    }
  return PyCapsule_New (managed, unused_name, destroy_capsule);
}

/* Renamed at once, under the GIL: two threads cannot both take it. */
static PyObject *
take (PyObject *module,
      PyObject *capsule)
{
  void *managed;

  if (!PyCapsule_IsValid (capsule, unused_name))
    {
      PyErr_SetString (PyExc_ValueError,
                       "from_dlpack() needs a DLPack capsule named \"dltensor\" that no one has "
                       "taken yet");
      return NULL;
    }
  managed = PyCapsule_GetPointer (capsule, unused_name);
  if (PyCapsule_SetName (capsule, used_name) != 0)
    return NULL;
  return PyLong_FromVoidPtr (managed);
}

/* Undoes take() when the import failed: the capsule frees the tensor. */
static PyObject *
give_back (PyObject *module,
           PyObject *capsule)
{
  if (!PyCapsule_IsValid (capsule, used_name))
    {
      PyErr_SetString (PyExc_ValueError, "give_back() needs a capsule take() took");
      return NULL;
    }
  if (PyCapsule_SetName (capsule, unused_name) != 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
  { "capsule", make_capsule, METH_O, "The DLPack capsule of a DLManagedTensor's address." },
  { "take", take, METH_O,
    "The DLManagedTensor address of an untaken DLPack capsule, now marked taken." },
  { "give_back", give_back, METH_O, "Marks a taken capsule untaken again." },
  { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
  PyModuleDef_HEAD_INIT,
  .m_name = "_lt_dlpack",
  .m_doc = "DLPack capsules for libtensor's Python overrides.",
  .m_size = 0,
  .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__lt_dlpack (void)
{
  return PyModule_Create (&module_def);
}
