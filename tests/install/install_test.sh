#!/bin/sh
# Installs this build into a temporary prefix, builds the consumer project (tests/install/consumer)
# against it with find_package(OpenGE), runs it on models/small_cnn.onnx, and runs the installed
# gec: the engine plugins and the operator library must be found in the prefix, with no
# LD_LIBRARY_PATH and no help from the build tree. Then the compiler's library is deleted from the
# prefix, and a project linking the runtime alone (tests/install/runtime_consumer, which builds
# examples/run_om.cc) runs the .om the installed gec compiled, giving gec's outputs.
# With the Python module built, the installed package (OPENGE_PYTHON_INSTALL_DIR under the prefix)
# is imported from there and runs the model too.
# Environment: CMAKE, OPENGE_BUILD, OPENGE_SOURCE_DIR, CXX, GENERATOR, MAKE_PROGRAM,
# OPENGE_PYTHON_INSTALL_DIR (empty: no Python module).
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
log="$work/log"
unset LD_LIBRARY_PATH GE_OPS_PROTO_LIB_PATH PYTHONPATH

fail() { cat "$log"; echo "install test: $1"; exit 1; }

"$CMAKE" --install "$OPENGE_BUILD" --prefix "$prefix" > "$log" 2>&1 || fail "cmake --install failed"
for f in bin/gec include/ge/runtime/loaded_model.h lib/cmake/OpenGE/OpenGEConfig.cmake \
         lib/cmake/OpenGE/OpenGEConfigVersion.cmake lib/cmake/OpenGE/OpenGERuntimeTargets.cmake \
         lib/cmake/OpenGE/OpenGECompilerTargets.cmake \
         lib/openge/engines/engine_conf.json lib/openge/engines/libge_local_engine.so \
         lib/openge/engines/libhost_cpu_engine.so lib/openge/ops/libge_builtin_ops.so; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ls "$prefix"/lib/libopenge.so.* > /dev/null 2>&1 || fail "not installed: lib/libopenge.so.*"
ls "$prefix"/lib/libopenge_runtime.so.* > /dev/null 2>&1 ||
  fail "not installed: lib/libopenge_runtime.so.*"
for internal in compiler/graph_pass.h compiler/passes.h compiler/memory engine/engine_manager.h; do
  [ ! -e "$prefix/include/ge/$internal" ] || fail "an internal header is installed: $internal"
done

# Nothing installed may point back into the build tree.
if command -v readelf > /dev/null; then
  for f in "$prefix"/bin/gec "$prefix"/lib/libopenge*.so "$prefix"/lib/openge/*/*.so; do
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

# The Python module, from the prefix alone: the package is the installed one, and it finds
# libopenge.so, the engines and the operators there.
if [ -n "${OPENGE_PYTHON_INSTALL_DIR:-}" ]; then
  site="$prefix/$OPENGE_PYTHON_INSTALL_DIR"
  [ -f "$site/openge/__init__.py" ] || fail "not installed: $OPENGE_PYTHON_INSTALL_DIR/openge"
  PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c \
    'import openge, sys; print(openge.__file__); assert openge.__file__.startswith(sys.argv[1])' \
    "$site" >> "$log" 2>&1 || fail "the installed Python module is not the one imported"
  PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 \
    "$OPENGE_SOURCE_DIR/examples/python/run_model.py" "$OPENGE_SOURCE_DIR/models/small_cnn.onnx" \
    > "$work/python_run" 2>> "$log" || fail "the installed Python module cannot run a model"
  grep -q '^logits: float32\[1, 10\]' "$work/python_run" || {
    cat "$work/python_run" >> "$log"; fail "the installed Python module printed no logits"; }
  if command -v readelf > /dev/null; then
    for f in "$site"/openge/*.so; do
      if readelf -d "$f" | grep -E 'R(UN)?PATH' | grep -qF "$OPENGE_BUILD"; then
        fail "$f has an RPATH into the build tree"
      fi
    done
  fi
fi

# Running without the compiler: compile with the installed gec, delete libopenge.so, run the .om
# with a program that links libopenge_runtime.so only.
"$prefix/bin/gec" compile "$OPENGE_SOURCE_DIR/models/small_cnn.onnx" -o "$work/model.om" \
  >> "$log" 2>&1 || fail "installed gec compile failed"
name=$(/usr/bin/python3 "$OPENGE_SOURCE_DIR/tests/scripts/write_random_input.py" \
  "$OPENGE_SOURCE_DIR/models/small_cnn.onnx" "$work/input.npy" 3) || fail "cannot write the input"
mkdir "$work/gec_out" "$work/run_out"
"$prefix/bin/gec" run "$work/model.om" --iterations 1 --input "$name=$work/input.npy" \
  --output-dir "$work/gec_out" >> "$log" 2>&1 || fail "installed gec run failed"
rm -f "$prefix"/lib/libopenge.so*
"$CMAKE" -S "$OPENGE_SOURCE_DIR/tests/install/runtime_consumer" -B "$work/runtime_consumer" \
  -G "$GENERATOR" -DCMAKE_MAKE_PROGRAM="$MAKE_PROGRAM" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DRUN_OM_SOURCE="$OPENGE_SOURCE_DIR/examples/run_om.cc" >> "$log" 2>&1 ||
  fail "the runtime consumer does not configure without libopenge.so"
"$CMAKE" --build "$work/runtime_consumer" -j2 >> "$log" 2>&1 ||
  fail "the runtime consumer does not build without libopenge.so"
if command -v readelf > /dev/null; then
  readelf -d "$work/runtime_consumer/run_om" | grep NEEDED | grep -q 'libopenge\.so' &&
    fail "the runtime consumer needs libopenge.so"
fi
"$work/runtime_consumer/run_om" "$work/model.om" "$work/run_out" "$work/input.npy" \
  >> "$log" 2>&1 || fail "run_om failed without the compiler's library"
set -- "$work"/gec_out/*.npy
[ -f "$1" ] || fail "gec wrote no outputs"
for want in "$@"; do
  found=0
  for got in "$work"/run_out/*.npy; do
    if cmp -s "$want" "$got"; then found=1; fi
  done
  [ "$found" = 1 ] || fail "no output of run_om equals gec's $(basename "$want")"
done
echo "install test: ok (and a .om runs with the runtime library alone)"
