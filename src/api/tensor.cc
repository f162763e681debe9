// Shape, TensorDesc and Tensor over the IR's GeShape, GeTensorDesc and GeTensor.
#include "ge/api/tensor.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/attr_value.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/types.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge {
namespace {

// The shape range a desc carries for its unknown dims, as GE's "shape_range" attribute.
constexpr char kAttrShapeRange[] = "shape_range";

}  // namespace

size_t Shape::GetDimNum() const { return GeShape(dims_).GetDimNum(); }

graphStatus Shape::SetDim(size_t idx, int64_t value) {
  if (idx >= dims_.size()) {
    return ReportStatus(ParamInvalid("Shape::SetDim: dim " + std::to_string(idx) +
                                     " is out of range for a shape of " +
                                     std::to_string(dims_.size()) + " dims"));
  }
  dims_[idx] = value;
  return GRAPH_SUCCESS;
}

int64_t Shape::GetShapeSize() const { return GeShape(dims_).GetShapeSize(); }

TensorDesc::TensorDesc(Shape shape, Format format, DataType dt)
    : desc_(GeShape(shape.GetDims()), format, dt) {
  desc_.SetOriginShape(GeShape(shape.GetDims()));
  desc_.SetOriginFormat(format);
  desc_.SetOriginDataType(dt);
}

void TensorDesc::Update(const Shape& shape, Format format, DataType dt) {
  desc_.SetShape(GeShape(shape.GetDims()));
  desc_.SetFormat(format);
  desc_.SetDataType(dt);
}

Shape TensorDesc::GetShape() const { return Shape(desc_.GetShape().GetDims()); }

void TensorDesc::SetShape(const Shape& shape) { desc_.SetShape(GeShape(shape.GetDims())); }

graphStatus TensorDesc::SetUnknownDimNumShape() {
  desc_.SetShape(GeShape({-2}));
  return GRAPH_SUCCESS;
}

graphStatus TensorDesc::SetShapeRange(const std::vector<std::pair<int64_t, int64_t>>& range) {
  std::vector<std::vector<int64_t>> pairs;
  pairs.reserve(range.size());
  for (const auto& [lo, hi] : range) {
    if (lo < 0 || (hi != -1 && hi < lo)) {
      return ReportStatus(ParamInvalid("TensorDesc::SetShapeRange: [" + std::to_string(lo) + ", " +
                                       std::to_string(hi) +
                                       "] is not a range (min >= 0, max >= min or -1)"));
    }
    pairs.push_back({lo, hi});
  }
  desc_.MutableAttrMap().Set(kAttrShapeRange, AttrValue(std::move(pairs)));
  return GRAPH_SUCCESS;
}

graphStatus TensorDesc::GetShapeRange(std::vector<std::pair<int64_t, int64_t>>& range) const {
  range.clear();
  const AttrValue* value = desc_.GetAttrMap().Get(kAttrShapeRange);
  if (value == nullptr) return GRAPH_SUCCESS;
  const auto* pairs = value->Get<std::vector<std::vector<int64_t>>>();
  if (pairs == nullptr) {
    return ReportStatus(ParamInvalid("TensorDesc::GetShapeRange: attribute shape_range is a " +
                                     std::string(AttrValue::TypeName(value->GetType())) +
                                     ", not a list of (min, max) pairs"));
  }
  for (const auto& p : *pairs) {
    if (p.size() != 2) {
      return ReportStatus(ParamInvalid("TensorDesc::GetShapeRange: a range of " +
                                       std::to_string(p.size()) + " values, not 2"));
    }
    range.emplace_back(p[0], p[1]);
  }
  return GRAPH_SUCCESS;
}

Shape TensorDesc::GetOriginShape() const { return Shape(desc_.GetOriginShape().GetDims()); }

void TensorDesc::SetOriginShape(const Shape& origin_shape) {
  desc_.SetOriginShape(GeShape(origin_shape.GetDims()));
}

void TensorDesc::SetDataType(DataType dt) {
  desc_.SetDataType(dt);
  desc_.SetOriginDataType(dt);
}

graphStatus TensorDesc::GetName(AscendString& name) const {
  name = AscendString(desc_.GetName().c_str());
  return GRAPH_SUCCESS;
}

Tensor::Tensor(const TensorDesc& tensor_desc)
    : tensor_(TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc)) {}

Tensor::Tensor(const TensorDesc& tensor_desc, const std::vector<uint8_t>& data)
    : tensor_(TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc), data) {}

Tensor::Tensor(const TensorDesc& tensor_desc, const uint8_t* data, size_t size)
    : tensor_(TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc), data, size) {}

Tensor::Tensor(TensorDesc&& tensor_desc, std::vector<uint8_t>&& data)
    : tensor_(TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc), std::move(data)) {}

TensorDesc Tensor::GetTensorDesc() const {
  return TensorAdapter::GeTensorDesc2TensorDesc(tensor_.GetTensorDesc());
}

graphStatus Tensor::SetTensorDesc(const TensorDesc& tensor_desc) {
  tensor_.MutableTensorDesc() = TensorAdapter::TensorDesc2GeTensorDesc(tensor_desc);
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(std::vector<uint8_t>&& data) {
  tensor_.SetData(std::move(data));
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(const std::vector<uint8_t>& data) {
  tensor_.SetData(data.data(), data.size());
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(const uint8_t* data, size_t size) {
  if (data == nullptr && size != 0) {
    return ReportStatus(
        ParamInvalid("Tensor::SetData: null data of " + std::to_string(size) + " bytes"));
  }
  tensor_.SetData(data, size);
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(const char* data) {
  if (data == nullptr) return ReportStatus(ParamInvalid("Tensor::SetData: a null string"));
  return SetData(std::string(data));
}

graphStatus Tensor::SetData(const std::string& data) {
  GeTensorDesc& desc = tensor_.MutableTensorDesc();
  desc.SetDataType(DT_STRING);
  desc.SetShape(GeShape());
  tensor_.SetData(EncodeStrings({data}));
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(const std::vector<std::string>& data) {
  GeTensorDesc& desc = tensor_.MutableTensorDesc();
  desc.SetDataType(DT_STRING);
  const GeShape& shape = desc.GetShape();
  if (shape.IsUnknownShape() || shape.IsUnknownDimNum() ||
      shape.GetShapeSize() != static_cast<int64_t>(data.size())) {
    desc.SetShape(GeShape({static_cast<int64_t>(data.size())}));
  }
  const std::vector<std::string_view> views(data.begin(), data.end());
  tensor_.SetData(EncodeStrings(views));
  return GRAPH_SUCCESS;
}

graphStatus Tensor::SetData(uint8_t* data, size_t size, const DeleteFunc& deleter_func) {
  if (data == nullptr && size != 0) {
    return ReportStatus(
        ParamInvalid("Tensor::SetData: null data of " + std::to_string(size) + " bytes"));
  }
  DeleteFunc deleter = deleter_func;
  std::shared_ptr<const uint8_t> owned(data, [deleter](const uint8_t* p) {
    if (deleter) deleter(const_cast<uint8_t*>(p));
  });
  tensor_.SetSharedData(std::move(owned), size);
  return GRAPH_SUCCESS;
}

graphStatus Tensor::IsValid() const {
  const GeTensorDesc& desc = tensor_.GetTensorDesc();
  if (desc.GetDataType() == DT_STRING) {
    Result<std::vector<std::string_view>> strings = StringsOf(tensor_, "string tensor");
    return strings.ok() ? GRAPH_SUCCESS : ReportStatus(strings.status());
  }
  const int64_t expected = TensorUtils::CalcTensorMemSize(desc);
  if (expected < 0) {
    return ReportStatus(
        ParamInvalid("tensor of shape " + desc.GetShape().ToString() + " has no fixed size"));
  }
  if (static_cast<uint64_t>(expected) != GetSize()) {
    return ReportStatus(
        ParamInvalid("tensor of shape " + desc.GetShape().ToString() + " and type " +
                     TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " needs " +
                     std::to_string(expected) + " bytes but holds " + std::to_string(GetSize())));
  }
  return GRAPH_SUCCESS;
}

Tensor Tensor::Clone() const {
  Tensor copy;
  copy.tensor_ = GeTensor(tensor_.GetTensorDesc(), tensor_.GetData().data(), GetSize());
  return copy;
}

TensorDesc TensorAdapter::GeTensorDesc2TensorDesc(const GeTensorDesc& ge_desc) {
  TensorDesc desc;
  desc.desc_ = ge_desc;
  return desc;
}

Tensor TensorAdapter::AsTensor(const GeTensor& ge_tensor) {
  Tensor tensor;
  tensor.tensor_ = ge_tensor;
  return tensor;
}

Tensor TensorAdapter::AsTensor(GeTensor&& ge_tensor) {
  Tensor tensor;
  tensor.tensor_ = std::move(ge_tensor);
  return tensor;
}

}  // namespace ge
