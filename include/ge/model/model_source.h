// ModelSource: a model file (or the bytes of one) identified once, for every front end that
// opens models (gec, the Python module, InferenceSession). What a file is comes from its bytes
// where they say it (a compiled model's magic, a pipeline's manifest), else from its name: a GE
// graph dump by its extension, anything else ONNX, whose files carry no magic (ONNX Runtime
// loads an ONNX model under any name too).
#pragma once

#include <string>

#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

enum class ModelFormat {
  kOnnx,      ///< an ONNX ModelProto, compiled before it runs
  kGeGraph,   ///< a GE graph (ModelDef: binary .pb/.air/.ge, or text .pbtxt/.txt/.prototxt)
  kCompiled,  ///< a compiled model (.om)
  kPipeline,  ///< a compiled model cut into stages (a .om with a pipeline manifest)
};

/// "ONNX model", "GE graph", "compiled model", "pipeline": for messages.
GE_API const char* ModelFormatName(ModelFormat format);

class GE_API ModelSource {
 public:
  /// The file at `path`, which must be a regular file (not a directory, FIFO or device: a read
  /// of those may never end). Its first bytes are read to identify it; nothing else is.
  static Result<ModelSource> FromFile(const std::string& path);
  /// A whole model file held in memory: a compiled model or pipeline by its magic, else ONNX.
  /// `name` stands for the file in messages. Empty bytes are an error.
  static Result<ModelSource> FromBytes(std::string bytes, std::string name = "<model bytes>");

  ModelFormat format() const { return format_; }
  /// True for a graph to compile (ONNX or GE graph), false for a compiled model or pipeline.
  bool NeedsCompile() const {
    return format_ == ModelFormat::kOnnx || format_ == ModelFormat::kGeGraph;
  }
  /// The file's path; empty for bytes.
  const std::string& path() const { return path_; }
  /// The model's bytes; empty for a file.
  const std::string& bytes() const { return bytes_; }
  /// The path, or the name given with the bytes: what messages call the model.
  const std::string& name() const { return path_.empty() ? name_ : path_; }

 private:
  ModelFormat format_ = ModelFormat::kOnnx;
  std::string path_;
  std::string bytes_;
  std::string name_;
};

}  // namespace ge
