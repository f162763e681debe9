#!/usr/bin/python3
"""The compiler's cost model against the machine: its predictions per task, and its decisions.

For each model and thread count, `gec run --profile` runs the model as compiled (the cost model
on) and its trace carries each task's measured time beside the predicted one (args.predicted_us,
on the threads the task was given). Printed per model:
  tasks     tasks with a prediction;
  median    the median over tasks of |predicted - measured| / measured;
  weighted  the same summed over tasks, over the summed measured time (what the big tasks miss);
  model     the sum of the predictions / the sum of the measured times;
  1-thread  tasks the cost model gave fewer threads than the run has;
and, with --ab R, the cost model's thread decisions against every task taking the run's threads
(openge.costModel=0, the kernels' fixed work threshold alone): R alternating pairs of processes,
the lowest median latency of each side, as decided / fixed. The slowest op types against their
predictions close each model's lines, to show where the model is wrong.

  bench/models/cost_model.py [BUILD_DIR] --corpus DIR [--models a,b] [--threads 1,2]
      [--iterations N] [--ab R] [--profile-json FILE]

DIR is what bench/models/export_corpus.py wrote; each model's inputs are gec's random ones (the
corpus models' shapes are fixed). Not a test: nothing in CI runs it.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_MODELS = "resnet50,mobilenet_v2,efficientnet_b0,bert_base,gpt2,vit_b_16"


def fail(message):
    print(f"cost_model.py: {message}", file=sys.stderr)
    sys.exit(1)


def run_gec(gec, model, threads, iterations, extra):
    """Runs gec; returns its median latency in ms."""
    cmd = [gec, "run", model, "--threads", str(threads), "--iterations", str(iterations)] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    found = re.search(r"median ([0-9.]+) ms", proc.stdout + proc.stderr)
    if found is None:
        fail(f"{' '.join(cmd)}: no median latency in its output")
    return float(found.group(1))


def prediction_errors(trace_path):
    """(per-task rows, by type) from a trace: rows are (type, threads, predicted, measured)."""
    with open(trace_path) as f:
        events = json.load(f)["traceEvents"]
    rows = []
    for e in events:
        args = e.get("args", {})
        if "predicted_us" in args and e["dur"] > 0:
            rows.append((args.get("op_name", ""), args.get("threads", 1),
                         args["predicted_us"], e["dur"]))
    return rows


def summarize(rows, threads):
    errors = [abs(p - m) / m for _, _, p, m in rows]
    measured = sum(m for _, _, _, m in rows)
    predicted = sum(p for _, _, p, _ in rows)
    by_type = {}
    for op_type, _, p, m in rows:
        entry = by_type.setdefault(op_type, [0.0, 0.0, 0])
        entry[0] += p
        entry[1] += m
        entry[2] += 1
    return {
        "tasks": len(rows),
        "median": statistics.median(errors) if errors else float("nan"),
        "weighted": sum(abs(p - m) for _, _, p, m in rows) / measured if measured else 0.0,
        "model": predicted / measured if measured else float("nan"),
        "fewer_threads": sum(1 for _, t, _, _ in rows if t < threads),
        "by_type": by_type,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default=os.path.join(SOURCE_DIR, "build"))
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--models", default=DEFAULT_MODELS)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--ab", type=int, default=0, metavar="R")
    parser.add_argument("--profile-json", help="write every figure here as JSON")
    args = parser.parse_args()

    gec = os.path.join(args.build_dir, "bin", "gec")
    if not os.access(gec, os.X_OK):
        fail(f"{gec} is not built")
    results = []
    all_errors = []
    with tempfile.TemporaryDirectory(prefix="openge-cost-") as work:
        for name in args.models.split(","):
            model = os.path.join(args.corpus, name, "model.onnx")
            if not os.path.exists(model):
                fail(f"{model} is missing: run bench/models/export_corpus.py --out {args.corpus}")
            for threads in [int(t) for t in args.threads.split(",")]:
                trace = os.path.join(work, f"{name}_{threads}.json")
                run_gec(gec, model, threads, args.iterations, ["--profile", trace])
                rows = prediction_errors(trace)
                all_errors += [abs(p - m) / m for _, _, p, m in rows]
                s = summarize(rows, threads)
                line = (f"{name:16} t={threads}  tasks {s['tasks']:4}  median {s['median']:.2f}"
                        f"  weighted {s['weighted']:.2f}  model {s['model']:.2f}"
                        f"  fewer threads {s['fewer_threads']}")
                result = {"model": name, "threads": threads, **s}
                if args.ab > 0:
                    decided, fixed = [], []
                    for _ in range(args.ab):
                        decided.append(run_gec(gec, model, threads, args.iterations,
                                               ["--option", "openge.costModel=1"]))
                        fixed.append(run_gec(gec, model, threads, args.iterations,
                                             ["--option", "openge.costModel=0"]))
                    result["decided_ms"], result["fixed_ms"] = min(decided), min(fixed)
                    line += (f"  decided {min(decided):.2f} ms / fixed {min(fixed):.2f} ms"
                             f" = {min(decided) / min(fixed):.3f}")
                print(line)
                worst = sorted(s["by_type"].items(), key=lambda kv: -abs(kv[1][0] - kv[1][1]))
                print("    " + "  ".join(f"{t} {p / 1e3:.2f}/{m / 1e3:.2f} ms ({n})"
                                         for t, (p, m, n) in worst[:4]))
                results.append(result)
    if all_errors:
        print(f"median error over every task: {statistics.median(all_errors):.2f}"
              f" ({len(all_errors)} tasks)")
    if args.profile_json:
        with open(args.profile_json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
