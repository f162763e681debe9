// Tests of the graph-independent interval planner: each strategy, the lower bound, the checker.
#include "ge/compiler/memory/interval_planner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ge::memory {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Three tensors: a (steps 0-1) and c (steps 2-3) never meet, b (1-2) meets both.
const std::vector<Interval> kChain = {{64, 0, 1}, {64, 1, 2}, {64, 2, 3}};

TEST(IntervalPlanner, GreedyBySizeReusesMemoryOfDeadTensors) {
  auto offsets = PlanIntervals(Strategy::kGreedyBySize, kChain, 64);
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ(IntervalArenaSize(kChain, *offsets, 64), 128);
  EXPECT_EQ((*offsets)[0], (*offsets)[2]);
  EXPECT_TRUE(CheckIntervalPlan(kChain, *offsets, 64).ok());
}

TEST(IntervalPlanner, GreedyBySizeTakesTheSmallestFittingGap) {
  // Big blocks at 0 and 256 leave gaps of 64 (64..128 after a small one) — the late small tensor
  // must take the tight gap, not the first one.
  const std::vector<Interval> intervals = {
      {256, 0, 3},  // 0..256
      {128, 0, 3},  // 256..384
      {64, 0, 0},   // dies early: leaves a 64 gap at 384
      {64, 2, 3},   // fits the gap at 384
  };
  auto offsets = PlanIntervals(Strategy::kGreedyBySize, intervals, 64);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(IntervalArenaSize(intervals, *offsets, 64), 448);
  EXPECT_EQ((*offsets)[3], (*offsets)[2]);
}

TEST(IntervalPlanner, GreedyByBreadthReachesTheBoundOnAChain) {
  auto offsets = PlanIntervals(Strategy::kGreedyByBreadth, kChain, 64);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(IntervalArenaSize(kChain, *offsets, 64), 128);
  EXPECT_TRUE(CheckIntervalPlan(kChain, *offsets, 64).ok());
}

TEST(IntervalPlanner, ExactSizeReuseOnlyReusesBlocksOfTheSameSize) {
  // a (128, dies at 0) could hold b (64) but exact-size reuse will not split it.
  const std::vector<Interval> intervals = {{128, 0, 0}, {64, 1, 1}, {128, 2, 2}};
  auto offsets = PlanIntervals(Strategy::kExactSizeReuse, intervals, 64);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ((*offsets)[2], (*offsets)[0]);  // same size: reused
  EXPECT_NE((*offsets)[1], (*offsets)[0]);  // smaller: a new block
  EXPECT_EQ(IntervalArenaSize(intervals, *offsets, 64), 192);
  auto best_fit = PlanIntervals(Strategy::kGreedyBySize, intervals, 64);
  ASSERT_TRUE(best_fit.ok());
  EXPECT_EQ(IntervalArenaSize(intervals, *best_fit, 64), 128);
}

TEST(IntervalPlanner, NoReuseGivesEveryTensorItsOwnBytes) {
  auto offsets = PlanIntervals(Strategy::kNoReuse, kChain, 64);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(*offsets, (std::vector<int64_t>{0, 64, 128}));
}

TEST(IntervalPlanner, AlignsSizesAndOffsets) {
  const std::vector<Interval> intervals = {{1, 0, 2}, {100, 1, 2}, {3, 2, 2}};
  for (Strategy strategy : kAllStrategies) {
    auto offsets = PlanIntervals(strategy, intervals, 512);
    ASSERT_TRUE(offsets.ok());
    for (int64_t offset : *offsets) EXPECT_EQ(offset % 512, 0) << StrategyName(strategy);
    EXPECT_EQ(IntervalArenaSize(intervals, *offsets, 512), 1536) << StrategyName(strategy);
  }
  EXPECT_EQ(IntervalLowerBound(intervals, 512).bytes, 1536);
}

TEST(IntervalPlanner, ZeroSizedIntervalsTakeNoMemory) {
  const std::vector<Interval> intervals = {{0, 0, 5}, {64, 0, 5}};
  auto offsets = PlanIntervals(Strategy::kGreedyBySize, intervals, 64);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(IntervalArenaSize(intervals, *offsets, 64), 64);
}

TEST(IntervalPlanner, LowerBoundIsTheBusiestStep) {
  const std::vector<Interval> intervals = {{64, 0, 1}, {128, 1, 3}, {64, 3, 3}, {256, 5, 5}};
  const LowerBound bound = IntervalLowerBound(intervals, 64);
  EXPECT_EQ(bound.bytes, 256);
  EXPECT_EQ(bound.peak_step, 5);
  EXPECT_EQ(IntervalLowerBound(intervals, 64).bytes, 256);
  const LowerBound two = IntervalLowerBound({{64, 0, 1}, {128, 1, 3}}, 64);
  EXPECT_EQ(two.bytes, 192);
  EXPECT_EQ(two.peak_step, 1);
  EXPECT_EQ(IntervalLowerBound({}, 64).peak_step, -1);
}

TEST(IntervalPlanner, RefusesBadIntervalsNamingThem) {
  auto negative = PlanIntervals(Strategy::kGreedyBySize, {{64, 0, 1}, {-8, 0, 1}}, 64);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().code(), StatusCode::kParamInvalid);
  EXPECT_TRUE(Contains(negative.status().message(), "interval 1"));
  EXPECT_TRUE(Contains(negative.status().message(), "negative size"));
  auto backwards = PlanIntervals(Strategy::kNoReuse, {{64, 3, 1}}, 64);
  ASSERT_FALSE(backwards.ok());
  EXPECT_TRUE(Contains(backwards.status().message(), "first <= last"));
  auto alignment = PlanIntervals(Strategy::kNoReuse, {{64, 0, 1}}, 0);
  ASSERT_FALSE(alignment.ok());
  EXPECT_TRUE(Contains(alignment.status().message(), "alignment"));
}

TEST(IntervalPlanner, CheckerCatchesOverlapAndMisalignment) {
  const std::vector<Interval> intervals = {{128, 0, 2}, {64, 2, 4}};
  Status overlap = CheckIntervalPlan(intervals, {0, 64}, 64);
  ASSERT_FALSE(overlap.ok());
  EXPECT_TRUE(Contains(overlap.message(), "interval 0"));
  EXPECT_TRUE(Contains(overlap.message(), "interval 1"));
  EXPECT_TRUE(CheckIntervalPlan(intervals, {0, 128}, 64).ok());
  EXPECT_TRUE(CheckIntervalPlan({{128, 0, 1}, {64, 2, 4}}, {0, 64}, 64).ok());  // no common step
  Status misaligned = CheckIntervalPlan(intervals, {0, 130}, 64);
  ASSERT_FALSE(misaligned.ok());
  EXPECT_TRUE(Contains(misaligned.message(), "interval 1"));
}

TEST(IntervalPlanner, BestRunsEveryStrategyAndKeepsTheSmallest) {
  auto plan = PlanIntervalsBest(kChain, PlanOptions{});
  ASSERT_TRUE(plan.ok());
  ASSERT_GE(plan->strategies.size(), 4u);
  EXPECT_EQ(plan->strategies[0].name, "greedy_by_size");
  EXPECT_EQ(plan->strategies[1].name, "greedy_by_breadth");
  EXPECT_EQ(plan->strategies[2].name, "exact_size_reuse");
  EXPECT_EQ(plan->strategies[3].name, "no_reuse");
  EXPECT_EQ(plan->strategies[3].arena_bytes, 192);
  EXPECT_EQ(plan->arena_bytes, 128);
  EXPECT_EQ(plan->strategy, "greedy_by_size");  // the first of the smallest
  EXPECT_EQ(plan->lower_bound.bytes, 128);
}

TEST(IntervalPlanner, DisableReuseRunsOnlyNoReuse) {
  PlanOptions options;
  options.disable_reuse = true;
  auto plan = PlanIntervalsBest(kChain, options);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->strategies.size(), 1u);
  EXPECT_EQ(plan->strategy, "no_reuse");
  EXPECT_EQ(plan->arena_bytes, 192);
}

TEST(IntervalPlanner, LocalSearchImprovesAPlanAboveTheBound) {
  // Greedy by size places the two 128s first at the bottom; the best packing needs the long 64s
  // underneath. Built so every fixed strategy is above the bound.
  const std::vector<Interval> intervals = {
      {128, 0, 1}, {128, 3, 4}, {64, 0, 4}, {192, 2, 2}, {64, 1, 3},
  };
  const LowerBound bound = IntervalLowerBound(intervals, 64);
  PlanOptions no_search;
  no_search.search_budget_ms = 0;
  auto plain = PlanIntervalsBest(intervals, no_search);
  ASSERT_TRUE(plain.ok());
  PlanOptions search;
  search.search_budget_ms = 20;
  auto searched = PlanIntervalsBest(intervals, search);
  ASSERT_TRUE(searched.ok());
  EXPECT_LE(searched->arena_bytes, plain->arena_bytes);
  EXPECT_GE(searched->arena_bytes, bound.bytes);
  EXPECT_TRUE(CheckIntervalPlan(intervals, searched->offsets, 64).ok());
  if (plain->arena_bytes > bound.bytes) {
    EXPECT_EQ(searched->strategies.back().name, "local_search");
  }
}

}  // namespace
}  // namespace ge::memory
