#!/usr/bin/python3
"""Checks that scripts/setup.sh installs every Debian package a build used.

A machine that has been used for a while has packages nobody asked for, so a green build there
proves little. This script looks at what the build actually read and ran:

  - the files named in each build tree's CMakeCache.txt (libraries, headers, found package
    configs: every file in a *_DIR folder CMake's find_package read),
  - the headers each object was compiled from (`ninja -t deps`),
  - the shared libraries the built programs and plugins load (`ldd`),
  - the programs and Python modules the scripts and tests run (PROGRAMS and PYTHON_MODULES below),

maps each file to the Debian package that owns it (`dpkg -S`), and requires that package to be
named in setup.sh's PACKAGES list or reached from one through Depends or Pre-Depends. Recommends
do not count: setup.sh installs with --no-install-recommends. Packages of priority "required"
(what debootstrap's minbase variant installs) count as present.

Usage: scripts/check_deps.py [--setup FILE] BUILD_DIR [BUILD_DIR ...]
Prints one line per missing package, with a file that needed it; exits 1 if any is missing,
2 if it cannot tell (no dpkg, no build tree), 0 otherwise.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# Programs the scripts and tests run (found on PATH); each must come from a named package.
PROGRAMS = ["cmake", "ninja", "g++", "c++", "ctest", "dot", "rsvg-convert", "clang++",
            "clang-tidy", "protoc", "pkg-config", "mpirun"]
# Python modules the test-data scripts import under /usr/bin/python3.
PYTHON_MODULES = ["torch", "torchvision", "onnx", "numpy", "google.protobuf"]
SYSTEM_PYTHON = "/usr/bin/python3"


def fail(message):
    print(f"check_deps: {message}", file=sys.stderr)
    sys.exit(2)


def listed_packages(setup_path):
    """The package names in setup.sh's PACKAGES=( ... ) array (comments dropped)."""
    text = open(setup_path, encoding="utf-8").read()
    match = re.search(r"^PACKAGES=\((.*?)^\)", text, re.S | re.M)
    if not match:
        fail(f"{setup_path} has no PACKAGES=( ... ) list")
    names = set()
    for line in match.group(1).splitlines():
        names.update(w for w in line.split("#")[0].split() if re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", w))
    return names


def system_path(path):
    return path.startswith(("/usr/", "/lib", "/bin/", "/sbin/", "/etc/"))


# Binary tools CMake probes for and takes when present (llvm-ar beside clang, ld.lld, ...), else
# falling back to binutils, which build-essential brings: what a used machine happens to have,
# not what the build needs.
PROBED_TOOLS = re.compile(r"^CMAKE_(ADDR2LINE|AR|DLLTOOL|LINKER|NM|OBJCOPY|OBJDUMP|RANLIB|READELF|"
                          r"STRIP|MT|TAPI|(C|CXX)_COMPILER_(AR|RANLIB|CLANG_SCAN_DEPS))(:|$)")


def cache_files(build):
    """Files named in CMakeCache.txt, and the files of every folder a *_DIR entry names."""
    files = set()
    for line in open(os.path.join(build, "CMakeCache.txt"), errors="replace"):
        if line.startswith(("//", "#")) or "=" not in line:
            continue
        key, value = line.rstrip("\n").split("=", 1)
        if PROBED_TOOLS.match(key):
            continue
        for candidate in value.split(";"):
            if not system_path(candidate):
                continue
            if os.path.isfile(candidate):
                files.add(candidate)
            elif key.endswith("_DIR:PATH") and os.path.isdir(candidate):
                files.update(os.path.join(candidate, f) for f in os.listdir(candidate)
                             if f.endswith(".cmake"))
    return files


def header_files(build):
    try:
        out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True,
                             timeout=300, check=True).stdout
    except (OSError, subprocess.SubprocessError) as error:
        fail(f"ninja -t deps in {build} failed: {error}")
    return {line.strip() for line in out.splitlines()
            if line.startswith("    ") and system_path(line.strip())}


def elf_files(build):
    for root, dirs, names in os.walk(build):
        dirs[:] = [d for d in dirs if d != "CMakeFiles"]
        for name in names:
            path = os.path.join(root, name)
            if os.path.islink(path) or not (name.endswith(".so") or os.access(path, os.X_OK)):
                continue
            try:
                with open(path, "rb") as f:
                    if f.read(4) == b"\x7fELF":
                        yield path
            except OSError:
                pass


def linked_libraries(build):
    files = set()
    for path in elf_files(build):
        out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            match = re.search(r"=> (/\S+)", line) or re.match(r"\s*(/\S+)", line)
            if match and system_path(match.group(1)):
                files.add(match.group(1))
    return files


def program_files():
    files = set()
    for program in PROGRAMS:
        path = shutil.which(program)
        if path:
            files.add(path)
    # Only the modules the imports bring: what the interpreter loads at start (site hooks of
    # whatever happens to be installed) is not something the tests need.
    script = ("import sys, importlib\n"
              "before = set(sys.modules)\n"
              f"for m in {PYTHON_MODULES!r}:\n"
              "    try: importlib.import_module(m)\n"
              "    except Exception: pass\n"
              "for name, mod in list(sys.modules.items()):\n"
              "    f = name not in before and getattr(mod, '__file__', None)\n"
              "    if f: print(f)\n")
    if os.path.exists(SYSTEM_PYTHON):
        out = subprocess.run([SYSTEM_PYTHON, "-c", script], capture_output=True, text=True,
                             timeout=300).stdout
        files.add(SYSTEM_PYTHON)
        files.update(line for line in out.splitlines() if system_path(line))
    return files


def owners(paths):
    """Maps package -> one file it owns among paths. Tries each path as given, normalised and with
    symlinks resolved (Debian 12 merges /lib into /usr/lib, so dpkg may know either spelling)."""
    spellings = {}
    for path in paths:
        forms = {path, os.path.normpath(path), os.path.realpath(path)}
        for form in list(forms):
            if form.startswith("/usr/lib/") or form.startswith("/usr/bin/"):
                forms.add(form[4:])
            elif form.startswith(("/lib/", "/bin/")):
                forms.add("/usr" + form)
        for form in forms:
            spellings.setdefault(form, set()).add(path)
    found = {}
    unowned = set(paths)
    names = sorted(spellings)
    for start in range(0, len(names), 500):
        out = subprocess.run(["dpkg", "-S"] + names[start:start + 500], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            if line.startswith("diversion") or ": " not in line:
                continue
            packages, path = line.split(": ", 1)
            originals = spellings.get(path.strip(), set())
            unowned -= originals
            for package in packages.split(","):
                for original in originals:
                    found.setdefault(package.strip().split(":")[0], original)
    return found, unowned


def query(fields, *packages):
    out = subprocess.run(["dpkg-query", "-W", f"-f={fields}"] + list(packages),
                         capture_output=True, text=True).stdout
    return out


def installed_packages():
    """name -> (priority, essential, provides) for every installed package."""
    table = {}
    for line in query("${Package}\t${Priority}\t${Essential}\t${Provides}\t${db:Status-Abbrev}\n"
                      ).splitlines():
        parts = line.split("\t")
        if len(parts) < 5 or not parts[4].startswith("ii"):
            continue
        provides = {p.strip().split(" ")[0] for p in parts[3].split(",") if p.strip()}
        table[parts[0]] = (parts[1], parts[2] == "yes", provides)
    return table


def closure(roots, installed):
    """Everything reached from roots through Depends and Pre-Depends. In an alternative (a | b),
    the first installed alternative is taken, as apt takes the first one it can; a virtual name
    resolves to the installed packages that provide it."""
    providers = {}
    for name, (_, _, provides) in installed.items():
        for virtual in provides:
            providers.setdefault(virtual, set()).add(name)
    reached, todo = set(), list(roots)
    while todo:
        package = todo.pop()
        if package in reached:
            continue
        reached.add(package)
        if package not in installed:
            todo.extend(providers.get(package, ()))
            continue
        depends = query("${Depends}, ${Pre-Depends}", package)
        for group in depends.split(","):
            alternatives = [a.strip().split(" ")[0].split(":")[0] for a in group.split("|")]
            alternatives = [a for a in alternatives if a]
            chosen = next((a for a in alternatives if a in installed or a in providers), None)
            if chosen:
                todo.append(chosen)
    return reached


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", default=os.path.join(os.path.dirname(__file__), "setup.sh"))
    parser.add_argument("build_dirs", nargs="+")
    args = parser.parse_args()
    if not shutil.which("dpkg"):
        fail("dpkg not found: this check runs on Debian")

    files = program_files()
    for build in args.build_dirs:
        if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
            fail(f"{build} is not a configured build tree (no CMakeCache.txt)")
        files |= cache_files(build) | header_files(build) | linked_libraries(build)

    installed = installed_packages()
    found, unowned = owners(files)
    base = {name for name, (priority, essential, _) in installed.items()
            if essential or priority == "required"}
    reached = closure(listed_packages(args.setup), installed)
    missing = {p: f for p, f in found.items() if p not in reached and p not in base}
    for package, path in sorted(missing.items()):
        print(f"check_deps: package {package} is used but scripts/setup.sh does not install it "
              f"(needed for {path})")
    local = sorted(p for p in unowned if p.startswith("/usr/") and not p.startswith("/usr/local/"))
    for path in local[:20]:
        print(f"check_deps: {path} belongs to no Debian package (installed by hand?)")
    if missing or local:
        return 1
    print(f"check_deps: {len(files)} system files from {len(found)} packages, all installed by "
          f"scripts/setup.sh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
