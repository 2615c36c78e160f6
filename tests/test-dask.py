#!/usr/bin/env python3
# test-dask.py: Lt tensors in Dask, through NumPy's array protocols
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dask.array.from_array(t, chunks=...) takes an Lt tensor as it is: Dask
# reads its shape and dtype (numpy.dtype(Lt.float32) works through the
# dtype's NumPy protocol), slices it into chunks that are views of the
# tensor, and runs NumPy's functions on them (NEP 18, Tensor's
# __array_function__). A chunked sum and mean, over everything and along
# each dim, must equal libtensor's own, on contiguous and strided tensors.

import unittest

import gi

gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import numpy as np  # noqa: E402


def tensors():
    base = Lt.arange(6 * 7 * 5, dtype=Lt.float64).view(6, 7, 5) / 7.0
    return {
        'contiguous': base,
        'transposed': base.transpose(0, 2),
        'stepped': base[::2, 1:, ::-1],
        'expanded': Lt.tensor([1.0, 2.0, 3.0]).expand(4, 3),
        'float32': base.float(),
        'int64': Lt.arange(30).view(5, 6),
    }


class TestDask(unittest.TestCase):

    def assertClose(self, dask_value, lt_value, what):
        expected = np.asarray(lt_value)
        np.testing.assert_allclose(np.asarray(dask_value), expected, rtol=1e-6, err_msg=what)

    def test_chunked_sum_and_mean(self):
        for scheduler in ('threads', 'synchronous'):
            with dask.config.set(scheduler=scheduler):
                for name, t in tensors().items():
                    x = da.from_array(t, chunks=2)
                    self.assertEqual(x.shape, tuple(t.shape))
                    self.assertEqual(np.dtype(x.dtype), np.asarray(t).dtype)
                    where = '%s (%s)' % (name, scheduler)
                    self.assertClose(x.sum().compute(), t.sum(), where)
                    if t.is_floating_point():
                        self.assertClose(x.mean().compute(), t.mean(), where)
                    for dim in range(t.dim()):
                        self.assertClose(x.sum(axis=dim).compute(), t.sum(dim),
                                         '%s sum(%d)' % (where, dim))
                        if t.is_floating_point():
                            self.assertClose(x.mean(axis=dim).compute(), t.mean(dim),
                                             '%s mean(%d)' % (where, dim))

    def test_chunks_are_views(self):
        t = Lt.zeros(4, 4, dtype=Lt.float64)
        x = da.from_array(t, chunks=2)
        t[3, 3] = 5.0
        # The tensor is read when the graph runs, not copied when it is made.
        self.assertEqual(x.sum().compute(), 5.0)

    def test_numpy_functions(self):
        t = Lt.arange(6, dtype=Lt.float32).view(2, 3)
        self.assertEqual(np.sum(t), 15.0)
        self.assertEqual(np.concatenate([t, t]).shape, (4, 3))
        np.testing.assert_array_equal(np.mean(t, axis=0), [1.5, 2.5, 3.5])
        self.assertIsInstance(np.transpose(t), np.ndarray)
        self.assertEqual(np.dtype(Lt.float32), np.float32)
        self.assertEqual(np.dtype(Lt.cdouble), np.complex128)
        with self.assertRaises(TypeError):
            np.dtype(Lt.bfloat16)


if __name__ == '__main__':
    unittest.main(verbosity=2)
