// Builds ComputeGraphs from checked ONNX graphs (see onnx_graph_builder.h).
//
// Each graph level (the main graph, then every body) is built the same way:
//   graph inputs  → Data (attr "index" = position; in a body also "_parent_node_index")
//   outer values a body uses → more Data nodes of the body, fed by extra parent inputs
//   initializers  → Const (attr "value"); one that is also an input → Data with a default
//   nodes         → one OpDesc each, through the mapping table, in topological order
//   graph outputs → the inputs of one NetOutput
// A node with bodies (If, Loop, Scan) gets its outer values as extra dynamic inputs (If:
// input<k>, Loop/Scan: implicit_input<k>) after its ONNX inputs; body formal input j stands for
// parent input body_input_offset + j.
#include "onnx_graph_builder.h"

#include <algorithm>
#include <set>

#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"
#include "onnx_tensor.h"
#include "op_converters.h"
#include "op_mapping_table.h"

namespace ge::onnx_parser {
namespace {

GeTensorDesc UnknownDesc() {
  return GeTensorDesc(GeShape({UNKNOWN_DIM_NUM}), FORMAT_ND, DT_UNDEFINED);
}

std::string ShapeText(const std::vector<int64_t>& dims) { return GeShape(dims).ToString(); }

// The counts of a prototype's dynamic ports (inputs or outputs) on a parsed node whose ports are
// `names`: "<port><k>" for k = 0, 1, ...; on a positionally mapped node ("__input<i>"), the ports
// past the fixed ones are its one dynamic port's.
template <typename Def, typename Kind>
void CountDynamicPorts(const std::vector<Def>& defs, Kind dynamic,
                       const std::vector<std::string>& names, DynamicPortCounts& counts) {
  const std::set<std::string> present(names.begin(), names.end());
  size_t fixed = 0;
  std::vector<std::string> ports;
  for (const Def& def : defs) {
    if (def.kind != dynamic) {
      ++fixed;
      continue;
    }
    uint32_t n = 0;
    while (present.count(def.name + std::to_string(n)) != 0) ++n;
    counts[def.name] = n;
    ports.push_back(def.name);
  }
  if (ports.size() == 1 && counts[ports[0]] == 0 && names.size() > fixed) {
    counts[ports[0]] = static_cast<uint32_t>(names.size() - fixed);
  }
}

// Renames the parsed ports to the factory's, position by position: the factory's names win.
// Ports past the factory's count are left as they are (a parsed node with more ports than its
// prototype declares fails verification, which names them).
template <typename Rename>
Status AdoptNames(const std::vector<std::string>& parsed, const std::vector<std::string>& factory,
                  Rename rename) {
  std::map<std::string, std::string> renames;
  for (size_t i = 0; i < parsed.size() && i < factory.size(); ++i) {
    if (parsed[i] != factory[i]) renames[parsed[i]] = factory[i];
  }
  return renames.empty() ? Status::Ok() : rename(renames);
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// Every ONNX attribute the node keeps must be one its IR prototype declares: a newer version of
// an operator adds attributes (Resize's antialias, LpPool's dilations), and one the IR does not
// know would otherwise be ignored and the node computed with the old semantics. Graph attributes
// become subgraphs; a type without a prototype fails verification later, naming the type.
Status CheckAttributesKnown(const onnx::NodeProto& node, const OpDesc& op,
                            const std::string& where) {
  const std::vector<std::string>& declared = op.GetIrAttrNames();
  if (!OpRegistry::Instance().Has(op.GetType())) return Status::Ok();
  for (const auto& attr : node.attribute()) {
    if (attr.has_g() || !op.HasAttr(attr.name())) continue;
    if (std::find(declared.begin(), declared.end(), attr.name()) != declared.end()) continue;
    return ParamInvalid(where + ": attribute '" + attr.name() + "' is not supported by " +
                        op.GetType() + " (its attributes: " + JoinNames(declared) + ")");
  }
  return Status::Ok();
}

}  // namespace

// The parsed node as the operator factory makes it: the registry creates the node's OpDesc
// (CreateOpDesc, with the dynamic port counts the parsed node has), whose port names override the
// parser's (UpdateInputName / UpdateOutputName), and whose IR metadata and infer, format and
// verify functions the node then carries.
Status AdoptPrototype(OpDesc& op, const std::string& where) {
  const std::shared_ptr<const OpProto> proto = OpRegistry::Instance().Find(op.GetType());
  // A type no library registers stays as parsed: the graph can still be shown, and compiling it
  // fails verification naming the node and its type.
  if (proto == nullptr) return Status::Ok();
  const std::vector<std::string> inputs = op.GetAllInputNames();
  const std::vector<std::string> outputs = op.GetAllOutputNames();
  DynamicPortCounts counts;
  CountDynamicPorts(proto->inputs(), kIrInputDynamic, inputs, counts);
  CountDynamicPorts(proto->outputs(), kIrOutputDynamic, outputs, counts);
  auto made = OpRegistry::Instance().CreateOpDesc(op.GetType(), op.GetName(), counts);
  if (!made.ok()) return Status(made.status()).Prefix(where);
  const OpDesc& factory = **made;
  GE_RETURN_IF_ERROR(
      AdoptNames(inputs, factory.GetAllInputNames(),
                 [&](const std::map<std::string, std::string>& r) { return op.UpdateInputName(r); })
          .Prefix(where));
  GE_RETURN_IF_ERROR(AdoptNames(outputs, factory.GetAllOutputNames(),
                                [&](const std::map<std::string, std::string>& r) {
                                  return op.UpdateOutputName(r);
                                })
                         .Prefix(where));
  for (const auto& [name, kind] : factory.GetIrInputs()) op.AppendIrInput(name, kind);
  for (const auto& [name, kind] : factory.GetIrOutputs()) op.AppendIrOutput(name, kind);
  for (const std::string& name : factory.GetIrAttrNames()) op.AppendIrAttrName(name);
  op.SetInferShapeFunc(factory.GetInferShapeFunc());
  op.SetInferFormatFunc(factory.GetInferFormatFunc());
  op.SetVerifyFunc(factory.GetVerifyFunc());
  return Status::Ok();
}

std::string OnnxGraphBuilder::UniqueName(const std::string& base) {
  std::string name = base.empty() ? "node" : base;
  if (used_names_.insert(name).second) return name;
  for (int64_t& k = next_suffix_[name];;) {
    std::string candidate = name + "_" + std::to_string(++k);
    if (used_names_.insert(candidate).second) return candidate;
  }
}

const GeTensorDesc* OnnxGraphBuilder::FindDesc(const std::string& value) const {
  for (auto it = levels_.rbegin(); it != levels_.rend(); ++it) {
    auto found = (*it)->descs.find(value);
    if (found != (*it)->descs.end()) return &found->second;
  }
  return nullptr;
}

Result<ComputeGraphPtr> OnnxGraphBuilder::BuildMain(const onnx::GraphProto& proto) {
  auto graph = std::make_shared<ComputeGraph>(proto.name().empty() ? "main" : proto.name());
  used_names_.insert(graph->GetName());
  GE_RETURN_IF_ERROR(BuildGraph(proto, graph, nullptr, {}));
  for (const auto& [name, dims] : options_.input_shapes) {
    if (!overrides_used_.contains(name)) {
      std::string inputs;
      for (const auto& in : proto.input()) inputs += (inputs.empty() ? "" : ", ") + in.name();
      return ParamInvalid(info_.model_name + ": the input shape override names '" + name +
                          "', which is not a graph input (inputs: " + inputs + ")");
    }
  }
  AttrUtils::SetInt(graph, kAttrOnnxModelOpset, info_.default_opset);
  GE_RETURN_IF_ERROR(graph->TopologicalSorting());
  return graph;
}

Status OnnxGraphBuilder::BuildGraph(const onnx::GraphProto& proto, const ComputeGraphPtr& graph,
                                    const BodyBinding* binding,
                                    const std::set<std::string>& outer) {
  Level level;
  level.proto = &proto;
  level.graph = graph;
  for (const auto& v : proto.value_info()) level.descs[v.name()] = DescFromType(v.type());
  for (const auto& v : proto.output()) level.descs[v.name()] = DescFromType(v.type());
  for (const auto& t : proto.initializer()) {
    GeTensorDesc desc(GeShape({t.dims().begin(), t.dims().end()}), FORMAT_ND,
                      FromOnnxDataType(t.data_type()));
    level.descs[t.name()] = desc;
  }
  for (const auto& v : proto.input()) {
    if (v.type().has_tensor_type() && !v.type().tensor_type().has_shape() &&
        level.descs.contains(v.name())) {
      continue;  // an initializer's shape is better than an unknown one
    }
    level.descs[v.name()] = DescFromType(v.type());
  }
  levels_.push_back(&level);
  struct Pop {
    std::vector<Level*>& levels;
    ~Pop() { levels.pop_back(); }
  } pop{levels_};

  GE_ASSIGN_OR_RETURN(std::vector<int> order, CheckAndSortGraph(proto, outer, info_));
  GE_RETURN_IF_ERROR(AddInputs(level, binding));
  GE_RETURN_IF_ERROR(AddInitializers(level));
  std::set<std::string> visible = outer;
  for (const auto& v : proto.input()) visible.insert(v.name());
  for (const auto& t : proto.initializer()) visible.insert(t.name());
  for (const auto& node : proto.node()) visible.insert(node.output().begin(), node.output().end());
  for (int i : order) GE_RETURN_IF_ERROR(AddNode(level, proto.node(i), visible));
  return AddNetOutput(level);
}

Status OnnxGraphBuilder::AddInputs(Level& level, const BodyBinding* binding) {
  const onnx::GraphProto& proto = *level.proto;
  std::unordered_map<std::string, const onnx::TensorProto*> initializers;
  for (const auto& t : proto.initializer()) initializers[t.name()] = &t;
  auto add_data = [&](const std::string& value, int64_t index, int64_t parent_index,
                      GeTensorDesc desc) -> Status {
    desc.SetName(value);
    auto op = std::make_shared<OpDesc>(UniqueName(value), "Data");
    GE_RETURN_IF_ERROR(op->AddInputDesc("x", desc));
    GE_RETURN_IF_ERROR(op->AddOutputDesc("y", desc));
    AttrUtils::SetInt(op, kAttrDataIndex, index);
    if (parent_index >= 0) AttrUtils::SetInt(op, kAttrParentNodeIndex, parent_index);
    auto init = initializers.find(value);
    if (init != initializers.end()) {
      GE_ASSIGN_OR_RETURN(GeTensor tensor,
                          TensorFromProto(*init->second, *info_.tensors,
                                          info_.model_name + ": initializer '" + value + "'"));
      AttrUtils::SetTensor(op, kAttrDefaultValue, std::move(tensor));
    }
    GE_ASSIGN_OR_RETURN(NodePtr node, level.graph->AddNode(op));
    level.values[value] = {node, 0};
    level.descs[value] = desc;
    return Status::Ok();
  };
  for (int j = 0; j < proto.input_size(); ++j) {
    const auto& input = proto.input(j);
    GeTensorDesc desc = level.descs[input.name()];
    if (binding == nullptr) {
      auto override_it = options_.input_shapes.find(input.name());
      if (override_it != options_.input_shapes.end()) {
        const auto& dims = override_it->second;
        const GeShape& shape = desc.GetShape();
        if (!shape.IsUnknownDimNum() && shape.GetDimNum() != dims.size()) {
          return ParamInvalid(info_.model_name + ": the shape override " + ShapeText(dims) +
                              " for input '" + input.name() + "' has rank " +
                              std::to_string(dims.size()) + " but the input has shape " +
                              shape.ToString());
        }
        // An override names sizes the model leaves open; a size it fixes stays.
        for (size_t d = 0; !shape.IsUnknownDimNum() && d < dims.size(); ++d) {
          const int64_t fixed = shape.GetDim(d);
          if (fixed >= 0 && dims[d] != fixed) {
            return ParamInvalid(info_.model_name + ": the shape override " + ShapeText(dims) +
                                " for input '" + input.name() + "' sets dim " + std::to_string(d) +
                                " to " + std::to_string(dims[d]) + ", but the model fixes it to " +
                                std::to_string(fixed) + " (shape " + shape.ToString() + ")");
          }
        }
        SetShapeKeepingDimNames(desc, dims);
        overrides_used_.insert(input.name());
      }
    }
    int64_t parent = binding == nullptr ? -1 : static_cast<int64_t>(binding->formal_offset) + j;
    GE_RETURN_IF_ERROR(add_data(input.name(), j, parent, desc));
  }
  if (binding != nullptr) {
    int64_t index = proto.input_size();
    for (const auto& [value, parent_index] : binding->captures) {
      const GeTensorDesc* known = FindDesc(value);
      GE_RETURN_IF_ERROR(
          add_data(value, index++, parent_index, known != nullptr ? *known : UnknownDesc()));
    }
  }
  return Status::Ok();
}

Status OnnxGraphBuilder::AddInitializers(Level& level) {
  for (const auto& t : level.proto->initializer()) {
    if (level.values.contains(t.name())) continue;  // also a graph input: a Data with a default
    GE_ASSIGN_OR_RETURN(
        GeTensor tensor,
        TensorFromProto(t, *info_.tensors, info_.model_name + ": initializer '" + t.name() + "'"));
    tensor.MutableTensorDesc().SetName(t.name());
    OpDescPtr op = OpDescUtils::CreateConstOp(UniqueName(t.name()), tensor);
    GE_ASSIGN_OR_RETURN(NodePtr node, level.graph->AddNode(op));
    level.values[t.name()] = {node, 0};
  }
  return Status::Ok();
}

Status OnnxGraphBuilder::Link(Level& level, const std::string& value, const NodePtr& dst,
                              int dst_index, const std::string& who) {
  auto it = level.values.find(value);
  if (it == level.values.end()) {
    return InternalError(who + ": value '" + value + "' has no producer in graph '" +
                         level.graph->GetName() + "'");
  }
  const NodePtr& src = it->second.node;
  GE_RETURN_IF_ERROR(GraphUtils::AddEdge(src->GetOutDataAnchor(it->second.index),
                                         dst->GetInDataAnchor(dst_index)));
  OpDesc& dst_op = *dst->GetOpDescBarePtr();
  const GeTensorDesc& produced =
      src->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(it->second.index));
  if (dst_op.GetInputDesc(static_cast<uint32_t>(dst_index)).GetDataType() == DT_UNDEFINED &&
      produced.GetDataType() != DT_UNDEFINED) {
    GE_RETURN_IF_ERROR(dst_op.UpdateInputDesc(static_cast<uint32_t>(dst_index), produced));
  }
  return Status::Ok();
}

Status OnnxGraphBuilder::AddNode(Level& level, const onnx::NodeProto& node,
                                 const std::set<std::string>& visible) {
  const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  const int64_t opset = info_.OpsetOf(domain);
  const OpMappingRow* row = FindOpMapping(domain, node.op_type(), opset);
  const std::string where = info_.Where(node);
  if (row == nullptr) return InternalError(where + ": no mapping row (checked before)");
  std::string base = node.name();
  if (base.empty()) base = node.op_type() + (node.output_size() > 0 ? "_" + node.output(0) : "");
  auto op = std::make_shared<OpDesc>(UniqueName(base), std::string(row->ir_type));
  NodeContext ctx(node, opset, *op, *info_.tensors, where);
  ctx.set_desc_lookup([this](const std::string& v) { return FindDesc(v); });
  GE_RETURN_IF_ERROR(ApplyRow(*row, ctx));

  // Bodies, in subgraph-index order, and the outer values they use as extra inputs.
  std::vector<std::pair<std::string, const onnx::GraphProto*>> bodies;
  for (std::string_view name : row->subgraphs) {
    const onnx::AttributeProto* attr = ctx.FindAttr(std::string(name));
    if (attr == nullptr || !attr->has_g()) {
      return ParamInvalid(where + ": graph attribute '" + std::string(name) + "' is missing");
    }
    bodies.emplace_back(std::string(name), &attr->g());
  }
  if (row->subgraphs.empty()) {
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) bodies.emplace_back(attr.name(), &attr.g());
      if (attr.graphs_size() > 0) {
        return ParamInvalid(where + ": lists of graphs (attribute '" + attr.name() +
                            "') are not supported");
      }
    }
  }
  std::unordered_map<std::string, uint32_t> capture_index;
  if (!bodies.empty()) {
    std::string capture =
        row->capture_input.empty() ? "implicit_input" : std::string(row->capture_input);
    uint32_t k = 0;
    for (const std::string& value : ImplicitInputs(node)) {
      auto index = static_cast<uint32_t>(op->GetAllInputsSize());
      GE_RETURN_IF_ERROR(ctx.InsertValueInput(index, capture + std::to_string(k++), value));
      capture_index[value] = index;
    }
  }
  AttrUtils::SetStr(op, kAttrOnnxOpType, node.op_type());
  AttrUtils::SetInt(op, kAttrOnnxOpset, opset);
  AttrUtils::SetStr(op, kAttrOnnxNodeName, node.name());
  for (size_t i = 0; i < ctx.output_values().size(); ++i) {
    op->MutableOutputDesc(static_cast<uint32_t>(i))->SetName(ctx.output_values()[i]);
  }
  GE_RETURN_IF_ERROR(AdoptPrototype(*op, where));
  GE_RETURN_IF_ERROR(CheckAttributesKnown(node, *op, where));
  GE_ASSIGN_OR_RETURN(NodePtr added, level.graph->AddNode(op));

  for (size_t i = 0; i < ctx.sources().size(); ++i) {
    InputSource& source = ctx.sources()[i];
    if (source.constant.has_value()) {
      std::string input_name = op->GetInputNameByIndex(static_cast<uint32_t>(i));
      OpDescPtr const_op = OpDescUtils::CreateConstOp(UniqueName(op->GetName() + "_" + input_name),
                                                      *source.constant);
      AttrUtils::SetStr(const_op, kAttrMadeConst, op->GetName() + ":" + input_name);
      GE_ASSIGN_OR_RETURN(NodePtr const_node, level.graph->AddNode(const_op));
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(const_node->GetOutDataAnchor(0),
                                             added->GetInDataAnchor(static_cast<int>(i))));
    } else if (!source.value.empty()) {
      GE_RETURN_IF_ERROR(Link(level, source.value, added, static_cast<int>(i), where));
    }
  }
  for (size_t i = 0; i < ctx.output_values().size(); ++i) {
    if (!ctx.output_values()[i].empty()) {
      level.values[ctx.output_values()[i]] = {added, static_cast<int>(i)};
    }
  }
  for (size_t b = 0; b < bodies.size(); ++b) {
    const auto& [attr_name, body] = bodies[b];
    GE_RETURN_IF_ERROR(op->AddSubgraphName(attr_name));
    auto subgraph = std::make_shared<ComputeGraph>(UniqueName(op->GetName() + "_" + attr_name));
    GE_RETURN_IF_ERROR(NodeUtils::SetSubgraph(added, static_cast<uint32_t>(b), subgraph));
    BodyBinding binding;
    binding.formal_offset = row->body_input_offset;
    for (const std::string& value : FreeValues(*body)) {
      binding.captures.emplace_back(value, capture_index.at(value));
    }
    GE_RETURN_IF_ERROR(BuildGraph(*body, subgraph, &binding, visible));
  }
  return Status::Ok();
}

Status OnnxGraphBuilder::AddNetOutput(Level& level) {
  const onnx::GraphProto& proto = *level.proto;
  auto op = std::make_shared<OpDesc>(
      UniqueName(level.graph->GetParentNode() == nullptr ? "NetOutput"
                                                         : level.graph->GetName() + "_NetOutput"),
      "NetOutput");
  for (int i = 0; i < proto.output_size(); ++i) {
    const auto& out = proto.output(i);
    GeTensorDesc desc = out.type().has_tensor_type() ? DescFromType(out.type()) : UnknownDesc();
    desc.SetName(out.name());
    std::string input_name = "x";
    input_name += std::to_string(i);
    GE_RETURN_IF_ERROR(op->AddInputDesc(input_name, desc));
  }
  GE_ASSIGN_OR_RETURN(NodePtr node, level.graph->AddNode(op));
  std::vector<std::pair<NodePtr, int32_t>> out_info;
  for (int i = 0; i < proto.output_size(); ++i) {
    const std::string& value = proto.output(i).name();
    GE_RETURN_IF_ERROR(
        Link(level, value, node, i, info_.model_name + ": graph output '" + value + "'"));
    const auto& ref = level.values.at(value);
    out_info.emplace_back(ref.node, ref.index);
  }
  level.graph->SetGraphOutNodesInfo(std::move(out_info));
  return Status::Ok();
}

}  // namespace ge::onnx_parser
