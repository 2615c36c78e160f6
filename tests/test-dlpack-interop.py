#!/usr/bin/env python3
# test-dlpack-interop.py: tensors shared with NumPy 1.24 and PyTorch 1.13
# through DLPack, both ways, without copies
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Each exchange checks the values, the strides, and that the memory is
# shared: a write on one side shows on the other. Views go both ways
# (transposed, stepped, flipped where the consumer takes negative strides,
# 0-dim, empty), and the source may be dropped first: the consumer keeps
# the memory alive.

import gc
import sys
import unittest

import gi

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402


def lt_arange(rows, cols, dtype='float32'):
    return Lt.tensor([[r * cols + c for c in range(cols)] for r in range(rows)], dtype=dtype)


class ExportToNumPy(unittest.TestCase):
    def test_views(self):
        base = lt_arange(4, 6)
        views = {'base': base, 'transposed': base.t(), 'stepped': base[1:, ::2],
                 'flipped': base[::-1, 1], 'scalar': base[2, 3], 'empty': base[4:]}
        for name, view in views.items():
            with self.subTest(view=name):
                array = np.from_dlpack(view)
                self.assertEqual(array.shape, tuple(view.shape))
                self.assertEqual(array.dtype, np.float32)
                self.assertEqual(array.tolist(), view.tolist())
                element_size = array.itemsize
                self.assertEqual([s // element_size for s in array.strides], list(view.stride()))

    def test_shares_memory(self):
        base = lt_arange(3, 4)
        array = np.from_dlpack(base.t())
        base[1, 2] = -7
        self.assertEqual(array[2, 1], -7)

    def test_outlives_the_tensor(self):
        array = np.from_dlpack(lt_arange(3, 4, 'int64')[1])
        gc.collect()
        self.assertEqual(array.tolist(), [4, 5, 6, 7])

    def test_dtypes(self):
        for dtype, numpy_dtype in [('uint8', np.uint8), ('int16', np.int16),
                                   ('int64', np.int64), ('float16', np.float16),
                                   ('float64', np.float64), ('complex64', np.complex64)]:
            with self.subTest(dtype=dtype):
                array = np.from_dlpack(lt_arange(2, 3, dtype))
                self.assertEqual(array.dtype, numpy_dtype)
                self.assertEqual(array.tolist(), [[0, 1, 2], [3, 4, 5]])

    def test_bool_goes_out_as_dlpack_bool(self):
        # DLPack 0.8's kDLBool, which NumPy 1.24 does not read yet.
        with self.assertRaises(RuntimeError):
            np.from_dlpack(Lt.tensor([True, False]))

    def test_device(self):
        self.assertEqual(lt_arange(1, 1).__dlpack_device__(), (1, 0))


class ExportToTorch(unittest.TestCase):
    def test_views(self):
        base = lt_arange(4, 6, 'float64')
        views = {'base': base, 'transposed': base.t(), 'stepped': base[1:, ::2],
                 'scalar': base[2, 3], 'empty': base[4:]}
        for name, view in views.items():
            with self.subTest(view=name):
                t = torch.from_dlpack(view)
                self.assertEqual(tuple(t.shape), tuple(view.shape))
                self.assertEqual(t.stride(), tuple(view.stride()))
                self.assertEqual(t.dtype, torch.float64)
                self.assertEqual(t.tolist(), view.tolist())

    def test_shares_memory_both_ways(self):
        base = lt_arange(3, 4)
        t = torch.from_dlpack(base[:, 1:])
        t[0, 0] = 100
        self.assertEqual(base[0, 1].item(), 100)
        base[2, 3] = -1
        self.assertEqual(t[2, 2].item(), -1)

    def test_dtypes(self):
        for dtype, torch_dtype in [('bfloat16', torch.bfloat16), ('int8', torch.int8),
                                   ('int32', torch.int32), ('complex128', torch.complex128)]:
            with self.subTest(dtype=dtype):
                t = torch.from_dlpack(lt_arange(2, 2, dtype))
                self.assertEqual(t.dtype, torch_dtype)
                self.assertEqual(t.tolist(), [[0, 1], [2, 3]])


class ImportFromNumPy(unittest.TestCase):
    def test_views(self):
        base = np.arange(24, dtype=np.float32).reshape(4, 6)
        views = {'base': base, 'transposed': base.T, 'stepped': base[1:, ::2],
                 'flipped': base[::-1, ::-2], 'scalar': base[2, 3, ...], 'empty': base[4:]}
        for name, view in views.items():
            with self.subTest(view=name):
                tensor = Lt.from_dlpack(view)
                self.assertEqual(tuple(tensor.shape), view.shape)
                self.assertEqual(tensor.dtype, Lt.DType.FLOAT32)
                self.assertEqual(list(tensor.stride()), [s // 4 for s in np.asarray(view).strides])
                self.assertEqual(tensor.tolist(), np.asarray(view).tolist())

    def test_shares_memory_and_keeps_it(self):
        array = np.zeros((2, 3), dtype=np.int32)
        tensor = Lt.from_dlpack(array[:, 1:])
        tensor[1, 1] = 9
        self.assertEqual(array[1, 2], 9)
        array[0, 1] = 5
        self.assertEqual(tensor[0, 0].item(), 5)
        del array
        gc.collect()
        self.assertEqual(tensor.tolist(), [[5, 0], [0, 9]])

    def test_not_dlpack(self):
        # NumPy's scalars are not arrays, and have no __dlpack__.
        with self.assertRaises(TypeError):
            Lt.from_dlpack(np.float32(2))

    def test_capsule_is_taken_once(self):
        capsule = np.arange(3).__dlpack__()
        tensor = Lt.from_dlpack(capsule)
        self.assertEqual(tensor.tolist(), [0, 1, 2])
        with self.assertRaises(ValueError):
            Lt.from_dlpack(capsule)

    def test_unsigned_wider_than_a_byte_is_refused(self):
        with self.assertRaises(GLib.Error) as caught:
            Lt.from_dlpack(np.arange(3, dtype=np.uint32))
        self.assertIn('only uint8', caught.exception.message)


class ImportFromTorch(unittest.TestCase):
    def test_views(self):
        base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
        views = {'base': base, 'transposed': base.t(), 'stepped': base[1:, ::2],
                 'expanded': base[0].expand(3, 6), 'scalar': base[2, 3], 'empty': base[4:]}
        for name, view in views.items():
            with self.subTest(view=name):
                tensor = Lt.from_dlpack(view)
                self.assertEqual(tuple(tensor.shape), tuple(view.shape))
                if view.numel() > 0:  # PyTorch exports empty tensors with strides of 1
                    self.assertEqual(tuple(tensor.stride()), view.stride())
                self.assertEqual(tensor.tolist(), view.tolist())

    def test_shares_memory_both_ways(self):
        t = torch.zeros(3, 4, dtype=torch.bfloat16)
        tensor = Lt.from_dlpack(t.t())
        self.assertEqual(tensor.dtype, Lt.DType.BFLOAT16)
        tensor[3, 2] = 1.5
        self.assertEqual(t[2, 3].item(), 1.5)
        t[0, 1] = -2
        self.assertEqual(tensor[1, 0].item(), -2)
        del t
        gc.collect()
        self.assertEqual(tensor[3, 2].item(), 1.5)

    def test_refused_capsule_stays_untaken(self):
        # complex32 has no libtensor dtype: after the refusal the capsule
        # is still PyTorch's to take (and to free).
        import warnings
        from torch.utils.dlpack import from_dlpack, to_dlpack
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', UserWarning)
            capsule = to_dlpack(torch.zeros(2, dtype=torch.complex32))
            with self.assertRaises(GLib.Error):
                Lt.from_dlpack(capsule)
            self.assertEqual(from_dlpack(capsule).shape, (2,))

    def test_round_trip(self):
        # libtensor -> PyTorch -> libtensor: the same memory all along.
        base = lt_arange(3, 3, 'complex64')
        back = Lt.from_dlpack(torch.from_dlpack(base.t()))
        base[0, 2] = 1j
        self.assertEqual(back[2, 0].item(), 1j)


class OnOpenCL(unittest.TestCase):
    def test_device(self):
        device = Lt.Device.new_from_string('opencl:0')
        try:
            device.is_available()
        except GLib.Error as error:
            self.skipTest(error.message)
        tensor = lt_arange(2, 2).to('opencl:0')
        self.assertEqual(tensor.__dlpack_device__(), (4, 0))
        # NumPy reads host memory only.
        with self.assertRaises(RuntimeError):
            np.from_dlpack(tensor)


if __name__ == '__main__':
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
