// test-viewer-widgets.js: Tensor Viewer's widgets (LtViewerGtk-1) in a gjs
// script's own GTK 4 window
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gtk from 'gi://Gtk?version=4.0';
import Lt from 'gi://Lt?version=1.0';
import LtViewer from 'gi://LtViewer?version=1';
import LtViewerGtk from 'gi://LtViewerGtk?version=1';
import {assertEqual, check, finish} from '../gjs-tap.js';

function waitForFrame(widget) {
    const context = GLib.MainContext.default();
    const deadline = GLib.get_monotonic_time() + 10 * GLib.USEC_PER_SEC;
    let painted = false;
    while (!widget.get_mapped() && GLib.get_monotonic_time() < deadline)
        context.iteration(false) || GLib.usleep(1000);
    const clock = widget.get_frame_clock();
    const handler = clock.connect('after-paint', () => {
        painted = true;
    });
    widget.queue_draw();
    while (!painted && GLib.get_monotonic_time() < deadline)
        context.iteration(false) || GLib.usleep(1000);
    clock.disconnect(handler);
    if (!painted)
        throw new Error('no frame was painted within 10 s');
}

Gtk.init();

// The post's tensor: 2×3 counting from 0, its transpose selected.
const lesson = LtViewer.Lesson.new();
lesson.set_base(Lt.DType.FLOAT32, [2, 3], LtViewer.Contents.ARANGE, null, 0);
const transposed = lesson.add_view('t.t()', null, 't.t()');
lesson.set_selected(transposed);

// The constructors' floating references, which gjs must sink, not free.
const strip = LtViewerGtk.StorageStrip.new();
strip.wrap_width = 3;
strip.set_lesson(lesson);
const overview = LtViewerGtk.StorageOverview.new();
overview.set_strip(strip);
const grid = LtViewerGtk.ViewGrid.new();
grid.set_lesson(lesson);
grid.set_view(transposed);
const box = new Gtk.Box({orientation: Gtk.Orientation.VERTICAL});
for (const widget of [overview, strip, grid]) {
    widget.halign = widget === overview ? Gtk.Align.FILL : Gtk.Align.START;
    box.append(widget);
}
const window = new Gtk.Window({child: box, default_width: 480, default_height: 360});
window.present();
waitForFrame(grid);

check('strip cells', () => {
    const [ok, bounds] = strip.get_cell_bounds(4);
    assertEqual(ok, true, 'bounds of cell 4');
    assertEqual(strip.cell_at(bounds.get_x() + 2, bounds.get_y() + 2), 4, 'cell under cell 4');
    assertEqual(strip.describe_cell(1), 'Cell 1: 1.0\nt.t(): element [1, 0]', 'cell 1');
});

check('grid elements', () => {
    const [ok, bounds] = grid.get_element_bounds(1);
    assertEqual(ok, true, 'bounds of element 1');
    assertEqual(grid.element_at(bounds.get_x() + 2, bounds.get_y() + 2), 1, 'element 1');
    assertEqual(transposed.get_storage_index(1), 3, 'storage index of [0, 1]');
});

check('overview squares', () => {
    assertEqual(overview.get_per_square(), 1, 'cells a square');
    assertEqual(overview.get_square_view(5), [0, false], 'square of cell 5');
});

window.destroy();
finish();
