// ONNX TensorProto files (the backend test suite's input_*.pb / output_*.pb) as GeTensors.
#pragma once

#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"

namespace gec {

/// Reads a serialized onnx.TensorProto as the ONNX parser reads an initializer (every element
/// type it knows). `name` receives the tensor's name (may be empty).
ge::Result<ge::GeTensor> ReadTensorProto(const std::string& path, std::string* name = nullptr);
/// A serialized ONNX value of `value_type` (a TensorProto for a tensor or "", a SequenceProto or
/// OptionalProto for a sequence or optional), as ge::ParseOnnxValue reads it.
ge::Result<ge::GeTensor> ReadValueProto(const std::string& path, const std::string& value_type,
                                        std::string* name = nullptr);

}  // namespace gec
