// ModelSource: what a model file is, decided once from its bytes and its name.
#include "ge/model/model_source.h"

#include <filesystem>
#include <utility>

#include "ge/model/compiled_model.h"
#include "ge/model/pipeline_model.h"

namespace ge {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// GE's graph files: binary ModelDef (.pb, .air as GE's aclgrphDumpGraph writes it, .ge) and text
// (.pbtxt, .txt, .prototxt).
bool IsGeGraphName(const std::string& path) {
  for (const char* ext : {".pb", ".air", ".ge", ".pbtxt", ".txt", ".prototxt"}) {
    if (EndsWith(path, ext)) return true;
  }
  return false;
}

}  // namespace

const char* ModelFormatName(ModelFormat format) {
  switch (format) {
    case ModelFormat::kOnnx:
      return "ONNX model";
    case ModelFormat::kGeGraph:
      return "GE graph";
    case ModelFormat::kCompiled:
      return "compiled model";
    case ModelFormat::kPipeline:
      return "pipeline";
  }
  return "model";
}

Result<ModelSource> ModelSource::FromFile(const std::string& path) {
  std::error_code ec;
  if (path.empty()) return ParamInvalid("no model file named");
  if (!std::filesystem::is_regular_file(path, ec)) {
    return ParamInvalid("model file '" + path + "' does not exist or is not a regular file");
  }
  ModelSource source;
  source.path_ = path;
  if (CompiledModel::IsCompiledModelFile(path)) {
    source.format_ =
        PipelineModel::IsPipelineFile(path) ? ModelFormat::kPipeline : ModelFormat::kCompiled;
  } else if (IsGeGraphName(path)) {
    source.format_ = ModelFormat::kGeGraph;
  } else {
    source.format_ = ModelFormat::kOnnx;
  }
  return source;
}

Result<ModelSource> ModelSource::FromBytes(std::string bytes, std::string name) {
  if (bytes.empty()) return ParamInvalid(name + ": the model bytes are empty");
  ModelSource source;
  source.name_ = std::move(name);
  if (CompiledModel::IsCompiledModelBytes(bytes)) {
    source.format_ =
        PipelineModel::IsPipelineBytes(bytes) ? ModelFormat::kPipeline : ModelFormat::kCompiled;
  }
  source.bytes_ = std::move(bytes);
  return source;
}

}  // namespace ge
