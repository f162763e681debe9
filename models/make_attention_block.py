#!/usr/bin/python3
"""Writes models/attention_block.onnx: one transformer encoder block's attention half, written
node by node with onnx.helper so that its graph is exactly the one the C++ example
(examples/graph_api/networks.h) builds with GE's graph API: projections to q, k and v, heads split
by Reshape and Transpose, scaled scores, Softmax, the weighted sum, heads merged, the output
projection, the residual add and LayerNormalization. Weights are fixed random numbers (seed 7).
Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SEQ, HIDDEN, HEADS = 16, 64, 4
HEAD = HIDDEN // HEADS


def build():
    rng = np.random.default_rng(7)

    def weight(name, *shape, scale=0.1):
        return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32),
                                       name)

    inits = [weight(n, HIDDEN, HIDDEN) for n in ("wq", "wk", "wv", "wo")]
    inits += [weight(n, HIDDEN) for n in ("bq", "bk", "bv", "bo")]
    inits += [numpy_helper.from_array(np.ones(HIDDEN, np.float32), "gamma"),
              numpy_helper.from_array(np.zeros(HIDDEN, np.float32), "beta"),
              numpy_helper.from_array(np.array([1, SEQ, HEADS, HEAD], np.int64), "split_shape"),
              numpy_helper.from_array(np.array([1, SEQ, HIDDEN], np.int64), "merge_shape"),
              numpy_helper.from_array(np.array(1.0 / np.sqrt(HEAD), np.float32), "scale")]
    nodes = []
    for p in ("q", "k", "v"):
        nodes += [
            helper.make_node("MatMul", ["x", "w" + p], [p + "_mm"], name=p + "_proj"),
            helper.make_node("Add", [p + "_mm", "b" + p], [p + "_b"], name=p + "_bias"),
            helper.make_node("Reshape", [p + "_b", "split_shape"], [p + "_heads"],
                             name=p + "_split"),
            helper.make_node("Transpose", [p + "_heads"], [p + "_t"], name=p + "_perm",
                             perm=[0, 2, 3, 1] if p == "k" else [0, 2, 1, 3]),
        ]
    nodes += [
        helper.make_node("MatMul", ["q_t", "k_t"], ["scores"], name="scores"),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="scaled"),
        helper.make_node("Softmax", ["scaled"], ["probs"], name="softmax", axis=-1),
        helper.make_node("MatMul", ["probs", "v_t"], ["context"], name="context"),
        helper.make_node("Transpose", ["context"], ["context_t"], name="merge_perm",
                         perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["context_t", "merge_shape"], ["merged"], name="merge"),
        helper.make_node("MatMul", ["merged", "wo"], ["o_mm"], name="o_proj"),
        helper.make_node("Add", ["o_mm", "bo"], ["o_b"], name="o_bias"),
        helper.make_node("Add", ["o_b", "x"], ["residual"], name="residual"),
        helper.make_node("LayerNormalization", ["residual", "gamma", "beta"], ["y"], name="norm",
                         axis=-1, epsilon=1e-5),
    ]
    graph = helper.make_graph(
        nodes, "attention_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, SEQ, HIDDEN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, SEQ, HIDDEN])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="make_attention_block.py")
    onnx.checker.check_model(model)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__),
                                                      "attention_block.onnx"))
    args = parser.parse_args()
    onnx.save(build(), args.out)
    print(args.out)


if __name__ == "__main__":
    main()
