#!/usr/bin/env bash
# Builds the fuzzers (clang++, libFuzzer, ASan + UBSan; tests/fuzz/) in build-fuzz/ and runs each
# for a bounded time from its seed corpus (written from the test models into
# build-fuzz/fuzz_seeds/<target>/) and its saved findings (tests/data/fuzz_regressions/<target>/):
#   ge_load     GE's graph files        onnx_parse  the ONNX parser, then the compiler
#   om_run      a compiled model, run   npy         the .npy reader
#   scripts/fuzz.sh [SECONDS [TARGET...]]   SECONDS per target (default 60), every target by default
#   OPENGE_FUZZ_SEED=N   libFuzzer's random seed (default: a new one each run); CI fixes it, so a
#                        run starting from the same seeds explores the same inputs first
# Exits non-zero when a fuzzer finds a crash, a sanitizer error, a hang or a broken invariant; the
# input is saved as build-fuzz/artifacts/<target>/crash-* (or timeout-*, oom-*). Fix the bug and
# add the input to tests/data/fuzz_regressions/<target>/: every test build replays that directory.
# New interesting inputs go to build-fuzz/corpus/<target>/, never into the repository.
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2
  exit 2
fi
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(ge_load onnx_parse om_run npy)
for target in "${targets[@]}"; do
  case "$target" in
    ge_load|onnx_parse|om_run|npy) ;;
    *) echo "fuzz.sh: unknown target '$target' (ge_load, onnx_parse, om_run, npy)" >&2; exit 2 ;;
  esac
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

build_dir=build-fuzz
# The whole project with clang, instrumented; no tests, benchmarks or examples. -O0 with line
# tables: the inputs are small, so fuzzing speed matters less than the build's (at -O1, which
# libFuzzer suggests, the CPU kernels' templates take four times as long to compile).
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DOPENGE_FUZZ=ON \
  -DOPENGE_BUILD_TESTS=OFF -DOPENGE_BUILD_BENCH=OFF -DOPENGE_BUILD_EXAMPLES=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only -DNDEBUG"
fuzzers=()
for target in "${targets[@]}"; do fuzzers+=("${target}_fuzzer"); done
# The machines have two cores; more jobs only thrash.
cmake --build "$build_dir" -j2 --target "${fuzzers[@]}" make_fuzz_seeds
cmake --build "$build_dir" --target fuzz_seeds

# intercept_tls_get_addr=0: LeakSanitizer's exit-time scan crashes on the dynamic TLS of OpenMP's
# worker threads in the dlopen'ed CPU engine.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:intercept_tls_get_addr=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
# -entropic=0: with as many coverage features as these targets have (some 200,000), clang 14's
# libFuzzer spends most of each run updating the entropic schedule's feature frequencies; without
# it a target runs six to fifty times as many inputs in the same time.
for target in "${targets[@]}"; do
  mkdir -p "$build_dir/corpus/$target" "$build_dir/artifacts/$target"
  echo "fuzz.sh: fuzzing $target for ${seconds} s"
  "$build_dir/tests/fuzz/${target}_fuzzer" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -entropic=0 \
    -seed="${OPENGE_FUZZ_SEED:-0}" \
    -artifact_prefix="$build_dir/artifacts/$target/" \
    "$build_dir/corpus/$target" "$build_dir/fuzz_seeds/$target" \
    "tests/data/fuzz_regressions/$target"
done
echo "fuzz.sh: no finding in ${seconds} s for each of: ${targets[*]}"
