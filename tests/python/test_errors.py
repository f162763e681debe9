"""Every failure is an openge.Error carrying one line that names the place and the cause."""
import numpy as np
import pytest

import openge
from conftest import SMALL_CNN


def test_the_exceptions_form_a_hierarchy():
    assert issubclass(openge.ModelError, openge.Error)
    assert issubclass(openge.InputError, openge.Error)
    assert issubclass(openge.InputError, ValueError)
    assert not issubclass(openge.ModelError, openge.InputError)


@pytest.mark.parametrize("feed, message", [
    ({"image": np.zeros((1, 3, 64, 64), np.float64)},
     r"input 'image': unexpected data type tensor\(double\), expected tensor\(float\)"),
    ({"image": np.zeros((1, 3, 64, 64), np.int32)},
     r"input 'image': unexpected data type tensor\(int32\)"),
    ({"image": np.zeros((1, 3, 32, 64), np.float32)}, r"input 'image' must be .*\[1,3,64,64\]"),
    ({"image": np.zeros((3, 64, 64), np.float32)}, r"input 'image' must be .*\[1,3,64,64\]"),
    ({}, r"input 'image' is not given"),
    ({"image": np.zeros((1, 3, 64, 64), np.float32), "mask": np.zeros(3, np.float32)},
     r"input 'mask' is not an input of this model; its inputs are: image"),
    ({"image": "a string"}, r"input 'image'"),
])
def test_a_bad_feed_is_an_input_error_naming_the_input(small_cnn_session, feed, message):
    with pytest.raises(openge.InputError, match=message) as error:
        small_cnn_session.run(None, feed)
    assert "\n" not in str(error.value)


def test_an_unknown_output_name_is_an_input_error_listing_the_outputs(small_cnn_session, image):
    with pytest.raises(openge.InputError, match="output 'probs' is not an output of this "
                                                "model; its outputs are: logits"):
        small_cnn_session.run(["probs"], {"image": image})


def test_a_feed_that_is_not_a_mapping_and_a_single_output_name_are_input_errors(
        small_cnn_session, image):
    with pytest.raises(openge.InputError, match="input_feed is a dict .* not a list"):
        small_cnn_session.run(None, [image])
    with pytest.raises(openge.InputError, match="output_names is a list of names"):
        small_cnn_session.run("logits", {"image": image})
    from types import MappingProxyType
    (out,) = small_cnn_session.run(("logits",), MappingProxyType({"image": image}))
    assert out.shape == (1, 10)


def test_a_session_survives_bad_runs(small_cnn_session, image):
    for _ in range(3):
        with pytest.raises(openge.InputError):
            small_cnn_session.run(None, {"image": image[:, :2]})
    assert small_cnn_session.run(None, {"image": image})[0].shape == (1, 10)


def test_a_truncated_model_is_a_model_error_naming_the_file(tmp_path):
    data = SMALL_CNN.read_bytes()
    path = tmp_path / "cut.onnx"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(openge.ModelError, match="cut.onnx") as error:
        openge.InferenceSession(str(path))
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("model, message", [
    (b"\x00\x01garbage", "<model bytes>: not an ONNX model"),
    (b"", "the model bytes are empty"),
    ("/nonexistent/model.onnx", "/nonexistent/model.onnx"),
    (42, "a model is a path .* not a int"),
])
def test_what_is_not_a_model_is_a_model_error(model, message):
    with pytest.raises(openge.ModelError, match=message):
        openge.InferenceSession(model)


def test_a_corrupt_compiled_model_is_a_model_error(tmp_path):
    compiled = openge.compile(str(SMALL_CNN)).serialize()
    path = tmp_path / "cut.om"
    path.write_bytes(compiled[: len(compiled) // 3])
    with pytest.raises(openge.ModelError, match="cut.om"):
        openge.InferenceSession(str(path))


def test_bad_compile_options_and_shapes_are_errors():
    with pytest.raises(openge.ModelError, match="ge.oo.constantFolding"):
        openge.compile(str(SMALL_CNN), options={"ge.oo.constantFoldin": "false"})
    with pytest.raises(openge.InputError, match=r"input_shapes\['image'\]"):
        openge.compile(str(SMALL_CNN), input_shapes={"image": "1x3x64x64"})
    with pytest.raises(openge.ModelError, match="image"):
        openge.compile(str(SMALL_CNN), input_shapes={"image": [1, 3, 65]})
    with pytest.raises(openge.ModelError, match="compiled already"):
        openge.InferenceSession(openge.compile(str(SMALL_CNN)), options={"a": "b"})


def test_a_memory_cap_below_the_model_is_a_model_error():
    with pytest.raises(openge.ModelError, match="memory"):
        openge.InferenceSession(str(SMALL_CNN), max_memory_bytes=1024)
