#!/bin/sh
# The README's second command: install what is missing, build, and run every
# test twice: in a normal build, and in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on for the C tests); then fuzz.
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh

# install-deps.sh installed PoCL: the OpenCL tests must run, not skip.
export LT_TEST_EXPECT_OPENCL=1

[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
meson test -C _build --print-errorlogs

[ -f _build-asan/build.ninja ] || meson setup _build-asan \
  -Db_sanitize=address,undefined -Db_lundef=false -Ddocs=disabled
meson compile -C _build-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
LSAN_OPTIONS=suppressions="$PWD/build-aux/lsan.supp":print_suppressions=0 \
  meson test -C _build-asan --print-errorlogs

# Fuzzing (tests/fuzz/README.md): every target, a minute each, as libFuzzer
# programs built by clang under AddressSanitizer and UndefinedBehaviorSanitizer.
[ -f _build-fuzz/build.ninja ] || CC=clang meson setup _build-fuzz -Dfuzzing=true \
  -Db_sanitize=address,undefined -Db_lundef=false -Ddocs=disabled \
  -Dcuda=disabled -Dopencl=disabled -Dintrospection=disabled
meson compile -C _build-fuzz fuzz-index-expr fuzz-literal fuzz-npy fuzz-safetensors \
  fuzz-view-chain fuzz-lesson-file
./build-aux/fuzz.sh _build-fuzz "${LT_FUZZ_SECONDS:-60}"
