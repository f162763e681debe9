// gec compile, dump, plan, ops, engines, options.
#include "commands.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "explorer_page.h"
#include "ge/compiler/compile_options.h"
#include "ge/compiler/memory/memory_planner.h"
#include "ge/compiler/pipeline_compile.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/serialize/model_serialize.h"
#include "ge/ops/op_registry.h"
#include "ge/ops/ops_proto_manager.h"

namespace gec {

void Commands::AddExplorerFlags(CLI::App* cmd) {
  cmd->add_option("--max-view-nodes", max_view_nodes_,
                  "stages with more nodes to draw are not drawn in the page, which names the "
                  "command that writes them as an SVG (default 20000)");
}

void AddCompileFlags(CLI::App* cmd, CompileFlags& flags) {
  cmd->add_option("--input-shape", flags.input_shape,
                  "input shapes, NAME:D0,D1;NAME2:D0 (-1 unknown)");
  cmd->add_option("--option", flags.options, "compile option KEY=VALUE (see `gec options`)");
  cmd->add_option("--disable-pass", flags.disable_passes, "skip an optimize pass by name");
  cmd->add_option("--dump-graph", flags.dump_dir, "dump the graph after every pass into DIR");
}

namespace {

std::string Extension(const std::string& path) {
  return std::filesystem::path(path).extension().string();
}

// The model cut into pipeline stages: each stage's predicted time, weights and the bytes it
// hands the next, then each stage's compile report.
ge::Status CompilePipelineCommand(const std::string& model, const CompileFlags& flags, int stages,
                                  const std::string& output, const std::string& report_path) {
  GE_ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, LoadGraph(model, flags));
  GE_ASSIGN_OR_RETURN(auto options, CompileOptionsOf(flags));
  GE_ASSIGN_OR_RETURN(
      ge::PipelineModel pipeline,
      ge::CompilePipeline(
          options, graph, stages,
          [&model](const std::string& stage, const std::string& pass, int position, int passes) {
            Progress("compiling " + model + ": " + stage + ", " + pass + " (" +
                     std::to_string(position) + "/" + std::to_string(passes) + ")");
          }));
  ProgressDone();
  GE_RETURN_IF_ERROR(pipeline.SaveToFile(output));
  nlohmann::json report = nlohmann::json::object();
  report["stages"] = nlohmann::json::array();
  for (size_t s = 0; s < pipeline.stages.size(); ++s) {
    const ge::PipelineStage& stage = pipeline.stages[s];
    char line[256];
    std::snprintf(line, sizeof(line),
                  "stage %zu: %zu nodes, predicted %.2f ms, weights %.1f MiB, sends %.1f KiB "
                  "(%zu tensors)\n",
                  s, stage.model.graph->GetDirectNodesSize(), stage.predicted_us / 1e3,
                  static_cast<double>(stage.weight_bytes) / (1024.0 * 1024.0),
                  static_cast<double>(stage.send_bytes) / 1024.0, stage.sends.size());
    std::cout << line;
    report["stages"].push_back({{"predicted_us", stage.predicted_us},
                                {"weight_bytes", stage.weight_bytes},
                                {"send_bytes", stage.send_bytes},
                                {"inputs", stage.inputs},
                                {"sends", stage.sends},
                                {"report", nlohmann::json::parse(stage.model.report.ToJson())}});
  }
  if (!report_path.empty()) GE_RETURN_IF_ERROR(WriteText(report_path, report.dump(2) + "\n"));
  std::cout << "wrote " << output << " (" << pipeline.stages.size() << " stages: mpirun -n "
            << pipeline.stages.size() << " gec run " << output << " --pipeline)\n";
  return ge::Status::Ok();
}

ge::Status CompileCommand(const std::string& model, CompileFlags flags, const std::string& output,
                          const std::string& report_path, int pipeline_stages,
                          const std::string& html, size_t max_view_nodes) {
  GE_ASSIGN_OR_RETURN(const bool already_compiled, IsCompiled(model));
  if (already_compiled) {
    return ge::ParamInvalid("'" + model + "' is already compiled");
  }
  if (Extension(output) != ".om") {
    return ge::ParamInvalid("-o '" + output + "': a compiled model file ends in .om");
  }
  if (pipeline_stages != 0) {
    if (!html.empty()) {
      return ge::ParamInvalid(
          "--html shows one model, not one cut into stages: write the whole model's page with "
          "gec report " +
          model + " -o PAGE.html");
    }
    return CompilePipelineCommand(model, flags, pipeline_stages, output, report_path);
  }
  ExplorerPage page(max_view_nodes, html);
  if (!html.empty()) page.Attach(flags);
  GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, CompileOrLoad(model, flags));
  GE_RETURN_IF_ERROR(compiled.SaveToFile(output));
  if (!report_path.empty()) GE_RETURN_IF_ERROR(WriteText(report_path, compiled.report.ToJson()));
  std::cout << compiled.report.ToText() << "wrote " << output << "\n";
  if (!html.empty()) {
    page.Keep(compiled);
    GE_RETURN_IF_ERROR(page.Write(model));
  }
  return ge::Status::Ok();
}

// The compile explorer of MODEL: compiled here (not saved), or a .om's built graph.
ge::Status ReportCommand(const std::string& model, CompileFlags flags, const std::string& html,
                         size_t max_view_nodes) {
  if (Extension(html) != ".html") {
    return ge::ParamInvalid("-o '" + html + "': the compile explorer is a page ending in .html");
  }
  ExplorerPage page(max_view_nodes, html);
  page.Attach(flags);
  GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, CompileOrLoad(model, flags));
  page.Keep(compiled);
  return page.Write(model);
}

ge::Status DumpCommand(const std::string& model, const CompileFlags& flags,
                       const std::string& stage, const std::string& format,
                       const std::string& output) {
  ge::ComputeGraphPtr graph;
  if (stage == "parsed") {
    GE_ASSIGN_OR_RETURN(graph, LoadGraph(model, flags));
  } else {
    const std::string last = stage == "optimized" ? "optimize"
                             : stage == "placed"  ? "place"
                                                  : "build";
    GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, CompileOrLoad(model, flags, last));
    graph = compiled.graph;
  }
  if (format == "txt") return WriteText(output, graph->DebugString());
  if (format == "pbtxt") {
    GE_ASSIGN_OR_RETURN(std::string text,
                        ge::ModelSerialize::Serialize(*graph, ge::SerializeFormat::kText));
    return WriteText(output, text);
  }
  if (format == "json") return WriteText(output, ge::GraphDump::ToJson(*graph));
  if (format == "dot") return WriteText(output, ge::GraphDump::ToDot(*graph));
  // svg / png through Graphviz.
  if (output == "-") return ge::ParamInvalid("--format " + format + " needs -o FILE");
  const std::string dot_path = output + ".dot";
  GE_RETURN_IF_ERROR(WriteText(dot_path, ge::GraphDump::ToDot(*graph)));
  ge::Status rendered = ge::GraphDump::RenderDot(dot_path, output, format);
  std::error_code ec;
  std::filesystem::remove(dot_path, ec);
  return rendered;
}

ge::Status PlanCommand(const std::string& model, const CompileFlags& flags, bool json,
                       const std::string& svg) {
  GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, CompileOrLoad(model, flags));
  auto it = compiled.plans.find(compiled.graph->GetName());
  if (it == compiled.plans.end()) {
    return ge::ParamInvalid("'" + model + "' has no memory plan for its graph");
  }
  const ge::memory::MemoryPlan& plan = it->second;
  std::cout << (json ? ge::memory::MemoryPlanToJson(plan) + "\n"
                     : ge::memory::FormatMemoryPlanText(plan));
  if (!svg.empty()) {
    if (Extension(svg) == ".png") return ge::memory::WriteMemoryPlanPng(plan, svg);
    GE_RETURN_IF_ERROR(WriteText(svg, ge::memory::MemoryPlanToSvg(plan)));
  }
  return ge::Status::Ok();
}

ge::Result<std::unique_ptr<ge::EngineManager>> LoadEngines() {
  auto engines = std::make_unique<ge::EngineManager>();
  GE_RETURN_IF_ERROR(engines->Initialize({}));
  return engines;
}

ge::Status OpsCommand(const std::string& engine_filter) {
  GE_RETURN_IF_ERROR(ge::OpsProtoManager::Instance().Initialize({}));
  GE_ASSIGN_OR_RETURN(auto engines, LoadEngines());
  if (!engine_filter.empty() && engines->GetEngine(engine_filter) == nullptr) {
    std::string names;
    for (const auto& e : engines->GetEngines())
      names += (names.empty() ? "" : ", ") + e.config.name;
    return ge::ParamInvalid("--engine '" + engine_filter + "' is not loaded; loaded: " + names);
  }
  size_t shown = 0;
  for (const std::string& type : ge::OpRegistry::Instance().GetAllTypes()) {
    auto op = std::make_shared<ge::OpDesc>(type, type);
    std::string owner = "(no engine)";
    for (const auto& engine : engines->GetEngines()) {
      std::string reason;
      if (engine.store->CheckSupported(op, reason)) {
        owner = engine.config.name;
        break;
      }
    }
    if (!engine_filter.empty() && owner != engine_filter) continue;
    std::cout << type << "\t" << owner << "\n";
    ++shown;
  }
  std::cout << shown << " operator(s)\n";
  return engines->Finalize();
}

ge::Status EnginesCommand() {
  GE_ASSIGN_OR_RETURN(auto engines, LoadEngines());
  for (const auto& engine : engines->GetEngines()) {
    std::cout << engine.config.name << "\tstore " << engine.config.kernel_lib << "\t"
              << engine.library_path << (engine.executor != nullptr ? "\truns tasks" : "") << "\n";
  }
  for (const std::string& note : engines->GetSkippedEngineNotes())
    std::cout << "skipped: " << note << "\n";
  return engines->Finalize();
}

ge::Status OptionsCommand() {
  auto print = [](const std::string& key, const std::string& default_value,
                  const std::string& help) {
    std::cout << key << " (default " << (default_value.empty() ? "none" : default_value)
              << "): " << help << "\n";
  };
  for (const ge::OptionInfo& info : ge::CompileOptions::Known()) {
    print(info.key, info.default_value, info.help);
  }
  // Each engine's own options, as its plugin declares them.
  GE_RETURN_IF_ERROR(ge::OpsProtoManager::Instance().Initialize({}));
  GE_ASSIGN_OR_RETURN(auto engines, LoadEngines());
  for (const auto& engine : engines->GetEngines()) {
    if (engine.options.empty()) continue;
    std::cout << "\nengine " << engine.config.name << ":\n";
    for (const ge::EngineOptionDef& def : engine.options)
      print(def.key, def.default_value, def.help);
  }
  return engines->Finalize();
}

}  // namespace

void Commands::Register(CLI::App& app) {
  CLI::App* compile =
      app.add_subcommand("compile", "compile MODEL (.onnx or a GE graph dump) to OUT.om");
  compile->add_option("model", model_, "the model file")->required();
  compile->add_option("-o,--output", output_, "the compiled model (.om)")->required();
  compile->add_option("--report", report_, "write the compile report (JSON) here");
  compile->add_option("--pipeline-stages", pipeline_stages_,
                      "cut the model into N stages of near-equal predicted time, each its own "
                      "model, for mpirun -n N gec run --pipeline");
  compile->add_option("--html", html_, "also write the compile explorer (a page) here");
  AddExplorerFlags(compile);
  AddCompileFlags(compile, flags_);
  compile->callback([this] {
    chosen_ = [this] {
      return CompileCommand(model_, flags_, output_, report_, pipeline_stages_, html_,
                            max_view_nodes_);
    };
  });

  CLI::App* report = app.add_subcommand(
      "report", "write the compile explorer of MODEL: one HTML page of what the compiler did");
  report->add_option("model", model_, "the model file (.onnx, a GE graph dump, or a .om)")
      ->required();
  report->add_option("-o,--output", html_, "the page to write (.html)")->required();
  AddExplorerFlags(report);
  AddCompileFlags(report, flags_);
  report->callback([this] {
    chosen_ = [this] { return ReportCommand(model_, flags_, html_, max_view_nodes_); };
  });

  CLI::App* dump = app.add_subcommand("dump", "write the graph at a stage");
  dump->add_option("model", model_, "the model file")->required();
  dump->add_option("--stage", stage_, "parsed, optimized, placed or built")
      ->check(CLI::IsMember({"parsed", "optimized", "placed", "built"}));
  dump->add_option("--format", format_, "txt, pbtxt, dot, svg, png or json")
      ->check(CLI::IsMember({"txt", "pbtxt", "dot", "svg", "png", "json"}));
  dump->add_option("-o,--output", output_, "the file to write (- for stdout)")->required();
  AddCompileFlags(dump, flags_);
  dump->callback([this] {
    chosen_ = [this] { return DumpCommand(model_, flags_, stage_, format_, output_); };
  });

  CLI::App* plan = app.add_subcommand("plan", "the memory plan of MODEL");
  plan->add_option("model", model_, "the model file")->required();
  plan->add_flag("--json", json_, "print the plan as JSON");
  plan->add_option("--svg", svg_, "draw the plan (.svg, or .png through rsvg-convert)");
  AddCompileFlags(plan, flags_);
  plan->callback([this] { chosen_ = [this] { return PlanCommand(model_, flags_, json_, svg_); }; });

  CLI::App* ops =
      app.add_subcommand("ops", "registered operator prototypes and the engine of each");
  ops->add_option("--engine", engine_, "only the operators this engine takes");
  ops->callback([this] { chosen_ = [this] { return OpsCommand(engine_); }; });

  CLI::App* engines = app.add_subcommand("engines", "loaded engine plugins");
  engines->callback([this] { chosen_ = [] { return EnginesCommand(); }; });

  CLI::App* options = app.add_subcommand("options", "every compile option with its default");
  options->callback([this] { chosen_ = [] { return OptionsCommand(); }; });
  RegisterRun(app);
  RegisterOnnxTest(app);
  RegisterOpt(app);
  RegisterCalibrate(app);
}

ge::Status Commands::Run() {
  if (!chosen_) return ge::ParamInvalid("no command given (see gec --help)");
  return chosen_();
}

}  // namespace gec
