// ONNX tensors and types to the IR: element types, TypeProto → GeTensorDesc (symbolic dims kept
// as an attribute), TensorProto → GeTensor (typed fields, raw data or external data files).
#pragma once

#include <string>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

/// The IR DataType of an ONNX TensorProto.DataType number; DT_UNDEFINED when it has none.
DataType FromOnnxDataType(int32_t onnx_type);

/// A desc from a value's type. Unknown rank → {-2}; symbolic dims → -1 and kAttrSymbolicDims.
/// Non-tensor types (sequence, map, optional) get DT_UNDEFINED with unknown rank.
GeTensorDesc DescFromType(const onnx::TypeProto& type);

/// Converts an initializer (or a Constant's value). `base_dir` resolves external data;
/// `where` names the tensor's user in messages ("initializer 'w'"). Sizes are checked against
/// the shape for every storage form.
Result<GeTensor> TensorFromProto(const onnx::TensorProto& tensor, const std::string& base_dir,
                                 const std::string& where);

}  // namespace ge::onnx_parser
