#!/bin/sh
# Installs this build into a temporary prefix, builds the consumer project (tests/install/consumer)
# against it with find_package(OpenGE), runs it on models/small_cnn.onnx, and runs the installed
# gec: the engine plugins and the operator library must be found in the prefix, with no
# LD_LIBRARY_PATH and no help from the build tree.
# Environment: CMAKE, OPENGE_BUILD, OPENGE_SOURCE_DIR, CXX, GENERATOR, MAKE_PROGRAM.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
log="$work/log"
unset LD_LIBRARY_PATH GE_OPS_PROTO_LIB_PATH

fail() { cat "$log"; echo "install test: $1"; exit 1; }

"$CMAKE" --install "$OPENGE_BUILD" --prefix "$prefix" > "$log" 2>&1 || fail "cmake --install failed"
for f in bin/gec include/ge/runtime/model.h lib/cmake/OpenGE/OpenGEConfig.cmake \
         lib/cmake/OpenGE/OpenGEConfigVersion.cmake lib/cmake/OpenGE/OpenGETargets.cmake \
         lib/openge/engines/engine_conf.json lib/openge/engines/libge_local_engine.so \
         lib/openge/engines/libhost_cpu_engine.so lib/openge/ops/libge_builtin_ops.so; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ls "$prefix"/lib/libopenge.so.* > /dev/null 2>&1 || fail "not installed: lib/libopenge.so.*"

# Nothing installed may point back into the build tree.
if command -v readelf > /dev/null; then
  for f in "$prefix"/bin/gec "$prefix"/lib/libopenge.so "$prefix"/lib/openge/*/*.so; do
    if readelf -d "$f" | grep -E 'R(UN)?PATH' | grep -qF "$OPENGE_BUILD"; then
      fail "$f has an RPATH into the build tree"
    fi
  done
fi

"$CMAKE" -S "$OPENGE_SOURCE_DIR/tests/install/consumer" -B "$work/consumer" -G "$GENERATOR" \
  -DCMAKE_MAKE_PROGRAM="$MAKE_PROGRAM" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >> "$log" 2>&1 || fail "the consumer does not configure"
"$CMAKE" --build "$work/consumer" -j2 >> "$log" 2>&1 || fail "the consumer does not build"
"$work/consumer/consumer" "$OPENGE_SOURCE_DIR/models/small_cnn.onnx" "$prefix" > "$work/run" 2>&1 || {
  cat "$work/run" >> "$log"; fail "the consumer failed"; }

"$prefix/bin/gec" engines > "$work/engines" 2>> "$log" || fail "installed gec engines failed"
cat "$work/run" "$work/engines" >> "$log"
for engine in DNN_VM_GE_LOCAL DNN_VM_HOST_CPU; do
  grep "^$engine" "$work/engines" | grep -qF "$prefix/lib/openge/engines/" ||
    fail "gec engines: $engine is not loaded from the prefix"
done
"$prefix/bin/gec" ops > "$work/ops" 2>> "$log" || fail "installed gec ops failed"
grep -E '^Conv2D\b.*DNN_VM_HOST_CPU' "$work/ops" > /dev/null || {
  head -20 "$work/ops" >> "$log"; fail "gec ops: Conv2D is not listed on DNN_VM_HOST_CPU"; }
cat "$work/run" "$work/engines"
echo "install test: ok"
