// GraphVerifier: structural invariants of a graph hierarchy, checked after every edit in tests.
#include "ge/graph/graph_verifier.h"

#include <algorithm>
#include <unordered_set>

namespace ge {

namespace {

Status Violation(const ComputeGraph& graph, const std::string& what) {
  return InternalError("graph '" + graph.GetName() + "' is inconsistent: " + what);
}

Status VerifyAnchor(const ComputeGraph& graph, const Node& node, const Anchor& anchor, int idx) {
  if (anchor.GetOwnerNodeBarePtr() != &node) {
    return Violation(graph, "anchor " + anchor.DebugString() + " is held by node '" +
                                node.GetName() + "' but owned by another node");
  }
  if (anchor.GetIdx() != idx) {
    return Violation(graph, "anchor " + anchor.DebugString() + " has index " +
                                std::to_string(anchor.GetIdx()) + ", expected " +
                                std::to_string(idx));
  }
  const std::vector<Anchor*> peers = anchor.GetPeerAnchorsPtr();
  if (anchor.GetKind() == Anchor::Kind::kInData && peers.size() > 1) {
    return Violation(graph, "input " + anchor.DebugString() + " has " +
                                std::to_string(peers.size()) + " producers");
  }
  for (const Anchor* peer : peers) {
    const bool forward = Anchor::KindsLinkable(anchor.GetKind(), peer->GetKind());
    const bool backward = Anchor::KindsLinkable(peer->GetKind(), anchor.GetKind());
    if (!forward && !backward) {
      return Violation(graph, "anchors " + anchor.DebugString() + " and " + peer->DebugString() +
                                  " are linked but their kinds do not allow it");
    }
    if (!peer->IsLinkedWith(anchor)) {
      return Violation(graph, "edge " + anchor.DebugString() + " - " + peer->DebugString() +
                                  " is only recorded on one end");
    }
    const auto count = std::count(peers.begin(), peers.end(), peer);
    if (count != 1) {
      return Violation(graph, "edge " + anchor.DebugString() + " - " + peer->DebugString() +
                                  " is recorded " + std::to_string(count) + " times");
    }
    const Node* other = peer->GetOwnerNodeBarePtr();
    if (other == nullptr || !graph.HasNode(other)) {
      return Violation(graph, "edge " + anchor.DebugString() + " - " + peer->DebugString() +
                                  " leaves the graph");
    }
  }
  return Status::Ok();
}

Status VerifyNode(const ComputeGraph& graph, const Node& node) {
  const OpDesc* op = node.GetOpDescBarePtr();
  if (op == nullptr) return Violation(graph, "a node has no OpDesc");
  if (node.GetOwnerComputeGraphBarePtr() != &graph) {
    return Violation(graph, "node '" + node.GetName() + "' names another owner graph");
  }
  if (node.GetAllInDataAnchorsSize() != op->GetAllInputsSize() ||
      node.GetAllOutDataAnchorsSize() != op->GetOutputsSize()) {
    return Violation(graph, "node '" + node.GetName() + "' has " +
                                std::to_string(node.GetAllInDataAnchorsSize()) + "/" +
                                std::to_string(node.GetAllOutDataAnchorsSize()) +
                                " in/out anchors but its OpDesc has " +
                                std::to_string(op->GetAllInputsSize()) + "/" +
                                std::to_string(op->GetOutputsSize()) + " inputs/outputs");
  }
  int idx = 0;
  for (const auto& anchor : node.GetAllInDataAnchors()) {
    GE_RETURN_IF_ERROR(VerifyAnchor(graph, node, *anchor, idx++));
  }
  idx = 0;
  for (const auto& anchor : node.GetAllOutDataAnchors()) {
    GE_RETURN_IF_ERROR(VerifyAnchor(graph, node, *anchor, idx++));
  }
  GE_RETURN_IF_ERROR(VerifyAnchor(graph, node, *node.GetInControlAnchor(), Anchor::kControlIdx));
  GE_RETURN_IF_ERROR(VerifyAnchor(graph, node, *node.GetOutControlAnchor(), Anchor::kControlIdx));
  return Status::Ok();
}

Status VerifyOneGraph(const ComputeGraph& graph) {
  std::unordered_set<std::string> names;
  std::unordered_set<int64_t> ids;
  for (Node* node : graph.GetDirectNodePtr()) {
    if (node == nullptr) return Violation(graph, "the node list holds a null node");
    if (!names.insert(node->GetName()).second) {
      return Violation(graph, "two nodes are named '" + node->GetName() + "'");
    }
    if (!ids.insert(node->GetOpDescBarePtr()->GetId()).second) {
      return Violation(graph, "node '" + node->GetName() + "' shares id " +
                                  std::to_string(node->GetOpDescBarePtr()->GetId()) +
                                  " with another node");
    }
    GE_RETURN_IF_ERROR(VerifyNode(graph, *node));
  }
  for (const auto& input : graph.GetInputNodes()) {
    if (!graph.HasNode(input.get())) {
      return Violation(graph, "input node '" + (input ? input->GetName() : std::string("null")) +
                                  "' is not in the graph");
    }
  }
  for (const auto& [node, idx] : graph.GetGraphOutNodesInfo()) {
    if (!graph.HasNode(node.get())) {
      return Violation(graph, "output node '" + (node ? node->GetName() : std::string("null")) +
                                  "' is not in the graph");
    }
    if (idx < 0 || static_cast<size_t>(idx) >= node->GetAllOutDataAnchorsSize()) {
      return Violation(graph, "output '" + node->GetName() + ":" + std::to_string(idx) +
                                  "' names a missing output");
    }
  }
  return Status::Ok();
}

}  // namespace

Status GraphVerifier::Verify(const ComputeGraph& graph) {
  GE_RETURN_IF_ERROR(VerifyOneGraph(graph));
  if (graph.GetParentGraphBarePtr() != nullptr) return Status::Ok();  // subgraphs: via the root
  for (const auto& sub : graph.GetAllSubgraphs()) {
    ComputeGraphPtr parent = sub->GetParentGraph();
    NodePtr parent_node = sub->GetParentNode();
    if (parent == nullptr || parent_node == nullptr) {
      return Violation(*sub, "subgraph has no parent graph or parent node");
    }
    if (!parent->HasNode(parent_node.get())) {
      return Violation(*sub, "parent node '" + parent_node->GetName() +
                                 "' is not in parent graph '" + parent->GetName() + "'");
    }
    const auto& names = parent_node->GetOpDescBarePtr()->GetSubgraphInstanceNames();
    if (std::find(names.begin(), names.end(), sub->GetName()) == names.end()) {
      return Violation(*sub, "parent node '" + parent_node->GetName() +
                                 "' does not list it among its subgraph instance names");
    }
    GE_RETURN_IF_ERROR(VerifyOneGraph(*sub));
  }
  return Status::Ok();
}

}  // namespace ge
