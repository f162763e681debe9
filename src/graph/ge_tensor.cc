// GeShape, GeTensorDesc and GeTensor.
#include "ge/graph/ge_tensor.h"

#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>

#include "ge/graph/file_bytes.h"

namespace ge {

// ---- GeShape ----

size_t GeShape::GetDimNum() const { return IsUnknownDimNum() ? 0 : dims_.size(); }

Status GeShape::SetDim(size_t idx, int64_t value) {
  if (idx >= dims_.size()) {
    return ParamInvalid("dim index " + std::to_string(idx) + " is out of range for shape " +
                        ToString());
  }
  dims_[idx] = value;
  return Status::Ok();
}

bool GeShape::IsUnknownDimNum() const { return dims_.size() == 1 && dims_[0] == UNKNOWN_DIM_NUM; }

bool GeShape::IsUnknownShape() const {
  for (int64_t dim : dims_) {
    if (dim < 0) return true;
  }
  return false;
}

int64_t GeShape::GetElementCount() const {
  for (int64_t dim : dims_) {
    if (dim < 0) return -1;  // unknown wins over a zero dim, whatever the order
  }
  int64_t count = 1;
  for (int64_t dim : dims_) {
    if (dim == 0) return 0;
    if (count > std::numeric_limits<int64_t>::max() / dim) return -1;
    count *= dim;
  }
  return count;
}

int64_t GeShape::GetShapeSize() const {
  if (dims_.empty()) return 0;
  return GetElementCount();
}

std::string GeShape::ToString() const {
  std::string out = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i != 0) out += ",";
    out += std::to_string(dims_[i]);
  }
  return out + "]";
}

// ---- GeTensorDesc ----

GeTensorDesc::GeTensorDesc(GeShape shape, Format format, DataType dtype)
    : shape_(std::move(shape)),
      format_(format),
      dtype_(dtype),
      origin_format_(format),
      origin_dtype_(dtype) {}

bool GeTensorDesc::IsValid() const {
  return dtype_ != DT_UNDEFINED && TypeUtils::IsValidDataType(dtype_) &&
         TypeUtils::IsValidFormat(format_);
}

std::string GeTensorDesc::ToString() const {
  return TypeUtils::DataTypeToSerialString(dtype_) + shape_.ToString() + " " +
         TypeUtils::FormatToSerialString(format_);
}

bool GeTensorDesc::operator==(const GeTensorDesc& other) const {
  return shape_ == other.shape_ && format_ == other.format_ && dtype_ == other.dtype_ &&
         origin_shape_ == other.origin_shape_ &&
         origin_shape_initialized_ == other.origin_shape_initialized_ &&
         origin_format_ == other.origin_format_ && origin_dtype_ == other.origin_dtype_ &&
         name_ == other.name_ && size_ == other.size_ && weight_size_ == other.weight_size_ &&
         reuse_input_ == other.reuse_input_ && reuse_input_index_ == other.reuse_input_index_ &&
         data_offset_ == other.data_offset_ && device_type_ == other.device_type_ &&
         real_dim_cnt_ == other.real_dim_cnt_ && output_tensor_ == other.output_tensor_ &&
         input_tensor_ == other.input_tensor_ && cmps_size_ == other.cmps_size_ &&
         cmps_tab_ == other.cmps_tab_ && cmps_tab_offset_ == other.cmps_tab_offset_ &&
         attrs_ == other.attrs_;
}

// ---- GeTensor ----

namespace {
std::shared_ptr<const uint8_t> CopyBytes(const uint8_t* data, size_t size) {
  if (size == 0) return nullptr;
  std::shared_ptr<uint8_t[]> owned(new uint8_t[size]());  // zeroed when there is no source
  if (data != nullptr) std::memcpy(owned.get(), data, size);
  return {owned, owned.get()};
}
}  // namespace

GeTensor::GeTensor(GeTensorDesc desc, std::vector<uint8_t> data) : desc_(std::move(desc)) {
  SetData(std::move(data));
}

GeTensor::GeTensor(GeTensorDesc desc, const uint8_t* data, size_t size) : desc_(std::move(desc)) {
  SetData(data, size);
}

struct GeTensor::Deferred {
  std::shared_ptr<const uint8_t> view;  // in the file mapping, unaligned
  size_t size = 0;
  std::once_flag once;
  std::shared_ptr<const uint8_t> copy;  // aligned, made on the first GetData
};

std::span<const uint8_t> GeTensor::DeferredCopy() const {
  Deferred& d = *deferred_;
  std::call_once(d.once, [&d] { d.copy = CopyOfFileSource(d.view, d.size); });
  return {d.copy.get(), d.size};
}

std::span<const uint8_t> GeTensor::GetStoredData() const {
  if (deferred_ != nullptr) return {deferred_->view.get(), size_};
  return {data_.get(), size_};
}

const std::shared_ptr<const uint8_t>& GeTensor::SharedData() const {
  if (deferred_ == nullptr) return data_;
  (void)DeferredCopy();
  return deferred_->copy;
}

void GeTensor::SetDeferredData(std::shared_ptr<const uint8_t> view, size_t size) {
  if (view == nullptr || size == 0) {
    ClearData();
    return;
  }
  data_.reset();
  size_ = size;
  owned_ = false;
  file_mapped_ = false;
  file_source_.reset();
  deferred_ = std::make_shared<Deferred>();
  deferred_->view = std::move(view);
  deferred_->size = size;
}

uint8_t* GeTensor::MutableData() {
  if (size_ == 0) return nullptr;
  file_source_.reset();  // the bytes may not stay those of the file
  if (deferred_ != nullptr) {
    data_ = CopyBytes(deferred_->view.get(), size_);  // from the file: no shared copy made first
    deferred_.reset();
    owned_ = true;
  } else if (!owned_ || data_.use_count() > 1) {
    data_ = CopyBytes(data_.get(), size_);
    owned_ = true;
    file_mapped_ = false;
  }
  return const_cast<uint8_t*>(data_.get());  // we allocated these bytes and hold the only ref
}

void GeTensor::SetData(std::vector<uint8_t> data) {
  if (data.empty()) {
    ClearData();
    return;
  }
  auto holder = std::make_shared<std::vector<uint8_t>>(std::move(data));
  size_ = holder->size();
  data_ = std::shared_ptr<const uint8_t>(holder, holder->data());
  owned_ = true;
  file_mapped_ = false;
  file_source_.reset();
  deferred_.reset();
}

void GeTensor::SetData(const uint8_t* data, size_t size) {
  data_ = CopyBytes(data, size);
  size_ = data_ == nullptr ? 0 : size;
  owned_ = true;
  file_mapped_ = false;
  file_source_.reset();
  deferred_.reset();
}

void GeTensor::SetSharedData(std::shared_ptr<const uint8_t> data, size_t size, bool file_mapped) {
  data_ = std::move(data);
  size_ = data_ == nullptr ? 0 : size;
  owned_ = false;
  file_mapped_ = file_mapped && data_ != nullptr;
  file_source_.reset();
  deferred_.reset();
}

void GeTensor::ClearData() {
  data_.reset();
  deferred_.reset();
  size_ = 0;
  owned_ = false;
  file_mapped_ = false;
  file_source_.reset();
}

GeTensor GeTensor::Clone() const {
  GeTensor copy(desc_);
  copy.SetData(GetData().data(), size_);
  return copy;
}

bool GeTensor::operator==(const GeTensor& other) const {
  if (desc_ != other.desc_ || size_ != other.size_) return false;
  const std::span<const uint8_t> mine = GetStoredData(), theirs = other.GetStoredData();
  return size_ == 0 || mine.data() == theirs.data() ||
         std::memcmp(mine.data(), theirs.data(), size_) == 0;
}

}  // namespace ge
