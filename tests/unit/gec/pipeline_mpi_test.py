#!/usr/bin/python3
"""Pipeline stages across processes: gec compile --pipeline-stages, then mpirun -n N gec run
--pipeline on loopback.

  pipeline_mpi_test.py GEC MODELS_DIR MPIRUN [TestCase.test_name ...]

Each case is its own CTest test (tests/unit/gec/CMakeLists.txt). The outputs of a pipelined run
equal the single-process run of the same model (a CNN in two stages, a transformer in three);
a rank that fails stops every rank with a line naming it; a rank killed mid-run, or one that
stops answering, ends the job within a bounded time; a message shorter or longer than the
manifest says is the receiving rank's own error; the memory limit reaches every rank; a huge or
infinite --timeout waits without limit.
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np

GEC = ""
MODELS = ""
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe",
          # Containers often forbid the cross-process memory copy; shared memory works anyway.
          "--mca", "btl_vader_single_copy_mechanism", "none"]
RESNET = "resnet18_opset17"
BERT = "bert_encoder_opset17"


def run(args, timeout=300):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def rank_pid(mpirun_pid, rank, deadline):
    """The pid of the gec process of `rank` that the mpirun `mpirun_pid` started, found by its
    environment and its ancestry."""
    marker = b"OMPI_COMM_WORLD_RANK=%d" % rank
    while time.time() < deadline:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    env = f.read().split(b"\0")
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if marker not in env or GEC.encode() not in cmd:
                continue
            ancestor = int(pid)
            while ancestor > 1 and ancestor != mpirun_pid:
                ancestor = parent(ancestor)
            if ancestor == mpirun_pid:
                return int(pid)
        time.sleep(0.05)
    return None


class Pipeline(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="openge-pipeline-")

    def compile(self, model, stages, shape=None):
        suffix = "_" + shape.replace(":", "_").replace(",", "x") if shape else ""
        om = os.path.join(self.work, f"{model}_{stages}{suffix}.om")
        args = [GEC, "compile", os.path.join(MODELS, model, "model.onnx"), "-o", om,
                "--pipeline-stages", str(stages)]
        if shape:
            args += ["--input-shape", shape]
        code, out = run(args)
        self.assertEqual(code, 0, out)
        self.assertIn(f"{stages} stages", out)
        return om

    def whole(self, model, shape=None):
        """The outputs of the model run whole in one process, by output name."""
        out_dir = os.path.join(self.work, "whole")
        args = [GEC, "run", os.path.join(MODELS, model, "model.onnx"), "--iterations", "1",
                "--output-dir", out_dir]
        if shape:
            args += ["--input-shape", shape]
        code, out = run(args)
        self.assertEqual(code, 0, out)
        return out_dir

    def expect_same(self, want_dir, got_dir):
        names = sorted(os.listdir(want_dir))
        self.assertTrue(names)
        self.assertEqual(names, sorted(os.listdir(got_dir)))
        for name in names:
            want = np.load(os.path.join(want_dir, name))
            got = np.load(os.path.join(got_dir, name))
            self.assertEqual(want.shape, got.shape, name)
            scale = 1 + float(np.abs(want).max())
            self.assertLess(float(np.abs(want - got).max()), 1e-5 * scale, name)

    def pipelined(self, om, ranks, batches=3, extra=()):
        out_dir = os.path.join(self.work, f"pipelined_{ranks}")
        code, out = run(MPIRUN + ["-n", str(ranks), GEC, "run", om, "--pipeline", "--threads",
                                  "1", "--batches", str(batches), "--timeout", "60",
                                  "--output-dir", out_dir] + list(extra))
        self.assertEqual(code, 0, out)
        self.assertIn(f"pipeline: {batches} input(s) through {ranks} stages", out)
        for rank in range(ranks):
            self.assertIn(f"rank {rank} (stage {rank}): ran", out)
        return out_dir

    def test_a_cnn_in_two_stages_gives_the_single_process_outputs(self):
        om = self.compile(RESNET, 2)
        self.expect_same(self.whole(RESNET), self.pipelined(om, 2))

    def test_a_transformer_in_three_stages_gives_the_single_process_outputs(self):
        shape = "input_ids:2,16"
        om = self.compile(BERT, 3, shape)
        self.expect_same(self.whole(BERT, shape), self.pipelined(om, 3, batches=4))

    def test_a_rank_that_fails_stops_every_rank_naming_it(self):
        om = self.compile(RESNET, 2)
        bad = os.path.join(self.work, "bad.npy")
        np.save(bad, np.zeros((1, 10), dtype=np.float32))
        start = time.time()
        code, out = run(MPIRUN + ["-n", "2", GEC, "run", om, "--pipeline",
                                  "--input", f"input={bad}"], timeout=120)
        self.assertNotEqual(code, 0, out)
        self.assertLess(time.time() - start, 60)
        errors = [line for line in out.splitlines() if line.startswith("gec: error: ")]
        self.assertEqual(len(errors), 2, out)
        self.assertTrue(any(line.startswith("gec: error: pipeline rank 0 (stage 0): --input")
                            for line in errors), out)
        self.assertTrue(any("rank 1 (stage 1): stopped because rank 0 (stage 0)" in line
                            for line in errors), out)

    def test_the_rank_count_must_be_the_stage_count(self):
        om = self.compile(RESNET, 2)
        code, out = run(MPIRUN + ["-n", "3", GEC, "run", om, "--pipeline"], timeout=120)
        self.assertNotEqual(code, 0, out)
        self.assertIn("has 2 stages; run it with mpirun -n 2, not 3", out)

    def stop_a_rank(self, rank, sig):
        om = self.compile(RESNET, 2)
        start = time.time()
        # --log-level info: each rank says when every rank has loaded, so the signal lands
        # mid-run however long the loading takes on a busy machine.
        proc = subprocess.Popen(MPIRUN + ["-n", "2", GEC, "--log-level", "info", "run", om,
                                          "--pipeline", "--threads", "1", "--batches", "1000000",
                                          "--timeout", "3"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        running = threading.Event()

        def read():
            for line in proc.stdout:
                lines.append(line)
                if "every rank loaded its stage" in line:
                    running.set()

        reader = threading.Thread(target=read)
        reader.start()
        pid = rank_pid(proc.pid, rank, time.time() + 30)
        self.assertIsNotNone(pid, "the rank's process never appeared")
        if not running.wait(60):
            proc.kill()
            reader.join()
            self.fail("the ranks never said they were running:\n" + "".join(lines))
        time.sleep(0.5)  # a few inputs in
        os.kill(pid, sig)
        try:
            proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            reader.join()
            self.fail("the job did not end within 90 s:\n" + "".join(lines))
        reader.join()
        out = "".join(lines)
        self.assertNotEqual(proc.returncode, 0, out)
        self.assertLess(time.time() - start, 90)
        return out

    def test_a_killed_rank_ends_the_job(self):
        out = self.stop_a_rank(1, signal.SIGKILL)
        self.assertIn("rank 1", out)
        self.assertIn("gec: error: pipeline rank 0 (stage 0): stopped by mpirun", out)

    def test_a_rank_that_stops_answering_is_waited_for_a_bounded_time(self):
        out = self.stop_a_rank(0, signal.SIGSTOP)
        self.assertIn("gec: error: pipeline rank 1 (stage 1): waited 3 s for input", out)
        self.assertIn("from rank 0 (stage 0)", out)

    def test_a_huge_or_infinite_timeout_waits_without_limit(self):
        shape = "input_ids:2,16"
        om = self.compile(BERT, 2, shape)
        for timeout in ("1e300", "inf"):
            code, out = run(MPIRUN + ["-n", "2", GEC, "run", om, "--pipeline", "--threads", "1",
                                      "--batches", "2", "--timeout", timeout], timeout=120)
            self.assertEqual(code, 0, out)
            self.assertIn("pipeline: 2 input(s) through 2 stages", out)

    def test_a_message_shorter_or_longer_than_the_manifest_says_is_the_receivers_error(self):
        # Two pipelines of one model for different sequence lengths, their ranks mixed with
        # mpirun's colon syntax: rank 0 sends what its file says, rank 1 expects what its own
        # says (a rank of another build or a file replaced between ranks looks the same).
        short = self.compile(BERT, 2, "input_ids:2,16")
        long = self.compile(BERT, 2, "input_ids:2,32")
        for sender, receiver, sent, expected in ((short, long, 8192, 16384),
                                                 (long, short, 16384, 8192)):
            args = ["--pipeline", "--threads", "1", "--timeout", "60"]
            code, out = run(MPIRUN + ["-n", "1", GEC, "run", sender] + args +
                            [":", "-n", "1", GEC, "run", receiver] + args, timeout=120)
            self.assertNotEqual(code, 0, out)
            errors = [line for line in out.splitlines() if line.startswith("gec: error: ")]
            self.assertEqual(len(errors), 2, out)
            mine = [line for line in errors if line.startswith("gec: error: pipeline rank 1, ")]
            self.assertEqual(len(mine), 1, out)
            self.assertIn("input 0: stage 1 received '", mine[0])
            self.assertIn(f"from rank 0 (stage 0) as {sent} bytes; the manifest says DT_FLOAT "
                          f"[2,{expected // 512},64] ({expected} bytes)", mine[0])
            self.assertTrue(any("rank 0 (stage 0): stopped because rank 1, input 0" in line
                                for line in errors), out)
            self.assertNotIn("MPI_ERR", out)

    def test_the_memory_limit_reaches_every_rank(self):
        om = self.compile(RESNET, 2)
        code, out = run(MPIRUN + ["-n", "2", GEC, "run", om, "--pipeline", "--threads", "1",
                                  "--max-memory-mb", "1"], timeout=120)
        self.assertNotEqual(code, 0, out)
        errors = [line for line in out.splitlines() if line.startswith("gec: error: ")]
        self.assertEqual(len(errors), 2, out)
        # Rank 0's messages alone (an input set, its sends in flight) are over 1 MiB; rank 1's
        # leave too little for its stage's arena.
        self.assertTrue(any(line.startswith("gec: error: pipeline rank 0 (stage 0): its messages "
                                            "take ") and "over the memory limit of 1048576" in line
                            for line in errors), out)
        self.assertTrue(any(line.startswith("gec: error: pipeline rank 1 (stage 1), with ") and
                            "-byte memory limit left after its messages" in line and
                            "over the limit of" in line for line in errors), out)
        # With room for every rank, the same job runs.
        self.pipelined(om, 2, batches=1, extra=["--max-memory-mb", "256"])

    def test_pipeline_outside_mpirun_says_how_to_start_it(self):
        om = self.compile(RESNET, 2)
        code, out = run([GEC, "run", om, "--pipeline"])
        self.assertEqual(code, 1, out)
        self.assertIn("start it with mpirun -n STAGES", out)
        # Without --pipeline the stages run one after another in this process.
        code, out = run([GEC, "run", om, "--iterations", "1"])
        self.assertEqual(code, 0, out)
        self.assertIn("stages: 2, run one after another in this process", out)


if __name__ == "__main__":
    GEC, MODELS, MPIRUN[0] = sys.argv[1], sys.argv[2], sys.argv[3]
    unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
