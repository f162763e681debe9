// Parallel streams: a model with two independent convolution chains compiled for one stream
// (the chains in turn, every kernel on the whole threads budget) and for two (each chain on its
// own stream thread, the budget split between them), run at the same total threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>

#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"
#include "ge/runtime/loaded_model.h"

namespace ge {
namespace {

constexpr int64_t kChannels = 64;
constexpr int64_t kSide = 56;
constexpr int kChainLength = 4;

GeTensor Tensor(std::vector<int64_t> dims, uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.1F, 0.1F);
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * sizeof(float));
  for (int64_t i = 0; i < n; ++i) {
    const float v = dist(rng);
    std::memcpy(bytes.data() + i * static_cast<int64_t>(sizeof(float)), &v, sizeof(float));
  }
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, DT_FLOAT);
  desc.SetOriginShape(GeShape(dims));
  return GeTensor(desc, std::move(bytes));
}

Result<NodePtr> AddOp(ComputeGraph& graph, const std::string& type, const std::string& name,
                      const std::vector<NodePtr>& inputs, uint32_t dynamic_inputs = 0) {
  DynamicPortCounts counts;
  if (dynamic_inputs > 0) counts["x"] = dynamic_inputs;
  GE_ASSIGN_OR_RETURN(OpDescPtr op, OpRegistry::Instance().CreateOpDesc(type, name, counts));
  if (type == "Conv2D") {
    op->MutableAttrMap().Set("pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1}));
    op->MutableAttrMap().Set("strides", AttrValue(std::vector<int64_t>{1, 1}));
  }
  GE_ASSIGN_OR_RETURN(NodePtr node, graph.AddNode(op));
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(inputs[i]->GetOutDataAnchor(0),
                                           node->GetInDataAnchor(static_cast<int>(i))));
  }
  return node;
}

// x -> two chains of kChainLength (Conv2D 3x3 64->64 + Relu) -> Add -> output.
Result<ComputeGraphPtr> TwoChains() {
  auto graph = std::make_shared<ComputeGraph>("two_chains");
  GE_ASSIGN_OR_RETURN(OpDescPtr data, OpRegistry::Instance().CreateOpDesc("Data", "x", {}));
  GeTensorDesc desc(GeShape({1, kChannels, kSide, kSide}), FORMAT_ND, DT_FLOAT);
  desc.SetOriginShape(desc.GetShape());
  GE_RETURN_IF_ERROR(data->UpdateOutputDesc(0, desc));
  GE_ASSIGN_OR_RETURN(NodePtr x, graph->AddNode(data));
  GE_RETURN_IF_ERROR(graph->AddInputNode(x));
  std::vector<NodePtr> ends;
  uint32_t seed = 1;
  for (const char* chain : {"a", "b"}) {
    NodePtr current = x;
    for (int i = 0; i < kChainLength; ++i) {
      const std::string name = chain + std::to_string(i);
      NodePtr w;
      NodePtr bias;
      GE_ASSIGN_OR_RETURN(w, graph->AddNode(OpDescUtils::CreateConstOp(
                                 name + "_w", Tensor({kChannels, kChannels, 3, 3}, seed++))));
      GE_ASSIGN_OR_RETURN(bias, graph->AddNode(OpDescUtils::CreateConstOp(
                                    name + "_b", Tensor({kChannels}, seed++))));
      GE_ASSIGN_OR_RETURN(current, AddOp(*graph, "Conv2D", name, {current, w, bias}));
      GE_ASSIGN_OR_RETURN(current, AddOp(*graph, "Relu", name + "_relu", {current}));
    }
    ends.push_back(current);
  }
  GE_ASSIGN_OR_RETURN(NodePtr sum, AddOp(*graph, "Add", "sum", ends));
  GE_ASSIGN_OR_RETURN(NodePtr out, AddOp(*graph, "NetOutput", "output", {sum}, 1));
  (void)out;
  return graph;
}

// Arguments: streams (1 or 2), total threads.
void BM_TwoConvChains(benchmark::State& state) {
  const int streams = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  Status ops = OpsProtoManager::Instance().Initialize({});
  if (!ops.ok()) return state.SkipWithError(ops.message().c_str());
  std::map<std::string, std::string> options = {{"ge.enginePluginPath", GE_BENCH_ENGINE_DIR}};
  if (streams > 1) {
    options["ge.enableSingleStream"] = "false";
    options["openge.maxStreamNum"] = std::to_string(streams);
  }
  auto compiler = Compiler::Create(options);
  if (!compiler.ok()) return state.SkipWithError(compiler.status().message().c_str());
  auto graph = TwoChains();
  if (!graph.ok()) return state.SkipWithError(graph.status().message().c_str());
  auto compiled = (*compiler)->Compile(*graph);
  if (!compiled.ok()) return state.SkipWithError(compiled.status().message().c_str());
  RuntimeOptions runtime;
  runtime.options = {{"ge.enginePluginPath", GE_BENCH_ENGINE_DIR}};
  runtime.threads = threads;
  auto model = LoadedModel::Load(std::move(compiled).value(), runtime);
  if (!model.ok()) return state.SkipWithError(model.status().message().c_str());
  const std::vector<GeTensor> inputs = {Tensor({1, kChannels, kSide, kSide}, 99)};
  for (auto _ : state) {
    auto out = (*model)->Run(inputs);
    if (!out.ok()) return state.SkipWithError(out.status().message().c_str());
    benchmark::DoNotOptimize(out->data());
  }
  state.counters["streams"] = (*model)->execution().streams;
  state.counters["arena_MiB"] = static_cast<double>((*model)->arena_bytes()) / (1 << 20);
}
BENCHMARK(BM_TwoConvChains)
    ->ArgNames({"streams", "threads"})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({2, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    // On a shared machine the fastest repetition is the closest to the unloaded time.
    ->ComputeStatistics("min", [](const std::vector<double>& v) {
      return *std::min_element(v.begin(), v.end());
    });

}  // namespace
}  // namespace ge

BENCHMARK_MAIN();
