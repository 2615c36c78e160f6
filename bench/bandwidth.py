#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""GB/s against size: libtensor, PyTorch, NumPy and memcpy, drawn as PNGs.

For each workload (a contiguous copy, a transposing copy, a broadcast add
and a sum), each size from 4 KiB to 1 GiB (the bytes of one float32
operand, a square matrix) and each thread count, times every system on the
same input bytes, kernel against kernel: copies go into tensors that
already exist and the add runs in place, so no system pays for fresh pages.
Each system's result is checked against NumPy's before anything is timed.

Every call crosses from Python into C, so the smallest sizes show the cost
of a call (a microsecond or two) more than the kernel's: that is what a
Python user pays, and the same for every system.

NumPy runs on one thread whatever the thread count; memcpy (libc's, through
ctypes) runs on as many threads as asked, each copying an equal share, from
1 MiB up (below that, starting Python threads costs more than the copy).

Run it through the build's environment:

    meson devenv -C _build /usr/bin/python3 ../bench/bandwidth.py --out ../bench/plots

It writes one PNG per workload and bandwidth.csv into --out.
"""

import argparse
import csv
import ctypes
import os
import statistics
import sys
import threading
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--threads', type=int, nargs='+', default=[1, 2],
                        help='thread counts to measure (default 1 2)')
    parser.add_argument('--min-bytes', type=int, default=4 << 10,
                        help='smallest operand in bytes (default 4 KiB)')
    parser.add_argument('--max-bytes', type=int, default=1 << 30,
                        help='largest operand in bytes (default 1 GiB)')
    parser.add_argument('--min-time', type=float, default=0.2,
                        help='time each point for at least this many seconds')
    parser.add_argument('--out', default='plots',
                        help='folder for the PNGs and bandwidth.csv')
    return parser.parse_args()


ARGS = parse_args()

# Before NumPy and PyTorch load OpenBLAS and OpenMP; PyTorch's OpenMP
# threads would otherwise spin after each call, taking a core from the next
# system (bench/compare.py).
os.environ['OMP_WAIT_POLICY'] = 'PASSIVE'
os.environ['OMP_NUM_THREADS'] = str(max(ARGS.threads))

import gi  # noqa: E402
gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402
import numpy  # noqa: E402
import torch  # noqa: E402
import matplotlib  # noqa: E402
matplotlib.use('Agg')
import matplotlib.pyplot as pyplot  # noqa: E402

SYSTEMS = ('libtensor', 'PyTorch', 'NumPy', 'memcpy')
COLOURS = {'libtensor': '#3584e4', 'PyTorch': '#e66100', 'NumPy': '#2ec27e',
           'memcpy': '#5e5c64'}
LIBC = ctypes.CDLL(None)
LIBC.memcpy.restype = ctypes.c_void_p
LIBC.memcpy.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


def matrix(n):
    """One n x n float32 block seen as (Lt.Tensor, numpy array, torch tensor)."""
    lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [n, n])
    array = numpy.asarray(lt)
    return lt, array, torch.from_numpy(array)


def memcpy_on_threads(dst, src, threads):
    """libc's memcpy of src into dst, each of @threads copying a share."""
    total = src.nbytes
    shares = [(total * i // threads // 64 * 64) for i in range(threads)] + [total]
    base_dst, base_src = dst.ctypes.data, src.ctypes.data

    def copy(begin, end):
        LIBC.memcpy(base_dst + begin, base_src + begin, end - begin)

    if threads == 1:
        return lambda: copy(0, total)

    def run():
        # ctypes lets go of the GIL during the call, so the copies overlap.
        workers = [threading.Thread(target=copy, args=(shares[i], shares[i + 1]))
                   for i in range(1, threads)]
        for worker in workers:
            worker.start()
        copy(shares[0], shares[1])
        for worker in workers:
            worker.join()
    return run


class Workload:
    def __init__(self, name, title, bytes_per_operand, make):
        # make(n, threads) gives {system: (function, result array or None)}
        # and a function giving the expected result.
        self.name, self.title = name, title
        # Bytes read + written per call, as a multiple of one operand.
        self.bytes_per_operand = bytes_per_operand
        self.make = make


def copy_workload(n, threads):
    (a_lt, a_np, a_torch), (o_lt, o_np, o_torch) = matrix(n), matrix(n)
    a_np[...] = numpy.random.default_rng(1).random((n, n), dtype=numpy.float32)
    funcs = {
        'libtensor': (lambda: o_lt.copy_(a_lt), o_np),
        'PyTorch': (lambda: o_torch.copy_(a_torch), o_np),
        'NumPy': (lambda: numpy.copyto(o_np, a_np), o_np),
    }
    if threads == 1 or n * n * 4 >= 1 << 20:
        funcs['memcpy'] = (memcpy_on_threads(o_np, a_np, threads), o_np)
    return funcs, a_np.copy


def transpose_workload(n, threads):
    (a_lt, a_np, a_torch), (o_lt, o_np, o_torch) = matrix(n), matrix(n)
    a_np[...] = numpy.random.default_rng(2).random((n, n), dtype=numpy.float32)
    a_lt_t, a_torch_t = a_lt.t(), a_torch.t()
    return {
        'libtensor': (lambda: o_lt.copy_(a_lt_t), o_np),
        'PyTorch': (lambda: o_torch.copy_(a_torch_t), o_np),
        'NumPy': (lambda: numpy.copyto(o_np, a_np.T), o_np),
    }, lambda: a_np.T.copy()


def add_workload(n, threads):
    # In place: each call adds the column again, so the expected value is
    # checked after one call from a fresh start.
    (a_lt, a_np, a_torch) = matrix(n)
    column_lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [n, 1])
    column_np = numpy.asarray(column_lt)
    column_np[...] = numpy.arange(n, dtype=numpy.float32).reshape(n, 1)
    column_torch = torch.from_numpy(column_np)
    return {
        'libtensor': (lambda: a_lt.add_(column_lt), a_np),
        'PyTorch': (lambda: a_torch.add_(column_torch), a_np),
        'NumPy': (lambda: numpy.add(a_np, column_np, out=a_np), a_np),
    }, lambda: numpy.zeros((n, n), dtype=numpy.float32) + column_np


def sum_workload(n, threads):
    # Each function returns the sum, checked against a float64 one.
    (a_lt, a_np, a_torch) = matrix(n)
    a_np[...] = numpy.random.default_rng(3).random((n, n), dtype=numpy.float32)
    return {
        'libtensor': (lambda: a_lt.sum().item(), None),
        'PyTorch': (lambda: a_torch.sum().item(), None),
        'NumPy': (lambda: float(a_np.sum()), None),
    }, lambda: float(a_np.sum(dtype=numpy.float64))


WORKLOADS = (
    Workload('copy', 'Contiguous copy into an existing tensor', 2, copy_workload),
    Workload('transpose', 'Copy of a.t() into an existing tensor', 2, transpose_workload),
    Workload('broadcast-add', 'In-place add of an (n, 1) column to (n, n)', 2, add_workload),
    Workload('sum', 'Sum of all elements', 1, sum_workload),
)


def check(workload, funcs, expected, n):
    for system, (func, result) in funcs.items():
        if workload.name == 'broadcast-add':
            result[...] = 0
        value = func()
        if result is None:
            # Sums of n^2 values in [0, 1): float32 roundings may differ.
            if abs(value - expected()) > 1e-5 * n * n:
                sys.exit('%s: %s summed %dx%d to %r, float64 to %r'
                         % (workload.name, system, n, n, value, expected()))
        elif not numpy.array_equal(result, expected()):
            sys.exit('%s: %s gave a wrong result for %dx%d' % (workload.name, system, n, n))


def seconds_per_call(func):
    """The median over batches of calls, each batch long enough to time."""
    calls, start = 1, time.perf_counter()
    func()
    single = time.perf_counter() - start
    calls = max(1, int(0.01 / max(single, 1e-9)))
    batches = []
    deadline = time.perf_counter() + ARGS.min_time
    while len(batches) < 3 or time.perf_counter() < deadline:
        start = time.perf_counter()
        for _ in range(calls):
            func()
        batches.append((time.perf_counter() - start) / calls)
    return statistics.median(batches)


def sizes():
    size = ARGS.min_bytes
    while size <= ARGS.max_bytes:
        yield size
        size *= 4


def measure():
    rows = []
    for threads in ARGS.threads:
        torch.set_num_threads(threads)
        Lt.set_num_threads(threads)
        for size in sizes():
            n = int(round((size // 4) ** 0.5))
            for workload in WORKLOADS:
                funcs, expected = workload.make(n, threads)
                check(workload, funcs, expected, n)
                for system, (func, _) in funcs.items():
                    seconds = seconds_per_call(func)
                    rate = workload.bytes_per_operand * n * n * 4 / seconds / 1e9
                    rows.append({'workload': workload.name, 'threads': threads,
                                 'bytes': n * n * 4, 'system': system,
                                 'seconds': seconds, 'gb_per_s': rate})
                    print('%-14s %d thread(s) %10d bytes %-9s %9.2f GB/s'
                          % (workload.name, threads, n * n * 4, system, rate), flush=True)
                del funcs
    return rows


def size_label(size):
    for unit, scale in (('GiB', 1 << 30), ('MiB', 1 << 20), ('KiB', 1 << 10)):
        if size >= scale:
            return '%d %s' % (size // scale, unit)
    return '%d B' % size


def plot(rows):
    machine = '%s, %d cores' % (cpu_name(), os.cpu_count())
    for workload in WORKLOADS:
        figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
        for system in SYSTEMS:
            for threads in ARGS.threads:
                points = sorted((r['bytes'], r['gb_per_s']) for r in rows
                                if r['workload'] == workload.name and r['system'] == system
                                and r['threads'] == threads)
                if not points:
                    continue
                axes.plot([p[0] for p in points], [p[1] for p in points],
                          color=COLOURS[system], marker='o', markersize=3,
                          linestyle='-' if threads == max(ARGS.threads) else '--',
                          label='%s, %d thread%s' % (system, threads, '' if threads == 1 else 's'))
        ticks = list(sizes())
        axes.set_xscale('log', base=2)
        axes.set_xticks(ticks, [size_label(t) for t in ticks])
        axes.set_xlabel('one operand (float32, square)')
        axes.set_ylabel('GB/s, bytes read + written')
        axes.set_title('%s\n%s' % (workload.title, machine), fontsize=10)
        axes.grid(True, alpha=0.3)
        axes.set_ylim(bottom=0)
        axes.legend(fontsize=7, ncol=2)
        figure.tight_layout()
        figure.savefig(os.path.join(ARGS.out, workload.name + '.png'))
        pyplot.close(figure)


def cpu_name():
    try:
        with open('/proc/cpuinfo') as cpuinfo:
            for line in cpuinfo:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'unknown processor'


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    rows = measure()
    with open(os.path.join(ARGS.out, 'bandwidth.csv'), 'w', newline='') as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    plot(rows)


if __name__ == '__main__':
    main()
