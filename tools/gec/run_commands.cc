// gec run: running a model through the runtime, with its timing, memory and profile.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "commands.h"
#include "explorer_page.h"
#include "ge/compiler/compile_options.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/model/model_source.h"
#include "ge/pipeline/mpi_pipeline.h"
#include "ge/runtime/npy.h"
#include "ge/session/inference_session.h"
#include "run_io.h"

namespace gec {
namespace {

namespace fs = std::filesystem;

struct Latency {
  double min = 0, median = 0, max = 0;
};

Latency LatencyOf(std::vector<double> millis) {
  std::sort(millis.begin(), millis.end());
  return {millis.front(), millis[millis.size() / 2], millis.back()};
}

nlohmann::json LatencyJson(const Latency& latency) {
  nlohmann::json j = nlohmann::json::object();
  j["min"] = latency.min;
  j["median"] = latency.median;
  j["max"] = latency.max;
  return j;
}

// "name:d0,d1;name2:d0", the shapes of one input set, as the shape plan cache names its plans.
std::string ShapesOf(const std::vector<ge::IoInfo>& inputs, const std::vector<ge::GeTensor>& set) {
  std::string text;
  for (size_t i = 0; i < inputs.size() && i < set.size(); ++i) {
    if (i > 0) text += ';';
    text += inputs[i].name;
    text += ':';
    const std::vector<int64_t> dims = set[i].GetTensorDesc().GetShape().GetDims();
    for (size_t d = 0; d < dims.size(); ++d) {
      if (d > 0) text += ',';
      text += std::to_string(dims[d]);  // appended: GCC 12 -O3 misreads "," + a temporary
    }
  }
  return text;
}

constexpr double kMiBf = 1024.0 * 1024.0;

// The peak resident set, and how the session's model makes it up.
struct Peak {
  int64_t peak_kib = 0;
  int64_t other_bytes = 0;  ///< code, libraries, the compiler's transient data
};

Peak PeakOf(const ge::SessionMemory& memory) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  Peak peak;
  peak.peak_kib = usage.ru_maxrss;
  const int64_t held = memory.weight_bytes + memory.loaded_weight_bytes + memory.arena_bytes +
                       memory.workspace_bytes;
  peak.other_bytes = std::max<int64_t>(0, peak.peak_kib * 1024 - held);
  return peak;
}

// "memory: ..." and "time before the first run: ..." for one model (or a pipeline's stages).
void PrintMemoryAndTimes(const ge::InferenceSession& session, const Peak& peak) {
  const ge::SessionMemory memory = session.Memory();
  const ge::OpenTimes& times = session.times();
  const int64_t peak_bytes = peak.peak_kib * 1024;
  const int64_t held = peak_bytes - peak.other_bytes;
  std::string repacked;  // weights the kernels put into layouts of their own at load
  if (memory.loaded_weight_bytes > 0) {
    char text[64];
    std::snprintf(text, sizeof(text), " + repacked at load %.1f",
                  static_cast<double>(memory.loaded_weight_bytes) / kMiBf);
    repacked = text;
  }
  char line[512];
  std::snprintf(
      line, sizeof(line),
      "memory: peak resident %.1f MiB = weights %.1f%s + arena %.1f + kernel scratch "
      "%.1f + other %.1f%s\n"
      "time before the first run: parse %.1f ms, compile %.1f ms, read .om %.1f ms, "
      "load %.1f ms\n",
      static_cast<double>(peak_bytes) / kMiBf, static_cast<double>(memory.weight_bytes) / kMiBf,
      repacked.c_str(), static_cast<double>(memory.arena_bytes) / kMiBf,
      static_cast<double>(memory.workspace_bytes) / kMiBf,
      static_cast<double>(peak.other_bytes) / kMiBf,
      peak_bytes < held ? " (less than the parts: weight pages no run read stay in the file)" : "",
      times.parse, times.compile, times.read_om, times.load);
  std::cout << line;
}

// "shape plans: ..." for a session that made a plan per set of input shapes; `reused`: the input
// sets whose shapes had a plan already, `padded`: those openge.shapeBuckets padded.
void PrintShapePlans(const ge::ShapePlanStats& stats, int reused, int padded) {
  const std::string padded_sets =
      padded > 0 ? "; " + std::to_string(padded) + " input set(s) padded to a bucket" : "";
  char line[512];
  std::snprintf(line, sizeof(line),
                "shape plans: %lld compiled, %d input set(s) reused one, %lld dropped; %zu kept, "
                "holding %.1f MiB; compiling and loading them took %.1f ms%s\n",
                static_cast<long long>(stats.misses), reused,
                static_cast<long long>(stats.evictions), stats.plans.size(),
                static_cast<double>(stats.bytes) / kMiBf, stats.specialize_millis,
                padded_sets.c_str());
  std::cout << line;
}

nlohmann::json ShapePlansJson(const ge::ShapePlanStats& stats) {
  nlohmann::json p = nlohmann::json::object();
  p["hits"] = stats.hits;
  p["misses"] = stats.misses;
  p["evictions"] = stats.evictions;
  p["padded"] = stats.padded;
  p["bytes"] = stats.bytes;
  p["specialize_ms"] = stats.specialize_millis;
  p["plans"] = nlohmann::json::array();
  for (const ge::ShapePlanInfo& kept : stats.plans) {
    nlohmann::json e = nlohmann::json::object();
    e["shapes"] = kept.shapes;
    e["runs"] = kept.runs;
    e["compile_ms"] = kept.compile_millis;
    e["load_ms"] = kept.load_millis;
    e["bytes"] = kept.bytes;
    e["dynamic"] = kept.dynamic;
    if (!kept.error.empty()) e["error"] = kept.error;
    p["plans"].push_back(std::move(e));
  }
  return p;
}

// What one input set's runs gave.
struct SetRun {
  std::string shapes;
  bool compiled = false;  ///< a plan was compiled for its shapes on its first run
  std::string padded_to;  ///< the bucket's shapes when openge.shapeBuckets padded it
  double first_millis = 0;
  std::vector<double> millis;
  std::vector<ge::GeTensor> outputs;
};

// Runs one input set: a first run (which compiles a plan for new shapes), the rest of the
// warmup, then the timed runs, the last one profiled when `profile_last`.
ge::Result<SetRun> RunSet(ge::InferenceSession& session, const std::vector<ge::GeTensor>& set,
                          const RunFlags& run, const std::string& which, bool profile_last) {
  SetRun r;
  r.shapes = ShapesOf(session.inputs(), set);
  const int64_t misses = session.PlanStats().misses;
  Progress(which + "first run");
  auto start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(r.outputs, session.Run(set));
  r.first_millis = MillisSince(start);
  const ge::ShapePlanStats stats = session.PlanStats();
  r.compiled = stats.misses > misses;
  for (int i = 1; i < run.warmup; ++i) {
    GE_ASSIGN_OR_RETURN(r.outputs, session.Run(set));
  }
  for (int i = 0; i < run.iterations; ++i) {
    Progress(which + "run " + std::to_string(i + 1) + "/" + std::to_string(run.iterations));
    if (profile_last && i + 1 == run.iterations) session.EnableProfiling(true);
    start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(r.outputs, session.Run(set));
    r.millis.push_back(MillisSince(start));
  }
  ProgressDone();
  if (session.strategy() == ge::RunStrategy::kShapePlans && !stats.plans.empty() &&
      stats.plans.front().shapes != r.shapes) {
    r.padded_to = stats.plans.front().shapes;  // the plan just used is the most recent
  }
  return r;
}

// The session's model on every input set; one report whatever the run strategy.
ge::Status RunSession(ge::InferenceSession& session, const std::string& model_path,
                      const RunFlags& run, int64_t max_memory_bytes, ExplorerPage* page) {
  const bool plans = session.strategy() == ge::RunStrategy::kShapePlans;
  const bool any_shape = plans || session.strategy() == ge::RunStrategy::kAnyShape;
  GE_ASSIGN_OR_RETURN(auto sets, InputSets(session.inputs(), run.input_files, max_memory_bytes));
  if (sets.size() > 1 && !any_shape) {
    return ge::ParamInvalid(
        "--input gives one input more than once (" + std::to_string(sets.size()) +
        " input sets), but this model's input shapes are fixed: several sets are for a model "
        "whose input dims are known only at run time, compiled for each set's shapes");
  }
  std::vector<std::string> output_names;
  for (const ge::IoInfo& info : session.outputs()) output_names.push_back(info.name);
  std::vector<SetRun> runs;
  std::vector<double> all_millis;
  const bool profile = !run.profile.empty() || page != nullptr;
  for (size_t k = 0; k < sets.size(); ++k) {
    const std::string which = sets.size() > 1 ? "set " + std::to_string(k + 1) + " " : "";
    GE_ASSIGN_OR_RETURN(SetRun r,
                        RunSet(session, sets[k], run, which, profile && k + 1 == sets.size()));
    if (any_shape) {
      std::string how = "the model for every shape";
      if (plans) {
        const ge::ShapePlanStats stats = session.PlanStats();
        const ge::ShapePlanInfo& info = stats.plans.front();  // the one just used
        const std::string padded = r.padded_to.empty() ? "" : "padded to " + r.padded_to + ", ";
        how = padded + (r.compiled ? "compiled for these shapes: compile " +
                                         std::to_string(static_cast<int>(info.compile_millis)) +
                                         " ms, load " +
                                         std::to_string(static_cast<int>(info.load_millis)) + " ms"
                                   : "their plan reused");
      }
      char line[512];
      std::snprintf(line, sizeof(line),
                    "%sshapes %s: first run %.1f ms (%s), then median %.3f ms over %d run(s)\n",
                    which.c_str(), r.shapes.c_str(), r.first_millis, how.c_str(),
                    LatencyOf(r.millis).median, run.iterations);
      std::cout << line;
    }
    for (size_t i = 0; i < r.outputs.size() && i < session.outputs().size(); ++i) {
      std::cout << which << "output " << session.outputs()[i].name << ": " << Summary(r.outputs[i])
                << "\n";
    }
    if (!run.output_dir.empty()) {
      const std::string suffix = sets.size() > 1 ? "_" + std::to_string(k + 1) : "";
      GE_RETURN_IF_ERROR(WriteOutputs(run.output_dir, suffix, output_names, r.outputs));
    }
    all_millis.insert(all_millis.end(), r.millis.begin(), r.millis.end());
    runs.push_back(std::move(r));
  }
  const Latency latency = LatencyOf(all_millis);
  const Peak peak = PeakOf(session.Memory());
  if (!plans) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "latency over %d run(s): min %.3f ms, median %.3f ms, max %.3f ms\n",
                  static_cast<int>(all_millis.size()), latency.min, latency.median, latency.max);
    std::cout << line;
  } else {
    const int reused = static_cast<int>(
        std::count_if(runs.begin(), runs.end(), [](const SetRun& r) { return !r.compiled; }));
    const int padded = static_cast<int>(std::count_if(
        runs.begin(), runs.end(), [](const SetRun& r) { return !r.padded_to.empty(); }));
    PrintShapePlans(session.PlanStats(), reused, padded);
  }
  PrintMemoryAndTimes(session, peak);
  const ge::ExecutionInfo execution = session.Execution();
  if (execution.streams > 1) {
    std::string split;
    for (int t : execution.kernel_threads) split += (split.empty() ? "" : "+") + std::to_string(t);
    std::cout << "streams: " << execution.streams
              << " in parallel, one thread each; intra-op threads " << split << "\n";
  }
  const int stages = session.stages();
  if (session.strategy() == ge::RunStrategy::kPipeline) {
    std::cout << "stages: " << stages << ", run one after another in this process (mpirun -n "
              << stages << " gec run ... --pipeline runs one per process)\n";
  }
  const std::vector<ge::TaskTiming> last_profile =
      profile ? session.LastProfile() : std::vector<ge::TaskTiming>{};
  if (!run.profile.empty()) {
    const std::string events = ge::TraceEventsJson(last_profile, 0, getpid());
    GE_RETURN_IF_ERROR(
        WriteText(run.profile, "{\"traceEvents\": " + events + ", \"displayTimeUnit\": \"ms\"}\n"));
  }
  if (page != nullptr) GE_RETURN_IF_ERROR(page->Write(model_path, last_profile));
  if (run.report_path.empty()) return ge::Status::Ok();
  // One schema for every strategy: the latency over every timed run at the top, each input
  // set's under "sets" (one for a model of fixed shapes).
  nlohmann::json r = nlohmann::json::object();
  r["strategy"] = ge::RunStrategyName(session.strategy());
  r["iterations"] = run.iterations;
  r["latency_ms"] = LatencyJson(latency);
  r["sets"] = nlohmann::json::array();
  for (const SetRun& s : runs) {
    nlohmann::json j = nlohmann::json::object();
    j["shapes"] = s.shapes;
    j["compiled"] = s.compiled;
    if (!s.padded_to.empty()) j["padded_to"] = s.padded_to;
    j["first_run_ms"] = s.first_millis;
    j["latency_ms"] = LatencyJson(LatencyOf(s.millis));
    r["sets"].push_back(std::move(j));
  }
  const ge::SessionMemory memory = session.Memory();
  r["memory"]["arena_bytes"] = memory.arena_bytes;
  r["memory"]["weight_bytes"] = memory.weight_bytes;
  r["memory"]["workspace_bytes"] = memory.workspace_bytes;
  r["memory"]["loaded_weight_bytes"] = memory.loaded_weight_bytes;
  r["memory"]["other_bytes"] = peak.other_bytes;
  r["memory"]["peak_resident_kib"] = peak.peak_kib;
  const ge::OpenTimes& times = session.times();
  r["time_ms"]["parse"] = times.parse;
  r["time_ms"]["compile"] = times.compile;
  const ge::CompiledModel* compiled = session.compiled();
  if (compiled != nullptr) {
    for (const ge::StageReport& stage : compiled->report.stages) {
      r["time_ms"]["stages"][stage.name] = stage.millis;
    }
  }
  r["time_ms"]["read_om"] = times.read_om;
  r["time_ms"]["load"] = times.load;
  r["time_ms"]["ready"] = times.parse + times.compile + times.read_om + times.load;
  // The intra-op threads of each stream, and the budget the cost model planned for.
  r["threads"]["run"] = execution.kernel_threads;
  r["threads"]["planned"] = compiled != nullptr ? compiled->report.schedule.threads : 0;
  if (plans) r["shape_plans"] = ShapePlansJson(session.PlanStats());
  if (session.strategy() == ge::RunStrategy::kPipeline) r["stages"] = stages;
  return WriteText(run.report_path, r.dump(2) + "\n");
}

ge::Status RunCommand(const std::string& model_path, CompileFlags flags,
                      const std::vector<std::string>& input_files, const std::string& output_dir,
                      int iterations, int warmup, int threads, int64_t max_memory_mb,
                      const std::string& profile, const std::string& report_path,
                      const PipelineFlags& pipeline, ExplorerPage* page) {
  if (iterations < 1) return ge::ParamInvalid("--iterations must be at least 1");
  // NaN and negative waits are mistakes; a huge or infinite one waits without limit.
  if (!(pipeline.timeout > 0)) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", pipeline.timeout);
    return ge::ParamInvalid(std::string("--timeout must be a positive number of seconds, not ") +
                            seconds);
  }
  constexpr int64_t kMiB = 1 << 20;
  if (max_memory_mb < 0 || max_memory_mb > std::numeric_limits<int64_t>::max() / kMiB) {
    return ge::ParamInvalid(
        "--max-memory-mb must be 0 (the machine's memory) or a size in MiB, "
        "not " +
        std::to_string(max_memory_mb));
  }
  ge::RuntimeOptions runtime;
  runtime.threads = threads;
  runtime.max_memory_bytes = max_memory_mb * kMiB;
  GE_ASSIGN_OR_RETURN(ge::ModelSource source, ge::ModelSource::FromFile(model_path));
  const bool is_pipeline = source.format() == ge::ModelFormat::kPipeline;
  if (pipeline.mpi && !is_pipeline) {
    return ge::ParamInvalid(
        "--pipeline: '" + model_path +
        "' is not a pipeline (compile it with gec compile --pipeline-stages N)");
  }
  if (page != nullptr && is_pipeline) {
    return ge::ParamInvalid("--html shows one model, and '" + model_path + "' is a pipeline");
  }
  const RunFlags run{input_files, output_dir, iterations, warmup, profile, report_path};
  if (pipeline.mpi) {
    return RunPipelineRank(model_path, run, runtime, pipeline.batches, pipeline.timeout);
  }
  if (page != nullptr) page->Attach(flags);
  GE_ASSIGN_OR_RETURN(ge::InferenceOptions options, InferenceOptionsOf(flags, model_path));
  options.runtime = runtime;
  if (page != nullptr) {
    // What the page shows of the compiled model, before the runtime takes it.
    auto compiled = options.compiled;
    options.compiled = [compiled, page](const ge::Compiler& compiler,
                                        const ge::CompiledModel& model) {
      if (compiled) compiled(compiler, model);
      page->Keep(model);
    };
  }
  Progress("opening " + model_path);
  ge::Result<std::unique_ptr<ge::InferenceSession>> opened =
      ge::InferenceSession::Open(source, std::move(options));
  ProgressDone();
  if (!opened.ok()) return opened.status();
  ge::InferenceSession& session = **opened;
  if (page != nullptr) {
    if (session.strategy() == ge::RunStrategy::kShapePlans) {
      return ge::ParamInvalid(
          "--html: '" + model_path +
          "' has input dims known only at run time; give them with --input-shape");
    }
    if (source.format() == ge::ModelFormat::kCompiled) page->Keep(*session.compiled());
  }
  return RunSession(session, model_path, run, runtime.max_memory_bytes, page);
}

}  // namespace

void Commands::RegisterRun(CLI::App& app) {
  CLI::App* run =
      app.add_subcommand("run", "run MODEL (.om, or compiled first) on given or random inputs");
  run->add_option("model", model_, "the model file")->required();
  run->add_option("--input", inputs_,
                  "an input, NAME=FILE.npy (others: their initializer, or random)");
  run->add_option("--output-dir", output_dir_, "write each output as DIR/NAME.npy");
  run->add_option("--iterations", iterations_, "timed runs (default 10)");
  run->add_option("--warmup", warmup_, "untimed runs first (default 1)");
  run->add_option("--threads", threads_,
                  "intra-op threads (default 0: every core); a model compiled here is planned "
                  "for them");
  run->add_option("--max-memory-mb", max_memory_mb_,
                  "refuse a model whose arena, or any run-time tensor, needs more (default 0: "
                  "the machine's memory)");
  run->add_option("--profile", profile_, "write a Chrome/Perfetto trace of the last run");
  run->add_option("--report", report_, "write latency and memory as JSON");
  run->add_flag("--pipeline", pipeline_.mpi,
                "a pipeline .om under mpirun: this process runs the stage of its rank");
  run->add_option("--batches", pipeline_.batches,
                  "with --pipeline: inputs streamed through the stages (default 1)");
  run->add_option("--timeout", pipeline_.timeout,
                  "with --pipeline: the longest wait for another rank, in seconds (default 300; "
                  "a year or more, or inf: no limit)");
  run->add_option("--html", html_,
                  "write the compile explorer here, with the last run's time per node");
  AddExplorerFlags(run);
  AddCompileFlags(run, flags_);
  run->callback([this] {
    chosen_ = [this] {
      std::optional<ExplorerPage> page;
      if (!html_.empty()) page.emplace(max_view_nodes_, html_);
      return RunCommand(model_, flags_, inputs_, output_dir_, iterations_, warmup_, threads_,
                        max_memory_mb_, profile_, report_, pipeline_, page ? &*page : nullptr);
    };
  });
}

}  // namespace gec
