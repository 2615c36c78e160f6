#!/bin/sh
# The README's second command: install what is missing, build, and run every
# test twice: in a normal build, and in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on for the C tests); in between,
# against an installed tree; then the C and gjs tests again under valgrind,
# the C tests under ThreadSanitizer; then fuzz.
set -eu
cd "$(dirname "$0")/.."

./build-aux/install-deps.sh

# install-deps.sh installed PoCL: the OpenCL tests must run, not skip.
export LT_TEST_EXPECT_OPENCL=1

[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
meson test -C _build --print-errorlogs

# The installed tree, outside the build tree's environment: the installed
# tests, a C program built with pkg-config, the Python and gjs examples,
# the viewer's headless render (build-aux/test-installed.sh).
./build-aux/test-installed.sh

# Its CUDA kernels are compiled to PTX alone: no GPU runs them here, and
# machine code for two architectures would double nvcc's share of the build.
[ -f _build-asan/build.ninja ] || meson setup _build-asan \
  -Db_sanitize=address,undefined -Db_lundef=false -Ddocs=disabled \
  -Dnvcc_gencode="['arch=compute_90,code=compute_90']"
meson compile -C _build-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
LSAN_OPTIONS=suppressions="$PWD/build-aux/lsan.supp":print_suppressions=0 \
  meson test -C _build-asan --print-errorlogs

# Valgrind's memcheck over the same normal build (build-aux/valgrind-test.sh):
# the project's own C programs (the library's tests, the viewer's, the fuzz
# replays, the C examples) and gjs. valgrind shows every program one
# synthetic processor, so these run the same on any x86-64 machine. The
# Python tests stay under AddressSanitizer above: PyTorch, NumPy and what
# they load choose their instructions at run time in ways valgrind 3.19
# cannot always decode, which depends on the processor (README,
# "Reliability").
# (Suites and test names go in separate runs: given both, meson runs only
# the tests that match both.)
meson test -C _build --setup valgrind --print-errorlogs \
  --suite c --suite viewer --suite fuzz --suite gjs
meson test -C _build --setup valgrind --print-errorlogs example-points example-exchange

# ThreadSanitizer over the C tests: the threaded kernels and storages,
# views and generators shared between threads (tests/test-threads.c). Only
# the CPU backend: the OpenCL driver's own threads are not instrumented.
[ -f _build-tsan/build.ninja ] || meson setup _build-tsan -Db_sanitize=thread \
  -Db_lundef=false -Ddocs=disabled -Dcuda=disabled -Dopencl=disabled \
  -Dintrospection=disabled -Dviewer=disabled
meson compile -C _build-tsan
env -u LT_TEST_EXPECT_OPENCL \
  TSAN_OPTIONS=suppressions="$PWD/build-aux/tsan.supp":allocator_may_return_null=1 \
  meson test -C _build-tsan --print-errorlogs --suite c

# Fuzzing (tests/fuzz/README.md): every target, a minute each, as libFuzzer
# programs built by clang under AddressSanitizer and UndefinedBehaviorSanitizer.
[ -f _build-fuzz/build.ninja ] || CC=clang meson setup _build-fuzz -Dfuzzing=true \
  -Db_sanitize=address,undefined -Db_lundef=false -Ddocs=disabled \
  -Dcuda=disabled -Dopencl=disabled -Dintrospection=disabled
meson compile -C _build-fuzz fuzz-index-expr fuzz-literal fuzz-npy fuzz-safetensors \
  fuzz-view-chain fuzz-lesson-file
./build-aux/fuzz.sh _build-fuzz "${LT_FUZZ_SECONDS:-60}"
