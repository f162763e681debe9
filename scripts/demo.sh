#!/usr/bin/env bash
# The main job: installs dependencies, builds OpenGE, then compiles the bundled model
# (models/small_cnn.onnx, made by models/make_small_cnn.py), runs it, and prints the output
# summary, the latency and the memory plan. Pictures of the graph and of the memory plan, the
# compile report, the outputs (.npy) and a trace go to demo-output/ (or $OPENGE_DEMO_OUT).
#   OPENGE_SKIP_SETUP=1   skip scripts/setup.sh
#   OPENGE_BUILD_DIR=DIR  use (and build) DIR instead of build/
#   OPENGE_PREBUILT_BUILD_DIR=DIR  skip setup and build, use the gec of an existing build (tests)
set -euo pipefail

cd "$(dirname "$0")/.."
build="${OPENGE_BUILD_DIR:-build}"
out="${OPENGE_DEMO_OUT:-demo-output}"

if [[ -n "${OPENGE_PREBUILT_BUILD_DIR:-}" ]]; then
  build="$OPENGE_PREBUILT_BUILD_DIR"
else
  if [[ "${OPENGE_SKIP_SETUP:-0}" != 1 ]]; then
    printf '==== Setup: installing dependencies ====\n'
    scripts/setup.sh
  fi
  printf '==== Build (%s/) ====\n' "$build"
  # Only what the demo runs: the libraries, the plugins and gec (no tests or their test data).
  scripts/build.sh --build-dir "$build" --tools-only
fi

gec="$build/bin/gec"
model=models/small_cnn.onnx
mkdir -p "$out"

printf '\n==== gec compile %s ====\n' "$model"
"$gec" compile "$model" -o "$out/small_cnn.om" --report "$out/compile_report.json" \
  --html "$out/compile_explorer.html"

printf '\n==== gec run (20 runs on a deterministic random image) ====\n'
"$gec" run "$out/small_cnn.om" --iterations 20 --warmup 2 --output-dir "$out/outputs" \
  --profile "$out/trace.json" --report "$out/run_report.json"

printf '\n==== gec plan ====\n'
"$gec" plan "$out/small_cnn.om" --svg "$out/memory_plan.svg"
"$gec" plan "$out/small_cnn.om" --svg "$out/memory_plan.png" > /dev/null

"$gec" dump "$model" --stage built --format svg -o "$out/graph.svg"
"$gec" dump "$model" --stage built --format png -o "$out/graph.png"

printf '\n==== Written to %s/ ====\n' "$out"
ls -1 "$out"
