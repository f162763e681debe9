// The compiler's pipeline: the explicit list of stages and passes, and the CompiledModel.
#include "ge/compiler/compiler.h"

#include <algorithm>
#include <chrono>
#include <functional>

#include "build/build_stage.h"
#include "ge/compiler/graph_pass.h"
#include "ge/compiler/passes.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/node.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// A pipeline step that is a function rather than a pass class (engine hooks, build steps).
class FunctionPass final : public GraphPass {
 public:
  FunctionPass(std::string name, std::function<Result<bool>(ComputeGraph&)> fn)
      : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override { return fn_(graph); }
  std::string name_;
  std::function<Result<bool>(ComputeGraph&)> fn_;
};

// The passes a user may switch off: the optimize stage's, and the TransData pair removal after
// the engines' layout hooks; the others are required.
const std::vector<std::string>& OptimizePassNames() {
  static const std::vector<std::string> kNames = {
      "ConstantFolding", "RemoveIdentity",      "SimplifyChains", "CommonSubexpressionElimination",
      "Fusion",          "DeadCodeElimination", "InPlaceConcat",  "RemoveTransDataPairs"};
  return kNames;
}

std::map<std::string, int64_t> CountTypes(const ComputeGraph& graph) {
  std::map<std::string, int64_t> counts;
  for (const NodePtr& node : graph.GetAllNodes()) ++counts[node->GetType()];
  return counts;
}

}  // namespace

struct Compiler::Impl {
  CompileOptions options;
  EngineManager engines;
  ProgressFn progress;

  Result<CompiledModel> Compile(const ComputeGraphPtr& graph_ptr, const std::string& last_stage);
};

void Compiler::SetProgress(ProgressFn progress) { impl_->progress = std::move(progress); }

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {}
Compiler::~Compiler() {
  if (impl_ != nullptr && impl_->engines.IsInitialized()) (void)impl_->engines.Finalize();
}

const CompileOptions& Compiler::options() const { return impl_->options; }
const EngineManager& Compiler::engines() const { return impl_->engines; }

std::vector<std::pair<std::string, std::vector<std::string>>> Compiler::Pipeline() {
  return {
      {"prepare", {"ApplyInputShapes", "VerifyNodes", "InferShape"}},
      {"optimize",
       {"EngineOptimizeOriginalGraph", "ConstantFolding", "RemoveIdentity", "SimplifyChains",
        "CommonSubexpressionElimination", "Fusion", "DeadCodeElimination", "InferShapeFinal",
        "InPlaceConcat"}},
      {"place",
       {"PlaceNodes", "EngineOptimizeOriginalGraphJudgeInsert", "EngineOptimizeFusedGraph",
        "EngineOptimizeWholeGraph", "RemoveTransDataPairs"}},
      {"build",
       {"CalcOpRunningParam", "MemoryAssignment", "StreamAssignment", "TaskGeneration"}},
  };
}

std::vector<std::string> Compiler::DisablablePasses() { return OptimizePassNames(); }

Result<std::unique_ptr<Compiler>> Compiler::Create(
    const std::map<std::string, std::string>& options) {
  return CatchExceptions("Compiler::Create", [&]() -> Result<std::unique_ptr<Compiler>> {
    std::unique_ptr<Compiler> compiler(new Compiler());
    GE_ASSIGN_OR_RETURN(compiler->impl_->options, CompileOptions::Parse(options));
    for (const std::string& name : compiler->impl_->options.disabled_passes) {
      const auto& allowed = OptimizePassNames();
      if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
      std::string list;
      for (const std::string& n : allowed) list += (list.empty() ? "" : ", ") + n;
      bool required = false;
      for (const auto& [stage, names] : Pipeline()) {
        required = required || std::find(names.begin(), names.end(), name) != names.end();
      }
      return ParamInvalid(std::string(required ? "pass '" + name + "' is required and cannot be disabled"
                                               : "unknown pass '" + name + "'") +
                          " (" + kOptDisablePasses + "); passes that can be disabled: " + list);
    }
    Status loaded = OpsProtoManager::Instance().Initialize(options);
    if (!loaded.ok()) return std::move(loaded).Prefix("loading operator prototypes");
    for (const char* type : {"Data", "Const", "NetOutput"}) {
      if (OpRegistry::Instance().Has(type)) continue;
      std::string dirs;
      for (const std::string& d : OpsProtoManager::SearchPath(options)) dirs += (dirs.empty() ? "" : ", ") + d;
      return ParamInvalid(std::string("no operator library defines the skeleton operator ") + type +
                          ": the built-in library (libge_builtin_ops.so) is missing from " +
                          (dirs.empty() ? std::string("every search directory") : dirs) +
                          "; build target ge_builtin_ops or name its directory with " +
                          kOptOpsProtoLibPath);
    }
    Status engines = compiler->impl_->engines.Initialize(options);
    if (!engines.ok()) return std::move(engines).Prefix("loading engines");
    return compiler;
  });
}

Result<CompiledModel> Compiler::Compile(const ComputeGraphPtr& graph_ptr,
                                       const std::string& last_stage) {
  return CatchExceptions("Compiler::Compile",
                         [&] { return impl_->Compile(graph_ptr, last_stage); });
}

Result<CompiledModel> Compiler::Impl::Compile(const ComputeGraphPtr& graph_ptr,
                                             const std::string& last_stage) {
  if (graph_ptr == nullptr) return ParamInvalid("Compile: no graph given");
  {
    bool known = false;
    for (const auto& [stage, names] : Compiler::Pipeline()) known = known || stage == last_stage;
    if (!known) {
      return ParamInvalid("Compile: unknown stage '" + last_stage +
                          "' (stages: prepare, optimize, place, build)");
    }
  }
  ComputeGraph& graph = *graph_ptr;
  const auto start = std::chrono::steady_clock::now();
  {
    Status valid = GraphVerifier::Verify(graph);
    if (!valid.ok()) return std::move(valid).Prefix("the input graph is invalid");
  }
  const CompileOptions& options = this->options;
  const EngineManager& engines = this->engines;
  CompileReport report;
  report.graph_name = graph.GetName();
  report.nodes_parsed = graph.GetAllNodesSize();
  report.op_types_before = CountTypes(graph);
  build::BuildState state;
  PassContext context(options, OpRegistry::Instance());
  context.set_engines(&engines);

  auto hook = [&engines](OptimizeStage stage) {
    return [&engines, stage](ComputeGraph& g) -> Result<bool> {
      GE_RETURN_IF_ERROR(engines.RunGraphOptimizers(stage, g));
      return true;
    };
  };
  std::vector<PassManager> stages;
  // prepare: the graph as the frontend gave it, checked and with every shape known that can be.
  stages.emplace_back("prepare");
  stages.back().Add(CreateApplyInputShapesPass());
  stages.back().Add(CreateVerifyNodesPass());
  stages.back().Add(CreateInferShapePass());
  // optimize: engine hooks first (they may rewrite operators), then folding (which removes the
  // Shape family when shapes are known), identity removal, chain simplification, CSE, and DCE
  // last so it collects what the others left unconsumed; shapes are inferred again at the end.
  stages.emplace_back("optimize");
  stages.back().Add(std::make_unique<FunctionPass>("EngineOptimizeOriginalGraph",
                                                   hook(OptimizeStage::kOriginalGraph)));
  stages.back().Add(CreateConstantFoldingPass());
  stages.back().Add(CreateRemoveIdentityPass());
  stages.back().Add(CreateSimplifyChainsPass());
  stages.back().Add(CreateCsePass());
  stages.back().Add(CreateFusionPass());
  stages.back().Add(CreateDeadCodeEliminationPass());
  stages.back().Add(CreateInferShapePass("InferShapeFinal"));
  stages.back().Add(CreateInPlaceConcatPass());
  // place: each node to the first engine (by priority) that supports it; then engine hooks.
  stages.emplace_back("place");
  stages.back().Add(std::make_unique<FunctionPass>("PlaceNodes", [&engines](ComputeGraph& g) -> Result<bool> {
    GE_RETURN_IF_ERROR(engines.PlaceNodes(g));
    return true;
  }));
  stages.back().Add(std::make_unique<FunctionPass>("EngineOptimizeOriginalGraphJudgeInsert",
                                                   hook(OptimizeStage::kOriginalGraphJudgeInsert)));
  stages.back().Add(std::make_unique<FunctionPass>("EngineOptimizeFusedGraph",
                                                   hook(OptimizeStage::kFusedGraph)));
  stages.back().Add(std::make_unique<FunctionPass>("EngineOptimizeWholeGraph",
                                                   hook(OptimizeStage::kWholeGraph)));
  stages.back().Add(CreateRemoveTransDataPairsPass());
  // build: running parameters (sizes), memory (which fixes the topological order), streams (and
  // the memory plan again when they run in parallel), tasks.
  stages.emplace_back("build");
  stages.back().Add(std::make_unique<FunctionPass>("CalcOpRunningParam", [&engines](ComputeGraph& g) -> Result<bool> {
    GE_RETURN_IF_ERROR(build::CalcRunningParams(g, engines));
    return true;
  }));
  stages.back().Add(std::make_unique<FunctionPass>("MemoryAssignment", [&](ComputeGraph& g) -> Result<bool> {
    GE_RETURN_IF_ERROR(build::PlanMemory(g, options, state));
    return true;
  }));
  stages.back().Add(std::make_unique<FunctionPass>("StreamAssignment", [&](ComputeGraph& g) -> Result<bool> {
    GE_ASSIGN_OR_RETURN(state.stream_count, build::AssignStreams(g, options, engines));
    // Streams run in parallel at run time: the plan made for the serial order is made safe.
    GE_RETURN_IF_ERROR(build::PlanMemoryForStreams(g, options, state.stream_count, state));
    return true;
  }));
  stages.back().Add(std::make_unique<FunctionPass>("TaskGeneration", [&](ComputeGraph& g) -> Result<bool> {
    GE_RETURN_IF_ERROR(build::GenerateTasks(g, options, engines, state));
    return false;  // tasks live beside the graph
  }));

  int pass_count = 0;
  for (const auto& [stage, names] : Compiler::Pipeline()) pass_count += static_cast<int>(names.size());
  int position = 0;
  std::string current_stage;
  if (progress) {
    context.set_on_pass_start([&](const std::string& pass) {
      progress(current_stage, pass, ++position, pass_count);
    });
  }
  for (PassManager& stage : stages) {
    current_stage = stage.stage();
    StageReport stage_report;
    stage_report.name = stage.stage();
    stage_report.nodes_before = graph.GetAllNodesSize();
    const auto stage_start = std::chrono::steady_clock::now();
    Status status = stage.Run(graph, context, stage_report);
    if (!status.ok()) {
      return std::move(status).Prefix("compiling graph '" + graph.GetName() + "', stage " +
                                      stage.stage());
    }
    stage_report.millis = MillisSince(stage_start);
    stage_report.nodes_after = graph.GetAllNodesSize();
    report.stages.push_back(std::move(stage_report));
    if (stage.stage() == last_stage) break;
  }

  CompiledModel model;
  model.graph = graph_ptr;
  model.tasks = std::move(state.tasks);
  model.plans = std::move(state.plans);
  model.stream_count = state.stream_count;
  report.memory = state.memory;
  report.streams = state.stream_count;
  report.tasks = model.TaskCount();
  report.nodes_compiled = graph.GetAllNodesSize();
  report.op_types_after = CountTypes(graph);
  for (const NodePtr& node : graph.GetAllNodes()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    ++report.nodes_per_engine[op.GetOpEngineName()];
    std::string impl;
    if (!AttrUtils::GetStr(op, kAttrKernelImpl, impl) || impl.empty()) continue;
    impl = impl.substr(0, impl.find(" ("));
    ++report.kernel_impls[impl];
    if (impl.rfind("ref", 0) == 0) {
      report.reference_kernels.push_back("node '" + node->GetName() + "' (" + op.GetType() + ")");
    }
  }
  report.layout_conversions = report.op_types_after.count("TransData") != 0
                                  ? report.op_types_after.at("TransData")
                                  : 0;
  report.total_millis = MillisSince(start);
  model.report = std::move(report);
  return model;
}

}  // namespace ge
