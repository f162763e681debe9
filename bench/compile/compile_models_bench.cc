// Compile time of the exported models, per stage, and their memory plans per strategy.
//   build/bench/compile_models_bench                 Google Benchmark timings and counters
//   build/bench/compile_models_bench --table         a Markdown table of the memory plans
#include <benchmark/benchmark.h>

#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "ge/compiler/compiler.h"
#include "ge/ops/ops_proto_manager.h"
#include "ge/parser/onnx_parser.h"

namespace ge {
namespace {

struct BenchModel {
  const char* name;
  const char* dir;
  const char* input_shape;
};
constexpr BenchModel kModels[] = {{"resnet18", "resnet18_opset17", ""},
                                  {"mobilenet_v2", "mobilenet_v2_opset17", ""},
                                  {"bert_encoder", "bert_encoder_opset17", "input_ids:2,16"}};

Result<CompiledModel> CompileOnce(const BenchModel& model) {
  GE_ASSIGN_OR_RETURN(ComputeGraphPtr graph, ParseOnnxFile(std::string(GE_BENCH_MODELS_DIR) + "/" +
                                                           model.dir + "/model.onnx"));
  std::map<std::string, std::string> options = {{"ge.enginePluginPath", GE_BENCH_ENGINE_DIR}};
  if (model.input_shape[0] != '\0') options["ge.inputShape"] = model.input_shape;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(options));
  return compiler->Compile(graph);
}

void BM_Compile(benchmark::State& state, const BenchModel& model) {
  std::map<std::string, double> stage_ms;
  CompileReport last;
  for (auto _ : state) {
    Result<CompiledModel> compiled = CompileOnce(model);
    if (!compiled.ok()) {
      state.SkipWithError(compiled.status().message().c_str());
      return;
    }
    for (const StageReport& s : compiled->report.stages) stage_ms[s.name] += s.millis;
    last = compiled->report;
  }
  for (const auto& [name, ms] : stage_ms) {
    state.counters[name + "_ms"] = ms / static_cast<double>(state.iterations());
  }
  state.counters["nodes_in"] = static_cast<double>(last.nodes_parsed);
  state.counters["nodes_out"] = static_cast<double>(last.nodes_compiled);
  state.counters["arena_KiB"] = static_cast<double>(last.memory.arena_bytes) / 1024.0;
  state.counters["ratio"] = last.memory.lower_bound > 0
                                ? static_cast<double>(last.memory.arena_bytes) /
                                      static_cast<double>(last.memory.lower_bound)
                                : 1.0;
}

int PrintTable() {
  std::cout << "| model | lower bound | arena (chosen) | ratio | order | per strategy (default "
               "order) | per order (best strategy) |\n|---|---|---|---|---|---|---|\n";
  for (const BenchModel& model : kModels) {
    Result<CompiledModel> compiled = CompileOnce(model);
    if (!compiled.ok()) {
      std::cerr << model.name << ": " << compiled.status().message() << "\n";
      return 1;
    }
    const MemoryReport& m = compiled->report.memory;
    auto kib = [](int64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; };
    std::string strategies, orders;
    for (const auto& [name, bytes] : m.strategy_bytes) strategies += name + " " + kib(bytes) + "; ";
    for (const auto& [name, bytes] : m.order_bytes) orders += name + " " + kib(bytes) + "; ";
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%.3f",
                  m.lower_bound > 0
                      ? static_cast<double>(m.arena_bytes) / static_cast<double>(m.lower_bound)
                      : 1.0);
    std::cout << "| " << model.name << " | " << kib(m.lower_bound) << " | " << kib(m.arena_bytes)
              << " | " << ratio << " | " << m.topo_order << " | " << strategies << " | " << orders
              << " |\n";
  }
  return 0;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--table") == 0) return ge::PrintTable();
  for (const ge::BenchModel& model : ge::kModels) {
    benchmark::RegisterBenchmark((std::string("Compile/") + model.name).c_str(), ge::BM_Compile,
                                 model)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
