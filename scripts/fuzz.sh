#!/usr/bin/env bash
# Builds the serialization fuzzer (clang++, libFuzzer, ASan + UBSan) in build-fuzz/ and runs it
# for a bounded time, starting from the seed corpus tests/fuzz/corpus/ and the regression inputs
# tests/data/fuzz_regressions/.
#   scripts/fuzz.sh [SECONDS]      run for SECONDS (default 60)
# Exits non-zero when the fuzzer finds a crash, a sanitizer error or a broken invariant; the
# input is saved as build-fuzz/artifacts/crash-* (add it to tests/data/fuzz_regressions/ with the
# fix). New interesting inputs go to build-fuzz/corpus/, never into the committed seeds.
# Regenerate the seeds with:
#   build-fuzz/make_fuzz_seeds tests/data/ge_fixture_handwritten.pbtxt tests/fuzz/corpus
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2
  exit 2
fi
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
# -O1 with line tables: what libFuzzer recommends, and quicker to build than -O2 -g.
cmake -S tests/fuzz -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG"
# The machines have two cores; more jobs only thrash.
cmake --build "$build_dir" -j2 --target model_load_fuzzer

mkdir -p "$build_dir/corpus" "$build_dir/artifacts"
echo "fuzz.sh: fuzzing the model loader for ${seconds} s"
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
  "$build_dir/model_load_fuzzer" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$build_dir/artifacts/" \
  "$build_dir/corpus" tests/fuzz/corpus tests/data/fuzz_regressions
echo "fuzz.sh: no crash in ${seconds} s"
