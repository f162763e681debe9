// Internal pieces of the interval planner: alignment, the placement strategies and the overlap
// search the checkers share.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ge/compiler/memory/interval_planner.h"

namespace ge::memory::internal {

/// Rounds a non-negative `value` up to a multiple of `alignment` (> 0); callers validated that it
/// cannot overflow.
inline int64_t AlignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// The intervals with their sizes rounded up to `alignment`.
std::vector<Interval> AlignSizes(const std::vector<Interval>& intervals, int64_t alignment);

/// Places `intervals` (sizes already aligned) one at a time in `priority` order, each in the
/// smallest gap that fits among the already placed intervals overlapping it in time, else on top
/// of them. Offsets stay multiples of the alignment because every size is.
std::vector<int64_t> BestFitPlace(const std::vector<Interval>& intervals,
                                  const std::vector<int32_t>& priority);

/// Priority orders for BestFitPlace.
std::vector<int32_t> OrderBySize(const std::vector<Interval>& intervals);
std::vector<int32_t> OrderByBreadth(const std::vector<Interval>& intervals);

/// Exact-size block reuse and no reuse (sizes already aligned).
std::vector<int64_t> ExactSizeReusePlace(const std::vector<Interval>& intervals);
std::vector<int64_t> NoReusePlace(const std::vector<Interval>& intervals);

/// Improves `offsets` (arena `arena_bytes`) by re-running BestFitPlace on perturbed priority
/// orders until `budget_ms` runs out or the arena reaches `lower_bound`. Returns true and updates
/// both when it found a smaller arena.
bool LocalSearch(const std::vector<Interval>& intervals, int64_t lower_bound, double budget_ms,
                 std::vector<int64_t>& offsets, int64_t& arena_bytes);

/// A rectangle in time × bytes.
struct Block {
  int64_t offset = 0;
  int64_t size = 0;
  int64_t first = 0;
  int64_t last = 0;
};
/// Indices of two blocks that overlap in both time and bytes, if any (empty blocks never do).
std::optional<std::pair<size_t, size_t>> FindOverlap(const std::vector<Block>& blocks);

}  // namespace ge::memory::internal
