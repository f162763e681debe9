// The tensors the host kernels make, and the "cannot fold" status.
#include "host_tensor.h"

#include <cstring>
#include <limits>

namespace ge::folding {
namespace {

template <typename T>
std::vector<uint8_t> BytesOf(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    const T v = static_cast<T>(values[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

}  // namespace

Status CannotFold(std::string reason) { return {StatusCode::kNotChanged, std::move(reason)}; }
bool IsCannotFold(const Status& status) { return status.code() == StatusCode::kNotChanged; }

bool TouchesStrings(const OpDesc& op) {
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    if (op.GetInputDesc(static_cast<uint32_t>(i)).GetDataType() == DT_STRING) return true;
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    if (op.GetOutputDesc(static_cast<uint32_t>(i)).GetDataType() == DT_STRING) return true;
  }
  return false;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

const std::vector<int64_t>& DimsOf(const GeTensor& tensor) {
  return tensor.GetTensorDesc().GetShape().GetDims();
}

Result<const GeTensor*> Need(const std::vector<const GeTensor*>& inputs, size_t i) {
  if (i >= inputs.size() || inputs[i] == nullptr) {
    return CannotFold("input " + std::to_string(i) + " is not a constant");
  }
  return inputs[i];
}

GeTensor MakeTensorFromBytes(DataType dtype, const std::vector<int64_t>& dims,
                             std::vector<uint8_t> bytes) {
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(GeShape(dims));
  desc.SetOriginDataType(dtype);
  return {desc, std::move(bytes)};
}

Result<GeTensor> MakeTensorFromInts(DataType dtype, const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& values) {
  if (dtype == DT_INT64) return MakeTensorFromBytes(dtype, dims, BytesOf<int64_t>(values));
  if (dtype == DT_INT32) return MakeTensorFromBytes(dtype, dims, BytesOf<int32_t>(values));
  return CannotFold("a shape of dtype " + TypeUtils::DataTypeToSerialString(dtype) +
                    " (only int32 and int64 are folded)");
}

}  // namespace ge::folding
