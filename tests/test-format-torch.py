#!/usr/bin/python3
# test-format-torch.py: Lt.Tensor.to_string() against PyTorch 1.13's repr()
#
# Builds seeded random tensors of every dtype, of many shapes (0-dim, empty,
# summarised, deeply nested, wrapping rows) and value distributions (small
# integers, mixed magnitudes, nan/inf, values on either side of the
# scientific-notation thresholds, rounding ties), the same in torch and in Lt,
# views them the same way (transposes, flips, strided slices, expands), and
# checks that the two strings are identical. The values are taken from the
# torch tensor after its conversion to the dtype, so both sides hold the same
# bits and only the printing is compared.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import random
import sys

# Only the introspected C API is used: this test checks the C printer, and the
# Python overrides (tested on their own) must not stand in for it. PyGObject
# loads no overrides for a namespace whose module is None in sys.modules.
sys.modules["gi.overrides.Lt"] = None

import gi  # noqa: E402

gi.require_version("Lt", "1.0")
from gi.repository import Lt  # noqa: E402

import torch  # noqa: E402

SEED = 20221028
N_RANDOM_CASES = 3000

DTYPES = [
    (Lt.DType.BOOL, torch.bool),
    (Lt.DType.UINT8, torch.uint8),
    (Lt.DType.INT8, torch.int8),
    (Lt.DType.INT16, torch.int16),
    (Lt.DType.INT32, torch.int32),
    (Lt.DType.INT64, torch.int64),
    (Lt.DType.FLOAT16, torch.float16),
    (Lt.DType.BFLOAT16, torch.bfloat16),
    (Lt.DType.FLOAT32, torch.float32),
    (Lt.DType.FLOAT64, torch.float64),
    (Lt.DType.COMPLEX64, torch.complex64),
    (Lt.DType.COMPLEX128, torch.complex128),
]
LT_DTYPE = {torch_dtype: lt_dtype for lt_dtype, torch_dtype in DTYPES}
REAL_OF = {torch.complex64: torch.float32, torch.complex128: torch.float64}

INT_RANGES = {
    torch.uint8: (0, 255),
    torch.int8: (-128, 127),
    torch.int16: (-(2**15), 2**15 - 1),
    torch.int32: (-(2**31), 2**31 - 1),
    # new_from_data takes doubles: stay where they are exact.
    torch.int64: (-(2**53), 2**53),
}

NAN = float("nan")
INF = float("inf")
SPECIALS = [NAN, INF, -INF, 0.0, -0.0]

# Values on either side of the thresholds of torch's _Formatter: a max/min
# ratio of 1000, a max of 1e8, a min of 1e-4, and decimals that round on a tie.
THRESHOLD_SETS = [
    [1.0, 1000.0],
    [1.0, 1000.5],
    [1.0, 1001.0],
    [0.5, 500.0],
    [0.5, 500.5],
    [0.25, 250.0],
    [1e-4, 0.5],
    [9.999e-5, 0.5],
    [1.0001e-4, 0.05],
    [1e8, 2e5],
    [1e8 + 1, 2e5],
    [99999999.0, 5e5],
    [99999999.5, 1e6],
    [100000008.0, 1e6],
    [12345678.0, 98765.4321],
    [0.00015, 0.1],
    [0.03125, 0.5],
    [0.15625, 3.0],
    [1.00005, 2.0],
    [2.5, 3.5, 0.5],
    [123.45675, 6.0],
    [1e-300, 1e300],
    [5e-324, 1.0],
    [1.7976931348623157e308, 1.0],
    [65504.0, 1.0],
    [3.3895313892515355e38, 1.0],
]


def gen_small_ints(rng, n):
    return [float(rng.randint(-10, 10)) for _ in range(n)]


def gen_wide_ints(rng, n):
    scale = 10 ** rng.randint(1, 12)
    return [float(rng.randint(-scale, scale)) for _ in range(n)]


def gen_unit(rng, n):
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def gen_scaled_normal(rng, n):
    scale = 10.0 ** rng.randint(-7, 11)
    return [rng.gauss(0.0, 1.0) * scale for _ in range(n)]


def gen_mixed_magnitudes(rng, n):
    low = rng.uniform(-10, 2)
    high = low + rng.uniform(0, 12)
    return [rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(low, high) for _ in range(n)]


def gen_positive(rng, n):
    return [rng.uniform(0.0, 10.0 ** rng.randint(0, 4)) for _ in range(n)]


def gen_ties(rng, n):
    shift = rng.randint(1, 18)
    return [rng.randint(-4000, 4000) / 2.0**shift for _ in range(n)]


def gen_thresholds(rng, n):
    anchors = rng.choice(THRESHOLD_SETS)
    sign = rng.random() < 0.3
    values = []
    for i in range(n):
        if i < len(anchors) or rng.random() < 0.3:
            value = anchors[i % len(anchors)]
        else:
            value = rng.uniform(min(anchors), max(anchors))
            if all(a == math.floor(a) for a in anchors):
                value = float(math.floor(value))
        values.append(-value if sign and rng.random() < 0.5 else value)
    rng.shuffle(values)
    return values


def gen_all_specials(rng, n):
    return [rng.choice(SPECIALS) for _ in range(n)]


FLOAT_GENERATORS = [
    gen_small_ints,
    gen_wide_ints,
    gen_unit,
    gen_scaled_normal,
    gen_mixed_magnitudes,
    gen_positive,
    gen_ties,
    gen_thresholds,
    gen_all_specials,
]


def with_specials(rng, values):
    if values and rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            values[rng.randrange(len(values))] = rng.choice(SPECIALS)
    return values


def float_values(rng, n):
    return with_specials(rng, rng.choice(FLOAT_GENERATORS)(rng, n))


def int_values(rng, torch_dtype, n):
    if torch_dtype == torch.bool:
        p = rng.choice([0.0, 0.5, 1.0])
        return [int(rng.random() < p) for _ in range(n)]
    low, high = INT_RANGES[torch_dtype]
    kind = rng.randrange(3)
    if kind == 0:
        low, high = max(low, -10), min(high, 10)
    elif kind == 1:
        scale = 10 ** rng.randint(1, 15)
        low, high = max(low, -scale), min(high, scale)
    values = [rng.randint(low, high) for _ in range(n)]
    if kind == 2 and values:
        values[0] = INT_RANGES[torch_dtype][rng.randrange(2)]
    return values


def new_pair(rng, torch_dtype, shape):
    """A torch tensor and an Lt tensor holding the same values."""
    n = math.prod(shape)
    lt_dtype = LT_DTYPE[torch_dtype]

    if torch_dtype.is_complex:
        real = torch.tensor(float_values(rng, n), dtype=torch.float64)
        imag = torch.tensor(float_values(rng, n), dtype=torch.float64)
        t = torch.complex(real, imag).reshape(shape).to(torch_dtype)
        parts = torch.view_as_real(t).to(torch.float64).flatten().tolist()
        lt_real = Lt.Tensor.new_from_data(LT_DTYPE[REAL_OF[torch_dtype]], parts, list(shape) + [2])
        return t, lt_real.view_as_complex()

    if torch_dtype.is_floating_point:
        t = torch.tensor(float_values(rng, n), dtype=torch.float64).reshape(shape).to(torch_dtype)
    else:
        t = torch.tensor(int_values(rng, torch_dtype, n), dtype=torch_dtype).reshape(shape)
    exact = t.to(torch.float64).flatten().tolist()
    return t, Lt.Tensor.new_from_data(lt_dtype, exact, list(shape))


def random_view(rng, t, lt):
    """Applies the same few view ops to both tensors."""
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        ndim = t.dim()
        ops = ["expand"]
        if ndim >= 1:
            ops += ["flip", "slice", "select"]
        if ndim >= 2:
            ops += ["transpose", "permute"]
        op = rng.choice(ops)
        if op == "flip":
            dims = rng.sample(range(ndim), rng.randint(1, ndim))
            t, lt = t.flip(dims), lt.flip(dims)
        elif op == "slice":
            dim = rng.randrange(ndim)
            size = t.shape[dim]
            start = rng.randint(0, size)
            stop = rng.randint(start, size)
            step = rng.randint(1, 3)
            index = [slice(None)] * ndim
            index[dim] = slice(start, stop, step)
            t, lt = t[tuple(index)], lt.slice(dim, start, stop, step)
        elif op == "select":
            dim = rng.randrange(ndim)
            if t.shape[dim] == 0:
                continue
            index = rng.randrange(t.shape[dim])
            t, lt = t.select(dim, index), lt.select(dim, index)
        elif op == "transpose":
            dim0, dim1 = rng.sample(range(ndim), 2)
            t, lt = t.transpose(dim0, dim1), lt.transpose(dim0, dim1)
        elif op == "permute":
            dims = list(range(ndim))
            rng.shuffle(dims)
            t, lt = t.permute(dims), lt.permute(dims)
        elif op == "expand":
            dim = rng.randint(0, ndim)
            sizes = list(t.shape)
            sizes.insert(dim, rng.randint(1, 4))
            t = t.unsqueeze(dim).expand(sizes)
            lt = lt.unsqueeze(dim).expand(sizes)
    return t, lt


SHAPES = [
    (), (0,), (0, 3), (3, 0), (2, 0, 1), (1,), (2,), (5,), (3, 2), (2, 3), (4, 4),
    (2, 3, 4), (1, 1, 1), (2, 1, 3, 1), (7,), (13,), (30,), (100,), (257,), (1000,),
    (1001,), (2000,), (40, 40), (3, 334), (334, 3), (7, 7, 7), (7, 7, 7, 7), (2,) * 10,
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 40), (1,) * 30 + (12,), (2, 3, 30), (8, 1, 130),
]


def random_shape(rng):
    if rng.random() < 0.4:
        return rng.choice(SHAPES)
    return tuple(rng.randint(1, 9) for _ in range(rng.randint(1, 4)))


class Checker:
    def __init__(self):
        self.compared = 0
        self.mismatches = []

    def check(self, description, t, lt):
        expected = repr(t)
        actual = lt.to_string()
        self.compared += 1
        if actual != expected:
            self.mismatches.append((description, expected, actual))


def check_random(checker, rng):
    for case in range(N_RANDOM_CASES):
        _, torch_dtype = rng.choice(DTYPES)
        shape = random_shape(rng)
        t, lt = new_pair(rng, torch_dtype, shape)
        t, lt = random_view(rng, t, lt)
        checker.check(f"random case {case}: {torch_dtype}, shape {tuple(t.shape)}", t, lt)


def check_thresholds(checker, rng):
    """Every threshold set alone and in every floating dtype, in two shapes."""
    for anchors in THRESHOLD_SETS:
        for torch_dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
            for values in (anchors, [-a for a in anchors] + [0.0], anchors + [NAN, -INF]):
                base = torch.tensor(values, dtype=torch.float64).to(torch_dtype)
                exact = base.to(torch.float64).tolist()
                lt = Lt.Tensor.new_from_data(LT_DTYPE[torch_dtype], exact, [len(exact)])
                checker.check(f"thresholds {values} as {torch_dtype}", base, lt)
                checker.check(f"thresholds {values} as {torch_dtype}, 0-dim",
                              base[0], lt.select(0, 0))


def check_huge_expanded(checker):
    """1e8 elements that are never all read: both sides expand a few values."""
    t = torch.tensor([[1.5], [-2.25], [NAN], [1e-3], [7.0]])
    lt = Lt.Tensor.new_from_data(Lt.DType.FLOAT32, [1.5, -2.25, NAN, 1e-3, 7.0], [5, 1])
    checker.check("expanded (5, 20000000)", t.expand(5, 20000000), lt.expand([5, 20000000]))
    t = torch.tensor([3], dtype=torch.int16)
    lt = Lt.Tensor.new_from_data(Lt.DType.INT16, [3.0], [1])
    checker.check("expanded (100000000,)", t.expand(10**8), lt.expand([10**8]))


def check_int64_extremes(checker):
    values = [2**63 - 1, -(2**63), 2**53 + 1, -1]
    lt = Lt.Tensor.new_zeros(Lt.DType.INT64, [len(values)])
    for i, value in enumerate(values):
        lt.set_int64([i], value)
    checker.check("int64 extremes", torch.tensor(values), lt)


def check_complex_literals(checker):
    for literal in ("[1+2j, -0.5-0.25j, 3j]", "[[1e-5+1j, 2-1e6j], [0j, 0-1j]]", "4-4j"):
        for lt_dtype, torch_dtype in ((Lt.DType.COMPLEX64, torch.complex64),
                                      (Lt.DType.COMPLEX128, torch.complex128)):
            lt = Lt.Tensor.new_from_literal_with_dtype(literal, lt_dtype)
            t = torch.tensor(eval(literal), dtype=torch_dtype)
            checker.check(f"complex literal {literal} as {torch_dtype}", t, lt)


def main():
    rng = random.Random(SEED)
    checker = Checker()

    check_random(checker, rng)
    check_thresholds(checker, rng)
    check_huge_expanded(checker)
    check_int64_extremes(checker)
    check_complex_literals(checker)

    if checker.mismatches:
        description, expected, actual = checker.mismatches[0]
        print(f"{len(checker.mismatches)} of {checker.compared} cases differ; the first, "
              f"{description}:")
        print(f"torch:\n{expected}\nLt:\n{actual}")
        return 1
    print(f"all {checker.compared} cases print as torch does")
    return 0


if __name__ == "__main__":
    sys.exit(main())
