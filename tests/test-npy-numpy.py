#!/usr/bin/env python3
# test-npy-numpy.py: .npy files exchanged with NumPy 1.24
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# numpy.save() writes, libtensor reads: every dtype both have, C and Fortran
# order, 0-dim and empty arrays, both byte orders, format versions 1.0, 2.0
# and 3.0. libtensor writes, numpy.load() reads: the same dtypes, views with
# any strides (transposed ones come out Fortran-ordered, as NumPy writes
# them), with allow_pickle=False. Each comparison is of dtype, shape and
# every element's bits (NaNs included).

import os
import sys
import tempfile

import gi

# Whatever PYTHONPATH says, test the C API, not the Python overrides: PyGObject
# loads no overrides for a namespace whose module is None in sys.modules.
# (Hiding their directory would hide PyGObject's own GLib overrides too where
# libtensor is installed into /usr, beside them.)
sys.modules['gi.overrides.Lt'] = None

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

import numpy as np  # noqa: E402

DTYPES = [
    (np.bool_, Lt.DType.BOOL),
    (np.uint8, Lt.DType.UINT8),
    (np.int8, Lt.DType.INT8),
    (np.int16, Lt.DType.INT16),
    (np.int32, Lt.DType.INT32),
    (np.int64, Lt.DType.INT64),
    (np.float16, Lt.DType.FLOAT16),
    (np.float32, Lt.DType.FLOAT32),
    (np.float64, Lt.DType.FLOAT64),
    (np.complex64, Lt.DType.COMPLEX64),
    (np.complex128, Lt.DType.COMPLEX128),
]
NUMPY_DTYPE_OF = {lt: dtype for dtype, lt in DTYPES}


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    values = rng.standard_normal(shape) * 100
    if np.issubdtype(dtype, np.complexfloating):
        values = values + 1j * rng.standard_normal(shape)
    values = np.asarray(values).astype(dtype)
    flat = values.reshape(-1)
    if flat.size > 2:
        flat[0] = np.nan
        flat[1] = np.inf
    return values


def numpy_of(tensor):
    """The Lt tensor's values as a C-ordered NumPy array."""
    dtype = NUMPY_DTYPE_OF[tensor.get_dtype()]
    data = tensor.to_bytes().get_data() or b''
    return np.frombuffer(data, dtype=dtype).reshape(list(tensor.get_sizes()))


def lt_of(array):
    lt_dtype = dict(DTYPES)[array.dtype.type]
    data = np.array(array, order='C').astype(array.dtype.newbyteorder('=')).tobytes()
    return Lt.Tensor.new_from_bytes(lt_dtype, GLib.Bytes.new(data), list(array.shape))


def assert_same(where, tensor, array):
    got = numpy_of(tensor)
    want = np.array(array, order='C').astype(array.dtype.newbyteorder('='))
    assert got.dtype == want.dtype, '%s: dtype %s, expected %s' % (where, got.dtype, want.dtype)
    assert got.shape == want.shape, '%s: shape %s, expected %s' % (where, got.shape, want.shape)
    assert got.tobytes() == want.tobytes(), '%s: values\n%s\nexpected\n%s' % (where, got, want)


def layouts(array):
    yield 'C', array
    if array.ndim >= 2:
        yield 'Fortran', np.asfortranarray(array)
        yield 'transposed', array.T
    if array.ndim >= 1:
        yield 'stepped', array[::2]
    if array.dtype.itemsize > 1:
        yield 'big-endian', array.astype(array.dtype.newbyteorder('>'))


def test_numpy_writes(folder):
    count = 0
    for dtype, _ in DTYPES:
        for shape in [(3, 4), (2, 3, 5), (7,), (), (0, 3)]:
            base = sample(dtype, shape, count)
            for name, array in layouts(base):
                path = os.path.join(folder, 'numpy-%d.npy' % count)
                np.save(path, array)
                tensor = Lt.Tensor.new_from_npy(path)
                where = '%s %s %s' % (np.dtype(dtype).name, shape, name)
                assert_same(where, tensor, array)
                if array.flags.f_contiguous and not array.flags.c_contiguous:
                    # numpy wrote Fortran order: column-major strides.
                    itemsize = array.dtype.itemsize
                    expected = [s // itemsize for s in np.asfortranarray(array).strides]
                    assert list(tensor.get_strides()) == expected, \
                        '%s: strides %s' % (where, list(tensor.get_strides()))
                count += 1
    # Format versions 2.0 and 3.0, which numpy chooses for huge headers.
    for version in [(1, 0), (2, 0), (3, 0)]:
        array = sample(np.float32, (4, 5), 99)
        path = os.path.join(folder, 'version-%d.npy' % version[0])
        with open(path, 'wb') as f:
            np.lib.format.write_array(f, array, version=version)
        assert_same('version %s' % (version,), Lt.Tensor.new_from_npy(path), array)
        count += 1
    return count


def test_libtensor_writes(folder):
    count = 0
    for dtype, _ in DTYPES:
        for shape in [(3, 4), (2, 3, 5), (7,), (), (0, 3)]:
            base = sample(dtype, shape, 1000 + count)
            tensor = lt_of(base)
            views = [('plain', tensor, base)]
            if len(shape) >= 2:
                reversed_dims = list(range(len(shape)))[::-1]
                views.append(('transposed', tensor.permute(reversed_dims), base.T))
                views.append(('sliced', tensor.index('[1:, ::-2]'), base[1:, ::-2]))
            for name, view, expected in views:
                path = os.path.join(folder, 'lt-%d.npy' % count)
                view.save_npy(path)
                loaded = np.load(path, allow_pickle=False)
                where = '%s %s %s' % (np.dtype(dtype).name, shape, name)
                assert loaded.dtype == expected.dtype, where
                assert loaded.shape == expected.shape, where
                assert loaded.tobytes() == np.array(expected, order='C').tobytes(), \
                    '%s:\n%s\nexpected\n%s' % (where, loaded, expected)
                if name == 'transposed':
                    assert loaded.flags.f_contiguous, '%s: not written in Fortran order' % where
                # And the bytes in memory are the same file.
                in_memory = view.to_npy_bytes().get_data()
                with open(path, 'rb') as f:
                    assert f.read() == in_memory, where
                count += 1
    return count


def test_refusals(folder):
    refused = 0
    path = os.path.join(folder, 'refused.npy')
    for array, code in [(np.arange(4, dtype=np.uint16), Lt.Error.DTYPE),
                        (np.array(['a', 'b']), Lt.Error.DTYPE),
                        (np.zeros(3, dtype=[('a', '<i4'), ('b', '<f8')]), Lt.Error.DTYPE)]:
        np.save(path, array)
        try:
            Lt.Tensor.new_from_npy(path)
        except GLib.Error as error:
            assert error.code == int(code), error.message
            assert path in error.message, error.message
            refused += 1
        else:
            raise AssertionError('%s was loaded' % array.dtype)
    np.save(path, np.array([1, 2], dtype=object), allow_pickle=True)
    try:
        Lt.Tensor.new_from_npy(path)
    except GLib.Error as error:
        assert 'Python objects' in error.message, error.message
        refused += 1
    else:
        raise AssertionError('an object array was loaded')
    return refused


def main():
    with tempfile.TemporaryDirectory() as folder:
        read = test_numpy_writes(folder)
        written = test_libtensor_writes(folder)
        refused = test_refusals(folder)
    print('%d files from numpy read, %d read back by numpy, %d refused' % (read, written, refused))
    return 0


if __name__ == '__main__':
    sys.exit(main())
