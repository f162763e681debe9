#!/usr/bin/env bash
# Builds the fuzzers (clang++, libFuzzer, ASan + UBSan; tests/fuzz/) in the sanitizer tree,
# build-asan/, and runs each for a bounded time from its seed corpus (written from the test models
# into build-asan/fuzz_seeds/<target>/) and its saved findings (tests/data/fuzz_regressions/<target>/):
#   ge_load       GE's graph files           ge_run        GE graphs (nested subgraphs) compiled, run
#   onnx_parse    the ONNX parser, compiler  om_run        a compiled model, run
#   npy           the .npy reader            pipeline_run  a pipeline .om, every stage run
#   scripts/fuzz.sh [SECONDS [TARGET...]]   SECONDS per target (default 60), every target by default
#   scripts/fuzz.sh --local [TARGET...]     the long local run: 600 s (10 minutes) per target
#   OPENGE_FUZZ_SEED=N   libFuzzer's random seed (default: a new one each run); CI fixes it, so a
#                        run starting from the same seeds explores the same inputs first
# CI runs `OPENGE_FUZZ_SEED=1 scripts/fuzz.sh 20`: 20 s per target. The local run is for before a
# change to a loader lands; it keeps what it learns in build-asan/corpus/<target>/, so each run
# starts where the last one stopped.
# Exits non-zero when a fuzzer finds a crash, a sanitizer error, a hang or a broken invariant; the
# input is saved as build-asan/artifacts/<target>/crash-* (or timeout-*, oom-*). Fix the bug and
# add the input to tests/data/fuzz_regressions/<target>/: every test build replays that directory.
# New interesting inputs go to build-asan/corpus/<target>/, never into the repository.
set -euo pipefail

all_targets=(ge_load ge_run onnx_parse om_run npy pipeline_run values)
if [[ "${1:-}" == "--local" ]]; then
  seconds=600
else
  seconds="${1:-60}"
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number (or --local), got '$seconds'" >&2
  exit 2
fi
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  if [[ " ${all_targets[*]} " != *" $target "* ]]; then
    echo "fuzz.sh: unknown target '$target' (${all_targets[*]})" >&2
    exit 2
  fi
done
cd "$(dirname "$0")/.."

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz.sh: clang++ not found; install the Debian package clang (scripts/setup.sh)" >&2
  exit 1
fi
# libFuzzer and the sanitizer runtimes are only a Recommends of Debian's clang.
runtime_dir="$(clang++ -print-runtime-dir 2>/dev/null || true)"
if ! compgen -G "${runtime_dir}/libclang_rt.fuzzer*.a" >/dev/null; then
  echo "fuzz.sh: libFuzzer's runtime is missing from '${runtime_dir}'; install the Debian" \
    "package libclang-rt-dev (libclang-rt-14-dev)" >&2
  exit 1
fi

# The fuzzers are built in the sanitizer tree (clang, ASan + UBSan, coverage), the one the
# sanitizer tests use, so after scripts/test.sh this builds nothing new. -O0 with line tables:
# the inputs are small, so fuzzing speed matters less than the build's (at -O1, which libFuzzer
# suggests, the CPU kernels' templates take four times as long to compile).
build_dir=build-asan
build_args=()
for target in "${targets[@]}"; do build_args+=(--target "${target}_fuzzer"); done
scripts/build.sh --sanitize "${build_args[@]}" --target make_fuzz_seeds
cmake --build "$build_dir" --target fuzz_seeds

# intercept_tls_get_addr=0: LeakSanitizer's exit-time scan crashes on the dynamic TLS of OpenMP's
# worker threads in the dlopen'ed CPU engine.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:intercept_tls_get_addr=0}"
# The sanitizer runtime is the shared one (CMakeLists.txt), and libFuzzer's link puts libstdc++
# ahead of it: preloaded, it comes first, as ASan requires.
asan_runtime="$(clang++ -print-file-name="libclang_rt.asan-$(uname -m).so")"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
# -entropic=0: with as many coverage features as these targets have (some 200,000), clang 14's
# libFuzzer spends most of each run updating the entropic schedule's feature frequencies; without
# it a target runs six to fifty times as many inputs in the same time.
for target in "${targets[@]}"; do
  mkdir -p "$build_dir/corpus/$target" "$build_dir/artifacts/$target"
  echo "fuzz.sh: fuzzing $target for ${seconds} s"
  LD_PRELOAD="$asan_runtime" "$build_dir/tests/fuzz/${target}_fuzzer" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -entropic=0 \
    -seed="${OPENGE_FUZZ_SEED:-0}" \
    -artifact_prefix="$build_dir/artifacts/$target/" \
    "$build_dir/corpus/$target" "$build_dir/fuzz_seeds/$target" \
    "tests/data/fuzz_regressions/$target"
done
echo "fuzz.sh: no finding in ${seconds} s for each of: ${targets[*]}"
