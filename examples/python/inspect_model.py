#!/usr/bin/python3
"""Compiles a model and shows what the compiler did: the passes that changed the graph, the op
types before and after, the memory plan, and where the nodes run. Saves the .om with -o.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/inspect_model.py models/small_cnn.onnx
"""
import argparse

import openge


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("-o", "--output", help="write the compiled model (.om) here")
    args = parser.parse_args()

    compiled = openge.compile(args.model)
    report = compiled.report
    print(f"graph '{report['graph']}': {report['nodes_parsed']} nodes parsed, "
          f"{report['nodes_compiled']} compiled in {compiled.compile_millis:.1f} ms")
    for stage in report["stages"]:
        for p in stage["passes"]:
            if p["rewrites"] or p["nodes_before"] != p["nodes_after"]:
                print(f"  {stage['name']}/{p['name']}: {p['nodes_before']} -> {p['nodes_after']} "
                      f"nodes, {p['rewrites']} rewrites")
    before, after = report["op_types_before"], report["op_types_after"]
    for op in sorted(set(before) | set(after)):
        if before.get(op, 0) != after.get(op, 0):
            print(f"  {op}: {before.get(op, 0)} -> {after.get(op, 0)}")
    plan = compiled.memory_plan()
    print(f"memory: arena {plan['arena_bytes']} bytes (lower bound {plan['lower_bound']}), "
          f"weights {plan['weight_bytes']} bytes, strategy {plan['strategy']}")
    engines = {}
    for node in compiled.graph():
        engines[node.engine] = engines.get(node.engine, 0) + 1
    print("engines: " + ", ".join(f"{e} {n}" for e, n in sorted(engines.items())))
    if args.output:
        compiled.save(args.output)
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
