#!/bin/sh
# The README's first command: install what is missing, build, and run the
# main job: Tensor Viewer, opened on the seeds' first lesson (the points
# tensor). Without a display (an SSH session, a container) the viewer
# renders the lesson headless under Xvfb into _build/points.png instead, and
# the command-line walk through the same tensor is printed.
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; then
  exec meson devenv -C _build ./viewer/tensor-viewer --lesson points
fi

echo "No display: rendering the lesson to _build/points.png with Xvfb."
GSK_RENDERER=cairo meson devenv -C _build \
  xvfb-run -a ./viewer/tensor-viewer --lesson points --screenshot "$PWD/_build/points.png"
meson devenv -C _build ./examples/points
echo "Screenshot of the points lesson: $PWD/_build/points.png"
