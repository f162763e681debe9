// ComputeGraph internals shared by its implementation files (not a public header).
#pragma once

#include <list>
#include <unordered_map>

#include "ge/graph/compute_graph.h"

namespace ge {

struct ComputeGraph::Impl {
  std::string name;
  std::list<NodePtr> nodes;
  size_t node_count = 0;
  int64_t next_id = 0;  // ids stay unique after removals: max(node count, last id + 1)
  std::unordered_map<std::string, Node*> by_name;  // may hold stale entries after renames
  std::vector<NodePtr> input_nodes;
  std::vector<std::pair<NodePtr, int32_t>> outputs;
  std::vector<ComputeGraphPtr> subgraphs;  // only used on the root graph
  std::unordered_map<std::string, ComputeGraphPtr> subgraph_by_name;
  std::weak_ptr<ComputeGraph> parent_graph;
  std::weak_ptr<Node> parent_node;
  bool training = false;
};

/// Data-like node types that join a graph's input list (docs/ge_compatibility.md, "Graphs").
bool IsDataLikeType(const std::string& type);

}  // namespace ge
