// ApplyInputShapes: ge.inputShape gives graph inputs (Data nodes of the root graph, by name)
// their shapes. A given shape must agree with what the model says where the model is definite.
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/sym_expr.h"

namespace ge {
namespace {

class ApplyInputShapesPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "ApplyInputShapes"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    const auto& shapes = context().options().input_shapes;
    if (shapes.empty()) return false;
    std::map<std::string, NodePtr> inputs;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetType() == "Data" || node->GetType() == "RefData") inputs[node->GetName()] = node;
    }
    bool changed = false;
    for (const auto& [name, dims] : shapes) {
      auto it = inputs.find(name);
      if (it == inputs.end()) {
        std::string names;
        for (const auto& [n, unused] : inputs) names += (names.empty() ? "" : ", ") + n;
        return ParamInvalid("input shape given for '" + name +
                            "', which is not an input of graph '" + graph.GetName() +
                            "'; its inputs are: " + (names.empty() ? "(none)" : names));
      }
      OpDesc& op = *it->second->GetOpDescBarePtr();
      GeTensorDescPtr out = op.MutableOutputDesc(0);
      if (out == nullptr) return ParamInvalid("input '" + name + "' has no output desc");
      const GeShape& old = out->GetShape();
      if (!old.IsUnknownDimNum() && !old.GetDims().empty()) {
        if (old.GetDimNum() != dims.size()) {
          return ParamInvalid("input shape for '" + name + "' has rank " +
                              std::to_string(dims.size()) + " but the model's input is " +
                              old.ToString() + " (rank " + std::to_string(old.GetDimNum()) + ")");
        }
        for (size_t i = 0; i < dims.size(); ++i) {
          const int64_t was = old.GetDim(i);
          if (was >= 0 && dims[i] >= 0 && was != dims[i]) {
            return ParamInvalid("input shape for '" + name + "' sets dimension " +
                                std::to_string(i) + " to " + std::to_string(dims[i]) +
                                " but the model fixes it at " + std::to_string(was) + " (" +
                                old.ToString() + ")");
          }
        }
      }
      // A dim left open keeps the model's name for it, which the shape plans and the
      // SymbolicShapes pass read.
      SetShapeKeepingDimNames(*out, dims);
      if (GeTensorDescPtr in = op.MutableInputDesc(0); in != nullptr) {
        SetShapeKeepingDimNames(*in, dims);
      }
      context().CountRewrite();
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateApplyInputShapesPass() {
  return std::make_unique<ApplyInputShapesPass>();
}

}  // namespace ge
