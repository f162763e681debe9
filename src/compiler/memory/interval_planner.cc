// The interval planner's entry points: validation, strategy dispatch, the lower bound, the
// interval checker, and PlanIntervalsBest (every strategy, keep the smallest, then search).
#include "ge/compiler/memory/interval_planner.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "placement.h"

namespace ge::memory {
namespace {

using internal::AlignUp;

/// No single block may exceed 2^56 bytes, so sums of a few million stay far from overflow.
constexpr int64_t kMaxBlockBytes = int64_t{1} << 56;

/// The ratio above the lower bound that starts the local search.
constexpr double kSearchThreshold = 1.02;

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

std::string_view StrategyName(Strategy strategy) {
  switch (strategy) {
    case Strategy::kGreedyBySize:
      return "greedy_by_size";
    case Strategy::kGreedyByBreadth:
      return "greedy_by_breadth";
    case Strategy::kExactSizeReuse:
      return "exact_size_reuse";
    case Strategy::kNoReuse:
      return "no_reuse";
  }
  return "unknown";
}

Status ValidateIntervals(const std::vector<Interval>& intervals, int64_t alignment) {
  if (alignment <= 0 || alignment > kMaxBlockBytes) {
    return ParamInvalid("memory planner: alignment " + std::to_string(alignment) +
                        " must be positive (64 for the CPU, 512 as GE uses)");
  }
  if (intervals.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return ParamInvalid("memory planner: too many intervals (" + std::to_string(intervals.size()) +
                        ")");
  }
  int64_t total = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    const Interval& it = intervals[i];
    auto who = [&it, i] {
      return "memory planner: interval " + std::to_string(i) + " (size " + std::to_string(it.size) +
             ", steps " + std::to_string(it.first) + ".." + std::to_string(it.last) + ")";
    };
    if (it.size < 0) return ParamInvalid(who() + " has a negative size");
    if (it.size > kMaxBlockBytes) return ParamInvalid(who() + " is larger than 2^56 bytes");
    if (it.first < 0 || it.last < it.first) {
      return ParamInvalid(who() + " needs 0 <= first <= last");
    }
    if (__builtin_add_overflow(total, AlignUp(it.size, alignment), &total)) {
      return ParamInvalid(who() + ": the total size of all intervals overflows int64");
    }
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> PlanIntervals(Strategy strategy,
                                           const std::vector<Interval>& intervals,
                                           int64_t alignment) {
  GE_RETURN_IF_ERROR(ValidateIntervals(intervals, alignment));
  const std::vector<Interval> aligned = internal::AlignSizes(intervals, alignment);
  switch (strategy) {
    case Strategy::kGreedyBySize:
      return internal::BestFitPlace(aligned, internal::OrderBySize(aligned));
    case Strategy::kGreedyByBreadth:
      return internal::BestFitPlace(aligned, internal::OrderByBreadth(aligned));
    case Strategy::kExactSizeReuse:
      return internal::ExactSizeReusePlace(aligned);
    case Strategy::kNoReuse:
      return internal::NoReusePlace(aligned);
  }
  return ParamInvalid("memory planner: unknown strategy " +
                      std::to_string(static_cast<int32_t>(strategy)));
}

LowerBound IntervalLowerBound(const std::vector<Interval>& intervals, int64_t alignment) {
  // Sweep the starts and ends in step order; an interval counts from first to last inclusive.
  std::vector<std::pair<int64_t, int64_t>> events;  // (step, +size at first / -size after last)
  events.reserve(intervals.size() * 2);
  for (const Interval& it : intervals) {
    const int64_t size = AlignUp(it.size, alignment);
    if (size == 0) continue;
    events.emplace_back(it.first, size);
    events.emplace_back(it.last + 1, -size);
  }
  std::sort(events.begin(), events.end());
  LowerBound bound;
  int64_t live = 0;
  for (size_t i = 0; i < events.size();) {
    const int64_t step = events[i].first;
    for (; i < events.size() && events[i].first == step; ++i) live += events[i].second;
    if (live > bound.bytes) {
      bound.bytes = live;
      bound.peak_step = step;
    }
  }
  if (bound.peak_step < 0 && !intervals.empty()) bound.peak_step = intervals.front().first;
  return bound;
}

int64_t IntervalArenaSize(const std::vector<Interval>& intervals,
                          const std::vector<int64_t>& offsets, int64_t alignment) {
  int64_t arena = 0;
  for (size_t i = 0; i < intervals.size() && i < offsets.size(); ++i) {
    const int64_t size = AlignUp(intervals[i].size, alignment);
    if (size > 0) arena = std::max(arena, offsets[i] + size);
  }
  return arena;
}

Status CheckIntervalPlan(const std::vector<Interval>& intervals,
                         const std::vector<int64_t>& offsets, int64_t alignment) {
  GE_RETURN_IF_ERROR(ValidateIntervals(intervals, alignment));
  if (offsets.size() != intervals.size()) {
    return InternalError("memory plan: " + std::to_string(offsets.size()) + " offsets for " +
                         std::to_string(intervals.size()) + " intervals");
  }
  std::vector<internal::Block> blocks;
  blocks.reserve(intervals.size());
  for (size_t i = 0; i < intervals.size(); ++i) {
    if (offsets[i] < 0 || offsets[i] % alignment != 0) {
      return InternalError("memory plan: interval " + std::to_string(i) + " has offset " +
                           std::to_string(offsets[i]) + ", not a non-negative multiple of " +
                           std::to_string(alignment));
    }
    blocks.push_back(
        {offsets[i], AlignUp(intervals[i].size, alignment), intervals[i].first, intervals[i].last});
  }
  if (auto clash = internal::FindOverlap(blocks)) {
    const auto describe = [&](size_t i) {
      return "interval " + std::to_string(i) + " [bytes " + std::to_string(blocks[i].offset) +
             ".." + std::to_string(blocks[i].offset + blocks[i].size) + ", steps " +
             std::to_string(blocks[i].first) + ".." + std::to_string(blocks[i].last) + "]";
    };
    return InternalError("memory plan: " + describe(clash->first) + " overlaps " +
                         describe(clash->second));
  }
  return Status::Ok();
}

Result<IntervalPlan> PlanIntervalsBest(const std::vector<Interval>& intervals,
                                       const PlanOptions& options) {
  GE_RETURN_IF_ERROR(ValidateIntervals(intervals, options.alignment));
  IntervalPlan plan;
  plan.lower_bound = IntervalLowerBound(intervals, options.alignment);
  const std::vector<Interval> aligned = internal::AlignSizes(intervals, options.alignment);
  for (Strategy strategy : kAllStrategies) {
    if (options.disable_reuse && strategy != Strategy::kNoReuse) continue;
    const auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> offsets,
                        PlanIntervals(strategy, intervals, options.alignment));
    const int64_t arena = IntervalArenaSize(intervals, offsets, options.alignment);
    plan.strategies.push_back({std::string(StrategyName(strategy)), arena, MillisSince(start)});
    if (plan.strategy.empty() || arena < plan.arena_bytes) {
      plan.arena_bytes = arena;
      plan.offsets = std::move(offsets);
      plan.strategy = StrategyName(strategy);
    }
  }
  const auto bound = static_cast<double>(plan.lower_bound.bytes);
  if (!options.disable_reuse && static_cast<double>(plan.arena_bytes) > kSearchThreshold * bound &&
      options.search_budget_ms > 0) {
    const auto start = std::chrono::steady_clock::now();
    int64_t arena = plan.arena_bytes;
    const bool improved = internal::LocalSearch(aligned, plan.lower_bound.bytes,
                                                options.search_budget_ms, plan.offsets, arena);
    plan.strategies.push_back({"local_search", arena, MillisSince(start)});
    if (improved) {
      plan.arena_bytes = arena;
      plan.strategy = "local_search";
    }
  }
  return plan;
}

}  // namespace ge::memory
