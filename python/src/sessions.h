// What the Python classes hold: a compiled model (compiled here or read from a .om) and a loaded
// model that runs it.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/model/compiled_model.h"
#include "ge/runtime/model.h"

namespace openge_py {

namespace py = pybind11;

/// openge._openge.CompiledModel: a compiled model, shared read-only by the sessions made from it.
struct CompiledModelHandle {
  std::shared_ptr<const ge::CompiledModel> model;
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
/// None) and shape (an int per known dim; the model's name of a symbolic dim, or None).
py::list DescribeIo(const ge::CompiledModel& model, const std::vector<ge::IoInfo>& io, bool inputs);

/// Every graph's memory plan as JSON (`gec plan --json`'s schema): {graph name: text}.
std::map<std::string, std::string> MemoryPlansJson(const ge::CompiledModel& model);

/// openge._openge.Session: a loaded model. run() may be called from several Python threads at
/// once (the GIL is released while the model runs); the rest is for one thread at a time.
class SessionHandle {
 public:
  SessionHandle(const CompiledModelHandle& compiled, int threads, int max_concurrent_runs,
                int64_t max_memory_bytes, const std::map<std::string, std::string>& options);

  py::list Inputs() const;
  py::list Outputs() const;
  /// Runs on `feeds` ({input name: array}); returns the outputs named in `output_names` (every
  /// output, in order, when it is None).
  py::list Run(const py::dict& feeds, const py::object& output_names);

  void SetProfiling(bool on) { model_->EnableProfiling(on); }
  /// The tasks of the last profiled run: name, type, stream, start_us, duration_us.
  py::list LastProfile() const;
  /// arena, weight and workspace bytes; run contexts; streams.
  py::dict Memory() const;
  CompiledModelHandle Compiled() const;
  /// Inputs copied (not borrowed) since the session was made: arrays of another layout than
  /// C-contiguous, and array-likes.
  int64_t input_copies() const { return input_copies_.load(); }

 private:
  std::unique_ptr<ge::Model> model_;
  CompiledModelHandle compiled_;
  std::map<std::string, size_t> input_index_;
  std::map<std::string, size_t> output_index_;
  std::atomic<int64_t> input_copies_{0};
};

}  // namespace openge_py
