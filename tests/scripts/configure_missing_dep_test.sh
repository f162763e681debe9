#!/bin/sh
# Configure stops, naming the Debian package, when a required dependency is absent (hidden here
# with CMAKE_DISABLE_FIND_PACKAGE_<name>), rather than leaving out the parts that need it.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {  # check <find_package name> <Debian package> [<what needs it>]
  needs="${3:-OpenGE needs}"
  if "$CMAKE" -S "$OPENGE_SOURCE_DIR" -B "$work/$1" -G Ninja -DOPENGE_BUILD_TESTS=OFF \
      -DOPENGE_BUILD_BENCH=OFF "-DCMAKE_DISABLE_FIND_PACKAGE_$1=ON" > "$work/$1.log" 2>&1; then
    cat "$work/$1.log"; echo "configure succeeded without $1"; exit 1
  fi
  tr '\n' ' ' < "$work/$1.log" | tr -s ' ' | grep -q "$needs $1, which was not found: install the Debian package '$2'" ||
    { cat "$work/$1.log"; echo "configure without $1 did not name $2"; exit 1; }
}
check ONNX libonnx-dev
check dnnl libdnnl-dev
check MPI libopenmpi-dev
check CLI11 libcli11-dev
check pybind11 pybind11-dev "OpenGE's Python module needs"
echo "configure names the missing package: ok"
