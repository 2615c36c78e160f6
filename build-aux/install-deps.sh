#!/bin/sh
# Installs the Debian 12 packages libtensor needs to build, test and run,
# skipping those already installed. Runs apt-get as root (directly or via sudo).
set -eu

packages="
  meson ninja-build gcc pkg-config
  libglib2.0-dev libjson-glib-dev libdlpack-dev gobject-introspection libgirepository1.0-dev
  python3 python3-dev python3-gi python-gi-dev gjs
  python3-numpy python3-torch python3-dask libopenblas-dev python3-matplotlib
  gi-docgen
  clang libclang-rt-14-dev valgrind
  libgtk-4-dev libgtk-4-bin libadwaita-1-dev
  xvfb xauth dbus-daemon desktop-file-utils appstream gettext chromium
  jupyter-nbconvert python3-ipykernel
  gnome-desktop-testing
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo libclblast-dev
"

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=""
else
  as_root="sudo"
fi

echo "Installing:$missing"
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
