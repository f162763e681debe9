// The built-in attribute serializers: one TypedSerializer per AttrValue::Type.
//
// Encodings follow GE: scalars use their oneof field, lists use ListValue with val_type set
// (so an empty list keeps its type), DataType values travel as C++ numbers in `dt`, a graph
// embeds a GraphDef (its subgraphs in the reserved `_subgraphs` list), NamedAttrs use `func`.
// To add an attribute type, add one `add(...)` below with its two functions.
#include <utility>

#include "attr_serialize.h"
#include "graph_serialize.h"
#include "tensor_serialize.h"

namespace ge::serialize {

namespace {

using Def = proto::AttrDef;
using ListValue = proto::AttrDef::ListValue;

/// A serializer for one C++ value type, given as a pair of plain functions.
template <typename T>
class TypedSerializer final : public AttrSerializer {
 public:
  using PutFn = Status (*)(const T& value, Def& out, SaveContext& ctx);
  using GetFn = Result<T> (*)(Def& in, LoadContext& ctx);

  TypedSerializer(std::vector<ProtoKind> kinds, PutFn put, GetFn get)
      : kinds_(std::move(kinds)), put_(put), get_(get) {}

  [[nodiscard]] AttrValue::Type type() const override { return AttrTypeOf<T>(); }
  [[nodiscard]] std::vector<ProtoKind> proto_kinds() const override { return kinds_; }
  Status Serialize(const AttrValue& value, Def& out, SaveContext& ctx) const override {
    const T* typed = value.Get<T>();
    if (typed == nullptr) {
      return InternalError(std::string("serializer for ") + AttrValue::TypeName(type()) +
                           " was given a " + AttrValue::TypeName(value.GetType()));
    }
    return put_(*typed, out, ctx);
  }
  Result<AttrValue> Deserialize(Def& in, LoadContext& ctx) const override {
    Result<T> value = get_(in, ctx);
    if (!value.ok()) return value.status();
    return AttrValue(AttrValue::Variant(std::in_place_type<T>, std::move(value).value()));
  }

 private:
  std::vector<ProtoKind> kinds_;
  PutFn put_;
  GetFn get_;
};

ListValue& NewList(Def& out, ListValue::ListValueType type) {
  ListValue* list = out.mutable_list();
  list->set_val_type(type);
  return *list;
}

Status CheckDataType(int64_t value) {
  if (IsSerializableDataType(value)) return Status::Ok();
  std::string message = "dt ";
  message += std::to_string(value);
  message += " is not a ge::DataType (C++ numbering, 0..";
  message += std::to_string(DT_MAX - 1);
  message += " without 5)";
  return ParamInvalid(message);
}

Buffer ToBuffer(const std::string& bytes) {
  return Buffer{std::vector<uint8_t>(bytes.begin(), bytes.end())};
}

Status SaveGraphAttr(const ComputeGraphPtr& graph, proto::GraphDef& out, SaveContext& ctx) {
  if (graph == nullptr) {
    return ParamInvalid("the graph is null, which a file cannot hold; remove the attribute");
  }
  // The graph itself goes into `out`, its subgraphs into out's reserved `_subgraphs` list.
  bool main_taken = false;
  ListValue* subgraphs = nullptr;
  const GraphDefSink next = [&out, &main_taken, &subgraphs]() -> proto::GraphDef* {
    if (!main_taken) {
      main_taken = true;
      return &out;
    }
    if (subgraphs == nullptr) {
      subgraphs = &NewList((*out.mutable_attr())[kAttrSubgraphs], ListValue::VT_LIST_GRAPH);
    }
    return subgraphs->add_g();
  };
  return SaveGraphTree(*graph, next, ctx);
}

Status SaveNamedAttrs(const NamedAttrs& value, proto::NamedAttrs& out, SaveContext& ctx) {
  GE_RETURN_IF_ERROR(CheckUtf8(value.GetName(), "named attrs name"));
  out.set_name(value.GetName());
  return SaveAttrs(value.GetAttrMap(), *out.mutable_attr(), HolderKind::kNamedAttrs, ctx);
}

Result<NamedAttrs> LoadNamedAttrs(proto::NamedAttrs& in, LoadContext& ctx) {
  NamedAttrs value(std::move(*in.mutable_name()));
  GE_RETURN_IF_ERROR(
      LoadAttrs(*in.mutable_attr(), value.MutableAttrMap(), HolderKind::kNamedAttrs, ctx));
  return value;
}

Result<GeTensorDesc> LoadDesc(proto::TensorDescriptor& in, LoadContext& ctx) {
  GeTensorDesc desc;
  GE_RETURN_IF_ERROR(LoadTensorDesc(in, desc, ctx));
  return desc;
}

/// Applies `save` to each element, adding the element's index to an error.
template <typename T, typename Out, typename Fn>
Status SaveEach(const std::vector<T>& values, Out* (ListValue::*add)(), ListValue& list, Fn save) {
  for (size_t i = 0; i < values.size(); ++i) {
    Status status = save(values[i], *(list.*add)());
    if (!status.ok()) return std::move(status).Prefix("element " + std::to_string(i));
  }
  return Status::Ok();
}

/// Applies `load` to each element of a repeated message field.
template <typename T, typename Field, typename Fn>
Result<std::vector<T>> LoadEach(Field& field, Fn load) {
  std::vector<T> values;
  values.reserve(static_cast<size_t>(field.size()));
  for (int i = 0; i < field.size(); ++i) {
    Result<T> value = load(*field.Mutable(i));
    if (!value.ok()) {
      return Status(value.status()).Prefix("element " + std::to_string(i));
    }
    values.push_back(std::move(value).value());
  }
  return values;
}

constexpr ProtoKind ListKind(ListValue::ListValueType type) { return {Def::kList, type}; }

}  // namespace

void RegisterBuiltinAttrSerializers(AttrSerializerRegistry& registry) {
  auto add = [&registry](auto serializer) { registry.Register(std::move(serializer)); };
  // Scalars.
  add(std::make_unique<TypedSerializer<std::monostate>>(
      std::vector<ProtoKind>{{Def::VALUE_NOT_SET}},
      [](const std::monostate&, Def&, SaveContext&) { return Status::Ok(); },
      [](Def&, LoadContext&) -> Result<std::monostate> { return std::monostate{}; }));
  add(std::make_unique<TypedSerializer<int64_t>>(
      std::vector<ProtoKind>{{Def::kI}},
      [](const int64_t& v, Def& out, SaveContext&) {
        out.set_i(v);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<int64_t> { return in.i(); }));
  add(std::make_unique<TypedSerializer<float>>(
      std::vector<ProtoKind>{{Def::kF}},
      [](const float& v, Def& out, SaveContext&) {
        out.set_f(v);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<float> { return in.f(); }));
  add(std::make_unique<TypedSerializer<bool>>(
      std::vector<ProtoKind>{{Def::kB}},
      [](const bool& v, Def& out, SaveContext&) {
        out.set_b(v);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<bool> { return in.b(); }));
  // GE's `expression` has no C++ type of its own: it reads as a string.
  add(std::make_unique<TypedSerializer<std::string>>(
      std::vector<ProtoKind>{{Def::kS}, {Def::kExpression}},
      [](const std::string& v, Def& out, SaveContext&) {
        out.set_s(v);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::string> {
        return std::move(in.value_case() == Def::kExpression ? *in.mutable_expression()
                                                             : *in.mutable_s());
      }));
  add(std::make_unique<TypedSerializer<Buffer>>(
      std::vector<ProtoKind>{{Def::kBt}},
      [](const Buffer& v, Def& out, SaveContext&) {
        out.set_bt(v.data.data(), v.data.size());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<Buffer> { return ToBuffer(in.bt()); }));
  add(std::make_unique<TypedSerializer<DataType>>(
      std::vector<ProtoKind>{{Def::kDt}},
      [](const DataType& v, Def& out, SaveContext&) {
        GE_RETURN_IF_ERROR(CheckDataType(v));
        out.set_dt(v);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<DataType> {
        GE_RETURN_IF_ERROR(CheckDataType(in.dt()));
        return static_cast<DataType>(in.dt());
      }));
  add(std::make_unique<TypedSerializer<GeTensor>>(
      std::vector<ProtoKind>{{Def::kT}},
      [](const GeTensor& v, Def& out, SaveContext& ctx) {
        return SaveTensor(v, *out.mutable_t(), ctx);
      },
      [](Def& in, LoadContext& ctx) { return LoadTensor(*in.mutable_t(), ctx); }));
  add(std::make_unique<TypedSerializer<GeTensorDesc>>(
      std::vector<ProtoKind>{{Def::kTd}},
      [](const GeTensorDesc& v, Def& out, SaveContext& ctx) {
        return SaveTensorDesc(v, *out.mutable_td(), ctx);
      },
      [](Def& in, LoadContext& ctx) { return LoadDesc(*in.mutable_td(), ctx); }));
  add(std::make_unique<TypedSerializer<ComputeGraphPtr>>(
      std::vector<ProtoKind>{{Def::kG}},
      [](const ComputeGraphPtr& v, Def& out, SaveContext& ctx) {
        return SaveGraphAttr(v, *out.mutable_g(), ctx);
      },
      [](Def& in, LoadContext& ctx) { return LoadGraphTree({in.mutable_g()}, ctx); }));
  add(std::make_unique<TypedSerializer<NamedAttrs>>(
      std::vector<ProtoKind>{{Def::kFunc}},
      [](const NamedAttrs& v, Def& out, SaveContext& ctx) {
        return SaveNamedAttrs(v, *out.mutable_func(), ctx);
      },
      [](Def& in, LoadContext& ctx) { return LoadNamedAttrs(*in.mutable_func(), ctx); }));

  // Lists of scalars.
  add(std::make_unique<TypedSerializer<std::vector<int64_t>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_INT)},
      [](const std::vector<int64_t>& v, Def& out, SaveContext&) {
        NewList(out, ListValue::VT_LIST_INT).mutable_i()->Add(v.begin(), v.end());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<int64_t>> {
        return std::vector<int64_t>(in.list().i().begin(), in.list().i().end());
      }));
  add(std::make_unique<TypedSerializer<std::vector<float>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_FLOAT)},
      [](const std::vector<float>& v, Def& out, SaveContext&) {
        NewList(out, ListValue::VT_LIST_FLOAT).mutable_f()->Add(v.begin(), v.end());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<float>> {
        return std::vector<float>(in.list().f().begin(), in.list().f().end());
      }));
  add(std::make_unique<TypedSerializer<std::vector<bool>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_BOOL)},
      [](const std::vector<bool>& v, Def& out, SaveContext&) {
        ListValue& list = NewList(out, ListValue::VT_LIST_BOOL);
        for (bool b : v) list.add_b(b);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<bool>> {
        return std::vector<bool>(in.list().b().begin(), in.list().b().end());
      }));
  add(std::make_unique<TypedSerializer<std::vector<std::string>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_STRING)},
      [](const std::vector<std::string>& v, Def& out, SaveContext&) {
        ListValue& list = NewList(out, ListValue::VT_LIST_STRING);
        for (const auto& s : v) list.add_s(s);
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<std::string>> {
        std::vector<std::string> values;
        values.reserve(static_cast<size_t>(in.list().s_size()));
        for (auto& s : *in.mutable_list()->mutable_s()) values.push_back(std::move(s));
        return values;
      }));
  add(std::make_unique<TypedSerializer<std::vector<Buffer>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_BYTES)},
      [](const std::vector<Buffer>& v, Def& out, SaveContext&) {
        ListValue& list = NewList(out, ListValue::VT_LIST_BYTES);
        for (const auto& b : v) list.add_bt(b.data.data(), b.data.size());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<Buffer>> {
        std::vector<Buffer> values;
        values.reserve(static_cast<size_t>(in.list().bt_size()));
        for (const auto& b : in.list().bt()) values.push_back(ToBuffer(b));
        return values;
      }));
  add(std::make_unique<TypedSerializer<std::vector<DataType>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_DATA_TYPE)},
      [](const std::vector<DataType>& v, Def& out, SaveContext&) {
        ListValue& list = NewList(out, ListValue::VT_LIST_DATA_TYPE);
        for (size_t i = 0; i < v.size(); ++i) {
          Status status = CheckDataType(v[i]);
          if (!status.ok()) return std::move(status).Prefix("element " + std::to_string(i));
          list.add_dt(v[i]);
        }
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<DataType>> {
        std::vector<DataType> values;
        values.reserve(static_cast<size_t>(in.list().dt_size()));
        for (int i = 0; i < in.list().dt_size(); ++i) {
          Status status = CheckDataType(in.list().dt(i));
          if (!status.ok()) return std::move(status).Prefix("element " + std::to_string(i));
          values.push_back(static_cast<DataType>(in.list().dt(i)));
        }
        return values;
      }));

  // Lists of messages.
  add(std::make_unique<TypedSerializer<std::vector<GeTensor>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_TENSOR)},
      [](const std::vector<GeTensor>& v, Def& out, SaveContext& ctx) {
        return SaveEach(
            v, &ListValue::add_t, NewList(out, ListValue::VT_LIST_TENSOR),
            [&ctx](const GeTensor& t, proto::TensorDef& def) { return SaveTensor(t, def, ctx); });
      },
      [](Def& in, LoadContext& ctx) {
        return LoadEach<GeTensor>(*in.mutable_list()->mutable_t(),
                                  [&ctx](proto::TensorDef& def) { return LoadTensor(def, ctx); });
      }));
  add(std::make_unique<TypedSerializer<std::vector<GeTensorDesc>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_TENSOR_DESC)},
      [](const std::vector<GeTensorDesc>& v, Def& out, SaveContext& ctx) {
        return SaveEach(v, &ListValue::add_td, NewList(out, ListValue::VT_LIST_TENSOR_DESC),
                        [&ctx](const GeTensorDesc& d, proto::TensorDescriptor& def) {
                          return SaveTensorDesc(d, def, ctx);
                        });
      },
      [](Def& in, LoadContext& ctx) {
        return LoadEach<GeTensorDesc>(
            *in.mutable_list()->mutable_td(),
            [&ctx](proto::TensorDescriptor& def) { return LoadDesc(def, ctx); });
      }));
  add(std::make_unique<TypedSerializer<std::vector<ComputeGraphPtr>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_GRAPH)},
      [](const std::vector<ComputeGraphPtr>& v, Def& out, SaveContext& ctx) {
        return SaveEach(v, &ListValue::add_g, NewList(out, ListValue::VT_LIST_GRAPH),
                        [&ctx](const ComputeGraphPtr& g, proto::GraphDef& def) {
                          return SaveGraphAttr(g, def, ctx);
                        });
      },
      [](Def& in, LoadContext& ctx) {
        return LoadEach<ComputeGraphPtr>(
            *in.mutable_list()->mutable_g(),
            [&ctx](proto::GraphDef& def) { return LoadGraphTree({&def}, ctx); });
      }));
  add(std::make_unique<TypedSerializer<std::vector<NamedAttrs>>>(
      std::vector<ProtoKind>{ListKind(ListValue::VT_LIST_NAMED_ATTRS)},
      [](const std::vector<NamedAttrs>& v, Def& out, SaveContext& ctx) {
        return SaveEach(v, &ListValue::add_na, NewList(out, ListValue::VT_LIST_NAMED_ATTRS),
                        [&ctx](const NamedAttrs& na, proto::NamedAttrs& def) {
                          return SaveNamedAttrs(na, def, ctx);
                        });
      },
      [](Def& in, LoadContext& ctx) {
        return LoadEach<NamedAttrs>(
            *in.mutable_list()->mutable_na(),
            [&ctx](proto::NamedAttrs& def) { return LoadNamedAttrs(def, ctx); });
      }));

  // Lists of lists.
  add(std::make_unique<TypedSerializer<std::vector<std::vector<int64_t>>>>(
      std::vector<ProtoKind>{{Def::kListListInt}},
      [](const std::vector<std::vector<int64_t>>& v, Def& out, SaveContext&) {
        auto* lists = out.mutable_list_list_int();
        for (const auto& inner : v)
          lists->add_list_list_i()->mutable_list_i()->Add(inner.begin(), inner.end());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<std::vector<int64_t>>> {
        std::vector<std::vector<int64_t>> values;
        values.reserve(static_cast<size_t>(in.list_list_int().list_list_i_size()));
        for (const auto& inner : in.list_list_int().list_list_i()) {
          values.emplace_back(inner.list_i().begin(), inner.list_i().end());
        }
        return values;
      }));
  add(std::make_unique<TypedSerializer<std::vector<std::vector<float>>>>(
      std::vector<ProtoKind>{{Def::kListListFloat}},
      [](const std::vector<std::vector<float>>& v, Def& out, SaveContext&) {
        auto* lists = out.mutable_list_list_float();
        for (const auto& inner : v)
          lists->add_list_list_f()->mutable_list_f()->Add(inner.begin(), inner.end());
        return Status::Ok();
      },
      [](Def& in, LoadContext&) -> Result<std::vector<std::vector<float>>> {
        std::vector<std::vector<float>> values;
        values.reserve(static_cast<size_t>(in.list_list_float().list_list_f_size()));
        for (const auto& inner : in.list_list_float().list_list_f()) {
          values.emplace_back(inner.list_f().begin(), inner.list_f().end());
        }
        return values;
      }));
}

}  // namespace ge::serialize
