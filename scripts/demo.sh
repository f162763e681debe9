#!/usr/bin/env bash
# The demo: installs dependencies, builds OpenGE, and runs the example that builds a small
# graph, sorts it topologically and prints it. Arguments are passed to the example.
#   OPENGE_SKIP_SETUP=1   skip scripts/setup.sh
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ "${OPENGE_SKIP_SETUP:-0}" != 1 ]]; then
  printf '==== Setup: installing dependencies ====\n'
  scripts/setup.sh
fi

printf '==== Build (build/) ====\n'
scripts/build.sh

printf '==== Run build/examples/ge_example ====\n'
build/examples/ge_example "$@"
