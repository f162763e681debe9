// ONNX TensorProto files (the backend test suite's input_*.pb / output_*.pb) as GeTensors.
#pragma once

#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"

namespace gec {

/// Reads a serialized onnx.TensorProto as the ONNX parser reads an initializer (every element
/// type it knows). `name` receives the tensor's name (may be empty).
ge::Result<ge::GeTensor> ReadTensorProto(const std::string& path, std::string* name = nullptr);

}  // namespace gec
