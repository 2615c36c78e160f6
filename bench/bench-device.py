#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""libtensor's device kernels against a device-to-device copy and PyTorch.

Measures, on one device and in one run, the GPU issue's targets: a
permute-copy of a float32 tensor against a plain copy of it (the yardstick:
the device's copy bandwidth), a broadcast add, a sum over each dim, and a
float32 matmul; and the same work in PyTorch on the same device where
PyTorch has one (cuda:N; for opencl:N PyTorch runs nothing). Every result is
checked against PyTorch's (or, without a PyTorch device, against the CPU)
before anything is timed: a fast wrong answer fails the run.

Run it through the build's environment, on a machine with the device:

    meson devenv -C _build /usr/bin/python3 ../bench/bench-device.py --device cuda:0

It prints a Markdown table for bench/RESULTS.md and exits 1 if a result was
wrong. --size-mib and --matmul set the sizes (1024 MiB and 8192 by default,
the issue's; smaller ones for a quick look, e.g. on PoCL).
"""

import argparse
import statistics
import sys
import time

import gi
gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--device', default='cuda:0', help='the device (default cuda:0)')
    parser.add_argument('--size-mib', type=int, default=1024,
                        help='size of the float32 tensor the bandwidth workloads use')
    parser.add_argument('--matmul', type=int, default=8192,
                        help='n of the n x n x n float32 matmul (0 to skip it)')
    parser.add_argument('--min-time', type=float, default=1.0,
                        help='repeat each timing for at least this many seconds')
    return parser.parse_args()


ARGS = parse_args()
DEVICE = Lt.Device.new_from_string(ARGS.device)

try:
    import torch
    TORCH_DEVICE = ARGS.device if ARGS.device.startswith('cuda') and torch.cuda.is_available() \
        else None
except ImportError:
    torch = None
    TORCH_DEVICE = None


def seconds(run, sync):
    """Median seconds of run(), each call followed by sync(), repeated for
    --min-time after one warm-up call."""
    run()
    sync()
    times = []
    start = time.perf_counter()
    while not times or time.perf_counter() - start < ARGS.min_time:
        t0 = time.perf_counter()
        run()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def lt_sync():
    DEVICE.synchronize()


def torch_sync():
    torch.cuda.synchronize()


def check(name, got, expected_host, tolerance):
    """got (a device tensor) against a CPU libtensor tensor."""
    back = got.cpu()
    ok = back.allclose(expected_host, tolerance, tolerance)
    if not ok:
        print(f'WRONG: {name} differs from the reference', file=sys.stderr)
    return ok


def main():
    side = int((ARGS.size_mib * 2**20 // 4) ** 0.5)
    nbytes = side * side * 4
    generator = Lt.Generator.new(1)
    host = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [side, side])
    host.uniform_(-1, 1, generator=generator)
    row = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [1, side])
    row.uniform_(-1, 1, generator=generator)
    x = host.to(ARGS.device)
    r = row.to(ARGS.device)
    if TORCH_DEVICE is not None:
        tx = torch.from_numpy(host.numpy()).to(TORCH_DEVICE)
        tr = torch.from_numpy(row.numpy()).to(TORCH_DEVICE)

    # Correctness first, on the device against PyTorch or the CPU.
    ok = True
    ok &= check('permute-copy', x.t().contiguous(), host.t().contiguous(), 0)
    ok &= check('broadcast add', x + r, host + row, 1e-6)
    ok &= check('sum over dim 0', x.sum(0), host.sum(0), 1e-4)
    ok &= check('sum over dim 1', x.sum(1), host.sum(1), 1e-4)

    rows = []

    def measure(name, moved_bytes, lt_run, torch_run):
        lt_s = seconds(lt_run, lt_sync)
        torch_s = seconds(torch_run, torch_sync) if TORCH_DEVICE is not None else None
        rows.append((name, moved_bytes, lt_s, torch_s))

    measure('copy (contiguous clone)', 2 * nbytes, lambda: x.clone(),
            lambda: tx.clone())
    measure('permute-copy (t().contiguous())', 2 * nbytes, lambda: x.t().contiguous(),
            lambda: tx.t().contiguous())
    measure('broadcast add (x + row)', 2 * nbytes, lambda: x + r, lambda: tx + tr)
    measure('sum over dim 0', nbytes, lambda: x.sum(0), lambda: tx.sum(0))
    measure('sum over dim 1', nbytes, lambda: x.sum(1), lambda: tx.sum(1))

    copy_bandwidth = rows[0][1] / rows[0][2]
    print(f'| {ARGS.device}: {DEVICE.get_name()} | bytes moved | libtensor | GB/s | '
          f'% of copy | PyTorch |')
    print('|---|---|---|---|---|---|')
    for name, moved, lt_s, torch_s in rows:
        bandwidth = moved / lt_s
        torch_text = f'{torch_s * 1e3:.3f} ms' if torch_s is not None else 'n/a'
        print(f'| {name} | {moved / 2**20:.0f} MiB | {lt_s * 1e3:.3f} ms | '
              f'{bandwidth / 1e9:.1f} | {100 * bandwidth / copy_bandwidth:.0f}% | {torch_text} |')

    if ARGS.matmul > 0:
        n = ARGS.matmul
        a_host = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [n, n])
        a_host.uniform_(-1, 1, generator=generator)
        a = a_host.to(ARGS.device)
        product = a @ a
        if TORCH_DEVICE is not None:
            ta = torch.from_numpy(a_host.numpy()).to(TORCH_DEVICE)
            expected = Lt.Tensor.new_from_data(
                Lt.DType.FLOAT32, (ta @ ta).cpu().flatten().tolist(), [n, n]) \
                if n <= 1024 else None
        else:
            expected = a_host @ a_host if n <= 1024 else None
        if expected is not None:
            ok &= check('matmul', product, expected, 1e-3)
        lt_s = seconds(lambda: a @ a, lt_sync)
        torch_s = seconds(lambda: ta @ ta, torch_sync) if TORCH_DEVICE is not None else None
        flops = 2 * n**3
        torch_text = (f'{torch_s * 1e3:.2f} ms ({flops / torch_s / 1e12:.1f} TFLOP/s), '
                      f'libtensor at {100 * torch_s / lt_s:.0f}%') \
            if torch_s is not None else 'n/a'
        print(f'| matmul float32 {n}^3 | | {lt_s * 1e3:.2f} ms | '
              f'{flops / lt_s / 1e12:.2f} TFLOP/s | | {torch_text} |')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
