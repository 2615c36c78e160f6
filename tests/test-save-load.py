#!/usr/bin/env python3
# test-save-load.py: Lt.save() and Lt.load(), as torch.save() and torch.load()
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Round trips of every dtype and of the layouts views make (transposed,
# stepped, expanded, offset, named), of nested dicts, lists and tuples, to
# paths and to file objects, and across devices; tensors that shared a
# storage share one again; a failed save leaves the old file whole.
#
# Hostile files: a seeded fuzz loop (LT_FUZZ_CASES, default 1500) damages a
# saved file two ways, bytes (flipped, cut, inserted) and structure (the
# JSON description with values swapped for wrong types, huge or negative
# numbers, missing keys, storages that do not exist, views past the end of
# their storage), and requires Lt.load() to either load it or raise
# ValueError or a GLib.Error: never any other exception, never a crash. The
# safetensors layer underneath has its own libFuzzer target
# (tests/fuzz/fuzz-safetensors.c).

import io
import json
import os
import random
import sys
import tempfile
import unittest

import gi

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16',
          'float32', 'float64', 'complex64', 'complex128']


def layout(t):
    return (tuple(t.shape), tuple(t.stride()), t.storage_offset(), t.dtype)


def sample():
    points = Lt.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    return {
        'points': points,
        'points_t': points.t(),
        'second': points[1],
        'stepped': Lt.arange(10)[1::3],
        'expanded': Lt.tensor([1, 2, 3]).expand(2, 3),
        'named': Lt.zeros(2, 3, names=('N', None)),
        'nested': [(points[1:], 7, 2.5, 'text', None, True), {'deep': [Lt.tensor(3j)]}],
        'size': Lt.Size([3, 2]),
        'numbers': (float('inf'), float('-inf'), 1 + 2j, -(2 ** 63)),
    }


def saved_bytes(obj):
    buffer = io.BytesIO()
    Lt.save(obj, buffer)
    return buffer.getvalue()


def load_bytes(data, **kwargs):
    return Lt.load(io.BytesIO(data), **kwargs)


class TestRoundTrip(unittest.TestCase):

    def assertSameTensor(self, a, b):
        self.assertEqual(layout(a), layout(b))
        self.assertEqual(a.names, b.names)
        self.assertEqual(str(a.device), str(b.device))
        self.assertTrue(a.equal(b) or a.dtype.is_floating_point and a.tolist() == b.tolist())

    def assertSameObject(self, a, b):
        if isinstance(a, Lt.Tensor):
            self.assertIsInstance(b, Lt.Tensor)
            self.assertSameTensor(a, b)
        elif isinstance(a, dict):
            self.assertEqual(list(a), list(b))
            for key in a:
                self.assertSameObject(a[key], b[key])
        elif isinstance(a, (list, tuple)):
            self.assertIs(type(a), type(b))
            self.assertEqual(len(a), len(b))
            for x, y in zip(a, b):
                self.assertSameObject(x, y)
        else:
            self.assertEqual(type(a), type(b))
            self.assertEqual(a, b)

    def test_every_dtype(self):
        for dtype in DTYPES:
            t = (Lt.arange(12).view(3, 4) % 3).to(dtype)
            for view in (t, t.t(), t[1:, ::2], t[0].expand(2, 4)):
                back = load_bytes(saved_bytes(view))
                self.assertSameTensor(view, back)

    def test_nested_objects_to_a_path(self):
        obj = sample()
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, 'sample.lt')
            Lt.save(obj, path)
            self.assertSameObject(obj, Lt.load(path))
            with open(path, 'rb') as f:
                self.assertSameObject(obj, Lt.load(f))

    def test_shared_storages_stay_shared(self):
        back = load_bytes(saved_bytes(sample()))
        self.assertTrue(back['points_t'].shares_storage(back['points']))
        self.assertTrue(back['second'].shares_storage(back['points']))
        self.assertTrue(back['nested'][0][0].shares_storage(back['points']))
        self.assertFalse(back['stepped'].shares_storage(back['points']))
        back['points'][1, 0] = 9.0
        self.assertEqual(back['second'][0].item(), 9.0)
        # The whole storage is kept, as PyTorch keeps it.
        self.assertEqual(load_bytes(saved_bytes(sample()['second'])).storage().tolist(),
                         [4.0, 1.0, 5.0, 3.0, 2.0, 1.0])

    def test_the_file_is_safetensors(self):
        tensors, metadata = Lt.safetensors_load_from_bytes(
            GLib.Bytes.new(saved_bytes({'a': Lt.tensor([1.0, 2.0]), 'b': Lt.tensor([1j])})))
        self.assertEqual(sorted(tensors), ['storage.0', 'storage.1'])
        self.assertEqual(tensors['storage.0'].tolist(), [1.0, 2.0])
        document = json.loads(metadata['libtensor.save'])
        self.assertEqual(document['format'], 'libtensor-save')

    def test_a_failed_save_leaves_the_file(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, 'kept.lt')
            Lt.save(Lt.tensor([1, 2]), path)
            with self.assertRaises(TypeError):
                Lt.save({'a': Lt.tensor([3]), 'b': object()}, path)
            self.assertEqual(Lt.load(path).tolist(), [1, 2])
            with self.assertRaises(GLib.Error):
                Lt.save(Lt.tensor([1]), os.path.join(directory, 'missing', 'x.lt'))
            self.assertEqual(os.listdir(directory), ['kept.lt'])

    def test_not_a_save_file(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, 'plain.safetensors')
            Lt.safetensors_save(path, {'x': Lt.tensor([1.0])}, None)
            with self.assertRaisesRegex(ValueError, 'not written by Lt.save'):
                Lt.load(path)
        with self.assertRaises(GLib.Error):
            load_bytes(b'not a file at all')
        with self.assertRaises(TypeError):
            Lt.load(io.StringIO('text'))

    def test_devices(self):
        try:
            device = Lt.Device.new_from_string('opencl:0')
            device.is_available()
        except GLib.Error:
            self.skipTest('no OpenCL device')
        points = Lt.tensor([[4.0, 1.0], [5.0, 3.0]]).to('opencl:0')
        data = saved_bytes({'p': points, 't': points.t()})
        back = load_bytes(data)
        self.assertEqual(str(back['p'].device), 'opencl:0')
        self.assertTrue(back['t'].shares_storage(back['p']))
        self.assertEqual(back['t'].cpu().tolist(), [[4.0, 5.0], [1.0, 3.0]])
        for location in ('cpu', Lt.Device.new_from_string('cpu'), {'opencl:0': 'cpu'},
                         lambda saved: 'cpu'):
            moved = load_bytes(data, map_location=location)
            self.assertEqual(str(moved['p'].device), 'cpu')
            self.assertTrue(moved['t'].shares_storage(moved['p']))
        with self.assertRaises(ValueError):
            load_bytes(data, map_location=3.5)


def mutate_value(rng, value):
    choices = [None, True, -1, 0, 2 ** 63, -(2 ** 63) - 1, 10 ** 30, 1.5, 'x', [], {},
               [1, 2], [-1], [2 ** 62, 2 ** 62], {'value': 1}, 'float64', 'complex128',
               'opencl:9', 'nope:0', [None], ['N', 'N']]
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-1, 1, 2 ** 40, -(2 ** 40)])
    return rng.choice(choices)


def paths(node, prefix=()):
    """Every place in a JSON tree, as key/index paths."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, prefix + (index,))


def replaced(node, path, change):
    if not path:
        return change(node)
    if isinstance(node, dict):
        copy = dict(node)
    else:
        copy = list(node)
    result = replaced(node[path[0]], path[1:], change)
    if result is DELETE:
        del copy[path[0]]
    else:
        copy[path[0]] = result
    return copy


DELETE = object()


def mutate_tree(rng, document):
    """@document with one place anywhere in it (mostly inside the object)
    replaced by a wrong value, removed, or given an extra key."""
    places = [path for path in paths(document) if path[:1] == ('object',) or rng.random() < 0.1]
    path = rng.choice(places)
    r = rng.random()
    if r < 0.15 and path:
        return replaced(document, path, lambda node: DELETE)
    if r < 0.25:
        return replaced(document, path, lambda node: dict(node, extra=1)
                        if isinstance(node, dict) else mutate_value(rng, node))
    return replaced(document, path, lambda node: mutate_value(rng, node))


class TestHostileFiles(unittest.TestCase):

    def assertLoadsOrRefuses(self, data, what):
        try:
            load_bytes(data)
        except (ValueError, GLib.Error) as error:
            if isinstance(error, GLib.Error):
                self.assertIn(error.domain, ('lt-error-quark', 'g-file-error-quark'), what)
            self.assertTrue(str(error), what)
        except Exception as error:  # noqa: BLE001 (the point of the test)
            self.fail('%s: %s: %s' % (what, type(error).__name__, error))

    def test_fuzzed_files(self):
        cases = int(os.environ.get('LT_FUZZ_CASES', '1500'))
        rng = random.Random(18)
        original = saved_bytes(sample())
        tensors, metadata = Lt.safetensors_load_from_bytes(GLib.Bytes.new(original))
        document = json.loads(metadata['libtensor.save'])
        loaded = refused = 0
        for case in range(cases):
            if case % 2 == 0:
                data = bytearray(original)
                for _ in range(rng.randint(1, 4)):
                    r = rng.random()
                    position = rng.randrange(len(data))
                    if r < 0.5:
                        data[position] ^= 1 << rng.randrange(8)
                    elif r < 0.75:
                        del data[position:position + rng.randint(1, 64)]
                    else:
                        data[position:position] = bytes(rng.randrange(256)
                                                        for _ in range(rng.randint(1, 8)))
                data = bytes(data)
            else:
                mutated = document
                for _ in range(rng.randint(1, 3)):
                    mutated = mutate_tree(rng, mutated)
                text = json.dumps(mutated)
                if rng.random() < 0.05:
                    text = '[' * 100000 + text
                data = Lt.safetensors_to_bytes(tensors, {'libtensor.save': text}).get_data()
            what = 'case %d (LT_FUZZ_CASES=%d)' % (case, cases)
            try:
                load_bytes(data)
                loaded += 1
            except (ValueError, GLib.Error):
                refused += 1
            except Exception as error:  # noqa: BLE001
                self.fail('%s: %s: %s' % (what, type(error).__name__, error))
        print('%d damaged files: %d loaded, %d refused' % (cases, loaded, refused),
              file=sys.stderr)
        self.assertGreater(refused, cases // 4)

    def test_views_past_their_storage(self):
        tensors, metadata = Lt.safetensors_load_from_bytes(
            GLib.Bytes.new(saved_bytes(Lt.tensor([1.0, 2.0]))))
        document = json.loads(metadata['libtensor.save'])
        for change in [{'offset': 2}, {'sizes': [3]}, {'strides': [5]},
                       {'sizes': [2 ** 62], 'strides': [2 ** 62]}, {'storage': 1},
                       {'dtype': 'float64'}, {'dtype': 'quaternion'}, {'names': ['a', 'a']},
                       {'names': 'a'}, {'device': 5}]:
            spec = dict(document['object']['tensor'], **change)
            text = json.dumps(dict(document, object={'tensor': spec}))
            data = Lt.safetensors_to_bytes(tensors, {'libtensor.save': text}).get_data()
            with self.assertRaises((ValueError, GLib.Error), msg=repr(change)):
                load_bytes(data)

    def test_versions(self):
        tensors, metadata = Lt.safetensors_load_from_bytes(
            GLib.Bytes.new(saved_bytes(Lt.tensor([1.0]))))
        document = json.loads(metadata['libtensor.save'])
        for change, message in [({'version': 2}, 'version 2'),
                                ({'format': 'pickle'}, 'not in the format')]:
            text = json.dumps(dict(document, **change))
            data = Lt.safetensors_to_bytes(tensors, {'libtensor.save': text}).get_data()
            with self.assertRaisesRegex(ValueError, message):
                load_bytes(data)


if __name__ == '__main__':
    unittest.main(verbosity=2)
