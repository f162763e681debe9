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
#include "ge/runtime/loaded_model.h"
#include "ge/session/inference_session.h"

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

/// openge._openge.Session: an InferenceSession (ge/session/inference_session.h), which decides how
/// the model runs: loaded once, or a static plan per set of input shapes for a model whose input
/// dims are left to run time. run() may be called from several Python threads at once (the GIL
/// is released while the model runs); the rest is for one thread at a time.
class SessionHandle {
 public:
  /// A session of a model compiled by CompileModel; `options` are the runtime's.
  SessionHandle(const CompiledModelHandle& compiled, int threads, int max_concurrent_runs,
                int64_t max_memory_bytes, const std::map<std::string, std::string>& options);
  /// A session of `model` (a path, or the bytes of an .onnx or .om) compiled with `input_shapes`
  /// and `compile_options`, through InferenceSession::Open: an ONNX model whose input dims are
  /// left to run time is compiled for any shape only when Compiled() is asked for, so its
  /// weights are in memory once, beside one plan's packed form, as a static model's. Runs
  /// without the GIL.
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
  /// The last profiled run as trace events (ge::TraceEventsJson): a JSON array.
  std::string TraceEvents(double run_start_us, int64_t pid) const;
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
  SessionHandle(std::unique_ptr<ge::InferenceSession> session, CompiledModelHandle compiled);

  std::unique_ptr<ge::InferenceSession> session_;
  std::map<std::string, size_t> output_index_;
  std::mutex compiled_mutex_;  // guards compiled_.model, made on first ask
  CompiledModelHandle compiled_;
  std::atomic<int64_t> input_copies_{0};
};

}  // namespace openge_py
