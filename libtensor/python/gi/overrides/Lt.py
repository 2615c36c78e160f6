# Lt.py: PyGObject overrides that make libtensor read like PyTorch
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The introspected API stays as it is (every GI method can still be called
# with its C arguments); this adds the Python protocols (indexing, len,
# iteration, numbers, repr, NumPy's array interface) and PyTorch's calling
# conventions (varargs shapes, optional dims). Errors of the library arrive
# as GLib.Error in the lt-error-quark domain, untranslated; mistakes against
# the Python protocols themselves raise TypeError, IndexError or ValueError.

import math
import numbers
import operator
import struct
import sys

from ..overrides import override
from ..module import get_introspection_module

Lt = get_introspection_module('Lt')

__all__ = []


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


def tensor(data, dtype=None):
    """A new tensor holding a copy of @data, as torch.tensor().

    @data is a number or nested lists/tuples of numbers (bool, int, float,
    complex), a NumPy array or an Lt.Tensor. Without @dtype the dtype is the
    one PyTorch infers: bool, int64, float32 or complex64 (a NumPy array
    keeps its own). @dtype is an Lt.DType or a name such as 'float64'.
    Values are converted exactly: int64 beyond 2**53 round-trips.
    """
    if dtype is not None:
        dtype = _as_dtype(dtype)

    if isinstance(data, Tensor):
        result = data.to(dtype) if dtype is not None else data
        return result.clone()

    interface = getattr(data, '__array_interface__', None)
    if isinstance(interface, dict) and hasattr(data, 'tolist'):
        if dtype is None:
            dtype = _DTYPES_BY_TYPESTR.get(interface.get('typestr'))
        data = data.tolist()

    text = _literal(data)
    if dtype is None:
        return Lt.Tensor.new_from_literal(text)
    return Lt.Tensor.new_from_literal_with_dtype(text, dtype)


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
        return ':'.join(parts)
    if _is_bool(item):
        raise TypeError('tensor indices must be integers, slices, None or ...; '
                        'indexing with a bool (a mask) is not supported')
    if isinstance(item, Tensor):
        raise TypeError('tensor indices must be integers, slices, None or ...; '
                        'indexing with a tensor (advanced indexing) is not supported')
    try:
        return str(operator.index(item))
    except TypeError:
        raise TypeError('tensor indices must be integers, slices, None or ..., not %s'
                        % type(item).__name__) from None


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
        """The sizes, as a tuple (torch.Size in PyTorch)."""
        return tuple(self.get_sizes())

    @property
    def dtype(self):
        """The element type, an Lt.DType."""
        return self.get_dtype()

    @property
    def ndim(self):
        return self.get_dim()

    def size(self, dim=None):
        sizes = self.get_sizes()
        if dim is None:
            return tuple(sizes)
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
        return self.index(_index_expression(key))

    def __setitem__(self, key, value):
        target = self[key]
        if isinstance(value, Lt.Tensor):
            target.copy_from(value)
        elif isinstance(value, numbers.Real) and not (
                isinstance(value, numbers.Integral) and abs(int(value)) > 2 ** 53):
            target.fill(float(value))
        else:
            # Complex numbers, integers a double cannot hold and nested lists
            # go through an exact conversion to the target's dtype.
            target.copy_from(tensor(value, dtype=target.get_dtype()))

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
        numel = self.get_numel()
        if numel != 1:
            raise ValueError('a tensor with %d elements cannot be converted to a Python scalar'
                             % numel)
        indices = [0] * self.get_dim()
        dtype = self.get_dtype()
        if dtype == Lt.DType.BOOL:
            return bool(_result(self.get_int64(indices)))
        if Lt.dtype_is_complex(dtype):
            _, real, imag = self.get_complex(indices)
            return complex(real, imag)
        if Lt.dtype_is_floating_point(dtype):
            return _result(self.get_double(indices))
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
        sizes = list(self.get_sizes())
        numel = self.get_numel()
        dtype = self.get_dtype()
        if numel == 0:
            values = []
        else:
            data = self.to_bytes().get_data()
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

    def permute(self, *dims):
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

    # Copies and writes

    def to(self, dtype, copy=False):
        """This tensor converted to @dtype (itself when it already has it, unless @copy)."""
        dtype = _as_dtype(dtype)
        if copy and dtype == self.get_dtype():
            return self.clone()
        return self.to_dtype(dtype)

    def fill_(self, value):
        self[...] = value
        return self

    def zero_(self):
        self.zero()
        return self

    def copy_(self, src):
        self[...] = src
        return self

    # NumPy

    @property
    def __array_interface__(self):
        """NumPy's array interface (version 3): the tensor's memory, without copying.

        NumPy keeps a reference to the tensor whose interface it used
        (numpy.asarray(t).base is t), and the tensor keeps its storage alive.
        """
        storage = self.get_storage()
        if storage.get_device_type() != Lt.DeviceType.CPU:
            raise TypeError('a tensor on device %s cannot be shared with NumPy; copy it to '
                            'the CPU first' % storage.get_device_type().value_nick)
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


Tensor = override(Tensor)
__all__.append('Tensor')
