// Reads a serialized ONNX ModelProto, telling "not a protobuf" from "truncated" in its errors.
#pragma once

#include <string>

#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

/// Reads the whole file; an unreadable or missing file is an error naming the path.
Result<std::string> ReadFileBytes(const std::string& path);

/// Parses `bytes` (any size up to 2 GB) into `model`. `model_name` is used in messages.
Status ParseModelBytes(const std::string& bytes, const std::string& model_name,
                       onnx::ModelProto& model);

}  // namespace ge::onnx_parser
