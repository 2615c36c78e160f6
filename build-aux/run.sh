#!/bin/sh
# The README's first command: install what is missing, build, and run the
# main job (the walk through the seeds' points tensor).
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
meson devenv -C _build ./examples/points
