// grayscale.js: the seed chapter's weighted grayscale image, three ways
//
// An image of 3 channels (red, green, blue) of 5 x 5 pixels, and a batch of
// two, become gray with the luminance weights 0.2126, 0.7152 and 0.0722:
//   1. unsqueeze the weights to (3, 1, 1), multiply (broadcasting), sum dim -3;
//   2. einsum('...chw,c->...hw');
//   3. name the dims, align the weights as the image, sum by "channels".
// The three must agree; the script fails (exit status 1) if they do not.
//
// Run from a build tree with: meson devenv -C _build gjs -m ../examples/grayscale.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Lt from 'gi://Lt?version=1.0';
import System from 'system';

const generator = Lt.Generator.new(2026);
const imgT = Lt.Tensor.new_randn(generator, Lt.DType.FLOAT32, [3, 5, 5]);
const batchT = Lt.Tensor.new_randn(generator, Lt.DType.FLOAT32, [2, 3, 5, 5]);
const weights = Lt.Tensor.new_from_literal('[0.2126, 0.7152, 0.0722]');

function shape(tensor) {
    return `(${tensor.get_sizes().join(', ')})`;
}

function names(tensor) {
    return `(${tensor.get_names().map(n => n === '' ? 'None' : `'${n}'`).join(', ')})`;
}

// 1. Broadcasting: weights of shape (3, 1, 1) against (..., 3, 5, 5).
function grayBroadcast(image) {
    const unsqueezed = weights.unsqueeze(-1).unsqueeze(-1);
    return image.binary(Lt.BinaryOp.MUL, unsqueezed).sum([-3], false);
}

// 2. einsum, with '...' for the batch dims if there are any.
function grayEinsum(image) {
    return Lt.einsum('...chw,c->...hw', [image, weights]);
}

// 3. Named dims: the weights are aligned to the image by name.
function grayNamed(image) {
    const imageNamed = image.refine_names(['...', 'channels', 'rows', 'columns']);
    const weightsNamed = weights.refine_names(['channels']);
    const aligned = weightsNamed.align_as(imageNamed);
    const [, channels] = imageNamed.dim_of_name('channels');
    const gray = imageNamed.binary(Lt.BinaryOp.MUL, aligned).sum([channels], false);

    print(`  weights aligned as the image: ${shape(aligned)} ${names(aligned)}`);
    print(`  gray, named: ${shape(gray)} ${names(gray)}`);
    return gray.rename([]);
}

let ok = true;
for (const [label, image] of [['img_t', imgT], ['batch_t', batchT]]) {
    print(`${label} ${shape(image)}:`);
    const broadcast = grayBroadcast(image);
    const fancy = grayEinsum(image);
    const named = grayNamed(image);

    print(`  broadcast and sum: ${shape(broadcast)}; einsum: ${shape(fancy)}`);
    for (const [what, other] of [['einsum', fancy], ['named dims', named]]) {
        const [, close] = broadcast.allclose(other, 1e-5, 1e-6, false);
        print(`  ${what} agrees with broadcasting: ${close}`);
        ok = ok && close;
    }
}

// Names that do not line up are refused, as the seed shows.
try {
    const imageNamed = imgT.refine_names(['channels', 'rows', 'columns']);
    imageNamed.index('..., :3').binary(Lt.BinaryOp.MUL, weights.refine_names(['channels']));
    print('mismatched names were not refused');
    ok = false;
} catch (e) {
    print(`mismatched names: ${e.message}`);
}

print(imgT.binary(Lt.BinaryOp.MUL, weights.unsqueeze(-1).unsqueeze(-1))
    .sum([-3], false).to_string());
System.exit(ok ? 0 : 1);
