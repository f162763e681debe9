#!/bin/sh
# examples/graph_api: the two networks built with GE's graph API compile, run in a session and
# give the outputs of the same networks parsed from models/*.onnx; the .om files they were saved
# to run with gec. Environment: OPENGE_BUILD (the build tree), OPENGE_SOURCE_DIR.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$OPENGE_BUILD/examples/graph_api_example" "$OPENGE_SOURCE_DIR/models" "$work" > "$work/out.txt"
cat "$work/out.txt"
for name in small_cnn attention_block; do
  grep -q "^$name .*max |graph API - ONNX| = 0\$" "$work/out.txt" ||
    { echo "$name: outputs differ from the ONNX file's" >&2; exit 1; }
  "$OPENGE_BUILD/bin/gec" run "$work/${name}_api.om" --iterations 1 > "$work/run.txt" ||
    { echo "gec cannot run ${name}_api.om" >&2; cat "$work/run.txt" >&2; exit 1; }
done
echo "graph_api_example: both networks equal their ONNX files; their .om files run with gec"
