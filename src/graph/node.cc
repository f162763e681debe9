// Node: anchors made from the OpDesc, and neighbour queries over them.
#include "ge/graph/node.h"

#include "ge/graph/compute_graph.h"
#include "node_impl.h"

namespace ge {

Node::Node() : impl_(std::make_unique<Impl>()) {}

// Peers hold weak references, so a dying node leaves only expired entries behind, which every
// query skips; not unlinking here keeps destroying a graph O(nodes + edges).
Node::~Node() {
  if (impl_->op_desc != nullptr && impl_->op_desc->GetOwnerNode() == this) {
    impl_->op_desc->SetOwnerNode(nullptr);
  }
}

Result<NodePtr> Node::Create(const OpDescPtr& op_desc, const ComputeGraphPtr& graph) {
  NodePtr node(new Node());
  GE_RETURN_IF_ERROR(node->Init(op_desc, graph));
  return node;
}

Status Node::Init(const OpDescPtr& op_desc, const ComputeGraphPtr& graph) {
  if (op_desc == nullptr) return ParamInvalid("cannot create a node from a null OpDesc");
  impl_->op_desc = op_desc;
  op_desc->SetOwnerNode(this);
  SetOwnerComputeGraph(graph);
  const NodePtr self = shared_from_this();
  const size_t num_in = op_desc->GetAllInputsSize();
  const size_t num_out = op_desc->GetOutputsSize();
  impl_->in_data.reserve(num_in);
  for (size_t i = 0; i < num_in; ++i) {
    impl_->in_data.push_back(std::make_shared<InDataAnchor>(self, static_cast<int>(i)));
  }
  impl_->out_data.reserve(num_out);
  for (size_t i = 0; i < num_out; ++i) {
    impl_->out_data.push_back(std::make_shared<OutDataAnchor>(self, static_cast<int>(i)));
  }
  impl_->in_control = std::make_shared<InControlAnchor>(self);
  impl_->out_control = std::make_shared<OutControlAnchor>(self);
  return Status::Ok();
}

const std::string& Node::GetName() const { return impl_->op_desc->GetName(); }
const std::string& Node::GetType() const { return impl_->op_desc->GetType(); }
OpDescPtr Node::GetOpDesc() const { return impl_->op_desc; }
OpDesc* Node::GetOpDescBarePtr() const { return impl_->op_desc.get(); }

ComputeGraphPtr Node::GetOwnerComputeGraph() const { return impl_->owner_graph.lock(); }
ComputeGraph* Node::GetOwnerComputeGraphBarePtr() const {
  return impl_->owner_graph.expired() ? nullptr : impl_->owner_graph_raw;
}
void Node::SetOwnerComputeGraph(const ComputeGraphPtr& graph) {
  impl_->owner_graph = graph;
  impl_->owner_graph_raw = graph.get();
}

const std::vector<InDataAnchorPtr>& Node::GetAllInDataAnchors() const { return impl_->in_data; }
const std::vector<OutDataAnchorPtr>& Node::GetAllOutDataAnchors() const { return impl_->out_data; }
size_t Node::GetAllInDataAnchorsSize() const { return impl_->in_data.size(); }
size_t Node::GetAllOutDataAnchorsSize() const { return impl_->out_data.size(); }

InDataAnchorPtr Node::GetInDataAnchor(int idx) const {
  return idx >= 0 && static_cast<size_t>(idx) < impl_->in_data.size() ? impl_->in_data[idx]
                                                                      : nullptr;
}
OutDataAnchorPtr Node::GetOutDataAnchor(int idx) const {
  return idx >= 0 && static_cast<size_t>(idx) < impl_->out_data.size() ? impl_->out_data[idx]
                                                                       : nullptr;
}
InDataAnchor* Node::GetInDataAnchorBarePtr(int idx) const {
  return idx >= 0 && static_cast<size_t>(idx) < impl_->in_data.size() ? impl_->in_data[idx].get()
                                                                      : nullptr;
}
OutDataAnchor* Node::GetOutDataAnchorBarePtr(int idx) const {
  return idx >= 0 && static_cast<size_t>(idx) < impl_->out_data.size() ? impl_->out_data[idx].get()
                                                                       : nullptr;
}
const InControlAnchorPtr& Node::GetInControlAnchor() const { return impl_->in_control; }
const OutControlAnchorPtr& Node::GetOutControlAnchor() const { return impl_->out_control; }

std::vector<AnchorPtr> Node::GetAllInAnchors() const {
  std::vector<AnchorPtr> out(impl_->in_data.begin(), impl_->in_data.end());
  out.push_back(impl_->in_control);
  return out;
}

std::vector<AnchorPtr> Node::GetAllOutAnchors() const {
  std::vector<AnchorPtr> out(impl_->out_data.begin(), impl_->out_data.end());
  out.push_back(impl_->out_control);
  return out;
}

void Node::AppendInDataAnchor() {
  impl_->in_data.push_back(
      std::make_shared<InDataAnchor>(shared_from_this(), static_cast<int>(impl_->in_data.size())));
}

void Node::AppendOutDataAnchor() {
  impl_->out_data.push_back(std::make_shared<OutDataAnchor>(
      shared_from_this(), static_cast<int>(impl_->out_data.size())));
}

Status Node::RemoveInDataAnchor(int idx) {
  if (idx < 0 || static_cast<size_t>(idx) >= impl_->in_data.size()) {
    return ParamInvalid("node '" + GetName() + "' has no input anchor " + std::to_string(idx));
  }
  if (impl_->in_data[idx]->GetPeerAnchorsSize() != 0) {
    return ParamInvalid("cannot remove input anchor " + impl_->in_data[idx]->DebugString() +
                        ": it is still linked");
  }
  impl_->in_data.erase(impl_->in_data.begin() + idx);
  for (auto i = static_cast<size_t>(idx); i < impl_->in_data.size(); ++i) {
    impl_->in_data[i]->SetIdx(static_cast<int>(i));
  }
  return Status::Ok();
}

Status Node::UpdateAnchorsFromOpDesc() {
  const size_t num_in = impl_->op_desc->GetAllInputsSize();
  const size_t num_out = impl_->op_desc->GetOutputsSize();
  for (size_t i = num_in; i < impl_->in_data.size(); ++i) {
    if (impl_->in_data[i]->GetPeerAnchorsSize() != 0) {
      return ParamInvalid("node '" + GetName() + "': input anchor " + std::to_string(i) +
                          " is linked but the OpDesc has only " + std::to_string(num_in) +
                          " inputs");
    }
  }
  for (size_t i = num_out; i < impl_->out_data.size(); ++i) {
    if (impl_->out_data[i]->GetPeerAnchorsSize() != 0) {
      return ParamInvalid("node '" + GetName() + "': output anchor " + std::to_string(i) +
                          " is linked but the OpDesc has only " + std::to_string(num_out) +
                          " outputs");
    }
  }
  if (impl_->in_data.size() > num_in) impl_->in_data.resize(num_in);
  if (impl_->out_data.size() > num_out) impl_->out_data.resize(num_out);
  while (impl_->in_data.size() < num_in) AppendInDataAnchor();
  while (impl_->out_data.size() < num_out) AppendOutDataAnchor();
  return Status::Ok();
}

// ---- neighbours ----

namespace {
void AppendOwners(const std::vector<AnchorPtr>& peers, std::vector<NodePtr>& out) {
  for (const auto& peer : peers) {
    if (auto node = peer->GetOwnerNode()) out.push_back(std::move(node));
  }
}
}  // namespace

std::vector<NodePtr> Node::GetInDataNodes() const {
  std::vector<NodePtr> out;
  for (const auto& anchor : impl_->in_data) {
    auto peer = anchor->GetPeerOutAnchor();
    if (peer == nullptr) continue;
    if (auto node = peer->GetOwnerNode()) out.push_back(std::move(node));
  }
  return out;
}

// Control predecessors: every peer of the in-control anchor, then control anchors feeding a
// data input (a control → data link carries no tensor, so it is a control dependency).
std::vector<NodePtr> Node::GetInControlNodes() const {
  std::vector<NodePtr> out;
  AppendOwners(impl_->in_control->GetPeerAnchors(), out);
  for (const auto& anchor : impl_->in_data) {
    auto peer = anchor->GetPeerOutControlAnchor();
    if (peer == nullptr) continue;
    if (auto node = peer->GetOwnerNode()) out.push_back(std::move(node));
  }
  return out;
}

std::vector<NodePtr> Node::GetInNodes() const {
  std::vector<NodePtr> out = GetInDataNodes();
  std::vector<NodePtr> control = GetInControlNodes();
  out.insert(out.end(), control.begin(), control.end());
  return out;
}

std::vector<NodePtr> Node::GetOutDataNodes() const {
  std::vector<NodePtr> out;
  for (const auto& anchor : impl_->out_data) {
    for (const auto& peer : anchor->GetPeerInDataAnchors()) {
      if (auto node = peer->GetOwnerNode()) out.push_back(std::move(node));
    }
  }
  return out;
}

// Control successors: every peer of the out-control anchor, then in-control anchors fed by a data
// output (data → control).
std::vector<NodePtr> Node::GetOutControlNodes() const {
  std::vector<NodePtr> out;
  AppendOwners(impl_->out_control->GetPeerAnchors(), out);
  for (const auto& anchor : impl_->out_data) {
    for (const auto& peer : anchor->GetPeerInControlAnchors()) {
      if (auto node = peer->GetOwnerNode()) out.push_back(std::move(node));
    }
  }
  return out;
}

std::vector<NodePtr> Node::GetOutNodes() const {
  std::vector<NodePtr> out = GetOutDataNodes();
  std::vector<NodePtr> control = GetOutControlNodes();
  out.insert(out.end(), control.begin(), control.end());
  return out;
}

size_t Node::GetOutDataNodesSize() const {
  size_t count = 0;
  for (const auto& anchor : impl_->out_data) count += anchor->GetPeerInDataNodesSize();
  return count;
}

size_t Node::GetInDataNodesSize() const {
  size_t count = 0;
  for (const auto& anchor : impl_->in_data) count += anchor->GetPeerOutAnchorBarePtr() ? 1 : 0;
  return count;
}

std::vector<std::pair<NodePtr, OutDataAnchorPtr>> Node::GetInDataNodesAndAnchors() const {
  std::vector<std::pair<NodePtr, OutDataAnchorPtr>> out;
  for (const auto& anchor : impl_->in_data) {
    auto peer = anchor->GetPeerOutAnchor();
    if (peer == nullptr) continue;
    if (auto node = peer->GetOwnerNode()) out.emplace_back(std::move(node), std::move(peer));
  }
  return out;
}

std::vector<std::pair<NodePtr, InDataAnchorPtr>> Node::GetOutDataNodesAndAnchors() const {
  std::vector<std::pair<NodePtr, InDataAnchorPtr>> out;
  for (const auto& anchor : impl_->out_data) {
    for (auto& peer : anchor->GetPeerInDataAnchors()) {
      if (auto node = peer->GetOwnerNode()) out.emplace_back(std::move(node), std::move(peer));
    }
  }
  return out;
}

Status Node::AddLinkFrom(const NodePtr& input) {
  if (input == nullptr || input->GetAllOutDataAnchorsSize() == 0) {
    return ParamInvalid("node '" + GetName() + "': AddLinkFrom needs an input node with an output");
  }
  GE_RETURN_IF_ERROR(impl_->op_desc->AddInputDesc(input->GetOpDesc()->GetOutputDesc(0)));
  AppendInDataAnchor();
  return impl_->in_data.back()->LinkFrom(input->GetOutDataAnchor(0));
}

Status Node::AddLinkFrom(uint32_t index, const NodePtr& input) {
  if (input == nullptr || input->GetAllOutDataAnchorsSize() == 0) {
    return ParamInvalid("node '" + GetName() + "': AddLinkFrom needs an input node with an output");
  }
  auto anchor = GetInDataAnchor(static_cast<int>(index));
  if (anchor == nullptr) {
    return ParamInvalid("node '" + GetName() + "' has no input " + std::to_string(index));
  }
  GE_RETURN_IF_ERROR(anchor->LinkFrom(input->GetOutDataAnchor(0)));
  return impl_->op_desc->UpdateInputDesc(index, input->GetOpDesc()->GetOutputDesc(0));
}

Status Node::AddLinkFrom(const std::string& name, const NodePtr& input) {
  if (input == nullptr || input->GetAllOutDataAnchorsSize() == 0) {
    return ParamInvalid("node '" + GetName() + "': AddLinkFrom needs an input node with an output");
  }
  int32_t idx = impl_->op_desc->GetInputIndexByName(name);
  if (idx < 0) {
    GE_RETURN_IF_ERROR(impl_->op_desc->AddInputDesc(name, input->GetOpDesc()->GetOutputDesc(0)));
    AppendInDataAnchor();
    idx = static_cast<int32_t>(impl_->in_data.size() - 1);
  }
  return AddLinkFrom(static_cast<uint32_t>(idx), input);
}

std::string Node::DebugString() const { return GetName() + "(" + GetType() + ")"; }

}  // namespace ge
