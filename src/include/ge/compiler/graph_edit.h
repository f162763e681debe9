// Small graph edits the passes share: bypassing a node, replacing its outputs, unique names.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"

namespace ge::passes {

/// Removes `node`, connecting the consumers of output i to the producer of input io_map[i]
/// (GraphUtils::IsolateNode), and keeps the graph's output list pointing at live nodes.
Status BypassNode(ComputeGraph& graph, const NodePtr& node, const std::vector<int>& io_map);

/// Moves every consumer of output i of `node` to `replacements[i]` (a node and its output
/// index), moves its outgoing control edges to the first replacement, updates the graph's output
/// list, and removes `node`.
Status ReplaceNode(ComputeGraph& graph, const NodePtr& node,
                   const std::vector<std::pair<NodePtr, int>>& replacements);

/// `base` if no node of `graph` has that name, else base_1, base_2, ...
std::string UniqueNodeName(const ComputeGraph& graph, const std::string& base);

/// True for Const and Constant.
bool IsConstNode(const Node& node);

/// Operators whose outputs are not a function of their inputs (random, stateful): never merged,
/// never folded.
bool IsImpure(const std::string& type);

/// Nodes that must never be removed or merged: graph inputs and outputs.
bool IsGraphBoundary(const Node& node);

/// True when replacing `group` by one node would create a cycle: some node outside the group is
/// reachable from the group and reaches it (fusion checks this before every rewrite).
bool FusionWouldCreateCycle(const std::vector<NodePtr>& group);

}  // namespace ge::passes
