// The static memory planner: an offset for every output tensor and workspace of a graph, from the
// live ranges of a topological order (DESIGN.md, "Memory").
#pragma once

#include <vector>

#include "ge/compiler/memory/interval_planner.h"
#include "ge/compiler/memory/memory_report.h"
#include "ge/compiler/memory/plan_options.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"

namespace ge::memory {

/// Attribute names the planner reads and writes.
/// Attribute the planner reads (it writes those of ge/model/memory_plan.h).
inline constexpr char kAttrInplaceOutputInput[] = "_inplace_output_input";  ///< ListInt

/// Plans the direct nodes of `graph` in the given topological `order` (step i = order[i]).
/// Sizes come from each output GeTensorDesc::GetSize() (set by the engines' CalcOpRunningParam),
/// workspaces from OpDesc::GetWorkspaceBytes(). An error names the node and the cause (a size < 0
/// or unknown, an order that is not topological or misses nodes, conflicting aliases, ...).
Result<MemoryPlan> PlanGraphMemory(const ComputeGraph& graph, const std::vector<NodePtr>& order,
                                   const PlanOptions& options);

/// Writes the plan onto the graph: OpDesc::SetOutputOffset, SetWorkspace (workspace offsets),
/// SetInputOffset (each input's producer's offset, -1 when unlinked), and the ListInt attribute
/// "_output_mem_region" per node (the Region of each output). Fails naming the node if the plan
/// does not match the graph.
Status ApplyMemoryPlan(ComputeGraph& graph, const MemoryPlan& plan);

}  // namespace ge::memory
