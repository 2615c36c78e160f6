// points.js: the seeds' points tensor from JavaScript
//
// Run from a build tree with: meson devenv -C _build gjs -m ../examples/points.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Lt from 'gi://Lt?version=1.0';

// gjs's overrides for Lt (libtensor/gjs/overrides/Lt.js) give PyTorch's
// factories and dtype names: Lt.tensor(), Lt.zeros(), Lt.float32...
function describe(name, tensor) {
    print(`${name} = ${tensor}`);
    print(`  sizes [${tensor.shape}], strides [${tensor.stride()}], ` +
          `storage offset ${tensor.storageOffset}, ` +
          `${tensor.is_contiguous() ? 'contiguous' : 'not contiguous'}`);
    print(`  storage cells in row-major order: [${tensor.get_storage_indices()}]`);
}

const points = Lt.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]);
describe('points', points);

const second = points.index('[1]');
describe('points[1]', second);

const pointsT = points.t();
describe('points.t()', pointsT);
print(`  shares the storage of points: ${pointsT.shares_storage(points)}`);

const copy = pointsT.contiguous();
describe('points.t().contiguous()', copy);
print(`  shares the storage of points: ${copy.shares_storage(points)}`);

try {
    pointsT.view([6]);
} catch (e) {
    print(`points.t().view([6]) fails: ${e.message}`);
}
