// ge::Model: loading a CompiledModel (arena, weights, tasks) and running it.
//
// Every tensor a task reads or writes is at a fixed place decided by the memory plan: an offset
// in the arena, in the weight region, in the output region, or the caller's input buffer of a
// graph input slot. Loading resolves each task's inputs and outputs to such places once; a run
// only points the input slots at the caller's tensors and calls the kernels in order.
//
// Streams: a model compiled with several streams (and a memory plan made for them, see
// memory::kAttrPlanStreams) runs each stream's tasks in list order on a thread of its own
// (StreamPool), EventRecord/EventWait tasks ordering them; the threads budget is split between
// the streams. Otherwise every task runs in list order on the calling thread.
//
// Concurrent runs: what a run writes (the arena, the workspaces, the kernels with their bound
// memory and scratch, the input slots, the profile) lives in a RunState; the compiled model,
// the weights and the input/output descriptions are shared and read-only. A run takes an idle
// context, or makes one more when every context is busy (up to RuntimeOptions::
// max_concurrent_runs and within the memory cap), or waits for one; contexts are kept for the
// next runs.
#include "ge/runtime/model.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/ops_proto_manager.h"
#include "run_state.h"

namespace ge {
namespace {

using runtime_internal::Allocate;
using runtime_internal::HostBuffer;
using runtime_internal::kEventRecord;
using runtime_internal::kEventWait;
using runtime_internal::Place;
using runtime_internal::Region;
using runtime_internal::RunState;
using runtime_internal::Step;

/// Kernel threads of each of `lanes` streams sharing a budget of `threads`: an even split, the
/// remainder to the first streams, at least one each.
std::vector<int> SplitThreads(int threads, int lanes) {
  std::vector<int> split(static_cast<size_t>(lanes));
  for (int k = 0; k < lanes; ++k) {
    split[static_cast<size_t>(k)] = std::max(1, threads / lanes + (k < threads % lanes ? 1 : 0));
  }
  return split;
}

std::string Who(const Node& node) {
  return "node '" + node.GetName() + "' (" + node.GetType() + ")";
}

Result<Place> OutputPlace(const Node& node, int index) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::vector<int64_t>& offsets = op.GetOutputOffset();
  std::vector<int64_t> regions;
  AttrUtils::GetListInt(op, memory::kAttrOutputMemRegion, regions);
  if (index < 0 || static_cast<size_t>(index) >= offsets.size() ||
      static_cast<size_t>(index) >= regions.size()) {
    return ParamInvalid(Who(node) + " output " + std::to_string(index) +
                        " has no planned memory; the model was not built by the compiler's memory "
                        "assignment (recompile it)");
  }
  const int64_t region = regions[static_cast<size_t>(index)];
  if (region < 0 || region > static_cast<int64_t>(Region::kDynamic)) {
    return ParamInvalid(Who(node) + " output " + std::to_string(index) + " is planned in region " +
                        std::to_string(region) + ", which does not exist: the model is damaged");
  }
  Place place;
  place.region = static_cast<Region>(region);
  place.offset = offsets[static_cast<size_t>(index)];
  const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(index));
  place.dtype = desc.GetDataType();
  place.dims = desc.GetShape().GetDims();
  place.bytes = TensorUtils::CalcTensorMemSize(desc);
  if (place.region == Region::kDynamic || place.bytes < 0) {
    return ParamInvalid(Who(node) + " output " + std::to_string(index) + " has the shape " +
                        desc.GetShape().ToString() +
                        ", known only at run time, but the graph's descs are all static: the model "
                        "is inconsistent (recompile it)");
  }
  return place;
}

}  // namespace

struct Model::Impl {
  CompiledModel model;
  EngineManager engines;
  RuntimeOptions options;  ///< as loaded, threads and memory cap resolved
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<Place> output_places;
  std::vector<int64_t> input_bytes;
  /// The weight region as the Const tensors hold it (no copy): each Const's planned offset and
  /// size, and its tensor (sharing the model's bytes), by offset.
  struct WeightSpan {
    int64_t offset = 0;
    int64_t bytes = 0;
    GeTensor value;
  };
  std::vector<WeightSpan> weight_spans;
  int64_t arena_bytes = 0;
  int64_t weight_bytes = 0;
  ExecutionInfo execution;
  /// Shapes known only at run time: each context runs the model through a dynamic executor.
  bool dynamic = false;

  // The run contexts: all of them, the idle ones, and how many there may be.
  std::mutex contexts_mutex;
  std::condition_variable context_idle;
  std::vector<std::unique_ptr<RunState>> contexts;
  std::vector<RunState*> idle;
  size_t max_contexts = 1;
  bool growing = false;  ///< a run is making another context (outside the lock)
  /// Contexts made before this one; read and written only by the thread making a context (load,
  /// or the one run that is growing), so `execution` is written once, before any run reads it.
  size_t contexts_loaded = 0;

  std::atomic<bool> profiling{false};
  std::mutex profile_mutex;
  std::vector<TaskTiming> profile;  ///< of the last profiled run to finish

  /// The place of `node`'s output `index`; in the weight region, bound to the Const bytes.
  Result<Place> PlaceOf(const Node& node, int index) const;
  Status LoadGraph();
  /// A context for one run at a time: the arena and the tasks' kernels (or a dynamic executor).
  Result<std::unique_ptr<RunState>> NewContext();
  Status LoadSteps(RunState& context);
  /// An idle context, a new one, or (every context busy and no more allowed) the next to be idle.
  Result<RunState*> Acquire();
  void Release(RunState* context);
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
};

Result<Place> Model::Impl::PlaceOf(const Node& node, int index) const {
  GE_ASSIGN_OR_RETURN(Place place, OutputPlace(node, index));
  const std::string what = Who(node) + " output " + std::to_string(index);
  auto inconsistent = [&](const std::string& cause) {
    return ParamInvalid(what + " (" + std::to_string(place.bytes) + " bytes) " + cause +
                        ": the model is inconsistent (recompile it)");
  };
  switch (place.region) {
    case Region::kArena:
      // Checked without overflow: offset and size come from the file.
      if (place.offset < 0 || place.bytes > arena_bytes ||
          place.offset > arena_bytes - place.bytes) {
        return inconsistent("is planned at arena offset " + std::to_string(place.offset) +
                            ", outside the " + std::to_string(arena_bytes) + "-byte arena");
      }
      return place;
    case Region::kInput:
      if (place.offset < 0 || place.offset >= static_cast<int64_t>(input_bytes.size()) ||
          place.bytes > input_bytes[static_cast<size_t>(place.offset)]) {
        return inconsistent(
            "reads graph input slot " + std::to_string(place.offset) + ", which " +
            (place.offset < 0 || place.offset >= static_cast<int64_t>(input_bytes.size())
                 ? std::string("the model does not have")
                 : "holds only " + std::to_string(input_bytes[static_cast<size_t>(place.offset)]) +
                       " bytes"));
      }
      return place;
    case Region::kWeight:
      break;
    default:
      return inconsistent(std::string("is planned in the ") + memory::RegionName(place.region) +
                          " region, which a static model does not run from");
  }
  // The Const whose span holds [offset, offset + bytes): the tensor itself, or a view of it (an
  // output planned to alias its input, e.g. a Reshape of a Const).
  auto it = std::upper_bound(weight_spans.begin(), weight_spans.end(), place.offset,
                             [](int64_t offset, const WeightSpan& s) { return offset < s.offset; });
  if (it == weight_spans.begin() || place.bytes > std::prev(it)->bytes ||
      place.offset - std::prev(it)->offset > std::prev(it)->bytes - place.bytes) {
    return inconsistent("is planned at weight offset " + std::to_string(place.offset) +
                        ", which no Const holds");
  }
  const WeightSpan& span = *std::prev(it);
  place.weight = span.value.GetData().data() + (place.offset - span.offset);
  return place;
}

Status Model::Impl::LoadGraph() {
  ComputeGraph& graph = *model.graph;
  if (runtime_internal::NeedsDynamicExecution(graph)) {
    // Shapes known only at run time: prototypes infer them per run.
    Status protos = OpsProtoManager::Instance().Initialize(options.options);
    if (!protos.ok())
      return std::move(protos).Prefix("loading operator prototypes for run-time shape inference");
    dynamic = true;
    execution.kernel_threads = {options.threads};
    GE_ASSIGN_OR_RETURN(std::unique_ptr<RunState> first, NewContext());
    inputs = first->dynamic->inputs();
    outputs = first->dynamic->outputs();
    idle.push_back(first.get());
    contexts.push_back(std::move(first));
    return Status::Ok();
  }
  auto plan_it = model.plans.find(graph.GetName());
  if (plan_it == model.plans.end()) {
    return ParamInvalid("model '" + graph.GetName() + "' has no memory plan; recompile it");
  }
  const memory::MemoryPlan& plan = plan_it->second;
  for (const memory::TensorPlan& t : plan.tensors) {
    if (t.region == Region::kDynamic) {
      return ParamInvalid(
          "model '" + graph.GetName() + "': tensor '" + memory::TensorLabel(t) +
          "' is planned as dynamic, but the graph's descs are all static: the model "
          "is inconsistent (recompile it)");
    }
  }
  arena_bytes = plan.arena_bytes;
  weight_bytes = plan.weight_bytes;
  if (arena_bytes < 0 || weight_bytes < 0) {
    return ParamInvalid("model '" + graph.GetName() + "': its memory plan has an arena of " +
                        std::to_string(arena_bytes) + " bytes and weights of " +
                        std::to_string(weight_bytes) + " bytes: the model is damaged");
  }
  if (arena_bytes > options.max_memory_bytes) {
    return ParamInvalid("model '" + graph.GetName() + "' asks for an activation arena of " +
                        std::to_string(arena_bytes) + " bytes, over the limit of " +
                        std::to_string(options.max_memory_bytes) +
                        " (RuntimeOptions::max_memory_bytes; by default the machine's memory)");
  }

  // Inputs by their index, weights into their region.
  std::vector<std::pair<int64_t, NodePtr>> data_nodes;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const std::string& type = node->GetType();
    if (type == "Data" || type == "RefData") {
      int64_t index = static_cast<int64_t>(data_nodes.size());
      AttrUtils::GetInt(*node->GetOpDescBarePtr(), "index", index);
      data_nodes.emplace_back(index, node);
    } else if (type == "Const" || type == "Constant") {
      GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*node, 0));
      GE_ASSIGN_OR_RETURN(GeTensor value, OpDescUtils::GetCheckedConstValue(*node));
      const auto size = static_cast<int64_t>(value.GetSize());
      if (place.region != Region::kWeight || place.offset < 0 || size > weight_bytes ||
          place.offset > weight_bytes - size || size < place.bytes) {
        return ParamInvalid(Who(*node) + ": its value (" + std::to_string(size) +
                            " bytes) does not fit its planned weight memory");
      }
      weight_spans.push_back({place.offset, size, std::move(value)});
    }
  }
  std::sort(weight_spans.begin(), weight_spans.end(),
            [](const WeightSpan& a, const WeightSpan& b) { return a.offset < b.offset; });
  std::sort(data_nodes.begin(), data_nodes.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < data_nodes.size(); ++i) {
    if (data_nodes[i].first != static_cast<int64_t>(i)) {
      return ParamInvalid("graph inputs' index attributes are not 0.." +
                          std::to_string(data_nodes.size() - 1) + " (input '" +
                          data_nodes[i].second->GetName() + "' has " +
                          std::to_string(data_nodes[i].first) + ")");
    }
    const GeTensorDesc& desc = data_nodes[i].second->GetOpDescBarePtr()->GetOutputDesc(0);
    GE_ASSIGN_OR_RETURN(IoInfo info, runtime_internal::GraphInputInfo(*data_nodes[i].second));
    inputs.push_back(std::move(info));
    input_bytes.push_back(TensorUtils::CalcTensorMemSize(desc));
  }

  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() != "NetOutput") continue;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) continue;
      NodePtr producer = peer->GetOwnerNode();
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(*producer, peer->GetIdx()));
      std::string name = producer->GetOpDescBarePtr()
                             ->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx()))
                             .GetName();
      if (name.empty()) name = "output_" + std::to_string(outputs.size());
      outputs.push_back({name, place.dtype, place.dims, nullptr});
      output_places.push_back(place);
    }
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<RunState> first, NewContext());
  idle.push_back(first.get());
  contexts.push_back(std::move(first));
  return Status::Ok();
}

Result<std::unique_ptr<RunState>> Model::Impl::NewContext() {
  auto context = std::make_unique<RunState>();
  if (dynamic) {
    // The executor works on its own copy of the graph (it writes the shapes of each run), so
    // compiled() keeps showing what the compiler made.
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(model.graph));
    GE_ASSIGN_OR_RETURN(context->dynamic, runtime_internal::DynamicExecutor::Create(
                                              std::move(copy), model.tasks, engines,
                                              options.threads, options.max_memory_bytes));
    return context;
  }
  GE_ASSIGN_OR_RETURN(context->arena, Allocate(arena_bytes, "activation arena"));
  context->input_data.assign(inputs.size(), nullptr);
  GE_RETURN_IF_ERROR(LoadSteps(*context));
  ++contexts_loaded;
  return context;
}

Result<RunState*> Model::Impl::Acquire() {
  std::unique_lock<std::mutex> lock(contexts_mutex);
  for (;;) {
    if (!idle.empty()) {
      RunState* context = idle.back();
      idle.pop_back();
      return context;
    }
    // Every context's arena counts against the memory cap.
    const auto count = static_cast<int64_t>(contexts.size());
    const bool fits = arena_bytes == 0 || options.max_memory_bytes / arena_bytes > count;
    if (!growing && contexts.size() < max_contexts && fits) {
      growing = true;
      lock.unlock();
      Result<std::unique_ptr<RunState>> made = NewContext();
      lock.lock();
      growing = false;
      context_idle.notify_all();  // waiters may grow once more, or keep waiting
      if (made.ok()) {
        contexts.push_back(std::move(made).value());
        return contexts.back().get();
      }
      max_contexts = contexts.size();  // this machine cannot hold another: share the ones made
      continue;
    }
    context_idle.wait(lock);
  }
}

void Model::Impl::Release(RunState* context) {
  {
    std::lock_guard<std::mutex> lock(contexts_mutex);
    idle.push_back(context);
  }
  context_idle.notify_one();
}

// The tasks in the order the builder generated them (each stream's tasks are in their order in
// this list), their streams, and the thread that runs each stream.
Status Model::Impl::LoadSteps(RunState& context) {
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
      if (producer->GetType() == "Const" || producer->GetType() == "Constant") {
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

Model::Model() : impl_(std::make_unique<Impl>()) {}
Model::~Model() {
  if (impl_ == nullptr) return;
  impl_->idle.clear();
  impl_->contexts.clear();  // kernels before their engines
  if (impl_->engines.IsInitialized()) (void)impl_->engines.Finalize();
}

/// The machine's physical memory in bytes (the largest int64 when the system does not say).
static int64_t PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page_size);
}

/// The cores this process may run on (its affinity mask), at least 1.
static int CoresAvailable() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

Result<std::unique_ptr<Model>> Model::Load(CompiledModel compiled, const RuntimeOptions& given) {
  return CatchExceptions("Model::Load", [&]() -> Result<std::unique_ptr<Model>> {
    if (compiled.graph == nullptr)
      return ParamInvalid("Model::Load: the compiled model has no graph");
    // Counts where 0 asks for the machine's own figure.
    const std::tuple<const char*, int64_t, const char*> counts[] = {
        {"threads", given.threads, "every core"},
        {"max_concurrent_runs", given.max_concurrent_runs, "one per core"},
        {"max_memory_bytes", given.max_memory_bytes, "the machine's memory"}};
    for (const auto& [name, value, zero] : counts) {
      if (value < 0) {
        return ParamInvalid(std::string("Model::Load: ") + name + " must be 0 (" + zero +
                            ") or more, not " + std::to_string(value));
      }
    }
    RuntimeOptions options = given;
    if (options.threads == 0) options.threads = CoresAvailable();
    if (options.max_memory_bytes == 0) options.max_memory_bytes = PhysicalMemory();
    if (options.max_concurrent_runs == 0) options.max_concurrent_runs = CoresAvailable();
    std::unique_ptr<Model> model(new Model());
    model->impl_->model = std::move(compiled);
    model->impl_->options = options;
    model->impl_->max_contexts = static_cast<size_t>(options.max_concurrent_runs);
    Status engines = model->impl_->engines.Initialize(options.options);
    if (!engines.ok()) return std::move(engines).Prefix("loading engines");
    Status loaded = model->impl_->LoadGraph();
    if (!loaded.ok())
      return std::move(loaded).Prefix("loading model '" + model->impl_->model.graph->GetName() +
                                      "'");
    return model;
  });
}

Result<std::unique_ptr<Model>> Model::LoadFromFile(const std::string& path,
                                                   const RuntimeOptions& options) {
  GE_ASSIGN_OR_RETURN(CompiledModel compiled, CompiledModel::LoadFromFile(path));
  return Load(std::move(compiled), options);
}

const std::vector<IoInfo>& Model::inputs() const { return impl_->inputs; }
const std::vector<IoInfo>& Model::outputs() const { return impl_->outputs; }
int64_t Model::arena_bytes() const { return impl_->arena_bytes; }
void Model::EnableProfiling(bool on) { impl_->profiling.store(on); }
const std::vector<TaskTiming>& Model::LastProfile() const { return impl_->profile; }
int64_t Model::weight_bytes() const { return impl_->weight_bytes; }
const CompiledModel& Model::compiled() const { return impl_->model; }
const ExecutionInfo& Model::execution() const { return impl_->execution; }

int Model::run_contexts() const {
  std::lock_guard<std::mutex> lock(impl_->contexts_mutex);
  return static_cast<int>(impl_->contexts.size());
}

KernelCacheStats Model::kernel_cache() const {
  KernelCacheStats stats;
  std::lock_guard<std::mutex> lock(impl_->contexts_mutex);
  for (const std::unique_ptr<RunState>& context : impl_->contexts) {
    if (context->dynamic == nullptr) continue;
    int64_t prepared = 0;
    int64_t reused = 0;
    context->dynamic->KernelStats(&prepared, &reused);
    stats.prepared += prepared;
    stats.reused += reused;
  }
  return stats;
}

Result<std::vector<GeTensor>> Model::Run(const std::vector<GeTensor>& inputs) {
  return CatchExceptions("Model::Run", [&] { return impl_->Run(inputs); });
}

Result<std::vector<GeTensor>> Model::Impl::Run(const std::vector<GeTensor>& given) {
  if (!dynamic) {
    if (given.size() != inputs.size()) {
      return ParamInvalid("Run: the model takes " + std::to_string(inputs.size()) + " input(s), " +
                          std::to_string(given.size()) + " given");
    }
    for (size_t i = 0; i < given.size(); ++i) {
      const GeTensorDesc& desc = given[i].GetTensorDesc();
      const IoInfo& want = inputs[i];
      if (desc.GetDataType() != want.dtype || desc.GetShape().GetDims() != want.dims) {
        return ParamInvalid("Run: input '" + want.name + "' must be " +
                            TypeUtils::DataTypeToSerialString(want.dtype) + " " +
                            GeShape(want.dims).ToString() + ", given " +
                            TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " " +
                            desc.GetShape().ToString());
      }
      if (static_cast<int64_t>(given[i].GetSize()) != input_bytes[i]) {
        return ParamInvalid("Run: input '" + want.name + "' holds " +
                            std::to_string(given[i].GetSize()) + " bytes, its shape needs " +
                            std::to_string(input_bytes[i]));
      }
    }
  }
  GE_ASSIGN_OR_RETURN(RunState * context, Acquire());
  struct Lease {
    Impl* impl;
    RunState* context;
    ~Lease() {
      std::fill(context->input_data.begin(), context->input_data.end(), nullptr);
      impl->Release(context);
    }
  } lease{this, context};
  context->profiling = profiling.load();
  Result<std::vector<GeTensor>> result = std::vector<GeTensor>{};
  if (dynamic) {
    result = context->dynamic->Run(given, context->profiling ? &context->profile : nullptr);
  } else {
    for (size_t i = 0; i < given.size(); ++i) context->input_data[i] = given[i].GetData().data();
    Status status = context->RunSteps();
    if (status.ok()) {
      std::vector<GeTensor> outs;
      outs.reserve(outputs.size());
      for (const Place& place : output_places) {
        GeTensorDesc desc(GeShape(place.dims), FORMAT_ND, place.dtype);
        outs.emplace_back(desc, context->Resolve(place), static_cast<size_t>(place.bytes));
      }
      result = std::move(outs);
    } else {
      result = std::move(status);
    }
  }
  if (context->profiling) {
    std::lock_guard<std::mutex> lock(profile_mutex);
    profile = context->profile;
  }
  return result;
}

Result<std::map<std::string, GeTensor>> Model::Run(const std::map<std::string, GeTensor>& inputs) {
  return CatchExceptions("Model::Run", [&]() -> Result<std::map<std::string, GeTensor>> {
    std::vector<GeTensor> ordered;
    size_t found = 0;
    for (const IoInfo& info : impl_->inputs) {
      auto it = inputs.find(info.name);
      if (it != inputs.end()) {
        ordered.push_back(it->second);
        ++found;
      } else if (info.default_value != nullptr) {
        ordered.push_back(*info.default_value);  // shares the default's bytes
      } else {
        return ParamInvalid("Run: input '" + info.name +
                            "' is not given (it has no default value)");
      }
    }
    if (found != inputs.size()) {
      for (const auto& input : inputs) {
        const std::string& name = input.first;
        if (std::none_of(impl_->inputs.begin(), impl_->inputs.end(),
                         [&](const IoInfo& info) { return info.name == name; })) {
          return ParamInvalid("Run: the model has no input named '" + name + "'");
        }
      }
    }
    GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, Run(ordered));
    std::map<std::string, GeTensor> named;
    for (size_t i = 0; i < outputs.size(); ++i)
      named.emplace(impl_->outputs[i].name, std::move(outputs[i]));
    return named;
  });
}

}  // namespace ge
