// DynamicExecutor: see dynamic_executor.h. Running a graph's nodes in order: binding the
// caller's inputs, then for each node writing its actual input dtypes and dims and inferring its
// outputs' shapes, viewing an input or sizing, allocating and running a task's outputs, and
// freeing each buffer after its last reader. Building the executor is dynamic_build.cc, control
// flow dynamic_control_flow.cc, the shared types dynamic_graph_exec.h.
#include "dynamic_executor.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "dynamic_graph_exec.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::runtime_internal {
namespace dynamic {
namespace {

/// The address an empty tensor gets (kernels take a null address for an absent input).
alignas(kAlignment) const uint8_t kEmpty[kAlignment] = {};

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
    for (int64_t d : v->dims) {
      key += ',';
      key += std::to_string(d);
    }
    key += ';';
  }
  return key;
}

}  // namespace

}  // namespace dynamic

Status RunningNode(Status status, const std::string& name, const std::string& type,
                   const std::string& where) {
  const std::string who = "node '" + name + "' (" + type + ")";
  const std::string& message = status.message();
  if (message.rfind(who + ": ", 0) == 0) {
    return {status.code(), "running " + who + where + ": " + message.substr(who.size() + 2)};
  }
  return std::move(status).Prefix("running " + who + where);
}

namespace dynamic {

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
  if (desc.GetDataType() == DT_VARIANT) {  // a sequence or optional, kept as what it holds
    GE_ASSIGN_OR_RETURN(out, BindComposite(tensor, "Run: input '" + want.name + "'"));
    Result<ValueType> type = ParseValueType(want.value_type);
    if (type.ok() && type->kind != out.composite->kind) {
      return ParamInvalid(
          "Run: input '" + want.name + "' must be " + want.value_type + ", given " +
          (out.composite->kind == ValueType::Kind::kSequence ? "a sequence" : "an optional"));
    }
    return Status::Ok();
  }
  if (desc.GetDataType() == DT_STRING) {
    // The caller's bytes, read through running heads in the run's store.
    if (strings == nullptr)
      return InternalError("Run: no string store for input '" + want.name + "'");
    GE_ASSIGN_OR_RETURN(
        const StringHead* heads,
        strings->Bind(tensor.GetData().data(), tensor.GetSize(), bytes / kStringElementBytes,
                      "Run: input '" + want.name + "'"));
    out.dtype = DT_STRING;
    out.dims = dims;
    out.bytes = bytes;
    out.run_owned = false;
    out.data = std::shared_ptr<const uint8_t>(reinterpret_cast<const uint8_t*>(heads),
                                              [](const uint8_t*) {});
    return Status::Ok();
  }
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
  if (IsControlFlow(exec.kind)) {
    return RunControlFlow(exec, ins, outs, profile, run_start);  // shapes come from the subgraph
  }
  if (exec.kind == Kind::kComposite) return RunComposite(exec, ins, outs);
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
  // An op that writes its input (Assign) writes it in place: its output 0 is that input.
  const auto updated = static_cast<size_t>(exec.updates_input);
  const bool in_place =
      exec.updates_input >= 0 && num_outputs > 0 && updated < ins.size() && ins[updated] != nullptr;
  if (exec.updates_input >= 0 && !in_place) {
    return ParamInvalid(Who(node) + ": the input it writes is not linked");
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    if (in_place && i == 0) {
      out_tensors[0] = in_tensors[updated];
      outs[0] = *ins[updated];
      continue;
    }
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
    const std::string what = "output " + std::to_string(i) + " of " + Who(node);
    GE_ASSIGN_OR_RETURN(buffers[i], pool != nullptr
                                        ? pool->Allocate(bytes, max_tensor_bytes, what)
                                        : AllocateBuffer(bytes, max_tensor_bytes, what));
    out_tensors[i] = {buffers[i].get(), desc.GetDataType(), dims};
    outs[i].dtype = desc.GetDataType();
    outs[i].dims = std::move(dims);
    outs[i].bytes = bytes;
    outs[i].run_owned = true;
  }
  GE_RETURN_IF_ERROR(kernel.Run(in_tensors, out_tensors, workspace));
  for (size_t i = 0; i < num_outputs; ++i) {
    if (in_place && i == 0) continue;
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
      case Kind::kConst:
      case Kind::kVariable: {
        Value v;
        v.dtype = exec.const_value.GetTensorDesc().GetDataType();
        v.dims = exec.const_value.GetTensorDesc().GetShape().GetDims();
        v.bytes = static_cast<int64_t>(exec.const_value.GetSize());
        const uint8_t* p = exec.const_value.GetData().data();
        if (v.dtype == DT_STRING) {  // its running heads, pointing into its value
          p = reinterpret_cast<const uint8_t*>(exec.const_heads.data());
          v.bytes = static_cast<int64_t>(exec.const_heads.size() * sizeof(StringHead));
        }
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
          return RunningNode(std::move(status), exec.node->GetName(), exec.node->GetType());
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

using dynamic::Clock;
using dynamic::GraphExec;
using dynamic::Value;

/// Free buffers a run context keeps for its next runs: enough for a small model's every tensor,
/// little against a large model's peak.
constexpr int64_t kPooledBytes = int64_t{16} << 20;

struct DynamicExecutor::Impl {
  dynamic::GraphExec root;
  StringStore strings;  ///< the bytes of the strings a run makes, cleared after it
  BufferPool pool{kPooledBytes};
};

DynamicExecutor::DynamicExecutor() : impl_(std::make_unique<Impl>()) {}
DynamicExecutor::~DynamicExecutor() {
  if (impl_ != nullptr) impl_->root.nodes.clear();  // kernels before the graph they point into
}

Result<std::unique_ptr<DynamicExecutor>> DynamicExecutor::Create(
    ComputeGraphPtr graph, const std::map<std::string, std::vector<TaskDef>>& tasks,
    const EngineManager& engines, int threads, int64_t max_tensor_bytes,
    DataFlowResource* data_flow, const std::map<std::string, GeTensor>* variables) {
  if (graph == nullptr) return ParamInvalid("DynamicExecutor: no graph");
  std::unique_ptr<DynamicExecutor> executor(new DynamicExecutor());
  GraphExec& root = executor->impl_->root;
  root.graph = std::move(graph);
  root.threads = threads;
  root.max_tensor_bytes = max_tensor_bytes;
  root.data_flow = data_flow;
  executor->impl_->strings.set_limit(max_tensor_bytes);
  root.strings = &executor->impl_->strings;
  root.pool = &executor->impl_->pool;
  root.variables = variables;
  GE_RETURN_IF_ERROR(root.Build(tasks, engines));
  return executor;
}

const std::vector<IoInfo>& DynamicExecutor::inputs() const { return impl_->root.inputs; }
const std::vector<IoInfo>& DynamicExecutor::outputs() const { return impl_->root.outputs; }

BufferPool::Stats DynamicExecutor::BufferStats() const { return impl_->pool.stats(); }

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
  // The run's strings are freed when it ends: its outputs are copied out by then.
  struct ClearStrings {
    StringStore& store;
    ~ClearStrings() { store.Clear(); }
  } clear_strings{impl_->strings};
  std::vector<Value> bound(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    GE_RETURN_IF_ERROR(root.BindInput(i, inputs[i], bound[i]));
  std::vector<Value> made;
  GE_RETURN_IF_ERROR(root.RunValues(bound, made, profile, run_start));
  bound.clear();
  std::vector<GeTensor> results;
  results.reserve(made.size());
  for (const Value& v : made) {
    if (v.dtype == DT_STRING || v.composite != nullptr) {  // the stored form, owning its bytes
      results.push_back(StoreValue(v));
      continue;
    }
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
