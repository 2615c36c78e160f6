#!/usr/bin/python3
# test-viewer-notebook.py NOTEBOOK: the example notebook, executed by
# Debian's Jupyter (jupyter nbconvert --execute) with the build tree's
# libtensor and LtViewer: every cell runs, and each figure shows inline as
# SVG with the sizes, strides, offsets and order the seed chapter teaches.
# TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

results = []


def check(name, condition, detail=''):
    results.append((bool(condition), name))
    if not condition:
        print(f'# {name}: {detail}', flush=True)


def texts(svg):
    return re.findall(r'<text[^>]*>([^<]*)</text>', svg)


def main():
    notebook = sys.argv[1]
    nbconvert = shutil.which('jupyter-nbconvert')
    if nbconvert is None:
        print('1..0 # SKIP jupyter-nbconvert is not installed (build-aux/install-deps.sh '
              'installs it)')
        return 0
    try:
        import ipykernel  # noqa: F401
    except ImportError:
        print('1..0 # SKIP python3-ipykernel is not installed')
        return 0

    with tempfile.TemporaryDirectory() as directory:
        environment = dict(os.environ)
        environment.pop('DISPLAY', None)
        environment.pop('WAYLAND_DISPLAY', None)
        environment['JUPYTER_RUNTIME_DIR'] = os.path.join(directory, 'runtime')
        environment['JUPYTER_PLATFORM_DIRS'] = '1'
        environment['PYDEVD_DISABLE_FILE_VALIDATION'] = '1'
        executed = os.path.join(directory, 'executed.ipynb')
        run = subprocess.run([nbconvert, '--to', 'notebook', '--execute',
                              '--ExecutePreprocessor.timeout=120', '--output', executed,
                              notebook],
                             env=environment, capture_output=True, text=True)
        check('the notebook runs to the end', run.returncode == 0, run.stderr[-2000:])
        if run.returncode != 0:
            print(f'1..{len(results)}')
            print('not ok 1 - the notebook runs to the end')
            return 1
        with open(executed, encoding='utf-8') as f:
            cells = json.load(f)['cells']

    outputs = [output for cell in cells if cell['cell_type'] == 'code'
               for output in cell['outputs']]
    errors = [output for output in outputs if output['output_type'] == 'error']
    check('no cell fails', not errors, errors)
    svgs = [''.join(output['data']['image/svg+xml']) if isinstance(
                output['data']['image/svg+xml'], list) else output['data']['image/svg+xml']
            for output in outputs if 'image/svg+xml' in output.get('data', {})]
    check('four figures show inline as SVG', len(svgs) == 4, len(svgs))
    check('the figures are vector: no embedded image',
          all('<image' not in svg and 'data:image' not in svg for svg in svgs))
    plain = [''.join(output.get('data', {}).get('text/plain', '')) for output in outputs]
    check('the sub-tensor writes through to points',
          any('10.' in text and 'tensor' in text for text in plain), plain)

    expected = [
        ('points[1]', 'size (2,) · stride (1,) · offset 2', None),
        ('points.t()', 'size (2, 3) · stride (1, 2) · offset 0', ['0', '3', '1', '4', '2', '5']),
        ('transpose(0, 2)', 'size (5, 4, 3) · stride (1, 5, 20) · offset 0', None),
        ('contiguous()', 'size (2, 3) · stride (3, 1) · offset 0', None),
    ]
    for svg, (what, layout, order) in zip(svgs, expected):
        words = texts(svg)
        check(f'the figure of {what} gives its layout', layout in words, words[:20])
        if order is not None:
            positions = re.findall(r'font-weight="bold"[^>]*>(\d+)</text>', svg)
            check(f'the figure of {what} shows its order over the storage',
                  positions[:len(order)] == order, positions[:8])
    if len(svgs) == 4:
        check('the copy is drawn with a storage of its own',
              any(word.startswith('Storage of the copy') for word in texts(svgs[3])))

    print(f'1..{len(results)}')
    for number, (passed, name) in enumerate(results, 1):
        print(f'{"ok" if passed else "not ok"} {number} - {name}')
    return 0 if all(passed for passed, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
