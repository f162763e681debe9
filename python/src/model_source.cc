// Models given to the Python module: paths and bytes.
#include "model_source.h"

#include "errors.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/model/compiled_model.h"

namespace openge_py {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

ModelSource SourceOf(const py::object& model) {
  ModelSource source;
  if (py::isinstance<py::bytes>(model) || py::isinstance<py::bytearray>(model) ||
      py::isinstance<py::memoryview>(model)) {
    source.bytes = py::module_::import("builtins").attr("bytes")(model).cast<std::string>();
    if (source.bytes.empty()) throw BindingError(ErrorKind::kModel, "the model bytes are empty");
    return source;
  }
  try {
    source.path = py::str(py::module_::import("os").attr("fspath")(model)).cast<std::string>();
  } catch (const py::error_already_set&) {
    throw BindingError(ErrorKind::kModel,
                       "a model is a path (str or os.PathLike) or the bytes of an .onnx or .om "
                       "file, not a " +
                           py::str(model.get_type().attr("__name__")).cast<std::string>());
  }
  return source;
}

ge::Result<ge::ComputeGraphPtr> ParseGraph(const ModelSource& source,
                                           const ge::OnnxParseOptions& parse) {
  if (!source.path.empty()) {
    for (const char* dump : {".pb", ".pbtxt", ".txt", ".prototxt"}) {
      if (EndsWith(source.path, dump)) return ge::ModelSerialize::LoadFromFile(source.path);
    }
    return ge::ParseOnnxFile(source.path, parse);
  }
  return ge::ParseOnnxBytes(source.bytes, ".", "<model bytes>", parse);
}

bool IsCompiled(const ModelSource& source) {
  return source.path.empty() ? ge::CompiledModel::IsCompiledModelBytes(source.bytes)
                             : ge::CompiledModel::IsCompiledModelFile(source.path);
}

}  // namespace openge_py
