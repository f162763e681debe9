// The memory plan of a compiled graph: where every output tensor and workspace lives. The
// compiler's planner makes it; the runtime reads it from the compiled model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/graph/visibility.h"

namespace ge::memory {

/// Attributes a planned graph carries for the runtime.
inline constexpr char kAttrOutputMemRegion[] = "_output_mem_region";  ///< per node: ListInt Region
/// Int on a graph: the number of parallel streams its memory plan is safe for (absent: one, the
/// plan assumes its order runs serially).
inline constexpr char kAttrPlanStreams[] = "_memory_plan_streams";

/// The memory a tensor lives in. Offsets are relative to the start of their region; in kInput the
/// offset is the graph input's index (the runtime binds the user's buffer there).
/// kDynamic: a tensor whose shape is known only at run time; the runtime allocates it when its
/// producer runs (offset and size 0 here).
enum class Region : int32_t { kArena = 0, kWeight = 1, kInput = 2, kOutput = 3, kDynamic = 4 };

/// "arena", "weight", "input", "output".
GE_API const char* RegionName(Region region);

/// One output tensor or workspace of a node.
struct TensorPlan {
  std::string node;  ///< node name
  std::string op_type;
  int32_t output_index = -1;     ///< >= 0 for an output
  int32_t workspace_index = -1;  ///< >= 0 for a workspace
  Region region = Region::kArena;
  int64_t offset = 0;      ///< within its region
  int64_t size = 0;        ///< aligned bytes (an alias keeps its own, unrounded, size)
  int64_t first_step = 0;  ///< live range in the order (inclusive); an alias root's range
  int64_t last_step = 0;   ///< covers every tensor that aliases it
  int32_t alias_of = -1;   ///< index into MemoryPlan::tensors of the tensor whose memory this one
                           ///< shares, or -1
};

/// How one strategy did.
struct StrategyResult {
  std::string name;
  int64_t arena_bytes = 0;
  double millis = 0;
};

/// The planner's answer for one graph.
struct GE_API MemoryPlan {
  int64_t arena_bytes = 0;   ///< size of the activation arena
  int64_t lower_bound = 0;   ///< largest sum of (aligned) arena block sizes live at one step
  int64_t weight_bytes = 0;  ///< size of the weight region
  int64_t output_bytes = 0;  ///< size of the output region (separate_outputs only)
  int64_t alignment = 64;    ///< the alignment the plan was made with
  std::string strategy;      ///< the winner's name
  std::vector<StrategyResult> strategies;  ///< every strategy tried, in order
  int64_t peak_step = -1;                  ///< the step where lower_bound is reached
  std::vector<TensorPlan> tensors;
  /// arena_bytes / lower_bound (1.0 when the bound is 0).
  double Ratio() const;
};

/// "node:out0" / "node:ws1": how messages and reports name a tensor.
GE_API std::string TensorLabel(const TensorPlan& tensor);

}  // namespace ge::memory
