#!/bin/sh
# run_om links the runtime without the compiler (no compiler symbol in the binary, no compiler
# library on its link line) and gives the outputs gec gives for the same .om and inputs.
# Environment: OPENGE_BUILD (the build tree), OPENGE_SOURCE_DIR, NM.
set -eu
build="$OPENGE_BUILD"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if "${NM:-nm}" -C "$build/examples/run_om" | grep -q 'ge::Compiler\|ge::PassManager\|ge::memory::PlanGraphMemory'; then
  echo "run_om holds compiler code:" >&2
  "${NM:-nm}" -C "$build/examples/run_om" | grep 'ge::Compiler\|ge::PassManager' | head -5 >&2
  exit 1
fi
if grep -q 'libge_compiler\|libge_memory' "$build/examples/CMakeFiles/run_om.dir/link.txt"; then
  echo "run_om links the compiler: $(cat "$build/examples/CMakeFiles/run_om.dir/link.txt")" >&2
  exit 1
fi

gec="$build/bin/gec"
model="$build/models/squeezenet_opset17/model.onnx"
[ -f "$model" ] || { echo "missing $model (the exported test models)" >&2; exit 1; }
"$gec" compile "$model" -o "$work/model.om" >/dev/null
mkdir "$work/gec" "$work/run_om"
name=$(/usr/bin/python3 "$OPENGE_SOURCE_DIR/tests/scripts/write_random_input.py" "$model" "$work/input.npy" 7)
"$gec" run "$work/model.om" --iterations 1 --input "$name=$work/input.npy" --output-dir "$work/gec" >/dev/null
"$build/examples/run_om" "$work/model.om" "$work/run_om" "$work/input.npy" >/dev/null
set -- "$work"/gec/*.npy
[ -f "$1" ] || { echo "gec wrote no outputs" >&2; exit 1; }
for want in "$@"; do
  found=0
  for got in "$work"/run_om/*.npy; do
    if cmp -s "$want" "$got"; then found=1; fi
  done
  [ "$found" = 1 ] || { echo "no run_om output equals gec's $(basename "$want")" >&2; exit 1; }
done
echo "run_om: same outputs as gec, no compiler linked"
