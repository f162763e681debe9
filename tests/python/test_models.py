"""Models run through openge.InferenceSession give torch's numbers, computed here."""
import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

import openge
from conftest import (SMALL_CNN, assert_close, exported_model, onnx_bytes, small_cnn_torch,
                      torch_reference)


def test_small_cnn_file_matches_torch(small_cnn_session, image):
    expected = torch_reference(small_cnn_torch(), torch.from_numpy(image))
    (logits,) = small_cnn_session.run(None, {"image": image})
    assert_close(logits, expected, "small_cnn.onnx")


def test_a_cnn_exported_to_bytes_here_matches_torch_at_two_batch_sizes():
    torch.manual_seed(11)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 16, 3, stride=2), torch.nn.Sigmoid(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 5),
        torch.nn.Softmax(dim=1)).eval()
    example = torch.randn(2, 3, 32, 32)
    model_bytes = onnx_bytes(model, example, "x", "probs", {"x": {0: "n"}, "probs": {0: "n"}})
    sess = openge.InferenceSession(model_bytes)
    assert sess.get_inputs()[0].shape == ["n", 3, 32, 32]
    for batch in (2, 5):
        x = torch.randn(batch, 3, 32, 32)
        (probs,) = sess.run(None, {"x": x.numpy()})
        assert_close(probs, torch_reference(model, x), f"batch {batch}")


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2", "efficientnet_b0", "densenet121",
                                  "shufflenet_v2", "squeezenet", "vit_tiny", "gpt2_tiny",
                                  "bert_encoder"])
def test_test_model_matches_torch(name):
    path, model, example = exported_model(name)
    sess = openge.InferenceSession(str(path))
    (feed,) = sess.get_inputs()
    (output,) = sess.run(None, {feed.name: example.numpy()})
    assert_close(output, torch_reference(model, example), name)


def test_an_encoder_with_dynamic_axes_runs_other_shapes_and_names_its_symbolic_dims():
    path, model, _ = exported_model("bert_encoder")
    sess = openge.InferenceSession(str(path))
    (ids,) = sess.get_inputs()
    assert (ids.name, ids.type, ids.shape) == ("input_ids", "tensor(int64)", ["batch", "sequence"])
    (out,) = sess.get_outputs()
    assert out.type == "tensor(float)" and out.shape[-1] == 64
    for shape in ((1, 7), (3, 24)):
        x = torch.randint(0, 1000, shape, generator=torch.Generator().manual_seed(5))
        (output,) = sess.run(["output"], {"input_ids": x.numpy()})
        assert_close(output, torch_reference(model, x), f"input_ids {shape}")


def test_dynamic_axes_compile_a_plan_per_shape_and_reuse_it():
    path, model, _ = exported_model("bert_encoder")
    sess = openge.InferenceSession(str(path))
    sess.start_profiling()
    for shape in ((1, 7), (3, 24), (1, 7)):
        x = torch.randint(0, 1000, shape, generator=torch.Generator().manual_seed(5))
        (output,) = sess.run(None, {"input_ids": x.numpy()})
        assert_close(output, torch_reference(model, x), f"input_ids {shape}")
    assert any(e["cat"] == "Node" for e in sess.profile()["traceEvents"])
    plans = sess.shape_plans()
    assert plans["specializes"]
    assert (plans["misses"], plans["hits"], plans["padded"]) == (2, 1, 0)
    assert [p["shapes"] for p in plans["plans"]] == ["input_ids:1,7", "input_ids:3,24"]
    assert [p["runs"] for p in plans["plans"]] == [2, 1]
    assert not any(p["dynamic"] or p["error"] for p in plans["plans"])
    with pytest.raises(openge.InputError, match="input 'input_ids'"):
        sess.run(None, {"input_ids": np.zeros((7,), np.int64)})


def test_buckets_pad_the_batch_and_cut_it_back():
    path, model, _ = exported_model("bert_encoder")
    sess = openge.InferenceSession(str(path), options={"openge.shapeBuckets": "batch:4"})
    for batch in (1, 3):
        x = torch.randint(0, 1000, (batch, 9), generator=torch.Generator().manual_seed(batch))
        (output,) = sess.run(None, {"input_ids": x.numpy()})
        assert output.shape == (batch, 9, 64)
        assert_close(output, torch_reference(model, x), f"batch {batch} padded to 4")
    plans = sess.shape_plans()
    assert (plans["misses"], plans["hits"], plans["padded"]) == (1, 1, 2)
    assert plans["plans"][0]["shapes"] == "input_ids:4,9"
    with pytest.raises(openge.ModelError, match="no input has a dim named 'rows'"):
        openge.InferenceSession(str(path), options={"openge.shapeBuckets": "rows:4"})


def test_without_plan_entries_every_shape_runs_the_model_as_compiled():
    path, model, _ = exported_model("bert_encoder")
    sess = openge.InferenceSession(str(path), options={"openge.shapePlanCacheEntries": "0"})
    x = torch.randint(0, 1000, (2, 5), generator=torch.Generator().manual_seed(8))
    (output,) = sess.run(None, {"input_ids": x.numpy()})
    assert_close(output, torch_reference(model, x), "dynamic executor")
    assert sess.shape_plans()["specializes"] is False
    assert sess.shape_plans()["misses"] == 0


def test_input_shapes_fix_a_dynamic_axis_at_compile_time():
    path, model, _ = exported_model("bert_encoder")
    sess = openge.InferenceSession(str(path), input_shapes={"input_ids": [2, 8]})
    assert sess.get_inputs()[0].shape == [2, 8]
    assert sess.get_outputs()[0].shape == [2, 8, 64]
    x = torch.randint(0, 1000, (2, 8), generator=torch.Generator().manual_seed(6))
    (output,) = sess.run(None, {"input_ids": x.numpy()})
    assert_close(output, torch_reference(model, x), "fixed [2, 8]")
    with pytest.raises(openge.InputError, match="input_ids"):
        sess.run(None, {"input_ids": np.zeros((2, 9), np.int64)})
    assert sess.shape_plans()["specializes"] is False


def _level_session(model, level):
    options = openge.SessionOptions()
    options.graph_optimization_level = level
    return openge.InferenceSession(model, options)


def test_optimization_levels_give_the_same_numbers_and_fewer_rewrites_lower(image):
    levels = openge.GraphOptimizationLevel
    # A sum of two constants: what the basic level folds and no rewrites leaves.
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    a = numpy_helper.from_array(np.full((2, 3), 0.5, np.float32), "a")
    b = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "b")
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["x1"]),
                               helper.make_node("Add", ["a", "b"], ["ab"]),
                               helper.make_node("Mul", ["x1", "ab"], ["y"])],
                              "fold_me", [x], [y], [a, b])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    feed = np.random.default_rng(1).standard_normal((2, 3), dtype=np.float32)
    counts = {}
    for level in levels:
        sess = _level_session(model, level)
        (out,) = sess.run(None, {"x": feed})
        np.testing.assert_allclose(out, feed * (0.5 + np.arange(6).reshape(2, 3)), rtol=1e-6)
        counts[level] = sess.compiled_model.graph().op_types()
    assert counts[levels.ORT_DISABLE_ALL].get("Add") == 1
    assert "Add" not in counts[levels.ORT_ENABLE_BASIC]

    # Fusion (the extended level) merges the small CNN's clips into its convolutions.
    expected = torch_reference(small_cnn_torch(), torch.from_numpy(image))
    for level in levels:
        sess = _level_session(str(SMALL_CNN), level)
        (logits,) = sess.run(None, {"image": image})
        assert_close(logits, expected, level.name)
        counts[level] = sess.compiled_model.graph().op_types()
    assert counts[levels.ORT_ENABLE_BASIC].get("Clip") == 5
    assert "Clip" not in counts[levels.ORT_ENABLE_EXTENDED]
    assert counts[levels.ORT_ENABLE_EXTENDED] == counts[levels.ORT_ENABLE_ALL]


def test_string_tensors_go_in_and_come_out_as_onnxruntime_gives_them():
    words = helper.make_tensor("words", TensorProto.STRING, [3], [b"cat", b"dog", "\u00e9t\u00e9".encode()])
    graph = helper.make_graph(
        [helper.make_node("Equal", ["x", "words"], ["same"]),
         helper.make_node("Identity", ["x"], ["echo"]),
         helper.make_node("Cast", ["n"], ["text"], to=TensorProto.STRING)],
        "strings",
        [helper.make_tensor_value_info("x", TensorProto.STRING, [2, 3]),
         helper.make_tensor_value_info("n", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("same", TensorProto.BOOL, [2, 3]),
         helper.make_tensor_value_info("echo", TensorProto.STRING, [2, 3]),
         helper.make_tensor_value_info("text", TensorProto.STRING, [2])],
        [words])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    sess = openge.InferenceSession(model.SerializeToString())
    assert sess.get_inputs()[0].type == "tensor(string)"
    # str (NumPy kind U), object arrays of str and bytes, and nested lists are all accepted.
    for x in (np.array([["cat", "x", "\u00e9t\u00e9"], ["dog", "dog", ""]]),
              np.array([["cat", "x", "\u00e9t\u00e9"], ["dog", "dog", ""]], dtype=object),
              [[b"cat", b"x", "\u00e9t\u00e9".encode()], [b"dog", b"dog", b""]]):
        same, echo, text = sess.run(None, {"x": x, "n": np.array([-12, 7], np.int64)})
        assert same.tolist() == [[True, False, True], [False, True, False]]
        assert echo.dtype == object and echo.shape == (2, 3)
        assert echo.tolist() == [["cat", "x", "\u00e9t\u00e9"], ["dog", "dog", ""]]
        assert text.tolist() == ["-12", "7"]
    with pytest.raises(openge.InputError, match="element 1 is a int"):
        sess.run(None, {"x": np.array([["a", 1, "b"], ["c", "d", "e"]], dtype=object),
                        "n": np.array([1, 2], np.int64)})
    with pytest.raises(openge.InputError, match="expected tensor\\(string\\)"):
        sess.run(None, {"x": np.zeros((2, 3), np.float32), "n": np.array([1, 2], np.int64)})


_WORDS = np.array([["a", "bb", "ccc"], ["d", "ee", "f"]], dtype=object)
_STRING_MOVES = {
    # op: (node, extra inputs {name: value}, NumPy's answer on _WORDS)
    "Transpose": (dict(perm=[1, 0]), {}, _WORDS.T),
    "Concat": (dict(axis=0), {"x2": _WORDS[:1]}, np.concatenate([_WORDS, _WORDS[:1]])),
    "Gather": (dict(axis=1), {"i": np.array([2, 0])}, _WORDS[:, [2, 0]]),
    "Slice": ({}, {"s": np.array([1]), "e": np.array([3]), "a": np.array([1])}, _WORDS[:, 1:3]),
    "Expand": ({}, {"shape": np.array([2, 2, 3])}, np.broadcast_to(_WORDS, (2, 2, 3))),
    "Tile": ({}, {"r": np.array([2, 1])}, np.tile(_WORDS, (2, 1))),
    "Pad": ({}, {"p": np.array([0, 1, 0, 0])}, np.pad(_WORDS, ((0, 0), (1, 0)), constant_values="")),
    "Where": ({}, {"c": np.array([True, False, True]), "y": np.array(["-"], dtype=object)},
              np.where([True, False, True], _WORDS, "-")),
    "GatherElements": (dict(axis=1), {"i": np.array([[2, 0, 0], [1, 1, 2]])},
                       np.take_along_axis(_WORDS, np.array([[2, 0, 0], [1, 1, 2]]), 1)),
    "Split": (dict(axis=1, num_outputs=2), {}, _WORDS[:, :2]),
    "Compress": (dict(axis=1), {"k": np.array([True, False, True])}, _WORDS[:, [0, 2]]),
}


@pytest.mark.parametrize("op", sorted(_STRING_MOVES))
def test_operators_that_move_elements_move_strings(op):
    attrs, extra, expected = _STRING_MOVES[op]
    if op == "Where":
        inputs, order = ["c", "x", "y"], ["c", "y"]
    else:
        inputs, order = ["x"] + list(extra), list(extra)
    outputs = ["out", "rest"] if op == "Split" else ["out"]
    types = {np.dtype(object): TensorProto.STRING, np.dtype(bool): TensorProto.BOOL,
             np.dtype(np.int64): TensorProto.INT64}
    graph = helper.make_graph(
        [helper.make_node(op, inputs, outputs, **attrs)], op,
        [helper.make_tensor_value_info("x", TensorProto.STRING, list(_WORDS.shape))]
        + [helper.make_tensor_value_info(n, types[extra[n].dtype], list(extra[n].shape))
           for n in order],
        [helper.make_tensor_value_info(n, TensorProto.STRING, None) for n in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    got = openge.InferenceSession(model.SerializeToString()).run(["out"], {"x": _WORDS, **extra})[0]
    assert got.dtype == object
    assert got.tolist() == expected.tolist(), op


def test_sequences_and_optionals_go_in_and_come_out_as_onnxruntime_gives_them():
    seq_f = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    opt_f = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    graph = helper.make_graph(
        [helper.make_node("SequenceInsert", ["s", "t"], ["s2"]),
         helper.make_node("SequenceLength", ["s2"], ["n"]),
         helper.make_node("ConcatFromSequence", ["s2"], ["cat"], axis=1),
         helper.make_node("SequenceAt", ["s2", "pos"], ["at"]),
         helper.make_node("OptionalHasElement", ["o"], ["has"]),
         helper.make_node("Optional", ["t"], ["wrapped"]),
         helper.make_node("SplitToSequence", ["t"], ["parts"], axis=1, keepdims=0)],
        "sequences",
        [helper.make_value_info("s", seq_f),
         helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 3]),
         helper.make_tensor_value_info("pos", TensorProto.INT64, []),
         helper.make_value_info("o", opt_f)],
        [helper.make_value_info("s2", seq_f),
         helper.make_tensor_value_info("n", TensorProto.INT64, []),
         helper.make_tensor_value_info("cat", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("at", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("has", TensorProto.BOOL, []),
         helper.make_value_info("wrapped", opt_f),
         helper.make_value_info("parts", seq_f)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    sess = openge.InferenceSession(model.SerializeToString())
    assert [i.type for i in sess.get_inputs()] == [
        "seq(tensor(float))", "tensor(float)", "tensor(int64)", "optional(tensor(float))"]
    t = np.arange(3, dtype=np.float32).reshape(1, 3)
    first = np.full((1, 2), 7, np.float32)
    s2, n, cat, at, has, wrapped, parts = sess.run(
        None, {"s": [first], "t": t, "pos": np.array(-1), "o": None})
    assert isinstance(s2, list) and len(s2) == 2
    np.testing.assert_array_equal(s2[0], first)
    np.testing.assert_array_equal(s2[1], t)
    assert n == 2 and not has
    np.testing.assert_array_equal(cat, np.concatenate([first, t], axis=1))
    np.testing.assert_array_equal(at, t)
    np.testing.assert_array_equal(wrapped, t)  # an optional holding a value comes back as it
    assert [p.tolist() for p in parts] == [[0.0], [1.0], [2.0]]
    (has,) = sess.run(["has"], {"s": [], "t": t, "pos": np.array(0), "o": np.ones(2, np.float32)})
    assert has
    with pytest.raises(openge.InputError, match="give a list"):
        sess.run(None, {"s": first, "t": t, "pos": np.array(0), "o": None})
    with pytest.raises(openge.Error, match="position 5 is outside"):
        sess.run(None, {"s": [first], "t": t, "pos": np.array(5), "o": None})


def test_sequence_map_runs_its_body_on_each_element():
    seq_f = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    body = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["y"]),
         helper.make_node("Shape", ["x"], ["shape"])],
        "body",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("bias", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [None])])
    graph = helper.make_graph(
        [helper.make_node("SequenceMap", ["s", "bias"], ["added", "shapes"], body=body)],
        "map",
        [helper.make_value_info("s", seq_f),
         helper.make_tensor_value_info("bias", TensorProto.FLOAT, [1])],
        [helper.make_value_info("added", seq_f),
         helper.make_value_info("shapes", helper.make_sequence_type_proto(
             helper.make_tensor_type_proto(TensorProto.INT64, None)))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    sess = openge.InferenceSession(model.SerializeToString())
    items = [np.ones((2, 3), np.float32), np.arange(4, dtype=np.float32)]
    added, shapes = sess.run(None, {"s": items, "bias": np.array([0.5], np.float32)})
    assert len(added) == 2
    np.testing.assert_array_equal(added[0], items[0] + 0.5)
    np.testing.assert_array_equal(added[1], items[1] + 0.5)
    assert [s.tolist() for s in shapes] == [[2, 3], [4]]
    added, shapes = sess.run(None, {"s": [], "bias": np.array([0.5], np.float32)})
    assert added == [] and shapes == []


@pytest.mark.parametrize("labels", [["cat", "dog", "eel"], [3, 1, 2]])
def test_zipmap_gives_a_dict_per_row_as_onnxruntime_does(labels):
    by_name = isinstance(labels[0], str)
    attrs = {"classlabels_strings": labels} if by_name else {"classlabels_int64s": labels}
    map_type = onnx.TypeProto()  # ONNX 1.12's helper has no make_map_type_proto
    map_type.map_type.key_type = TensorProto.STRING if by_name else TensorProto.INT64
    map_type.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    graph = helper.make_graph(
        [helper.make_node("ZipMap", ["probs"], ["maps"], domain="ai.onnx.ml", **attrs)],
        "zipmap", [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [None, 3])],
        [helper.make_value_info("maps", helper.make_sequence_type_proto(map_type))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("ai.onnx.ml", 1)])
    sess = openge.InferenceSession(model.SerializeToString())
    probs = np.array([[0.25, 0.5, 0.25], [0.0, 0.125, 0.875]], np.float32)
    (maps,) = sess.run(None, {"probs": probs})
    assert maps == [dict(zip(labels, row.tolist())) for row in probs]
    # Two labels for three classes: an error naming the node, when it compiles for X's shape.
    bad = helper.make_node("ZipMap", ["probs"], ["maps"], domain="ai.onnx.ml",
                           **({"classlabels_strings": labels[:2]} if by_name
                              else {"classlabels_int64s": labels[:2]}))
    model.graph.node.pop()
    model.graph.node.append(bad)
    with pytest.raises(openge.Error, match="3 classes, the 2 labels"):
        openge.InferenceSession(model.SerializeToString()).run(None, {"probs": probs})
