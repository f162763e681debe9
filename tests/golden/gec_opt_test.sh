#!/bin/sh
# gec opt beyond the golden cases: each error is exit status 1 and one line on stderr naming the
# cause, and the build steps run together in pass-list order.
#   GEC=path/to/gec GOLDEN_DIR=tests/golden sh gec_opt_test.sh CASE
set -u
graph="$GOLDEN_DIR/passes/DeadCodeElimination_RemovesUnreadBranch.pbtxt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "gec_opt_test $1: $2" >&2
  cat "$tmp/err" >&2
  exit 1
}

# expect_error MESSAGE ARGS...: `gec opt ARGS` fails with one line, "gec: error: ...", holding
# MESSAGE.
expect_error() {
  want=$1
  shift
  "$GEC" opt "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ "$status" -eq 1 ] || fail "$case" "exit status $status, expected 1"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$case" "stderr is not one line"
  grep -q "^gec: error: " "$tmp/err" || fail "$case" "stderr does not start with gec: error:"
  grep -qF -- "$want" "$tmp/err" || fail "$case" "stderr lacks: $want"
}

case=$1
case "$case" in
  UnknownPassIsAnErrorListingThePasses)
    expect_error "unknown pass 'NoSuchPass'; passes: ApplyInputShapes, VerifyNodes, LoadFileConstants, InferShape, " \
      "$graph" --passes InferShape,NoSuchPass
    grep -qF "StreamAssignment, TaskGeneration" "$tmp/err" || fail "$case" "the list is not whole"
    ;;
  BuildStepWithoutTheStepItReadsIsRefused)
    expect_error "pass 'StreamAssignment' cannot run alone: it reads what MemoryAssignment keeps" \
      "$graph" --passes InferShape,PlaceNodes,CalcOpRunningParam,StreamAssignment
    ;;
  FailingPassIsNamed)
    expect_error "pass CalcOpRunningParam: node 'x' (type Data) has no kernel library" \
      "$graph" --passes InferShape,CalcOpRunningParam
    ;;
  DumpAfterMustBeOneOfThePasses)
    expect_error "--dump-after 'Fusion' is not among the --passes" \
      "$graph" --passes InferShape --dump-after Fusion
    ;;
  BuildStepsRunTogetherInPassListOrder)
    steps=CalcOpRunningParam,MemoryAssignment,StreamAssignment,TaskGeneration
    "$GEC" opt "$graph" --passes "InferShape,PlaceNodes,$steps" -o "$tmp/built.pbtxt" 2>"$tmp/err" ||
      fail "$case" "the build steps failed"
    # MemoryAssignment wrote offsets, and the graph reads back into gec opt.
    grep -q "output_i:" "$tmp/built.pbtxt" || fail "$case" "no output offsets in the graph"
    "$GEC" opt "$tmp/built.pbtxt" --passes VerifyNodes -o "$tmp/again.pbtxt" 2>"$tmp/err" ||
      fail "$case" "the written graph does not read back"
    ;;
  *)
    echo "gec_opt_test: unknown case '$case'" >&2
    exit 2
    ;;
esac
