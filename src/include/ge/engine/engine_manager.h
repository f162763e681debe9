// EngineManager: loads the engine plugins named by engine_conf.json, places nodes on engines,
// and hands out the engines' stores, optimizers and builders.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/engine/engine_config.h"
#include "ge/engine/engine_options.h"
#include "ge/engine/graph_optimizer.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/engine/ops_kernel_info_store.h"
#include "ge/engine/task_executor.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"

namespace ge {

/// Option: the directory holding the engine plugin libraries (and, by default, engine_conf.json).
/// Absent → EngineManager::DefaultPluginDir().
inline constexpr char kOptionEnginePluginPath[] = "ge.enginePluginPath";
/// Option: the engine_conf.json to read. Absent → "<plugin dir>/engine_conf.json".
inline constexpr char kOptionEngineConfPath[] = "ge.engineConfPath";
/// The config file's name inside the plugin directory.
inline constexpr char kEngineConfFileName[] = "engine_conf.json";

/// One engine that was loaded: its config and what its plugin handed out.
struct EngineInfo {
  EngineConfig config;
  std::string library_path;  ///< the path that was loaded
  OpsKernelInfoStorePtr store;
  OpsKernelBuilderPtr builder;
  /// The plugin's task executor (optional entry point GetTaskExecutorObjs), or nullptr.
  TaskExecutorPtr executor;
  /// The plugin's optimizers, by name.
  std::map<std::string, GraphOptimizerPtr> optimizers;
  /// The options the plugin declares (optional entry point GetEngineOptions).
  std::vector<EngineOptionDef> options;
};

/// Owns the loaded engine libraries. Not copyable. Every pointer it hands out is valid until
/// Finalize (or destruction), after which the libraries are unloaded.
class EngineManager {
 public:
  EngineManager();
  ~EngineManager();  ///< Finalizes if needed
  EngineManager(const EngineManager&) = delete;
  EngineManager& operator=(const EngineManager&) = delete;

  /// Where plugins are looked for when kOptionEnginePluginPath is absent: the first of these
  /// that holds an engine_conf.json:
  ///   <dir of the module holding ge_engine>/openge/engines           (libopenge.so in <libdir>)
  ///   <dir of the module holding ge_engine>/../<libdir>/openge/engines (an executable in <bindir>)
  ///   the install directory chosen at build time, the build tree's lib/engines.
  static std::string DefaultPluginDir();

  /// Reads the config, loads every configured engine (skipping an absent, non-required one with
  /// a note), checks that each exports the five entry points and a store and builder named by
  /// its kernel library, and initializes it with `options`. On any failure, what was loaded is
  /// finalized and unloaded again and the error names the library path and what is wrong.
  Status Initialize(const std::map<std::string, std::string>& options);
  /// Finalizes every engine (in reverse priority order) and unloads the libraries. Every
  /// engine is finalized even if one fails; the first failure is returned.
  Status Finalize();
  bool IsInitialized() const;

  /// Loaded engines in priority order.
  const std::vector<EngineInfo>& GetEngines() const;
  /// Engines that were configured but skipped because their library is absent, with why.
  const std::vector<std::string>& GetSkippedEngineNotes() const;
  /// The engine called `name`, or nullptr.
  const EngineInfo* GetEngine(const std::string& name) const;
  /// The store / builder of a kernel library, or nullptr.
  OpsKernelInfoStorePtr GetOpsKernelInfoStore(const std::string& kernel_lib) const;
  OpsKernelBuilderPtr GetOpsKernelBuilder(const std::string& kernel_lib) const;
  /// The builder for a placed node (by its OpDesc's kernel library name); an error names the
  /// node when it is not placed or its library is not loaded.
  Result<OpsKernelBuilderPtr> GetOpsKernelBuilderFor(const OpDesc& op_desc) const;

  /// Gives every node of `graph`, its subgraphs included, the first engine (in priority order)
  /// whose store supports it, recorded with SetOpEngineName / SetOpKernelLibName. When some node
  /// is supported by no engine, nothing is changed and the error names each such node, its type,
  /// and every engine asked with its reason.
  Status PlaceNodes(ComputeGraph& graph) const;

  /// Told how long one optimizer's hook took, in milliseconds.
  using OptimizerTimer =
      std::function<void(const std::string& engine, const std::string& optimizer, double millis)>;
  /// Runs the `stage` hook of every engine's optimizers: engines in priority order, optimizers
  /// of one engine in name order, each timed for `timed` when it is set. The error names the
  /// optimizer, its engine and the stage.
  Status RunGraphOptimizers(OptimizeStage stage, ComputeGraph& graph,
                            const OptimizerTimer& timed = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
