#!/usr/bin/env bash
# Runs ONNX's current node conformance suite through gec and, when installed, ONNX Runtime, and
# prints both pass counts. The suite's test data (model.onnx and test_data_set_*/ of TensorProtos
# per case) left ONNX's repository in "Remove node test artifacts"; the commit before it holds the
# cases of ONNX 1.23 (1,802, opsets up to 28). Not a test: CI runs the cases Debian's python3-onnx
# generates and tests/conformance/generate_idiom_cases.py instead, as no package ships these.
#
#   bench/onnx_suite.sh ONNX_GIT_DIR [OUT_DIR] [BUILD_DIR]
#
# ONNX_GIT_DIR  a clone of ONNX's repository with its history (a bare one will do)
# OUT_DIR       where the cases are extracted and the results written (default: build/onnx_suite)
# BUILD_DIR     the build holding bin/gec (default: build)
# Writes OUT_DIR/gec.txt and OUT_DIR/ort.txt (one PASS/FAIL line per case) and prints the counts,
# the cases each one alone passes, and gec's failures grouped by their first words.
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
onnx="${1:?usage: bench/onnx_suite.sh ONNX_GIT_DIR [OUT_DIR] [BUILD_DIR]}"
out="${2:-$src/build/onnx_suite}"
build="${3:-$src/build}"
gec="$build/bin/gec"
[[ -x "$gec" ]] || { echo "onnx_suite.sh: $gec not found; build first (scripts/build.sh)" >&2; exit 1; }

removal=$(git -C "$onnx" log --format=%H --grep='^Remove node test artifacts' -n 1 HEAD)
[[ -n "$removal" ]] || { echo "onnx_suite.sh: no 'Remove node test artifacts' commit in $onnx" >&2; exit 1; }
cases="$out/onnx/backend/test/data/node"
if [[ ! -d "$cases" ]]; then
  mkdir -p "$out"
  git -C "$onnx" archive "$removal^" onnx/backend/test/data/node | tar -x -C "$out"
fi
echo "ONNX $(git -C "$onnx" show "$removal^:VERSION_NUMBER"): $(find "$cases" -mindepth 1 -maxdepth 1 -type d | wc -l) cases"

"$gec" onnx-test "$cases" >"$out/gec.txt" 2>/dev/null || true
echo "gec:  $(grep -c '^PASS' "$out/gec.txt") passed"
if [[ -d "$src/bench/ort/node_modules/onnxruntime-node" ]]; then
  node "$src/bench/ort/onnx_test.js" "$cases" >"$out/ort.txt" 2>/dev/null || true
  echo "ONNX Runtime: $(grep -c '^PASS' "$out/ort.txt") passed"
  pass() { grep '^PASS' "$1" | awk '{print $2}' | sort; }
  echo "passed by gec only: $(comm -13 <(pass "$out/ort.txt") <(pass "$out/gec.txt") | wc -l)," \
       "by ONNX Runtime only: $(comm -23 <(pass "$out/ort.txt") <(pass "$out/gec.txt") | wc -l)"
else
  echo "ONNX Runtime: not installed (bench/ort/install.sh)"
fi
echo "gec's failures by cause:"
grep '^FAIL' "$out/gec.txt" | sed -E "s/^FAIL [^:]*: //; s#[^ ]*/model.onnx: ##; s#'[^']*[.]pb': ##; s/[0-9]+/N/g" |
  cut -c1-100 | sort | uniq -c | sort -rn
