// GraphOptimizer: an engine's hooks at fixed points of the compiler's pass list.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// What an optimizer looks at (GE's OPTIMIZER_SCOPE): one unit of the graph or the whole engine.
enum OPTIMIZER_SCOPE : int32_t {
  UNIT = 0,
  ENGINE = 1,
};

/// Who an optimizer belongs to: the engine it optimizes for, and its scope.
struct GraphOptimizerAttribute {
  std::string engineName;
  OPTIMIZER_SCOPE scope = UNIT;
};

/// The fixed points at which the compiler calls every engine's optimizers, in pass-list order.
enum class OptimizeStage : int32_t {
  kOriginalGraph = 0,             ///< after prepare, before placement-dependent passes
  kOriginalGraphJudgeInsert = 1,  ///< after placement; engines mark nodes they must treat specially
  kFusedGraph = 2,                ///< after fusion
  kWholeGraph = 3,                ///< last, on the whole (partitioned and merged) graph
};

/// "OptimizeOriginalGraph", ... (the hook's method name).
inline const char* OptimizeStageName(OptimizeStage stage) {
  switch (stage) {
    case OptimizeStage::kOriginalGraph:
      return "OptimizeOriginalGraph";
    case OptimizeStage::kOriginalGraphJudgeInsert:
      return "OptimizeOriginalGraphJudgeInsert";
    case OptimizeStage::kFusedGraph:
      return "OptimizeFusedGraph";
    case OptimizeStage::kWholeGraph:
      return "OptimizeWholeGraph";
  }
  return "UnknownStage";
}

/// Every hook defaults to "nothing to do"; an engine overrides the ones it needs.
class GE_API GraphOptimizer {
 public:
  virtual ~GraphOptimizer() = default;

  virtual Status Initialize(const std::map<std::string, std::string>& /*options*/) {
    return Status::Ok();
  }
  virtual Status Finalize() { return Status::Ok(); }

  virtual Status OptimizeOriginalGraph(ComputeGraph& /*graph*/) { return Status::Ok(); }
  virtual Status OptimizeOriginalGraphJudgeInsert(ComputeGraph& /*graph*/) { return Status::Ok(); }
  virtual Status OptimizeFusedGraph(ComputeGraph& /*graph*/) { return Status::Ok(); }
  virtual Status OptimizeWholeGraph(ComputeGraph& /*graph*/) { return Status::Ok(); }

  /// Names the engine this optimizer works for.
  virtual Status GetAttributes(GraphOptimizerAttribute& attrs) const = 0;

  /// Dispatches to the hook of `stage`.
  Status Optimize(OptimizeStage stage, ComputeGraph& graph) {
    switch (stage) {
      case OptimizeStage::kOriginalGraph:
        return OptimizeOriginalGraph(graph);
      case OptimizeStage::kOriginalGraphJudgeInsert:
        return OptimizeOriginalGraphJudgeInsert(graph);
      case OptimizeStage::kFusedGraph:
        return OptimizeFusedGraph(graph);
      case OptimizeStage::kWholeGraph:
        return OptimizeWholeGraph(graph);
    }
    return ParamInvalid("unknown optimize stage " + std::to_string(static_cast<int>(stage)));
  }
};

using GraphOptimizerPtr = std::shared_ptr<GraphOptimizer>;

}  // namespace ge
