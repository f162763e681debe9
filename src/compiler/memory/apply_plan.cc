// ApplyMemoryPlan: writes a plan's offsets and regions onto the graph's OpDescs.
#include <string>
#include <unordered_map>

#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/anchor.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::memory {
namespace {

std::string Who(const Node& node) {
  return "node '" + node.GetName() + "' (type " + node.GetType() + ")";
}

struct NodeSlots {
  std::vector<const TensorPlan*> outputs;
  std::vector<const TensorPlan*> workspaces;
};

Result<std::unordered_map<std::string, NodeSlots>> IndexPlan(const ComputeGraph& graph,
                                                             const MemoryPlan& plan) {
  std::unordered_map<std::string, NodeSlots> slots;
  for (const TensorPlan& t : plan.tensors) {
    const NodePtr node = graph.FindNode(t.node);
    if (node == nullptr || node->GetOwnerComputeGraphBarePtr() != &graph) {
      return ParamInvalid("ApplyMemoryPlan: the plan places '" + TensorLabel(t) + "' but graph '" +
                          graph.GetName() + "' has no direct node '" + t.node + "'");
    }
    const OpDesc& op = *node->GetOpDescBarePtr();
    const bool is_output = t.output_index >= 0;
    const int32_t index = is_output ? t.output_index : t.workspace_index;
    const size_t count = is_output ? op.GetOutputsSize() : op.GetWorkspaceBytes().size();
    if (index < 0 || static_cast<size_t>(index) >= count) {
      return ParamInvalid("ApplyMemoryPlan: the plan places '" + TensorLabel(t) + "' but " +
                          Who(*node) + " has " + std::to_string(count) +
                          (is_output ? " outputs" : " workspaces"));
    }
    NodeSlots& node_slots = slots[t.node];
    auto& list = is_output ? node_slots.outputs : node_slots.workspaces;
    if (list.size() < count) list.resize(count, nullptr);
    list[static_cast<size_t>(index)] = &t;
  }
  return slots;
}

}  // namespace

Status ApplyMemoryPlan(ComputeGraph& graph, const MemoryPlan& plan) {
  GE_ASSIGN_OR_RETURN(const auto slots, IndexPlan(graph, plan));
  static const NodeSlots kNone;
  // Check everything before writing anything, so a mismatch leaves the graph untouched.
  for (Node* node : graph.GetDirectNodePtr()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    auto found = slots.find(node->GetName());
    const NodeSlots& node_slots = found == slots.end() ? kNone : found->second;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      if (i >= node_slots.outputs.size() || node_slots.outputs[i] == nullptr) {
        return ParamInvalid("ApplyMemoryPlan: " + Who(*node) + " output " + std::to_string(i) +
                            " is not in the plan; plan the graph again");
      }
    }
    for (size_t i = 0; i < op.GetWorkspaceBytes().size(); ++i) {
      if (i >= node_slots.workspaces.size() || node_slots.workspaces[i] == nullptr) {
        return ParamInvalid("ApplyMemoryPlan: " + Who(*node) + " workspace " + std::to_string(i) +
                            " is not in the plan; plan the graph again");
      }
    }
  }
  for (Node* node : graph.GetDirectNodePtr()) {
    OpDesc& op = *node->GetOpDescBarePtr();
    auto found = slots.find(node->GetName());
    const NodeSlots& node_slots = found == slots.end() ? kNone : found->second;
    std::vector<int64_t> output_offsets;
    std::vector<int64_t> regions;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      output_offsets.push_back(node_slots.outputs[i]->offset);
      regions.push_back(static_cast<int64_t>(node_slots.outputs[i]->region));
    }
    std::vector<int64_t> workspace_offsets;
    for (size_t i = 0; i < op.GetWorkspaceBytes().size(); ++i) {
      workspace_offsets.push_back(node_slots.workspaces[i]->offset);
    }
    std::vector<int64_t> input_offsets;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      const OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
      int64_t offset = -1;
      if (peer != nullptr) {
        auto producer = slots.find(peer->GetOwnerNodeBarePtr()->GetName());
        if (producer != slots.end() && peer->GetIdx() >= 0 &&
            static_cast<size_t>(peer->GetIdx()) < producer->second.outputs.size()) {
          offset = producer->second.outputs[static_cast<size_t>(peer->GetIdx())]->offset;
        }
      }
      input_offsets.push_back(offset);
    }
    op.SetOutputOffset(std::move(output_offsets));
    op.SetWorkspace(std::move(workspace_offsets));
    op.SetInputOffset(std::move(input_offsets));
    AttrUtils::SetListInt(op, kAttrOutputMemRegion, std::move(regions));
  }
  return Status::Ok();
}

}  // namespace ge::memory
