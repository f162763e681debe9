// RemoveTransDataPairs: a TransData that undoes the TransData before it (NCHW -> NC1HWC0 ->
// NCHW, or the reverse, on the same tensor) is removed, its readers reading the first one's
// input; the first goes too when nothing else reads it. Runs after the engines' layout hooks,
// which may leave such pairs where layouts meet (and graphs from GE may carry them).
#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/anchor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge {
namespace {

class RemoveTransDataPairsPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "RemoveTransDataPairs"; }

 private:
  static std::string Attr(const Node& node, const char* name) {
    std::string value;
    AttrUtils::GetStr(*node.GetOpDescBarePtr(), name, value);
    return value;
  }

  /// True when `second` converts back what `first` converted: formats swapped and the tensor
  /// that comes out of `second` is the one that went into `first`.
  static bool Cancels(const Node& first, const Node& second) {
    if (Attr(first, "src_format").empty() ||
        Attr(first, "src_format") != Attr(second, "dst_format") ||
        Attr(first, "dst_format") != Attr(second, "src_format")) {
      return false;
    }
    const GeTensorDesc& in = first.GetOpDescBarePtr()->GetInputDesc(0);
    const GeTensorDesc& out = second.GetOpDescBarePtr()->GetOutputDesc(0);
    return in.GetShape().GetDims() == out.GetShape().GetDims() &&
           in.GetFormat() == out.GetFormat() && in.GetDataType() == out.GetDataType();
  }

  Result<bool> RunImpl(ComputeGraph& root) override {
    bool changed = false;
    for (const NodePtr& second : root.GetAllNodes()) {
      if (second->GetType() != "TransData") continue;
      const InDataAnchorPtr in = second->GetInDataAnchor(0);
      if (in == nullptr || in->GetPeerOutAnchor() == nullptr) continue;
      const NodePtr first = in->GetPeerOutAnchor()->GetOwnerNode();
      if (first->GetType() != "TransData" || !Cancels(*first, *second)) continue;
      const InDataAnchorPtr first_in = first->GetInDataAnchor(0);
      if (first_in == nullptr || first_in->GetPeerOutAnchor() == nullptr) continue;
      ComputeGraph& graph = *second->GetOwnerComputeGraphBarePtr();
      const OutDataAnchorPtr source = first_in->GetPeerOutAnchor();
      GE_RETURN_IF_ERROR(
          passes::ReplaceNode(graph, second, {{source->GetOwnerNode(), source->GetIdx()}}));
      if (first->GetOutDataAnchor(0)->GetPeerInDataAnchors().empty() &&
          first->GetOutControlNodes().empty()) {
        GE_RETURN_IF_ERROR(passes::BypassNode(graph, first, {0}));
        context().Count("removed TransData");
      }
      context().Count("removed TransData");
      context().CountRewrite();
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateRemoveTransDataPairsPass() {
  return std::make_unique<RemoveTransDataPairsPass>();
}

}  // namespace ge
