"""Code written for ONNX Runtime runs with openge by changing the import."""
import textwrap
import warnings

import numpy as np
import torch

import openge
from conftest import SMALL_CNN, assert_close, small_cnn_torch, torch_reference

# As one would write it for onnxruntime: the only change is the first line.
ORT_STYLE_SCRIPT = textwrap.dedent("""
    import openge as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    assert "CPUExecutionProvider" in ort.get_available_providers()
    session = ort.InferenceSession(MODEL_PATH, sess_options=options,
                                   providers=["CPUExecutionProvider"])
    input_meta = session.get_inputs()[0]
    output_name = session.get_outputs()[0].name
    batch = np.zeros([d if isinstance(d, int) else 1 for d in input_meta.shape], np.float32)
    batch[:] = IMAGE
    outputs = session.run([output_name], {input_meta.name: batch})
    all_outputs = session.run(None, {input_meta.name: batch}, ort.RunOptions())
    RESULT = (input_meta.name, input_meta.type, input_meta.shape, output_name, outputs[0],
              all_outputs[0], session.get_providers())
""")


def test_an_onnxruntime_script_runs_unchanged_but_the_import(image):
    scope = {"np": np, "MODEL_PATH": str(SMALL_CNN), "IMAGE": image}
    exec(compile(ORT_STYLE_SCRIPT, "ort_style_script", "exec"), scope)  # noqa: S102
    name, type_, shape, output_name, named, every, providers = scope["RESULT"]
    assert (name, type_, shape, output_name) == ("image", "tensor(float)", [1, 3, 64, 64], "logits")
    assert providers == ["CPUExecutionProvider"]
    expected = torch_reference(small_cnn_torch(), torch.from_numpy(image))
    assert_close(named, expected, "run([name])")
    np.testing.assert_array_equal(named, every)


def test_sessions_accept_paths_bytes_and_pathlike(image):
    expected = openge.InferenceSession(str(SMALL_CNN)).run(None, {"image": image})[0]
    for source in (SMALL_CNN, SMALL_CNN.read_bytes(), bytearray(SMALL_CNN.read_bytes()),
                   memoryview(SMALL_CNN.read_bytes())):
        (out,) = openge.InferenceSession(source).run(None, {"image": image})
        np.testing.assert_array_equal(out, expected, err_msg=type(source).__name__)


def test_other_providers_are_ignored_with_a_warning(image):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sess = openge.InferenceSession(str(SMALL_CNN),
                                       providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    assert any("CUDAExecutionProvider" in str(w.message) for w in caught)
    assert sess.get_providers() == ["CPUExecutionProvider"]
    assert sess.run(None, {"image": image})[0].shape == (1, 10)


def test_session_options_become_compile_options():
    options = openge.SessionOptions()
    assert options.compile_options() == {}
    options.graph_optimization_level = openge.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.execution_mode = openge.ExecutionMode.ORT_PARALLEL
    options.inter_op_num_threads = 3
    options.enable_mem_reuse = False
    options.add_session_config_entry("openge.memoryAlignment", "128")
    options.add_session_config_entry("session.disable_prepacking", "1")
    assert options.get_session_config_entry("session.disable_prepacking") == "1"
    assert options.compile_options() == {
        "openge.disablePasses": "Fusion", "ge.enableSingleStream": "false",
        "openge.maxStreamNum": "3", "ge.exec.disableReuseMemory": "true",
        "openge.memoryAlignment": "128"}
    try:
        options.intra_op_threads = 2  # a typo is an error, not a setting silently ignored
    except AttributeError:
        pass
    else:
        raise AssertionError("SessionOptions accepted an unknown attribute")


def test_parallel_execution_mode_gives_the_same_numbers_on_several_streams():
    from conftest import exported_model
    path, model, example = exported_model("densenet121")
    options = openge.SessionOptions()
    options.execution_mode = openge.ExecutionMode.ORT_PARALLEL
    options.inter_op_num_threads = 2
    # The cost model would keep the test model's small branches on one stream.
    options.add_session_config_entry("openge.costModel", "0")
    sess = openge.InferenceSession(str(path), options)
    assert sess.memory_plan()["loaded"]["streams"] == 2
    (out,) = sess.run(None, {"input": example.numpy()})
    assert_close(out, torch_reference(model, example), "densenet121 on two streams")


def test_optimized_model_filepath_saves_a_om_that_runs_without_compiling(tmp_path, image):
    options = openge.SessionOptions()
    options.optimized_model_filepath = str(tmp_path / "small_cnn.om")
    first = openge.InferenceSession(str(SMALL_CNN), options).run(None, {"image": image})[0]
    again = openge.InferenceSession(str(tmp_path / "small_cnn.om"))
    assert again.compiled_model.compile_millis == 0
    np.testing.assert_array_equal(again.run(None, {"image": image})[0], first)
