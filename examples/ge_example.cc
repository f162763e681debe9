// The main job's example: builds a small convolution-style graph with the C++ IR API, checks it,
// sorts it in every mode, and prints the graph and the orders.
#include <cstdio>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/tensor_utils.h"

namespace {

ge::GeTensorDesc Desc(std::vector<int64_t> dims) {
  return ge::GeTensorDesc(ge::GeShape(std::move(dims)), ge::FORMAT_NCHW, ge::DT_FLOAT);
}

// Adds a node with the given inputs (producer output 0 each) and one output of shape `out`.
ge::Result<ge::NodePtr> Add(const ge::ComputeGraphPtr& graph, const std::string& name,
                            const std::string& type, const std::vector<ge::NodePtr>& inputs,
                            std::vector<int64_t> out) {
  auto op = std::make_shared<ge::OpDesc>(name, type);
  for (const auto& input : inputs) {
    GE_RETURN_IF_ERROR(op->AddInputDesc(input->GetOpDesc()->GetOutputDesc(0)));
  }
  GE_RETURN_IF_ERROR(op->AddOutputDesc(Desc(std::move(out))));
  GE_ASSIGN_OR_RETURN(ge::NodePtr node, graph->AddNode(op));
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(ge::GraphUtils::AddEdge(inputs[i]->GetOutDataAnchor(0),
                                               node->GetInDataAnchor(static_cast<int>(i))));
  }
  return node;
}

ge::Status Run() {
  auto graph = std::make_shared<ge::ComputeGraph>("residual_block");
  // Nodes are added out of order on purpose: sorting puts them right.
  GE_ASSIGN_OR_RETURN(auto x, Add(graph, "x", "Data", {}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto w1, Add(graph, "w1", "Const", {}, {64, 64, 3, 3}));
  GE_ASSIGN_OR_RETURN(auto w2, Add(graph, "w2", "Const", {}, {64, 64, 3, 3}));
  GE_ASSIGN_OR_RETURN(auto conv1, Add(graph, "conv1", "Conv2D", {x, w1}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto relu1, Add(graph, "relu1", "Relu", {conv1}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto conv2, Add(graph, "conv2", "Conv2D", {relu1, w2}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto add, Add(graph, "add", "Add", {conv2, x}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto relu2, Add(graph, "relu2", "Relu", {add}, {1, 64, 56, 56}));
  GE_ASSIGN_OR_RETURN(auto out, Add(graph, "output", "NetOutput", {relu2}, {1, 64, 56, 56}));
  GE_RETURN_IF_ERROR(graph->AddOutputNode(relu2, 0));
  (void)out;
  GE_RETURN_IF_ERROR(ge::GraphVerifier::Verify(*graph));

  std::printf("%s, inputs:", graph->DebugString().c_str());
  for (const auto& in : graph->GetInputNodes()) std::printf(" %s", in->GetName().c_str());
  std::printf("\n\nnodes:\n");
  for (const auto& node : graph->GetDirectNode()) {
    const auto& desc = node->GetOpDesc()->GetOutputDesc(0);
    std::printf("  %-8s %-9s -> %-28s %10lld bytes  <-", node->GetName().c_str(),
                node->GetType().c_str(), desc.ToString().c_str(),
                static_cast<long long>(ge::TensorUtils::CalcTensorMemSize(desc)));
    for (const auto& in : node->GetInDataNodes()) std::printf(" %s", in->GetName().c_str());
    std::printf("\n");
  }
  const ge::TopoSortingMode modes[] = {ge::TopoSortingMode::kBFS, ge::TopoSortingMode::kDFS,
                                       ge::TopoSortingMode::kRDFS,
                                       ge::TopoSortingMode::kStableRDFS};
  std::printf("\ntopological orders:\n");
  for (auto mode : modes) {
    for (bool memory_priority : {false, true}) {
      if (memory_priority && mode != ge::TopoSortingMode::kDFS) continue;
      GE_RETURN_IF_ERROR(graph->TopologicalSorting({mode, memory_priority}));
      std::printf("  %-10s%s:", ge::TopoSortingModeName(mode), memory_priority ? "+mem" : "    ");
      for (const auto& node : graph->GetDirectNode()) std::printf(" %s", node->GetName().c_str());
      std::printf("\n");
    }
  }
  // A cycle is reported by the nodes on it.
  GE_RETURN_IF_ERROR(
      ge::GraphUtils::AddEdge(relu2->GetOutControlAnchor(), conv1->GetInControlAnchor()));
  ge::Status cycle = graph->TopologicalSorting();
  std::printf("\nafter adding a control edge relu2 -> conv1:\n  %s\n", cycle.ToString().c_str());
  return cycle.ok() ? ge::InternalError("the cycle was not detected") : ge::Status::Ok();
}

}  // namespace

int main() {
  ge::Status status = Run();
  if (!status.ok()) {
    std::fprintf(stderr, "ge_example: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
