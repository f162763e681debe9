// CompileOptions: every option the compiler reads, typed and validated in one place.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

// Option keys. GE's spelling where GE has the option; "openge." for ours.
inline constexpr char kOptTopoSortingMode[] = "ge.topoSortingMode";
inline constexpr char kOptMemoryPolicy[] = "ge.exec.memoryOptimizationPolicy";
inline constexpr char kOptMemoryPriorityKey[] = "openge.memoryPriorityKey";
inline constexpr char kOptGraphRunMode[] = "ge.graphRunMode";
inline constexpr char kOptConstantFolding[] = "ge.oo.constantFolding";
inline constexpr char kOptDisableReuseMemory[] = "ge.exec.disableReuseMemory";
inline constexpr char kOptEnableSingleStream[] = "ge.enableSingleStream";
inline constexpr char kOptInputShape[] = "ge.inputShape";
inline constexpr char kOptOpsProtoLibPath[] = "ge.opsProtoLibPath";
inline constexpr char kOptEnginePluginPath[] = "ge.enginePluginPath";
inline constexpr char kOptEngineConfPath[] = "ge.engineConfPath";
inline constexpr char kOptMaxStreams[] = "openge.maxStreamNum";
inline constexpr char kOptMemoryAlignment[] = "openge.memoryAlignment";
inline constexpr char kOptSeparateOutputs[] = "openge.separateOutputMemory";
inline constexpr char kOptTryTopoOrders[] = "openge.memoryTryTopoOrders";
inline constexpr char kOptFoldMaxBytes[] = "openge.constantFoldingMaxBytes";
inline constexpr char kOptDisablePasses[] = "openge.disablePasses";
inline constexpr char kOptDumpGraphDir[] = "openge.dumpGraphDir";
inline constexpr char kOptVerifyPasses[] = "openge.verifyAfterEachPass";
inline constexpr char kOptRewriteLimit[] = "openge.rewriteIterationLimit";
inline constexpr char kOptFusionCostRatio[] = "openge.fusionCostRatio";
inline constexpr char kOptFusionMaxNodes[] = "openge.fusionMaxGroupNodes";
inline constexpr char kOptCostModel[] = "openge.costModel";
inline constexpr char kOptMachineProfile[] = "openge.machineProfile";
inline constexpr char kOptScheduleThreads[] = "openge.scheduleThreads";
// Read by the session layer's ShapePlanCache (ge/session/shape_plan_cache.h), which compiles a
// graph per set of input shapes: the compiler accepts them and leaves them to it.
inline constexpr char kOptShapePlanEntries[] = "openge.shapePlanCacheEntries";
inline constexpr char kOptShapePlanBytes[] = "openge.shapePlanCacheBytes";
inline constexpr char kOptShapeBuckets[] = "openge.shapeBuckets";

/// One known option: its key, its default as text, and what it does.
struct OptionInfo {
  std::string key;
  std::string default_value;
  std::string help;
};

/// The parsed options of one compilation. `Parse` refuses an unknown key (naming the closest
/// known one) and a value that does not fit its option (naming the option and what it accepts).
struct GE_API CompileOptions {
  TopoSortOptions topo;  ///< ge.topoSortingMode, ge.exec.memoryOptimizationPolicy, ge.graphRunMode
  bool topo_mode_given = false;  ///< ge.topoSortingMode was set explicitly
  bool constant_folding = true;  ///< ge.oo.constantFolding
  bool disable_reuse_memory = false;
  bool single_stream = true;  ///< ge.enableSingleStream
  int64_t max_streams = 4;
  int64_t memory_alignment = 64;
  bool separate_outputs = false;
  bool try_topo_orders = true;  ///< plan memory for several orders, keep the smallest
  int64_t fold_max_bytes = int64_t{16} << 20;  ///< a folded output larger than this is not folded
  std::set<std::string> disabled_passes;       ///< openge.disablePasses (comma separated)
  std::string dump_graph_dir;                  ///< dump the graph after every pass into this dir
  bool verify_after_pass = false;              ///< run GraphVerifier after every pass
  int64_t rewrite_limit = 32;                  ///< bound on the rewrite driver's sweeps
  /// Fusion applies a candidate only when the fused form moves at most this fraction of the
  /// bytes the separate nodes move (the fusion pass's cost model).
  double fusion_cost_ratio = 0.7;
  int64_t fusion_max_nodes = 100;  ///< a fusion group never holds more nodes than this
  /// Each task gets the threads the cost model finds it worth (ge/compiler/cost_model.h);
  /// off, every task takes every thread of its stream.
  bool cost_model = true;
  std::string machine_profile;   ///< openge.machineProfile: a `gec calibrate` file ("": default)
  int64_t schedule_threads = 0;  ///< the thread budget planned for (0: this machine's cores)
  /// ge.inputShape: "name:d0,d1;name2:d0" (GE's ATC input_shape syntax), -1 for unknown.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  /// Every option as given (engines and plugin loaders read their own keys from here).
  std::map<std::string, std::string> raw;

  /// `engine_keys`: the options the loaded engines declare (EngineInfo::options); they are
  /// accepted here and checked by the engine manager against each engine's declaration.
  static Result<CompileOptions> Parse(const std::map<std::string, std::string>& options,
                                      const std::vector<std::string>& engine_keys = {});
  /// Every option the compiler itself knows, in a stable order (engines declare theirs).
  static const std::vector<OptionInfo>& Known();
};

/// Parses "name:d0,d1;name2:d0,d1" (the separator between inputs may also be a space).
GE_API Result<std::map<std::string, std::vector<int64_t>>> ParseInputShapes(
    const std::string& text);

}  // namespace ge
