#!/usr/bin/env python3
# test-torch-chains.py: seeded random chains of view ops, compared with PyTorch
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Each chain starts from the same arange-filled tensor in PyTorch and in
# libtensor and applies the same random view ops to both. After every step the
# sizes, strides, storage offset, contiguity, storage size, values and storage
# sharing must agree, and when PyTorch refuses an op libtensor must refuse it
# too (with a GLib.Error in the Lt domain), and the other way round.
#
# The one deliberate difference, negative strides, is tested against
# torch.flip: libtensor's flip() and negative-step slices are views whose
# values must equal PyTorch's copies.
#
# Only the bare typelib is used (no gi.overrides.Lt), so this pins down the C
# semantics. Run with LT_CHAINS=N to change the number of chains and
# LT_SEED=S to replay one chain.

import math
import os
import random
import sys
import warnings

import gi

import gi.overrides
gi.overrides.__path__ = [directory for directory in gi.overrides.__path__
                         if not os.path.exists(os.path.join(directory, 'Lt.py'))]

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

import torch  # noqa: E402

warnings.filterwarnings('ignore')

INT64_MAX = 2 ** 63 - 1

DTYPES = [
    (torch.float32, Lt.DType.FLOAT32),
    (torch.float64, Lt.DType.FLOAT64),
    (torch.int64, Lt.DType.INT64),
    (torch.int32, Lt.DType.INT32),
    (torch.int16, Lt.DType.INT16),
    (torch.uint8, Lt.DType.UINT8),
    (torch.float16, Lt.DType.FLOAT16),
    (torch.complex64, Lt.DType.COMPLEX64),
    (torch.complex128, Lt.DType.COMPLEX128),
]


class Mismatch(Exception):
    pass


class Refused(Exception):
    """Both sides refused the op: the chain goes on with the previous tensor."""


def torch_values(t):
    if t.is_complex():
        return torch.view_as_real(t.detach().clone().resolve_conj()).flatten().double().tolist()
    return t.detach().flatten().double().tolist()


def same_value(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def compare(t, lt, base_t, base_lt, step):
    sizes = list(lt.get_sizes())
    strides = list(lt.get_strides())
    if sizes != list(t.shape):
        raise Mismatch('%s: sizes %s, torch %s' % (step, sizes, list(t.shape)))
    # PyTorch's strides of dims of size 1 or of empty tensors are arbitrary
    # in places (they come from the formula, not from memory), but they are
    # defined, and libtensor follows the same formulas, so compare them all.
    if strides != list(t.stride()):
        raise Mismatch('%s: strides %s, torch %s' % (step, strides, list(t.stride())))
    if lt.get_storage_offset() != t.storage_offset():
        raise Mismatch('%s: offset %d, torch %d' % (step, lt.get_storage_offset(),
                                                    t.storage_offset()))
    if lt.is_contiguous() != t.is_contiguous():
        raise Mismatch('%s: is_contiguous %s, torch %s' % (step, lt.is_contiguous(),
                                                           t.is_contiguous()))
    if lt.get_storage().get_n_elements() != t.storage().size():
        raise Mismatch('%s: storage of %d elements, torch %d' % (
            step, lt.get_storage().get_n_elements(), t.storage().size()))
    ours = list(lt.to_doubles() or [])
    theirs = torch_values(t)
    if len(ours) != len(theirs) or not all(map(same_value, ours, theirs)):
        raise Mismatch('%s: values %s, torch %s' % (step, ours[:20], theirs[:20]))
    # Empty torch storages all have the null data pointer: nothing to compare.
    shares_torch = t.storage().data_ptr() == base_t.storage().data_ptr()
    if t.storage().data_ptr() != 0 and lt.shares_storage(base_lt) != shares_torch:
        raise Mismatch('%s: shares storage %s, torch %s' % (step, lt.shares_storage(base_lt),
                                                            shares_torch))


def run_both(step, torch_op, lt_op):
    torch_error = lt_error = None
    try:
        t = torch_op()
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        torch_error = e
    try:
        lt = lt_op()
    except GLib.Error as e:
        if e.domain != 'lt-error-quark' or not e.message:
            raise Mismatch('%s: error outside the Lt domain or without a message: %s'
                           % (step, e))
        lt_error = e
    if torch_error and lt_error:
        raise Refused()
    if torch_error:
        raise Mismatch('%s: torch refuses (%s) but libtensor accepts' % (step, torch_error))
    if lt_error:
        raise Mismatch('%s: libtensor refuses (%s) but torch accepts' % (step, lt_error.message))
    return t, lt


def some_dim(rng, ndim):
    # Mostly valid dims, sometimes one just out of range on either side.
    span = max(ndim, 1)
    return rng.randint(-span - 1, span)


def factor_shape(rng, numel):
    """A random shape with @numel elements, sometimes with a -1 or wrong."""
    shape = []
    rest = numel
    for _ in range(rng.randint(0, 3)):
        divisors = [d for d in range(1, 7) if rest % d == 0] if rest else [0, 1, 2]
        d = rng.choice(divisors)
        shape.append(d)
        rest = rest // d if d else rest
    shape.append(rest)
    rng.shuffle(shape)
    r = rng.random()
    if r < 0.3 and shape:
        shape[rng.randrange(len(shape))] = -1
    elif r < 0.4:
        shape.append(rng.choice([2, 3]))
    elif r < 0.45 and shape:
        shape[rng.randrange(len(shape))] = -2
    return shape


def random_index(rng, ndim, sizes):
    """A basic index as an expression for libtensor and a key for torch."""
    items = []
    keys = []
    used_ellipsis = False
    for _ in range(rng.randint(0, ndim + 1)):
        kind = rng.random()
        if kind < 0.3:
            i = rng.randint(-4, 4)
            items.append(str(i))
            keys.append(i)
        elif kind < 0.75:
            start = rng.choice([None, rng.randint(-5, 5)])
            stop = rng.choice([None, rng.randint(-5, 5)])
            step = rng.choice([None, 1, 2, 3])
            text = '%s:%s' % ('' if start is None else start, '' if stop is None else stop)
            if step is not None:
                text += ':%d' % step
            items.append(text)
            keys.append(slice(start, stop, step))
        elif kind < 0.9:
            items.append('None')
            keys.append(None)
        elif not used_ellipsis:
            used_ellipsis = True
            items.append('...')
            keys.append(Ellipsis)
    return '[' + ', '.join(items) + ']', tuple(keys)


def op_select(rng, t, lt):
    dim = some_dim(rng, t.dim())
    size = t.shape[dim] if -t.dim() <= dim < t.dim() else 3
    index = rng.randint(-size - 1, size)
    return ('select(%d, %d)' % (dim, index), lambda: t.select(dim, index),
            lambda: lt.select(dim, index))


def op_slice(rng, t, lt):
    dim = some_dim(rng, t.dim())
    start = rng.choice([None, rng.randint(-6, 6)])
    stop = rng.choice([None, rng.randint(-6, 6), 100])
    step = rng.choice([1, 1, 2, 3, 5])

    def with_torch():
        key = [slice(None)] * (dim % t.dim() if t.dim() else 0) + [slice(start, stop, step)]
        if not -t.dim() <= dim < t.dim():
            raise IndexError('dim out of range')
        return t[tuple(key)]
    return ('slice(%d, %s, %s, %d)' % (dim, start, stop, step), with_torch,
            lambda: lt.slice(dim, 0 if start is None else start,
                             INT64_MAX if stop is None else stop, step))


def op_narrow(rng, t, lt):
    dim = some_dim(rng, t.dim())
    start = rng.randint(-4, 4)
    length = rng.randint(-1, 4)
    return ('narrow(%d, %d, %d)' % (dim, start, length), lambda: t.narrow(dim, start, length),
            lambda: lt.narrow(dim, start, length))


def op_index(rng, t, lt):
    expression, key = random_index(rng, t.dim(), list(t.shape))
    return ('index(%s)' % expression, lambda: t[key], lambda: lt.index(expression))


def op_unsqueeze(rng, t, lt):
    dim = rng.randint(-t.dim() - 2, t.dim() + 1)
    return ('unsqueeze(%d)' % dim, lambda: t.unsqueeze(dim), lambda: lt.unsqueeze(dim))


def op_squeeze(rng, t, lt):
    if rng.random() < 0.5:
        return ('squeeze()', lambda: t.squeeze(), lambda: lt.squeeze())
    dim = some_dim(rng, t.dim())
    return ('squeeze(%d)' % dim, lambda: t.squeeze(dim), lambda: lt.squeeze_dim(dim))


def op_transpose(rng, t, lt):
    if rng.random() < 0.3:
        return ('t()', lambda: t.t(), lambda: lt.t())
    d0, d1 = some_dim(rng, t.dim()), some_dim(rng, t.dim())
    return ('transpose(%d, %d)' % (d0, d1), lambda: t.transpose(d0, d1),
            lambda: lt.transpose(d0, d1))


def op_permute(rng, t, lt):
    dims = list(range(t.dim()))
    rng.shuffle(dims)
    dims = [d - t.dim() if rng.random() < 0.3 else d for d in dims]
    r = rng.random()
    if r < 0.1 and dims:
        dims[0] = dims[-1]
    elif r < 0.15:
        dims.append(0)
    return ('permute(%s)' % dims, lambda: t.permute(dims), lambda: lt.permute(dims))


def op_movedim(rng, t, lt):
    n = rng.randint(0, max(t.dim(), 1))
    source = [some_dim(rng, t.dim()) for _ in range(n)]
    destination = [some_dim(rng, t.dim()) for _ in range(n)]
    if rng.random() < 0.1:
        destination.append(0)
    return ('movedim(%s, %s)' % (source, destination),
            lambda: torch.movedim(t, source, destination),
            lambda: lt.movedim(source, destination))


def op_view(rng, t, lt):
    shape = factor_shape(rng, t.numel())
    return ('view(%s)' % shape, lambda: t.view(shape), lambda: lt.view(shape))


def op_reshape(rng, t, lt):
    shape = factor_shape(rng, t.numel())
    return ('reshape(%s)' % shape, lambda: t.reshape(shape), lambda: lt.reshape(shape))


def op_flatten(rng, t, lt):
    start, end = some_dim(rng, t.dim()), some_dim(rng, t.dim())
    return ('flatten(%d, %d)' % (start, end), lambda: t.flatten(start, end),
            lambda: lt.flatten(start, end))


def op_unflatten(rng, t, lt):
    dim = some_dim(rng, t.dim())
    size = t.shape[dim] if -t.dim() <= dim < t.dim() else 4
    sizes = factor_shape(rng, size)
    return ('unflatten(%d, %s)' % (dim, sizes), lambda: t.unflatten(dim, sizes),
            lambda: lt.unflatten(dim, sizes))


def op_expand(rng, t, lt):
    sizes = []
    for size in t.shape:
        r = rng.random()
        if r < 0.3:
            sizes.append(-1)
        elif r < 0.6 and size == 1:
            sizes.append(rng.randint(0, 4))
        elif r < 0.65:
            sizes.append(rng.randint(0, 4))
        else:
            sizes.append(size)
    for _ in range(rng.randint(0, 2)):
        sizes.insert(0, rng.choice([1, 2, 3, -1]) if rng.random() < 0.2 else rng.randint(1, 3))
    if rng.random() < 0.5:
        return ('expand(%s)' % sizes, lambda: t.expand(sizes), lambda: lt.expand(sizes))
    return ('broadcast_to(%s)' % sizes, lambda: t.broadcast_to(sizes),
            lambda: lt.broadcast_to(sizes))


def op_as_strided(rng, t, lt):
    n_storage = t.storage().size()
    ndim = rng.randint(0, 3)
    sizes = [rng.randint(0, 4) for _ in range(ndim)]
    strides = [rng.randint(0, 5) for _ in range(ndim)]
    offset = rng.randint(0, n_storage + 1)
    if rng.random() < 0.1:
        offset = -1
    return ('as_strided(%s, %s, %d)' % (sizes, strides, offset),
            lambda: t.as_strided(sizes, strides, offset),
            lambda: lt.as_strided(sizes, strides, offset))


def op_diagonal(rng, t, lt):
    offset = rng.randint(-4, 4)
    d1, d2 = some_dim(rng, t.dim()), some_dim(rng, t.dim())
    return ('diagonal(%d, %d, %d)' % (offset, d1, d2), lambda: t.diagonal(offset, d1, d2),
            lambda: lt.diagonal(offset, d1, d2))


def op_unfold(rng, t, lt):
    dim = some_dim(rng, t.dim())
    size = rng.randint(0, 4)
    step = rng.randint(0, 3)
    return ('unfold(%d, %d, %d)' % (dim, size, step), lambda: t.unfold(dim, size, step),
            lambda: lt.unfold(dim, size, step))


def op_split(rng, t, lt):
    dim = some_dim(rng, t.dim())
    which = rng.random()
    r = rng.random()
    if r < 0.4:
        size = rng.randint(-1, 4)
        name = 'split(%d, %d)' % (size, dim)
        torch_op, lt_op = (lambda: t.split(size, dim)), (lambda: lt.split(size, dim))
    elif r < 0.6:
        length = t.shape[dim] if -t.dim() <= dim < t.dim() else 3
        sizes = []
        while sum(sizes) < length:
            sizes.append(rng.randint(0, length - sum(sizes)))
        if rng.random() < 0.2:
            sizes.append(1)
        name = 'split_with_sizes(%s, %d)' % (sizes, dim)
        torch_op = lambda: t.split_with_sizes(sizes, dim)  # noqa: E731
        lt_op = lambda: lt.split_with_sizes(sizes, dim)  # noqa: E731
    elif r < 0.8:
        chunks = rng.randint(0, 4)
        name = 'chunk(%d, %d)' % (chunks, dim)
        torch_op, lt_op = (lambda: t.chunk(chunks, dim)), (lambda: lt.chunk(chunks, dim))
    else:
        name = 'unbind(%d)' % dim
        torch_op, lt_op = (lambda: t.unbind(dim)), (lambda: lt.unbind(dim))

    def choose(pieces):
        pieces = list(pieces)
        if len(pieces) == 0:
            return None
        return pieces[min(int(which * len(pieces)), len(pieces) - 1)]

    state = {}

    def torch_side():
        pieces = list(torch_op())
        state['n'] = len(pieces)
        return choose(pieces)

    def lt_side():
        pieces = list(lt_op())
        if 'n' in state and len(pieces) != state['n']:
            raise Mismatch('%s: %d pieces, torch %d' % (name, len(pieces), state['n']))
        return choose(pieces)
    return name, torch_side, lt_side


def op_copy(rng, t, lt):
    if rng.random() < 0.5:
        return 'contiguous()', lambda: t.contiguous(), lambda: lt.contiguous()
    return 'clone()', lambda: t.clone(), lambda: lt.clone()


def op_complex_views(rng, t, lt):
    if t.is_complex():
        return 'view_as_real()', lambda: torch.view_as_real(t), lambda: lt.view_as_real()
    if t.dtype == torch.float16:
        # PyTorch makes a complex32 tensor, a dtype libtensor does not have.
        raise Refused()
    return 'view_as_complex()', lambda: torch.view_as_complex(t), lambda: lt.view_as_complex()


OPS = [op_select, op_slice, op_narrow, op_index, op_index, op_unsqueeze, op_squeeze,
       op_transpose, op_permute, op_movedim, op_view, op_view, op_reshape, op_flatten,
       op_unflatten, op_expand, op_as_strided, op_diagonal, op_unfold, op_split, op_copy,
       op_complex_views]


def new_base(rng):
    torch_dtype, lt_dtype = rng.choice(DTYPES)
    ndim = rng.choice([0, 1, 1, 2, 2, 3, 3, 4])
    shape = [rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5]) if rng.random() < 0.9 else 0
             for _ in range(ndim)]
    numel = math.prod(shape)
    values = [float(i) for i in range(numel)]
    t = torch.tensor(values, dtype=torch.float64).to(torch_dtype).reshape(shape)
    lt = Lt.Tensor.new_from_data(lt_dtype, values, shape)
    return t, lt


STATS = {'compared': 0, 'refused': 0}


def run_chain(seed):
    rng = random.Random(seed)
    t, lt = new_base(rng)
    base_t, base_lt = t, lt
    steps = ['base %s %s' % (list(t.shape), t.dtype)]
    compare(t, lt, base_t, base_lt, steps[0])
    for _ in range(rng.randint(1, 7)):
        op = rng.choice(OPS)
        try:
            name, torch_op, lt_op = op(rng, t, lt)
            steps.append(name)
            t, lt = run_both(' -> '.join(steps), torch_op, lt_op)
        except Refused:
            STATS['refused'] += 1
            continue
        if t is None or lt is None:
            if (t is None) != (lt is None):
                raise Mismatch('%s: one side has no pieces' % ' -> '.join(steps))
            t, lt = base_t, base_lt
            continue
        compare(t, lt, base_t, base_lt, ' -> '.join(steps))
        STATS['compared'] += 1
    return steps


def check_negative_strides(rng):
    """flip() and negative steps are views whose values equal torch's copies."""
    t, lt = new_base(rng)
    if t.dim() == 0:
        return
    dims = rng.sample(range(t.dim()), rng.randint(1, t.dim()))
    flipped = lt.flip(dims)
    expected = torch.flip(t, dims)
    if list(flipped.get_sizes()) != list(expected.shape):
        raise Mismatch('flip(%s): sizes' % dims)
    if flipped.to_doubles() and list(flipped.to_doubles()) != torch_values(expected):
        raise Mismatch('flip(%s): values' % dims)
    if not flipped.shares_storage(lt):
        raise Mismatch('flip(%s) copied' % dims)
    for d in dims:
        if t.shape[d] > 0 and flipped.get_strides()[d] != -t.stride()[d]:
            raise Mismatch('flip(%s): stride of dim %d' % (dims, d))
    if list(flipped.contiguous().to_doubles() or []) != torch_values(expected):
        raise Mismatch('flip(%s).contiguous(): values' % dims)

    dim = rng.randrange(t.dim())
    step = rng.choice([1, 2, 3])
    backwards = lt.slice(dim, INT64_MAX, -INT64_MAX - 1, -step)
    key = [slice(None)] * dim + [slice(None, None, step)]
    expected = torch.flip(t, [dim])[tuple(key)]
    if list(backwards.get_sizes()) != list(expected.shape):
        raise Mismatch('slice(%d, ::-%d): sizes' % (dim, step))
    if list(backwards.to_doubles() or []) != torch_values(expected):
        raise Mismatch('slice(%d, ::-%d): values' % (dim, step))


def check_seed_examples():
    """The view rule's edges named in the issue, against torch."""
    cases = [
        (lambda m: m.arange(24).view(2, 3, 4).transpose(0, 1).view(3, 2, 2, 2)),
        (lambda m: m.arange(48).view(2, 6, 4)[:, :3].view(2, 12)),
        (lambda m: m.empty(0, 3).view(3, 0)),
    ]
    expected_strides = [[4, 12, 2, 1], [24, 1], [1, 1]]
    lt_results = [
        Lt.Tensor.new_arange(0, 24, 1, Lt.DType.INT64).view([2, 3, 4]).transpose(0, 1)
        .view([3, 2, 2, 2]),
        Lt.Tensor.new_arange(0, 48, 1, Lt.DType.INT64).view([2, 6, 4]).index('[:, :3]')
        .view([2, 12]),
        Lt.Tensor.new_empty(Lt.DType.FLOAT32, [0, 3]).view([3, 0]),
    ]
    for case, strides, lt in zip(cases, expected_strides, lt_results):
        t = case(torch)
        if list(t.stride()) != strides or list(lt.get_strides()) != strides:
            raise Mismatch('seed example: torch %s, libtensor %s, expected %s'
                           % (list(t.stride()), list(lt.get_strides()), strides))
    for lt_op in (lambda: Lt.Tensor.new_arange(0, 24, 1, Lt.DType.INT64).view([2, 3, 4])
                  .transpose(0, 1).view([3, 8]),
                  lambda: Lt.Tensor.new_arange(0, 48, 1, Lt.DType.INT64).view([2, 6, 4])
                  .index('[:, :3]').view([6, 4])):
        try:
            lt_op()
        except GLib.Error as e:
            if not e.matches(Lt.error_quark(), Lt.Error.NOT_VIEWABLE):
                raise Mismatch('seed example refused with the wrong code: %s' % e.message)
        else:
            raise Mismatch('seed example: view should have failed')


def main():
    n_chains = int(os.environ.get('LT_CHAINS', '4000'))
    seeds = [int(os.environ['LT_SEED'])] if 'LT_SEED' in os.environ else range(n_chains)
    check_seed_examples()
    n_steps = 0
    for seed in seeds:
        try:
            n_steps += len(run_chain(seed)) - 1
            check_negative_strides(random.Random(seed + 1000003))
        except Mismatch as e:
            print('chain %d failed (replay with LT_SEED=%d): %s' % (seed, seed, e))
            return 1
    print('%d chains, %d steps (%d compared, %d refused by both): libtensor agrees with '
          'torch %s' % (len(seeds), n_steps, STATS['compared'], STATS['refused'],
                        torch.__version__))
    return 0


if __name__ == '__main__':
    sys.exit(main())
