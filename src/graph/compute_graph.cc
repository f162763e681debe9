// ComputeGraph: node list mutation, lookup, inputs/outputs and removal with GE's semantics.
#include "ge/graph/compute_graph.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "compute_graph_impl.h"
#include "ge/graph/op_types.h"
#include "node_impl.h"

namespace ge {

bool IsDataLikeType(const std::string& type) { return IsDataType(type); }

ComputeGraph::ComputeGraph(std::string name) : impl_(std::make_unique<Impl>()) {
  impl_->name = std::move(name);
}

ComputeGraph::~ComputeGraph() = default;

const std::string& ComputeGraph::GetName() const { return impl_->name; }
void ComputeGraph::SetName(std::string name) { impl_->name = std::move(name); }
bool ComputeGraph::IsTrainingGraph() const { return impl_->training; }
void ComputeGraph::SetTrainingGraph(bool training) { impl_->training = training; }

std::string ComputeGraph::DebugString() const {
  return "graph '" + impl_->name + "' (" + std::to_string(impl_->node_count) + " nodes)";
}

// ---- adding nodes ----

Result<NodePtr> ComputeGraph::PlaceNode(const OpDescPtr& op_desc, const Node* anchor, bool before) {
  if (op_desc == nullptr) {
    return ParamInvalid("graph '" + impl_->name + "': cannot add a node with a null OpDesc");
  }
  GE_ASSIGN_OR_RETURN(NodePtr node, Node::Create(op_desc, shared_from_this()));
  auto& list = impl_->nodes;
  auto where = list.end();
  if (anchor != nullptr) {
    where = anchor->impl_->position;
    if (!before) ++where;
  }
  // Reuse AddNode's checks by appending, then move into place (O(1) splice).
  GE_ASSIGN_OR_RETURN(NodePtr added, AddNode(node));
  if (where != list.end()) list.splice(where, list, added->impl_->position);
  return added;
}

Result<NodePtr> ComputeGraph::AddNode(const OpDescPtr& op_desc) {
  return PlaceNode(op_desc, nullptr, /*before=*/false);
}

Result<NodePtr> ComputeGraph::AddNode(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid("graph '" + impl_->name + "': cannot add a null node");
  if (node->impl_->in_list) {
    return ParamInvalid("node '" + node->GetName() + "' is already in graph '" +
                        (node->GetOwnerComputeGraphBarePtr()
                             ? node->GetOwnerComputeGraphBarePtr()->GetName()
                             : std::string("?")) +
                        "'");
  }
  const std::string& name = node->GetName();
  auto found = impl_->by_name.find(name);
  if (found != impl_->by_name.end()) {
    if (found->second->GetName() == name && HasNode(found->second)) {
      return ParamInvalid("graph '" + impl_->name + "' already has a node named '" + name + "' (" +
                          found->second->GetType() + ")");
    }
    impl_->by_name.erase(found);  // stale after a rename or removal
  }
  node->SetOwnerComputeGraph(shared_from_this());
  const int64_t id = std::max(static_cast<int64_t>(impl_->node_count), impl_->next_id);
  node->GetOpDescBarePtr()->SetId(id);
  impl_->next_id = id + 1;
  impl_->nodes.push_back(node);
  node->impl_->position = std::prev(impl_->nodes.end());
  node->impl_->in_list = true;
  ++impl_->node_count;
  impl_->by_name.emplace(name, node.get());
  if (IsDataLikeType(node->GetType())) impl_->input_nodes.push_back(node);
  return node;
}

Result<NodePtr> ComputeGraph::AddNodeFront(const OpDescPtr& op_desc) {
  if (!impl_->nodes.empty() && IsDataLikeType(impl_->nodes.front()->GetType())) {
    return PlaceNode(op_desc, impl_->nodes.front().get(), /*before=*/false);
  }
  if (impl_->nodes.empty()) return AddNode(op_desc);
  return PlaceNode(op_desc, impl_->nodes.front().get(), /*before=*/true);
}

Result<NodePtr> ComputeGraph::InsertNode(const NodePtr& node, const OpDescPtr& op_desc) {
  if (node == nullptr || !HasNode(node.get())) {
    return ParamInvalid("graph '" + impl_->name + "': InsertNode needs a node of this graph");
  }
  return PlaceNode(op_desc, node.get(), /*before=*/false);
}

Result<std::vector<NodePtr>> ComputeGraph::InsertNodes(const NodePtr& node,
                                                       const std::vector<OpDescPtr>& op_descs) {
  std::vector<NodePtr> added;
  NodePtr after = node;
  for (const auto& op_desc : op_descs) {
    GE_ASSIGN_OR_RETURN(NodePtr inserted, InsertNode(after, op_desc));
    added.push_back(inserted);
    after = inserted;
  }
  return added;
}

Result<NodePtr> ComputeGraph::InsertNodeBefore(const NodePtr& node, const OpDescPtr& op_desc) {
  if (node == nullptr || !HasNode(node.get())) {
    return ParamInvalid("graph '" + impl_->name + "': InsertNodeBefore needs a node of this graph");
  }
  return PlaceNode(op_desc, node.get(), /*before=*/true);
}

bool ComputeGraph::HasNode(const Node* node) const {
  return node != nullptr && node->impl_->in_list && node->GetOwnerComputeGraphBarePtr() == this;
}

void ComputeGraph::OnNodeRenamed(const Node& node, const std::string& old_name) {
  if (!HasNode(&node)) return;
  auto found = impl_->by_name.find(old_name);
  if (found != impl_->by_name.end() && found->second == &node) impl_->by_name.erase(found);
  // A clash with a live node is left for the verifier to report; the first holder keeps the key.
  auto clash = impl_->by_name.find(node.GetName());
  if (clash == impl_->by_name.end() || !HasNode(clash->second) ||
      clash->second->GetName() != node.GetName()) {
    impl_->by_name.insert_or_assign(node.GetName(), const_cast<Node*>(&node));
  }
}

// ---- removing nodes ----

Status ComputeGraph::RemoveJustNode(const NodePtr& node) {
  if (node == nullptr || !HasNode(node.get())) {
    return ParamInvalid("graph '" + impl_->name + "' has no node '" +
                        (node ? node->GetName() : std::string("null")) + "' to remove");
  }
  auto found = impl_->by_name.find(node->GetName());
  if (found != impl_->by_name.end() && found->second == node.get()) impl_->by_name.erase(found);
  node->impl_->in_list = false;
  impl_->nodes.erase(node->impl_->position);
  --impl_->node_count;
  return Status::Ok();
}

namespace {
// Links src → dst unless that edge already exists.
void LinkOnce(const AnchorPtr& src, const AnchorPtr& dst) {
  if (!src->IsLinkedWith(dst)) (void)Anchor::Link(src, dst);
}
}  // namespace

Status ComputeGraph::RemoveNode(const NodePtr& node) {
  if (node == nullptr || !HasNode(node.get())) {
    return ParamInvalid("graph '" + impl_->name + "' has no node '" +
                        (node ? node->GetName() : std::string("null")) + "' to remove");
  }
  // 1. Const inputs: unlink, and drop a Const that is left without consumers.
  for (const auto& in : node->GetAllInDataAnchors()) {
    auto peer = in->GetPeerOutAnchor();
    if (peer == nullptr) continue;
    NodePtr producer = peer->GetOwnerNode();
    if (producer == nullptr || !IsConstType(producer->GetType())) continue;
    GE_RETURN_IF_ERROR(peer->Unlink(in));
    bool has_consumer = producer->GetOutControlAnchor()->GetPeerAnchorsSize() != 0;
    for (const auto& out : producer->GetAllOutDataAnchors()) {
      has_consumer = has_consumer || out->GetPeerAnchorsSize() != 0;
    }
    if (!has_consumer && HasNode(producer.get())) GE_RETURN_IF_ERROR(RemoveNode(producer));
  }
  // 2. Input and output lists.
  RemoveInputNode(node);
  RemoveOutputNode(node);
  // 3. Isolate: out-edges move to the first non-Const data producer (data and control edges)
  //    and to every control predecessor (control edges).
  std::vector<NodePtr> successors = node->GetOutNodes();
  bool data_moved = false;
  for (const auto& in : node->GetAllInDataAnchors()) {
    auto producer = in->GetPeerOutAnchor();
    if (producer == nullptr) continue;
    GE_RETURN_IF_ERROR(producer->Unlink(in));
    if (!data_moved) {
      data_moved = true;
      for (const auto& out : node->GetAllOutDataAnchors()) {
        for (const auto& consumer : out->GetPeerInDataAnchors()) {
          GE_RETURN_IF_ERROR(out->Unlink(consumer));
          GE_RETURN_IF_ERROR(Anchor::Link(producer, consumer));
        }
      }
    }
    for (const auto& succ : node->GetOutControlNodes()) {
      LinkOnce(producer->GetOwnerNode()->GetOutControlAnchor(), succ->GetInControlAnchor());
    }
  }
  for (const auto& pred : node->GetInControlAnchor()->GetPeerAnchors()) {
    for (const auto& succ : successors) {
      if (succ != node) LinkOnce(pred, succ->GetInControlAnchor());
    }
  }
  for (const auto& anchor : node->GetAllInAnchors()) anchor->UnlinkAll();
  for (const auto& anchor : node->GetAllOutAnchors()) anchor->UnlinkAll();
  return RemoveJustNode(node);
}

// ---- queries ----

std::vector<NodePtr> ComputeGraph::GetDirectNode() const {
  return {impl_->nodes.begin(), impl_->nodes.end()};
}

std::vector<Node*> ComputeGraph::GetDirectNodePtr() const {
  std::vector<Node*> out;
  out.reserve(impl_->node_count);
  for (const auto& node : impl_->nodes) out.push_back(node.get());
  return out;
}

size_t ComputeGraph::GetDirectNodesSize() const { return impl_->node_count; }

namespace {
/// The root of `graph`'s hierarchy, where subgraphs are registered. The walks below look their
/// subgraphs up there once per name: GetSubgraph on a subgraph climbs to the root each time,
/// which over a deep hierarchy would cost the depth per node.
const ComputeGraph& RootOf(const ComputeGraph& graph) {
  const ComputeGraph* root = &graph;
  for (size_t depth = 0; depth < 100000; ++depth) {  // bounded, as GetSubgraph's climb
    const ComputeGraph* parent = root->GetParentGraphBarePtr();
    if (parent == nullptr) break;
    root = parent;
  }
  return *root;
}

// `active` holds the graphs on the current path, so a subgraph naming its own ancestor cannot
// recurse forever (the verifier reports such a hierarchy).
void CollectAllNodes(const ComputeGraph& graph, const ComputeGraph& root,
                     std::vector<const ComputeGraph*>& active, std::vector<NodePtr>& out) {
  active.push_back(&graph);
  for (const auto& node : graph.GetDirectNode()) {
    out.push_back(node);
    for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (name.empty()) continue;
      ComputeGraphPtr sub = root.GetSubgraph(name);
      if (sub == nullptr || std::find(active.begin(), active.end(), sub.get()) != active.end()) {
        continue;
      }
      CollectAllNodes(*sub, root, active, out);
    }
  }
  active.pop_back();
}
}  // namespace

std::vector<NodePtr> ComputeGraph::GetAllNodes() const {
  std::vector<NodePtr> out;
  out.reserve(impl_->node_count);
  std::vector<const ComputeGraph*> active;
  CollectAllNodes(*this, RootOf(*this), active, out);
  return out;
}

size_t ComputeGraph::GetAllNodesSize() const {
  // GetAllNodes' walk, counting instead of collecting (every pass counts before and after).
  const ComputeGraph& root = RootOf(*this);
  std::vector<const ComputeGraph*> active;
  std::function<size_t(const ComputeGraph&)> count = [&](const ComputeGraph& graph) {
    active.push_back(&graph);
    size_t n = 0;
    for (const auto& node : graph.impl_->nodes) {
      ++n;
      for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (name.empty()) continue;
        ComputeGraphPtr sub = root.GetSubgraph(name);
        if (sub == nullptr || std::find(active.begin(), active.end(), sub.get()) != active.end()) {
          continue;
        }
        n += count(*sub);
      }
    }
    active.pop_back();
    return n;
  };
  return count(*this);
}

NodePtr ComputeGraph::FindNode(const std::string& name) const {
  auto found = impl_->by_name.find(name);
  if (found != impl_->by_name.end() && found->second->GetName() == name && HasNode(found->second)) {
    return found->second->shared_from_this();
  }
  for (const auto& node : impl_->nodes) {  // after a rename the index may miss it
    if (node->GetName() == name) return node;
  }
  return nullptr;
}

NodePtr ComputeGraph::FindNodeById(int64_t id) const {
  for (const auto& node : impl_->nodes) {
    if (node->GetOpDescBarePtr()->GetId() == id) return node;
  }
  return nullptr;
}

NodePtr ComputeGraph::FindNodeInAllGraphs(const std::string& name) const {
  if (auto node = FindNode(name)) return node;
  for (const auto& node : GetAllNodes()) {
    if (node->GetName() == name) return node;
  }
  return nullptr;
}

// ---- inputs and outputs ----

const std::vector<NodePtr>& ComputeGraph::GetInputNodes() const { return impl_->input_nodes; }

Status ComputeGraph::AddInputNode(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid("graph '" + impl_->name + "': null input node");
  if (std::find(impl_->input_nodes.begin(), impl_->input_nodes.end(), node) ==
      impl_->input_nodes.end()) {
    impl_->input_nodes.push_back(node);
  }
  return Status::Ok();
}

void ComputeGraph::RemoveInputNode(const NodePtr& node) {
  auto& v = impl_->input_nodes;
  v.erase(std::remove(v.begin(), v.end(), node), v.end());
}

const std::vector<std::pair<NodePtr, int32_t>>& ComputeGraph::GetGraphOutNodesInfo() const {
  return impl_->outputs;
}

void ComputeGraph::SetGraphOutNodesInfo(std::vector<std::pair<NodePtr, int32_t>> info) {
  impl_->outputs = std::move(info);
}

Status ComputeGraph::AddOutputNode(const NodePtr& node, int32_t index) {
  if (node == nullptr) return ParamInvalid("graph '" + impl_->name + "': null output node");
  if (index < 0 || static_cast<size_t>(index) >= node->GetAllOutDataAnchorsSize()) {
    return ParamInvalid("graph '" + impl_->name + "': node '" + node->GetName() +
                        "' has no output " + std::to_string(index));
  }
  impl_->outputs.emplace_back(node, index);
  return Status::Ok();
}

void ComputeGraph::RemoveOutputNode(const NodePtr& node) {
  auto& v = impl_->outputs;
  v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& p) { return p.first == node; }),
          v.end());
}

Status ComputeGraph::ReorderNodes(const std::vector<NodePtr>& order) {
  if (order.size() != impl_->node_count) {
    return InternalError("graph '" + impl_->name + "': new order has " +
                         std::to_string(order.size()) + " nodes, the graph " +
                         std::to_string(impl_->node_count));
  }
  std::unordered_set<const Node*> seen;
  seen.reserve(order.size());
  for (const auto& node : order) {
    if (!HasNode(node.get()) || !seen.insert(node.get()).second) {
      return InternalError("graph '" + impl_->name + "': new order names node '" +
                           (node ? node->GetName() : std::string("null")) +
                           "' twice or from another graph");
    }
  }
  for (const auto& node : order) {
    impl_->nodes.splice(impl_->nodes.end(), impl_->nodes, node->impl_->position);
  }
  return Status::Ok();
}

}  // namespace ge
