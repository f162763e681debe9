// The CPU engine's layout planner: convolution chains run in oneDNN's blocked layout.
#pragma once

#include <map>
#include <string>

#include "ge/engine/graph_optimizer.h"
#include "ge/engine/ops_kernel_builder.h"

namespace ge::host_cpu {

/// Attribute on a convolution the planner gives Winograd's algorithm: "winograd" (the kernel
/// reads it; absent means direct).
inline constexpr char kAttrConvAlgorithm[] = "_conv_algorithm";

/// At OptimizeFusedGraph (after placement and fusion), on graphs whose shapes are all static:
/// each 2-D convolution of this engine gets NC1HWC0 (nChw16c) tensors on its data input (when it
/// has at least 16 channels), its output and its fused addend, provided oneDNN then gives it a
/// real implementation: the planner prepares the node's kernel with the candidate layout and
/// reads the implementation's name; a reference (`ref`, `gemm:ref`) or gemm-based choice is
/// rerouted to the next candidate (plain input, then all plain) with a log line naming the node.
/// TransData nodes are then inserted on exactly the edges whose two ends disagree, one per
/// producer output and direction, so a chain of convolutions has them only at its boundaries.
/// A blocked 3x3 stride-1 dense convolution on a map of 14x14 or more gets Winograd's algorithm
/// when oneDNN has it for the node (1.6-2.5x fewer cycles on ResNet's and VGG's shapes) and lays
/// out its weights the same for one thread and for every core (the kernel's probe refuses it
/// otherwise); its filter is transformed when the model loads, never stored transformed.
class LayoutPlanner final : public GraphOptimizer {
 public:
  Status Initialize(const std::map<std::string, std::string>& options) override;
  Status OptimizeFusedGraph(ComputeGraph& graph) override;
  Status GetAttributes(GraphOptimizerAttribute& attrs) const override;

 private:
  bool enabled_ = true;
  bool winograd_ = true;
};

}  // namespace ge::host_cpu
