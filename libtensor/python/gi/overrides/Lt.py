# Lt.py: PyGObject overrides that make libtensor read like PyTorch
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The introspected API stays as it is (every GI method can still be called
# with its C arguments); this adds the Python protocols (indexing, len,
# iteration, numbers, repr, NumPy's array interface, DLPack) and PyTorch's calling
# conventions (varargs shapes, optional dims). Errors of the library arrive
# as GLib.Error in the lt-error-quark domain, untranslated; mistakes against
# the Python protocols themselves raise TypeError, IndexError or ValueError.

import builtins
import math
import numbers
import operator
import os
import struct
import sys

from gi.repository import GLib

from ..overrides import override
from ..module import get_introspection_module


def _load_helper(short_name):
    """One of the C extensions beside these overrides: the uninstalled
    build's own where LT_UNINSTALLED_OVERRIDES names its directories (see
    lt-installed.py), else the one on gi.overrides' path; None where
    libtensor was built without what it needs (Python's headers,
    python3-dev; for _lt_views also PyGObject's, python-gi-dev)."""
    import importlib
    import importlib.machinery
    import importlib.util
    name = __name__.rsplit('.', 1)[0] + '.' + short_name
    for directory in os.environ.get('LT_UNINSTALLED_OVERRIDES', '').split(os.pathsep):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(directory, short_name + suffix)
            if directory and os.path.isfile(path):
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules[name] = module
                return module
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


# DLPack capsules (lt-dlpack-capsule.c).
_lt_dlpack = _load_helper('_lt_dlpack')
# Views without PyGObject's invoke (lt-python-views.c): half a microsecond
# less a view.
_lt_views = _load_helper('_lt_views')

Lt = get_introspection_module('Lt')

__all__ = []


# dtypes: Lt.DType's values under PyTorch's names and aliases (Lt.float32,
# Lt.double, ...), printed as Lt.float32, with torch.dtype's queries.

_DTYPE_NAMES = {
    'bool': Lt.DType.BOOL,
    'uint8': Lt.DType.UINT8,
    'int8': Lt.DType.INT8,
    'int16': Lt.DType.INT16, 'short': Lt.DType.INT16,
    'int32': Lt.DType.INT32, 'int': Lt.DType.INT32,
    'int64': Lt.DType.INT64, 'long': Lt.DType.INT64,
    'float16': Lt.DType.FLOAT16, 'half': Lt.DType.FLOAT16,
    'bfloat16': Lt.DType.BFLOAT16,
    'float32': Lt.DType.FLOAT32, 'float': Lt.DType.FLOAT32,
    'float64': Lt.DType.FLOAT64, 'double': Lt.DType.FLOAT64,
    'complex64': Lt.DType.COMPLEX64, 'cfloat': Lt.DType.COMPLEX64,
    'complex128': Lt.DType.COMPLEX128, 'cdouble': Lt.DType.COMPLEX128,
}


def _dtype_repr(self):
    return 'Lt.' + Lt.dtype_get_name(self)


Lt.DType.__repr__ = _dtype_repr
Lt.DType.__str__ = _dtype_repr
Lt.DType.is_floating_point = property(
    lambda self: bool(Lt.dtype_is_floating_point(self)),
    doc='Whether the dtype holds real floating point numbers, as torch.dtype\'s.')
Lt.DType.is_complex = property(
    lambda self: bool(Lt.dtype_is_complex(self)),
    doc='Whether the dtype holds complex numbers, as torch.dtype\'s.')
# item() asks for these once per call: sets, not a GI call each.
_FLOATING_DTYPES = frozenset(d for d in Lt.DType.__enum_values__.values()
                             if Lt.dtype_is_floating_point(d))
_COMPLEX_DTYPES = frozenset(d for d in Lt.DType.__enum_values__.values()
                            if Lt.dtype_is_complex(d))
Lt.DType.is_signed = property(
    lambda self: self not in (Lt.DType.BOOL, Lt.DType.UINT8),
    doc='Whether the dtype holds negative numbers, as torch.dtype\'s.')
Lt.DType.itemsize = property(
    lambda self: Lt.dtype_get_element_size(self),
    doc='The size of one element in bytes.')


def _numpy_dtype(dtype):
    import numpy
    typestr = _TYPESTRS.get(dtype)
    if typestr is None:
        raise TypeError('NumPy has no type for %s' % Lt.dtype_get_name(dtype))
    return numpy.dtype(typestr)


# NumPy's dtype protocol: numpy.dtype(Lt.float32) reads this attribute, so
# array libraries that take a tensor's dtype for NumPy's (Dask's
# from_array()) understand Lt's.
Lt.DType.dtype = property(_numpy_dtype, doc='The NumPy dtype of the same elements.')

# Names that are not Python's own builtins become globals here and so the
# module's attributes; bool, int and float (as torch.bool, torch.int,
# torch.float) are set on the module PyGObject hands out, because as globals
# here they would hide Python's builtins from this file's code.
_module = sys.modules.get('gi.repository.Lt')


def _export(name, value):
    """Makes @value the module's attribute @name: a global of this file,
    unless @name is one of Python's builtins (Lt.bool, Lt.sum, Lt.max...),
    which as globals would hide the builtin from this file's code; those are
    set on the module PyGObject hands out instead."""
    if hasattr(builtins, name):
        if _module is not None and _module is not Lt:
            setattr(_module, name, value)
        return
    globals()[name] = value
    __all__.append(name)


bool_ = Lt.DType.BOOL  # Lt.bool, under a name this file can use
for _name, _dtype in _DTYPE_NAMES.items():
    _export(_name, _dtype)


class Size(tuple):
    """The sizes of a tensor, as torch.Size: a tuple of ints, printed as
    Lt.Size([3, 2]), with numel()."""

    def __new__(cls, sizes=()):
        return super().__new__(cls, (operator.index(size) for size in sizes))

    def __repr__(self):
        return 'Lt.Size(%r)' % (list(self),)

    __str__ = __repr__

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def numel(self):
        """The number of elements a tensor of these sizes holds."""
        count = 1
        for size in self:
            count *= size
        return count


__all__.append('Size')


def _result(value):
    # Functions that return a gboolean and have out arguments come back as
    # (True, out...) tuples; the out value is the last item.
    if isinstance(value, tuple):
        return value[-1]
    return value


def _as_dtype(dtype):
    """An Lt.DType from an Lt.DType or a name such as 'float64' or 'torch.int64'."""
    if isinstance(dtype, Lt.DType):
        return dtype
    if isinstance(dtype, str):
        return _result(Lt.dtype_from_name(dtype))
    if isinstance(dtype, int) and not isinstance(dtype, bool) and Lt.dtype_is_valid(dtype):
        return Lt.DType(dtype)
    raise TypeError("dtype must be an Lt.DType or a dtype name such as 'float32', not %r"
                    % (dtype,))


def _as_device(value):
    """An Lt.Device for a device or a device name ('cpu', 'cuda:0'), else None."""
    if isinstance(value, Lt.Device):
        return value
    if isinstance(value, str) and value.split(':', 1)[0] in ('cpu', 'cuda', 'opencl'):
        return Lt.Device.new_from_string(value)
    return None


def _is_bool(value):
    # NumPy's bool_ is neither a bool nor a numbers.Integral.
    return isinstance(value, bool) or type(value).__name__ == 'bool_'


def _float_literal(value):
    # repr() gives the shortest text that reads back to the same double, and
    # 'inf', '-inf' and 'nan' as the literal grammar spells them.
    return repr(float(value))


def _complex_literal(value):
    value = complex(value)
    imag = value.imag
    sign = '-' if math.copysign(1.0, imag) < 0 else '+'
    return '%s%s%sj' % (_float_literal(value.real), sign, _float_literal(abs(imag)))


def _literal(data):
    """The text of @data in the grammar of Lt.Tensor.new_from_literal()."""
    if isinstance(data, (list, tuple, range)):
        return '[' + ', '.join(_literal(item) for item in data) + ']'
    if isinstance(data, Tensor):
        return _literal(data.tolist())
    if _is_bool(data):
        return 'True' if data else 'False'
    if isinstance(data, numbers.Integral):
        return str(int(data))
    if isinstance(data, numbers.Real):
        return _float_literal(data)
    if isinstance(data, numbers.Complex):
        return _complex_literal(data)
    raise TypeError('Lt.tensor(): cannot make tensor elements from an object of type %s; '
                    'expected nested lists or tuples of bools, ints, floats or complex numbers'
                    % type(data).__name__)


# NumPy's type strings, for the array interface both ways.
_BYTE_ORDER = '<' if sys.byteorder == 'little' else '>'

_TYPESTRS = {
    Lt.DType.BOOL: '|b1',
    Lt.DType.UINT8: '|u1',
    Lt.DType.INT8: '|i1',
    Lt.DType.INT16: _BYTE_ORDER + 'i2',
    Lt.DType.INT32: _BYTE_ORDER + 'i4',
    Lt.DType.INT64: _BYTE_ORDER + 'i8',
    Lt.DType.FLOAT16: _BYTE_ORDER + 'f2',
    Lt.DType.FLOAT32: _BYTE_ORDER + 'f4',
    Lt.DType.FLOAT64: _BYTE_ORDER + 'f8',
    Lt.DType.COMPLEX64: _BYTE_ORDER + 'c8',
    Lt.DType.COMPLEX128: _BYTE_ORDER + 'c16',
}

_DTYPES_BY_TYPESTR = {typestr: dtype for dtype, typestr in _TYPESTRS.items()}

# struct formats for reading elements out of Lt.Tensor.to_bytes(); complex
# numbers are two reals, bfloat16 is read as the top half of a float32.
_STRUCT_FORMATS = {
    Lt.DType.BOOL: '?',
    Lt.DType.UINT8: 'B',
    Lt.DType.INT8: 'b',
    Lt.DType.INT16: 'h',
    Lt.DType.INT32: 'i',
    Lt.DType.INT64: 'q',
    Lt.DType.FLOAT16: 'e',
    Lt.DType.BFLOAT16: 'H',
    Lt.DType.FLOAT32: 'f',
    Lt.DType.FLOAT64: 'd',
    Lt.DType.COMPLEX64: 'f',
    Lt.DType.COMPLEX128: 'd',
}


def tensor(data, dtype=None, device=None, names=None, requires_grad=False):
    """A new tensor holding a copy of @data, as torch.tensor().

    @data is a number or nested lists/tuples of numbers (bool, int, float,
    complex), a NumPy array or an Lt.Tensor. Without @dtype the dtype is the
    one PyTorch infers: bool, int64, float32 or complex64 (a NumPy array
    keeps its own). @dtype is an Lt.DType or a name such as 'float64'.
    @names, when given, names the dims (None for an unnamed one); @device,
    when given, is where the tensor goes ('opencl:0', an Lt.Device).
    Values are converted exactly: int64 beyond 2**53 round-trips.
    """
    if dtype is not None:
        dtype = _as_dtype(dtype)

    if isinstance(data, Tensor):
        result = data.to(dtype) if dtype is not None else data
        if device is not None:
            moved = result.to(device)
            if moved is not result:
                return _placed(moved, None, names, requires_grad, 'tensor()')
        return _placed(result.clone(), None, names, requires_grad, 'tensor()')

    interface = getattr(data, '__array_interface__', None)
    if isinstance(interface, dict) and hasattr(data, 'tolist'):
        if dtype is None:
            dtype = _DTYPES_BY_TYPESTR.get(interface.get('typestr'))
        data = data.tolist()

    text = _literal(data)
    if dtype is None:
        result = Lt.Tensor.new_from_literal(text)
    else:
        result = Lt.Tensor.new_from_literal_with_dtype(text, dtype)
    return _placed(result, device, names, requires_grad, 'tensor()')


__all__.append('tensor')


_INT64_MIN = -2 ** 63
_INT64_MAX = 2 ** 63 - 1


def _index_item(item):
    if item is None:
        return 'None'
    if item is Ellipsis:
        return '...'
    if isinstance(item, slice):
        parts = []
        for part in (item.start, item.stop, item.step):
            if part is None:
                parts.append('')
                continue
            try:
                part = operator.index(part)
            except TypeError:
                raise TypeError('slice indices must be integers or None, not %s'
                                % type(part).__name__) from None
            # Bounds and steps beyond 64 bits mean the same as the extreme
            # 64-bit ones, as Python's own sequences treat them.
            parts.append(str(min(max(part, _INT64_MIN), _INT64_MAX)))
        if item.step is None:
            # '2:' as Python writes it, not '2::' (error messages quote it).
            parts.pop()
        return ':'.join(parts)
    if _is_bool(item):
        raise TypeError('tensor indices must be integers, slices, None or ...; '
                        'indexing with a bool (a mask) is not supported')
    if _is_scalar_index(item):
        return str(item.item())
    try:
        return str(operator.index(item))
    except TypeError:
        raise TypeError('tensor indices must be integers, slices, None or ..., not %s'
                        % type(item).__name__) from None


# Advanced indexing from Python: keys holding tensors (or lists, or Python
# bools) go to the library's index_with_tensors() and
# index_put_with_tensors_(), which implement NumPy's and PyTorch's rules:
# the key is written as an index expression whose names stand for the
# tensors. Reads are copies; writes are in place.

def _is_scalar_index(item):
    """A 0-dim integer tensor, which indexes as the int it holds (a view)."""
    return isinstance(item, Lt.Tensor) and item.get_dim() == 0 \
        and Lt.dtype_is_integer(item.get_dtype())


def _is_advanced_item(item):
    return isinstance(item, (Lt.Tensor, list)) and not _is_scalar_index(item) \
        or _is_bool(item)


def _is_advanced(key):
    # On every t[...] that is not a plain slice: no tuple is made for the
    # commonest keys, t[1] and t[a, b].
    if type(key) is tuple:
        return any(_is_advanced_item(item) for item in key)
    return _is_advanced_item(key)


def _index_tensor(item):
    """A list (or Python bool) of a key as the tensor PyTorch makes of it:
    bools make a mask, anything else (an empty list too) int64 indices."""
    if _is_bool(item):
        return tensor(bool(item))
    made = tensor(item)
    if made.get_numel() == 0 and made.get_dtype() != bool_:
        return made.to(int64)
    return made


def _tensor_key(key):
    """The index expression of a key holding tensors, the names it gives
    them and the tensors."""
    items = key if type(key) is tuple else (key,)
    parts, names, tensors = [], [], []
    for item in items:
        if isinstance(item, list) or _is_bool(item):
            item = _index_tensor(item)
        if isinstance(item, Lt.Tensor) and not _is_scalar_index(item):
            names.append('t%d' % len(names))
            tensors.append(item)
            parts.append(names[-1])
        else:
            parts.append(_index_item(item))
    return '[' + ', '.join(parts) + ']', names, tensors


class _IndexGError(GLib.Error, IndexError):
    """A GLib.Error about an index that is also the IndexError PyTorch
    raises (and, as every GLib.Error, a RuntimeError)."""


_INDEX_ERROR_CODES = frozenset(int(code) for code in (
    Lt.Error.INDEX_OUT_OF_RANGE, Lt.Error.SHAPE_MISMATCH, Lt.Error.DTYPE, Lt.Error.PARSE,
    Lt.Error.INVALID_ARGUMENT))


def _is_plain_slice(item):
    """Whether @item is a slice that slice() takes as it is: int bounds
    within 64 bits (or none) and a positive int step (or none)."""
    start, stop, step = item.start, item.stop, item.step
    return ((start is None or type(start) is int and _INT64_MIN <= start <= _INT64_MAX)
            and (stop is None or type(stop) is int and _INT64_MIN <= stop <= _INT64_MAX)
            and (step is None or type(step) is int and 0 < step <= _INT64_MAX))


def _sliced(view, dim, item):
    """view[..., item] in @dim for a plain slice @item (_is_plain_slice())."""
    start, stop, step = item.start, item.stop, item.step
    return view.slice(dim, 0 if start is None else start, _INT64_MAX if stop is None else stop,
                      1 if step is None else step)


def _basic_view(self, key):
    """self[key] for a tuple of plain slices and Python ints, through
    select() and slice() calls: the same view as the index expression, at
    a quarter of the cost (writing and parsing the expression was most of
    a view's time from Python). None for any other key, for one that
    gives self back unchanged, or where a call refuses: the index
    expression then makes the view or says what is wrong."""
    if len(key) > self.get_dim():
        return None
    for item in key:
        if not (type(item) is int and _INT64_MIN <= item <= _INT64_MAX
                or type(item) is slice and _is_plain_slice(item)):
            return None
    view, dim = self, 0
    try:
        for item in key:
            if type(item) is int:
                view = view.select(dim, item)
                continue
            if item.start is not None or item.stop is not None or item.step is not None:
                view = _sliced(view, dim, item)
            dim += 1
    except GLib.Error:
        return None
    return None if view is self else view


def _index_error(error):
    """@error as an IndexError too, where it is about the index."""
    if error.domain == 'lt-error-quark' and error.code in _INDEX_ERROR_CODES:
        return _IndexGError(error.message, error.domain, error.code)
    return error


def _advanced_index(self, key):
    expression, names, tensors = _tensor_key(key)
    try:
        return self.index_with_tensors(expression, names, tensors)
    except GLib.Error as error:
        raise _index_error(error) from None


def _assigned_values(self, value):
    """@value, written into @self by index, as a tensor of @self's dtype
    and device. PyTorch wants tensors of @self's dtype (numbers convert)."""
    if isinstance(value, Lt.Tensor):
        if value.get_dtype() != self.get_dtype() and not value.is_wrapped_number():
            raise TypeError('assigning %s values into a %s tensor by index: convert them '
                            'first, as PyTorch wants the dtypes equal'
                            % (Lt.dtype_get_name(value.get_dtype()),
                               Lt.dtype_get_name(self.get_dtype())))
        values = value.to(self.get_dtype())
    else:
        values = tensor(value, dtype=self.get_dtype())
    return values.to(self.get_device())


def _advanced_assign(self, key, value, accumulate=False):
    expression, names, tensors = _tensor_key(key)
    values = _assigned_values(self, value)
    try:
        self.index_put_with_tensors_(expression, names, tensors, values, accumulate)
    except GLib.Error as error:
        raise _index_error(error) from None


def _index_expression(key):
    """The index expression of Lt.Tensor.index() for a Python key."""
    items = key if isinstance(key, tuple) else (key,)
    return '[' + ', '.join(_index_item(item) for item in items) + ']'


def _ints(args, what):
    """The ints of PyTorch's `f(*ints)` or `f(sequence)` calling convention."""
    if len(args) == 1 and not isinstance(args[0], numbers.Integral) \
            and hasattr(args[0], '__iter__'):
        args = args[0]
    try:
        return [operator.index(arg) for arg in args]
    except TypeError:
        raise TypeError('%s expects integers or one sequence of integers, got %r'
                        % (what, args)) from None


def _int_or_ints(value, what):
    if isinstance(value, numbers.Integral) or hasattr(value, '__index__'):
        return [operator.index(value)]
    return _ints((value,), what)


def _wrap_dim(dim, ndim, what):
    dim = operator.index(dim)
    if ndim == 0:
        raise IndexError('%s: dim %d is out of range for a 0-dim tensor' % (what, dim))
    if not -ndim <= dim < ndim:
        raise IndexError('%s: dim %d is out of range (expected a dim from %d to %d)'
                         % (what, dim, -ndim, ndim - 1))
    return dim + ndim if dim < 0 else dim


# The dtypes whose elements memoryview reads itself (it has no half
# floats, and no complex numbers of two halves).
_MEMORYVIEW_FORMATS = {dtype: _STRUCT_FORMATS[dtype] for dtype in (
    Lt.DType.BOOL, Lt.DType.UINT8, Lt.DType.INT8, Lt.DType.INT16, Lt.DType.INT32,
    Lt.DType.INT64, Lt.DType.FLOAT32, Lt.DType.FLOAT64)}


def _nest(values, sizes):
    if not sizes:
        return values[0]
    if len(sizes) == 1:
        return list(values)
    inner = 1
    for size in sizes[1:]:
        inner *= size
    return [_nest(values[i * inner:(i + 1) * inner], sizes[1:]) for i in range(sizes[0])]


class Tensor(Lt.Tensor):
    """A strided view of a storage, with PyTorch's Python surface."""

    # Metadata

    @property
    def shape(self):
        """The sizes, an Lt.Size (torch.Size in PyTorch)."""
        return Size(self.get_sizes())

    @property
    def dtype(self):
        """The element type, an Lt.DType."""
        return self.get_dtype()

    @property
    def ndim(self):
        return self.get_dim()

    def size(self, dim=None):
        """The sizes, an Lt.Size, or the size of dim @dim."""
        sizes = self.get_sizes()
        if dim is None:
            return Size(sizes)
        return sizes[_wrap_dim(dim, len(sizes), 'size()')]

    def stride(self, dim=None):
        strides = self.get_strides()
        if dim is None:
            return tuple(strides)
        return strides[_wrap_dim(dim, len(strides), 'stride()')]

    def storage_offset(self):
        return self.get_storage_offset()

    def dim(self):
        return self.get_dim()

    def numel(self):
        return self.get_numel()

    # Indexing

    def __getitem__(self, key):
        # (With the C helper, lt-python-index.c makes the views of these
        # first keys before this method runs.)
        # The commonest key, t[a:b] or t[a:b:step > 0], goes straight to
        # slice(): the same view without writing and parsing an index
        # expression (views from Python cost about half as much). Where
        # slice() refuses (a 0-d tensor), the expression says what is
        # wrong. PyGObject's invoke would truncate a float bound, so the
        # bounds are checked first. A negative step does reach the
        # expression, which counts its defaults from the end as Python
        # does.
        if type(key) is slice and _is_plain_slice(key):
            try:
                return _sliced(self, 0, key)
            except GLib.Error:
                pass
        # t[i] is select(): the index expression took four times as long.
        # Where select() refuses, the expression says what is wrong.
        if type(key) is int:
            try:
                return self.select(0, key)
            except (GLib.Error, OverflowError):
                pass
        # Tuples of such slices and ints, t[:, 0], through select() and
        # slice() calls.
        if type(key) is tuple:
            view = _basic_view(self, key)
            if view is not None:
                return view
        if _is_advanced(key):
            return _advanced_index(self, key)
        try:
            return self.index(_index_expression(key))
        except GLib.Error as error:
            raise _index_error(error) from None

    def __setitem__(self, key, value):
        if _is_advanced(key):
            _advanced_assign(self, key, value)
            return
        # The whole tensor is written as itself, without a view of it.
        (self if key is Ellipsis else self[key])._assign(value)

    def _assign(self, value):
        """self[...] = value: a tensor copied in (broadcast), a number a
        double holds filled in, anything else converted to self's dtype
        exactly first."""
        kind = type(value)
        # Python's own numbers before the numbers ABCs, whose checks cost
        # more than filling a small tensor.
        if kind is float or ((kind is int or kind is bool) and -2 ** 53 <= value <= 2 ** 53):
            self.fill(float(value))
        elif isinstance(value, Lt.Tensor):
            self.copy_from(value)
        elif isinstance(value, numbers.Real) and not (
                isinstance(value, numbers.Integral) and abs(int(value)) > 2 ** 53):
            self.fill(float(value))
        else:
            # Complex numbers, integers a double cannot hold and nested lists
            # go through an exact conversion to the target's dtype.
            self.copy_from(tensor(value, dtype=self.get_dtype()))

    def __len__(self):
        sizes = self.get_sizes()
        if not sizes:
            raise TypeError('len() of a 0-d tensor')
        return sizes[0]

    def __iter__(self):
        if self.get_dim() == 0:
            raise TypeError('iteration over a 0-d tensor')
        return iter(self.unbind(0))

    def __contains__(self, element):
        # Without this, `in` would fall back to iterating and comparing
        # tensors by identity, which is always False.
        if isinstance(element, numbers.Number) or _is_bool(element):
            values = self.tolist()
            if self.get_dim() == 0:
                return values == element
            for _ in range(self.get_dim() - 1):
                values = [value for inner in values for value in inner]
            return element in values
        raise TypeError('`in` on a tensor needs a number, not %s' % type(element).__name__)

    # Python numbers

    def item(self):
        """The value of a one-element tensor as a Python bool, int, float or complex."""
        # Three calls into C (sizes, dtype, the value): each costs about a
        # microsecond, more than the rest of this.
        sizes = self.get_sizes()
        numel = 1
        for size in sizes:
            numel *= size
        if numel != 1:
            raise ValueError('a tensor with %d elements cannot be converted to a Python scalar'
                             % numel)
        indices = [0] * len(sizes)
        dtype = self.get_dtype()
        if dtype in _FLOATING_DTYPES:
            return _result(self.get_double(indices))
        if dtype == Lt.DType.BOOL:
            return bool(_result(self.get_int64(indices)))
        if dtype in _COMPLEX_DTYPES:
            _, real, imag = self.get_complex(indices)
            return complex(real, imag)
        return _result(self.get_int64(indices))

    def __bool__(self):
        numel = self.get_numel()
        if numel != 1:
            raise ValueError('the truth value of a tensor with %d elements is ambiguous' % numel)
        return bool(self.item())

    def __int__(self):
        return int(self.item())

    def __float__(self):
        return float(self.item())

    def __complex__(self):
        return complex(self.item())

    def __format__(self, spec):
        if spec and self.get_dim() == 0:
            return format(self.item(), spec)
        return super().__format__(spec)

    def tolist(self):
        """The elements as nested lists of Python numbers (a number for a 0-dim tensor)."""
        dtype = self.get_dtype()
        sizes = list(self.get_sizes())
        data = self.to_bytes().get_data()
        if not data:
            values = []
        elif dtype in _MEMORYVIEW_FORMATS:
            # memoryview nests the elements in C: 4 x 4 took 4.1 us through
            # struct and _nest(), 1 000 x 1 000 57 ms.
            return memoryview(data).cast(_MEMORYVIEW_FORMATS[dtype], sizes).tolist()
        else:
            numel = self.get_numel()
            count = numel * 2 if Lt.dtype_is_complex(dtype) else numel
            values = struct.unpack('=%d%s' % (count, _STRUCT_FORMATS[dtype]), data)
            if dtype == Lt.DType.BFLOAT16:
                values = struct.unpack('=%df' % count,
                                       struct.pack('=%dI' % count, *(v << 16 for v in values)))
            elif Lt.dtype_is_complex(dtype):
                values = [complex(values[i], values[i + 1]) for i in range(0, count, 2)]
        return _nest(values, sizes)

    def __repr__(self):
        return self.to_string()

    def __str__(self):
        return self.to_string()

    # Views with PyTorch's calling conventions

    def view(self, *shape):
        return super().view(_ints(shape, 'view()'))

    def reshape(self, *shape):
        return super().reshape(_ints(shape, 'reshape()'))

    def expand(self, *sizes):
        return super().expand(_ints(sizes, 'expand()'))

    def permute(self, *dims, **keywords):
        if not dims and set(keywords) == {'dims'}:
            # PyTorch's permute(dims=...)
            dims = (keywords['dims'],)
        elif keywords:
            raise TypeError('permute() takes the dims, or dims=, not %s'
                            % ', '.join('%s=' % name for name in keywords))
        return super().permute(_ints(dims, 'permute()'))

    def flip(self, *dims):
        return super().flip(_ints(dims, 'flip()'))

    def flatten(self, start_dim=0, end_dim=-1):
        return super().flatten(start_dim, end_dim)

    def unflatten(self, dim, sizes):
        return super().unflatten(dim, _ints((sizes,), 'unflatten()'))

    def squeeze(self, dim=None):
        if dim is None:
            return super().squeeze()
        if isinstance(dim, numbers.Integral):
            return self.squeeze_dim(dim)
        ndim = self.get_dim()
        result = self
        # From the last dim down, so removing one does not renumber the others.
        for d in sorted({_wrap_dim(d, ndim, 'squeeze()') for d in dim}, reverse=True):
            result = result.squeeze_dim(d)
        return result if result is not self else self.alias()

    def movedim(self, source, destination):
        return super().movedim(_int_or_ints(source, 'movedim()'),
                               _int_or_ints(destination, 'movedim()'))

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return super().diagonal(offset, dim1, dim2)

    def unfold(self, dimension, size, step):
        """Every window of size elements of dim dimension, step apart, in
        a new last dim (a view); PyTorch's name for the dim, by keyword too."""
        return super().unfold(dimension, size, step)

    def as_strided(self, size, stride, storage_offset=None):
        if storage_offset is None:
            storage_offset = self.get_storage_offset()
        return super().as_strided(_ints((size,), 'as_strided()'),
                                  _ints((stride,), 'as_strided()'), storage_offset)

    def split(self, split_size_or_sections, dim=0):
        if isinstance(split_size_or_sections, numbers.Integral):
            return tuple(super().split(split_size_or_sections, dim))
        return tuple(self.split_with_sizes(_ints((split_size_or_sections,), 'split()'), dim))

    def chunk(self, chunks, dim=0):
        return tuple(super().chunk(chunks, dim))

    def unbind(self, dim=0):
        return tuple(super().unbind(dim))

    def tensor_split(self, indices_or_sections, dim=0):
        """torch.tensor_split(): views of @indices_or_sections pieces as
        equal as can be, or of the pieces between the indices given."""
        return self._split_by('tensor_split', indices_or_sections, dim)

    def hsplit(self, indices_or_sections):
        """torch.hsplit(): tensor_split() along dim 1 (dim 0 of a vector)."""
        return self._split_by('hsplit', indices_or_sections)

    def vsplit(self, indices_or_sections):
        """torch.vsplit(): tensor_split() along dim 0 of a matrix."""
        return self._split_by('vsplit', indices_or_sections)

    def dsplit(self, indices_or_sections):
        """torch.dsplit(): tensor_split() along dim 2."""
        return self._split_by('dsplit', indices_or_sections)

    def _split_by(self, name, indices_or_sections, *dim):
        what = name + '()'
        if isinstance(indices_or_sections, Lt.Tensor):
            # PyTorch takes a 0-dim tensor of sections or a vector of indices.
            if indices_or_sections.get_dim() > 1:
                raise ValueError('%s takes a 0-dim tensor of sections or a 1-dim tensor of '
                                 'indices, not a %d-dim tensor'
                                 % (what, indices_or_sections.get_dim()))
            indices_or_sections = indices_or_sections.tolist()
        if isinstance(indices_or_sections, numbers.Integral) \
                or hasattr(indices_or_sections, '__index__'):
            pieces = getattr(Lt.Tensor, name)(self, operator.index(indices_or_sections), *dim)
        else:
            pieces = getattr(Lt.Tensor, name + '_indices')(
                self, _ints((indices_or_sections,), what), *dim)
        return tuple(pieces)

    # In-place views: the tensor itself takes the new shape, as in PyTorch

    def unsqueeze_(self, dim):
        """In place unsqueeze(); returns self."""
        super().unsqueeze_(dim)
        return self

    def squeeze_(self, dim=None):
        """In place squeeze(); returns self."""
        if dim is None:
            super().squeeze_()
        else:
            self.squeeze_dim_(_dim_of(self, dim))
        return self

    def transpose_(self, dim0, dim1):
        """In place transpose(); returns self."""
        super().transpose_(dim0, dim1)
        return self

    def swapaxes_(self, axis0, axis1):
        """In place swapaxes(); returns self."""
        return self.transpose_(axis0, axis1)

    swapdims_ = transpose_

    def t_(self):
        """In place t(); returns self."""
        super().t_()
        return self

    def as_strided_(self, size, stride, storage_offset=None):
        """In place as_strided(); returns self."""
        if storage_offset is None:
            storage_offset = self.get_storage_offset()
        super().as_strided_(_ints((size,), 'as_strided_()'), _ints((stride,), 'as_strided_()'),
                            storage_offset)
        return self

    # Transposes and parts of complex numbers, as properties

    def swapdims(self, dim0, dim1):
        """transpose(), as PyTorch names it, with its dims' names."""
        return self.transpose(dim0, dim1)
    moveaxis = movedim

    @property
    def T(self):
        """The transpose of a matrix; for other dims, as PyTorch 1.13, the
        dims reversed (a view)."""
        if self.get_dim() == 2:
            return self.t()
        return self.permute(*reversed(range(self.get_dim())))

    @property
    def mT(self):
        """The batch of transposed matrices: the last two dims swapped (a view)."""
        return self.mt()

    @property
    def H(self):
        """The conjugate transpose of a matrix: a view, or for complex
        tensors a copy (libtensor has no conjugate bit)."""
        if self.get_dim() not in (0, 2):
            raise ValueError('H is only supported on matrices (2-dim tensors), not on a '
                             '%d-dim tensor; use mH for batches of matrices' % self.get_dim())
        return self.adjoint()

    @property
    def mH(self):
        """The batch of conjugate transposed matrices (see H)."""
        return self.adjoint()

    @property
    def real(self):
        """The real parts of a complex tensor (a view); any other tensor itself."""
        if not Lt.dtype_is_complex(self.get_dtype()):
            return self
        return Lt.Tensor.real(self)

    @property
    def imag(self):
        """The imaginary parts of a complex tensor (a view)."""
        return Lt.Tensor.imag(self)

    # Copies and writes

    def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
        """This tensor on a device and/or in a dtype, as PyTorch's to().

        t.to('opencl:0'), t.to(Lt.float64), t.to('cpu', 'float64'),
        t.to(device='cuda', dtype=Lt.half), t.to(other) (other's device and
        dtype): itself when it is already there and of that dtype, unless
        @copy. @non_blocking is accepted; every copy here is finished when
        to() returns.
        """
        if len(args) == 1 and isinstance(args[0], Lt.Tensor):
            if device is not None or dtype is not None:
                raise TypeError('to(other) takes no device= or dtype=; they are other\'s')
            device, dtype = args[0].get_device(), args[0].get_dtype()
            args = ()
        if len(args) > 2:
            raise TypeError('to() takes a device, a dtype, or a device then a dtype')
        for arg in args:
            parsed = _as_device(arg)
            if parsed is not None and device is None and dtype is None:
                device = parsed
            elif dtype is None:
                dtype = _as_dtype(arg)
            else:
                raise TypeError('to() takes a device, a dtype, or a device then a dtype')
        result = self
        if device is not None:
            parsed = _as_device(device)
            if parsed is None:
                raise TypeError("to(): device must be an Lt.Device or a name such as 'cpu' or "
                                "'opencl:0', not %r" % (device,))
            result = result.to_device(parsed)
        if dtype is not None and _as_dtype(dtype) != result.get_dtype():
            result = result.to_dtype(_as_dtype(dtype))
        if copy and result is self:
            result = self.clone()
        return result

    def cuda(self, device=None, non_blocking=False):
        """This tensor on a CUDA device: 'cuda' (the current one, cuda:0)
        unless @device (an index or a name) says which."""
        if device is None:
            device = 'cuda'
        elif isinstance(device, numbers.Integral):
            device = 'cuda:%d' % device
        return self.to(device)

    @property
    def is_cuda(self):
        """Whether the tensor's storage is on a CUDA device."""
        return self.get_device().get_device_type() == Lt.DeviceType.CUDA

    @property
    def is_cpu(self):
        """Whether the tensor's storage is in host memory."""
        return self.get_device().get_device_type() == Lt.DeviceType.CPU

    def is_floating_point(self):
        """Whether the dtype is a real floating point one."""
        return bool(Lt.dtype_is_floating_point(self.get_dtype()))

    def is_complex(self):
        """Whether the dtype is complex."""
        return bool(Lt.dtype_is_complex(self.get_dtype()))

    def element_size(self):
        """The size of one element in bytes."""
        return Lt.dtype_get_element_size(self.get_dtype())

    @property
    def itemsize(self):
        """The size of one element in bytes."""
        return Lt.dtype_get_element_size(self.get_dtype())

    @property
    def nbytes(self):
        """The bytes the elements take: numel() * element_size()."""
        return self.get_numel() * Lt.dtype_get_element_size(self.get_dtype())

    def data_ptr(self):
        """The address of the first element, as an int (host memory only)."""
        storage = self.get_storage()
        if storage.get_device_type() != Lt.DeviceType.CPU:
            raise ValueError('data_ptr(): the tensor is on %s, whose memory has no host '
                             'address; share it through DLPack (t.__dlpack__()) or copy it '
                             'with t.cpu()' % self.get_device().to_string())
        return (storage.get_data_address()
                + self.get_storage_offset() * Lt.dtype_get_element_size(self.get_dtype()))

    def type(self, dtype=None, non_blocking=False):
        """Without @dtype, the tensor's type name ('Lt.FloatTensor', as
        torch's 'torch.FloatTensor'); with one (a dtype or such a name),
        the tensor converted to it."""
        if dtype is None:
            return 'Lt.%sTensor' % _TYPE_NAMES[self.get_dtype()]
        if isinstance(dtype, str) and dtype.endswith('Tensor'):
            name = dtype.rsplit('.', 1)[-1][:-len('Tensor')]
            for candidate, type_name in _TYPE_NAMES.items():
                if type_name == name:
                    return self.to(candidate)
            raise TypeError('type(): unknown tensor type %r' % (dtype,))
        return self.to(dtype)

    def storage(self):
        """The tensor's storage, as torch's typed storage: len(), indexing,
        item assignment (seen through every view), tolist(), data_ptr()."""
        return TypedStorage(self.get_storage())

    def untyped_storage(self):
        """The tensor's storage as bytes, as torch's untyped storage."""
        return UntypedStorage(self.get_storage())

    def cpu(self):
        """This tensor in host memory: itself when it is there already."""
        return self.to_cpu()

    @property
    def device(self):
        """The Lt.Device the tensor's storage lives on (str() gives 'cpu', 'opencl:0'...)."""
        return self.get_device()

    def fill_(self, value):
        self._assign(value)
        return self

    def zero_(self):
        self.zero()
        return self

    def copy_(self, src):
        if isinstance(src, Lt.Tensor):
            # What self[...] = src does, without the view and its checks.
            self.copy_from(src)
        else:
            self[...] = src
        return self

    def storage_indices(self):
        """The storage index of every element, as an int64 tensor of this shape.

        The numbers of get_storage_indices() without building a Python list:
        numpy.asarray(t.storage_indices()) shares the tensor's memory, and
        .tolist() gives nested lists.
        """
        return self.get_storage_index_tensor()

    # NumPy

    @property
    def __array_interface__(self):
        """NumPy's array interface (version 3): the tensor's memory, without copying.

        NumPy keeps a reference to the tensor whose interface it used
        (numpy.asarray(t).base is t), and the tensor keeps its storage alive.
        """
        storage = self.get_storage()
        if storage.get_device_type() != Lt.DeviceType.CPU:
            raise TypeError('a tensor on %s cannot be shared with NumPy; copy it to the CPU '
                            'first with t.cpu()' % self.get_device().to_string())
        dtype = self.get_dtype()
        typestr = _TYPESTRS.get(dtype)
        if typestr is None:
            raise TypeError('NumPy has no type for %s tensors; convert with .to(\'float32\') '
                            'first' % Lt.dtype_get_name(dtype))
        element_size = Lt.dtype_get_element_size(dtype)
        address = storage.get_data_address() + self.get_storage_offset() * element_size
        sizes = self.get_sizes()
        strides = []
        for size, stride in zip(sizes, self.get_strides()):
            stride *= element_size
            # A dim of size 0 or 1 never steps, whatever its stride; a huge
            # one (t[::2**62]) would overflow NumPy's byte strides.
            if size <= 1 and not _INT64_MIN <= stride <= _INT64_MAX:
                stride = 0
            strides.append(stride)
        return {
            'version': 3,
            'shape': tuple(sizes),
            'typestr': typestr,
            'strides': tuple(strides),
            'data': (address, False),
        }

    def numpy(self):
        """A NumPy array sharing this tensor's memory."""
        import numpy
        return numpy.asarray(self)

    def __array_function__(self, func, types, args, kwargs):
        """NumPy's function protocol (NEP 18): numpy.sum(t), numpy.concatenate
        and the rest take tensors as the NumPy arrays over their memory, and
        give NumPy's results. Array libraries that work on any array with
        this protocol (Dask's from_array(), whose chunks stay views of the
        tensor) work on tensors."""
        import numpy
        return func(*_numpy_arguments(numpy, args), **_numpy_arguments(numpy, kwargs))

    # DLPack

    def __dlpack__(self, stream=None):
        """A DLPack capsule sharing this tensor's memory, for numpy.from_dlpack(),
        torch.from_dlpack() and the other DLPack consumers.

        Any view goes out with its strides. Work on the tensor's device is
        finished before the capsule is made, so any @stream may use it.
        """
        return _dlpack_capsules().capsule(self.to_dlpack())

    def __dlpack_device__(self):
        """(DLPack device type, index): (1, 0) on the CPU, (2, N) on cuda:N, (4, N) on opencl:N."""
        device = self.get_device()
        kinds = {Lt.DeviceType.CPU: 1, Lt.DeviceType.CUDA: 2, Lt.DeviceType.OPENCL: 4}
        return (kinds[device.get_device_type()], device.get_index())


def _numpy_arguments(numpy, value):
    """@value with every tensor in it (in lists, tuples and dicts) as a NumPy
    array over the same memory."""
    if isinstance(value, Lt.Tensor):
        return numpy.asarray(value)
    if type(value) in (list, tuple):
        return type(value)(_numpy_arguments(numpy, item) for item in value)
    if type(value) is dict:
        return {key: _numpy_arguments(numpy, item) for key, item in value.items()}
    return value


# Pointwise math: operators and PyTorch's named methods. Python numbers
# become wrapped numbers (Lt.Tensor.new_scalar_*), which promote as PyTorch
# promotes Python scalars: float32 * 2 stays float32, int32 + 1.5 is float32.

_INT64_RANGE = range(-2 ** 63, 2 ** 63)


# The wrapped numbers of the ints and floats used last, made once each: a
# new one (a tensor, a storage and a wrapper, made and freed) cost more
# than a small product. Only operands read them (no op returns or writes
# an operand it did not take as self). Zeros and NaNs are not kept: 0.0
# and -0.0 are equal keys, and a NaN is no key at all.
_NUMBER_OPERANDS = {}
_NUMBER_OPERANDS_KEPT = 256


def _number_operand(kind, value):
    key = (kind, value)
    operand = _NUMBER_OPERANDS.get(key)
    if operand is None:
        if kind is int:
            if value not in _INT64_RANGE:
                raise OverflowError('the integer %d does not fit in 64 bits' % value)
            operand = Lt.Tensor.new_scalar_int(value)
        else:
            operand = Lt.Tensor.new_scalar_double(value)
            if value == 0.0 or value != value:
                return operand
        if len(_NUMBER_OPERANDS) >= _NUMBER_OPERANDS_KEPT:
            _NUMBER_OPERANDS.clear()
        _NUMBER_OPERANDS[key] = operand
    return operand


def _operand(value):
    """An Lt.Tensor for a tensor or a Python number, or None for anything else."""
    kind = type(value)
    if kind is int or kind is float:
        return _number_operand(kind, value)
    if isinstance(value, Lt.Tensor):
        return value
    if _is_bool(value):
        return Lt.Tensor.new_scalar_bool(bool(value))
    if isinstance(value, numbers.Integral):
        value = int(value)
        if value not in _INT64_RANGE:
            raise OverflowError('the integer %d does not fit in 64 bits' % value)
        return Lt.Tensor.new_scalar_int(value)
    if isinstance(value, numbers.Real):
        return Lt.Tensor.new_scalar_double(float(value))
    if isinstance(value, numbers.Complex):
        value = complex(value)
        return Lt.Tensor.new_scalar_complex(value.real, value.imag)
    return None


def _tensor_operand(value, what):
    operand = _operand(value)
    if operand is None:
        raise TypeError('%s expects a tensor or a number, not %s' % (what, type(value).__name__))
    return operand


def _forward(op):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        return Lt.Tensor.binary(self, op, other)
    return method


def _reflected(op):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        return Lt.Tensor.binary(other, op, self)
    return method


def _in_place(op):
    def method(self, other):
        other = _operand(other)
        if other is None:
            return NotImplemented
        Lt.Tensor.binary_(self, op, other)
        return self
    return method


def _named_binary(op, name):
    def method(self, other):
        return Lt.Tensor.binary(self, op, _tensor_operand(other, name + '()'))
    method.__name__ = name
    method.__doc__ = 'torch.%s(self, other): broadcast, promoted, a new tensor.' % name
    return method


def _named_binary_(op, name):
    def method(self, other):
        Lt.Tensor.binary_(self, op, _tensor_operand(other, name + '_()'))
        return self
    method.__name__ = name + '_'
    method.__doc__ = 'In-place %s(); returns self.' % name
    return method


def _named_unary(op, name):
    def method(self):
        return Lt.Tensor.unary(self, op)
    method.__name__ = name
    method.__doc__ = 'torch.%s(self), a new tensor.' % name
    return method


def _named_unary_(op, name):
    def method(self):
        Lt.Tensor.unary_(self, op)
        return self
    method.__name__ = name + '_'
    method.__doc__ = 'In-place %s(); returns self.' % name
    return method


_OPERATORS = {
    'add': Lt.BinaryOp.ADD, 'sub': Lt.BinaryOp.SUB, 'mul': Lt.BinaryOp.MUL,
    'truediv': Lt.BinaryOp.DIV, 'floordiv': Lt.BinaryOp.FLOOR_DIVIDE,
    'mod': Lt.BinaryOp.REMAINDER, 'pow': Lt.BinaryOp.POW, 'and': Lt.BinaryOp.BITWISE_AND,
    'or': Lt.BinaryOp.BITWISE_OR, 'xor': Lt.BinaryOp.BITWISE_XOR,
}

for _name, _op in _OPERATORS.items():
    setattr(Tensor, '__%s__' % _name, _forward(_op))
    setattr(Tensor, '__r%s__' % _name, _reflected(_op))
    setattr(Tensor, '__i%s__' % _name, _in_place(_op))

for _name, _op in {'eq': Lt.BinaryOp.EQ, 'ne': Lt.BinaryOp.NE, 'lt': Lt.BinaryOp.LT,
                   'le': Lt.BinaryOp.LE, 'gt': Lt.BinaryOp.GT, 'ge': Lt.BinaryOp.GE}.items():
    setattr(Tensor, '__%s__' % _name, _forward(_op))

# __eq__ would otherwise make tensors unhashable.
Tensor.__hash__ = object.__hash__

_NAMED_BINARY = {
    'mul': Lt.BinaryOp.MUL, 'floor_divide': Lt.BinaryOp.FLOOR_DIVIDE,
    'remainder': Lt.BinaryOp.REMAINDER, 'pow': Lt.BinaryOp.POW,
    'maximum': Lt.BinaryOp.MAXIMUM, 'minimum': Lt.BinaryOp.MINIMUM, 'eq': Lt.BinaryOp.EQ,
    'ne': Lt.BinaryOp.NE, 'lt': Lt.BinaryOp.LT, 'le': Lt.BinaryOp.LE, 'gt': Lt.BinaryOp.GT,
    'ge': Lt.BinaryOp.GE, 'logical_and': Lt.BinaryOp.LOGICAL_AND,
    'logical_or': Lt.BinaryOp.LOGICAL_OR, 'logical_xor': Lt.BinaryOp.LOGICAL_XOR,
    'bitwise_and': Lt.BinaryOp.BITWISE_AND, 'bitwise_or': Lt.BinaryOp.BITWISE_OR,
    'bitwise_xor': Lt.BinaryOp.BITWISE_XOR,
}

for _name, _op in _NAMED_BINARY.items():
    setattr(Tensor, _name, _named_binary(_op, _name))
    setattr(Tensor, _name + '_', _named_binary_(_op, _name))

_NO_IN_PLACE = {'isnan', 'isinf', 'isfinite'}

for _op in Lt.UnaryOp.__enum_values__.values():
    _name = _op.value_nick.replace('-', '_')
    setattr(Tensor, _name, _named_unary(_op, _name))
    if _name not in _NO_IN_PLACE:
        setattr(Tensor, _name + '_', _named_unary_(_op, _name))


def _tensor_neg(self):
    return Lt.Tensor.unary(self, Lt.UnaryOp.NEG)


def _tensor_pos(self):
    return self.alias()


def _tensor_abs(self):
    return Lt.Tensor.unary(self, Lt.UnaryOp.ABS)


def _tensor_invert(self):
    return Lt.Tensor.unary(self, Lt.UnaryOp.BITWISE_NOT)


def _tensor_matmul(self, other):
    # lt_tensor_matmul comes from the linear algebra family.
    matmul = getattr(self, 'matmul', None)
    if matmul is None or not isinstance(other, Lt.Tensor):
        return NotImplemented
    return matmul(other)


def _tensor_rmatmul(self, other):
    matmul = getattr(other, 'matmul', None)
    if matmul is None or not isinstance(other, Lt.Tensor):
        return NotImplemented
    return matmul(self)


def _tensor_add(self, other, alpha=1):
    """self + alpha * other, as torch.add()."""
    return Lt.Tensor.add(self, _tensor_operand(other, 'add()'), float(alpha))


def _tensor_add_(self, other, alpha=1):
    Lt.Tensor.add_(self, _tensor_operand(other, 'add_()'), float(alpha))
    return self


def _tensor_sub(self, other, alpha=1):
    """self - alpha * other, as torch.sub()."""
    return Lt.Tensor.sub(self, _tensor_operand(other, 'sub()'), float(alpha))


def _tensor_sub_(self, other, alpha=1):
    Lt.Tensor.sub_(self, _tensor_operand(other, 'sub_()'), float(alpha))
    return self


_ROUNDING_MODES = {None: Lt.BinaryOp.DIV, 'floor': Lt.BinaryOp.FLOOR_DIVIDE,
                   'trunc': Lt.BinaryOp.TRUNC_DIVIDE}


def _rounding_op(rounding_mode):
    try:
        return _ROUNDING_MODES[rounding_mode]
    except (KeyError, TypeError):
        raise ValueError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                         "but found %r" % (rounding_mode,)) from None


def _tensor_div(self, other, rounding_mode=None):
    """torch.div(): true division, or rounded with rounding_mode 'floor' or 'trunc'."""
    return Lt.Tensor.binary(self, _rounding_op(rounding_mode),
                            _tensor_operand(other, 'div()'))


def _tensor_div_(self, other, rounding_mode=None):
    Lt.Tensor.binary_(self, _rounding_op(rounding_mode), _tensor_operand(other, 'div_()'))
    return self


def _tensor_where(self, condition, other):
    """torch.where(condition, self, other)."""
    return Lt.Tensor.where(_tensor_operand(condition, 'where()'), self,
                           _tensor_operand(other, 'where()'))


def _bound(value, what):
    return None if value is None else _tensor_operand(value, what)


def _tensor_clamp(self, min=None, max=None):
    """Each element limited to [min, max]; either bound may be None, not both."""
    return Lt.Tensor.clamp(self, _bound(min, 'clamp()'), _bound(max, 'clamp()'))


def _tensor_clamp_(self, min=None, max=None):
    Lt.Tensor.clamp_(self, _bound(min, 'clamp_()'), _bound(max, 'clamp_()'))
    return self


def _tensor_lerp(self, end, weight):
    """self + weight * (end - self), as torch.lerp()."""
    return Lt.Tensor.lerp(self, _tensor_operand(end, 'lerp()'),
                          _tensor_operand(weight, 'lerp()'))


def _tensor_lerp_(self, end, weight):
    Lt.Tensor.lerp_(self, _tensor_operand(end, 'lerp_()'), _tensor_operand(weight, 'lerp_()'))
    return self


def _tensor_result_type(self, other):
    return Lt.Tensor.result_type(self, _tensor_operand(other, 'result_type()'))


for _name, _function in {
        '__neg__': _tensor_neg, '__pos__': _tensor_pos, '__abs__': _tensor_abs,
        '__invert__': _tensor_invert, '__matmul__': _tensor_matmul,
        '__rmatmul__': _tensor_rmatmul, 'add': _tensor_add, 'add_': _tensor_add_,
        'sub': _tensor_sub, 'sub_': _tensor_sub_, 'div': _tensor_div, 'div_': _tensor_div_,
        'where': _tensor_where, 'clamp': _tensor_clamp, 'clamp_': _tensor_clamp_,
        'lerp': _tensor_lerp, 'lerp_': _tensor_lerp_, 'result_type': _tensor_result_type}.items():
    setattr(Tensor, _name, _function)


# Dim names, as PyTorch's named tensors: None for an unnamed dim, Ellipsis
# (...) for "the other dims". The C API spells them '' and '...'.

def _c_names(names):
    if len(names) == 1 and not isinstance(names[0], str) and names[0] is not None \
            and names[0] is not Ellipsis and hasattr(names[0], '__iter__'):
        names = tuple(names[0])
    return ['...' if name is Ellipsis else ('' if name is None else name) for name in names]


def _tensor_names(self):
    return tuple(name if name != '' else None for name in Lt.Tensor.get_names(self))


def _tensor_refine_names(self, *names):
    return Lt.Tensor.refine_names(self, _c_names(names))


def _tensor_rename(self, *names, **rename_map):
    if names and rename_map:
        raise RuntimeError('rename(): give either names or name=new_name pairs, not both')
    if rename_map:
        return Lt.Tensor.rename_dims(self, list(rename_map),
                                     ['' if new is None else new for new in rename_map.values()])
    if not names or names == (None,):
        return Lt.Tensor.rename(self, [])
    return Lt.Tensor.rename(self, _c_names(names))


def _tensor_align_to(self, *names):
    return Lt.Tensor.align_to(self, _c_names(names))


def _dim_of(self, dim):
    if isinstance(dim, str):
        return _result(Lt.Tensor.dim_of_name(self, dim))
    return operator.index(dim)


def _dims_of(self, dim):
    """The dims of PyTorch's `dim` argument: None (all), an int or a name, or
    a sequence of them."""
    if dim is None:
        return []
    if isinstance(dim, str) or isinstance(dim, numbers.Integral) or hasattr(dim, '__index__'):
        return [_dim_of(self, dim)]
    return [_dim_of(self, d) for d in dim]


# Reductions, with PyTorch's keywords; dims may be given by name.

def _reduction(function):
    def method(self, dim=None, keepdim=False):
        return function(self, _dims_of(self, dim), keepdim)
    method.__name__ = function.__name__ if hasattr(function, '__name__') else 'reduction'
    return method


def _tensor_var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    if correction is None:
        correction = 1 if unbiased else 0
    return Lt.Tensor.var(self, _dims_of(self, dim), float(correction), keepdim)


def _tensor_std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    if correction is None:
        correction = 1 if unbiased else 0
    return Lt.Tensor.std(self, _dims_of(self, dim), float(correction), keepdim)


def _tensor_norm(self, p='fro', dim=None, keepdim=False):
    if p == 'fro':
        p = 2.0
    elif isinstance(p, str):
        raise ValueError("norm(): p is a number or 'fro', not %r" % p)
    return Lt.Tensor.norm(self, float(p), _dims_of(self, dim), keepdim)


class _ValuesIndices(tuple):
    """(values, indices), as torch.return_types.max."""

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])


def _extreme(all_function, dim_function):
    def method(self, dim=None, keepdim=False):
        if dim is None:
            return all_function(self)
        result = dim_function(self, _dim_of(self, dim), keepdim)
        return _ValuesIndices(result[-2], result[-1])
    return method


def _arg_extreme(all_function, dim_function):
    def method(self, dim=None, keepdim=False):
        if dim is None:
            return all_function(self)
        return dim_function(self, _dim_of(self, dim), keepdim)
    return method


def _along_dim(function):
    def method(self, dim):
        return function(self, _dim_of(self, dim))
    return method


def _tensor_allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_result(Lt.Tensor.allclose(self, _tensor_operand(other, 'allclose()'),
                                           rtol, atol, equal_nan)))


def _tensor_equal(self, other):
    return bool(Lt.Tensor.equal(self, _tensor_operand(other, 'equal()')))


# Random numbers: from the generator given, or from the module's default one,
# which manual_seed() seeds.

_default_generator = Lt.Generator.new(int.from_bytes(os.urandom(8), 'little'))


def _generator(generator):
    return generator if generator is not None else _default_generator


def _split_generator(args, generator):
    """The generator of a call in PyTorch's style (generator=...) or the C
    API's (the generator first), and the other arguments."""
    if args and isinstance(args[0], Lt.Generator):
        return args[0], args[1:]
    return _generator(generator), args


def _tensor_uniform_(self, *args, generator=None):
    generator, args = _split_generator(args, generator)
    a, b = (tuple(args) + (0.0, 1.0)[len(args):])[:2]
    Lt.Tensor.uniform_(self, generator, a, b)
    return self


def _tensor_normal_(self, *args, generator=None):
    generator, args = _split_generator(args, generator)
    mean, std = (tuple(args) + (0.0, 1.0)[len(args):])[:2]
    Lt.Tensor.normal_(self, generator, mean, std)
    return self


def _tensor_random_(self, *args, generator=None):
    generator, args = _split_generator(args, generator)
    if len(args) == 1:
        args = (0, args[0])
    Lt.Tensor.random_(self, generator, *args)
    return self


def _tensor_bernoulli_(self, *args, generator=None):
    generator, args = _split_generator(args, generator)
    Lt.Tensor.bernoulli_(self, generator, args[0] if args else 0.5)
    return self


def _tensor_bernoulli(self, *args, generator=None):
    generator, args = _split_generator(args, generator)
    return Lt.Tensor.bernoulli(self, generator)


for _name, _function in {
        'names': property(_tensor_names), 'refine_names': _tensor_refine_names,
        'rename': _tensor_rename, 'align_to': _tensor_align_to,
        'sum': _reduction(Lt.Tensor.sum), 'mean': _reduction(Lt.Tensor.mean),
        'prod': _reduction(Lt.Tensor.prod), 'amax': _reduction(Lt.Tensor.amax),
        'amin': _reduction(Lt.Tensor.amin), 'all': _reduction(Lt.Tensor.all),
        'any': _reduction(Lt.Tensor.any), 'logsumexp': _reduction(Lt.Tensor.logsumexp),
        'var': _tensor_var, 'std': _tensor_std, 'norm': _tensor_norm,
        'max': _extreme(Lt.Tensor.max, Lt.Tensor.max_dim),
        'min': _extreme(Lt.Tensor.min, Lt.Tensor.min_dim),
        'argmax': _arg_extreme(Lt.Tensor.argmax_all, Lt.Tensor.argmax),
        'argmin': _arg_extreme(Lt.Tensor.argmin_all, Lt.Tensor.argmin),
        'cumsum': _along_dim(Lt.Tensor.cumsum), 'cumprod': _along_dim(Lt.Tensor.cumprod),
        'softmax': _along_dim(Lt.Tensor.softmax),
        'log_softmax': _along_dim(Lt.Tensor.log_softmax),
        'allclose': _tensor_allclose, 'equal': _tensor_equal,
        'uniform_': _tensor_uniform_, 'normal_': _tensor_normal_, 'random_': _tensor_random_,
        'bernoulli_': _tensor_bernoulli_, 'bernoulli': _tensor_bernoulli}.items():
    setattr(Tensor, _name, _function)


# Conversions to a dtype by its name, as PyTorch's t.float(), t.long(), ...
# Set here rather than in the class, whose body would otherwise hide the
# builtins float, int and bool from the code after them.

def _converter(dtype, name):
    def method(self):
        return self.to(dtype)
    method.__name__ = name
    method.__doc__ = 'This tensor as %s: itself when it is that already.' % _dtype_repr(dtype)
    return method


for _name, _dtype in {'float': float32, 'double': float64, 'half': float16,
                      'bfloat16': bfloat16, 'int': int32, 'long': int64, 'short': int16,
                      'char': int8, 'byte': uint8, 'bool': bool_, 'cfloat': complex64,
                      'cdouble': complex128}.items():
    setattr(Tensor, _name, _converter(_dtype, _name))

Tensor = override(Tensor)
# The view methods (t(), view(), permute(), unsqueeze()...) and the
# commonest keys of __getitem__ without PyGObject's invoke, and the
# wrappers made and freed without its lookups and GIL round trips
# (lt-python-views.c, lt-python-index.c, lt-python-wrapper.c): views from
# Python at half the cost, or less. The methods above stay for the calls
# the C ones do not take.
if _lt_views is not None:
    _lt_views.adopt(Tensor)
__all__.append('Tensor')


# Storages: what t.storage() returns, as torch's typed storage (and, in
# bytes, its untyped one). A storage object is a window on an Lt.Storage:
# reads and writes go to the memory every view of it shares.

_TYPE_NAMES = {
    bool_: 'Bool', uint8: 'Byte', int8: 'Char', int16: 'Short', int32: 'Int', int64: 'Long',
    float16: 'Half', bfloat16: 'BFloat16', float32: 'Float', float64: 'Double',
    complex64: 'ComplexFloat', complex128: 'ComplexDouble',
}


class _StorageWindow:
    """What typed and untyped storages share: a window of @size items from
    @offset of an Lt.Storage."""

    def __init__(self, storage, offset, size):
        self._storage = storage
        self._offset = offset
        self._size = size

    def size(self):
        """The number of items."""
        return self._size

    def __len__(self):
        return self._size

    @property
    def device(self):
        """The Lt.Device the memory is on."""
        return self._storage.get_device()

    @property
    def is_cuda(self):
        return self._storage.get_device_type() == Lt.DeviceType.CUDA

    def nbytes(self):
        """The size in bytes."""
        return self._size * self.element_size()

    def data_ptr(self):
        """The address of the first item, as an int (host memory only)."""
        if self._storage.get_device_type() != Lt.DeviceType.CPU:
            raise ValueError('data_ptr(): the storage is on %s, whose memory has no host '
                             'address' % self.device.to_string())
        return self._storage.get_data_address() + self._offset * self.element_size()

    def _wrap_index(self, index):
        try:
            index = operator.index(index)
        except TypeError:
            raise TypeError('a storage is indexed by an int or a slice, not %s'
                            % type(index).__name__) from None
        if not -self._size <= index < self._size:
            raise IndexError('index %d is out of range for a storage of size %d'
                             % (index, self._size))
        return index + self._size if index < 0 else index

    def _window(self, key):
        start, stop, step = key.indices(self._size)
        if step != 1:
            raise ValueError('a storage slice must have step 1; slice a tensor view of it '
                             'for other steps')
        return type(self)(self._storage, self._offset + start, max(stop - start, 0))

    def __iter__(self):
        return iter(self.tolist())

    def __str__(self):
        values = ' ' + '\n '.join(str(value) for value in self.tolist())
        return values + '\n[%s of size %d]' % (self._type_name(), self._size)

    __repr__ = __str__


class TypedStorage(_StorageWindow):
    """A tensor's storage, as torch.TypedStorage: one flat array of elements
    of one dtype. Printed as PyTorch prints it (a value a line, then
    [Lt.FloatStorage of size 6]); indexing gives Python numbers, assignment
    writes the memory every view of the storage reads."""

    def __init__(self, storage, offset=0, size=None):
        if size is None:
            size = storage.get_n_elements() - offset
        super().__init__(storage, offset, size)

    @property
    def dtype(self):
        """The element type."""
        return self._storage.get_dtype()

    def element_size(self):
        """The size of one element in bytes."""
        return Lt.dtype_get_element_size(self.dtype)

    def _type_name(self):
        return 'Lt.%sStorage' % _TYPE_NAMES[self.dtype]

    def _elements(self):
        return Lt.Tensor.new_with_storage(self._storage, [self._size], [1], self._offset)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._window(key)
        return self._elements()[self._wrap_index(key)].tolist()

    def __setitem__(self, key, value):
        if not isinstance(key, slice):
            key = self._wrap_index(key)
        self._elements()[key] = value

    def tolist(self):
        """The elements as a list of Python numbers."""
        return self._elements().tolist()

    def fill_(self, value):
        """Sets every element to @value; returns the storage."""
        self._elements().fill_(value)
        return self

    def untyped(self):
        """The same memory as bytes."""
        size = self.element_size()
        return UntypedStorage(self._storage, self._offset * size, self._size * size)


class UntypedStorage(_StorageWindow):
    """A tensor's storage as bytes, as torch.UntypedStorage: indexing gives
    and takes ints from 0 to 255."""

    def __init__(self, storage, offset=0, size=None):
        if size is None:
            size = storage.get_nbytes() - offset
        super().__init__(storage, offset, size)

    dtype = uint8

    def element_size(self):
        return 1

    def _type_name(self):
        return 'Lt.UntypedStorage'

    def _host_bytes(self):
        import ctypes
        if self._storage.get_device_type() != Lt.DeviceType.CPU:
            return None
        return (ctypes.c_ubyte * self._size).from_address(
            self._storage.get_data_address() + self._offset)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._window(key)
        return self.tolist()[self._wrap_index(key)]

    def __setitem__(self, key, value):
        memory = self._host_bytes()
        if memory is None:
            raise ValueError('bytes of a storage on %s cannot be written one by one; write '
                             'through a tensor' % self.device.to_string())
        if isinstance(key, slice):
            self._window(key)
            start, stop, _ = key.indices(self._size)
            values = [operator.index(value)] * max(stop - start, 0) \
                if isinstance(value, numbers.Integral) else [operator.index(v) for v in value]
            if len(values) != max(stop - start, 0):
                raise ValueError('%d bytes cannot be written to a slice of %d'
                                 % (len(values), max(stop - start, 0)))
            if any(not 0 <= v <= 255 for v in values):
                raise ValueError('a byte is from 0 to 255')
            memory[start:stop] = values
            return
        value = operator.index(value)
        if not 0 <= value <= 255:
            raise ValueError('a byte is from 0 to 255, not %d' % value)
        memory[self._wrap_index(key)] = value

    def tolist(self):
        """The bytes as a list of ints."""
        memory = self._host_bytes()
        if memory is not None:
            return list(memory)
        data = self._storage.get_bytes().get_data()
        return list(data[self._offset:self._offset + self._size])


__all__ += ['TypedStorage', 'UntypedStorage']


def _dlpack_capsules():
    if _lt_dlpack is None:
        raise RuntimeError('DLPack needs the overrides\' _lt_dlpack extension, which this '
                           'build of libtensor lacks (it needs python3-dev to build)')
    return _lt_dlpack


def from_dlpack(source):
    """A tensor sharing the memory of @source, as torch.from_dlpack().

    @source is an object with __dlpack__() (a NumPy array, a PyTorch
    tensor, an Lt.Tensor...) or a DLPack capsule. Writes through the tensor
    reach @source's memory, which stays alive as long as the tensor does.
    """
    if hasattr(source, '__dlpack__'):
        device = source.__dlpack_device__() if hasattr(source, '__dlpack_device__') else (1, 0)
        # CUDA producers order their work before the capsule on stream 1,
        # the legacy default stream, which libtensor's kernels follow.
        capsule = source.__dlpack__(stream=1) if device[0] == 2 else source.__dlpack__()
    elif type(source).__name__ == 'PyCapsule':
        capsule = source
    else:
        raise TypeError('from_dlpack() needs an object with __dlpack__() or a DLPack capsule, '
                        'not %s' % type(source).__name__)
    capsules = _dlpack_capsules()
    address = capsules.take(capsule)
    try:
        return Lt.Tensor.new_from_dlpack(address)
    except BaseException:
        # Not taken after all: the capsule frees the tensor.
        capsules.give_back(capsule)
        raise


__all__.append('from_dlpack')


class Device(Lt.Device):
    """A device, printed and compared as PyTorch's torch.device."""

    def __new__(cls, name, index=None):
        if index is not None:
            name = '%s:%d' % (name, index)
        return Lt.Device.new_from_string(name)

    @property
    def type(self):
        return {Lt.DeviceType.CPU: 'cpu', Lt.DeviceType.CUDA: 'cuda',
                Lt.DeviceType.OPENCL: 'opencl'}[self.get_device_type()]

    @property
    def index(self):
        return self.get_index()

    def __str__(self):
        return self.to_string()

    def __repr__(self):
        if self.get_device_type() == Lt.DeviceType.CPU:
            return "device(type='cpu')"
        return "device(type='%s', index=%d)" % (self.type, self.get_index())

    def __eq__(self, other):
        if isinstance(other, str):
            other = _as_device(other)
        if not isinstance(other, Lt.Device):
            return NotImplemented
        return self.equal(other)

    def __hash__(self):
        return hash((int(self.get_device_type()), self.get_index()))


Device = override(Device)
__all__.append('Device')


def where(condition, input=None, other=None):
    """torch.where(condition, input, other); input and other may be numbers.
    torch.where(condition) alone is condition.nonzero(as_tuple=True)."""
    if input is None and other is None:
        return _tensor_operand(condition, 'where()').nonzero(as_tuple=True)
    return Lt.Tensor.where(_tensor_operand(condition, 'where()'),
                           _tensor_operand(input, 'where()'),
                           _tensor_operand(other, 'where()'))


def result_type(a, b):
    """torch.result_type(a, b) for tensors and Python numbers, an Lt.DType."""
    return Lt.Tensor.result_type(_tensor_operand(a, 'result_type()'),
                                 _tensor_operand(b, 'result_type()'))


def promote_types(a, b):
    """torch.promote_types(a, b) for Lt.DTypes or dtype names."""
    return Lt.dtype_promote(_as_dtype(a), _as_dtype(b))


__all__ += ['where', 'result_type', 'promote_types']


def einsum(equation, *operands):
    """torch.einsum(equation, *operands); the operands may also be one list."""
    if len(operands) == 1 and not isinstance(operands[0], Lt.Tensor):
        operands = tuple(operands[0])
    return Lt.einsum(equation, list(operands))


def manual_seed(seed):
    """Seeds the default generator of the random functions, as torch.manual_seed()."""
    _default_generator.set_seed(seed)
    return _default_generator


def _sizes(size, what):
    return _ints(size, what)


def _or(value, default):
    """@value unless it is None (a dtype can be Lt.bool, which is 0)."""
    return default if value is None else value


def _placed(result, device=None, names=None, requires_grad=False, what='factory'):
    """@result (a new CPU tensor) with the factory keywords every PyTorch
    factory takes applied: moved to @device, its dims named @names."""
    if requires_grad:
        raise ValueError('%s: libtensor has no autograd, so requires_grad=True cannot be '
                         'honoured; leave it False' % what)
    if names is not None:
        result = Lt.Tensor.refine_names(result, _c_names(tuple(names)))
    if device is not None:
        parsed = _as_device(device)
        if parsed is None:
            raise TypeError("%s: device must be an Lt.Device or a name such as 'cpu' or "
                            "'opencl:0', not %r" % (what, device))
        if not parsed.equal(result.get_device()):
            result = result.to_device(parsed)
    return result


def rand(*size, dtype=None, generator=None, device=None, names=None, requires_grad=False):
    """torch.rand(*size): uniform numbers in [0, 1)."""
    return _placed(Lt.Tensor.new_rand(_generator(generator), _as_dtype(_or(dtype, float32)),
                                      _sizes(size, 'rand()')),
                   device, names, requires_grad, 'rand()')


def randn(*size, dtype=None, generator=None, device=None, names=None, requires_grad=False):
    """torch.randn(*size): standard normal numbers."""
    return _placed(Lt.Tensor.new_randn(_generator(generator), _as_dtype(_or(dtype, float32)),
                                       _sizes(size, 'randn()')),
                   device, names, requires_grad, 'randn()')


def randint(low, high=None, size=(), *, dtype=None, generator=None, device=None, names=None,
            requires_grad=False):
    """torch.randint([low,] high, size): integers in [low, high)."""
    if high is None:
        low, high = 0, low
    return _placed(Lt.Tensor.new_randint(_generator(generator), low, high,
                                         _as_dtype(_or(dtype, int64)), _sizes(size, 'randint()')),
                   device, names, requires_grad, 'randint()')


def normal(mean, std, size, *, dtype=None, generator=None, device=None, names=None,
           requires_grad=False):
    """torch.normal(mean, std, size) for numbers mean and std."""
    return _placed(Lt.Tensor.new_normal(_generator(generator), mean, std,
                                        _as_dtype(_or(dtype, float32)), _sizes(size, 'normal()')),
                   device, names, requires_grad, 'normal()')


__all__ += ['einsum', 'manual_seed', 'rand', 'randn', 'randint', 'normal']


# Factories with PyTorch's signatures: sizes as ints or one sequence, and
# the keywords dtype=, device=, names= and requires_grad= (False only).
# Without dtype=, PyTorch's default: float32, or what the values imply.

def _dtype_of_value(value):
    """The dtype PyTorch gives a tensor filled with the Python number @value."""
    if _is_bool(value):
        return bool_
    if isinstance(value, numbers.Integral):
        return int64
    if isinstance(value, numbers.Real):
        return float32
    if isinstance(value, numbers.Complex):
        return complex64
    raise TypeError('expected a number (bool, int, float or complex), not %r' % (value,))


def _filled(sizes, value, dtype, what):
    """A new CPU tensor of @sizes and @dtype holding @value everywhere."""
    if isinstance(value, numbers.Real) and not _is_bool(value) \
            and (not isinstance(value, numbers.Integral) or abs(int(value)) <= 2 ** 53):
        return Lt.Tensor.new_full(dtype, sizes, float(value))
    # Complex values, bools and integers a double cannot hold exactly.
    result = Lt.Tensor.new_empty(dtype, sizes)
    result.fill_(value)
    return result


def zeros(*size, dtype=None, device=None, names=None, requires_grad=False):
    """torch.zeros(*size): a tensor of zeros, float32 unless @dtype says."""
    result = Lt.Tensor.new_zeros(_as_dtype(_or(dtype, float32)), _sizes(size, 'zeros()'))
    return _placed(result, device, names, requires_grad, 'zeros()')


def ones(*size, dtype=None, device=None, names=None, requires_grad=False):
    """torch.ones(*size): a tensor of ones, float32 unless @dtype says."""
    result = Lt.Tensor.new_ones(_as_dtype(_or(dtype, float32)), _sizes(size, 'ones()'))
    return _placed(result, device, names, requires_grad, 'ones()')


def empty(*size, dtype=None, device=None, names=None, requires_grad=False):
    """torch.empty(*size): a tensor whose values are whatever its memory held."""
    result = Lt.Tensor.new_empty(_as_dtype(_or(dtype, float32)), _sizes(size, 'empty()'))
    return _placed(result, device, names, requires_grad, 'empty()')


def full(size, fill_value, *, dtype=None, device=None, names=None, requires_grad=False):
    """torch.full(size, fill_value): @size a sequence of ints; the dtype, unless
    given, is the value's: bool, int64, float32 or complex64."""
    if isinstance(size, numbers.Integral) or not hasattr(size, '__iter__'):
        raise TypeError('full(): size must be a sequence of ints such as (2, 3), not %r'
                        % (size,))
    dtype = _as_dtype(dtype) if dtype is not None else _dtype_of_value(fill_value)
    result = _filled(_sizes((size,), 'full()'), fill_value, dtype, 'full()')
    return _placed(result, device, names, requires_grad, 'full()')


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """torch.arange([start,] end[, step]): int64 when every bound is an int,
    else float32, unless @dtype says."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        integral = all(isinstance(v, numbers.Integral) for v in (start, end, step))
        dtype = int64 if integral else float32
    result = Lt.Tensor.new_arange(float(start), float(end), float(step), _as_dtype(dtype))
    return _placed(result, device, None, requires_grad, 'arange()')


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """torch.linspace(start, end, steps): @steps evenly spaced values."""
    result = Lt.Tensor.new_linspace(float(start), float(end), operator.index(steps),
                                    _as_dtype(_or(dtype, float32)))
    return _placed(result, device, None, requires_grad, 'linspace()')


def eye(n, m=None, *, dtype=None, device=None, names=None, requires_grad=False):
    """torch.eye(n[, m]): ones on the diagonal of an n x m matrix."""
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    result = Lt.Tensor.new_eye(n, m, _as_dtype(_or(dtype, float32)))
    return _placed(result, device, names, requires_grad, 'eye()')


def _like(input, dtype, device, requires_grad, what):
    """A new tensor of @input's sizes, names and memory order (PyTorch's
    preserve_format: a transposed input gives a transposed result), in
    @dtype and on @device unless they are None, zeroed."""
    if not isinstance(input, Lt.Tensor):
        raise TypeError('%s expects a tensor, not %r' % (what, type(input).__name__))
    result = Lt.Tensor.new_empty_like(input, _as_dtype(_or(dtype, input.get_dtype())))
    return _placed(result, device, None, requires_grad, what)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False):
    """torch.zeros_like(input): zeros of its sizes, dtype, device and names."""
    return _like(input, dtype, device, requires_grad, 'zeros_like()')


def ones_like(input, *, dtype=None, device=None, requires_grad=False):
    """torch.ones_like(input): ones of its sizes, dtype, device and names."""
    return _like(input, dtype, device, requires_grad, 'ones_like()').fill_(1)


def empty_like(input, *, dtype=None, device=None, requires_grad=False):
    """torch.empty_like(input): of its sizes, dtype, device and names, values
    unspecified."""
    return _like(input, dtype, device, requires_grad, 'empty_like()')


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False):
    """torch.full_like(input, fill_value): @fill_value in its dtype unless @dtype says."""
    return _like(input, dtype, device, requires_grad, 'full_like()').fill_(fill_value)


def rand_like(input, *, dtype=None, device=None, generator=None, requires_grad=False):
    """torch.rand_like(input): uniform numbers in [0, 1) of its sizes and dtype."""
    return _like(input, dtype, device, requires_grad, 'rand_like()').uniform_(
        0.0, 1.0, generator=generator)


def randn_like(input, *, dtype=None, device=None, generator=None, requires_grad=False):
    """torch.randn_like(input): standard normal numbers of its sizes and dtype."""
    return _like(input, dtype, device, requires_grad, 'randn_like()').normal_(
        0.0, 1.0, generator=generator)


def randint_like(input, low, high=None, *, dtype=None, device=None, generator=None,
                 requires_grad=False):
    """torch.randint_like(input, [low,] high): integers in [low, high) of its sizes."""
    if high is None:
        low, high = 0, low
    return _like(input, dtype, device, requires_grad, 'randint_like()').random_(
        low, high, generator=generator)


__all__ += ['zeros', 'ones', 'empty', 'full', 'arange', 'linspace', 'eye', 'zeros_like',
            'ones_like', 'empty_like', 'full_like', 'rand_like', 'randn_like', 'randint_like']


# Tensor.new_*(): factories whose dtype and device default to the tensor's.

def _tensor_new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    """t.new_zeros(*size): zeros of the tensor's dtype and device unless given."""
    return zeros(*size, dtype=_or(dtype, self.dtype), device=_or(device, self.device),
                 requires_grad=requires_grad)


def _tensor_new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    """t.new_ones(*size): ones of the tensor's dtype and device unless given."""
    return ones(*size, dtype=_or(dtype, self.dtype), device=_or(device, self.device),
                requires_grad=requires_grad)


def _tensor_new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    """t.new_empty(*size): uninitialised, of the tensor's dtype and device unless given."""
    return empty(*size, dtype=_or(dtype, self.dtype), device=_or(device, self.device),
                 requires_grad=requires_grad)


def _tensor_new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    """t.new_full(size, fill_value): of the tensor's dtype and device unless given."""
    return full(size, fill_value, dtype=_or(dtype, self.dtype), device=_or(device, self.device),
                requires_grad=requires_grad)


def _tensor_new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """t.new_tensor(data): a copy of @data in the tensor's dtype and device unless given."""
    return tensor(data, dtype=_or(dtype, self.dtype), device=_or(device, self.device),
                  requires_grad=requires_grad)


class _ConstructorOrMethod:
    """Lt.Tensor.new_zeros(dtype, sizes) is the C constructor, t.new_zeros(*size)
    PyTorch's method: the class gets the first, its instances the second."""

    def __init__(self, constructor, method):
        self._constructor = constructor
        self._method = method
        self.__doc__ = method.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self._constructor
        return self._method.__get__(instance, owner)


for _name, _method in {'new_zeros': _tensor_new_zeros, 'new_ones': _tensor_new_ones,
                       'new_empty': _tensor_new_empty, 'new_full': _tensor_new_full,
                       'new_tensor': _tensor_new_tensor}.items():
    _constructor = getattr(Lt.Tensor, _name, None)
    setattr(Tensor, _name,
            _ConstructorOrMethod(_constructor, _method) if _constructor is not None else _method)


# PyTorch's aliases of tensor methods (NumPy's names, mostly).

for _alias, _name in {'multiply': 'mul', 'subtract': 'sub', 'divide': 'div',
                      'true_divide': 'div', 'negative': 'neg', 'absolute': 'abs',
                      'fix': 'trunc', 'greater': 'gt', 'less': 'lt', 'greater_equal': 'ge',
                      'less_equal': 'le', 'not_equal': 'ne', 'clip': 'clamp'}.items():
    setattr(Tensor, _alias, getattr(Tensor, _name))
    if hasattr(Tensor, _name + '_'):
        setattr(Tensor, _alias + '_', getattr(Tensor, _name + '_'))


def _tensor_square(self):
    """The elements squared, in the tensor's dtype (as torch.square)."""
    return self * self


def _tensor_square_(self):
    """In place square(); returns self."""
    self *= self
    return self


Tensor.square = _tensor_square
Tensor.square_ = _tensor_square_


# Every tensor method PyTorch also has as a function of its module, with the
# same arguments and keywords after the tensor: Lt.transpose(a, 0, 1) is
# a.transpose(0, 1), Lt.sum(x, dim=1) is x.sum(dim=1). One table, checked
# by the tests against torch's own namespace.

_TENSOR_FUNCTIONS = '''
    abs absolute neg negative sign sqrt rsqrt square exp log log1p expm1 sin cos tan tanh erf
    sigmoid relu floor ceil round trunc fix logical_not bitwise_not isnan isinf isfinite
    add sub subtract mul multiply div divide true_divide floor_divide remainder pow
    maximum minimum eq ne lt le gt ge greater less greater_equal less_equal not_equal
    logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor
    clamp clip lerp matmul mm bmm mv dot outer
    sum mean prod amax amin all any logsumexp var std norm argmax argmin cumsum cumprod
    softmax log_softmax allclose equal bernoulli
    transpose t permute reshape flatten unflatten squeeze unsqueeze movedim moveaxis
    diagonal narrow select as_strided split chunk unbind flip tensor_split hsplit vsplit
    dsplit swapaxes swapdims adjoint conj view_as_real view_as_complex real imag clone
    numel detach broadcast_to is_floating_point is_complex
'''.split()


def _tensor_function(name):
    attribute = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        if not isinstance(input, Lt.Tensor):
            raise TypeError('Lt.%s() expects a tensor as its first argument, not %s'
                            % (name, type(input).__name__))
        if isinstance(attribute, property):
            if args or kwargs:
                raise TypeError('Lt.%s() takes only the tensor' % name)
            return getattr(input, name)
        return getattr(input, name)(*args, **kwargs)

    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = 'Lt.%s(input, ...) is input.%s(...).' % (name, name)
    return function


for _name in _TENSOR_FUNCTIONS:
    _export(_name, _tensor_function(_name))


def _extreme_function(name, binary):
    method = _tensor_function(name)

    def function(input, *args, **kwargs):
        # torch.max(a, b) is torch.maximum(a, b); torch.max(a, dim) reduces.
        other = args[0] if args else kwargs.get('other')
        if isinstance(other, Lt.Tensor):
            return getattr(input, binary)(other)
        return method(input, *args, **kwargs)

    function.__name__ = name
    function.__doc__ = ('Lt.%s(input) and Lt.%s(input, dim) reduce as input.%s(); '
                        'Lt.%s(input, other) is input.%s(other).'
                        % (name, name, name, name, binary))
    return function


_export('max', _extreme_function('max', 'maximum'))
_export('min', _extreme_function('min', 'minimum'))


def is_tensor(obj):
    """Whether @obj is an Lt.Tensor, as torch.is_tensor()."""
    return isinstance(obj, Lt.Tensor)


def from_numpy(array):
    """A tensor sharing @array's memory, as torch.from_numpy(): writes
    through either are seen through the other, and the array stays alive as
    long as the tensor does. @array must be a NumPy array of a dtype
    libtensor has, writable and in native byte order."""
    import numpy
    if not isinstance(array, numpy.ndarray):
        raise TypeError('from_numpy() expects a numpy.ndarray, not %s' % type(array).__name__)
    if array.dtype.str not in _DTYPES_BY_TYPESTR:
        raise TypeError('from_numpy(): NumPy\'s %s has no libtensor dtype; the supported ones '
                        'are bool, uint8, int8, int16, int32, int64, float16, float32, '
                        'float64, complex64 and complex128 in native byte order'
                        % array.dtype)
    if array.dtype == numpy.bool_:
        raise TypeError('from_numpy(): NumPy cannot share bool arrays through DLPack; '
                        'share array.view(numpy.uint8) and compare with 0, or copy with '
                        'Lt.tensor(array)')
    if not array.flags.writeable:
        raise ValueError('from_numpy(): the array is read-only, and a tensor sharing its '
                         'memory could write to it; pass array.copy(), or use Lt.tensor()')
    return from_dlpack(array)


def as_tensor(data, dtype=None, device=None):
    """@data as a tensor, sharing its memory where it can, as
    torch.as_tensor(): an Lt.Tensor already of @dtype and on @device is
    returned as it is, a NumPy array is shared (from_numpy()) unless a
    conversion is asked for, anything else is copied (tensor())."""
    if isinstance(data, Lt.Tensor):
        return data.to(dtype=dtype, device=device)
    interface = getattr(data, '__array_interface__', None)
    if isinstance(interface, dict) and type(data).__module__ == 'numpy' \
            and data.dtype.str in _DTYPES_BY_TYPESTR and data.dtype.kind != 'b' \
            and data.flags.writeable:
        return from_numpy(data).to(dtype=dtype, device=device)
    return tensor(data, dtype=dtype, device=device)


__all__ += ['is_tensor', 'from_numpy', 'as_tensor']


# The legacy constructor the seed posts use: Lt.Tensor([[1, 2], [3, 4]])
# copies data into a float32 tensor, Lt.Tensor(2, 3) (or Lt.Tensor(size))
# makes an uninitialised float32 one, Lt.Tensor() an empty one, as
# torch.Tensor(...) does. Tensors the library returns never go through it.

def _legacy_tensor_new(cls, *args, **kwargs):
    if kwargs:
        raise TypeError('Lt.Tensor() takes data or sizes only, not keywords; use '
                        'Lt.tensor(data, dtype=...) or Lt.empty(*size, dtype=...)')
    if not args:
        return empty(0)
    if len(args) == 1 and isinstance(args[0], Lt.Tensor):
        # torch.Tensor(t) is a view of t, whatever its dtype.
        return args[0].alias()
    if all(isinstance(arg, numbers.Integral) and not _is_bool(arg) for arg in args):
        return empty(*args)
    if len(args) == 1 and isinstance(args[0], Size):
        return empty(args[0])
    if len(args) == 1:
        return tensor(args[0], dtype=float32)
    raise TypeError('Lt.Tensor() takes one sequence of data or integer sizes, not %r' % (args,))


def _legacy_tensor_init(self, *args, **kwargs):
    # The object was made whole by __new__; GObject's __init__ would take
    # these arguments for properties.
    pass


Tensor.__new__ = _legacy_tensor_new
Tensor.__init__ = _legacy_tensor_init


# Joining, repeating and triangles (lt-tensor-join.c), with PyTorch's
# calling conventions.

def _tensor_list(tensors, what):
    if isinstance(tensors, Lt.Tensor) or not hasattr(tensors, '__iter__'):
        raise TypeError('%s expects a sequence of tensors, not %s'
                        % (what, type(tensors).__name__))
    tensors = list(tensors)
    for tensor in tensors:
        if not isinstance(tensor, Lt.Tensor):
            raise TypeError('%s expects a sequence of tensors, but it holds a %s'
                            % (what, type(tensor).__name__))
    return tensors


def cat(tensors, dim=0):
    """torch.cat(tensors, dim=0): the tensors one after the other along @dim."""
    return Lt.cat(_tensor_list(tensors, 'cat()'), dim)


def stack(tensors, dim=0):
    """torch.stack(tensors, dim=0): the tensors joined along a new dim @dim."""
    return Lt.stack(_tensor_list(tensors, 'stack()'), dim)


def hstack(tensors):
    """torch.hstack(tensors): joined along dim 1 (dim 0 for vectors)."""
    return Lt.hstack(_tensor_list(tensors, 'hstack()'))


def vstack(tensors):
    """torch.vstack(tensors): joined along dim 0, vectors as rows."""
    return Lt.vstack(_tensor_list(tensors, 'vstack()'))


def dstack(tensors):
    """torch.dstack(tensors): joined along dim 2."""
    return Lt.dstack(_tensor_list(tensors, 'dstack()'))


concat = cat
row_stack = vstack
__all__ += ['cat', 'concat', 'stack', 'hstack', 'vstack', 'row_stack', 'dstack']


def _tensor_repeat(self, *repeats):
    """t.repeat(*repeats): copies of the tensor along each dim."""
    if not repeats:
        raise TypeError('repeat() needs the number of copies along each dim, as ints or '
                        'one sequence')
    return Lt.Tensor.repeat(self, _ints(repeats, 'repeat()'))


def _tensor_tile(self, *dims):
    """t.tile(dims): as repeat(), with fewer dims counting from the last."""
    return Lt.Tensor.tile(self, _ints(dims, 'tile()'))


def _tensor_roll(self, shifts, dims=None):
    """t.roll(shifts, dims=None): elements moved along @dims, wrapping around;
    without @dims, as if the tensor were flat."""
    shifts = _int_or_ints(shifts, 'roll()')
    dims = [] if dims is None else _int_or_ints(dims, 'roll()')
    return Lt.Tensor.roll(self, shifts, dims)


def _tensor_tril(self, diagonal=0):
    """t.tril(diagonal=0): the lower triangle, the rest zeros."""
    return Lt.Tensor.tril(self, diagonal)


def _tensor_triu(self, diagonal=0):
    """t.triu(diagonal=0): the upper triangle, the rest zeros."""
    return Lt.Tensor.triu(self, diagonal)


Tensor.repeat = _tensor_repeat
Tensor.tile = _tensor_tile
Tensor.roll = _tensor_roll
Tensor.tril = _tensor_tril
Tensor.triu = _tensor_triu
for _name in ('tile', 'roll', 'tril', 'triu'):
    _export(_name, _tensor_function(_name))
_TENSOR_FUNCTIONS += ['tile', 'roll', 'tril', 'triu']


# Lt.save(obj, f) and Lt.load(f), as torch.save and torch.load: a tensor, a
# number, a string or None, or dicts, lists and tuples of them. The file is
# a safetensors file, readable by any safetensors reader: each storage the
# tensors view is stored once, whole, as a 1-dim tensor "storage.K" (as
# uint8 bytes for complex128, which safetensors lacks), and the header's
# metadata holds, under "libtensor.save", the JSON of the object: for each
# tensor its storage, dtype, sizes, strides, offset, names and device. So
# values, layouts and devices survive, and tensors that shared a storage
# when saved share one when loaded. Files are written whole, then renamed
# into place.

_SAVE_KEY = 'libtensor.save'
_SAVE_FORMAT = 'libtensor-save'
_SAVE_VERSION = 1
_SAVE_MAX_DEPTH = 200


class _Saver:
    def __init__(self):
        self.storages = []      # (Lt.Storage, dtype) in order of first use

    def storage_index(self, tensor):
        storage = tensor.get_storage()
        for index, (known, _) in enumerate(self.storages):
            if known.shares_memory(storage):
                return index
        self.storages.append((storage, tensor.get_dtype()))
        return len(self.storages) - 1

    def node(self, obj, depth=0):
        if depth > _SAVE_MAX_DEPTH:
            raise ValueError('Lt.save(): the object nests more than %d levels deep'
                             % _SAVE_MAX_DEPTH)
        if isinstance(obj, Lt.Tensor):
            names = obj.get_names() if obj.has_names() else None
            return {'tensor': {
                'storage': self.storage_index(obj),
                'dtype': Lt.dtype_get_name(obj.get_dtype()),
                'sizes': list(obj.get_sizes()),
                'strides': list(obj.get_strides()),
                'offset': obj.get_storage_offset(),
                'names': [name or None for name in names] if names is not None else None,
                'device': obj.get_device().to_string(),
            }}
        if obj is None or isinstance(obj, (builtins.bool, str)):
            return {'value': obj}
        if isinstance(obj, numbers.Integral):
            return {'value': builtins.int(obj)}
        if isinstance(obj, numbers.Real):
            value = builtins.float(obj)
            if math.isfinite(value):
                return {'value': value}
            return {'float': repr(value)}
        if isinstance(obj, numbers.Complex):
            return {'complex': [repr(builtins.float(obj.real)), repr(builtins.float(obj.imag))]}
        if isinstance(obj, dict):
            return {'dict': [[self.node(key, depth + 1), self.node(value, depth + 1)]
                             for key, value in obj.items()]}
        if isinstance(obj, Size):
            return {'size': list(obj)}
        if isinstance(obj, tuple):
            return {'tuple': [self.node(item, depth + 1) for item in obj]}
        if isinstance(obj, list):
            return {'list': [self.node(item, depth + 1) for item in obj]}
        raise TypeError('Lt.save() stores tensors, numbers, strings, None and dicts, lists and '
                        'tuples of them, not %s' % type(obj).__name__)

    def tensors(self):
        """The storages as whole 1-dim CPU tensors, by name."""
        result = {}
        for index, (storage, dtype) in enumerate(self.storages):
            whole = Lt.Tensor.new_with_storage(storage, [storage.get_n_elements()], [1], 0)
            whole = whole.to_cpu()
            if dtype == Lt.DType.COMPLEX128:
                whole = Lt.Tensor.new_from_bytes(Lt.DType.UINT8, whole.to_bytes(),
                                                 [whole.get_numel() * 16])
            result['storage.%d' % index] = whole
        return result


def save(obj, f):
    """Writes @obj (a tensor, or dicts, lists and tuples of tensors, numbers,
    strings and None) to @f, a path or a binary file object, as torch.save().
    A path is written whole, then renamed into place."""
    import json
    saver = _Saver()
    document = {'format': _SAVE_FORMAT, 'version': _SAVE_VERSION, 'object': saver.node(obj)}
    metadata = {_SAVE_KEY: json.dumps(document, separators=(',', ':'))}
    tensors = saver.tensors()
    if hasattr(f, 'write'):
        f.write(Lt.safetensors_to_bytes(tensors, metadata).get_data())
        return
    Lt.safetensors_save(os.fspath(f), tensors, metadata)


class _Loader:
    def __init__(self, tensors, map_location, what):
        self.tensors = tensors
        self.map_location = map_location
        self.what = what
        self.storages = {}      # index -> {device string: whole tensor}

    def fail(self, message):
        raise ValueError('%s: %s' % (self.what, message))

    def ints(self, value, name):
        if not isinstance(value, list) or not all(
                type(item) is builtins.int and _INT64_MIN <= item <= _INT64_MAX
                for item in value):
            self.fail('a tensor\'s %s must be a list of 64-bit integers' % name)
        return value

    def whole_storage(self, index, dtype, device):
        if type(index) is not builtins.int or 'storage.%d' % index not in self.tensors:
            self.fail('a tensor names storage %r, which the file lacks' % (index,))
        placed = self.storages.setdefault(index, {})
        if None not in placed:
            whole = self.tensors['storage.%d' % index]
            if dtype == Lt.DType.COMPLEX128:
                if whole.get_dtype() != Lt.DType.UINT8 or whole.get_dim() != 1 \
                        or whole.get_numel() % 16:
                    self.fail('storage %d of complex128 must be whole uint8 bytes' % index)
                whole = Lt.Tensor.new_from_bytes(dtype, whole.to_bytes(),
                                                 [whole.get_numel() // 16])
            placed[None] = whole
        whole = placed[None]
        if whole.get_dtype() != dtype or whole.get_dim() != 1:
            self.fail('storage %d is %s, but a tensor views it as %s'
                      % (index, Lt.dtype_get_name(whole.get_dtype()),
                         Lt.dtype_get_name(dtype)))
        key = device.to_string()
        if key not in placed:
            placed[key] = whole if key == 'cpu' else whole.to_device(device)
        return placed[key]

    def device(self, saved):
        location = self.map_location
        if callable(location):
            location = location(saved)
        elif isinstance(location, dict):
            location = location.get(saved, saved)
        if location is None:
            location = saved
        parsed = _as_device(location)
        if parsed is None:
            self.fail('a device must be a name such as \'cpu\' or \'opencl:0\', not %r'
                      % (location,))
        return parsed

    def tensor(self, spec):
        if not isinstance(spec, dict):
            self.fail('a tensor must be described by an object')
        try:
            dtype = _result(Lt.dtype_from_name(spec.get('dtype')))
        except (GLib.Error, TypeError):
            self.fail('unknown dtype %r' % (spec.get('dtype'),))
        sizes = self.ints(spec.get('sizes'), 'sizes')
        strides = self.ints(spec.get('strides'), 'strides')
        offset = spec.get('offset')
        if type(offset) is not builtins.int or not 0 <= offset <= _INT64_MAX:
            self.fail('a tensor\'s offset must be an integer >= 0')
        saved_device = spec.get('device')
        if not isinstance(saved_device, str):
            self.fail('a tensor\'s device must be a name')
        device = self.device(saved_device)
        whole = self.whole_storage(spec.get('storage'), dtype, device)
        result = Lt.Tensor.new_with_storage(whole.get_storage(), sizes, strides, offset)
        names = spec.get('names')
        if names is not None:
            if not isinstance(names, list) or not all(
                    name is None or isinstance(name, str) for name in names):
                self.fail('a tensor\'s names must be a list of strings and nulls')
            result = Lt.Tensor.refine_names(result, _c_names(tuple(names)))
        return result

    def node(self, node, depth=0):
        if depth > _SAVE_MAX_DEPTH:
            self.fail('the object nests more than %d levels deep' % _SAVE_MAX_DEPTH)
        if not isinstance(node, dict) or len(node) != 1:
            self.fail('each item must be an object with one key')
        (kind, value), = node.items()
        if kind == 'tensor':
            return self.tensor(value)
        if kind == 'value':
            if value is not None and not isinstance(value, (builtins.bool, builtins.int,
                                                            builtins.float, str)):
                self.fail('a value must be a number, a string or null')
            return value
        if kind == 'float' and value in ('inf', '-inf', 'nan'):
            return builtins.float(value)
        if kind == 'complex' and isinstance(value, list) and len(value) == 2 \
                and all(isinstance(part, str) for part in value):
            try:
                return builtins.complex(builtins.float(value[0]), builtins.float(value[1]))
            except ValueError:
                pass
        if kind == 'size':
            return Size(self.ints(value, 'size'))
        if kind in ('list', 'tuple') and isinstance(value, list):
            items = [self.node(item, depth + 1) for item in value]
            return items if kind == 'list' else tuple(items)
        if kind == 'dict' and isinstance(value, list):
            result = {}
            for pair in value:
                if not isinstance(pair, list) or len(pair) != 2:
                    self.fail('a dict item must be a [key, value] pair')
                key = self.node(pair[0], depth + 1)
                try:
                    result[key] = self.node(pair[1], depth + 1)
                except TypeError:
                    self.fail('a dict key must be hashable')
            return result
        self.fail('an item of kind %r is not one Lt.save() writes' % (kind,))


def load(f, map_location=None):
    """Reads what Lt.save() wrote to @f (a path or a binary file object),
    as torch.load(). Tensors go to the device they were saved from, or to
    @map_location: a device (or its name) for all, a dict from saved device
    names to devices, or a function of the saved name. A file that is not
    one Lt.save() wrote, damaged or hostile, is a ValueError or a
    GLib.Error in the lt-error-quark domain; nothing else."""
    import json
    what = 'Lt.load()'
    if hasattr(f, 'read'):
        data = f.read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError('%s: the file object must be opened in binary mode' % what)
        tensors, metadata = Lt.safetensors_load_from_bytes(GLib.Bytes.new(bytes(data)))
    else:
        tensors, metadata = Lt.safetensors_load(os.fspath(f))
    text = metadata.get(_SAVE_KEY) if metadata else None
    if text is None:
        raise ValueError('%s: this safetensors file was not written by Lt.save() (its '
                         'metadata has no %r); read it with Lt.safetensors_load()'
                         % (what, _SAVE_KEY))
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ValueError('%s: the description of the object is damaged: %s'
                         % (what, error)) from None
    if not isinstance(document, dict) or document.get('format') != _SAVE_FORMAT:
        raise ValueError('%s: the description of the object is not in the format Lt.save() '
                         'writes' % what)
    if document.get('version') != _SAVE_VERSION:
        raise ValueError('%s: the file is of version %r of the format; this libtensor reads '
                         'version %d' % (what, document.get('version'), _SAVE_VERSION))
    return _Loader(tensors, map_location, what).node(document.get('object'))


__all__ += ['save', 'load']



# Advanced indexing by function (lt-tensor-index.c).

def _tensor_nonzero(self, *, as_tuple=False):
    """t.nonzero(): the coordinates of the nonzero elements, one row each;
    with @as_tuple, one vector of coordinates per dim."""
    coordinates = Lt.Tensor.nonzero(self)
    if not as_tuple:
        return coordinates
    if self.get_dim() == 0:
        # As PyTorch: a 0-dim tensor counts as one of 1 dim.
        return (Lt.Tensor.nonzero(self.reshape(1)).reshape(-1),)
    return tuple(coordinates.select(1, d) for d in range(self.get_dim()))


def _tensor_masked_fill(self, mask, value):
    """t.masked_fill(mask, value): a copy with @value where @mask is true."""
    return Lt.Tensor.masked_fill(self, mask, _tensor_operand(value, 'masked_fill()'))


def _tensor_masked_fill_(self, mask, value):
    """In place masked_fill(); returns self."""
    Lt.Tensor.masked_fill_(self, mask, _tensor_operand(value, 'masked_fill_()'))
    return self


Tensor.nonzero = _tensor_nonzero
Tensor.masked_fill = _tensor_masked_fill
Tensor.masked_fill_ = _tensor_masked_fill_
for _name in ('index_select', 'gather', 'take', 'nonzero', 'masked_select', 'masked_fill'):
    _export(_name, _tensor_function(_name))
_TENSOR_FUNCTIONS += ['index_select', 'gather', 'take', 'nonzero', 'masked_select',
                      'masked_fill']



# Writes by index (lt-tensor-index-put.c), in place and, as PyTorch has
# them, out of place on a copy.

def _tensor_scatter_(self, dim, index, src=None, *, value=None):
    """t.scatter_(dim, index, src) or t.scatter_(dim, index, value): writes
    src[i][j] (or value) at self[index[i][j]][j] for dim 0; returns self."""
    if src is None and value is None:
        raise TypeError('scatter_() needs the values: a tensor src or a number value')
    if src is None or not isinstance(src, Lt.Tensor):
        fill = value if src is None else src
        src = _filled(list(index.get_sizes()), fill, self.get_dtype(), 'scatter_()')
        src = _placed(src, self.get_device())
    Lt.Tensor.scatter_(self, dim, index, src)
    return self


def _contiguous_copy(self):
    """A contiguous copy of the tensor, as PyTorch's out-of-place scatters
    make (one copy, even where the tensor is contiguous already)."""
    result = self.contiguous()
    return self.clone() if result.shares_storage(self) else result


def _tensor_scatter(self, dim, index, src=None, *, value=None):
    """t.scatter(dim, index, src): scatter_() on a contiguous copy."""
    return _tensor_scatter_(_contiguous_copy(self), dim, index, src, value=value)


def _tensor_index_copy_(self, dim, index, source):
    """t.index_copy_(dim, index, source): source's slices at index along dim."""
    Lt.Tensor.index_copy_(self, dim, index, source)
    return self


def _tensor_index_copy(self, dim, index, source):
    """t.index_copy(dim, index, source): index_copy_() on a copy."""
    return _tensor_index_copy_(self.clone(), dim, index, source)


def _tensor_index_fill_(self, dim, index, value):
    """t.index_fill_(dim, index, value): value at index along dim."""
    Lt.Tensor.index_fill_(self, dim, index, _tensor_operand(value, 'index_fill_()'))
    return self


def _tensor_index_fill(self, dim, index, value):
    """t.index_fill(dim, index, value): index_fill_() on a copy."""
    return _tensor_index_fill_(self.clone(), dim, index, value)


for _name, _method in {'scatter_': _tensor_scatter_, 'scatter': _tensor_scatter,
                       'index_copy_': _tensor_index_copy_, 'index_copy': _tensor_index_copy,
                       'index_fill_': _tensor_index_fill_,
                       'index_fill': _tensor_index_fill}.items():
    setattr(Tensor, _name, _method)
for _name in ('scatter', 'index_copy', 'index_fill'):
    _export(_name, _tensor_function(_name))
_TENSOR_FUNCTIONS += ['scatter', 'index_copy', 'index_fill']


# Ordering (lt-tensor-sort.c): stable, NaN above every number.

def _tensor_sort(self, dim=-1, descending=False, *, stable=False):
    """t.sort(dim=-1, descending=False): (values, indices) of each line in
    order; always stable (equal elements keep their order), as PyTorch's
    with stable=True."""
    result = Lt.Tensor.sort(self, _dim_of(self, dim), descending)
    return _ValuesIndices(result[-2], result[-1])


def _tensor_argsort(self, dim=-1, descending=False, *, stable=False):
    """t.argsort(dim=-1, descending=False): the positions that sort each line."""
    return Lt.Tensor.argsort(self, _dim_of(self, dim), descending)


def _tensor_topk(self, k, dim=-1, largest=True, sorted=True):
    """t.topk(k, dim=-1, largest=True): (values, indices) of the k largest
    (or smallest) of each line, in order; ties keep their order."""
    result = Lt.Tensor.topk(self, operator.index(k), _dim_of(self, dim), largest)
    return _ValuesIndices(result[-2], result[-1])


Tensor.sort = _tensor_sort
Tensor.argsort = _tensor_argsort
Tensor.topk = _tensor_topk
for _name in ('sort', 'argsort', 'topk'):
    _export(_name, _tensor_function(_name))
_TENSOR_FUNCTIONS += ['sort', 'argsort', 'topk']



# Writes that add up (scatter_add_, index_add_, index_put_ with
# accumulate=True): values landing on one element all add.

def _tensor_scatter_add_(self, dim, index, src):
    """t.scatter_add_(dim, index, src): scatter_() that adds; returns self."""
    Lt.Tensor.scatter_add_(self, dim, index, src)
    return self


def _tensor_scatter_add(self, dim, index, src):
    """t.scatter_add(dim, index, src): scatter_add_() on a contiguous copy."""
    return _tensor_scatter_add_(_contiguous_copy(self), dim, index, src)


def _tensor_index_add_(self, dim, index, source, *, alpha=1):
    """t.index_add_(dim, index, source, alpha=1): source * alpha added to
    the slices at index along dim; returns self."""
    if alpha != 1:
        source = (source * alpha).to(self.get_dtype())
    Lt.Tensor.index_add_(self, dim, index, source)
    return self


def _tensor_index_add(self, dim, index, source, *, alpha=1):
    """t.index_add(dim, index, source, alpha=1): index_add_() on a copy."""
    return _tensor_index_add_(self.clone(), dim, index, source, alpha=alpha)


def _tensor_index_put_(self, indices, values, accumulate=False):
    """t.index_put_(indices, values, accumulate=False): t[indices] = values
    for a tuple of index tensors; with @accumulate the values add up where
    indices repeat. Returns self."""
    items = tuple(indices) if isinstance(indices, (tuple, list)) else (indices,)
    if not items:
        raise IndexError('index_put_() needs at least one index tensor')
    _advanced_assign(self, items, values, accumulate)
    return self


def _tensor_index_put(self, indices, values, accumulate=False):
    """t.index_put(indices, values, accumulate=False): index_put_() on a copy."""
    return _tensor_index_put_(self.clone(), indices, values, accumulate)


for _name, _method in {'scatter_add_': _tensor_scatter_add_, 'scatter_add': _tensor_scatter_add,
                       'index_add_': _tensor_index_add_, 'index_add': _tensor_index_add,
                       'index_put_': _tensor_index_put_,
                       'index_put': _tensor_index_put}.items():
    setattr(Tensor, _name, _method)
for _name in ('scatter_add', 'index_add', 'index_put'):
    _export(_name, _tensor_function(_name))
_TENSOR_FUNCTIONS += ['scatter_add', 'index_add', 'index_put']
