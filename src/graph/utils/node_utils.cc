// NodeUtils: neighbour lookups, anchor growth and subgraph links.
#include "ge/graph/utils/node_utils.h"

#include "../node_impl.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {

NodePtr NodeUtils::GetInDataNodeByIndex(const Node& node, int idx) {
  auto in = node.GetInDataAnchor(idx);
  if (in == nullptr) return nullptr;
  auto peer = in->GetPeerOutAnchor();
  return peer == nullptr ? nullptr : peer->GetOwnerNode();
}

std::vector<std::pair<InDataAnchorPtr, NodePtr>> NodeUtils::GetOutDataNodesWithAnchorByIndex(
    const Node& node, int idx) {
  std::vector<std::pair<InDataAnchorPtr, NodePtr>> out;
  auto anchor = node.GetOutDataAnchor(idx);
  if (anchor == nullptr) return out;
  for (auto& peer : anchor->GetPeerInDataAnchors()) {
    if (auto owner = peer->GetOwnerNode()) out.emplace_back(peer, std::move(owner));
  }
  return out;
}

bool NodeUtils::IsConst(const Node& node) {
  return node.GetType() == "Const" || node.GetType() == "Constant";
}

bool NodeUtils::GetConstOpType(const NodePtr& node, std::string& type) {
  if (node == nullptr || !IsConst(*node)) return false;
  type = node->GetType();
  return true;
}

Status NodeUtils::AppendInputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("AppendInputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  GeTensorDesc undefined;
  undefined.SetDataType(DT_UNDEFINED);
  while (op.GetAllInputsSize() < num) GE_RETURN_IF_ERROR(op.AddInputDesc(undefined));
  return node->UpdateAnchorsFromOpDesc();
}

Status NodeUtils::RemoveInputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("RemoveInputAnchor: null node");
  for (size_t i = num; i < node->GetAllInDataAnchorsSize(); ++i) {
    if (node->GetInDataAnchor(static_cast<int>(i))->GetPeerAnchorsSize() != 0) {
      return ParamInvalid("cannot remove input " + std::to_string(i) + " of node '" +
                          node->GetName() + "': it is still linked");
    }
  }
  OpDesc& op = *node->GetOpDescBarePtr();
  while (op.GetAllInputsSize() > num) {
    GE_RETURN_IF_ERROR(op.RemoveInputDesc(static_cast<uint32_t>(op.GetAllInputsSize() - 1)));
  }
  return node->UpdateAnchorsFromOpDesc();
}

Status NodeUtils::AppendOutputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("AppendOutputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  while (op.GetOutputsSize() < num) GE_RETURN_IF_ERROR(op.AddOutputDesc(GeTensorDesc()));
  return node->UpdateAnchorsFromOpDesc();
}

Status NodeUtils::RemoveOutputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("RemoveOutputAnchor: null node");
  for (size_t i = num; i < node->GetAllOutDataAnchorsSize(); ++i) {
    if (node->GetOutDataAnchor(static_cast<int>(i))->GetPeerAnchorsSize() != 0) {
      return ParamInvalid("cannot remove output " + std::to_string(i) + " of node '" +
                          node->GetName() + "': it is still linked");
    }
  }
  OpDesc& op = *node->GetOpDescBarePtr();
  while (op.GetOutputsSize() > num) {
    GE_RETURN_IF_ERROR(op.RemoveOutputDesc(static_cast<uint32_t>(op.GetOutputsSize() - 1)));
  }
  return node->UpdateAnchorsFromOpDesc();
}

std::vector<ComputeGraphPtr> NodeUtils::GetSubgraphs(const Node& node) {
  std::vector<ComputeGraphPtr> out;
  ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  if (graph == nullptr) return out;
  for (const auto& name : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (name.empty()) continue;
    if (auto sub = graph->GetSubgraph(name)) out.push_back(std::move(sub));
  }
  return out;
}

ComputeGraphPtr NodeUtils::GetSubgraph(const Node& node, uint32_t index) {
  ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  const std::string name = node.GetOpDescBarePtr()->GetSubgraphInstanceName(index);
  if (graph == nullptr || name.empty()) return nullptr;
  return graph->GetSubgraph(name);
}

Status NodeUtils::SetSubgraph(const NodePtr& node, uint32_t index,
                              const ComputeGraphPtr& subgraph) {
  if (node == nullptr || subgraph == nullptr) return ParamInvalid("SetSubgraph: null argument");
  ComputeGraphPtr graph = node->GetOwnerComputeGraph();
  if (graph == nullptr) {
    return ParamInvalid("SetSubgraph: node '" + node->GetName() + "' is not in a graph");
  }
  OpDesc& op = *node->GetOpDescBarePtr();
  while (op.GetSubgraphInstanceNames().size() <= index) op.AddSubgraphInstanceName("");
  subgraph->SetParentGraph(graph);
  subgraph->SetParentNode(node);
  GE_RETURN_IF_ERROR(graph->AddSubgraph(subgraph->GetName(), subgraph));
  return op.SetSubgraphInstanceName(index, subgraph->GetName());
}

bool NodeUtils::IsSubgraphInput(const Node& node) {
  ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  return graph != nullptr && graph->GetParentGraphBarePtr() != nullptr &&
         node.GetOpDescBarePtr()->HasAttr(kAttrParentNodeIndex);
}

bool NodeUtils::IsSubgraphOutput(const Node& node) {
  ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  return graph != nullptr && graph->GetParentGraphBarePtr() != nullptr &&
         node.GetType() == "NetOutput";
}

NodePtr NodeUtils::GetParentInput(const Node& node) {
  if (!IsSubgraphInput(node)) return nullptr;
  int64_t index = -1;
  if (!AttrUtils::GetInt(node.GetOpDescBarePtr(), kAttrParentNodeIndex, index)) return nullptr;
  NodePtr parent = node.GetOwnerComputeGraphBarePtr()->GetParentNode();
  if (parent == nullptr || index < 0) return nullptr;
  return GetInDataNodeByIndex(*parent, static_cast<int>(index));
}

std::vector<NodePtr> NodeUtils::GetInDataNodes(const Node& node) { return node.GetInDataNodes(); }

Status NodeUtils::MoveOutputEdges(const NodePtr& origin, const NodePtr& new_node) {
  if (origin == nullptr || new_node == nullptr) {
    return ParamInvalid("MoveOutputEdges: a null node");
  }
  const size_t outputs = origin->GetAllOutDataAnchorsSize();
  if (new_node->GetAllOutDataAnchorsSize() != outputs) {
    return ParamInvalid("MoveOutputEdges: '" + origin->GetName() + "' has " +
                        std::to_string(outputs) + " outputs but '" + new_node->GetName() +
                        "' has " + std::to_string(new_node->GetAllOutDataAnchorsSize()));
  }
  for (size_t i = 0; i < outputs; ++i) {
    const OutDataAnchorPtr from = origin->GetOutDataAnchor(static_cast<int>(i));
    const OutDataAnchorPtr to = new_node->GetOutDataAnchor(static_cast<int>(i));
    for (const InDataAnchorPtr& peer : from->GetPeerInDataAnchors()) {
      GE_RETURN_IF_ERROR(from->Unlink(peer));
      GE_RETURN_IF_ERROR(to->LinkTo(peer));
    }
    for (const InControlAnchorPtr& peer : from->GetPeerInControlAnchors()) {
      GE_RETURN_IF_ERROR(from->Unlink(peer));
      if (!to->IsLinkedWith(peer)) GE_RETURN_IF_ERROR(to->LinkTo(peer));
    }
  }
  const OutControlAnchorPtr from = origin->GetOutControlAnchor();
  const OutControlAnchorPtr to = new_node->GetOutControlAnchor();
  for (const InControlAnchorPtr& peer : from->GetPeerInControlAnchors()) {
    GE_RETURN_IF_ERROR(from->Unlink(peer));
    if (!to->IsLinkedWith(peer)) GE_RETURN_IF_ERROR(to->LinkTo(peer));
  }
  for (const InDataAnchorPtr& peer : from->GetPeerInDataAnchors()) {
    GE_RETURN_IF_ERROR(from->Unlink(peer));
    GE_RETURN_IF_ERROR(to->LinkTo(peer));
  }
  return Status::Ok();
}

Status NodeUtils::SetAllAnchorStatus(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid("SetAllAnchorStatus: a null node");
  return SetAllAnchorStatus(*node);
}

Status NodeUtils::SetAllAnchorStatus(Node& node) {
  node.impl_->anchor_status_updated = true;
  return Status::Ok();
}

bool NodeUtils::IsAnchorStatusSet(const NodePtr& node) {
  return node != nullptr && IsAnchorStatusSet(*node);
}

bool NodeUtils::IsAnchorStatusSet(const Node& node) { return node.impl_->anchor_status_updated; }

}  // namespace ge
