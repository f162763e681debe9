#!/usr/bin/env python3
"""Checks that the shared libraries export the public API (include/ge) and nothing internal.

The public headers' declarations come from clang's AST (a generated file that includes every
header under include/ge): the functions, methods and static data in namespace ge that need a
symbol (not inline, constexpr, a template, deleted or defaulted in the header) and the classes
with virtual functions. Each must be exported (`nm -D -C --defined-only`) by
libopenge_runtime.so or libopenge.so (whichever exist in the build directory), and a
polymorphic class's vtable and typeinfo must be exported where the libraries define them. In
the other direction every exported `ge::` symbol must belong to a public declaration; one
declared in an internal header (src/include), in a private namespace (ge::passes,
ge::runtime_internal, ...: namespaces the public headers never open) or nowhere in include/ge
is an error. Exits 1 naming each.

    check_exports.py [--build-dir DIR] [--source-dir DIR] [--clang CLANG] [--nm NM]
"""
import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile

LIBRARIES = ("libopenge_runtime.so", "libopenge.so", "libopenge_pipeline.so")

# Exported symbols outside namespace ge that are not ours to hide: libstdc++ declares namespaces
# std and __gnu_cxx with default visibility, so the instances of its templates that our code
# makes (std::_Sp_counted_ptr_inplace<ge::Node, ...>, std::_Hashtable<...>) are exported whatever
# the compiler flags say. They are vague-linkage copies, the same in every library that makes
# them. Anything else outside namespace ge (protobuf's, ONNX's, nlohmann::json's) is an error.
ALLOWED_FOREIGN = ("std::", "__gnu_cxx::")

# Prefixes nm -C puts before the entity a symbol belongs to.
SPECIAL = re.compile(
    r"^(vtable for |VTT for |typeinfo for |typeinfo name for |construction vtable for |"
    r"non-virtual thunk to |virtual thunk to |covariant return thunk to |guard variable for |"
    r"TLS init function for |TLS wrapper function for |reference temporary #\d+ for )+")
STD_STRING = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
ABI_TAG = re.compile(r"\[abi:[^\]]*\]")

FUNCTION_KINDS = {"FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl",
                  "CXXConversionDecl"}
RECORD_KINDS = {"CXXRecordDecl"}
# Templates (and their instances) need no symbol of their own: their users instantiate them.
TEMPLATE_KINDS = {"ClassTemplateDecl", "FunctionTemplateDecl", "VarTemplateDecl",
                  "TypeAliasTemplateDecl", "ClassTemplatePartialSpecializationDecl",
                  "ClassTemplateSpecializationDecl"}


class Decl:
    """One declaration of a header: a function, a variable or a class."""

    def __init__(self, kind, qualname, path, offset, line):
        self.kind = kind  # "function", "variable" or "class"
        self.qualname = qualname
        self.path = path
        self.offset = offset  # where GE_API goes: the name of a class, the start of a declaration
        self.line = line
        self.mangled = None
        self.needs_symbol = False
        self.defines = False  # a function or variable defined here (inline, constexpr, a body)
        self.namespace_scope = False  # a function or variable outside any class
        self.annotated = False  # carries a default-visibility attribute
        self.polymorphic = False
        self.parent = None  # the enclosing class (a Decl) or None
        self.members = []  # for a class: its functions and static data (Decls)

    def where(self, root):
        return f"{os.path.relpath(self.path, root)}:{self.line}"


class Scan:
    """Walks clang's JSON AST dumps and records the declarations made in files under `roots`."""

    def __init__(self, roots):
        self.roots = [os.path.realpath(r) + os.sep for r in roots]
        self.decls = []
        self.namespaces = set()
        self.templates = set()  # qualified names of class and function templates
        self.incomplete = set()  # classes only forward-declared
        self._file = None
        self._lines = {}

    def in_roots(self, path):
        return path is not None and any(os.path.realpath(path).startswith(r) for r in self.roots)

    def _line_of(self, path, offset):
        if path not in self._lines:
            with open(path, "rb") as f:
                self._lines[path] = [i for i, c in enumerate(f.read()) if c == 0x0A]
        return bisect.bisect_left(self._lines[path], offset) + 1

    # The dumper names a location's file only when it differs from the location printed before,
    # so the walk visits every location in print order to know which file it is in.
    def _location(self, loc):
        if not isinstance(loc, dict):
            return None
        if "spellingLoc" in loc:
            self._location(loc["spellingLoc"])
            return self._location(loc["expansionLoc"])
        if "file" in loc:
            self._file = loc["file"]
        return loc.get("offset")

    def _scan_value(self, value):
        if isinstance(value, dict):
            if "offset" in value or "spellingLoc" in value:
                self._location(value)
            else:
                for v in value.values():
                    self._scan_value(v)
        elif isinstance(value, list):
            for v in value:
                self._scan_value(v)

    def dump(self, node, scope):
        """Visits one top-level dump of `-ast-dump-filter=ge::`: a declaration in `scope`."""
        self._file = None
        self._node(node, scope, None, False)

    def _node(self, node, scope, record, skip):
        """Records `node` (in namespace or class `scope`, inside class Decl `record`) and its
        children; `skip`: inside a template, an anonymous namespace or extern "C"."""
        kind = node.get("kind", "")
        offset = begin = None
        for key, value in node.items():  # "inner" comes last
            if key == "loc":
                offset = self._location(value)
            elif key == "range":
                begin = self._location(value.get("begin"))
                self._location(value.get("end"))
            elif key != "inner":
                self._scan_value(value)
        path, name, inner = self._file, node.get("name"), node.get("inner", [])
        mine = self.in_roots(path) and not skip and not node.get("isImplicit")

        if kind == "NamespaceDecl":
            child_scope = scope + [name or "(anonymous namespace)"]
            if mine and name:
                self.namespaces.add("::".join(child_scope))
            self._children(inner, child_scope, None, skip or not name)
        elif kind in TEMPLATE_KINDS:
            if name and mine:
                self.templates.add("::".join(scope + [name]))
            self._children(inner, scope, record, True)
        elif kind == "LinkageSpecDecl":
            self._children(inner, scope, record, skip or node.get("language") == "C")
        elif kind == "CXXRecordDecl" and name and not node.get("completeDefinition"):
            if mine:
                self.incomplete.add("::".join(scope + [name]))
        elif kind == "CXXRecordDecl" and name:
            decl = None
            if mine:
                decl = self._add("class", scope, name, path, offset, offset, record, inner)
                decl.polymorphic = bool(node.get("definitionData", {}).get("isPolymorphic"))
            self._children(inner, scope + [name], decl, skip)
        elif kind in FUNCTION_KINDS and mine and "mangledName" in node:
            decl = self._add("function", scope, name, path, begin, offset, record, inner)
            decl.mangled = node["mangledName"]
            decl.namespace_scope = record is None and kind == "FunctionDecl"
            internal_linkage = decl.namespace_scope and node.get("storageClass") == "static"
            decl.defines = bool(node.get("inline") or node.get("constexpr") or
                                node.get("explicitlyDefaulted") or
                                any(c.get("kind") == "CompoundStmt" for c in inner))
            decl.needs_symbol = not (decl.defines or internal_linkage or node.get("pure") or
                                     node.get("explicitlyDeleted"))
        elif kind == "VarDecl" and mine and "mangledName" in node:
            decl = self._add("variable", scope, name, path, begin, offset, record, inner)
            decl.mangled = node["mangledName"]
            decl.namespace_scope = record is None
            decl.defines = bool(node.get("inline") or node.get("constexpr") or "init" in node)
            # A static data member, or a namespace-scope variable declared extern.
            wanted = "static" if record is not None else "extern"
            decl.needs_symbol = node.get("storageClass") == wanted and not decl.defines
        elif kind != "FriendDecl":  # a friend is declared, and checked, where it lives
            self._children(inner, scope, record, skip)

    def _add(self, kind, scope, name, path, offset, name_offset, record, inner):
        decl = Decl(kind, "::".join(scope + [name]), path, offset,
                    self._line_of(path, name_offset))
        decl.parent = record
        decl.annotated = any(isinstance(c, dict) and c.get("kind") == "VisibilityAttr"
                             for c in inner)
        self.decls.append(decl)
        if record is not None and kind != "class":
            record.members.append(decl)
        return decl

    def _children(self, inner, scope, record, skip):
        for child in inner:
            if isinstance(child, dict) and "kind" in child:
                self._node(child, scope, record, skip)
            else:
                self._scan_value(child)

    def finish(self):
        """Merges redeclarations: a function or variable needs a symbol when no declaration
        defines it, and is counted once, at its first declaration."""
        defined = {d.mangled for d in self.decls if d.mangled and d.defines}
        first = {}
        for d in self.decls:
            if not d.mangled:
                continue
            if d.mangled in defined:
                d.needs_symbol = False
            if d.mangled in first:
                first[d.mangled].annotated |= d.annotated
                d.needs_symbol = False
            else:
                first[d.mangled] = d
        for d in self.decls:
            if d.kind == "class":
                d.needs_symbol = d.polymorphic or any(first[m.mangled].needs_symbol
                                                      for m in d.members)


def scan_headers(headers, include_dirs, roots, clang):
    """Runs clang over a file including `headers` and returns the Scan of their declarations."""
    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, "all_headers.cc")
        with open(tu, "w") as f:
            f.writelines(f'#include "{h}"\n' for h in headers)
        cmd = [clang, "-std=c++20", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-Xclang",
               "-ast-dump-filter=ge::"]
        cmd += [f"-I{d}" for d in include_dirs] + [tu]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"check_exports: {' '.join(cmd)} failed:\n{proc.stderr}")
    scan = Scan(roots)
    decoder = json.JSONDecoder()
    text, pos = proc.stdout, 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        node, pos = decoder.raw_decode(text, pos)
        # The filter dumps each declaration whose qualified name contains "ge::" without its
        # parents: a namespace-scope declaration of namespace ge, or a namespace nested in it.
        scan.dump(node, ["ge"])
    scan.finish()
    return scan


def headers_under(directory):
    found = []
    for dirpath, _, files in os.walk(directory):
        found += [os.path.join(dirpath, f) for f in files if f.endswith(".h")]
    return sorted(os.path.relpath(f, os.path.dirname(directory)) for f in found)


def public_scan(source_dir, clang):
    include = os.path.join(source_dir, "include")
    return scan_headers(headers_under(os.path.join(include, "ge")), [include],
                        [os.path.join(include, "ge")], clang)


def demangle(names):
    if not names:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    return dict(zip(names, out))


def nm_symbols(nm, library, dynamic):
    cmd = [nm, "-C", "--defined-only"] + (["-D"] if dynamic else []) + [library]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        if not dynamic and "no symbols" in proc.stderr:
            return set()
        sys.exit(f"check_exports: {' '.join(cmd)} failed:\n{proc.stderr}")
    symbols = set()
    for line in proc.stdout.splitlines():
        parts = line.split(maxsplit=2)
        if len(parts) == 3:
            symbols.add(re.sub(r"@@?[A-Za-z_][\w.]*$", "", parts[2]))
    return symbols


def split_name(symbol):
    """The components of the entity a demangled symbol names: "ge::Foo<int>::Bar(int) const"
    gives ["ge", "Foo", "Bar"]; a local static names its function ("ge::F()::x" gives
    ["ge", "F"])."""
    s = ABI_TAG.sub("", SPECIAL.sub("", symbol))
    depth, i, end = 0, 0, len(s)
    while i < len(s):
        if s.startswith("operator", i) and depth == 0:
            i += len("operator")
            if s.startswith("()", i):
                i += 2
            while i < len(s) and s[i] in "<>=!+-*/%^&|~[],":
                i += 1
            continue
        c = s[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            end = i
            break
        i += 1
    name = s[:end]
    # A template function's demangled name starts with its return type.
    depth, start = 0, 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == " " and depth == 0 and not name[:i].endswith("operator"):
            start = i + 1
    name = name[start:]
    parts, depth, last = [], 0, 0
    i = 0
    while i < len(name):
        c = name[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0 and name.startswith("::", i):
            parts.append(name[last:i])
            last = i + 2
            i += 1
        i += 1
    parts.append(name[last:])
    return [re.sub(r"<.*$", "", p) if not p.startswith("operator") else p for p in parts]


def private_namespaces(source_dir):
    """The names of the namespaces src/ opens (host_cpu, passes, runtime_internal, ...)."""
    names = set()
    pattern = re.compile(r"^\s*namespace\s+([\w:]+)\s*\{", re.M)
    for dirpath, _, files in os.walk(os.path.join(source_dir, "src")):
        for f in files:
            if f.endswith((".h", ".cc")):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    for m in pattern.finditer(fh.read()):
                        names.update(m.group(1).split("::"))
    names.discard("ge")
    return names


def unexported(public, names, exported, defined, root):
    """Public declarations the libraries do not export."""
    problems = []
    for d in public.decls:
        if d.kind != "class" and d.needs_symbol:
            symbol = names[d.mangled]
            if symbol not in exported:
                state = "defined but hidden" if symbol in defined else "defined in neither library"
                problems.append(f"{d.where(root)}: {symbol} is not exported ({state})")
        elif d.kind == "class" and d.polymorphic:
            for what in ("vtable for ", "typeinfo for "):
                symbol = what + d.qualname
                if symbol in defined and symbol not in exported:
                    problems.append(f"{d.where(root)}: {symbol} is not exported (class "
                                    f"{d.qualname} has virtual functions)")
    return problems


def leaked(public, names, internal, private, exported, root):
    """Exported symbols that are not the public API, and how many foreign ones were allowed."""
    # Everything the public headers declare with a symbol or a scope of its own.
    public_names = {d.qualname for d in public.decls} | public.templates | public.namespaces
    public_symbols = set(names.values())
    internal_names = {}
    for d in internal.decls:
        internal_names.setdefault(d.qualname, d.where(root))
    problems, allowed = [], {}
    for symbol in sorted(exported):
        if symbol.startswith("typeinfo") and "(" in symbol:
            # The typeinfo of a function type, "ge::Status (ge::InferContext&)" (std::function
            # makes them): vague linkage, like a template instance, and no entity of ours.
            allowed["function types' typeinfo"] = allowed.get("function types' typeinfo", 0) + 1
            continue
        parts = split_name(symbol)
        if parts[0] != "ge":
            prefix = next((p for p in ALLOWED_FOREIGN
                           if SPECIAL.sub("", symbol).startswith(p) or parts[0] + "::" == p), None)
            if prefix:
                allowed[prefix] = allowed.get(prefix, 0) + 1
            else:
                problems.append(f"{symbol} is exported but is neither ge:: nor allowed")
            continue
        if symbol in public_symbols:
            continue
        # The longest enclosing name a header declares decides.
        owner = None
        for n in range(len(parts), 1, -1):
            prefix = "::".join(parts[:n])
            if prefix in public_names or prefix in public.incomplete or prefix in internal_names:
                owner = prefix
                break
        if owner in public_names and owner not in public.namespaces:
            continue  # a member of a public class or a local of a public function
        if owner in internal_names:
            problems.append(f"{symbol} is exported but is declared in the internal header "
                            f"{internal_names[owner]}")
        elif owner in public.incomplete:
            problems.append(f"{symbol} is exported but belongs to {owner}, which the public "
                            "headers only declare (an implementation detail)")
        else:
            namespace = None
            for n in range(2, len(parts)):
                prefix = "::".join(parts[:n])
                if prefix not in public.namespaces:
                    namespace = prefix if parts[n - 1] in private else None
                    break
            if namespace:
                problems.append(f"{symbol} is exported but is in the private namespace {namespace}")
            else:
                problems.append(f"{symbol} is exported but is not declared in include/ge")
    return problems, allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--source-dir", default=here)
    parser.add_argument("--build-dir", default=os.path.join(here, "build"))
    parser.add_argument("--clang", default="clang++")
    parser.add_argument("--nm", default="nm")
    args = parser.parse_args()
    root = os.path.abspath(args.source_dir)

    libraries = [os.path.join(args.build_dir, n) for n in LIBRARIES
                 if os.path.exists(os.path.join(args.build_dir, n))]
    if not libraries:
        sys.exit(f"check_exports: neither of {', '.join(LIBRARIES)} is in {args.build_dir}")
    exported, defined = set(), set()
    for lib in libraries:
        exported |= nm_symbols(args.nm, lib, dynamic=True)
        defined |= nm_symbols(args.nm, lib, dynamic=False)

    public = public_scan(root, args.clang)
    internal_include = os.path.join(root, "src", "include")
    internal = scan_headers(headers_under(os.path.join(internal_include, "ge")),
                            [os.path.join(root, "include"), internal_include],
                            [os.path.join(internal_include, "ge")], args.clang)
    names = demangle([d.mangled for d in public.decls if d.needs_symbol and d.mangled])

    problems = unexported(public, names, exported, defined, root)
    leaks, allowed = leaked(public, names, internal, private_namespaces(root), exported, root)
    problems += leaks
    libs = " and ".join(os.path.basename(lib) for lib in libraries)
    if problems:
        for p in problems:
            print(p.replace(STD_STRING, "std::string"))
        print(f"check_exports: {len(problems)} problem(s) in what {libs} export", file=sys.stderr)
        return 1
    functions = sum(1 for d in public.decls if d.kind != "class" and d.needs_symbol)
    classes = sum(1 for d in public.decls if d.kind == "class" and d.needs_symbol)
    ge_symbols = sum(1 for s in exported if split_name(s)[0] == "ge")
    print(f"check_exports: {libs} export the {functions} functions and static data and the "
          f"{classes} classes that include/ge declares with a symbol, and no other ge:: symbol "
          f"({ge_symbols} exported; allowed outside ge: "
          + ", ".join(f"{n} {p}" for p, n in sorted(allowed.items())) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
