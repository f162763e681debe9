// RemoveIdentity: nodes that pass their input through unchanged (GE's Identity-class
// GeDeletedOps and ONNX's inference-mode Dropout) are bypassed: consumers read the producer.
#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

constexpr char kDropout[] = "Dropout";

/// Pass-through operators (the prototype's trait) and ONNX's Dropout, which is one in inference.
bool IsIdentityLike(const std::string& type) {
  return type == kDropout || OpRegistry::Instance().TraitsOf(type).pass_through;
}

class RemoveIdentityPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "RemoveIdentity"; }

 private:
  Result<bool> RunImpl(ComputeGraph& root) override {
    bool changed = false;
    for (const NodePtr& node : root.GetAllNodes()) {
      if (!IsIdentityLike(node->GetType())) continue;
      std::vector<int> io_map;
      if (!Removable(*node, io_map)) continue;
      ComputeGraph& graph = *node->GetOwnerComputeGraphBarePtr();
      const std::string type = node->GetType();
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, node, io_map));
      context().CountRewrite();
      context().Count("removed " + type);
      changed = true;
    }
    return changed;
  }

  // Output i passes input i through; every output that has consumers needs its input connected.
  static bool Removable(const Node& node, std::vector<int>& io_map) {
    const size_t outputs = node.GetAllOutDataAnchorsSize();
    if (node.GetType() == kDropout) {
      // Inference Dropout: y = x; a used mask output (or training mode) keeps the node.
      int64_t training = 0;
      AttrUtils::GetInt(*node.GetOpDescBarePtr(), "training_mode", training);
      if (training != 0 || node.GetAllInDataAnchorsSize() > 1) {
        for (size_t i = 1; i < node.GetAllInDataAnchorsSize(); ++i) {
          if (node.GetInDataAnchor(static_cast<int>(i))->GetPeerOutAnchor() != nullptr)
            return false;
        }
      }
      if (training != 0) return false;
      for (size_t i = 1; i < outputs; ++i) {
        if (node.GetOutDataAnchor(static_cast<int>(i))->GetPeerAnchorsSize() > 0) return false;
      }
      io_map.assign(outputs, -1);
      if (outputs > 0) io_map[0] = 0;
      return node.GetInDataAnchor(0) != nullptr &&
             node.GetInDataAnchor(0)->GetPeerOutAnchor() != nullptr;
    }
    for (size_t i = 0; i < outputs; ++i) {
      InDataAnchorPtr in = node.GetInDataAnchor(static_cast<int>(i));
      const bool used = node.GetOutDataAnchor(static_cast<int>(i))->GetPeerAnchorsSize() > 0;
      if (used && (in == nullptr || in->GetPeerOutAnchor() == nullptr)) return false;
      io_map.push_back(static_cast<int>(i));
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateRemoveIdentityPass() {
  return std::make_unique<RemoveIdentityPass>();
}

}  // namespace ge
