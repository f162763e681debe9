#!/bin/sh
# Clones the repository into a temporary directory and runs its scripts/demo.sh with this build's
# binaries; fails unless the demo ends and writes every promised file.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$GIT" clone --quiet "$OPENGE_SOURCE_DIR" "$work/clone"
OPENGE_PREBUILT_BUILD_DIR="$OPENGE_BUILD" OPENGE_DEMO_OUT="$work/out" "$work/clone/scripts/demo.sh" > "$work/log" 2>&1 || {
  cat "$work/log"; echo "demo.sh failed"; exit 1; }
for f in small_cnn.om compile_report.json run_report.json trace.json memory_plan.svg \
         memory_plan.png graph.svg graph.png compile_explorer.html outputs/logits.npy; do
  [ -s "$work/out/$f" ] || { cat "$work/log"; echo "demo.sh did not write $f"; exit 1; }
done
grep -q "output logits: DT_FLOAT \[1,10\]" "$work/log" || { cat "$work/log"; echo "no output summary"; exit 1; }
grep -q "latency over 20 run(s)" "$work/log" || { cat "$work/log"; echo "no latency"; exit 1; }
echo "demo.sh from a clean clone: ok"
