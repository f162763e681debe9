#!/usr/bin/env python3
"""write_random_input.py MODEL.onnx OUT.npy SEED: writes standard-normal float32 values for the
model's first graph input (unknown dims taken as 1) and prints that input's name."""
import sys

import numpy
import onnx

graph = onnx.load(sys.argv[1]).graph
initializers = {i.name for i in graph.initializer}
x = [i for i in graph.input if i.name not in initializers][0]
dims = [d.dim_value or 1 for d in x.type.tensor_type.shape.dim]
rng = numpy.random.default_rng(int(sys.argv[3]))
numpy.save(sys.argv[2], rng.standard_normal(dims).astype(numpy.float32))
print(x.name)
