#!/usr/bin/env bash
# Installs OpenGE's build, test and tooling dependencies from Debian packages (Debian 12).
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

# Add new dependencies here, one Debian package per entry. Name every package the build, the demo
# and the tests use, even when another package merely Recommends it: installs here skip
# Recommends, and scripts/check_deps.py (run by CI) fails on a package used but not reached from
# this list through Depends.
PACKAGES=(
  build-essential
  g++
  cmake
  ninja-build
  pkg-config
  git  # CMake's FindGit (GoogleTest's config), and cloning
  libgtest-dev
  libgmock-dev
  googletest
  libbenchmark-dev
  libprotobuf-dev
  nlohmann-json3-dev  # nlohmann_json: engine_conf.json
  protobuf-compiler
  graphviz
  librsvg2-bin  # rsvg-convert: memory-plan pictures as PNG
  libcli11-dev  # gec's argument parsing
  libdnnl-dev  # CPU engine: convolution, matmul, pooling, normalization primitives (oneDNN)
  ocl-icd-opencl-dev  # oneDNN's CMake config requires OpenCL (only a Recommends of libdnnl-dev)
  libeigen3-dev  # CPU engine: vectorized elementwise math
  clang-format
  clang-tidy
  clang  # libFuzzer
  libclang-rt-dev  # libFuzzer and sanitizer runtimes (only a Recommends of clang)
  libomp-dev  # OpenMP for clang: the fuzzers build the CPU engine with clang
  libonnx-dev  # ONNX parser: onnx_proto
  python3-onnx  # test models and the ONNX conformance suite
  python3-torch
  python3-torchvision
  python3-dev  # the Python module: Python's headers (pybind11-dev does not depend on them)
  pybind11-dev  # the Python module's bindings
  python3-numpy  # the Python module's arrays
  python3-pytest  # the Python module's tests
  python3-pyflakes  # scripts/check_python.sh
  libopenmpi-dev  # pipeline stages across processes (src/pipeline): MPI's headers and library
  openmpi-bin  # mpirun: the pipeline tests start their ranks with it
  chromium  # the compile explorer's browser test (headless)
)

cd "$(dirname "$0")/.."

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages are installed."
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi

sudo_cmd=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "setup: run as root (or install sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

# Another apt/dpkg run may hold the locks: wait for the dpkg lock, and retry a few times.
apt_get() {
  local attempt
  for attempt in 1 2 3; do
    if "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get -o DPkg::Lock::Timeout=300 "$@"; then
      return 0
    fi
    ((attempt < 3)) && { echo "setup: apt-get $1 failed; retrying in 20 s" >&2; sleep 20; }
  done
  return 1
}

echo "setup: installing ${missing[*]}"
apt_get update
apt_get install -y --no-install-recommends "${missing[@]}"
echo "setup: done."
