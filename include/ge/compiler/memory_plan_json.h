// A memory plan as JSON: what `gec plan --json` prints and the Python module's memory_plan()
// returns, so tools read one schema.
#pragma once

#include <string>

#include "ge/graph/visibility.h"
#include "ge/model/memory_plan.h"

namespace ge::memory {

/// arena_bytes, lower_bound, ratio, weight_bytes, output_bytes, alignment, strategy,
/// strategies[{name, arena_bytes, millis}], peak_step, peak_tensors[...],
/// tensors[{node, op_type, output_index, workspace_index, region, offset, size, first_step,
/// last_step, alias_of}] (an index of -1: none).
GE_API std::string MemoryPlanToJson(const MemoryPlan& plan);

}  // namespace ge::memory
