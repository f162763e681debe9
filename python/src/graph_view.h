// A graph as Python data, for looking at: what openge.load_graph returns.
#pragma once

#include <pybind11/pybind11.h>

#include "ge/graph/compute_graph.h"

namespace openge_py {

namespace py = pybind11;

/// {"name", "nodes": [...], "inputs": [...], "outputs": [...], "subgraphs": {name: graph}}.
/// Each node: name, type, engine, stream, inputs (port name, source "node:index", type, shape,
/// format), outputs (port name, type, shape, format, consumers), control_inputs, attributes
/// (Python values; a tensor is a read-only ndarray sharing the graph's bytes) and subgraphs.
py::dict GraphToDict(const ge::ComputeGraph& graph);

/// Reads `model` (a path, or the bytes of an .onnx or .om) into a graph: an ONNX model as parsed,
/// a compiled model's compiled graph, a GE graph dump as saved.
py::dict LoadGraph(const py::object& model);

}  // namespace openge_py
