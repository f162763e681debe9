// Making a run context of a loaded ge::LoadedModel: the arena, each task loaded through its
// engine's executor with its inputs and outputs resolved to their places, the streams and their
// threads, and a workspace per stream; for shapes known only at run time, a dynamic executor
// instead.
//
// Streams: a model compiled with several streams (and a memory plan made for them, see
// memory::kAttrPlanStreams) runs each stream's tasks in list order on a thread of its own
// (StreamPool), EventRecord/EventWait tasks ordering them; the threads budget is split between
// the streams. Otherwise every task runs in list order on the calling thread.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/model/task_def.h"
#include "ge/runtime/loaded_model.h"
#include "model_impl.h"

namespace ge {
namespace {

using runtime_internal::Allocate;
using runtime_internal::HostBuffer;
using runtime_internal::kEventRecord;
using runtime_internal::kEventWait;
using runtime_internal::Place;
using runtime_internal::RunState;
using runtime_internal::Step;
using runtime_internal::Who;

/// Kernel threads of each of `lanes` streams sharing a budget of `threads`: an even split, the
/// remainder to the first streams, at least one each.
std::vector<int> SplitThreads(int threads, int lanes) {
  std::vector<int> split(static_cast<size_t>(lanes));
  for (int k = 0; k < lanes; ++k) {
    split[static_cast<size_t>(k)] = std::max(1, threads / lanes + (k < threads % lanes ? 1 : 0));
  }
  return split;
}

}  // namespace

Result<std::unique_ptr<RunState>> LoadedModel::Impl::NewContext() {
  auto context = std::make_unique<RunState>();
  if (dynamic) {
    // The executor works on its own copy of the graph (it writes the shapes of each run), so
    // compiled() keeps showing what the compiler made.
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(model.graph));
    GE_ASSIGN_OR_RETURN(context->dynamic,
                        runtime_internal::DynamicExecutor::Create(
                            std::move(copy), model.tasks, engines, options.threads,
                            options.max_memory_bytes, &data_flow, &dynamic_variables));
    return context;
  }
  GE_ASSIGN_OR_RETURN(context->arena, Allocate(arena_bytes, "activation arena"));
  context->input_data.assign(inputs.size(), nullptr);
  GE_RETURN_IF_ERROR(LoadSteps(*context));
  ++contexts_loaded;
  return context;
}

// The tasks in the order the builder generated them (each stream's tasks are in their order in
// this list), their streams, and the thread that runs each stream.
Status LoadedModel::Impl::LoadSteps(RunState& context) {
  ComputeGraph& graph = *model.graph;
  static const std::vector<TaskDef> kNoTasks;
  auto task_it = model.tasks.find(graph.GetName());
  const std::vector<TaskDef>& tasks = task_it == model.tasks.end() ? kNoTasks : task_it->second;
  std::unordered_map<std::string, NodePtr> node_of;
  for (const NodePtr& node : graph.GetDirectNode()) node_of.emplace(node->GetName(), node);
  auto is_event = [](const TaskDef& t) {
    return t.engine.empty() && (t.kernel_name == kEventRecord || t.kernel_name == kEventWait);
  };

  // Streams: dense lanes in the order of their ids. They run in parallel only when the memory
  // plan was made for it; a plan for one serial order runs that order on the calling thread.
  std::map<int64_t, int> lane_of;
  for (const TaskDef& t : tasks) {
    if (!t.engine.empty() || is_event(t)) lane_of.emplace(t.stream_id, 0);
  }
  int lane_count = 0;
  for (auto& entry : lane_of) entry.second = lane_count++;
  int64_t plan_streams = 1;
  (void)AttrUtils::GetInt(graph, memory::kAttrPlanStreams, plan_streams);
  const bool parallel = lane_count > 1 && plan_streams >= lane_count;
  if (!parallel) {
    for (auto& entry : lane_of) entry.second = 0;
    lane_count = 1;
  }
  // The same for every context; written by the first only, before runs can read it.
  const std::vector<int> kernel_threads = SplitThreads(options.threads, lane_count);
  if (contexts_loaded == 0) {
    execution.streams = lane_count;
    execution.kernel_threads = kernel_threads;
  }

  std::unordered_map<std::string, size_t> event_index;
  std::vector<int64_t> lane_workspace(static_cast<size_t>(lane_count), 0);
  for (const TaskDef& task : tasks) {
    auto node_it = node_of.find(task.op_name);
    if (node_it == node_of.end()) {
      return ParamInvalid("a task (" + task.kernel_name + ") is for node '" + task.op_name +
                          "', which graph '" + graph.GetName() + "' does not have (recompile it)");
    }
    const Node& node = *node_it->second;
    const OpDesc& op = *node.GetOpDescBarePtr();
    Step step;
    step.name = node.GetName();
    step.type = node.GetType();
    step.stream = task.stream_id >= 0 ? task.stream_id : op.GetStreamId();
    step.lane = lane_of.count(step.stream) != 0 ? lane_of[step.stream] : 0;
    if (is_event(task)) {
      if (!parallel) continue;  // one thread runs the list in order, which every event respects
      auto arg = task.args.find("event");
      if (arg == task.args.end()) {
        return ParamInvalid(Who(node) + ": its " + task.kernel_name + " task has no event");
      }
      const bool record = task.kernel_name == kEventRecord;
      auto found = event_index.find(arg->second);
      if (!record && found == event_index.end()) {
        // A wait whose record comes later (or never) could hang the run.
        return ParamInvalid(Who(node) + " on stream " + std::to_string(step.stream) +
                            " waits for event " + arg->second +
                            ", which no earlier task records (recompile the model)");
      }
      if (found == event_index.end()) {
        found = event_index.emplace(arg->second, event_index.size()).first;
      }
      step.kind = record ? Step::Kind::kRecord : Step::Kind::kWait;
      step.event = found->second;
      context.steps.push_back(std::move(step));
      continue;
    }
    if (task.engine.empty()) continue;  // no work at run time
    const EngineInfo* engine = engines.GetEngine(task.engine);
    if (engine == nullptr || engine->executor == nullptr) {
      return ParamInvalid(
          Who(node) + ": its task is for engine " + task.engine +
          (engine == nullptr ? ", which is not loaded" : ", which has no task executor"));
    }
    TaskLoadContext load;
    load.threads = kernel_threads[static_cast<size_t>(step.lane)];
    // The cost model's say (kAttrTaskThreads): a task worth fewer threads than the stream has
    // gets no more. The profile shows its prediction beside the measured time.
    int64_t worth = 0;
    if (AttrUtils::GetInt(node.GetOpDescBarePtr(), kAttrTaskThreads, worth) && worth > 0) {
      load.threads = static_cast<int>(std::min<int64_t>(load.threads, worth));
    }
    std::vector<float> predicted;
    (void)AttrUtils::GetListFloat(node.GetOpDescBarePtr(), kAttrPredictedMicros, predicted);
    step.timing.threads = load.threads;
    step.timing.predicted_us = static_cast<size_t>(load.threads) <= predicted.size()
                                   ? predicted[static_cast<size_t>(load.threads) - 1]
                                   : -1.0;
    load.data_flow = &data_flow;
    load.memory_limit = options.max_memory_bytes;
    for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) {
        step.in_places.emplace_back();
        step.in_present.push_back(false);
        load.const_inputs.push_back(nullptr);
        continue;
      }
      NodePtr producer = peer->GetOwnerNode();
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(*producer, peer->GetIdx()));
      step.in_places.push_back(place);
      step.in_present.push_back(true);
      if (IsConstType(producer->GetType())) {
        GE_ASSIGN_OR_RETURN(GeTensor value, OpDescUtils::GetConstValue(*producer));
        context.const_values.push_back(std::make_unique<GeTensor>(std::move(value)));
        load.const_inputs.push_back(context.const_values.back().get());
      } else {
        load.const_inputs.push_back(nullptr);
      }
    }
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(node, static_cast<int>(i)));
      step.out_places.push_back(place);
    }
    Result<std::unique_ptr<TaskKernel>> kernel = engine->executor->LoadTask(task, node, load);
    if (!kernel.ok()) return Status(kernel.status()).Prefix("loading the task of " + Who(node));
    step.kernel = std::move(kernel).value();
    int64_t& workspace_bytes = lane_workspace[static_cast<size_t>(step.lane)];
    workspace_bytes = std::max(workspace_bytes, step.kernel->WorkspaceBytes());
    for (size_t k = 0; k < step.in_places.size(); ++k) {
      step.in.push_back({nullptr, step.in_places[k].dtype, step.in_places[k].dims});
    }
    for (const Place& p : step.out_places) step.out.push_back({nullptr, p.dtype, p.dims});
    context.steps.push_back(std::move(step));
  }
  if (contexts_loaded == 0) {
    workspace_bytes = 0;
    for (int64_t bytes : lane_workspace) workspace_bytes += bytes;
    loaded_weight_bytes = 0;
    for (const Step& step : context.steps) {
      if (step.kernel != nullptr) loaded_weight_bytes += step.kernel->LoadedWeightBytes();
    }
  }
  for (int64_t bytes : lane_workspace) {
    GE_ASSIGN_OR_RETURN(HostBuffer buffer, Allocate(bytes, "kernel workspace"));
    context.workspaces.push_back(std::move(buffer));
  }
  context.several_streams = lane_count > 1;
  if (!parallel) return Status::Ok();
  context.lanes.resize(static_cast<size_t>(lane_count));
  for (size_t i = 0; i < context.steps.size(); ++i) {
    context.lanes[static_cast<size_t>(context.steps[i].lane)].push_back(i);
  }
  RunState* run = &context;
  context.pool = std::make_unique<runtime_internal::StreamPool>(
      lane_count, event_index.size(), [run](int lane) { run->RunLane(lane); });
  if (contexts_loaded == 0) execution.pool_threads = context.pool->threads();
  return Status::Ok();
}

}  // namespace ge
