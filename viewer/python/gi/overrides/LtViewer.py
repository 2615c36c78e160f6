# LtViewer.py: PyGObject overrides for Tensor Viewer's library
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The introspected API stays as it is; this adds what notebooks and scripts
# reach for: LtViewer.figure(t, t.t(), t[1]) draws a tensor's storage and
# the cells its views reach, and a Figure shows itself inline in Jupyter
# (_repr_svg_) and writes SVG, PDF, PNG or an interactive page headless.

from ..overrides import override
from ..module import get_introspection_module

LtViewer = get_introspection_module('LtViewer')

__all__ = []


class Figure(LtViewer.Figure):
    """A lesson drawn as one figure; in a notebook it shows itself."""

    def _repr_svg_(self):
        return self.to_svg()

    def save(self, path):
        """Writes the figure to path, in the format its extension names:
        .svg, .png, .pdf or .html."""
        from gi.repository import Gio
        self.write(Gio.File.new_for_path(str(path)))


Figure = override(Figure)
__all__.append('Figure')


def figure(t, *views, names=None, title=None, selected=None, step=None, cells_per_row=0,
           zoom=0, pytorch_only=False):
    """The storage of t and the cells its views reach, as a Figure.

    Each view is a tensor over t's storage (t.t(), t[1], t.view(2, 3)...) or
    an expression over t as a string ("t.t().contiguous()", for what copies).
    names gives their names (by default the expressions, or "view 1", ...);
    selected the view whose order and elements are drawn (by default the
    last); step an element of it to mark with its address.
    """
    lesson = LtViewer.Lesson.new()
    lesson.set_base_tensor(t)
    lesson.set_title(title if title is not None else 't and its views')
    lesson.set_pytorch_only(pytorch_only)
    if names is not None and len(names) != len(views):
        raise ValueError(f'{len(names)} names for {len(views)} views')
    lesson.add_view('t', None, 't')
    for index, view in enumerate(views):
        if isinstance(view, str):
            name = names[index] if names is not None else view
            lesson.add_view(name, None, view)
        else:
            name = names[index] if names is not None else f'view {index + 1}'
            lesson.add_tensor_view(name, None, view)
    count = lesson.get_n_views()
    chosen = lesson.get_view(count - 1 if selected is None else selected + 1)
    lesson.set_selected(chosen)
    if step is not None:
        chosen.set_cursor(step)
    result = Figure(lesson=lesson)
    result.set_cells_per_row(cells_per_row)
    result.set_zoom(zoom)
    return result


__all__.append('figure')
