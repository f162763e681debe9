// DeadCodeElimination: a node lives if some output of its graph (the NetOutput, or the graph's
// output list) or some node with effects (an impure operator other than a variable) depends on
// it through data or control edges; graph inputs always live. Dead
// nodes are removed, then subgraphs that no live node names are unregistered.
#include <unordered_set>

#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge {
namespace {

class DeadCodeEliminationPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "DeadCodeElimination"; }

 private:
  Result<bool> RunImpl(ComputeGraph& root) override {
    bool changed = false;
    std::vector<ComputeGraphPtr> graphs = {root.shared_from_this()};
    for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) graphs.push_back(sub);
    for (const ComputeGraphPtr& graph : graphs) {
      GE_ASSIGN_OR_RETURN(const bool removed, Sweep(*graph));
      changed = changed || removed;
    }
    // Subgraphs whose parent node is gone.
    std::unordered_set<std::string> used;
    for (const NodePtr& node : root.GetAllNodes()) {
      for (const std::string& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        used.insert(name);
      }
    }
    for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) {
      if (used.count(sub->GetName()) != 0) continue;
      root.RemoveSubgraph(sub->GetName());
      context().Count("removed subgraphs");
      changed = true;
    }
    return changed;
  }

  Result<bool> Sweep(ComputeGraph& graph) {
    std::vector<Node*> stack;
    for (const NodePtr& node : graph.GetDirectNode()) {
      // Graph inputs, outputs, and nodes with effects (a write of a variable, a stack push).
      if (node->GetType() == "NetOutput" || passes::IsGraphBoundary(*node) ||
          (passes::IsImpure(node->GetType()) && !IsInputOrWeightType(node->GetType()))) {
        stack.push_back(node.get());
      }
    }
    for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
      if (node != nullptr) stack.push_back(node.get());
    }
    bool has_output = false;
    for (Node* n : stack) has_output = has_output || n->GetType() == "NetOutput";
    if (!has_output && graph.GetGraphOutNodesInfo().empty()) {
      context().Note("graph '" + graph.GetName() + "' has no NetOutput: nothing removed");
      return false;
    }
    std::unordered_set<const Node*> live;
    while (!stack.empty()) {
      Node* node = stack.back();
      stack.pop_back();
      if (!live.insert(node).second) continue;
      for (const NodePtr& in : node->GetInNodes()) {
        if (live.count(in.get()) == 0) stack.push_back(in.get());
      }
    }
    bool changed = false;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (live.count(node.get()) != 0) continue;
      GE_RETURN_IF_ERROR(GraphUtils::RemoveNodeWithoutRelink(graph.shared_from_this(), node));
      context().CountRewrite();
      context().Count("removed " + node->GetType());
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateDeadCodeEliminationPass() {
  return std::make_unique<DeadCodeEliminationPass>();
}

}  // namespace ge
