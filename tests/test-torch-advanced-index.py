#!/usr/bin/env python3
# test-torch-advanced-index.py: keys holding tensors, read and written,
# differentially against PyTorch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Random keys mixing int64 index tensors (of any shape, some transposed or
# expanded, negative values included), bool masks over one or more dims,
# 0-dim bool and integer tensors, Python bools and lists with ints, slices,
# None and ..., on contiguous, transposed, stepped, expanded and offset
# tensors of several dtypes. Reading t[key] must agree with PyTorch on
# sizes, strides (PyTorch lays an advanced index's result out after the
# strides of the input and the indices), values, dtype, and on sharing the
# input's storage (a copy, unless the key only holds 0-dim integer tensors).
# Writing t[key] = value and index_put_(..., accumulate=True) must leave the
# same values. Where PyTorch refuses, libtensor must refuse too, and raise an
# IndexError where PyTorch raises one. The keys also go to the C API as an
# index expression with named tensors (Lt.Tensor.index_with_tensors()).

import random
import sys
import time
import warnings

import gi

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

import torch  # noqa: E402

N_CASES = 2500
SEED = 18

warnings.filterwarnings('ignore', message='indexing with dtype torch.uint8 is now deprecated')

DTYPES = [('float32', torch.float32, Lt.float32), ('int64', torch.int64, Lt.int64),
          ('bool', torch.bool, Lt.bool), ('complex64', torch.complex64, Lt.complex64)]


class Mismatch(Exception):
    pass


def random_base(rng):
    """A tensor in both libraries: its layout drawn from the shapes a view
    meets. Returns (torch tensor, Lt tensor, writable)."""
    ndim = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    sizes = [rng.choice([0, 1, 2, 3, 3, 4, 5]) if rng.random() < 0.1 else rng.randint(1, 5)
             for _ in range(ndim)]
    _, th_dtype, lt_dtype = rng.choice(DTYPES)
    kind = rng.choice(['contiguous', 'transposed', 'stepped', 'expanded', 'offset'])
    if kind == 'stepped' and ndim:
        big = sizes[:-1] + [sizes[-1] * 2]
    elif kind == 'offset' and ndim:
        big = [sizes[0] + 1] + sizes[1:]
    elif kind == 'transposed' and ndim >= 2:
        big = sizes[::-1]
    elif kind == 'expanded' and ndim:
        big = [1] + sizes[1:]
    else:
        big = sizes
    count = 1
    for size in big:
        count *= size
    values = [rng.randint(-9, 9) for _ in range(count)]
    th = torch.tensor(values).reshape(big).to(th_dtype)
    lt = Lt.tensor(values).reshape(big).to(lt_dtype)
    writable = True
    if kind == 'stepped' and ndim:
        th, lt = th[..., ::2], lt[..., ::2]
    elif kind == 'offset' and ndim:
        th, lt = th[1:], lt[1:]
    elif kind == 'transposed' and ndim >= 2:
        dims = list(range(ndim))[::-1]
        th, lt = th.permute(*dims), lt.permute(*dims)
    elif kind == 'expanded' and ndim:
        th, lt = th.expand(*sizes), lt.expand(*sizes)
        writable = sizes[0] <= 1
    return th, lt, writable


def index_values(rng, size, shape):
    """An int64 index of @shape for a dim of @size: in range, negative
    values included, now and then one out of range."""
    count = 1
    for s in shape:
        count *= s
    if size == 0:
        return [0] * count if rng.random() < 0.3 else None
    values = [rng.randint(-size, size - 1) for _ in range(count)]
    if values and rng.random() < 0.05:
        values[rng.randrange(count)] = rng.choice([size, -size - 1])
    return values


def random_index_tensor(rng, size):
    """(torch index, Lt index) for a dim of @size, or None."""
    shape = [rng.randint(1, 3) for _ in range(rng.choice([0, 1, 1, 1, 2]))]
    if rng.random() < 0.1:
        shape = [0]
    values = index_values(rng, size, shape)
    if values is None:
        return None
    th = torch.tensor(values, dtype=torch.int64).reshape(shape)
    lt = Lt.tensor(values, dtype=Lt.int64).reshape(shape)
    if len(shape) == 2 and rng.random() < 0.4:
        th, lt = th.t(), lt.t()
    elif len(shape) == 1 and shape[0] == 1 and rng.random() < 0.4:
        n = rng.randint(2, 3)
        th, lt = th.expand(n), lt.expand(n)
    if not shape and rng.random() < 0.5:
        return th, lt          # a 0-dim integer tensor: an integer
    return th, lt


def random_key(rng, sizes):
    """A key as two tuples, PyTorch's and libtensor's, over @sizes."""
    th_key, lt_key = [], []
    dim = 0
    used_ellipsis = False
    ndim = len(sizes)
    n_items = rng.randint(1, max(1, ndim + 1))
    for _ in range(n_items):
        r = rng.random()
        size = sizes[dim] if dim < ndim else 3
        if r < 0.32:
            pair = random_index_tensor(rng, size)
            if pair is None:
                continue
            th_key.append(pair[0])
            lt_key.append(pair[1])
            dim += 1
        elif r < 0.44:
            # A mask over one or more dims, now and then of the wrong sizes.
            k = rng.randint(1, min(2, max(1, ndim - dim)))
            shape = list(sizes[dim:dim + k]) or [2]
            if rng.random() < 0.05:
                shape[0] += 1
            count = 1
            for s in shape:
                count *= s
            bits = [rng.random() < 0.5 for _ in range(count)]
            th_key.append(torch.tensor(bits, dtype=torch.bool).reshape(shape))
            lt_key.append(Lt.tensor(bits, dtype=Lt.bool).reshape(shape))
            dim += k
        elif r < 0.48:
            bit = rng.random() < 0.5
            if rng.random() < 0.5:
                th_key.append(torch.tensor(bit))
                lt_key.append(Lt.tensor(bit))
            else:
                th_key.append(bit)
                lt_key.append(bit)
        elif r < 0.54:
            values = index_values(rng, size, [rng.randint(1, 3)])
            if values is None:
                continue
            th_key.append(list(values))
            lt_key.append(list(values))
            dim += 1
        elif r < 0.66:
            i = rng.randint(-size, size - 1) if size else 0
            th_key.append(i)
            lt_key.append(i)
            dim += 1
        elif r < 0.86:
            start = rng.choice([None, 0, 1, -1])
            stop = rng.choice([None, 2, -1, 4])
            step = rng.choice([None, 1, 2])
            th_key.append(slice(start, stop, step))
            lt_key.append(slice(start, stop, step))
            dim += 1
        elif r < 0.93:
            th_key.append(None)
            lt_key.append(None)
        elif not used_ellipsis:
            used_ellipsis = True
            th_key.append(Ellipsis)
            lt_key.append(Ellipsis)
        if rng.random() < 0.03:
            # An index tensor of another dtype, which PyTorch refuses.
            th_key.append(torch.tensor([0], dtype=torch.int32))
            lt_key.append(Lt.tensor([0], dtype=Lt.int32))
    if len(th_key) == 1 and rng.random() < 0.5:
        return th_key[0], lt_key[0]
    return tuple(th_key), tuple(lt_key)


def run(call):
    try:
        return call(), None
    except (RuntimeError, IndexError, TypeError, ValueError) as error:
        return None, error


def values_of(t):
    return t.tolist()


def check_read(th_base, lt_base, th_key, lt_key, where):
    th, th_error = run(lambda: th_base[th_key])
    lt, lt_error = run(lambda: lt_base[lt_key])
    if th_error is not None or lt_error is not None:
        if th_error is None:
            raise Mismatch('%s: PyTorch reads, libtensor refuses: %s' % (where, lt_error))
        if lt_error is None:
            raise Mismatch('%s: libtensor reads, PyTorch refuses: %s' % (where, th_error))
        if isinstance(th_error, IndexError) and not isinstance(lt_error, IndexError):
            raise Mismatch('%s: PyTorch raises IndexError (%s), libtensor %r'
                           % (where, th_error, lt_error))
        return False
    if tuple(lt.shape) != tuple(th.shape) or tuple(lt.stride()) != th.stride():
        raise Mismatch('%s: sizes %s strides %s, PyTorch %s %s'
                       % (where, tuple(lt.shape), lt.stride(), tuple(th.shape), th.stride()))
    if str(lt.dtype).split('.')[-1] != str(th.dtype).split('.')[-1]:
        raise Mismatch('%s: dtype %s, PyTorch %s' % (where, lt.dtype, th.dtype))
    if values_of(lt) != values_of(th):
        raise Mismatch('%s: values %s, PyTorch %s' % (where, values_of(lt), values_of(th)))
    th_shares = th.numel() > 0 and th.storage().data_ptr() == th_base.storage().data_ptr()
    lt_shares = lt.numel() > 0 and lt.shares_storage(lt_base)
    if th.numel() > 0 and th_shares != lt_shares:
        raise Mismatch('%s: shares storage %s, PyTorch %s' % (where, lt_shares, th_shares))
    return True


def lt_expression(key):
    """The key as an index expression with named tensors, for the C API."""
    items = key if isinstance(key, tuple) else (key,)
    parts, names, tensors = [], [], []
    for item in items:
        if isinstance(item, list) or isinstance(item, bool):
            item = Lt.tensor(item, dtype=Lt.bool if isinstance(item, bool) else Lt.int64)
        if isinstance(item, Lt.Tensor):
            names.append('idx%d' % len(names))
            tensors.append(item)
            parts.append(names[-1])
        elif item is None:
            parts.append('None')
        elif item is Ellipsis:
            parts.append('...')
        elif isinstance(item, slice):
            text = ':'.join('' if p is None else str(p) for p in (item.start, item.stop))
            parts.append(text + ('' if item.step is None else ':%d' % item.step))
        else:
            parts.append(str(item))
    return '[' + ', '.join(parts) + ']', names, tensors


def check_c_api(th_base, lt_base, lt_key, where):
    """The C entry point, given the key as text, reads what t[key] reads."""
    expression, names, tensors = lt_expression(lt_key)
    by_python, python_error = run(lambda: lt_base[lt_key])
    try:
        by_c = lt_base.index_with_tensors(expression, names, tensors)
    except GLib.Error as error:
        if python_error is None:
            raise Mismatch('%s: %s refused by the C API: %s' % (where, expression, error.message))
        return
    if python_error is not None:
        raise Mismatch('%s: %s read by the C API, refused from Python' % (where, expression))
    if (tuple(by_c.get_sizes()), tuple(by_c.get_strides()), values_of(by_c)) != \
            (tuple(by_python.get_sizes()), tuple(by_python.get_strides()), values_of(by_python)):
        raise Mismatch('%s: %s differs between the C API and Python' % (where, expression))


def written_value(rng, th_base, th_key):
    """A value to write through @th_key: a number or a tensor broadcastable
    to what the key reads (now and then one that is not)."""
    try:
        shape = list(th_base[th_key].shape)
    except (RuntimeError, IndexError, TypeError, ValueError):
        shape = [2]
    if rng.random() < 0.3:
        return rng.randint(-5, 5)
    if shape and rng.random() < 0.5:
        shape = shape[rng.randint(0, len(shape)):]
    if shape and rng.random() < 0.05:
        shape[-1] += 1
    count = 1
    for s in shape:
        count *= s
    return [rng.randint(-5, 5) for _ in range(count)], shape


def has_repeats(th_base, th_key):
    """Whether @th_key picks an element more than once (the written value
    then depends on the order of the writes, which neither library
    promises)."""
    probe = torch.arange(th_base.numel()).reshape(th_base.shape) if th_base.numel() else None
    if probe is None:
        return False
    try:
        picked = probe[th_key].reshape(-1).tolist()
    except (RuntimeError, IndexError, TypeError, ValueError):
        return False
    return len(picked) != len(set(picked))


def holds_0_dim(key):
    """Whether @key holds a Python bool or a 0-dim tensor."""
    items = key if isinstance(key, tuple) else (key,)
    return any(isinstance(item, bool) or isinstance(item, torch.Tensor) and item.dim() == 0
               for item in items)


def check_write(rng, th_base, lt_base, th_key, lt_key, where):
    # PyTorch 1.13 writes through 0-dim tensors and bools otherwise than it
    # reads through them: a 0-dim bool without the dim of size 1 (or 0) it
    # adds when reading (the values are checked against the sizes without
    # it, its index counts against the tensor's dims, and index tensors that
    # do not broadcast with a False pass), a 0-dim integer as an index
    # tensor, not checked where nothing is written. libtensor writes through
    # the key that reads, as NumPy does (a deliberate difference).
    if holds_0_dim(th_key):
        return False
    value = written_value(rng, th_base, th_key)
    accumulate = rng.random() < 0.3
    th_target, lt_target = th_base.clone(), lt_base.clone()
    if isinstance(value, tuple):
        values, shape = value
        th_value = torch.tensor(values).reshape(shape).to(th_base.dtype)
        lt_value = Lt.tensor(values).reshape(shape).to(lt_base.dtype)
    else:
        # One number: the order of the writes is moot.
        th_value, lt_value = value, value
    if isinstance(value, tuple) and not accumulate and has_repeats(th_base, th_key):
        return False
    if accumulate:
        th_indices = th_key if isinstance(th_key, tuple) else (th_key,)
        lt_indices = lt_key if isinstance(lt_key, tuple) else (lt_key,)
        # (PyTorch fails an internal assertion on an empty tuple.)
        if not th_indices or th_base.dtype == torch.bool \
                or not all(isinstance(i, torch.Tensor) for i in th_indices):
            return False
        if not isinstance(th_value, torch.Tensor):
            th_value = torch.tensor(th_value, dtype=th_base.dtype)
            lt_value = Lt.tensor(lt_value, dtype=lt_base.dtype)

        def th_call():
            th_target.index_put_(th_indices, th_value, accumulate=True)

        def lt_call():
            lt_target.index_put_(lt_indices, lt_value, accumulate=True)
    else:
        def th_call():
            th_target[th_key] = th_value

        def lt_call():
            lt_target[lt_key] = lt_value
    _, th_error = run(th_call)
    _, lt_error = run(lt_call)
    if th_error is not None or lt_error is not None:
        if th_error is None:
            raise Mismatch('%s: PyTorch writes, libtensor refuses: %s' % (where, lt_error))
        if lt_error is None:
            raise Mismatch('%s: libtensor writes, PyTorch refuses: %s' % (where, th_error))
        if values_of(lt_target) != values_of(lt_base):
            raise Mismatch('%s: a refused write changed the tensor' % where)
        return True
    if values_of(lt_target) != values_of(th_target):
        raise Mismatch('%s: wrote %s, PyTorch %s'
                       % (where, values_of(lt_target), values_of(th_target)))
    return True


def describe(key):
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for item in items:
        if isinstance(item, torch.Tensor):
            out.append('tensor(%s, %s, strides %s)' % (item.tolist(), str(item.dtype)[6:],
                                                       item.stride()))
        else:
            out.append(repr(item))
    return '[' + ', '.join(out) + ']'


def main():
    rng = random.Random(SEED)
    started = time.monotonic()
    read = refused = written = 0
    failures = []
    for case in range(N_CASES):
        th_base, lt_base, writable = random_base(rng)
        th_key, lt_key = random_key(rng, list(th_base.shape))
        where = 'case %d: %s of sizes %s strides %s' % (case, describe(th_key),
                                                         list(th_base.shape), th_base.stride())
        try:
            if check_read(th_base, lt_base, th_key, lt_key, where):
                read += 1
            else:
                refused += 1
            check_c_api(th_base, lt_base, lt_key, where)
            if writable and check_write(rng, th_base, lt_base, th_key, lt_key, where):
                written += 1
        except Mismatch as mismatch:
            failures.append(str(mismatch))
    for failure in failures[:20]:
        print(failure)
    print('%d keys: %d read alike, %d refused by both, %d writes compared; '
          'PyTorch %s; %.1f s' % (N_CASES, read, refused, written, torch.__version__,
                                  time.monotonic() - started))
    if failures:
        print('%d failures' % len(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
