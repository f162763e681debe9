// ge::LoadedModel: a CompiledModel loaded for running. Loading allocates the activation arena once
// at the planned size, copies the weights into their region, and loads every task through its
// engine's TaskExecutor; Run binds the caller's inputs, runs the tasks in order (each stream on
// a thread of its own when several run in parallel) and returns the outputs. Nothing is
// allocated per run on the static-shape path except the returned tensors.
//
// Run may be called from several threads at once on one loaded model: each concurrent run has a
// context of its own (arena, kernels, workspaces), made the first time that many runs overlap
// and kept; weights and the compiled model are shared and read-only. The rest of the interface
// (profiling, the accessors) is for one thread at a time.
// A model with shapes known only at run time runs through the dynamic executor instead
// (src/runtime/dynamic_executor.h): shapes inferred and outputs allocated on every run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph/ge_tensor.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/compiled_model.h"

namespace ge {

/// A graph input or output as the caller sees it.
struct IoInfo {
  std::string name;
  DataType dtype = DT_UNDEFINED;
  std::vector<int64_t> dims;
  /// An input's value when a run by name does not give it (an ONNX initializer that is also a
  /// graph input: ONNX makes the initializer the default); null when the input is required.
  std::shared_ptr<const GeTensor> default_value;
  /// Per dim, what names a dim known only at run time: the model's name (ONNX dim_param) or the
  /// expression the compiler derived (`batch*seq`, ge/graph/sym_expr.h); "" for a known dim or
  /// one nothing names. Empty when no dim is named.
  std::vector<std::string> dim_names;
  /// A sequence's or optional's type ("seq(tensor(float))", ge/graph/composite_value.h) when
  /// dtype is DT_VARIANT; "" for a tensor.
  std::string value_type;
};

/// One task of the last profiled run (times in microseconds from the run's start).
struct TaskTiming {
  std::string name;
  std::string type;
  int64_t stream = 0;
  double start_us = 0;
  double duration_us = 0;
  int threads = 1;           ///< the kernel threads the task was given
  double predicted_us = -1;  ///< the cost model's prediction on those threads (-1: none)
};

/// How a loaded model runs its tasks.
struct ExecutionInfo {
  /// Streams run in parallel: each on a thread of its own when more than one (stream 0 on the
  /// caller's), EventRecord/EventWait tasks ordering them. 1: every task in the compiled list
  /// order on the calling thread (one stream compiled, shapes known only at run time, or a
  /// memory plan that was not made for parallel streams).
  int streams = 1;
  /// Threads created at load for the streams beyond the first (streams - 1); none per run.
  int pool_threads = 0;
  /// Intra-op threads of each stream's kernels: RuntimeOptions::threads split evenly between
  /// the streams (the remainder to the first ones), at least 1 each.
  std::vector<int> kernel_threads;
};

/// Shapes known only at run time: each node keeps the kernels prepared for the last few input
/// shapes it saw (its oneDNN primitives, packed weights and workspace), so shapes that come back
/// run without preparing again.
struct KernelCacheStats {
  int64_t prepared = 0;  ///< kernels prepared since load (a shape a node had not kept)
  int64_t reused = 0;    ///< times a node found a kernel it had kept for the run's shapes
};

/// The tensors of runs on the dynamic executor, over every run context: buffers taken from the
/// system and buffers reused from the contexts' free lists, and the free bytes they hold now.
struct RunBufferStats {
  int64_t allocated = 0;
  int64_t reused = 0;
  int64_t cached_bytes = 0;
};

/// Options of a loaded model: engine plugin options (ge.enginePluginPath, ...) and threads.
struct RuntimeOptions {
  std::map<std::string, std::string> options;
  /// Intra-op threads each kernel may use (OpenMP, shared with oneDNN); 0: every core this
  /// process may run on. Small kernels use fewer (see the CPU engine's ParallelFor). A model
  /// whose streams run in parallel splits this budget between them (ExecutionInfo).
  int threads = 0;
  /// The most memory a model may ask for: its activation arena (shapes known at compile time),
  /// or any one tensor or workspace of a run (shapes known at run time). A model asking for more
  /// fails to load or run with a message giving both sizes, instead of being ended by the
  /// system's out-of-memory killer. 0: the machine's physical memory.
  int64_t max_memory_bytes = 0;
  /// Runs of one model that may execute at once (calls beyond wait for one to finish). Each
  /// costs an activation arena (counted against max_memory_bytes together) and its kernels'
  /// own state (for some, weights packed for them); none is made before runs overlap.
  /// 0: one per core this process may run on.
  int max_concurrent_runs = 0;
};

class GE_API LoadedModel {
 public:
  static Result<std::unique_ptr<LoadedModel>> Load(CompiledModel model,
                                                   const RuntimeOptions& options = {});
  static Result<std::unique_ptr<LoadedModel>> LoadFromFile(const std::string& path,
                                                           const RuntimeOptions& options = {});
  ~LoadedModel();
  LoadedModel(const LoadedModel&) = delete;
  LoadedModel& operator=(const LoadedModel&) = delete;

  const std::vector<IoInfo>& inputs() const;
  const std::vector<IoInfo>& outputs() const;

  /// Runs on inputs in the order of inputs(); returns outputs in the order of outputs(). An input
  /// of the wrong count, dtype, shape or byte size is an error naming the input and both shapes.
  Result<std::vector<GeTensor>> Run(const std::vector<GeTensor>& inputs);
  /// The same, by name: every input given once, or left out when it has a default_value.
  Result<std::map<std::string, GeTensor>> Run(const std::map<std::string, GeTensor>& inputs);

  /// Records the time of every task of the following runs (LastProfile: the last run to finish).
  void EnableProfiling(bool on);
  const std::vector<TaskTiming>& LastProfile() const;

  int64_t arena_bytes() const;
  int64_t weight_bytes() const;
  /// The kernels' scratch memory of one run context (every stream's), made at load.
  int64_t workspace_bytes() const;
  /// Weights the kernels of one run context put into layouts of their own at load (Winograd
  /// filters), held beside weight_bytes(); when the model maps its file, the pages of the
  /// stored bytes they came from are let go.
  int64_t loaded_weight_bytes() const;
  const CompiledModel& compiled() const;
  /// Streams and threads this model runs with (decided at load).
  const ExecutionInfo& execution() const;
  /// True when runs go through the dynamic executor (shapes known only at run time, or
  /// control-flow subgraphs): shapes are inferred and memory allocated per run.
  bool runs_dynamically() const;
  /// Run contexts made so far: the most runs that overlapped, up to max_concurrent_runs.
  int run_contexts() const;
  /// The dynamic executor's kernel cache so far (zeros for a model with static shapes).
  KernelCacheStats kernel_cache() const;
  /// Zero for a model the static executor runs (its tensors live in the planned arena).
  RunBufferStats run_buffers() const;

 private:
  LoadedModel();
  struct [[gnu::visibility("hidden")]] Impl;  // not exported with the class (see visibility.h)
  std::unique_ptr<Impl> impl_;
};

/// The inputs a model of `graph` takes, in run order (its Data nodes by their index attribute,
/// which must be 0..n-1): dims known only at run time as -1, and each input's default value where
/// it has one. What LoadedModel::inputs() gives once the graph is compiled and loaded.
GE_API Result<std::vector<IoInfo>> GraphInputs(const ComputeGraph& graph);
/// The outputs of `graph` in run order (the NetOutput's connected inputs): name (the producing
/// output's, else "output_<k>"), dtype and dims as the graph's descs say, names of dims known
/// only at run time. What LoadedModel::outputs() gives once the graph is compiled and loaded.
GE_API std::vector<IoInfo> GraphOutputs(const ComputeGraph& graph);

}  // namespace ge
