/* lt-python-index.h: t[key] for the commonest keys, in C (_lt_views)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <libtensor.h>

G_BEGIN_DECLS

LtTensor *lt_python_index (LtTensor *tensor,
                           PyObject *key);

G_END_DECLS
