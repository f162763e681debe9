#!/usr/bin/python3
"""Generates the ONNX backend node test suite (model.onnx + test data sets per case).

Runs `python3 -m onnx.backend.test.cmd_tools generate-data -o OUT` with Debian's onnx 1.12, which
still uses the NumPy aliases (np.float, np.int, np.bool, np.object, np.str) that NumPy 1.24
removed; they are restored before the onnx test module is imported.
    /usr/bin/python3 tests/conformance/generate_onnx_suite.py --out build/onnx_conformance
Writes OUT/generate_status.txt: "ok" or the error.
"""
import argparse
import os
import runpy
import sys
import traceback


def restore_numpy_aliases():
    import numpy as np
    for alias, target in (("float", float), ("int", int), ("bool", bool), ("object", object),
                          ("str", str)):
        if alias not in np.__dict__:
            setattr(np, alias, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = os.path.join(args.out, "generate_status.txt")
    if os.path.exists(status):
        os.remove(status)
    try:
        restore_numpy_aliases()
        sys.argv = ["onnx.backend.test.cmd_tools", "generate-data", "-o", args.out]
        runpy.run_module("onnx.backend.test.cmd_tools", run_name="__main__", alter_sys=True)
        count = sum(1 for _, _, files in os.walk(args.out) if "model.onnx" in files)
        if count == 0:
            raise RuntimeError("no model.onnx was generated")
        print(f"generated {count} ONNX test models in {args.out}")
    except BaseException as e:  # SystemExit included: report through the status file
        if isinstance(e, SystemExit) and not e.code:
            pass
        else:
            traceback.print_exc()
            with open(status, "w") as f:
                f.write(f"generation failed: {type(e).__name__}: {e}\n")
            return 1
    with open(status, "w") as f:
        f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
