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
  - AveragePool whose ceil_mode window reaches past the pads, with count_include_pad;
  - operator versions newer than Debian's onnx knows (opsets 18 to 28): the reductions with axes
    as an input, Split's num_outputs, Pad's axes, the Bitwise operators, CumProd, BitCast,
    GroupNormalization (per group at 18, per channel at 21), LpPool with dilations, Gelu, Swish,
    Resize's axes and keep_aspect_ratio_policy, CenterCropPad, Col2Im, AffineGrid,
    DFT with its axis as an input;
  - models of the ai.onnx.ml domain only: Binarizer, ArrayFeatureExtractor, Scaler, Normalizer,
    LinearRegressor, TreeEnsemble, and (ml_idiom_cases.py) the operators scikit-learn and
    LightGBM / XGBoost exports write: TreeEnsembleRegressor, TreeEnsembleClassifier,
    LinearClassifier, SVMRegressor, SVMClassifier, Imputer, OneHotEncoder, FeatureVectorizer.
Writes OUT/generate_status.txt: "ok" or the error.
"""
import argparse
import math
import os
import sys
import traceback

import numpy as np

from ml_idiom_cases import write_ml_cases


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

    def case(name, nodes, inputs, outputs, feeds, expected, opset, initializers=(), domain=""):
        nonlocal count
        graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid(domain, opset)],
                                  producer_name="openge-idioms")
        model.ir_version = 8
        folder = os.path.join(out, name)
        data = os.path.join(folder, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(folder, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for kind, arrays, infos in (("input", feeds, inputs), ("output", expected, outputs)):
            for i, (array, info) in enumerate(zip(arrays, infos)):
                if isinstance(array, TensorProto):  # a type numpy has not: made by hand
                    tensor = TensorProto()
                    tensor.CopyFrom(array)
                    tensor.name = info.name
                else:
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
    a = rng.integers(-100, 100, (3, 4)).astype(np.int32)
    b = rng.integers(-100, 100, (4,)).astype(np.int32)
    for op, fn in (("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or),
                   ("BitwiseXor", np.bitwise_xor)):
        case(f"test_idiom_{op.lower()}_opset18_broadcast",
             [helper.make_node(op, ["a", "b"], ["y"])],
             [value("a", TensorProto.INT32, [3, 4]), value("b", TensorProto.INT32, [4])],
             [value("y", TensorProto.INT32, [3, 4])], [a, b], [fn(a, b)], 18)
    u = rng.integers(0, 255, (5,)).astype(np.uint8)
    case("test_idiom_bitwisenot_opset18_uint8", [helper.make_node("BitwiseNot", ["x"], ["y"])],
         [value("x", TensorProto.UINT8, [5])], [value("y", TensorProto.UINT8, [5])], [u],
         [np.invert(u)], 18)
    x = rng.uniform(0.5, 1.5, (2, 3)).astype(np.float32)
    case("test_idiom_cumprod_opset26_reverse_exclusive",
         [helper.make_node("CumProd", ["x", "axis"], ["y"], exclusive=1, reverse=1)],
         [value("x", f32, [2, 3]), value("axis", TensorProto.INT64, [])],
         [value("y", f32, [2, 3])], [x, np.array(1, np.int64)],
         [np.concatenate([np.cumprod(x[:, :0:-1], axis=1)[:, ::-1], np.ones((2, 1), np.float32)],
                         axis=1).astype(np.float32)], 26)
    x = rng.standard_normal((2, 6, 3)).astype(np.float32)
    for opset, scale_len in ((21, 6), (18, 3)):
        scale = rng.standard_normal(scale_len).astype(np.float32)
        bias = rng.standard_normal(scale_len).astype(np.float32)
        g = x.reshape(2, 3, -1).astype(np.float64)
        norm = ((g - g.mean(axis=2, keepdims=True)) /
                np.sqrt(g.var(axis=2, keepdims=True) + 1e-5)).reshape(2, 6, 3)
        per_channel = np.repeat(scale, 6 // scale_len), np.repeat(bias, 6 // scale_len)
        y = norm * per_channel[0][None, :, None] + per_channel[1][None, :, None]
        case(f"test_idiom_groupnormalization_opset{opset}",
             [helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"],
                               num_groups=3)],
             [value("x", f32, [2, 6, 3]), value("scale", f32, [scale_len]),
              value("bias", f32, [scale_len])], [value("y", f32, [2, 6, 3])],
             [x, scale, bias], [y.astype(np.float32)], opset)
    x = rng.standard_normal((1, 2, 5)).astype(np.float32)
    windows = np.stack([x[:, :, i:i + 3:2] for i in range(0, 3)], axis=2)  # kernel 2, dilation 2
    case("test_idiom_lppool_opset18_dilations",
         [helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2], dilations=[2], p=3)],
         [value("x", f32, [1, 2, 5])], [value("y", f32, [1, 2, 3])], [x],
         [((np.abs(windows.astype(np.float64)) ** 3).sum(axis=3) ** (1 / 3)).astype(np.float32)],
         18)
    x = rng.standard_normal((2, 5)).astype(np.float32)
    case("test_idiom_lpnormalization_p1",
         [helper.make_node("LpNormalization", ["x"], ["y"], axis=1, p=1)],
         [value("x", f32, [2, 5])], [value("y", f32, [2, 5])], [x],
         [(x / np.abs(x).sum(axis=1, keepdims=True)).astype(np.float32)], 13)
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    erf = np.vectorize(math.erf)
    case("test_idiom_gelu_opset20", [helper.make_node("Gelu", ["x"], ["y"])],
         [value("x", f32, [3, 4])], [value("y", f32, [3, 4])], [x],
         [(0.5 * x * (1 + erf(x / np.sqrt(2)))).astype(np.float32)], 20)
    case("test_idiom_swish_opset24_alpha", [helper.make_node("Swish", ["x"], ["y"], alpha=1.5)],
         [value("x", f32, [3, 4])], [value("y", f32, [3, 4])], [x],
         [(x / (1 + np.exp(-1.5 * x))).astype(np.float32)], 24)
    case("test_idiom_bitcast_opset26_float_to_int32",
         [helper.make_node("BitCast", ["x"], ["y"], to=TensorProto.INT32)],
         [value("x", f32, [3, 4])], [value("y", TensorProto.INT32, [3, 4])], [x],
         [x.view(np.int32)], 26)
    x = rng.standard_normal((1, 1, 2, 3)).astype(np.float32)
    case("test_idiom_resize_opset18_axes_in_reverse_order",
         [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest", axes=[3, 2])],
         [value("x", f32, [1, 1, 2, 3]), value("scales", f32, [2])],
         [value("y", f32, [1, 1, 4, 6])], [x, np.array([2, 2], np.float32)],
         [x.repeat(2, axis=2).repeat(2, axis=3)], 18)
    case("test_idiom_resize_opset18_keep_aspect_ratio_not_larger",
         [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest",
                           axes=[2, 3], keep_aspect_ratio_policy="not_larger")],
         [value("x", f32, [1, 1, 2, 3]), value("sizes", TensorProto.INT64, [2])],
         [value("y", f32, [1, 1, 4, 6])], [x, np.array([5, 6], np.int64)],
         [x.repeat(2, axis=2).repeat(2, axis=3)], 18)

    x = rng.standard_normal((3, 5)).astype(np.float32)
    padded = np.zeros((4, 2), np.float32)
    padded[0:3] = x[:, 1:3]  # dim 0 padded 3 -> 4 (the odd pixel at the end), dim 1 cropped 5 -> 2
    case("test_idiom_centercroppad_opset18",
         [helper.make_node("CenterCropPad", ["x", "shape"], ["y"])],
         [value("x", f32, [3, 5]), value("shape", TensorProto.INT64, [2])],
         [value("y", f32, [4, 2])], [x, np.array([4, 2], np.int64)], [padded], 18)
    cols = rng.standard_normal((1, 4, 4)).astype(np.float32)  # 2x2 blocks of a 3x3 image
    image = np.zeros((1, 1, 3, 3), np.float32)
    for k in range(4):
        for block in range(4):
            image[0, 0, block // 2 + k // 2, block % 2 + k % 2] += cols[0, k, block]
    case("test_idiom_col2im_opset18",
         [helper.make_node("Col2Im", ["x", "image_shape", "block_shape"], ["y"])],
         [value("x", f32, [1, 4, 4]), value("image_shape", TensorProto.INT64, [2]),
          value("block_shape", TensorProto.INT64, [2])], [value("y", f32, [1, 1, 3, 3])],
         [cols, np.array([3, 3], np.int64), np.array([2, 2], np.int64)], [image], 18)
    theta = rng.standard_normal((1, 2, 3)).astype(np.float32)
    for align in (0, 1):
        xs = np.linspace(-1, 1, 3) if align else (2 * np.arange(3) + 1) / 3 - 1
        ys = np.linspace(-1, 1, 2) if align else (2 * np.arange(2) + 1) / 2 - 1
        points = np.stack([np.tile(xs, 2), np.repeat(ys, 3), np.ones(6)])  # x along W
        grid = (theta[0].astype(np.float64) @ points).T.reshape(1, 2, 3, 2)
        case(f"test_idiom_affinegrid_opset20_align_corners{align}",
             [helper.make_node("AffineGrid", ["theta", "size"], ["grid"], align_corners=align)],
             [value("theta", f32, [1, 2, 3]), value("size", TensorProto.INT64, [4])],
             [value("grid", f32, [1, 2, 3, 2])], [theta, np.array([1, 1, 2, 3], np.int64)],
             [grid.astype(np.float32)], 20)

    x = rng.standard_normal((1, 4, 3, 1)).astype(np.float32)
    spectrum = np.fft.fft(x[..., 0].astype(np.float64), axis=1)
    case("test_idiom_dft_opset20_axis_input",
         [helper.make_node("DFT", ["x", "", "axis"], ["y"])],
         [value("x", f32, [1, 4, 3, 1]), value("axis", TensorProto.INT64, [])],
         [value("y", f32, [1, 4, 3, 2])], [x, np.array(1, np.int64)],
         [np.stack([spectrum.real, spectrum.imag], axis=-1).astype(np.float32)], 20)

    # ceil_mode's last window reaches past the pads; count_include_pad counts the pads only.
    x = rng.standard_normal((1, 1, 4, 4)).astype(np.float32)
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    pooled = np.zeros((1, 1, 3, 3))
    for i in range(3):
        for j in range(3):
            window = padded[0, 0, 2 * i:2 * i + 3, 2 * j:2 * j + 3]  # clipped at the padded edge
            pooled[0, 0, i, j] = window.sum() / window.size
    case("test_idiom_averagepool_ceil_mode_count_include_pad",
         [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                           pads=[1, 1, 1, 1], ceil_mode=1, count_include_pad=1)],
         [value("x", f32, [1, 1, 4, 4])], [value("y", f32, [1, 1, 3, 3])], [x],
         [pooled.astype(np.float32)], 19)

    # ai.onnx.ml only, as scikit-learn pipelines are written.
    ml = "ai.onnx.ml"
    x = rng.standard_normal((2, 4)).astype(np.float32)
    case("test_idiom_ml_binarizer", [helper.make_node("Binarizer", ["x"], ["y"], threshold=0.3,
                                                      domain=ml)],
         [value("x", f32, [2, 4])], [value("y", f32, [2, 4])], [x],
         [(x > 0.3).astype(np.float32)], 1, domain=ml)
    case("test_idiom_ml_array_feature_extractor",
         [helper.make_node("ArrayFeatureExtractor", ["x", "i"], ["y"], domain=ml)],
         [value("x", f32, [2, 4]), value("i", TensorProto.INT64, [3])],
         [value("y", f32, [2, 3])], [x, np.array([3, 0, 3], np.int64)], [x[:, [3, 0, 3]]], 1,
         domain=ml)
    features = rng.integers(-5, 5, (3, 4)).astype(np.int64)
    offset, scale = [1.0, 2.0, 0.0, -1.0], [0.5, 2.0, 1.0, 3.0]
    case("test_idiom_ml_scaler_int64",
         [helper.make_node("Scaler", ["x"], ["y"], domain=ml, offset=offset, scale=scale)],
         [value("x", TensorProto.INT64, [3, 4])], [value("y", f32, [3, 4])], [features],
         [((features - np.array(offset)) * np.array(scale)).astype(np.float32)], 1, domain=ml)
    case("test_idiom_ml_normalizer_l2",
         [helper.make_node("Normalizer", ["x"], ["y"], domain=ml, norm="L2")],
         [value("x", f32, [2, 4])], [value("y", f32, [2, 4])], [x],
         [(x / np.sqrt((x.astype(np.float64) ** 2).sum(axis=1, keepdims=True)))
          .astype(np.float32)], 1, domain=ml)
    coefficients = rng.standard_normal((2, 4))
    intercepts = rng.standard_normal(2)
    linear = x.astype(np.float64) @ coefficients.T + intercepts
    case("test_idiom_ml_linear_regressor_logistic",
         [helper.make_node("LinearRegressor", ["x"], ["y"], domain=ml, targets=2,
                           coefficients=coefficients.ravel().tolist(),
                           intercepts=intercepts.tolist(), post_transform="LOGISTIC")],
         [value("x", f32, [2, 4])], [value("y", f32, [2, 2])], [x],
         [(1 / (1 + np.exp(-linear))).astype(np.float32)], 1, domain=ml)
    # One tree: node 0 tests x0 <= 0.5 (true: leaf 0, 1.0 to target 0), node 1 x1 < 2 (true:
    # leaf 1, 2.0 to target 1; false: leaf 2, 3.0 to target 0).
    tree = helper.make_node(
        "TreeEnsemble", ["x"], ["y"], domain=ml, n_targets=2, aggregate_function=1,
        post_transform=0, tree_roots=[0], nodes_featureids=[0, 1],
        nodes_modes=numpy_helper.from_array(np.array([0, 1], np.uint8), "nodes_modes"),
        nodes_splits=numpy_helper.from_array(np.array([0.5, 2.0], np.float32), "nodes_splits"),
        nodes_truenodeids=[0, 1], nodes_trueleafs=[1, 1], nodes_falsenodeids=[1, 2],
        nodes_falseleafs=[0, 1], leaf_targetids=[0, 1, 0],
        leaf_weights=numpy_helper.from_array(np.array([1, 2, 3], np.float32), "leaf_weights"))
    rows = np.array([[0.2, 5], [0.9, 1], [0.9, 3]], np.float32)
    case("test_idiom_ml_tree_ensemble", [tree], [value("x", f32, [3, 2])],
         [value("y", f32, [3, 2])], [rows], [np.array([[1, 0], [0, 2], [3, 0]], np.float32)], 5,
         domain=ml)

    x = rng.standard_normal((3, 4)).astype(np.float32)
    case("test_idiom_relu_opset28", [helper.make_node("Relu", ["x"], ["y"])],
         [value("x", f32, [3, 4])], [value("y", f32, [3, 4])], [x], [np.maximum(x, 0)], 28)

    write_narrow_cases(case, value, helper, TensorProto)
    write_ml_cases(case, value, helper, numpy_helper, TensorProto)
    return count


def packed(type_number, dims, codes, bits):
    """A TensorProto of a sub-byte or 8-bit type ONNX 1.12 cannot make: its codes packed into
    raw_data from the low bits of each byte up."""
    from onnx import TensorProto

    per_byte = 8 // bits
    data = bytearray((len(codes) + per_byte - 1) // per_byte)
    for i, code in enumerate(codes):
        data[i // per_byte] |= (int(code) & ((1 << bits) - 1)) << (i % per_byte * bits)
    t = TensorProto()
    t.data_type = type_number
    t.dims.extend(dims)
    t.raw_data = bytes(data)
    return t


def write_narrow_cases(case, value, helper, TensorProto):
    """Element types newer than ONNX 1.12 (numbers 17 to 26): casts and quantization through
    them. Integers wrap (a float is truncated first) and clamp when quantized; the float8 codes
    are those of values the format holds exactly, and of its saturation."""
    f32 = TensorProto.FLOAT
    int4, e4m3fn = 22, 17

    def int4_value(codes):
        return np.where(codes >= 8, codes - 16, codes)

    x = np.array([-9.5, -8, -1.2, 0, 3.7, 7, 8], np.float32)
    codes = np.trunc(x).astype(np.int64) & 0xF
    case("test_idiom_cast_int4_wraps_and_back",
         [helper.make_node("Cast", ["x"], ["q"], to=int4),
          helper.make_node("Cast", ["q"], ["y"], to=f32)],
         [value("x", f32, [7])], [value("q", int4, [7]), value("y", f32, [7])], [x],
         [packed(int4, [7], codes, 4), int4_value(codes).astype(np.float32)], 21)

    x = np.array([1.0, -2.0, 0.5, 1000.0, -1e-9, 7.0], np.float32)
    codes = [0x38, 0xC0, 0x30, 0x7E, 0x80, 0x4E]  # 1000 saturates to 448; -1e-9 is -0
    case("test_idiom_cast_float8e4m3fn_saturates",
         [helper.make_node("Cast", ["x"], ["q"], to=e4m3fn),
          helper.make_node("Cast", ["q"], ["y"], to=f32)],
         [value("x", f32, [6])], [value("q", e4m3fn, [6]), value("y", f32, [6])], [x],
         [packed(e4m3fn, [6], codes, 8),
          np.array([1.0, -2.0, 0.5, 448.0, -0.0, 7.0], np.float32)], 21)

    # Blocked int4 quantization: each run of 2 along axis 1 has its scale and zero point.
    x = np.array([[0.3, -4.0, 9.0, 2.5], [-30.0, 1.0, 0.0, 5.5]], np.float32)
    scale = np.array([[0.5, 2.0], [4.0, 1.0]], np.float32)
    zp = np.array([[1, -2], [0, 3]], np.int64)
    scale_rep, zp_rep = np.repeat(scale, 2, axis=1), np.repeat(zp, 2, axis=1)
    q = np.clip(np.rint(x / scale_rep) + zp_rep, -8, 7).astype(np.int64)
    zp_tensor = packed(int4, [2, 2], (zp & 0xF).ravel(), 4)
    zp_tensor.name = "zp"
    scale_tensor = helper.make_tensor("scale", f32, [2, 2], scale.ravel().tolist())
    case("test_idiom_quantize_int4_blocked",
         [helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["q"], axis=1, block_size=2),
          helper.make_node("DequantizeLinear", ["q", "scale", "zp"], ["y"], axis=1,
                           block_size=2)],
         [value("x", f32, [2, 4])], [value("q", int4, [2, 4]), value("y", f32, [2, 4])], [x],
         [packed(int4, [2, 4], (q & 0xF).ravel(), 4),
          ((q - zp_rep) * scale_rep).astype(np.float32)], 21, [scale_tensor, zp_tensor])


if __name__ == "__main__":
    sys.exit(main())
