#!/usr/bin/env bash
# Checks the project's Python (the openge package, its tests, the examples, benchmarks and scripts)
# with pyflakes (Debian's python3-pyflakes): no unused or undefined names, no unused imports, no
# redefinitions. Exits 1 listing every finding as file:line:col.
#   scripts/check_python.sh           every committed .py file
#   scripts/check_python.sh FILE...   those files
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# == 0)); then
  mapfile -t files < <(git ls-files -- '*.py')
else
  files=("$@")
fi
if ! /usr/bin/python3 -m pyflakes "${files[@]}"; then
  echo "check_python: the findings above need fixing" >&2
  exit 1
fi
echo "check_python: ${#files[@]} Python files, no findings"
