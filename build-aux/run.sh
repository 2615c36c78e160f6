#!/bin/sh
# The README's first command: install what is missing, build, and run the
# main job: Tensor Viewer, opened on the seeds' first lesson (the points
# tensor). Without a display (an SSH session, a container) the viewer
# renders the lesson headless under Xvfb, with a session bus of its own,
# into _build/points.png instead, and
# the command-line walk through the same tensor is printed.
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; then
  exec meson devenv -C _build ./viewer/tensor-viewer --lesson points
fi

# The viewer is a GApplication: it wants a session bus, which a headless
# machine lacks, so it gets one of its own for the run (dbus-run-session).
# Nobody reads the picture through a screen reader, so the accessibility
# bus (a daemon of its own, and its log) is not started.
echo "No display: rendering the lesson to _build/points.png with Xvfb."
GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 meson devenv -C _build \
  dbus-run-session --dbus-daemon="$PWD/build-aux/session-bus-daemon.sh" -- \
  xvfb-run -a ./viewer/tensor-viewer --lesson points --screenshot "$PWD/_build/points.png"
meson devenv -C _build ./examples/points
echo "Screenshot of the points lesson: $PWD/_build/points.png"
