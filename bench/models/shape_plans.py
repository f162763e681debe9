#!/usr/bin/python3
"""Models with dynamic batch and sequence axes: the shape plan cache against static compiles.

For each model and thread count, and each input shape:
  static   `gec run --input-shape S`: compiled for S, timed;
  cached   `gec run` with the same inputs and no --input-shape, in a process of its own: the
           shape plan cache compiles a plan for S on the first run, and the rest reuse it;
and one process that runs every shape in turn twice (A B C A B C), where the second round finds
its plans compiled. Printed per shape, as ratios against the static compile measured in the same
run:
  latency     cached median / static median (the cached process's runs after its first);
  specialise  the plan's compile and load / the static compile and load;
  first run   the cached first run (compile, load and the run) / static compile, load and one
              run (its median);
  peak        peak resident set size of the cached process / the static one's;
and for the interleaved process its hits and misses, the first runs of the shapes after the first
(plans made in a process that holds one already) against the static compile, load and median,
the second round's latencies against the static medians, and its peak (every plan kept) against
the largest static peak.

  bench/models/shape_plans.py [BUILD_DIR] --corpus DIR [--models bert_base_dynamic,gpt2_dynamic]
      [--shapes 1x128,1x32,2x64] [--threads 1,2] [--iterations N] [--repeat R]
      [--buckets SPEC [--stream SHAPES]]

With --buckets (openge.shapeBuckets, e.g. sequence:32) it measures a serving stream instead: the
shapes of --stream (default ten lengths from 17 to 128 tokens) in one process, each set run once
then timed, without buckets and with them. Printed: plans compiled, the sum of the sets' first
runs (what a stream of new lengths waits for compiles), the warm latency of each set with buckets
against without (geometric mean; padding makes runs longer), peak resident set size, and the
largest difference of the outputs (the real tokens' numbers must not move).

With --repeat R each static and cached process runs R times, alternating, and each figure is the
lowest of its R (the machines are shared: the lowest is the least disturbed).

DIR is what `bench/models/export_corpus.py --models bert_base_dynamic,gpt2_dynamic` wrote. Inputs
are deterministic token ids (and an all-ones attention mask), written here as .npy files.

Not a test: nothing in CI runs it.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(message):
    print(f"shape_plans.py: {message}", file=sys.stderr)
    sys.exit(1)


def write_int64_npy(path, shape, values):
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%s), }" % (
        "".join(f"{d}, " for d in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(values)}q", *values))


def inputs_for(case_dir, specs, shape, work):
    """--input arguments for `shape` (batch, sequence) of every input the model has."""
    args = []
    rng = random.Random(shape[0] * 1000 + shape[1])
    for spec in specs:
        name = spec["name"]
        path = os.path.join(work, f"{os.path.basename(case_dir)}_{name}_{shape[0]}x{shape[1]}.npy")
        count = shape[0] * shape[1]
        values = [1] * count if name == "attention_mask" else [rng.randrange(1000) for _ in range(count)]
        write_int64_npy(path, shape, values)
        args.append((name, path))
    return args


def gec_run(gec, model, input_args, threads, iterations, work, extra=()):
    report = os.path.join(work, "report.json")
    if os.path.exists(report):
        os.remove(report)
    command = [gec, "run", model, "--threads", str(threads), "--iterations", str(iterations),
               "--report", report, *extra]
    for name, path in input_args:
        command += ["--input", f"{name}={path}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(command)} failed: {done.stderr.strip()}")
    with open(report) as f:
        return json.load(f)


def read_npy_floats(path):
    """The float32 values of a .npy file that gec wrote (format 1.0, little-endian)."""
    with open(path, "rb") as f:
        data = f.read()
    header = struct.unpack("<H", data[8:10])[0]
    body = data[10 + header:]
    return struct.unpack(f"<{len(body) // 4}f", body)


def stream(gec, model, specs, shapes, buckets, threads, iterations, work):
    """The --buckets measurement of one model at one thread count (see the docstring)."""
    sets = [item for shape in shapes for item in inputs_for(model, specs, shape, work)]
    results = {}
    for label, extra in (("plain", []), ("buckets", ["--option", f"openge.shapeBuckets={buckets}"])):
        out = os.path.join(work, f"stream_{label}")
        os.makedirs(out, exist_ok=True)
        results[label] = (gec_run(gec, os.path.join(model, "model.onnx"), sets, threads,
                                  iterations, work, extra + ["--output-dir", out]), out)
    plain, plain_dir = results["plain"]
    padded, padded_dir = results["buckets"]
    worst = 0.0
    for name in sorted(os.listdir(plain_dir)):
        a = read_npy_floats(os.path.join(plain_dir, name))
        b = read_npy_floats(os.path.join(padded_dir, name))
        if len(a) != len(b):
            fail(f"{name}: {len(a)} values without buckets, {len(b)} with")
        scale = max(1e-30, max(abs(x) for x in a))
        worst = max(worst, max(abs(x - y) for x, y in zip(a, b)) / scale)
    ratios = [q["latency_ms"]["median"] / p["latency_ms"]["median"]
              for p, q in zip(plain["sets"], padded["sets"])]
    geomean = 1.0
    for r in ratios:
        geomean *= r ** (1.0 / len(ratios))
    first = [sum(s["first_run_ms"] for s in r["sets"]) for r in (plain, padded)]
    peak = [r["memory"]["peak_resident_kib"] / 1024 for r in (plain, padded)]
    print(f"  stream of {len(shapes)} shapes, {buckets}: plans {plain['shape_plans']['misses']} -> "
          f"{padded['shape_plans']['misses']}; first runs {first[0]:.0f} -> {first[1]:.0f} ms = "
          f"{first[1] / first[0]:.2f}x; warm latency {geomean:.2f}x (geomean); peak "
          f"{peak[0]:.0f} -> {peak[1]:.0f} MiB = {peak[1] / peak[0]:.2f}x; outputs differ by "
          f"{worst:.1e} (relative)", flush=True)


def shape_option(specs, shape):
    return ";".join(f"{s['name']}:{shape[0]},{shape[1]}" for s in specs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.path.join(SOURCE_DIR, "build"))
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--models", default="bert_base_dynamic,gpt2_dynamic")
    parser.add_argument("--shapes", default="1x128,1x32,2x64")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--buckets", default="")
    parser.add_argument("--stream", default="1x17,1x29,1x41,1x53,1x64,1x77,1x90,1x101,1x115,1x128")
    args = parser.parse_args()
    gec = os.path.join(args.build, "bin", "gec")
    if not os.path.exists(gec):
        fail(f"{gec} does not exist: build first (scripts/build.sh)")
    shapes = []
    for text in (args.stream if args.buckets else args.shapes).split(","):
        try:
            b, s = (int(v) for v in text.split("x"))
        except ValueError:
            fail(f"--shapes/--stream: '{text}' is not BATCHxSEQUENCE")
        shapes.append((b, s))
    work = tempfile.mkdtemp(prefix="openge_shape_plans_")
    for name in args.models.split(","):
        case = os.path.join(args.corpus, name)
        model = os.path.join(case, "model.onnx")
        if not os.path.exists(model):
            fail(f"{model} does not exist: run bench/models/export_corpus.py --models {name}")
        with open(os.path.join(case, "inputs.json")) as f:
            specs = json.load(f)
        per_shape = {shape: inputs_for(case, specs, shape, work) for shape in shapes}
        for threads in (int(t) for t in args.threads.split(",")):
            print(f"{name}, {threads} thread(s):")
            if args.buckets:
                stream(gec, case, specs, shapes, args.buckets, threads, args.iterations, work)
                continue
            static, ready = {}, {}
            for shape in shapes:
                label = f"{shape[0]}x{shape[1]}"
                fixed_runs, cached_runs = [], []
                for _ in range(max(1, args.repeat)):
                    fixed_runs.append(gec_run(gec, model, per_shape[shape], threads,
                                              args.iterations, work,
                                              ["--input-shape", shape_option(specs, shape)]))
                    cached_runs.append(gec_run(gec, model, per_shape[shape], threads,
                                               args.iterations, work))
                fixed = min(fixed_runs, key=lambda r: r["latency_ms"]["median"])
                cached = min(cached_runs, key=lambda r: r["sets"][0]["latency_ms"]["median"])
                static[shape] = fixed
                static_ready = min(r["time_ms"]["compile"] + r["time_ms"]["load"]
                                   for r in fixed_runs)
                ready[shape] = static_ready
                static_median = fixed["latency_ms"]["median"]
                run = dict(cached["sets"][0])
                run["first_run_ms"] = min(r["sets"][0]["first_run_ms"] for r in cached_runs)
                specialise = min(r["shape_plans"]["plans"][0]["compile_ms"] +
                                 r["shape_plans"]["plans"][0]["load_ms"] for r in cached_runs)
                peak = cached["memory"]["peak_resident_kib"] / fixed["memory"]["peak_resident_kib"]
                print(f"  {label:>6}: latency {run['latency_ms']['median']:8.2f} / "
                      f"{static_median:8.2f} ms = {run['latency_ms']['median'] / static_median:.2f}x"
                      f"  specialise {specialise:6.0f} / {static_ready:6.0f} ms = "
                      f"{specialise / static_ready:.2f}x  first run {run['first_run_ms']:6.0f} / "
                      f"{static_ready + static_median:6.0f} ms = "
                      f"{run['first_run_ms'] / (static_ready + static_median):.2f}x  peak "
                      f"{cached['memory']['peak_resident_kib'] / 1024:6.0f} / "
                      f"{fixed['memory']['peak_resident_kib'] / 1024:6.0f} MiB = {peak:.2f}x",
                      flush=True)
            rounds = [item for _ in range(2) for shape in shapes for item in per_shape[shape]]
            mixed = min((gec_run(gec, model, rounds, threads, args.iterations, work)
                         for _ in range(max(1, args.repeat))),
                        key=lambda r: sum(x["latency_ms"]["median"] for x in r["sets"]))
            plans = mixed["shape_plans"]
            second = mixed["sets"][len(shapes):]
            ratios = [s["latency_ms"]["median"] / static[shape]["latency_ms"]["median"]
                      for s, shape in zip(second, shapes)]
            # The first round's shapes after the first: plans made in a process that has one.
            later = [s["first_run_ms"] / (ready[shape] + static[shape]["latency_ms"]["median"])
                     for s, shape in zip(mixed["sets"][1:len(shapes)], shapes[1:])]
            biggest = max(s["memory"]["peak_resident_kib"] for s in static.values())
            print(f"  interleaved, {len(shapes)} shapes twice: {plans['misses']} compiled, "
                  f"{plans['hits']} reused; later shapes' first run vs static "
                  f"{', '.join(f'{r:.2f}x' for r in later)}; second round latency vs static "
                  f"{', '.join(f'{r:.2f}x' for r in ratios)}; peak "
                  f"{mixed['memory']['peak_resident_kib'] / 1024:.0f} MiB = "
                  f"{mixed['memory']['peak_resident_kib'] / biggest:.2f}x the largest static",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
