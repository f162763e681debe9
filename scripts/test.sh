#!/usr/bin/env bash
# The one test command: installs dependencies, builds, and runs every test, first in a plain
# build (build/) and then under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/).
#   OPENGE_SKIP_SETUP=1   skip scripts/setup.sh
#   OPENGE_SKIP_ASAN=1    skip the sanitizer build and its tests
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

header "Build: RelWithDebInfo (build/)"
scripts/build.sh

header "Test: plain build (ctest --test-dir build)"
ctest --test-dir build --output-on-failure --no-tests=error -j2

if [[ "${OPENGE_SKIP_ASAN:-0}" != 1 ]]; then
  header "Build: ASan + UBSan (build-asan/)"
  scripts/build.sh --sanitize

  header "Test: ASan + UBSan build (ctest --test-dir build-asan)"
  # intercept_tls_get_addr=0: LeakSanitizer's exit-time scan crashes on the dynamic TLS of the
  # CPU engine's OpenMP worker threads (tests/CMakeLists.txt sets it per test as well).
  ASAN_OPTIONS="${ASAN_OPTIONS:-intercept_tls_get_addr=0}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j2
fi

phase=""
printf '\n==== All tests passed ====\n'
