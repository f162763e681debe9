#!/usr/bin/env python3
"""Checks that every include and every library link follows the layer graph of docs/DESIGN.md.

Each source file belongs to a layer by its path; each `#include "ge/<dir>/..."` (or a relative
include into another layer's folder) and each `target_link_libraries` of a layer library must
name the layer itself or one it may use, and a public header (include/) may not include an
internal one (src/include, which is not installed). Exits 1 listing every violation as
file:line: what it uses, and which layers that layer may use.

    check_layering.py [--root DIR]
"""
import argparse
import os
import re
import sys

# Who may use whom: the table of docs/DESIGN.md, "The layers".
ALLOWED = {
    "graph": set(),
    "ops": {"graph"},
    "model": {"graph"},
    "engine API": {"graph", "ops", "model"},
    "parser": {"graph", "ops"},
    "compiler": {"graph", "ops", "model", "engine API"},
    "engines": {"graph", "ops", "model", "engine API"},
    "runtime": {"graph", "ops", "model", "engine API"},
    "api": {"graph", "ops"},
    "session": {"graph", "ops", "model", "engine API", "parser", "api", "compiler", "runtime"},
    "pipeline": {"graph", "ops", "model", "engine API", "runtime"},
}

# Folders (relative to the root) and the layer their files belong to; the longest prefix wins.
FOLDERS = {
    "include/ge/graph": "graph",
    "src/graph": "graph",
    "include/ge/ops": "ops",
    "src/ops": "ops",
    "include/ge/model": "model",
    "src/model": "model",
    "include/ge/engine": "engine API",
    "src/include/ge/engine": "engine API",
    "src/engines": "engine API",
    "src/engines/local": "engines",
    "src/engines/cpu": "engines",
    "include/ge/parser": "parser",
    "src/parser": "parser",
    "include/ge/compiler": "compiler",
    "src/include/ge/compiler": "compiler",
    "src/compiler": "compiler",
    "include/ge/runtime": "runtime",
    "src/runtime": "runtime",
    "include/ge/api": "api",
    "src/api": "api",
    "include/ge/session": "session",
    "src/session": "session",
    "include/ge/pipeline": "pipeline",
    "src/pipeline": "pipeline",
}

# The layer libraries (CMake targets) of each layer.
LIBRARIES = {
    "ge_graph": "graph", "ge_serialize": "graph", "ge_ops": "ops", "ge_model": "model",
    "ge_engine": "engine API", "ge_onnx_parser": "parser", "ge_memory": "compiler",
    "ge_compiler": "compiler", "ge_runtime": "runtime", "ge_cpu_kernels": "engines",
    "ge_local_engine": "engines", "host_cpu_engine": "engines", "ge_api": "api", "ge_session": "session",
    "ge_pipeline": "pipeline",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LINK = re.compile(r"target_link_libraries\(\s*(\S+)([^)]*)\)", re.S)


def layer_of(rel_path):
    best = None
    for folder, layer in FOLDERS.items():
        if rel_path == folder or rel_path.startswith(folder + "/"):
            if best is None or len(folder) > len(best[0]):
                best = (folder, layer)
    return best[1] if best else None


def check_includes(root, problems):
    for top in ("include/ge", "src"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                layer = layer_of(rel)
                if layer is None:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if target.startswith("ge/"):
                            internal = not os.path.exists(os.path.join(root, "include", target)) \
                                and os.path.exists(os.path.join(root, "src/include", target))
                            if internal and rel.startswith("include/"):
                                problems.append(
                                    f"{rel}:{number}: a public header includes {target}, an "
                                    f"internal header (src/include) that is not installed")
                            used = layer_of(("src/include/" if internal else "include/") + target)
                        else:
                            resolved = os.path.normpath(os.path.join(os.path.dirname(rel), target))
                            used = layer_of(resolved) if os.path.exists(
                                os.path.join(root, resolved)) else None
                        if used is None or used == layer or used in ALLOWED[layer]:
                            continue
                        problems.append(
                            f"{rel}:{number}: the {layer} layer includes {target} ({used}); "
                            f"{layer} may use {', '.join(sorted(ALLOWED[layer])) or 'nothing'}")


def check_links(root, problems):
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for name in files:
            if name != "CMakeLists.txt" and not name.endswith(".cmake"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in LINK.finditer(text):
                target = m.group(1)
                layer = LIBRARIES.get(target)
                if layer is None:
                    continue
                line = text.count("\n", 0, m.start()) + 1
                for dep in m.group(2).split():
                    used = LIBRARIES.get(dep)
                    if used is None or used == layer or used in ALLOWED[layer]:
                        continue
                    problems.append(
                        f"{rel}:{line}: {target} ({layer}) links {dep} ({used}); "
                        f"{layer} may use {', '.join(sorted(ALLOWED[layer])) or 'nothing'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    problems = []
    check_includes(root, problems)
    check_links(root, problems)
    if problems:
        print("\n".join(problems))
        print(f"check_layering: {len(problems)} use(s) against the layers of docs/DESIGN.md",
              file=sys.stderr)
        return 1
    print("check_layering: every include and link follows the layers of docs/DESIGN.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
