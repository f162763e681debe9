// Compiler: a parsed graph in, a CompiledModel out, through four stages (DESIGN.md):
//   prepare  -> verify nodes against prototypes, infer dtypes and shapes
//   optimize -> constant folding, identity removal, chain simplification, CSE, DCE
//   place    -> engines by priority, then the engines' optimizer hooks
//   build    -> topological order, running parameters, memory plan, streams, tasks
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/compiler/compile_options.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compiled_model.h"

namespace ge {

class EngineManager;

class GE_API Compiler {
 public:
  /// Validates `options`, loads the operator prototype libraries (ge.opsProtoLibPath and the
  /// built-in library) and the engine plugins. Errors name the option or library at fault.
  static Result<std::unique_ptr<Compiler>> Create(
      const std::map<std::string, std::string>& options);
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  /// Compiles `graph` in place (copy it first to keep the original). A failure names the stage,
  /// the pass and the node. `last_stage` ("prepare", "optimize", "place" or "build") stops the
  /// pass list after that stage (for looking at the graph there); the model then has no tasks.
  Result<CompiledModel> Compile(const ComputeGraphPtr& graph,
                                const std::string& last_stage = "build");

  /// Called by RunPasses after each pass, with the pass's name, its position in the list (from
  /// 1) and the graph as the pass left it: to dump or check the graph between passes. An error
  /// it returns stops the run and is returned.
  using AfterPassFn =
      std::function<Status(const std::string& pass, int position, const ComputeGraph& graph)>;

  /// Runs the passes named in `passes` (PassList() names; a name may repeat), in that
  /// order and nothing else, on `graph` in place with this compiler's options and engines: one
  /// pass or a few tested alone, as `mlir-opt` runs them. The graph is verified first, as Compile
  /// does; a pass named in openge.disablePasses is skipped. An unknown name is an error listing
  /// the pass list's passes. The build steps that read what an earlier step keeps beside the graph
  /// (StreamAssignment the memory plan, TaskGeneration the streams) are refused unless that step
  /// comes before them in `passes`. Returns each pass's report, in order.
  Result<std::vector<PassReport>> RunPasses(const ComputeGraphPtr& graph,
                                            const std::vector<std::string>& passes,
                                            const AfterPassFn& after_pass = {});

  /// Called as each pass of Compile (or RunPasses) starts, with its stage, its name, its position
  /// in the run (from 1) and the number of passes: for progress displays on long compiles.
  using ProgressFn = std::function<void(const std::string& stage, const std::string& pass,
                                        int position, int passes)>;
  void SetProgress(ProgressFn progress);

  /// Called as each stage of Compile ends, with its name and the graph as the stage left it:
  /// to look at the graph between stages (the compile explorer snapshots it here). The graph is
  /// the one being compiled; the callback reads it and must not keep references into it.
  using StageDoneFn = std::function<void(const std::string& stage, const ComputeGraph& graph)>;
  void SetStageDone(StageDoneFn stage_done);

  const CompileOptions& options() const;
  const EngineManager& engines() const;

  /// The pass names by stage, in order, and which of them openge.disablePasses may name.
  static std::vector<std::pair<std::string, std::vector<std::string>>> PassList();
  static std::vector<std::string> DisablablePasses();

 private:
  Compiler();
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
