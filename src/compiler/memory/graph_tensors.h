// Internal: the tensors of a graph in a topological order, with their sizes and live ranges.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ge/compiler/memory/plan_options.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/status.h"

namespace ge::memory::internal {

/// One output or workspace of a node.
struct GraphTensor {
  const Node* node = nullptr;
  int32_t output_index = -1;
  int32_t workspace_index = -1;
  int64_t step = 0;   ///< the producing node's step
  int64_t size = 0;   ///< bytes as the desc gives them (not aligned)
  int64_t first = 0;  ///< own live range: producer step to last consumer step
  int64_t last = 0;
  bool graph_output = false;             ///< feeds NetOutput (or is listed as a graph output)
  Region fixed_region = Region::kArena;  ///< kInput for Data, kWeight for Const, else kArena
  int64_t input_slot = 0;                ///< Data: the graph input index
};

struct GraphTensors {
  std::vector<GraphTensor> tensors;
  std::vector<const Node*> order;       ///< step → node
  std::vector<int32_t> output_base;     ///< step → index of the node's output 0
  std::vector<int32_t> workspace_base;  ///< step → index of the node's workspace 0
  std::unordered_map<const Node*, int64_t> steps;
  int64_t last_step = -1;

  /// The tensor index of output `index` of `node`, or -1 when the node is not planned here.
  int32_t OutputTensor(const Node* node, int32_t index) const;
  /// The tensor index feeding input `index` of the node at `step`, or -1 when unlinked.
  int32_t InputTensor(int64_t step, int32_t index) const;
};

/// Checks that `order` holds every direct node of `graph` once in a topological order, reads the
/// output and workspace sizes, and computes the live ranges (control edges do not extend them;
/// graph outputs live to the last step). `last_concurrent_step` (PlanOptions) extends each use
/// of a tensor to the last step that may run beside it; empty for a serial order.
Result<GraphTensors> CollectGraphTensors(const ComputeGraph& graph,
                                         const std::vector<NodePtr>& order,
                                         const std::vector<int64_t>& last_concurrent_step = {});

/// "node 'name' (type T)" for messages.
std::string NodeWho(const Node& node);

}  // namespace ge::memory::internal
