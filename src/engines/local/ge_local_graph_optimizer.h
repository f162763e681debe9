// The GE Local graph optimizer: marks PhonyConcat and PhonySplit for continuous, task-free memory.
#pragma once

#include "ge/engine/graph_optimizer.h"

namespace ge::ge_local {

class GeLocalGraphOptimizer final : public GraphOptimizer {
 public:
  /// On every node of the graph (subgraphs included): PhonyConcat gets _no_task,
  /// _no_padding_continuous_input, _output_reuse_input and _reuse_input_on_dim_index = 0;
  /// PhonySplit the same with _no_padding_continuous_output instead of the input flag.
  Status OptimizeOriginalGraphJudgeInsert(ComputeGraph& graph) override;
  Status GetAttributes(GraphOptimizerAttribute& attrs) const override;
};

}  // namespace ge::ge_local
