#!/usr/bin/python3
# test-viewer-gi.py: Tensor Viewer's library from Python (LtViewer-1), with
# no display: lessons built from a script, figures written headless, and
# LtViewer.figure() for notebooks.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys
import tempfile
import unittest

import gi

gi.require_version('Gio', '2.0')
gi.require_version('Lt', '1.0')
gi.require_version('LtViewer', '1')
from gi.repository import Gio, GLib, Lt, LtViewer  # noqa: E402

POINTS = [[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]


def texts(svg):
    return [re.sub(r'&amp;', '&', t) for t in re.findall(r'<text[^>]*>([^<]*)</text>', svg)]


class HeadlessTest(unittest.TestCase):
    def test_no_gtk(self):
        # Figures need no display: neither GTK nor GDK is even loaded.
        lesson = LtViewer.Lesson.load_builtin('unfold')
        LtViewer.Figure.new(lesson).to_bytes(LtViewer.FigureFormat.PNG)
        with open('/proc/self/maps') as maps:
            loaded = maps.read()
        self.assertNotIn('libgtk-4', loaded)
        self.assertNotIn('libadwaita', loaded)


class LessonTest(unittest.TestCase):
    def test_builtin(self):
        names = LtViewer.Lesson.list_builtin()
        self.assertEqual(names[0], 'points')
        lesson = LtViewer.Lesson.load_builtin('transpose-3d')
        self.assertEqual(lesson.get_n_views(), 2)
        view = lesson.get_view(1)
        self.assertEqual(list(view.get_tensor().get_strides()), [1, 5, 20])

    def test_build_and_save(self):
        lesson = LtViewer.Lesson.new()
        lesson.set_title('Mine')
        lesson.set_base(Lt.DType.FLOAT32, [3, 4], LtViewer.Contents.ARANGE, None, 0)
        view = lesson.add_view('columns', None, 't[:, ::2]')
        self.assertEqual(list(view.get_tensor().get_strides()), [4, 2])
        self.assertEqual(list(lesson.get_cell_views()), [1, 0, 1, 0] * 3)
        lesson.set_cells_per_row(4)
        text, _ = lesson.save_to_data()
        again = LtViewer.Lesson.load_from_data(text.encode(), 'mine.lesson')
        self.assertEqual(again.get_cells_per_row(), 4)
        self.assertEqual(again.get_view(0).get_expression(), 't[:, ::2]')

    def test_errors_are_gerrors(self):
        lesson = LtViewer.Lesson.new()
        lesson.set_base(Lt.DType.FLOAT32, [2, 3], LtViewer.Contents.ARANGE, None, 0)
        with self.assertRaises(GLib.Error) as caught:
            lesson.add_view(None, None, 't.t().view(6)')
        self.assertIn('view(6)', caught.exception.message)
        with self.assertRaises(GLib.Error):
            LtViewer.Lesson.load_from_data(b'[Lesson]\nVersion=1\nTitel=x\n', 'x.lesson')

    def test_tensor_base_and_views(self):
        points = Lt.tensor(POINTS)
        lesson = LtViewer.Lesson.new()
        lesson.set_base_tensor(points)
        self.assertIs(lesson.get_base(), points)
        self.assertEqual(lesson.get_literal(), '[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]')
        view = lesson.add_tensor_view('points[1]', None, points[1])
        self.assertEqual(view.get_expression(), 't.as_strided((2,), (1,), 2)')
        self.assertEqual(list(lesson.get_cell_views()), [0, 0, 1, 1, 0, 0])
        with self.assertRaises(GLib.Error) as caught:
            lesson.add_tensor_view('copy', None, points.t().contiguous())
        self.assertIn('not a view of t', caught.exception.message)
        # The literal reads back as the same values.
        text, _ = lesson.save_to_data()
        again = LtViewer.Lesson.load_from_data(text.encode(), 'points.lesson')
        self.assertEqual(again.get_base().tolist(), POINTS)


class FigureTest(unittest.TestCase):
    def test_formats(self):
        lesson = LtViewer.Lesson.load_builtin('points')
        lesson.set_selected(lesson.get_view(2))
        figure = LtViewer.Figure.new(lesson)
        magic = {'svg': b'<?xml', 'png': b'\x89PNG', 'pdf': b'%PDF', 'html': b'<!DOCTYPE html>'}
        with tempfile.TemporaryDirectory() as directory:
            for extension, start in magic.items():
                path = os.path.join(directory, 'figure.' + extension)
                figure.save(path)
                with open(path, 'rb') as f:
                    self.assertTrue(f.read().startswith(start), extension)
            with self.assertRaises(GLib.Error):
                figure.write(Gio.File.new_for_path(os.path.join(directory, 'figure.gif')))
        width, height = figure.get_size()
        figure.set_zoom(2)
        self.assertEqual(figure.get_size(), (2 * width, 2 * height))

    def test_figure_helper(self):
        points = Lt.tensor(POINTS)
        figure = LtViewer.figure(points, points.t(), points[1], 't.t().contiguous()',
                                 names=['points.t()', 'points[1]', 'points.t().contiguous()'],
                                 selected=0, step=1)
        self.assertIsInstance(figure, LtViewer.Figure)
        svg = figure._repr_svg_()
        self.assertTrue(svg.startswith('<?xml'))
        words = texts(svg)
        # The legend names t and every view; the selected one's layout and
        # step are written out.
        for name in ('t', 'points.t()', 'points[1]', 'points.t().contiguous()'):
            self.assertIn(name, words)
        self.assertIn('size (2, 3) · stride (1, 2) · offset 0', words)
        self.assertIn('element [0, 1]: 0 + 1*0 + 2*1 = 2', words)
        # The order of points.t() over the storage: 0 3 1 4 2 5.
        pills = [w for w in re.findall(r'font-weight="bold"[^>]*>(\d+)</text>', svg)]
        self.assertEqual(pills[:6], ['0', '3', '1', '4', '2', '5'])

        # The copy, selected: a storage of its own.
        copy = LtViewer.figure(points, 't.t().contiguous()')
        self.assertTrue(any(w.startswith('Storage of the copy') for w in texts(copy.to_svg())))

        with self.assertRaises(ValueError):
            LtViewer.figure(points, points.t(), names=['a', 'b'])

    def test_pytorch_only(self):
        points = Lt.tensor(POINTS)
        plain = LtViewer.figure(points, 't.flip(0)')
        strict = LtViewer.figure(points, 't.flip(0)', pytorch_only=True)
        self.assertIn('Not in PyTorch', texts(plain.to_svg()))
        self.assertTrue(any(w.startswith('Storage of the copy') for w in texts(strict.to_svg())))


class TranslationTest(unittest.TestCase):
    # A script that never binds the viewer's catalogue still gets its
    # figures in the user's language: the library binds it.
    SCRIPT = """
import locale, re, sys
locale.setlocale(locale.LC_ALL, 'C.UTF-8')
import gi
gi.require_version('LtViewer', '1')
from gi.repository import LtViewer
figure = LtViewer.Figure.new(LtViewer.Lesson.load_builtin('points'))
svg = figure.to_bytes(LtViewer.FigureFormat.SVG).get_data().decode()
print('\\n'.join(re.findall(r'<text[^>]*>([^<]*)</text>', svg)))
"""

    def figure_texts(self, language):
        env = dict(os.environ, LANGUAGE=language)
        result = subprocess.run([sys.executable, '-c', self.SCRIPT], env=env,
                                capture_output=True, text=True, check=True)
        return result.stdout.splitlines()

    def test_chinese(self):
        self.assertIn('TENSOR_VIEWER_LOCALEDIR', os.environ)
        self.assertIn('存储：6 个 float32 元素', self.figure_texts('zh_CN'))
        self.assertIn('Storage: 6 float32 elements', self.figure_texts('en'))


if __name__ == '__main__':
    unittest.main()
