#!/usr/bin/python3
"""Runs a model with OpenGE on random inputs and prints each output's shape and first values.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/run_model.py models/small_cnn.onnx

The session API is ONNX Runtime's: `import openge as ort` runs code written for onnxruntime.
A symbolic dim (a dynamic batch or sequence) is given --dim (default 1).
"""
import argparse

import numpy as np

import openge


def random_feed(sess, rng, dim):
    feed = {}
    for arg in sess.get_inputs():
        shape = [d if isinstance(d, int) else dim for d in arg.shape]
        if np.issubdtype(arg.dtype, np.integer):
            feed[arg.name] = rng.integers(0, 100, shape).astype(arg.dtype)
        else:
            feed[arg.name] = rng.standard_normal(shape).astype(arg.dtype)
    return feed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help=".onnx or .om")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dim", type=int, default=1, help="the size of every symbolic dim")
    args = parser.parse_args()

    sess = openge.InferenceSession(args.model)
    outputs = sess.run(None, random_feed(sess, np.random.default_rng(args.seed), args.dim))
    for arg, value in zip(sess.get_outputs(), outputs):
        first = " ".join(f"{v:.6g}" for v in value.ravel()[:5])
        print(f"{arg.name}: {value.dtype}{list(value.shape)} {first}")


if __name__ == "__main__":
    main()
