// Models given to the Python module: a path (str or os.PathLike), or the bytes of a file.
#pragma once

#include <pybind11/pybind11.h>

#include "ge/model/model_source.h"

namespace openge_py {

namespace py = pybind11;

/// The model in `model`: a path, or bytes (bytes, bytearray, memoryview), identified by
/// ge::ModelSource; anything else, or a file that cannot be read, is a ModelError.
ge::ModelSource SourceOf(const py::object& model);

}  // namespace openge_py
