// Sequences and optionals: their type names and their stored form (composite_value.h).
#include "ge/graph/composite_value.h"

#include <cstring>
#include <utility>

#include "ge/graph/checked_math.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge {
namespace {

struct TypeName {
  DataType dtype;
  const char* name;
};
constexpr TypeName kTypeNames[] = {{DT_FLOAT, "float"},         {DT_FLOAT16, "float16"},
                                   {DT_BF16, "bfloat16"},       {DT_DOUBLE, "double"},
                                   {DT_INT8, "int8"},           {DT_INT16, "int16"},
                                   {DT_INT32, "int32"},         {DT_INT64, "int64"},
                                   {DT_UINT8, "uint8"},         {DT_UINT16, "uint16"},
                                   {DT_UINT32, "uint32"},       {DT_UINT64, "uint64"},
                                   {DT_BOOL, "bool"},           {DT_STRING, "string"},
                                   {DT_COMPLEX64, "complex64"}, {DT_COMPLEX128, "complex128"}};

constexpr char kMagic[4] = {'G', 'E', 'C', 'V'};
constexpr uint32_t kVersion = 1;

std::string ElementName(DataType dtype) {
  for (const TypeName& t : kTypeNames) {
    if (t.dtype == dtype) return t.name;
  }
  return TypeUtils::DataTypeToSerialString(dtype);
}

Result<ValueType> Parse(std::string_view& text, int depth) {
  if (depth > kMaxValueNesting) {
    return ParamInvalid("the value type nests deeper than " + std::to_string(kMaxValueNesting));
  }
  auto take = [&text](std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    return true;
  };
  ValueType type;
  if (take("tensor(")) {
    const size_t close = text.find(')');
    if (close == std::string_view::npos) return ParamInvalid("a tensor type without ')'");
    const std::string_view name = text.substr(0, close);
    text.remove_prefix(close + 1);
    for (const TypeName& t : kTypeNames) {
      if (name == t.name) type.dtype = t.dtype;
    }
    if (type.dtype == DT_UNDEFINED && !TypeUtils::TryParseDataType(name, &type.dtype)) {
      return ParamInvalid("unknown element type '" + std::string(name) + "'");
    }
    return type;
  }
  if (take("map(")) {
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos) return ParamInvalid("a map type without ','");
    const std::string_view key = text.substr(0, comma);
    text.remove_prefix(comma + 1);
    type.kind = ValueType::Kind::kMap;
    for (const TypeName& t : kTypeNames) {
      if (key == t.name) type.dtype = t.dtype;
    }
    if (type.dtype != DT_STRING && type.dtype != DT_INT64 && type.dtype != DT_INT32 &&
        type.dtype != DT_INT16 && type.dtype != DT_INT8 && type.dtype != DT_UINT8 &&
        type.dtype != DT_UINT16 && type.dtype != DT_UINT32 && type.dtype != DT_UINT64) {
      return ParamInvalid("map keys must be string or integers, not '" + std::string(key) + "'");
    }
  } else if (take("seq(")) {
    type.kind = ValueType::Kind::kSequence;
  } else if (take("opt(")) {
    type.kind = ValueType::Kind::kOptional;
  } else {
    return ParamInvalid("'" + std::string(text.substr(0, 20)) +
                        "' is not a type (tensor(...), seq(...), opt(...) or map(...))");
  }
  GE_ASSIGN_OR_RETURN(ValueType inner, Parse(text, depth + 1));
  if (!take(")")) return ParamInvalid("a missing ')'");
  type.inner.push_back(std::move(inner));
  return type;
}

// ---- the stored form ----

class Writer {
 public:
  void Int(int64_t v) { Bytes(&v, sizeof(v)); }
  void Bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void Pad() { out_.resize((out_.size() + 7) & ~size_t{7}, 0); }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

void Write(Writer& w, const CompositeValue& value) {
  w.Bytes(kMagic, sizeof(kMagic));
  w.Bytes(&kVersion, sizeof(kVersion));
  w.Int(value.kind == ValueType::Kind::kOptional ? 2 : value.kind == ValueType::Kind::kMap ? 3 : 1);
  w.Int(static_cast<int64_t>(value.items.size()));
  for (const GeTensor& item : value.items) {
    const GeTensorDesc& desc = item.GetTensorDesc();
    const std::vector<int64_t>& dims = desc.GetShape().GetDims();
    w.Int(static_cast<int64_t>(desc.GetDataType()));
    w.Int(static_cast<int64_t>(dims.size()));
    for (int64_t d : dims) w.Int(d);
    w.Int(static_cast<int64_t>(item.GetSize()));
    if (item.GetSize() > 0) w.Bytes(item.GetData().data(), item.GetSize());
    w.Pad();
  }
}

class Reader {
 public:
  Reader(const uint8_t* data, size_t size, const std::string& where)
      : data_(data), size_(size), where_(where) {}
  Result<int64_t> Int(const char* what) {
    int64_t v = 0;
    GE_RETURN_IF_ERROR(Bytes(&v, sizeof(v), what));
    return v;
  }
  Status Bytes(void* out, size_t n, const char* what) {
    if (n > size_ - at_) return Truncated(what);
    std::memcpy(out, data_ + at_, n);
    at_ += n;
    return Status::Ok();
  }
  Result<const uint8_t*> Span(int64_t n, const char* what) {
    if (n < 0 || static_cast<uint64_t>(n) > size_ - at_) return Truncated(what);
    const uint8_t* p = data_ + at_;
    at_ += static_cast<size_t>(n);
    at_ = std::min(size_, (at_ + 7) & ~size_t{7});
    return p;
  }
  size_t left() const { return size_ - at_; }
  Status Error(const std::string& why) const {
    return ParamInvalid(where_ + ": " + why + " (at byte " + std::to_string(at_) +
                        "); the value is corrupt");
  }

 private:
  Status Truncated(const char* what) const {
    return Error(std::string("the bytes end inside ") + what);
  }
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
  const std::string& where_;
};

Result<CompositeValue> Read(Reader& r, int depth) {
  if (depth > kMaxValueNesting) {
    return r.Error("values nest deeper than " + std::to_string(kMaxValueNesting));
  }
  char magic[4];
  uint32_t version = 0;
  GE_RETURN_IF_ERROR(r.Bytes(magic, sizeof(magic), "the header"));
  GE_RETURN_IF_ERROR(r.Bytes(&version, sizeof(version), "the header"));
  if (std::memcmp(magic, kMagic, sizeof(kMagic)) != 0 || version != kVersion) {
    return r.Error("not a stored sequence or optional (no GECV version 1 header)");
  }
  CompositeValue value;
  GE_ASSIGN_OR_RETURN(const int64_t kind, r.Int("the header"));
  GE_ASSIGN_OR_RETURN(const int64_t count, r.Int("the header"));
  if (kind < 1 || kind > 3) return r.Error("kind " + std::to_string(kind) + " is unknown");
  value.kind = kind == 2   ? ValueType::Kind::kOptional
               : kind == 3 ? ValueType::Kind::kMap
                           : ValueType::Kind::kSequence;
  // Every item takes at least 24 bytes, which bounds a hostile count by the bytes there are.
  if (count < 0 || (kind == 2 && count > 1) || (kind == 3 && count != 2) ||
      static_cast<uint64_t>(count) > r.left() / 24) {
    return r.Error("it says it holds " + std::to_string(count) + " items");
  }
  for (int64_t i = 0; i < count; ++i) {
    GE_ASSIGN_OR_RETURN(const int64_t dtype_value, r.Int("an item"));
    GE_ASSIGN_OR_RETURN(const int64_t rank, r.Int("an item"));
    const auto dtype = static_cast<DataType>(dtype_value);
    if (dtype_value < 0 || dtype_value >= DT_MAX ||
        (!TypeUtils::IsValidDataType(dtype) && dtype != DT_VARIANT)) {
      return r.Error("item " + std::to_string(i) + " has no valid dtype (" +
                     std::to_string(dtype_value) + ")");
    }
    if (rank < 0 || rank > 32 || (dtype == DT_VARIANT && rank != 0)) {
      return r.Error("item " + std::to_string(i) + " has rank " + std::to_string(rank));
    }
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    for (int64_t& d : dims) {
      GE_ASSIGN_OR_RETURN(d, r.Int("an item's dims"));
      if (d < 0) return r.Error("item " + std::to_string(i) + " has a negative dim");
    }
    GE_ASSIGN_OR_RETURN(const int64_t bytes, r.Int("an item"));
    GE_ASSIGN_OR_RETURN(const uint8_t* p, r.Span(bytes, "an item's bytes"));
    GeTensor item(GeTensorDesc(GeShape(dims), FORMAT_ND, dtype), p, static_cast<size_t>(bytes));
    const std::string which = "item " + std::to_string(i);
    if (dtype == DT_VARIANT) {
      Reader nested(p, static_cast<size_t>(bytes), which);
      Result<CompositeValue> inner = Read(nested, depth + 1);
      if (!inner.ok()) return r.Error(inner.status().message());
    } else if (dtype == DT_STRING) {  // heads that stay inside the item's bytes
      Result<std::vector<std::string_view>> strings = StringsOf(item, which);
      if (!strings.ok()) return r.Error(strings.status().message());
    } else {
      const int64_t need = TensorUtils::CalcTensorMemSize(item.GetTensorDesc());
      if (need != bytes) {
        return r.Error(which + " holds " + std::to_string(bytes) + " bytes, its " +
                       GeShape(dims).ToString() + " " + TypeUtils::DataTypeToSerialString(dtype) +
                       " needs " + std::to_string(need));
      }
    }
    value.items.push_back(std::move(item));
  }
  if (value.kind == ValueType::Kind::kMap) {
    const GeTensorDesc& keys = value.items[0].GetTensorDesc();
    const GeTensorDesc& values = value.items[1].GetTensorDesc();
    if (keys.GetShape().GetDimNum() != 1 || values.GetShape().GetDimNum() != 1 ||
        keys.GetShape().GetDim(0) != values.GetShape().GetDim(0)) {
      return r.Error("a map's keys " + keys.GetShape().ToString() + " and values " +
                     values.GetShape().ToString() + " are not two 1-D tensors as long");
    }
  }
  return value;
}

}  // namespace

std::string ValueTypeName(const ValueType& type) {
  switch (type.kind) {
    case ValueType::Kind::kTensor:
      return "tensor(" + ElementName(type.dtype) + ")";
    case ValueType::Kind::kSequence:
      return "seq(" + (type.inner.empty() ? std::string("?") : ValueTypeName(type.inner[0])) + ")";
    case ValueType::Kind::kOptional:
      return "opt(" + (type.inner.empty() ? std::string("?") : ValueTypeName(type.inner[0])) + ")";
    case ValueType::Kind::kMap:
      return "map(" + ElementName(type.dtype) + "," +
             (type.inner.empty() ? std::string("?") : ValueTypeName(type.inner[0])) + ")";
  }
  return "?";
}

Result<ValueType> ParseValueType(std::string_view name) {
  std::string_view rest = name;
  Result<ValueType> type = Parse(rest, 0);
  if (!type.ok()) {
    return Status(type.status()).Prefix("value type '" + std::string(name) + "'");
  }
  if (!rest.empty()) {
    return ParamInvalid("value type '" + std::string(name) + "' has '" + std::string(rest) +
                        "' after its end");
  }
  return type;
}

Result<ValueType> ValueTypeOf(const GeTensorDesc& desc) {
  if (desc.GetDataType() != DT_VARIANT) {
    ValueType type;
    type.dtype = desc.GetDataType();
    return type;
  }
  std::string name;
  if (!AttrUtils::GetStr(desc, kAttrValueType, name)) {
    return ParamInvalid("a DT_VARIANT tensor without its " + std::string(kAttrValueType));
  }
  return ParseValueType(name);
}

void SetValueType(GeTensorDesc& desc, const ValueType& type) {
  if (type.kind == ValueType::Kind::kTensor) {
    desc.SetDataType(type.dtype);
    desc.SetOriginDataType(type.dtype);
    return;
  }
  desc.SetDataType(DT_VARIANT);
  desc.SetOriginDataType(DT_VARIANT);
  desc.SetShape(GeShape(std::vector<int64_t>{}));
  desc.SetOriginShape(desc.GetShape());
  (void)AttrUtils::SetStr(desc, kAttrValueType, ValueTypeName(type));
}

ValueType SequenceOf(ValueType element) {
  ValueType type;
  type.kind = ValueType::Kind::kSequence;
  type.inner.push_back(std::move(element));
  return type;
}

ValueType MapOf(DataType key, ValueType value) {
  ValueType type;
  type.kind = ValueType::Kind::kMap;
  type.dtype = key;
  type.inner.push_back(std::move(value));
  return type;
}

ValueType OptionalOf(ValueType inner) {
  ValueType type;
  type.kind = ValueType::Kind::kOptional;
  type.inner.push_back(std::move(inner));
  return type;
}

GeTensor StoreComposite(const CompositeValue& value) {
  Writer w;
  Write(w, value);
  return {GeTensorDesc(GeShape(std::vector<int64_t>{}), FORMAT_ND, DT_VARIANT),
          std::move(w.bytes())};
}

Result<CompositeValue> LoadComposite(const GeTensor& tensor, const std::string& where) {
  if (tensor.GetTensorDesc().GetDataType() != DT_VARIANT) {
    return ParamInvalid(where + ": a " +
                        TypeUtils::DataTypeToSerialString(tensor.GetTensorDesc().GetDataType()) +
                        " tensor, not a sequence or optional (DT_VARIANT)");
  }
  Reader r(tensor.GetData().data(), tensor.GetSize(), where);
  return Read(r, 0);
}

}  // namespace ge
