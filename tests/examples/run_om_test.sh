#!/bin/sh
# run_om links the runtime without the compiler (no compiler symbol in the binary, no compiler
# library on its link line) and gives the outputs gec gives for the same .om and inputs.
# Environment: OPENGE_BUILD (the build tree), NM.
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
name=$(/usr/bin/python3 - "$model" "$work/input.npy" <<'PY'
import sys, numpy, onnx
graph = onnx.load(sys.argv[1]).graph
inits = {i.name for i in graph.initializer}
x = [i for i in graph.input if i.name not in inits][0]
dims = [d.dim_value or 1 for d in x.type.tensor_type.shape.dim]
numpy.save(sys.argv[2], numpy.random.default_rng(7).standard_normal(dims).astype(numpy.float32))
print(x.name)
PY
)
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
