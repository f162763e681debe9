"""What ONNX Runtime does not have: compile with a report, memory plans, graphs, profiles."""
import json
import os
import subprocess
import time

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import openge
from conftest import SMALL_CNN


@pytest.fixture(scope="module")
def compiled():
    return openge.compile(str(SMALL_CNN), options={"ge.oo.constantFolding": True})


def test_the_report_has_every_stage_and_pass_of_the_pass_list(compiled):
    report = compiled.report
    pass_list = openge._openge.pass_list()
    assert [s["name"] for s in report["stages"]] == [stage for stage, _ in pass_list]
    for stage, (_, passes) in zip(report["stages"], pass_list):
        assert [p["name"] for p in stage["passes"]] == passes
    fusion = next(p for s in report["stages"] for p in s["passes"] if p["name"] == "Fusion")
    assert fusion["rewrites"] > 0 and fusion["nodes_after"] < fusion["nodes_before"]
    assert report["op_types_before"]["Clip"] == 5 and "Clip" not in report["op_types_after"]
    assert report["memory"]["arena_bytes"] == compiled.memory_plan()["arena_bytes"]
    assert compiled.compile_millis > 0 and compiled.parse_millis > 0


def test_the_memory_plan_never_gives_two_live_tensors_the_same_bytes(compiled):
    plan = compiled.memory_plan()
    assert plan["lower_bound"] <= plan["arena_bytes"]
    assert min(s["arena_bytes"] for s in plan["strategies"]) == plan["arena_bytes"]
    arena = [t for t in plan["tensors"] if t["region"] == "arena" and t["alias_of"] < 0]
    assert arena, "no tensor is in the arena"
    for i, a in enumerate(arena):
        assert a["offset"] + a["size"] <= plan["arena_bytes"]
        for b in arena[i + 1:]:
            live = a["first_step"] <= b["last_step"] and b["first_step"] <= a["last_step"]
            apart = a["offset"] + a["size"] <= b["offset"] or b["offset"] + b["size"] <= a["offset"]
            assert not live or apart, f"{a['node']} and {b['node']} share bytes while both live"
    with pytest.raises(openge.Error, match="no memory plan for graph 'nope'"):
        compiled.memory_plan("nope")


def test_a_saved_model_runs_as_the_compiled_one(compiled, tmp_path, image):
    path = tmp_path / "small_cnn.om"
    compiled.save(path)
    assert path.read_bytes() == compiled.serialize()
    from_file = openge.InferenceSession(str(path))
    shared = openge.InferenceSession(compiled)
    assert shared.compiled_model is compiled
    expected = openge.InferenceSession(str(SMALL_CNN)).run(None, {"image": image})[0]
    for sess in (from_file, shared, openge.InferenceSession(compiled.serialize())):
        np.testing.assert_array_equal(sess.run(None, {"image": image})[0], expected)
    with pytest.raises(openge.ModelError, match="fixed when it was compiled"):
        openge.compile(str(path), input_shapes={"image": [1, 3, 64, 64]})


def test_load_graph_shows_an_onnx_model_as_parsed():
    graph = openge.load_graph(SMALL_CNN)
    proto = onnx.load(str(SMALL_CNN))
    assert graph.inputs == ["image"]
    conv = graph.node("/stem/stem.0/Conv")
    assert conv.type == "Conv2D" and conv.engine is None
    assert conv.attributes["strides"] == [2, 2] and conv.attributes["pads"] == [1, 1, 1, 1]
    assert conv.inputs[0].source == "image:0" and conv.inputs[0].shape == [1, 3, 64, 64]
    weight_name = conv.inputs[1].source.rsplit(":", 1)[0]
    weight = graph.node(weight_name).attributes["value"]
    initializer = next(i for i in proto.graph.initializer if i.name == weight_name)
    np.testing.assert_array_equal(weight, numpy_helper.to_array(initializer))
    assert not weight.flags.writeable
    assert len(graph) == len(proto.graph.node) + len(proto.graph.initializer) + 2
    with pytest.raises(KeyError, match="has no node 'missing'"):
        graph.node("missing")


def test_a_model_compiled_without_shapes_shows_its_dims_as_expressions():
    """x [batch, seq] -> Reshape to [batch*seq] by a target computed from the shape: the compiled
    graph says what each dim is, and the shape arithmetic is gone (the target is a constant)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("ReduceProd", ["shape"], ["count"], keepdims=1),
        helper.make_node("Reshape", ["x", "count"], ["flat"]),
        helper.make_node("Relu", ["flat"], ["y"]),
    ]
    model = helper.make_model(helper.make_graph(nodes, "flatten", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 17)])
    compiled = openge.compile(model.SerializeToString())
    graph = compiled.graph()
    relu = next(n for n in graph if n.type == "Relu")
    assert relu.outputs[0].shape == ["batch*seq"]
    assert "Shape" not in graph.op_types() and "ReduceProd" not in graph.op_types()
    sess = openge.InferenceSession(model.SerializeToString(),
                                   options={"openge.shapePlanCacheEntries": 0})
    data = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    (out,) = sess.run(None, {"x": data})
    np.testing.assert_array_equal(out, np.maximum(data.reshape(6), 0))


def test_load_graph_of_a_compiled_model_shows_engines_and_streams(compiled, tmp_path):
    path = tmp_path / "m.om"
    compiled.save(path)
    graph = openge.load_graph(path)
    engines = {n.engine for n in graph}
    assert engines == {"DNN_VM_GE_LOCAL", "DNN_VM_HOST_CPU"}
    assert graph.op_types() == compiled.graph().op_types() == compiled.report["op_types_after"]
    convs = [n for n in graph if n.type == "Conv2D"]
    assert all(n.engine == "DNN_VM_HOST_CPU" and n.stream == 0 for n in convs)


def test_load_graph_shows_control_flow_subgraphs():
    def branch(name, value):
        out = helper.make_tensor_value_info(f"{name}_y", TensorProto.FLOAT, [2])
        const = helper.make_node("Constant", [], [f"{name}_y"],
                                 value=numpy_helper.from_array(np.full(2, value, np.float32)))
        return helper.make_graph([const], name, [], [out])
    cond = helper.make_tensor_value_info("cond", TensorProto.BOOL, [])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    node = helper.make_node("If", ["cond"], ["y"], then_branch=branch("then", 1.0),
                            else_branch=branch("else", -1.0))
    model = helper.make_model(helper.make_graph([node], "choose", [cond], [y]),
                              opset_imports=[helper.make_opsetid("", 17)])
    graph = openge.load_graph(model.SerializeToString())
    (if_node,) = [n for n in graph if n.type == "If"]
    assert len(if_node.subgraphs) == 2 and set(if_node.subgraphs) <= set(graph.subgraphs)
    assert all(len(graph.subgraphs[name]) > 0 for name in if_node.subgraphs)
    sess = openge.InferenceSession(model.SerializeToString())
    assert sess.run(None, {"cond": np.array(True)})[0].tolist() == [1.0, 1.0]
    assert sess.run(None, {"cond": np.array(False)})[0].tolist() == [-1.0, -1.0]


def test_profile_gives_a_trace_of_every_task_of_every_run(tmp_path, image):
    options = openge.SessionOptions()
    options.enable_profiling = True
    options.profile_file_prefix = str(tmp_path / "trace")
    before = time.time_ns()
    sess = openge.InferenceSession(str(SMALL_CNN), options)
    assert before <= sess.get_profiling_start_time_ns() <= time.time_ns()
    for _ in range(2):
        sess.run(None, {"image": image})
    events = sess.profile()["traceEvents"]
    runs = [e for e in events if e["name"] == "run"]
    tasks = [e for e in events if e["cat"] == "Node"]
    compiled_nodes = {n.name for n in sess.compiled_model.graph() if n.type == "Conv2D"}
    assert len(runs) == 2 and runs[0]["ts"] + runs[0]["dur"] <= runs[1]["ts"]
    assert compiled_nodes <= {e["name"] for e in tasks}
    assert all(e["ph"] == "X" and e["dur"] >= 0 and e["args"]["op_name"] for e in tasks)
    # Each task says the threads it ran on; the convolutions, which the cost model sizes, carry
    # its prediction of their time.
    assert all(e["args"]["threads"] >= 1 for e in tasks)
    convs = [e for e in tasks if e["name"] in compiled_nodes]
    assert convs and all(e["args"]["predicted_us"] > 0 for e in convs)
    assert all(runs[0]["ts"] <= e["ts"] for e in tasks)
    path = sess.end_profiling()
    assert path.startswith(str(tmp_path / "trace_")) and path.endswith(".json")
    with open(path, encoding="utf-8") as f:
        assert json.load(f)["traceEvents"] == events
    with pytest.raises(openge.Error, match="profiling is off"):
        sess.profile()


def test_memory_plan_of_a_session_adds_what_is_loaded(small_cnn_session):
    plan = small_cnn_session.memory_plan()
    loaded = plan["loaded"]
    assert loaded["arena_bytes"] >= plan["arena_bytes"]
    assert loaded["weight_bytes"] > 0 and loaded["streams"] == 1
    # Filters its kernels transformed at load (Winograd, on AVX-512), held beside the weights.
    assert loaded["loaded_weight_bytes"] >= 0


def test_a_file_is_identified_as_gec_identifies_it(tmp_path, image):
    """The module and gec open files through one ModelSource: ONNX under any name, a compiled
    model by its magic whatever its name, a GE graph dump by its extension."""
    want = openge.InferenceSession(str(SMALL_CNN)).run(None, {"image": image})[0]
    any_name = tmp_path / "model.bin"
    any_name.write_bytes(SMALL_CNN.read_bytes())
    got = openge.InferenceSession(str(any_name)).run(None, {"image": image})[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    misnamed = tmp_path / "compiled.onnx"
    openge.compile(str(SMALL_CNN)).save(str(misnamed))
    got = openge.InferenceSession(str(misnamed)).run(None, {"image": image})[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    dump = tmp_path / "graph.pbtxt"
    gec = os.environ["OPENGE_GEC"]
    subprocess.run([gec, "dump", str(SMALL_CNN), "--stage", "parsed", "--format", "pbtxt",
                    "-o", str(dump)], check=True, capture_output=True)
    got = openge.InferenceSession(str(dump)).run(None, {"image": image})[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(openge.ModelError, match="not a regular file"):
        openge.InferenceSession(str(tmp_path))


def test_gec_and_the_module_write_one_trace_format(tmp_path, image):
    options = openge.SessionOptions()
    options.enable_profiling = True
    sess = openge.InferenceSession(str(SMALL_CNN), options)
    sess.run(None, {"image": image})
    ours = sess.profile()["traceEvents"]
    trace = tmp_path / "gec_trace.json"
    subprocess.run([os.environ["OPENGE_GEC"], "run", str(SMALL_CNN), "--iterations", "1",
                    "--profile", str(trace)], check=True, capture_output=True)
    theirs = json.loads(trace.read_text())["traceEvents"]

    def shape(events):
        return [(e["name"], e["cat"], e["tid"], sorted(e.get("args", {}))) for e in events]
    assert shape(ours) == shape(theirs)
