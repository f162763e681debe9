// ge::Graph and GraphUtilsEx: the graph's description, lookups, files, and the way to the IR.
#include "ge/api/graph.h"

#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/serialize/model_serialize.h"
#include "graph_impl.h"
#include "operator_impl.h"

namespace ge {
namespace {

Status EmptyGraph(const char* call) {
  return ParamInvalid(std::string(call) +
                      " of an empty Graph (made with Graph(), not with a name)");
}

}  // namespace

Graph::Graph(const char* name) : impl_(std::make_shared<GraphImpl>()) {
  impl_->name = StrOrEmpty(name);
}

Graph& Graph::SetInputs(const std::vector<Operator>& inputs) {
  if (impl_ == nullptr) {
    (void)ReportStatus(EmptyGraph("SetInputs"));
    return *this;
  }
  impl_->inputs = inputs;
  return *this;
}

Graph& Graph::SetOutputs(const std::vector<Operator>& outputs) {
  if (impl_ == nullptr) {
    (void)ReportStatus(EmptyGraph("SetOutputs"));
    return *this;
  }
  impl_->outputs.clear();
  for (const Operator& op : outputs) impl_->outputs.push_back({op, 0, ""});
  return *this;
}

Graph& Graph::SetOutputs(
    const std::vector<std::pair<Operator, std::vector<size_t>>>& output_indexs) {
  if (impl_ == nullptr) {
    (void)ReportStatus(EmptyGraph("SetOutputs"));
    return *this;
  }
  impl_->outputs.clear();
  for (const auto& [op, indexes] : output_indexs) {
    for (size_t index : indexes) impl_->outputs.push_back({op, static_cast<int64_t>(index), ""});
  }
  return *this;
}

Graph& Graph::SetOutputs(const std::vector<std::pair<Operator, AscendString>>& outputs) {
  if (impl_ == nullptr) {
    (void)ReportStatus(EmptyGraph("SetOutputs"));
    return *this;
  }
  impl_->outputs.clear();
  for (const auto& [op, name] : outputs) impl_->outputs.push_back({op, 0, name.GetString()});
  return *this;
}

Graph& Graph::SetOutputs(const std::vector<std::pair<Operator, std::string>>& outputs) {
  std::vector<std::pair<Operator, AscendString>> named;
  named.reserve(outputs.size());
  for (const auto& [op, name] : outputs) named.emplace_back(op, AscendString(name.c_str()));
  return SetOutputs(named);
}

Graph& Graph::SetTargets(const std::vector<Operator>& targets) {
  if (impl_ == nullptr) {
    (void)ReportStatus(EmptyGraph("SetTargets"));
    return *this;
  }
  impl_->targets = targets;
  return *this;
}

bool Graph::IsValid() const {
  if (impl_ == nullptr) return false;
  if (impl_->compute_graph != nullptr) return true;
  return !impl_->name.empty() && (!impl_->outputs.empty() || !impl_->targets.empty());
}

graphStatus Graph::AddOp(const Operator& op) {
  if (impl_ == nullptr) return ReportStatus(EmptyGraph("AddOp"));
  if (op.IsEmpty()) return ReportStatus(ParamInvalid("AddOp of an empty Operator"));
  if (impl_->compute_graph != nullptr) {
    Result<NodePtr> node = impl_->compute_graph->AddNode(std::make_shared<OpDesc>(*op.GetOpDesc()));
    return ReportStatus(node.status());
  }
  impl_->added.push_back(op);
  return GRAPH_SUCCESS;
}

graphStatus Graph::FindOpByName(const char* name, Operator& op) const {
  if (impl_ == nullptr) return ReportStatus(EmptyGraph("FindOpByName"));
  const std::string wanted = StrOrEmpty(name);
  if (impl_->compute_graph != nullptr) {
    NodePtr node = impl_->compute_graph->FindNode(wanted);
    if (node != nullptr) {
      op = Operator::FromOpDesc(node->GetOpDesc());
      return GRAPH_SUCCESS;
    }
  } else {
    Result<std::vector<OperatorImplPtr>> ops = CollectOperators(*impl_);
    if (!ops.ok()) return ReportStatus(ops.status());
    for (const OperatorImplPtr& found : *ops) {
      if (found->desc->GetName() == wanted) {
        op = Operator(found);
        return GRAPH_SUCCESS;
      }
    }
  }
  return ReportStatus(Failed("graph '" + GetName() + "' has no operator named '" + wanted + "'"));
}

graphStatus Graph::FindOpByType(const char* type, std::vector<Operator>& ops) const {
  if (impl_ == nullptr) return ReportStatus(EmptyGraph("FindOpByType"));
  ops.clear();
  const std::string wanted = StrOrEmpty(type);
  if (impl_->compute_graph != nullptr) {
    for (const NodePtr& node : impl_->compute_graph->GetDirectNode()) {
      if (node->GetType() == wanted) ops.push_back(Operator::FromOpDesc(node->GetOpDesc()));
    }
    return GRAPH_SUCCESS;
  }
  Result<std::vector<OperatorImplPtr>> all = CollectOperators(*impl_);
  if (!all.ok()) return ReportStatus(all.status());
  for (const OperatorImplPtr& found : *all) {
    if (found->desc->GetType() == wanted) ops.push_back(Operator(found));
  }
  return GRAPH_SUCCESS;
}

graphStatus Graph::GetAllOpName(std::vector<std::string>& names) const {
  if (impl_ == nullptr) return ReportStatus(EmptyGraph("GetAllOpName"));
  names.clear();
  if (impl_->compute_graph != nullptr) {
    for (const NodePtr& node : impl_->compute_graph->GetDirectNode()) {
      names.push_back(node->GetName());
    }
    return GRAPH_SUCCESS;
  }
  Result<std::vector<OperatorImplPtr>> all = CollectOperators(*impl_);
  if (!all.ok()) return ReportStatus(all.status());
  for (const OperatorImplPtr& op : *all) names.push_back(op->desc->GetName());
  return GRAPH_SUCCESS;
}

graphStatus Graph::GetAllOpName(std::vector<AscendString>& names) const {
  std::vector<std::string> strings;
  const graphStatus status = GetAllOpName(strings);
  names.clear();
  for (const std::string& s : strings) names.emplace_back(s.c_str());
  return status;
}

graphStatus Graph::SaveToFile(const char* file_name) const {
  Result<ComputeGraphPtr> graph = ToComputeGraph();
  if (!graph.ok()) return ReportStatus(graph.status());
  const std::string path = StrOrEmpty(file_name);
  return ReportStatus(
      ModelSerialize::SaveToFile(**graph, path, ModelSerialize::FormatForPath(path)));
}

graphStatus Graph::LoadFromFile(const char* file_name) {
  Result<ComputeGraphPtr> graph = ModelSerialize::LoadFromFile(StrOrEmpty(file_name));
  if (!graph.ok()) return ReportStatus(graph.status());
  *this = FromComputeGraph(*graph);
  return GRAPH_SUCCESS;
}

const std::string& Graph::GetName() const {
  static const std::string kEmpty;
  if (impl_ == nullptr) return kEmpty;
  return impl_->compute_graph != nullptr ? impl_->compute_graph->GetName() : impl_->name;
}

graphStatus Graph::GetName(AscendString& name) const {
  if (impl_ == nullptr) return ReportStatus(EmptyGraph("GetName"));
  name = AscendString(GetName().c_str());
  return GRAPH_SUCCESS;
}

Result<ComputeGraphPtr> Graph::ToComputeGraph() const {
  if (impl_ == nullptr) return EmptyGraph("ToComputeGraph");
  if (impl_->compute_graph != nullptr) return impl_->compute_graph;
  GE_ASSIGN_OR_RETURN(std::vector<OperatorImplPtr> ops, CollectOperators(*impl_));
  return BuildComputeGraph(*impl_, ops);
}

Graph Graph::FromComputeGraph(const ComputeGraphPtr& graph) {
  Graph g;
  if (graph == nullptr) return g;
  g.impl_ = std::make_shared<GraphImpl>();
  g.impl_->name = graph->GetName();
  g.impl_->compute_graph = graph;
  return g;
}

ComputeGraphPtr GraphUtilsEx::GetComputeGraph(const Graph& graph) {
  Result<ComputeGraphPtr> compute_graph = graph.ToComputeGraph();
  if (!compute_graph.ok()) {
    (void)ReportStatus(compute_graph.status());
    return nullptr;
  }
  return *compute_graph;
}

Graph GraphUtilsEx::CreateGraphFromComputeGraph(const ComputeGraphPtr& compute_graph) {
  return Graph::FromComputeGraph(compute_graph);
}

GraphPtr GraphUtilsEx::CreateGraphPtrFromComputeGraph(const ComputeGraphPtr& compute_graph) {
  if (compute_graph == nullptr) return nullptr;
  return std::make_shared<Graph>(Graph::FromComputeGraph(compute_graph));
}

}  // namespace ge
