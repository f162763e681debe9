// Applies a mapping-table row to one ONNX node: input/output specs, attribute renames and value
// conversions, attributes that became inputs, defaults, and the row's converter.
#include <algorithm>
#include <cstring>
#include <limits>

#include "ge/graph/utils/attr_utils.h"
#include "onnx_tensor.h"
#include "op_converters.h"

namespace ge::onnx_parser {
namespace {

struct SpecItem {
  std::string name;
  int src = 0;
  bool optional = false;
  bool dynamic = false;
};

// "x,filter=1,bias?,inputs*=3" → items (see the format note in op_mapping_table.cc).
std::vector<SpecItem> ParseSpec(std::string_view spec) {
  std::vector<SpecItem> items;
  int position = 0;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    SpecItem out;
    out.src = position++;
    size_t eq = item.find('=');
    if (eq != std::string_view::npos) {
      out.src = std::stoi(std::string(item.substr(eq + 1)));
      item = item.substr(0, eq);
    }
    if (!item.empty() && (item.back() == '?' || item.back() == '*')) {
      (item.back() == '?' ? out.optional : out.dynamic) = true;
      item.remove_suffix(1);
    }
    out.name = std::string(item);
    items.push_back(std::move(out));
  }
  return items;
}

GeTensorDesc UnknownDesc() {
  return GeTensorDesc(GeShape({UNKNOWN_DIM_NUM}), FORMAT_ND, DT_UNDEFINED);
}

Status AddInputs(const OpMappingRow& row, NodeContext& ctx) {
  const auto& node = ctx.node();
  const int count = node.input_size();
  OpDesc& op = ctx.op();
  // An absent ("" or missing) input is declared optional and left unlinked.
  auto add = [&](const std::string& name, const std::string& value) -> Status {
    if (value.empty()) {
      GE_RETURN_IF_ERROR(op.AddOptionalInputDesc(name, GeTensorDesc()));
      ctx.sources().push_back({});
      return Status::Ok();
    }
    const GeTensorDesc* known = ctx.ValueDesc(value);
    GE_RETURN_IF_ERROR(op.AddInputDesc(name, known != nullptr ? *known : UnknownDesc()));
    ctx.sources().push_back({value, std::nullopt});
    return Status::Ok();
  };
  if (row.inputs.empty()) {
    for (int i = 0; i < count; ++i) {
      GE_RETURN_IF_ERROR(add("__input" + std::to_string(i), node.input(i)));
    }
    return Status::Ok();
  }
  int consumed = 0;
  for (const SpecItem& item : ParseSpec(row.inputs)) {
    if (item.dynamic) {
      for (int i = item.src; i < count; ++i) {
        GE_RETURN_IF_ERROR(add(item.name + std::to_string(i - item.src), node.input(i)));
      }
      consumed = std::max(consumed, count);
      continue;
    }
    std::string value = item.src < count ? node.input(item.src) : "";
    if (value.empty() && !item.optional) {
      return ctx.Error("required input #" + std::to_string(item.src) + " ('" + item.name + "' of " +
                       op.GetType() + ") is missing; the model is invalid");
    }
    GE_RETURN_IF_ERROR(add(item.name, value));
    consumed = std::max(consumed, item.src + 1);
  }
  for (int i = consumed; i < count; ++i) {
    if (!node.input(i).empty()) {
      return ctx.Error("has " + std::to_string(count) + " inputs but the mapping to " +
                       op.GetType() + " takes " + std::to_string(consumed) +
                       "; this form of the operator is not supported");
    }
  }
  return Status::Ok();
}

Status AddOutputs(const OpMappingRow& row, NodeContext& ctx) {
  const auto& node = ctx.node();
  const int count = node.output_size();
  OpDesc& op = ctx.op();
  auto add = [&](const std::string& name, const std::string& value) -> Status {
    const GeTensorDesc* known = ctx.ValueDesc(value);
    GE_RETURN_IF_ERROR(op.AddOutputDesc(name, known != nullptr ? *known : UnknownDesc()));
    ctx.output_values().push_back(value);
    return Status::Ok();
  };
  if (row.outputs.empty()) {
    for (int i = 0; i < count; ++i) {
      GE_RETURN_IF_ERROR(add("__output" + std::to_string(i), node.output(i)));
    }
    return Status::Ok();
  }
  int consumed = 0;
  for (const SpecItem& item : ParseSpec(row.outputs)) {
    if (item.dynamic) {
      for (int i = item.src; i < count; ++i) {
        GE_RETURN_IF_ERROR(add(item.name + std::to_string(i - item.src), node.output(i)));
      }
      consumed = std::max(consumed, count);
      continue;
    }
    if (item.src >= count && item.optional) continue;
    GE_RETURN_IF_ERROR(add(item.name, item.src < count ? node.output(item.src) : ""));
    consumed = std::max(consumed, item.src + 1);
  }
  for (int i = consumed; i < count; ++i) {
    if (!node.output(i).empty()) {
      return ctx.Error("has " + std::to_string(count) + " outputs but the mapping to " +
                       op.GetType() + " gives " + std::to_string(consumed));
    }
  }
  return Status::Ok();
}

Result<AttrValue> ConvertRule(const AttrValue& value, AttrConv conv, const NodeContext& ctx,
                              const std::string& attr_name) {
  auto bad = [&](const char* what) { return ctx.Error("attribute '" + attr_name + "' " + what); };
  switch (conv) {
    case AttrConv::kCopy:
    case AttrConv::kDrop:
      return value;
    case AttrConv::kOnnxDtype: {
      const auto* number = value.Get<int64_t>();
      if (number == nullptr) return bad("must be an int (a TensorProto.DataType)");
      DataType dtype = FromOnnxDataType(static_cast<int32_t>(*number));
      if (dtype == DT_UNDEFINED) return bad("names an unsupported element type");
      return AttrValue(dtype);
    }
  }
  return value;
}

Result<GeTensor> InputFromAttr(const AttrValue* value, const AttrToInput& rule,
                               const NodeContext& ctx) {
  auto bad = [&]() {
    return ctx.Error("attribute '" + std::string(rule.attr) + "' has the wrong type");
  };
  switch (rule.kind) {
    case InputKind::kInt64List:
      if (value == nullptr) return MakeInt64Tensor({static_cast<int64_t>(rule.default_value)});
      if (const auto* v = value->Get<std::vector<int64_t>>()) return MakeInt64Tensor(*v);
      return bad();
    case InputKind::kInt64Scalar:
      if (value == nullptr) {
        return MakeInt64Tensor({static_cast<int64_t>(rule.default_value)}, /*scalar=*/true);
      }
      if (const auto* v = value->Get<int64_t>()) return MakeInt64Tensor({*v}, /*scalar=*/true);
      return bad();
    case InputKind::kFloatList:
      if (value == nullptr) return MakeFloatTensor({static_cast<float>(rule.default_value)});
      if (const auto* v = value->Get<std::vector<float>>()) return MakeFloatTensor(*v);
      return bad();
    case InputKind::kFloatScalar:
      if (value == nullptr) {
        return MakeFloatTensor({static_cast<float>(rule.default_value)}, /*scalar=*/true);
      }
      if (const auto* v = value->Get<float>()) return MakeFloatTensor({*v}, /*scalar=*/true);
      return bad();
  }
  return bad();
}

}  // namespace

Status ApplyRow(const OpMappingRow& row, NodeContext& ctx) {
  GE_RETURN_IF_ERROR(AddInputs(row, ctx));
  GE_RETURN_IF_ERROR(AddOutputs(row, ctx));
  OpDesc& op = ctx.op();
  std::vector<std::pair<const AttrToInput*, AttrValue>> to_inputs;
  for (const auto& attr : ctx.node().attribute()) {
    if (!attr.ref_attr_name().empty()) {
      return ctx.Error("attribute '" + attr.name() +
                       "' refers to a function attribute; "
                       "only model graphs (not function bodies) are supported");
    }
    GE_ASSIGN_OR_RETURN(AttrValue value, ConvertAttrValue(attr, ctx));
    if (value.IsNone()) continue;  // graphs become subgraphs; type protos are dropped
    auto input_rule = std::find_if(row.attr_inputs.begin(), row.attr_inputs.end(),
                                   [&](const AttrToInput& r) { return r.attr == attr.name(); });
    if (input_rule != row.attr_inputs.end()) {
      to_inputs.emplace_back(&*input_rule, std::move(value));
      continue;
    }
    auto rule = std::find_if(row.attrs.begin(), row.attrs.end(),
                             [&](const AttrRule& r) { return r.onnx_name == attr.name(); });
    if (rule == row.attrs.end()) {
      AttrUtils::SetAttr(op, attr.name(), std::move(value));
      continue;
    }
    if (rule->conv == AttrConv::kDrop) continue;
    GE_ASSIGN_OR_RETURN(AttrValue converted, ConvertRule(value, rule->conv, ctx, attr.name()));
    AttrUtils::SetAttr(op, std::string(rule->ir_name), std::move(converted));
  }
  for (const AttrToInput& rule : row.attr_inputs) {
    auto given = std::find_if(to_inputs.begin(), to_inputs.end(),
                              [&](const auto& p) { return p.first == &rule; });
    if (given == to_inputs.end() && !rule.has_default) continue;
    GE_ASSIGN_OR_RETURN(
        GeTensor tensor,
        InputFromAttr(given == to_inputs.end() ? nullptr : &given->second, rule, ctx));
    GE_RETURN_IF_ERROR(
        ctx.InsertConstInput(rule.input_index, std::string(rule.input_name), std::move(tensor)));
  }
  for (const auto& [name, value] : row.fixed_attrs) {
    if (!op.HasAttr(name)) AttrUtils::SetAttr(op, name, value);
  }
  if (row.converter != nullptr) GE_RETURN_IF_ERROR(row.converter(ctx));
  return Status::Ok();
}

Result<AttrValue> ConvertAttrValue(const onnx::AttributeProto& attr, const NodeContext& ctx) {
  using onnx::AttributeProto;
  auto type = attr.type();
  if (type == AttributeProto::UNDEFINED) {  // IR version < 2: infer from the field that is set
    if (attr.has_f())
      type = AttributeProto::FLOAT;
    else if (attr.has_i())
      type = AttributeProto::INT;
    else if (attr.has_s())
      type = AttributeProto::STRING;
    else if (attr.has_t())
      type = AttributeProto::TENSOR;
    else if (attr.has_g())
      type = AttributeProto::GRAPH;
    else if (attr.floats_size() > 0)
      type = AttributeProto::FLOATS;
    else if (attr.ints_size() > 0)
      type = AttributeProto::INTS;
    else if (attr.strings_size() > 0)
      type = AttributeProto::STRINGS;
  }
  switch (type) {
    case AttributeProto::FLOAT:
      return AttrValue(attr.f());
    case AttributeProto::INT:
      return AttrValue(static_cast<int64_t>(attr.i()));
    case AttributeProto::STRING:
      return AttrValue(attr.s());
    case AttributeProto::FLOATS:
      return AttrValue(std::vector<float>(attr.floats().begin(), attr.floats().end()));
    case AttributeProto::INTS:
      return AttrValue(std::vector<int64_t>(attr.ints().begin(), attr.ints().end()));
    case AttributeProto::STRINGS:
      return AttrValue(std::vector<std::string>(attr.strings().begin(), attr.strings().end()));
    case AttributeProto::TENSOR: {
      GE_ASSIGN_OR_RETURN(GeTensor t,
                          TensorFromProto(attr.t(), ctx.tensors(),
                                          ctx.where() + " attribute '" + attr.name() + "'"));
      return AttrValue(std::move(t));
    }
    case AttributeProto::TENSORS: {
      std::vector<GeTensor> tensors;
      for (const auto& t : attr.tensors()) {
        GE_ASSIGN_OR_RETURN(
            GeTensor g,
            TensorFromProto(t, ctx.tensors(), ctx.where() + " attribute '" + attr.name() + "'"));
        tensors.push_back(std::move(g));
      }
      return AttrValue(std::move(tensors));
    }
    case AttributeProto::TYPE_PROTO: {  // Optional's type: its name (composite_value.h)
      const std::optional<ValueType> value_type = ValueTypeFromProto(attr.tp(), 0);
      if (!value_type) {
        return ctx.Error("attribute '" + attr.name() +
                         "' names a type the IR has no value for (a map, or nested too deep)");
      }
      return AttrValue(ValueTypeName(*value_type));
    }
    case AttributeProto::GRAPH:
    case AttributeProto::GRAPHS:
    case AttributeProto::TYPE_PROTOS:
      return AttrValue();
    case AttributeProto::SPARSE_TENSOR:
    case AttributeProto::SPARSE_TENSORS:
      return ctx.Error("attribute '" + attr.name() +
                       "' is a sparse tensor, which is not supported");
    default:
      if (attr.ints_size() == 0 && attr.floats_size() == 0 && attr.strings_size() == 0) {
        return AttrValue(std::vector<int64_t>{});  // an empty list of unknown type
      }
      return ctx.Error("attribute '" + attr.name() + "' has an unknown type " +
                       std::to_string(attr.type()));
  }
}

}  // namespace ge::onnx_parser
