#!/usr/bin/env python3
# test-torch-views.py: every view op, differentially against PyTorch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Thousands of seeded random chains of view ops run side by side on a PyTorch
# tensor and an Lt.Tensor that start from the same arange-like contents (any
# dtype, 0 to 5 dims, empty and size-1 dims included). After every step the
# two must agree on sizes, strides, storage offset, is_contiguous, the storage
# size, the values, the storage indices each element reads, internal overlap
# and storage sharing; and when PyTorch refuses an op (RuntimeError,
# IndexError, ValueError, TypeError), libtensor must refuse it with a
# GLib.Error in the Lt domain that has a message, and the other way round.
#
# The one deliberate difference is negative strides: libtensor's flip(),
# negative-step slices and as_strided() with negative strides are views,
# which PyTorch refuses (or, for flip, answers with a copy). Those steps, and
# every step after them while some stride is negative, are compared with a
# NumPy model instead: a NumPy view over the storage *indices*
# (arange(storage size)), transformed by the NumPy op that has PyTorch's
# semantics, gives the expected sizes, strides, offset and, through the
# storage's values, the expected values. Whether such a step's arguments are
# valid is still PyTorch's call: the op runs on a contiguous PyTorch tensor
# of the same sizes (and with |step| for slices). Once every stride is
# non-negative again the chain goes back to PyTorch. Strides of size-1 dims,
# and the strides and offsets of empty views, are arbitrary in NumPy and are
# not compared in that mode.
#
# Other differences, each left out of the comparison where it applies and
# checked on libtensor's side alone:
#  - torch.view_as_complex() of a float16 tensor makes a complex32 tensor, a
#    dtype libtensor does not have; libtensor refuses with LT_ERROR_DTYPE.
#  - A tensor has at most 64 dims in libtensor (LT_MAX_DIMS); more is an
#    error. PyTorch's views have no such limit.
#  - PyTorch 1.13 accidents that are not copied:
#    - negative sizes get through expand(), as_strided() and unfold() when
#      another dim is 0 (the storage check stops at the 0), making tensors
#      with a size of -1; libtensor refuses negative sizes always, and so
#      expand() of a 0-dim tensor with a -1 (which has no size to keep);
#    - ints below -2**62 are taken for symbolic ints and fail an internal
#      assertion ("Expected !is_symbolic()"), so slice bounds that low are
#      compared with NumPy (they clamp like any other);
#    - stride * step overflows for steps near 2**63 in slice() and unfold(),
#      and PyTorch refuses the wrapped-around negative stride; such steps
#      are compared with NumPy;
#    - as_strided() with an offset near 2**63 overflows the bounds check and
#      lets a view far outside the storage through; libtensor refuses it, as
#      the bounds say. An empty view may start that far in both, but moving
#      or doubling such an offset overflows, which libtensor refuses with
#      LT_ERROR_OVERFLOW and PyTorch wraps around; chains stop there;
#    - chunk(2**63 - 1) overflows computing the piece size and refuses.
#    Strides that are never used (size-1 dims, empty tensors) wrap around in
#    both when an op doubles, adds or multiplies them; chains stop at such
#    strides, since PyTorch then refuses the negative ones.

# Only the bare typelib is used (gi.overrides.Lt is kept out of the way), so
# this pins down the C API's semantics.
#
# Environment: LT_CHAINS=N runs N chains (default 4000), LT_SEED=S replays
# one chain and prints each step, LT_FIRST=S starts the seeds at S.

import math
import os
import random
import sys
import time
import traceback
import warnings

import gi

# Whatever PYTHONPATH says, test the C API, not the Python overrides: PyGObject
# loads no overrides for a namespace whose module is None in sys.modules.
# (Hiding their directory would hide PyGObject's own GLib overrides too where
# libtensor is installed into /usr, beside them.)
sys.modules['gi.overrides.Lt'] = None

gi.require_version('Lt', '1.0')
from gi.repository import GLib, Lt  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

warnings.filterwarnings('ignore')

INT64_MAX = 2 ** 63 - 1
INT64_MIN = -2 ** 63
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
LT_DTYPE_OF = {torch_dtype: lt_dtype for torch_dtype, lt_dtype in DTYPES}


class Mismatch(Exception):
    pass


class Skip(Exception):
    """The op does not apply to this tensor: draw another."""


# Values ----------------------------------------------------------------------

def arange_like(n, dtype):
    """0, 1, 2, ... in @dtype, wrapped into its range, exact in every dtype."""
    if dtype == torch.bool:
        return torch.tensor([i % 3 == 1 for i in range(n)], dtype=torch.bool)
    if dtype == torch.uint8 or dtype == torch.bfloat16:
        return torch.tensor([i % 256 for i in range(n)], dtype=torch.float64).to(dtype)
    if dtype == torch.int8:
        return torch.tensor([(i + 128) % 256 - 128 for i in range(n)], dtype=torch.int8)
    if dtype == torch.float16:
        return torch.tensor([i % 2048 for i in range(n)], dtype=torch.float64).to(dtype)
    if dtype.is_complex:
        real = torch.arange(n, dtype=torch.float64)
        return torch.complex(real, 0.5 - real).to(dtype)
    return torch.arange(n, dtype=torch.float64).to(dtype)


def storage_values(flat):
    """The values of a 1-dim torch tensor, one tuple per element."""
    if flat.is_complex():
        pairs = torch.view_as_real(flat).double().tolist()
        return [tuple(p) for p in pairs]
    return [(v,) for v in flat.double().tolist()]


def torch_values(t):
    if t.is_complex():
        return torch.view_as_real(t.resolve_conj()).flatten().double().tolist()
    return t.flatten().double().tolist()


def lt_error(e):
    """Checks that a GLib.Error raised by libtensor is a proper Lt error."""
    if e.domain != LT_DOMAIN:
        raise Mismatch('error outside the Lt domain (%s): %s' % (e.domain, e.message))
    if not e.message or not e.message.strip():
        raise Mismatch('Lt error %d without a message' % e.code)
    return e


def call_lt(fn):
    try:
        return fn(), None
    except GLib.Error as e:
        return None, lt_error(e)


def call_torch(fn):
    try:
        return fn(), None
    except TORCH_ERRORS as e:
        return None, e


# The NumPy model ---------------------------------------------------------------

def np_view(base, sizes, strides, offset):
    """A view of the int64 index array @base with element strides."""
    n = base.shape[0]
    start = base[min(offset, n):] if offset >= 0 else base
    # The strides of size-1 dims, and all of them in an empty view, are never
    # used, and may not fit in a C long once in bytes.
    empty = 0 in sizes
    return np.lib.stride_tricks.as_strided(
        start, shape=tuple(sizes),
        strides=tuple(0 if empty or size == 1 else 8 * s for size, s in zip(sizes, strides)),
        writeable=False)


def np_offset(a, base):
    return (a.__array_interface__['data'][0] - base.__array_interface__['data'][0]) // 8


def np_strides(a):
    return [s // 8 for s in a.strides]


def np_can_view(a, shape):
    """Whether NumPy reshapes @a to @shape without copying."""
    v = a.view()
    try:
        v.shape = tuple(shape)
    except AttributeError:
        return None
    return v


def wrap(dim, ndim):
    span = max(ndim, 1)
    return dim + span if dim < 0 else dim


def full_key(a, key):
    """NumPy gives a scalar, not a 0-dim view, when integers index every dim."""
    key = tuple(key)
    if Ellipsis not in key:
        key = key + (Ellipsis,)
    return a[key]


def is_contiguous_rule(sizes, strides):
    """PyTorch's definition: row-major strides except on dims of size 1."""
    if 0 in sizes:
        return True
    expected = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


# Chain state ------------------------------------------------------------------

class State:
    """The libtensor tensor and what it is compared with.

    In torch mode, t is the PyTorch tensor with the same metadata. In NumPy
    mode (some stride negative), t is None and model is a NumPy view of the
    storage indices; store is a 1-dim PyTorch tensor over the whole storage,
    to go back to torch mode from, and values holds its elements."""

    def __init__(self, lt, t, dtype):
        self.lt = lt
        self.t = t
        self.dtype = dtype
        self.model = None
        self.store = None
        self.values = None
        self.index_base = None

    @property
    def sizes(self):
        return list(self.lt.get_sizes())

    @property
    def ndim(self):
        return len(self.lt.get_sizes())

    def enter_numpy(self):
        """Builds the model from the torch tensor, before a negative-stride op."""
        if self.t is None:
            return
        t = self.t
        n = t.storage().nbytes() // t.element_size()
        self.store = torch.as_strided(t, (n,), (1,), 0)
        self.values = storage_values(self.store)
        self.index_base = np.arange(n, dtype=np.int64)
        self.model = np_view(self.index_base, list(t.shape), list(t.stride()),
                             t.storage_offset())
        self.t = None


def storage_size(st):
    if st.t is not None:
        return st.t.storage().nbytes()
    return st.store.storage().nbytes()


# Comparisons --------------------------------------------------------------------

def compare_torch(where, t, lt):
    sizes, strides = list(lt.get_sizes()), list(lt.get_strides())
    if sizes != list(t.shape):
        raise Mismatch('%s: sizes %s, torch %s' % (where, sizes, list(t.shape)))
    if strides != list(t.stride()):
        raise Mismatch('%s: strides %s, torch %s' % (where, strides, list(t.stride())))
    if lt.get_storage_offset() != t.storage_offset():
        raise Mismatch('%s: storage offset %d, torch %d'
                       % (where, lt.get_storage_offset(), t.storage_offset()))
    if lt.is_contiguous() != t.is_contiguous():
        raise Mismatch('%s: is_contiguous %s, torch %s'
                       % (where, lt.is_contiguous(), t.is_contiguous()))
    if lt.get_dtype() != LT_DTYPE_OF[t.dtype]:
        raise Mismatch('%s: dtype %s, torch %s' % (where, lt.get_dtype(), t.dtype))
    if lt.get_storage().get_nbytes() != t.storage().nbytes():
        raise Mismatch('%s: storage of %d bytes, torch %d'
                       % (where, lt.get_storage().get_nbytes(), t.storage().nbytes()))
    ours = list(lt.to_doubles() or [])
    theirs = torch_values(t)
    if ours != theirs:
        raise Mismatch('%s: values %s, torch %s' % (where, ours[:24], theirs[:24]))
    # Every element's storage index, from NumPy's reading of the same strides.
    model = np_view(np.arange(max(t.storage().nbytes() // t.element_size(), 1)), list(t.shape),
                    list(t.stride()), t.storage_offset())
    compare_indices(where, lt, model)
    overlap = torch._debug_has_internal_overlap(t)
    if overlap != 2 and lt.has_internal_overlap() != (overlap == 1):
        raise Mismatch('%s: has_internal_overlap %s, torch %d'
                       % (where, lt.has_internal_overlap(), overlap))


def compare_indices(where, lt, model):
    if model.size == 0:
        if list(lt.get_storage_indices() or []):
            raise Mismatch('%s: storage indices of an empty tensor' % where)
        return
    ours = list(lt.get_storage_indices() or [])
    theirs = model.flatten().tolist()
    if ours != theirs:
        raise Mismatch('%s: storage indices %s, expected %s' % (where, ours[:24], theirs[:24]))
    exact = len(set(theirs)) < len(theirs)
    if lt.has_internal_overlap() != exact:
        raise Mismatch('%s: has_internal_overlap %s, expected %s'
                       % (where, lt.has_internal_overlap(), exact))


def compare_numpy(where, st, lt, model):
    sizes, strides = list(lt.get_sizes()), list(lt.get_strides())
    if lt.get_storage_offset() < 0:
        raise Mismatch('%s: negative storage offset %d' % (where, lt.get_storage_offset()))
    if sizes != list(model.shape):
        raise Mismatch('%s: sizes %s, NumPy %s' % (where, sizes, list(model.shape)))
    if model.size > 0:
        expected = np_strides(model)
        for d, size in enumerate(sizes):
            if size != 1 and strides[d] != expected[d]:
                raise Mismatch('%s: strides %s, NumPy %s' % (where, strides, expected))
        if lt.get_storage_offset() != np_offset(model, st.index_base):
            raise Mismatch('%s: storage offset %d, NumPy %d'
                           % (where, lt.get_storage_offset(), np_offset(model, st.index_base)))
    if lt.is_contiguous() != is_contiguous_rule(sizes, np_strides(model)):
        raise Mismatch('%s: is_contiguous %s for strides %s'
                       % (where, lt.is_contiguous(), strides))
    if lt.get_storage().get_nbytes() != storage_size(st):
        raise Mismatch('%s: storage of %d bytes, expected %d'
                       % (where, lt.get_storage().get_nbytes(), storage_size(st)))
    ours = list(lt.to_doubles() or [])
    theirs = [v for i in model.flatten().tolist() for v in st.values[i]]
    if ours != theirs:
        raise Mismatch('%s: values %s, expected %s' % (where, ours[:24], theirs[:24]))
    compare_indices(where, lt, model)


# Op generators ---------------------------------------------------------------------
#
# Each returns a Step: the libtensor call, the PyTorch call (None when PyTorch
# cannot make the view: a negative stride), the call that decides whether the
# arguments are valid in NumPy mode (the PyTorch call by default, run on a
# contiguous tensor of the same sizes) and the NumPy call that makes the model.

class Step:
    def __init__(self, name, lt, torch_op, numpy_op=None, oracle=None, model_only=False,
                 kind='view'):
        self.name = name
        self.lt = lt
        self.torch = torch_op
        self.numpy = numpy_op
        self.oracle = oracle or torch_op
        # PyTorch cannot make this view (a negative stride) or gets it wrong
        # (an overflow): compare with the NumPy model.
        self.model_only = model_only
        # 'view', 'reshape' (a view when possible), 'copy', 'pieces'
        self.kind = kind
        self.pick = 0.0


def some_dim(rng, ndim):
    """Mostly valid dims, sometimes one just out of range on either side."""
    span = max(ndim, 1)
    if rng.random() < 0.08:
        return rng.choice([-span - 1, span, span + 3, -span - 4])
    return rng.randint(-span, span - 1)


def some_size(rng, sizes, dim):
    ndim = len(sizes)
    return sizes[dim] if -ndim <= dim < ndim else rng.randint(0, 4)


def some_bound(rng, size):
    r = rng.random()
    if r < 0.75:
        return rng.randint(-size - 2, size + 2)
    return rng.choice([INT64_MIN, -INT64_MAX, -10 ** 12, 10 ** 12, INT64_MAX - 1, INT64_MAX,
                       -size, size])


def refused(reason):
    def op(_t):
        raise ValueError('libtensor refuses ' + reason)
    return op


def gen_select(rng, st):
    dim = some_dim(rng, st.ndim)
    size = some_size(rng, st.sizes, dim)
    index = rng.randint(-size - 1, size) if rng.random() < 0.95 else rng.choice(
        [INT64_MIN, INT64_MAX])
    return Step('select(%d, %d)' % (dim, index),
                lambda x: x.select(dim, index),
                lambda t: t.select(dim, index),
                lambda a: full_key(a, (slice(None),) * wrap(dim, a.ndim) + (index,)))


def torch_safe(value):
    """PyTorch 1.13 reads ints below -2**62 as symbolic and fails an internal
    assertion; such bounds are compared with NumPy instead (after clamping
    they mean the same as -2**40)."""
    return value is None or value >= -2 ** 62


def gen_slice(rng, st):
    dim = some_dim(rng, st.ndim)
    size = some_size(rng, st.sizes, dim)
    start = some_bound(rng, size)
    stop = INT64_MAX if rng.random() < 0.3 else some_bound(rng, size)
    r = rng.random()
    if r < 0.55:
        step = rng.choice([1, 1, 1, 2, 3, 5])
    elif r < 0.6:
        step = rng.choice([0, 2 ** 62, INT64_MAX])
    else:
        step = rng.choice([-1, -1, -2, -3, INT64_MIN, -INT64_MAX])
        if rng.random() < 0.4:
            start, stop = INT64_MAX, INT64_MIN
    name = 'slice(%d, %d, %d, %d)' % (dim, start, stop, step)

    def lt_op(x):
        return x.slice(dim, start, stop, step)

    def numpy_op(a):
        key = (slice(None),) * wrap(dim, a.ndim) + (slice(start, stop, step),)
        return a[key]

    if step == 0:
        return Step(name, lt_op, lambda t: torch.ops.aten.slice(t, dim, start, stop, step))
    if 0 < step < 2 ** 62 and torch_safe(start) and torch_safe(stop):
        return Step(name, lt_op, lambda t: torch.ops.aten.slice(t, dim, start, stop, step),
                    numpy_op)
    # PyTorch refuses negative steps, and overflows stride * step for huge
    # ones: it only says whether the dim is valid. (A huge step leaves a
    # stride near 2**63 on a dim of size 1, whose values are then read: at
    # the time of writing the CPU copy kernel multiplies it by the element
    # size before dropping size-1 dims, a signed overflow UBSan reports.)
    return Step(name, lt_op, None, numpy_op,
                oracle=lambda t: torch.ops.aten.slice(t, dim, 0, 1, 1), model_only=True)


def gen_narrow(rng, st):
    dim = some_dim(rng, st.ndim)
    size = some_size(rng, st.sizes, dim)
    start = rng.randint(-size - 1, size + 1)
    length = rng.randint(-1, size + 1) if rng.random() < 0.9 else rng.randint(0, 2)
    if rng.random() < 0.04:
        start, length = rng.choice([(0, INT64_MAX), (2 ** 62, 0), (-2 ** 62, 0),
                                    (size, INT64_MAX), (1, -INT64_MAX)])

    def numpy_op(a):
        d = wrap(dim, a.ndim)
        s = start
        if s != a.shape[d] and s < 0:
            s += max(a.shape[d], 1)
        return a[(slice(None),) * d + (slice(s, s + length),)]
    return Step('narrow(%d, %d, %d)' % (dim, start, length),
                lambda x: x.narrow(dim, start, length),
                lambda t: t.narrow(dim, start, length), numpy_op)


# Index expressions: a generator of texts in the parser's grammar together with
# the Python key they mean, and a recognizer written from the grammar in
# lt-index-expr.c, used on mutated texts.

def random_integer_text(rng, value):
    text = str(value)
    if value >= 0 and rng.random() < 0.1:
        text = '+' + text
    return text


def random_index(rng, ndim, sizes, negative):
    items, keys = [], []
    used_ellipsis = False
    n_items = rng.randint(0, ndim + 2) if rng.random() < 0.9 else rng.randint(0, 6)
    dim = 0
    for _ in range(n_items):
        size = sizes[dim] if dim < len(sizes) else 3
        kind = rng.random()
        if kind < 0.25:
            i = rng.randint(-size - 1, size) if rng.random() < 0.95 else rng.choice(
                [2 ** 40, -2 ** 40])
            items.append(random_integer_text(rng, i))
            keys.append(i)
            dim += 1
        elif kind < 0.7:
            start = rng.choice([None, rng.randint(-size - 2, size + 2)])
            stop = rng.choice([None, rng.randint(-size - 2, size + 2)])
            if rng.random() < 0.05:
                start = rng.choice([INT64_MAX, INT64_MIN, 10 ** 15])
            step = rng.choice([None, None, 1, 2, 3])
            if negative and rng.random() < 0.5:
                step = rng.choice([-1, -1, -2, -3])
            text = '%s:%s' % ('' if start is None else random_integer_text(rng, start),
                              '' if stop is None else random_integer_text(rng, stop))
            if step is not None:
                text += ':' + random_integer_text(rng, step)
            elif rng.random() < 0.2:
                text += ':'
            items.append(text)
            keys.append(slice(start, stop, step))
            dim += 1
        elif kind < 0.9:
            items.append('None')
            keys.append(None)
        elif not used_ellipsis:
            used_ellipsis = True
            items.append('...')
            keys.append(Ellipsis)
            dim = max(dim, ndim - (n_items - len(items)))
    sep = rng.choice([', ', ',', ' , '])
    text = sep.join(items)
    if items and rng.random() < 0.1:
        text += ','
    if not items or rng.random() < 0.9:
        text = rng.choice(['[', '[ ', ' [']) + text + rng.choice([']', ' ]', '] '])
    return text, tuple(keys)


def sanitize_key(key):
    """The key PyTorch can judge: |step| for negative steps, and bounds below
    -2**62 (which PyTorch 1.13 mistakes for symbolic ints) as -2**40, which
    clamps the same way. None when the key needs no change."""
    def fix(k):
        if isinstance(k, slice):
            start = k.start if torch_safe(k.start) else -2 ** 40
            stop = k.stop if torch_safe(k.stop) else -2 ** 40
            step = -k.step if k.step is not None and k.step < 0 else k.step
            return slice(start, stop, step)
        if isinstance(k, int) and not torch_safe(k):
            return -2 ** 40
        return k
    fixed = tuple(fix(k) for k in key)
    return None if fixed == key else fixed


def gen_index(rng, st):
    negative = rng.random() < 0.25
    text, key = random_index(rng, st.ndim, st.sizes, negative)
    name = 'index(%r)' % text
    sanitized = sanitize_key(key)
    if sanitized is None:
        return Step(name, lambda x: x.index(text), lambda t: t[key],
                    lambda a: full_key(a, key))
    return Step(name, lambda x: x.index(text), None, lambda a: full_key(a, key),
                oracle=lambda t: t[sanitized], model_only=True)


def gen_unsqueeze(rng, st):
    dim = rng.randint(-st.ndim - 2, st.ndim + 1)
    return Step('unsqueeze(%d)' % dim, lambda x: x.unsqueeze(dim), lambda t: t.unsqueeze(dim),
                lambda a: np.expand_dims(a, wrap(dim, a.ndim + 1)))


def gen_squeeze(rng, st):
    if rng.random() < 0.4:
        return Step('squeeze()', lambda x: x.squeeze(), lambda t: t.squeeze(),
                    lambda a: np.squeeze(a))
    dim = some_dim(rng, st.ndim)

    def numpy_op(a):
        d = wrap(dim, a.ndim)
        return np.squeeze(a, axis=d) if a.ndim > 0 and a.shape[d] == 1 else a
    return Step('squeeze_dim(%d)' % dim, lambda x: x.squeeze_dim(dim), lambda t: t.squeeze(dim),
                numpy_op)


def gen_transpose(rng, st):
    if rng.random() < 0.25:
        return Step('t()', lambda x: x.t(), lambda t: t.t(), lambda a: a.T)
    d0, d1 = some_dim(rng, st.ndim), some_dim(rng, st.ndim)
    return Step('transpose(%d, %d)' % (d0, d1), lambda x: x.transpose(d0, d1),
                lambda t: t.transpose(d0, d1),
                lambda a: np.swapaxes(a, wrap(d0, a.ndim), wrap(d1, a.ndim)) if a.ndim else a)


def gen_permute(rng, st):
    ndim = st.ndim
    dims = list(range(ndim))
    rng.shuffle(dims)
    dims = [d - ndim if rng.random() < 0.3 else d for d in dims]
    r = rng.random()
    if r < 0.06 and len(dims) > 1:
        dims[0] = dims[-1]
    elif r < 0.1:
        dims.append(rng.randint(-1, ndim))
    elif r < 0.13 and dims:
        dims.pop()
    elif r < 0.16 and dims:
        dims[0] = ndim
    return Step('permute(%s)' % dims, lambda x: x.permute(dims), lambda t: t.permute(dims),
                lambda a: np.transpose(a, [wrap(d, a.ndim) for d in dims]))


def gen_movedim(rng, st):
    ndim = st.ndim
    n = rng.randint(0, max(ndim, 1))
    if rng.random() < 0.8:
        source = rng.sample(range(-ndim, ndim) if ndim else [0, -1], min(n, max(ndim, 1)))
        source = [s for i, s in enumerate(source) if wrap(s, ndim) not in
                  [wrap(x, ndim) for x in source[:i]]]
        destination = rng.sample(range(-ndim, ndim) if ndim else [0, -1], len(source))
        destination = [d for i, d in enumerate(destination) if wrap(d, ndim) not in
                       [wrap(x, ndim) for x in destination[:i]]]
        source = source[:len(destination)]
    else:
        source = [some_dim(rng, ndim) for _ in range(n)]
        destination = [some_dim(rng, ndim) for _ in range(n + (rng.random() < 0.2))]

    def numpy_op(a):
        if a.ndim == 0:
            return a
        return np.moveaxis(a, [wrap(s, a.ndim) for s in source],
                           [wrap(d, a.ndim) for d in destination])
    return Step('movedim(%s, %s)' % (source, destination),
                lambda x: x.movedim(source, destination),
                lambda t: torch.movedim(t, source, destination), numpy_op)


def factor_shape(rng, numel):
    """A random shape with @numel elements; sometimes a -1, sometimes wrong."""
    shape = []
    rest = numel
    for _ in range(rng.randint(0, 4)):
        divisors = [d for d in range(1, 7) if rest % d == 0] if rest else [0, 1, 2, 3]
        d = rng.choice(divisors + [1])
        shape.append(d)
        rest = rest // d if d else rest
    shape.append(rest)
    rng.shuffle(shape)
    r = rng.random()
    if r < 0.3:
        shape[rng.randrange(len(shape))] = -1
    elif r < 0.36:
        shape.append(rng.choice([2, 3, 0]))
    elif r < 0.39:
        shape[rng.randrange(len(shape))] = rng.choice([-2, -1])
        shape.append(-1)
    elif r < 0.42:
        shape[rng.randrange(len(shape))] = -3
    elif r < 0.45:
        shape = []
    return shape


def gen_view(rng, st):
    numel = math.prod(st.sizes)
    shape = factor_shape(rng, numel)
    r = rng.random()
    if r < 0.4:
        return Step('view(%s)' % shape, lambda x: x.view(shape), lambda t: t.view(shape),
                    lambda a, target: np_can_view(a, target), kind='view-shape')
    if r < 0.7:
        return Step('reshape(%s)' % shape, lambda x: x.reshape(shape),
                    lambda t: t.reshape(shape), lambda a, target: np_can_view(a, target),
                    kind='reshape')
    if r < 0.85:
        start, end = some_dim(rng, st.ndim), some_dim(rng, st.ndim)
        return Step('flatten(%d, %d)' % (start, end), lambda x: x.flatten(start, end),
                    lambda t: t.flatten(start, end), lambda a, target: np_can_view(a, target),
                    kind='reshape')
    dim = some_dim(rng, st.ndim)
    sizes = factor_shape(rng, some_size(rng, st.sizes, dim))
    return Step('unflatten(%d, %s)' % (dim, sizes), lambda x: x.unflatten(dim, sizes),
                lambda t: t.unflatten(dim, sizes), lambda a, target: np_can_view(a, target),
                kind='view-shape')


def gen_expand(rng, st):
    sizes = []
    for size in st.sizes:
        r = rng.random()
        if r < 0.3:
            sizes.append(-1)
        elif r < 0.65 and size == 1:
            sizes.append(rng.randint(0, 4))
        elif r < 0.7:
            sizes.append(rng.randint(-2, 4))
        else:
            sizes.append(size)
    for _ in range(rng.randint(0, 2)):
        sizes.insert(0, rng.choice([1, 2, 3, -1, 0]) if rng.random() < 0.2 else rng.randint(1, 3))
    if rng.random() < 0.04 and sizes:
        sizes.pop()

    def numpy_op(a, target):
        return np.broadcast_to(a, target)
    if any(size < -1 for size in sizes) or (st.ndim == 0 and -1 in sizes):
        # PyTorch 1.13 lets a negative size through when another dim is 0,
        # making a tensor with a size of -2 (or of -1 for a 0-dim tensor,
        # whose sizes it takes as they are). libtensor refuses it always.
        return Step('expand(%s)' % sizes, lambda x: x.expand(sizes),
                    refused('a negative size'))
    r = rng.random()
    if r < 0.45:
        return Step('expand(%s)' % sizes, lambda x: x.expand(sizes), lambda t: t.expand(sizes),
                    numpy_op, kind='view-shape')
    if r < 0.9:
        return Step('broadcast_to(%s)' % sizes, lambda x: x.broadcast_to(sizes),
                    lambda t: t.broadcast_to(sizes), numpy_op, kind='view-shape')
    target = [rng.randint(1, 3) if s == -1 else max(s, 0) for s in sizes]

    def lt_op(x):
        other = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, target)
        return x.expand_as(other)
    return Step('expand_as(%s)' % target, lt_op,
                lambda t: t.expand_as(torch.zeros(target)), numpy_op, kind='view-shape')


def extent(sizes, strides, offset):
    """The lowest and highest storage index a view reaches (None when empty)."""
    if 0 in sizes:
        return None
    low = high = offset
    for size, stride in zip(sizes, strides):
        span = (size - 1) * stride
        if span < 0:
            low += span
        else:
            high += span
    return low, high


def gen_as_strided(rng, st):
    n_storage = st.lt.get_storage().get_n_elements()
    ndim = rng.randint(0, 4)
    sizes = [rng.randint(0, 4) for _ in range(ndim)]
    strides = [rng.randint(0, 5) for _ in range(ndim)]
    offset = rng.randint(0, n_storage + 1)
    r = rng.random()
    negative = False
    if r < 0.2 and ndim:
        # In bounds by construction: the largest offset that still fits.
        span = sum((s - 1) * k for s, k in zip(sizes, strides) if s > 0)
        offset = rng.randint(0, max(n_storage - 1 - span, 0))
    elif r < 0.3 and ndim:
        d = rng.randrange(ndim)
        strides[d] = -strides[d] if strides[d] else -1
        negative = True
        span = sum((s - 1) * k for s, k in zip(sizes, strides) if s > 0 and k > 0)
        low = sum((s - 1) * -k for s, k in zip(sizes, strides) if s > 0 and k < 0)
        offset = rng.randint(low, max(n_storage - 1 - span, low)) if rng.random() < 0.8 else \
            rng.randint(0, n_storage)
    elif r < 0.34:
        offset = rng.choice([-1, -5])
    elif r < 0.38 and ndim:
        sizes[rng.randrange(ndim)] = rng.choice([-1, -3])
    elif r < 0.41 and ndim:
        # Out of bounds or overflowing, never empty: NumPy cannot even hold
        # the shape of an empty view this large.
        sizes = [max(size, 1) for size in sizes]
        d = rng.randrange(ndim)
        sizes[d] = rng.choice([2 ** 31, 2 ** 40, 2 ** 62])
        strides = [rng.choice([0, 1, 2 ** 40]) for _ in range(ndim)]
        strides[d] = rng.choice([1, 2 ** 40])
    elif r < 0.44:
        strides.append(1)
    elif r < 0.46:
        # PyTorch's bounds check overflows on such offsets and lets a 0-dim
        # view far outside the storage through: compare with the bounds.
        offset = rng.choice([INT64_MAX, 2 ** 62, INT64_MAX // 2])
        negative = True
    name = 'as_strided(%s, %s, %d)' % (sizes, strides, offset)

    if rng.random() < 0.2:
        name = 'new_with_storage(%s, %s, %d)' % (sizes, strides, offset)

        def lt_op(x):
            return Lt.Tensor.new_with_storage(x.get_storage(), sizes, strides, offset)
    else:
        def lt_op(x):
            return x.as_strided(sizes, strides, offset)
    if any(size < 0 for size in sizes):
        # As expand(): PyTorch 1.13 takes a negative size when another is 0.
        return Step(name, lt_op, refused('a negative size'))
    if not negative:
        step = Step(name, lt_op, lambda t: t.as_strided(sizes, strides, offset),
                    kind='as_strided')
        step.args = (sizes, strides, offset)
        return step

    def oracle(_t):
        if offset < 0 or len(sizes) != len(strides) or min(sizes, default=0) < 0:
            raise RuntimeError('invalid arguments')
        bounds = extent(sizes, strides, offset)
        if bounds is not None and (bounds[0] < 0 or bounds[1] >= n_storage):
            raise RuntimeError('out of the storage')
        return True
    step = Step(name, lt_op, None, lambda a: None, oracle=oracle, model_only=True,
                kind='as_strided')
    step.args = (sizes, strides, offset)
    return step


def gen_diagonal(rng, st):
    offset = rng.randint(-4, 4) if rng.random() < 0.95 else rng.choice([2 ** 62, -2 ** 62])
    d1, d2 = some_dim(rng, st.ndim), some_dim(rng, st.ndim)
    if rng.random() < 0.1:
        return Step('diagonal()', lambda x: x.diagonal(0, 0, 1), lambda t: t.diagonal(),
                    lambda a: np.diagonal(a))
    return Step('diagonal(%d, %d, %d)' % (offset, d1, d2), lambda x: x.diagonal(offset, d1, d2),
                lambda t: t.diagonal(offset, d1, d2),
                lambda a: np.diagonal(a, max(min(offset, 2 ** 30), -2 ** 30), wrap(d1, a.ndim),
                                      wrap(d2, a.ndim)))


def gen_unfold(rng, st):
    dim = some_dim(rng, st.ndim)
    size = rng.randint(0, some_size(rng, st.sizes, dim) + 1)
    step = rng.randint(1, 3)
    r = rng.random()
    if r < 0.1:
        size = rng.choice([-1, size + 1])
    elif r < 0.15:
        step = rng.choice([0, -1])
    elif r < 0.18:
        step = rng.choice([2 ** 62, INT64_MAX])

    def numpy_op(a):
        if a.ndim == 0:
            return np.lib.stride_tricks.as_strided(a, (size,), (8,), writeable=False)
        d = wrap(dim, a.ndim)
        windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=d)
        return windows[(slice(None),) * d + (slice(None, None, step),)]
    if size < 0:
        # PyTorch 1.13 checks no lower bound: unfold(d, -1, 1) fails deep in
        # as_strided() with an overflow, or, when another dim has size 0,
        # makes a tensor with a size of -1. libtensor refuses it always.
        return Step('unfold(%d, %d, %d)' % (dim, size, step), lambda x: x.unfold(dim, size, step),
                    refused('a negative window size'))
    if step >= 2 ** 62:
        # PyTorch multiplies the stride by the step and wraps around: compare
        # with NumPy, PyTorch judging the arguments with a step of 1.
        return Step('unfold(%d, %d, %d)' % (dim, size, step), lambda x: x.unfold(dim, size, step),
                    None, numpy_op, oracle=lambda t: t.unfold(dim, size, 1), model_only=True)
    return Step('unfold(%d, %d, %d)' % (dim, size, step), lambda x: x.unfold(dim, size, step),
                lambda t: t.unfold(dim, size, step), numpy_op)


def gen_flip(rng, st):
    ndim = st.ndim
    dims = rng.sample(range(ndim), rng.randint(0, ndim)) if ndim else rng.choice([[], [0]])
    dims = [d - ndim if rng.random() < 0.3 and ndim else d for d in dims]
    if rng.random() < 0.08:
        dims.append(rng.choice([ndim, -ndim - 1]) if rng.random() < 0.5 or not dims else dims[0])

    def numpy_op(a):
        if a.ndim == 0:
            return a
        return np.flip(a, [wrap(d, a.ndim) for d in dims]) if dims else a
    return Step('flip(%s)' % dims, lambda x: x.flip(dims), None, numpy_op,
                oracle=lambda t: torch.flip(t, dims), model_only=True)


def gen_split(rng, st):
    dim = some_dim(rng, st.ndim)
    length = some_size(rng, st.sizes, dim)
    r = rng.random()
    if r < 0.35:
        size = rng.randint(0, length + 1) if rng.random() < 0.9 else rng.choice(
            [-1, 0, 2 ** 40, INT64_MAX])
        step = Step('split(%d, %d)' % (size, dim), lambda x: x.split(size, dim),
                    lambda t: t.split(size, dim), kind='pieces')
    elif r < 0.6:
        sizes = []
        while sum(sizes) < length:
            sizes.append(rng.randint(0, length - sum(sizes)))
        if rng.random() < 0.3:
            sizes.insert(rng.randint(0, len(sizes)), 0)
        if rng.random() < 0.1:
            sizes.append(rng.choice([1, -1]))
        elif rng.random() < 0.05 and sizes:
            sizes[0] = -sizes[0] - 1
        step = Step('split_with_sizes(%s, %d)' % (sizes, dim),
                    lambda x: x.split_with_sizes(sizes, dim),
                    lambda t: t.split_with_sizes(sizes, dim), kind='pieces')
    elif r < 0.85:
        # (PyTorch 1.13's chunk(2**63 - 1) overflows computing the piece size
        # and refuses; that accident is left out.)
        chunks = rng.randint(1, 5) if rng.random() < 0.9 else rng.choice([0, -1, 2 ** 40])
        if chunks == 2 ** 40 and length == 0:
            # PyTorch would allocate 2**40 empty pieces (libtensor refuses).
            chunks = 2
        step = Step('chunk(%d, %d)' % (chunks, dim), lambda x: x.chunk(chunks, dim),
                    lambda t: t.chunk(chunks, dim), kind='pieces')
    else:
        step = Step('unbind(%d)' % dim, lambda x: x.unbind(dim), lambda t: t.unbind(dim),
                    kind='pieces')
    step.pick = rng.random()
    step.dim = dim
    return step


def gen_copy(rng, st):
    if rng.random() < 0.5:
        return Step('contiguous()', lambda x: x.contiguous(), lambda t: t.contiguous(),
                    kind='copy')
    return Step('clone()', lambda x: x.clone(), lambda t: t.clone(), kind='copy')


def gen_complex(rng, st):
    if st.dtype.is_complex:
        return Step('view_as_real()', lambda x: x.view_as_real(), lambda t: torch.view_as_real(t),
                    kind='dtype')
    if st.dtype == torch.float16:
        # PyTorch would make a complex32 tensor, which libtensor does not have.
        return Step('view_as_complex() of float16', lambda x: x.view_as_complex(),
                    refused('complex32, a dtype it does not have'), kind='dtype')
    if rng.random() < 0.5 and st.ndim > 0:
        # Most tensors have no last dim of size 2: make one first.
        sizes = [-1, 2] if rng.random() < 0.8 else [2, -1]
        return Step('unflatten(-1, %s).view_as_complex()' % sizes,
                    lambda x: x.unflatten(-1, sizes).view_as_complex(),
                    lambda t: torch.view_as_complex(t.unflatten(-1, sizes)), kind='dtype')
    return Step('view_as_complex()', lambda x: x.view_as_complex(),
                lambda t: torch.view_as_complex(t), kind='dtype')


def gen_derived(rng, st):
    """The views PyTorch defines through the others (lt-tensor-views-derived.c)."""
    numel = math.prod(st.sizes)
    r = rng.random()
    if r < 0.2:
        shape = factor_shape(rng, numel)
        if any(size < 0 for size in shape):
            # The other tensor has real sizes; sometimes the wrong count.
            shape = [numel] if rng.random() < 0.7 else [numel + 1]
        other_lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, shape)
        other_t = torch.zeros(shape)
        if rng.random() < 0.5:
            return Step('view_as(%s)' % shape, lambda x: x.view_as(other_lt),
                        lambda t: t.view_as(other_t), lambda a, target: np_can_view(a, target),
                        kind='view-shape')
        return Step('reshape_as(%s)' % shape, lambda x: x.reshape_as(other_lt),
                    lambda t: t.reshape_as(other_t), lambda a, target: np_can_view(a, target),
                    kind='reshape')
    if r < 0.35:
        d0, d1 = some_dim(rng, st.ndim), some_dim(rng, st.ndim)
        return Step('swapaxes(%d, %d)' % (d0, d1), lambda x: x.swapaxes(d0, d1),
                    lambda t: t.swapaxes(d0, d1),
                    lambda a: np.swapaxes(a, wrap(d0, a.ndim), wrap(d1, a.ndim)) if a.ndim else a)
    if r < 0.5 or (r < 0.6 and st.dtype.is_complex):
        # (The adjoint of a complex tensor is a copy here, a conjugate view in
        # PyTorch: that case is checked in test-python-overrides.)
        return Step('mt()', lambda x: x.mt(), lambda t: t.mT,
                    lambda a: np.swapaxes(a, -2, -1) if a.ndim else a)
    if r < 0.6:
        return Step('adjoint()', lambda x: x.adjoint(), lambda t: t.adjoint(),
                    lambda a: np.swapaxes(a, -2, -1) if a.ndim else a)
    if r < 0.7:
        if st.dtype.is_complex:
            part = rng.choice(['real', 'imag'])
            return Step(part + '()', lambda x: getattr(x, part)(), lambda t: getattr(t, part),
                        kind='dtype')
        if rng.random() < 0.5:
            return Step('real()', lambda x: x.real(), lambda t: t.real, lambda a: a)
        return Step('imag()', lambda x: x.imag(), lambda t: t.imag, lambda a: a)
    if r < 0.75:
        return Step('detach()', lambda x: x.detach(), lambda t: t.detach(), lambda a: a)
    return gen_tensor_split(rng, st)


def gen_tensor_split(rng, st):
    dim = some_dim(rng, st.ndim)
    length = some_size(rng, st.sizes, dim)
    split = rng.choice(['tensor_split', 'hsplit', 'vsplit', 'dsplit'])
    if split != 'tensor_split':
        dim = {'hsplit': 1 if st.ndim != 1 else 0, 'vsplit': 0, 'dsplit': 2}[split]
        length = st.sizes[dim] if dim < st.ndim else 0
    if rng.random() < 0.5:
        sections = rng.randint(1, 5) if rng.random() < 0.9 else rng.choice([0, -1])
        if split != 'tensor_split' and rng.random() < 0.7 and length > 0:
            sections = rng.choice([d for d in range(1, length + 1) if length % d == 0])
        indices = None
        arg = sections
    else:
        indices = sorted(rng.randint(-length - 2, length + 2) for _ in range(rng.randint(0, 4)))
        if rng.random() < 0.2:
            rng.shuffle(indices)
        arg = indices
    if split == 'tensor_split':
        name = 'tensor_split(%s, %d)' % (arg, dim)
        lt_op = (lambda x: x.tensor_split(arg, dim)) if indices is None else (
            lambda x: x.tensor_split_indices(arg, dim))
        torch_op = lambda t: t.tensor_split(arg, dim)  # noqa: E731
    else:
        name = '%s(%s)' % (split, arg)
        lt_op = (lambda x: getattr(x, split)(arg)) if indices is None else (
            lambda x: getattr(x, split + '_indices')(arg))
        torch_op = lambda t: getattr(t, split)(arg)  # noqa: E731
    step = Step(name, lt_op, torch_op, kind='pieces')
    step.pick = rng.random()
    step.dim = dim
    return step


def in_place(name, lt_op, torch_op):
    """@lt_op and @torch_op applied in place to an alias of the tensor (so the
    chain's previous tensor keeps its shape), which is the step's result."""
    def lt_step(x):
        y = x.alias()
        result = lt_op(y)
        if result is not None and result is not True:
            raise AssertionError('%s returned %r, not TRUE' % (name, result))
        return y

    def torch_step(t):
        y = t[...]
        if torch_op(y) is not y:
            raise AssertionError('torch %s did not return the tensor itself' % name)
        return y
    return lt_step, torch_step


def gen_in_place(rng, st):
    """The in-place view ops (lt-tensor-views-in-place.c): the same layout as
    their out-of-place forms, in the tensor they are called on."""
    r = rng.random()
    if r < 0.25:
        dim = rng.randint(-st.ndim - 2, st.ndim + 1)
        lt_op, torch_op = in_place('unsqueeze_', lambda y: y.unsqueeze_(dim),
                                   lambda y: y.unsqueeze_(dim))
        return Step('unsqueeze_(%d)' % dim, lt_op, torch_op,
                    lambda a: np.expand_dims(a, wrap(dim, a.ndim + 1)))
    if r < 0.4:
        lt_op, torch_op = in_place('squeeze_', lambda y: y.squeeze_(), lambda y: y.squeeze_())
        return Step('squeeze_()', lt_op, torch_op, lambda a: np.squeeze(a))
    if r < 0.55:
        dim = some_dim(rng, st.ndim)
        lt_op, torch_op = in_place('squeeze_dim_', lambda y: y.squeeze_dim_(dim),
                                   lambda y: y.squeeze_(dim))

        def numpy_op(a):
            d = wrap(dim, a.ndim)
            return np.squeeze(a, axis=d) if a.ndim > 0 and a.shape[d] == 1 else a
        return Step('squeeze_dim_(%d)' % dim, lt_op, torch_op, numpy_op)
    if r < 0.7:
        lt_op, torch_op = in_place('t_', lambda y: y.t_(), lambda y: y.t_())
        return Step('t_()', lt_op, torch_op, lambda a: a.T)
    if r < 0.9:
        d0, d1 = some_dim(rng, st.ndim), some_dim(rng, st.ndim)
        lt_op, torch_op = in_place('transpose_', lambda y: y.transpose_(d0, d1),
                                   lambda y: y.transpose_(d0, d1))
        return Step('transpose_(%d, %d)' % (d0, d1), lt_op, torch_op,
                    lambda a: np.swapaxes(a, wrap(d0, a.ndim), wrap(d1, a.ndim)) if a.ndim else a)
    # as_strided_ over the tensor's own layout, moved by one element where
    # the storage allows: checked as as_strided() is.
    sizes, strides = list(st.lt.get_sizes()), list(st.lt.get_strides())
    if any(stride < 0 for stride in strides):
        raise Skip()
    offset = st.lt.get_storage_offset() + rng.choice([0, 1, -1])
    lt_op, torch_op = in_place('as_strided_', lambda y: y.as_strided_(sizes, strides, offset),
                               lambda y: y.as_strided_(sizes, strides, offset))
    return Step('as_strided_(%s, %s, %d)' % (sizes, strides, offset), lt_op, torch_op)


OPS = [
    (gen_select, 6), (gen_slice, 8), (gen_narrow, 4), (gen_index, 10), (gen_unsqueeze, 4),
    (gen_squeeze, 4), (gen_transpose, 6), (gen_permute, 4), (gen_movedim, 3), (gen_view, 12),
    (gen_expand, 5), (gen_as_strided, 5), (gen_diagonal, 4), (gen_unfold, 4), (gen_flip, 5),
    (gen_split, 6), (gen_copy, 3), (gen_complex, 3), (gen_derived, 6), (gen_in_place, 5),
]
OP_FUNCS = [op for op, weight in OPS for _ in range(weight)]


# Running one step -------------------------------------------------------------------

def as_list(result):
    return list(result) if isinstance(result, (list, tuple)) else None


def check_shares(where, lt, other, expected):
    if lt.shares_storage(other) != expected:
        raise Mismatch('%s: shares storage %s, expected %s'
                       % (where, lt.shares_storage(other), expected))


def torch_shares(a, b):
    """Whether two torch tensors share a storage; None when it cannot be told."""
    pa, pb = a.storage().data_ptr(), b.storage().data_ptr()
    if pa == 0 or pb == 0:
        return None
    return pa == pb


def step_torch(where, st, step, base):
    """Runs @step in torch mode. Returns the new state, or None to keep @st."""
    t_prev, lt_prev = st.t, st.lt
    if step.model_only:
        return step_model(where, st, step, base)
    t, t_error = call_torch(lambda: step.torch(t_prev))
    lt, lt_err = call_lt(lambda: step.lt(lt_prev))
    if t_error is not None and lt_err is not None:
        return None
    if t_error is not None:
        raise Mismatch('%s: torch refuses (%s: %s) but libtensor accepts'
                       % (where, type(t_error).__name__, str(t_error).split('\n')[0][:200]))
    if lt_err is not None:
        raise Mismatch('%s: libtensor refuses (%s) but torch accepts' % (where, lt_err.message))

    if step.kind == 'pieces':
        t_pieces, lt_pieces = as_list(t), as_list(lt)
        if len(t_pieces) != len(lt_pieces):
            raise Mismatch('%s: %d pieces, torch %d' % (where, len(lt_pieces), len(t_pieces)))
        for i, (tp, lp) in enumerate(zip(t_pieces, lt_pieces)):
            compare_torch('%s piece %d' % (where, i), tp, lp)
            check_shares('%s piece %d' % (where, i), lp, lt_prev, True)
        if not t_pieces:
            return 'restart'
        i = min(int(step.pick * len(t_pieces)), len(t_pieces) - 1)
        t, lt = t_pieces[i], lt_pieces[i]
    else:
        compare_torch(where, t, lt)

    shares_prev = torch_shares(t, t_prev)
    if step.kind in ('view', 'view-shape', 'dtype', 'pieces') and shares_prev is False:
        raise Mismatch('%s: torch copied a view' % where)
    if shares_prev is not None:
        check_shares(where, lt, lt_prev, shares_prev)
    shares_base = torch_shares(t, base.t)
    if shares_base is not None:
        check_shares(where + ' (with the base)', lt, base.lt, shares_base)
    new = State(lt, t, t.dtype)
    return new


def oracle_tensor(st):
    """A contiguous torch tensor of the current sizes, to validate arguments."""
    return torch.zeros(st.sizes, dtype=st.dtype)


def step_model(where, st, step, base):
    """A step compared with the NumPy model (from torch mode, the model is made
    from the torch tensor first)."""
    lt_prev = st.lt
    if st.t is not None:
        probe = st.t
    else:
        probe = oracle_tensor(st)
    if step.kind == 'as_strided' and not step.model_only:
        # Non-negative strides: PyTorch can answer, over the whole storage.
        t, t_error = call_torch(lambda: step.torch(st.store))
        lt, lt_err = call_lt(lambda: step.lt(lt_prev))
        if (t_error is None) != (lt_err is None):
            raise Mismatch('%s: torch %s, libtensor %s' % (
                where, 'refuses (%s)' % t_error if t_error else 'accepts',
                'refuses (%s)' % lt_err.message if lt_err else 'accepts'))
        if t is None:
            return None
        compare_torch(where, t, lt)
        check_shares(where, lt, lt_prev, True)
        new = State(lt, t, st.dtype)
        return new

    ref, ref_error = call_torch(lambda: step.oracle(probe))
    lt, lt_err = call_lt(lambda: step.lt(lt_prev))
    if ref_error is not None and lt_err is not None:
        return None
    if ref_error is not None:
        raise Mismatch('%s: torch refuses the arguments (%s: %s) but libtensor accepts'
                       % (where, type(ref_error).__name__, str(ref_error).split('\n')[0][:200]))

    model_st = State(lt_prev, st.t, st.dtype)
    model_st.model, model_st.store = st.model, st.store
    model_st.values, model_st.index_base = st.values, st.index_base
    model_st.enter_numpy()
    a = model_st.model

    if step.kind == 'copy':
        return copy_in_numpy(where, model_st, step, lt, lt_err)

    if step.kind == 'as_strided':
        sizes, strides, offset = step.args
        model = np_view(model_st.index_base, sizes, strides, offset)
    elif step.kind == 'pieces':
        return pieces_in_numpy(where, model_st, step, ref, probe, lt, lt_err)
    elif step.kind in ('view-shape', 'reshape'):
        target = list(ref.shape)
        model = step.numpy(a, target)
        if model is None and step.kind == 'reshape':
            return reshape_copy_in_numpy(where, model_st, step, target, lt, lt_err)
        if model is None:
            if lt_err is None:
                raise Mismatch('%s: NumPy cannot view the strides %s as %s without a copy, '
                               'but libtensor does' % (where, list(lt_prev.get_strides()),
                                                       target))
            return None
    else:
        model = step.numpy(a)

    if lt_err is not None:
        raise Mismatch('%s: libtensor refuses (%s) but the view exists' % (where, lt_err.message))
    compare_numpy(where, model_st, lt, model)
    check_shares(where, lt, lt_prev, True)
    new = State(lt, None, st.dtype)
    new.model, new.store = model, model_st.store
    new.values, new.index_base = model_st.values, model_st.index_base
    return leave_numpy(new)


def leave_numpy(st):
    """Back to torch mode once no stride is negative."""
    strides = list(st.lt.get_strides())
    # Huge strides (of size-1 dims, after a huge step) stay with the model:
    # PyTorch wraps them around when an op multiplies them, and refuses the
    # result when it comes out negative.
    if any(s < 0 or s > 2 ** 40 for s in strides):
        return st
    t = st.store.as_strided(list(st.lt.get_sizes()), strides, st.lt.get_storage_offset())
    new = State(st.lt, t, st.dtype)
    compare_torch('(back to torch)', t, st.lt)
    return new


def torch_from_values(values, sizes, strides, dtype):
    """A torch tensor with the given strides holding @values in row-major order."""
    flat = [v for group in values for v in group]
    if dtype.is_complex:
        real = torch.tensor(flat, dtype=torch.float64).reshape(-1, 2)
        dense = torch.view_as_complex(real).to(dtype)
    else:
        dense = torch.tensor(flat, dtype=torch.float64).to(dtype)
    out = torch.empty_strided(sizes, strides, dtype=dtype)
    out.copy_(dense.reshape(sizes))
    return out


def copy_in_numpy(where, st, step, lt, lt_err):
    """clone() and contiguous() of a tensor with negative strides."""
    if lt_err is not None:
        raise Mismatch('%s: libtensor refuses (%s)' % (where, lt_err.message))
    a = st.model
    sizes = list(a.shape)
    contiguous = is_contiguous_rule(sizes, np_strides(a))
    if step.name == 'contiguous()' and contiguous:
        # Returned as it is, as PyTorch does.
        if lt is not st.lt and (list(lt.get_strides()) != list(st.lt.get_strides())
                                or not lt.shares_storage(st.lt)):
            raise Mismatch('%s: contiguous() of a contiguous tensor copied' % where)
        compare_numpy(where, st, lt, a)
        new = State(lt, None, st.dtype)
        new.model, new.store, new.values, new.index_base = a, st.store, st.values, st.index_base
        return leave_numpy(new)
    if contiguous:
        # PyTorch keeps the strides of contiguous (and so of empty) tensors;
        # the strides of size-1 dims, negative ones too, are kept as they are.
        expected_strides = list(st.lt.get_strides())
    elif step.name == 'contiguous()':
        expected_strides = list(torch.empty(sizes).stride())
    else:
        # PyTorch's preserve_format for the same layout with |strides|.
        magnitudes = [abs(s) for s in st.lt.get_strides()]
        bounds = extent(sizes, magnitudes, 0)
        room = bounds[1] + 1 if bounds else 1
        expected_strides = list(torch.empty(room).as_strided(sizes, magnitudes).clone().stride())
    got = list(lt.get_strides())
    # PyTorch keeps the strides of size-1 dims when |strides| are dense;
    # libtensor lays out a clone of a tensor with negative strides afresh,
    # giving size-1 dims row-major strides. Those strides are never used and
    # PyTorch has no negative strides to compare with: only the others count.
    if any(g != e for g, e, n in zip(got, expected_strides, sizes) if n != 1) \
            or len(got) != len(sizes):
        raise Mismatch('%s: strides %s, expected %s' % (where, got, expected_strides))
    expected_strides = got
    if any(s < 0 or s > 2 ** 40 for s in expected_strides):
        # Still a negative or huge stride (of a size-1 dim): stay with the model.
        fresh = np.arange(math.prod(sizes), dtype=np.int64)
        new = State(lt, None, st.dtype)
        new.values = [st.values[i] for i in a.flatten().tolist()]
        new.index_base = fresh
        new.store = torch_from_values(new.values, [len(new.values)], [1], st.dtype)
        new.model = np_view(fresh, sizes, expected_strides,
                            -sum(s * (n - 1) for s, n in zip(expected_strides, sizes) if s < 0))
        if lt.get_storage_offset() != np_offset(new.model, fresh):
            raise Mismatch('%s: offset %d' % (where, lt.get_storage_offset()))
        check_shares(where, lt, st.lt, False)
        return new
    values = [st.values[i] for i in a.flatten().tolist()]
    t = torch_from_values(values, sizes, expected_strides, st.dtype)
    compare_torch(where, t, lt)
    check_shares(where, lt, st.lt, False)
    return State(lt, t, st.dtype)


def reshape_copy_in_numpy(where, st, step, target, lt, lt_err):
    if lt_err is not None:
        raise Mismatch('%s: libtensor refuses (%s)' % (where, lt_err.message))
    if lt.shares_storage(st.lt):
        raise Mismatch('%s: NumPy must copy to reshape %s to %s, libtensor made a view'
                       % (where, list(st.lt.get_strides()), target))
    values = [st.values[i] for i in st.model.flatten().tolist()]
    t = torch_from_values(values, target, list(torch.empty(target).stride()), st.dtype)
    compare_torch(where, t, lt)
    return State(lt, t, st.dtype)


def pieces_in_numpy(where, st, step, ref, probe, lt, lt_err):
    if lt_err is not None:
        raise Mismatch('%s: libtensor refuses (%s)' % (where, lt_err.message))
    ref, lt = as_list(ref), as_list(lt)
    if len(ref) != len(lt):
        raise Mismatch('%s: %d pieces, torch %d' % (where, len(lt), len(ref)))
    a = st.model
    d = wrap(step.dim, a.ndim)
    models = []
    for piece in ref:
        start = piece.storage_offset() // probe.stride(d) if probe.stride(d) else 0
        if step.name.startswith('unbind'):
            models.append(full_key(a, (slice(None),) * d + (start,)))
        else:
            models.append(a[(slice(None),) * d + (slice(start, start + piece.shape[d]),)])
    for i, (model, piece) in enumerate(zip(models, lt)):
        compare_numpy('%s piece %d' % (where, i), st, piece, model)
        check_shares('%s piece %d' % (where, i), piece, st.lt, True)
    if not lt:
        return 'restart'
    i = min(int(step.pick * len(lt)), len(lt) - 1)
    new = State(lt[i], None, st.dtype)
    new.model, new.store = models[i], st.store
    new.values, new.index_base = st.values, st.index_base
    return leave_numpy(new)


def step_numpy(where, st, step, base):
    """A step in NumPy mode: every op but the dtype views."""
    if step.kind == 'dtype':
        raise Skip()
    if step.kind == 'as_strided' and not step.model_only:
        return step_model(where, st, step, base)
    if step.numpy is None and step.kind not in ('pieces', 'copy'):
        raise Skip()
    return step_model(where, st, step, base)


# Chains -------------------------------------------------------------------------------

def new_base(rng):
    torch_dtype, lt_dtype = rng.choice(DTYPES)
    ndim = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5])
    while True:
        shape = [rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5]) if rng.random() < 0.93 else 0
                 for _ in range(ndim)]
        if math.prod(shape) <= 400:
            break
    numel = math.prod(shape)
    # Sometimes the storage is larger than the tensor and the tensor starts
    # inside it, as a view from an earlier computation would.
    extra = rng.choice([0, 0, 0, 1, 3]) if numel else 0
    flat = arange_like(numel + extra, torch_dtype)
    data = flat.view(torch.uint8).numpy().tobytes()
    lt_flat = Lt.Tensor.new_from_bytes(lt_dtype, GLib.Bytes.new(data), [numel + extra])
    t = flat.as_strided(shape, list(torch.empty(shape).stride()), extra)
    lt = lt_flat.as_strided(shape, list(torch.empty(shape).stride()), extra)
    return State(lt, t, torch_dtype)


STATS = {'chains': 0, 'steps': 0, 'compared': 0, 'refused': 0, 'numpy': 0}


def run_chain(seed, verbose=False):
    rng = random.Random(seed)
    base = new_base(rng)
    st = base
    steps = ['base %s %s offset %d' % (base.sizes, base.dtype, base.t.storage_offset())]
    compare_torch(steps[0], base.t, base.lt)
    if verbose:
        print('  ' + steps[0])
    n_steps = rng.randint(1, 9)
    done = 0
    attempts = 0
    while done < n_steps and attempts < 4 * n_steps:
        attempts += 1
        gen = rng.choice(OP_FUNCS)
        try:
            step = gen(rng, st)
            steps.append(step.name)
            where = ' -> '.join(steps)
            if verbose:
                print('  ' + step.name)
            if st.t is not None:
                result = step_torch(where, st, step, base)
            else:
                result = step_numpy(where, st, step, base)
        except Skip:
            steps.pop()
            continue
        done += 1
        STATS['steps'] += 1
        if result is None:
            STATS['refused'] += 1
            steps[-1] += ' (refused)'
            continue
        if result == 'restart':
            st = base
            steps.append('(no pieces: back to the base)')
            continue
        STATS['compared'] += 1
        if result.t is None:
            STATS['numpy'] += 1
        st = result
        if any(abs(s) >= 2 ** 61 for s in st.lt.get_strides()):
            # Only a huge step on a size-1 dim makes such a stride. Ops that
            # multiply or add it wrap around on both sides, and PyTorch then
            # refuses the results that come out negative, an accident
            # (check_explicit() checks libtensor's side): stop here.
            st = base
            steps.append('(huge stride: back to the base)')
        elif st.lt.get_storage_offset() >= 2 ** 61:
            # Only an empty as_strided() view can start this far; shifting
            # it further overflows, which libtensor refuses with
            # LT_ERROR_OVERFLOW (check_explicit() has a case) and PyTorch
            # wraps around: stop here.
            st = base
            steps.append('(huge offset: back to the base)')
        if verbose:
            print('    -> sizes %s strides %s offset %d' % (
                st.sizes, list(st.lt.get_strides()), st.lt.get_storage_offset()))
    STATS['chains'] += 1
    return steps


# Explicit cases ---------------------------------------------------------------------

def lt_arange(n, dtype=Lt.DType.INT64):
    return Lt.Tensor.new_arange(0, n, 1, dtype)


def expect_lt_error(what, fn, code=None):
    try:
        fn()
    except GLib.Error as e:
        lt_error(e)
        if code is not None and e.code != int(code):
            raise Mismatch('%s: error code %d, expected %d (%s)' % (what, e.code, int(code),
                                                                    e.message))
        return e
    raise Mismatch('%s: libtensor accepts' % what)


def expect_torch_error(what, fn):
    try:
        fn()
    except TORCH_ERRORS:
        return
    raise Mismatch('%s: torch accepts' % what)


def check_explicit():
    # The edges of the view rule.
    t = torch.arange(24).view(2, 3, 4).transpose(0, 1).view(3, 2, 2, 2)
    lt = lt_arange(24).view([2, 3, 4]).transpose(0, 1).view([3, 2, 2, 2])
    compare_torch('arange(24).view(2,3,4).transpose(0,1).view(3,2,2,2)', t, lt)
    if list(lt.get_strides()) != [4, 12, 2, 1]:
        raise Mismatch('transpose then view: strides %s' % list(lt.get_strides()))
    expect_torch_error('transpose then view(3, 8)',
                       lambda: torch.arange(24).view(2, 3, 4).transpose(0, 1).view(3, 8))
    e = expect_lt_error('transpose then view(3, 8)',
                        lambda: lt_arange(24).view([2, 3, 4]).transpose(0, 1).view([3, 8]),
                        Lt.Error.NOT_VIEWABLE)
    if 'reshape()' not in e.message:
        raise Mismatch('the view error does not point at reshape(): %s' % e.message)

    t = torch.arange(48).view(2, 6, 4)[:, :3].view(2, 12)
    lt = lt_arange(48).view([2, 6, 4]).index('[:, :3]').view([2, 12])
    compare_torch('arange(48).view(2,6,4)[:, :3].view(2,12)', t, lt)
    if list(lt.get_strides()) != [24, 1]:
        raise Mismatch('sliced then view: strides %s' % list(lt.get_strides()))
    expect_torch_error('sliced then view(6, 4)',
                       lambda: torch.arange(48).view(2, 6, 4)[:, :3].view(6, 4))
    expect_lt_error('sliced then view(6, 4)',
                    lambda: lt_arange(48).view([2, 6, 4]).index('[:, :3]').view([6, 4]),
                    Lt.Error.NOT_VIEWABLE)

    t = torch.empty(0, 3).view(3, 0)
    lt = Lt.Tensor.new_empty(Lt.DType.FLOAT32, [0, 3]).view([3, 0])
    compare_torch('empty(0, 3).view(3, 0)', t, lt)
    expect_torch_error('empty(0, 3).view(-1, 0)', lambda: torch.empty(0, 3).view(-1, 0))
    expect_lt_error('empty(0, 3).view(-1, 0)',
                    lambda: Lt.Tensor.new_empty(Lt.DType.FLOAT32, [0, 3]).view([-1, 0]))

    # clone() keeps the layout as torch's preserve_format does.
    cases = [
        (lambda m: m.permute([2, 0, 1]), lambda x: x.permute([2, 0, 1])),
        (lambda m: m[:, ::2], lambda x: x.index('[:, ::2]')),
        (lambda m: m.transpose(0, 2)[1:], lambda x: x.transpose(0, 2).index('[1:]')),
        (lambda m: m[:, :1].expand(2, 3, 4), lambda x: x.index('[:, :1]').expand([2, 3, 4])),
        (lambda m: m.permute([1, 2, 0])[:, :0], lambda x: x.permute([1, 2, 0]).index('[:, :0]')),
        (lambda m: m.unsqueeze(1).transpose(1, 3), lambda x: x.unsqueeze(1).transpose(1, 3)),
        (lambda m: m[0, :, None].expand(3, 5, 4), lambda x: x.index('[0, :, None]')
         .expand([3, 5, 4])),
    ]
    for i, (torch_fn, lt_fn) in enumerate(cases):
        t = torch_fn(torch.arange(24.).view(2, 3, 4)).clone()
        lt = lt_fn(lt_arange(24, Lt.DType.FLOAT32).view([2, 3, 4])).clone()
        compare_torch('clone case %d' % i, t, lt)

    # view_as_complex of float16 would be complex32 in torch: refused here.
    expect_lt_error('view_as_complex() of float16',
                    lambda: Lt.Tensor.new_zeros(Lt.DType.FLOAT16, [3, 2]).view_as_complex(),
                    Lt.Error.DTYPE)

    # flip() is a view with negative strides whose values are torch.flip's.
    t = torch.arange(24.).view(2, 3, 4)
    lt = lt_arange(24, Lt.DType.FLOAT32).view([2, 3, 4])
    for dims in ([0], [2], [0, 2], [-1, 1], [0, 1, 2], []):
        flipped = lt.flip(dims)
        if list(flipped.to_doubles()) != torch_values(torch.flip(t, dims)):
            raise Mismatch('flip(%s): values' % dims)
        if not flipped.shares_storage(lt):
            raise Mismatch('flip(%s) copied' % dims)
        if list(flipped.contiguous().to_doubles()) != torch_values(torch.flip(t, dims)):
            raise Mismatch('flip(%s).contiguous(): values' % dims)
    flipped = lt.flip([1])
    if list(flipped.get_strides()) != [12, -4, 1] or flipped.get_storage_offset() != 8:
        raise Mismatch('flip([1]): strides %s offset %d' % (list(flipped.get_strides()),
                                                           flipped.get_storage_offset()))
    backwards = lt.index('[:, ::-2]')
    if list(backwards.to_doubles()) != torch_values(torch.flip(t, [1])[:, ::2]):
        raise Mismatch('[:, ::-2]: values')

    # libtensor tensors have at most 64 dims (LT_MAX_DIMS); PyTorch has no
    # such limit for views. Going past it is an error, not a crash.
    many = Lt.Tensor.new_zeros(Lt.DType.COMPLEX64, [1] * 64)
    for what, fn in (('unsqueeze', lambda: many.unsqueeze(0)),
                     ('view', lambda: many.view([1] * 65)),
                     ('index', lambda: many.index('[None]')),
                     ('unfold', lambda: many.unfold(0, 1, 1)),
                     ('view_as_real', lambda: many.view_as_real()),
                     ('expand', lambda: many.expand([1] * 65)),
                     ('unflatten', lambda: many.unflatten(0, [1, 1]))):
        expect_lt_error('%s of a 64-dim tensor' % what, fn)
    if list(many.permute(list(range(63, -1, -1))).get_sizes()) != [1] * 64:
        raise Mismatch('permute of a 64-dim tensor')

    # An empty expanded view has no overlap, so it can be written to.
    t = torch.zeros(1, 0).expand(3, 0)
    lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [1, 0]).expand([3, 0])
    compare_torch('zeros(1, 0).expand(3, 0)', t, lt)
    if not lt.fill(1.0):
        raise Mismatch('fill() of an empty expanded view')

    # Storage offsets are never negative, even for an empty slice of a
    # flipped tensor at the start of its storage.
    lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [1, 4]).flip([0]).index('[1:]')
    if lt.get_storage_offset() != 0:
        raise Mismatch('empty slice of a flip: offset %d' % lt.get_storage_offset())

    # Strides that are never used (a dim of size 1 after a huge step) may be
    # huge; ops that double, add or multiply them wrap around, as PyTorch's
    # arithmetic does, rather than refuse; the values are still read.
    lt = Lt.Tensor.new_zeros(Lt.DType.COMPLEX128, [2, 1]).index('[:, ::-9223372036854775808]')
    if list(lt.get_strides()) != [1, -INT64_MAX] or list(lt.to_doubles()) != [0.0] * 4:
        raise Mismatch('huge unused stride: strides %s' % list(lt.get_strides()))
    for what, fn in (('view_as_real', lambda: lt.view_as_real()),
                     ('unsqueeze', lambda: lt.unsqueeze(1)),
                     ('diagonal', lambda: lt.t().index('[::-9223372036854775808]').diagonal(
                         0, 0, 1)),
                     ('unfold', lambda: lt.unfold(1, 1, INT64_MAX)),
                     ('slice', lambda: lt.slice(1, 0, 1, INT64_MAX))):
        try:
            fn()
        except GLib.Error as e:
            raise Mismatch('%s with a huge unused stride refused: %s' % (what, e.message))
    # Shifting the huge offset of an empty view overflows: refused.
    far = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [1]).as_strided([0, 2], [2, 5], INT64_MAX)
    expect_lt_error('slice of an empty view at offset 2**63 - 1',
                    lambda: far.slice(1, 1, INT64_MAX, 1), Lt.Error.OVERFLOW)
    expect_lt_error('flip of an empty view at offset 2**63 - 1',
                    lambda: far.flip([1]), Lt.Error.OVERFLOW)
    # Only the offset of an empty view can be too large to double.
    expect_lt_error('view_as_real() of an empty view at offset 2**62',
                    lambda: Lt.Tensor.new_zeros(Lt.DType.COMPLEX64, [1])
                    .as_strided([0], [1], 2 ** 62).view_as_real(), Lt.Error.OVERFLOW)
    # chunk(2**63 - 1) gives pieces of 1 (PyTorch overflows and refuses).
    if len(lt_arange(3).chunk(INT64_MAX, 0)) != 3:
        raise Mismatch('chunk(2**63 - 1)')
    t = torch.zeros(1).as_strided([2 ** 31, 0], [2 ** 40 + 1, 1]).unsqueeze(0)
    lt = Lt.Tensor.new_zeros(Lt.DType.FLOAT32, [1]).as_strided([2 ** 31, 0], [2 ** 40 + 1, 1],
                                                              0).unsqueeze(0)
    if list(lt.get_strides()) != list(t.stride()):
        raise Mismatch('unsqueeze of a huge empty view: strides %s, torch %s'
                       % (list(lt.get_strides()), list(t.stride())))

    # Syntax errors name the column; they are Lt parse errors.
    for text in ('[1,,2]', '[::0]', '[1:2:3:4]', '[None None]', '[abc]', '[1', '1]', '[...,...]',
                 '[- 1]', '[1.5]', '[99999999999999999999]', '[:, ]]', '[(1)]'):
        expect_lt_error('index(%r)' % text, lambda: lt.index(text))


# Index expression texts: mutations, against a recognizer of the grammar ---------------

INDEX_TOKEN_CHARS = ':,[]N.+-0123456789 e\tx_'


class SyntaxAt(Exception):
    """A syntax error at a 0-based position of the text."""

    def __init__(self, pos):
        super().__init__(pos)
        self.pos = pos


def recognize(text):
    """The grammar of lt-index-expr.c, written again from its comment, reading
    left to right as the parser does. Returns the key the text means or
    'step0' for a zero step, and raises SyntaxAt where the text leaves the
    grammar (for an integer that does not fit in 64 bits, where it starts)."""
    pos = 0
    n = len(text)

    def spaces():
        nonlocal pos
        while pos < n and text[pos] in ' \t':
            pos += 1

    def integer():
        nonlocal pos
        start = pos
        if pos < n and text[pos] in '+-':
            pos += 1
        if pos >= n or not text[pos].isdigit():
            pos = start
            return None
        while pos < n and text[pos].isdigit():
            pos += 1
        value = int(text[start:pos])
        if not INT64_MIN <= value <= INT64_MAX:
            raise SyntaxAt(start)
        return value

    spaces()
    bracketed = pos < n and text[pos] == '['
    if bracketed:
        pos += 1
    spaces()
    keys = []
    names = []
    while pos < n and text[pos] != ']':
        spaces()
        item_at = pos
        if text.startswith('None', pos) and not (pos + 4 < n and (text[pos + 4].isalnum()
                                                                  or text[pos + 4] == '_')):
            pos += 4
            keys.append(None)
        elif text[pos].isascii() and (text[pos].isalpha() or text[pos] == '_'):
            # A name, which stands for a tensor argument: only
            # index_with_tensors() takes them, so index() refuses it where
            # it stands once the whole text has parsed.
            names.append(pos)
            while pos < n and text[pos].isascii() and (text[pos].isalnum() or text[pos] == '_'):
                pos += 1
            keys.append(None)
        elif text.startswith('...', pos):
            pos += 3
            if Ellipsis in keys:
                raise SyntaxAt(item_at)
            keys.append(Ellipsis)
        else:
            spaces()
            first = integer()
            spaces()
            if pos < n and text[pos] == ':':
                pos += 1
                spaces()
                stop = integer()
                spaces()
                step = None
                if pos < n and text[pos] == ':':
                    pos += 1
                    spaces()
                    step = integer()
                    if step == 0:
                        # Reported as soon as it is read, before what follows.
                        return 'step0'
                keys.append(slice(first, stop, step))
            elif first is None:
                raise SyntaxAt(pos)
            else:
                keys.append(first)
        spaces()
        if pos < n and text[pos] == ',':
            pos += 1
            spaces()
        elif pos < n and text[pos] != ']':
            raise SyntaxAt(pos)
    if bracketed:
        if pos >= n or text[pos] != ']':
            raise SyntaxAt(pos)
        pos += 1
    elif pos < n and text[pos] == ']':
        raise SyntaxAt(pos)
    spaces()
    if pos != n:
        raise SyntaxAt(pos)
    if names:
        raise SyntaxAt(names[0])
    return tuple(keys)


def check_index_texts(n_cases, seed):
    """Mutated index texts: libtensor parses exactly the grammar, and what it
    parses means what PyTorch (or NumPy, for negative steps) says."""
    rng = random.Random(seed)
    compared = 0
    for case in range(n_cases):
        st = new_base(rng)
        text, _ = random_index(rng, st.ndim, st.sizes, rng.random() < 0.3)
        for _ in range(rng.randint(0, 3)):
            if not text:
                break
            i = rng.randrange(len(text) + 1)
            r = rng.random()
            if r < 0.4:
                text = text[:i] + rng.choice(INDEX_TOKEN_CHARS) + text[i:]
            elif r < 0.8:
                text = text[:i] + text[i + 1:]
            else:
                text = text[:i] + text[i:i + 3] + text[i:]
        where = 'seed %d case %d: index(%r) of %s' % (seed, case, text, st.sizes)
        try:
            key = recognize(text)
        except SyntaxAt as e:
            key = e
        result, err = call_lt(lambda: st.lt.index(text))
        if isinstance(key, SyntaxAt) or key == 'step0':
            if err is None:
                raise Mismatch('%s: outside the grammar, but libtensor accepts' % where)
            if key == 'step0':
                if err.code != int(Lt.Error.INVALID_ARGUMENT) or 'step' not in err.message:
                    raise Mismatch('%s: zero step reported as: %s' % (where, err.message))
                continue
            # The message names the 1-based column where the text went wrong.
            if err.code != int(Lt.Error.PARSE) or 'column %d' % (key.pos + 1) not in err.message:
                raise Mismatch('%s: syntax error at column %d reported with code %d: %s'
                               % (where, key.pos + 1, err.code, err.message))
            continue
        # A bracketed, non-empty text in the grammar is also a Python subscript
        # (leading zeros aside, which Python refuses and the grammar allows).
        stripped = text.strip()
        if stripped.startswith('[') and stripped != '[]' and stripped.strip('[] \t') and \
                not any(len(tok) > 1 and tok.lstrip('+-').startswith('0')
                        for tok in stripped.replace(':', ' ').replace(',', ' ').strip('[]')
                        .split()):
            try:
                compile('x' + stripped, '<index>', 'eval')
            except SyntaxError:
                raise Mismatch('%s: the grammar accepts what Python does not' % where)
        sanitized = sanitize_key(key)
        if sanitized is not None:
            _, ref_error = call_torch(lambda: st.t[sanitized])
            if (ref_error is None) != (err is None):
                raise Mismatch('%s: torch %s, libtensor %s' % (
                    where, 'refuses' if ref_error else 'accepts',
                    'refuses (%s)' % err.message if err else 'accepts'))
            if err is None:
                st.enter_numpy()
                compare_numpy(where, st, result, full_key(st.model, key))
        else:
            t, t_error = call_torch(lambda: st.t[key])
            if (t_error is None) != (err is None):
                raise Mismatch('%s: torch %s, libtensor %s' % (
                    where, 'refuses (%s)' % t_error if t_error else 'accepts',
                    'refuses (%s)' % err.message if err else 'accepts'))
            if err is None:
                compare_torch(where, t, result)
        compared += 1
    return compared


# Main -------------------------------------------------------------------------------------

def main():
    started = time.monotonic()
    n_chains = int(os.environ.get('LT_CHAINS', '4000'))
    first = int(os.environ.get('LT_FIRST', '0'))
    replay = 'LT_SEED' in os.environ
    seeds = [int(os.environ['LT_SEED'])] if replay else range(first, first + n_chains)
    failures = 0

    try:
        check_explicit()
    except Mismatch as e:
        print('explicit case failed: %s' % e)
        failures += 1

    for seed in seeds:
        if os.environ.get('LT_TRACE'):
            print('seed', seed, flush=True)
        try:
            steps = run_chain(seed, verbose=replay)
            if replay:
                print('chain %d: %s' % (seed, ' -> '.join(steps)))
        except Mismatch as e:
            failures += 1
            print('chain %d failed (replay with LT_SEED=%d):\n  %s' % (seed, seed, e))
        except Exception:
            failures += 1
            print('chain %d crashed (replay with LT_SEED=%d):' % (seed, seed))
            traceback.print_exc()
            if failures >= 20:
                print('too many failures; stopping')
                break

    n_texts = 0 if replay else 3000
    try:
        texts = check_index_texts(n_texts, 7)
    except Mismatch as e:
        failures += 1
        texts = 0
        print('index text failed: %s' % e)

    print('%d chains, %d steps (%d compared, %d of them in NumPy mode; %d refused by both), '
          '%d index texts; PyTorch %s, NumPy %s; %.1f s'
          % (STATS['chains'], STATS['steps'], STATS['compared'], STATS['numpy'],
             STATS['refused'], texts, torch.__version__, np.__version__,
             time.monotonic() - started))
    if failures:
        print('%d failures' % failures)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
