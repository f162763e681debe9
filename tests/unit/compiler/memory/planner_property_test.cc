// Property tests: random interval sets and random DAGs always get valid plans between the lower
// bound and the no-reuse plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "ge/compiler/memory/memory_planner.h"
#include "memory_test_builder.h"

namespace ge::memory {
namespace {

using testing::MemGraph;

constexpr int64_t kAlignments[] = {1, 32, 64, 512};

std::vector<Interval> RandomIntervals(std::mt19937& rng) {
  const int count = 1 + static_cast<int>(rng() % 40);
  const int64_t steps = 1 + static_cast<int64_t>(rng() % 30);
  std::vector<Interval> intervals;
  for (int i = 0; i < count; ++i) {
    Interval it;
    it.first = static_cast<int64_t>(rng() % static_cast<uint32_t>(steps));
    // Mostly short lives, some long ones, as in real graphs.
    const int64_t span = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 30) : rng() % 3;
    it.last = std::min(steps - 1, it.first + span);
    it.size = rng() % 10 == 0 ? 0 : 1 + static_cast<int64_t>(rng() % 5000);
    intervals.push_back(it);
  }
  return intervals;
}

TEST(PlannerProperty, RandomIntervalSetsGetValidPlansWithinBounds) {
  std::mt19937 rng(20240601);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::vector<Interval> intervals = RandomIntervals(rng);
    const int64_t alignment = kAlignments[rng() % 4];
    const int64_t bound = IntervalLowerBound(intervals, alignment).bytes;
    SCOPED_TRACE("trial " + std::to_string(trial));
    int64_t no_reuse = 0;
    for (Strategy strategy : kAllStrategies) {
      auto offsets = PlanIntervals(strategy, intervals, alignment);
      ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
      Status check = CheckIntervalPlan(intervals, *offsets, alignment);
      ASSERT_TRUE(check.ok()) << StrategyName(strategy) << ": " << check.ToString();
      const int64_t arena = IntervalArenaSize(intervals, *offsets, alignment);
      ASSERT_GE(arena, bound) << StrategyName(strategy);
      if (strategy == Strategy::kNoReuse) no_reuse = arena;
    }
    PlanOptions options;
    options.alignment = alignment;
    options.search_budget_ms = trial % 20 == 0 ? 0.2 : 0.0;
    auto best = PlanIntervalsBest(intervals, options);
    ASSERT_TRUE(best.ok());
    ASSERT_TRUE(CheckIntervalPlan(intervals, best->offsets, alignment).ok());
    ASSERT_EQ(IntervalArenaSize(intervals, best->offsets, alignment), best->arena_bytes);
    ASSERT_LE(best->arena_bytes, no_reuse);
    ASSERT_GE(best->arena_bytes, bound);
    ASSERT_EQ(best->lower_bound.bytes, bound);
  }
}

// A random DAG: Data and Const sources, ops with 1-3 inputs, views (reuse-input), in-place ops,
// PhonyConcats over fresh pieces, workspaces, and a NetOutput reading a few tensors.
void BuildRandomDag(std::mt19937& rng, MemGraph& g) {
  std::vector<NodePtr> nodes;
  auto pick = [&]() { return nodes[rng() % nodes.size()]; };
  auto bytes = [&]() { return static_cast<int64_t>(rng() % 4 == 0 ? 0 : 32 * (1 + rng() % 64)); };
  const int inputs = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < inputs; ++i)
    nodes.push_back(g.Add("data" + std::to_string(i), "Data", 0, {bytes()}));
  if (rng() % 2 == 0) nodes.push_back(g.Add("weight", "Const", 0, {bytes()}));
  const int ops = 3 + static_cast<int>(rng() % 30);
  for (int i = 0; i < ops; ++i) {
    const std::string name = "n" + std::to_string(i);
    const uint32_t kind = rng() % 10;
    if (kind == 0) {  // a view of its input
      NodePtr view = g.Op(name, {pick()}, {0}, "Reshape");
      GeTensorDescPtr desc = view->GetOpDesc()->MutableOutputDesc(0);
      desc->SetSize(view->GetInDataAnchor(0)
                        ->GetPeerOutAnchor()
                        ->GetOwnerNode()
                        ->GetOpDesc()
                        ->GetOutputDesc(static_cast<uint32_t>(
                            view->GetInDataAnchor(0)->GetPeerOutAnchor()->GetIdx()))
                        .GetSize());
      desc->SetReuseInput(true);
      nodes.push_back(view);
    } else if (kind == 1) {  // in-place elementwise
      NodePtr input = pick();
      const int64_t size = input->GetOpDesc()->GetOutputDesc(0).GetSize();
      NodePtr op = g.Op(name, {input}, {size}, "Relu");
      AttrUtils::SetListInt(op->GetOpDesc(), kAttrInplaceOutputInput, std::vector<int64_t>{0});
      nodes.push_back(op);
    } else if (kind == 2) {  // a continuous buffer over fresh pieces
      const int pieces = 2 + static_cast<int>(rng() % 3);
      const int64_t piece = 32 * (1 + static_cast<int64_t>(rng() % 8));
      std::vector<NodePtr> parts;
      for (int p = 0; p < pieces; ++p) {
        parts.push_back(g.Op(name + "_p" + std::to_string(p), {pick()}, {piece}));
      }
      NodePtr concat = g.Op(name, parts, {piece * pieces + 32}, "PhonyConcat");
      nodes.push_back(concat);
    } else {
      const int fan_in = 1 + static_cast<int>(rng() % 3);
      std::vector<NodePtr> in;
      for (int k = 0; k < fan_in; ++k) in.push_back(pick());
      const int outs = rng() % 5 == 0 ? 2 : 1;
      std::vector<int64_t> sizes;
      for (int k = 0; k < outs; ++k) sizes.push_back(bytes());
      NodePtr op = g.Op(name, in, sizes);
      if (rng() % 4 == 0) op->GetOpDesc()->SetWorkspaceBytes({bytes(), bytes()});
      nodes.push_back(op);
    }
  }
  const int outputs = 1 + static_cast<int>(rng() % 3);
  std::vector<NodePtr> results;
  for (int i = 0; i < outputs; ++i) results.push_back(nodes[nodes.size() - 1 - rng() % 4]);
  g.Op("netoutput", results, {}, "NetOutput");
}

// A random topological order of the builder's nodes (Kahn's algorithm, random ready node).
std::vector<NodePtr> RandomTopoOrder(std::mt19937& rng, const std::vector<NodePtr>& nodes) {
  std::map<Node*, int> pending;
  for (const NodePtr& n : nodes) pending[n.get()] = static_cast<int>(n->GetInDataNodes().size());
  std::vector<NodePtr> ready;
  for (const NodePtr& n : nodes) {
    if (pending[n.get()] == 0) ready.push_back(n);
  }
  std::vector<NodePtr> order;
  while (!ready.empty()) {
    const size_t at = rng() % ready.size();
    NodePtr node = ready[at];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(at));
    order.push_back(node);
    for (const NodePtr& out : node->GetOutDataNodes()) {
      if (--pending[out.get()] == 0) ready.push_back(out);
    }
  }
  return order;
}

TEST(PlannerProperty, RandomDagsGetValidPlansWithinBounds) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("dag " + std::to_string(trial));
    MemGraph g("dag" + std::to_string(trial));
    BuildRandomDag(rng, g);
    const std::vector<NodePtr> order = RandomTopoOrder(rng, g.order());
    ASSERT_EQ(order.size(), g.order().size());
    PlanOptions options;
    options.alignment = kAlignments[1 + rng() % 3];
    options.separate_outputs = rng() % 2 == 0;
    options.search_budget_ms = trial % 10 == 0 ? 0.5 : 0.0;
    auto plan = PlanGraphMemory(g.graph(), order, options);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    ASSERT_TRUE(CheckMemoryPlan(*plan).ok());
    const auto no_reuse =
        std::find_if(plan->strategies.begin(), plan->strategies.end(),
                     [](const StrategyResult& s) { return s.name == "no_reuse"; });
    ASSERT_NE(no_reuse, plan->strategies.end());
    ASSERT_LE(plan->arena_bytes, no_reuse->arena_bytes);
    ASSERT_GE(plan->arena_bytes, plan->lower_bound);
    ASSERT_TRUE(ApplyMemoryPlan(g.graph(), *plan).ok());
  }
}

}  // namespace
}  // namespace ge::memory
