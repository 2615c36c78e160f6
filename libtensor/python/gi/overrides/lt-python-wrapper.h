/* lt-python-wrapper.h: Lt.Tensor's Python wrappers, made and freed in C (_lt_views)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pygobject.h>

#include <libtensor.h>

G_BEGIN_DECLS

int        lt_python_wrapper_adopt (PyTypeObject *tensor_class);
PyObject  *lt_python_wrapper_new   (LtTensor     *tensor);

G_END_DECLS
