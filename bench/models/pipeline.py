#!/usr/bin/python3
"""Pipeline stages across processes against one process with the same cores.

For each model: `gec compile --pipeline-stages N` for each N, then `mpirun -n N gec run
--pipeline --threads 1 --batches K` (one core per rank), against `gec run --threads N` on the
whole model in one process (K runs one after another). Printed per model and N:
  inputs/s    the pipeline's throughput (K inputs from the first rank's start to the last
              rank's last output) and the single process's (1000 / median latency);
  ratio       pipeline / single process;
  peak        each rank's peak resident set against the single process's.
N = 1 is the single process at one thread (a pipeline of one stage is the whole model).

  bench/models/pipeline.py [BUILD_DIR] --corpus DIR [--models bert_base,gpt2] [--stages 2]
      [--batches 16] [--repeat 2]

Not a test: nothing in CI runs it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "core",
          "--mca", "btl_vader_single_copy_mechanism", "none"]


def fail(message):
    print(f"pipeline.py: {message}", file=sys.stderr)
    sys.exit(1)


def measured(cmd):
    """(exit code, output)"""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out, _ = proc.communicate()
    return proc.returncode, out


def single(gec, model, threads, batches, work):
    report = os.path.join(work, f"single_{threads}.json")
    code, out = measured([gec, "run", model, "--threads", str(threads), "--iterations",
                          str(batches), "--report", report])
    if code != 0:
        fail(f"gec run failed:\n{out}")
    with open(report) as f:
        r = json.load(f)
    return 1000.0 / r["latency_ms"]["median"], r["memory"]["peak_resident_kib"]


def pipelined(gec, om, stages, batches, work):
    report = os.path.join(work, f"pipeline_{stages}.json")
    code, out = measured(MPIRUN + ["-n", str(stages), gec, "run", om, "--pipeline", "--threads",
                                   "1", "--batches", str(batches), "--report", report])
    if code != 0:
        fail(f"mpirun failed:\n{out}")
    with open(report) as f:
        r = json.load(f)
    return r["inputs_per_second"], [rank["peak_resident_kib"] for rank in r["ranks"]], r


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default=os.path.join(SOURCE_DIR, "build"))
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--models", default="bert_base,gpt2")
    parser.add_argument("--stages", default="2")
    parser.add_argument("--batches", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    gec = os.path.join(args.build_dir, "bin", "gec")
    if not os.access(gec, os.X_OK):
        fail(f"{gec} is not built")
    with tempfile.TemporaryDirectory(prefix="openge-pipeline-bench-") as work:
        for name in args.models.split(","):
            model = os.path.join(args.corpus, name, "model.onnx")
            if not os.path.exists(model):
                fail(f"{model} is missing: run bench/models/export_corpus.py")
            one, one_peak = max(single(gec, model, 1, args.batches, work)
                                for _ in range(args.repeat))
            print(f"{name:10} N=1  one process, 1 thread: {one:.2f} inputs/s, "
                  f"peak {one_peak / 1024:.0f} MiB")
            for n in [int(s) for s in args.stages.split(",")]:
                om = os.path.join(work, f"{name}_{n}.om")
                code, out = measured([gec, "compile", model, "-o", om, "--pipeline-stages", str(n)])
                if code != 0:
                    fail(f"compile failed:\n{out}")
                stage_lines = [line for line in out.splitlines() if line.startswith("stage ")]
                base, base_peak = max(single(gec, model, n, args.batches, work)
                                      for _ in range(args.repeat))
                best = max((pipelined(gec, om, n, args.batches, work)
                            for _ in range(args.repeat)), key=lambda r: r[0])
                rate, peaks, report = best
                busy = ", ".join(f"{rank['busy_ms'] / args.batches:.1f}"
                                 for rank in report["ranks"])
                print(f"{name:10} N={n}  pipeline {rate:.2f} inputs/s, one process at {n} "
                      f"threads {base:.2f}: ratio {rate / base:.2f}; per rank ms/input {busy}; "
                      f"peaks {', '.join(f'{p / 1024:.0f}' for p in peaks)} MiB against "
                      f"{base_peak / 1024:.0f} MiB")
                for line in stage_lines:
                    print("    " + line)
                sys.stdout.flush()


if __name__ == "__main__":
    main()
