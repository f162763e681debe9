// What the static memory planner may do, and the plan checker (the plan itself is part of the
// compiled model: ge/model/memory_plan.h).
#pragma once

#include <cstdint>
#include <vector>

#include "ge/graph/status.h"
#include "ge/model/memory_plan.h"

namespace ge::memory {

/// What the planner may do; names follow GE's options where one exists.
struct PlanOptions {
  int64_t alignment = 64;          ///< bytes; every offset and size is rounded to it
  bool disable_reuse = false;      ///< ge.exec.disableReuseMemory: only the no-reuse strategy
  bool separate_outputs = false;   ///< graph outputs in their own Region::kOutput, not the arena
  double search_budget_ms = 30.0;  ///< local search budget when the plan is >2% above the bound
  bool check = true;               ///< run the plan checker after planning
  /// Parallel streams: for each step of the order, the last step whose node may still run at the
  /// same time as it (>= the step itself). A tensor then stays live up to the last such step of
  /// its producer and consumers, so no later tensor reuses its bytes before every use of it is
  /// ordered (by its stream or an event) before the reusing producer. Empty: the order runs
  /// serially.
  std::vector<int64_t> last_concurrent_step;
};

/// The checker: no two tensors of one region that are live at a common step overlap in bytes
/// (tensors sharing memory through alias_of are one block), every block offset is aligned and
/// every tensor lies within its region. The error names both tensors.
Status CheckMemoryPlan(const MemoryPlan& plan);

}  // namespace ge::memory
