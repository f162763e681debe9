// ge::Model: loading a CompiledModel (arena, weights, tasks) and running it.
//
// Every tensor a task reads or writes is at a fixed place decided by the memory plan: an offset
// in the arena, in the weight region, in the output region, or the caller's input buffer of a
// graph input slot. Loading resolves each task's inputs and outputs to such places once; a run
// only points the input slots at the caller's tensors and calls the kernels in order.
#include "ge/runtime/model.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "dynamic_executor.h"
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
};

struct Step {
  std::string name;
  std::string type;
  int64_t stream = 0;
  std::unique_ptr<TaskKernel> kernel;
  std::vector<Place> in_places;
  std::vector<bool> in_present;
  std::vector<Place> out_places;
  std::vector<RuntimeTensor> in;
  std::vector<RuntimeTensor> out;
};

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
  Place place;
  place.region = static_cast<Region>(regions[static_cast<size_t>(index)]);
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
  HostBuffer weights;
  HostBuffer workspace;
  int64_t arena_bytes = 0;
  int64_t weight_bytes = 0;
  std::vector<std::unique_ptr<GeTensor>> const_values;  // what TaskLoadContext points at
  std::vector<Step> steps;
  std::vector<const uint8_t*> input_data;  // per input slot, during a run
  bool profiling = false;
  std::vector<TaskTiming> profile;
  /// Set when shapes are known only at run time: it runs the model instead of `steps`.
  std::unique_ptr<runtime_internal::DynamicExecutor> dynamic;

  uint8_t* Resolve(const Place& place) const {
    switch (place.region) {
      case Region::kArena:
        return arena.get() + place.offset;
      case Region::kWeight:
        return weights.get() + place.offset;
      case Region::kInput:
        return const_cast<uint8_t*>(input_data[static_cast<size_t>(place.offset)]);
      default:
        return nullptr;
    }
  }

  Status LoadGraph(const RuntimeOptions& options);
};

Status Model::Impl::LoadGraph(const RuntimeOptions& options) {
  ComputeGraph& graph = *model.graph;
  if (runtime_internal::NeedsDynamicExecution(graph)) {
    // Shapes known only at run time: prototypes infer them per run; the executor works on its
    // own copy of the graph, so compiled() keeps showing what the compiler made.
    Status protos = OpsProtoManager::Instance().Initialize(options.options);
    if (!protos.ok()) return std::move(protos).Prefix("loading operator prototypes for run-time shape inference");
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(model.graph));
    GE_ASSIGN_OR_RETURN(dynamic, runtime_internal::DynamicExecutor::Create(
                                     std::move(copy), model.tasks, engines, options.threads));
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
  GE_ASSIGN_OR_RETURN(arena, Allocate(arena_bytes, "activation arena"));
  GE_ASSIGN_OR_RETURN(weights, Allocate(weight_bytes, "weights"));

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
      GE_ASSIGN_OR_RETURN(GeTensor value, OpDescUtils::GetConstValue(*node));
      if (place.region != Region::kWeight ||
          place.offset + static_cast<int64_t>(value.GetSize()) > weight_bytes) {
        return ParamInvalid(Who(*node) + ": its value does not fit its planned weight memory");
      }
      if (value.GetSize() > 0) {
        std::memcpy(weights.get() + place.offset, value.GetData().data(), value.GetSize());
      }
    }
  }
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
    inputs.push_back({data_nodes[i].second->GetName(), desc.GetDataType(), desc.GetShape().GetDims()});
    input_bytes.push_back(TensorUtils::CalcTensorMemSize(desc));
  }
  input_data.assign(inputs.size(), nullptr);

  // Tasks by node, in the order the builder generated them.
  std::unordered_map<std::string, std::vector<const TaskDef*>> tasks_of;
  auto task_it = model.tasks.find(graph.GetName());
  if (task_it != model.tasks.end()) {
    for (const TaskDef& t : task_it->second) tasks_of[t.op_name].push_back(&t);
  }
  int64_t workspace_bytes = 0;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    if (node->GetType() == "NetOutput") {
      for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
        OutDataAnchorPtr peer = in->GetPeerOutAnchor();
        if (peer == nullptr) continue;
        NodePtr producer = peer->GetOwnerNode();
        GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*producer, peer->GetIdx()));
        std::string name = producer->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx())).GetName();
        if (name.empty()) name = "output_" + std::to_string(outputs.size());
        outputs.push_back({name, place.dtype, place.dims});
        output_places.push_back(place);
      }
    }
    auto found = tasks_of.find(node->GetName());
    if (found == tasks_of.end()) continue;
    for (const TaskDef* task : found->second) {
      if (task->engine.empty()) continue;  // events: one stream runs in list order
      const EngineInfo* engine = engines.GetEngine(task->engine);
      if (engine == nullptr || engine->executor == nullptr) {
        return ParamInvalid(Who(*node) + ": its task is for engine " + task->engine +
                            (engine == nullptr ? ", which is not loaded"
                                               : ", which has no task executor") );
      }
      Step step;
      step.name = node->GetName();
      step.type = node->GetType();
      step.stream = op.GetStreamId();
      TaskLoadContext context;
      context.threads = options.threads;
      for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
        OutDataAnchorPtr peer = in->GetPeerOutAnchor();
        if (peer == nullptr) {
          step.in_places.emplace_back();
          step.in_present.push_back(false);
          context.const_inputs.push_back(nullptr);
          continue;
        }
        NodePtr producer = peer->GetOwnerNode();
        GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*producer, peer->GetIdx()));
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
        GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*node, static_cast<int>(i)));
        step.out_places.push_back(place);
      }
      Result<std::unique_ptr<TaskKernel>> kernel = engine->executor->LoadTask(*task, *node, context);
      if (!kernel.ok()) return Status(kernel.status()).Prefix("loading the task of " + Who(*node));
      step.kernel = std::move(kernel).value();
      workspace_bytes = std::max(workspace_bytes, step.kernel->WorkspaceBytes());
      for (size_t k = 0; k < step.in_places.size(); ++k) {
        step.in.push_back({nullptr, step.in_places[k].dtype, step.in_places[k].dims});
      }
      for (const Place& p : step.out_places) step.out.push_back({nullptr, p.dtype, p.dims});
      steps.push_back(std::move(step));
    }
  }
  GE_ASSIGN_OR_RETURN(workspace, Allocate(workspace_bytes, "kernel workspace"));
  return Status::Ok();
}

Model::Model() : impl_(std::make_unique<Impl>()) {}
Model::~Model() {
  if (impl_ == nullptr) return;
  impl_->steps.clear();  // kernels before their engines
  impl_->dynamic.reset();
  if (impl_->engines.IsInitialized()) (void)impl_->engines.Finalize();
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
  if (compiled.graph == nullptr) return ParamInvalid("Model::Load: the compiled model has no graph");
  if (given.threads < 0) {
    return ParamInvalid("Model::Load: threads must be 0 (every core) or more, not " +
                        std::to_string(given.threads));
  }
  RuntimeOptions options = given;
  if (options.threads == 0) options.threads = CoresAvailable();
  std::unique_ptr<Model> model(new Model());
  model->impl_->model = std::move(compiled);
  Status engines = model->impl_->engines.Initialize(options.options);
  if (!engines.ok()) return std::move(engines).Prefix("loading engines");
  Status loaded = model->impl_->LoadGraph(options);
  if (!loaded.ok()) return std::move(loaded).Prefix("loading model '" + model->impl_->model.graph->GetName() + "'");
  return model;
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

Result<std::vector<GeTensor>> Model::Run(const std::vector<GeTensor>& inputs) {
  Impl& m = *impl_;
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
  using Clock = std::chrono::steady_clock;
  const Clock::time_point run_start = Clock::now();
  if (m.profiling) m.profile.clear();
  for (Step& step : m.steps) {
    const Clock::time_point step_start = m.profiling ? Clock::now() : run_start;
    for (size_t k = 0; k < step.in.size(); ++k) {
      step.in[k].data = step.in_present[k] ? m.Resolve(step.in_places[k]) : nullptr;
    }
    for (size_t k = 0; k < step.out.size(); ++k) step.out[k].data = m.Resolve(step.out_places[k]);
    Status status = step.kernel->Run(step.in, step.out, m.workspace.get());
    if (!status.ok()) {
      return std::move(status).Prefix("running node '" + step.name + "' (" + step.type + ")");
    }
    if (m.profiling) {
      const Clock::time_point end = Clock::now();
      m.profile.push_back({step.name, step.type, step.stream,
                           std::chrono::duration<double, std::micro>(step_start - run_start).count(),
                           std::chrono::duration<double, std::micro>(end - step_start).count()});
    }
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
  std::vector<GeTensor> ordered;
  for (const IoInfo& info : impl_->inputs) {
    auto it = inputs.find(info.name);
    if (it == inputs.end()) return ParamInvalid("Run: input '" + info.name + "' is not given");
    ordered.push_back(it->second);
  }
  if (inputs.size() != impl_->inputs.size()) {
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
}

}  // namespace ge
