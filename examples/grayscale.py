#!/usr/bin/env python3
# grayscale.py: section 3.4 of the seed chapter (named tensors), run with
# libtensor in place of PyTorch
#
# The chapter's code, almost verbatim: `torch` here is libtensor's Python
# module. (The one change: unsqueeze() instead of the in-place unsqueeze_(),
# since libtensor's tensors never change their shape in place.)
# It checks that the three ways to a gray image agree, and exits with
# status 1 if they do not.
#
# Run from a build tree with: meson devenv -C _build /usr/bin/python3 ../examples/grayscale.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

import gi

gi.require_version('Lt', '1.0')
from gi.repository import Lt as torch  # noqa: E402

torch.manual_seed(2026)

# In[2]:
img_t = torch.randn(3, 5, 5)  # shape [channels, rows, columns]
weights = torch.tensor([0.2126, 0.7152, 0.0722])

# In[3]:
batch_t = torch.randn(2, 3, 5, 5)  # shape [batch, channels, rows, columns]

# In[4]:
img_gray_naive = img_t.mean(-3)
batch_gray_naive = batch_t.mean(-3)
print(img_gray_naive.shape, batch_gray_naive.shape)

# In[5]:
unsqueezed_weights = weights.unsqueeze(-1).unsqueeze(-1)
img_weights = (img_t * unsqueezed_weights)
batch_weights = (batch_t * unsqueezed_weights)
img_gray_weighted = img_weights.sum(-3)
batch_gray_weighted = batch_weights.sum(-3)
print(batch_weights.shape, batch_t.shape, unsqueezed_weights.shape)

# In[6]:
img_gray_weighted_fancy = torch.einsum('...chw,c->...hw', img_t, weights)
batch_gray_weighted_fancy = torch.einsum('...chw,c->...hw', batch_t, weights)
print(batch_gray_weighted_fancy.shape)

# In[7]:
weights_named = torch.tensor([0.2126, 0.7152, 0.0722], names=['channels'])
print(weights_named)

# In[8]:
img_named = img_t.refine_names(..., 'channels', 'rows', 'columns')
batch_named = batch_t.refine_names(..., 'channels', 'rows', 'columns')
print("img named:", img_named.shape, img_named.names)
print("batch named:", batch_named.shape, batch_named.names)

# In[9]:
weights_aligned = weights_named.align_as(img_named)
print(weights_aligned.shape, weights_aligned.names)

# In[10]:
gray_named = (img_named * weights_aligned).sum('channels')
print(gray_named.shape, gray_named.names)

# In[11]:
try:
    gray_named = (img_named[..., :3] * weights_named).sum('channels')
except gi.repository.GLib.Error as error:
    print(error.message)

# In[12]:
gray_plain = gray_named.rename(None)
print(gray_plain.shape, gray_plain.names)

checks = {
    'einsum, one image': img_gray_weighted_fancy.allclose(img_gray_weighted),
    'einsum, the batch': batch_gray_weighted_fancy.allclose(batch_gray_weighted),
    'named dims': gray_plain.allclose(img_gray_weighted),
    'shapes': (gray_plain.shape, batch_gray_weighted.shape) == ((5, 5), (2, 5, 5)),
    'names': gray_named.names == ('rows', 'columns'),
}
for what, ok in checks.items():
    print(f'{what}: {"agrees" if ok else "DIFFERS"}')
sys.exit(0 if all(checks.values()) else 1)
