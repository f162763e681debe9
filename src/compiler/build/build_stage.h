// The build stage's steps, each a function the pass list wraps as a pass.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/cost_model.h"
#include "ge/compiler/graph_pass.h"
#include "ge/compiler/memory/plan_options.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/task.h"
#include "ge/graph/compute_graph.h"
#include "ge/model/compile_report.h"

namespace ge::build {

/// The machine profile and thread budget the cost model plans for.
struct ScheduleBudget {
  MachineProfile machine;
  int threads = 1;
};

/// What the build steps produce, gathered into the CompiledModel at the end.
struct BuildState {
  std::map<std::string, memory::MemoryPlan> plans;
  std::map<std::string, std::vector<TaskDef>> tasks;
  int64_t stream_count = 1;
  MemoryReport memory;
  ScheduleReport schedule;
  std::optional<ScheduleBudget> budget;  ///< BudgetOf's, once read
};

/// OpsKernelBuilder::CalcOpRunningParam for every node, by its engine.
Status CalcRunningParams(ComputeGraph& root, const EngineManager& engines);

/// Sorts every graph and plans its memory. Unless ge.topoSortingMode is given (and when
/// openge.memoryTryTopoOrders is on), several orders are tried for the root graph and the one
/// with the smallest arena is kept; among orders whose arenas tie, `predict` (when given) is
/// asked for each, with the root graph sorted in it, and the lowest predicted time wins.
/// Writes the offsets onto the nodes.
Status PlanMemory(ComputeGraph& root, const CompileOptions& options, BuildState& state,
                  const std::function<Result<double>()>& predict = {});

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

/// The threads each task is likely worth, written as kAttrTaskThreads before the engines' graph
/// optimizers prepare kernels (the CPU engine's probes): a kernel prepared for the threads it
/// then runs with is made once in a process that compiles and loads, not again at load.
/// ScheduleTasks decides them after placement; only what the optimizers changed can differ.
/// Nothing is written when openge.costModel is off.
Status EstimateTaskThreads(ComputeGraph& root, const CompileOptions& options,
                           const EngineManager& engines, BuildState& state);

/// The cost model's say for every node of the root graph that its engine can size
/// (OpsKernelInfoStore::WorkOf): kAttrTaskThreads, the threads its task is worth within
/// openge.scheduleThreads, and kAttrPredictedMicros. Counts and notes go to `context`.
Status ScheduleTasks(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state, PassContext& context);

/// AssignStreams with the stream count the cost model predicts runs fastest (with
/// ge.enableSingleStream false and openge.costModel on: each count up to openge.maxStreamNum is
/// tried, and a stream more must save 5%), or as the options say otherwise. Records the counts
/// tried and the predicted run in state.schedule, and notes the choice in `context` if given.
Status ChooseStreams(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state, PassContext* context);

/// The cost model's predicted run time of the root graph in its current order and streams, in
/// microseconds, with `threads` threads split between the streams as the runtime splits them:
/// each node starts when its producers and the previous node of its stream have finished, and
/// takes its kAttrPredictedMicros on its share of threads (a node without one takes no time); an
/// edge between streams costs the machine's thread wake-up.
double PredictedMakespan(const ComputeGraph& root, int threads, const MachineProfile& machine);

/// The machine profile and thread budget the cost model plans for: read once per compile
/// (openge.machineProfile, or the cached or built-in profile) and kept in `state`.
Result<ScheduleBudget> BudgetOf(const CompileOptions& options, BuildState& state);

/// Tasks of every graph in order, with event record/wait tasks on cross-stream edges.
Status GenerateTasks(ComputeGraph& root, const CompileOptions& options,
                     const EngineManager& engines, BuildState& state);

}  // namespace ge::build
