// DynamicExecutor: see dynamic_executor.h.
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

#include "../compiler/folding/host_kernels.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::runtime_internal {
namespace {

constexpr size_t kAlignment = 64;
/// The address an empty tensor gets (kernels take a null address for an absent input).
alignas(kAlignment) const uint8_t kEmpty[kAlignment] = {};

/// GE Local operators whose output 0 is input 0 under another shape (GE's reuse-input list).
constexpr std::string_view kViewTypes[] = {
    "Reshape",  "Bitcast",   "Flatten",     "FlattenV2", "ExpandDims",  "ReFormat",
    "Squeeze",  "Unsqueeze", "SqueezeV2",   "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3"};
/// GE Local operators whose output i is input i.
constexpr std::string_view kIdentityTypes[] = {"Identity",      "IdentityN",    "Snapshot",
                                               "StopGradient",  "PreventGradient",
                                               "GuaranteeConst", "RefIdentity"};

bool IsOneOf(const std::string& type, std::span<const std::string_view> types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

std::string Who(const Node& node) { return "node '" + node.GetName() + "' (" + node.GetType() + ")"; }

bool IsStatic(const GeShape& shape) { return !shape.IsUnknownDimNum() && !shape.IsUnknownShape(); }

/// One tensor during a run. `data` keeps its buffer alive; views share it.
struct Value {
  std::shared_ptr<const uint8_t> data;
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;
  int64_t bytes = 0;
  bool run_owned = false;  ///< made by this run (outputs can share it instead of copying it)
};

/// A buffer of at least one aligned line (so an empty tensor still has a non-null address).
Result<std::shared_ptr<uint8_t>> AllocateBuffer(int64_t bytes, const std::string& what) {
  const size_t size = std::max<size_t>(kAlignment, (static_cast<size_t>(bytes) + kAlignment - 1) /
                                                       kAlignment * kAlignment);
  void* p = std::aligned_alloc(kAlignment, size);
  if (p == nullptr) return Failed("cannot allocate " + std::to_string(bytes) + " bytes for " + what);
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
}

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

enum class Kind { kData, kConst, kNetOutput, kTask, kView, kIdentity, kHost, kNothing, kIf, kCase,
                  kWhile, kCall, kLoop, kScan };

struct InputRef {
  int producer = -1;  ///< index into the executor's nodes; -1: absent optional input
  int output = 0;
};

struct GraphExec;

struct NodeExec {
  NodeExec();
  NodeExec(NodeExec&&) noexcept;
  NodeExec& operator=(NodeExec&&) = delete;
  ~NodeExec();

  NodePtr node;
  Kind kind = Kind::kNothing;
  int64_t data_index = 0;
  std::vector<InputRef> inputs;
  std::vector<int> uses;  ///< per output: data edges reading it (NetOutput's included)
  GeTensor const_value;   ///< kConst
  const TaskDef* task = nullptr;
  TaskExecutor* executor = nullptr;
  std::vector<const GeTensor*> const_inputs;  ///< per input: the Const value feeding it
  const folding::HostKernel* host = nullptr;
  /// Control flow: the executors of the node's subgraphs, in the order of its subgraph names.
  std::vector<std::unique_ptr<GraphExec>> subgraphs;
  std::vector<std::vector<int64_t>> parent_index;  ///< per subgraph, per input: the parent input
  // Kernels prepared for the input shapes seen, most recent first (at most kKernelCacheSize):
  // a shape that comes back finds its primitives made (fused kernels included).
  struct Prepared {
    std::string signature;
    std::unique_ptr<TaskKernel> kernel;
    std::shared_ptr<uint8_t> workspace;
  };
  std::vector<Prepared> prepared;
};

/// Input shapes whose prepared kernels a node keeps: each holds its primitives and, for a
/// convolution or matmul, its packed weights, so the bound trades memory for re-preparation.
constexpr size_t kKernelCacheSize = 4;

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

using Clock = std::chrono::steady_clock;
using TaskMap = std::map<std::string, std::vector<TaskDef>>;

/// One graph (the root or a subgraph) ready to run on Values.
struct GraphExec {
  ComputeGraphPtr graph;
  int threads = 1;
  std::vector<NodeExec> nodes;
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<int64_t> parent_index;  ///< per input: _parent_node_index (subgraphs), else -1
  int net_output = -1;

  Status Build(const TaskMap& tasks, const EngineManager& engines);
  Status Load(NodeExec& exec, const std::string& signature);
  /// Kernels prepared and prepared kernels found again, here and in nested subgraphs.
  int64_t kernel_loads = 0;
  int64_t cache_hits = 0;
  void AddKernelStats(int64_t& loads, int64_t& hits) const {
    loads += kernel_loads;
    hits += cache_hits;
    for (const NodeExec& n : nodes) {
      for (const auto& sub : n.subgraphs) sub->AddKernelStats(loads, hits);
    }
  }
  Status BindInput(size_t index, const GeTensor& tensor, Value& out) const;
  /// Runs on `inputs` (by Data index) and gives NetOutput's inputs.
  Status RunValues(const std::vector<Value>& inputs, std::vector<Value>& results,
                   std::vector<TaskTiming>* profile, Clock::time_point run_start);
  Status Execute(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 std::vector<TaskTiming>* profile, Clock::time_point run_start);
  Status RunControlFlow(NodeExec& exec, const std::vector<const Value*>& ins,
                        std::vector<Value>& outs, std::vector<TaskTiming>* profile,
                        Clock::time_point run_start);
  /// Runs a subgraph with its inputs taken from `from` (indexed like the parent's inputs).
  using SubgraphRunner =
      std::function<Status(GraphExec&, const std::vector<const Value*>&, std::vector<Value>&)>;
  Status RunLoop(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 const SubgraphRunner& run);
  Status RunScan(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                 const SubgraphRunner& run);
};

NodeExec::NodeExec() = default;
NodeExec::NodeExec(NodeExec&&) noexcept = default;
NodeExec::~NodeExec() = default;

/// The value of a condition or branch index: a scalar-like tensor of any numeric type.
Result<int64_t> ScalarOf(const Node& node, const Value& v) {
  if (v.bytes <= 0) return ParamInvalid(Who(node) + ": its condition is empty");
  const uint8_t* p = v.data.get();
  switch (v.dtype) {
    case DT_BOOL: case DT_UINT8: return static_cast<int64_t>(*p);
    case DT_INT8: return static_cast<int64_t>(*reinterpret_cast<const int8_t*>(p));
    case DT_INT32: { int32_t x; std::memcpy(&x, p, 4); return static_cast<int64_t>(x); }
    case DT_INT64: { int64_t x; std::memcpy(&x, p, 8); return x; }
    case DT_FLOAT: { float x; std::memcpy(&x, p, 4); return static_cast<int64_t>(x != 0.0F); }
    case DT_DOUBLE: { double x; std::memcpy(&x, p, 8); return static_cast<int64_t>(x != 0.0); }
    default:
      return ParamInvalid(Who(node) + ": a condition of type " + TypeUtils::DataTypeToSerialString(v.dtype) +
                          " is not supported");
  }
}

/// A scalar tensor of `dtype` holding `v` (made by the run).
Result<Value> MakeScalar(DataType dtype, int64_t v) {
  Value out;
  out.dtype = dtype;
  out.bytes = dtype == DT_BOOL ? 1 : 8;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a loop counter"));
  if (dtype == DT_BOOL) {
    buffer.get()[0] = v != 0 ? 1 : 0;
  } else {
    std::memcpy(buffer.get(), &v, 8);
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

/// The outer and inner element counts around `axis` and the element size of `v`.
struct AxisSplit {
  int64_t outer = 1, length = 1, inner = 1, element = 0;
};
Result<AxisSplit> SplitAt(const Node& node, const Value& v, int64_t axis) {
  AxisSplit s;
  const int64_t rank = static_cast<int64_t>(v.dims.size());
  if (axis < 0 || axis >= rank) {
    return ParamInvalid(Who(node) + ": axis " + std::to_string(axis) + " is out of range for " +
                        GeShape(v.dims).ToString());
  }
  for (int64_t i = 0; i < axis; ++i) s.outer *= v.dims[static_cast<size_t>(i)];
  s.length = v.dims[static_cast<size_t>(axis)];
  for (int64_t i = axis + 1; i < rank; ++i) s.inner *= v.dims[static_cast<size_t>(i)];
  const int64_t count = s.outer * s.length * s.inner;
  s.element = count > 0 ? v.bytes / count : 0;
  return s;
}

/// Slice `index` of `v` along `axis`, the axis removed (copied out: scan slices are strided).
Result<Value> SliceAxis(const Node& node, const Value& v, int64_t axis, int64_t index) {
  GE_ASSIGN_OR_RETURN(AxisSplit s, SplitAt(node, v, axis));
  Value out;
  out.dtype = v.dtype;
  out.dims = v.dims;
  out.dims.erase(out.dims.begin() + axis);
  out.bytes = s.outer * s.inner * s.element;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a scan slice"));
  const size_t chunk = static_cast<size_t>(s.inner * s.element);
  for (int64_t o = 0; o < s.outer; ++o) {
    std::memcpy(buffer.get() + o * static_cast<int64_t>(chunk),
                v.data.get() + ((o * s.length + index) * s.inner) * s.element, chunk);
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

/// The slices stacked along a new `axis` (all slices must have one dtype and shape).
Result<Value> Stack(const Node& node, const std::vector<Value>& slices, int64_t axis,
                    const std::vector<int64_t>& empty_dims, DataType empty_dtype) {
  Value out;
  if (slices.empty()) {
    out.dtype = empty_dtype;
    out.dims = empty_dims;
    if (out.dims.size() == 1 && out.dims[0] == UNKNOWN_DIM_NUM) out.dims = {};
    for (int64_t& d : out.dims) d = std::max<int64_t>(d, 0);
    axis = std::clamp<int64_t>(axis < 0 ? axis + static_cast<int64_t>(out.dims.size()) + 1 : axis, 0,
                               static_cast<int64_t>(out.dims.size()));
    out.dims.insert(out.dims.begin() + axis, 0);
    GE_ASSIGN_OR_RETURN(out.data, AllocateBuffer(0, "an empty scan output"));
    out.run_owned = true;
    return out;
  }
  const Value& first = slices[0];
  const int64_t rank = static_cast<int64_t>(first.dims.size());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) {
    return ParamInvalid(Who(node) + ": scan output axis " + std::to_string(axis) + " is out of range for " +
                        GeShape(first.dims).ToString());
  }
  for (const Value& v : slices) {
    if (v.dims != first.dims || v.dtype != first.dtype) {
      return ParamInvalid(Who(node) + ": iterations give scan outputs " + GeShape(first.dims).ToString() +
                          " and " + GeShape(v.dims).ToString() + "; they must all have one shape");
    }
  }
  out.dtype = first.dtype;
  out.dims = first.dims;
  out.dims.insert(out.dims.begin() + axis, static_cast<int64_t>(slices.size()));
  out.bytes = first.bytes * static_cast<int64_t>(slices.size());
  GE_ASSIGN_OR_RETURN(std::shared_ptr<uint8_t> buffer, AllocateBuffer(out.bytes, "a scan output"));
  int64_t outer = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= first.dims[static_cast<size_t>(i)];
  const int64_t chunk = outer > 0 ? first.bytes / outer : 0;
  const int64_t n = static_cast<int64_t>(slices.size());
  for (int64_t t = 0; t < n; ++t) {
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(buffer.get() + (o * n + t) * chunk, slices[static_cast<size_t>(t)].data.get() + o * chunk,
                  static_cast<size_t>(chunk));
    }
  }
  out.data = std::move(buffer);
  out.run_owned = true;
  return out;
}

}  // namespace

bool NeedsDynamicExecution(const ComputeGraph& graph) {
  if (!graph.GetAllSubgraphs().empty()) return true;  // control flow runs here
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      if (!IsStatic(op.GetOutputDesc(static_cast<uint32_t>(i)).GetShape())) return true;
    }
  }
  return false;
}

struct DynamicExecutor::Impl {
  GraphExec root;
};

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
      GE_ASSIGN_OR_RETURN(exec.const_value, OpDescUtils::GetConstValue(*node));
    } else if (type == "NetOutput") {
      exec.kind = Kind::kNetOutput;
      net_output = static_cast<int>(nodes.size());
    } else if (type == "If" || type == "Case" || type == "While" || type == "PartitionedCall" ||
               type == "StatefulPartitionedCall" || type == "Loop" || type == "Scan") {
      exec.kind = type == "If" ? Kind::kIf : type == "Case" ? Kind::kCase
                : type == "While" ? Kind::kWhile : type == "Loop" ? Kind::kLoop
                : type == "Scan" ? Kind::kScan : Kind::kCall;
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
        Status built = child->Build(all_tasks, engines);
        if (!built.ok()) return std::move(built).Prefix("subgraph '" + sub->GetName() + "' of " + Who(*node));
        for (size_t i = 0; i < child->parent_index.size(); ++i) {
          if (child->parent_index[i] < 0 || static_cast<size_t>(child->parent_index[i]) >= exec.inputs.size()) {
            return ParamInvalid("subgraph '" + sub->GetName() + "' of " + Who(*node) + ": its input '" +
                                child->inputs[i].name + "' has no valid " + kAttrParentNodeIndex +
                                " (the node has " + std::to_string(exec.inputs.size()) + " inputs)");
          }
        }
        // While's cond gives one boolean; Loop's body gives its condition first.
        const size_t want_outputs = exec.kind == Kind::kWhile && k == 0 ? 1
                                    : exec.kind == Kind::kLoop       ? op.GetOutputsSize() + 1
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
        return ParamInvalid(Who(*node) + " has " + std::to_string(exec.subgraphs.size()) + " subgraph(s)");
      }
      if (exec.kind == Kind::kWhile && exec.inputs.size() != op.GetOutputsSize()) {
        return ParamInvalid(Who(*node) + " has " + std::to_string(exec.inputs.size()) + " inputs and " +
                            std::to_string(op.GetOutputsSize()) + " outputs; a While carries each input to its output");
      }
    } else if (task != task_of.end()) {
      const EngineInfo* engine = engines.GetEngine(task->second->engine);
      if (engine == nullptr || engine->executor == nullptr) {
        return ParamInvalid(Who(*node) + ": its task is for engine " + task->second->engine +
                            (engine == nullptr ? ", which is not loaded" : ", which has no task executor"));
      }
      exec.kind = Kind::kTask;
      exec.task = task->second;
      exec.executor = engine->executor.get();
    } else if (IsOneOf(type, kViewTypes)) {
      exec.kind = Kind::kView;
    } else if (IsOneOf(type, kIdentityTypes)) {
      exec.kind = Kind::kIdentity;
    } else if ((exec.host = folding::FindHostKernel(type)) != nullptr) {
      exec.kind = Kind::kHost;
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
                          exec.node->GetName() + "' has " + std::to_string(data_nodes[i].first) + ")");
    }
    const GeTensorDesc& desc = exec.node->GetOpDescBarePtr()->GetOutputDesc(0);
    inputs.push_back({exec.node->GetName(), desc.GetDataType(), desc.GetShape().GetDims()});
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
      outputs.push_back({name, desc.GetDataType(), desc.GetShape().GetDims()});
    }
  }

  // The Const values feeding each node, now that `nodes` no longer grows (its elements moved
  // while it did, so pointers into it are taken only here).
  for (NodeExec& exec : nodes) {
    exec.const_inputs.clear();
    for (const InputRef& ref : exec.inputs) {
      const bool is_const = ref.producer >= 0 && nodes[static_cast<size_t>(ref.producer)].kind == Kind::kConst;
      exec.const_inputs.push_back(is_const ? &nodes[static_cast<size_t>(ref.producer)].const_value : nullptr);
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
  Result<std::unique_ptr<TaskKernel>> kernel = exec.executor->LoadTask(*exec.task, *exec.node, context);
  if (!kernel.ok()) return Status(kernel.status()).Prefix("loading the task of " + Who(*exec.node));
  made.kernel = std::move(kernel).value();
  const int64_t workspace = made.kernel->WorkspaceBytes();
  if (workspace > 0) {
    GE_ASSIGN_OR_RETURN(made.workspace, AllocateBuffer(workspace, "the workspace of " + Who(*exec.node)));
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
    return ParamInvalid("Run: input '" + want.name + "' must be " +
                        TypeUtils::DataTypeToSerialString(want.dtype) + " " +
                        GeShape(want.dims).ToString() + " (-1: any size), given " +
                        TypeUtils::DataTypeToSerialString(desc.GetDataType()) + " " +
                        desc.GetShape().ToString());
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
          return ParamInvalid(Who(node) + ": output " + std::to_string(i) + " has no input to view");
        }
        const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
        Value& out = outs[i];
        out = *ins[source];
        out.dims = desc.GetShape().GetDims();
        out.dtype = desc.GetDataType();
        GE_ASSIGN_OR_RETURN(out.bytes, BytesOf(node, "output " + std::to_string(i), out.dims, out.dtype));
        if (out.bytes != ins[source]->bytes) {
          return ParamInvalid(Who(node) + ": output " + std::to_string(i) + " " +
                              GeShape(out.dims).ToString() + " (" + std::to_string(out.bytes) +
                              " bytes) cannot view input " + GeShape(ins[source]->dims).ToString() +
                              " (" + std::to_string(ins[source]->bytes) + " bytes)");
        }
      }
      return Status::Ok();
    }
    case Kind::kHost: {
      Result<std::vector<GeTensor>> made = exec.host->fn(op, value_ptrs);
      if (!made.ok()) return Status(made.status()).Prefix("computing " + Who(node) + " on the host");
      if (made->size() != num_outputs) {
        return InternalError(Who(node) + ": the host kernel made " + std::to_string(made->size()) +
                             " outputs, the node has " + std::to_string(num_outputs));
      }
      for (size_t i = 0; i < num_outputs; ++i) {
        auto holder = std::make_shared<GeTensor>(std::move((*made)[i]));
        Value& out = outs[i];
        out.dtype = holder->GetTensorDesc().GetDataType();
        out.dims = holder->GetTensorDesc().GetShape().GetDims();
        out.bytes = static_cast<int64_t>(holder->GetSize());
        out.run_owned = true;
        const uint8_t* p = holder->GetData().data() != nullptr ? holder->GetData().data() : kEmpty;
        out.data = std::shared_ptr<const uint8_t>(holder, p);
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
    GE_ASSIGN_OR_RETURN(buffers[i], AllocateBuffer(bytes, "output " + std::to_string(i) + " of " + Who(node)));
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

Status GraphExec::RunControlFlow(NodeExec& exec, const std::vector<const Value*>& ins,
                                 std::vector<Value>& outs, std::vector<TaskTiming>* profile,
                                 Clock::time_point run_start) {
  const Node& node = *exec.node;
  // A subgraph's inputs are the node's inputs its Data nodes name by _parent_node_index.
  const SubgraphRunner run = [&](GraphExec& sub, const std::vector<const Value*>& from,
                                 std::vector<Value>& results) -> Status {
    std::vector<Value> sub_inputs(sub.parent_index.size());
    for (size_t i = 0; i < sub_inputs.size(); ++i) {
      const Value* v = from[static_cast<size_t>(sub.parent_index[i])];
      if (v == nullptr) {
        return ParamInvalid(Who(node) + ": subgraph '" + sub.graph->GetName() + "' reads input " +
                            std::to_string(sub.parent_index[i]) + ", which is absent");
      }
      sub_inputs[i] = *v;
    }
    Status status = sub.RunValues(sub_inputs, results, profile, run_start);
    if (!status.ok()) return std::move(status).Prefix("in subgraph '" + sub.graph->GetName() + "'");
    return Status::Ok();
  };
  switch (exec.kind) {
    case Kind::kIf:
    case Kind::kCase: {
      if (ins.empty() || ins[0] == nullptr) return ParamInvalid(Who(node) + " has no condition");
      GE_ASSIGN_OR_RETURN(int64_t pick, ScalarOf(node, *ins[0]));
      size_t branch = 0;
      if (exec.kind == Kind::kIf) {
        branch = pick != 0 ? 0 : 1;  // then_branch, else_branch
      } else {
        // GE's Case: an index out of range takes the last branch (the default).
        const int64_t n = static_cast<int64_t>(exec.subgraphs.size());
        branch = static_cast<size_t>(pick < 0 || pick >= n ? n - 1 : pick);
      }
      return run(*exec.subgraphs[branch], ins, outs);
    }
    case Kind::kCall:
      return run(*exec.subgraphs[0], ins, outs);
    case Kind::kWhile: {
      // Loop variables start as the inputs; cond sees them, body replaces them.
      std::vector<Value> vars(ins.size());
      for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i] == nullptr) return ParamInvalid(Who(node) + ": loop variable " + std::to_string(i) + " is absent");
        vars[i] = *ins[i];
      }
      for (;;) {
        std::vector<const Value*> current(vars.size());
        for (size_t i = 0; i < vars.size(); ++i) current[i] = &vars[i];
        std::vector<Value> cond;
        GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], current, cond));
        GE_ASSIGN_OR_RETURN(int64_t go, ScalarOf(node, cond[0]));
        if (go == 0) break;
        std::vector<Value> next;
        GE_RETURN_IF_ERROR(run(*exec.subgraphs[1], current, next));
        for (size_t i = 0; i < vars.size(); ++i) {
          if (next[i].dtype != vars[i].dtype) {
            return ParamInvalid(Who(node) + ": the body turns loop variable " + std::to_string(i) + " from " +
                                TypeUtils::DataTypeToSerialString(vars[i].dtype) + " into " +
                                TypeUtils::DataTypeToSerialString(next[i].dtype));
          }
        }
        vars = std::move(next);
      }
      outs = std::move(vars);
      return Status::Ok();
    }
    case Kind::kLoop:
      return RunLoop(exec, ins, outs, run);
    case Kind::kScan:
      return RunScan(exec, ins, outs, run);
    default:
      return InternalError(Who(node) + " is not a control-flow node");
  }
}

// ONNX Loop: for (i = 0; (no M || i < M) && (no cond || cond); ++i) { cond, v, scans = body(i, cond, v) }.
// The body's inputs are (iteration, cond, v..., captured...) by _parent_node_index; without a cond
// input the body's condition output is ignored (a for loop).
Status GraphExec::RunLoop(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                          const SubgraphRunner& run) {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::optional<int64_t> trips;
  if (!ins.empty() && ins[0] != nullptr) {
    GE_ASSIGN_OR_RETURN(int64_t m, ScalarOf(node, *ins[0]));
    trips = m;
  }
  const bool has_cond = ins.size() > 1 && ins[1] != nullptr;
  int64_t go = 1;
  if (has_cond) {
    GE_ASSIGN_OR_RETURN(go, ScalarOf(node, *ins[1]));
  }
  size_t carried = 0;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    if (op.GetInputNameByIndex(static_cast<uint32_t>(i)).rfind("v_initial", 0) == 0) ++carried;
  }
  std::vector<Value> vars(carried);
  for (size_t k = 0; k < carried; ++k) {
    if (ins[2 + k] == nullptr) return ParamInvalid(Who(node) + ": loop-carried input " + std::to_string(k) + " is absent");
    vars[k] = *ins[2 + k];
  }
  const size_t scans = op.GetOutputsSize() - carried;
  std::vector<std::vector<Value>> scanned(scans);
  GE_ASSIGN_OR_RETURN(Value cond_value, MakeScalar(DT_BOOL, go));
  for (int64_t i = 0; (!trips || i < *trips) && go != 0; ++i) {
    GE_ASSIGN_OR_RETURN(Value iteration, MakeScalar(DT_INT64, i));
    std::vector<const Value*> from(ins.begin(), ins.end());
    from[0] = &iteration;
    from[1] = &cond_value;
    for (size_t k = 0; k < carried; ++k) from[2 + k] = &vars[k];
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    if (has_cond) {
      GE_ASSIGN_OR_RETURN(go, ScalarOf(node, results[0]));
      cond_value = results[0];
    }
    for (size_t k = 0; k < carried; ++k) vars[k] = std::move(results[1 + k]);
    for (size_t k = 0; k < scans; ++k) scanned[k].push_back(std::move(results[1 + carried + k]));
  }
  outs = std::move(vars);
  for (size_t k = 0; k < scans; ++k) {
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(carried + k));
    std::vector<int64_t> slice_dims = desc.GetShape().GetDims();
    if (!slice_dims.empty() && slice_dims[0] != UNKNOWN_DIM_NUM) slice_dims.erase(slice_dims.begin());
    GE_ASSIGN_OR_RETURN(Value stacked, Stack(node, scanned[k], 0, slice_dims, desc.GetDataType()));
    outs.push_back(std::move(stacked));
  }
  return Status::Ok();
}

// ONNX Scan (opset 9+): N states and M scan inputs; iteration t gives the body the states and
// slice t of each scan input (reversed where scan_input_directions says 1); the body returns new
// states and K scan-output slices, stacked along scan_output_axes (reversed where asked).
Status GraphExec::RunScan(NodeExec& exec, const std::vector<const Value*>& ins, std::vector<Value>& outs,
                          const SubgraphRunner& run) {
  const Node& node = *exec.node;
  const OpDesc& op = *node.GetOpDescBarePtr();
  int64_t m = 0;
  AttrUtils::GetInt(op, "num_scan_inputs", m);
  size_t n_inputs = 0;
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    if (op.GetInputNameByIndex(static_cast<uint32_t>(i)).rfind("initial_state_and_scan_inputs", 0) == 0) ++n_inputs;
  }
  if (m < 1 || static_cast<size_t>(m) > n_inputs) {
    return ParamInvalid(Who(node) + ": num_scan_inputs " + std::to_string(m) + " does not fit its " +
                        std::to_string(n_inputs) + " inputs");
  }
  const size_t scans_in = static_cast<size_t>(m);
  const size_t states = n_inputs - scans_in;
  std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
  AttrUtils::GetListInt(op, "scan_input_axes", in_axes);
  AttrUtils::GetListInt(op, "scan_input_directions", in_dirs);
  AttrUtils::GetListInt(op, "scan_output_axes", out_axes);
  AttrUtils::GetListInt(op, "scan_output_directions", out_dirs);
  int64_t length = -1;
  std::vector<int64_t> axes(scans_in, 0);
  for (size_t j = 0; j < scans_in; ++j) {
    const Value* v = ins[states + j];
    if (v == nullptr) return ParamInvalid(Who(node) + ": scan input " + std::to_string(j) + " is absent");
    int64_t axis = j < in_axes.size() ? in_axes[j] : 0;
    if (axis < 0) axis += static_cast<int64_t>(v->dims.size());
    if (axis < 0 || static_cast<size_t>(axis) >= v->dims.size()) {
      return ParamInvalid(Who(node) + ": scan input " + std::to_string(j) + " " + GeShape(v->dims).ToString() +
                          " has no axis " + std::to_string(j < in_axes.size() ? in_axes[j] : 0));
    }
    axes[j] = axis;
    const int64_t len = v->dims[static_cast<size_t>(axis)];
    if (length >= 0 && len != length) {
      return ParamInvalid(Who(node) + ": scan inputs have " + std::to_string(length) + " and " +
                          std::to_string(len) + " iterations along their scan axes");
    }
    length = len;
  }
  std::vector<Value> vars(states);
  for (size_t k = 0; k < states; ++k) {
    if (ins[k] == nullptr) return ParamInvalid(Who(node) + ": state " + std::to_string(k) + " is absent");
    vars[k] = *ins[k];
  }
  const size_t scans_out = op.GetOutputsSize() - states;
  std::vector<std::vector<Value>> scanned(scans_out);
  for (int64_t t = 0; t < length; ++t) {
    std::vector<Value> slices(scans_in);
    std::vector<const Value*> from(ins.begin(), ins.end());
    for (size_t k = 0; k < states; ++k) from[k] = &vars[k];
    for (size_t j = 0; j < scans_in; ++j) {
      const bool reverse = j < in_dirs.size() && in_dirs[j] == 1;
      GE_ASSIGN_OR_RETURN(slices[j], SliceAxis(node, *ins[states + j], axes[j], reverse ? length - 1 - t : t));
      from[states + j] = &slices[j];
    }
    std::vector<Value> results;
    GE_RETURN_IF_ERROR(run(*exec.subgraphs[0], from, results));
    for (size_t k = 0; k < states; ++k) vars[k] = std::move(results[k]);
    for (size_t k = 0; k < scans_out; ++k) scanned[k].push_back(std::move(results[states + k]));
  }
  outs = std::move(vars);
  for (size_t k = 0; k < scans_out; ++k) {
    if (k < out_dirs.size() && out_dirs[k] == 1) std::reverse(scanned[k].begin(), scanned[k].end());
    const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(states + k));
    GE_ASSIGN_OR_RETURN(Value stacked, Stack(node, scanned[k], k < out_axes.size() ? out_axes[k] : 0,
                                             {}, desc.GetDataType()));
    outs.push_back(std::move(stacked));
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
        return InternalError(Who(*exec.node) + " reads output " + std::to_string(ref.output) + " of '" +
                             nodes[static_cast<size_t>(ref.producer)].node->GetName() +
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
      if (--left == 0) values[static_cast<size_t>(ref.producer)][static_cast<size_t>(ref.output)].data.reset();
    }
  }
  return Status::Ok();
}

DynamicExecutor::DynamicExecutor() : impl_(std::make_unique<Impl>()) {}
DynamicExecutor::~DynamicExecutor() {
  if (impl_ != nullptr) impl_->root.nodes.clear();  // kernels before the graph they point into
}

Result<std::unique_ptr<DynamicExecutor>> DynamicExecutor::Create(
    ComputeGraphPtr graph, const std::map<std::string, std::vector<TaskDef>>& tasks,
    const EngineManager& engines, int threads) {
  if (graph == nullptr) return ParamInvalid("DynamicExecutor: no graph");
  std::unique_ptr<DynamicExecutor> executor(new DynamicExecutor());
  GraphExec& root = executor->impl_->root;
  root.graph = std::move(graph);
  root.threads = threads;
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
    return ParamInvalid("Run: the model takes " + std::to_string(root.inputs.size()) + " input(s), " +
                        std::to_string(inputs.size()) + " given");
  }
  const Clock::time_point run_start = Clock::now();
  if (profile != nullptr) profile->clear();
  std::vector<Value> bound(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) GE_RETURN_IF_ERROR(root.BindInput(i, inputs[i], bound[i]));
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
