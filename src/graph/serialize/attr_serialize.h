// The attribute serializer registry: one serializer per AttrValue::Type, each mapping its C++
// value to an AttrDef and back. Adding an attribute type means writing one serializer and
// registering it in RegisterBuiltinAttrSerializers (attr_serializers.cc).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "ge/graph/attr_store.h"
#include "ge/graph/attr_value.h"
#include "ge/graph/status.h"
#include "reserved_attrs.h"
#include "serialize_internal.h"

namespace ge::serialize {

/// Which AttrDef encodings a serializer reads: the oneof case, and for lists the val_type.
struct ProtoKind {
  proto::AttrDef::ValueCase value_case;
  proto::AttrDef::ListValue::ListValueType list_type = proto::AttrDef::ListValue::VT_LIST_NONE;
};

class AttrSerializer {
 public:
  virtual ~AttrSerializer() = default;
  /// The AttrValue type this serializer writes.
  [[nodiscard]] virtual AttrValue::Type type() const = 0;
  /// The encodings it reads (its own first; e.g. strings also read GE's `expression`).
  [[nodiscard]] virtual std::vector<ProtoKind> proto_kinds() const = 0;
  /// Writes `value` (which holds type()) into `out`.
  virtual Status Serialize(const AttrValue& value, proto::AttrDef& out, SaveContext& ctx) const = 0;
  /// Reads `in`, whose encoding is one of proto_kinds(); may move bytes out of it.
  virtual Result<AttrValue> Deserialize(proto::AttrDef& in, LoadContext& ctx) const = 0;
};

/// Holds one serializer per AttrValue::Type and finds the one for an AttrDef.
class AttrSerializerRegistry {
 public:
  /// The registry with every built-in serializer, built on first use.
  static const AttrSerializerRegistry& Instance();

  /// Adds a serializer; a type or an encoding registered twice is a programming error.
  void Register(std::unique_ptr<AttrSerializer> serializer);
  /// The serializer for a type, or nullptr.
  const AttrSerializer* ForType(AttrValue::Type type) const;
  /// The serializer that reads `def`, or an error naming its encoding. A list without
  /// val_type is recognized by its one non-empty field; an empty one reads as a list of ints.
  Result<const AttrSerializer*> ForProto(const proto::AttrDef& def) const;

 private:
  AttrSerializerRegistry();
  static constexpr size_t kTypeCount = static_cast<size_t>(AttrValue::Type::kListListFloat) + 1;
  std::vector<std::unique_ptr<AttrSerializer>> owned_;
  std::array<const AttrSerializer*, kTypeCount> by_type_{};
  std::vector<std::pair<ProtoKind, const AttrSerializer*>> by_kind_;
};

/// Registers the serializers of every AttrValue type (attr_serializers.cc).
void RegisterBuiltinAttrSerializers(AttrSerializerRegistry& registry);

/// Writes every attribute of `attrs` into `out` through the registry. A name reserved for
/// `holder` is refused, naming the attribute.
Status SaveAttrs(const AttrStore& attrs, AttrMap& out, HolderKind holder, SaveContext& ctx);
/// Reads every entry of `in` into `out`, except the names reserved for `holder` (their
/// owners read those through a ReservedView).
Status LoadAttrs(AttrMap& in, AttrStore& out, HolderKind holder, LoadContext& ctx);

}  // namespace ge::serialize
