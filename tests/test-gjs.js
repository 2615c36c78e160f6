// test-gjs.js: the introspected API from JavaScript (gjs)
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Lt from 'gi://Lt?version=1.0';
import {assertEqual, check, finish} from './gjs-tap.js';

function assertThrowsLt(code, fn) {
    try {
        fn();
    } catch (e) {
        if (!(e instanceof GLib.Error))
            throw new Error(`expected a GLib.Error, got ${e}`);
        if (!e.matches(Lt.error_quark(), code))
            throw new Error(`expected Lt error ${code}, got ${e.code}: ${e.message}`);
        if (e.message.length === 0)
            throw new Error('the error has no message');
        return e;
    }
    throw new Error(`expected Lt error ${code}, nothing was thrown`);
}

function points() {
    return Lt.Tensor.new_from_literal('[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]');
}

check('points has sizes (3, 2) and strides (2, 1)', () => {
    const p = points();
    assertEqual(p.get_sizes(), [3, 2], 'sizes');
    assertEqual(p.get_strides(), [2, 1], 'strides');
    assertEqual(p.get_dim(), 2, 'dim');
    assertEqual(p.get_numel(), 6, 'numel');
    assertEqual(p.get_dtype(), Lt.DType.FLOAT32, 'dtype');
    assertEqual(p.dtype, Lt.DType.FLOAT32, 'dtype property');
    assertEqual(p.contiguous_layout, true, 'contiguous-layout property');
    assertEqual(p.is_contiguous(), true, 'is_contiguous()');
});

check('points[1] is a view at offset 2', () => {
    const p = points();
    const second = p.select(0, 1);
    assertEqual(second.get_sizes(), [2], 'sizes');
    assertEqual(second.get_strides(), [1], 'strides');
    assertEqual(second.get_storage_offset(), 2, 'offset');
    assertEqual(second.to_doubles(), [5, 3], 'values');
    assertEqual(p.index('[1]').to_doubles(), [5, 3], 'index');
});

check('writing through a view changes the base; clone does not', () => {
    const p = points();
    p.select(0, 1).set_double([0], 10);
    assertEqual(p.to_doubles(), [4, 1, 10, 3, 2, 1], 'after the view write');
    const copy = p.select(0, 1).clone();
    copy.set_double([0], -1);
    assertEqual(p.to_doubles(), [4, 1, 10, 3, 2, 1], 'after the clone write');
    assertEqual(copy.shares_storage(p), false, 'clone shares storage');
});

check('points.t() swaps the strides and shares the storage', () => {
    const p = points();
    const t = p.t();
    assertEqual(t.get_strides(), [1, 2], 'strides');
    assertEqual(t.shares_storage(p), true, 'shares storage');
    assertEqual(t.is_contiguous(), false, 'contiguous');
    assertEqual(t.get_storage_indices(), [0, 2, 4, 1, 3, 5], 'storage indices');
    const c = t.contiguous();
    assertEqual(c.get_strides(), [3, 1], 'contiguous strides');
    assertEqual(c.to_doubles(), [4, 5, 2, 1, 3, 1], 'contiguous values');
});

check('view follows the stride rule and reshape copies', () => {
    const x = Lt.Tensor.new_arange(0, 24, 1, Lt.DType.FLOAT32).view([2, 3, 4]).transpose(0, 1);
    assertEqual(x.view([3, 2, 2, 2]).get_strides(), [4, 12, 2, 1], 'split strides');
    const e = assertThrowsLt(Lt.Error.NOT_VIEWABLE, () => x.view([3, 8]));
    if (!e.message.includes('reshape()'))
        throw new Error(`the message does not suggest reshape(): ${e.message}`);
    assertEqual(x.reshape([3, 8]).get_strides(), [8, 1], 'reshape strides');
});

check('more view ops', () => {
    const x = Lt.Tensor.new_arange(0, 12, 1, Lt.DType.INT64).view([3, 4]);
    assertEqual(x.permute([1, 0]).get_strides(), [1, 4], 'permute');
    assertEqual(x.unsqueeze(0).get_sizes(), [1, 3, 4], 'unsqueeze');
    assertEqual(x.unsqueeze(0).squeeze().get_sizes(), [3, 4], 'squeeze');
    assertEqual(x.diagonal(0, 0, 1).to_doubles(), [0, 5, 10], 'diagonal');
    assertEqual(x.narrow(1, 1, 2).get_storage_offset(), 1, 'narrow');
    assertEqual(x.slice(1, 0, 4, 2).to_doubles(), [0, 2, 4, 6, 8, 10], 'slice');
    assertEqual(x.flatten(0, -1).get_sizes(), [12], 'flatten');
    assertEqual(x.unflatten(1, [2, 2]).get_sizes(), [3, 2, 2], 'unflatten');
    assertEqual(x.select(1, 0).unfold(0, 2, 1).get_sizes(), [2, 2], 'unfold');
    assertEqual(x.index('[:, :1]').expand([3, 5]).get_strides(), [4, 0], 'expand');
    assertEqual(x.as_strided([2, 2], [1, 2], 1).to_doubles(), [1, 3, 2, 4], 'as_strided');
    assertEqual(x.split(2, 0).length, 2, 'split');
    assertEqual(x.chunk(2, 1).map(c => c.get_sizes()), [[3, 2], [3, 2]], 'chunk');
    assertEqual(x.unbind(0)[2].to_doubles(), [8, 9, 10, 11], 'unbind');
    assertEqual(x.movedim([0], [1]).get_strides(), [1, 4], 'movedim');
    assertEqual(x.index('[::-1, 0]').to_doubles(), [8, 4, 0], 'negative step');
});

check('errors arrive as GLib.Error in the Lt domain', () => {
    const p = points();
    assertThrowsLt(Lt.Error.INDEX_OUT_OF_RANGE, () => p.select(0, 3));
    assertThrowsLt(Lt.Error.PARSE, () => p.index('[1:, x]'));
    assertThrowsLt(Lt.Error.SHAPE_MISMATCH, () => p.view([4, 2]));
    assertThrowsLt(Lt.Error.OUT_OF_BOUNDS, () => p.as_strided([7], [1], 0));
    assertThrowsLt(Lt.Error.INTERNAL_OVERLAP, () => p.index('[:1]').expand([4, 2]).fill(0));
});

check('a seeded generator repeats its numbers', () => {
    const a = Lt.Tensor.new_rand(Lt.Generator.new(3), Lt.DType.FLOAT64, [5]).to_doubles();
    const b = Lt.Tensor.new_rand(Lt.Generator.new(3), Lt.DType.FLOAT64, [5]).to_doubles();
    assertEqual(a, b, 'values');
    if (a.some(v => v < 0 || v >= 1))
        throw new Error(`values outside [0, 1): ${a}`);
});

check('to_string prints as PyTorch does', () => {
    assertEqual(points().to_string(), 'tensor([[4., 1.],\n        [5., 3.],\n        [2., 1.]])',
        'text');
});

check('devices are named, listed and used as in PyTorch', () => {
    const names = Lt.device_list();
    assertEqual(names[0], 'cpu', 'first device');
    assertEqual(Lt.Device.new_from_string('cuda').to_string(), 'cuda:0', 'parsed name');
    assertThrowsLt(Lt.Error.PARSE, () => Lt.Device.new_from_string('gpu'));
    assertThrowsLt(Lt.Error.DEVICE,
        () => points().to_device(Lt.Device.new(Lt.DeviceType.OPENCL, 4096)));
    if (names.includes('opencl:0')) {
        const d = points().to_device(Lt.Device.new_from_string('opencl:0'));
        assertEqual(d.get_device().to_string(), 'opencl:0', 'device');
        assertEqual(d.t().to_cpu().to_doubles(), [4, 5, 2, 1, 3, 1], 'values back');
        assertEqual(d.add(d, 1).to_cpu().to_doubles(), [8, 2, 10, 6, 4, 2], "add on the device");
        assertEqual(d.binary(Lt.BinaryOp.DIV, d).to_cpu().to_doubles(), [1, 1, 1, 1, 1, 1],
            'division on the device');
        assertEqual(d.matmul(d.t()).to_cpu().to_doubles(),
            points().matmul(points().t()).to_doubles(), 'matmul on the device');
        assertThrowsLt(Lt.Error.DEVICE, () => d.add(points(), 1));
    }
});

check('the overrides give PyTorch\'s dtype names', () => {
    assertEqual(Lt.float32, Lt.DType.FLOAT32, 'float32');
    assertEqual(Lt.float, Lt.DType.FLOAT32, 'float');
    assertEqual(Lt.double, Lt.DType.FLOAT64, 'double');
    assertEqual(Lt.long, Lt.DType.INT64, 'long');
    assertEqual(Lt.bool, Lt.DType.BOOL, 'bool');
    assertEqual(Lt.cdouble, Lt.DType.COMPLEX128, 'cdouble');
});

check('the overrides give PyTorch\'s factories', () => {
    const z = Lt.zeros(2, 3);
    assertEqual(z.shape, [2, 3], 'zeros shape');
    assertEqual(z.dtype, Lt.float32, 'zeros dtype');
    assertEqual(Lt.zeros([2, 3], {dtype: Lt.int64}).dtype, Lt.int64, 'zeros dtype option');
    assertEqual(Lt.ones(3, {dtype: 'float64'}).to_doubles(), [1, 1, 1], 'ones');
    assertEqual(Lt.full([2], 7).to_doubles(), [7, 7], 'full');
    assertEqual(Lt.arange(4).dtype, Lt.int64, 'integral arange');
    assertEqual(Lt.arange(0, 1, 0.5).to_doubles(), [0, 0.5], 'float arange');
    assertEqual(Lt.linspace(0, 1, 3).to_doubles(), [0, 0.5, 1], 'linspace');
    assertEqual(Lt.eye(2).to_doubles(), [1, 0, 0, 1], 'eye');
    assertEqual(Lt.rand(2, 2).shape, [2, 2], 'rand');
    assertEqual(Lt.randint(0, 10, [5]).dtype, Lt.int64, 'randint');
    Lt.manualSeed(7);
    const first = Lt.randn(4).to_doubles();
    Lt.manualSeed(7);
    assertEqual(Lt.randn(4).to_doubles(), first, 'manualSeed repeats');
    const p = Lt.tensor([[4, 1], [5, 3], [2, 1]]);
    assertEqual(p.dtype, Lt.float32, 'numbers are float32');
    assertEqual(`${p}`, points().to_string(), 'toString');
    assertEqual(p.stride(), [2, 1], 'stride()');
    assertEqual(p.stride(-1), 1, 'stride(-1)');
    assertEqual(p.index('[1]').storageOffset, 2, 'storageOffset');
    assertEqual(Lt.tensor([true, false]).dtype, Lt.bool, 'booleans are bool');
    assertEqual(Lt.tensor([1n, 2n]).dtype, Lt.int64, 'BigInts are int64');
    assertEqual(Lt.tensor([NaN, Infinity]).to_string(), 'tensor([nan, inf])', 'specials');
    assertEqual(Lt.zerosLike(p).shape, [3, 2], 'zerosLike');
    assertEqual(Lt.fullLike(p, 2, {dtype: Lt.int32}).dtype, Lt.int32, 'fullLike dtype');
    assertEqual(Lt.zeros(2, {names: ['N']}).get_names(), ['N'], 'names');
    let thrown = null;
    try {
        Lt.zeros(2.5);
    } catch (e) {
        thrown = e;
    }
    if (!(thrown instanceof TypeError))
        throw new Error(`Lt.zeros(2.5) threw ${thrown}, not a TypeError`);
    assertThrowsLt(Lt.Error.DEVICE, () => Lt.zeros(2, {device: 'opencl:4096'}));
});

check('index expressions take tensor arguments', () => {
    const p = points();
    const idx = Lt.tensor([2, 0], {dtype: Lt.int64});
    const picked = p.index_with_tensors('[idx, 1:]', ['idx'], [idx]);
    assertEqual(picked.shape, [2, 1], 'sizes');
    assertEqual(picked.to_doubles(), [1, 1], 'values');
    assertEqual(picked.shares_storage(p), false, 'a copy');
    const mask = Lt.tensor([true, false, true]);
    p.index_put_with_tensors_('[m, 0]', ['m'], [mask], Lt.tensor(9), false);
    assertEqual(p.to_doubles(), [9, 1, 5, 3, 9, 1], 'written through a mask');
    assertThrowsLt(Lt.Error.INVALID_ARGUMENT,
        () => p.index_with_tensors('[other]', ['idx'], [idx]));
    assertThrowsLt(Lt.Error.INDEX_OUT_OF_RANGE,
        () => p.index_with_tensors('[idx]', ['idx'], [Lt.tensor([3], {dtype: Lt.int64})]));
});

finish();
