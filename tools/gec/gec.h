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

/// True when MODEL is a compiled model or pipeline (by its magic, ge::ModelSource); errors name
/// the file.
ge::Result<bool> IsCompiled(const std::string& path);

/// The compiler's options from --option, --input-shape, --disable-pass and --dump-graph.
ge::Result<std::map<std::string, std::string>> CompileOptionsOf(const CompileFlags& flags);

/// InferenceSession's options from the flags: the session options, --input-shape, a progress
/// line naming `path`, and the flags' compiler callbacks.
ge::Result<ge::InferenceOptions> InferenceOptionsOf(const CompileFlags& flags,
                                                    const std::string& path);

/// The graph in MODEL as parsed (ge::ReadGraph, with --input-shape); a compiled model is refused.
ge::Result<ge::ComputeGraphPtr> LoadGraph(const std::string& path, const CompileFlags& flags);

/// MODEL compiled as a session would compile it (ge::CompileSource), up to `last_stage`, or read
/// when it is already compiled.
ge::Result<ge::CompiledModel> CompileOrLoad(const std::string& path, const CompileFlags& flags,
                                            const std::string& last_stage = "build");

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
