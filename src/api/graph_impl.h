// What a ge::Graph holds: its name, inputs, outputs and targets as operators, or the
// ComputeGraph it was made from.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ge/api/graph.h"
#include "ge/graph/compute_graph.h"

namespace ge {

class GraphImpl {
 public:
  /// One output: output `index` of `op`, or its output called `name` when that is not empty.
  struct Output {
    Operator op;
    int64_t index = 0;
    std::string name;
  };

  std::string name;
  std::vector<Operator> inputs;
  std::vector<Output> outputs;
  std::vector<Operator> targets;
  std::vector<Operator> added;    ///< by AddOp
  ComputeGraphPtr compute_graph;  ///< set when the graph was made from (or loaded as) one
};

/// Every operator reachable from the graph's inputs, outputs, targets and added operators by
/// inputs and control inputs, producers before consumers (the graph's inputs first, in order).
/// A cycle is an error naming the operators on it.
Result<std::vector<OperatorImplPtr>> CollectOperators(const GraphImpl& graph);

/// The ComputeGraph of operators `ops` (as CollectOperators gives them) for `graph`.
Result<ComputeGraphPtr> BuildComputeGraph(const GraphImpl& graph,
                                          const std::vector<OperatorImplPtr>& ops);

}  // namespace ge
