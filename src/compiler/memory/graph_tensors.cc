// Reads a graph's tensors in a topological order: order validation, sizes, live ranges, and the
// regions fixed by the node type (graph inputs, weights).
#include "graph_tensors.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "ge/graph/anchor.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::memory::internal {
namespace {

// Weights, and variables: the runtime keeps a variable's bytes beside the weights, writable and
// alive across runs.
bool IsWeightType(const std::string& type) {
  return IsConstType(type) || type == kTypeFileConstant || type == kTypeVariable;
}
bool IsNetOutput(const std::string& type) { return type == kTypeNetOutput; }

Status CheckOrder(const ComputeGraph& graph, const std::vector<NodePtr>& order,
                  GraphTensors& result) {
  const std::vector<Node*> direct = graph.GetDirectNodePtr();
  std::unordered_set<const Node*> members(direct.begin(), direct.end());
  for (size_t step = 0; step < order.size(); ++step) {
    const Node* node = order[step].get();
    if (node == nullptr) {
      return ParamInvalid("memory planner: graph '" + graph.GetName() + "': step " +
                          std::to_string(step) + " of the order is null");
    }
    if (members.count(node) == 0) {
      return ParamInvalid("memory planner: graph '" + graph.GetName() + "': " + NodeWho(*node) +
                          " at step " + std::to_string(step) +
                          " of the order is not a direct node of the graph");
    }
    if (!result.steps.emplace(node, static_cast<int64_t>(step)).second) {
      return ParamInvalid("memory planner: graph '" + graph.GetName() + "': " + NodeWho(*node) +
                          " appears twice in the order (steps " +
                          std::to_string(result.steps[node]) + " and " + std::to_string(step) +
                          ")");
    }
    result.order.push_back(node);
  }
  for (const Node* node : direct) {
    if (result.steps.count(node) == 0) {
      return ParamInvalid("memory planner: graph '" + graph.GetName() + "': the order misses " +
                          NodeWho(*node));
    }
  }
  for (size_t step = 0; step < order.size(); ++step) {
    const Node* node = order[step].get();
    std::vector<const Node*> producers;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      const OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorBarePtr();
      if (peer != nullptr) producers.push_back(peer->GetOwnerNodeBarePtr());
    }
    for (const OutControlAnchorPtr& peer : node->GetInControlAnchor()->GetPeerOutControlAnchors()) {
      producers.push_back(peer->GetOwnerNodeBarePtr());
    }
    for (const Node* producer : producers) {
      auto found = result.steps.find(producer);
      if (found != result.steps.end() && found->second >= static_cast<int64_t>(step)) {
        return ParamInvalid("memory planner: graph '" + graph.GetName() +
                            "': the order is not topological: " + NodeWho(*node) + " at step " +
                            std::to_string(step) + " needs " + NodeWho(*producer) +
                            ", which comes at step " + std::to_string(found->second));
      }
    }
  }
  return Status::Ok();
}

bool HasUnknownDim(const GeShape& shape) {
  return std::any_of(shape.GetDims().begin(), shape.GetDims().end(),
                     [](int64_t dim) { return dim < 0; });
}

Status AddTensors(const Node& node, int64_t step, int64_t& data_ordinal, GraphTensors& result) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = op.GetType();
  result.output_base.push_back(static_cast<int32_t>(result.tensors.size()));
  int64_t slot = data_ordinal;
  if (IsDataType(type)) {
    (void)AttrUtils::GetInt(op, "index", slot);
    ++data_ordinal;
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
    const std::string where = "memory planner: " + NodeWho(node) + " output " + std::to_string(i);
    // Unknown shapes are allocated at run time; graph inputs are the user's buffers either way.
    const bool dynamic = HasUnknownDim(desc.GetShape()) || desc.GetShape().IsUnknownDimNum();
    if (desc.GetSize() < 0 && !dynamic) {
      return ParamInvalid(where + " has a negative size (" + std::to_string(desc.GetSize()) +
                          "); the engine's CalcOpRunningParam must set a size >= 0");
    }
    GraphTensor tensor;
    tensor.node = &node;
    tensor.output_index = static_cast<int32_t>(i);
    tensor.step = tensor.first = tensor.last = step;
    tensor.size = dynamic ? 0 : desc.GetSize();
    if (IsDataType(type)) {
      tensor.fixed_region = Region::kInput;
      tensor.input_slot = slot;
    } else if (IsWeightType(type)) {
      tensor.fixed_region = Region::kWeight;
    } else if (dynamic) {
      tensor.fixed_region = Region::kDynamic;
    }
    result.tensors.push_back(tensor);
  }
  result.workspace_base.push_back(static_cast<int32_t>(result.tensors.size()));
  const std::vector<int64_t>& workspaces = op.GetWorkspaceBytes();
  for (size_t i = 0; i < workspaces.size(); ++i) {
    if (workspaces[i] < 0) {
      return ParamInvalid("memory planner: " + NodeWho(node) + " workspace " + std::to_string(i) +
                          " has a negative size (" + std::to_string(workspaces[i]) + ")");
    }
    GraphTensor tensor;
    tensor.node = &node;
    tensor.workspace_index = static_cast<int32_t>(i);
    tensor.step = tensor.first = tensor.last = step;
    tensor.size = workspaces[i];
    result.tensors.push_back(tensor);
  }
  return Status::Ok();
}

}  // namespace

std::string NodeWho(const Node& node) {
  return "node '" + node.GetName() + "' (type " + node.GetType() + ")";
}

int32_t GraphTensors::OutputTensor(const Node* node, int32_t index) const {
  auto found = steps.find(node);
  if (found == steps.end() || index < 0) return -1;
  const auto step = static_cast<size_t>(found->second);
  const int32_t tensor = output_base[step] + index;
  return tensor < workspace_base[step] ? tensor : -1;
}

int32_t GraphTensors::InputTensor(int64_t step, int32_t index) const {
  const Node* node = order[static_cast<size_t>(step)];
  const InDataAnchor* in = node->GetInDataAnchorBarePtr(index);
  const OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorBarePtr();
  if (peer == nullptr) return -1;
  return OutputTensor(peer->GetOwnerNodeBarePtr(), peer->GetIdx());
}

Result<GraphTensors> CollectGraphTensors(const ComputeGraph& graph,
                                         const std::vector<NodePtr>& order,
                                         const std::vector<int64_t>& last_concurrent_step) {
  GraphTensors result;
  GE_RETURN_IF_ERROR(CheckOrder(graph, order, result));
  result.last_step = static_cast<int64_t>(order.size()) - 1;
  if (!last_concurrent_step.empty() && last_concurrent_step.size() != order.size()) {
    return ParamInvalid("memory planner: graph '" + graph.GetName() +
                        "': " + std::to_string(last_concurrent_step.size()) +
                        " last concurrent steps given for an order of " +
                        std::to_string(order.size()) + " nodes");
  }
  // A use at `step` keeps a tensor live up to the last step that may run beside it.
  auto use_end = [&](size_t step) {
    if (last_concurrent_step.empty()) return static_cast<int64_t>(step);
    return std::clamp<int64_t>(last_concurrent_step[step], static_cast<int64_t>(step),
                               result.last_step);
  };
  int64_t data_ordinal = 0;
  for (size_t step = 0; step < result.order.size(); ++step) {
    GE_RETURN_IF_ERROR(
        AddTensors(*result.order[step], static_cast<int64_t>(step), data_ordinal, result));
  }
  if (!last_concurrent_step.empty()) {
    for (GraphTensor& tensor : result.tensors) {
      tensor.last = use_end(static_cast<size_t>(tensor.step));
    }
  }
  // Live ranges: each consumer extends its producer's tensor.
  for (size_t step = 0; step < result.order.size(); ++step) {
    const Node* node = result.order[step];
    const bool net_output = IsNetOutput(node->GetType());
    for (size_t k = 0; k < node->GetAllInDataAnchorsSize(); ++k) {
      const int32_t t = result.InputTensor(static_cast<int64_t>(step), static_cast<int32_t>(k));
      if (t < 0) continue;
      GraphTensor& tensor = result.tensors[static_cast<size_t>(t)];
      tensor.last = std::max(tensor.last, use_end(step));
      tensor.graph_output = tensor.graph_output || net_output;
    }
  }
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    const int32_t t = result.OutputTensor(node.get(), index);
    if (t >= 0 && !IsNetOutput(node->GetType()))
      result.tensors[static_cast<size_t>(t)].graph_output = true;
  }
  for (GraphTensor& tensor : result.tensors) {
    if (tensor.graph_output) tensor.last = result.last_step;
  }
  return result;
}

}  // namespace ge::memory::internal
