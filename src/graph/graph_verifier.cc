// GraphVerifier: structural invariants of a graph hierarchy, checked after every edit in tests.
#include "ge/graph/graph_verifier.h"

#include <algorithm>
#include <unordered_map>
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

/// The graph at the top of `graph`'s parent chain. The chain is followed at most as many steps
/// as a hierarchy may have levels and then some: a longer one is a loop, and the depth check
/// reports the graphs it reaches anyway.
const ComputeGraph& RootOf(const ComputeGraph& graph) {
  const ComputeGraph* root = &graph;
  for (int step = 0; step < 4 * kMaxSubgraphDepth; ++step) {
    const ComputeGraph* parent = root->GetParentGraphBarePtr();
    if (parent == nullptr) break;
    root = parent;
  }
  return *root;
}

/// A subgraph reference: node `node` of graph `from` names graph `to` (indices into the graphs
/// reached) as its subgraph `name`.
struct SubgraphEdge {
  size_t from;
  size_t to;
  const Node* node;
  const std::string* name;
};

/// "subgraph 'f' of node 'call' (PartitionedCall) in graph 'g'".
std::string EdgeWhere(const SubgraphEdge& edge, const std::vector<const ComputeGraph*>& graphs) {
  return "subgraph '" + *edge.name + "' of node '" + edge.node->GetName() + "' (" +
         edge.node->GetType() + ") in graph '" + graphs[edge.from]->GetName() + "'";
}

}  // namespace

Status GraphVerifier::VerifySubgraphDepth(const ComputeGraph& graph, int level) {
  // The graphs reached through subgraph instance names (looked up on the root, as the executor
  // does), then their levels in topological order: a graph two nodes name is as deep as the
  // longer path to it, and one that contains itself is a cycle, whatever the depth.
  const ComputeGraph& root = RootOf(graph);
  std::vector<const ComputeGraph*> graphs = {&graph};
  std::unordered_map<const ComputeGraph*, size_t> index = {{&graph, 0}};
  std::vector<SubgraphEdge> edges;
  for (size_t g = 0; g < graphs.size(); ++g) {
    for (const Node* node : graphs[g]->GetDirectNodePtr()) {
      if (node == nullptr) continue;
      for (const std::string& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (name.empty()) continue;
        const ComputeGraph* sub = root.GetSubgraph(name).get();
        if (sub == nullptr) continue;
        auto [it, added] = index.emplace(sub, graphs.size());
        if (added) graphs.push_back(sub);
        edges.push_back({g, it->second, node, &name});
      }
    }
  }
  std::vector<std::vector<size_t>> out_edges(graphs.size());
  std::vector<size_t> in_degree(graphs.size(), 0);
  for (size_t e = 0; e < edges.size(); ++e) {
    out_edges[edges[e].from].push_back(e);
    ++in_degree[edges[e].to];
  }
  std::vector<int> levels(graphs.size(), level);
  std::vector<const SubgraphEdge*> via(graphs.size(), nullptr);
  std::vector<bool> done(graphs.size(), false);
  std::vector<size_t> ready;
  if (in_degree[0] == 0) ready.push_back(0);
  while (!ready.empty()) {
    const size_t g = ready.back();
    ready.pop_back();
    done[g] = true;
    if (levels[g] > kMaxSubgraphDepth) {
      return ParamInvalid(EdgeWhere(*via[g], graphs) + " is nested " + std::to_string(levels[g]) +
                          " levels deep; subgraphs may nest at most " +
                          std::to_string(kMaxSubgraphDepth) + " levels");
    }
    for (const size_t e : out_edges[g]) {
      const size_t to = edges[e].to;
      if (via[to] == nullptr || levels[g] + 1 > levels[to]) {
        levels[to] = levels[g] + 1;
        via[to] = &edges[e];
      }
      if (--in_degree[to] == 0) ready.push_back(to);
    }
  }
  // Every graph left has a predecessor left: walking back from one reaches a cycle.
  std::vector<const SubgraphEdge*> into(graphs.size(), nullptr);
  for (const SubgraphEdge& edge : edges) {
    if (!done[edge.from] && !done[edge.to]) into[edge.to] = &edge;
  }
  const auto left = std::find(done.begin(), done.end(), false);
  if (left == done.end()) return Status::Ok();
  std::vector<bool> seen(graphs.size(), false);
  auto g = static_cast<size_t>(left - done.begin());
  while (!seen[g]) {
    seen[g] = true;
    g = into[g]->from;
  }
  return ParamInvalid(EdgeWhere(*into[g], graphs) +
                      " contains itself through its own subgraphs; subgraphs must form a tree");
}

Status GraphVerifier::Verify(const ComputeGraph& graph) {
  GE_RETURN_IF_ERROR(VerifyOneGraph(graph));
  if (graph.GetParentGraphBarePtr() != nullptr) return Status::Ok();  // subgraphs: via the root
  GE_RETURN_IF_ERROR(VerifySubgraphDepth(graph));
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
