// ConstantFolding: replaces a node whose inputs are all constants (or, for the Shape family,
// whose input shapes are known) by Const nodes holding its outputs. What needs no compute (the
// Shape family from descs, views and pass-throughs as byte copies) folds on the host; everything
// else by the first engine (in priority order) that supports the node and runs tasks: its kernel
// is loaded and run once through the engine's TaskExecutor, as the runtime would run it, so a
// folded value is the value the model would compute (the compiler never links an engine).
//
// Nodes are visited in topological order and each is re-inferred first, so a fold upstream makes
// shapes downstream known within the same sweep: Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape collapses in one pass. A fold is skipped (and counted) when an output would exceed
// openge.constantFoldingMaxBytes, when the kernel cannot handle the dtypes, or when its result
// disagrees with the inferred shape. Inputs left without consumers are removed by
// DeadCodeElimination.
#include "../folding/engine_kernel.h"
#include "../folding/host_kernels.h"
#include "../folding/host_tensor.h"
#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

bool ShapesAgree(const GeShape& inferred, const std::vector<int64_t>& computed) {
  if (inferred.IsUnknownDimNum()) return true;
  if (inferred.GetDimNum() != computed.size()) return false;
  for (size_t i = 0; i < computed.size(); ++i) {
    if (inferred.GetDim(i) >= 0 && inferred.GetDim(i) != computed[i]) return false;
  }
  return true;
}

bool IsStatic(const GeShape& shape) { return !shape.IsUnknownDimNum() && !shape.IsUnknownShape(); }

// The bytes of `op`'s outputs as inferred; 0 while a shape is not known (the fold then checks the
// bytes it computed).
int64_t DeclaredBytes(const OpDesc& op) {
  int64_t total = 0;
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
    if (!IsStatic(desc.GetShape())) return 0;
    total += std::max<int64_t>(TensorUtils::CalcTensorMemSize(desc), 0);
  }
  return total;
}

class ConstantFoldingPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "ConstantFolding"; }

 private:
  Result<bool> RunImpl(ComputeGraph& root) override {
    if (!context().options().constant_folding) {
      context().Note(std::string(kOptConstantFolding) + " is off");
      return false;
    }
    GE_RETURN_IF_ERROR(root.TopologicalSorting());
    bool changed = false;
    std::vector<ComputeGraph*> graphs = {&root};
    for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) graphs.push_back(sub.get());
    for (ComputeGraph* graph : graphs) {
      for (const NodePtr& node : graph->GetDirectNode()) {
        GE_ASSIGN_OR_RETURN(const bool folded, TryFold(*graph, node));
        changed = changed || folded;
      }
    }
    return changed;
  }

  Result<bool> TryFold(ComputeGraph& graph, const NodePtr& node) {
    // Shapes first: upstream folds may have made this node's shapes known.
    if (context().registry().Has(node->GetType())) {
      Status inferred = context().registry().InferShape(node);
      if (!inferred.ok()) return std::move(inferred).Prefix("constant folding");
    }
    const folding::HostKernel* kernel = folding::FindHostKernel(node->GetType());
    const bool on_engine = kernel == nullptr && context().engines() != nullptr;
    if ((kernel == nullptr && !on_engine) || passes::IsGraphBoundary(*node) ||
        passes::IsConstNode(*node) || !NodeUtils::GetSubgraphs(*node).empty() ||
        node->GetAllOutDataAnchorsSize() == 0) {
      return false;
    }
    // Kernels read strings as running heads (ge/graph/string_tensor.h), Consts hold them stored:
    // a node on strings runs at run time, except the Shape family, which reads no value.
    if ((kernel == nullptr || !kernel->from_shapes) &&
        folding::TouchesStrings(*node->GetOpDescBarePtr())) {
      context().Count("not folded: string tensors");
      return false;
    }
    // Inputs: constants (or absent optional inputs); the Shape family only needs shapes.
    std::vector<GeTensor> values;
    std::vector<const GeTensor*> inputs;
    values.reserve(node->GetAllInDataAnchorsSize());
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) {
        inputs.push_back(nullptr);
        continue;
      }
      NodePtr producer = peer->GetOwnerNode();
      if (!passes::IsConstNode(*producer)) {
        if (kernel == nullptr || !kernel->from_shapes) return false;
        inputs.push_back(nullptr);
        continue;
      }
      Result<GeTensor> value = OpDescUtils::GetConstValue(*producer);
      if (!value.ok()) return false;
      values.push_back(std::move(value).value());
      inputs.push_back(&values.back());
    }
    const OpDesc& op = *node->GetOpDescBarePtr();
    if (on_engine && values.empty()) return false;  // a source op (no inputs): leave it
    if (DeclaredBytes(op) > context().options().fold_max_bytes) {
      context().Count("not folded: larger than " + std::string(kOptFoldMaxBytes));
      return false;
    }
    Result<std::vector<GeTensor>> outputs =
        kernel != nullptr ? kernel->fn(op, inputs)
                          : folding::RunOnEngine(*context().engines(), *node, inputs);
    if (!outputs.ok()) {
      if (folding::IsCannotFold(outputs.status())) {
        context().Count("not folded: " + node->GetType());
        return false;
      }
      context().Count("not folded: " + node->GetType());
      context().Note("node '" + node->GetName() + "' (" + node->GetType() +
                     ") not folded: " + outputs.status().message());
      return false;
    }
    if (outputs->size() != node->GetAllOutDataAnchorsSize()) {
      return InternalError("host kernel of " + node->GetType() + " gave " +
                           std::to_string(outputs->size()) + " outputs for node '" +
                           node->GetName() + "', which has " +
                           std::to_string(node->GetAllOutDataAnchorsSize()));
    }
    int64_t bytes = 0;
    for (size_t i = 0; i < outputs->size(); ++i) {
      const GeTensor& t = (*outputs)[i];
      bytes += static_cast<int64_t>(t.GetSize());
      if (!ShapesAgree(op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape(), folding::DimsOf(t))) {
        context().Count("not folded: shape mismatch");
        context().Note("node '" + node->GetName() + "' (" + node->GetType() + ") not folded: " +
                       "its host kernel gave output " + std::to_string(i) + " the shape " +
                       t.GetTensorDesc().GetShape().ToString() + " but inference says " +
                       op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape().ToString());
        return false;
      }
    }
    if (bytes > context().options().fold_max_bytes) {
      context().Count("not folded: larger than " + std::string(kOptFoldMaxBytes));
      return false;
    }
    std::vector<std::pair<NodePtr, int>> replacements;
    for (size_t i = 0; i < outputs->size(); ++i) {
      std::string base = node->GetName();
      if (outputs->size() != 1) {
        base += '_';
        base += std::to_string(i);
      }
      OpDescPtr const_op = OpDescUtils::CreateConstOp(
          passes::UniqueNodeName(graph, base + "_folded"), (*outputs)[i]);
      GE_ASSIGN_OR_RETURN(NodePtr const_node, graph.AddNode(const_op));
      replacements.emplace_back(const_node, 0);
    }
    const std::string type = node->GetType();
    GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, replacements));
    context().CountRewrite();
    context().Count("folded " + type);
    if (on_engine) context().Count("folded on an engine");
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateConstantFoldingPass() {
  return std::make_unique<ConstantFoldingPass>();
}

}  // namespace ge
