#!/usr/bin/python3
"""What a run costs from Python above the C++ API: InferenceSession.run against ge::LoadedModel::Run.

Both run the same tiny model (one Add of a [1, 16] input and a constant, so the model's own
time is a few microseconds and the difference is the binding's) on one thread. The C++ figure
is `gec run --iterations N`'s median (its timed loop is Model::Run on prepared inputs); the
Python figure is the median of `sess.run(None, feed)`, timed with perf_counter. They alternate
for --rounds rounds, and the smallest median of each is kept, so a busy moment of a shared
machine does not land on one side only. --model measures another model instead.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/call_overhead.py --gec build/bin/gec

Prints both medians, the overhead in microseconds and the ratio; with --max-overhead-us, exits 1
when the overhead is above it.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import openge


def tiny_model(path):
    c = numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16), "c")
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "c"], ["y"])], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])], [c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def random_feed(sess):
    rng = np.random.default_rng(0)
    feed = {}
    for arg in sess.get_inputs():
        shape = [d if isinstance(d, int) else 1 for d in arg.shape]
        feed[arg.name] = rng.standard_normal(shape).astype(arg.dtype)
    return feed


def cpp_median_us(gec, model, feed_dir, iterations):
    report = os.path.join(feed_dir, "report.json")
    inputs = [arg for name in os.listdir(feed_dir) if name.endswith(".npy")
              for arg in ("--input", f"{name[:-4]}={os.path.join(feed_dir, name)}")]
    subprocess.run([gec, "run", model, "--threads", "1", "--iterations", str(iterations),
                    "--warmup", "50", "--report", report, *inputs],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report, encoding="utf-8") as f:
        return json.load(f)["latency_ms"]["median"] * 1000


def python_median_us(sess, feed, iterations):
    for _ in range(50):
        sess.run(None, feed)
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        sess.run(None, feed)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gec", required=True, help="the gec of the same build")
    parser.add_argument("--model", help="an .onnx to measure instead of the tiny model")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-overhead-us", type=float)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        model = args.model or os.path.join(work, "tiny.onnx")
        if not args.model:
            tiny_model(model)
        options = openge.SessionOptions()
        options.intra_op_num_threads = 1
        sess = openge.InferenceSession(model, options)
        feed = random_feed(sess)
        if not args.model:  # what is timed computes the right thing
            (y,) = sess.run(None, feed)
            np.testing.assert_array_equal(y, feed["x"] + np.arange(16, dtype=np.float32))
        for name, value in feed.items():
            np.save(os.path.join(work, f"{name}.npy"), value)
        cpp, py = [], []
        for _ in range(args.rounds):
            cpp.append(cpp_median_us(args.gec, model, work, args.iterations))
            py.append(python_median_us(sess, feed, args.iterations))
    cpp_us, py_us = min(cpp), min(py)
    overhead = py_us - cpp_us
    print(f"model: {args.model or 'tiny (Add [1,16])'}")
    print(f"C++ Model::Run median:        {cpp_us:8.2f} us   (rounds: "
          + ", ".join(f"{v:.2f}" for v in cpp) + ")")
    print(f"Python InferenceSession.run:  {py_us:8.2f} us   (rounds: "
          + ", ".join(f"{v:.2f}" for v in py) + ")")
    print(f"overhead per run: {overhead:.2f} us (Python / C++ = {py_us / cpp_us:.2f}x)")
    if args.max_overhead_us is not None and overhead > args.max_overhead_us:
        print(f"over the target of {args.max_overhead_us:g} us", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
