#!/usr/bin/env python3
# exchange.py: a tensor's round trip through NumPy and PyTorch, and through
# the files they read
#
# The seed chapter's points tensor goes to NumPy and to PyTorch without a
# copy (DLPack): a write on either side shows on the other, the transposed
# view keeps its strides. Then it is saved as .npy for numpy.load() and as
# safetensors, and what numpy.save() writes is read back. Exits with status
# 1 if anything comes back different.
#
# Run from a build tree with: meson devenv -C _build /usr/bin/python3 ../examples/exchange.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
import tempfile

import gi

gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

failures = []


def check(what, ok):
    print('%-58s %s' % (what, 'ok' if ok else 'DIFFERENT'))
    if not ok:
        failures.append(what)


points = Lt.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points_t = points.t()

# To NumPy and PyTorch, sharing memory: no element is copied.
array = np.from_dlpack(points_t)
tensor = torch.from_dlpack(points_t)
check('numpy sees the transposed view, strides and all',
      array.tolist() == points_t.tolist() and array.strides == (4, 8))
points[0, 1] = 10
check('a write in libtensor shows in NumPy', array[1, 0] == 10)
tensor[0, 2] = -1
check('a write in PyTorch shows in libtensor', points[2, 0].item() == -1)

# And back: a PyTorch tensor and a NumPy array as libtensor tensors.
from_torch = Lt.from_dlpack(torch.arange(6.0).reshape(2, 3)[:, 1:])
check('PyTorch -> libtensor keeps values and strides',
      from_torch.tolist() == [[1.0, 2.0], [4.0, 5.0]] and from_torch.stride() == (3, 1))
grid = np.zeros((2, 2), dtype=np.int64)
from_numpy = Lt.from_dlpack(grid)
from_numpy[1, 1] = 7
check('a write in libtensor shows in the NumPy array', grid[1, 1] == 7)

with tempfile.TemporaryDirectory() as folder:
    # .npy: libtensor writes, NumPy reads; NumPy writes, libtensor reads.
    path = os.path.join(folder, 'points.npy')
    points_t.save_npy(path)
    loaded = np.load(path)
    check('numpy.load() reads the saved view (Fortran order)',
          loaded.tolist() == points_t.tolist() and loaded.flags.f_contiguous)
    np.save(path, np.arange(12, dtype=np.int16).reshape(3, 4).astype('>i2'))
    back = Lt.Tensor.new_from_npy(path)
    check('libtensor reads numpy.save() (big-endian int16)',
          back.tolist() == np.arange(12).reshape(3, 4).tolist())

    # safetensors: a set of named tensors in one file.
    path = os.path.join(folder, 'model.safetensors')
    Lt.safetensors_save(path, {'points': points, 'points_t': points_t}, {'lesson': 'strides'})
    tensors, metadata = Lt.safetensors_load(path)
    check('safetensors keeps names, values and metadata',
          tensors['points'].tolist() == points.tolist()
          and tensors['points_t'].tolist() == points_t.tolist()
          and metadata == {'lesson': 'strides'})

sys.exit(1 if failures else 0)
