#!/usr/bin/env python3
# test-seed-snippets.py: every code example of the seed texts, run with
# PyTorch and with `from gi.repository import Lt as torch`, prints the same
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The seed texts (a tensor chapter of Deep Learning with PyTorch in two
# translations, a post on view/reshape/transpose, PyTorch's Tensor Views page
# and a flatten() Q&A) are what a reader tries first; seed_snippets.py holds
# their code, verbatim, and says how it was extracted. Each session (a
# notebook, a post) runs twice, cell by cell, in one fresh namespace per side
# and a fresh temporary working directory (with the ../data/p1ch3/ the book's
# notebooks write to): once as written, with PyTorch 1.13, and once with its
# `import torch` lines read as `from gi.repository import Lt as torch`, the one
# change a reader makes. Each cell gives what Jupyter shows (stdout, then the
# repr of a final bare expression statement, split off with ast; None is not
# shown) or its exception; the bare expressions before the last, which Jupyter
# evaluates without showing, are compared too.
#
# A cell passes when both sides show the same text, as printed or after
# normalise(), or when both raise. Normalised: the module's name (PyTorch's
# dtypes print torch.float32 and its sizes torch.Size([3, 2]), libtensor's
# Lt.float32 and Lt.Size([3, 2]), though its tensors print dtype=torch.float64
# as PyTorch's do: both sides are read with Lt.), the storage footer (1.13's
# [torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 6],
# libtensor's [Lt.FloatStorage of size 6] as the seed chapter shows torch
# doing: both become [FloatStorage of size 6]), object addresses (0x...), and
# the int a bare id() or data_ptr() gives, which differs from run to run (what
# is compared is the == the cells compute between such values). Where a cell's
# data says 'random', only the shapes and dtypes it shows are compared; where
# it says 'addresses', only the type. The summary printed at the end counts
# the cells of each kind.
#
# Cells that fail on libtensor's side only, for want of a feature not built
# yet, are listed in KNOWN_GAPS with the reason. A known gap must still differ
# and must work with PyTorch, so that the list only shrinks: one that passes
# fails the test until it is taken off the list. Anything else that differs
# fails, showing the cell and both outputs.
#
# The seed texts are not in the source tree: where LT_SEED_DIR (by default
# shared/seeds beside the source tree, where the project keeps them) exists,
# the snippets are also checked against them, line by line; elsewhere that
# check is skipped and the rest runs as it is.

import ast
import collections
import contextlib
import io
import os
import re
import tempfile
import textwrap
import unittest
import warnings

import gi

gi.require_version('Lt', '1.0')
from gi.repository import Lt  # noqa: E402

import torch  # noqa: E402

import seed_snippets  # noqa: E402

SEED_DIR = os.environ.get('LT_SEED_DIR', os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    'shared', 'seeds'))

# (seed file, line of the cell's first line) -> why libtensor's side still
# differs: a feature not built yet. Each must still differ (or fail) on
# libtensor's side and work with PyTorch; the list only shrinks. An entry reads
#     ('001_d7fdfb7cb854beb7.txt', 1234): 'advanced indexing with a tensor index',
# Every cell of the seeds as they stand runs, so it is empty.
KNOWN_GAPS = {
}

SWAP = re.compile(r'^([ \t]*)import torch[ \t]*$', re.MULTILINE)
CALLOUT = re.compile(r'[ \t]*<-+.*$', re.MULTILINE)
PROMPT = re.compile(r'^(?:>>>|\.\.\.)(?: |$)', re.MULTILINE)
STORAGE_FOOTER = re.compile(
    r'\[(?:torch\.storage\.TypedStorage\(dtype=torch\.(\w+), device=cpu\)'
    r'|(?:torch|Lt)\.(\w+)Storage) of size (\d+)\]')
ADDRESS = re.compile(r'\b0x[0-9a-fA-F]+\b')
LEGACY_NAMES = {
    'float32': 'Float', 'float64': 'Double', 'float16': 'Half', 'bfloat16': 'BFloat16',
    'int8': 'Char', 'uint8': 'Byte', 'int16': 'Short', 'int32': 'Int', 'int64': 'Long',
    'bool': 'Bool', 'complex64': 'ComplexFloat', 'complex128': 'ComplexDouble',
}

# stdout: what the cell printed; display: the text shown for its last
# statement's value; hidden: the same for its earlier bare expressions, which
# Jupyter evaluates without showing (compared all the same); error: the
# exception, as 'Type: message'.
Outcome = collections.namedtuple('Outcome', 'stdout display error hidden', defaults=((),))


def source_for(cell, style, module):
    """The code of @cell as run on @module's side: the book's margin notes
    (<----- ...) and the REPL's prompts taken off, and on libtensor's side
    `import torch` read as `from gi.repository import Lt as torch`."""
    code = cell['code']
    if cell.get('callouts'):
        code = CALLOUT.sub('', code)
    if style == 'doctest':
        code = PROMPT.sub('', code)
    if module is Lt:
        code = SWAP.sub(r'\1from gi.repository import Lt as torch', code)
    return code


def is_tensor(value):
    return isinstance(value, (torch.Tensor, Lt.Tensor))


def shapes_only(value):
    """What a random cell's value shows that does not depend on the draws."""
    if is_tensor(value):
        return 'tensor of shape %s, %s' % (list(value.shape), value.dtype)
    if isinstance(value, (tuple, list)):
        return '(%s)' % ', '.join(shapes_only(item) for item in value)
    return repr(value)


def is_address(node):
    """Whether the expression @node is id(...) or ....data_ptr(), whose int
    is an address that differs from run to run."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return ((isinstance(func, ast.Name) and func.id == 'id')
            or (isinstance(func, ast.Attribute) and func.attr == 'data_ptr'))


def value_text(node, value, only):
    """What is compared of @value, the value of the expression @node: all
    of its repr, or @only 'shapes' or the 'type'."""
    if only == 'shapes':
        return shapes_only(value)
    if only == 'type':
        return 'a %s' % type(value).__name__
    if is_address(node) and isinstance(value, int) and not isinstance(value, bool):
        return '<address>'
    return repr(value)


def run_cell(code, namespace, only=None):
    """Runs @code in @namespace as a notebook cell, statement by statement:
    the Outcome holds what it printed, the repr of the value of its last
    statement if that is an expression (as Jupyter shows it; None is not
    shown), those of the bare expressions before it, or the exception."""
    stdout = io.StringIO()
    display = None
    hidden = []
    try:
        with contextlib.redirect_stdout(stdout):
            tree = ast.parse(code, '<cell>', 'exec')
            for i, statement in enumerate(tree.body):
                if not isinstance(statement, ast.Expr):
                    exec(compile(ast.Module([statement], []), '<cell>', 'exec'), namespace)
                    continue
                value = eval(compile(ast.Expression(statement.value), '<cell>', 'eval'),
                             namespace)
                text = None if value is None else value_text(statement.value, value, only)
                if i == len(tree.body) - 1:
                    display = text
                elif text is not None:
                    hidden.append(text)
    except Exception as e:  # noqa: BLE001: a cell may raise anything; both sides are compared
        return Outcome(stdout.getvalue(), display, '%s: %s' % (type(e).__name__, e),
                       tuple(hidden))
    return Outcome(stdout.getvalue(), display, None, tuple(hidden))


def shown(outcome):
    """The text a reader sees for @outcome (and, marked, what Jupyter does
    not show)."""
    text = ''.join('[not shown] %s\n' % value for value in outcome.hidden)
    text += outcome.stdout
    if outcome.display is not None:
        text += outcome.display + '\n'
    if outcome.error is not None:
        text += outcome.error + '\n'
    return text


def normalise(text):
    """@text with what legitimately differs between the two modules made equal."""
    def footer(match):
        dtype, legacy, size = match.groups()
        return '[%sStorage of size %s]' % (legacy or LEGACY_NAMES.get(dtype, dtype), size)
    text = STORAGE_FOOTER.sub(footer, text)
    text = re.sub(r'\btorch\.', 'Lt.', text)
    return ADDRESS.sub('0x?', text)


def compare(th, lt):
    """'identical', 'normalised' (identical after normalise()), 'both-fail',
    or None where @th and @lt, PyTorch's and libtensor's Outcomes, differ."""
    if th.error is not None and lt.error is not None:
        return 'both-fail'
    if th.error is not None or lt.error is not None:
        return None
    if shown(th) == shown(lt):
        return 'identical'
    if normalise(shown(th)) == normalise(shown(lt)):
        return 'normalised'
    return None


def judge(key, cell, th, lt, known_gaps=KNOWN_GAPS):
    """(kind, problem) for the cell @key, @cell, given PyTorch's Outcome @th
    and libtensor's @lt: kind is 'identical', 'normalised', 'both-fail',
    'known gap' or 'different'; problem, what is wrong, or None."""
    verdict = compare(th, lt)
    if 'fails' in cell and th.error is None:
        return verdict or 'different', ('PyTorch ran a cell the seed data says fails (%s)'
                                        % cell['fails'])
    if key in known_gaps:
        if verdict is not None:
            return verdict, ('%s line %d is a known gap (%s) but now shows what PyTorch '
                             'shows: remove it from KNOWN_GAPS' % (key + (known_gaps[key],)))
        if th.error is not None:
            return 'known gap', 'a known gap must work with PyTorch'
        return 'known gap', None
    if verdict is None:
        return 'different', 'libtensor does not show what PyTorch shows'
    return verdict, None


def compared(cell):
    """What of @cell's values run_cell() compares: None for all."""
    if 'random' in cell:
        return 'shapes'
    if 'addresses' in cell:
        return 'type'
    return None


def run_session(session, module):
    """The Outcome of every cell of @session with @module as torch, run in
    one namespace in a fresh working directory (with the ../data/p1ch3/ the
    book's notebooks write to, beside it)."""
    style = session.get('style', 'cells')
    old_cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix='lt-seed-') as root:
        os.makedirs(os.path.join(root, 'data', 'p1ch3'))
        os.makedirs(os.path.join(root, 'p1ch3'))
        os.chdir(os.path.join(root, 'p1ch3'))
        try:
            torch.manual_seed(0)
            Lt.manual_seed(0)
            namespace = {'__name__': '__seed__'}
            if 'setup' in session:
                setup = run_cell(source_for({'code': session['setup']}, 'cells', module),
                                 namespace)
                assert setup.error is None, setup.error
            with warnings.catch_warnings():
                # PyTorch's own notice, on stderr, that named tensors are experimental.
                warnings.filterwarnings('ignore', 'Named tensors and all their associated APIs')
                return [run_cell(source_for(cell, style, module), namespace, compared(cell))
                        for cell in session['cells']]
        finally:
            os.chdir(old_cwd)


def difference_report(session, cell, th, lt):
    return ('%s line %d%s:\n--- cell ---\n%s\n--- PyTorch ---\n%s--- libtensor ---\n%s'
            % (session['seed'], cell['line'],
               ' (%s)' % cell['label'] if 'label' in cell else '',
               cell['code'], shown(th) or '(nothing)\n', shown(lt) or '(nothing)\n'))


class SeedSnippetsTestCase(unittest.TestCase):

    def test_the_comparison_can_fail(self):
        same = Outcome('', 'tensor([1., 2.])', None)
        self.assertEqual(compare(same, same), 'identical')
        self.assertIsNone(compare(same, Outcome('', 'tensor([1., 3.])', None)))
        self.assertIsNone(compare(same, Outcome('', None, 'AttributeError: no flatten')))
        self.assertIsNone(compare(Outcome('(2, 1)\n', None, None),
                                  Outcome('(1, 2)\n', None, None)))
        self.assertEqual(compare(Outcome('', None, 'NameError: a'),
                                 Outcome('', None, 'TypeError: b')), 'both-fail')
        self.assertEqual(compare(Outcome('', 'torch.Size([3, 2])', None),
                                 Outcome('', 'Lt.Size([3, 2])', None)), 'normalised')
        self.assertIsNone(compare(Outcome('', 'torch.Size([3, 2])', None),
                                  Outcome('', 'Lt.Size([2, 3])', None)))
        self.assertEqual(compare(
            Outcome('', ' 1.0\n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) '
                    'of size 1]', None),
            Outcome('', ' 1.0\n[Lt.FloatStorage of size 1]', None)), 'normalised')
        self.assertIsNone(compare(
            Outcome('', ' 1.0\n[torch.storage.TypedStorage(dtype=torch.float64, device=cpu) '
                    'of size 1]', None),
            Outcome('', ' 1.0\n[Lt.FloatStorage of size 1]', None)))

    def test_a_wrong_value_would_be_seen(self):
        # A libtensor whose t() did not transpose would be reported, end to end.
        cell = {'line': 1, 'code': 'points = torch.tensor([[1.0, 4.0], [2.0, 1.0]])\n'
                                   'points.t()'}
        session = {'seed': 'made-up', 'setup': 'import torch', 'cells': [cell]}
        th, = run_session(session, torch)
        lt, = run_session(session, Lt)
        self.assertEqual(compare(th, lt), 'identical')
        saved = Lt.Tensor.t
        Lt.Tensor.t = lambda self: self
        try:
            lt, = run_session(session, Lt)
        finally:
            Lt.Tensor.t = saved
        self.assertIsNone(compare(th, lt))
        self.assertIn('tensor([[1., 2.],', difference_report(session, cell, th, lt))

    def test_the_swap_and_the_display(self):
        cell = {'code': '>>> import torch\n>>> torch.ones(2) <----- a note', 'callouts': True}
        self.assertEqual(source_for(cell, 'doctest', Lt),
                         'from gi.repository import Lt as torch\ntorch.ones(2)')
        self.assertEqual(source_for(cell, 'doctest', torch), 'import torch\ntorch.ones(2)')
        self.assertEqual(run_cell('x = 2\nprint(x)\nx + 1', {}), Outcome('2\n', '3', None))
        self.assertEqual(run_cell('x = [1]\nx[:]\nx.append(2)', {}),
                         Outcome('', None, None, ('[1]',)))
        self.assertEqual(run_cell('id(3) == id(3)', {}).display, 'True')
        self.assertEqual(run_cell('id(3)', {}).display, '<address>')

    def test_the_snippets_are_the_seeds(self):
        if not os.path.isdir(SEED_DIR):
            self.skipTest('no seed texts at %s (set LT_SEED_DIR)' % SEED_DIR)
        seeds = sorted(name for name in os.listdir(SEED_DIR) if name.endswith('.txt'))
        self.assertEqual(sorted({s['seed'] for s in seed_snippets.SESSIONS}), seeds)
        for session in seed_snippets.SESSIONS:
            with open(os.path.join(SEED_DIR, session['seed']), encoding='utf-8') as f:
                lines = f.read().split('\n')
            for cell in session['cells']:
                with self.subTest(seed=session['seed'], line=cell['line']):
                    # Only whitespace may differ (lines the text extraction broke).
                    code = re.sub(r'\s', '', cell['code'])
                    text = re.sub(r'\s', '', '\n'.join(
                        lines[cell['line'] - 1:cell['line'] - 1 + cell['code'].count('\n') + 2]))
                    self.assertTrue(text.startswith(code), cell['code'])
                    first = lines[cell['line'] - 1].strip()
                    self.assertTrue(first and cell['code'].startswith(first), cell['code'])

    def test_the_lists_name_cells(self):
        keys = [(s['seed'], c['line']) for s in seed_snippets.SESSIONS for c in s['cells']]
        self.assertEqual(len(keys), len(set(keys)), 'two cells start on the same line')
        self.assertEqual(set(KNOWN_GAPS) - set(keys), set())

    def test_a_known_gap_must_still_differ(self):
        key = ('made-up.txt', 1)
        cell = {'line': 1, 'code': 'torch.ones(2).flatten()'}
        works = Outcome('', 'tensor([1., 1.])', None)
        missing = Outcome('', None, "AttributeError: 'Tensor' object has no attribute 'flatten'")
        self.assertEqual(judge(key, cell, works, missing, {}),
                         ('different', 'libtensor does not show what PyTorch shows'))
        self.assertEqual(judge(key, cell, works, missing, {key: 'flatten()'}),
                         ('known gap', None))
        kind, problem = judge(key, cell, works, works, {key: 'flatten()'})
        self.assertEqual(kind, 'identical')
        self.assertIn('remove it from KNOWN_GAPS', problem)
        self.assertIsNotNone(judge(key, cell, missing, missing, {key: 'flatten()'})[1])
        self.assertIsNotNone(judge(key, dict(cell, fails='why'), works, works)[1])
        self.assertEqual(judge(key, dict(cell, fails='why'), missing, missing),
                         ('both-fail', None))

    def test_every_cell_shows_the_same(self):
        counts = collections.Counter()
        reasons = collections.defaultdict(list)
        for session in seed_snippets.SESSIONS:
            th_outcomes = run_session(session, torch)
            lt_outcomes = run_session(session, Lt)
            for cell, th, lt in zip(session['cells'], th_outcomes, lt_outcomes):
                key = (session['seed'], cell['line'])
                kind, problem = judge(key, cell, th, lt)
                counts[kind] += 1
                if kind == 'known gap':
                    reasons[('known gap', KNOWN_GAPS[key])].append(key)
                elif kind == 'both-fail':
                    reasons[('both fail', cell.get('fails', 'no reason in the data'))].append(key)
                if problem is not None:
                    with self.subTest(seed=key[0], line=key[1]):
                        self.fail('%s\n%s' % (problem, difference_report(session, cell, th, lt)))
        total = sum(len(s['cells']) for s in seed_snippets.SESSIONS)
        print('\n%d cells: %d identical, %d identical after normalisation, %d fail on both '
              'sides, %d known gaps, %d different'
              % (total, counts['identical'], counts['normalised'], counts['both-fail'],
                 counts['known gap'], counts['different']))
        for (kind, reason), keys in sorted(reasons.items()):
            print('  %s, %s:\n    %s' % (kind, ', '.join('%s:%d' % k for k in keys),
                                        '\n    '.join(textwrap.wrap(reason, 76))))
        self.assertEqual(sum(counts.values()), total)


if __name__ == '__main__':
    unittest.main(verbosity=2)
