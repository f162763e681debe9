#!/usr/bin/env bash
# The one test command: installs dependencies, builds, and runs the tests in a plain build
# (build/) and under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/). Every test runs
# under the sanitizers; the plain build runs the end-to-end ones (models against torch, fusion,
# layouts, streams, gec and the ONNX conformance suite, the install), which exercise the
# optimized kernels, so that the unit tests are not compiled twice (tests/CMakeLists.txt). The
# plain build is a Release build (-O3), the one users and packagers make: a warning only -O3
# reports fails here (scripts/build.sh makes warnings errors) rather than in their builds.
#   OPENGE_SKIP_SETUP=1   skip scripts/setup.sh
#   OPENGE_SKIP_ASAN=1    skip the sanitizer build and its tests
#   OPENGE_SKIP_TSAN=1    skip the ThreadSanitizer build (build-tsan/: the concurrency tests)
set -euo pipefail

cd "$(dirname "$0")/.."

phase=""
header() {
  phase="$1"
  printf '\n==== %s ====\n' "$phase"
}
trap 'echo "test.sh: FAILED during: ${phase:-start}" >&2' ERR

if [[ "${OPENGE_SKIP_SETUP:-0}" != 1 ]]; then
  header "Setup: installing dependencies (scripts/setup.sh)"
  scripts/setup.sh
fi

# Without the sanitizer build, the plain build runs every test.
plain_tests=end-to-end
[[ "${OPENGE_SKIP_ASAN:-0}" == 1 ]] && plain_tests=all
header "Build: Release (build/, ${plain_tests} tests)"
scripts/build.sh --build-type Release --test-set "$plain_tests"

header "Test: plain build (ctest --test-dir build)"
ctest --test-dir build --output-on-failure --no-tests=error -j2

if [[ "${OPENGE_SKIP_ASAN:-0}" != 1 ]]; then
  header "Build: ASan + UBSan (build-asan/)"
  scripts/build.sh --sanitize --test-set all

  header "Test: ASan + UBSan build (ctest --test-dir build-asan)"
  # intercept_tls_get_addr=0: LeakSanitizer's exit-time scan crashes on the dynamic TLS of the
  # CPU engine's OpenMP worker threads (tests/CMakeLists.txt sets it per test as well).
  ASAN_OPTIONS="${ASAN_OPTIONS:-intercept_tls_get_addr=0}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j2
fi

if [[ "${OPENGE_SKIP_TSAN:-0}" != 1 ]]; then
  header "Build: ThreadSanitizer (build-tsan/, the concurrency tests)"
  scripts/build.sh --tsan

  header "Test: ThreadSanitizer build (ctest --test-dir build-tsan)"
  ctest --test-dir build-tsan --output-on-failure --no-tests=error -j2
fi

phase=""
printf '\n==== All tests passed ====\n'
