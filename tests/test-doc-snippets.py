#!/usr/bin/env python3
# test-doc-snippets.py: every Python snippet of the README and the docs runs,
# and prints no warning
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ```python blocks of each page run in order, in one fresh interpreter
# per page (later blocks may use earlier ones' names, as a reader's session
# would), with every warning an error. The one warning let through is
# PyGObject 3.42's own ImportWarning ("DynamicImporter.exec_module() not
# found"), which it raises for every namespace it imports and which is not
# libtensor's. A page whose snippets need a device this machine lacks is
# still run: such snippets must not be in the docs without saying so.

import os
import re
import subprocess
import sys
import unittest

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ['README.md'] + sorted(
    os.path.join('docs', name) for name in os.listdir(os.path.join(SOURCE_ROOT, 'docs'))
    if name.endswith('.md'))
BLOCK = re.compile(r'^```python\n(.*?)^```', re.MULTILINE | re.DOTALL)


def python_blocks(page):
    with open(os.path.join(SOURCE_ROOT, page), encoding='utf-8') as f:
        return BLOCK.findall(f.read())


class TestDocSnippets(unittest.TestCase):

    def test_the_readme_has_snippets(self):
        self.assertGreaterEqual(len(python_blocks('README.md')), 3)

    def test_every_page_runs_quietly(self):
        for page in PAGES:
            blocks = python_blocks(page)
            if not blocks:
                continue
            with self.subTest(page=page):
                script = '\n'.join(blocks)
                result = subprocess.run(
                    [sys.executable, '-W', 'error',
                     '-W', 'ignore:DynamicImporter.exec_module() not found:ImportWarning',
                     '-c', script],
                    capture_output=True, text=True, timeout=120)
                self.assertEqual(result.returncode, 0,
                                 '%s failed:\n%s' % (page, result.stderr[-3000:]))
                self.assertEqual(result.stderr, '', '%s printed to stderr' % page)

    def test_an_unversioned_import_would_be_seen(self):
        # The check above can fail: without require_version PyGObject warns,
        # and -W error makes that an error.
        result = subprocess.run(
            [sys.executable, '-W', 'error',
             '-W', 'ignore:DynamicImporter.exec_module() not found:ImportWarning',
             '-c', 'import sys; sys.modules.pop("gi.repository.Lt", None)\n'
                   'from gi.repository import Lt'],
            capture_output=True, text=True, timeout=120)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn('without specifying a version', result.stderr)


if __name__ == '__main__':
    unittest.main(verbosity=2)
