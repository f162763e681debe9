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
#include "ge/runtime/model.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <thread>
#include <unordered_map>

#include "dynamic_executor.h"
#include "stream_pool.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge {
namespace {

using memory::Region;

constexpr int64_t kAlignment = 64;

struct AlignedFree {
  void operator()(uint8_t* p) const { std::free(p); }
};
using HostBuffer = std::unique_ptr<uint8_t, AlignedFree>;

Result<HostBuffer> Allocate(int64_t bytes, const std::string& what) {
  const int64_t size = std::max<int64_t>(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment);
  void* p = std::aligned_alloc(static_cast<size_t>(kAlignment), static_cast<size_t>(size));
  if (p == nullptr) return Failed("cannot allocate " + std::to_string(bytes) + " bytes for the " + what);
  std::memset(p, 0, static_cast<size_t>(size));
  return HostBuffer(static_cast<uint8_t*>(p));
}

/// Where a tensor lives.
struct Place {
  Region region = Region::kArena;
  int64_t offset = 0;  ///< the input slot for kInput
  int64_t bytes = 0;
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;
  const uint8_t* weight = nullptr;  ///< kWeight: the bytes, in the Const tensor that holds them
};

constexpr char kEventRecord[] = "EventRecord";
constexpr char kEventWait[] = "EventWait";

/// A task as the executor runs it: a kernel, or an event record or wait between streams.
struct Step {
  enum class Kind { kKernel, kRecord, kWait };
  Kind kind = Kind::kKernel;
  size_t event = 0;  ///< dense event index (kRecord, kWait)
  std::string name;
  std::string type;
  int64_t stream = 0;  ///< the compiled stream id
  int lane = 0;        ///< dense index of the stream in the executor
  std::unique_ptr<TaskKernel> kernel;
  std::vector<Place> in_places;
  std::vector<bool> in_present;
  std::vector<Place> out_places;
  std::vector<RuntimeTensor> in;
  std::vector<RuntimeTensor> out;
  bool timed = false;  ///< ran in the last profiled run
  TaskTiming timing;
};

/// Kernel threads of each of `lanes` streams sharing a budget of `threads`: an even split, the
/// remainder to the first streams, at least one each.
std::vector<int> SplitThreads(int threads, int lanes) {
  std::vector<int> split(static_cast<size_t>(lanes));
  for (int k = 0; k < lanes; ++k) {
    split[static_cast<size_t>(k)] = std::max(1, threads / lanes + (k < threads % lanes ? 1 : 0));
  }
  return split;
}

std::string Who(const Node& node) { return "node '" + node.GetName() + "' (" + node.GetType() + ")"; }

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
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<Place> output_places;
  std::vector<int64_t> input_bytes;
  HostBuffer arena;
  /// The weight region as the Const tensors hold it (no copy): each Const's planned offset and
  /// size, and its tensor (sharing the model's bytes), by offset.
  struct WeightSpan {
    int64_t offset = 0;
    int64_t bytes = 0;
    GeTensor value;
  };
  std::vector<WeightSpan> weight_spans;
  std::vector<HostBuffer> workspaces;  ///< one per stream (kernels of parallel streams overlap)
  int64_t arena_bytes = 0;
  int64_t weight_bytes = 0;
  std::vector<std::unique_ptr<GeTensor>> const_values;  // what TaskLoadContext points at
  std::vector<Step> steps;                 ///< in list order
  std::vector<std::vector<size_t>> lanes;  ///< per stream: its steps, in order
  ExecutionInfo execution;
  /// Runs the streams in parallel; null for one stream (the calling thread runs the steps).
  std::unique_ptr<runtime_internal::StreamPool> pool;
  Status pool_error;                       ///< the first failure of a parallel run
  std::vector<const uint8_t*> input_data;  // per input slot, during a run
  bool profiling = false;
  std::vector<TaskTiming> profile;
  std::chrono::steady_clock::time_point run_start;
  /// Set when shapes are known only at run time: it runs the model instead of `steps`.
  std::unique_ptr<runtime_internal::DynamicExecutor> dynamic;

  uint8_t* Resolve(const Place& place) const {
    switch (place.region) {
      case Region::kArena:
        return arena.get() + place.offset;
      case Region::kWeight:
        return const_cast<uint8_t*>(place.weight);
      case Region::kInput:
        return const_cast<uint8_t*>(input_data[static_cast<size_t>(place.offset)]);
      default:
        return nullptr;
    }
  }

  /// The place of `node`'s output `index`; in the weight region, bound to the Const bytes.
  Result<Place> PlaceOf(const Node& node, int index) const;
  Status LoadGraph(const RuntimeOptions& options);
  Status LoadSteps(const RuntimeOptions& options);
  Status RunKernel(Step& step);
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
  void RunLane(int lane);
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
      if (place.offset < 0 || place.bytes > arena_bytes || place.offset > arena_bytes - place.bytes) {
        return inconsistent("is planned at arena offset " + std::to_string(place.offset) +
                            ", outside the " + std::to_string(arena_bytes) + "-byte arena");
      }
      return place;
    case Region::kInput:
      if (place.offset < 0 || place.offset >= static_cast<int64_t>(input_bytes.size()) ||
          place.bytes > input_bytes[static_cast<size_t>(place.offset)]) {
        return inconsistent("reads graph input slot " + std::to_string(place.offset) + ", which " +
                            (place.offset < 0 ||
                                     place.offset >= static_cast<int64_t>(input_bytes.size())
                                 ? std::string("the model does not have")
                                 : "holds only " +
                                       std::to_string(input_bytes[static_cast<size_t>(place.offset)]) +
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

Status Model::Impl::RunKernel(Step& step) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = profiling ? Clock::now() : run_start;
  for (size_t k = 0; k < step.in.size(); ++k) {
    step.in[k].data = step.in_present[k] ? Resolve(step.in_places[k]) : nullptr;
  }
  for (size_t k = 0; k < step.out.size(); ++k) step.out[k].data = Resolve(step.out_places[k]);
  uint8_t* workspace = workspaces[static_cast<size_t>(step.lane)].get();
  Status status = step.kernel->Run(step.in, step.out, workspace);
  if (!status.ok()) {
    const std::string where =
        execution.streams > 1 ? " on stream " + std::to_string(step.stream) : "";
    return std::move(status).Prefix("running node '" + step.name + "' (" + step.type + ")" +
                                    where);
  }
  if (profiling) {
    const Clock::time_point end = Clock::now();
    step.timing = {step.name, step.type, step.stream,
                   std::chrono::duration<double, std::micro>(start - run_start).count(),
                   std::chrono::duration<double, std::micro>(end - start).count()};
    step.timed = true;
  }
  return Status::Ok();
}

// One stream of a parallel run; the first failure stops the others (StreamPool::Abort).
void Model::Impl::RunLane(int lane) {
  for (size_t index : lanes[static_cast<size_t>(lane)]) {
    if (pool->aborted()) return;
    Step& step = steps[index];
    switch (step.kind) {
      case Step::Kind::kRecord:
        pool->Record(step.event);
        break;
      case Step::Kind::kWait:
        if (!pool->Wait(step.event)) return;
        break;
      case Step::Kind::kKernel: {
        Status status = RunKernel(step);
        if (!status.ok()) {
          if (pool->Abort()) pool_error = std::move(status);
          return;
        }
        break;
      }
    }
  }
}

Status Model::Impl::LoadGraph(const RuntimeOptions& options) {
  ComputeGraph& graph = *model.graph;
  if (runtime_internal::NeedsDynamicExecution(graph)) {
    // Shapes known only at run time: prototypes infer them per run; the executor works on its
    // own copy of the graph, so compiled() keeps showing what the compiler made.
    Status protos = OpsProtoManager::Instance().Initialize(options.options);
    if (!protos.ok()) return std::move(protos).Prefix("loading operator prototypes for run-time shape inference");
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(model.graph));
    GE_ASSIGN_OR_RETURN(dynamic, runtime_internal::DynamicExecutor::Create(
                                     std::move(copy), model.tasks, engines, options.threads,
                                     options.max_memory_bytes));
    execution.kernel_threads = {options.threads};
    inputs = dynamic->inputs();
    outputs = dynamic->outputs();
    return Status::Ok();
  }
  auto plan_it = model.plans.find(graph.GetName());
  if (plan_it == model.plans.end()) {
    return ParamInvalid("model '" + graph.GetName() + "' has no memory plan; recompile it");
  }
  const memory::MemoryPlan& plan = plan_it->second;
  for (const memory::TensorPlan& t : plan.tensors) {
    if (t.region == Region::kDynamic) {
      return ParamInvalid("model '" + graph.GetName() + "': tensor '" + memory::TensorLabel(t) +
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
  GE_ASSIGN_OR_RETURN(arena, Allocate(arena_bytes, "activation arena"));

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
  input_data.assign(inputs.size(), nullptr);

  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() != "NetOutput") continue;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) continue;
      NodePtr producer = peer->GetOwnerNode();
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(*producer, peer->GetIdx()));
      std::string name = producer->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx())).GetName();
      if (name.empty()) name = "output_" + std::to_string(outputs.size());
      outputs.push_back({name, place.dtype, place.dims, nullptr});
      output_places.push_back(place);
    }
  }
  return LoadSteps(options);
}

// The tasks in the order the builder generated them (each stream's tasks are in their order in
// this list), their streams, and the thread that runs each stream.
Status Model::Impl::LoadSteps(const RuntimeOptions& options) {
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
  execution.streams = lane_count;
  execution.kernel_threads = SplitThreads(options.threads, lane_count);

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
      steps.push_back(std::move(step));
      continue;
    }
    if (task.engine.empty()) continue;  // no work at run time
    const EngineInfo* engine = engines.GetEngine(task.engine);
    if (engine == nullptr || engine->executor == nullptr) {
      return ParamInvalid(Who(node) + ": its task is for engine " + task.engine +
                          (engine == nullptr ? ", which is not loaded"
                                             : ", which has no task executor"));
    }
    TaskLoadContext context;
    context.threads = execution.kernel_threads[static_cast<size_t>(step.lane)];
    for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) {
        step.in_places.emplace_back();
        step.in_present.push_back(false);
        context.const_inputs.push_back(nullptr);
        continue;
      }
      NodePtr producer = peer->GetOwnerNode();
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(*producer, peer->GetIdx()));
      step.in_places.push_back(place);
      step.in_present.push_back(true);
      if (producer->GetType() == "Const" || producer->GetType() == "Constant") {
        GE_ASSIGN_OR_RETURN(GeTensor value, OpDescUtils::GetConstValue(*producer));
        const_values.push_back(std::make_unique<GeTensor>(std::move(value)));
        context.const_inputs.push_back(const_values.back().get());
      } else {
        context.const_inputs.push_back(nullptr);
      }
    }
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(node, static_cast<int>(i)));
      step.out_places.push_back(place);
    }
    Result<std::unique_ptr<TaskKernel>> kernel = engine->executor->LoadTask(task, node, context);
    if (!kernel.ok()) return Status(kernel.status()).Prefix("loading the task of " + Who(node));
    step.kernel = std::move(kernel).value();
    int64_t& workspace_bytes = lane_workspace[static_cast<size_t>(step.lane)];
    workspace_bytes = std::max(workspace_bytes, step.kernel->WorkspaceBytes());
    for (size_t k = 0; k < step.in_places.size(); ++k) {
      step.in.push_back({nullptr, step.in_places[k].dtype, step.in_places[k].dims});
    }
    for (const Place& p : step.out_places) step.out.push_back({nullptr, p.dtype, p.dims});
    steps.push_back(std::move(step));
  }
  for (int64_t bytes : lane_workspace) {
    GE_ASSIGN_OR_RETURN(HostBuffer buffer, Allocate(bytes, "kernel workspace"));
    workspaces.push_back(std::move(buffer));
  }
  if (!parallel) return Status::Ok();
  lanes.resize(static_cast<size_t>(lane_count));
  for (size_t i = 0; i < steps.size(); ++i) lanes[static_cast<size_t>(steps[i].lane)].push_back(i);
  pool = std::make_unique<runtime_internal::StreamPool>(lane_count, event_index.size(),
                                                        [this](int lane) { RunLane(lane); });
  execution.pool_threads = pool->threads();
  return Status::Ok();
}

Model::Model() : impl_(std::make_unique<Impl>()) {}
Model::~Model() {
  if (impl_ == nullptr) return;
  impl_->pool.reset();   // its threads run the steps
  impl_->steps.clear();  // kernels before their engines
  impl_->dynamic.reset();
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
    if (compiled.graph == nullptr) return ParamInvalid("Model::Load: the compiled model has no graph");
    if (given.threads < 0) {
      return ParamInvalid("Model::Load: threads must be 0 (every core) or more, not " +
                          std::to_string(given.threads));
    }
    if (given.max_memory_bytes < 0) {
      return ParamInvalid("Model::Load: max_memory_bytes must be 0 (the machine's memory) or more, "
                          "not " + std::to_string(given.max_memory_bytes));
    }
    RuntimeOptions options = given;
    if (options.threads == 0) options.threads = CoresAvailable();
    if (options.max_memory_bytes == 0) options.max_memory_bytes = PhysicalMemory();
    std::unique_ptr<Model> model(new Model());
    model->impl_->model = std::move(compiled);
    Status engines = model->impl_->engines.Initialize(options.options);
    if (!engines.ok()) return std::move(engines).Prefix("loading engines");
    Status loaded = model->impl_->LoadGraph(options);
    if (!loaded.ok()) return std::move(loaded).Prefix("loading model '" + model->impl_->model.graph->GetName() + "'");
    return model;
  });
}

Result<std::unique_ptr<Model>> Model::LoadFromFile(const std::string& path, const RuntimeOptions& options) {
  GE_ASSIGN_OR_RETURN(CompiledModel compiled, CompiledModel::LoadFromFile(path));
  return Load(std::move(compiled), options);
}

const std::vector<IoInfo>& Model::inputs() const { return impl_->inputs; }
const std::vector<IoInfo>& Model::outputs() const { return impl_->outputs; }
int64_t Model::arena_bytes() const { return impl_->arena_bytes; }
void Model::EnableProfiling(bool on) { impl_->profiling = on; }
const std::vector<TaskTiming>& Model::LastProfile() const { return impl_->profile; }
int64_t Model::weight_bytes() const { return impl_->weight_bytes; }
const CompiledModel& Model::compiled() const { return impl_->model; }
const ExecutionInfo& Model::execution() const { return impl_->execution; }

KernelCacheStats Model::kernel_cache() const {
  KernelCacheStats stats;
  if (impl_->dynamic != nullptr) impl_->dynamic->KernelStats(&stats.prepared, &stats.reused);
  return stats;
}

Result<std::vector<GeTensor>> Model::Run(const std::vector<GeTensor>& inputs) {
  return CatchExceptions("Model::Run", [&] { return impl_->Run(inputs); });
}

Result<std::vector<GeTensor>> Model::Impl::Run(const std::vector<GeTensor>& inputs) {
  Impl& m = *this;
  if (m.dynamic != nullptr) return m.dynamic->Run(inputs, m.profiling ? &m.profile : nullptr);
  if (inputs.size() != m.inputs.size()) {
    return ParamInvalid("Run: the model takes " + std::to_string(m.inputs.size()) +
                        " input(s), " + std::to_string(inputs.size()) + " given");
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GeTensorDesc& desc = inputs[i].GetTensorDesc();
    const IoInfo& want = m.inputs[i];
    if (desc.GetDataType() != want.dtype || desc.GetShape().GetDims() != want.dims) {
      return ParamInvalid("Run: input '" + want.name + "' must be " +
                          TypeUtils::DataTypeToSerialString(want.dtype) + " " +
                          GeShape(want.dims).ToString() + ", given " +
                          TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " " +
                          desc.GetShape().ToString());
    }
    if (static_cast<int64_t>(inputs[i].GetSize()) != m.input_bytes[i]) {
      return ParamInvalid("Run: input '" + want.name + "' holds " +
                          std::to_string(inputs[i].GetSize()) + " bytes, its shape needs " +
                          std::to_string(m.input_bytes[i]));
    }
    m.input_data[i] = inputs[i].GetData().data();
  }
  m.run_start = std::chrono::steady_clock::now();
  if (m.profiling) {
    m.profile.clear();
    for (Step& step : m.steps) step.timed = false;
  }
  Status status;
  if (m.pool != nullptr) {
    m.pool_error = Status::Ok();
    m.pool->Run();
    status = std::move(m.pool_error);
  } else {
    for (Step& step : m.steps) {
      status = m.RunKernel(step);  // serial: only kernel steps were loaded
      if (!status.ok()) break;
    }
  }
  if (m.profiling) {
    for (const Step& step : m.steps) {
      if (step.timed) m.profile.push_back(step.timing);
    }
  }
  if (!status.ok()) {
    std::fill(m.input_data.begin(), m.input_data.end(), nullptr);
    return status;
  }
  std::vector<GeTensor> outputs;
  outputs.reserve(m.outputs.size());
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const Place& place = m.output_places[i];
    GeTensorDesc desc(GeShape(place.dims), FORMAT_ND, place.dtype);
    const uint8_t* data = m.Resolve(place);
    outputs.emplace_back(desc, data, static_cast<size_t>(place.bytes));
  }
  std::fill(m.input_data.begin(), m.input_data.end(), nullptr);
  return outputs;
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
        return ParamInvalid("Run: input '" + info.name + "' is not given (it has no default value)");
      }
    }
    if (found != inputs.size()) {
      for (const auto& [name, tensor] : inputs) {
        if (std::none_of(impl_->inputs.begin(), impl_->inputs.end(),
                         [&](const IoInfo& info) { return info.name == name; })) {
          return ParamInvalid("Run: the model has no input named '" + name + "'");
        }
      }
    }
    GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, Run(ordered));
    std::map<std::string, GeTensor> named;
    for (size_t i = 0; i < outputs.size(); ++i) named.emplace(impl_->outputs[i].name, std::move(outputs[i]));
    return named;
  });
}

}  // namespace ge
