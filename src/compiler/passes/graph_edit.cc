// Graph edits shared by the passes.
#include "ge/compiler/graph_edit.h"

#include "ge/graph/anchor.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::passes {
namespace {

void RetargetOutputs(ComputeGraph& graph, const Node* node,
                     const std::vector<std::pair<NodePtr, int>>& targets) {
  std::vector<std::pair<NodePtr, int32_t>> outs = graph.GetGraphOutNodesInfo();
  bool changed = false;
  for (auto& [out_node, index] : outs) {
    if (out_node.get() != node) continue;
    if (index >= 0 && static_cast<size_t>(index) < targets.size() &&
        targets[static_cast<size_t>(index)].first != nullptr) {
      out_node = targets[static_cast<size_t>(index)].first;
      index = targets[static_cast<size_t>(index)].second;
      changed = true;
    }
  }
  if (changed) graph.SetGraphOutNodesInfo(std::move(outs));
}

}  // namespace

bool IsConstNode(const Node& node) { return IsConstType(node.GetType()); }

bool IsImpure(const std::string& type) { return OpRegistry::Instance().TraitsOf(type).impure; }

bool IsGraphBoundary(const Node& node) { return IsGraphBoundaryType(node.GetType()); }

Status BypassNode(ComputeGraph& graph, const NodePtr& node, const std::vector<int>& io_map) {
  std::vector<std::pair<NodePtr, int>> targets;
  for (size_t i = 0; i < node->GetAllOutDataAnchorsSize(); ++i) {
    NodePtr producer;
    int index = -1;
    if (i < io_map.size() && io_map[i] >= 0) {
      InDataAnchorPtr in = node->GetInDataAnchor(io_map[i]);
      OutDataAnchorPtr peer = in != nullptr ? in->GetPeerOutAnchor() : nullptr;
      if (peer != nullptr) {
        producer = peer->GetOwnerNode();
        index = peer->GetIdx();
      }
    }
    targets.emplace_back(producer, index);
  }
  RetargetOutputs(graph, node.get(), targets);
  GE_RETURN_IF_ERROR(GraphUtils::IsolateNode(node, io_map));
  return GraphUtils::RemoveNodeWithoutRelink(graph.shared_from_this(), node);
}

Status ReplaceNode(ComputeGraph& graph, const NodePtr& node,
                   const std::vector<std::pair<NodePtr, int>>& replacements) {
  const auto& outs = node->GetAllOutDataAnchors();
  if (replacements.size() < outs.size()) {
    return InternalError("ReplaceNode: node '" + node->GetName() + "' has " +
                         std::to_string(outs.size()) + " outputs but " +
                         std::to_string(replacements.size()) + " replacements");
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    OutDataAnchorPtr target = replacements[i].first->GetOutDataAnchor(replacements[i].second);
    if (target == nullptr) {
      return InternalError("ReplaceNode: replacement '" + replacements[i].first->GetName() +
                           "' has no output " + std::to_string(replacements[i].second));
    }
    for (const InDataAnchorPtr& consumer : outs[i]->GetPeerInDataAnchors()) {
      GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(outs[i], consumer, target));
    }
    for (const InControlAnchorPtr& consumer : outs[i]->GetPeerInControlAnchors()) {
      GE_RETURN_IF_ERROR(outs[i]->Unlink(consumer));
      if (!replacements[0].first->GetOutControlAnchor()->IsLinkedWith(consumer)) {
        GE_RETURN_IF_ERROR(
            GraphUtils::AddEdge(replacements[0].first->GetOutControlAnchor(), consumer));
      }
    }
  }
  if (!replacements.empty()) {
    const NodePtr& first = replacements[0].first;
    for (const AnchorPtr& peer : node->GetOutControlAnchor()->GetPeerAnchors()) {
      GE_RETURN_IF_ERROR(node->GetOutControlAnchor()->Unlink(peer));
      if (peer->GetOwnerNodeBarePtr() != first.get() &&
          !first->GetOutControlAnchor()->IsLinkedWith(peer)) {
        GE_RETURN_IF_ERROR(GraphUtils::AddEdge(first->GetOutControlAnchor(), peer));
      }
    }
  }
  RetargetOutputs(graph, node.get(), replacements);
  return GraphUtils::RemoveNodeWithoutRelink(graph.shared_from_this(), node);
}

std::string UniqueNodeName(const ComputeGraph& graph, const std::string& base) {
  if (graph.FindNode(base) == nullptr) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (graph.FindNode(name) == nullptr) return name;
  }
}

}  // namespace ge::passes
