// From ge::Graph's operators to a ComputeGraph: operators are collected by following inputs back
// from the graph's outputs, targets and inputs (producers first), each becomes a node with a copy
// of its OpDesc, links become edges, the outputs feed a NetOutput, targets get a control edge to
// it, and subgraph builders are run and their graphs attached to the node.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ge/graph/graph_builder.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/node_utils.h"
#include "ge/ops/op_registry.h"
#include "graph_impl.h"
#include "operator_impl.h"

namespace ge {
namespace {

std::string GraphWhere(const GraphImpl& graph) { return "graph '" + graph.name + "'"; }

// The producers of `op`: its inputs in input order, then its control inputs.
std::vector<OperatorImplPtr> Producers(const OperatorImpl& op) {
  std::vector<OperatorImplPtr> producers;
  for (const std::string& name : op.desc->GetAllInputNames()) {
    auto it = op.inputs.find(name);
    if (it != op.inputs.end()) producers.push_back(it->second.src);
  }
  for (const auto& [name, link] : op.inputs) {
    if (op.desc->GetInputIndexByName(name) < 0) producers.push_back(link.src);
  }
  for (const OperatorImplPtr& c : op.control_inputs) producers.push_back(c);
  return producers;
}

// The parent input a subgraph's Data `index` stands for. For If and Case, input 0 (the condition
// or branch index) is not passed to the branches, so Data i is input i + 1; For's body reads the
// loop counter where input 0 (start) is and its loop variables from input 3 on; the others pass
// their inputs through in order.
int64_t ParentInputOf(const std::string& type, int64_t index) {
  switch (OpRegistry::Instance().TraitsOf(type).control_flow) {
    case ControlFlowKind::kIf:
    case ControlFlowKind::kCase:
      return index + 1;
    case ControlFlowKind::kFor:
      return index == 0 ? 0 : index + 2;
    default:
      return index;
  }
}

// A Data takes the desc of whichever of its input and output the caller set (GE's Data spells
// them x and y, AippData data and out).
Status FixDataDescs(const OperatorImpl& op, OpDesc& desc) {
  const std::string input = desc.GetAllInputsSize() > 0 ? desc.GetInputNameByIndex(0) : "";
  const std::string output = desc.GetOutputsSize() > 0 ? desc.GetOutputNameByIndex(0) : "";
  const bool input_set = !input.empty() && op.updated_inputs.count(input) != 0;
  const bool output_set = !output.empty() && op.updated_outputs.count(output) != 0;
  if (!input_set && !output_set) {
    return ParamInvalid(op.Where() + " has no tensor desc: give its shape and data type with " +
                        "update_output_desc_" + output +
                        (input.empty() ? "" : " or update_input_desc_" + input));
  }
  if (input_set && !output_set) GE_RETURN_IF_ERROR(desc.UpdateOutputDesc(0, desc.GetInputDesc(0)));
  if (output_set && !input.empty() && !input_set) {
    GE_RETURN_IF_ERROR(desc.UpdateInputDesc(0, desc.GetOutputDesc(0)));
  }
  return Status::Ok();
}

// Runs the subgraph builders of `op` (now `node`) and registers their graphs on `root`.
Status AttachSubgraphs(const ComputeGraphPtr& root, const NodePtr& node, const OperatorImpl& op) {
  auto proto = OpRegistry::Instance().Find(op.desc->GetType());
  if (proto == nullptr) return Status::Ok();
  OpDesc& desc = *node->GetOpDesc();
  uint32_t slot = 0;
  for (const OpSubgraphDef& def : proto->subgraphs()) {
    auto it = op.subgraphs.find(def.name);
    const size_t count =
        def.kind == kStatic ? 1 : (it == op.subgraphs.end() ? 0 : it->second.size());
    for (size_t i = 0; i < count; ++i, ++slot) {
      std::string which = "subgraph '" + def.name + "'";
      if (def.kind != kStatic) {
        which += ' ';
        which += std::to_string(i);
      }
      const bool has = it != op.subgraphs.end() && i < it->second.size() && it->second[i];
      if (!has) {
        return ParamInvalid(op.Where() + ": " + which + " has no builder (set it with " +
                            (def.kind == kStatic ? "set_subgraph_builder_" + def.name
                                                 : "set_dynamic_subgraph_builder_" + def.name) +
                            ")");
      }
      Graph built = it->second[i]();
      Result<ComputeGraphPtr> made = built.ToComputeGraph();
      if (!made.ok()) return Status(made.status()).Prefix(op.Where() + ": " + which);
      ComputeGraphPtr sub = *made;
      // Checked as each level is attached, so the finished graph is within the bound too.
      Status nesting = GraphVerifier::VerifySubgraphDepth(*sub, /*level=*/1);
      if (!nesting.ok()) return std::move(nesting).Prefix(op.Where() + ": " + which);
      std::string name = sub->GetName();
      for (int n = 1; name.empty() || name == root->GetName() || root->GetSubgraph(name) != nullptr;
           ++n) {
        name = desc.GetName() + "_" + def.name;
        if (count > 1) {
          name += '_';
          name += std::to_string(i);
        }
        if (n > 1) {
          name += '_';
          name += std::to_string(n);
        }
      }
      sub->SetName(name);
      for (const NodePtr& data : sub->GetDirectNode()) {
        if (!IsDataType(data->GetType()) || data->GetOpDesc()->HasAttr(kAttrParentNodeIndex)) {
          continue;
        }
        int64_t index = 0;
        (void)AttrUtils::GetInt(data->GetOpDesc(), kAttrDataIndex, index);
        AttrUtils::SetInt(data->GetOpDesc(), kAttrParentNodeIndex,
                          ParentInputOf(desc.GetType(), index));
      }
      std::vector<ComputeGraphPtr> nested = sub->GetAllSubgraphs();
      sub->ClearAllSubgraphs();
      sub->SetParentNode(node);
      sub->SetParentGraph(node->GetOwnerComputeGraph());
      GE_RETURN_IF_ERROR(root->AddSubgraph(name, sub));
      for (const ComputeGraphPtr& inner : nested) {
        GE_RETURN_IF_ERROR(root->AddSubgraph(inner->GetName(), inner));
      }
      GE_RETURN_IF_ERROR(desc.SetSubgraphInstanceName(slot, name));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<OperatorImplPtr>> CollectOperators(const GraphImpl& graph) {
  std::vector<OperatorImplPtr> roots;
  auto add_root = [&](const Operator& op, const std::string& role) -> Status {
    if (op.IsEmpty())
      return ParamInvalid(GraphWhere(graph) + ": " + role + " is an empty Operator");
    roots.push_back(op.GetImpl());
    return Status::Ok();
  };
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(add_root(graph.inputs[i], "input " + std::to_string(i)));
  }
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    GE_RETURN_IF_ERROR(add_root(graph.outputs[i].op, "output " + std::to_string(i)));
  }
  for (size_t i = 0; i < graph.targets.size(); ++i) {
    GE_RETURN_IF_ERROR(add_root(graph.targets[i], "target " + std::to_string(i)));
  }
  for (const Operator& op : graph.added) GE_RETURN_IF_ERROR(add_root(op, "an added operator"));

  // Depth-first, producers first, without recursion (graphs can be thousands of operators deep).
  enum : uint8_t { kOpen = 1, kDone = 2 };
  std::unordered_map<const OperatorImpl*, uint8_t> state;
  struct Frame {
    OperatorImplPtr op;
    std::vector<OperatorImplPtr> producers;
    size_t next = 0;
  };
  std::vector<OperatorImplPtr> order;
  for (const OperatorImplPtr& root : roots) {
    if (state[root.get()] == kDone) continue;
    std::vector<Frame> stack;
    stack.push_back({root, Producers(*root)});
    state[root.get()] = kOpen;
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next == top.producers.size()) {
        state[top.op.get()] = kDone;
        order.push_back(top.op);
        stack.pop_back();
        continue;
      }
      OperatorImplPtr producer = top.producers[top.next++];
      const uint8_t seen = state[producer.get()];
      if (seen == kDone) continue;
      if (seen == kOpen) {
        std::string cycle;
        bool on = false;
        for (const Frame& f : stack) {
          on = on || f.op == producer;
          if (on) cycle += "'" + f.op->desc->GetName() + "' -> ";
        }
        return ParamInvalid(GraphWhere(graph) + ": operators " + cycle + "'" +
                            producer->desc->GetName() + "' form a cycle");
      }
      state[producer.get()] = kOpen;
      stack.push_back({producer, Producers(*producer)});
    }
  }
  return order;
}

Result<ComputeGraphPtr> BuildComputeGraph(const GraphImpl& graph,
                                          const std::vector<OperatorImplPtr>& ops) {
  const std::string where = GraphWhere(graph);
  if (graph.name.empty()) return ParamInvalid("a graph needs a name: Graph(\"name\")");
  if (graph.outputs.empty() && graph.targets.empty()) {
    return ParamInvalid(where + " has no outputs: call SetOutputs (or SetTargets) first");
  }
  std::map<std::string, const OperatorImpl*> names;
  for (const OperatorImplPtr& op : ops) {
    if (!op->errors.empty()) {
      std::string more =
          op->errors.size() > 1 ? " (and " + std::to_string(op->errors.size() - 1) + " more)" : "";
      return ParamInvalid(where + ": " + op->Where() + ": " + op->errors.front() + more);
    }
    auto [it, fresh] = names.emplace(op->desc->GetName(), op.get());
    if (!fresh) {
      return ParamInvalid(where + ": two operators are named '" + op->desc->GetName() + "' (a " +
                          it->second->desc->GetType() + " and a " + op->desc->GetType() +
                          "); names must be unique");
    }
  }
  std::map<const OperatorImpl*, int64_t> data_index;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const OperatorImpl* input = graph.inputs[i].GetImpl().get();
    if (!IsDataType(input->desc->GetType())) {
      return ParamInvalid(where + ": input " + std::to_string(i) + " is " + input->Where() +
                          ", not a Data");
    }
    if (!data_index.emplace(input, static_cast<int64_t>(i)).second) {
      return ParamInvalid(where + ": " + input->Where() + " is listed twice in SetInputs");
    }
  }
  auto next_index = static_cast<int64_t>(graph.inputs.size());
  for (const OperatorImplPtr& op : ops) {
    if (IsDataType(op->desc->GetType()) && data_index.count(op.get()) == 0) {
      data_index[op.get()] = next_index++;
    }
  }

  GraphBuilder builder(graph.name);
  std::unordered_map<const OperatorImpl*, NodePtr> nodes;
  for (const OperatorImplPtr& op : ops) {
    auto desc = std::make_shared<OpDesc>(*op->desc);
    if (auto it = data_index.find(op.get()); it != data_index.end()) {
      AttrUtils::SetInt(desc, kAttrDataIndex, it->second);
      GE_RETURN_IF_ERROR(FixDataDescs(*op, *desc).Prefix(where));
    }
    // A Const's output is its value's desc (so a graph written to a file reads right before
    // inference), unless the caller gave one.
    if (IsConstType(desc->GetType()) && op->updated_outputs.empty()) {
      if (const auto* value = AttrUtils::GetPtr<GeTensor>(*desc, "value"); value != nullptr) {
        GE_RETURN_IF_ERROR(desc->UpdateOutputDesc(0, value->GetTensorDesc()));
      }
    }
    std::vector<NodeOutput> inputs(desc->GetAllInputsSize(), nullptr);
    for (const auto& [name, link] : op->inputs) {
      const int32_t index = desc->GetInputIndexByName(name);
      if (index < 0) {
        return ParamInvalid(where + ": " + op->Where() + ": input '" + name +
                            "' was linked but no longer exists (dynamic inputs were changed)");
      }
      inputs[static_cast<size_t>(index)] = NodeOutput(nodes.at(link.src.get()), link.src_index);
    }
    Result<NodePtr> node = builder.AddNode(desc, inputs);
    if (!node.ok()) return Status(node.status()).Prefix(where);
    nodes[op.get()] = *node;
  }
  for (const OperatorImplPtr& op : ops) {
    for (const OperatorImplPtr& control : op->control_inputs) {
      GE_RETURN_IF_ERROR(builder.AddControlEdge(nodes.at(control.get()), nodes.at(op.get())));
    }
  }

  std::vector<NodeOutput> outputs;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    const GraphImpl::Output& out = graph.outputs[i];
    const OperatorImpl& op = *out.op.GetImpl();
    int64_t index = out.index;
    if (!out.name.empty()) index = op.desc->GetOutputIndexByName(out.name);
    if (index < 0 || static_cast<uint64_t>(index) >= op.desc->GetOutputsSize()) {
      return ParamInvalid(where + ": output " + std::to_string(i) + " is " +
                          (out.name.empty() ? "output " + std::to_string(out.index)
                                            : "an output named '" + out.name + "'") +
                          " of " + op.Where() + ", which has " +
                          std::to_string(op.desc->GetOutputsSize()) + " outputs");
    }
    outputs.emplace_back(nodes.at(&op), static_cast<int32_t>(index));
  }
  Result<NodePtr> net_output = builder.AddNetOutput(outputs);
  if (!net_output.ok()) return Status(net_output.status()).Prefix(where);
  for (const Operator& target : graph.targets) {
    GE_RETURN_IF_ERROR(builder.AddControlEdge(nodes.at(target.GetImpl().get()), *net_output));
  }

  const ComputeGraphPtr& root = builder.GetGraph();
  for (const OperatorImplPtr& op : ops) {
    if (!op->subgraphs.empty() || !op->desc->GetSubgraphIrNames().empty()) {
      GE_RETURN_IF_ERROR(AttachSubgraphs(root, nodes.at(op.get()), *op).Prefix(where));
    }
  }
  GE_RETURN_IF_ERROR(root->TopologicalSorting().Prefix(where));
  return root;
}

}  // namespace ge
