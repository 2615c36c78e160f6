# SPDX-License-Identifier: LGPL-2.1-or-later
"""A few of libtensor's C functions through ctypes, for a Python that cannot
load the GObject bindings.

GPU machines come with their own Python (and their own PyTorch) but not
with PyGObject, and Debian's build of it is for another Python. The GPU
check (build-aux/gpu-check.sh) still wants to exchange tensors with that
PyTorch through DLPack and to time libtensor against it in one process, so
this module calls libtensor-1.so directly. It covers what the GPU check
needs (creation, moves between devices, a few views and ops, DLPack) and
nothing more; everything else goes through the real bindings.

Every call that can fail takes a GError and raises LtError with its
message; tensors are unreferenced when their Python objects go.
"""

import ctypes
import ctypes.util
import os

DTYPES = {'bool': 0, 'uint8': 1, 'int8': 2, 'int16': 3, 'int32': 4, 'int64': 5,
          'float16': 6, 'bfloat16': 7, 'float32': 8, 'float64': 9, 'complex64': 10,
          'complex128': 11}


class LtError(RuntimeError):
    """A GError from libtensor: .domain, .code and the message."""

    def __init__(self, domain, code, message):
        super().__init__(message)
        self.domain = domain
        self.code = code


class _GError(ctypes.Structure):
    _fields_ = [('domain', ctypes.c_uint32), ('code', ctypes.c_int),
                ('message', ctypes.c_char_p)]


_P = ctypes.c_void_p
_ERR = ctypes.POINTER(ctypes.POINTER(_GError))

_lib = ctypes.CDLL(os.environ.get('LT_CTYPES_LIBRARY', 'libtensor-1.so.0'))
_glib = ctypes.CDLL(ctypes.util.find_library('glib-2.0') or 'libglib-2.0.so.0')
_gobject = ctypes.CDLL(ctypes.util.find_library('gobject-2.0') or 'libgobject-2.0.so.0')

_gobject.g_object_unref.argtypes = [_P]
_glib.g_error_free.argtypes = [ctypes.POINTER(_GError)]
_glib.g_free.argtypes = [_P]
_glib.g_quark_to_string.argtypes = [ctypes.c_uint32]
_glib.g_quark_to_string.restype = ctypes.c_char_p


def _declare(name, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


_declare('lt_device_new_from_string', _P, ctypes.c_char_p, _ERR)
_declare('lt_device_free', None, _P)
_declare('lt_device_is_available', ctypes.c_int, _P, _ERR)
_declare('lt_device_get_name', _P, _P, _ERR)
_declare('lt_device_synchronize', ctypes.c_int, _P, _ERR)
_declare('lt_device_get_device_type', ctypes.c_int, _P)
_declare('lt_device_get_index', ctypes.c_uint, _P)
_declare('lt_tensor_get_device', _P, _P)
_declare('lt_generator_new', _P, ctypes.c_uint64)
_declare('lt_tensor_new_zeros', _P, ctypes.c_int, ctypes.POINTER(ctypes.c_int64),
         ctypes.c_uint, _ERR)
_declare('lt_tensor_uniform_', ctypes.c_int, _P, _P, ctypes.c_double, ctypes.c_double, _ERR)
_declare('lt_tensor_to_device', _P, _P, _P, _ERR)
_declare('lt_tensor_to_cpu', _P, _P, _ERR)
_declare('lt_tensor_to_dtype', _P, _P, ctypes.c_int, _ERR)
_declare('lt_tensor_t', _P, _P, _ERR)
_declare('lt_tensor_permute', _P, _P, ctypes.POINTER(ctypes.c_int), ctypes.c_uint, _ERR)
_declare('lt_tensor_index', _P, _P, ctypes.c_char_p, _ERR)
_declare('lt_tensor_contiguous', _P, _P, _ERR)
_declare('lt_tensor_view_as_complex', _P, _P, _ERR)
_declare('lt_tensor_view_as_real', _P, _P, _ERR)
_declare('lt_tensor_clone', _P, _P, _ERR)
_declare('lt_tensor_add', _P, _P, _P, ctypes.c_double, _ERR)
_declare('lt_tensor_sum', _P, _P, ctypes.POINTER(ctypes.c_int), ctypes.c_uint, ctypes.c_int,
         _ERR)
_declare('lt_tensor_softmax', _P, _P, ctypes.c_int, _ERR)
_declare('lt_tensor_matmul', _P, _P, _P, _ERR)
_declare('lt_tensor_allclose', ctypes.c_int, _P, _P, ctypes.c_double, ctypes.c_double,
         ctypes.c_int, ctypes.POINTER(ctypes.c_int), _ERR)
_declare('lt_tensor_to_dlpack', _P, _P, _ERR)
_declare('lt_tensor_new_from_dlpack', _P, _P, _ERR)

_pythonapi = ctypes.pythonapi
_pythonapi.PyCapsule_New.restype = ctypes.py_object
_pythonapi.PyCapsule_New.argtypes = [_P, ctypes.c_char_p, _P]
_pythonapi.PyCapsule_GetPointer.restype = _P
_pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_pythonapi.PyCapsule_SetName.restype = ctypes.c_int
_pythonapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _DLManagedTensorHead(ctypes.Structure):
    """The start of DLManagedTensor: DLTensor (48 bytes), manager_ctx, deleter."""
    _fields_ = [('dl_tensor', ctypes.c_byte * 48), ('manager_ctx', _P),
                ('deleter', ctypes.CFUNCTYPE(None, _P))]


def _call(function, *args):
    """function(*args, &error), raising LtError where it set error."""
    error = ctypes.POINTER(_GError)()
    result = function(*args, ctypes.byref(error))
    if error:
        e = error.contents
        failure = LtError(_glib.g_quark_to_string(e.domain).decode(), e.code,
                          e.message.decode())
        _glib.g_error_free(error)
        raise failure
    return result


def _ints(type_, values):
    return (type_ * max(len(values), 1))(*values), len(values)


class Device:
    """An LtDevice ("cpu", "cuda:0", "opencl:0")."""

    def __init__(self, text):
        self._ptr = _call(_lib.lt_device_new_from_string, text.encode())
        self.text = text

    def __del__(self):
        if getattr(self, '_ptr', None):
            _lib.lt_device_free(self._ptr)

    def is_available(self):
        """(True, None), or (False, the reason)."""
        try:
            return bool(_call(_lib.lt_device_is_available, self._ptr)), None
        except LtError as error:
            return False, str(error)

    def get_name(self):
        name = _call(_lib.lt_device_get_name, self._ptr)
        text = ctypes.string_at(name).decode()
        _glib.g_free(name)
        return text

    def synchronize(self):
        _call(_lib.lt_device_synchronize, self._ptr)


class Generator:
    def __init__(self, seed):
        self._ptr = _lib.lt_generator_new(seed)

    def __del__(self):
        if getattr(self, '_ptr', None):
            _gobject.g_object_unref(self._ptr)


class Tensor:
    """An LtTensor, holding one reference."""

    def __init__(self, ptr):
        self._ptr = ptr

    def __del__(self):
        if getattr(self, '_ptr', None):
            _gobject.g_object_unref(self._ptr)

    @classmethod
    def zeros(cls, dtype, sizes):
        array, n = _ints(ctypes.c_int64, sizes)
        return cls(_call(_lib.lt_tensor_new_zeros, DTYPES[dtype], array, n))

    def uniform_(self, low, high, generator):
        _call(_lib.lt_tensor_uniform_, self._ptr, generator._ptr, low, high)
        return self

    def to(self, device):
        if isinstance(device, str):
            device = Device(device)
        return Tensor(_call(_lib.lt_tensor_to_device, self._ptr, device._ptr))

    def cpu(self):
        return Tensor(_call(_lib.lt_tensor_to_cpu, self._ptr))

    def to_dtype(self, dtype):
        return Tensor(_call(_lib.lt_tensor_to_dtype, self._ptr, DTYPES[dtype]))

    def t(self):
        return Tensor(_call(_lib.lt_tensor_t, self._ptr))

    def permute(self, *dims):
        array, n = _ints(ctypes.c_int, dims)
        return Tensor(_call(_lib.lt_tensor_permute, self._ptr, array, n))

    def index(self, expression):
        """lt_tensor_index(): "[1:, ::2]" and the rest of the C index language."""
        return Tensor(_call(_lib.lt_tensor_index, self._ptr, expression.encode()))

    def view_as_complex(self):
        return Tensor(_call(_lib.lt_tensor_view_as_complex, self._ptr))

    def view_as_real(self):
        return Tensor(_call(_lib.lt_tensor_view_as_real, self._ptr))

    def contiguous(self):
        return Tensor(_call(_lib.lt_tensor_contiguous, self._ptr))

    def clone(self):
        return Tensor(_call(_lib.lt_tensor_clone, self._ptr))

    def __add__(self, other):
        return Tensor(_call(_lib.lt_tensor_add, self._ptr, other._ptr, 1.0))

    def sum(self, *dims):
        array, n = _ints(ctypes.c_int, dims)
        return Tensor(_call(_lib.lt_tensor_sum, self._ptr, array, n, 0))

    def softmax(self, dim):
        return Tensor(_call(_lib.lt_tensor_softmax, self._ptr, dim))

    def __matmul__(self, other):
        return Tensor(_call(_lib.lt_tensor_matmul, self._ptr, other._ptr))

    def allclose(self, other, rtol, atol, equal_nan=False):
        result = ctypes.c_int(0)
        _call(_lib.lt_tensor_allclose, self._ptr, other._ptr, rtol, atol, int(equal_nan),
              ctypes.byref(result))
        return bool(result.value)

    def __dlpack_device__(self):
        """(DLPack device type, index): (1, 0) on the CPU, (2, N) on cuda:N, (4, N) on opencl:N."""
        device = _lib.lt_tensor_get_device(self._ptr)
        kind = _lib.lt_device_get_device_type(device)
        index = _lib.lt_device_get_index(device)
        _lib.lt_device_free(device)
        return ({0: 1, 1: 2, 2: 4}[kind], index)

    def __dlpack__(self, stream=None):
        """A "dltensor" capsule that frees the managed tensor unless a consumer
        takes it (and renames the capsule "used_dltensor")."""
        managed = _call(_lib.lt_tensor_to_dlpack, self._ptr)
        return _pythonapi.PyCapsule_New(managed, b'dltensor', _capsule_destructor)

    @classmethod
    def from_dlpack(cls, source):
        """A tensor over the memory of @source (an object with __dlpack__, or
        a capsule), as torch.from_dlpack()."""
        if hasattr(source, '__dlpack__'):
            # CUDA producers order their work before the capsule on stream 1,
            # the legacy default stream, which libtensor's kernels follow.
            on_cuda = hasattr(source, '__dlpack_device__') and source.__dlpack_device__()[0] == 2
            capsule = source.__dlpack__(stream=1) if on_cuda else source.__dlpack__()
        else:
            capsule = source
        managed = _pythonapi.PyCapsule_GetPointer(capsule, b'dltensor')
        tensor = cls(_call(_lib.lt_tensor_new_from_dlpack, managed))
        _pythonapi.PyCapsule_SetName(capsule, b'used_dltensor')
        return tensor


# The destructor gets the capsule as it dies: a bare address, never a
# Python object (that would take a reference to it).
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, _P, ctypes.c_char_p)(
    ('PyCapsule_IsValid', _pythonapi))
_capsule_get_pointer = ctypes.PYFUNCTYPE(_P, _P, ctypes.c_char_p)(
    ('PyCapsule_GetPointer', _pythonapi))


@ctypes.CFUNCTYPE(None, _P)
def _capsule_destructor_function(capsule):
    # Only a capsule nobody took still owns its managed tensor.
    if _capsule_is_valid(capsule, b'dltensor'):
        managed = _capsule_get_pointer(capsule, b'dltensor')
        head = _DLManagedTensorHead.from_address(managed)
        if head.deleter:
            head.deleter(managed)


_capsule_destructor = ctypes.cast(_capsule_destructor_function, _P)
