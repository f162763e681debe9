// Benchmarks of the static memory planner on 10,000-tensor inputs: random DAG-like interval sets
// and a real ComputeGraph (a chain with skip branches, as residual networks have).
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge::memory {
namespace {

// Tensor i is produced at step i and read up to a few steps later; one in twenty is a long-lived
// skip connection, one in a hundred lives to the end (a graph output).
std::vector<Interval> DagLikeIntervals(int64_t count) {
  std::mt19937 rng(42);
  std::vector<Interval> intervals;
  intervals.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t last = i + 1 + static_cast<int64_t>(rng() % 4);
    if (rng() % 20 == 0) last = i + 10 + static_cast<int64_t>(rng() % 200);
    if (rng() % 100 == 0) last = count - 1;
    const int64_t size = 64 * (1 + static_cast<int64_t>(rng() % 1024));
    intervals.push_back({size, i, std::min(last, count - 1)});
  }
  return intervals;
}

void Report(benchmark::State& state, int64_t arena, int64_t bound) {
  state.counters["arena_MiB"] = static_cast<double>(arena) / (1 << 20);
  state.counters["bound_MiB"] = static_cast<double>(bound) / (1 << 20);
  state.counters["ratio"] = bound > 0 ? static_cast<double>(arena) / static_cast<double>(bound) : 1;
}

void BM_PlanIntervalsStrategy(benchmark::State& state) {
  const std::vector<Interval> intervals = DagLikeIntervals(state.range(1));
  const auto strategy = static_cast<Strategy>(state.range(0));
  int64_t arena = 0;
  for (auto _ : state) {
    auto offsets = PlanIntervals(strategy, intervals, 64);
    arena = IntervalArenaSize(intervals, *offsets, 64);
    benchmark::DoNotOptimize(arena);
  }
  state.SetLabel(std::string(StrategyName(strategy)));
  Report(state, arena, IntervalLowerBound(intervals, 64).bytes);
}
BENCHMARK(BM_PlanIntervalsStrategy)
    ->ArgsProduct({{0, 1, 2, 3}, {10000}})
    ->Unit(benchmark::kMillisecond);

// Every strategy, then the local search with the given budget (ms).
void BM_PlanIntervalsBest(benchmark::State& state) {
  const std::vector<Interval> intervals = DagLikeIntervals(10000);
  PlanOptions options;
  options.search_budget_ms = static_cast<double>(state.range(0));
  IntervalPlan plan;
  for (auto _ : state) {
    plan = *PlanIntervalsBest(intervals, options);
    benchmark::DoNotOptimize(plan.arena_bytes);
  }
  state.SetLabel(plan.strategy);
  Report(state, plan.arena_bytes, plan.lower_bound.bytes);
}
BENCHMARK(BM_PlanIntervalsBest)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);

// A chain of `count` nodes; every fourth node also reads the output three nodes back, and every
// eighth carries a workspace; Data and Const at the front, NetOutput at the end.
struct ChainGraph {
  ComputeGraphPtr graph = std::make_shared<ComputeGraph>("chain");
  std::vector<NodePtr> order;

  NodePtr Add(const std::string& name, const std::string& type, int inputs, int64_t bytes) {
    auto op = std::make_shared<OpDesc>(name, type);
    for (int i = 0; i < inputs; ++i) (void)op->AddInputDesc(GeTensorDesc(GeShape({1})));
    if (bytes >= 0) {
      GeTensorDesc desc(GeShape({bytes / 4}));
      desc.SetSize(bytes);
      (void)op->AddOutputDesc(desc);
    }
    NodePtr node = *graph->AddNode(op);
    order.push_back(node);
    return node;
  }

  explicit ChainGraph(int count) {
    std::mt19937 rng(7);
    NodePtr data = Add("data", "Data", 0, 1 << 16);
    NodePtr weight = Add("weight", "Const", 0, 1 << 12);
    std::vector<NodePtr> chain = {data};
    for (int i = 0; i < count; ++i) {
      const bool skip = i % 4 == 3 && chain.size() > 3;
      const int64_t bytes = 1024 * (1 + static_cast<int64_t>(rng() % 256));
      std::string name = "n";
      name += std::to_string(i);
      NodePtr node = Add(name, "Op", skip ? 3 : 2, bytes);
      (void)GraphUtils::AddEdge(chain.back()->GetOutDataAnchor(0), node->GetInDataAnchor(0));
      (void)GraphUtils::AddEdge(weight->GetOutDataAnchor(0), node->GetInDataAnchor(1));
      if (skip) {
        (void)GraphUtils::AddEdge(chain[chain.size() - 3]->GetOutDataAnchor(0),
                                  node->GetInDataAnchor(2));
      }
      if (i % 8 == 0) node->GetOpDesc()->SetWorkspaceBytes({4096});
      chain.push_back(node);
    }
    NodePtr out = Add("netoutput", "NetOutput", 1, -1);
    (void)GraphUtils::AddEdge(chain.back()->GetOutDataAnchor(0), out->GetInDataAnchor(0));
  }
};

void BM_PlanGraphMemory(benchmark::State& state) {
  const ChainGraph chain(static_cast<int>(state.range(0)));
  PlanOptions options;
  options.search_budget_ms = static_cast<double>(state.range(1));
  MemoryPlan plan;
  for (auto _ : state) {
    plan = *PlanGraphMemory(*chain.graph, chain.order, options);
    benchmark::DoNotOptimize(plan.arena_bytes);
  }
  state.counters["tensors"] = static_cast<double>(plan.tensors.size());
  state.SetLabel(plan.strategy);
  Report(state, plan.arena_bytes, plan.lower_bound);
}
BENCHMARK(BM_PlanGraphMemory)->Args({10000, 0})->Args({10000, 30})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge::memory

BENCHMARK_MAIN();
