// LoadedModel::Impl, the state of a loaded ge::LoadedModel that its files share: the compiled model
// and what loading derived from it (engines, weights, the inputs and outputs and their places), and
// the run contexts. model_load.cc loads it, model_context.cc makes its run contexts and
// model_run.cc runs them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "data_flow_stacks.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/runtime/loaded_model.h"
#include "run_state.h"

namespace ge {
namespace runtime_internal {

/// A node as errors name it: "node 'name' (Type)".
inline std::string Who(const Node& node) {
  return "node '" + node.GetName() + "' (" + node.GetType() + ")";
}

}  // namespace runtime_internal

struct LoadedModel::Impl {
  CompiledModel model;
  EngineManager engines;
  RuntimeOptions options;  ///< as loaded, threads and memory cap resolved
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<runtime_internal::Place> output_places;
  std::vector<int64_t> input_bytes;
  /// The weight region as the Const tensors hold it (no copy): each Const's planned offset and
  /// size, and its tensor (sharing the model's bytes), by offset.
  struct WeightSpan {
    int64_t offset = 0;
    int64_t bytes = 0;
    GeTensor value;
    bool any_alignment = false;  // its readers take it where it lies (kAttrWeightAnyAlignment)
  };
  std::vector<WeightSpan> weight_spans;
  /// The data-flow stacks of every run of the model.
  runtime_internal::DataFlowStacks data_flow;
  /// Graphs run by the dynamic executor: the Variables of the root graph by name, their bytes
  /// shared by every run context.
  std::map<std::string, GeTensor> dynamic_variables;
  int64_t arena_bytes = 0;
  int64_t weight_bytes = 0;
  int64_t workspace_bytes = 0;      // the kernels' scratch of one run context, all its lanes
  int64_t loaded_weight_bytes = 0;  // weights its kernels repacked at load (TaskKernel)
  ExecutionInfo execution;
  /// Shapes known only at run time: each context runs the model through a dynamic executor.
  bool dynamic = false;

  // The run contexts: all of them, the idle ones, and how many there may be.
  std::mutex contexts_mutex;
  std::condition_variable context_idle;
  std::vector<std::unique_ptr<runtime_internal::RunState>> contexts;
  std::vector<runtime_internal::RunState*> idle;
  size_t max_contexts = 1;
  bool growing = false;  ///< a run is making another context (outside the lock)
  /// Contexts made before this one; read and written only by the thread making a context (load,
  /// or the one run that is growing), so `execution` is written once, before any run reads it.
  size_t contexts_loaded = 0;

  std::atomic<bool> profiling{false};
  std::mutex profile_mutex;
  std::vector<TaskTiming> profile;  ///< of the last profiled run to finish

  /// The place of `node`'s output `index`; in the weight region, bound to the Const bytes.
  Result<runtime_internal::Place> PlaceOf(const Node& node, int index) const;
  Status LoadGraph();
  /// A context for one run at a time: the arena and the tasks' kernels (or a dynamic executor).
  Result<std::unique_ptr<runtime_internal::RunState>> NewContext();
  Status LoadSteps(runtime_internal::RunState& context);
  /// An idle context, a new one, or (every context busy and no more allowed) the next to be idle.
  Result<runtime_internal::RunState*> Acquire();
  void Release(runtime_internal::RunState* context);
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
};

}  // namespace ge
