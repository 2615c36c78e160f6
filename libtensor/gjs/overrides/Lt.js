// Lt.js: gjs's overrides for libtensor, PyTorch's names in JavaScript
//
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// gjs applies this file to the Lt namespace whenever a script imports it
// (`import Lt from 'gi://Lt?version=1.0'`): installed under
// $datadir/gjs-1.0/overrides, which gjs searches, or in a build tree through
// GJS_PATH (the tests and `meson devenv` set it). It adds what the Python
// overrides give Python, where JavaScript can say it the same way:
//
//  - the dtypes under PyTorch's names and aliases: Lt.float32, Lt.double,
//    Lt.long, Lt.bool, ...;
//  - the factories with PyTorch's arguments, sizes as numbers or one array,
//    then an optional object of options ({dtype, device, names}):
//    Lt.zeros(2, 3), Lt.ones([2, 3], {dtype: Lt.int64}), Lt.full([2], 7),
//    Lt.arange(5), Lt.linspace(0, 1, 5), Lt.eye(3), Lt.rand(2, 2),
//    Lt.randn(3), Lt.randint(0, 10, [4]), Lt.tensor([[4, 1], [5, 3]]),
//    Lt.zerosLike(t), Lt.onesLike(t), Lt.fullLike(t, 2);
//  - on tensors: shape, toString() and stride() (dtype and storageOffset
//    are the tensor's GObject properties already).
//
// JavaScript numbers are all doubles, so Lt.tensor() cannot tell 4 from
// 4.0 as Python does: numbers make float32 tensors (PyTorch's default
// dtype), booleans bool and BigInts int64, unless {dtype} says.

const {GLib, Lt} = imports.gi;

const DTYPE_NAMES = {
    bool: Lt.DType.BOOL,
    uint8: Lt.DType.UINT8,
    int8: Lt.DType.INT8,
    int16: Lt.DType.INT16, short: Lt.DType.INT16,
    int32: Lt.DType.INT32, int: Lt.DType.INT32,
    int64: Lt.DType.INT64, long: Lt.DType.INT64,
    float16: Lt.DType.FLOAT16, half: Lt.DType.FLOAT16,
    bfloat16: Lt.DType.BFLOAT16,
    float32: Lt.DType.FLOAT32, float: Lt.DType.FLOAT32,
    float64: Lt.DType.FLOAT64, double: Lt.DType.FLOAT64,
    complex64: Lt.DType.COMPLEX64, cfloat: Lt.DType.COMPLEX64,
    complex128: Lt.DType.COMPLEX128, cdouble: Lt.DType.COMPLEX128,
};

function asDType(dtype, fallback) {
    if (dtype === undefined || dtype === null)
        return fallback;
    if (typeof dtype === 'string') {
        const name = dtype.replace(/^(torch|Lt)\./, '');
        if (name in DTYPE_NAMES)
            return DTYPE_NAMES[name];
        throw new TypeError(`unknown dtype '${dtype}'; use one of Lt.${
            Object.keys(DTYPE_NAMES).join(', Lt.')}`);
    }
    if (Number.isInteger(dtype) && Lt.dtype_is_valid(dtype))
        return dtype;
    throw new TypeError(`dtype must be an Lt.DType or a dtype name, not ${dtype}`);
}

// The sizes and the options of f(2, 3, {dtype}) or f([2, 3], {dtype}).
function sizesAndOptions(args, what) {
    let options = {};
    if (args.length > 0 && typeof args[args.length - 1] === 'object' &&
        !Array.isArray(args[args.length - 1])) {
        options = args[args.length - 1];
        args = args.slice(0, -1);
    }
    const sizes = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    for (const size of sizes) {
        if (!Number.isInteger(size))
            throw new TypeError(`${what} takes integer sizes, as numbers or one array, not ${size}`);
    }
    return [sizes, options];
}

// The keywords every factory takes: the tensor moved to options.device,
// its dims named options.names.
function placed(tensor, options) {
    let result = tensor;
    if (options.names !== undefined && options.names !== null)
        result = result.refine_names(options.names.map(name => name ?? ''));
    if (options.device !== undefined && options.device !== null) {
        const device = typeof options.device === 'string'
            ? Lt.Device.new_from_string(options.device) : options.device;
        if (!device.equal(result.get_device()))
            result = result.to_device(device);
    }
    return result;
}

function factory(what, make) {
    return (...args) => {
        const [sizes, options] = sizesAndOptions(args, what);
        return placed(make(asDType(options.dtype, Lt.DType.FLOAT32), sizes, options), options);
    };
}

let defaultGenerator = null;

function generatorOf(options) {
    if (options.generator)
        return options.generator;
    if (defaultGenerator === null) {
        const seed = GLib.random_int() * 0x100000000 + GLib.random_int();
        defaultGenerator = Lt.Generator.new(seed);
    }
    return defaultGenerator;
}

function literal(data) {
    if (Array.isArray(data))
        return `[${data.map(literal).join(', ')}]`;
    if (typeof data === 'boolean')
        return data ? 'True' : 'False';
    if (typeof data === 'bigint')
        return data.toString();
    if (typeof data === 'number') {
        if (Number.isNaN(data))
            return 'nan';
        if (!Number.isFinite(data))
            return data > 0 ? 'inf' : '-inf';
        return Number.isInteger(data) ? `${data}.0` : `${data}`;
    }
    throw new TypeError(`Lt.tensor() takes numbers, booleans, BigInts and arrays of them, not ${
        typeof data}`);
}

function inferredDType(data) {
    if (Array.isArray(data))
        return data.length > 0 ? inferredDType(data.flat(Infinity)[0]) : Lt.DType.FLOAT32;
    if (typeof data === 'boolean')
        return Lt.DType.BOOL;
    if (typeof data === 'bigint')
        return Lt.DType.INT64;
    return Lt.DType.FLOAT32;
}

function like(what, tensor, options, fill) {
    if (!(tensor instanceof Lt.Tensor))
        throw new TypeError(`${what} takes a tensor`);
    // Of the tensor's sizes, names, device and memory order, zeroed.
    const result = Lt.Tensor.new_empty_like(tensor, asDType(options.dtype, tensor.get_dtype()));
    if (fill !== 0)
        result.fill(fill);
    return placed(result, options);
}

function _init() {
    for (const [name, dtype] of Object.entries(DTYPE_NAMES))
        this[name] = dtype;

    this.zeros = factory('Lt.zeros()', (dtype, sizes) => Lt.Tensor.new_zeros(dtype, sizes));
    this.ones = factory('Lt.ones()', (dtype, sizes) => Lt.Tensor.new_ones(dtype, sizes));
    this.empty = factory('Lt.empty()', (dtype, sizes) => Lt.Tensor.new_empty(dtype, sizes));
    this.rand = factory('Lt.rand()',
        (dtype, sizes, options) => Lt.Tensor.new_rand(generatorOf(options), dtype, sizes));
    this.randn = factory('Lt.randn()',
        (dtype, sizes, options) => Lt.Tensor.new_randn(generatorOf(options), dtype, sizes));

    this.full = (sizes, value, options = {}) => {
        if (!Array.isArray(sizes))
            throw new TypeError('Lt.full() takes the sizes as an array, such as [2, 3]');
        const dtype = asDType(options.dtype,
            typeof value === 'boolean' ? Lt.DType.BOOL : Lt.DType.FLOAT32);
        return placed(Lt.Tensor.new_full(dtype, sizes, Number(value)), options);
    };
    this.arange = (...args) => {
        let options = {};
        if (args.length > 0 && typeof args[args.length - 1] === 'object')
            options = args.pop();
        let [start, end, step = 1] = args;
        if (end === undefined)
            [start, end] = [0, start];
        const integral = [start, end, step].every(Number.isInteger);
        const dtype = asDType(options.dtype, integral ? Lt.DType.INT64 : Lt.DType.FLOAT32);
        return placed(Lt.Tensor.new_arange(start, end, step, dtype), options);
    };
    this.linspace = (start, end, steps, options = {}) =>
        placed(Lt.Tensor.new_linspace(start, end, steps,
            asDType(options.dtype, Lt.DType.FLOAT32)), options);
    this.eye = (n, m = n, options = {}) => {
        if (typeof m === 'object') {
            options = m;
            m = n;
        }
        return placed(Lt.Tensor.new_eye(n, m, asDType(options.dtype, Lt.DType.FLOAT32)),
            options);
    };
    this.randint = (low, high, sizes, options = {}) =>
        placed(Lt.Tensor.new_randint(generatorOf(options), low, high,
            asDType(options.dtype, Lt.DType.INT64), sizes), options);
    this.tensor = (data, options = {}) => {
        const dtype = asDType(options.dtype, inferredDType(data));
        return placed(Lt.Tensor.new_from_literal_with_dtype(literal(data), dtype), options);
    };
    this.zerosLike = (tensor, options = {}) => like('Lt.zerosLike()', tensor, options, 0);
    this.onesLike = (tensor, options = {}) => like('Lt.onesLike()', tensor, options, 1);
    this.fullLike = (tensor, value, options = {}) =>
        like('Lt.fullLike()', tensor, options, Number(value));
    this.manualSeed = seed => {
        defaultGenerator = Lt.Generator.new(seed);
    };

    Object.defineProperties(Lt.Tensor.prototype, {
        shape: {get() {
            return this.get_sizes();
        }, configurable: true},
    });
    Lt.Tensor.prototype.toString = function () {
        return this.to_string();
    };
    Lt.Tensor.prototype.stride = function (dim) {
        const strides = this.get_strides();
        return dim === undefined ? strides : strides.at(dim);
    };
}
