#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tensors exchanged with PyTorch through DLPack, both ways, on one device.

PyTorch's tensors come in as views at every offset (a 4-byte float at an
address that is not 16-byte aligned, a float64 slice viewed as complex128
at 8-byte alignment), libtensor computes on them (copies, transposing
copies, broadcast adds, sums, complex views), and the results go back to
PyTorch, where they must equal PyTorch's own. On a GPU, a kernel that
assumes more alignment than DLPack promises faults here.

It calls libtensor through ctypes (tests/lt_ctypes.py), so that it runs in
any Python that has PyTorch: in the test suite on the CPU (`--device cpu`),
and on a GPU machine's own Python through build-aux/gpu-check.sh
(`--device cuda:0`). TAP output; skips where PyTorch lacks the device.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lt_ctypes  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
parser.add_argument('--device', default='cuda:0')
ARGS = parser.parse_args()

try:
    import torch
    import torch.utils.dlpack
except ImportError:
    print('1..0 # SKIP PyTorch is not installed')
    sys.exit(0)

if ARGS.device.startswith('cuda') and not torch.cuda.is_available():
    print('1..0 # SKIP PyTorch has no CUDA device')
    sys.exit(0)
available, why = lt_ctypes.Device(ARGS.device).is_available()
if not available:
    print(f'1..0 # SKIP {why}')
    sys.exit(0)

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
          torch.int32, torch.int16, torch.uint8, torch.int8, torch.bool, torch.complex64,
          torch.complex128]
failures = []
count = 0


def report(name, ok, detail=''):
    global count
    count += 1
    print(f'{"ok" if ok else "not ok"} {count} - {name}{" # " + detail if detail else ""}')
    if not ok:
        failures.append(name)


def count_skip(why):
    global count
    count += 1
    print(f'ok {count} # SKIP {why}')


def source(dtype, n):
    """n values of dtype on the device, not all equal, small enough that
    sums are exact in every dtype."""
    values = torch.arange(n, device=ARGS.device) % 7 - 3
    if dtype == torch.bool:
        return values > 0
    if dtype.is_complex:
        return torch.complex(values.double(), (values * 2 % 5).double()).to(dtype)
    if dtype == torch.uint8:
        return (values + 3).to(dtype)
    return values.to(dtype)


def same(got, expected):
    """got (a libtensor tensor) equal to expected (PyTorch's)."""
    back = torch.from_dlpack(got)
    if back.device != expected.device:
        return False, f'on {back.device}, not {expected.device}'
    if back.shape != expected.shape:
        return False, f'sizes {tuple(back.shape)}, not {tuple(expected.shape)}'
    if not torch.equal(back.to(expected.dtype), expected):
        return False, 'values differ'
    return True, ''


def views(base):
    """Views of base: (name, tensor) at offsets of one element and more."""
    flat = base.flatten()
    grid = flat[:35].reshape(5, 7)
    yield 'flat[1:]', flat[1:]
    yield 'flat[3:30]', flat[3:30]
    yield 'grid', grid
    yield 'grid[:, 1:]', grid[:, 1:]
    yield 'grid[1:].t()', grid[1:].t()
    yield 'grid[::2, 1::3]', grid[::2, 1::3]


def check_import(dtype):
    base = source(dtype, 40)
    try:
        torch.utils.dlpack.to_dlpack(base)
    except RuntimeError as error:
        count_skip(f'{dtype}: PyTorch {torch.__version__} cannot export it ({error})')
        return
    for name, view in views(base):
        label = f'{dtype} {name}'
        try:
            imported = lt_ctypes.Tensor.from_dlpack(view)
        except lt_ctypes.LtError as error:
            report(f'{label}: import', False, str(error))
            continue
        report(f'{label}: import reads PyTorch\'s values', *same(imported, view))
        report(f'{label}: clone()', *same(imported.clone(), view.clone()))
        if view.dim() == 2:
            report(f'{label}: t().contiguous()',
                   *same(imported.t().contiguous(), view.t().contiguous()))
        if dtype != torch.bool:
            report(f'{label}: x + x', *same(imported + imported, view + view))
            if not dtype.is_complex or dtype == torch.complex128:
                report(f'{label}: sum over dim 0',
                       *same(imported.sum(0), view.sum(0)))


def check_complex_views():
    """A real import viewed as complex at the real dtype's alignment, which
    is less than the complex dtype's on a GPU (float2, double2 loads)."""
    for real, complex_ in ((torch.float32, torch.complex64),
                           (torch.float64, torch.complex128)):
        base = source(real, 42)
        view = base[1:41].reshape(20, 2)
        try:
            as_complex = lt_ctypes.Tensor.from_dlpack(view).view_as_complex()
        except lt_ctypes.LtError as error:
            report(f'{real} flat[1:41] as complex', False, str(error))
            continue
        expected = torch.complex(view[:, 0], view[:, 1])
        report(f'{real} flat[1:41] viewed as {complex_}: clone()',
               *same(as_complex.clone(), expected))
        report(f'{real} flat[1:41] viewed as {complex_}: x + x',
               *same(as_complex + as_complex, expected + expected))
        report(f'{real} flat[1:41] viewed as {complex_}: view_as_real().clone()',
               *same(as_complex.view_as_real().clone(), view))


def check_export():
    """libtensor's views handed to PyTorch: the same elements, no copy."""
    base = source(torch.float32, 35).reshape(5, 7)
    ours = lt_ctypes.Tensor.from_dlpack(base).clone()
    for expression, expected in (('[1:, ::2]', base[1:, ::2]), ('[:, 3]', base[:, 3]),
                                 ('[2]', base[2])):
        report(f'export of {expression}', *same(ours.index(expression), expected))
    shared = torch.from_dlpack(ours)
    shared[0, 0] = 100
    report('an export shares memory', *same(ours.index('[0, 0]').clone(),
                                            torch.tensor(100.0, device=ARGS.device)))


for dtype in DTYPES:
    check_import(dtype)
check_complex_views()
check_export()
if ARGS.device.startswith('cuda'):
    torch.cuda.synchronize()
print(f'1..{count}')
if failures:
    print(f'# {len(failures)} of {count} failed', file=sys.stderr)
sys.exit(1 if failures else 0)
