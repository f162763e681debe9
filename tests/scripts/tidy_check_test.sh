#!/bin/sh
# The clang-tidy check CI runs (scripts/check_tidy.sh with .clang-tidy) fails, naming file, line
# and check, on a source with an else after return, a use after move and an integer division in
# floating point; it passes the same source written cleanly, skips a file the build does not
# compile, and checks nothing when no source changed.
set -eu
src="$OPENGE_SOURCE_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/.clang-tidy" "$work/"
mkdir "$work/build"
printf '[{"directory": "%s", "file": "%s/bad.cc", "command": "c++ -std=c++20 -c bad.cc"},\n' \
  "$work" "$work" > "$work/build/compile_commands.json"
printf ' {"directory": "%s", "file": "%s/clean.cc", "command": "c++ -std=c++20 -c clean.cc"}]\n' \
  "$work" "$work" >> "$work/build/compile_commands.json"

cat > "$work/bad.cc" << 'EOF'
#include <string>
#include <utility>

int Sign(int x) {
  if (x < 0) {
    return -1;
  } else {
    return x > 0 ? 1 : 0;
  }
}

std::size_t Moved(std::string name) {
  std::string taken = std::move(name);
  return taken.size() + name.size();
}

double Half(int x) { return 1.0 + x / 2; }
EOF
cat > "$work/clean.cc" << 'EOF'
#include <string>
#include <utility>

int Sign(int x) {
  if (x < 0) {
    return -1;
  }
  return x > 0 ? 1 : 0;
}

std::size_t Moved(std::string name) {
  std::string taken = std::move(name);
  return taken.size();
}

double Half(int x) { return 1.0 + x / 2.0; }
EOF

check() { "$src/scripts/check_tidy.sh" --build-dir "$work/build" "$@" > "$work/out" 2>&1; }
if check "$work/bad.cc"; then
  cat "$work/out"; echo "check_tidy passed a source with findings"; exit 1
fi
for want in "bad.cc:7:5: error: do not use 'else' after 'return' [readability-else-after-return" \
            "bad.cc:14:25: error: 'name' used after it was moved [bugprone-use-after-move" \
            "bad.cc:17:35: error: result of integer division used in a floating point context" \
            "check_tidy: 3 finding(s) in 1 of 1 file(s) checked"; do
  grep -qF "$want" "$work/out" || { cat "$work/out"; echo "not reported: $want"; exit 1; }
done

if ! check "$work/clean.cc" "$work/unbuilt.cc"; then
  cat "$work/out"; echo "check_tidy failed clean.cc"; exit 1
fi
for want in "check_tidy: skipped " "unbuilt.cc: not in $work/build/compile_commands.json" \
            "check_tidy: 1 file(s) checked, no findings"; do
  grep -qF "$want" "$work/out" || { cat "$work/out"; echo "not reported: $want"; exit 1; }
done

if git -C "$src" rev-parse --verify -q HEAD > /dev/null; then
  check --base HEAD || { cat "$work/out"; echo "check_tidy --base HEAD failed"; exit 1; }
  grep -qF "check_tidy: 0 file(s) checked" "$work/out" || { cat "$work/out"; exit 1; }
fi
echo "tidy check: ok"
