// CompilePipeline (ge/compiler/pipeline_compile.h): optimize whole, cut the order by the cost
// model, compile each stage on its own.
#include "ge/compiler/pipeline_compile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/cost_model.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge {
namespace {

// A value of the graph: output `port` of `producer` (a Data node's is the model input itself).
struct Value {
  std::string name;
  NodePtr producer;  ///< in the optimized whole graph
  int port = 0;
  int producer_stage = -1;  ///< -1: a model input
  int last_stage = -1;      ///< the last stage that reads it; `stages` when it is a model output
};

std::string ValueName(const Node& producer, int port) {
  if (producer.GetType() == kTypeData) return producer.GetName();
  return producer.GetName() + ":" + std::to_string(port);
}

bool IsWeight(const Node& node) {
  return node.GetType() == kTypeConst || node.GetType() == "Constant";
}

// The predicted time of `node` on `threads` threads, by the first engine that takes it.
double PredictNode(const Node& node, const EngineManager& engines, const MachineProfile& machine,
                   int threads) {
  const OpDescPtr& op = node.GetOpDesc();
  for (const EngineInfo& engine : engines.GetEngines()) {
    if (engine.store == nullptr) continue;
    std::string reason;
    if (!engine.store->CheckSupported(op, reason)) continue;
    const std::optional<OpWork> work = engine.store->WorkOf(*op);
    return work ? PredictMicros(*work, threads, machine) : 0.0;
  }
  return 0.0;
}

// Where to cut `cost` (one entry per node of the order) into `stages` runs: the index of the
// first node of each stage after the first. `live[p]` is the bytes live across a cut before
// node p. Each cut lies within 15% of a stage's share of the total from the k-th equal share,
// where the fewest bytes are live (the nearest to the share among equals); when no place is
// that close, the nearest. Every stage keeps at least one node.
std::vector<size_t> ChooseCuts(const std::vector<double>& cost, const std::vector<double>& live,
                               int stages) {
  const size_t n = cost.size();
  std::vector<double> before(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) before[i + 1] = before[i] + cost[i];
  const double total = before[n];
  const double window = 0.15 * total / stages;
  std::vector<size_t> cuts;
  size_t earliest = 1;
  for (int k = 1; k < stages; ++k) {
    const double target = total * k / stages;
    const size_t latest = n - static_cast<size_t>(stages - k);
    size_t best = earliest;
    for (size_t p = earliest; p <= latest; ++p) {
      const double distance = std::fabs(before[p] - target);
      const double best_distance = std::fabs(before[best] - target);
      const bool inside = distance <= window;
      const bool best_inside = best_distance <= window;
      const bool fewer_bytes =
          live[p] < live[best] || (live[p] == live[best] && distance < best_distance);
      const bool nearer = !best_inside && distance < best_distance;
      if ((inside && (!best_inside || fewer_bytes)) || (!inside && nearer)) best = p;
    }
    cuts.push_back(best);
    earliest = best + 1;
  }
  return cuts;
}

GeTensorDesc PlainDesc(const GeTensorDesc& from) {
  GeTensorDesc desc(from.GetShape(), FORMAT_ND, from.GetDataType());
  desc.SetOriginShape(from.GetShape());
  desc.SetOriginFormat(FORMAT_ND);
  return desc;
}

// Stage `s` of `whole` as a graph of its own: a copy without the other stages' nodes, with a
// Data node per value it reads from elsewhere and a NetOutput over `outputs`.
Result<ComputeGraphPtr> StageGraph(const ComputeGraphPtr& whole, int s,
                                   const std::unordered_map<std::string, int>& stage_of,
                                   const std::map<std::string, Value>& values,
                                   const std::vector<std::string>& inputs,
                                   const std::vector<std::string>& outputs) {
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(whole));
  copy->SetName(whole->GetName() + "_stage" + std::to_string(s));
  auto kept = [&](const Node& node) {
    if (node.GetType() == kTypeData || node.GetType() == kTypeNetOutput) return false;
    if (IsWeight(node)) {
      for (const NodePtr& reader : node.GetOutDataNodes()) {
        auto found = stage_of.find(reader->GetName());
        if (found != stage_of.end() && found->second == s) return true;
      }
      return false;
    }
    auto found = stage_of.find(node.GetName());
    return found != stage_of.end() && found->second == s;
  };
  // The edges into the stage from outside it, by the value they carry.
  std::map<std::string, std::vector<InDataAnchorPtr>> readers;
  std::map<std::string, NodePtr> producers;  // in the copy, for the stage's outputs
  std::vector<NodePtr> drop;
  for (const NodePtr& node : copy->GetDirectNode()) {
    if (!kept(*node)) {
      drop.push_back(node);
      continue;
    }
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      const OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) continue;
      const NodePtr producer = peer->GetOwnerNode();
      if (kept(*producer)) continue;
      readers[ValueName(*producer, peer->GetIdx())].push_back(in);
    }
    for (const OutDataAnchorPtr& out : node->GetAllOutDataAnchors()) {
      producers.emplace(ValueName(*node, out->GetIdx()), node);
    }
  }
  for (const NodePtr& node : drop) {
    for (const std::string& sub : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (!sub.empty()) copy->RemoveSubgraph(sub);
    }
    GE_RETURN_IF_ERROR(GraphUtils::RemoveNodeWithoutRelink(copy, node));
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Value& value = values.at(inputs[k]);
    const GeTensorDesc desc = PlainDesc(
        value.producer->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(value.port)));
    auto op = std::make_shared<OpDesc>("stage_input_" + std::to_string(k), kTypeData);
    GE_RETURN_IF_ERROR(op->AddInputDesc("x", desc));
    GE_RETURN_IF_ERROR(op->AddOutputDesc("y", desc));
    (void)AttrUtils::SetInt(op, kAttrDataIndex, static_cast<int64_t>(k));
    (void)AttrUtils::SetStr(op, kAttrPipelineTensor, inputs[k]);
    GE_ASSIGN_OR_RETURN(NodePtr data, copy->AddNode(op));
    for (const InDataAnchorPtr& in : readers[inputs[k]]) {
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(data->GetOutDataAnchor(0), in));
    }
  }
  auto net_output = std::make_shared<OpDesc>("stage_output", kTypeNetOutput);
  (void)AttrUtils::SetListStr(net_output, kAttrPipelineTensors, outputs);
  std::vector<std::pair<NodePtr, int32_t>> out_info;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Value& value = values.at(outputs[k]);
    auto found = producers.find(outputs[k]);
    if (found == producers.end()) {
      return InternalError("stage " + std::to_string(s) + " does not make '" + outputs[k] + "'");
    }
    GE_RETURN_IF_ERROR(net_output->AddInputDesc(
        "x" + std::to_string(k),
        found->second->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(value.port))));
    out_info.emplace_back(found->second, value.port);
  }
  GE_ASSIGN_OR_RETURN(NodePtr sink, copy->AddNode(net_output));
  for (size_t k = 0; k < out_info.size(); ++k) {
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(out_info[k].first->GetOutDataAnchor(out_info[k].second),
                                           sink->GetInDataAnchor(static_cast<int>(k))));
  }
  copy->SetGraphOutNodesInfo(std::move(out_info));
  return copy;
}

}  // namespace

Result<PipelineModel> CompilePipeline(const std::map<std::string, std::string>& options,
                                      const ComputeGraphPtr& graph, int stages,
                                      const Compiler::ProgressFn& progress) {
  if (graph == nullptr) return ParamInvalid("CompilePipeline: no graph");
  if (stages < 1 || stages > 64) {
    return ParamInvalid("--pipeline-stages must be from 1 to 64, not " + std::to_string(stages));
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> whole, Compiler::Create(options));
  if (progress) whole->SetProgress(progress);
  Result<CompiledModel> optimized = whole->Compile(graph, "optimize");
  if (!optimized.ok()) return Status(optimized.status()).Prefix("optimizing the whole graph");
  GE_RETURN_IF_ERROR(graph->TopologicalSorting());

  GE_ASSIGN_OR_RETURN(const MachineProfile machine,
                      MachineProfile::ForCompile(whole->options().machine_profile));
  const int threads = std::max(1, machine.cores / stages);

  // The order without weights (they go where they are read) and the model's inputs and output.
  std::vector<NodePtr> order;
  NodePtr sink;
  for (const NodePtr& node : graph->GetDirectNode()) {
    if (node->GetType() == kTypeNetOutput) {
      sink = node;
    } else if (!IsWeight(*node) && node->GetType() != kTypeData) {
      order.push_back(node);
    }
  }
  if (sink == nullptr) return ParamInvalid("graph '" + graph->GetName() + "' has no NetOutput");
  std::unordered_map<const Node*, size_t> position;
  std::vector<double> cost(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    position[order[i].get()] = i;
    const OpDesc& op = *order[i]->GetOpDescBarePtr();
    for (size_t o = 0; o < op.GetOutputsSize(); ++o) {
      const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(o));
      if (desc.GetShape().IsUnknownShape()) {
        return ParamInvalid("node '" + order[i]->GetName() + "' (" + order[i]->GetType() +
                            ") has an output shape known only at run time " +
                            desc.GetShape().ToString() +
                            "; pipeline stages need every shape: give --input-shape");
      }
    }
    cost[i] = PredictNode(*order[i], whole->engines(), machine, threads);
  }

  if (static_cast<int>(order.size()) < stages) {
    return ParamInvalid("graph '" + graph->GetName() + "' has " + std::to_string(order.size()) +
                        " nodes that compute; it cannot be cut into " + std::to_string(stages) +
                        " stages");
  }
  // Bytes live across a cut before each position: a value made before it and read at or after
  // it (the model's outputs are read at the end; its inputs are made before the start).
  std::vector<double> live(order.size() + 1, 0.0);
  auto add_live = [&](size_t from, size_t to, double bytes) {  // cuts from+1 .. to
    for (size_t p = from; p <= to && p < live.size(); ++p) live[p] += bytes;
  };
  for (const NodePtr& node : graph->GetDirectNode()) {
    if (IsWeight(*node) || node->GetType() == kTypeNetOutput) continue;
    const bool input = node->GetType() == kTypeData;
    const size_t made = input ? 0 : position[node.get()] + 1;
    for (const OutDataAnchorPtr& out : node->GetAllOutDataAnchors()) {
      size_t last = 0;
      bool read = false;
      for (const InDataAnchorPtr& in : out->GetPeerInDataAnchors()) {
        const Node& reader = *in->GetOwnerNode();
        last =
            std::max(last, reader.GetType() == kTypeNetOutput ? order.size() : position[&reader]);
        read = true;
      }
      const int64_t bytes = TensorUtils::CalcTensorMemSize(
          node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(out->GetIdx())));
      if (read && bytes > 0 && last >= made) add_live(made, last, static_cast<double>(bytes));
    }
  }
  const std::vector<size_t> cuts = ChooseCuts(cost, live, stages);

  std::unordered_map<std::string, int> stage_of;
  {
    int s = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      while (s < stages - 1 && i >= cuts[static_cast<size_t>(s)]) ++s;
      stage_of[order[i]->GetName()] = s;
    }
  }

  // The values that cross stages, in a deterministic order: the model's inputs, then by
  // producer position and port.
  PipelineModel model;
  std::map<std::string, Value> values;
  std::vector<std::string> value_order;
  auto stage_of_reader = [&](const Node& reader) {
    return reader.GetType() == kTypeNetOutput ? stages : stage_of.at(reader.GetName());
  };
  auto note_value = [&](const NodePtr& producer, const OutDataAnchorPtr& out) {
    Value v;
    v.name = ValueName(*producer, out->GetIdx());
    v.producer = producer;
    v.port = out->GetIdx();
    v.producer_stage = producer->GetType() == kTypeData ? -1 : stage_of.at(producer->GetName());
    for (const InDataAnchorPtr& in : out->GetPeerInDataAnchors()) {
      const Node& reader = *in->GetOwnerNode();
      if (IsWeight(reader)) continue;
      const int reader_stage = stage_of_reader(reader);
      if (reader_stage != v.producer_stage) v.last_stage = std::max(v.last_stage, reader_stage);
    }
    if (v.last_stage < 0 && producer->GetType() != kTypeData) return;  // stays in its stage
    value_order.push_back(v.name);
    values.emplace(v.name, std::move(v));
  };
  for (const NodePtr& data : graph->GetInputNodes()) note_value(data, data->GetOutDataAnchor(0));
  for (const NodePtr& node : order) {
    for (const OutDataAnchorPtr& out : node->GetAllOutDataAnchors()) note_value(node, out);
  }
  for (const std::string& name : value_order) {
    const Value& v = values.at(name);
    const GeTensorDesc& desc =
        v.producer->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(v.port));
    model.tensors.push_back({name, desc.GetDataType(), desc.GetShape().GetDims()});
    if (v.producer_stage < 0) model.inputs.push_back(name);
  }
  for (const InDataAnchorPtr& in : sink->GetAllInDataAnchors()) {
    const OutDataAnchorPtr peer = in->GetPeerOutAnchor();
    if (peer == nullptr) continue;
    const NodePtr producer = peer->GetOwnerNode();
    model.outputs.push_back(ValueName(*producer, peer->GetIdx()));
    std::string name = producer->GetOpDescBarePtr()
                           ->GetOutputDesc(static_cast<uint32_t>(peer->GetIdx()))
                           .GetName();
    if (name.empty()) name = "output_" + std::to_string(model.output_names.size());
    model.output_names.push_back(std::move(name));
  }

  // Each stage's inputs, outputs and sends, its graph, and its compile (its shapes are fixed:
  // no ge.inputShape).
  std::map<std::string, std::string> stage_options = options;
  stage_options.erase("ge.inputShape");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(stage_options));
  if (progress) compiler->SetProgress(progress);
  for (int s = 0; s < stages; ++s) {
    PipelineStage stage;
    for (const std::string& name : value_order) {
      const Value& v = values.at(name);
      bool read_here = false;
      for (const InDataAnchorPtr& in :
           v.producer->GetOutDataAnchor(v.port)->GetPeerInDataAnchors()) {
        const Node& reader = *in->GetOwnerNode();
        if (!IsWeight(reader) && stage_of_reader(reader) == s) read_here = true;
      }
      if (read_here && v.producer_stage != s) stage.inputs.push_back(name);
      if (v.producer_stage == s) stage.outputs.push_back(name);
    }
    if (s == stages - 1) {
      stage.sends = model.outputs;
    } else {
      for (const std::string& name : value_order) {
        const Value& v = values.at(name);
        if (v.producer_stage <= s && v.last_stage > s) stage.sends.push_back(name);
      }
    }
    // A stage's outputs are what it makes that anything after it reads.
    std::vector<std::string> outputs;
    for (const std::string& name : stage.outputs) {
      if (values.at(name).last_stage > s) outputs.push_back(name);
    }
    stage.outputs = outputs;
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr stage_graph,
                        StageGraph(graph, s, stage_of, values, stage.inputs, stage.outputs));
    Result<CompiledModel> compiled = compiler->Compile(stage_graph);
    if (!compiled.ok()) {
      return Status(compiled.status())
          .Prefix("stage " + std::to_string(s) + " of " + std::to_string(stages));
    }
    stage.model = std::move(compiled).value();
    stage.weight_bytes = stage.model.report.memory.weight_bytes;
    for (size_t i = 0; i < order.size(); ++i) {
      if (stage_of[order[i]->GetName()] == s) stage.predicted_us += cost[i];
    }
    for (const std::string& name : stage.sends) stage.send_bytes += model.Tensor(name)->Bytes();
    model.stages.push_back(std::move(stage));
  }
  GE_RETURN_IF_ERROR(model.Check());
  return model;
}

}  // namespace ge
