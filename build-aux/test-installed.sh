#!/bin/sh
# libtensor as a user meets it once installed: builds with the installed
# tests (-Dinstalled_tests=true), installs into a prefix of its own
# (_build-installed/prefix, emptied first), and runs against that tree,
# outside `meson devenv`, with no setting but those README.md ("Installing")
# documents for such a prefix:
#
#   - the installed tests, through gnome-desktop-testing-runner;
#   - a C program built with `pkg-config libtensor-1`;
#   - the Python and gjs examples;
#   - Tensor Viewer's headless render, which must print nothing.
#
# build-aux/test.sh runs it; it can run on its own too.
set -eu
cd "$(dirname "$0")/.."
root=$PWD
build=_build-installed
prefix=$root/$build/prefix

# The CUDA kernels as PTX alone: no GPU runs them here, and the test
# command's time is better spent than on machine code for two GPUs.
[ -f "$build/build.ninja" ] || meson setup "$build" --prefix="$prefix" \
  -Dinstalled_tests=true -Ddocs=disabled \
  -Dnvcc_gencode="['arch=compute_90,code=compute_90']"
meson compile -C "$build"
rm -rf "$prefix"
meson install -C "$build" --quiet

libdir=$(meson introspect "$build" --buildoptions |
  /usr/bin/python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')
site=$(cd "$prefix" && ls -d lib/python3*/*-packages | head -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The environment of a fresh shell (nothing of this one's but where caches
# go, and the locale), plus the prefix's settings.
in_prefix () {
  env -i \
    HOME="$HOME" LANG="${LANG:-C.UTF-8}" TMPDIR="${TMPDIR:-/tmp}" \
    ${XDG_CACHE_HOME:+XDG_CACHE_HOME="$XDG_CACHE_HOME"} \
    ${POCL_CACHE_DIR:+POCL_CACHE_DIR="$POCL_CACHE_DIR"} \
    PATH="$prefix/bin:/usr/local/bin:/usr/bin:/bin" \
    LD_LIBRARY_PATH="$prefix/$libdir" \
    PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" \
    GI_TYPELIB_PATH="$prefix/$libdir/girepository-1.0" \
    PYTHONPATH="$prefix/$site" \
    GJS_PATH="$prefix/share/gjs-1.0" \
    XDG_DATA_DIRS="$prefix/share:/usr/local/share:/usr/share" \
    "$@"
}

echo "== The installed tree answers, not the build tree"
in_prefix /usr/bin/python3 - "$prefix" <<'EOF'
import os, sys
import gi
gi.require_version('GIRepository', '2.0')
gi.require_version('Lt', '1.0')
from gi.repository import GIRepository, Lt
import gi.overrides.Lt

prefix = sys.argv[1] + os.sep
typelib = GIRepository.Repository.get_default().get_typelib_path('Lt')
for what, path in (('typelib', typelib), ('overrides', gi.overrides.Lt.__file__)):
    if not path.startswith(prefix):
        sys.exit(f'the {what} came from {path}, not from {prefix}')
devices = Lt.device_list()
print('devices:', ', '.join(devices))
if not any(d.startswith('opencl') for d in devices):
    sys.exit('no OpenCL device: the installed backend module was not found')
EOF

echo "== Installed tests (gnome-desktop-testing-runner)"
if ! in_prefix gnome-desktop-testing-runner --dir="$prefix/share" --timeout=900 libtensor-1 \
    > "$work/installed-tests.log" 2>&1; then
  cat "$work/installed-tests.log"
  exit 1
fi
grep -E "^(FAIL|SKIP|SUMMARY)" "$work/installed-tests.log"

echo "== A C program built with pkg-config"
in_prefix sh -c 'cc -o "$1/points" "$2/examples/points.c" $(pkg-config --cflags --libs libtensor-1)' \
  sh "$work" "$root"
in_prefix "$work/points" > "$work/points.out"
grep -q "points\[1\] shares the storage of points: yes" "$work/points.out"

echo "== The Python and gjs examples"
for example in grayscale.py exchange.py; do
  in_prefix /usr/bin/python3 "examples/$example" > /dev/null
done
for example in points.js grayscale.js; do
  in_prefix gjs -m "examples/$example" > /dev/null
done

echo "== Tensor Viewer's library from Python, with no display"
in_prefix /usr/bin/python3 - "$prefix" "$work" <<'EOF'
import os, sys
import gi
gi.require_version('GIRepository', '2.0')
gi.require_version('Lt', '1.0')
gi.require_version('LtViewer', '1')
from gi.repository import GIRepository, Lt, LtViewer
import gi.overrides.LtViewer

prefix = sys.argv[1] + os.sep
typelib = GIRepository.Repository.get_default().get_typelib_path('LtViewer')
for what, path in (('typelib', typelib), ('overrides', gi.overrides.LtViewer.__file__)):
    if not path.startswith(prefix):
        sys.exit(f'the {what} came from {path}, not from {prefix}')
points = Lt.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 5.0]])
path = os.path.join(sys.argv[2], 'figure.pdf')
LtViewer.figure(points, points.t(), names=['points.t()']).save(path)
with open(path, 'rb') as f:
    if not f.read().startswith(b'%PDF'):
        sys.exit('the figure is not a PDF')
print('LtViewer.figure() wrote a PDF')
EOF

echo "== Tensor Viewer's widgets from Python, in a window of a script's own"
in_prefix env LC_ALL=C.UTF-8 GSK_RENDERER=cairo GDK_BACKEND=x11 GTK_A11Y=none NO_AT_BRIDGE=1 \
  xvfb-run -a /usr/bin/python3 - "$prefix" <<'EOF'
import os, sys
import gi
gi.require_version('GIRepository', '2.0')
gi.require_version('Gtk', '4.0')
gi.require_version('LtViewer', '1')
gi.require_version('LtViewerGtk', '1')
from gi.repository import GIRepository, GLib, Gtk, LtViewer, LtViewerGtk

prefix = sys.argv[1] + os.sep
typelib = GIRepository.Repository.get_default().get_typelib_path('LtViewerGtk')
if not typelib.startswith(prefix):
    sys.exit(f'the typelib came from {typelib}, not from {prefix}')
lesson = LtViewer.Lesson.load_builtin('points')
strip = LtViewerGtk.StorageStrip()
strip.set_lesson(lesson)
window = Gtk.Window(child=strip)
window.present()
context = GLib.MainContext.default()
deadline = GLib.get_monotonic_time() + 10 * GLib.USEC_PER_SEC
while not strip.get_mapped():
    if GLib.get_monotonic_time() > deadline:
        sys.exit('the strip was not shown within 10 s')
    context.iteration(False)
text = strip.describe_cell(2)
if not text.startswith('Cell 2: 5.0'):
    sys.exit(f'cell 2 is described as {text!r}')
print('LtViewerGtk.StorageStrip drew points')
EOF

echo "== Tensor Viewer's headless render"
in_prefix env GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
  dbus-run-session --dbus-daemon="$root/build-aux/session-bus-daemon.sh" -- \
  xvfb-run -a tensor-viewer --lesson points --screenshot "$work/points.png" \
  > "$work/viewer.out" 2>&1
if [ -s "$work/viewer.out" ]; then
  echo "the viewer printed, where it should have printed nothing:"
  cat "$work/viewer.out"
  exit 1
fi
test -s "$work/points.png"
echo "The installed tree works."
