// Placement of nodes on engines (first supporting engine by priority) and the optimizer hooks.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "ge/engine/engine_manager.h"

namespace ge {
namespace {

struct Choice {
  OpDesc* op_desc;
  const EngineInfo* engine;
};

}  // namespace

Status EngineManager::PlaceNodes(ComputeGraph& graph) const {
  const std::vector<EngineInfo>& engines = GetEngines();
  std::vector<Choice> choices;
  std::string unsupported;
  size_t unsupported_count = 0;
  for (const NodePtr& node : graph.GetAllNodes()) {
    const OpDescPtr op_desc = node->GetOpDesc();
    if (op_desc == nullptr) {
      return ParamInvalid("PlaceNodes: node '" + node->GetName() + "' in graph '" +
                          graph.GetName() + "' has no OpDesc");
    }
    const EngineInfo* chosen = nullptr;
    std::string reasons;
    for (const EngineInfo& engine : engines) {
      std::string reason;
      if (engine.store->CheckSupported(op_desc, reason)) {
        chosen = &engine;
        break;
      }
      reasons += "\n    " + engine.config.name + " (" + engine.config.kernel_lib +
                 "): " + (reason.empty() ? "not supported (no reason given)" : reason);
    }
    if (chosen == nullptr) {
      ++unsupported_count;
      unsupported += "\n  node '" + node->GetName() + "' (type " + node->GetType() + ")" +
                     (engines.empty() ? ": no engine is loaded" : ", engines asked:" + reasons);
      continue;
    }
    choices.push_back({op_desc.get(), chosen});
  }
  if (unsupported_count > 0) {
    return ParamInvalid("PlaceNodes: " + std::to_string(unsupported_count) + " node(s) of graph '" +
                        graph.GetName() +
                        "' are supported by no engine; replace them with supported operators "
                        "or load an engine that supports them:" +
                        unsupported);
  }
  for (const Choice& choice : choices) {
    choice.op_desc->SetOpEngineName(choice.engine->config.name);
    choice.op_desc->SetOpKernelLibName(choice.engine->config.kernel_lib);
  }
  return Status::Ok();
}

Status EngineManager::RunGraphOptimizers(OptimizeStage stage, ComputeGraph& graph,
                                         const OptimizerTimer& timed) const {
  using Clock = std::chrono::steady_clock;
  for (const EngineInfo& engine : GetEngines()) {
    for (const auto& [name, optimizer] : engine.optimizers) {
      const Clock::time_point start = Clock::now();
      Status status = optimizer->Optimize(stage, graph);
      if (timed) {
        timed(engine.config.name, name,
              std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
      if (!status.ok()) {
        return std::move(status).Prefix(std::string(OptimizeStageName(stage)) + " of graph '" +
                                        graph.GetName() + "' by optimizer '" + name +
                                        "' of engine '" + engine.config.name + "'");
      }
    }
  }
  return Status::Ok();
}

}  // namespace ge
