// Shared pieces of the gec commands: loading models, options, output.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/model/compiled_model.h"
#include "ge/session/inference_session.h"

namespace gec {

/// Options every command that compiles takes.
struct CompileFlags {
  std::string input_shape;                  ///< --input-shape NAME:D0,D1;...
  std::vector<std::string> options;         ///< --option KEY=VALUE
  std::vector<std::string> disable_passes;  ///< --disable-pass NAME
  std::string dump_dir;                     ///< --dump-graph DIR
  /// Called as each compiler stage ends (the compile explorer's snapshots), when set.
  ge::Compiler::StageDoneFn stage_done;
  /// Called after a successful compile with the compiler that made `model`, when set.
  std::function<void(const ge::Compiler& compiler, const ge::CompiledModel& model)> compiled;
};

/// What a model file holds: a graph to compile, or a compiled model.
enum class ModelKind { kOnnx, kGraph, kCompiled };

/// What ge::ModelSource makes of the file: a compiled model (or pipeline) by its magic, a GE
/// graph dump by its extension (.pb/.air/.ge/.pbtxt/.txt/.prototxt), anything else ONNX. Errors
/// name the file.
ge::Result<ModelKind> KindOf(const std::string& path);
ge::Result<ge::ComputeGraphPtr> LoadGraph(const std::string& path, const CompileFlags& flags);

/// The session options from --option, --input-shape, --disable-pass, --dump-graph, and the
/// engine/ops locations (defaults next to the installed binaries).
ge::Result<std::map<std::string, std::string>> SessionOptions(const CompileFlags& flags);

/// InferenceSession's options from the flags: the session options, --input-shape, a progress
/// line naming `path`, and the flags' compiler callbacks.
ge::Result<ge::InferenceOptions> InferenceOptionsOf(const CompileFlags& flags,
                                                    const std::string& path);

/// Where the time before a model runs went, in milliseconds.
struct LoadTimes {
  double parse = 0;    ///< the model file into a graph (0 for a .om)
  double compile = 0;  ///< the compiler's stages (0 for a .om)
  double read_om = 0;  ///< a .om file checked and mapped (0 when compiled here)
};

/// Compiles MODEL (or loads it when it is already compiled) up to `last_stage`; `times`, when
/// given, gets where the time went (the parse time is also in the report).
ge::Result<ge::CompiledModel> CompileOrLoad(const std::string& path, const CompileFlags& flags,
                                            const std::string& last_stage = "build",
                                            LoadTimes* times = nullptr);

/// Compiles `graph`, parsed from `path` (for the progress line), up to `last_stage`; the compile
/// time goes to `times` and `times.parse` to the report.
ge::Result<ge::CompiledModel> CompileGraph(const ge::ComputeGraphPtr& graph,
                                           const std::string& path, const CompileFlags& flags,
                                           const std::string& last_stage, LoadTimes& times);

/// Milliseconds since `start`.
inline double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Writes `text` to `path` ("-" is stdout).
ge::Status WriteText(const std::string& path, const std::string& text);

/// A progress line on stderr when it is a terminal (quiet otherwise).
void Progress(const std::string& what);
void ProgressDone();

}  // namespace gec
