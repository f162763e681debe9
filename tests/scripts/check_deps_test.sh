#!/bin/sh
# scripts/check_deps.py fails, naming the package and a file that needed it, when setup.sh's list
# leaves out a package the build used (here oneDNN's), and passes the same tree otherwise.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^  libdnnl-dev' "$OPENGE_SOURCE_DIR/scripts/setup.sh" > "$work/setup.sh"
if /usr/bin/python3 "$OPENGE_SOURCE_DIR/scripts/check_deps.py" --setup "$work/setup.sh" \
    "$OPENGE_BUILD" > "$work/out" 2>&1; then
  cat "$work/out"; echo "check_deps.py passed without libdnnl-dev in the list"; exit 1
fi
grep -q "package libdnnl-dev is used but scripts/setup.sh does not install it (needed for /usr/" \
  "$work/out" || { cat "$work/out"; echo "libdnnl-dev not named"; exit 1; }
echo "check_deps.py names the missing package: ok"
