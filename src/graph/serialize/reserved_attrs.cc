// Reserved attribute names and their typed readers and writers on proto attr maps.
#include "reserved_attrs.h"

#include <algorithm>
#include <array>

namespace ge::serialize {

namespace {
using ListValue = proto::AttrDef::ListValue;

constexpr std::array<std::string_view, 17> kOpReserved = {
    kAttrInputNameKey,        kAttrInputNameValue, kAttrOutputNameKey,   kAttrOutputNameValue,
    kAttrOptionalInputs,      kAttrIrInputNames,   kAttrIrInputTypes,    kAttrIrOutputNames,
    kAttrIrOutputTypes,       kAttrIrAttrNames,    kAttrSubgraphIrNames, kAttrSubgraphIrTypes,
    kAttrEngineName,          kAttrKernelLibName,  kAttrCtrlInFromData,  kAttrDataInFromCtrl,
    kAttrDataInFromCtrlIndex,
};
constexpr std::array<std::string_view, 3> kGraphReserved = {kAttrGraphName, kAttrTrainingGraph,
                                                            kAttrSubgraphs};
constexpr std::array<std::string_view, 6> kDescReserved = {
    kAttrOriginFormat,           kAttrOriginShape, kAttrOriginDataType,
    kAttrOriginShapeInitialized, kAttrC0Format,    kAttrOriginC0Format,
};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Status WrongType(std::string_view name, const char* expected) {
  return ParamInvalid("attr " + Quote(name) + " is reserved by the serializer for " + expected +
                      ", but holds something else; rename or remove it");
}

// A list attr whose only non-empty field is the one `expected` names (or that is empty).
bool IsListOf(const proto::AttrDef& def, ListValue::ListValueType expected, int count) {
  if (def.value_case() != proto::AttrDef::kList) return false;
  const ListValue& list = def.list();
  if (list.val_type() != expected && list.val_type() != ListValue::VT_LIST_NONE) return false;
  const int total = list.s_size() + list.i_size() + list.f_size() + list.b_size() + list.bt_size() +
                    list.td_size() + list.t_size() + list.g_size() + list.na_size() +
                    list.dt_size();
  return total == count;
}
}  // namespace

bool IsReservedAttr(HolderKind kind, std::string_view name) {
  switch (kind) {
    case HolderKind::kOp:
      return Contains(kOpReserved, name);
    case HolderKind::kGraph:
      return Contains(kGraphReserved, name);
    case HolderKind::kTensorDesc:
      return Contains(kDescReserved, name);
    case HolderKind::kNamedAttrs:
      return false;
  }
  return false;
}

void PutString(AttrMap& attrs, const std::string& name, const std::string& value) {
  attrs[name].set_s(value);
}

void PutInt(AttrMap& attrs, const std::string& name, int64_t value) { attrs[name].set_i(value); }

void PutBool(AttrMap& attrs, const std::string& name, bool value) { attrs[name].set_b(value); }

void PutListString(AttrMap& attrs, const std::string& name, const std::vector<std::string>& v) {
  ListValue* list = attrs[name].mutable_list();
  list->set_val_type(ListValue::VT_LIST_STRING);
  list->mutable_s()->Reserve(static_cast<int>(v.size()));
  for (const auto& s : v) list->add_s(s);
}

void PutListInt(AttrMap& attrs, const std::string& name, const std::vector<int64_t>& v) {
  ListValue* list = attrs[name].mutable_list();
  list->set_val_type(ListValue::VT_LIST_INT);
  list->mutable_i()->Add(v.begin(), v.end());
}

ReservedView::ReservedView(AttrMap& attrs, HolderKind kind) {
  for (auto& [name, def] : attrs) {
    if (!name.empty() && IsReservedAttr(kind, name)) entries_.emplace_back(name, &def);
  }
}

proto::AttrDef* ReservedView::Find(std::string_view name) const {
  for (const auto& [key, def] : entries_) {
    if (key == name) return def;
  }
  return nullptr;
}

Result<std::optional<std::string>> ReservedView::String(std::string_view name) const {
  proto::AttrDef* def = Find(name);
  if (def == nullptr) return std::optional<std::string>();
  if (def->value_case() != proto::AttrDef::kS) return WrongType(name, "a string");
  return std::optional<std::string>(std::move(*def->mutable_s()));
}

Result<std::optional<int64_t>> ReservedView::Int(std::string_view name) const {
  const proto::AttrDef* def = Find(name);
  if (def == nullptr) return std::optional<int64_t>();
  if (def->value_case() != proto::AttrDef::kI) return WrongType(name, "an int");
  return std::optional<int64_t>(def->i());
}

Result<std::optional<bool>> ReservedView::Bool(std::string_view name) const {
  const proto::AttrDef* def = Find(name);
  if (def == nullptr) return std::optional<bool>();
  if (def->value_case() != proto::AttrDef::kB) return WrongType(name, "a bool");
  return std::optional<bool>(def->b());
}

Result<std::optional<std::vector<std::string>>> ReservedView::ListString(
    std::string_view name) const {
  proto::AttrDef* def = Find(name);
  if (def == nullptr) return std::optional<std::vector<std::string>>();
  if (!IsListOf(*def, ListValue::VT_LIST_STRING, def->list().s_size())) {
    return WrongType(name, "a list of strings");
  }
  std::vector<std::string> values;
  values.reserve(static_cast<size_t>(def->list().s_size()));
  for (auto& s : *def->mutable_list()->mutable_s()) values.push_back(std::move(s));
  return std::optional<std::vector<std::string>>(std::move(values));
}

Result<std::optional<std::vector<int64_t>>> ReservedView::ListInt(std::string_view name) const {
  const proto::AttrDef* def = Find(name);
  if (def == nullptr) return std::optional<std::vector<int64_t>>();
  if (!IsListOf(*def, ListValue::VT_LIST_INT, def->list().i_size())) {
    return WrongType(name, "a list of ints");
  }
  return std::optional<std::vector<int64_t>>(
      std::vector<int64_t>(def->list().i().begin(), def->list().i().end()));
}

}  // namespace ge::serialize
