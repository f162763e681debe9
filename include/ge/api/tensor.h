// GE's user-facing tensor types: Shape, TensorDesc and Tensor, over the IR's GeShape,
// GeTensorDesc and GeTensor (TensorAdapter converts between them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/api/ascend_string.h"
#include "ge/api/ge_error_codes.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Dims of a tensor; -1 is an unknown dim and {-2} an unknown rank.
class GE_API Shape {
 public:
  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t GetDimNum() const;
  /// 0 when `idx` is out of range.
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  /// GRAPH_PARAM_INVALID when `idx` is out of range.
  graphStatus SetDim(size_t idx, int64_t value);
  std::vector<int64_t> GetDims() const { return dims_; }
  /// The element count; 0 for a shape of no dims, -1 when a dim is unknown.
  int64_t GetShapeSize() const;

 private:
  std::vector<int64_t> dims_;
};

/// Shape, format and data type of a tensor, with its origin shape and format.
class GE_API TensorDesc {
 public:
  TensorDesc() = default;
  /// The origin shape and format are `shape` and `format` too.
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);

  void Update(const Shape& shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);
  Shape GetShape() const;
  void SetShape(const Shape& shape);
  /// An unknown rank (shape {-2}).
  graphStatus SetUnknownDimNumShape();
  /// The range of each dim (min, max; max -1 for unbounded), for a shape with unknown dims.
  graphStatus SetShapeRange(const std::vector<std::pair<int64_t, int64_t>>& range);
  graphStatus GetShapeRange(std::vector<std::pair<int64_t, int64_t>>& range) const;

  Format GetFormat() const { return desc_.GetFormat(); }
  void SetFormat(Format format) { desc_.SetFormat(format); }
  Shape GetOriginShape() const;
  void SetOriginShape(const Shape& origin_shape);
  Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
  void SetOriginFormat(Format origin_format) { desc_.SetOriginFormat(origin_format); }
  DataType GetDataType() const { return desc_.GetDataType(); }
  void SetDataType(DataType dt);

  std::string GetName() const { return desc_.GetName(); }
  graphStatus GetName(AscendString& name) const;
  void SetName(const char* name) { desc_.SetName(name == nullptr ? "" : name); }
  void SetName(const std::string& name) { desc_.SetName(name); }

  void SetSize(int64_t size) { desc_.SetSize(size); }
  int64_t GetSize() const { return desc_.GetSize(); }
  int64_t GetRealDimCnt() const { return desc_.GetRealDimCnt(); }
  void SetRealDimCnt(int64_t real_dim_cnt) {
    desc_.SetRealDimCnt(static_cast<uint32_t>(real_dim_cnt));
  }

 private:
  friend class TensorAdapter;
  GeTensorDesc desc_;
};

/// A tensor: its desc and its bytes (row-major, of the desc's data type).
class GE_API Tensor {
 public:
  using DeleteFunc = std::function<void(uint8_t*)>;
  Tensor() = default;
  explicit Tensor(const TensorDesc& tensor_desc);
  Tensor(const TensorDesc& tensor_desc, const std::vector<uint8_t>& data);
  Tensor(const TensorDesc& tensor_desc, const uint8_t* data, size_t size);
  Tensor(TensorDesc&& tensor_desc, std::vector<uint8_t>&& data);

  TensorDesc GetTensorDesc() const;
  graphStatus SetTensorDesc(const TensorDesc& tensor_desc);

  const uint8_t* GetData() const { return tensor_.GetData().data(); }
  /// The bytes, for writing (copied first when they were shared).
  uint8_t* GetData() { return tensor_.MutableData(); }
  size_t GetSize() const { return tensor_.GetData().size(); }

  graphStatus SetData(std::vector<uint8_t>&& data);
  graphStatus SetData(const std::vector<uint8_t>& data);
  graphStatus SetData(const uint8_t* data, size_t size);
  /// A string tensor of one element (the desc becomes DT_STRING, shape {}), in GE's form: a
  /// StringHead (ge/graph/string_tensor.h), then the bytes and a NUL.
  graphStatus SetData(const char* data);
  graphStatus SetData(const std::string& data);
  /// A string tensor of these elements (the desc becomes DT_STRING; its shape stays when it
  /// holds as many elements, else it becomes {data.size()}), in GE's form.
  graphStatus SetData(const std::vector<std::string>& data);
  /// Bytes the caller owns; `deleter_func` frees them when the last copy of the tensor goes.
  graphStatus SetData(uint8_t* data, size_t size, const DeleteFunc& deleter_func);
  /// GRAPH_SUCCESS when the byte count is what the desc's shape and data type need.
  graphStatus IsValid() const;
  /// A copy that shares nothing with this tensor.
  Tensor Clone() const;

 private:
  friend class TensorAdapter;
  GeTensor tensor_;
};

/// Conversions between the API's tensor types and the IR's.
class GE_API TensorAdapter {
 public:
  static GeTensorDesc TensorDesc2GeTensorDesc(const TensorDesc& desc) { return desc.desc_; }
  static TensorDesc GeTensorDesc2TensorDesc(const GeTensorDesc& ge_desc);
  static GeShape Shape2GeShape(const Shape& shape) { return GeShape(shape.GetDims()); }
  static Shape GeShape2Shape(const GeShape& ge_shape) { return Shape(ge_shape.GetDims()); }
  /// The bytes are shared, not copied.
  static GeTensor AsGeTensor(const Tensor& tensor) { return tensor.tensor_; }
  static Tensor AsTensor(const GeTensor& ge_tensor);
  static Tensor AsTensor(GeTensor&& ge_tensor);
};

}  // namespace ge
