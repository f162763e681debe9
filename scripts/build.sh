#!/usr/bin/env bash
# Configures and builds OpenGE with CMake + Ninja.
#   scripts/build.sh                     Release build (-O3, as users and packagers build) in build/
#   scripts/build.sh --sanitize          ASan + UBSan with clang in build-asan/, the fuzzers too
#   scripts/build.sh --tsan              ThreadSanitizer in build-tsan/: the concurrency tests only
#   scripts/build.sh --build-dir DIR     build in DIR instead (relative to the current directory)
#   scripts/build.sh --test-set SET      all (default) or end-to-end tests (tests/CMakeLists.txt)
#   scripts/build.sh --tools-only        only the libraries, the plugins, gec and the Python
#                                        module: no tests, benchmarks or examples (scripts/demo.sh)
#   scripts/build.sh --target T          build target T (repeatable) instead of everything
#   scripts/build.sh --build-type TYPE   Release (the plain build's default), RelWithDebInfo
#                                        (-O2 -g1; the sanitizer builds', which add their own -O)
#                                        or Debug
# Warnings are errors here (OPENGE_WERROR=ON): this is the development and CI build. A plain
# cmake configure leaves them warnings, so that a newer compiler does not break a user's build.
set -euo pipefail

usage() { sed -n '2,15s/^# \{0,1\}//p' "$0"; }

sanitize=OFF
tsan=OFF
build_dir=""
test_set=all
tools_only=0
build_type=""
targets=()
while (($# > 0)); do
  case "$1" in
    --sanitize) sanitize=ON ;;
    --tsan) tsan=ON ;;
    --build-dir)
      [[ $# -ge 2 ]] || { echo "build.sh: --build-dir needs a directory" >&2; exit 2; }
      build_dir="$2"
      shift
      ;;
    --build-dir=*) build_dir="${1#*=}" ;;
    --test-set)
      [[ $# -ge 2 ]] || { echo "build.sh: --test-set needs all or end-to-end" >&2; exit 2; }
      test_set="$2"
      shift
      ;;
    --test-set=*) test_set="${1#*=}" ;;
    --tools-only) tools_only=1 ;;
    --build-type)
      [[ $# -ge 2 ]] ||
        { echo "build.sh: --build-type needs Release, RelWithDebInfo or Debug" >&2; exit 2; }
      build_type="$2"
      shift
      ;;
    --build-type=*) build_type="${1#*=}" ;;
    --target)
      [[ $# -ge 2 ]] || { echo "build.sh: --target needs a target name" >&2; exit 2; }
      targets+=(--target "$2")
      shift
      ;;
    -h | --help) usage; exit 0 ;;
    *) echo "build.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

case "$build_type" in
  "" | Release | RelWithDebInfo | Debug) ;;
  *) echo "build.sh: --build-type must be Release, RelWithDebInfo or Debug, not '$build_type'" >&2
     exit 2 ;;
esac
# The plain build is the Release build users and packagers make, so that its -O3 warnings (which
# -O2 does not show) fail here first; scripts/demo.sh and scripts/test.sh share its objects. The
# sanitizer builds add their own -O level after the build type's flags (CMakeLists.txt): they stay
# RelWithDebInfo.
if [[ -z "$build_type" ]]; then
  if [[ "$sanitize" == ON || "$tsan" == ON ]]; then build_type=RelWithDebInfo
  else build_type=Release; fi
fi

# A --build-dir is relative to the caller's directory; the defaults to the repository root.
if [[ -n "$build_dir" && "$build_dir" != /* ]]; then build_dir="$PWD/$build_dir"; fi
cd "$(dirname "$0")/.."
if [[ -z "$build_dir" ]]; then
  if [[ "$sanitize" == ON ]]; then build_dir=build-asan
  elif [[ "$tsan" == ON ]]; then build_dir=build-tsan
  else build_dir=build; fi
fi

# The sanitizer build is for tests and fuzzing: benchmarks are left out of it. It uses clang, whose
# libFuzzer needs the sources instrumented for coverage: one sanitized compile of the sources
# serves the tests and the fuzzers (scripts/fuzz.sh).
compiler=()
[[ "$sanitize" == ON ]] && compiler=(-DCMAKE_CXX_COMPILER=clang++ -DOPENGE_FUZZ=ON)
# Every option is passed each time, so a tree configured by one kind of build is reconfigured by
# the next.
tests=ON
bench=ON
examples=ON
[[ "$sanitize" == ON ]] && bench=OFF
[[ "$tsan" == ON ]] && bench=OFF examples=OFF
if ((tools_only)); then tests=OFF bench=OFF examples=OFF; fi
cmake -S . -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="$build_type" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DOPENGE_WERROR=ON \
  -DOPENGE_SANITIZE="$sanitize" \
  -DOPENGE_TSAN="$tsan" \
  -DOPENGE_BUILD_TESTS="$tests" \
  -DOPENGE_TEST_SET="$test_set" \
  -DOPENGE_BUILD_BENCH="$bench" \
  -DOPENGE_BUILD_EXAMPLES="$examples" "${compiler[@]}"
# The machines have two cores; more jobs only thrash.
cmake --build "$build_dir" -j2 "${targets[@]}"
