#!/usr/bin/python3
"""Two processes running one .om share one copy of its weights.

  om_sharing_test.py GEC MODELS_DIR

gec compiles the exported ResNet-18 (45 MB of weights) to a .om, and two `gec run` processes run
it at once. LoadedModel::Load maps the file read-only and uses the weights where they lie, so in each
process the file's pages are resident, clean and shared with the other (/proc/PID/smaps), and
neither holds a private copy of them.
"""
import os
import subprocess
import sys
import tempfile
import time
import unittest

GEC = ""
MODELS = ""


def mapping(pid, path):
    """The smaps fields of `path`'s mappings in process `pid`, summed (kB)."""
    fields = {}
    inside = False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if head and "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
                inside = len(head) >= 6 and head[5] == path
                continue
            if inside and head and head[0].endswith(":") and len(head) >= 2 and head[1].isdigit():
                fields[head[0][:-1]] = fields.get(head[0][:-1], 0) + int(head[1])
    return fields


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {key} in /proc/{pid}/status")


class OmSharing(unittest.TestCase):
    def test_two_processes_share_one_copy_of_the_weights(self):
        with tempfile.TemporaryDirectory() as work:
            om = os.path.join(work, "resnet18.om")
            model = os.path.join(MODELS, "resnet18_opset17", "model.onnx")
            # Direct convolutions only: a Winograd filter is transformed when the model loads and
            # its pages of the file let go, so how much of the .om stays resident would depend on
            # which convolutions this machine's timings give Winograd. This is about the weights
            # read where they lie.
            subprocess.run([GEC, "compile", model, "-o", om, "--option",
                            "openge.cpuConvAlgorithm=direct"],
                           check=True, capture_output=True, timeout=300)
            size_kb = os.path.getsize(om) // 1024
            self.assertGreater(size_kb, 40 * 1024)
            runs = [subprocess.Popen([GEC, "run", om, "--iterations", "1000000", "--warmup", "0",
                                      "--threads", "1"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                    for _ in range(2)]
            try:
                # Both have loaded and run when the file is resident in each, mapped by both. A
                # process that has faulted in only part of the file so far shares only that part:
                # wait for both (each run touches every weight), not for the first to be whole.
                deadline = time.monotonic() + 120

                def shared_kb(m):
                    return m.get("Shared_Clean", 0) + m.get("Shared_Dirty", 0)

                while True:
                    for run in runs:
                        if run.poll() is not None:
                            self.fail(f"gec run ended: {run.stderr.read().decode()}")
                    seen = [mapping(run.pid, om) for run in runs]
                    if all(m.get("Rss", 0) >= 0.9 * size_kb and shared_kb(m) >= 0.9 * size_kb
                           for m in seen):
                        break
                    self.assertLess(time.monotonic(), deadline,
                                    f"the .om never became resident and shared in both: {seen}")
                    time.sleep(0.2)
                for run, m in zip(runs, seen):
                    # The file's own pages (the page cache's, dirty while the new file is not yet
                    # written back), mapped by both processes: one copy in memory. None was
                    # copied on write into the process.
                    self.assertGreaterEqual(shared_kb(m), 0.9 * size_kb, m)
                    self.assertEqual(m.get("Anonymous", 0), 0, m)
                    self.assertEqual(m.get("Private_Dirty", 0), 0, m)
                    self.assertLessEqual(m["Pss"], 0.55 * m["Rss"], m)
                    # No private copy of the weights either: the process's anonymous memory is
                    # less than half of them (code, the graph, the arena and the kernels' scratch).
                    self.assertLess(status(run.pid, "RssAnon"), 0.5 * size_kb)
            finally:
                for run in runs:
                    run.kill()
                    run.wait()
                    run.stderr.close()


def main():
    global GEC, MODELS
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    GEC, MODELS = sys.argv[1:3]
    unittest.main(argv=[sys.argv[0], *sys.argv[3:]], verbosity=2)


if __name__ == "__main__":
    main()
