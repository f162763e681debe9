#!/bin/sh
# The layering and format checks CI runs pass on this tree and fail, naming the cause, on a tree
# that breaks them: a runtime file including the compiler (directly and by a relative path), the
# runtime library linking the compiler, a public header including an internal (not installed)
# one, a badly formatted file, and Python with an unused import and an undefined name.
set -eu
src="$OPENGE_SOURCE_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 "$src/scripts/check_layering.py" --root "$src" >/dev/null

mkdir -p "$work/include/ge/compiler" "$work/src/runtime" "$work/src/compiler/folding" \
  "$work/src/include/ge/compiler"
echo '#pragma once' > "$work/include/ge/compiler/compiler.h"
echo '#pragma once' > "$work/src/include/ge/compiler/graph_pass.h"
printf '#pragma once\n#include "ge/compiler/graph_pass.h"\n' > "$work/include/ge/compiler/report.h"
echo '#pragma once' > "$work/src/compiler/folding/host_kernels.h"
printf '#include "ge/compiler/compiler.h"\n#include "../compiler/folding/host_kernels.h"\n' \
  > "$work/src/runtime/model.cc"
echo 'target_link_libraries(ge_runtime PUBLIC ge_compiler ge_graph)' > "$work/src/runtime/CMakeLists.txt"
if /usr/bin/python3 "$src/scripts/check_layering.py" --root "$work" > "$work/out" 2>&1; then
  cat "$work/out"; echo "check_layering passed a runtime that uses the compiler"; exit 1
fi
for want in "src/runtime/model.cc:1: the runtime layer includes ge/compiler/compiler.h (compiler)" \
            "src/runtime/model.cc:2: the runtime layer includes ../compiler/folding/host_kernels.h" \
            "src/runtime/CMakeLists.txt:1: ge_runtime (runtime) links ge_compiler (compiler)" \
            "include/ge/compiler/report.h:2: a public header includes ge/compiler/graph_pass.h, an internal header"; do
  grep -qF "$want" "$work/out" || { cat "$work/out"; echo "not reported: $want"; exit 1; }
done

printf 'int  main( ) {return 0;}\n' > "$work/bad.cc"
cp "$src/.clang-format" "$work/"
if "$src/scripts/check_format.sh" "$work/bad.cc" > "$work/fmt" 2>&1; then
  cat "$work/fmt"; echo "check_format passed a badly formatted file"; exit 1
fi
grep -qF "$work/bad.cc" "$work/fmt" || { cat "$work/fmt"; echo "bad.cc not named"; exit 1; }
"$src/scripts/check_format.sh" "$src/src/model/om_file.cc" >/dev/null

printf 'import os\n\n\ndef f():\n    return undefined_name\n' > "$work/bad.py"
if "$src/scripts/check_python.sh" "$work/bad.py" > "$work/py" 2>&1; then
  cat "$work/py"; echo "check_python passed an unused import and an undefined name"; exit 1
fi
for want in "bad.py:1:1: 'os' imported but unused" "bad.py:5:12: undefined name 'undefined_name'"; do
  grep -qF "$want" "$work/py" || { cat "$work/py"; echo "not reported: $want"; exit 1; }
done
"$src/scripts/check_python.sh" "$src/python/openge/session.py" >/dev/null
echo "layering, format and Python checks: ok"
