// Loading a ge::LoadedModel: checking a CompiledModel and its memory plan, and deriving what every
// run context shares (the weights as the Const tensors hold them, the inputs and outputs and
// their places), then the first run context (model_context.cc).
//
// Every tensor a task reads or writes is at a fixed place decided by the memory plan: an offset
// in the arena, in the weight region, in the output region, or the caller's input buffer of a
// graph input slot. Loading resolves each task's inputs and outputs to such places once; a run
// only points the input slots at the caller's tensors and calls the kernels in order.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <thread>
#include <tuple>

#include "ge/engine/ops_kernel_builder.h"
#include "ge/graph/checked_math.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/ops_proto_manager.h"
#include "ge/runtime/loaded_model.h"
#include "model_impl.h"

namespace ge {
namespace {

using runtime_internal::Place;
using runtime_internal::Region;
using runtime_internal::RunState;
using runtime_internal::Who;

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

// A Variable's bytes: a copy of its "value" (zeros without one), owned by the model, written by
// Assign-like nodes and alive across runs. Every run context of the model shares it.
Result<GeTensor> VariableBytes(const Node& node, const Place& place) {
  std::vector<uint8_t> bytes(static_cast<size_t>(place.bytes), 0);
  const auto* value = AttrUtils::GetPtr<GeTensor>(node.GetOpDescBarePtr(), "value");
  if (value != nullptr && !value->GetData().empty()) {
    if (value->GetSize() != bytes.size() || value->GetTensorDesc().GetDataType() != place.dtype) {
      return ParamInvalid(Who(node) + ": its initial value (" + std::to_string(value->GetSize()) +
                          " bytes of " +
                          TypeUtils::DataTypeToSerialString(value->GetTensorDesc().GetDataType()) +
                          ") does not fit its output (" + std::to_string(place.bytes) +
                          " bytes of " + TypeUtils::DataTypeToSerialString(place.dtype) + ")");
    }
    std::memcpy(bytes.data(), value->GetData().data(), bytes.size());
  }
  GeTensorDesc desc(GeShape(place.dims), FORMAT_ND, place.dtype);
  return GeTensor(desc, std::move(bytes));
}

// Variables are allocated and filled when the model loads: their bytes count against the memory
// limit, with the arena, before each is allocated. `used` is what the model already takes.
Status ChargeVariable(const Node& node, int64_t bytes, int64_t limit, int64_t* used) {
  int64_t total = 0;
  if (!checked::Add(*used, bytes, &total) || total > limit) {
    return ParamInvalid(Who(node) + " needs " + std::to_string(bytes) + " bytes, which with the " +
                        std::to_string(*used) +
                        " bytes the model already takes is over the limit of " +
                        std::to_string(limit) +
                        " (RuntimeOptions::max_memory_bytes; by default the machine's memory)");
  }
  *used = total;
  return Status::Ok();
}

// The graph's Data and RefData nodes in run order: by their index attribute, which must number
// them 0..n-1.
Result<std::vector<NodePtr>> InputNodes(const ComputeGraph& graph) {
  std::vector<std::pair<int64_t, NodePtr>> indexed;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() != kTypeData && node->GetType() != kTypeRefData) continue;
    auto index = static_cast<int64_t>(indexed.size());
    AttrUtils::GetInt(*node->GetOpDescBarePtr(), kAttrDataIndex, index);
    indexed.emplace_back(index, node);
  }
  std::sort(indexed.begin(), indexed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<NodePtr> nodes;
  for (size_t i = 0; i < indexed.size(); ++i) {
    const Node& node = *indexed[i].second;
    if (indexed[i].first != static_cast<int64_t>(i)) {
      return ParamInvalid("graph inputs' index attributes are not 0.." +
                          std::to_string(indexed.size() - 1) + " (input '" + node.GetName() +
                          "' has " + std::to_string(indexed[i].first) + ")");
    }
    if (node.GetOpDescBarePtr()->GetOutputsSize() == 0) {
      return ParamInvalid("graph input '" + node.GetName() + "' has no output desc");
    }
    nodes.push_back(indexed[i].second);
  }
  return nodes;
}

}  // namespace

Result<std::vector<IoInfo>> GraphInputs(const ComputeGraph& graph) {
  GE_ASSIGN_OR_RETURN(std::vector<NodePtr> data_nodes, InputNodes(graph));
  std::vector<IoInfo> inputs;
  for (const NodePtr& data : data_nodes) {
    GE_ASSIGN_OR_RETURN(IoInfo info, runtime_internal::GraphInputInfo(*data));
    inputs.push_back(std::move(info));
  }
  return inputs;
}

std::vector<IoInfo> GraphOutputs(const ComputeGraph& graph) {
  std::vector<IoInfo> outputs;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() != kTypeNetOutput) continue;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      const OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
      if (peer == nullptr) continue;
      const GeTensorDesc* desc = peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDescPtr(
          static_cast<uint32_t>(peer->GetIdx()));
      if (desc != nullptr) {
        outputs.push_back(runtime_internal::GraphOutputInfo(
            *desc, node->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx())),
            outputs.size()));
      }
    }
  }
  return outputs;
}

Result<Place> LoadedModel::Impl::PlaceOf(const Node& node, int index) const {
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
  // The Const's own output, when its readers take any alignment, is where its bytes lie (a
  // deferred weight is not copied for them); every other place is aligned.
  const bool as_stored = span.any_alignment && place.offset == span.offset;
  place.weight = (as_stored ? span.value.GetStoredData() : span.value.GetData()).data() +
                 (place.offset - span.offset);
  return place;
}

Status LoadedModel::Impl::LoadGraph() {
  ComputeGraph& graph = *model.graph;
  if (runtime_internal::NeedsDynamicExecution(graph)) {
    // Shapes known only at run time: prototypes infer them per run.
    Status protos = OpsProtoManager::Instance().Initialize(options.options);
    if (!protos.ok())
      return std::move(protos).Prefix("loading operator prototypes for run-time shape inference");
    dynamic = true;
    execution.kernel_threads = {options.threads};
    int64_t variable_bytes = 0;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetType() != kTypeVariable) continue;
      const GeTensorDesc& desc = node->GetOpDescBarePtr()->GetOutputDesc(0);
      Place place;
      place.dtype = desc.GetDataType();
      place.dims = desc.GetShape().GetDims();
      place.bytes = TensorUtils::CalcTensorMemSize(desc);
      if (place.bytes < 0) {
        return ParamInvalid(Who(*node) + " has the shape " + desc.GetShape().ToString() +
                            ", which is not known: a variable needs a static shape");
      }
      GE_RETURN_IF_ERROR(
          ChargeVariable(*node, place.bytes, options.max_memory_bytes, &variable_bytes));
      GE_ASSIGN_OR_RETURN(GeTensor bytes, VariableBytes(*node, place));
      dynamic_variables.emplace(node->GetName(), std::move(bytes));
    }
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
  int64_t taken = arena_bytes;  // the arena, then the Variables
  for (const NodePtr& node : graph.GetDirectNode()) {
    const std::string& type = node->GetType();
    if (IsConstType(type)) {
      GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*node, 0));
      GE_ASSIGN_OR_RETURN(GeTensor value, OpDescUtils::GetCheckedConstValue(*node));
      const auto size = static_cast<int64_t>(value.GetSize());
      if (place.region != Region::kWeight || place.offset < 0 || size > weight_bytes ||
          place.offset > weight_bytes - size || size < place.bytes) {
        return ParamInvalid(Who(*node) + ": its value (" + std::to_string(size) +
                            " bytes) does not fit its planned weight memory");
      }
      bool any_alignment = false;
      AttrUtils::GetBool(*node->GetOpDescBarePtr(), kAttrWeightAnyAlignment, any_alignment);
      weight_spans.push_back({place.offset, size, std::move(value), any_alignment});
    } else if (type == kTypeVariable) {
      GE_ASSIGN_OR_RETURN(Place place, OutputPlace(*node, 0));
      if (place.region != Region::kWeight) {
        return ParamInvalid(Who(*node) + " is planned in the " + memory::RegionName(place.region) +
                            " region, not beside the weights: the model is inconsistent "
                            "(recompile it)");
      }
      GE_RETURN_IF_ERROR(ChargeVariable(*node, place.bytes, options.max_memory_bytes, &taken));
      GE_ASSIGN_OR_RETURN(GeTensor bytes, VariableBytes(*node, place));
      weight_spans.push_back({place.offset, place.bytes, std::move(bytes)});
    }
  }
  std::sort(weight_spans.begin(), weight_spans.end(),
            [](const WeightSpan& a, const WeightSpan& b) { return a.offset < b.offset; });
  GE_ASSIGN_OR_RETURN(std::vector<NodePtr> data_nodes, InputNodes(graph));
  for (const NodePtr& data : data_nodes) {
    GE_ASSIGN_OR_RETURN(IoInfo info, runtime_internal::GraphInputInfo(*data));
    inputs.push_back(std::move(info));
    input_bytes.push_back(
        TensorUtils::CalcTensorMemSize(data->GetOpDescBarePtr()->GetOutputDesc(0)));
  }

  for (const NodePtr& node : graph.GetDirectNode()) {
    if (node->GetType() != kTypeNetOutput) continue;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) continue;
      NodePtr producer = peer->GetOwnerNode();
      GE_ASSIGN_OR_RETURN(Place place, PlaceOf(*producer, peer->GetIdx()));
      IoInfo info = runtime_internal::GraphOutputInfo(
          producer->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx())),
          node->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx())),
          outputs.size());
      info.dtype = place.dtype;
      info.dims = place.dims;
      outputs.push_back(std::move(info));
      output_places.push_back(place);
    }
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<RunState> first, NewContext());
  idle.push_back(first.get());
  contexts.push_back(std::move(first));
  return Status::Ok();
}

LoadedModel::LoadedModel() : impl_(std::make_unique<Impl>()) {}
LoadedModel::~LoadedModel() {
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

Result<std::unique_ptr<LoadedModel>> LoadedModel::Load(CompiledModel compiled,
                                                       const RuntimeOptions& given) {
  return CatchExceptions("LoadedModel::Load", [&]() -> Result<std::unique_ptr<LoadedModel>> {
    if (compiled.graph == nullptr)
      return ParamInvalid("LoadedModel::Load: the compiled model has no graph");
    // The dynamic executor runs each level of subgraphs one call deeper: a model built in memory
    // (not read from a file, whose reader checks this) gets the same bound before it runs.
    Status nesting = GraphVerifier::VerifySubgraphDepth(*compiled.graph);
    if (!nesting.ok()) {
      return std::move(nesting).Prefix("loading model '" + compiled.graph->GetName() + "'");
    }
    // Counts where 0 asks for the machine's own figure.
    const std::tuple<const char*, int64_t, const char*> counts[] = {
        {"threads", given.threads, "every core"},
        {"max_concurrent_runs", given.max_concurrent_runs, "one per core"},
        {"max_memory_bytes", given.max_memory_bytes, "the machine's memory"}};
    for (const auto& [name, value, zero] : counts) {
      if (value < 0) {
        return ParamInvalid(std::string("LoadedModel::Load: ") + name + " must be 0 (" + zero +
                            ") or more, not " + std::to_string(value));
      }
    }
    RuntimeOptions options = given;
    if (options.threads == 0) options.threads = CoresAvailable();
    if (options.max_memory_bytes == 0) options.max_memory_bytes = PhysicalMemory();
    if (options.max_concurrent_runs == 0) options.max_concurrent_runs = CoresAvailable();
    std::unique_ptr<LoadedModel> model(new LoadedModel());
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

Result<std::unique_ptr<LoadedModel>> LoadedModel::LoadFromFile(const std::string& path,
                                                               const RuntimeOptions& options) {
  GE_ASSIGN_OR_RETURN(CompiledModel compiled, CompiledModel::LoadFromFile(path));
  return Load(std::move(compiled), options);
}

}  // namespace ge
