// DT_STRING values: the stored form (heads with offsets, then NUL-terminated bytes) and the
// run's store of the bytes kernels make.
#include "ge/graph/string_tensor.h"

#include <algorithm>
#include <cstring>

#include "ge/graph/checked_math.h"

namespace ge {
namespace {

constexpr size_t kHead = sizeof(StringHead);
constexpr size_t kBlockBytes = size_t{64} << 10;

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

}  // namespace

std::vector<uint8_t> EncodeStrings(const std::vector<std::string_view>& values) {
  size_t total = values.size() * kHead;
  for (std::string_view s : values) total += s.size() + 1;
  std::vector<uint8_t> out(total, 0);
  size_t offset = values.size() * kHead;
  for (size_t i = 0; i < values.size(); ++i) {
    const StringHead head{static_cast<int64_t>(offset), static_cast<int64_t>(values[i].size())};
    std::memcpy(out.data() + i * kHead, &head, kHead);
    if (!values[i].empty()) std::memcpy(out.data() + offset, values[i].data(), values[i].size());
    offset += values[i].size() + 1;  // the NUL is already there
  }
  return out;
}

GeTensor MakeStringTensor(const std::vector<int64_t>& dims,
                          const std::vector<std::string>& values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  const std::vector<uint8_t> bytes = EncodeStrings(views);
  return {GeTensorDesc(GeShape(dims), FORMAT_ND, DT_STRING), bytes.data(), bytes.size()};
}

Result<std::vector<std::string_view>> DecodeStrings(const uint8_t* data, size_t size, int64_t count,
                                                    const std::string& where) {
  if (count < 0) return ParamInvalid(where + ": a string tensor of unknown size");
  int64_t head_bytes = 0;
  if (!checked::Mul(count, static_cast<int64_t>(kHead), &head_bytes) ||
      static_cast<uint64_t>(head_bytes) > size) {
    return ParamInvalid(where + ": its " + std::to_string(count) + " string(s) need " +
                        std::to_string(count) + " heads of 16 bytes, it holds " +
                        std::to_string(size) + " bytes");
  }
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    StringHead head;
    std::memcpy(&head, data + static_cast<size_t>(i) * kHead, kHead);
    // Offsets before the heads' end or past the data would read outside it.
    if (head.len < 0 || head.addr < head_bytes || static_cast<uint64_t>(head.addr) > size ||
        static_cast<uint64_t>(head.len) > size - static_cast<uint64_t>(head.addr)) {
      return ParamInvalid(where + ": string " + std::to_string(i) + " says its " +
                          std::to_string(head.len) + " bytes are at offset " +
                          std::to_string(head.addr) + ", outside its " + std::to_string(size) +
                          " bytes of data (after the heads, at " + std::to_string(head_bytes) +
                          "); the tensor is corrupt");
    }
    out.emplace_back(reinterpret_cast<const char*>(data + head.addr),
                     static_cast<size_t>(head.len));
  }
  return out;
}

Result<std::vector<std::string_view>> StringsOf(const GeTensor& tensor, const std::string& where) {
  const GeTensorDesc& desc = tensor.GetTensorDesc();
  if (desc.GetDataType() != DT_STRING) {
    return ParamInvalid(where + ": a " + TypeUtils::DataTypeToSerialString(desc.GetDataType()) +
                        " tensor, not DT_STRING");
  }
  const std::vector<int64_t>& dims = desc.GetShape().GetDims();
  if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })) {
    return ParamInvalid(where + ": the string tensor's shape " + desc.GetShape().ToString() +
                        " has no element count");
  }
  GE_ASSIGN_OR_RETURN(const int64_t count,
                      checked::Product(dims, where + ": the string tensor's element count"));
  return DecodeStrings(tensor.GetData().data(), tensor.GetSize(), count, where);
}

Result<char*> StringStore::Allocate(size_t bytes) {
  if (limit_ > 0 && static_cast<uint64_t>(bytes) > static_cast<uint64_t>(limit_ - bytes_)) {
    return ParamInvalid("the run's strings would take more than the memory limit of " +
                        std::to_string(limit_) + " bytes (RuntimeOptions::max_memory_bytes): " +
                        std::to_string(bytes_) + " held, " + std::to_string(bytes) + " more");
  }
  // Heads are read as int64 pairs: every allocation starts 16-byte aligned (new[] aligns blocks
  // so).
  const size_t rounded = (bytes + 15) & ~size_t{15};
  if (blocks_.empty() || capacity_ - used_ < rounded) {
    const size_t size = std::max(kBlockBytes, rounded);
    blocks_.push_back(std::unique_ptr<char[]>(new char[size]));
    used_ = 0;
    capacity_ = size;
  }
  char* p = blocks_.back().get() + used_;
  used_ += rounded;
  bytes_ += static_cast<int64_t>(rounded);
  return p;
}

Result<std::string_view> StringStore::Keep(std::string_view value) {
  if (value.empty()) return std::string_view();
  GE_ASSIGN_OR_RETURN(char* p, Allocate(value.size()));
  std::memcpy(p, value.data(), value.size());
  return std::string_view(p, value.size());
}

Result<const StringHead*> StringStore::Bind(const uint8_t* data, size_t size, int64_t count,
                                            const std::string& where) {
  GE_ASSIGN_OR_RETURN(std::vector<std::string_view> values,
                      DecodeStrings(data, size, count, where));
  GE_ASSIGN_OR_RETURN(char* p, Allocate(std::max<size_t>(values.size(), 1) * kHead));
  for (size_t i = 0; i < values.size(); ++i) {
    WriteString(p, static_cast<int64_t>(i), values[i]);
  }
  return reinterpret_cast<const StringHead*>(p);
}

void StringStore::Clear() {
  blocks_.clear();
  used_ = 0;
  capacity_ = 0;
  bytes_ = 0;
}

GeTensor StoreStrings(const void* heads, const std::vector<int64_t>& dims) {
  const int64_t count = ElementCount(dims);
  std::vector<std::string_view> values;
  values.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) values.push_back(ReadString(heads, i));
  const std::vector<uint8_t> bytes = EncodeStrings(values);
  return {GeTensorDesc(GeShape(dims), FORMAT_ND, DT_STRING), bytes.data(), bytes.size()};
}

}  // namespace ge
