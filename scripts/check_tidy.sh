#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy: bugprone, modernize, else-after-return) on C++ sources and fails
# on any finding.
#   scripts/check_tidy.sh                  the .cc files under src/, tools/, python/, examples/ and tests/
#                                          changed by HEAD (all of them if HEAD has no parent)
#   scripts/check_tidy.sh --base REV       those changed between REV (its merge base) and HEAD
#   scripts/check_tidy.sh --build-dir DIR  with DIR's compile_commands.json (default build/)
#   scripts/check_tidy.sh FILE...          those files
# A changed header brings in the source of the same name beside it (include/ge/L/x.h: src/L/x.cc);
# headers are checked through the sources that include them (HeaderFilterRegex). A source the
# build does not compile (a fuzz target, built by clang elsewhere) is skipped with a note;
# generated .pb.cc files are never checked. Two clang-tidy processes run in parallel.
set -euo pipefail

usage() { sed -n '4,8s/^# \{0,1\}//p' "$0"; }

base=""
build_dir=build
files=()
while (($# > 0)); do
  case "$1" in
    --base)
      [[ $# -ge 2 ]] || { echo "check_tidy: --base needs a revision" >&2; exit 2; }
      base="$2"; shift ;;
    --build-dir)
      [[ $# -ge 2 ]] || { echo "check_tidy: --build-dir needs a directory" >&2; exit 2; }
      build_dir="$2"; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "check_tidy: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done

# Paths given on the command line are relative to the caller's directory; the rest to the root.
abs() { [[ "$1" = /* ]] && echo "$1" || echo "$PWD/$1"; }
build_dir=$(abs "$build_dir")
for i in "${!files[@]}"; do files[i]=$(abs "${files[i]}"); done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

command -v clang-tidy >/dev/null ||
  { echo "check_tidy: no clang-tidy; scripts/setup.sh installs it" >&2; exit 2; }
db="$build_dir/compile_commands.json"
[[ -f "$db" ]] || { echo "check_tidy: no $db; build first (scripts/build.sh)" >&2; exit 2; }

sources=(src tools python examples tests)
if ((${#files[@]} == 0)); then
  # The default base, HEAD~1, is missing at the root commit (then every source is checked) and
  # in a shallow clone (an error: checking every source would take some twenty minutes).
  if [[ "${base:-HEAD~1}" == HEAD~1 ]] && ! git rev-parse -q --verify 'HEAD~1^{commit}' >/dev/null
  then
    if [[ "$(git rev-parse --is-shallow-repository)" == true ]]; then
      echo "check_tidy: HEAD's parent is not in this shallow clone; fetch it" \
        "(git fetch --deepen=1) or pass --base REV" >&2
      exit 2
    fi
    mapfile -t changed < <(git ls-files -- "${sources[@]/%//*.cc}")
  else
    base="${base:-HEAD~1}"
    git rev-parse -q --verify "$base^{commit}" >/dev/null ||
      { echo "check_tidy: unknown revision $base" >&2; exit 2; }
    mapfile -t changed < <(git diff --name-only --diff-filter=d "$base...HEAD" -- \
      "${sources[@]/%//*.cc}" "${sources[@]/%//*.h}" 'include/ge/*.h')
  fi
  for f in "${changed[@]}"; do
    case "$f" in
      *.cc) files+=("$f") ;;
      *.h)
        f="${f/#include\/ge\//src/}"
        if [[ -f "${f%.h}.cc" ]]; then files+=("${f%.h}.cc"); fi
        ;;
    esac
  done
  for i in "${!files[@]}"; do files[i]="$root/${files[i]}"; done
fi

start=$(date +%s.%N)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out" "$work/pch"
touch "$work/seen"
# The database clang-tidy reads: the build's entry for each source it compiles (the others are
# noted), the first if there are two. Clang cannot read GCC's precompiled headers (CMake's
# cmake_pch.hxx.gch), and takes one that lies beside the header it includes: it includes a copy.
mapfile -t checked < <(/usr/bin/python3 - "$db" "$work" "${files[@]}" <<'EOF'
import json, os, shutil, sys
db, work, files = sys.argv[1], sys.argv[2], sys.argv[3:]
entries = {}
for e in json.load(open(db)):
    entries.setdefault(os.path.normpath(os.path.join(e["directory"], e["file"])), e)
pchs = {}
def header(arg):
    if not arg.endswith("/cmake_pch.hxx"):
        return arg
    if arg not in pchs:
        pchs[arg] = os.path.join(work, "pch", f"{len(pchs)}.hxx")
        shutil.copyfile(arg, pchs[arg])
    return pchs[arg]
kept = []
for f in dict.fromkeys(map(os.path.normpath, files)):
    if f.endswith(".pb.cc"):
        continue
    if f not in entries:
        print(f"check_tidy: skipped {os.path.relpath(f)}: not in {db}", file=sys.stderr)
        continue
    e = dict(entries[f])
    if "command" in e:
        e["command"] = " ".join(map(header, e["command"].split(" ")))
    else:
        e["arguments"] = list(map(header, e["arguments"]))
    kept.append(e)
    print(f)
json.dump(kept, open(os.path.join(work, "compile_commands.json"), "w"), indent=1)
EOF
)
# One job per file; a file's findings are printed whole, under a lock, as soon as it ends: each
# once (one in a header comes from every source that includes it), without clang-tidy's counts of
# the warnings it did not show (checks left out, system headers).
tidy_one() {
  local out="$work/out/${1//\//_}"
  # -Wno-unknown-warning-option: GCC's own warning flags (the CPU kernels' -Wno-maybe-uninitialized)
  # are errors to clang under -Werror.
  clang-tidy -p "$work" --quiet --warnings-as-errors='*' --extra-arg=-Wno-unknown-warning-option \
    "$1" > "$out" 2>&1 && return
  touch "$work/$(basename "$out").failed"
  {
    flock 9
    awk -v seen="$work/seen" '
      BEGIN { while ((getline line < seen) > 0) shown[line] = 1; close(seen) }
      /^[0-9]+ (warning|error)s?( and [0-9]+ errors?)? (generated|treated as errors)\.$/ { next }
      /^Error while processing / { skip = 0 }
      /:[0-9]+:[0-9]+: (error|warning): / {
        skip = ($0 in shown)
        if (!skip) { shown[$0] = 1; print >> seen }
      }
      !skip { print }' "$out"
  } 9> "$work/lock"
}
export -f tidy_one
export work
if ((${#checked[@]} > 0)); then
  printf '%s\0' "${checked[@]}" | xargs -0 -n 1 -P 2 bash -c 'tidy_one "$1"' tidy_one
fi

failed=$(find "$work" -maxdepth 1 -name '*.failed' | wc -l)
seconds=$(echo "$start $(date +%s.%N)" | awk '{printf "%.0f", $2 - $1}')
if ((failed > 0)); then
  findings=$(grep -cE '\[[a-z0-9.-]+(,[^]]*)?\]$' "$work/seen" || true)
  echo "check_tidy: ${findings} finding(s) in ${failed} of ${#checked[@]} file(s) checked" \
    "(${seconds} s); fix them, or see .clang-tidy" >&2
  exit 1
fi
echo "check_tidy: ${#checked[@]} file(s) checked, no findings (${seconds} s)"
