#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""How long the first use of an OpenCL device takes, cold and warm.

The first time a process uses a kernel family on an OpenCL device, the
backend builds that family's program; the driver compiles it, or takes it
from its on-disk cache (PoCL: $POCL_CACHE_DIR, else ~/.cache/pocl). This
measures, for one operation of each family, the first call in a fresh
process with an empty cache (cold: what a new user meets) and with the cache
that the cold run left (warm), and the same call again in that process
(steady state). Each measurement is a process of its own; the device is
opened and a tensor moved to it before the clock starts, and that setup is
timed on its own.

Run it through the build's environment:

    meson devenv -C _build /usr/bin/python3 ../bench/bench-opencl-first-call.py

It prints a Markdown table for bench/RESULTS.md. --repeat N takes the
median of N runs of each (3 by default). A second table gives, for the
rent-or-buy rule of lt-opencl-blas.c, what a float32 n x n x n product
costs once everything is built, through the element kernel and through
CLBlast (--products 128,256,512,1024; an empty list skips it).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# Each family's first operation, on a float32 tensor d of 256 x 256 on the
# device; the last row runs with the environment it names.
FAMILIES = [
    ('copy', 'contiguous copy of d.t()', lambda Lt, d: d.t().contiguous(), {}),
    ('element-wise', 'd * 2 (float32)', lambda Lt, d: d * 2, {}),
    ('element-wise, another dtype', 'i + 1 (int32)', None, {}),
    ('reduction', 'd.sum(0)', lambda Lt, d: d.sum(0), {}),
    ('matmul', 'd @ d', lambda Lt, d: d @ d, {}),
    ('random', 'd.uniform_(0, 1)', lambda Lt, d: d.uniform_(0, 1), {}),
    ('matmul, CLBlast at once', 'd @ d, LT_OPENCL_CLBLAST=always', lambda Lt, d: d @ d,
     {'LT_OPENCL_CLBLAST': 'always'}),
]


def child(family, device_name):
    import gi
    gi.require_version('Lt', '1.0')
    from gi.repository import Lt

    start = time.perf_counter()
    device = Lt.Device.new_from_string(device_name)
    d = Lt.rand(256, 256).to(device_name)
    i = Lt.randint(0, 9, (256, 256), dtype=Lt.DType.INT32).to(device_name) if family == 'element-wise, another dtype' else None
    device.synchronize()
    setup = time.perf_counter() - start

    if family == 'element-wise, another dtype':
        def run():
            return i + 1
    else:
        op = dict((f[0], f[2]) for f in FAMILIES)[family]

        def run():
            return op(Lt, d)

    start = time.perf_counter()
    run()
    device.synchronize()
    first = time.perf_counter() - start

    start = time.perf_counter()
    run()
    device.synchronize()
    again = time.perf_counter() - start
    print(json.dumps({'setup': setup, 'first': first, 'again': again}))


def product_child(device_name, sizes):
    import gi
    gi.require_version('Lt', '1.0')
    from gi.repository import Lt

    device = Lt.Device.new_from_string(device_name)
    times = {}
    for n in sizes:
        a = Lt.rand(n, n).to(device_name)
        b = Lt.rand(n, n).to(device_name)
        a @ b
        device.synchronize()
        best = None
        for _ in range(3):
            start = time.perf_counter()
            a @ b
            device.synchronize()
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        times[n] = best
    print(json.dumps(times))


def measure_products(device_name, sizes, setting):
    env = dict(os.environ)
    env['LT_OPENCL_CLBLAST'] = setting
    out = subprocess.run([sys.executable, __file__, '--product-child', ','.join(map(str, sizes)),
                          '--device', device_name],
                         env=env, check=True, capture_output=True, text=True).stdout
    return {int(k): v for k, v in json.loads(out.strip().splitlines()[-1]).items()}


def measure(family, device_name, cache_dir):
    env = dict(os.environ)
    env.update(dict((f[0], f[3]) for f in FAMILIES)[family])
    env['POCL_CACHE_DIR'] = cache_dir
    env['XDG_CACHE_HOME'] = cache_dir
    out = subprocess.run([sys.executable, __file__, '--child', family, '--device', device_name],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--device', default='opencl:0')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--products', default='128,256,512,1024')
    parser.add_argument('--child', help=argparse.SUPPRESS)
    parser.add_argument('--product-child', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.device)
        return
    if args.product_child:
        product_child(args.device, [int(n) for n in args.product_child.split(',')])
        return

    rows = []
    setups = []
    for family, what, _, _ in FAMILIES:
        cold, warm, again = [], [], []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix='lt-first-call-') as cache:
                c = measure(family, args.device, cache)
                w = measure(family, args.device, cache)
            cold.append(c['first'])
            warm.append(w['first'])
            again.append(w['again'])
            setups.append((c['setup'], w['setup']))
        rows.append((family, what, statistics.median(cold), statistics.median(warm),
                     statistics.median(again)))
        print(f'{family}: cold {rows[-1][2]:.3f} s, warm {rows[-1][3]:.3f} s',
              file=sys.stderr)

    print(f'First call of one operation per kernel family on {args.device}, '
          f'median of {args.repeat} fresh processes each:\n')
    print('| family | operation | cold cache | warm cache | second call |')
    print('| --- | --- | ---: | ---: | ---: |')
    for family, what, cold, warm, again in rows:
        print(f'| {family} | `{what}` | {cold * 1000:.0f} ms | {warm * 1000:.1f} ms '
              f'| {again * 1000:.2f} ms |')
    print(f'\nOpening the device and moving a 256 x 256 float32 tensor to it (the setup '
          f'before each timing): '
          f'cold {statistics.median(s[0] for s in setups) * 1000:.0f} ms, '
          f'warm {statistics.median(s[1] for s in setups) * 1000:.0f} ms.')

    sizes = [int(n) for n in args.products.split(',') if n]
    if sizes:
        own = measure_products(args.device, sizes, 'never')
        blas = measure_products(args.device, sizes, 'always')
        print(f'\nA float32 n x n x n product on {args.device} once built (best of 3):\n')
        print('| n | multiply-adds | element kernel | CLBlast | ratio |')
        print('| ---: | ---: | ---: | ---: | ---: |')
        for n in sizes:
            print(f'| {n} | {n ** 3:.3g} | {own[n] * 1000:.1f} ms | {blas[n] * 1000:.1f} ms '
                  f'| {own[n] / blas[n]:.1f}x |')


if __name__ == '__main__':
    main()
