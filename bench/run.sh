#!/bin/sh
# The README's benchmark command: installs what is missing, builds, and runs
# bench/compare.py (libtensor from C and through GI against PyTorch and
# NumPy, same inputs, same thread count). Arguments go to compare.py, e.g.
# --threads 1 or --filter matmul.
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh

[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
exec meson devenv -C _build /usr/bin/python3 "$PWD/bench/compare.py" --build-dir "$PWD/_build" "$@"
