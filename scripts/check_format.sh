#!/usr/bin/env bash
# Checks that C++ sources are clang-formatted (.clang-format: Google style, 100 columns).
#   scripts/check_format.sh            every tracked .h/.cc
#   scripts/check_format.sh FILE...    those files
# Exits 1 naming each file that differs; `clang-format -i FILE` fixes it.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# > 0)); then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.h' '*.cc')
fi
bad=()
for f in "${files[@]}"; do
  if ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]} > 0)); then
  printf '%s\n' "${bad[@]}"
  echo "check_format: ${#bad[@]} file(s) above are not clang-formatted; run clang-format -i on them" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files clang-formatted"
