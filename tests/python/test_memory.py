"""A session holds a model's weights once: a model with dynamic axes, compiled per shape by the
shape plan cache, peaks where the same model compiled for its shape does."""
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import openge

_MEASURE = """
import sys
import numpy as np
import openge

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":")) / 1024

path, shapes = sys.argv[1], sys.argv[2] == "static"
base = status("VmRSS")
sess = openge.InferenceSession(path, input_shapes={"x": [1, 8, 2048]} if shapes else None)
(y,) = sess.run(None, {"x": np.ones((1, 8, 2048), np.float32)})
assert y.shape == (1, 8, 6144), y.shape
print(status("VmHWM") - base)
"""


def _net_peak_mib(path, mode):
    """MiB the process's peak resident set grew by while making a session and running it once."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path), mode], check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip())


def test_a_model_with_dynamic_axes_holds_its_weights_once(tmp_path):
    # 48 MiB of weights, copied out of the file (ONNX does not align them) and, where oneDNN
    # packs them, packed: the parsed copy must not stay beside the packed one.
    weight = np.random.default_rng(3).standard_normal((2048, 6144), dtype=np.float32) / 64
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "wide",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "seq", 2048])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "seq", 6144])],
        [numpy_helper.from_array(weight, "w")])
    path = tmp_path / "wide.onnx"
    path.write_bytes(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
                     .SerializeToString())
    static = _net_peak_mib(path, "static")
    dynamic = _net_peak_mib(path, "dynamic")
    assert static >= 40, f"the static session grew by {static:.0f} MiB only"
    assert dynamic < 1.3 * static, (f"with dynamic axes the session peaked {dynamic:.0f} MiB "
                                    f"above its start, compiled for the shape {static:.0f} MiB")


def test_the_model_compiled_for_any_shape_is_there_when_asked_for(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "relu.om"
    sess = openge.InferenceSession(model.SerializeToString(),
                                   openge.SessionOptions())
    assert sess.get_inputs()[0].shape == ["batch", 4]
    assert sess.get_outputs()[0].shape == ["batch", 4]
    (y,) = sess.run(None, {"x": -np.ones((3, 4), np.float32)})
    np.testing.assert_array_equal(y, np.zeros((3, 4), np.float32))
    assert sess.memory_plan()["loaded"]["run_contexts"] >= 1  # the plan that ran
    sess.compiled_model.save(path)
    assert openge.load_graph(path).op_types()["Relu"] == 1
    # The saved model runs every shape on its own.
    (z,) = openge.InferenceSession(str(path)).run(None, {"x": np.ones((2, 4), np.float32)})
    np.testing.assert_array_equal(z, np.ones((2, 4), np.float32))
