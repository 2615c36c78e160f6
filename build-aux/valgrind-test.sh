#!/bin/sh
# Runs one test under valgrind's memcheck; meson uses it as the wrapper of
# the "valgrind" test setup (meson test --setup valgrind). Any memory error,
# and any block definitely lost, fails the test.
#
# The test command arrives as meson would run it. A widget test runs under
# xvfb-run: the X server stays outside valgrind and the test inside. A
# Python test runs with Python's own allocator off, so that valgrind sees
# every block.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

# No OpenCL platforms: PoCL compiles every kernel with LLVM, which takes
# minutes per test under valgrind. The OpenCL backend runs on PoCL in the
# normal and sanitizer runs instead; here its tests skip as on a machine
# without OpenCL.
OCL_ICD_VENDORS=/nonexistent
export OCL_ICD_VENDORS
unset LT_TEST_EXPECT_OPENCL

# No --track-origins: it finds the same errors, and costs a third of the
# run's time; add it by hand to see where an uninitialised value came from.
run_valgrind () {
  exec valgrind --tool=memcheck --error-exitcode=1 \
    --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --num-callers=40 \
    --suppressions=/usr/share/glib-2.0/valgrind/glib.supp \
    --suppressions="$here/valgrind.supp" \
    "$@"
}

case "$(basename "$1")" in
  xvfb-run)
    # xvfb-run [-a] [-s ARGS]... TEST [ARGS]: put valgrind before TEST.
    xvfb_run=$1
    shift
    auto=
    server=
    while [ $# -gt 0 ]; do
      case "$1" in
        -a) auto=-a; shift ;;
        -s) server=$2; shift 2 ;;
        *) break ;;
      esac
    done
    exec "$xvfb_run" $auto -s "$server" "$0" "$@"
    ;;
  python3*)
    PYTHONMALLOC=malloc
    export PYTHONMALLOC
    run_valgrind "$@"
    ;;
  *)
    run_valgrind "$@"
    ;;
esac
