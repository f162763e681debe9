// Models given to the Python module: a path (str or os.PathLike), or the bytes of a file.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/parser/onnx_parser.h"

namespace openge_py {

namespace py = pybind11;

struct ModelSource {
  std::string path;   ///< empty for bytes
  std::string bytes;  ///< copied out of the Python object, so the GIL can be let go
};

/// A path or bytes (bytes, bytearray, memoryview) from `model`; anything else is a ModelError.
ModelSource SourceOf(const py::object& model);

/// True when the source is a compiled model (.om), whatever its name.
bool IsCompiled(const ModelSource& source);

/// The graph of an ONNX model (a path or bytes) or of a GE graph dump (.pb/.pbtxt/.txt/.prototxt).
ge::Result<ge::ComputeGraphPtr> ParseGraph(const ModelSource& source,
                                           const ge::OnnxParseOptions& parse);

}  // namespace openge_py
