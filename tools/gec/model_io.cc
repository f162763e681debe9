// Loading models for gec by their file kind, and the session options from the flags.
#include <sys/ioctl.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "ge/compiler/compile_options.h"
#include "ge/graph/serialize/graph_dump.h"
#include "ge/model/model_source.h"
#include "gec.h"

namespace gec {
namespace {

bool g_progress_shown = false;

}  // namespace

void Progress(const std::string& what) {
  if (isatty(STDERR_FILENO) == 0) return;
  // One line that rewrites itself: cut to the terminal's width so that it never wraps.
  std::string line = what + "...";
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 4 &&
      line.size() >= size.ws_col) {
    line = line.substr(0, size.ws_col - 4) + "...";
  }
  std::cerr << "\r\033[K" << line << std::flush;
  g_progress_shown = true;
}

void ProgressDone() {
  if (!g_progress_shown) return;
  std::cerr << "\r\033[K" << std::flush;
  g_progress_shown = false;
}

ge::Result<bool> IsCompiled(const std::string& path) {
  GE_ASSIGN_OR_RETURN(ge::ModelSource source, ge::ModelSource::FromFile(path));
  return !source.NeedsCompile();
}

ge::Result<std::map<std::string, std::string>> CompileOptionsOf(const CompileFlags& flags) {
  std::map<std::string, std::string> options;
  for (const std::string& kv : flags.options) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ge::ParamInvalid("--option '" + kv + "': expected KEY=VALUE");
    }
    options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  if (!flags.input_shape.empty()) options[ge::kOptInputShape] = flags.input_shape;
  if (!flags.disable_passes.empty()) {
    std::string list;
    for (const std::string& p : flags.disable_passes) list += (list.empty() ? "" : ",") + p;
    options[ge::kOptDisablePasses] = list;
  }
  if (!flags.dump_dir.empty()) options[ge::kOptDumpGraphDir] = flags.dump_dir;
  return options;
}

ge::Result<ge::InferenceOptions> InferenceOptionsOf(const CompileFlags& flags,
                                                    const std::string& path) {
  ge::InferenceOptions options;
  GE_ASSIGN_OR_RETURN(options.compile, CompileOptionsOf(flags));
  if (!flags.input_shape.empty()) {
    GE_ASSIGN_OR_RETURN(options.input_shapes, ge::ParseInputShapes(flags.input_shape));
  }
  options.progress = [path](const std::string& stage, const std::string& pass, int position,
                            int passes) {
    Progress("compiling " + path + ": " + stage + ", " + pass + " (" + std::to_string(position) +
             "/" + std::to_string(passes) + ")");
  };
  options.stage_done = flags.stage_done;
  options.compiled = flags.compiled;
  return options;
}

ge::Result<ge::ComputeGraphPtr> LoadGraph(const std::string& path, const CompileFlags& flags) {
  GE_ASSIGN_OR_RETURN(ge::ModelSource source, ge::ModelSource::FromFile(path));
  if (!source.NeedsCompile()) {
    return ge::ParamInvalid("'" + path + "' is a compiled model, not a graph to compile");
  }
  GE_ASSIGN_OR_RETURN(ge::InferenceOptions options, InferenceOptionsOf(flags, path));
  Progress("parsing " + path);
  auto graph = ge::ReadGraph(source, options);
  ProgressDone();
  return graph;
}

ge::Result<ge::CompiledModel> CompileOrLoad(const std::string& path, const CompileFlags& flags,
                                            const std::string& last_stage) {
  GE_ASSIGN_OR_RETURN(ge::ModelSource source, ge::ModelSource::FromFile(path));
  GE_ASSIGN_OR_RETURN(ge::InferenceOptions options, InferenceOptionsOf(flags, path));
  Progress("reading " + path);
  auto prepared = ge::CompileSource(source, options, last_stage);
  ProgressDone();
  if (!prepared.ok()) return prepared.status();
  return std::move(prepared->model);
}

ge::Status WriteText(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return ge::Status::Ok();
  }
  return ge::GraphDump::WriteFile(path, text);
}

}  // namespace gec
