// ONNX tensors and types to the IR (see onnx_tensor.h).
#include "onnx_tensor.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <vector>

#include "ge/graph/composite_value.h"
#include "ge/graph/string_tensor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/parser/onnx_parser.h"
#include "onnx/onnx-data_pb.h"

namespace ge::onnx_parser {
namespace {

namespace fs = std::filesystem;
using onnx::TensorProto;

std::string ShapeText(const onnx::TensorProto& t) {
  std::string text = "[";
  for (int i = 0; i < t.dims_size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(t.dims(i));
  }
  text += ']';
  return text;
}

Result<int64_t> ElementCount(const TensorProto& t, const std::string& where) {
  int64_t count = 1;
  for (int64_t d : t.dims()) {
    if (d < 0) return ParamInvalid(where + ": negative dim in shape " + ShapeText(t));
    if (d != 0 && count > std::numeric_limits<int64_t>::max() / d) {
      return ParamInvalid(where + ": shape " + ShapeText(t) + " overflows int64");
    }
    count *= d;
  }
  return count;
}

// Bytes of a tensor inside a file's bytes.
struct FileSpan {
  FileBytes file;
  std::span<const uint8_t> bytes;
};

// The tensor of `desc` over `span`: shared with a mapping where it lies aligned, else copied
// once (SetBytesFromFile).
GeTensor TensorOver(GeTensorDesc desc, const FileSpan& span) {
  desc.SetSize(static_cast<int64_t>(span.bytes.size()));
  GeTensor tensor(std::move(desc));
  SetBytesFromFile(tensor, span.file, span.bytes.data(), span.bytes.size());
  return tensor;
}

// The `length` bytes at `offset` of a file beside the model, inside its mapping; refuses paths
// leaving base_dir.
Result<FileSpan> ReadExternal(const TensorProto& t, const TensorSource& source,
                              const std::string& where, int64_t expected_bytes) {
  const std::string& base_dir = source.base_dir();
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;
  for (const auto& kv : t.external_data()) {
    try {
      if (kv.key() == "location") location = kv.value();
      if (kv.key() == "offset") offset = std::stoll(kv.value());
      if (kv.key() == "length") length = std::stoll(kv.value());
    } catch (const std::exception&) {
      return ParamInvalid(where + ": external data entry '" + kv.key() + "' has a bad value '" +
                          kv.value() + "'");
    }
  }
  if (location.empty()) {
    return ParamInvalid(where +
                        ": external data has no 'location'; re-save the model with "
                        "onnx.save_model(..., save_as_external_data=True)");
  }
  fs::path rel(location);
  if (rel.is_absolute()) {
    return ParamInvalid(where + ": external data location '" + location +
                        "' is absolute; it must be relative to the model's directory");
  }
  for (const auto& part : rel) {
    if (part == "..") {
      return ParamInvalid(where + ": external data location '" + location +
                          "' leaves the model's directory ('..' is not allowed)");
    }
  }
  fs::path file = fs::path(base_dir.empty() ? "." : base_dir) / rel;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return ParamInvalid(where + ": external data file '" + file.string() +
                        "' is missing; keep the data files beside the model");
  }
  // The file as it resolves (symbolic links followed) must still lie in the model's folder.
  const fs::path real_dir = fs::canonical(fs::path(base_dir.empty() ? "." : base_dir), ec);
  const fs::path real_file = ec ? fs::path() : fs::canonical(file, ec);
  const auto [dir_end, file_it] =
      std::mismatch(real_dir.begin(), real_dir.end(), real_file.begin(), real_file.end());
  if (ec || dir_end != real_dir.end() || file_it == real_file.end()) {
    return ParamInvalid(where + ": external data location '" + location + "' resolves to '" +
                        real_file.string() + "', outside the model's directory '" +
                        real_dir.string() + "' (a symbolic link leaves it)");
  }
  // Mapped once, by its resolved name: the size checked is the size of the bytes read.
  Result<FileBytes> mapped = source.External(real_file.string());
  if (!mapped.ok()) {
    return ParamInvalid(where + ": cannot open external data file '" + file.string() +
                        "': " + mapped.status().message());
  }
  const FileBytes& bytes = *mapped;
  const auto file_size = static_cast<int64_t>(bytes.size);
  if (length < 0) length = file_size - offset;
  if (offset < 0 || offset > file_size || length < 0 || length > file_size - offset) {
    return ParamInvalid(where + ": external data [offset " + std::to_string(offset) + ", length " +
                        std::to_string(length) + "] is outside '" + file.string() + "' (" +
                        std::to_string(file_size) + " bytes)");
  }
  if (expected_bytes >= 0 && length != expected_bytes) {
    return ParamInvalid(where + ": external data has " + std::to_string(length) +
                        " bytes but shape " + ShapeText(t) + " needs " +
                        std::to_string(expected_bytes));
  }
  return FileSpan{bytes,
                  bytes.span().subspan(static_cast<size_t>(offset), static_cast<size_t>(length))};
}

template <typename To, typename Field>
std::vector<uint8_t> Pack(const Field& field) {
  std::vector<uint8_t> bytes(field.size() * sizeof(To));
  for (int i = 0; i < field.size(); ++i) {
    To v = static_cast<To>(field.Get(i));
    std::memcpy(bytes.data() + i * sizeof(To), &v, sizeof(To));
  }
  return bytes;
}

// The typed-field storage of ONNX: which repeated field holds the type and how many values
// one element takes.
Result<std::vector<uint8_t>> FromTypedFields(const TensorProto& t, int64_t count,
                                             const std::string& where) {
  int64_t have = 0;
  int64_t per_element = 1;
  std::vector<uint8_t> bytes;
  switch (t.data_type()) {
    case TensorProto::FLOAT:
      have = t.float_data_size();
      bytes = Pack<float>(t.float_data());
      break;
    case TensorProto::COMPLEX64:
      per_element = 2;
      have = t.float_data_size();
      bytes = Pack<float>(t.float_data());
      break;
    case TensorProto::DOUBLE:
      have = t.double_data_size();
      bytes = Pack<double>(t.double_data());
      break;
    case TensorProto::COMPLEX128:
      per_element = 2;
      have = t.double_data_size();
      bytes = Pack<double>(t.double_data());
      break;
    case TensorProto::INT64:
      have = t.int64_data_size();
      bytes = Pack<int64_t>(t.int64_data());
      break;
    case TensorProto::UINT32:
      have = t.uint64_data_size();
      bytes = Pack<uint32_t>(t.uint64_data());
      break;
    case TensorProto::UINT64:
      have = t.uint64_data_size();
      bytes = Pack<uint64_t>(t.uint64_data());
      break;
    case TensorProto::INT32:
      have = t.int32_data_size();
      bytes = Pack<int32_t>(t.int32_data());
      break;
    case TensorProto::INT16:
      have = t.int32_data_size();
      bytes = Pack<int16_t>(t.int32_data());
      break;
    case TensorProto::UINT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      have = t.int32_data_size();
      bytes = Pack<uint16_t>(t.int32_data());
      break;
    case TensorProto::INT8:
      have = t.int32_data_size();
      bytes = Pack<int8_t>(t.int32_data());
      break;
    case TensorProto::UINT8:
    case TensorProto::BOOL:
    case kOnnxFloat8E4M3FN:
    case kOnnxFloat8E4M3FNUZ:
    case kOnnxFloat8E5M2:
    case kOnnxFloat8E5M2FNUZ:
    case kOnnxFloat8E8M0:
      have = t.int32_data_size();
      bytes = Pack<uint8_t>(t.int32_data());
      break;
    case kOnnxUint4:
    case kOnnxInt4:
    case kOnnxFloat4E2M1:
    case kOnnxUint2:
    case kOnnxInt2: {
      // int32_data holds the packed bytes, one per value, as raw_data would.
      const int64_t need = TypeUtils::GetSizeInBytes(count, FromOnnxDataType(t.data_type()));
      if (t.int32_data_size() != need) {
        return ParamInvalid(where + ": holds " + std::to_string(t.int32_data_size()) +
                            " packed bytes but its shape " + ShapeText(t) + " needs " +
                            std::to_string(need) + "; the model is corrupt");
      }
      return Pack<uint8_t>(t.int32_data());
    }
    case TensorProto::STRING: {  // GE's stored form (ge/graph/string_tensor.h)
      have = t.string_data_size();
      if (have != count) break;
      const std::vector<std::string_view> values(t.string_data().begin(), t.string_data().end());
      return EncodeStrings(values);
    }
    default:
      return ParamInvalid(where + ": element type " + std::to_string(t.data_type()) +
                          " is not supported");
  }
  if (have != count * per_element) {
    return ParamInvalid(where + ": holds " + std::to_string(have / per_element) +
                        " elements but its shape " + ShapeText(t) + " needs " +
                        std::to_string(count) + "; the model is corrupt");
  }
  return bytes;
}

}  // namespace

DataType FromOnnxDataType(int32_t onnx_type) {
  switch (onnx_type) {
    case TensorProto::FLOAT:
      return DT_FLOAT;
    case TensorProto::UINT8:
      return DT_UINT8;
    case TensorProto::INT8:
      return DT_INT8;
    case TensorProto::UINT16:
      return DT_UINT16;
    case TensorProto::INT16:
      return DT_INT16;
    case TensorProto::INT32:
      return DT_INT32;
    case TensorProto::INT64:
      return DT_INT64;
    case TensorProto::STRING:
      return DT_STRING;
    case TensorProto::BOOL:
      return DT_BOOL;
    case TensorProto::FLOAT16:
      return DT_FLOAT16;
    case TensorProto::DOUBLE:
      return DT_DOUBLE;
    case TensorProto::UINT32:
      return DT_UINT32;
    case TensorProto::UINT64:
      return DT_UINT64;
    case TensorProto::COMPLEX64:
      return DT_COMPLEX64;
    case TensorProto::COMPLEX128:
      return DT_COMPLEX128;
    case TensorProto::BFLOAT16:
      return DT_BF16;
    default:
      break;
  }
  // The element types ONNX added after the protobuf headers Debian ships (ONNX 1.15 to 1.19).
  switch (onnx_type) {
    case kOnnxFloat8E4M3FN:
      return DT_FLOAT8_E4M3FN;
    case kOnnxFloat8E4M3FNUZ:
      return DT_FLOAT8_E4M3FNUZ;
    case kOnnxFloat8E5M2:
      return DT_FLOAT8_E5M2;
    case kOnnxFloat8E5M2FNUZ:
      return DT_FLOAT8_E5M2FNUZ;
    case kOnnxUint4:
      return DT_UINT4;
    case kOnnxInt4:
      return DT_INT4;
    case kOnnxFloat4E2M1:
      return DT_FLOAT4_E2M1;
    case kOnnxFloat8E8M0:
      return DT_FLOAT8_E8M0;
    case kOnnxUint2:
      return DT_UINT2;
    case kOnnxInt2:
      return DT_INT2;
    default:
      return DT_UNDEFINED;
  }
}

std::optional<ValueType> ValueTypeFromProto(const onnx::TypeProto& type, int depth) {
  if (depth > kMaxValueNesting) return std::nullopt;
  if (type.has_tensor_type()) {
    ValueType tensor;
    tensor.dtype = FromOnnxDataType(type.tensor_type().elem_type());
    if (tensor.dtype == DT_UNDEFINED) return std::nullopt;
    return tensor;
  }
  if (type.has_map_type() && type.map_type().has_value_type()) {
    std::optional<ValueType> value = ValueTypeFromProto(type.map_type().value_type(), depth + 1);
    const DataType key = FromOnnxDataType(type.map_type().key_type());
    if (!value || key == DT_UNDEFINED) return std::nullopt;
    return MapOf(key, std::move(*value));
  }
  const onnx::TypeProto* inner = nullptr;
  if (type.has_sequence_type() && type.sequence_type().has_elem_type()) {
    inner = &type.sequence_type().elem_type();
  } else if (type.has_optional_type() && type.optional_type().has_elem_type()) {
    inner = &type.optional_type().elem_type();
  }
  if (inner == nullptr) return std::nullopt;
  std::optional<ValueType> element = ValueTypeFromProto(*inner, depth + 1);
  if (!element) return std::nullopt;
  return type.has_sequence_type() ? SequenceOf(std::move(*element))
                                  : OptionalOf(std::move(*element));
}

GeTensorDesc DescFromType(const onnx::TypeProto& type) {
  GeTensorDesc desc(GeShape({UNKNOWN_DIM_NUM}), FORMAT_ND, DT_UNDEFINED);
  const onnx::TypeProto_Tensor* tensor = nullptr;
  if (type.has_tensor_type()) tensor = &type.tensor_type();
  if (type.has_sparse_tensor_type()) {
    desc.SetDataType(FromOnnxDataType(type.sparse_tensor_type().elem_type()));
    return desc;
  }
  if (tensor == nullptr) {
    // A sequence, optional or map (composite_value.h); a type too deep stays unknown, and what
    // reads it says so.
    std::optional<ValueType> value = ValueTypeFromProto(type, 0);
    if (value) {
      SetValueType(desc, *value);
    } else {
      AttrUtils::SetStr(desc, "_onnx_value_kind", type.has_map_type() ? "map" : "other");
    }
    return desc;
  }
  desc.SetDataType(FromOnnxDataType(tensor->elem_type()));
  if (tensor->has_shape()) {
    std::vector<int64_t> dims;
    std::vector<std::string> names;
    bool symbolic = false;
    for (const auto& dim : tensor->shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() >= 0) {
        dims.push_back(dim.dim_value());
        names.emplace_back();
      } else {
        dims.push_back(UNKNOWN_DIM);
        names.push_back(dim.has_dim_param() ? dim.dim_param() : "");
        symbolic = symbolic || dim.has_dim_param();
      }
    }
    desc.SetShape(GeShape(dims));
    if (symbolic) AttrUtils::SetListStr(desc, kAttrSymbolicDims, names);
  }
  desc.SetOriginShape(desc.GetShape());
  desc.SetOriginDataType(desc.GetDataType());
  return desc;
}

Result<FileBytes> TensorSource::External(const std::string& real_path) const {
  auto it = externals_.find(real_path);
  if (it != externals_.end()) return it->second;
  GE_ASSIGN_OR_RETURN(FileBytes bytes, MapFile(real_path));
  externals_.emplace(real_path, bytes);
  return bytes;
}

Result<GeTensor> TensorFromProto(const TensorProto& t, const TensorSource& source,
                                 const std::string& where) {
  DataType dtype = FromOnnxDataType(t.data_type());
  if (dtype == DT_UNDEFINED) {
    return ParamInvalid(where + ": unsupported or undefined element type " +
                        std::to_string(t.data_type()));
  }
  if (t.has_segment()) return ParamInvalid(where + ": segmented tensors are not supported");
  GE_ASSIGN_OR_RETURN(int64_t count, ElementCount(t, where));
  int64_t expected = dtype == DT_STRING ? -1 : TypeUtils::GetSizeInBytes(count, dtype);
  if (dtype != DT_STRING && expected < 0) {
    return ParamInvalid(where + ": shape " + ShapeText(t) + " of " +
                        TypeUtils::DataTypeToSerialString(dtype) +
                        " needs more bytes than int64 counts; the model is corrupt");
  }
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dtype);
  desc.SetOriginShape(desc.GetShape());
  desc.SetOriginDataType(dtype);
  if (t.data_location() == TensorProto::EXTERNAL) {
    if (dtype == DT_STRING) {
      return ParamInvalid(where +
                          ": string tensors cannot use external data (ONNX keeps them in "
                          "string_data)");
    }
    GE_ASSIGN_OR_RETURN(FileSpan span, ReadExternal(t, source, where, expected));
    return TensorOver(std::move(desc), span);
  }
  if (t.has_raw_data()) {
    if (dtype == DT_STRING) return ParamInvalid(where + ": string tensors cannot use raw_data");
    bool left_in_file = false;
    std::span<const uint8_t> raw = source.inline_weights().Resolve(t.raw_data(), left_in_file);
    if (!left_in_file) {
      raw = {reinterpret_cast<const uint8_t*>(t.raw_data().data()), t.raw_data().size()};
    }
    if (static_cast<int64_t>(raw.size()) != expected) {
      return ParamInvalid(where + ": raw data has " + std::to_string(raw.size()) +
                          " bytes but shape " + ShapeText(t) + " of " +
                          TypeUtils::DataTypeToSerialString(dtype) + " needs " +
                          std::to_string(expected) + "; the model is corrupt or truncated");
    }
    if (left_in_file) return TensorOver(std::move(desc), {source.inline_weights().file, raw});
    desc.SetSize(static_cast<int64_t>(raw.size()));
    return GeTensor(desc, raw.data(), raw.size());
  }
  GE_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, FromTypedFields(t, count, where));
  desc.SetSize(static_cast<int64_t>(bytes.size()));
  return GeTensor(desc, std::move(bytes));
}

namespace {

// The stored form of a SequenceProto's or OptionalProto's value (composite_value.h).
template <typename Proto>
Result<GeTensor> CompositeFromProto(const Proto& proto, const ValueType& type,
                                    const TensorSource& source, const std::string& where,
                                    int depth);

Result<GeTensor> ItemFromProto(int32_t elem_type, const onnx::TensorProto* tensor,
                               const onnx::SequenceProto* sequence,
                               const onnx::OptionalProto* optional, const ValueType& type,
                               const TensorSource& source, const std::string& where, int depth) {
  switch (elem_type) {
    case onnx::SequenceProto::TENSOR:
      if (type.kind != ValueType::Kind::kTensor) break;
      return TensorFromProto(*tensor, source, where);
    case onnx::SequenceProto::SEQUENCE:
      if (type.kind != ValueType::Kind::kSequence) break;
      return CompositeFromProto(*sequence, type, source, where, depth + 1);
    case onnx::SequenceProto::OPTIONAL:
      if (type.kind != ValueType::Kind::kOptional) break;
      return CompositeFromProto(*optional, type, source, where, depth + 1);
    default:
      return ParamInvalid(where + ": element type " + std::to_string(elem_type) +
                          " (a map or a sparse tensor) is not supported");
  }
  return ParamInvalid(where + ": holds element type " + std::to_string(elem_type) +
                      " where the model has " + ValueTypeName(type));
}

template <typename Proto>
Result<GeTensor> CompositeFromProto(const Proto& proto, const ValueType& type,
                                    const TensorSource& source, const std::string& where,
                                    int depth) {
  if (depth > kMaxValueNesting) {
    return ParamInvalid(where + ": values nest deeper than " + std::to_string(kMaxValueNesting));
  }
  const ValueType& inner = type.inner.at(0);
  CompositeValue value;
  if constexpr (std::is_same_v<Proto, onnx::SequenceProto>) {
    value.kind = ValueType::Kind::kSequence;
    const int count = std::max(
        {proto.tensor_values_size(), proto.sequence_values_size(), proto.optional_values_size()});
    for (int i = 0; i < count; ++i) {
      const std::string item = where + " item " + std::to_string(i);
      GE_ASSIGN_OR_RETURN(
          GeTensor t,
          ItemFromProto(proto.elem_type(),
                        i < proto.tensor_values_size() ? &proto.tensor_values(i) : nullptr,
                        i < proto.sequence_values_size() ? &proto.sequence_values(i) : nullptr,
                        i < proto.optional_values_size() ? &proto.optional_values(i) : nullptr,
                        inner, source, item, depth));
      value.items.push_back(std::move(t));
    }
    // Items of the one field its elem_type names, or none: the others would be ignored.
    if (proto.tensor_values_size() + proto.sequence_values_size() + proto.optional_values_size() !=
        count) {
      return ParamInvalid(where + ": holds items of more than one kind");
    }
  } else {
    value.kind = ValueType::Kind::kOptional;
    const bool has =
        proto.has_tensor_value() || proto.has_sequence_value() || proto.has_optional_value();
    if (has) {
      GE_ASSIGN_OR_RETURN(
          GeTensor t, ItemFromProto(proto.elem_type(),
                                    proto.has_tensor_value() ? &proto.tensor_value() : nullptr,
                                    proto.has_sequence_value() ? &proto.sequence_value() : nullptr,
                                    proto.has_optional_value() ? &proto.optional_value() : nullptr,
                                    inner, source, where + " value", depth));
      value.items.push_back(std::move(t));
    }
  }
  return StoreComposite(value);
}

}  // namespace

}  // namespace ge::onnx_parser

namespace ge {

Result<GeTensor> ParseOnnxValue(const std::string& bytes, const std::string& base_dir,
                                const std::string& where, const std::string& value_type,
                                std::string* name) {
  if (value_type.empty() || value_type.rfind("tensor(", 0) == 0) {
    return ParseOnnxTensor(bytes, base_dir, where, name);
  }
  GE_ASSIGN_OR_RETURN(const ValueType type, ParseValueType(value_type));
  const onnx_parser::TensorSource source(base_dir, onnx_parser::InlineWeights{});
  if (type.kind == ValueType::Kind::kSequence) {
    onnx::SequenceProto proto;
    if (!proto.ParseFromString(bytes)) {
      return ParamInvalid(where + " is not a serialized onnx.SequenceProto");
    }
    if (name != nullptr) *name = proto.name();
    return onnx_parser::CompositeFromProto(proto, type, source, where, 0);
  }
  onnx::OptionalProto proto;
  if (!proto.ParseFromString(bytes)) {
    return ParamInvalid(where + " is not a serialized onnx.OptionalProto");
  }
  if (name != nullptr) *name = proto.name();
  return onnx_parser::CompositeFromProto(proto, type, source, where, 0);
}

Result<GeTensor> ParseOnnxTensor(const std::string& bytes, const std::string& base_dir,
                                 const std::string& where, std::string* name) {
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) {
    return ParamInvalid(where + " is not a serialized onnx.TensorProto");
  }
  if (name != nullptr) *name = proto.name();
  const onnx_parser::TensorSource source(base_dir, onnx_parser::InlineWeights{});
  return onnx_parser::TensorFromProto(proto, source, where);
}

}  // namespace ge
