// DynamicExecutor: see dynamic_executor.h. Building a graph's executor and running its nodes;
// control flow is in dynamic_control_flow.cc, the shared types in dynamic_graph_exec.h.
#include "dynamic_executor.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "dynamic_graph_exec.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::runtime_internal {
namespace dynamic {
namespace {

/// The address an empty tensor gets (kernels take a null address for an absent input).
alignas(kAlignment) const uint8_t kEmpty[kAlignment] = {};

/// GE Local operators whose output 0 is input 0 under another shape (GE's reuse-input list).
constexpr std::string_view kViewTypes[] = {"Reshape",    "Bitcast",     "Flatten",   "FlattenV2",
                                           "ExpandDims", "ReFormat",    "Squeeze",   "Unsqueeze",
                                           "SqueezeV2",  "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3"};
/// GE Local operators whose output i is input i.
constexpr std::string_view kIdentityTypes[] = {"Identity",     "IdentityN",       "Snapshot",
                                               "StopGradient", "PreventGradient", "GuaranteeConst",
                                               "RefIdentity"};

bool IsOneOf(const std::string& type, std::span<const std::string_view> types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

bool IsStatic(const GeShape& shape) { return !shape.IsUnknownDimNum() && !shape.IsUnknownShape(); }

/// A tensor's bytes, or an error for a negative or unknown shape.
Result<int64_t> BytesOf(const Node& node, const std::string& what, const std::vector<int64_t>& dims,
                        DataType dtype) {
  const int64_t bytes = TensorUtils::CalcTensorMemSize(GeShape(dims), dtype);
  if (bytes < 0) {
    return ParamInvalid(Who(node) + ": " + what + " has the shape " + GeShape(dims).ToString() +
                        " of " + TypeUtils::DataTypeToSerialString(dtype) +
                        ", whose size is not known after run-time shape inference");
  }
  return bytes;
}

/// The dtypes and dims of a node's inputs, as the key its kernel was prepared for.
std::string Signature(const std::vector<const Value*>& ins) {
  std::string key;
  for (const Value* v : ins) {
    if (v == nullptr) {
      key += "-;";
      continue;
    }
    key += std::to_string(static_cast<int>(v->dtype));
    for (int64_t d : v->dims) key += "," + std::to_string(d);
    key += ';';
  }
  return key;
}

std::string SignatureOfDescs(const Node& node) {
  std::string key;
  const OpDesc& op = *node.GetOpDescBarePtr();
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    if (in->GetPeerOutAnchor() == nullptr) {
      key += "-;";
      continue;
    }
    const GeTensorDesc& desc = op.GetInputDesc(static_cast<uint32_t>(in->GetIdx()));
    key += std::to_string(static_cast<int>(desc.GetDataType()));
    for (int64_t d : desc.GetShape().GetDims()) key += "," + std::to_string(d);
    key += ';';
  }
  return key;
}

bool NodeIsStatic(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    if (in->GetPeerOutAnchor() == nullptr) continue;
    if (!IsStatic(op.GetInputDesc(static_cast<uint32_t>(in->GetIdx())).GetShape())) return false;
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    if (!IsStatic(op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape())) return false;
  }
  return true;
}

}  // namespace

std::string Who(const Node& node) {
  return "node '" + node.GetName() + "' (" + node.GetType() + ")";
}

/// A buffer of at least one aligned line (so an empty tensor still has a non-null address).
Result<std::shared_ptr<uint8_t>> AllocateBuffer(int64_t bytes, const std::string& what) {
  const size_t size = std::max<size_t>(
      kAlignment, (static_cast<size_t>(bytes) + kAlignment - 1) / kAlignment * kAlignment);
  void* p = std::aligned_alloc(kAlignment, size);
  if (p == nullptr)
    return Failed("cannot allocate " + std::to_string(bytes) + " bytes for " + what);
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
}

Result<std::shared_ptr<uint8_t>> AllocateBuffer(int64_t bytes, int64_t limit,
                                                const std::string& what) {
  if (bytes > limit) {
    return ParamInvalid(what + " needs " + std::to_string(bytes) + " bytes, over the limit of " +
                        std::to_string(limit) + " (RuntimeOptions::max_memory_bytes)");
  }
  return AllocateBuffer(bytes, what);
}

NodeExec::NodeExec() = default;
NodeExec::NodeExec(NodeExec&&) noexcept = default;
NodeExec::~NodeExec() = default;

Status GraphExec::Build(const TaskMap& all_tasks, const EngineManager& engines) {
  std::unordered_map<std::string, const TaskDef*> task_of;
  auto own = all_tasks.find(graph->GetName());
  if (own != all_tasks.end()) {
    for (const TaskDef& t : own->second) {
      if (!t.engine.empty()) task_of.emplace(t.op_name, &t);  // events: one stream runs in order
    }
  }
  std::unordered_map<const Node*, int> index_of;
  std::vector<std::pair<int64_t, int>> data_nodes;
  for (const NodePtr& node : graph->GetDirectNode()) {
    NodeExec exec;
    exec.node = node;
    const OpDesc& op = *node->GetOpDescBarePtr();
    const std::string& type = node->GetType();
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      InputRef ref;
      if (peer != nullptr) {
        auto found = index_of.find(peer->GetOwnerNode().get());
        if (found == index_of.end()) {
          return ParamInvalid(Who(*node) + " reads '" + peer->GetOwnerNode()->GetName() +
                              "', which comes after it: the graph is not in topological order "
                              "(recompile the model)");
        }
        ref.producer = found->second;
        ref.output = peer->GetIdx();
        ++nodes[static_cast<size_t>(ref.producer)].uses[static_cast<size_t>(ref.output)];
      }
      exec.inputs.push_back(ref);
    }
    exec.uses.assign(op.GetOutputsSize(), 0);

    auto task = task_of.find(node->GetName());
    if (type == "Data" || type == "RefData") {
      exec.kind = Kind::kData;
      exec.data_index = static_cast<int64_t>(data_nodes.size());
      AttrUtils::GetInt(op, "index", exec.data_index);
      data_nodes.emplace_back(exec.data_index, static_cast<int>(nodes.size()));
    } else if (type == "Const" || type == "Constant") {
      exec.kind = Kind::kConst;
      GE_ASSIGN_OR_RETURN(exec.const_value, OpDescUtils::GetCheckedConstValue(*node));
    } else if (type == "NetOutput") {
      exec.kind = Kind::kNetOutput;
      net_output = static_cast<int>(nodes.size());
    } else if (type == "If" || type == "Case" || type == "While" || type == "PartitionedCall" ||
               type == "StatefulPartitionedCall" || type == "Loop" || type == "Scan") {
      exec.kind = type == "If"      ? Kind::kIf
                  : type == "Case"  ? Kind::kCase
                  : type == "While" ? Kind::kWhile
                  : type == "Loop"  ? Kind::kLoop
                  : type == "Scan"  ? Kind::kScan
                                    : Kind::kCall;
      const size_t count = op.GetSubgraphInstanceNames().size();
      for (uint32_t k = 0; k < count; ++k) {
        ComputeGraphPtr sub = NodeUtils::GetSubgraph(*node, k);
        if (sub == nullptr) {
          return ParamInvalid(Who(*node) + ": subgraph " + std::to_string(k) + " ('" +
                              op.GetSubgraphInstanceName(k) + "') is not in the model");
        }
        auto child = std::make_unique<GraphExec>();
        child->graph = sub;
        child->threads = threads;
        child->max_tensor_bytes = max_tensor_bytes;
        Status built = child->Build(all_tasks, engines);
        if (!built.ok())
          return std::move(built).Prefix("subgraph '" + sub->GetName() + "' of " + Who(*node));
        for (size_t i = 0; i < child->parent_index.size(); ++i) {
          if (child->parent_index[i] < 0 ||
              static_cast<size_t>(child->parent_index[i]) >= exec.inputs.size()) {
            return ParamInvalid("subgraph '" + sub->GetName() + "' of " + Who(*node) +
                                ": its input '" + child->inputs[i].name + "' has no valid " +
                                kAttrParentNodeIndex + " (the node has " +
                                std::to_string(exec.inputs.size()) + " inputs)");
          }
        }
        // While's cond gives one boolean; Loop's body gives its condition first.
        const size_t want_outputs = exec.kind == Kind::kWhile && k == 0 ? 1
                                    : exec.kind == Kind::kLoop          ? op.GetOutputsSize() + 1
                                                                        : op.GetOutputsSize();
        if (child->outputs.size() != want_outputs) {
          return ParamInvalid("subgraph '" + sub->GetName() + "' of " + Who(*node) + " has " +
                              std::to_string(child->outputs.size()) + " outputs, " +
                              std::to_string(want_outputs) + " expected");
        }
        exec.subgraphs.push_back(std::move(child));
      }
      const size_t want = exec.kind == Kind::kIf || exec.kind == Kind::kWhile ? 2 : 1;
      if (exec.kind == Kind::kCase ? exec.subgraphs.empty() : exec.subgraphs.size() != want) {
        return ParamInvalid(Who(*node) + " has " + std::to_string(exec.subgraphs.size()) +
                            " subgraph(s)");
      }
      if (exec.kind == Kind::kWhile && exec.inputs.size() != op.GetOutputsSize()) {
        return ParamInvalid(Who(*node) + " has " + std::to_string(exec.inputs.size()) +
                            " inputs and " + std::to_string(op.GetOutputsSize()) +
                            " outputs; a While carries each input to its output");
      }
    } else if (task != task_of.end()) {
      const EngineInfo* engine = engines.GetEngine(task->second->engine);
      if (engine == nullptr || engine->executor == nullptr) {
        return ParamInvalid(
            Who(*node) + ": its task is for engine " + task->second->engine +
            (engine == nullptr ? ", which is not loaded" : ", which has no task executor"));
      }
      exec.kind = Kind::kTask;
      exec.task = task->second;
      exec.executor = engine->executor.get();
    } else if (IsOneOf(type, kViewTypes)) {
      exec.kind = Kind::kView;
    } else if (IsOneOf(type, kIdentityTypes)) {
      exec.kind = Kind::kIdentity;
    } else if (op.GetOutputsSize() == 0) {
      exec.kind = Kind::kNothing;  // NoOp and other control-only nodes
    } else {
      return ParamInvalid(Who(*node) + " has no task (engine '" + op.GetOpEngineName() +
                          "') and the runtime cannot compute it itself");
    }
    index_of.emplace(node.get(), static_cast<int>(nodes.size()));
    nodes.push_back(std::move(exec));
  }

  std::sort(data_nodes.begin(), data_nodes.end());
  for (size_t i = 0; i < data_nodes.size(); ++i) {
    const NodeExec& exec = nodes[static_cast<size_t>(data_nodes[i].second)];
    if (data_nodes[i].first != static_cast<int64_t>(i)) {
      return ParamInvalid("graph inputs' index attributes are not 0.." +
                          std::to_string(data_nodes.size() - 1) + " (input '" +
                          exec.node->GetName() + "' has " + std::to_string(data_nodes[i].first) +
                          ")");
    }
    GE_ASSIGN_OR_RETURN(IoInfo info, GraphInputInfo(*exec.node));
    inputs.push_back(std::move(info));
    int64_t parent = -1;
    AttrUtils::GetInt(*exec.node->GetOpDescBarePtr(), kAttrParentNodeIndex, parent);
    parent_index.push_back(parent);
  }
  if (net_output >= 0) {
    for (const InputRef& ref : nodes[static_cast<size_t>(net_output)].inputs) {
      if (ref.producer < 0) continue;
      const OpDesc& producer = *nodes[static_cast<size_t>(ref.producer)].node->GetOpDescBarePtr();
      const GeTensorDesc& desc = producer.GetOutputDesc(static_cast<uint32_t>(ref.output));
      std::string name = desc.GetName();
      if (name.empty()) name = "output_" + std::to_string(outputs.size());
      outputs.push_back({name, desc.GetDataType(), desc.GetShape().GetDims(), nullptr});
    }
  }

  // The Const values feeding each node, now that `nodes` no longer grows (its elements moved
  // while it did, so pointers into it are taken only here).
  for (NodeExec& exec : nodes) {
    exec.const_inputs.clear();
    for (const InputRef& ref : exec.inputs) {
      const bool is_const =
          ref.producer >= 0 && nodes[static_cast<size_t>(ref.producer)].kind == Kind::kConst;
      exec.const_inputs.push_back(is_const ? &nodes[static_cast<size_t>(ref.producer)].const_value
                                           : nullptr);
    }
  }

  // Kernels of nodes whose shapes the compiler knew are prepared now, so their errors show at load.
  for (NodeExec& exec : nodes) {
    if (exec.kind == Kind::kTask && NodeIsStatic(*exec.node)) {
      GE_RETURN_IF_ERROR(Load(exec, SignatureOfDescs(*exec.node)));
    }
  }
  return Status::Ok();
}

Status GraphExec::Load(NodeExec& exec, const std::string& signature) {
  for (size_t i = 0; i < exec.prepared.size(); ++i) {
    if (exec.prepared[i].signature != signature) continue;
    std::rotate(exec.prepared.begin(), exec.prepared.begin() + static_cast<std::ptrdiff_t>(i),
                exec.prepared.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    ++cache_hits;
    return Status::Ok();
  }
  if (exec.prepared.size() >= kKernelCacheSize) exec.prepared.pop_back();
  NodeExec::Prepared made;
  made.signature = signature;
  TaskLoadContext context;
  context.threads = threads;
  context.const_inputs = exec.const_inputs;
  Result<std::unique_ptr<TaskKernel>> kernel =
      exec.executor->LoadTask(*exec.task, *exec.node, context);
  if (!kernel.ok()) return Status(kernel.status()).Prefix("loading the task of " + Who(*exec.node));
  made.kernel = std::move(kernel).value();
  const int64_t workspace = made.kernel->WorkspaceBytes();
  if (workspace > 0) {
    GE_ASSIGN_OR_RETURN(made.workspace, AllocateBuffer(workspace, max_tensor_bytes,
                                                       "the workspace of " + Who(*exec.node)));
  }
  exec.prepared.insert(exec.prepared.begin(), std::move(made));
  ++kernel_loads;
  return Status::Ok();
}

Status GraphExec::BindInput(size_t index, const GeTensor& tensor, Value& out) const {
  const IoInfo& want = inputs[index];
  const GeTensorDesc& desc = tensor.GetTensorDesc();
  const std::vector<int64_t>& dims = desc.GetShape().GetDims();
  bool fits = desc.GetDataType() == want.dtype && !desc.GetShape().IsUnknownShape() &&
              !desc.GetShape().IsUnknownDimNum();
  const bool any_rank = want.dims.size() == 1 && want.dims[0] == UNKNOWN_DIM_NUM;
  if (fits && !any_rank) {
    fits = dims.size() == want.dims.size();
    for (size_t i = 0; fits && i < dims.size(); ++i) {
      fits = want.dims[i] < 0 || want.dims[i] == dims[i];
    }
  }
  if (!fits) {
    return ParamInvalid(
        "Run: input '" + want.name + "' must be " + TypeUtils::DataTypeToSerialString(want.dtype) +
        " " + GeShape(want.dims).ToString() + " (-1: any size), given " +
        TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " " + desc.GetShape().ToString());
  }
  const int64_t bytes = TensorUtils::CalcTensorMemSize(desc.GetShape(), desc.GetDataType());
  if (static_cast<int64_t>(tensor.GetSize()) != bytes) {
    return ParamInvalid("Run: input '" + want.name + "' holds " + std::to_string(tensor.GetSize()) +
                        " bytes, its shape " + desc.GetShape().ToString() + " needs " +
                        std::to_string(bytes));
  }
  out.dtype = desc.GetDataType();
  out.dims = dims;
  out.bytes = bytes;
  out.run_owned = false;
  const uint8_t* p = tensor.GetData().data() != nullptr ? tensor.GetData().data() : kEmpty;
  out.data = std::shared_ptr<const uint8_t>(p, [](const uint8_t*) {});  // the caller's, not ours
  return Status::Ok();
}

Status GraphExec::Execute(NodeExec& exec, const std::vector<const Value*>& ins,
                          std::vector<Value>& outs, std::vector<TaskTiming>* profile,
                          Clock::time_point run_start) {
  Node& node = *exec.node;
  OpDesc& op = *node.GetOpDescBarePtr();
  if (exec.kind == Kind::kIf || exec.kind == Kind::kCase || exec.kind == Kind::kWhile ||
      exec.kind == Kind::kCall || exec.kind == Kind::kLoop || exec.kind == Kind::kScan) {
    return RunControlFlow(exec, ins, outs, profile, run_start);  // shapes come from the subgraph
  }
  // The actual input descs, then the outputs' shapes from the prototype with every input value.
  std::vector<GeTensor> values(ins.size());
  std::vector<const GeTensor*> value_ptrs(ins.size(), nullptr);
  std::vector<bool> absent(ins.size(), false);
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i] == nullptr) {
      absent[i] = true;
      continue;
    }
    GeTensorDesc* desc = op.MutableInputDesc(static_cast<uint32_t>(i)).get();
    if (desc != nullptr) {
      desc->SetShape(GeShape(ins[i]->dims));
      desc->SetOriginShape(GeShape(ins[i]->dims));
      desc->SetDataType(ins[i]->dtype);
    }
    values[i] = GeTensor(GeTensorDesc(GeShape(ins[i]->dims), FORMAT_ND, ins[i]->dtype));
    values[i].SetSharedData(ins[i]->data, static_cast<size_t>(ins[i]->bytes));
    value_ptrs[i] = &values[i];
  }
  Status inferred = OpRegistry::Instance().InferShape(op, value_ptrs, absent);
  if (!inferred.ok()) return std::move(inferred).Prefix("inferring shapes at run time");

  const size_t num_outputs = op.GetOutputsSize();
  outs.assign(num_outputs, Value{});
  switch (exec.kind) {
    case Kind::kView:
    case Kind::kIdentity: {
      for (size_t i = 0; i < num_outputs; ++i) {
        const size_t source = exec.kind == Kind::kView ? 0 : i;
        if (source >= ins.size() || ins[source] == nullptr) {
          return ParamInvalid(Who(node) + ": output " + std::to_string(i) +
                              " has no input to view");
        }
        const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
        Value& out = outs[i];
        out = *ins[source];
        out.dims = desc.GetShape().GetDims();
        out.dtype = desc.GetDataType();
        GE_ASSIGN_OR_RETURN(out.bytes,
                            BytesOf(node, "output " + std::to_string(i), out.dims, out.dtype));
        if (out.bytes != ins[source]->bytes) {
          return ParamInvalid(Who(node) + ": output " + std::to_string(i) + " " +
                              GeShape(out.dims).ToString() + " (" + std::to_string(out.bytes) +
                              " bytes) cannot view input " + GeShape(ins[source]->dims).ToString() +
                              " (" + std::to_string(ins[source]->bytes) + " bytes)");
        }
      }
      return Status::Ok();
    }
    case Kind::kTask:
      break;
    default:
      return Status::Ok();
  }

  const std::string signature = Signature(ins);
  if (exec.prepared.empty() || signature != exec.prepared.front().signature) {
    GE_RETURN_IF_ERROR(Load(exec, signature));
  }
  TaskKernel& kernel = *exec.prepared.front().kernel;
  void* const workspace = exec.prepared.front().workspace.get();
  std::vector<RuntimeTensor> in_tensors(ins.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i] == nullptr) continue;
    in_tensors[i] = {const_cast<uint8_t*>(ins[i]->data.get()), ins[i]->dtype, ins[i]->dims};
  }
  std::vector<RuntimeTensor> out_tensors(num_outputs);
  std::vector<std::shared_ptr<uint8_t>> buffers(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
    std::vector<int64_t> dims = desc.GetShape().GetDims();
    if (!IsStatic(desc.GetShape())) {
      if (!kernel.OutputDimsDependOnData(i)) {
        return ParamInvalid(Who(node) + ": output " + std::to_string(i) + " has the shape " +
                            desc.GetShape().ToString() + " after run-time shape inference");
      }
      dims = kernel.MaxOutputDims(i, in_tensors);
    }
    GE_ASSIGN_OR_RETURN(const int64_t bytes,
                        BytesOf(node, "output " + std::to_string(i), dims, desc.GetDataType()));
    GE_ASSIGN_OR_RETURN(buffers[i],
                        AllocateBuffer(bytes, max_tensor_bytes,
                                       "output " + std::to_string(i) + " of " + Who(node)));
    out_tensors[i] = {buffers[i].get(), desc.GetDataType(), dims};
    outs[i].dtype = desc.GetDataType();
    outs[i].dims = std::move(dims);
    outs[i].bytes = bytes;
    outs[i].run_owned = true;
  }
  GE_RETURN_IF_ERROR(kernel.Run(in_tensors, out_tensors, workspace));
  for (size_t i = 0; i < num_outputs; ++i) {
    if (kernel.OutputDimsDependOnData(i)) {
      outs[i].dims = kernel.ActualOutputDims(i);
      GE_ASSIGN_OR_RETURN(const int64_t bytes, BytesOf(node, "output " + std::to_string(i),
                                                       outs[i].dims, outs[i].dtype));
      if (bytes > outs[i].bytes) {
        return InternalError(Who(node) + ": output " + std::to_string(i) + " came out larger (" +
                             GeShape(outs[i].dims).ToString() + ") than the kernel's bound");
      }
      outs[i].bytes = bytes;
    }
    outs[i].data = std::move(buffers[i]);
  }
  return Status::Ok();
}

Status GraphExec::RunValues(const std::vector<Value>& inputs, std::vector<Value>& results,
                            std::vector<TaskTiming>* profile, Clock::time_point run_start) {
  std::vector<std::vector<Value>> values(nodes.size());
  std::vector<std::vector<int>> remaining(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) remaining[n] = nodes[n].uses;
  results.clear();

  for (size_t n = 0; n < nodes.size(); ++n) {
    NodeExec& exec = nodes[n];
    std::vector<const Value*> ins;
    ins.reserve(exec.inputs.size());
    for (const InputRef& ref : exec.inputs) {
      if (ref.producer < 0) {
        ins.push_back(nullptr);
        continue;
      }
      const std::vector<Value>& made = values[static_cast<size_t>(ref.producer)];
      if (static_cast<size_t>(ref.output) >= made.size() ||
          made[static_cast<size_t>(ref.output)].data == nullptr) {
        return InternalError(Who(*exec.node) + " reads output " + std::to_string(ref.output) +
                             " of '" + nodes[static_cast<size_t>(ref.producer)].node->GetName() +
                             "', which was not made");
      }
      ins.push_back(&made[static_cast<size_t>(ref.output)]);
    }
    const Clock::time_point start = profile != nullptr ? Clock::now() : run_start;
    switch (exec.kind) {
      case Kind::kData:
        if (static_cast<size_t>(exec.data_index) >= inputs.size()) {
          return InternalError("input " + std::to_string(exec.data_index) + " of graph '" +
                               graph->GetName() + "' is not given");
        }
        values[n].push_back(inputs[static_cast<size_t>(exec.data_index)]);
        break;
      case Kind::kConst: {
        Value v;
        v.dtype = exec.const_value.GetTensorDesc().GetDataType();
        v.dims = exec.const_value.GetTensorDesc().GetShape().GetDims();
        v.bytes = static_cast<int64_t>(exec.const_value.GetSize());
        const uint8_t* p = exec.const_value.GetData().data();
        v.data = std::shared_ptr<const uint8_t>(p != nullptr ? p : kEmpty, [](const uint8_t*) {});
        values[n].push_back(std::move(v));
        break;
      }
      case Kind::kNetOutput:
        for (size_t i = 0; i < ins.size(); ++i) {
          if (exec.inputs[i].producer < 0) continue;
          results.push_back(*ins[i]);
        }
        break;
      default: {
        Status status = Execute(exec, ins, values[n], profile, run_start);
        if (!status.ok()) {
          return std::move(status).Prefix("running node '" + exec.node->GetName() + "' (" +
                                          exec.node->GetType() + ")");
        }
        if (profile != nullptr && exec.kind != Kind::kNothing) {
          const Clock::time_point end = Clock::now();
          profile->push_back({exec.node->GetName(), exec.node->GetType(), 0,
                              std::chrono::duration<double, std::micro>(start - run_start).count(),
                              std::chrono::duration<double, std::micro>(end - start).count()});
        }
        break;
      }
    }
    // Free what no later node reads (views keep their buffer through the shared pointer).
    for (const InputRef& ref : exec.inputs) {
      if (ref.producer < 0) continue;
      int& left = remaining[static_cast<size_t>(ref.producer)][static_cast<size_t>(ref.output)];
      if (--left == 0)
        values[static_cast<size_t>(ref.producer)][static_cast<size_t>(ref.output)].data.reset();
    }
  }
  return Status::Ok();
}

}  // namespace dynamic

Result<IoInfo> GraphInputInfo(const Node& data) {
  const OpDesc& op = *data.GetOpDescBarePtr();
  const GeTensorDesc& desc = op.GetOutputDesc(0);
  IoInfo info{data.GetName(), desc.GetDataType(), desc.GetShape().GetDims(), nullptr};
  GeTensor value;
  if (!AttrUtils::GetTensor(op, kAttrDefaultValue, value)) return info;
  const GeTensorDesc& given = value.GetTensorDesc();
  const std::vector<int64_t>& dims = given.GetShape().GetDims();
  bool fits = given.GetDataType() == info.dtype &&
              (desc.GetShape().IsUnknownDimNum() || dims.size() == info.dims.size());
  for (size_t i = 0; fits && i < dims.size() && !desc.GetShape().IsUnknownDimNum(); ++i) {
    fits = info.dims[i] < 0 || info.dims[i] == dims[i];
  }
  const int64_t bytes = TensorUtils::CalcTensorMemSize(given);
  if (!fits || bytes < 0 || static_cast<size_t>(bytes) != value.GetSize()) {
    return ParamInvalid(
        "input '" + info.name + "': its default value is " +
        TypeUtils::DataTypeToSerialString(given.GetDataType()) + " " + given.GetShape().ToString() +
        " (" + std::to_string(value.GetSize()) + " bytes), which is not a value of the input (" +
        TypeUtils::DataTypeToSerialString(info.dtype) + " " + desc.GetShape().ToString() + ")");
  }
  info.default_value = std::make_shared<const GeTensor>(std::move(value));
  return info;
}

using dynamic::Clock;
using dynamic::GraphExec;
using dynamic::Value;

bool NeedsDynamicExecution(const ComputeGraph& graph) {
  if (!graph.GetAllSubgraphs().empty()) return true;  // control flow runs here
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      if (!dynamic::IsStatic(op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape())) return true;
    }
  }
  return false;
}

struct DynamicExecutor::Impl {
  dynamic::GraphExec root;
};

DynamicExecutor::DynamicExecutor() : impl_(std::make_unique<Impl>()) {}
DynamicExecutor::~DynamicExecutor() {
  if (impl_ != nullptr) impl_->root.nodes.clear();  // kernels before the graph they point into
}

Result<std::unique_ptr<DynamicExecutor>> DynamicExecutor::Create(
    ComputeGraphPtr graph, const std::map<std::string, std::vector<TaskDef>>& tasks,
    const EngineManager& engines, int threads, int64_t max_tensor_bytes) {
  if (graph == nullptr) return ParamInvalid("DynamicExecutor: no graph");
  std::unique_ptr<DynamicExecutor> executor(new DynamicExecutor());
  GraphExec& root = executor->impl_->root;
  root.graph = std::move(graph);
  root.threads = threads;
  root.max_tensor_bytes = max_tensor_bytes;
  GE_RETURN_IF_ERROR(root.Build(tasks, engines));
  return executor;
}

const std::vector<IoInfo>& DynamicExecutor::inputs() const { return impl_->root.inputs; }
const std::vector<IoInfo>& DynamicExecutor::outputs() const { return impl_->root.outputs; }

void DynamicExecutor::KernelStats(int64_t* prepared, int64_t* reused) const {
  *prepared = 0;
  *reused = 0;
  impl_->root.AddKernelStats(*prepared, *reused);
}

Result<std::vector<GeTensor>> DynamicExecutor::Run(const std::vector<GeTensor>& inputs,
                                                   std::vector<TaskTiming>* profile) {
  GraphExec& root = impl_->root;
  if (inputs.size() != root.inputs.size()) {
    return ParamInvalid("Run: the model takes " + std::to_string(root.inputs.size()) +
                        " input(s), " + std::to_string(inputs.size()) + " given");
  }
  const Clock::time_point run_start = Clock::now();
  if (profile != nullptr) profile->clear();
  std::vector<Value> bound(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    GE_RETURN_IF_ERROR(root.BindInput(i, inputs[i], bound[i]));
  std::vector<Value> made;
  GE_RETURN_IF_ERROR(root.RunValues(bound, made, profile, run_start));
  bound.clear();
  std::vector<GeTensor> results;
  results.reserve(made.size());
  for (const Value& v : made) {
    GeTensor out(GeTensorDesc(GeShape(v.dims), FORMAT_ND, v.dtype));
    if (v.run_owned) {
      out.SetSharedData(v.data, static_cast<size_t>(v.bytes));  // ours: shared, not copied
    } else {
      out.SetData(v.data.get(), static_cast<size_t>(v.bytes));  // a caller's input or a weight
    }
    results.push_back(std::move(out));
  }
  return results;
}

}  // namespace ge::runtime_internal
