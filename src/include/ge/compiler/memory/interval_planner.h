// The graph-independent core of the memory planner: offsets for a set of live intervals.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ge/compiler/memory/plan_options.h"
#include "ge/graph/status.h"

namespace ge::memory {

/// A block of `size` bytes that must stay intact from step `first` to step `last` (inclusive).
struct Interval {
  int64_t size = 0;
  int64_t first = 0;
  int64_t last = 0;
};

/// The placement strategies, in the order PlanIntervalsBest tries them.
enum class Strategy : int32_t {
  kGreedyBySize = 0,     ///< largest first, best-fit gap among blocks overlapping in time
  kGreedyByBreadth = 1,  ///< steps by working set, largest first; best fit within each step
  kExactSizeReuse = 2,   ///< GE's BlockMemAssigner style: reuse a freed block of the same size
  kNoReuse = 3,          ///< every block its own bytes (ge.exec.disableReuseMemory)
};
inline constexpr Strategy kAllStrategies[] = {Strategy::kGreedyBySize, Strategy::kGreedyByBreadth,
                                              Strategy::kExactSizeReuse, Strategy::kNoReuse};

/// "greedy_by_size", "greedy_by_breadth", "exact_size_reuse", "no_reuse".
std::string_view StrategyName(Strategy strategy);

/// Checks the intervals (size >= 0, 0 <= first <= last) and the alignment (> 0); the error names
/// the first bad interval by index.
Status ValidateIntervals(const std::vector<Interval>& intervals, int64_t alignment);

/// One offset per interval (each a multiple of `alignment`, sizes rounded up to it).
Result<std::vector<int64_t>> PlanIntervals(Strategy strategy,
                                           const std::vector<Interval>& intervals,
                                           int64_t alignment);

/// The lower bound on any arena: the largest sum of aligned sizes live at one step.
struct LowerBound {
  int64_t bytes = 0;
  int64_t peak_step = -1;  ///< the first step reaching `bytes`; -1 when there are no intervals
};
LowerBound IntervalLowerBound(const std::vector<Interval>& intervals, int64_t alignment);

/// The arena a placement needs: the largest offset + aligned size.
int64_t IntervalArenaSize(const std::vector<Interval>& intervals,
                          const std::vector<int64_t>& offsets, int64_t alignment);

/// Checks a placement: aligned offsets, and no two intervals overlapping in time share bytes. The
/// error names both intervals by index.
Status CheckIntervalPlan(const std::vector<Interval>& intervals,
                         const std::vector<int64_t>& offsets, int64_t alignment);

/// Every strategy (only kNoReuse when options.disable_reuse), the smallest kept, then improved by
/// a bounded local search when it is more than 2% above the lower bound.
struct IntervalPlan {
  std::vector<int64_t> offsets;
  int64_t arena_bytes = 0;
  LowerBound lower_bound;
  std::string strategy;  ///< the winner; "local_search" when the search improved it
  std::vector<StrategyResult> strategies;
};
Result<IntervalPlan> PlanIntervalsBest(const std::vector<Interval>& intervals,
                                       const PlanOptions& options);

}  // namespace ge::memory
