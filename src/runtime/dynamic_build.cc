// Building the dynamic executor of a graph (GraphExec::Build), once at load: how each node runs
// (its task, a view or identity of an input that the runtime makes itself, or control flow
// through nested executors of its subgraphs), how many readers each output has (a run frees its
// buffer after the last), and the graph's inputs and outputs. GraphExec::Load prepares a task's
// kernel for given input dtypes and dims, keeping the last few: here at load for the shapes the
// compiler knew, during a run (dynamic_executor.cc) when they change. And the two questions
// loading asks (dynamic_executor.h): whether a graph needs this executor, and what an input is.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "dynamic_graph_exec.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/composite_value.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::runtime_internal {
namespace dynamic {
namespace {

// The executor's kind of a control-flow operator, whatever GE spelling its type has.
Kind KindOf(ControlFlowKind flow) {
  switch (flow) {
    case ControlFlowKind::kIf:
      return Kind::kIf;
    case ControlFlowKind::kCase:
      return Kind::kCase;
    case ControlFlowKind::kWhile:
      return Kind::kWhile;
    case ControlFlowKind::kFor:
      return Kind::kFor;
    case ControlFlowKind::kLoop:
      return Kind::kLoop;
    case ControlFlowKind::kScan:
      return Kind::kScan;
    case ControlFlowKind::kSequenceMap:
      return Kind::kSequenceMap;
    case ControlFlowKind::kCall:
    case ControlFlowKind::kNone:
      break;
  }
  return Kind::kCall;
}

/// How the runtime itself runs an operator that aliases its inputs, from its prototype's traits:
/// kView (output 0 is input 0 under another shape) or kIdentity (output i is input i); nothing
/// for other types.
std::optional<Kind> AliasKind(const std::string& type) {
  const OpTraits traits = OpRegistry::Instance().TraitsOf(type);
  if (traits.view_of_input == 0) return Kind::kView;
  if (traits.pass_through) return Kind::kIdentity;
  return std::nullopt;
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
    for (int64_t d : desc.GetShape().GetDims()) {
      key += ',';
      key += std::to_string(d);
    }
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
    if (type == kTypeData || type == kTypeRefData) {
      exec.kind = Kind::kData;
      exec.data_index = static_cast<int64_t>(data_nodes.size());
      AttrUtils::GetInt(op, "index", exec.data_index);
      data_nodes.emplace_back(exec.data_index, static_cast<int>(nodes.size()));
    } else if (type == kTypeVariable) {
      auto found = variables == nullptr ? std::map<std::string, GeTensor>::const_iterator()
                                        : variables->find(node->GetName());
      if (variables == nullptr || found == variables->end()) {
        return ParamInvalid(Who(*node) +
                            ": variables are kept only in the model's root graph, "
                            "not in a subgraph; move it to the root graph");
      }
      exec.kind = Kind::kVariable;
      exec.const_value = found->second;  // shares the bytes
      if (exec.const_value.GetTensorDesc().GetDataType() == DT_STRING) {
        return ParamInvalid(Who(*node) +
                            ": string variables are not supported (a string's "
                            "bytes live only as long as the run that made them)");
      }
    } else if (IsConstType(type)) {
      exec.kind = Kind::kConst;
      GE_ASSIGN_OR_RETURN(exec.const_value, OpDescUtils::GetCheckedConstValue(*node));
      if (exec.const_value.GetTensorDesc().GetDataType() == DT_STRING) {
        GE_ASSIGN_OR_RETURN(const std::vector<std::string_view> values,
                            StringsOf(exec.const_value, "the value of " + Who(*node)));
        exec.const_heads.resize(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
          WriteString(exec.const_heads.data(), static_cast<int64_t>(i), values[i]);
        }
      }
    } else if (type == kTypeNetOutput) {
      exec.kind = Kind::kNetOutput;
      net_output = static_cast<int>(nodes.size());
    } else if (const ControlFlowKind flow = OpRegistry::Instance().TraitsOf(type).control_flow;
               flow != ControlFlowKind::kNone) {
      exec.kind = KindOf(flow);
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
        child->data_flow = data_flow;
        child->strings = strings;
        child->pool = pool;
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
    } else if (IsCompositeOp(type)) {
      exec.kind = Kind::kComposite;
    } else if (task != task_of.end()) {
      const EngineInfo* engine = engines.GetEngine(task->second->engine);
      if (engine == nullptr || engine->executor == nullptr) {
        return ParamInvalid(
            Who(*node) + ": its task is for engine " + task->second->engine +
            (engine == nullptr ? ", which is not loaded" : ", which has no task executor"));
      }
      exec.kind = Kind::kTask;
      exec.updates_input = OpRegistry::Instance().TraitsOf(type).updates_input;
      exec.task = task->second;
      exec.executor = engine->executor.get();
    } else if (std::optional<Kind> alias = AliasKind(type)) {
      exec.kind = *alias;
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
    const NodeExec& sink = nodes[static_cast<size_t>(net_output)];
    for (size_t i = 0; i < sink.inputs.size(); ++i) {
      const InputRef& ref = sink.inputs[i];
      if (ref.producer < 0) continue;
      const OpDesc& producer = *nodes[static_cast<size_t>(ref.producer)].node->GetOpDescBarePtr();
      outputs.push_back(GraphOutputInfo(
          producer.GetOutputDesc(static_cast<uint32_t>(ref.output)),
          sink.node->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(i)), outputs.size()));
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
  context.data_flow = data_flow;
  context.strings = strings;
  context.memory_limit = max_tensor_bytes;
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

}  // namespace dynamic

namespace {

// kAttrSymbolicDims of the dims of `desc` known only at run time; empty when none has a name.
std::vector<std::string> DimNames(const GeTensorDesc& desc) {
  std::vector<std::string> names;
  if (!desc.GetShape().IsUnknownShape() || !AttrUtils::GetListStr(desc, kAttrSymbolicDims, names)) {
    return {};
  }
  names.resize(desc.GetShape().GetDimNum());
  bool any = false;
  for (size_t i = 0; i < names.size(); ++i) {
    if (desc.GetShape().GetDim(i) >= 0) names[i].clear();
    any = any || !names[i].empty();
  }
  return any ? names : std::vector<std::string>{};
}

}  // namespace

IoInfo GraphOutputInfo(const GeTensorDesc& desc, const GeTensorDesc& named, size_t index) {
  IoInfo info;
  info.name = !named.GetName().empty()  ? named.GetName()
              : !desc.GetName().empty() ? desc.GetName()
                                        : "output_" + std::to_string(index);
  info.dtype = desc.GetDataType();
  info.dims = desc.GetShape().GetDims();
  info.dim_names = DimNames(desc);
  if (info.dtype == DT_VARIANT) (void)AttrUtils::GetStr(desc, kAttrValueType, info.value_type);
  return info;
}

Result<IoInfo> GraphInputInfo(const Node& data) {
  const OpDesc& op = *data.GetOpDescBarePtr();
  const GeTensorDesc& desc = op.GetOutputDesc(0);
  IoInfo info;
  info.name = data.GetName();
  info.dtype = desc.GetDataType();
  info.dims = desc.GetShape().GetDims();
  info.dim_names = DimNames(desc);
  if (info.dtype == DT_VARIANT) (void)AttrUtils::GetStr(desc, kAttrValueType, info.value_type);
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

bool NeedsDynamicExecution(const ComputeGraph& graph) {
  if (!graph.GetAllSubgraphs().empty()) return true;  // control flow runs here
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    // The sequence and optional operators run here (OptionalGetElement of a plain tensor too).
    if (dynamic::IsCompositeOp(op.GetType())) return true;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
      if (!dynamic::IsStatic(desc.GetShape())) return true;
      // A string's bytes are sized by its content, which a static plan cannot know: they live in
      // the run's StringStore, which only this executor keeps.
      if (desc.GetDataType() == DT_STRING) return true;
      // Sequences and optionals are kept as the tensors they hold, which only it can do.
      if (desc.GetDataType() == DT_VARIANT) return true;
    }
  }
  return false;
}

}  // namespace ge::runtime_internal
