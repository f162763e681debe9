// The attribute serializer registry (filled by RegisterBuiltinAttrSerializers in its constructor,
// no static registration) and the attr-map loops built on it.
#include "attr_serialize.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace ge::serialize {

namespace {
using Def = proto::AttrDef;
using ListValue = proto::AttrDef::ListValue;
}  // namespace

AttrSerializerRegistry::AttrSerializerRegistry() { RegisterBuiltinAttrSerializers(*this); }

const AttrSerializerRegistry& AttrSerializerRegistry::Instance() {
  static const AttrSerializerRegistry* const kRegistry = new AttrSerializerRegistry();
  return *kRegistry;
}

void AttrSerializerRegistry::Register(std::unique_ptr<AttrSerializer> serializer) {
  const auto type = static_cast<size_t>(serializer->type());
  if (type >= kTypeCount || by_type_[type] != nullptr) {
    std::fprintf(stderr, "AttrSerializerRegistry: type %s registered twice\n",
                 AttrValue::TypeName(serializer->type()));
    std::abort();
  }
  for (const ProtoKind& kind : serializer->proto_kinds()) {
    for (const auto& [known, owner] : by_kind_) {
      if (known.value_case == kind.value_case && known.list_type == kind.list_type) {
        std::fprintf(stderr, "AttrSerializerRegistry: an encoding of %s is taken by %s\n",
                     AttrValue::TypeName(serializer->type()), AttrValue::TypeName(owner->type()));
        std::abort();
      }
    }
    by_kind_.emplace_back(kind, serializer.get());
  }
  by_type_[type] = serializer.get();
  owned_.push_back(std::move(serializer));
}

const AttrSerializer* AttrSerializerRegistry::ForType(AttrValue::Type type) const {
  const auto index = static_cast<size_t>(type);
  return index < kTypeCount ? by_type_[index] : nullptr;
}

Result<const AttrSerializer*> AttrSerializerRegistry::ForProto(const Def& def) const {
  ProtoKind kind{def.value_case()};
  if (kind.value_case == Def::kList) {
    const ListValue& list = def.list();
    // Which list fields hold values, to check them against val_type (or to infer it).
    const std::pair<ListValue::ListValueType, int> fields[] = {
        {ListValue::VT_LIST_STRING, list.s_size()},
        {ListValue::VT_LIST_INT, list.i_size()},
        {ListValue::VT_LIST_FLOAT, list.f_size()},
        {ListValue::VT_LIST_BOOL, list.b_size()},
        {ListValue::VT_LIST_BYTES, list.bt_size()},
        {ListValue::VT_LIST_TENSOR_DESC, list.td_size()},
        {ListValue::VT_LIST_TENSOR, list.t_size()},
        {ListValue::VT_LIST_GRAPH, list.g_size()},
        {ListValue::VT_LIST_NAMED_ATTRS, list.na_size()},
        {ListValue::VT_LIST_DATA_TYPE, list.dt_size()},
    };
    ListValue::ListValueType found = ListValue::VT_LIST_NONE;
    for (const auto& [type, count] : fields) {
      if (count == 0) continue;
      if (found != ListValue::VT_LIST_NONE) {
        return ParamInvalid("list holds values of two kinds (" +
                            ListValue::ListValueType_Name(found) + " and " +
                            ListValue::ListValueType_Name(type) + ")");
      }
      found = type;
    }
    kind.list_type = list.val_type();
    if (!ListValue::ListValueType_IsValid(kind.list_type)) {
      return ParamInvalid("list val_type " + std::to_string(kind.list_type) + " is unknown");
    }
    if (kind.list_type == ListValue::VT_LIST_NONE) {
      kind.list_type = found == ListValue::VT_LIST_NONE ? ListValue::VT_LIST_INT : found;
    } else if (found != ListValue::VT_LIST_NONE && found != kind.list_type) {
      return ParamInvalid("list val_type is " + ListValue::ListValueType_Name(kind.list_type) +
                          " but its values are " + ListValue::ListValueType_Name(found));
    }
  }
  for (const auto& [known, serializer] : by_kind_) {
    if (known.value_case == kind.value_case && known.list_type == kind.list_type) {
      return serializer;
    }
  }
  return ParamInvalid("no serializer reads AttrDef value field " +
                      std::to_string(static_cast<int>(kind.value_case)));
}

// ---- attribute maps ----

Status SaveAttrs(const AttrStore& attrs, AttrMap& out, HolderKind holder, SaveContext& ctx) {
  if (attrs.Empty()) return Status::Ok();
  DepthGuard guard(ctx.depth);
  GE_RETURN_IF_ERROR(guard.status());
  const AttrSerializerRegistry& registry = AttrSerializerRegistry::Instance();
  Status status;
  attrs.ForEach([&](const std::string& name, const AttrValue& value) {
    if (!status.ok()) return;
    if (IsReservedAttr(holder, name)) {
      status = ParamInvalid("attr " + Quote(name) +
                            " uses a name the serializer reserves (see reserved_attrs.h); "
                            "rename the attribute");
      return;
    }
    Status utf8 = CheckUtf8(name, "attr name");
    if (!utf8.ok()) {
      status = std::move(utf8);
      return;
    }
    const AttrSerializer* serializer = registry.ForType(value.GetType());
    if (serializer == nullptr) {
      status = InternalError("attr " + Quote(name) + ": no serializer is registered for " +
                             AttrValue::TypeName(value.GetType()));
      return;
    }
    Status saved = serializer->Serialize(value, out[name], ctx);
    if (!saved.ok()) status = std::move(saved).Prefix("attr " + Quote(name));
  });
  return status;
}

Status LoadAttrs(AttrMap& in, AttrStore& out, HolderKind holder, LoadContext& ctx) {
  if (in.empty()) return Status::Ok();
  DepthGuard guard(ctx.depth);
  GE_RETURN_IF_ERROR(guard.status());
  const AttrSerializerRegistry& registry = AttrSerializerRegistry::Instance();
  for (auto& [name, def] : in) {
    if (IsReservedAttr(holder, name)) continue;
    Result<const AttrSerializer*> serializer = registry.ForProto(def);
    if (!serializer.ok()) return Status(serializer.status()).Prefix("attr " + Quote(name));
    Result<AttrValue> value = serializer.value()->Deserialize(def, ctx);
    if (!value.ok()) return Status(value.status()).Prefix("attr " + Quote(name));
    out.Set(name, std::move(value).value());
  }
  return Status::Ok();
}

}  // namespace ge::serialize
