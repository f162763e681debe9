#!/bin/sh
# What a user's or a packager's own configure gets: warnings stay warnings (OPENGE_WERROR is off,
# so a compiler newer than CI's cannot fail their build), and with no CMAKE_BUILD_TYPE the build
# type is RelWithDebInfo. scripts/build.sh, the development and CI build, makes warnings errors:
# with a stand-in cmake on PATH it is seen to pass OPENGE_WERROR=ON, Release for the plain build
# and RelWithDebInfo for the sanitizer builds unless told another build type.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "configure defaults: $1"; exit 1; }

"$CMAKE" -S "$OPENGE_SOURCE_DIR" -B "$work/tree" -G Ninja -DOPENGE_BUILD_TESTS=OFF \
  -DOPENGE_BUILD_BENCH=OFF -DOPENGE_BUILD_EXAMPLES=OFF > "$work/log" 2>&1 ||
  { cat "$work/log"; fail "the configure failed"; }
grep -q '^OPENGE_WERROR:BOOL=OFF$' "$work/tree/CMakeCache.txt" ||
  { grep OPENGE_WERROR "$work/tree/CMakeCache.txt"; fail "OPENGE_WERROR is not off by default"; }
grep -q -- '-Werror' "$work/tree/build.ninja" && fail "the default build compiles with -Werror"
grep -q '^CMAKE_BUILD_TYPE:STRING=RelWithDebInfo$' "$work/tree/CMakeCache.txt" ||
  fail "the default build type is not RelWithDebInfo"
# The check above can see -Werror when it is there.
"$CMAKE" -DOPENGE_WERROR=ON "$work/tree" > "$work/log" 2>&1 ||
  { cat "$work/log"; fail "the configure with OPENGE_WERROR=ON failed"; }
grep -q -- '-Werror' "$work/tree/build.ninja" || fail "OPENGE_WERROR=ON does not add -Werror"

# scripts/build.sh with a cmake that records its arguments and builds nothing.
mkdir "$work/bin"
printf '#!/bin/sh\necho "$*" >> "%s"\n' "$work/cmake_calls" > "$work/bin/cmake"
chmod +x "$work/bin/cmake"
configure_args() {  # configure_args <build.sh arguments...>: the arguments of its configure call
  rm -f "$work/cmake_calls"
  PATH="$work/bin:$PATH" "$OPENGE_SOURCE_DIR/scripts/build.sh" --build-dir "$work/b" "$@" \
    > "$work/log" 2>&1 || { cat "$work/log"; fail "scripts/build.sh $* failed"; }
  grep -- '-S \. -B' "$work/cmake_calls" || fail "scripts/build.sh $* did not configure"
}
has() {  # has <arguments> <pattern> <what is wrong otherwise>
  case "$1" in *"$2"*) ;; *) fail "$3: $1" ;; esac
}
plain=$(configure_args)
has "$plain" "-DOPENGE_WERROR=ON" "build.sh does not turn OPENGE_WERROR on"
has "$plain" "-DCMAKE_BUILD_TYPE=Release " "the plain build is not Release"
asan=$(configure_args --sanitize)
has "$asan" "-DOPENGE_WERROR=ON" "build.sh --sanitize does not turn OPENGE_WERROR on"
has "$asan" "-DCMAKE_BUILD_TYPE=RelWithDebInfo " "the sanitizer build is not RelWithDebInfo"
release=$(configure_args --build-type Release)
has "$release" "-DCMAKE_BUILD_TYPE=Release " "build.sh --build-type Release does not configure it"
debug=$(configure_args --build-type=Debug)
has "$debug" "-DCMAKE_BUILD_TYPE=Debug " "build.sh --build-type=Debug does not configure Debug"
if PATH="$work/bin:$PATH" "$OPENGE_SOURCE_DIR/scripts/build.sh" --build-dir "$work/b" \
    --build-type Fast > "$work/log" 2>&1; then
  fail "build.sh accepted --build-type Fast"
fi
grep -q "build.sh: --build-type must be Release, RelWithDebInfo or Debug, not 'Fast'" "$work/log" ||
  { cat "$work/log"; fail "build.sh --build-type Fast: no message naming it"; }
echo "configure defaults and scripts/build.sh's flags: ok"
