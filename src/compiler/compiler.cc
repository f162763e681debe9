// The compiler's pass list: the explicit list of stages and passes, and the CompiledModel.
#include "ge/compiler/compiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "build/build_stage.h"
#include "ge/compiler/graph_pass.h"
#include "ge/compiler/passes.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/graph/graph_verifier.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace ge {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// A step of the pass list that is a function rather than a pass class (engine hooks, build steps).
class FunctionPass final : public GraphPass {
 public:
  using Fn = std::function<Result<bool>(ComputeGraph&, PassContext&)>;
  FunctionPass(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override { return fn_(graph, context()); }
  std::string name_;
  Fn fn_;
};

/// What a step of the pass list is made from: the compile's options, engines and build state.
struct PassEnv {
  const CompileOptions& options;
  const EngineManager& engines;
  build::BuildState& state;
};

/// One step of the pass list: its stage, its name (the pass's Name()), whether the user may
/// switch it off (ge.disablePasses), how it is made, and the step whose build state it reads
/// (kept beside the graph, not in it: RunPasses runs this step only after that one).
struct PassSpec {
  const char* stage;
  const char* name;
  bool can_disable;
  std::function<std::unique_ptr<GraphPass>(PassEnv&)> make;
  const char* reads_state_of = nullptr;
};

/// A step that calls `fn(env, graph, context)`; the graph is changed when it returns true.
PassSpec Step(const char* stage, const char* name,
              std::function<Result<bool>(PassEnv&, ComputeGraph&, PassContext&)> fn,
              const char* reads_state_of = nullptr) {
  return {stage, name, false,
          [name, fn](PassEnv& env) -> std::unique_ptr<GraphPass> {
            return std::make_unique<FunctionPass>(
                name, [&env, fn](ComputeGraph& g, PassContext& c) { return fn(env, g, c); });
          },
          reads_state_of};
}

/// A step that calls `fn(env, graph)`.
PassSpec Step(const char* stage, const char* name,
              std::function<Result<bool>(PassEnv&, ComputeGraph&)> fn,
              const char* reads_state_of = nullptr) {
  return Step(
      stage, name, [fn](PassEnv& env, ComputeGraph& g, PassContext&) { return fn(env, g); },
      reads_state_of);
}

/// A step that runs the engines' graph optimizers of `stage`; the report notes how long each
/// optimizer took (the CPU engine's weight packer is most of a compile's time on large models).
PassSpec EngineHook(const char* stage, const char* name, OptimizeStage hook) {
  return Step(
      stage, name, [hook](PassEnv& env, ComputeGraph& g, PassContext& context) -> Result<bool> {
        GE_RETURN_IF_ERROR(env.engines.RunGraphOptimizers(
            hook, g,
            [&context](const std::string& engine, const std::string& optimizer, double millis) {
              char text[64];
              std::snprintf(text, sizeof(text), "%.1f ms", millis);
              context.Note(optimizer + " (" + engine + "): " + text);
            }));
        return true;
      });
}

template <typename Make>
PassSpec Pass(const char* stage, const char* name, bool can_disable, Make make) {
  return {stage, name, can_disable,
          [make](PassEnv&) -> std::unique_ptr<GraphPass> { return make(); }};
}

/// The pass list, in order: the one place its stages, names, switches and passes are written.
const std::vector<PassSpec>& PassListSpec() {
  static const std::vector<PassSpec> kSpec = {
      // prepare: the graph as the frontend gave it, checked and with every shape known that can be.
      Pass("prepare", "ApplyInputShapes", false, [] { return CreateApplyInputShapesPass(); }),
      Pass("prepare", "VerifyNodes", false, [] { return CreateVerifyNodesPass(); }),
      Pass("prepare", "LoadFileConstants", false, [] { return CreateLoadFileConstantsPass(); }),
      Pass("prepare", "InferShape", false, [] { return CreateInferShapePass(); }),
      // Dims known only at run time get expressions ("batch*seq"); what needs no values folds.
      Pass("prepare", "SymbolicShapes", true, [] { return CreateSymbolicShapePass(true); }),
      // optimize: engine hooks first (they may rewrite operators), then folding (which removes
      // the Shape family when shapes are known), identity removal, chain simplification, CSE,
      // and DCE last so it collects what the others left unconsumed; shapes are inferred again.
      EngineHook("optimize", "EngineOptimizeOriginalGraph", OptimizeStage::kOriginalGraph),
      Pass("optimize", "ConstantFolding", true, [] { return CreateConstantFoldingPass(); }),
      Pass("optimize", "RemoveIdentity", true, [] { return CreateRemoveIdentityPass(); }),
      Pass("optimize", "SimplifyChains", true, [] { return CreateSimplifyChainsPass(); }),
      Pass("optimize", "CommonSubexpressionElimination", true, [] { return CreateCsePass(); }),
      Pass("optimize", "Fusion", true, [] { return CreateFusionPass(); }),
      Pass("optimize", "DeadCodeElimination", true, [] { return CreateDeadCodeEliminationPass(); }),
      Pass("optimize", "InferShapeFinal", false,
           [] { return CreateInferShapePass("InferShapeFinal"); }),
      Pass("optimize", "SymbolicShapesFinal", true, [] { return CreateSymbolicShapePass(false); }),
      Pass("optimize", "InPlaceConcat", true, [] { return CreateInPlaceConcatPass(); }),
      // place: each node to the first engine (by priority) that supports it; then engine hooks.
      Step("place", "PlaceNodes",
           [](PassEnv& env, ComputeGraph& g) -> Result<bool> {
             GE_RETURN_IF_ERROR(env.engines.PlaceNodes(g));
             return true;
           }),
      // The threads each task is likely worth, so the engines prepare kernels for them.
      Step("place", "EstimateTaskThreads",
           [](PassEnv& env, ComputeGraph& g) -> Result<bool> {
             GE_RETURN_IF_ERROR(build::EstimateTaskThreads(g, env.options, env.engines, env.state));
             return false;  // attributes only
           }),
      EngineHook("place", "EngineOptimizeOriginalGraphJudgeInsert",
                 OptimizeStage::kOriginalGraphJudgeInsert),
      EngineHook("place", "EngineOptimizeFusedGraph", OptimizeStage::kFusedGraph),
      EngineHook("place", "EngineOptimizeWholeGraph", OptimizeStage::kWholeGraph),
      Pass("place", "RemoveTransDataPairs", true, [] { return CreateRemoveTransDataPairsPass(); }),
      // build: running parameters (sizes), the cost model's thread counts, memory (which fixes
      // the topological order), streams (and the memory plan again when they run in parallel),
      // tasks.
      Step("build", "CalcOpRunningParam",
           [](PassEnv& env, ComputeGraph& g) -> Result<bool> {
             GE_RETURN_IF_ERROR(build::CalcRunningParams(g, env.engines));
             return true;
           }),
      // The threads each task is worth, by the cost model (ge/compiler/cost_model.h).
      Step("build", "ScheduleTasks",
           [](PassEnv& env, ComputeGraph& g, PassContext& context) -> Result<bool> {
             GE_RETURN_IF_ERROR(
                 build::ScheduleTasks(g, env.options, env.engines, env.state, context));
             return false;  // attributes only
           }),
      Step("build", "MemoryAssignment",
           [](PassEnv& env, ComputeGraph& g) -> Result<bool> {
             // Orders whose arenas tie are told apart by their predicted run with the streams
             // they would get.
             std::function<Result<double>()> predict;
             if (env.options.cost_model && !env.options.single_stream) {
               predict = [&env, &g]() -> Result<double> {
                 build::BuildState trial;
                 trial.schedule.on = true;
                 trial.budget = env.state.budget;  // the profile ScheduleTasks read
                 GE_RETURN_IF_ERROR(
                     build::ChooseStreams(g, env.options, env.engines, trial, nullptr));
                 return trial.schedule.predicted_us;
               };
             }
             GE_RETURN_IF_ERROR(build::PlanMemory(g, env.options, env.state, predict));
             return true;
           }),
      Step(
          "build", "StreamAssignment",
          [](PassEnv& env, ComputeGraph& g, PassContext& context) -> Result<bool> {
            GE_RETURN_IF_ERROR(
                build::ChooseStreams(g, env.options, env.engines, env.state, &context));
            // Streams run in parallel at run time: the serial order's plan is made safe.
            GE_RETURN_IF_ERROR(
                build::PlanMemoryForStreams(g, env.options, env.state.stream_count, env.state));
            return true;
          },
          /*reads_state_of=*/"MemoryAssignment"),
      Step(
          "build", "TaskGeneration",
          [](PassEnv& env, ComputeGraph& g) -> Result<bool> {
            GE_RETURN_IF_ERROR(build::GenerateTasks(g, env.options, env.engines, env.state));
            return false;  // tasks live beside the graph
          },
          /*reads_state_of=*/"StreamAssignment"),
  };
  return kSpec;
}

/// Makes the pass `spec` describes, checking that it carries the name the pass list gives it.
Result<std::unique_ptr<GraphPass>> MakePass(const PassSpec& spec, PassEnv& env) {
  std::unique_ptr<GraphPass> pass = spec.make(env);
  if (pass->Name() != spec.name) {
    return InternalError("the pass list names a pass '" + std::string(spec.name) +
                         "' whose Name() is '" + std::string(pass->Name()) + "'");
  }
  return pass;
}

const PassSpec* FindPass(const std::string& name) {
  for (const PassSpec& spec : PassListSpec()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string PassNamesText() {
  std::string list;
  for (const PassSpec& spec : PassListSpec())
    list += (list.empty() ? "" : ", ") + std::string(spec.name);
  return list;
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
  StageDoneFn stage_done;

  Result<CompiledModel> Compile(const ComputeGraphPtr& graph_ptr, const std::string& last_stage);
  Result<std::vector<PassReport>> RunPasses(ComputeGraph& graph,
                                            const std::vector<std::string>& names,
                                            const AfterPassFn& after_pass);
};

void Compiler::SetProgress(ProgressFn progress) { impl_->progress = std::move(progress); }
void Compiler::SetStageDone(StageDoneFn stage_done) { impl_->stage_done = std::move(stage_done); }

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {}
Compiler::~Compiler() {
  if (impl_ != nullptr && impl_->engines.IsInitialized()) (void)impl_->engines.Finalize();
}

const CompileOptions& Compiler::options() const { return impl_->options; }
const EngineManager& Compiler::engines() const { return impl_->engines; }

std::vector<std::pair<std::string, std::vector<std::string>>> Compiler::PassList() {
  std::vector<std::pair<std::string, std::vector<std::string>>> stages;
  for (const PassSpec& spec : PassListSpec()) {
    if (stages.empty() || stages.back().first != spec.stage)
      stages.emplace_back(spec.stage, std::vector<std::string>{});
    stages.back().second.emplace_back(spec.name);
  }
  return stages;
}

std::vector<std::string> Compiler::DisablablePasses() {
  std::vector<std::string> names;
  for (const PassSpec& spec : PassListSpec()) {
    if (spec.can_disable) names.emplace_back(spec.name);
  }
  return names;
}

Result<std::unique_ptr<Compiler>> Compiler::Create(
    const std::map<std::string, std::string>& options) {
  return CatchExceptions("Compiler::Create", [&]() -> Result<std::unique_ptr<Compiler>> {
    std::unique_ptr<Compiler> compiler(new Compiler());
    Status loaded = OpsProtoManager::Instance().Initialize(options);
    if (!loaded.ok()) return std::move(loaded).Prefix("loading operator prototypes");
    for (const char* type : {"Data", "Const", "NetOutput"}) {
      if (OpRegistry::Instance().Has(type)) continue;
      std::string dirs;
      for (const std::string& d : OpsProtoManager::SearchPath(options))
        dirs += (dirs.empty() ? "" : ", ") + d;
      return ParamInvalid(std::string("no operator library defines the skeleton operator ") + type +
                          ": the built-in library (libge_builtin_ops.so) is missing from " +
                          (dirs.empty() ? std::string("every search directory") : dirs) +
                          "; build target ge_builtin_ops or name its directory with " +
                          kOptOpsProtoLibPath);
    }
    // Engines first: they declare options of their own, which the parse then accepts (the
    // engine manager has checked their values against each declaration).
    Status engines = compiler->impl_->engines.Initialize(options);
    if (!engines.ok()) return std::move(engines).Prefix("loading engines");
    std::vector<std::string> engine_keys;
    for (const EngineInfo& engine : compiler->impl_->engines.GetEngines()) {
      for (const EngineOptionDef& def : engine.options) engine_keys.push_back(def.key);
    }
    GE_ASSIGN_OR_RETURN(compiler->impl_->options, CompileOptions::Parse(options, engine_keys));
    for (const std::string& name : compiler->impl_->options.disabled_passes) {
      const std::vector<std::string> allowed = DisablablePasses();
      if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
      std::string list;
      for (const std::string& n : allowed) list += (list.empty() ? "" : ", ") + n;
      const bool required = std::any_of(PassListSpec().begin(), PassListSpec().end(),
                                        [&](const PassSpec& spec) { return spec.name == name; });
      return ParamInvalid(std::string(required
                                          ? "pass '" + name + "' is required and cannot be disabled"
                                          : "unknown pass '" + name + "'") +
                          " (" + kOptDisablePasses + "); passes that can be disabled: " + list);
    }
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
    const auto pass_list = Compiler::PassList();
    if (std::none_of(pass_list.begin(), pass_list.end(),
                     [&](const auto& stage) { return stage.first == last_stage; })) {
      std::string stages;
      for (const auto& stage : pass_list) stages += (stages.empty() ? "" : ", ") + stage.first;
      return ParamInvalid("Compile: unknown stage '" + last_stage + "' (stages: " + stages + ")");
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

  PassEnv env{options, engines, state};
  std::vector<PassManager> stages;
  for (const PassSpec& spec : PassListSpec()) {
    if (stages.empty() || stages.back().stage() != spec.stage) stages.emplace_back(spec.stage);
    GE_ASSIGN_OR_RETURN(std::unique_ptr<GraphPass> pass, MakePass(spec, env));
    stages.back().Add(std::move(pass));
  }

  const auto pass_count = static_cast<int>(PassListSpec().size());
  int position = 0;
  std::string current_stage;
  if (progress) {
    context.set_on_pass_start(
        [&](const std::string& pass) { progress(current_stage, pass, ++position, pass_count); });
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
    if (stage_done) stage_done(stage.stage(), graph);
    if (stage.stage() == last_stage) break;
  }

  CompiledModel model;
  model.graph = graph_ptr;
  model.tasks = std::move(state.tasks);
  model.plans = std::move(state.plans);
  model.stream_count = state.stream_count;
  report.memory = state.memory;
  report.schedule = state.schedule;
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
  report.layout_conversions =
      report.op_types_after.count("TransData") != 0 ? report.op_types_after.at("TransData") : 0;
  report.total_millis = MillisSince(start);
  model.report = std::move(report);
  return model;
}

Result<std::vector<PassReport>> Compiler::RunPasses(const ComputeGraphPtr& graph,
                                                    const std::vector<std::string>& passes,
                                                    const AfterPassFn& after_pass) {
  return CatchExceptions("Compiler::RunPasses", [&]() -> Result<std::vector<PassReport>> {
    if (graph == nullptr) return ParamInvalid("RunPasses: no graph given");
    return impl_->RunPasses(*graph, passes, after_pass);
  });
}

Result<std::vector<PassReport>> Compiler::Impl::RunPasses(ComputeGraph& graph,
                                                          const std::vector<std::string>& names,
                                                          const AfterPassFn& after_pass) {
  if (names.empty()) return ParamInvalid("RunPasses: no pass named; passes: " + PassNamesText());
  std::vector<const PassSpec*> specs;
  for (const std::string& name : names) {
    const PassSpec* spec = FindPass(name);
    if (spec == nullptr)
      return ParamInvalid("unknown pass '" + name + "'; passes: " + PassNamesText());
    if (spec->reads_state_of != nullptr &&
        std::none_of(specs.begin(), specs.end(), [&](const PassSpec* before) {
          return std::string_view(before->name) == spec->reads_state_of;
        })) {
      return ParamInvalid("pass '" + name + "' cannot run alone: it reads what " +
                          spec->reads_state_of +
                          " keeps beside the graph, which a graph file does not carry; name " +
                          spec->reads_state_of + " before it");
    }
    specs.push_back(spec);
  }
  {
    Status valid = GraphVerifier::Verify(graph);
    if (!valid.ok()) return std::move(valid).Prefix("the input graph is invalid");
  }
  build::BuildState state;
  PassContext context(options, OpRegistry::Instance());
  context.set_engines(&engines);
  PassEnv env{options, engines, state};
  const auto pass_count = static_cast<int>(specs.size());
  int position = 0;
  std::vector<PassReport> reports;
  for (const PassSpec* spec : specs) {
    ++position;
    if (progress) {
      context.set_on_pass_start([&, spec](const std::string& pass) {
        progress(spec->stage, pass, position, pass_count);
      });
    }
    // A manager of one pass: it skips the pass when openge.disablePasses names it, as Compile's.
    PassManager one(spec->stage);
    GE_ASSIGN_OR_RETURN(std::unique_ptr<GraphPass> pass, MakePass(*spec, env));
    one.Add(std::move(pass));
    StageReport stage_report;
    Status status = one.Run(graph, context, stage_report);
    if (!status.ok()) {
      return std::move(status).Prefix("running passes on graph '" + graph.GetName() + "'");
    }
    reports.push_back(std::move(stage_report.passes.front()));
    if (after_pass) GE_RETURN_IF_ERROR(after_pass(spec->name, position, graph));
  }
  return reports;
}

}  // namespace ge
