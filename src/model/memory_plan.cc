// The memory plan's names and ratio.
#include "ge/model/memory_plan.h"

namespace ge::memory {

const char* RegionName(Region region) {
  switch (region) {
    case Region::kArena:
      return "arena";
    case Region::kWeight:
      return "weight";
    case Region::kInput:
      return "input";
    case Region::kOutput:
      return "output";
    case Region::kDynamic:
      return "dynamic";
  }
  return "unknown";
}

std::string TensorLabel(const TensorPlan& tensor) {
  if (tensor.workspace_index >= 0)
    return tensor.node + ":ws" + std::to_string(tensor.workspace_index);
  return tensor.node + ":out" + std::to_string(tensor.output_index);
}

double MemoryPlan::Ratio() const {
  if (lower_bound <= 0) return 1.0;
  return static_cast<double>(arena_bytes) / static_cast<double>(lower_bound);
}

}  // namespace ge::memory
