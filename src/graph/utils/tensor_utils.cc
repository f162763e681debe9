// TensorUtils: tensor byte sizes by GE's rules.
#include "ge/graph/utils/tensor_utils.h"

#include <limits>

namespace ge {

int64_t TensorUtils::CalcTensorMemSize(const GeShape& shape, DataType dtype) {
  if (shape.IsUnknownDimNum()) return -1;
  for (int64_t dim : shape.GetDims()) {
    if (dim < 0) return -1;
  }
  const int64_t elements = shape.GetElementCount();
  if (elements < 0) return -1;
  if (elements == 0) return 0;
  return TypeUtils::GetSizeInBytes(elements, dtype);
}

int64_t TensorUtils::AlignUp(int64_t size, int64_t alignment) {
  if (size < 0 || alignment <= 0) return -1;
  if (size > std::numeric_limits<int64_t>::max() - (alignment - 1)) return -1;
  return (size + (alignment - 1)) / alignment * alignment;
}

namespace {
Result<int64_t> KnownSize(const GeTensorDesc& desc) {
  const int64_t size = TensorUtils::CalcTensorMemSize(desc);
  if (size < 0) {
    return ParamInvalid("cannot size tensor " + desc.ToString() +
                        ": its shape is unknown or its dtype has no size");
  }
  return size;
}
constexpr int64_t kBlock = 32;
constexpr int64_t kMaxPadded = std::numeric_limits<int64_t>::max() - 4 * kBlock;
}  // namespace

Result<int64_t> TensorUtils::GetTensorMemorySizeInBytes(const GeTensorDesc& desc) {
  GE_ASSIGN_OR_RETURN(int64_t size, KnownSize(desc));
  if (size > kMaxPadded) return ParamInvalid("tensor " + desc.ToString() + " is too large");
  return (size + kBlock * 2 - 1) / kBlock * kBlock;
}

Result<int64_t> TensorUtils::GetTensorSizeInBytesWithAutoPadding(const GeTensorDesc& desc,
                                                                 int64_t pad) {
  GE_ASSIGN_OR_RETURN(int64_t size, KnownSize(desc));
  if (pad < 0 || pad > kBlock * 64 || size > kMaxPadded - pad) {
    return ParamInvalid("tensor " + desc.ToString() + ": bad padding or too large");
  }
  const int64_t padded = (size + kBlock + pad - 1) / kBlock * kBlock;
  return padded == 0 ? kBlock : padded;
}

}  // namespace ge
