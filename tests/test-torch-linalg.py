#!/usr/bin/env python3
# test-torch-linalg.py: matrix products and einsum, differentially against PyTorch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Seeded random cases run side by side on PyTorch tensors and Lt.Tensors that
# hold the same values in the same strided layout: permuted, sliced with
# steps, offset, expanded (stride 0) and flipped (negative strides in
# libtensor, a copy in PyTorch, which has the same values). Each case
# compares the result's dtype, sizes and values (float32 within 1e-5 * k of
# the operands' scale, float64 within 1e-12 * k, bfloat16 within 1e-2, the
# rest exactly), or that both refuse (a GLib.Error in the Lt domain with a
# message on libtensor's side).
#
# Cases: dot, mv, mm, bmm, outer, matmul with ranks 1 to 4 on each side and
# broadcast batch dims, over every dtype (float16 and bool refused by both);
# shape and dtype mismatches; einsum with random equations (repeated
# letters, letters summed in one operand, ellipses, size-1 broadcasting,
# implicit outputs) over float32, float64, complex128 and int64.
#
# Deliberate differences, left out of the comparison:
#  - PyTorch returns products with an empty operand before it checks dtypes,
#    so it accepts float16, bool and mixed dtypes there; libtensor refuses
#    them whatever the sizes.
#  - torch.dot() of complex vectors returns 0 in this PyTorch build (its
#    BLAS's complex dot); the expected value is (a * b).sum() instead.
#  - outer() with two different dtypes: PyTorch promotes, libtensor refuses
#    (outer() wants one dtype, like the other products).
#  - einsum over integer dtypes narrower than int64 and over float16/bool:
#    PyTorch 1.13 mixes sum() (which widens to int64) and bmm() (which
#    refuses mixed dtypes) depending on the equation; libtensor keeps the
#    operands' dtype and refuses float16 and bool.
#
# Environment: LT_CASES=N runs N cases per kind (default 1500), LT_SEED=S
# replays one case verbosely.

import os
import random
import sys
import time
import traceback

import gi

# Whatever PYTHONPATH says, test the C API, not the Python overrides: PyGObject
# loads no overrides for a namespace whose module is None in sys.modules.
# (Hiding their directory would hide PyGObject's own GLib overrides too where
# libtensor is installed into /usr, beside them.)
sys.modules['gi.overrides.Lt'] = None

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

from lt_test_device import use_test_device  # noqa: E402

# LT_TEST_DEVICE=opencl:0 runs the libtensor side on that device.
use_test_device(GLib, Lt)

import torch  # noqa: E402

TORCH_ERRORS = (RuntimeError, IndexError, ValueError, TypeError)
LT_DOMAIN = 'lt-error-quark'

DTYPES = [
    (torch.float32, Lt.DType.FLOAT32),
    (torch.float64, Lt.DType.FLOAT64),
    (torch.float16, Lt.DType.FLOAT16),
    (torch.bfloat16, Lt.DType.BFLOAT16),
    (torch.int64, Lt.DType.INT64),
    (torch.int32, Lt.DType.INT32),
    (torch.int16, Lt.DType.INT16),
    (torch.int8, Lt.DType.INT8),
    (torch.uint8, Lt.DType.UINT8),
    (torch.bool, Lt.DType.BOOL),
    (torch.complex64, Lt.DType.COMPLEX64),
    (torch.complex128, Lt.DType.COMPLEX128),
]
LT_DTYPE_OF = dict(DTYPES)
TORCH_DTYPE_OF = {lt: t for t, lt in DTYPES}
EINSUM_DTYPES = [torch.float32, torch.float64, torch.complex128, torch.int64]

STATS = {'compared': 0, 'refused': 0}


class Mismatch(Exception):
    pass


# Operands -------------------------------------------------------------------

def random_values(rng, shape, dtype):
    gen = torch.Generator().manual_seed(rng.randrange(2 ** 31))
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    if dtype in (torch.bfloat16, torch.float16):
        return torch.randint(-3, 4, shape, generator=gen).to(dtype)
    if dtype.is_complex:
        return torch.randn(shape, generator=gen, dtype=dtype)
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen, dtype=torch.float64).to(dtype)
    info = torch.iinfo(dtype)
    if rng.random() < 0.3:
        # Big values, so that the sums wrap around.
        return torch.randint(info.min, info.max, shape, generator=gen, dtype=dtype)
    return torch.randint(max(info.min, -9), 10, shape, generator=gen, dtype=dtype)


def lt_from_torch(t):
    flat = t.contiguous().reshape(-1)
    data = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b''
    return Lt.Tensor.new_from_bytes(LT_DTYPE_OF[t.dtype], GLib.Bytes.new(data), list(t.shape))


def torch_from_lt(lt):
    data = bytearray(lt.to_bytes().get_data() or b'')
    dtype = TORCH_DTYPE_OF[lt.get_dtype()]
    sizes = list(lt.get_sizes())
    if not data:
        return torch.zeros(sizes, dtype=dtype)
    return torch.frombuffer(data, dtype=dtype).reshape(sizes).clone()


def make_pair(rng, shape, dtype, plain=False):
    """The same values as a PyTorch tensor and an Lt.Tensor with a random
    strided layout of the given sizes."""
    nd = len(shape)
    perm = list(range(nd))
    if not plain:
        rng.shuffle(perm)
    expanded = [not plain and shape[d] > 1 and rng.random() < 0.15 for d in range(nd)]
    steps = [1 if plain else rng.choice([1, 1, 2, 3]) for d in range(nd)]
    starts = [0 if plain else rng.randrange(2) for d in range(nd)]
    flips = [not plain and shape[d] > 1 and rng.random() < 0.15 for d in range(nd)]
    base_shape = []
    for d in perm:
        size = 1 if expanded[d] else shape[d]
        base_shape.append(starts[d] + max(0, (size - 1) * steps[d] + 1))
    tb = random_values(rng, base_shape, dtype)
    lb = lt_from_torch(tb)
    t, lt = tb, lb
    for i, d in enumerate(perm):
        size = 1 if expanded[d] else shape[d]
        stop = starts[d] + size * steps[d]
        t = t[(slice(None),) * i + (slice(starts[d], stop, steps[d]),)]
        lt = lt.slice(i, starts[d], stop, steps[d])
    inverse = [perm.index(d) for d in range(nd)]
    t = t.permute(inverse)
    lt = lt.permute(inverse)
    if any(expanded):
        t = t.expand(shape)
        lt = lt.expand(shape)
    flip_dims = [d for d in range(nd) if flips[d]]
    if flip_dims:
        t = t.flip(flip_dims)
        lt = lt.flip(flip_dims)
    return t, lt


# Comparison -----------------------------------------------------------------

def run_both(torch_fn, lt_fn, empty=False):
    try:
        expected, expected_error = torch_fn(), None
    except TORCH_ERRORS as e:
        expected, expected_error = None, e
    try:
        actual, actual_error = lt_fn(), None
    except GLib.Error as e:
        if e.domain != LT_DOMAIN or not e.message.strip():
            raise Mismatch('bad error: %s %s' % (e.domain, e.message))
        actual, actual_error = None, e
    if empty and expected_error is None and actual_error is not None:
        # PyTorch returns empty and zero-inner products before it checks dtypes.
        STATS['refused'] += 1
        return None, None
    if (expected_error is None) != (actual_error is None):
        raise Mismatch('PyTorch %s, libtensor %s' % (
            'refused (%s)' % expected_error if expected_error else 'accepted',
            'refused (%s)' % actual_error.message if actual_error else 'accepted'))
    if expected_error:
        STATS['refused'] += 1
        return None, None
    return expected, actual


def compare(what, expected, actual, k, scale):
    got = torch_from_lt(actual)
    if got.dtype != expected.dtype:
        raise Mismatch('%s: dtype %s, expected %s' % (what, got.dtype, expected.dtype))
    if list(got.shape) != list(expected.shape):
        raise Mismatch('%s: sizes %s, expected %s' % (what, list(got.shape),
                                                      list(expected.shape)))
    dtype = expected.dtype
    if dtype.is_floating_point or dtype.is_complex:
        rtol = {torch.float32: 1e-5, torch.complex64: 1e-5, torch.float64: 1e-12,
                torch.complex128: 1e-12}.get(dtype, 1e-2)
        tol = rtol * max(1, k) * max(1.0, scale)
        diff = (got.to(torch.complex128) - expected.to(torch.complex128)).abs()
        if diff.numel() and diff.max().item() > tol:
            raise Mismatch('%s: values differ by %g (tolerance %g):\n%s\nexpected\n%s'
                           % (what, diff.max().item(), tol, got, expected))
    elif not torch.equal(got, expected):
        raise Mismatch('%s: values\n%s\nexpected\n%s' % (what, got, expected))
    STATS['compared'] += 1


def scale_of(*tensors):
    s = 1.0
    for t in tensors:
        if t.numel():
            s *= max(1.0, t.to(torch.complex128).abs().max().item())
    return s


# Cases ----------------------------------------------------------------------

def pick_dtype(rng):
    return rng.choice(DTYPES)[0]


def some_size(rng, big=False):
    if big:
        return rng.randrange(8, 40)
    return rng.choice([0, 1, 1, 2, 3, 4, 5])


def case_products(rng, verbose):
    dtype = pick_dtype(rng)
    other_dtype = dtype if rng.random() > 0.05 else pick_dtype(rng)
    big = rng.random() < 0.2
    m, n, k = (some_size(rng, big) for _ in range(3))
    bad = rng.random() < 0.05
    k2 = k + 1 if bad else k
    b = rng.randrange(1, 4)
    kind = rng.choice(['dot', 'mv', 'mm', 'bmm', 'outer'])
    if kind == 'dot':
        shapes = ([k], [k2])
    elif kind == 'mv':
        shapes = ([m, k], [k2])
    elif kind == 'mm':
        shapes = ([m, k], [k2, n])
    elif kind == 'bmm':
        shapes = ([b, m, k], [b if not bad or rng.random() < 0.5 else b + 1, k2, n])
    else:
        shapes = ([m], [n])
    if kind == 'outer' and other_dtype != dtype:
        other_dtype = dtype
    ta, la = make_pair(rng, shapes[0], dtype)
    tb, lb = make_pair(rng, shapes[1], other_dtype)
    if verbose:
        print(kind, dtype, other_dtype, shapes, la.get_strides(), lb.get_strides())
    torch_fn = getattr(torch, kind)
    if kind == 'dot' and dtype.is_complex:
        # torch.dot() of complex vectors gives 0 with this PyTorch build's BLAS.
        def torch_fn(x, y):
            if x.shape != y.shape or x.dtype != y.dtype:
                return torch.dot(x, y)
            return (x * y).sum()
    empty = ta.numel() == 0 or tb.numel() == 0
    expected, actual = run_both(lambda: torch_fn(ta, tb),
                                lambda: getattr(Lt.Tensor, kind)(la, lb), empty)
    if expected is not None:
        compare(kind, expected, actual, 1 if kind == 'outer' else k, scale_of(ta, tb))


def batch_shapes(rng, n_a, n_b):
    nd = max(n_a, n_b)
    full = [rng.choice([1, 2, 3]) for _ in range(nd)]
    a = [s if rng.random() < 0.7 else 1 for s in full[nd - n_a:]]
    b = [s if rng.random() < 0.7 else 1 for s in full[nd - n_b:]]
    if rng.random() < 0.05 and a and b:
        a[-1] = 4
        b[-1] = 5
    return a, b


def case_matmul(rng, verbose):
    dtype = pick_dtype(rng)
    other_dtype = dtype if rng.random() > 0.05 else pick_dtype(rng)
    ra, rb = rng.randrange(0 if rng.random() < 0.03 else 1, 5), rng.randrange(1, 5)
    big = rng.random() < 0.2
    m, n, k = (some_size(rng, big) for _ in range(3))
    k2 = k if rng.random() > 0.05 else k + 1
    ba, bb = batch_shapes(rng, max(0, ra - 2), max(0, rb - 2))
    sa = [] if ra == 0 else [k] if ra == 1 else ba + [m, k]
    sb = [k2] if rb == 1 else bb + [k2, n]
    ta, la = make_pair(rng, sa, dtype)
    tb, lb = make_pair(rng, sb, other_dtype)
    if verbose:
        print('matmul', dtype, other_dtype, sa, sb, la.get_strides(), lb.get_strides())
    empty = ta.numel() == 0 or tb.numel() == 0
    def torch_fn():
        if ra == 1 and rb == 1 and dtype.is_complex and dtype == other_dtype and k == k2:
            return (ta * tb).sum()  # torch.dot() is wrong for complex here, see above
        return torch.matmul(ta, tb)
    expected, actual = run_both(torch_fn, lambda: la.matmul(lb), empty)
    if expected is not None:
        compare('matmul %s @ %s' % (sa, sb), expected, actual, k, scale_of(ta, tb))


LETTERS = 'abcdeF'


def case_einsum(rng, verbose):
    dtype = rng.choice(EINSUM_DTYPES)
    n_ops = rng.choice([1, 1, 2, 2, 2, 3])
    sizes = {c: rng.choice([1, 2, 3, 4]) for c in LETTERS}
    ell = [rng.choice([1, 2, 3]) for _ in range(rng.randrange(3))]
    used = set()
    terms, tensors, lts = [], [], []
    any_ellipsis = False
    for _ in range(n_ops):
        rank = rng.randrange(0, 4)
        letters = [rng.choice(LETTERS) for _ in range(rank)]
        used.update(letters)
        shape = []
        for c in letters:
            # Size 1 broadcasts against the letter's size elsewhere.
            shape.append(1 if rng.random() < 0.1 else sizes[c])
        # A letter repeated within one operand needs one size.
        for i, c in enumerate(letters):
            for j in range(i):
                if letters[j] == c:
                    shape[i] = shape[j]
        term = ''.join(letters)
        if ell and rng.random() < 0.4:
            n_ell = rng.randrange(len(ell) + 1)
            ell_shape = [s if rng.random() < 0.8 else 1 for s in ell[len(ell) - n_ell:]]
            pos = rng.randrange(len(letters) + 1)
            term = ''.join(letters[:pos]) + '...' + ''.join(letters[pos:])
            shape = shape[:pos] + ell_shape + shape[pos:]
            any_ellipsis = True
        t, lt = make_pair(rng, shape, dtype)
        terms.append(term)
        tensors.append(t)
        lts.append(lt)
    equation = ','.join(terms)
    if rng.random() < 0.7:
        out = [c for c in sorted(used) if rng.random() < 0.5]
        rng.shuffle(out)
        out = ''.join(out)
        if any_ellipsis and rng.random() < 0.8:
            pos = rng.randrange(len(out) + 1)
            out = out[:pos] + '...' + out[pos:]
        equation += '->' + out
    if verbose:
        print('einsum', equation, dtype, [list(t.shape) for t in tensors],
              [lt.get_strides() for lt in lts])
    k = 1
    for c in used:
        k *= sizes[c]
    expected, actual = run_both(lambda: torch.einsum(equation, *tensors),
                                lambda: Lt.einsum(equation, lts))
    if expected is not None:
        compare('einsum %s' % equation, expected, actual, k, scale_of(*tensors))


def check_explicit():
    """Refusals whose error codes are part of the API."""
    a = Lt.Tensor.new_ones(Lt.DType.FLOAT32, [2, 3])
    b = Lt.Tensor.new_ones(Lt.DType.FLOAT32, [4, 5])
    d = Lt.Tensor.new_ones(Lt.DType.FLOAT64, [3, 5])
    for fn, code in [(lambda: Lt.Tensor.mm(a, b), Lt.Error.SHAPE_MISMATCH),
                     (lambda: Lt.Tensor.mm(a, d), Lt.Error.DTYPE),
                     (lambda: Lt.einsum('ij,j?->i', [a, a]), Lt.Error.PARSE)]:
        try:
            fn()
        except GLib.Error as e:
            if e.code != int(code):
                raise Mismatch('error code %d, expected %d: %s' % (e.code, code, e.message))
        else:
            raise Mismatch('accepted a bad call')


def main():
    started = time.monotonic()
    n_cases = int(os.environ.get('LT_CASES', '1500'))
    replay = 'LT_SEED' in os.environ
    seeds = [int(os.environ['LT_SEED'])] if replay else range(n_cases)
    failures = 0
    check_explicit()
    for kind, fn in [('products', case_products), ('matmul', case_matmul),
                     ('einsum', case_einsum)]:
        for seed in seeds:
            rng = random.Random('%s-%d' % (kind, seed))
            try:
                fn(rng, replay)
            except Mismatch as e:
                failures += 1
                print('%s case %d failed (replay with LT_SEED=%d): %s' % (kind, seed, seed, e))
            except Exception:
                failures += 1
                print('%s case %d crashed (replay with LT_SEED=%d):' % (kind, seed, seed))
                traceback.print_exc()
            if failures >= 20:
                print('too many failures; stopping')
                return 1
    print('%d results compared, %d refused by both; PyTorch %s; %.1f s'
          % (STATS['compared'], STATS['refused'], torch.__version__,
             time.monotonic() - started))
    if failures:
        print('%d failures' % failures)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
