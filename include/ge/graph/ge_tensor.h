// GeShape, GeTensorDesc and GeTensor: what a tensor looks like and, for weights, what it holds.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/fwd.h"
#include "ge/graph/status.h"
#include "ge/graph/types.h"
#include "ge/graph/visibility.h"

namespace ge {

/// Where a tensor lives (GE's DeviceType).
enum DeviceType : int32_t { NPU = 0, CPU = 1 };

/// A tensor shape. A dim of UNKNOWN_DIM (-1) is unknown; the shape {UNKNOWN_DIM_NUM} (-2) has
/// unknown rank. An empty shape is a scalar.
class GE_API GeShape {
 public:
  GeShape() = default;
  explicit GeShape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t GetDimNum() const;  ///< 0 for a scalar and for unknown rank
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  Status SetDim(size_t idx, int64_t value);
  const std::vector<int64_t>& GetDims() const { return dims_; }
  std::vector<int64_t>& MutableDims() { return dims_; }
  void SetDims(std::vector<int64_t> dims) { dims_ = std::move(dims); }
  /// GE's definition: 0 for a scalar, -1 when any dim is unknown (or on overflow), else the
  /// product.
  int64_t GetShapeSize() const;
  /// The number of elements: 1 for a scalar (what kernels need), -1 when unknown or on overflow.
  int64_t GetElementCount() const;
  bool IsScalar() const { return dims_.empty(); }
  bool IsUnknownDimNum() const;
  bool IsUnknownShape() const;  ///< any dim < 0
  void SetIsUnknownDimNum() { dims_ = {UNKNOWN_DIM_NUM}; }
  /// "[1,3,224,224]"; "[]" for a scalar; "[-2]" for unknown rank.
  std::string ToString() const;

  bool operator==(const GeShape& other) const { return dims_ == other.dims_; }
  bool operator!=(const GeShape& other) const { return !(*this == other); }

 private:
  std::vector<int64_t> dims_;
};

/// On a GeTensorDesc whose shape a model gave with named dims (ONNX dim_param): one string per
/// dim, the name of a dim known only at run time ("batch", "sequence") and "" for a known dim or
/// an unnamed unknown one. Dims that share a name are one size.
inline constexpr char kAttrSymbolicDims[] = "_symbolic_dims";

/// Describes a tensor: shape, format, dtype, their origins (before layout changes), the extended
/// metadata the compiler fills in, and free-form attributes. A value type: copies are deep.
class GE_API GeTensorDesc : public AttrHolder {
 public:
  GeTensorDesc() = default;
  explicit GeTensorDesc(GeShape shape, Format format = FORMAT_ND, DataType dtype = DT_FLOAT);

  const GeShape& GetShape() const { return shape_; }
  GeShape& MutableShape() { return shape_; }
  void SetShape(GeShape shape) { shape_ = std::move(shape); }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }
  DataType GetDataType() const { return dtype_; }
  void SetDataType(DataType dtype) { dtype_ = dtype; }

  const GeShape& GetOriginShape() const { return origin_shape_; }
  void SetOriginShape(GeShape shape) {
    origin_shape_ = std::move(shape);
    origin_shape_initialized_ = true;
  }
  bool IsOriginShapeInitialized() const { return origin_shape_initialized_; }
  Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(Format format) { origin_format_ = format; }
  DataType GetOriginDataType() const { return origin_dtype_; }
  void SetOriginDataType(DataType dtype) { origin_dtype_ = dtype; }

  const std::string& GetName() const { return name_; }
  void SetName(std::string name) { name_ = std::move(name); }

  // Extended metadata (TensorDescriptor fields 10–21 of ge_ir.proto).
  int64_t GetSize() const { return size_; }
  void SetSize(int64_t size) { size_ = size; }
  int64_t GetWeightSize() const { return weight_size_; }
  void SetWeightSize(int64_t size) { weight_size_ = size; }
  bool GetReuseInput() const { return reuse_input_; }
  void SetReuseInput(bool reuse) { reuse_input_ = reuse; }
  uint32_t GetReuseInputIndex() const { return reuse_input_index_; }
  void SetReuseInputIndex(uint32_t idx) { reuse_input_index_ = idx; }
  int64_t GetDataOffset() const { return data_offset_; }
  void SetDataOffset(int64_t offset) { data_offset_ = offset; }
  DeviceType GetDeviceType() const { return device_type_; }
  void SetDeviceType(DeviceType type) { device_type_ = type; }
  uint32_t GetRealDimCnt() const { return real_dim_cnt_; }
  void SetRealDimCnt(uint32_t cnt) { real_dim_cnt_ = cnt; }
  bool GetOutputTensor() const { return output_tensor_; }
  void SetOutputTensor(bool value) { output_tensor_ = value; }
  bool GetInputTensor() const { return input_tensor_; }
  void SetInputTensor(bool value) { input_tensor_ = value; }
  int64_t GetCmpsSize() const { return cmps_size_; }
  void SetCmpsSize(int64_t size) { cmps_size_ = size; }
  const std::string& GetCmpsTab() const { return cmps_tab_; }
  void SetCmpsTab(std::string tab) { cmps_tab_ = std::move(tab); }
  int64_t GetCmpsTabOffset() const { return cmps_tab_offset_; }
  void SetCmpsTabOffset(int64_t offset) { cmps_tab_offset_ = offset; }

  /// A desc is valid when its dtype and format are.
  bool IsValid() const;
  /// "float32[1,3,224,224] NCHW"-like summary for messages and dumps.
  std::string ToString() const;

  bool operator==(const GeTensorDesc& other) const;
  bool operator!=(const GeTensorDesc& other) const { return !(*this == other); }

 private:
  GeShape shape_;
  Format format_ = FORMAT_ND;
  DataType dtype_ = DT_FLOAT;
  GeShape origin_shape_;
  bool origin_shape_initialized_ = false;
  Format origin_format_ = FORMAT_ND;
  DataType origin_dtype_ = DT_UNDEFINED;
  std::string name_;
  int64_t size_ = 0;
  int64_t weight_size_ = 0;
  bool reuse_input_ = false;
  uint32_t reuse_input_index_ = 0;
  int64_t data_offset_ = 0;
  DeviceType device_type_ = NPU;
  uint32_t real_dim_cnt_ = 0;
  bool output_tensor_ = false;
  bool input_tensor_ = false;
  int64_t cmps_size_ = 0;
  std::string cmps_tab_;
  int64_t cmps_tab_offset_ = 0;
};

/// A tensor: a desc and its bytes. Copies share the bytes (like GE); Clone() copies them. Bytes are
/// either owned (copied or moved in) or shared with their owner (SetSharedData, zero-copy, e.g. an
/// mmap'ed weight file). MutableData() detaches shared bytes first, so writes never leak into
/// another tensor.
class GE_API GeTensor {
 public:
  GeTensor() = default;
  explicit GeTensor(GeTensorDesc desc) : desc_(std::move(desc)) {}
  GeTensor(GeTensorDesc desc, std::vector<uint8_t> data);
  GeTensor(GeTensorDesc desc, const uint8_t* data, size_t size);

  const GeTensorDesc& GetTensorDesc() const { return desc_; }
  GeTensorDesc& MutableTensorDesc() { return desc_; }
  void SetTensorDesc(GeTensorDesc desc) { desc_ = std::move(desc); }

  /// The bytes, aligned for the kernels (deferred bytes are copied first: SetDeferredData).
  std::span<const uint8_t> GetData() const {
    if (deferred_ != nullptr) return DeferredCopy();
    return {data_.get(), size_};
  }
  /// The bytes where they lie: GetData's, or for deferred bytes their place in the file,
  /// unaligned and not copied, for readers that take any alignment (a reorder packing a weight).
  std::span<const uint8_t> GetStoredData() const;
  size_t GetSize() const { return size_; }
  /// Writable bytes; copies them first when they are shared.
  uint8_t* MutableData();
  void SetData(std::vector<uint8_t> data);
  void SetData(const uint8_t* data, size_t size);
  /// Shares `data` (kept alive by the shared_ptr) without copying. `file_mapped`: the bytes lie
  /// in a read-only mapping of a file (IsFileMapped).
  void SetSharedData(std::shared_ptr<const uint8_t> data, size_t size, bool file_mapped = false);
  /// Defers copying `size` bytes that lie unaligned in a read-only file mapping (`view`, whose
  /// pointer keeps the mapping alive, and whose deleter may release its pages): GetData copies
  /// them into aligned memory the first time it is called, once for this tensor and its copies;
  /// GetStoredData reads them where they lie. A weight that is only ever packed into another
  /// layout is thus read once from the file and never copied. FileSource() is unset: set it
  /// after (SetFileSource).
  void SetDeferredData(std::shared_ptr<const uint8_t> view, size_t size);
  /// Whether the bytes are deferred (SetDeferredData) and not replaced since.
  bool IsDeferred() const { return deferred_ != nullptr; }
  void ClearData();
  GeTensor Clone() const;
  /// How many tensors share these bytes (0 without bytes): 1 when this one alone holds them.
  long DataHolders() const {
    return deferred_ != nullptr ? deferred_.use_count() : data_.use_count();
  }
  /// The bytes as shared with every tensor that holds them (null without bytes); deferred bytes
  /// are copied first.
  const std::shared_ptr<const uint8_t>& SharedData() const;
  /// The bytes lie in a read-only, private mapping of a file that nothing writes: their pages
  /// may leave the resident set whoever else reads them (ReleaseMappedPages), since a later
  /// read faults the same bytes back in from the file.
  bool IsFileMapped() const { return file_mapped_; }
  /// For bytes that are a private copy of bytes in such a mapping: those bytes (the pointer keeps
  /// the mapping alive), else null. A holder may drop the copy and make it again from there, as
  /// a shape plan cache does between the plans it compiles. New bytes and writes clear it.
  const std::shared_ptr<const uint8_t>& FileSource() const { return file_source_; }
  void SetFileSource(std::shared_ptr<const uint8_t> in_file) { file_source_ = std::move(in_file); }

  /// Same desc and same bytes (not the same buffer).
  bool operator==(const GeTensor& other) const;
  bool operator!=(const GeTensor& other) const { return !(*this == other); }

 private:
  GeTensorDesc desc_;
  std::shared_ptr<const uint8_t> data_;
  size_t size_ = 0;
  bool owned_ = false;  // true when data_ was allocated by this tensor (or a copy of it)
  bool file_mapped_ = false;
  std::shared_ptr<const uint8_t> file_source_;
  struct Deferred;  // bytes in a file and, once asked for, their aligned copy
  std::shared_ptr<Deferred> deferred_;
  std::span<const uint8_t> DeferredCopy() const;
};

}  // namespace ge
