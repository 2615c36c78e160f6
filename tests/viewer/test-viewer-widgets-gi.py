#!/usr/bin/python3
# test-viewer-widgets-gi.py: Tensor Viewer's widgets (LtViewerGtk-1) embedded
# in a script's own GTK 4 window: a lesson built with LtViewer, drawn by the
# storage strip, its overview and the view grid, and asked what is where.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi

gi.require_version('Gdk', '4.0')
gi.require_version('Gtk', '4.0')
gi.require_version('Lt', '1.0')
gi.require_version('LtViewer', '1')
gi.require_version('LtViewerGtk', '1')
from gi.repository import Gdk, GLib, Gtk, Lt, LtViewer, LtViewerGtk  # noqa: E402

POINTS = '[[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]]'
BLUE = '#0072b2'
ORANGE = '#e69f00'


def wait_for_frame(widget):
    """Spins the main loop until @widget is mapped and painted once."""
    painted = []
    timed_out = []
    source = GLib.timeout_add_seconds(10, lambda: timed_out.append(True) or False)
    context = GLib.MainContext.default()
    while not widget.get_mapped() and not timed_out:
        context.iteration(True)
    clock = widget.get_frame_clock()
    handler = clock.connect('after-paint', lambda *args: painted.append(True))
    widget.queue_draw()
    while not painted and not timed_out:
        context.iteration(True)
    clock.disconnect(handler)
    if not timed_out:
        GLib.source_remove(source)
    assert not timed_out, 'no frame was painted within 10 s'


def render(widget):
    """The widget's pixels as shown, as a GdkPixbuf."""
    return Gdk.pixbuf_get_from_texture(LtViewerGtk.export_texture(widget))


class WidgetsTest(unittest.TestCase):
    def setUp(self):
        self.lesson = LtViewer.Lesson.new()
        self.lesson.set_base(Lt.DType.FLOAT32, None, LtViewer.Contents.LITERAL, POINTS, 0)
        self.transposed = self.lesson.add_view('points.t()', BLUE, 't.t()')
        self.row = self.lesson.add_view('points[1]', ORANGE, 't[1]')
        self.lesson.set_selected(self.transposed)

        self.strip = LtViewerGtk.StorageStrip(wrap_width=4)
        self.strip.set_lesson(self.lesson)
        self.overview = LtViewerGtk.StorageOverview(strip=self.strip)
        self.grid = LtViewerGtk.ViewGrid()
        self.grid.set_lesson(self.lesson)
        self.grid.set_view(self.transposed)

        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        for widget in (self.overview, self.strip, self.grid):
            widget.set_halign(Gtk.Align.START)
            box.append(widget)
        self.overview.set_halign(Gtk.Align.FILL)
        self.window = Gtk.Window(child=box, default_width=640, default_height=480)
        self.window.present()
        wait_for_frame(self.grid)

    def tearDown(self):
        self.window.destroy()
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass

    def test_strip(self):
        # Four cells a row: cell 5 is the second of the second row.
        self.assertEqual(self.strip.get_wrap_width(), 4)
        ok, bounds = self.strip.get_cell_bounds(5)
        self.assertTrue(ok)
        first_ok, first = self.strip.get_cell_bounds(4)
        self.assertGreater(bounds.get_x(), first.get_x())
        self.assertEqual(bounds.get_y(), first.get_y())
        self.assertEqual(self.strip.cell_at(bounds.get_x() + bounds.get_width() / 2,
                                            bounds.get_y() + bounds.get_height() / 2), 5)
        self.assertEqual(self.strip.cell_at(-1, -1), -1)
        self.assertFalse(self.strip.get_cell_bounds(6)[0])

        # The tooltip's text: the value and the elements that land there.
        self.assertEqual(self.strip.describe_cell(2),
                         'Cell 2: 5.0\npoints.t(): element [0, 1]\npoints[1]: element [0]')
        ok, first, end = self.strip.get_visible_cells()
        self.assertTrue(ok)
        self.assertEqual((first, end), (0, 6))

        # Zoom and cells per row are properties, as a .ui file would set them.
        self.strip.props.zoom = 2.0
        self.strip.props.wrap_width = 2
        wait_for_frame(self.strip)
        ok, bounds = self.strip.get_cell_bounds(3)
        self.assertEqual(bounds.get_width(), 96)
        self.assertEqual(self.strip.cell_at(bounds.get_x() + 1, bounds.get_y() + 1), 3)

    def test_grid(self):
        # t.t() is 2×3: element 4 is [1, 1], storage cell 3.
        self.assertEqual(self.grid.get_view(), self.transposed)
        ok, bounds = self.grid.get_element_bounds(4)
        self.assertTrue(ok)
        self.assertEqual(self.grid.element_at(bounds.get_x() + bounds.get_width() / 2,
                                              bounds.get_y() + bounds.get_height() / 2), 4)
        self.assertEqual(self.transposed.get_storage_index(4), 3)

        # Another view: a row of 2.
        self.grid.set_view(self.row)
        wait_for_frame(self.grid)
        self.assertTrue(self.grid.get_element_bounds(1)[0])
        self.assertFalse(self.grid.get_element_bounds(2)[0])

    def test_overview(self):
        # Six cells: one a square; cells 2 and 3 are reached by both views,
        # the selected one taking them.
        self.assertEqual(self.overview.get_strip(), self.strip)
        self.assertEqual(self.overview.get_per_square(), 1)
        self.assertEqual(self.overview.get_square_view(2), (0, False))
        self.lesson.set_selected(self.row)
        self.assertEqual(self.overview.get_square_view(2), (1, False))
        self.assertEqual(self.overview.get_square_view(0), (0, True))
        self.assertEqual(self.overview.cell_at(1, 1), 0)
        self.assertEqual(self.overview.cell_at(5, 1), 1)

    def test_drawn(self):
        # What the window shows: the strip's cells, the selected view's
        # colour among them, and pixels that change with the selection.
        before = render(self.strip)
        self.assertEqual((before.get_width(), before.get_height()),
                         (self.strip.get_width(), self.strip.get_height()))
        pixels = before.get_pixels()
        self.assertGreater(len(set(pixels[i:i + 3] for i in range(0, len(pixels), 4))), 8)
        self.lesson.set_selected(self.row)
        wait_for_frame(self.strip)
        self.assertNotEqual(render(self.strip).get_pixels(), pixels)

    def test_export_before_shown(self):
        # A widget never drawn cannot be exported: a GError, not a crash.
        with self.assertRaises(GLib.Error) as caught:
            LtViewerGtk.export_texture(LtViewerGtk.ViewGrid())
        self.assertIn('before it is shown', caught.exception.message)


if __name__ == '__main__':
    unittest.main(verbosity=2)
