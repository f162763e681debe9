#!/usr/bin/env bash
# Installs ONNX Runtime for Node (npm's onnxruntime-node, CPU only) into bench/ort/node_modules for
# the model benchmark (bench/models/run_bench.py). Optional, and not part of scripts/setup.sh (which
# installs Debian packages only); bench/ort/node_modules is git-ignored.
#
# --ignore-scripts skips the package's postinstall, which only downloads GPU (CUDA/TensorRT)
# providers: the CPU binding (bin/napi-v6/linux/x64/onnxruntime_binding.node and
# libonnxruntime.so.1) ships inside the package.
#
#   bench/ort/install.sh            # the version the README's table was measured with
#   ORT_VERSION=latest bench/ort/install.sh
set -euo pipefail

version="${ORT_VERSION:-1.30.0}"
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "install.sh: '$tool' not found; install Node.js 18 or newer (Debian: nodejs, npm)" >&2
    exit 1
  fi
done

npm install --prefix "$dir" --ignore-scripts --no-save --no-package-lock --no-audit --no-fund \
  "onnxruntime-node@${version}"

# Check that the native CPU binding loads (the benchmark would only fail later).
cd "$dir"
node -e 'console.log("onnxruntime-node " + require("onnxruntime-node").env.versions.node + " loads")'
