// ge::Operator's typed attribute accessors. A value of a kind other than the one the operator's
// prototype declares for that name is refused (kept as the operator's error); attributes the
// prototype does not declare (private ones such as "_parent_node_index") are set as given.
#include <string>
#include <utility>
#include <vector>

#include "ge/api/operator.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/op_registry.h"
#include "operator_impl.h"

namespace ge {
namespace {

template <typename To, typename From>
std::vector<To> Convert(const std::vector<From>& values) {
  std::vector<To> out;
  out.reserve(values.size());
  for (const From& v : values) out.push_back(static_cast<To>(v));
  return out;
}

std::vector<GeTensor> ToGe(const std::vector<Tensor>& tensors) {
  std::vector<GeTensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(TensorAdapter::AsGeTensor(t));
  return out;
}

// Copies the stored value (of type Stored) into `out` through `convert`; GRAPH_FAILED when
// FindAttr found none (and reported why).
template <typename Stored, typename Out, typename Convert>
graphStatus Read(const AttrValue* value, Out& out, Convert convert) {
  if (value == nullptr) return GRAPH_FAILED;
  out = convert(*value->Get<Stored>());
  return GRAPH_SUCCESS;
}

}  // namespace

Operator& Operator::SetAttrValue(const char* name, AttrValue value) {
  if (impl_ == nullptr) {
    (void)ReportStatus(ParamInvalid("SetAttr on an empty Operator"));
    return *this;
  }
  const std::string n = StrOrEmpty(name);
  if (auto proto = OpRegistry::Instance().Find(impl_->desc->GetType()); proto != nullptr) {
    const OpAttrDef* def = proto->FindAttr(n);
    if (def != nullptr && def->type != value.GetType()) {
      impl_->Fail("attribute '" + n + "' is a " + AttrValue::TypeName(def->type) + ", not a " +
                  AttrValue::TypeName(value.GetType()));
      return *this;
    }
  }
  AttrUtils::SetAttr(impl_->desc, n, std::move(value));
  return *this;
}

const AttrValue* Operator::FindAttr(const char* name, AttrValue::Type type) const {
  if (impl_ == nullptr) {
    (void)ReportStatus(ParamInvalid("GetAttr of an empty Operator"));
    return nullptr;
  }
  const AttrValue* value = impl_->desc->GetAttrMap().Get(StrOrEmpty(name));
  if (value == nullptr) {
    (void)ReportStatus(Failed(impl_->Where() + " has no attribute '" + StrOrEmpty(name) + "'"));
    return nullptr;
  }
  if (type != AttrValue::Type::kNone && value->GetType() != type) {
    (void)ReportStatus(Failed(impl_->Where() + ": attribute '" + StrOrEmpty(name) + "' is a " +
                              AttrValue::TypeName(value->GetType()) + ", not a " +
                              AttrValue::TypeName(type)));
    return nullptr;
  }
  return value;
}

// clang-format off
Operator& Operator::SetAttr(const char* name, int64_t v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, int32_t v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, uint32_t v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<int64_t>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<int32_t>& v) { return SetAttrValue(name, AttrValue(Convert<int64_t>(v))); }
Operator& Operator::SetAttr(const char* name, const std::vector<uint32_t>& v) { return SetAttrValue(name, AttrValue(Convert<int64_t>(v))); }
Operator& Operator::SetAttr(const char* name, std::initializer_list<int64_t>&& v) { return SetAttrValue(name, AttrValue(std::vector<int64_t>(v))); }
Operator& Operator::SetAttr(const char* name, float v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<float>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, AttrValue&& v) { return SetAttrValue(name, std::move(v)); }
Operator& Operator::SetAttr(const char* name, const char* v) { return SetAttrValue(name, AttrValue(StrOrEmpty(v))); }
Operator& Operator::SetAttr(const char* name, const std::string& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const AscendString& v) { return SetAttrValue(name, AttrValue(std::string(v.GetString()))); }
Operator& Operator::SetAttr(const char* name, const std::vector<std::string>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, bool v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<bool>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const Tensor& v) { return SetAttrValue(name, AttrValue(TensorAdapter::AsGeTensor(v))); }
Operator& Operator::SetAttr(const char* name, const std::vector<Tensor>& v) { return SetAttrValue(name, AttrValue(ToGe(v))); }
Operator& Operator::SetAttr(const char* name, const OpBytes& v) { return SetAttrValue(name, AttrValue(Buffer{v})); }
Operator& Operator::SetAttr(const char* name, const std::vector<std::vector<int64_t>>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<DataType>& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const DataType& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const NamedAttrs& v) { return SetAttrValue(name, AttrValue(v)); }
Operator& Operator::SetAttr(const char* name, const std::vector<NamedAttrs>& v) { return SetAttrValue(name, AttrValue(v)); }
// clang-format on

Operator& Operator::SetAttr(const char* name, const std::vector<AscendString>& attr_values) {
  std::vector<std::string> strings;
  strings.reserve(attr_values.size());
  for (const auto& s : attr_values) strings.emplace_back(s.GetString());
  return SetAttrValue(name, AttrValue(std::move(strings)));
}

graphStatus Operator::GetAttr(const char* name, int64_t& out) const {
  return Read<int64_t>(FindAttr(name, AttrValue::Type::kInt), out,
                       [](const int64_t& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, int32_t& out) const {
  return Read<int64_t>(FindAttr(name, AttrValue::Type::kInt), out,
                       [](const int64_t& v) { return static_cast<int32_t>(v); });
}

graphStatus Operator::GetAttr(const char* name, uint32_t& out) const {
  return Read<int64_t>(FindAttr(name, AttrValue::Type::kInt), out,
                       [](const int64_t& v) { return static_cast<uint32_t>(v); });
}

graphStatus Operator::GetAttr(const char* name, std::vector<int64_t>& out) const {
  return Read<std::vector<int64_t>>(FindAttr(name, AttrValue::Type::kListInt), out,
                                    [](const std::vector<int64_t>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<int32_t>& out) const {
  return Read<std::vector<int64_t>>(
      FindAttr(name, AttrValue::Type::kListInt), out,
      [](const std::vector<int64_t>& v) { return Convert<int32_t>(v); });
}

graphStatus Operator::GetAttr(const char* name, std::vector<uint32_t>& out) const {
  return Read<std::vector<int64_t>>(
      FindAttr(name, AttrValue::Type::kListInt), out,
      [](const std::vector<int64_t>& v) { return Convert<uint32_t>(v); });
}

graphStatus Operator::GetAttr(const char* name, float& out) const {
  return Read<float>(FindAttr(name, AttrValue::Type::kFloat), out,
                     [](const float& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<float>& out) const {
  return Read<std::vector<float>>(FindAttr(name, AttrValue::Type::kListFloat), out,
                                  [](const std::vector<float>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::string& out) const {
  return Read<std::string>(FindAttr(name, AttrValue::Type::kString), out,
                           [](const std::string& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, AscendString& out) const {
  return Read<std::string>(FindAttr(name, AttrValue::Type::kString), out,
                           [](const std::string& v) { return AscendString(v.c_str()); });
}

graphStatus Operator::GetAttr(const char* name, std::vector<std::string>& out) const {
  return Read<std::vector<std::string>>(FindAttr(name, AttrValue::Type::kListString), out,
                                        [](const std::vector<std::string>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, bool& out) const {
  return Read<bool>(FindAttr(name, AttrValue::Type::kBool), out, [](const bool& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<bool>& out) const {
  return Read<std::vector<bool>>(FindAttr(name, AttrValue::Type::kListBool), out,
                                 [](const std::vector<bool>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, Tensor& out) const {
  return Read<GeTensor>(FindAttr(name, AttrValue::Type::kTensor), out,
                        [](const GeTensor& v) { return TensorAdapter::AsTensor(v); });
}

graphStatus Operator::GetAttr(const char* name, OpBytes& out) const {
  return Read<Buffer>(FindAttr(name, AttrValue::Type::kBytes), out,
                      [](const Buffer& v) { return v.data; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<std::vector<int64_t>>& out) const {
  return Read<std::vector<std::vector<int64_t>>>(
      FindAttr(name, AttrValue::Type::kListListInt), out,
      [](const std::vector<std::vector<int64_t>>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<DataType>& out) const {
  return Read<std::vector<DataType>>(FindAttr(name, AttrValue::Type::kListDataType), out,
                                     [](const std::vector<DataType>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, DataType& out) const {
  return Read<DataType>(FindAttr(name, AttrValue::Type::kDataType), out,
                        [](const DataType& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, NamedAttrs& out) const {
  return Read<NamedAttrs>(FindAttr(name, AttrValue::Type::kNamedAttrs), out,
                          [](const NamedAttrs& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, std::vector<NamedAttrs>& out) const {
  return Read<std::vector<NamedAttrs>>(FindAttr(name, AttrValue::Type::kListNamedAttrs), out,
                                       [](const std::vector<NamedAttrs>& v) { return v; });
}

graphStatus Operator::GetAttr(const char* name, AttrValue& attr_value) const {
  const AttrValue* value = FindAttr(name, AttrValue::Type::kNone);
  if (value == nullptr) return GRAPH_FAILED;
  attr_value = *value;
  return GRAPH_SUCCESS;
}

graphStatus Operator::GetAttr(const char* name, std::vector<AscendString>& attr_values) const {
  const AttrValue* value = FindAttr(name, AttrValue::Type::kListString);
  if (value == nullptr) return GRAPH_FAILED;
  attr_values.clear();
  for (const auto& s : *value->Get<std::vector<std::string>>()) attr_values.emplace_back(s.c_str());
  return GRAPH_SUCCESS;
}

graphStatus Operator::GetAttr(const char* name, std::vector<Tensor>& attr_value) const {
  const AttrValue* value = FindAttr(name, AttrValue::Type::kListTensor);
  if (value == nullptr) return GRAPH_FAILED;
  attr_value.clear();
  for (const auto& t : *value->Get<std::vector<GeTensor>>()) {
    attr_value.push_back(TensorAdapter::AsTensor(t));
  }
  return GRAPH_SUCCESS;
}

graphStatus Operator::GetAllAttrNamesAndTypes(
    std::map<AscendString, AscendString>& attr_name_types) const {
  if (impl_ == nullptr) {
    return ReportStatus(ParamInvalid("GetAllAttrNamesAndTypes of an empty Operator"));
  }
  attr_name_types.clear();
  impl_->desc->GetAttrMap().ForEach([&](const std::string& name, const AttrValue& value) {
    attr_name_types[AscendString(name.c_str())] =
        AscendString(AttrValue::TypeName(value.GetType()));
  });
  return GRAPH_SUCCESS;
}

}  // namespace ge
