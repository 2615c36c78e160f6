# seed_snippets.py: the code examples of the seed texts, as test-seed-snippets.py runs them
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Data only: SESSIONS, one entry per notebook or post, each a list of cells
# run in order in one namespace. Seeds: 000 and 001 are a tensor chapter of
# Deep Learning with PyTorch in two translations (000 its older section 2.3,
# 001 chapter 3), 002 a CSDN post on view/reshape/transpose, 003 PyTorch's
# Tensor Views page, 004 a Q&A on flatten() (its page is in the text twice).
#
# How they were extracted: each seed was read by hand for its code, and the
# line ranges found were copied out of the seed by a script, so that every
# cell is the seed's text as it stands; the test checks it against the seeds
# where they are at hand. 'line' is the seed line the cell starts on.
#   - 001: every `# In[n]:` cell, from the line after the marker to its
#     `# Out[n]:` or the prose after it ('label' keeps the In[n]). After
#     "其中," the book shows five cells again with its margin notes
#     (`<-----...`) and `...` for the lines left out: those are cells too,
#     flagged 'callouts'; the runner takes the notes off (rerunning them sets
#     again what their cells set, and changes nothing later). In[2] to In[12]
#     of section 3.4 are the named-tensor notebook's: a session of their own.
#     The 1_tensors.ipynb cells run in the order the text gives them (it visits
#     their numbers out of order; that order prints the same). Also the one
#     unnumbered cell, line 244, which the text shows failing.
#   - 000: each code block followed by 输出: (output).
#   - 002: its three code blocks, one session (the third uses the second's x).
#   - 003, 004: one cell per `>>>` line (a REPL shows every expression), a
#     comment line going with the prompt after it; output lines left out,
#     prompts kept ('style': 'doctest': the runner takes them off). 004's
#     array illustrations and its `//` pseudo-code block are cells too.
#   - Not extracted: code inside a sentence (`torch.tensor([2,2]`,
#     `points > 1.0`, `tensor[0, 2:, 1:7:2]`, `tensor.flatten(start_dim=2)`...)
#     and 004's formulas (`k = A.size[1] * i + j`, `B[i, j, _] = A[i, j, _, _]`).
#   - Whitespace fixed: 004's `A =` and `B =`, which the extraction split from
#     their lists, are joined to them. Nothing else is changed.
# The seeds hold no cell that writes files, needs CUDA or needs h5py: the
# sections of 001 that would (3.9 to 3.12) are headings only.
#
# Session keys: 'seed' (file name), 'title', 'cells', and optionally 'setup'
# (code run first, through the same swap as the cells: `import torch`, for
# texts that import it before the part in the seed) and 'style' ('doctest').
# Cell keys: 'line', 'code' and optionally 'label', 'callouts', 'random' (why
# only the shapes and dtypes shown are compared), 'addresses' (why only the
# type of what is shown is compared), 'fails' (why the cell fails, with
# PyTorch as with libtensor).

SESSIONS = [
    {
        'seed': '000_047cec61834277d0.txt',
        'title': ('2.3 尺寸、存储偏移与步长 (a translation of section 2.3 of Deep Learning with PyTorch,'
                  ' older version)'),
        'setup': 'import torch',
        'cells': [
            {'line': 25,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
second_point = points[1]
second_point.storage_offset()'''},
            {'line': 32,
             'code': '''\
second_point.size()'''},
            {'line': 40,
             'code': '''\
second_point.shape'''},
            {'line': 48,
             'code': '''\
points.stride()'''},
            {'line': 60,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
second_point = points[1]
second_point.size()'''},
            {'line': 67,
             'code': '''\
second_point.storage_offset()'''},
            {'line': 72,
             'code': '''\
second_point.stride()'''},
            {'line': 80,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
second_point = points[1]
second_point[0] = 10.0
points'''},
            {'line': 93,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
second_point = points[1].clone()
second_point[0] = 10.0
points'''},
            {'line': 106,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
points'''},
            {'line': 114,
             'code': '''\
points_t = points.t()
points_t'''},
            {'line': 124,
             'addresses': ('id() of two temporaries: each storage() object is freed before '
                             'the next is made, so the ids are equal only when CPython gives '
                             'the second the memory of the first, which neither library '
                             'decides (PyTorch 1.13 shows False in most runs, libtensor True '
                             'in most, the seed True): only that both show a bool is compared.'
                             " The Tensor Views page's data_ptr() comparison checks the "
                             'sharing itself'),
             'code': '''\
id(points.storage()) == id(points_t.storage())'''},
            {'line': 132,
             'code': '''\
points.stride()'''},
            {'line': 137,
             'code': '''\
points_t.stride()'''},
            {'line': 152,
             'code': '''\
some_tensor = torch.ones(3, 4, 5)
some_tensor.shape, some_tensor.stride()'''},
            {'line': 158,
             'code': '''\
some_tensor_t = some_tensor.transpose(0, 2)
some_tensor_t.shape, some_tensor_t.stride()'''},
            {'line': 169,
             'code': '''\
points.is_contiguous(), points_t.is_contiguous()'''},
            {'line': 177,
             'code': '''\
points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
points_t = points.t()
points_t'''},
            {'line': 185,
             'code': '''\
points_t.storage()'''},
            {'line': 196,
             'code': '''\
points_t.stride()'''},
            {'line': 201,
             'code': '''\
points_t_cont = points_t.contiguous()
points_t_cont'''},
            {'line': 208,
             'code': '''\
points_t_cont.stride()'''},
            {'line': 213,
             'code': '''\
points_t_cont.storage()'''},
        ],
    },
    {
        'seed': '001_d7fdfb7cb854beb7.txt',
        'title': ("3. 从张量开始: the cells of the chapter's notebook p1ch3/1_tensors.ipynb, in the"
                  ' order the text gives them'),
        'cells': [
            {'line': 24, 'label': 'In[1]',
             'code': '''\
a = [1.0, 2.0, 1.0]'''},
            {'line': 27, 'label': 'In[2]',
             'code': '''\
a[0]'''},
            {'line': 31, 'label': 'In[3]',
             'code': '''\
a[2] = 3.0
a'''},
            {'line': 39, 'label': 'In[4]',
             'code': '''\
import torch
a = torch.ones(3)
a'''},
            {'line': 45, 'label': 'In[5]',
             'code': '''\
a[1]'''},
            {'line': 49, 'label': 'In[6]',
             'code': '''\
float(a[1])'''},
            {'line': 53, 'label': 'In[7]',
             'code': '''\
a[2] = 2.0
a'''},
            {'line': 59, 'label': 'In[4]',
             'callouts': True,
             'code': '''\
import torch <------导入import模块
a = torch.ones(3) <------创建尺寸为3且填充值为1的一维张量
...
...'''},
            {'line': 69, 'label': 'In[8]',
             'code': '''\
points = torch.zeros(6)
points[0] = 4.0
points[1] = 1.0
points[2] = 5.0
points[3] = 3.0
points[4] = 2.0
points[5] = 1.0'''},
            {'line': 78, 'label': 'In[8]',
             'callouts': True,
             'code': '''\
points = torch.zeros(6) <-----使用.zeros只是一种获得合适尺寸数组的方法。
points[0] = 4.0 <-----我们用实际使用的值重写这些0'''},
            {'line': 82, 'label': 'In[9]',
             'code': '''\
points = torch.tensor([4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
points'''},
            {'line': 88, 'label': 'In[10]',
             'code': '''\
float(points[0]), float(points[1])'''},
            {'line': 93, 'label': 'In[11]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points'''},
            {'line': 101, 'label': 'In[12]',
             'code': '''\
points.shape'''},
            {'line': 108, 'label': 'In[13]',
             'code': '''\
points = torch.zeros(3, 2)
points'''},
            {'line': 116, 'label': 'In[14]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points'''},
            {'line': 123, 'label': 'In[15]',
             'code': '''\
points[0, 1]'''},
            {'line': 128, 'label': 'In[16]',
             'code': '''\
points[0]'''},
            {'line': 136, 'label': 'In[53]',
             'code': '''\
some_list = list(range(6))
some_list[:]
some_list[1:4]
some_list[1:]
some_list[:4]
some_list[:-1]
some_list[1:4:2]'''},
            {'line': 145, 'label': 'In[53]',
             'callouts': True,
             'code': '''\
some_list = list(range(6))
some_list[:] <-----所有元素都在列表中
some_list[1:4] <-----从元素1(含)到元素4(不含)
some_list[1:] <-----从元素1(含)到列表的末尾
some_list[:4] <-----从列表的开始到元素4(不含)
some_list[:-1] <-----从列表的开始到最后一个元素的前一个
some_list[1:4:2] <-----从元素1(含)到元素4(不含),以2为步长'''},
            {'line': 154, 'label': 'In[54]',
             'code': '''\
points[1:]
points[1:, :]
points[1:, 0]
points[None]'''},
            {'line': 160, 'label': 'In[54]',
             'callouts': True,
             'code': '''\
points[1:] <-------第一行之后的所有行;隐式选择所有列
points[1:, :] <-------第一行之后的所有行;所有列
points[1:, 0] <-------第一行之后的所有行;第一列
points[None] <-------增加一个尺寸为1的维度,就像unsqueeze一样'''},
            {'line': 293, 'label': 'In[47]',
             'code': '''\
double_points = torch.ones(10, 2, dtype=torch.double)
short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)'''},
            {'line': 298, 'label': 'In[48]',
             'code': '''\
short_points.dtype'''},
            {'line': 303, 'label': 'In[49]',
             'code': '''\
double_points = torch.zeros(10, 2).double()
short_points = torch.ones(10, 2).short()'''},
            {'line': 308, 'label': 'In[50]',
             'code': '''\
double_points = torch.zeros(10, 2).to(torch.double)
short_points = torch.ones(10, 2).to(dtype=torch.short)'''},
            {'line': 318, 'label': 'In[51]',
             'code': '''\
points_64 = torch.rand(5, dtype=torch.double)
points_short = points_64.to(torch.short)
points_64 * points_short # works from PyTorch 1.3 onwards'''},
            {'line': 325, 'label': 'In[51]',
             'callouts': True,
             'code': '''\
points_64 = torch.rand(5, dtype=torch.double) <---rand将张量元素初始化为0到1之间的随机数。
...
...'''},
            {'line': 335, 'label': 'In[71]',
             'code': '''\
a = torch.ones(3, 2)
a_t = torch.transpose(a, 0, 1)
a.shape, a_t.shape'''},
            {'line': 343, 'label': 'In[72]',
             'code': '''\
a = torch.ones(3, 2)
a_t = a.transpose(0, 1)
a.shape, a_t.shape'''},
            {'line': 398, 'label': 'In[17]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points.storage()'''},
            {'line': 411, 'label': 'In[18]',
             'code': '''\
points_storage = points.storage()
points_storage[0]'''},
            {'line': 416, 'label': 'In[19]',
             'code': '''\
points.storage()[1]'''},
            {'line': 422, 'label': 'In[20]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points_storage = points.storage()
points_storage[0] = 2.0
points'''},
            {'line': 436, 'label': 'In[73]',
             'code': '''\
a = torch.ones(3, 2)'''},
            {'line': 438, 'label': 'In[74]',
             'code': '''\
a.zero_()
a'''},
            {'line': 449, 'label': 'In[21]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
second_point.storage_offset()'''},
            {'line': 455, 'label': 'In[22]',
             'code': '''\
second_point.size()'''},
            {'line': 462, 'label': 'In[23]',
             'code': '''\
second_point.shape'''},
            {'line': 469, 'label': 'In[24]',
             'code': '''\
points.stride()'''},
            {'line': 481, 'label': 'In[25]',
             'code': '''\
second_point = points[1]
second_point.size()'''},
            {'line': 486, 'label': 'In[26]',
             'code': '''\
second_point.storage_offset()'''},
            {'line': 490, 'label': 'In[27]',
             'code': '''\
second_point.stride()'''},
            {'line': 496, 'label': 'In[28]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
second_point[0] = 10.0
points'''},
            {'line': 506, 'label': 'In[29]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1].clone()
second_point[0] = 10.0
points'''},
            {'line': 519, 'label': 'In[30]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points'''},
            {'line': 526, 'label': 'In[31]',
             'code': '''\
points_t = points.t()
points_t'''},
            {'line': 534, 'label': 'In[32]',
             'addresses': ('id() of two temporaries: each storage() object is freed before '
                             'the next is made, so the ids are equal only when CPython gives '
                             'the second the memory of the first, which neither library '
                             'decides (PyTorch 1.13 shows False in most runs, libtensor True '
                             'in most, the seed True): only that both show a bool is compared.'
                             " The Tensor Views page's data_ptr() comparison checks the "
                             'sharing itself'),
             'code': '''\
id(points.storage()) == id(points_t.storage())'''},
            {'line': 539, 'label': 'In[33]',
             'code': '''\
points.stride()'''},
            {'line': 543, 'label': 'In[34]',
             'code': '''\
points_t.stride()'''},
            {'line': 561, 'label': 'In[35]',
             'code': '''\
some_t = torch.ones(3, 4, 5)
transpose_t = some_t.transpose(0, 2)
some_t.shape'''},
            {'line': 567, 'label': 'In[36]',
             'code': '''\
transpose_t.shape'''},
            {'line': 571, 'label': 'In[37]',
             'code': '''\
some_t.stride()'''},
            {'line': 575, 'label': 'In[38]',
             'code': '''\
transpose_t.stride()'''},
            {'line': 588, 'label': 'In[39]',
             'code': '''\
points.is_contiguous()'''},
            {'line': 592, 'label': 'In[40]',
             'code': '''\
points_t.is_contiguous()'''},
            {'line': 598, 'label': 'In[41]',
             'code': '''\
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points_t = points.t()
points_t'''},
            {'line': 605, 'label': 'In[42]',
             'code': '''\
points_t.storage()'''},
            {'line': 615, 'label': 'In[43]',
             'code': '''\
points_t.stride()'''},
            {'line': 619, 'label': 'In[44]',
             'code': '''\
points_t_cont = points_t.contiguous()
points_t_cont'''},
            {'line': 625, 'label': 'In[45]',
             'code': '''\
points_t_cont.stride()'''},
            {'line': 629, 'label': 'In[46]',
             'code': '''\
points_t_cont.storage()'''},
        ],
    },
    {
        'seed': '001_d7fdfb7cb854beb7.txt',
        'title': ("3.4 命名张量: the cells of the chapter's named-tensor notebook (its In[1] "
                  'imports torch)'),
        'setup': 'import torch',
        'cells': [
            {'line': 170, 'label': 'In[2]',
             'code': '''\
img_t = torch.randn(3, 5, 5) # shape [channels, rows, columns]
weights = torch.tensor([0.2126, 0.7152, 0.0722])'''},
            {'line': 175, 'label': 'In[3]',
             'code': '''\
batch_t = torch.randn(2, 3, 5, 5) # shape [batch, channels, rows, columns]'''},
            {'line': 178, 'label': 'In[4]',
             'code': '''\
img_gray_naive = img_t.mean(-3)
batch_gray_naive = batch_t.mean(-3)
img_gray_naive.shape, batch_gray_naive.shape'''},
            {'line': 187, 'label': 'In[5]',
             'code': '''\
unsqueezed_weights = weights.unsqueeze(-1).unsqueeze_(-1)
img_weights = (img_t * unsqueezed_weights)
batch_weights = (batch_t * unsqueezed_weights)
img_gray_weighted = img_weights.sum(-3)
batch_gray_weighted = batch_weights.sum(-3)
batch_weights.shape, batch_t.shape, unsqueezed_weights.shape'''},
            {'line': 199, 'label': 'In[6]',
             'code': '''\
img_gray_weighted_fancy = torch.einsum('...chw,c->...hw', img_t, weights)
batch_gray_weighted_fancy = torch.einsum('...chw,c->...hw', batch_t, weights)
batch_gray_weighted_fancy.shape'''},
            {'line': 211, 'label': 'In[7]',
             'code': '''\
weights_named = torch.tensor([0.2126, 0.7152, 0.0722], names=['channels'])
weights_named'''},
            {'line': 222, 'label': 'In[8]',
             'code': '''\
img_named = img_t.refine_names(..., 'channels', 'rows', 'columns')
batch_named = batch_t.refine_names(..., 'channels', 'rows', 'columns')
print("img named:", img_named.shape, img_named.names)
print("batch named:", batch_named.shape, batch_named.names)'''},
            {'line': 232, 'label': 'In[9]',
             'code': '''\
weights_aligned = weights_named.align_as(img_named)
weights_aligned.shape, weights_aligned.names'''},
            {'line': 239, 'label': 'In[10]',
             'code': '''\
gray_named = (img_named * weights_aligned).sum('channels')
gray_named.shape, gray_named.names'''},
            {'line': 244,
             'fails': ("the text shows the error PyTorch raises: the names ['channels', "
                         "'rows', 'columns'] and ['channels'] do not match from the right"),
             'code': '''\
gray_named = (img_named[..., :3] * weights_named).sum('channels')'''},
            {'line': 251, 'label': 'In[12]',
             'code': '''\
gray_plain = gray_named.rename(None)
gray_plain.shape, gray_plain.names'''},
        ],
    },
    {
        'seed': '002_34c2ca98b8486f01.txt',
        'title': '关于pytorch中(view,reshape),permute,transpose的一点理解与记录 (a CSDN post)',
        'cells': [
            {'line': 12,
             'code': '''\
import torch
x = torch.Tensor([[[[1, 2, 3],
                    [4, 5, 6]],

                   [[7, 8, 9],
                    [10, 11, 12]]],


                  [[[13, 14, 15],
                    [16, 17, 18]],

                   [[19, 20, 21],
                    [22, 23, 24]]]])  # 一个 (2, 2, 2, 3) 结构的 4 阶张量
print(x.stride())'''},
            {'line': 51,
             'code': '''\
import torch
x = torch.Tensor([[[[1, 2, 3],
                    [4, 5, 6]],

                   [[7, 8, 9],
                    [10, 11, 12]]],

                  [[[13, 14, 15],
                    [16, 17, 18]],

                   [[19, 20, 21],
                    [22, 23, 24]]]])  # 一个 (2, 2, 2, 3) 结构的 4 阶张量
# print("stride=",x.reshape(3,4,2).stride())
print(x.stride())
print(x.transpose(1,0).stride())'''},
            {'line': 76,
             'code': '''\
print(x.transpose(1,0).reshape(4,2,3))
print(x.transpose(1,0).contiguous().view(4,2,3))'''},
        ],
    },
    {
        'seed': '003_dd31e3e8da6c6444.txt',
        'title': 'Tensor Views (the PyTorch documentation page)',
        'setup': 'import torch',
        'style': 'doctest',
        'cells': [
            {'line': 11,
             'code': '''\
>>> t = torch.rand(4, 4)'''},
            {'line': 12,
             'code': '''\
>>> b = t.view(2, 8)'''},
            {'line': 13,
             'code': '''\
>>> t.storage().data_ptr() == b.storage().data_ptr() # `t` and `b` share the same underlying data.'''},
            {'line': 15,
             'code': '''\
# Modifying view tensor changes base tensor as well.
>>> b[0][0] = 3.14'''},
            {'line': 17,
             'code': '''\
>>> t[0][0]'''},
            {'line': 28,
             'code': '''\
>>> base = torch.tensor([[0, 1],[2, 3]])'''},
            {'line': 29,
             'code': '''\
>>> base.is_contiguous()'''},
            {'line': 31,
             'code': '''\
>>> t = base.transpose(0, 1) # `t` is a view of `base`. No data movement happened here.'''},
            {'line': 32,
             'code': '''\
# View tensors might be non-contiguous.
>>> t.is_contiguous()'''},
            {'line': 35,
             'code': '''\
# To get a contiguous tensor, call `.contiguous()` to enforce
# copying data when `t` is not contiguous.
>>> c = t.contiguous()'''},
        ],
    },
    {
        'seed': '004_a52c9187ec3e2f73.txt',
        'title': ('torch.flatten() 如何从展平的维度中对元素进行排序 (a Q&A; copy 1 of the page, which the text'
                  ' holds twice)'),
        'setup': 'import torch',
        'style': 'doctest',
        'cells': [
            {'line': 13,
             'code': '''\
>>> x = torch.rand(1, 1, 12, 3)'''},
            {'line': 14,
             'random': ('the values are random (torch.rand): only the shape and dtype of the'
                          ' displayed tensor are compared'),
             'code': '''\
>>> x'''},
            {'line': 27,
             'random': ('the values are random (torch.rand): only the shape and dtype of the'
                          ' displayed tensor are compared'),
             'code': '''\
>>> x.flatten()'''},
            {'line': 35,
             'fails': 'an illustration: a to i stand for any nine elements (NameError)',
             'code': '''\
[[a, b, c],
[d, e, f],
[g, h, i]]'''},
            {'line': 64,
             'code': '''\
A = [[[[ 1, 2],
[ 3, 4]],
[[ 5, 6],
[ 7, 8]]],
[[[ 9, 10],
[11, 12]],
[[13, 14],
[15, 16]]]]'''},
            {'line': 77,
             'code': '''\
B = [[[ 0, 1, 2, 3],
[ 4, 5, 6, 7]],
[[ 8, 9, 10, 11],
[12, 13, 14, 15]]]'''},
            {'line': 120,
             'fails': ('pseudo-code: the // comments are not Python (SyntaxError), and A and'
                         ' B stand for a (1, 4, 4, 3) tensor and its flatten(start_dim=2)'),
             'code': '''\
// Using relation: A[:, :, i, j] == B[:, :, 3 * i + j]
// i = 0, all j
A[:, :, 0, 0] == B[:, :, 0]
A[:, :, 0, 1] == B[:, :, 1]
A[:, :, 0, 2] == B[:, :, 2]
// (Note the consecutive order in B.)
// i = 1, all j
A[:, :, 1, 0] == B[:, :, 3]
A[:, :, 1, 1] == B[:, :, 4]
// and so on until
A[:, :, 3, 2] == B[:, :, 11]'''},
        ],
    },
    {
        'seed': '004_a52c9187ec3e2f73.txt',
        'title': ('torch.flatten() 如何从展平的维度中对元素进行排序 (a Q&A; copy 2 of the page, which the text'
                  ' holds twice)'),
        'setup': 'import torch',
        'style': 'doctest',
        'cells': [
            {'line': 142,
             'code': '''\
>>> x = torch.rand(1, 1, 12, 3)'''},
            {'line': 143,
             'random': ('the values are random (torch.rand): only the shape and dtype of the'
                          ' displayed tensor are compared'),
             'code': '''\
>>> x'''},
            {'line': 156,
             'random': ('the values are random (torch.rand): only the shape and dtype of the'
                          ' displayed tensor are compared'),
             'code': '''\
>>> x.flatten()'''},
            {'line': 164,
             'fails': 'an illustration: a to i stand for any nine elements (NameError)',
             'code': '''\
[[a, b, c],
[d, e, f],
[g, h, i]]'''},
            {'line': 193,
             'code': '''\
A = [[[[ 1, 2],
[ 3, 4]],
[[ 5, 6],
[ 7, 8]]],
[[[ 9, 10],
[11, 12]],
[[13, 14],
[15, 16]]]]'''},
            {'line': 206,
             'code': '''\
B = [[[ 0, 1, 2, 3],
[ 4, 5, 6, 7]],
[[ 8, 9, 10, 11],
[12, 13, 14, 15]]]'''},
            {'line': 249,
             'fails': ('pseudo-code: the // comments are not Python (SyntaxError), and A and'
                         ' B stand for a (1, 4, 4, 3) tensor and its flatten(start_dim=2)'),
             'code': '''\
// Using relation: A[:, :, i, j] == B[:, :, 3 * i + j]
// i = 0, all j
A[:, :, 0, 0] == B[:, :, 0]
A[:, :, 0, 1] == B[:, :, 1]
A[:, :, 0, 2] == B[:, :, 2]
// (Note the consecutive order in B.)
// i = 1, all j
A[:, :, 1, 0] == B[:, :, 3]
A[:, :, 1, 1] == B[:, :, 4]
// and so on until
A[:, :, 3, 2] == B[:, :, 11]'''},
        ],
    },
]
