"""Fixtures of the Python module's tests: where the models are, and the torch models they came
from (rebuilt here with the exporter's seeds, so each test computes torch's outputs itself).

ctest runs these with PYTHONPATH=<build>/python, OPENGE_SOURCE_DIR and OPENGE_TEST_MODELS_DIR
(tests/CMakeLists.txt); a missing variable or model fails the test, never skips it.
"""
import importlib.util
import io
import os
import pathlib
import sys

import numpy as np
import pytest


def _env_dir(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set (run these tests through ctest)")
    return pathlib.Path(value)


SOURCE_DIR = _env_dir("OPENGE_SOURCE_DIR")
MODELS_DIR = _env_dir("OPENGE_TEST_MODELS_DIR")
SMALL_CNN = SOURCE_DIR / "models" / "small_cnn.onnx"


def _load_script(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


export_models = _load_script("export_models", SOURCE_DIR / "tests" / "models" / "export_models.py")
make_small_cnn = _load_script("make_small_cnn", SOURCE_DIR / "models" / "make_small_cnn.py")


def exported_model(name):
    """The exported test model `name` (opset 17): its .onnx path, and the torch model and input
    it was exported from, rebuilt with the same seed."""
    status = (MODELS_DIR / "export_status.txt").read_text().strip()
    assert status == "ok", f"the test models were not exported: {status}"
    gen = export_models.seeded(1234 + sum(map(ord, name)))
    model, example, _ = export_models.build(name, gen)
    model.eval()
    return MODELS_DIR / f"{name}_opset17" / "model.onnx", model, example


def torch_reference(model, example):
    """The model's exact output (float64, as float32): what a test compares our rounding to."""
    import torch
    with torch.no_grad():
        wide = example.double() if example.is_floating_point() else example
        return model.double()(wide).float().numpy()


def small_cnn_torch():
    """models/small_cnn.onnx's torch model with its weights (make_small_cnn.py's seed)."""
    import torch
    torch.manual_seed(7)
    model = make_small_cnn.SmallCnn()
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 1.5)
    return model.eval()


def onnx_bytes(model, example, input_name, output_name, dynamic_axes=None):
    """`model` exported to ONNX in memory."""
    import torch
    buffer = io.BytesIO()
    torch.onnx.export(model, (example,), buffer, input_names=[input_name],
                      output_names=[output_name], dynamic_axes=dynamic_axes, opset_version=17)
    return buffer.getvalue()


def assert_close(actual, expected, what, rel=2e-3):
    """Within `rel` of the largest expected magnitude: float32 rounding, not a wrong answer."""
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    scale = max(1.0, float(np.max(np.abs(expected))))
    error = float(np.max(np.abs(actual.astype(np.float64) - expected)))
    assert error <= rel * scale, f"{what}: max |error| {error:g} > {rel * scale:g}"


@pytest.fixture(scope="session")
def small_cnn_session():
    import openge
    return openge.InferenceSession(str(SMALL_CNN))


@pytest.fixture
def image():
    return np.random.default_rng(3).standard_normal((1, 3, 64, 64), dtype=np.float32)
