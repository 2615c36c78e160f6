#!/bin/sh
# build-aux/gpu-bundle.sh [DEST]: everything build-aux/gpu-check.sh needs on
# a GPU machine that has NVIDIA's driver, nvcc and PyTorch but neither
# Debian's GLib nor a package registry (README, "On a GPU machine").
#
# Builds _build-gpu (the CUDA module and the programs the check runs; no
# viewer, introspection, BLAS or OpenCL, which the check does not use), then
# fills DEST (default .gpu-bundle, ignored by git):
#   DEST/build/libtensor/   libtensor-1.so and libtensor-1-cuda.so
#   DEST/build/tests/       the device test programs and test-cuda-kernels
#   DEST/root/              Debian's GLib, json-glib and what they load,
#                           unpacked from their .deb files with dpkg -x
#                           (never into /)
# Carry DEST and the source tree to the GPU machine and run there:
#   build-aux/gpu-check.sh DEST
set -eu
cd "$(dirname "$0")/.."
dest=${1:-.gpu-bundle}
build=_build-gpu

[ -f $build/build.ninja ] || meson setup $build -Dcuda=enabled -Dviewer=disabled \
  -Dintrospection=disabled -Ddocs=disabled -Dblas=disabled -Dopencl=disabled
# Meson 1.0 records no header dependencies for CUDA sources: rebuild them.
find $build -name '*.cu.o' -delete
programs="tests/test-cuda-kernels tests/test-device-tensors tests/test-device-memory
          tests/test-dlpack tests/test-device"
# shellcheck disable=SC2086
ninja -C $build libtensor/libtensor-1.so.0.0.0 libtensor/libtensor-1-cuda.so $programs

rm -rf "$dest/build"
mkdir -p "$dest/build/libtensor" "$dest/build/tests" "$dest/debs" "$dest/root"
cp -P $build/libtensor/libtensor-1.so $build/libtensor/libtensor-1.so.0 \
  $build/libtensor/libtensor-1.so.0.0.0 "$dest/build/libtensor/"
cp $build/libtensor/libtensor-1-cuda.so "$dest/build/libtensor/"
for program in $programs; do
  cp "$build/$program" "$dest/build/tests/"
done
# Debug sections are most of their size; the symbols stay for backtraces.
strip --strip-debug "$dest"/build/libtensor/*.so* "$dest"/build/tests/*

# The shared libraries the programs load from Debian, as Debian ships them.
packages="libglib2.0-0 libjson-glib-1.0-0 libffi8 libpcre2-8-0"
(cd "$dest/debs" && apt-get download $packages)
for deb in "$dest"/debs/*.deb; do
  dpkg -x "$deb" "$dest/root"
done
rm -rf "$dest/debs" "$dest/root/usr/share"
du -sh "$dest"
