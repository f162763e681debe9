// Loading models for gec by their file kind, and the session options from the flags.
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "ge/compiler/compile_options.h"
#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/model/model_source.h"
#include "ge/parser/onnx_parser.h"
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

ge::Result<ModelKind> KindOf(const std::string& path) {
  GE_ASSIGN_OR_RETURN(ge::ModelSource source, ge::ModelSource::FromFile(path));
  switch (source.format()) {
    case ge::ModelFormat::kOnnx:
      return ModelKind::kOnnx;
    case ge::ModelFormat::kGeGraph:
      return ModelKind::kGraph;
    case ge::ModelFormat::kCompiled:
    case ge::ModelFormat::kPipeline:
      break;
  }
  return ModelKind::kCompiled;
}

ge::Result<std::map<std::string, std::string>> SessionOptions(const CompileFlags& flags) {
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

ge::Result<ge::ComputeGraphPtr> LoadGraph(const std::string& path, const CompileFlags& flags) {
  GE_ASSIGN_OR_RETURN(ModelKind kind, KindOf(path));
  if (kind == ModelKind::kOnnx) {
    ge::OnnxParseOptions parse;
    if (!flags.input_shape.empty()) {
      GE_ASSIGN_OR_RETURN(parse.input_shapes, ge::ParseInputShapes(flags.input_shape));
    }
    Progress("parsing " + path);
    auto graph = ge::ParseOnnxFile(path, parse);
    ProgressDone();
    return graph;
  }
  if (kind == ModelKind::kGraph) return ge::ModelSerialize::LoadFromFile(path);
  return ge::ParamInvalid("'" + path + "' is a compiled model, not a graph to compile");
}

ge::Result<ge::CompiledModel> CompileGraph(const ge::ComputeGraphPtr& graph,
                                           const std::string& path, const CompileFlags& flags,
                                           const std::string& last_stage, LoadTimes& times) {
  GE_ASSIGN_OR_RETURN(auto options, SessionOptions(flags));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::Compiler> compiler, ge::Compiler::Create(options));
  compiler->SetProgress(
      [&path](const std::string& stage, const std::string& pass, int position, int passes) {
        Progress("compiling " + path + ": " + stage + ", " + pass + " (" +
                 std::to_string(position) + "/" + std::to_string(passes) + ")");
      });
  if (flags.stage_done) compiler->SetStageDone(flags.stage_done);
  Progress("compiling " + path);
  const auto start = std::chrono::steady_clock::now();
  auto model = compiler->Compile(graph, last_stage);
  times.compile = MillisSince(start);
  ProgressDone();
  if (model.ok()) {
    model->report.parse_millis = times.parse;
    if (flags.compiled) flags.compiled(*compiler, *model);
  }
  return model;
}

ge::Result<ge::InferenceOptions> InferenceOptionsOf(const CompileFlags& flags,
                                                    const std::string& path) {
  ge::InferenceOptions options;
  GE_ASSIGN_OR_RETURN(options.compile, SessionOptions(flags));
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

ge::Result<ge::CompiledModel> CompileOrLoad(const std::string& path, const CompileFlags& flags,
                                            const std::string& last_stage, LoadTimes* times) {
  LoadTimes local;
  LoadTimes& t = times != nullptr ? *times : local;
  const auto start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(ModelKind kind, KindOf(path));
  if (kind == ModelKind::kCompiled) {
    auto model = ge::CompiledModel::LoadFromFile(path);
    t.read_om = MillisSince(start);
    return model;
  }
  GE_ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, LoadGraph(path, flags));
  t.parse = MillisSince(start);
  return CompileGraph(graph, path, flags, last_stage, t);
}

ge::Status WriteText(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return ge::Status::Ok();
  }
  return ge::GraphDump::WriteFile(path, text);
}

}  // namespace gec
