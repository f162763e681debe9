"""examples/python/ and bench/python/ run as their docstrings say."""
import os
import re
import subprocess
import sys

import numpy as np

import openge
from conftest import MODELS_DIR, SMALL_CNN, SOURCE_DIR, _load_script

EXAMPLES = SOURCE_DIR / "examples" / "python"


def _run(script, *args):
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_run_model_prints_the_outputs_of_a_session_on_the_same_inputs():
    run_model = _load_script("run_model", EXAMPLES / "run_model.py")
    for model, dim in ((SMALL_CNN, 1), (MODELS_DIR / "bert_encoder_opset17" / "model.onnx", 3)):
        printed = _run("run_model.py", model, "--seed", 4, "--dim", dim).splitlines()
        sess = openge.InferenceSession(str(model))
        outputs = sess.run(None, run_model.random_feed(sess, np.random.default_rng(4), dim))
        assert len(printed) == len(outputs)
        for line, arg, value in zip(printed, sess.get_outputs(), outputs):
            match = re.fullmatch(r"(\S+): (\w+)\[([\d, ]+)\] (.*)", line)
            assert match, line
            assert match[1] == arg.name and match[2] == str(value.dtype)
            assert [int(d) for d in match[3].split(",")] == list(value.shape)
            np.testing.assert_allclose([float(v) for v in match[4].split()], value.ravel()[:5],
                                       rtol=1e-5)


def test_inspect_model_shows_the_fusions_and_writes_a_om_that_runs(tmp_path, image):
    om = tmp_path / "small_cnn.om"
    printed = _run("inspect_model.py", SMALL_CNN, "-o", om)
    fusion = re.search(r"optimize/Fusion: (\d+) -> (\d+) nodes, [1-9]\d* rewrites", printed)
    assert fusion and int(fusion[2]) < int(fusion[1]), printed
    assert "Clip: 5 -> 0" in printed and f"wrote {om}" in printed
    plan = openge.compile(str(SMALL_CNN)).memory_plan()
    assert f"arena {plan['arena_bytes']} bytes" in printed
    expected = openge.InferenceSession(str(SMALL_CNN)).run(None, {"image": image})[0]
    np.testing.assert_array_equal(openge.InferenceSession(str(om)).run(None, {"image": image})[0],
                                  expected)


def test_the_call_overhead_benchmark_runs_and_checks_its_model():
    gec = os.environ["OPENGE_GEC"]
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "bench" / "python" / "call_overhead.py"),
                           "--gec", gec, "--iterations", "20", "--rounds", "1"],
                          capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.search(r"overhead per run: -?[\d.]+ us \(Python / C\+\+ = [\d.]+x\)", done.stdout)
