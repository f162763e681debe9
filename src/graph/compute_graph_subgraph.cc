// ComputeGraph: the subgraph hierarchy (parent links, registration on the root graph, lookup).
#include <algorithm>

#include "compute_graph_impl.h"
#include "ge/graph/compute_graph.h"

namespace ge {

ComputeGraphPtr ComputeGraph::GetParentGraph() const { return impl_->parent_graph.lock(); }

ComputeGraph* ComputeGraph::GetParentGraphBarePtr() const {
  return impl_->parent_graph.lock().get();
}

void ComputeGraph::SetParentGraph(const ComputeGraphPtr& parent) { impl_->parent_graph = parent; }
NodePtr ComputeGraph::GetParentNode() const { return impl_->parent_node.lock(); }
void ComputeGraph::SetParentNode(const NodePtr& parent) { impl_->parent_node = parent; }

ComputeGraphPtr ComputeGraph::GetRootGraph() {
  ComputeGraphPtr graph = shared_from_this();
  // Bounded: a parent chain longer than the number of graphs we could hold is a loop.
  for (size_t depth = 0; depth < 100000; ++depth) {
    ComputeGraphPtr parent = graph->GetParentGraph();
    if (parent == nullptr) return graph;
    graph = parent;
  }
  return graph;
}

Status ComputeGraph::AddSubgraph(const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr) return ParamInvalid("graph '" + impl_->name + "': null subgraph");
  return AddSubgraph(subgraph->GetName(), subgraph);
}

Status ComputeGraph::AddSubgraph(const std::string& name, const ComputeGraphPtr& subgraph) {
  const std::string where = "add subgraph '" + name + "' to graph '" + impl_->name + "'";
  if (subgraph == nullptr) return ParamInvalid(where + ": the subgraph is null");
  if (subgraph.get() == this) return ParamInvalid(where + ": a graph cannot be its own subgraph");
  ComputeGraphPtr parent_graph = subgraph->GetParentGraph();
  NodePtr parent_node = subgraph->GetParentNode();
  if (parent_graph == nullptr) return ParamInvalid(where + ": its parent graph is not set");
  if (parent_node == nullptr) return ParamInvalid(where + ": its parent node is not set");
  if (parent_node->GetOwnerComputeGraphBarePtr() != parent_graph.get()) {
    return ParamInvalid(where + ": its parent node '" + parent_node->GetName() +
                        "' is not in its parent graph '" + parent_graph->GetName() + "'");
  }
  ComputeGraphPtr root = GetRootGraph();
  if (parent_graph->GetRootGraph() != root) {
    return ParamInvalid(where + ": its parent graph '" + parent_graph->GetName() +
                        "' belongs to another graph hierarchy");
  }
  auto& r = *root->impl_;
  if (r.subgraph_by_name.count(name) != 0) {
    return ParamInvalid(where + ": the name is already used by another subgraph");
  }
  if (std::find(r.subgraphs.begin(), r.subgraphs.end(), subgraph) != r.subgraphs.end()) {
    return ParamInvalid(where + ": it is already registered under another name");
  }
  r.subgraphs.push_back(subgraph);
  r.subgraph_by_name.emplace(name, subgraph);
  return Status::Ok();
}

ComputeGraphPtr ComputeGraph::GetSubgraph(const std::string& name) const {
  const ComputeGraph* root = this;
  for (size_t depth = 0; depth < 100000; ++depth) {
    ComputeGraph* parent = root->GetParentGraphBarePtr();
    if (parent == nullptr) break;
    root = parent;
  }
  auto it = root->impl_->subgraph_by_name.find(name);
  return it == root->impl_->subgraph_by_name.end() ? nullptr : it->second;
}

void ComputeGraph::RemoveSubgraph(const std::string& name) {
  ComputeGraphPtr root = GetRootGraph();
  auto& r = *root->impl_;
  auto it = r.subgraph_by_name.find(name);
  if (it == r.subgraph_by_name.end()) return;
  ComputeGraphPtr sub = it->second;
  r.subgraph_by_name.erase(it);
  r.subgraphs.erase(std::remove(r.subgraphs.begin(), r.subgraphs.end(), sub), r.subgraphs.end());
}

std::vector<ComputeGraphPtr> ComputeGraph::GetAllSubgraphs() const {
  const ComputeGraph* root = this;
  while (ComputeGraph* parent = root->GetParentGraphBarePtr()) root = parent;
  return root->impl_->subgraphs;
}

void ComputeGraph::ClearAllSubgraphs() {
  impl_->subgraphs.clear();
  impl_->subgraph_by_name.clear();
}

}  // namespace ge
