#!/usr/bin/python3
"""Times models with `gec run` and, when installed, with ONNX Runtime, side by side.

By default the exported test models: resnet18, mobilenet_v2 (input 1x3x224x224) and the BERT-like
encoder (token ids 2x16) at opset 17. With --corpus DIR, the benchmark corpus at real sizes that
bench/models/export_corpus.py writes (ResNet-50, EfficientNet-B0, DenseNet-121, BERT-base, ViT-B/16,
GPT-2, ConvNeXt-T and more), with the geometric mean of the latency ratios per thread count. Both
runtimes get the same .onnx file, the same deterministic random inputs (.npy files written here),
the same warmup and iteration count; each run is its own process.

  bench/models/run_bench.py [BUILD_DIR] [--iterations N] [--warmup N] [--threads 1,2] [--repeat R]
  bench/models/run_bench.py [BUILD_DIR] --corpus DIR [--models a,b] ...

BUILD_DIR (default: build/ in the source tree) holds bin/gec and models/ (the build exports the
models with tests/models/export_models.py). ONNX Runtime is npm's onnxruntime-node, installed by
bench/ort/install.sh into bench/ort/node_modules and run through node (bench/ort/ort_run.js) with
intraOpNumThreads = threads, interOpNumThreads = 1 and graphOptimizationLevel 'all'. Without it,
only our numbers are printed.

Latency is the median of the timed runs as each runtime measures its own run call (gec: one
Model::Run; ORT: one `await session.run`, which adds node's asynchronous call; the one-Relu model's
median shows that fixed cost). With --repeat R, each runner runs R times, alternating, and the
lowest median counts (startup times: the soonest ready run's). Each model's files are read once
before its runs, so no runner pays for reading them from disk. Peak memory is the peak resident set size of the runner's process, read by
this script from outside (wait4's ru_maxrss); "net" subtracts the runtime's idle baseline: for gec,
gec running a one-Relu model; for ORT, node with onnxruntime-node loaded and no session. gec
compiles the .onnx inside the measured process, as ORT optimizes it in InferenceSession.create.

Not a test: nothing in CI runs it.
"""
import argparse
import array
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORT_DIR = os.path.join(SOURCE_DIR, "bench", "ort")
ORT_RUN = os.path.join(ORT_DIR, "ort_run.js")
OPSET = 17
IDLE_RUNS = 100  # timed runs of the one-Relu model that measures the fixed cost of a run call

# name -> (label, [(input, npy dtype, shape)], the model's symbolic dims fixed by those shapes)
MODELS = {
    "resnet18": ("resnet18", [("input", "<f4", (1, 3, 224, 224))], {}),
    "mobilenet_v2": ("mobilenet_v2", [("input", "<f4", (1, 3, 224, 224))], {}),
    "bert_encoder": ("BERT-like encoder (2×16)", [("input_ids", "<i8", (2, 16))],
                     {"batch": 2, "sequence": 16}),
}


def fail(message):
    print(f"run_bench.py: {message}", file=sys.stderr)
    sys.exit(1)


# ---- .npy files and a one-node ONNX model, with the standard library only ----

def write_npy(path, dtype, shape, values):
    dims = f"{shape[0]}," if len(shape) == 1 else ", ".join(map(str, shape))
    header = f"{{'descr': '{dtype}', 'fortran_order': False, 'shape': ({dims}), }}"
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        f.write(values.tobytes())


def npy_float_chunks(path, chunk=1 << 16):
    """The float32 values of a .npy file, a chunk at a time (None for another type). Chunks keep
    this process small: a runner started from it would inherit its peak RSS through exec."""
    f = open(path, "rb")
    head = f.read(12)
    if head[:6] != b"\x93NUMPY":
        f.close()
        return None
    start = (10 + int.from_bytes(head[8:10], "little") if head[6] == 1
             else 12 + int.from_bytes(head[8:12], "little"))
    f.seek(0)
    if "'<f4'" not in f.read(start).decode("latin1"):
        f.close()
        return None

    def chunks():
        with f:
            while True:
                data = f.read(chunk * 4)
                if len(data) < 4:
                    return
                values = array.array("f")
                values.frombytes(data[:len(data) // 4 * 4])
                yield values
    return chunks


def random_input(dtype, shape, seed, name=""):
    """Floats uniform in [-1, 1), integers in [0, 10) (valid token ids), as gec's own inputs; an
    attention mask is all ones (every token attended)."""
    rng = random.Random(seed)
    count = 1
    for d in shape:
        count *= d
    if "mask" in name:
        return array.array("q", [1] * count)
    if dtype == "<f4":
        return array.array("f", (rng.uniform(-1.0, 1.0) for _ in range(count)))
    return array.array("q", (rng.randrange(10) for _ in range(count)))


def _varint(n):
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _field(number, value):
    """One protobuf field: a varint for an int, length-delimited for str/bytes."""
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def idle_model_bytes():
    """ModelProto of y = Relu(x), x float[1]: what a runtime costs with (almost) no model."""
    def value_info(name):
        dim = _field(1, _field(1, 1))                 # TensorShapeProto.dim { dim_value: 1 }
        tensor_type = _field(1, 1) + _field(2, dim)   # elem_type FLOAT, shape
        return _field(1, name) + _field(2, _field(1, tensor_type))
    node = _field(1, "x") + _field(2, "y") + _field(3, "relu") + _field(4, "Relu")
    graph = (_field(1, node) + _field(2, "idle") + _field(11, value_info("x")) +
             _field(12, value_info("y")))
    return (_field(1, 8) + _field(2, "run_bench") + _field(7, graph) +   # ir_version 8
            _field(8, _field(1, "") + _field(2, OPSET)))                  # opset_import


# ---- running and measuring ----

def run_measured(cmd, log_path):
    """Runs cmd; returns (exit code, peak RSS in KiB, output), the peak taken by wait4."""
    with open(log_path, "w+") as log:
        try:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        except OSError as e:  # e.g. a build relinking gec right now
            return -1, 0, f"cannot start {cmd[0]}: {e}"
        _, status, usage = os.wait4(proc.pid, 0)
        log.seek(0)
        return os.waitstatus_to_exitcode(status), usage.ru_maxrss, log.read()


class Runner:
    """Builds one runtime's command line and runs it as a measured process."""

    def __init__(self, name, program, work, extra=()):
        self.name, self.program, self.work = name, program, work
        self.extra = list(extra)  # more arguments for this runner (gec: --disable-pass ...)

    def command(self, model, inputs, free_dims, iterations, warmup, threads, output_dir):
        if self.name == "gec":
            cmd = [self.program, "run", model] + self.extra
            if free_dims:  # fix the shapes at compile time; ORT takes them from the inputs
                cmd += ["--input-shape",
                        ";".join(f"{n}:{','.join(map(str, s))}" for n, s, _ in inputs)]
        else:
            cmd = [self.program, ORT_RUN, model]
            for dim, value in free_dims.items():
                cmd += ["--free-dim", f"{dim}={value}"]
        for name, _, path in inputs:  # (name, shape, .npy path)
            cmd += ["--input", f"{name}={path}"]
        return cmd + ["--iterations", str(iterations), "--warmup", str(warmup),
                      "--threads", str(threads), "--output-dir", output_dir]

    def measure(self, cmd, tag):
        """The runner's JSON report plus peak_kib, or None (with the log's tail) on failure."""
        report = os.path.join(self.work, f"{self.name}_{tag}.json")
        log = os.path.join(self.work, f"{self.name}_{tag}.log")
        if os.path.exists(report):
            os.remove(report)
        code, peak_kib, output = run_measured(cmd + ["--report", report], log)
        if code != 0 or not os.path.exists(report):
            tail = "\n    ".join(output.strip().splitlines()[-6:])
            print(f"  {self.name} failed (exit {code}): {' '.join(cmd)}\n    {tail}")
            return None
        with open(report) as f:
            result = json.load(f)
        result["peak_kib"] = peak_kib
        return result


def ready_ms(result):
    """The time from the file to a model ready to run: gec's report's, ORT's session create."""
    if "time_ms" in result:
        return result["time_ms"]["ready"]
    return result.get("session_create_ms", float("inf"))


def best(results):
    """The run with the lowest median latency, with the highest peak RSS seen over all runs and
    the startup times of the run that was ready soonest (each metric its best of the runs)."""
    results = [r for r in results if r is not None]
    if not results:
        return None
    chosen = dict(min(results, key=lambda r: r["latency_ms"]["median"]))
    chosen["peak_kib"] = max(r["peak_kib"] for r in results)
    soonest = min(results, key=ready_ms)
    for key in ("time_ms", "session_create_ms"):
        if key in soonest:
            chosen[key] = soonest[key]
    return chosen


def warm_file_cache(model_path):
    """Reads the model's folder (the .onnx and any external data) once, so that no runner's first
    run pays for reading the files from disk and startup times compare like with like."""
    folder = os.path.dirname(model_path)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                while f.read(8 << 20):
                    pass


def compare_outputs(ours_dir, ort_dir):
    """Largest |ours - ORT| over the largest |ORT| across the float outputs, or None."""
    worst = None
    for name in sorted(os.listdir(ort_dir)):
        theirs_path, mine_path = os.path.join(ort_dir, name), os.path.join(ours_dir, name)
        theirs = npy_float_chunks(theirs_path)
        if theirs is None or not os.path.exists(mine_path):
            continue
        mine = npy_float_chunks(mine_path)
        if mine is None or os.path.getsize(mine_path) != os.path.getsize(theirs_path):
            return float("inf")
        scale = max((max(abs(v) for v in c) for c in theirs() if c), default=0.0) or 1.0
        diff = 0.0
        for a, b in zip(mine(), npy_float_chunks(theirs_path)()):
            diff = max(diff, max(abs(x - y) for x, y in zip(a, b)))
        worst = diff / scale if worst is None else max(worst, diff / scale)
    return worst


class Bench:
    def __init__(self, args, gec, node, work):
        self.args, self.work = args, work
        self.gec = Runner("gec", gec, work, args.gec_arg)
        self.ort = Runner("ort", node, work) if node else None
        self.idle_kib = {}   # ("gec", threads) or "ort" -> peak RSS of the idle baseline
        self.floor_ms = {}   # runner -> median of a one-Relu run call

    def runners(self):
        return [self.gec] + ([self.ort] if self.ort else [])

    def measure_baselines(self, thread_counts):
        model = os.path.join(self.work, "idle.onnx")
        with open(model, "wb") as f:
            f.write(idle_model_bytes())
        x = os.path.join(self.work, "idle_x.npy")
        write_npy(x, "<f4", (1,), array.array("f", [0.5]))
        inputs = [("x", (1,), x)]
        out = os.path.join(self.work, "idle_out")
        for t in thread_counts:
            r = self.gec.measure(self.gec.command(model, inputs, {}, 1, 0, t, out), f"idle_t{t}")
            self.idle_kib[("gec", t)] = r["peak_kib"] if r else None
        if self.ort:
            r = self.ort.measure([self.ort.program, ORT_RUN, "--idle"], "idle")
            self.idle_kib["ort"] = r["peak_kib"] if r else None
        for runner in self.runners():
            cmd = runner.command(model, inputs, {}, IDLE_RUNS, self.args.warmup, 1, out)
            r = runner.measure(cmd, "floor")
            self.floor_ms[runner.name] = r["latency_ms"]["median"] if r else None

    def run_model(self, model_name, model_path, threads):
        """One table row: the best of --repeat alternating runs of each runner."""
        label, specs, free_dims = self.args.models_table[model_name]
        inputs = []
        for seed, (name, dtype, shape) in enumerate(specs):
            path = os.path.join(self.work, f"{model_name}_{name}.npy")
            write_npy(path, dtype, shape, random_input(dtype, shape, seed, name))
            inputs.append((name, shape, path))
        runs, out = {}, {}
        warm_file_cache(model_path)
        for rep in range(self.args.repeat):
            for runner in self.runners():
                out[runner.name] = os.path.join(self.work, f"{model_name}_t{threads}_{runner.name}")
                cmd = runner.command(model_path, inputs, free_dims, self.args.iterations,
                                     self.args.warmup, threads, out[runner.name])
                runs.setdefault(runner.name, []).append(
                    runner.measure(cmd, f"{model_name}_t{threads}_{rep}"))
        row = {"model": model_name, "label": label, "threads": threads,
               "gec": best(runs["gec"]), "ort": best(runs.get("ort", [])),
               "gec_idle_kib": self.idle_kib.get(("gec", threads)),
               "ort_idle_kib": self.idle_kib.get("ort")}
        if row["gec"] and row["ort"]:
            row["max_rel_diff"] = compare_outputs(out["gec"], out["ort"])
        return row


# ---- output ----

def ms(value):
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 100 else f"{value:.1f}"


def mib(kib):
    return f"{kib / 1024:.1f}" if kib is not None else "–"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "–"


def summary(row, with_ort):
    text = f"{row['label']}, {row['threads']} thread(s):"
    for name in ["gec", "ort"] if with_ort else ["gec"]:
        r = row[name]
        text += f" {name} " + (f"{ms(r['latency_ms']['median'])} ms, {mib(r['peak_kib'])} MiB;"
                               if r else "failed;")
    if row.get("max_rel_diff") is not None:
        text += f" outputs differ by {row['max_rel_diff']:.1e} of the largest"
    return text.rstrip(";")


def print_ready_table(rows, with_ort):
    """Time from the .onnx to a model ready to run: gec's parse + compile + load (its report's
    time_ms) against ORT's InferenceSession.create, both in the measured process."""
    print("\n| model | threads | ours, parse + compile + load = ready ms |" +
          (" ORT, session create ms | ready ours/ORT |" if with_ort else ""))
    print("|---|---|---|" + ("---|---|" if with_ort else ""))
    for row in rows:
        gec = (row["gec"] or {}).get("time_ms")
        ort = (row["ort"] or {}).get("session_create_ms") if with_ort else None
        ours = (f"{gec['parse']:.0f} + {gec['compile']:.0f} + {gec['load']:.0f} = "
                f"{gec['ready']:.0f}" if gec else "–")
        cells = [row["label"], str(row["threads"]), ours]
        if with_ort:
            cells += [f"{ort:.0f}" if ort is not None else "–",
                      ratio(gec["ready"] if gec else None, ort)]
        print("| " + " | ".join(cells) + " |")


def print_table(rows, bench, thread_counts):
    with_ort = bench.ort is not None
    if with_ort:
        print("| model | threads | ours, median ms | ORT, median ms | latency ours/ORT | "
              "ours, peak RSS MiB (net) | ORT, peak RSS MiB (net) | peak RSS ours/ORT (net) |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("| model | threads | ours, median ms | ours, peak RSS MiB (net) |")
        print("|---|---|---|---|")
    for row in rows:
        cells, median, peak, net = [row["label"], str(row["threads"])], {}, {}, {}
        for name in ["gec", "ort"] if with_ort else ["gec"]:
            r, idle = row[name], row[f"{name}_idle_kib"]
            median[name] = r["latency_ms"]["median"] if r else None
            peak[name] = r["peak_kib"] if r else None
            net[name] = r["peak_kib"] - idle if r and idle else None
        lat = [ms(median[n]) if median[n] is not None else "failed" for n in median]
        mem = [f"{mib(peak[n])} ({mib(net[n])})" if peak[n] else "failed" for n in peak]
        if with_ort:
            cells += lat + [ratio(median["gec"], median["ort"])] + mem
            cells.append(f"{ratio(peak['gec'], peak['ort'])} ({ratio(net['gec'], net['ort'])})")
        else:
            cells += lat + mem
        print("| " + " | ".join(cells) + " |")
    idle = ", ".join(f"gec {mib(bench.idle_kib.get(('gec', t)))} MiB at {t} thread(s)"
                     for t in thread_counts)
    if with_ort:
        idle += f"; ORT {mib(bench.idle_kib.get('ort'))} MiB"
    print(("\nRatios below 1 favour gec. " if with_ort else "\n") +
          f"Net = peak RSS minus the idle baseline ({idle}): gec running a one-Relu model" +
          ("; node with onnxruntime-node loaded and no session." if with_ort else "."))
    if with_ort:
        for t in thread_counts:
            ratios = [r["gec"]["latency_ms"]["median"] / r["ort"]["latency_ms"]["median"]
                      for r in rows if r["threads"] == t and r["gec"] and r["ort"]]
            if ratios:
                mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
                print(f"Geometric mean of latency ours/ORT at {t} thread(s) over {len(ratios)} "
                      f"models: {mean:.2f} (worst {max(ratios):.2f}, best {min(ratios):.2f})")
    print_ready_table(rows, with_ort)
    floors = [f"{ms(v * 1000)} µs ({k})" for k, v in bench.floor_ms.items() if v is not None]
    print(f"A run call of the one-Relu model takes {' and '.join(floors)} (median of "
          f"{IDLE_RUNS}): each runner's fixed cost per run.")


# ---- setup ----

def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default=os.path.join(SOURCE_DIR, "build"),
                        help="build tree with bin/gec and models/ (default: build/)")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per runner, alternating; the lowest median counts")
    parser.add_argument("--corpus", help="the benchmark corpus folder export_corpus.py wrote")
    parser.add_argument("--models", help="comma-separated model names (default: every model, "
                        "of " + ", ".join(MODELS) + ", or of the corpus)")
    parser.add_argument("--no-ort", action="store_true", help="time gec only")
    parser.add_argument("--gec-arg", action="append", default=[],
                        help="an extra argument for gec run, repeatable: --gec-arg=--disable-pass "
                             "--gec-arg=Fusion times the models without fusion")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--keep", action="store_true", help="keep the logs and reports")
    args = parser.parse_args()
    if args.iterations < 1 or args.warmup < 0 or args.repeat < 1:
        fail("--iterations and --repeat must be at least 1, --warmup at least 0")
    try:
        args.thread_counts = [int(t) for t in args.threads.split(",")]
    except ValueError:
        fail(f"--threads '{args.threads}': expected numbers like 1,2")
    if any(t < 1 for t in args.thread_counts):
        fail(f"--threads '{args.threads}': thread counts start at 1")
    args.models_table = corpus_models(args.corpus) if args.corpus else MODELS
    args.model_names = args.models.split(",") if args.models else list(args.models_table)
    for m in args.model_names:
        if m not in args.models_table:
            fail(f"--models: unknown model '{m}' (known: {', '.join(args.models_table)})")
    return args


def corpus_models(corpus):
    """name -> (label, inputs, free dims) for each <corpus>/<name>/ with model.onnx, inputs.json."""
    if not os.path.isdir(corpus):
        fail(f"--corpus {corpus} is not a folder (bench/models/export_corpus.py --out DIR makes it)")
    table = {}
    for name in sorted(os.listdir(corpus)):
        spec = os.path.join(corpus, name, "inputs.json")
        if not os.path.exists(os.path.join(corpus, name, "model.onnx")) or not os.path.exists(spec):
            continue
        with open(spec) as f:
            inputs = [(i["name"], i["dtype"], tuple(i["shape"])) for i in json.load(f)]
        table[name] = (name, inputs, {})
    if not table:
        fail(f"--corpus {corpus} holds no exported model (<name>/model.onnx and inputs.json)")
    return table


def check_build(build, model_names, corpus=None):
    """gec and the model paths, or a clear exit."""
    gec = os.path.join(build, "bin", "gec")
    if not os.path.isdir(build):
        fail(f"build directory {build} does not exist (pass the build tree, e.g. build-c)")
    if not os.path.exists(gec):
        fail(f"{gec} not found: build the project first (scripts/build.sh)")
    if not os.access(gec, os.X_OK):
        fail(f"{gec} is not executable (is a build linking it right now?)")
    if corpus:
        return gec, {m: os.path.join(corpus, m, "model.onnx") for m in model_names}
    paths = {m: os.path.join(build, "models", f"{m}_opset{OPSET}", "model.onnx")
             for m in model_names}
    missing = [p for p in paths.values() if not os.path.exists(p)]
    if missing:
        status_path = os.path.join(build, "models", "export_status.txt")
        status = "never ran"
        if os.path.exists(status_path):
            with open(status_path) as f:
                status = f.read().strip()
        fail(f"{missing[0]} missing; the model export says: {status} (the build runs "
             f"tests/models/export_models.py, which needs Debian's python3-torch)")
    return gec, paths


def find_ort(no_ort):
    """(node, version) when onnxruntime-node is installed and loads, else (None, why)."""
    node = shutil.which("node")
    if no_ort:
        return None, "skipped (--no-ort)"
    if not node:
        return None, "node not found"
    if not os.path.isdir(os.path.join(ORT_DIR, "node_modules", "onnxruntime-node")):
        return None, "not installed"
    probe = subprocess.run(
        [node, "-e", "console.log(require('onnxruntime-node').env.versions.node)"],
        cwd=ORT_DIR, capture_output=True, text=True)
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"onnxruntime-node does not load ({why})"
    return node, probe.stdout.strip()


def main():
    args = parse_args()
    gec, model_paths = check_build(os.path.abspath(args.build_dir), args.model_names,
                                   args.corpus)
    node, ort_version = find_ort(args.no_ort)
    load = []
    if os.path.exists("/proc/loadavg"):
        with open("/proc/loadavg") as f:
            load = f.read().split()[:3]
    print(f"gec: {gec}")
    if node:
        node_version = subprocess.run([node, "--version"], capture_output=True, text=True)
        print(f"ONNX Runtime: onnxruntime-node {ort_version} (node {node_version.stdout.strip()})")
    else:
        hint = "" if args.no_ort else ("; bench/ort/install.sh installs it "
                                       "(npm install --ignore-scripts onnxruntime-node)")
        print(f"ONNX Runtime: {ort_version}{hint}. Showing our numbers only.")
    print(f"{os.cpu_count()} CPUs, load average {' '.join(load)}; {args.iterations} timed runs "
          f"after {args.warmup} warmup, best median of {args.repeat}\n")

    work = tempfile.mkdtemp(prefix="ge_model_bench_")
    try:
        bench = Bench(args, gec, node, work)
        bench.measure_baselines(args.thread_counts)
        rows = []
        for m in args.model_names:
            for t in args.thread_counts:
                rows.append(bench.run_model(m, model_paths[m], t))
                print(summary(rows[-1], node is not None), flush=True)
        print()
        print_table(rows, bench, args.thread_counts)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"ort_version": ort_version if node else None, "load_average": load,
                           "iterations": args.iterations, "warmup": args.warmup,
                           "repeat": args.repeat, "run_call_ms": bench.floor_ms,
                           "rows": rows}, f, indent=2)
        if args.keep:
            print(f"\nlogs and reports: {work}")
        failed = any(r["gec"] is None or (node and r["ort"] is None) for r in rows)
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
