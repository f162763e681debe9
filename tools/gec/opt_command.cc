// gec opt: runs named compiler passes on a graph and writes the graph after them, in GE's text
// format, so that a pass can be tried (and tested) alone, as mlir-opt runs MLIR's.
#include <algorithm>
#include <iostream>

#include "commands.h"
#include "ge/compiler/compile_options.h"
#include "ge/graph/log.h"
#include "ge/graph/serialize/model_serialize.h"

namespace gec {
namespace {

// One line per pass on stderr (--log-level info): what it did, for a person trying passes.
void PrintReport(const ge::PassReport& report) {
  std::cerr << report.name << ": "
            << (report.skipped ? "skipped" : (report.changed ? "changed" : "unchanged")) << ", "
            << report.nodes_before << " -> " << report.nodes_after << " nodes";
  for (const auto& [counter, n] : report.counters) std::cerr << ", " << counter << ": " << n;
  std::cerr << "\n";
  for (const std::string& note : report.notes) std::cerr << "  note: " << note << "\n";
}

ge::Status OptCommand(const std::string& model, const CompileFlags& flags,
                      const std::vector<std::string>& passes, const std::string& dump_after,
                      const std::string& output) {
  GE_ASSIGN_OR_RETURN(const bool already_compiled, IsCompiled(model));
  if (already_compiled) {
    return ge::ParamInvalid("'" + model +
                            "' is a compiled model; gec opt takes a graph (.onnx or a GE "
                            "graph dump)");
  }
  if (passes.empty()) return ge::ParamInvalid("--passes names no pass");
  const std::string& dump_pass = dump_after.empty() ? passes.back() : dump_after;
  const auto dump_at = std::find(passes.begin(), passes.end(), dump_pass);
  if (dump_at == passes.end()) {
    return ge::ParamInvalid("--dump-after '" + dump_after + "' is not among the --passes");
  }
  // The first run of the pass when it repeats; the last pass when --dump-after is not given.
  const int dump_position = dump_after.empty() ? static_cast<int>(passes.size())
                                               : static_cast<int>(dump_at - passes.begin()) + 1;
  GE_ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, LoadGraph(model, flags));
  GE_ASSIGN_OR_RETURN(auto options, CompileOptionsOf(flags));
  // A pass that breaks the graph is named at once, unless --option turns the check off.
  options.emplace(ge::kOptVerifyPasses, "1");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ge::Compiler> compiler, ge::Compiler::Create(options));
  compiler->SetProgress(
      [&model](const std::string& stage, const std::string& pass, int position, int count) {
        Progress("gec opt " + model + ": " + stage + ", " + pass + " (" + std::to_string(position) +
                 "/" + std::to_string(count) + ")");
      });
  // Written when the pass has run, so the graph is out even if a later pass fails.
  auto write = [&](const std::string& /*pass*/, int position,
                   const ge::ComputeGraph& after) -> ge::Status {
    if (position != dump_position) return ge::Status::Ok();
    GE_ASSIGN_OR_RETURN(std::string text,
                        ge::ModelSerialize::Serialize(after, ge::SerializeFormat::kText));
    ProgressDone();
    return WriteText(output, text);
  };
  auto reports = compiler->RunPasses(graph, passes, write);
  ProgressDone();
  if (!reports.ok()) return reports.status();
  if (ge::LogEnabled(ge::LogLevel::kInfo)) {
    for (const ge::PassReport& report : *reports) PrintReport(report);
  }
  return ge::Status::Ok();
}

}  // namespace

void Commands::RegisterOpt(CLI::App& app) {
  CLI::App* opt = app.add_subcommand(
      "opt", "run named passes on MODEL (.onnx or a GE graph dump) and write the graph (pbtxt)");
  opt->add_option("model", model_, "the model file")->required();
  opt->add_option("--passes", passes_,
                  "passes to run, in order: A,B,... (an unknown name lists them)")
      ->required()
      ->delimiter(',');
  opt->add_option("--dump-after", dump_after_,
                  "write the graph after this pass (its first run) instead of after the last");
  opt->add_option("--input-shape", flags_.input_shape,
                  "input shapes, NAME:D0,D1;NAME2:D0 (-1 unknown)");
  opt->add_option("--option", flags_.options, "compile option KEY=VALUE (see `gec options`)");
  opt->add_option("-o,--output", output_, "the file to write (- for stdout)")->default_val("-");
  opt->callback([this] {
    chosen_ = [this] { return OptCommand(model_, flags_, passes_, dump_after_, output_); };
  });
}

}  // namespace gec
