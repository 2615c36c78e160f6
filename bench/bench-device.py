#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""libtensor's device kernels against a device-to-device copy and PyTorch.

Measures, on one device and in one run, the GPU issue's targets: a
permute-copy of a float32 tensor against a plain copy of it (the yardstick:
the device's copy bandwidth), a broadcast add, a sum over each dim and of
all, a softmax over rows, and float32 and bfloat16 matmuls; and the same
work in PyTorch on the same device where PyTorch has one (cuda:N; for
opencl:N PyTorch runs nothing). Every result is checked before anything is
timed, against PyTorch's on the same device (handed over through DLPack)
or, without a PyTorch device, against the CPU: a fast wrong answer fails
the run.

Run it through the build's environment, on a machine with the device:

    meson devenv -C _build /usr/bin/python3 ../bench/bench-device.py --device cuda:0

Where Python cannot load the GObject bindings (a GPU machine's own Python),
--ctypes calls libtensor-1.so directly (tests/lt_ctypes.py); the GPU check,
build-aux/gpu-check.sh, runs it so.

It prints a Markdown table for bench/RESULTS.md and exits 1 if a result was
wrong. --size-mib and --matmul set the sizes (1024 MiB and 8192 by default,
the issue's; smaller ones for a quick look, e.g. on PoCL).
"""

import argparse
import os
import statistics
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--device', default='cuda:0', help='the device (default cuda:0)')
    parser.add_argument('--size-mib', type=int, default=1024,
                        help='size of the float32 tensor the bandwidth workloads use')
    parser.add_argument('--matmul', type=int, default=8192,
                        help='n of the n x n x n matmuls (0 to skip them)')
    parser.add_argument('--min-time', type=float, default=1.0,
                        help='repeat each timing for at least this many seconds')
    parser.add_argument('--queued', type=int, default=1,
                        help='calls queued before each synchronisation (default 1: each call '
                             'timed on its own, the host\'s time to launch it included; more '
                             'hide that time behind the device\'s work, kernel against kernel)')
    parser.add_argument('--ctypes', action='store_true',
                        help='call libtensor through ctypes (tests/lt_ctypes.py), not PyGObject')
    return parser.parse_args()


ARGS = parse_args()


class Binding:
    """What both bindings share: the device, a generator, and the calls
    whose spelling is the same in both."""

    def device_name(self):
        return self.device.get_name()

    def sync(self):
        self.device.synchronize()

    def allclose(self, a, b, tolerance):
        return a.allclose(b, tolerance, tolerance)


class GiBinding(Binding):
    """The workloads through the GObject bindings and their overrides."""

    def __init__(self):
        import gi
        gi.require_version('Lt', '1.0')
        from gi.repository import Lt
        self.Lt = Lt
        self.device = Lt.Device.new_from_string(ARGS.device)
        self.generator = Lt.Generator.new(1)

    def uniform(self, sizes):
        host = self.Lt.Tensor.new_zeros(self.Lt.DType.FLOAT32, sizes)
        host.uniform_(-1, 1, generator=self.generator)
        return host

    def sum(self, x, *dims):
        return x.sum(*dims) if dims else x.sum()

    def to_dtype(self, x, name):
        return x.to(getattr(self.Lt.DType, name.upper()))


class CtypesBinding(Binding):
    """The same workloads through libtensor-1.so's C functions."""

    def __init__(self):
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        '..', 'tests'))
        import lt_ctypes
        self.L = lt_ctypes
        self.device = lt_ctypes.Device(ARGS.device)
        self.generator = lt_ctypes.Generator(1)

    def uniform(self, sizes):
        return self.L.Tensor.zeros('float32', sizes).uniform_(-1, 1, self.generator)

    def sum(self, x, *dims):
        return x.sum(*dims)

    def to_dtype(self, x, name):
        return x.to_dtype(name)


LT = CtypesBinding() if ARGS.ctypes else GiBinding()

try:
    import torch
    TORCH_DEVICE = ARGS.device if ARGS.device.startswith('cuda') and torch.cuda.is_available() \
        else None
except ImportError:
    torch = None
    TORCH_DEVICE = None


def seconds(run, sync):
    """Median seconds of one run(), timed over --queued calls in a row and
    then sync(), repeated for --min-time after one warm-up call."""
    run()
    sync()
    times = []
    start = time.perf_counter()
    while not times or time.perf_counter() - start < ARGS.min_time:
        t0 = time.perf_counter()
        for _ in range(ARGS.queued):
            run()
        sync()
        times.append((time.perf_counter() - t0) / ARGS.queued)
    return statistics.median(times)


def torch_sync():
    torch.cuda.synchronize()


def check(name, got, expected_host, tolerance, torch_expected=None):
    """got (a device tensor) against PyTorch's result on the device, handed
    over through DLPack, where there is one; else against a CPU tensor."""
    if torch_expected is not None:
        shared = torch.from_dlpack(got)
        ok = torch.allclose(shared.float(), torch_expected.float(), tolerance, tolerance)
    else:
        ok = LT.allclose(got.cpu(), expected_host, tolerance)
    if not ok:
        print(f'WRONG: {name} differs from the reference', file=sys.stderr)
    return ok


def main():
    side = int((ARGS.size_mib * 2**20 // 4) ** 0.5)
    nbytes = side * side * 4
    host = LT.uniform([side, side])
    row = LT.uniform([1, side])
    x = host.to(ARGS.device)
    r = row.to(ARGS.device)
    tx = tr = None
    if TORCH_DEVICE is not None:
        # PyTorch's copies of the same values, through DLPack.
        tx = torch.from_dlpack(x).clone()
        tr = torch.from_dlpack(r).clone()

    def expect(lt_run, torch_run):
        """(the CPU's result, PyTorch's on the device or None)."""
        if tx is not None:
            return None, torch_run()
        return lt_run(), None

    # Correctness first.
    ok = True
    cases = [
        ('permute-copy', lambda v, w: v.t().contiguous(), lambda v, w: v.t().contiguous(), 0),
        ('broadcast add', lambda v, w: v + w, lambda v, w: v + w, 1e-6),
        ('sum over dim 0', lambda v, w: LT.sum(v, 0), lambda v, w: v.sum(0), 1e-3),
        ('sum over dim 1', lambda v, w: LT.sum(v, 1), lambda v, w: v.sum(1), 1e-3),
        ('sum of all', lambda v, w: LT.sum(v), lambda v, w: v.sum(), 1e-1),
        ('softmax over rows', lambda v, w: v.softmax(1), lambda v, w: v.softmax(1), 1e-5),
    ]
    for name, lt_op, torch_op, tolerance in cases:
        expected_host, torch_expected = expect(lambda: lt_op(host, row),
                                               lambda: torch_op(tx, tr))
        ok &= check(name, lt_op(x, r), expected_host, tolerance, torch_expected)

    rows = []

    def measure(name, moved_bytes, lt_run, torch_run):
        lt_s = seconds(lt_run, LT.sync)
        torch_s = seconds(torch_run, torch_sync) if tx is not None else None
        rows.append((name, moved_bytes, lt_s, torch_s))

    measure('copy (contiguous clone)', 2 * nbytes, lambda: x.clone(), lambda: tx.clone())
    for name, lt_op, torch_op, _ in cases:
        moved = 2 * nbytes if name in ('permute-copy', 'broadcast add', 'softmax over rows') \
            else nbytes
        measure(name, moved, lambda: lt_op(x, r), lambda: torch_op(tx, tr))

    copy_bandwidth = rows[0][1] / rows[0][2]
    print('Median time of a call, ' + ('each synchronised on its own:' if ARGS.queued == 1 else
          f'{ARGS.queued} calls queued between synchronisations:'))
    print()
    print(f'| {ARGS.device}: {LT.device_name()} | bytes moved | libtensor | GB/s | '
          f'% of copy | PyTorch | libtensor / PyTorch speed |')
    print('|---|---|---|---|---|---|---|')
    for name, moved, lt_s, torch_s in rows:
        bandwidth = moved / lt_s
        torch_text = f'{torch_s * 1e3:.3f} ms' if torch_s is not None else 'n/a'
        ratio = f'{torch_s / lt_s:.2f}x' if torch_s is not None else 'n/a'
        print(f'| {name} | {moved / 2**20:.0f} MiB | {lt_s * 1e3:.3f} ms | '
              f'{bandwidth / 1e9:.1f} | {100 * bandwidth / copy_bandwidth:.0f}% | {torch_text} | '
              f'{ratio} |')

    if ARGS.matmul > 0:
        n = ARGS.matmul
        a_host = LT.uniform([n, n])
        for dtype, tolerance in (('float32', 1e-2), ('bfloat16', 1e-1)):
            a = LT.to_dtype(a_host.to(ARGS.device), dtype)
            ta = None
            if tx is not None:
                ta = torch.from_dlpack(a).clone()
                expected_host, torch_expected = None, (ta @ ta)
            else:
                expected_host = LT.to_dtype(a_host, dtype) @ LT.to_dtype(a_host, dtype) \
                    if n <= 1024 else None
                torch_expected = None
            if expected_host is not None or torch_expected is not None:
                # Relative to the sum of n products of values in [-1, 1].
                ok &= check(f'matmul {dtype}', a @ a, expected_host, tolerance * n ** 0.5,
                            torch_expected)
            lt_s = seconds(lambda: a @ a, LT.sync)
            torch_s = seconds(lambda: ta @ ta, torch_sync) if ta is not None else None
            flops = 2 * n**3
            torch_text = (f'{torch_s * 1e3:.2f} ms ({flops / torch_s / 1e12:.1f} TFLOP/s)'
                          if torch_s is not None else 'n/a')
            ratio = f'{torch_s / lt_s:.2f}x' if torch_s is not None else 'n/a'
            print(f'| matmul {dtype} {n}^3 | | {lt_s * 1e3:.2f} ms | '
                  f'{flops / lt_s / 1e12:.2f} TFLOP/s | | {torch_text} | {ratio} |')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
