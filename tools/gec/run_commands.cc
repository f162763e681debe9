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

namespace gec {
namespace {

namespace fs = std::filesystem;

// Deterministic inputs: floats uniform in [-1, 1], integers in [0, 10), booleans half true.
ge::GeTensor RandomInput(const ge::IoInfo& info, uint32_t seed) {
  ge::GeTensorDesc desc(ge::GeShape(info.dims), ge::FORMAT_ND, info.dtype);
  const int64_t bytes = ge::TensorUtils::CalcTensorMemSize(desc);
  std::vector<uint8_t> data(static_cast<size_t>(std::max<int64_t>(bytes, 0)));
  std::mt19937 rng(seed);
  const int64_t count = desc.GetShape().GetShapeSize();
  auto fill = [&](auto tag, auto make) {
    using T = decltype(tag);
    for (int64_t i = 0; i < count && static_cast<size_t>(i + 1) * sizeof(T) <= data.size(); ++i) {
      const T v = make();
      std::memcpy(data.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
    }
  };
  std::uniform_real_distribution<float> real(-1.0F, 1.0F);
  std::uniform_int_distribution<int> small(0, 9);
  switch (info.dtype) {
    case ge::DT_FLOAT:
      fill(float{}, [&] { return real(rng); });
      break;
    case ge::DT_DOUBLE:
      fill(double{}, [&] { return static_cast<double>(real(rng)); });
      break;
    case ge::DT_INT64:
      fill(int64_t{}, [&] { return static_cast<int64_t>(small(rng)); });
      break;
    case ge::DT_INT32:
      fill(int32_t{}, [&] { return static_cast<int32_t>(small(rng)); });
      break;
    case ge::DT_BOOL:
      fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng) % 2); });
      break;
    default:
      fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng)); });
      break;
  }
  return {desc, std::move(data)};
}

bool IsKnown(const std::vector<int64_t>& dims) {
  return std::none_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

// Dims given for an input fit the model's when each known dim is equal (-1 takes any size).
bool Fits(const std::vector<int64_t>& given, const std::vector<int64_t>& want) {
  if (want.size() == 1 && want[0] == ge::UNKNOWN_DIM_NUM) return true;
  if (given.size() != want.size()) return false;
  for (size_t i = 0; i < given.size(); ++i) {
    if (want[i] >= 0 && want[i] != given[i]) return false;
  }
  return true;
}

std::string FileName(std::string name) {
  for (char& c : name) {
    if (c == '/' || c == ':' || c == ' ' || c == '\\') c = '_';
  }
  return name;
}

std::string Summary(const ge::GeTensor& t) {
  const ge::GeTensorDesc& d = t.GetTensorDesc();
  std::string text =
      ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " + d.GetShape().ToString();
  if (d.GetDataType() == ge::DT_FLOAT && t.GetSize() >= 4) {
    const size_t n = t.GetSize() / 4;
    std::vector<float> v(n);
    std::memcpy(v.data(), t.GetData().data(), n * 4);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    double sum = 0;
    for (float f : v) sum += f;
    char buf[160];
    std::snprintf(buf, sizeof(buf), "  min %.6g  max %.6g  mean %.6g  argmax %zu", *lo, *hi,
                  sum / static_cast<double>(n), static_cast<size_t>(hi - v.begin()));
    text += buf;
  }
  return text;
}

// What gec run does after the model is ready, from its flags.
struct RunFlags {
  std::vector<std::string> input_files;  ///< --input NAME=FILE.npy, in the order given
  std::string output_dir;
  int iterations = 10;
  int warmup = 1;
  std::string profile;
  std::string report_path;
  int64_t max_input_bytes = 0;  ///< --max-memory-mb in bytes, for the inputs read (0: no limit)
};

// The input sets of --input: the k-th file given for a name is in set k; a name given once is
// in every set. Inputs not given take their initializer, or random values when their shape is
// known. The tensors read or made take at most `max_bytes` together (0: no limit), each checked
// before it is read or made.
ge::Result<std::vector<std::vector<ge::GeTensor>>> InputSets(const std::vector<ge::IoInfo>& inputs,
                                                             const std::vector<std::string>& items,
                                                             int64_t max_bytes) {
  std::map<std::string, std::vector<std::string>> files;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ge::ParamInvalid("--input '" + item + "': expected NAME=FILE.npy");
    }
    files[item.substr(0, eq)].push_back(item.substr(eq + 1));
  }
  size_t sets = 1;
  for (const auto& [name, paths] : files) sets = std::max(sets, paths.size());
  std::string names;
  for (const ge::IoInfo& info : inputs) names += (names.empty() ? "" : ", ") + info.name;
  for (const auto& [given, paths] : files) {
    const std::string& name = given;  // clang 14 cannot capture a structured binding
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&name](const ge::IoInfo& i) { return i.name == name; })) {
      return ge::ParamInvalid("--input " + name +
                              ": the model has no such input (inputs: " + names + ")");
    }
    if (paths.size() != 1 && paths.size() != sets) {
      return ge::ParamInvalid("--input " + name + " is given " + std::to_string(paths.size()) +
                              " times and another input " + std::to_string(sets) +
                              ": give each input once (for every run) or once per input set");
    }
  }
  std::vector<std::vector<ge::GeTensor>> out(sets);
  int64_t used = 0;
  // What is left of max_bytes for `name`'s tensor (0: no limit), or an error once it is spent.
  auto left_for = [&](const std::string& name) -> ge::Result<int64_t> {
    if (max_bytes <= 0) return int64_t{0};
    if (used >= max_bytes) {
      return ge::ParamInvalid("input '" + name + "': the inputs before it take " +
                              std::to_string(used) + " bytes of the memory limit of " +
                              std::to_string(max_bytes) + " (--max-memory-mb)");
    }
    return max_bytes - used;
  };
  for (size_t k = 0; k < sets; ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ge::IoInfo& info = inputs[i];
      auto it = files.find(info.name);
      if (it == files.end()) {
        if (info.default_value != nullptr) {  // an initializer the caller may override
          out[k].push_back(*info.default_value);
          continue;
        }
        if (!IsKnown(info.dims)) {
          return ge::ParamInvalid(
              "input '" + info.name + "' has the shape " + ge::GeShape(info.dims).ToString() +
              " (-1: known only at run time), so no random input can be made; give it with "
              "--input " +
              info.name + "=FILE.npy, or fix its shape with --input-shape");
        }
        const int64_t bytes = ge::TensorUtils::CalcTensorMemSize(
            ge::GeTensorDesc(ge::GeShape(info.dims), ge::FORMAT_ND, info.dtype));
        GE_ASSIGN_OR_RETURN(const int64_t left, left_for(info.name));
        if (bytes < 0 || (left > 0 && bytes > left)) {
          return ge::ParamInvalid(
              "input '" + info.name + "' of " + ge::GeShape(info.dims).ToString() +
              (bytes < 0 ? std::string(" needs more bytes than int64 counts")
                         : " needs " + std::to_string(bytes) + " bytes, over the " +
                               std::to_string(left) + " left of the memory limit of " +
                               std::to_string(max_bytes) + " (--max-memory-mb)"));
        }
        out[k].push_back(RandomInput(info, static_cast<uint32_t>(i)));
        used += bytes;
        continue;
      }
      const std::string& path = it->second.size() == 1 ? it->second[0] : it->second[k];
      GE_ASSIGN_OR_RETURN(const int64_t left, left_for(info.name));
      ge::Result<ge::GeTensor> read = ge::ReadNpy(path, left);
      if (!read.ok()) return ge::Status(read.status()).Prefix("--input " + info.name);
      ge::GeTensor t = std::move(read).value();
      used += static_cast<int64_t>(t.GetSize());
      const ge::GeTensorDesc& d = t.GetTensorDesc();
      if (d.GetDataType() != info.dtype || !Fits(d.GetShape().GetDims(), info.dims)) {
        return ge::ParamInvalid("--input " + info.name + "=" + path + " is " +
                                ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " +
                                d.GetShape().ToString() + "; the model wants " +
                                ge::TypeUtils::DataTypeToSerialString(info.dtype) + " " +
                                ge::GeShape(info.dims).ToString());
      }
      out[k].push_back(std::move(t));
    }
  }
  return out;
}

struct Latency {
  double min = 0, median = 0, max = 0;
};

Latency LatencyOf(std::vector<double> millis) {
  std::sort(millis.begin(), millis.end());
  return {millis.front(), millis[millis.size() / 2], millis.back()};
}

// Each output as DIR/NAME{suffix}.npy.
ge::Status WriteOutputs(const std::string& dir, const std::string& suffix,
                        const std::vector<ge::IoInfo>& names,
                        const std::vector<ge::GeTensor>& outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (size_t i = 0; i < outputs.size() && i < names.size(); ++i) {
    const std::string path = dir + "/" + FileName(names[i].name) + suffix + ".npy";
    GE_RETURN_IF_ERROR(ge::WriteNpy(path, outputs[i]));
  }
  return ge::Status::Ok();
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
    text += (i == 0 ? "" : ";") + inputs[i].name + ":";
    const std::vector<int64_t> dims = set[i].GetTensorDesc().GetShape().GetDims();
    for (size_t d = 0; d < dims.size(); ++d) text += (d == 0 ? "" : ",") + std::to_string(dims[d]);
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
      GE_RETURN_IF_ERROR(WriteOutputs(run.output_dir, suffix, session.outputs(), r.outputs));
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

ge::Status WriteNamedOutputs(const std::string& dir, const std::vector<std::string>& names,
                             const std::vector<ge::GeTensor>& outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (size_t i = 0; i < outputs.size() && i < names.size(); ++i) {
    GE_RETURN_IF_ERROR(ge::WriteNpy(dir + "/" + FileName(names[i]) + ".npy", outputs[i]));
  }
  return ge::Status::Ok();
}

// A pipeline .om under mpirun: this rank's stage. The last rank prints the outputs and every
// rank's figures. An error is this rank's one line, then the job ends.
ge::Status RunPipelineRank(const std::string& path, const RunFlags& run,
                           const ge::RuntimeOptions& runtime, int batches, double timeout) {
  if (!ge::UnderMpirun()) {
    return ge::ParamInvalid(
        "--pipeline runs one stage per process: start it with mpirun -n STAGES gec run " + path +
        " --pipeline (without --pipeline, gec run runs every stage in this process)");
  }
  ge::MpiPipelineOptions options;
  options.runtime = runtime;
  options.batches = batches;
  options.timeout_seconds = timeout;
  if (GetLogLevel() >= LogLevel::kInfo) {
    options.on_start = [batches](int rank) {
      std::cerr << ("gec: info: pipeline rank " + std::to_string(rank) + " (stage " +
                    std::to_string(rank) + "): every rank loaded its stage; running " +
                    std::to_string(batches) + " input(s)\n");
    };
  }
  ge::Result<ge::MpiPipelineResult> result = ge::RunMpiPipeline(
      path,
      [&run](const std::vector<ge::IoInfo>& inputs, int64_t max_bytes) {
        return InputSets(inputs, run.input_files, max_bytes);
      },
      options);
  if (!result.ok()) {
    std::string message = result.status().message();
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    std::cerr << ("gec: error: pipeline " + message + "\n");  // one write: ranks share stderr
    ge::StopMpiJob(1);
  }
  const ge::MpiPipelineResult& r = *result;
  if (r.rank != r.ranks - 1) return ge::Status::Ok();
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    std::cout << "output " << r.output_names[i] << ": " << Summary(r.outputs[i]) << "\n";
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "pipeline: %d input(s) through %d stages in %.1f ms: %.2f inputs/s\n", batches,
                r.ranks, r.millis, batches / (r.millis / 1e3));
  std::cout << line;
  nlohmann::json ranks = nlohmann::json::array();
  for (int k = 0; k < r.ranks; ++k) {
    const auto s = static_cast<size_t>(k);
    std::snprintf(line, sizeof(line),
                  "  rank %d (stage %d): ran %.1f ms, waited %.1f ms, peak resident %.1f MiB "
                  "(weights %.1f, arena %.1f)\n",
                  k, k, r.busy_millis[s], r.wait_millis[s],
                  static_cast<double>(r.peak_kib[s]) / 1024.0,
                  static_cast<double>(r.weight_bytes[s]) / kMiBf,
                  static_cast<double>(r.arena_bytes[s]) / kMiBf);
    std::cout << line;
    ranks.push_back({{"rank", k},
                     {"busy_ms", r.busy_millis[s]},
                     {"wait_ms", r.wait_millis[s]},
                     {"peak_resident_kib", r.peak_kib[s]},
                     {"weight_bytes", r.weight_bytes[s]},
                     {"arena_bytes", r.arena_bytes[s]}});
  }
  if (!run.output_dir.empty()) {
    GE_RETURN_IF_ERROR(WriteNamedOutputs(run.output_dir, r.output_names, r.outputs));
  }
  if (!run.report_path.empty()) {
    nlohmann::json j = nlohmann::json::object();
    j["batches"] = batches;
    j["millis"] = r.millis;
    j["inputs_per_second"] = batches / (r.millis / 1e3);
    j["ranks"] = std::move(ranks);
    GE_RETURN_IF_ERROR(WriteText(run.report_path, j.dump(2) + "\n"));
  }
  return ge::Status::Ok();
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
