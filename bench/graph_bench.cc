// Benchmarks of the graph core at 10k, 100k and 1M nodes: building a chain and a random DAG,
// topological sorting in every mode, copying, and removing 10% of the nodes. Times are reported
// per node (items/s); the removal benchmark counts removed nodes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/utils/graph_utils.h"

namespace ge {
namespace {

constexpr uint32_t kSeed = 20240601;

// Aborts the benchmark binary: a failure here is a bug in the benchmark or the library.
void Check(const Status& status, const char* what) {
  if (status.ok()) return;
  std::cerr << what << ": " << status.ToString() << '\n';
  std::abort();
}

template <typename T>
T Take(Result<T> result, const char* what) {
  Check(result.status(), what);
  return std::move(result).value();
}

OpDescPtr MakeOp(const std::string& name, const std::string& type, size_t num_inputs,
                 int64_t output_bytes) {
  auto op = std::make_shared<OpDesc>(name, type);
  const GeTensorDesc in(GeShape({4}), FORMAT_ND, DT_UINT8);
  for (size_t i = 0; i < num_inputs; ++i) Check(op->AddInputDesc(in), "AddInputDesc");
  Check(op->AddOutputDesc(GeTensorDesc(GeShape({output_bytes}), FORMAT_ND, DT_UINT8)),
        "AddOutputDesc");
  return op;
}

/// data → n1 → n2 → … (n nodes).
ComputeGraphPtr BuildChain(size_t n) {
  auto graph = std::make_shared<ComputeGraph>("chain");
  NodePtr prev = Take(graph->AddNode(MakeOp("n0", "Data", 0, 64)), "AddNode");
  for (size_t i = 1; i < n; ++i) {
    std::string name = "n";
    name += std::to_string(i);
    NodePtr node = Take(graph->AddNode(MakeOp(name, "Relu", 1, 64)), "AddNode");
    Check(GraphUtils::AddEdge(prev->GetOutDataAnchor(0), node->GetInDataAnchor(0)), "AddEdge");
    prev = std::move(node);
  }
  return graph;
}

/// A random DAG with fan-out: a few Data nodes, ~5% Const sources; every other node takes 1–3
/// data inputs from earlier nodes (mostly nearby, sometimes anywhere, sometimes one of a few
/// hubs) and one in ten also a control edge from an earlier node. Fixed seed.
ComputeGraphPtr BuildRandomDag(size_t n) {
  std::mt19937 rng(kSeed);
  auto uniform = [&](size_t bound) { return static_cast<size_t>(rng() % bound); };
  static const int64_t kBytes[] = {64, 256, 1024, 4096, 65536};
  auto graph = std::make_shared<ComputeGraph>("random_dag");
  std::vector<NodePtr> nodes;
  nodes.reserve(n);
  constexpr size_t kHubs = 8;
  for (size_t i = 0; i < n; ++i) {
    std::string name = "n";
    name += std::to_string(i);
    const int64_t bytes = kBytes[uniform(5)];
    if (i < kHubs || uniform(20) == 0) {
      const char* type = i < kHubs ? "Data" : "Const";
      nodes.push_back(Take(graph->AddNode(MakeOp(name, type, 0, bytes)), "AddNode"));
      continue;
    }
    const size_t num_inputs = 1 + uniform(3);
    NodePtr node = Take(graph->AddNode(MakeOp(name, "Op", num_inputs, bytes)), "AddNode");
    for (size_t k = 0; k < num_inputs; ++k) {
      const size_t pick = uniform(10);
      const size_t j = pick < 6   ? i - 1 - uniform(std::min<size_t>(i, 32))
                       : pick < 9 ? uniform(i)
                                  : uniform(kHubs);
      Check(GraphUtils::AddEdge(nodes[j]->GetOutDataAnchor(0),
                                node->GetInDataAnchor(static_cast<int>(k))),
            "AddEdge");
    }
    if (uniform(10) == 0) {
      const NodePtr& src = nodes[uniform(i)];
      if (!src->GetOutControlAnchor()->IsLinkedWith(node->GetInControlAnchor())) {
        Check(GraphUtils::AddEdge(src->GetOutControlAnchor(), node->GetInControlAnchor()),
              "AddEdge");
      }
    }
    nodes.push_back(std::move(node));
  }
  return graph;
}

/// A random DAG of n nodes in a shuffled (invalid) order, built once and shared by the sort and
/// copy benchmarks; `order` is that shuffled order, restored before every sort.
struct SharedDag {
  ComputeGraphPtr graph;
  std::vector<NodePtr> order;
};

std::map<size_t, SharedDag>& DagCache() {
  static std::map<size_t, SharedDag> cache;
  return cache;
}

/// Makes `graph` (a BuildRandomDag(n)) the shared DAG of size n, dropping any other.
SharedDag& AdoptIntoCache(size_t n, ComputeGraphPtr graph) {
  auto& cache = DagCache();
  cache.clear();  // one graph at a time: a 1M-node graph is large
  SharedDag dag{std::move(graph), {}};
  dag.order = dag.graph->GetDirectNode();
  std::mt19937 rng(kSeed + 1);
  std::shuffle(dag.order.begin(), dag.order.end(), rng);
  return cache.emplace(n, std::move(dag)).first->second;
}

SharedDag& CachedDag(size_t n) {
  auto found = DagCache().find(n);
  if (found != DagCache().end()) return found->second;
  return AdoptIntoCache(n, BuildRandomDag(n));
}

/// Takes the shared DAG of size n out of the cache (a fresh build when there is none).
ComputeGraphPtr TakeCachedDagOrBuild(size_t n) {
  auto found = DagCache().find(n);
  ComputeGraphPtr graph = found != DagCache().end() ? found->second.graph : BuildRandomDag(n);
  DagCache().clear();
  return graph;
}

void SetPerNode(benchmark::State& state, int64_t per_iteration) {
  state.SetItemsProcessed(state.iterations() * per_iteration);
  state.counters["nodes"] = static_cast<double>(per_iteration);
}

// ---- benchmarks ----

void BM_BuildChain(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    ComputeGraphPtr graph = BuildChain(n);
    benchmark::DoNotOptimize(graph.get());
    state.PauseTiming();
    graph.reset();
    state.ResumeTiming();
  }
  SetPerNode(state, state.range(0));
}

void BM_BuildRandomDag(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  ComputeGraphPtr last;
  for (auto _ : state) {
    ComputeGraphPtr graph = BuildRandomDag(n);
    benchmark::DoNotOptimize(graph.get());
    state.PauseTiming();
    last = std::move(graph);
    state.ResumeTiming();
  }
  AdoptIntoCache(n, std::move(last));  // the sort and copy benchmarks that follow reuse it
  SetPerNode(state, state.range(0));
}

void BM_Sort(benchmark::State& state, TopoSortOptions options) {
  SharedDag& dag = CachedDag(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    Check(dag.graph->ReorderNodes(dag.order), "ReorderNodes");
    state.ResumeTiming();
    Check(dag.graph->TopologicalSorting(options), "TopologicalSorting");
  }
  SetPerNode(state, state.range(0));
}

void BM_CopyComputeGraph(benchmark::State& state) {
  SharedDag& dag = CachedDag(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    ComputeGraphPtr copy = Take(GraphUtils::CopyComputeGraph(dag.graph), "CopyComputeGraph");
    benchmark::DoNotOptimize(copy.get());
    state.PauseTiming();
    copy.reset();
    state.ResumeTiming();
  }
  SetPerNode(state, state.range(0));
}

void BM_RemoveTenPercent(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::mt19937 rng(kSeed + 2);
  int64_t removed_total = 0;
  for (auto _ : state) {
    state.PauseTiming();
    // The first iteration consumes the shared DAG (it is registered last for each size).
    ComputeGraphPtr graph = TakeCachedDagOrBuild(n);
    std::vector<NodePtr> victims = graph->GetDirectNode();
    std::shuffle(victims.begin(), victims.end(), rng);
    victims.resize(n / 10);
    state.ResumeTiming();
    for (const NodePtr& node : victims) {
      // RemoveNode also drops a Const left without consumers, which may be a later victim.
      if (!graph->HasNode(node.get())) continue;
      Check(graph->RemoveNode(node), "RemoveNode");
      ++removed_total;
    }
    state.PauseTiming();
    victims.clear();
    graph.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(removed_total);
  state.counters["removed"] =
      benchmark::Counter(static_cast<double>(removed_total), benchmark::Counter::kAvgIterations);
}

constexpr int64_t kSizes[] = {10'000, 100'000, 1'000'000};

// 10k and 100k run for a short minimum time; 1M runs one iteration.
void Register(const std::string& name, int64_t n,
              const std::function<void(benchmark::State&)>& fn) {
  auto* bench =
      benchmark::RegisterBenchmark(name.c_str(), fn)->Arg(n)->Unit(benchmark::kMillisecond);
  if (n >= 1'000'000) {
    bench->Iterations(1);
  } else {
    bench->MinTime(0.3);
  }
}

// Size-major order, so the shared DAG of each size is built once.
void RegisterAll() {
  const std::vector<std::pair<std::string, TopoSortOptions>> modes = {
      {"Sort/BFS", {TopoSortingMode::kBFS, /*memory_priority=*/false}},
      {"Sort/DFS", {TopoSortingMode::kDFS, /*memory_priority=*/false}},
      {"Sort/RDFS", {TopoSortingMode::kRDFS, /*memory_priority=*/false}},
      {"Sort/StableRDFS", {TopoSortingMode::kStableRDFS, /*memory_priority=*/false}},
      {"Sort/BFS+MemoryPriority", {TopoSortingMode::kBFS, /*memory_priority=*/true}},
  };
  for (int64_t n : kSizes) {
    Register("BuildChain", n, BM_BuildChain);
    Register("BuildRandomDag", n, BM_BuildRandomDag);
    for (const auto& [name, options] : modes) {
      const TopoSortOptions captured = options;
      Register(name, n, [captured](benchmark::State& state) { BM_Sort(state, captured); });
    }
    Register("CopyComputeGraph", n, BM_CopyComputeGraph);
    Register("RemoveTenPercent", n, BM_RemoveTenPercent);
  }
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) {
  ge::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
