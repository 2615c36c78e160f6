#!/usr/bin/env python3
# test-python-api.py: the introspected API as every language binding sees it
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# These tests call the GI methods with their C arguments, so they pin down the
# contract the typelib offers to Python, JavaScript and the rest. They run
# twice: first without the Python overrides (gi.overrides.Lt is hidden, so
# what is tested is the bare typelib), then, in a child process, with them,
# since the overrides must keep accepting the C calling conventions. The
# expected values are written out from the seed examples and from PyTorch.

import os
import re
import shutil
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

import gi

WITH_OVERRIDES = os.environ.get('LT_TEST_WITH_OVERRIDES') == '1'

if not WITH_OVERRIDES:
    # PyGObject loads no overrides for a namespace whose module is None in
    # sys.modules. (Hiding their directory from gi.overrides' path would hide
    # PyGObject's own GLib overrides too where libtensor is installed into
    # /usr, beside them.)
    sys.modules['gi.overrides.Lt'] = None

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

F32 = Lt.DType.FLOAT32


def new(values, shape, dtype=F32):
    return Lt.Tensor.new_from_data(dtype, values, shape)


def points():
    return new([4.0, 1.0, 5.0, 3.0, 2.0, 1.0], [3, 2])


def arange(n, shape=None):
    return new([float(i) for i in range(n)], shape if shape is not None else [n])


def values(tensor):
    return list(tensor.to_doubles() or [])


def out(result):
    # gboolean functions with out arguments return (True, out...).
    return result[-1]


class LtTestCase(unittest.TestCase):

    def assertLayout(self, tensor, sizes, strides, offset):
        self.assertEqual((list(tensor.get_sizes()), list(tensor.get_strides()),
                          tensor.get_storage_offset()),
                         (sizes, strides, offset))

    def assertLtError(self, code, func, *args):
        with self.assertRaises(GLib.Error) as context:
            func(*args)
        error = context.exception
        self.assertEqual(error.domain, 'lt-error-quark', error.message)
        self.assertEqual(error.code, int(code),
                         'expected %s, got %s: %s' % (code.value_nick,
                                                      Lt.Error(error.code).value_nick,
                                                      error.message))
        self.assertTrue(error.matches(Lt.error_quark(), code))
        self.assertTrue(error.message)
        return error


class TestBareApi(LtTestCase):

    def test_overrides_loaded_or_not(self):
        t = points()
        if WITH_OVERRIDES:
            self.assertIsNotNone(sys.modules.get('gi.overrides.Lt'))
            self.assertEqual(type(t).__module__, 'gi.overrides.Lt')
        else:
            self.assertIsNone(sys.modules.get('gi.overrides.Lt'))
            self.assertEqual(type(t).__module__, 'gi.repository.Lt')
            self.assertFalse(hasattr(t, '__getitem__'))


class TestErrorDomain(LtTestCase):

    def test_quark(self):
        self.assertEqual(GLib.quark_to_string(Lt.error_quark()), 'lt-error-quark')

    def test_codes(self):
        self.assertEqual([int(Lt.Error.INVALID_ARGUMENT), int(Lt.Error.INDEX_OUT_OF_RANGE),
                          int(Lt.Error.SHAPE_MISMATCH), int(Lt.Error.NOT_VIEWABLE),
                          int(Lt.Error.OUT_OF_BOUNDS), int(Lt.Error.OVERFLOW),
                          int(Lt.Error.PARSE), int(Lt.Error.DTYPE),
                          int(Lt.Error.INTERNAL_OVERLAP), int(Lt.Error.OUT_OF_MEMORY),
                          int(Lt.Error.NAMES), int(Lt.Error.DEVICE)],
                         list(range(12)))

    def test_unknown_dtype_name(self):
        self.assertLtError(Lt.Error.DTYPE, Lt.dtype_from_name, 'float33')

    def test_dtype_names(self):
        self.assertEqual(out(Lt.dtype_from_name('float64')), Lt.DType.FLOAT64)
        self.assertEqual(out(Lt.dtype_from_name('torch.int64')), Lt.DType.INT64)
        self.assertEqual(out(Lt.dtype_from_name('double')), Lt.DType.FLOAT64)
        self.assertEqual(Lt.dtype_get_name(Lt.DType.COMPLEX64), 'complex64')
        self.assertEqual(Lt.dtype_get_element_size(Lt.DType.COMPLEX128), 16)
        self.assertEqual(Lt.dtype_get_element_size(Lt.DType.BFLOAT16), 2)


class TestCreation(LtTestCase):

    def test_new_from_data(self):
        t = points()
        self.assertEqual(t.get_dtype(), F32)
        self.assertEqual(t.get_dim(), 2)
        self.assertEqual(t.get_numel(), 6)
        self.assertLayout(t, [3, 2], [2, 1], 0)
        self.assertTrue(t.is_contiguous())
        self.assertEqual(values(t), [4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
        self.assertEqual(list(t.get_storage_indices()), [0, 1, 2, 3, 4, 5])
        self.assertEqual(t.get_storage().get_n_elements(), 6)
        self.assertNotEqual(t.get_storage().get_data_address(), 0)

    def test_new_from_data_errors(self):
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, new, [1.0, 2.0, 3.0], [2, 2])
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, new, [], [-1])

    def test_new_from_data_converts(self):
        t = new([1.7, -1.7, 300.0], [3], Lt.DType.INT64)
        # float -> int truncates toward zero, as torch.tensor([1.7, -1.7]).long()
        self.assertEqual([out(t.get_int64([i])) for i in range(3)], [1, -1, 300])

    def test_new_from_literal(self):
        t = Lt.Tensor.new_from_literal('[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]')
        self.assertEqual(t.get_dtype(), F32)
        self.assertLayout(t, [3, 2], [2, 1], 0)
        self.assertEqual(values(t), [4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
        # the dtypes torch.tensor() infers
        self.assertEqual(Lt.Tensor.new_from_literal('[1, 2]').get_dtype(), Lt.DType.INT64)
        self.assertEqual(Lt.Tensor.new_from_literal('[True]').get_dtype(), Lt.DType.BOOL)
        self.assertEqual(Lt.Tensor.new_from_literal('[1, 2.5]').get_dtype(), F32)
        self.assertEqual(Lt.Tensor.new_from_literal('[1, 2j]').get_dtype(), Lt.DType.COMPLEX64)
        self.assertEqual(Lt.Tensor.new_from_literal('3').get_dim(), 0)

    def test_new_from_literal_int64_exact(self):
        t = Lt.Tensor.new_from_literal('[9007199254740993, -9223372036854775808]')
        self.assertEqual(out(t.get_int64([0])), 2 ** 53 + 1)
        self.assertEqual(out(t.get_int64([1])), -2 ** 63)

    def test_new_from_literal_errors(self):
        self.assertLtError(Lt.Error.PARSE, Lt.Tensor.new_from_literal, '[1, 2')
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, Lt.Tensor.new_from_literal, '[[1], [2, 3]]')

    def test_new_ones(self):
        t = Lt.Tensor.new_ones(F32, [3, 4, 5])
        self.assertLayout(t, [3, 4, 5], [20, 5, 1], 0)
        self.assertEqual(values(t), [1.0] * 60)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, Lt.Tensor.new_empty, F32, [2, -1])


class TestSelect(LtTestCase):

    def test_points_row(self):
        p = points()
        row = p.select(0, 1)
        self.assertLayout(row, [2], [1], 2)
        self.assertEqual(values(row), [5.0, 3.0])
        self.assertTrue(row.shares_storage(p))
        self.assertEqual(list(row.get_storage_indices()), [2, 3])

    def test_column_negative_index(self):
        col = points().select(1, -1)
        self.assertLayout(col, [3], [2], 1)
        self.assertEqual(values(col), [1.0, 3.0, 1.0])

    def test_write_through_view(self):
        p = points()
        row = p.select(0, 1)
        row.fill(9.0)
        self.assertEqual(values(p), [4.0, 1.0, 9.0, 9.0, 2.0, 1.0])
        row.set_double([0], -1.0)
        self.assertEqual(out(p.get_double([1, 0])), -1.0)

    def test_errors(self):
        p = points()
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.select, 0, 3)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.select, 0, -4)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.select, 2, 0)


class TestSlice(LtTestCase):

    def test_slice(self):
        p = points()
        self.assertLayout(p.slice(0, 1, 3, 1), [2, 2], [2, 1], 2)
        s = p.slice(0, 0, 3, 2)
        self.assertLayout(s, [2, 2], [4, 1], 0)
        self.assertEqual(values(s), [4.0, 1.0, 2.0, 1.0])

    def test_bounds_are_clamped(self):
        # torch: points[-10:10] is the whole tensor
        self.assertLayout(points().slice(0, -10, 10, 1), [3, 2], [2, 1], 0)
        self.assertLayout(points().slice(0, 2, 1, 1), [0, 2], [2, 1], 4)

    def test_negative_step(self):
        # NumPy's points[::-1] (PyTorch refuses negative steps)
        s = points().slice(0, 2, -4, -1)
        self.assertLayout(s, [3, 2], [-2, 1], 4)
        self.assertEqual(values(s), [2.0, 1.0, 5.0, 3.0, 4.0, 1.0])

    def test_zero_step(self):
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, points().slice, 0, 0, 3, 0)

    def test_narrow(self):
        n = points().narrow(1, 1, 1)
        self.assertLayout(n, [3, 1], [2, 1], 1)
        self.assertEqual(values(n), [1.0, 3.0, 1.0])
        self.assertLayout(points().narrow(0, -2, 2), [2, 2], [2, 1], 2)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, points().narrow, 0, 2, 2)


class TestIndex(LtTestCase):

    def test_expressions(self):
        p = points()
        t = p.index('[1:, 0]')
        self.assertLayout(t, [2], [2], 2)
        self.assertEqual(values(t), [5.0, 2.0])
        self.assertLayout(p.index('[None]'), [1, 3, 2], [6, 2, 1], 0)
        self.assertLayout(p.index('[..., :1]'), [3, 1], [2, 1], 0)
        self.assertLayout(p.index('1'), [2], [1], 2)
        self.assertLayout(p.index('[]'), [3, 2], [2, 1], 0)
        r = p.index('[::-1]')
        self.assertLayout(r, [3, 2], [-2, 1], 4)
        self.assertEqual(values(r), [2.0, 1.0, 5.0, 3.0, 4.0, 1.0])
        self.assertLayout(p.index('[1, 1]'), [], [], 3)

    def test_errors(self):
        p = points()
        self.assertLtError(Lt.Error.PARSE, p.index, '[1:, ')
        self.assertLtError(Lt.Error.PARSE, p.index, '[..., ...]')
        self.assertLtError(Lt.Error.PARSE, p.index, '[a]')
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.index, '[5]')
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.index, '[0, 0, 0]')
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, p.index, '[::0]')


class TestTranspose(LtTestCase):

    def test_transpose(self):
        ones = Lt.Tensor.new_ones(F32, [3, 4, 5])
        t = ones.transpose(0, 2)
        self.assertLayout(t, [5, 4, 3], [1, 5, 20], 0)
        self.assertTrue(t.shares_storage(ones))
        self.assertFalse(t.is_contiguous())
        self.assertLayout(ones.transpose(-1, 0), [5, 4, 3], [1, 5, 20], 0)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, ones.transpose, 0, 3)

    def test_t(self):
        p = points()
        t = p.t()
        self.assertLayout(t, [2, 3], [1, 2], 0)
        self.assertTrue(t.shares_storage(p))
        self.assertEqual(t.get_storage().get_data_address(), p.get_storage().get_data_address())
        self.assertEqual(values(t), [4.0, 5.0, 2.0, 1.0, 3.0, 1.0])
        self.assertEqual(list(t.get_storage_indices()), [0, 2, 4, 1, 3, 5])
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, Lt.Tensor.new_ones(F32, [2, 3, 4]).t)

    def test_permute(self):
        ones = Lt.Tensor.new_ones(F32, [2, 3, 4])
        self.assertLayout(ones.permute([2, 0, 1]), [4, 2, 3], [1, 12, 4], 0)
        self.assertLayout(ones.permute([-1, -3, -2]), [4, 2, 3], [1, 12, 4], 0)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, ones.permute, [0, 0, 1])
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, ones.permute, [0, 1])

    def test_movedim(self):
        ones = Lt.Tensor.new_ones(F32, [2, 3, 4])
        # torch.ones(2, 3, 4).movedim(0, 2).stride() == (4, 1, 12)
        self.assertLayout(ones.movedim([0], [2]), [3, 4, 2], [4, 1, 12], 0)
        self.assertLayout(ones.movedim([0, 1], [2, 0]), [3, 4, 2], [4, 1, 12], 0)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, ones.movedim, [0, 1], [2])


class TestViewReshape(LtTestCase):

    def test_view(self):
        p = points()
        v = p.view([2, 3])
        self.assertLayout(v, [2, 3], [3, 1], 0)
        self.assertTrue(v.shares_storage(p))
        self.assertLayout(p.view([-1]), [6], [1], 0)
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, p.view, [4])

    def test_view_of_transpose(self):
        error = self.assertLtError(Lt.Error.NOT_VIEWABLE, points().t().view, [6])
        self.assertIn('reshape', error.message)
        # but a transposed view whose dims stay contiguous can be viewed
        ones = Lt.Tensor.new_ones(F32, [2, 3, 4]).transpose(0, 1)  # (3, 2, 4):(4, 12, 1)
        self.assertLayout(ones.view([3, 2, 2, 2]), [3, 2, 2, 2], [4, 12, 2, 1], 0)

    def test_reshape(self):
        p = points()
        r = p.reshape([6])
        self.assertLayout(r, [6], [1], 0)
        self.assertTrue(r.shares_storage(p))
        c = p.t().reshape([6])
        self.assertLayout(c, [6], [1], 0)
        self.assertFalse(c.shares_storage(p))
        self.assertEqual(values(c), [4.0, 5.0, 2.0, 1.0, 3.0, 1.0])
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, p.reshape, [5])

    def test_flatten(self):
        ones = Lt.Tensor.new_ones(F32, [2, 3, 4])
        self.assertLayout(ones.flatten(0, 1), [6, 4], [4, 1], 0)
        self.assertLayout(ones.flatten(1, -1), [2, 12], [12, 1], 0)
        self.assertLayout(ones.flatten(0, -1), [24], [1], 0)
        f = points().t().flatten(0, -1)
        self.assertEqual(values(f), [4.0, 5.0, 2.0, 1.0, 3.0, 1.0])
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, ones.flatten, 0, 3)

    def test_unflatten(self):
        z = Lt.Tensor.new_zeros(F32, [3, 4])
        self.assertLayout(z.unflatten(1, [2, 2]), [3, 2, 2], [4, 2, 1], 0)
        self.assertLayout(z.unflatten(1, [2, -1]), [3, 2, 2], [4, 2, 1], 0)
        self.assertLayout(z.unflatten(0, [3, 1]), [3, 1, 4], [4, 4, 1], 0)
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, z.unflatten, 1, [3, 2])


class TestSqueeze(LtTestCase):

    def test_unsqueeze(self):
        p = points()
        self.assertLayout(p.unsqueeze(0), [1, 3, 2], [6, 2, 1], 0)
        self.assertLayout(p.unsqueeze(2), [3, 2, 1], [2, 1, 1], 0)
        self.assertLayout(p.unsqueeze(-1), [3, 2, 1], [2, 1, 1], 0)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, p.unsqueeze, 4)

    def test_squeeze(self):
        z = Lt.Tensor.new_zeros(F32, [1, 3, 1, 2])
        self.assertLayout(z.squeeze(), [3, 2], [2, 1], 0)
        self.assertLayout(z.squeeze_dim(0), [3, 1, 2], [2, 2, 1], 0)
        self.assertLayout(z.squeeze_dim(2), [1, 3, 2], [6, 2, 1], 0)
        self.assertLayout(z.squeeze_dim(1), [1, 3, 1, 2], [6, 2, 2, 1], 0)
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE, z.squeeze_dim, 4)


class TestExpandAsStrided(LtTestCase):

    def test_expand(self):
        c = new([1.0, 2.0, 3.0], [3, 1])
        e = c.expand([3, 4])
        self.assertLayout(e, [3, 4], [1, 0], 0)
        self.assertEqual(values(e), [1.0] * 4 + [2.0] * 4 + [3.0] * 4)
        self.assertLayout(c.expand([2, 3, 4]), [2, 3, 4], [0, 1, 0], 0)
        self.assertLayout(c.expand([-1, 2]), [3, 2], [1, 0], 0)
        self.assertTrue(e.has_internal_overlap())
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, c.expand, [4, 4])
        self.assertLtError(Lt.Error.INTERNAL_OVERLAP, e.fill, 0.0)

    def test_as_strided(self):
        p = points()
        s = p.as_strided([2, 2], [1, 2], 1)
        self.assertLayout(s, [2, 2], [1, 2], 1)
        # storage [4, 1, 5, 3, 2, 1]: (i, j) is storage[1 + i + 2 j]
        self.assertEqual(values(s), [1.0, 3.0, 5.0, 2.0])
        self.assertTrue(s.shares_storage(p))
        self.assertLtError(Lt.Error.OUT_OF_BOUNDS, p.as_strided, [2, 2], [1, 2], 3)

    def test_diagonal(self):
        a = arange(9, [3, 3])
        d = a.diagonal(0, 0, 1)
        self.assertLayout(d, [3], [4], 0)
        self.assertEqual(values(d), [0.0, 4.0, 8.0])
        self.assertLayout(a.diagonal(1, 0, 1), [2], [4], 1)
        self.assertEqual(values(a.diagonal(1, 0, 1)), [1.0, 5.0])
        self.assertLayout(a.diagonal(-1, 0, 1), [2], [4], 3)
        self.assertEqual(values(a.diagonal(-1, 0, 1)), [3.0, 7.0])
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, a.diagonal, 0, 0, 0)

    def test_unfold(self):
        a = arange(5)
        u = a.unfold(0, 2, 1)
        self.assertLayout(u, [4, 2], [1, 1], 0)
        self.assertEqual(values(u), [0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0])
        self.assertLayout(a.unfold(0, 2, 2), [2, 2], [2, 1], 0)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, a.unfold, 0, 6, 1)


class TestSplit(LtTestCase):

    def test_split(self):
        pieces = points().split(2, 0)
        self.assertEqual(len(pieces), 2)
        self.assertLayout(pieces[0], [2, 2], [2, 1], 0)
        self.assertLayout(pieces[1], [1, 2], [2, 1], 4)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, points().split, 0, 0)

    def test_split_with_sizes(self):
        pieces = points().split_with_sizes([1, 2], 0)
        self.assertEqual([list(p.get_sizes()) for p in pieces], [[1, 2], [2, 2]])
        self.assertEqual([p.get_storage_offset() for p in pieces], [0, 2])
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, points().split_with_sizes, [1, 1], 0)

    def test_chunk(self):
        pieces = points().chunk(2, 0)
        self.assertEqual([list(p.get_sizes()) for p in pieces], [[2, 2], [1, 2]])
        self.assertEqual([p.get_storage_offset() for p in pieces], [0, 4])
        # torch.arange(6).view(3, 2).chunk(3, 1): ceil(2 / 3) = 1, two pieces
        self.assertEqual(len(points().chunk(3, 1)), 2)
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, points().chunk, 0, 0)

    def test_unbind(self):
        columns = points().unbind(1)
        self.assertEqual(len(columns), 2)
        self.assertLayout(columns[0], [3], [2], 0)
        self.assertLayout(columns[1], [3], [2], 1)
        self.assertEqual(values(columns[0]), [4.0, 5.0, 2.0])
        self.assertEqual(values(columns[1]), [1.0, 3.0, 1.0])
        self.assertLtError(Lt.Error.INDEX_OUT_OF_RANGE,
                           Lt.Tensor.new_from_literal('3').unbind, 0)


class TestCopies(LtTestCase):

    def test_contiguous(self):
        p = points()
        c = p.t().contiguous()
        self.assertLayout(c, [2, 3], [3, 1], 0)
        self.assertTrue(c.is_contiguous())
        self.assertFalse(c.shares_storage(p))
        self.assertEqual(values(c), [4.0, 5.0, 2.0, 1.0, 3.0, 1.0])
        # already contiguous: the same tensor, as torch
        self.assertIs(p.contiguous(), p)

    def test_clone(self):
        p = points()
        c = p.clone()
        self.assertLayout(c, [3, 2], [2, 1], 0)
        self.assertFalse(c.shares_storage(p))
        c.select(0, 1).fill(9.0)
        self.assertEqual(values(p), [4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
        self.assertEqual(values(c), [4.0, 1.0, 9.0, 9.0, 2.0, 1.0])

    def test_clone_of_view(self):
        c = points().t().clone()
        self.assertEqual(values(c), [4.0, 5.0, 2.0, 1.0, 3.0, 1.0])
        self.assertEqual(list(c.get_sizes()), [2, 3])

    def test_copy_from_broadcasts(self):
        p = points()
        p.copy_from(new([7.0, 8.0], [2]))
        self.assertEqual(values(p), [7.0, 8.0] * 3)
        self.assertLtError(Lt.Error.SHAPE_MISMATCH, p.copy_from, new([1.0] * 4, [4]))


class TestRandom(LtTestCase):

    def test_randint(self):
        generator = Lt.Generator.new(3)
        t = Lt.Tensor.new_randint(generator, -2, 5, Lt.DType.INT64, [4, 5])
        self.assertLayout(t, [4, 5], [5, 1], 0)
        self.assertTrue(all(-2 <= v < 5 for v in values(t)))
        again = Lt.Tensor.new_randint(Lt.Generator.new(3), -2, 5, Lt.DType.INT64, [4, 5])
        self.assertEqual(values(t), values(again))
        self.assertLtError(Lt.Error.INVALID_ARGUMENT, Lt.Tensor.new_randint, generator, 5, 5,
                           Lt.DType.INT64, [2])

    def test_fills_through_views(self):
        generator = Lt.Generator.new(4)
        p = points()
        p.select(0, 1).uniform_(generator, 10.0, 20.0)
        v = values(p)
        self.assertEqual(v[:2] + v[4:], [4.0, 1.0, 2.0, 1.0])
        self.assertTrue(all(10.0 <= x < 20.0 for x in v[2:4]))
        p.normal_(generator, 0.0, 1.0)
        p.bernoulli_(generator, 1.0)
        self.assertEqual(values(p), [1.0] * 6)
        self.assertLtError(Lt.Error.INTERNAL_OVERLAP,
                           new([1.0], [1]).expand([3]).uniform_, generator, 0.0, 1.0)

    def test_normal_and_bernoulli(self):
        generator = Lt.Generator.new(5)
        t = Lt.Tensor.new_normal(generator, 1.0, 0.0, F32, [3])
        self.assertEqual(values(t), [1.0] * 3)
        drawn = new([0.0, 1.0], [2]).bernoulli(generator)
        self.assertEqual(values(drawn), [0.0, 1.0])


def _gir_path():
    candidates = []
    for directory in os.environ.get('GI_TYPELIB_PATH', '').split(os.pathsep):
        if directory:
            candidates.append(os.path.join(directory, 'Lt-1.0.gir'))
    builddir = os.environ.get('G_TEST_BUILDDIR')
    if builddir:
        candidates.append(os.path.join(builddir, os.pardir, 'libtensor', 'Lt-1.0.gir'))
    # Installed (the installed tests): in a data directory's gir-1.0.
    for directory in os.environ.get('XDG_DATA_DIRS', '/usr/local/share:/usr/share').split(':'):
        if directory:
            candidates.append(os.path.join(directory, 'gir-1.0', 'Lt-1.0.gir'))
    for path in candidates:
        if os.path.exists(path):
            return path
    return None


# Words that only name internals: the backends, the layout rules, the literal
# and index-expression parsers, LtValue and the Philox generator core.
PRIVATE_WORDS = ('backend', 'layout', 'literal', 'index_expr', 'value_', 'philox', 'cpu')

# Public names that contain one of those words on purpose.
PUBLIC_EXCEPTIONS = {'lt_tensor_new_from_literal', 'lt_tensor_new_from_literal_with_dtype',
                     'lt_tensor_to_cpu'}

CORE = '{http://www.gtk.org/introspection/core/1.0}'
C = '{http://www.gtk.org/introspection/c/1.0}'

CALLABLES = ('function', 'method', 'constructor', 'virtual-method', 'callback',
             'function-macro')
TYPES = ('class', 'record', 'enumeration', 'bitfield', 'interface', 'union', 'alias',
         'boxed', 'constant')


class TestGir(unittest.TestCase):

    def setUp(self):
        path = _gir_path()
        self.assertIsNotNone(path, 'Lt-1.0.gir not found next to GI_TYPELIB_PATH, in '
                                   'G_TEST_BUILDDIR/../libtensor nor in XDG_DATA_DIRS')
        self.root = ET.parse(path).getroot()

    def _elements(self, tags):
        for element in self.root.iter():
            if element.tag.startswith(CORE) and element.tag[len(CORE):] in tags:
                yield element

    def test_no_private_functions(self):
        names = []
        for element in self._elements(CALLABLES):
            identifier = element.get(C + 'identifier') or element.get('name')
            if identifier in PUBLIC_EXCEPTIONS:
                continue
            for name in (identifier.lower(), element.get('name', '').lower()):
                if any(word in name for word in PRIVATE_WORDS):
                    names.append(identifier)
        self.assertEqual(names, [])
        # the check sees the functions at all
        identifiers = {e.get(C + 'identifier') for e in self._elements(CALLABLES)}
        self.assertIn('lt_tensor_transpose', identifiers)
        self.assertIn('lt_tensor_new_from_literal', identifiers)

    def test_no_private_types(self):
        names = []
        for element in self._elements(TYPES):
            for name in (element.get('name', ''), element.get(C + 'type', '')):
                squashed = name.lower().replace('_', '')
                if any(word.replace('_', '') in squashed
                       for word in PRIVATE_WORDS + ('value', 'indexitem')):
                    names.append(name)
        self.assertEqual(names, [])
        types = {e.get('name') for e in self._elements(TYPES)}
        self.assertLessEqual({'Tensor', 'Storage', 'DType', 'Error'}, types)

    def test_no_private_exports(self):
        nm = shutil.which('nm')
        path = _gir_path()
        library = None
        if path is not None:
            directory = os.path.dirname(path)
            for name in sorted(os.listdir(directory)):
                # The library itself, not a backend module (libtensor-1-opencl.so).
                if re.match(r'libtensor-\d+\.so', name):
                    library = os.path.join(directory, name)
                    break
        if nm is None or library is None:
            self.skipTest('nm or the shared library is not available')
        output = subprocess.run([nm, '-D', '--defined-only', library], check=True,
                                capture_output=True, text=True).stdout
        symbols = [line.split()[-1] for line in output.splitlines() if line.strip()]
        exported = [s for s in symbols if s.startswith('lt_')]
        self.assertIn('lt_tensor_transpose', exported)
        leaked = [s for s in exported
                  if s not in PUBLIC_EXCEPTIONS and any(word in s for word in PRIVATE_WORDS)]
        self.assertEqual(leaked, [])

        # A backend module exports its query function and nothing else.
        for name in sorted(os.listdir(os.path.dirname(library))):
            if re.match(r'libtensor-\d+-\w+\.so$', name):
                output = subprocess.run([nm, '-D', '--defined-only',
                                         os.path.join(os.path.dirname(library), name)],
                                        check=True, capture_output=True, text=True).stdout
                module_symbols = [line.split()[-1] for line in output.splitlines()
                                  if line.strip() and line.split()[-2] in 'TDB']
                self.assertEqual([s for s in module_symbols if not s.startswith('_')],
                                 ['lt_backend_module_query'], name)


class TestDevices(LtTestCase):

    def test_names_round_trip(self):
        for text, printed in [('cpu', 'cpu'), ('cuda', 'cuda:0'), ('opencl:2', 'opencl:2')]:
            device = Lt.Device.new_from_string(text)
            self.assertEqual(device.to_string(), printed)
            self.assertTrue(device.equal(Lt.Device.new_from_string(printed)))

    def test_bad_name(self):
        self.assertLtError(Lt.Error.PARSE, Lt.Device.new_from_string, 'gpu:0')

    def test_list_starts_with_cpu(self):
        names = Lt.device_list()
        self.assertEqual(names[0], 'cpu')
        for name in names:
            self.assertTrue(Lt.Device.new_from_string(name).is_available())

    def test_unavailable_says_why(self):
        device = Lt.Device.new(Lt.DeviceType.CUDA, 7)
        if 'cuda:7' in Lt.device_list():
            self.skipTest('this machine has eight CUDA devices')
        with self.assertRaises(GLib.Error) as caught:
            device.is_available()
        self.assertEqual(caught.exception.code, Lt.Error.DEVICE)
        self.assertTrue(caught.exception.message.startswith('cuda:7 is not available: '))


if __name__ == '__main__':
    print('# without the Python overrides' if not WITH_OVERRIDES
          else '# with the Python overrides', file=sys.stderr)
    success = unittest.main(verbosity=2, exit=False).result.wasSuccessful()
    if not WITH_OVERRIDES:
        child = subprocess.run([sys.executable] + sys.argv,
                               env=dict(os.environ, LT_TEST_WITH_OVERRIDES='1'))
        success = success and child.returncode == 0
    sys.exit(0 if success else 1)
