// What the Python classes hold: a compiled model (compiled here or read from a .om) and a loaded
// model that runs it.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ge/graph/compute_graph.h"
#include "ge/model/compiled_model.h"
#include "ge/runtime/model.h"
#include "ge/session/shape_plan_cache.h"

namespace openge_py {

namespace py = pybind11;

/// openge._openge.CompiledModel: a compiled model, shared read-only by the sessions made from it.
struct CompiledModelHandle {
  std::shared_ptr<const ge::CompiledModel> model;
  /// An ONNX model whose input dims are left to run time, as parsed (never changed: sessions
  /// compile copies of it per set of input shapes), and the compile options; null otherwise.
  ge::ComputeGraphPtr graph_for_plans;
  std::map<std::string, std::string> options;
  double parse_millis = 0;
  double compile_millis = 0;
};

/// Compiles `model` (a path, or the bytes of an .onnx or .om) with `input_shapes` (graph input
/// name → dims) and `options` (compile options in GE's spelling). A .om is read, not compiled.
/// Runs without the GIL.
CompiledModelHandle CompileModel(const py::object& model,
                                 const std::map<std::string, std::vector<int64_t>>& input_shapes,
                                 const std::map<std::string, std::string>& options);

/// The graph inputs or outputs as dicts: name, type ("tensor(float)"), dtype (a NumPy dtype or
/// None) and shape (an int per known dim; the name of a dim known only at run time, or None).
py::list DescribeIo(const std::vector<ge::IoInfo>& io);

/// Every graph's memory plan as JSON (`gec plan --json`'s schema): {graph name: text}.
std::map<std::string, std::string> MemoryPlansJson(const ge::CompiledModel& model);

/// openge._openge.Session: a loaded model. run() may be called from several Python threads at
/// once (the GIL is released while the model runs); the rest is for one thread at a time.
/// A model compiled with input dims left to run time runs through a shape plan cache (compiled
/// for each set of input shapes on its first run); the model loaded from the compile describes
/// the inputs and outputs and runs when the cache does not specialise.
class SessionHandle {
 public:
  SessionHandle(const CompiledModelHandle& compiled, int threads, int max_concurrent_runs,
                int64_t max_memory_bytes, const std::map<std::string, std::string>& options);
  /// A session of `model` (a path, or the bytes of an .onnx or .om) compiled with `input_shapes`
  /// and `compile_options` as CompileModel does; except that an ONNX model whose input dims are
  /// left to run time is handed whole to a shape plan cache, and compiled for any shape only
  /// when Compiled() is asked for: its weights are in memory once, beside one plan's packed
  /// form, as a static model's. Runs without the GIL.
  static std::unique_ptr<SessionHandle> Open(
      const py::object& model, const std::map<std::string, std::vector<int64_t>>& input_shapes,
      const std::map<std::string, std::string>& compile_options, int threads,
      int max_concurrent_runs, int64_t max_memory_bytes);

  py::list Inputs() const;
  py::list Outputs() const;
  /// Runs on `feeds` ({input name: array}); returns the outputs named in `output_names` (every
  /// output, in order, when it is None).
  py::list Run(const py::dict& feeds, const py::object& output_names);

  void SetProfiling(bool on);
  /// The tasks of the last profiled run: name, type, stream, start_us, duration_us, threads,
  /// and predicted_us where the compiler's cost model predicted the task's time.
  py::list LastProfile() const;
  /// arena, weight and workspace bytes; run contexts; streams (of the last run's plan, for a
  /// session that runs plans only).
  py::dict Memory() const;
  /// The compiled model: for a session that runs plans only, compiled for any shape when first
  /// asked for.
  CompiledModelHandle Compiled();
  /// Inputs copied (not borrowed) since the session was made: arrays of another layout than
  /// C-contiguous, and array-likes.
  int64_t input_copies() const { return input_copies_.load(); }
  /// The shape plan cache's counts and plans (ShapePlanStats), and "specializes": whether runs
  /// go through it.
  py::dict ShapePlans() const;

 private:
  // A session that runs `plans` only; `about` holds no model until Compiled() makes it.
  SessionHandle(std::unique_ptr<ge::ShapePlanCache> plans, CompiledModelHandle about);
  // Runs `inputs` on their shape plan (plans_ is set); outputs by name.
  ge::Result<std::map<std::string, ge::GeTensor>> RunPlan(
      const std::map<std::string, ge::GeTensor>& inputs);
  // The inputs and outputs the session takes and gives: the loaded model's, or the cache's.
  const std::vector<ge::IoInfo>& InputInfo() const;
  const std::vector<ge::IoInfo>& OutputInfo() const;
  void IndexNames();

  std::unique_ptr<ge::Model> model_;  // null for a session that runs plans only
  std::unique_ptr<ge::ShapePlanCache> plans_;
  std::atomic<bool> profiling_{false};
  mutable std::mutex last_mutex_;
  std::shared_ptr<ge::Model> last_plan_;  // the plan model of the last run, for LastProfile
  std::mutex compiled_mutex_;             // guards compiled_.model, made on first ask
  CompiledModelHandle compiled_;
  std::map<std::string, size_t> input_index_;
  std::map<std::string, size_t> output_index_;
  std::atomic<int64_t> input_copies_{0};
};

}  // namespace openge_py
