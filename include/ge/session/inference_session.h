// InferenceSession: the one front door from a model to its outputs. gec run, the Python module
// and ge::Session all stand on it, so that what they decide is decided once: how a file is
// opened (ModelSource), whether it is compiled or loaded, which run strategy it takes, how many
// threads it is planned for, how inputs are bound by name (with their defaults), and how a run
// is traced.
//
//   ONNX / GE graph ──parse──┐
//                            ├─ run-time input dims? ── yes: a static plan per set of input
//   ge::Graph (FromGraph) ───┘                               shapes (ShapePlanCache), or one
//                                                             model for every shape
//                                                    └─ no:  compile once, load (static)
//   .om ──────── load (static)
//   pipeline .om ── its stages, one after another in this process
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compiled_model.h"
#include "ge/model/model_source.h"
#include "ge/runtime/loaded_model.h"
#include "ge/session/shape_plan_cache.h"

namespace ge {

class PipelineStages;

struct InferenceOptions {
  /// The compiler's options (ge.* and openge.*, ge/compiler/compile_options.h). Unless they set
  /// openge.scheduleThreads, a model compiled here is planned for runtime.threads.
  std::map<std::string, std::string> compile;
  /// Input dims fixed before compiling, by input name: the parser takes them for an ONNX model,
  /// the compiler as ge.inputShape for any graph. A compiled model refuses them (its shapes were
  /// fixed when it was compiled).
  std::map<std::string, std::vector<int64_t>> input_shapes;
  RuntimeOptions runtime;
  /// Optional: the compiler's progress, each stage as it ends, and the compiled model before it
  /// is loaded (with the compiler that made it).
  Compiler::ProgressFn progress;
  Compiler::StageDoneFn stage_done;
  std::function<void(const Compiler& compiler, const CompiledModel& model)> compiled;
};

/// How a session runs its model.
enum class RunStrategy {
  kStatic,      ///< one model, loaded once (compiled here for known shapes, or a .om)
  kShapePlans,  ///< input dims known only at run time: a static plan per set of input shapes
  kAnyShape,    ///< input dims known only at run time, one model for every shape (the dynamic
                ///< executor): a graph with state across runs, or openge.shapePlanCacheEntries=0
  kPipeline,    ///< a pipeline .om: its stages one after another in this process
};

/// "static", "shape plans", "any shape", "pipeline".
GE_API const char* RunStrategyName(RunStrategy strategy);

/// Where the time before the first run went, in milliseconds.
struct OpenTimes {
  double parse = 0;    ///< the file into a graph (0 for a .om)
  double compile = 0;  ///< the compiler (0 for a .om, and for plans made per shape)
  double read_om = 0;  ///< a .om checked and mapped (0 when compiled here)
  double load = 0;     ///< onto the runtime
};

/// What the model of the last run holds (the one model, or the last run's plan; a pipeline's
/// stages summed).
struct SessionMemory {
  int64_t weight_bytes = 0;
  int64_t loaded_weight_bytes = 0;  ///< weights the kernels repacked at load
  int64_t arena_bytes = 0;
  int64_t workspace_bytes = 0;
  int run_contexts = 0;
  int streams = 0;
};

class GE_API InferenceSession {
 public:
  /// Opens `source`: a graph is parsed and compiled (per set of input shapes when its input dims
  /// are known only at run time), a .om loaded, a pipeline's stages loaded. Errors name the file.
  static Result<std::unique_ptr<InferenceSession>> Open(const ModelSource& source,
                                                        InferenceOptions options);
  /// A graph built in this process (ge::Graph, a parsed model); the session owns it from now on.
  static Result<std::unique_ptr<InferenceSession>> FromGraph(ComputeGraphPtr graph,
                                                             InferenceOptions options);
  /// A compiled model. `graph`, when given, is the graph `model` was compiled from for any
  /// shape: a graph whose input dims are known only at run time then gets a static plan per set
  /// of input shapes from it, as FromGraph would.
  static Result<std::unique_ptr<InferenceSession>> FromCompiled(CompiledModel model,
                                                                InferenceOptions options,
                                                                ComputeGraphPtr graph = nullptr);
  ~InferenceSession();
  InferenceSession(const InferenceSession&) = delete;
  InferenceSession& operator=(const InferenceSession&) = delete;

  RunStrategy strategy() const { return strategy_; }
  /// A pipeline's stages; 1 for any other model.
  int stages() const;
  /// The model's inputs and outputs in run order; dims known only at run time are -1.
  const std::vector<IoInfo>& inputs() const { return inputs_; }
  const std::vector<IoInfo>& outputs() const { return outputs_; }

  /// The inputs in run order from `named`: each input given once by name, or left out when it
  /// has a default value. An unknown name lists the model's inputs; a missing one names itself.
  Result<std::vector<GeTensor>> Bind(const std::map<std::string, GeTensor>& named) const;
  /// Makes ready what a run with `inputs`' shapes needs, without running: the plan for their
  /// shapes (kShapePlans; nothing when `inputs` is empty); nothing for the other strategies.
  Status Prepare(const std::vector<GeTensor>& inputs);
  /// Runs inputs given in inputs() order; outputs in outputs() order. Thread-safe: runs may
  /// overlap (up to RuntimeOptions::max_concurrent_runs at once, beyond that they wait).
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
  /// The same by name (Bind), outputs by name.
  Result<std::map<std::string, GeTensor>> Run(const std::map<std::string, GeTensor>& named);

  /// Records the tasks of the following runs; LastProfile is the last run to finish.
  void EnableProfiling(bool on);
  std::vector<TaskTiming> LastProfile() const;

  const OpenTimes& times() const { return times_; }
  SessionMemory Memory() const;
  /// Streams and threads of the model of the last run (before any run: the one model's, or
  /// nothing for plans not made yet).
  ExecutionInfo Execution() const;
  /// The shape plans made so far (all zero unless strategy() is kShapePlans).
  ShapePlanStats PlanStats() const;
  /// The compiled model the session runs: null for plans made per shape and for a pipeline.
  const CompiledModel* compiled() const;
  /// The model compiled for any shape: the one compiled() for a single model, else compiled
  /// now from the graph the plans are made from.
  Result<CompiledModel> CompileForAnyShape() const;

 private:
  InferenceSession() = default;
  // FromGraph for a graph parsed in `parse_millis` (the compile report records it).
  static Result<std::unique_ptr<InferenceSession>> FromParsed(ComputeGraphPtr graph,
                                                              InferenceOptions options,
                                                              double parse_millis);
  Result<std::vector<GeTensor>> RunPlan(const std::vector<GeTensor>& inputs);
  std::shared_ptr<LoadedModel> LastModel() const;

  RunStrategy strategy_ = RunStrategy::kStatic;
  std::vector<IoInfo> inputs_;
  std::vector<IoInfo> outputs_;
  OpenTimes times_;
  std::shared_ptr<LoadedModel> model_;      // kStatic, kAnyShape
  std::unique_ptr<ShapePlanCache> plans_;   // kShapePlans
  std::unique_ptr<PipelineStages> stages_;  // kPipeline
  mutable std::mutex last_mutex_;
  std::shared_ptr<LoadedModel> last_plan_;  // kShapePlans: the model of the last run
  std::atomic<bool> profiling_{false};
};

/// A model compiled (or read, for a .om) and not loaded: what a front end compiles once and
/// opens sessions of (InferenceSession::FromCompiled), or saves.
struct PreparedModel {
  CompiledModel model;
  /// For a graph whose input dims are known only at run time: the graph as parsed, never
  /// changed, from which sessions of `model` compile a static plan per set of input shapes
  /// (`model` itself is compiled for any shape). Null otherwise.
  ComputeGraphPtr graph_for_plans;
  OpenTimes times;  ///< parse, compile or read_om (load stays 0)
};

/// The graph in `source`: an ONNX model or GE graph as parsed (with options.input_shapes), a
/// compiled model's compiled graph; a pipeline is refused (it has one graph per stage).
GE_API Result<ComputeGraphPtr> ReadGraph(const ModelSource& source,
                                         const InferenceOptions& options = {});

/// Compiles `source` as InferenceSession::Open would, or reads it when it is a .om; a pipeline
/// is refused (its stages load only in a session or under mpirun). The compile stops after
/// `last_stage` (Compiler::Compile), for looking at the graph there; a .om is read whole.
GE_API Result<PreparedModel> CompileSource(const ModelSource& source,
                                           const InferenceOptions& options,
                                           const std::string& last_stage = "build");

/// Chrome / Perfetto trace events of one run, as ONNX Runtime writes them: a "run" event
/// (category "Session") from `run_start_us`, then one event per task (category "Node", its name,
/// on a row per stream, args op_name, stream, threads and the cost model's predicted_us). A JSON
/// array; the trace is {"traceEvents": [...]} around the events of every run.
GE_API std::string TraceEventsJson(const std::vector<TaskTiming>& tasks, double run_start_us,
                                   int64_t pid);

}  // namespace ge
