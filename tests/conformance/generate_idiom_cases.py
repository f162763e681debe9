#!/usr/bin/python3
"""Writes ONNX test cases for what exporters write and the node suite of Debian's onnx does not
cover: ONNX backend-test folders (model.onnx, test_data_set_0/input_*.pb and output_*.pb) that
`gec onnx-test` runs like the node suite.

    /usr/bin/python3 tests/conformance/generate_idiom_cases.py --out build/onnx_idioms

Expected outputs are computed here with NumPy, from the operators' definitions. Cases:
  - an output made by an Identity named as TensorFlow names tensors ("out:0");
  - Softmax / LogSoftmax / Hardmax before opset 13 on an input whose shape the model does not
    state (Paddle2ONNX): flattened at `axis`, and on the last axis;
  - an If whose branch not taken cannot be shape-inferred at the graph's shapes (Silero VAD);
  - Upsample at opset 9 (scales as an input);
  - a convolution stored and computed in float16;
  - operator versions newer than Debian's onnx knows (opsets 18 to 28): the reductions with axes
    as an input, Split's num_outputs, Pad's axes.
Writes OUT/generate_status.txt: "ok" or the error.
"""
import argparse
import os
import sys
import traceback

import numpy as np


def softmax_rows(x, axis, log=False, hard=False):
    """ONNX's Softmax before opset 13: x seen as 2-D [prod(dims[:axis]), prod(dims[axis:])]."""
    rows = x.reshape(int(np.prod(x.shape[:axis], dtype=np.int64)), -1).astype(np.float64)
    if hard:
        y = np.zeros_like(rows)
        y[np.arange(rows.shape[0]), rows.argmax(axis=1)] = 1
    else:
        e = np.exp(rows - rows.max(axis=1, keepdims=True))
        y = e / e.sum(axis=1, keepdims=True)
        if log:
            y = np.log(y)
    return y.reshape(x.shape).astype(x.dtype)


def conv2d(x, w, b):
    """NCHW convolution, stride 1, no padding, in float64."""
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    y = np.zeros((n, m, h - kh + 1, wd - kw + 1))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + h - kh + 1, j:j + wd - kw + 1].astype(np.float64)
            y += np.einsum("nchw,mc->nmhw", patch, w[:, :, i, j].astype(np.float64))
    return y + b.astype(np.float64)[None, :, None, None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = os.path.join(args.out, "generate_status.txt")
    if os.path.exists(status):
        os.remove(status)
    try:
        count = write_cases(args.out)
        print(f"wrote {count} ONNX test cases in {args.out}")
    except Exception as e:  # reported through the status file: the tests that need it fail
        traceback.print_exc()
        with open(status, "w") as f:
            f.write(f"generation failed: {type(e).__name__}: {e}\n")
        return 1
    with open(status, "w") as f:
        f.write("ok\n")
    return 0


def write_cases(out):
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(7)
    count = 0

    def value(name, elem, dims):
        """A graph input/output; dims None: no shape at all (as Paddle2ONNX writes them)."""
        if dims is None:
            return helper.make_tensor_value_info(name, elem, None)
        return helper.make_tensor_value_info(name, elem, dims)

    def case(name, nodes, inputs, outputs, feeds, expected, opset, initializers=()):
        nonlocal count
        graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                  producer_name="openge-idioms")
        model.ir_version = 8
        folder = os.path.join(out, name)
        data = os.path.join(folder, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(folder, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for kind, arrays, infos in (("input", feeds, inputs), ("output", expected, outputs)):
            for i, (array, info) in enumerate(zip(arrays, infos)):
                tensor = numpy_helper.from_array(array, info.name)
                with open(os.path.join(data, f"{kind}_{i}.pb"), "wb") as f:
                    f.write(tensor.SerializeToString())
        count += 1

    f32 = TensorProto.FLOAT
    x = rng.standard_normal((2, 3)).astype(np.float32)
    case("test_idiom_identity_output",
         [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Identity", ["r"], ["out:0"])],
         [value("x", f32, [2, 3])], [value("out:0", f32, [2, 3])], [x], [np.maximum(x, 0)], 13)

    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for op, kw in (("Softmax", {}), ("LogSoftmax", {"log": True}), ("Hardmax", {"hard": True})):
        for axis in (1, 2):
            case(f"test_idiom_{op.lower()}_opset11_unknown_rank_axis{axis}",
                 [helper.make_node(op, ["x"], ["y"], axis=axis)],
                 [value("x", f32, None)], [value("y", f32, None)], [x],
                 [softmax_rows(x, axis, **kw)], 11)

    # The else branch squeezes dim 2, which is 2 at these shapes: it runs only when cond is false
    # (and the input then has a 1 there).
    then_branch = helper.make_graph([helper.make_node("Identity", ["x"], ["t"])], "then", [],
                                    [value("t", f32, None)])
    axes = numpy_helper.from_array(np.array([2], np.int64), "axes")
    else_branch = helper.make_graph(
        [helper.make_node("Constant", [], ["a"], value=axes),
         helper.make_node("Squeeze", ["x", "a"], ["e"])], "else", [], [value("e", f32, None)])
    x = rng.standard_normal((1, 4, 2)).astype(np.float32)
    case("test_idiom_if_untaken_branch_does_not_infer",
         [helper.make_node("If", ["cond"], ["y"], then_branch=then_branch,
                           else_branch=else_branch)],
         [value("cond", TensorProto.BOOL, []), value("x", f32, [1, 4, 2])],
         [value("y", f32, None)], [np.array(True), x], [x], 13)

    x = rng.standard_normal((1, 2, 2, 3)).astype(np.float32)
    scales = np.array([1, 1, 2, 3], np.float32)
    case("test_idiom_upsample_opset9_nearest",
         [helper.make_node("Upsample", ["x", "scales"], ["y"], mode="nearest")],
         [value("x", f32, [1, 2, 2, 3]), value("scales", f32, [4])],
         [value("y", f32, [1, 2, 4, 9])], [x, scales],
         [x.repeat(2, axis=2).repeat(3, axis=3)], 9)

    f16 = TensorProto.FLOAT16
    x = rng.standard_normal((1, 3, 5, 5)).astype(np.float16)
    w = (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float16)
    b = rng.standard_normal(4).astype(np.float16)
    case("test_idiom_conv_float16",
         [helper.make_node("Conv", ["x", "w", "b"], ["y"], kernel_shape=[3, 3])],
         [value("x", f16, [1, 3, 5, 5])], [value("y", f16, [1, 4, 3, 3])], [x],
         [conv2d(x, w, b).astype(np.float16)], 17,
         [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])

    # Newer operator versions (the form each has from the opset given).
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    reduced = {"ReduceMean": x.mean(axis=1, keepdims=True),
               "ReduceMax": x.max(axis=1, keepdims=True),
               "ReduceL2": np.sqrt((x * x).sum(axis=1, keepdims=True)),
               "ReduceSumSquare": (x * x).sum(axis=1, keepdims=True)}
    for op, y in reduced.items():
        case(f"test_idiom_{op.lower()}_opset18_axes_input",
             [helper.make_node(op, ["x", "axes"], ["y"])],
             [value("x", f32, [2, 3, 4]), value("axes", TensorProto.INT64, [1])],
             [value("y", f32, [2, 1, 4])], [x, np.array([1], np.int64)], [y.astype(np.float32)],
             18)
    case("test_idiom_reducemean_opset18_noop_with_empty_axes",
         [helper.make_node("ReduceMean", ["x"], ["y"], noop_with_empty_axes=1)],
         [value("x", f32, [2, 3, 4])], [value("y", f32, [2, 3, 4])], [x], [x], 18)
    x = rng.standard_normal((7, 2)).astype(np.float32)
    case("test_idiom_split_opset18_num_outputs_uneven",
         [helper.make_node("Split", ["x"], ["a", "b", "c"], axis=0, num_outputs=3)],
         [value("x", f32, [7, 2])], [value(n, f32, None) for n in "abc"], [x],
         [x[0:3], x[3:6], x[6:7]], 18)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    case("test_idiom_pad_opset18_axes",
         [helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="constant")],
         [value("x", f32, [2, 3]), value("pads", TensorProto.INT64, [2]),
          value("axes", TensorProto.INT64, [1])],
         [value("y", f32, [2, 6])], [x, np.array([1, 2], np.int64), np.array([1], np.int64)],
         [np.pad(x, ((0, 0), (1, 2)))], 18)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    case("test_idiom_relu_opset28", [helper.make_node("Relu", ["x"], ["y"])],
         [value("x", f32, [3, 4])], [value("y", f32, [3, 4])], [x], [np.maximum(x, 0)], 28)
    return count


if __name__ == "__main__":
    sys.exit(main())
