// CommonSubexpressionElimination: two nodes of one graph with the same type, the same data
// inputs (same producer outputs, in order), the same control predecessors and equal attributes
// compute the same values; the later one is replaced by the earlier. Consts merge when their
// values are equal (dtype, shape and bytes). Nodes with subgraphs, graph inputs/outputs and
// operators whose result is not a function of their inputs (random, stateful) are left alone.
// Nodes are visited in topological order, so merging producers exposes merges downstream.
#include <algorithm>
#include <functional>
#include <unordered_map>

#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"

namespace ge {
namespace {

std::string InputKey(const Node& node) {
  std::string key = node.GetType();
  for (const auto& in : node.GetAllInDataAnchors()) {
    const OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
    key += '|';
    if (peer != nullptr) {
      key += std::to_string(reinterpret_cast<uintptr_t>(peer->GetOwnerNodeBarePtr()));
      key += ':' + std::to_string(peer->GetIdx());
    }
  }
  std::vector<uintptr_t> controls;
  for (const NodePtr& c : node.GetInControlNodes())
    controls.push_back(reinterpret_cast<uintptr_t>(c.get()));
  std::sort(controls.begin(), controls.end());
  key += "|c";
  for (uintptr_t c : controls) key += ':' + std::to_string(c);
  return key;
}

// The bucket of a Const: its dtype, shape and size, and a hash of its first and last bytes only.
// Hashing every byte cost GPT-2 a tenth of a second; distinct weights differ in their first
// bytes, and equal ones are confirmed byte for byte when they meet in a bucket.
std::string ConstKey(const GeTensor& value) {
  constexpr size_t kSampled = 256;
  const GeTensorDesc& desc = value.GetTensorDesc();
  std::string key = "Const|" + std::to_string(static_cast<int>(desc.GetDataType())) + "|" +
                    desc.GetShape().ToString() + "|" + std::to_string(value.GetSize()) + "|";
  const auto data = value.GetStoredData();  // hashed where they lie, aligned or not
  const auto* bytes = reinterpret_cast<const char*>(data.data());
  const size_t head = std::min(data.size(), kSampled);
  const size_t tail = std::min(data.size() - head, kSampled);
  key += std::to_string(std::hash<std::string_view>{}(std::string_view(bytes, head))) + "|" +
         std::to_string(
             std::hash<std::string_view>{}(std::string_view(bytes + data.size() - tail, tail)));
  return key;
}

bool SameOutputs(const OpDesc& a, const OpDesc& b) {
  if (a.GetOutputsSize() != b.GetOutputsSize()) return false;
  for (size_t i = 0; i < a.GetOutputsSize(); ++i) {
    const GeTensorDesc& x = a.GetOutputDesc(static_cast<uint32_t>(i));
    const GeTensorDesc& y = b.GetOutputDesc(static_cast<uint32_t>(i));
    if (x.GetDataType() != y.GetDataType() || x.GetShape() != y.GetShape() ||
        x.GetFormat() != y.GetFormat()) {
      return false;
    }
  }
  return true;
}

class CsePass final : public GraphPass {
 public:
  std::string_view Name() const override { return "CommonSubexpressionElimination"; }

 private:
  Result<bool> RunImpl(ComputeGraph& root) override {
    GE_RETURN_IF_ERROR(root.TopologicalSorting());
    bool changed = false;
    std::vector<ComputeGraph*> graphs = {&root};
    for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) graphs.push_back(sub.get());
    for (ComputeGraph* graph : graphs) {
      GE_ASSIGN_OR_RETURN(const bool merged, Merge(*graph));
      changed = changed || merged;
    }
    return changed;
  }

  Result<bool> Merge(ComputeGraph& graph) {
    std::unordered_map<std::string, std::vector<NodePtr>> seen;
    bool changed = false;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (passes::IsGraphBoundary(*node) || passes::IsImpure(node->GetType()) ||
          !NodeUtils::GetSubgraphs(*node).empty() || node->GetAllOutDataAnchorsSize() == 0) {
        continue;
      }
      std::string key;
      if (passes::IsConstNode(*node)) {
        if (!node->GetInControlNodes().empty()) continue;
        Result<GeTensor> value = OpDescUtils::GetConstValue(*node);
        if (!value.ok()) continue;
        key = ConstKey(*value);
      } else {
        key = InputKey(*node);
      }
      std::vector<NodePtr>& candidates = seen[key];
      NodePtr keep;
      for (const NodePtr& candidate : candidates) {
        const OpDesc& a = *candidate->GetOpDescBarePtr();
        const OpDesc& b = *node->GetOpDescBarePtr();
        if (a.GetType() == b.GetType() && a.GetAttrMap() == b.GetAttrMap() && SameOutputs(a, b)) {
          keep = candidate;
          break;
        }
      }
      if (keep == nullptr) {
        candidates.push_back(node);
        continue;
      }
      std::vector<std::pair<NodePtr, int>> replacements;
      for (size_t i = 0; i < node->GetAllOutDataAnchorsSize(); ++i) {
        replacements.emplace_back(keep, static_cast<int>(i));
      }
      const std::string type = node->GetType();
      GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, replacements));
      context().CountRewrite();
      context().Count("merged " + type);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateCsePass() { return std::make_unique<CsePass>(); }

}  // namespace ge
