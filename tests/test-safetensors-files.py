#!/usr/bin/env python3
# test-safetensors-files.py: safetensors files against an independent reader and writer
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# A small reader and writer written here from the format's description
# (struct and json, tensors sorted as the Rust crate sorts them) check
# libtensor both ways, with NumPy arrays (and PyTorch's bfloat16) as the
# values:
#  - files this writer makes load through Lt.safetensors_load() with the
#    same dtypes, shapes and bytes;
#  - files Lt.safetensors_save() makes parse with this reader into the same
#    arrays, metadata included, and are byte for byte what this writer
#    makes of the same arrays;
#  - a file with a dtype libtensor lacks is refused with a message naming
#    the file and the dtype.

import json
import os
import struct
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
import torch  # noqa: E402

# The crate's Dtype enum, in its order: its writer puts the last first.
CRATE_ORDER = ['BOOL', 'F4', 'F6_E2M3', 'F6_E3M2', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'F8_E8M0',
               'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'C64', 'F64', 'I64', 'U64']

# safetensors dtype -> (libtensor dtype, NumPy dtype of the same bytes)
DTYPES = {
    'BOOL': (Lt.DType.BOOL, np.dtype('bool')),
    'U8': (Lt.DType.UINT8, np.dtype('<u1')),
    'I8': (Lt.DType.INT8, np.dtype('<i1')),
    'I16': (Lt.DType.INT16, np.dtype('<i2')),
    'F16': (Lt.DType.FLOAT16, np.dtype('<f2')),
    'BF16': (Lt.DType.BFLOAT16, np.dtype('<i2')),  # NumPy has no bfloat16: the bits
    'I32': (Lt.DType.INT32, np.dtype('<i4')),
    'F32': (Lt.DType.FLOAT32, np.dtype('<f4')),
    'C64': (Lt.DType.COMPLEX64, np.dtype('<c8')),
    'F64': (Lt.DType.FLOAT64, np.dtype('<f8')),
    'I64': (Lt.DType.INT64, np.dtype('<i8')),
}
NUMPY_TO_FORMAT = {np.dtype(np_dtype): name for name, (_, np_dtype) in DTYPES.items()
                   if name != 'BF16'}


class Entry:
    """A tensor as the file holds it: a dtype name, a shape, raw bytes."""

    def __init__(self, dtype, shape, data):
        self.dtype = dtype
        self.shape = list(shape)
        self.data = bytes(data)


def entry_from_numpy(array):
    little = array.astype(array.dtype.newbyteorder('<'), copy=False)
    return Entry(NUMPY_TO_FORMAT[little.dtype], array.shape, little.tobytes(order='C'))


def bfloat16_entry(values, shape):
    bits = torch.tensor(values, dtype=torch.bfloat16).reshape(shape).view(torch.int16)
    return Entry('BF16', shape, bits.numpy().astype('<i2').tobytes())


def write_safetensors(entries, metadata=None):
    """The file's bytes, laid out as the crate lays them out."""
    names = sorted(entries, key=lambda name: (-CRATE_ORDER.index(entries[name].dtype), name))
    header = {}
    if metadata:
        header['__metadata__'] = {key: metadata[key] for key in sorted(metadata)}
    offset = 0
    for name in names:
        entry = entries[name]
        header[name] = {'dtype': entry.dtype, 'shape': entry.shape,
                        'data_offsets': [offset, offset + len(entry.data)]}
        offset += len(entry.data)
    text = json.dumps(header, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    return struct.pack('<Q', len(text)) + text + b''.join(entries[name].data for name in names)


def read_safetensors(data):
    """(entries, metadata) of a file's bytes, checking what the format requires."""
    (length,) = struct.unpack_from('<Q', data, 0)
    assert length % 8 == 0, 'the header is not padded to 8 bytes: %d' % length
    header = json.loads(data[8:8 + length].decode('utf-8'))
    buffer = data[8 + length:]
    metadata = header.pop('__metadata__', None)
    entries = {}
    position = 0
    for name, info in sorted(header.items(), key=lambda item: item[1]['data_offsets']):
        assert list(info) == ['dtype', 'shape', 'data_offsets'], info
        begin, end = info['data_offsets']
        assert begin == position, 'tensor %r begins at %d, not %d' % (name, begin, position)
        count = int(np.prod(info['shape'], dtype=np.int64))
        assert end - begin == count * DTYPES[info['dtype']][1].itemsize, info
        entries[name] = Entry(info['dtype'], info['shape'], buffer[begin:end])
        position = end
    assert position == len(buffer), 'bytes left over after the last tensor'
    return entries, metadata


def entry_array(entry):
    np_dtype = DTYPES[entry.dtype][1]
    return np.frombuffer(entry.data, dtype=np_dtype).reshape(entry.shape)


def lt_tensor_bytes(tensor):
    data = tensor.to_bytes().get_data()
    return bytes(data) if data is not None else b''


def lt_tensor_from_numpy(array):
    dtype = DTYPES[NUMPY_TO_FORMAT[array.dtype]][0]
    return Lt.Tensor.new_from_bytes(dtype, GLib.Bytes.new(array.tobytes(order='C')),
                                    list(array.shape))


def assert_tensor_is_entry(name, tensor, entry):
    lt_dtype = DTYPES[entry.dtype][0]
    assert tensor.get_dtype() == lt_dtype, '%s: dtype %s, expected %s' % (
        name, tensor.get_dtype(), lt_dtype)
    assert list(tensor.get_sizes()) == entry.shape, '%s: sizes %s, expected %s' % (
        name, list(tensor.get_sizes()), entry.shape)
    assert lt_tensor_bytes(tensor) == entry.data, '%s: the bytes differ' % name


def sample_arrays():
    rng = np.random.default_rng(20240611)
    return {
        'weight': rng.standard_normal((3, 4)).astype(np.float32),
        'layers.0.bias': rng.standard_normal(5).astype(np.float32),
        'steps': np.array([[-2**63, -1, 0], [1, 2**62, 2**63 - 1]], dtype=np.int64),
        'pixels': rng.integers(0, 256, (2, 3, 4), dtype=np.uint8),
        'mask': rng.integers(0, 2, (7,)).astype(bool),
        'half': np.array([0.5, -65504.0, 6e-8, np.inf, -0.0], dtype=np.float16),
        'spectrum': (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64),
        'small': np.array([-128, 127, 3], dtype=np.int8),
        'shorts': np.array([[-32768], [32767]], dtype=np.int16),
        'ints': np.array([-2**31, 2**31 - 1], dtype=np.int32),
        'doubles': rng.standard_normal((2, 2)),
        'scalar': np.array(2.5, dtype=np.float32),
        'empty': np.zeros((0, 3), dtype=np.float64),
        'ünïcode name': np.array([1, 2], dtype=np.int16),
    }


def test_load_files_written_here(directory):
    arrays = sample_arrays()
    entries = {name: entry_from_numpy(array) for name, array in arrays.items()}
    entries['bf16'] = bfloat16_entry([1.0, -2.5, 3e38, 1e-30, 0.1, 7.0], (2, 3))
    path = os.path.join(directory, 'written-here.safetensors')
    with open(path, 'wb') as file:
        file.write(write_safetensors(entries, {'format': 'np', 'epoch': '3'}))

    tensors, metadata = Lt.safetensors_load(path)
    assert metadata == {'format': 'np', 'epoch': '3'}, metadata
    assert sorted(tensors) == sorted(entries), sorted(tensors)
    for name, entry in entries.items():
        assert_tensor_is_entry(name, tensors[name], entry)
        # Each tensor is the caller's, once: the table gave its reference up.
        assert tensors[name].__grefcount__ == 1, (name, tensors[name].__grefcount__)

    # The values, read as libtensor reads them, are NumPy's and PyTorch's.
    assert np.array_equal(np.array(tensors['weight'].to_doubles()),
                          arrays['weight'].astype(np.float64).ravel())
    expected = torch.tensor([1.0, -2.5, 3e38, 1e-30, 0.1, 7.0], dtype=torch.bfloat16)
    assert list(tensors['bf16'].to_doubles()) == expected.double().tolist(), \
        list(tensors['bf16'].to_doubles())

    # The same from bytes; a file without metadata gives an empty table.
    del entries['bf16']
    data = write_safetensors(entries)
    tensors, metadata = Lt.safetensors_load_from_bytes(GLib.Bytes.new(data))
    assert metadata == {}, metadata
    for name, entry in entries.items():
        assert_tensor_is_entry(name, tensors[name], entry)


def test_read_files_written_by_libtensor(directory):
    arrays = sample_arrays()
    tensors = {name: lt_tensor_from_numpy(array) for name, array in arrays.items()}

    # Views: transposed, sliced with a step, offset into their storage.
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    lt_base = lt_tensor_from_numpy(base)
    tensors['transposed'] = lt_base.transpose(0, 1)
    arrays['transposed'] = base.T
    tensors['sliced'] = lt_base.index('[1:, ::2]')
    arrays['sliced'] = base[1:, ::2]
    tensors['row'] = lt_base.index('[2]')
    arrays['row'] = base[2]
    bf16_bits = torch.tensor([[0.5, -1.0], [3.0, 1e-3]], dtype=torch.bfloat16).view(torch.int16)
    tensors['bf16'] = Lt.Tensor.new_from_bytes(
        Lt.DType.BFLOAT16, GLib.Bytes.new(bf16_bits.numpy().astype('<i2').tobytes()), [2, 2])
    metadata = {'format': 'pt', 'note': 'ünïcode, "quotes"\nand a newline'}

    path = os.path.join(directory, 'written-by-libtensor.safetensors')
    assert Lt.safetensors_save(path, tensors, metadata)
    with open(path, 'rb') as file:
        data = file.read()

    entries, read_metadata = read_safetensors(data)
    assert read_metadata == metadata, read_metadata
    assert sorted(entries) == sorted(tensors), sorted(entries)
    for name, array in arrays.items():
        got = entry_array(entries[name])
        assert entries[name].dtype == NUMPY_TO_FORMAT[array.dtype], (name, entries[name].dtype)
        assert got.shape == array.shape, (name, got.shape, array.shape)
        assert got.tobytes() == array.tobytes(order='C'), name
    assert entries['bf16'].dtype == 'BF16'
    assert entries['bf16'].data == bf16_bits.numpy().astype('<i2').tobytes()

    # Byte for byte what the writer here makes, which sorts as the crate does.
    expected_entries = {name: entry_from_numpy(array) for name, array in arrays.items()}
    expected_entries['bf16'] = Entry('BF16', [2, 2], bf16_bits.numpy().astype('<i2').tobytes())
    assert data == write_safetensors(expected_entries, metadata)
    assert bytes(Lt.safetensors_to_bytes(tensors, metadata).get_data()) == data


def test_refused_dtype_names_the_file(directory):
    path = os.path.join(directory, 'unsigned.safetensors')
    entries = {'u': Entry('U16', [2], struct.pack('<HH', 1, 65535))}
    with open(path, 'wb') as file:
        file.write(write_safetensors(entries))
    try:
        Lt.safetensors_load(path)
    except GLib.Error as error:
        assert error.matches(Lt.error_quark(), Lt.Error.DTYPE), error
        assert path in error.message and 'U16' in error.message, error.message
    else:
        raise AssertionError('a U16 tensor was loaded')


def main():
    with tempfile.TemporaryDirectory(prefix='lt-safetensors-') as directory:
        for test in (test_load_files_written_here, test_read_files_written_by_libtensor,
                     test_refused_dtype_names_the_file):
            test(directory)
            print('ok', test.__name__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
