// GraphPass and the machinery around passes: context, rewrite driver, pass manager.
//
// A pass implements RunImpl and returns whether it changed the graph. The base class's
// non-virtual Run times it, records its counters, runs the GraphVerifier after it when asked
// (openge.verifyAfterEachPass; on by default in debug builds) and dumps the graph when a dump
// directory is set. PassManager runs an explicit list of passes; options disable passes by name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ge/compiler/compile_options.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/model/compile_report.h"

namespace ge {

class OpRegistry;
class EngineManager;

/// What a pass may read while it runs, and where it records what it did.
class PassContext {
 public:
  PassContext(const CompileOptions& options, const OpRegistry& registry)
      : options_(options), registry_(registry) {}

  const CompileOptions& options() const { return options_; }
  const OpRegistry& registry() const { return registry_; }
  /// The loaded engines (constant folding runs their kernels), or nullptr outside a Compiler.
  const EngineManager* engines() const { return engines_; }
  void set_engines(const EngineManager* engines) { engines_ = engines; }

  /// Counting and notes for the pass that is running.
  void CountRewrite(int64_t n = 1) { current_.rewrites += n; }
  void Count(const std::string& counter, int64_t n = 1) { current_.counters[counter] += n; }
  void Note(std::string note) { current_.notes.push_back(std::move(note)); }

  /// Dump files are numbered in the order they are written.
  int NextDumpIndex() { return dump_index_++; }

  /// Told the name of each pass as it starts (a progress display); unset by default.
  void set_on_pass_start(std::function<void(const std::string&)> fn) {
    on_pass_start_ = std::move(fn);
  }
  void PassStarting(const std::string& pass) const {
    if (on_pass_start_) on_pass_start_(pass);
  }

 private:
  friend class GraphPass;
  const CompileOptions& options_;
  const OpRegistry& registry_;
  const EngineManager* engines_ = nullptr;
  PassReport current_;
  int dump_index_ = 0;
  std::function<void(const std::string&)> on_pass_start_;
};

class GraphPass {
 public:
  virtual ~GraphPass() = default;
  virtual std::string_view Name() const = 0;

  /// Runs the pass on `graph` (its subgraphs are the pass's business) and returns its report.
  /// A failure is prefixed with the pass's name.
  Result<PassReport> Run(ComputeGraph& graph, PassContext& context);

 protected:
  /// The context of the current Run.
  PassContext& context() { return *context_; }

 private:
  /// True when the graph changed.
  virtual Result<bool> RunImpl(ComputeGraph& graph) = 0;
  PassContext* context_ = nullptr;
};

/// A local rewrite for the driver: the op types it starts from, a cheap match, the rewrite.
class NodeRewrite {
 public:
  virtual ~NodeRewrite() = default;
  virtual std::string_view Name() const = 0;
  /// Op types a match can start from; empty means every node is tried.
  virtual std::vector<std::string> StartTypes() const = 0;
  virtual bool Match(const Node& node, PassContext& context) const = 0;
  /// Rewrites around `node` (which may be removed); true when something changed.
  virtual Result<bool> Rewrite(const NodePtr& node, ComputeGraph& graph,
                               PassContext& context) const = 0;
};

/// Applies its rewrites to every node of the graph and its subgraphs, sweeping until nothing
/// changes, at most openge.rewriteIterationLimit sweeps (reaching the bound is noted, not fatal).
class RewritePass : public GraphPass {
 public:
  RewritePass(std::string name, std::vector<std::unique_ptr<NodeRewrite>> rewrites);
  std::string_view Name() const override { return name_; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override;
  std::string name_;
  std::vector<std::unique_ptr<NodeRewrite>> rewrites_;
};

/// An ordered list of passes forming one stage.
class PassManager {
 public:
  explicit PassManager(std::string stage) : stage_(std::move(stage)) {}
  void Add(std::unique_ptr<GraphPass> pass) { passes_.push_back(std::move(pass)); }
  std::vector<std::string> PassNames() const;
  const std::string& stage() const { return stage_; }
  /// Runs the passes in order; a pass named in options.disabled_passes is recorded as skipped.
  Status Run(ComputeGraph& graph, PassContext& context, StageReport& report);

 private:
  std::string stage_;
  std::vector<std::unique_ptr<GraphPass>> passes_;
};

/// Node counts including subgraphs (what reports call "nodes").
size_t CountAllNodes(const ComputeGraph& graph);

}  // namespace ge
