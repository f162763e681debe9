// VerifyNodes: every node of every graph has an operator prototype (all unknown types are
// reported together, up to a bound), and every Const's value holds the bytes its shape and dtype
// need (a graph from a file may not). A node whose ports have no names of their own (a graph file
// without `_input_name_key`, a hand-built OpDesc) gets its prototype's, by position
// (OpRegistry::NameUnnamedPorts), so that inference finds each IR input's instances; ports that
// fit the prototype in no way or in more than one are an error. The checks that need input descs
// (required inputs present, attributes typed, dtypes allowed) run node by node in InferShape, once
// the producers' descs are known.
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

constexpr size_t kMaxReported = 20;

class VerifyNodesPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "VerifyNodes"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    for (const NodePtr& node : graph.GetAllNodes()) {
      if (!NodeUtils::IsConst(*node)) continue;
      Result<GeTensor> value = OpDescUtils::GetCheckedConstValue(*node);
      if (!value.ok()) return std::move(value).status();
    }
    std::vector<std::string> problems;
    size_t count = 0;
    for (const NodePtr& node : graph.GetAllNodes()) {
      if (context().registry().Has(node->GetType())) continue;
      Status status = ParamInvalid("node '" + node->GetName() + "' has type " + node->GetType() +
                                   ", which no loaded operator library defines (load one that "
                                   "does with ge.opsProtoLibPath, or replace the operator)");
      ++count;
      if (problems.size() < kMaxReported) problems.push_back(status.message());
    }
    if (count == 0) return NamePorts(graph);
    std::string message = std::to_string(count) + " node(s) of graph '" + graph.GetName() +
                          "' have no operator prototype:";
    for (const std::string& p : problems) message += "\n  " + p;
    if (count > problems.size()) {
      message += "\n  ... and " + std::to_string(count - problems.size()) + " more";
    }
    return ParamInvalid(message);
  }

  Result<bool> NamePorts(ComputeGraph& graph) {
    bool changed = false;
    for (const NodePtr& node : graph.GetAllNodes()) {
      GE_ASSIGN_OR_RETURN(bool renamed,
                          context().registry().NameUnnamedPorts(*node->GetOpDescBarePtr()));
      if (!renamed) continue;
      changed = true;
      context().CountRewrite();
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateVerifyNodesPass() { return std::make_unique<VerifyNodesPass>(); }

}  // namespace ge
