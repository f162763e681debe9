// The build stage's steps, each a function the pipeline wraps as a pass.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/memory/plan_options.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/task.h"
#include "ge/graph/compute_graph.h"
#include "ge/model/compile_report.h"

namespace ge::build {

/// What the build steps produce, gathered into the CompiledModel at the end.
struct BuildState {
  std::map<std::string, memory::MemoryPlan> plans;
  std::map<std::string, std::vector<TaskDef>> tasks;
  int64_t stream_count = 1;
  MemoryReport memory;
};

/// OpsKernelBuilder::CalcOpRunningParam for every node, by its engine.
Status CalcRunningParams(ComputeGraph& root, const EngineManager& engines);

/// Sorts every graph and plans its memory. Unless ge.topoSortingMode is given (and when
/// openge.memoryTryTopoOrders is on), several orders are tried for the root graph and the one
/// with the smallest arena is kept. Writes the offsets onto the nodes.
Status PlanMemory(ComputeGraph& root, const CompileOptions& options, BuildState& state);

/// Stream ids for every node (one stream unless ge.enableSingleStream is false); skip-assign
/// engines' nodes take a neighbour's stream. Returns the number of streams.
Result<int64_t> AssignStreams(ComputeGraph& root, const CompileOptions& options,
                              const EngineManager& engines);

/// For each node of `order` (stream ids assigned), the last step whose node may run at the same
/// time as it when every stream runs on its own thread: the runtime orders two nodes only by a
/// stream (list order) or by an edge (an event when it crosses streams).
std::vector<int64_t> LastConcurrentSteps(const std::vector<NodePtr>& order);

/// When the root graph has more than one stream, plans its memory again in the same order with
/// live ranges that cover every step that may run beside a use (PlanOptions::
/// last_concurrent_step), so streams on parallel threads never share bytes in use; marks the
/// graph with memory::kAttrPlanStreams.
Status PlanMemoryForStreams(ComputeGraph& root, const CompileOptions& options, int64_t streams,
                            BuildState& state);

/// Tasks of every graph in order, with event record/wait tasks on cross-stream edges.
Status GenerateTasks(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state);

}  // namespace ge::build
