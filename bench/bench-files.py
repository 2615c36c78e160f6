#!/usr/bin/env python3
# bench-files.py: saving, loading and sharing tensors, against NumPy and PyTorch
#
# .npy saves and loads of one float32 tensor against numpy.save()/load(),
# safetensors saves and loads of the same bytes, and the cost of handing a
# tensor over through DLPack (numpy.from_dlpack(), torch.from_dlpack(),
# Lt.from_dlpack()). Loads are timed twice: the call alone (libtensor reads
# a .npy file once, as numpy.load() does, and maps a safetensors file, so
# reads nothing yet) and the call plus a sum that reads every element. libtensor's saves that replace a file flush it to disk
# before renaming it into place (fsync), as GLib's g_file_set_contents()
# does; NumPy's never do: the table says which.
#
# Run from a build tree: meson devenv -C _build /usr/bin/python3 ../bench/bench-files.py
# [--size-mib N] [--repeat N] [--folder DIR]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import statistics
import tempfile
import time

import gi

gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402


def timed(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def show(name, figures, nbytes=None):
    median, fastest, slowest = figures
    unit = (1e-3, 'ms') if median >= 1e-3 else (1e-6, 'µs')
    rate = ' %6.2f GB/s' % (nbytes / median / 1e9) if nbytes else ''
    print('| %-46s | %9.2f %s (%.2f–%.2f) |%s |' % (name, median / unit[0], unit[1],
                                                   fastest / unit[0], slowest / unit[0], rate))


def drop_page_cache_hint(path):
    # Not a cold-cache measurement (that needs root and a quiet machine):
    # the files are read from the page cache, as right after writing them.
    with open(path, 'rb') as f:
        while f.read(1 << 24):
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--size-mib', type=int, default=256)
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--folder', default=None)
    args = parser.parse_args()

    n = args.size_mib * (1 << 20) // 4
    array = np.random.default_rng(1).standard_normal(n, dtype=np.float32).reshape(-1, 1024)
    tensor = Lt.from_dlpack(array).clone()
    nbytes = array.nbytes
    folder = args.folder or tempfile.mkdtemp(prefix='bench-files-')
    lt_npy = os.path.join(folder, 'lt.npy')
    np_npy = os.path.join(folder, 'np.npy')
    lt_st = os.path.join(folder, 'lt.safetensors')

    print('%d MiB float32 (%s), %d runs each, files in %s' % (args.size_mib, 'x'.join(
        str(s) for s in array.shape), args.repeat, folder))
    print('| what | median (fastest–slowest) | rate |')
    print('| --- | --- | --- |')
    show('save .npy, new file: libtensor', timed(lambda: (tensor.save_npy(lt_npy),
                                                         os.unlink(lt_npy)), args.repeat), nbytes)
    show('save .npy, replacing: libtensor (fsync)', timed(lambda: tensor.save_npy(lt_npy),
                                                           args.repeat), nbytes)
    show('save .npy: numpy.save (no fsync)', timed(lambda: np.save(np_npy, array), args.repeat),
         nbytes)
    show('save safetensors, replacing: libtensor (fsync)',
         timed(lambda: Lt.safetensors_save(lt_st, {'x': tensor}, None), args.repeat), nbytes)
    for path in (lt_npy, np_npy, lt_st):
        drop_page_cache_hint(path)
    show('load .npy: libtensor (read)', timed(lambda: Lt.Tensor.new_from_npy(np_npy),
                                               args.repeat), nbytes)
    # Mapped: nothing is read yet, so no rate.
    show('load safetensors: libtensor (mapped)', timed(lambda: Lt.safetensors_load(lt_st),
                                                        args.repeat))
    show('load .npy: numpy.load (read)', timed(lambda: np.load(np_npy), args.repeat), nbytes)
    show('load .npy + sum: libtensor',
         timed(lambda: Lt.Tensor.new_from_npy(np_npy).sum(), args.repeat), nbytes)
    show('load .npy + sum: numpy', timed(lambda: np.load(np_npy).sum(), args.repeat), nbytes)
    show('load safetensors + sum: libtensor',
         timed(lambda: Lt.safetensors_load(lt_st)[0]['x'].sum(), args.repeat), nbytes)
    show('numpy.from_dlpack(t)', timed(lambda: np.from_dlpack(tensor), 1000))
    show('torch.from_dlpack(t)', timed(lambda: torch.from_dlpack(tensor), 1000))
    show('Lt.from_dlpack(numpy array)', timed(lambda: Lt.from_dlpack(array), 1000))
    show('numpy.asarray(t) (array interface, for scale)', timed(lambda: np.asarray(tensor), 1000))
    if args.folder is None:
        for path in (lt_npy, np_npy, lt_st):
            os.unlink(path)
        os.rmdir(folder)


if __name__ == '__main__':
    main()
