// GraphBuilder: each call checks its arguments against the graph before it changes anything.
#include "ge/graph/graph_builder.h"

#include <limits>

#include "ge/graph/anchor.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {

namespace {

std::string ShapeText(const std::vector<int64_t>& dims) { return GeShape(dims).ToString(); }

/// The element count of `dims`, or -1 for a negative dim or a count past int64.
int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (dim < 0) return -1;
    if (dim != 0 && count > std::numeric_limits<int64_t>::max() / dim) return -1;
    count *= dim;
  }
  return count;
}

}  // namespace

GraphBuilder::GraphBuilder(const std::string& name)
    : graph_(std::make_shared<ComputeGraph>(name)) {}

GraphBuilder::GraphBuilder(ComputeGraphPtr graph) : graph_(std::move(graph)) {}

GeTensorDesc GraphBuilder::Desc(std::vector<int64_t> dims, DataType dtype, Format format) {
  GeTensorDesc desc(GeShape(dims), format, dtype);
  desc.SetOriginShape(GeShape(std::move(dims)));
  return desc;
}

OpDescPtr GraphBuilder::MakeOpDesc(const std::string& name, const std::string& type,
                                   const std::vector<GeTensorDesc>& inputs,
                                   const std::vector<GeTensorDesc>& outputs,
                                   const NodeAttrs& attrs) {
  auto op_desc = std::make_shared<OpDesc>(name, type);
  // Default names (__input<i>, __output<i>) are free on a new OpDesc, so these cannot fail.
  for (const GeTensorDesc& desc : inputs) (void)op_desc->AddInputDesc(desc);
  for (const GeTensorDesc& desc : outputs) (void)op_desc->AddOutputDesc(desc);
  for (const auto& [attr_name, value] : attrs) op_desc->MutableAttrMap().Set(attr_name, value);
  return op_desc;
}

std::string GraphBuilder::Where(const std::string& name, const std::string& type) const {
  return "graph '" + graph_->GetName() + "': node '" + name + "' (" + type + ")";
}

Status GraphBuilder::CheckSource(const NodeOutput& src, const std::string& who) const {
  if (src.node == nullptr) return ParamInvalid(who + " is fed from a null node");
  const ComputeGraph* owner = src.node->GetOwnerComputeGraphBarePtr();
  if (owner != graph_.get() || !graph_->HasNode(src.node.get())) {
    return ParamInvalid(
        who + " is fed from '" + src.node->GetName() + "', a node of " +
        (owner == nullptr ? std::string("no graph") : "graph '" + owner->GetName() + "'") +
        ", not of graph '" + graph_->GetName() + "'");
  }
  const size_t outputs = src.node->GetAllOutDataAnchorsSize();
  if (src.index < 0 || static_cast<size_t>(src.index) >= outputs) {
    return ParamInvalid(who + " reads output " + std::to_string(src.index) + " of '" +
                        src.node->GetName() + "' (" + src.node->GetType() + "), which has " +
                        std::to_string(outputs) + " output(s)");
  }
  return Status::Ok();
}

Result<NodePtr> GraphBuilder::AddAndLink(const OpDescPtr& op_desc,
                                         const std::vector<NodeOutput>& inputs) {
  GE_ASSIGN_OR_RETURN(NodePtr node, graph_->AddNode(op_desc));
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].node == nullptr) continue;
    Status linked = GraphUtils::AddEdge(inputs[i].node->GetOutDataAnchor(inputs[i].index),
                                        node->GetInDataAnchor(static_cast<int>(i)));
    if (!linked.ok()) {
      // The inputs were checked, so this is a broken invariant; still leave the graph as it was.
      (void)GraphUtils::RemoveNodeWithoutRelink(graph_, node);
      return std::move(linked).Prefix(Where(op_desc->GetName(), op_desc->GetType()) + ": input " +
                                      std::to_string(i));
    }
  }
  return node;
}

Result<NodePtr> GraphBuilder::AddDataNode(const std::string& name, const GeTensorDesc& desc,
                                          int64_t parent_index) {
  auto op_desc = std::make_shared<OpDesc>(name, kTypeData);
  GE_RETURN_IF_ERROR(op_desc->AddInputDesc("x", desc));
  GE_RETURN_IF_ERROR(op_desc->AddOutputDesc("y", desc));
  AttrUtils::SetInt(op_desc, kAttrDataIndex, static_cast<int64_t>(graph_->GetInputNodes().size()));
  if (parent_index >= 0) AttrUtils::SetInt(op_desc, kAttrParentNodeIndex, parent_index);
  return graph_->AddNode(op_desc);
}

Result<NodePtr> GraphBuilder::AddData(const std::string& name, const GeTensorDesc& desc) {
  return AddDataNode(name, desc, /*parent_index=*/-1);
}

Result<NodePtr> GraphBuilder::AddData(const std::string& name, std::vector<int64_t> dims,
                                      DataType dtype) {
  return AddDataNode(name, Desc(std::move(dims), dtype), /*parent_index=*/-1);
}

Result<NodePtr> GraphBuilder::AddSubgraphData(const std::string& name, int64_t parent_index,
                                              const GeTensorDesc& desc) {
  if (parent_index < 0) {
    return ParamInvalid(Where(name, kTypeData) +
                        ": the parent input index must be 0 or more, not " +
                        std::to_string(parent_index));
  }
  return AddDataNode(name, desc, parent_index);
}

Result<NodePtr> GraphBuilder::AddConst(const std::string& name, const GeTensor& value) {
  return graph_->AddNode(OpDescUtils::CreateConstOp(name, value));
}

Result<NodePtr> GraphBuilder::AddConstOfBytes(const std::string& name, DataType dtype,
                                              std::vector<int64_t> dims, std::vector<uint8_t> bytes,
                                              size_t element_size, size_t element_count) {
  const int64_t expected = ElementCount(dims);
  if (expected < 0) {
    return ParamInvalid(Where(name, kTypeConst) + ": shape " + ShapeText(dims) +
                        " is not a known shape");
  }
  if (static_cast<uint64_t>(expected) != element_count) {
    return ParamInvalid(Where(name, kTypeConst) + ": " + std::to_string(element_count) +
                        " value(s) for shape " + ShapeText(dims) + " (" + std::to_string(expected) +
                        " elements)");
  }
  const int32_t dtype_size = TypeUtils::GetSizeByDataType(dtype);
  if (TypeUtils::IsSubByteType(dtype) || dtype == DT_STRING || dtype == DT_STRING_REF ||
      dtype_size <= 0 || static_cast<size_t>(dtype_size) != element_size) {
    return ParamInvalid(Where(name, kTypeConst) + ": values of " + std::to_string(element_size) +
                        " byte(s) cannot hold " + TypeUtils::DataTypeToSerialString(dtype) +
                        " elements; give a GeTensor instead");
  }
  return AddConst(name, GeTensor(Desc(std::move(dims), dtype), std::move(bytes)));
}

Result<NodePtr> GraphBuilder::AddOp(const std::string& name, const std::string& type,
                                    const std::vector<NodeOutput>& inputs,
                                    const std::vector<GeTensorDesc>& outputs,
                                    const NodeAttrs& attrs) {
  std::vector<GeTensorDesc> input_descs;
  input_descs.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(CheckSource(inputs[i], Where(name, type) + ": input " + std::to_string(i)));
    input_descs.push_back(
        inputs[i].node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(inputs[i].index)));
  }
  return AddAndLink(MakeOpDesc(name, type, input_descs, outputs, attrs), inputs);
}

Result<NodePtr> GraphBuilder::AddNode(const OpDescPtr& op_desc,
                                      const std::vector<NodeOutput>& inputs,
                                      const NodeAttrs& attrs) {
  if (op_desc == nullptr) {
    return ParamInvalid("graph '" + graph_->GetName() + "': cannot add a node for a null OpDesc");
  }
  const std::string where = Where(op_desc->GetName(), op_desc->GetType());
  if (inputs.size() > op_desc->GetAllInputsSize()) {
    return ParamInvalid(where + ": " + std::to_string(inputs.size()) + " inputs given, it has " +
                        std::to_string(op_desc->GetAllInputsSize()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].node == nullptr) continue;
    GE_RETURN_IF_ERROR(CheckSource(inputs[i], where + ": input " + std::to_string(i)));
  }
  // Checked here too, so that a refused call leaves the caller's OpDesc without the attributes.
  if (NodePtr same = graph_->FindNode(op_desc->GetName())) {
    return ParamInvalid("graph '" + graph_->GetName() + "' already has a node named '" +
                        op_desc->GetName() + "' (" + same->GetType() + ")");
  }
  for (const auto& [attr_name, value] : attrs) op_desc->MutableAttrMap().Set(attr_name, value);
  return AddAndLink(op_desc, inputs);
}

Result<NodePtr> GraphBuilder::AddNode(const std::string& name, const std::string& type,
                                      const std::vector<GeTensorDesc>& inputs,
                                      const std::vector<GeTensorDesc>& outputs) {
  return graph_->AddNode(MakeOpDesc(name, type, inputs, outputs));
}

Result<NodePtr> GraphBuilder::AddNode(const std::string& name, const std::string& type,
                                      uint32_t input_count, uint32_t output_count,
                                      const GeTensorDesc& desc) {
  return AddNode(name, type, std::vector<GeTensorDesc>(input_count, desc),
                 std::vector<GeTensorDesc>(output_count, desc));
}

Result<NodePtr> GraphBuilder::AddNetOutput(const std::vector<NodeOutput>& outputs,
                                           const std::string& name) {
  const std::string where = Where(name, kTypeNetOutput);
  for (const Node* node : graph_->GetDirectNodePtr()) {
    if (node->GetType() == kTypeNetOutput) {
      return ParamInvalid(where + ": the graph already has a NetOutput, '" + node->GetName() + "'");
    }
  }
  auto op_desc = std::make_shared<OpDesc>(name, kTypeNetOutput);
  std::vector<std::pair<NodePtr, int32_t>> out_info;
  out_info.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    GE_RETURN_IF_ERROR(CheckSource(outputs[i], where + ": input " + std::to_string(i)));
    const GeTensorDesc& desc =
        outputs[i].node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(outputs[i].index));
    std::string input_name = "x";
    input_name += std::to_string(i);
    GE_RETURN_IF_ERROR(op_desc->AddInputDesc(input_name, desc));
    out_info.emplace_back(outputs[i].node, outputs[i].index);
  }
  GE_ASSIGN_OR_RETURN(NodePtr node, AddAndLink(op_desc, outputs));
  graph_->SetGraphOutNodesInfo(std::move(out_info));
  return node;
}

Status GraphBuilder::AddDataEdge(const NodeOutput& src, const NodePtr& dst, int32_t dst_index) {
  if (dst == nullptr || dst->GetOwnerComputeGraphBarePtr() != graph_.get() ||
      !graph_->HasNode(dst.get())) {
    return ParamInvalid("graph '" + graph_->GetName() + "': a data edge to " +
                        (dst == nullptr ? std::string("a null node")
                                        : "'" + dst->GetName() + "', not a node of this graph"));
  }
  const std::string where = Where(dst->GetName(), dst->GetType());
  const size_t inputs = dst->GetAllInDataAnchorsSize();
  if (dst_index < 0 || static_cast<size_t>(dst_index) >= inputs) {
    return ParamInvalid(where + " has no input " + std::to_string(dst_index) + " (it has " +
                        std::to_string(inputs) + ")");
  }
  const std::string who = where + ": input " + std::to_string(dst_index);
  GE_RETURN_IF_ERROR(CheckSource(src, who));
  Status linked =
      GraphUtils::AddEdge(src.node->GetOutDataAnchor(src.index), dst->GetInDataAnchor(dst_index));
  if (!linked.ok()) return std::move(linked).Prefix(who);
  return Status::Ok();
}

Status GraphBuilder::AddControlEdge(const NodePtr& src, const NodePtr& dst) {
  for (const NodePtr& node : {src, dst}) {
    if (node == nullptr || node->GetOwnerComputeGraphBarePtr() != graph_.get() ||
        !graph_->HasNode(node.get())) {
      return ParamInvalid(
          "graph '" + graph_->GetName() + "': a control edge " + (node == src ? "from " : "to ") +
          (node == nullptr ? std::string("a null node")
                           : "'" + node->GetName() + "', not a node of this graph"));
    }
  }
  Status linked = GraphUtils::AddEdge(src->GetOutControlAnchor(), dst->GetInControlAnchor());
  if (!linked.ok()) {
    return std::move(linked).Prefix(Where(dst->GetName(), dst->GetType()) +
                                    ": control edge from '" + src->GetName() + "'");
  }
  return Status::Ok();
}

Status GraphBuilder::AddSubgraph(const NodePtr& parent, uint32_t index,
                                 const ComputeGraphPtr& subgraph) {
  if (parent == nullptr || parent->GetOwnerComputeGraphBarePtr() != graph_.get() ||
      !graph_->HasNode(parent.get())) {
    return ParamInvalid(
        "graph '" + graph_->GetName() + "': a subgraph's parent must be a node " +
        "of this graph, not " +
        (parent == nullptr ? std::string("a null node") : "'" + parent->GetName() + "'"));
  }
  const std::string where = Where(parent->GetName(), parent->GetType());
  if (subgraph == nullptr || subgraph == graph_) {
    return ParamInvalid(where + ": subgraph " + std::to_string(index) + " must be another graph");
  }
  if (graph_->GetRootGraph()->GetSubgraph(subgraph->GetName()) != nullptr) {
    return ParamInvalid(where + ": subgraph " + std::to_string(index) +
                        ": the root graph already " + "has a subgraph named '" +
                        subgraph->GetName() + "'");
  }
  Status attached = NodeUtils::SetSubgraph(parent, index, subgraph);
  if (!attached.ok()) {
    return std::move(attached).Prefix(where + ": subgraph " + std::to_string(index) + " '" +
                                      subgraph->GetName() + "'");
  }
  return Status::Ok();
}

}  // namespace ge
