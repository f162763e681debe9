// Models given to the Python module: paths and bytes.
#include "model_source.h"

#include "errors.h"

namespace openge_py {

ge::ModelSource SourceOf(const py::object& model) {
  if (py::isinstance<py::bytes>(model) || py::isinstance<py::bytearray>(model) ||
      py::isinstance<py::memoryview>(model)) {
    // Copied out of the Python object, so the GIL can be let go while it is read.
    auto bytes = py::module_::import("builtins").attr("bytes")(model).cast<std::string>();
    return ValueOrThrow(ge::ModelSource::FromBytes(std::move(bytes)), ErrorKind::kModel);
  }
  std::string path;
  try {
    path = py::str(py::module_::import("os").attr("fspath")(model)).cast<std::string>();
  } catch (const py::error_already_set&) {
    throw BindingError(ErrorKind::kModel,
                       "a model is a path (str or os.PathLike) or the bytes of an .onnx or .om "
                       "file, not a " +
                           py::str(model.get_type().attr("__name__")).cast<std::string>());
  }
  return ValueOrThrow(ge::ModelSource::FromFile(path), ErrorKind::kModel);
}

}  // namespace openge_py
