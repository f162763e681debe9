"""Runs release the GIL and share one session between threads; inputs are read from NumPy where
they lie, outputs own their memory."""
import gc
import sys
import threading
import time

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper

import openge
from conftest import SMALL_CNN, assert_close, small_cnn_torch, torch_reference


def test_two_threads_run_one_session_at_once_and_each_gets_its_own_answer():
    sess = openge.InferenceSession(str(SMALL_CNN), max_concurrent_runs=2)
    model = small_cnn_torch()
    rng = np.random.default_rng(9)
    images = [rng.standard_normal((1, 3, 64, 64), dtype=np.float32) for _ in range(2)]
    expected = [torch_reference(model, torch.from_numpy(x)) for x in images]
    errors = []
    barrier = threading.Barrier(2)

    def worker(k):
        try:
            barrier.wait()
            # 40 runs each, and on until the runs have overlapped (a busy machine may keep the
            # threads apart for a while), for at most 20 s.
            deadline = time.monotonic() + 20
            runs = 0
            while runs < 40 or (sess.memory_plan()["loaded"]["run_contexts"] < 2
                                and time.monotonic() < deadline):
                (out,) = sess.run(None, {"image": images[k]})
                assert_close(out, expected[k], f"thread {k}")
                runs += 1
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    # Both runs were in the model at once at least once: a second run context was made.
    assert sess.memory_plan()["loaded"]["run_contexts"] == 2


def _matmul_chain(size, links):
    """y = x·W·W·...: `links` products of size×size matrices, a run long enough to watch."""
    w = numpy_helper.from_array(
        np.random.default_rng(2).standard_normal((size, size), dtype=np.float32) / size, "w")
    nodes = [helper.make_node("MatMul", [f"t{i}", "w"], [f"t{i + 1}"]) for i in range(links)]
    graph = helper.make_graph(
        nodes, "chain", [helper.make_tensor_value_info("t0", TensorProto.FLOAT, [size, size])],
        [helper.make_tensor_value_info(f"t{links}", TensorProto.FLOAT, [size, size])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_python_keeps_running_while_a_model_runs():
    options = openge.SessionOptions()
    options.intra_op_num_threads = 1
    sess = openge.InferenceSession(_matmul_chain(1024, 4), options)
    feed = {"t0": np.ones((1024, 1024), np.float32)}
    sess.run(None, feed)  # warm
    in_run = [False]
    seen_in_run = [False]
    runs = [0]

    def run_until_seen():
        while not seen_in_run[0] and runs[0] < 20:
            in_run[0] = True
            sess.run(None, feed)
            in_run[0] = False
            runs[0] += 1

    # With forced switches out of the way, a thread gives the GIL up only where it chooses to. This
    # loop can then run at all only while the other thread is inside a run (which must let the GIL
    # go) or once that thread has ended: it sees `in_run` set if and only if a run released the
    # GIL, however busy the machine.
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(60)
    try:
        thread = threading.Thread(target=run_until_seen)
        thread.start()
        while thread.is_alive() and not seen_in_run[0]:
            seen_in_run[0] = in_run[0]
        thread.join()
    finally:
        sys.setswitchinterval(switch_interval)
    assert seen_in_run[0], f"Python ran only after the {runs[0]} runs had ended"


def test_contiguous_inputs_are_borrowed_and_others_copied(image):
    sess = openge.InferenceSession(str(SMALL_CNN))
    expected = sess.run(None, {"image": image})[0]
    assert sess.input_copies == 0
    transposed = np.ascontiguousarray(image.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2)
    assert not transposed.flags.c_contiguous
    np.testing.assert_array_equal(sess.run(None, {"image": transposed})[0], expected)
    assert sess.input_copies == 1
    np.testing.assert_array_equal(sess.run(None, {"image": image.tolist()})[0], expected)
    assert sess.input_copies == 2
    fortran = np.asfortranarray(image)
    np.testing.assert_array_equal(sess.run(None, {"image": fortran})[0], expected)
    assert sess.input_copies == 3
    sess.run(None, {"image": image})
    assert sess.input_copies == 3


def test_a_borrowed_input_is_not_written_and_is_let_go(image):
    sess = openge.InferenceSession(str(SMALL_CNN))
    before = image.copy()
    refs = len(gc.get_referrers(image))
    for _ in range(5):
        sess.run(None, {"image": image})
    np.testing.assert_array_equal(image, before)
    assert len(gc.get_referrers(image)) == refs


def test_outputs_own_their_memory(image):
    sess = openge.InferenceSession(str(SMALL_CNN))
    (first,) = sess.run(None, {"image": image})
    kept = first.copy()
    (second,) = sess.run(None, {"image": -image})
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(first, kept)  # a later run does not reuse an output's bytes
    assert first.flags.writeable and first.flags.c_contiguous
    first += 1  # and it may be written
    del sess
    gc.collect()
    np.testing.assert_array_equal(first, kept + 1)  # it outlives the session


def test_an_output_asked_for_twice_is_two_arrays(small_cnn_session, image):
    a, b = small_cnn_session.run(["logits", "logits"], {"image": image})
    np.testing.assert_array_equal(a, b)
    a[0, 0] += 1
    assert a[0, 0] != b[0, 0]


def test_a_session_is_planned_for_the_threads_it_runs_with(image):
    # The cost model's thread counts are for the session's threads, not the machine's cores,
    # unless a compile option says otherwise.
    results = []
    for threads, options_given in ((1, {}), (2, {}), (1, {"openge.scheduleThreads": "2"})):
        options = openge.SessionOptions()
        options.intra_op_num_threads = threads
        for key, value in options_given.items():
            options.add_session_config_entry(key, value)
        sess = openge.InferenceSession(str(SMALL_CNN), options)
        planned = int(options_given.get("openge.scheduleThreads", threads))
        assert sess.compiled_model.report["schedule"]["threads"] == planned
        results.append(sess.run(None, {"image": image})[0])
    assert_close(results[1], results[0], "two threads")
    assert_close(results[2], results[0], "planned for two, run on one")
