// Internal helpers the report writers share.
#pragma once

#include <vector>

#include "ge/compiler/memory/plan_options.h"

namespace ge::memory::internal {

/// The arena blocks (alias roots of non-zero size) live at the plan's peak step.
std::vector<size_t> PeakTensors(const MemoryPlan& plan);

}  // namespace ge::memory::internal
