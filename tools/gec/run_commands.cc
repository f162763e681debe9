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
#include "ge/model/pipeline_model.h"
#include "ge/pipeline/mpi_pipeline.h"
#include "ge/runtime/model.h"
#include "ge/runtime/npy.h"
#include "ge/runtime/pipeline_run.h"
#include "ge/session/shape_plan_cache.h"

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

// The last profiled run of `model` as a Chrome/Perfetto trace.
ge::Status WriteProfile(const std::string& path, const ge::Model& model) {
  nlohmann::json events = nlohmann::json::array();
  for (const ge::TaskTiming& t : model.LastProfile()) {
    nlohmann::json e = nlohmann::json::object();
    e["name"] = t.name;
    e["cat"] = t.type;
    e["ph"] = "X";
    e["ts"] = t.start_us;
    e["dur"] = t.duration_us;
    e["pid"] = 1;
    e["tid"] = t.stream;
    e["args"]["type"] = t.type;
    e["args"]["threads"] = t.threads;
    if (t.predicted_us >= 0) e["args"]["predicted_us"] = t.predicted_us;
    events.push_back(std::move(e));
  }
  nlohmann::json trace = nlohmann::json::object();
  trace["traceEvents"] = std::move(events);
  return WriteText(path, trace.dump(1));
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
ge::Status WriteOutputs(const std::string& dir, const std::string& suffix, const ge::Model& model,
                        const std::vector<ge::GeTensor>& outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string path = dir + "/" + FileName(model.outputs()[i].name) + suffix + ".npy";
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

// A graph whose input dims are known only at run time, run on each input set through a shape
// plan cache: a set whose shapes are new compiles a static plan on its first run, a set whose
// shapes came before reuses its plan.
ge::Status RunShapePlans(ge::ShapePlanCache& cache, double parse_millis, const RunFlags& run) {
  GE_ASSIGN_OR_RETURN(auto sets, InputSets(cache.inputs(), run.input_files, run.max_input_bytes));
  nlohmann::json set_reports = nlohmann::json::array();
  ge::ShapePlan plan;
  std::vector<ge::GeTensor> outputs;
  for (size_t k = 0; k < sets.size(); ++k) {
    const std::string which = sets.size() > 1 ? "set " + std::to_string(k + 1) + " " : "";
    const int64_t misses = cache.Stats().misses;
    Progress(which + "first run");
    auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(plan, cache.PlanFor(sets[k]));
    GE_ASSIGN_OR_RETURN(outputs, plan.Run(sets[k]));
    const ge::Model& model = *plan.model();
    const double first = MillisSince(start);
    const ge::ShapePlanStats stats = cache.Stats();
    const bool compiled = stats.misses > misses;
    const ge::ShapePlanInfo& info = stats.plans.front();  // the one just used
    for (int i = 1; i < run.warmup; ++i) {
      GE_ASSIGN_OR_RETURN(outputs, plan.Run(sets[k]));
    }
    std::vector<double> millis;
    for (int i = 0; i < run.iterations; ++i) {
      Progress(which + "run " + std::to_string(i + 1) + "/" + std::to_string(run.iterations));
      const bool last = k + 1 == sets.size() && i + 1 == run.iterations;
      if (last && !run.profile.empty()) plan.model()->EnableProfiling(true);
      start = std::chrono::steady_clock::now();
      GE_ASSIGN_OR_RETURN(outputs, plan.Run(sets[k]));
      millis.push_back(MillisSince(start));
    }
    ProgressDone();
    const Latency latency = LatencyOf(millis);
    const std::string shapes = ShapesOf(cache.inputs(), sets[k]);
    const std::string padded = plan.padded() ? "padded to " + plan.shapes() + ", " : "";
    const std::string how =
        padded + (compiled
                      ? "compiled for these shapes: compile " +
                            std::to_string(static_cast<int>(info.compile_millis)) + " ms, load " +
                            std::to_string(static_cast<int>(info.load_millis)) + " ms"
                      : "their plan reused");
    char line[512];
    std::snprintf(line, sizeof(line),
                  "%sshapes %s: first run %.1f ms (%s), then median %.3f ms over %d run(s)\n",
                  which.c_str(), shapes.c_str(), first, how.c_str(), latency.median,
                  run.iterations);
    std::cout << line;
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::cout << which << "output " << model.outputs()[i].name << ": " << Summary(outputs[i])
                << "\n";
    }
    if (!run.output_dir.empty()) {
      const std::string suffix = sets.size() > 1 ? "_" + std::to_string(k + 1) : "";
      GE_RETURN_IF_ERROR(WriteOutputs(run.output_dir, suffix, model, outputs));
    }
    nlohmann::json r = nlohmann::json::object();
    r["shapes"] = shapes;
    r["compiled"] = compiled;
    if (plan.padded()) r["padded_to"] = plan.shapes();
    r["first_run_ms"] = first;
    r["latency_ms"] = LatencyJson(latency);
    set_reports.push_back(std::move(r));
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const ge::ShapePlanStats stats = cache.Stats();
  constexpr double kMiBf = 1024.0 * 1024.0;
  const std::string padded_sets =
      stats.padded > 0 ? "; " + std::to_string(stats.padded) + " input set(s) padded to a bucket"
                       : "";
  char line[512];
  std::snprintf(line, sizeof(line),
                "shape plans: %lld compiled, %lld input set(s) reused one, %lld dropped; %zu kept, "
                "holding %.1f MiB; compiling and loading them took %.1f ms%s\n"
                "memory: peak resident %.1f MiB\ntime before the first run: parse %.1f ms\n",
                static_cast<long long>(stats.misses), static_cast<long long>(stats.hits),
                static_cast<long long>(stats.evictions), stats.plans.size(),
                static_cast<double>(stats.bytes) / kMiBf, stats.specialize_millis,
                padded_sets.c_str(), static_cast<double>(usage.ru_maxrss) / 1024.0, parse_millis);
  std::cout << line;
  if (!run.profile.empty()) GE_RETURN_IF_ERROR(WriteProfile(run.profile, *plan.model()));
  if (!run.report_path.empty()) {
    nlohmann::json r = nlohmann::json::object();
    r["iterations"] = run.iterations;
    r["sets"] = std::move(set_reports);
    nlohmann::json& p = r["shape_plans"];
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
    r["memory"]["peak_resident_kib"] = usage.ru_maxrss;
    r["time_ms"]["parse"] = parse_millis;
    GE_RETURN_IF_ERROR(WriteText(run.report_path, r.dump(2) + "\n"));
  }
  return ge::Status::Ok();
}

// The inputs of a pipeline, as the runtime describes a model's.
std::vector<ge::IoInfo> PipelineInputs(const ge::PipelineModel& pipeline) {
  std::vector<ge::IoInfo> inputs;
  for (const std::string& name : pipeline.inputs) {
    const ge::PipelineTensor* t = pipeline.Tensor(name);
    ge::IoInfo info;
    info.name = name;
    info.dtype = t->dtype;
    info.dims = t->dims;
    inputs.push_back(std::move(info));
  }
  return inputs;
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

constexpr double kMiBf = 1024.0 * 1024.0;

// A pipeline .om in this process: its stages one after another, timed like a model. The memory
// limit bounds the stages and the tensors between them (the inputs among them) together.
ge::Status RunPipelineHere(const std::string& path, const RunFlags& run,
                           const ge::RuntimeOptions& options) {
  GE_ASSIGN_OR_RETURN(ge::PipelineModel pipeline, ge::PipelineModel::LoadFromFile(path));
  const size_t stages = pipeline.stages.size();
  GE_ASSIGN_OR_RETURN(auto loaded, ge::PipelineStages::Load(std::move(pipeline), options));
  GE_ASSIGN_OR_RETURN(auto sets, InputSets(PipelineInputs(loaded->pipeline()), run.input_files,
                                           options.max_memory_bytes));
  if (sets.size() > 1)
    return ge::ParamInvalid("a pipeline's input shapes are fixed: give each input once");
  std::vector<ge::GeTensor> outputs;
  for (int i = 0; i < run.warmup; ++i) {
    GE_ASSIGN_OR_RETURN(outputs, loaded->Run(sets.front()));
  }
  std::vector<double> millis;
  for (int i = 0; i < run.iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(outputs, loaded->Run(sets.front()));
    millis.push_back(MillisSince(start));
  }
  const Latency latency = LatencyOf(millis);
  const std::vector<std::string>& names = loaded->pipeline().output_names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "output " << names[i] << ": " << Summary(outputs[i]) << "\n";
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "latency over %d run(s): min %.3f ms, median %.3f ms, max %.3f ms\n"
                "stages: %zu, run one after another in this process (mpirun -n %zu gec run "
                "... --pipeline runs one per process)\n",
                run.iterations, latency.min, latency.median, latency.max, stages, stages);
  std::cout << line;
  if (!run.output_dir.empty())
    GE_RETURN_IF_ERROR(WriteNamedOutputs(run.output_dir, names, outputs));
  if (!run.report_path.empty()) {
    nlohmann::json r = nlohmann::json::object();
    r["iterations"] = run.iterations;
    r["latency_ms"] = LatencyJson(latency);
    r["stages"] = stages;
    GE_RETURN_IF_ERROR(WriteText(run.report_path, r.dump(2) + "\n"));
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
  ge::RuntimeOptions options;
  options.threads = threads;
  options.max_memory_bytes = max_memory_mb * kMiB;
  GE_ASSIGN_OR_RETURN(ModelKind model_kind, KindOf(model_path));
  const bool is_pipeline =
      model_kind == ModelKind::kCompiled && ge::PipelineModel::IsPipelineFile(model_path);
  if (pipeline.mpi && !is_pipeline) {
    return ge::ParamInvalid(
        "--pipeline: '" + model_path +
        "' is not a pipeline (compile it with gec compile --pipeline-stages N)");
  }
  if (page != nullptr && is_pipeline) {
    return ge::ParamInvalid("--html shows one model, and '" + model_path + "' is a pipeline");
  }
  if (page != nullptr) page->Attach(flags);
  if (is_pipeline) {
    const RunFlags run{input_files, output_dir, iterations, warmup, profile, report_path};
    if (pipeline.mpi) {
      return RunPipelineRank(model_path, run, options, pipeline.batches, pipeline.timeout);
    }
    return RunPipelineHere(model_path, run, options);
  }
  // A model compiled here is planned for the threads it runs with (unless --option says): the
  // cost model's thread counts, and the kernels the engines prepare for them.
  const std::string schedule = std::string(ge::kOptScheduleThreads) + "=";
  if (threads > 0 &&
      std::none_of(flags.options.begin(), flags.options.end(),
                   [&](const std::string& kv) { return kv.rfind(schedule, 0) == 0; })) {
    flags.options.push_back(schedule + std::to_string(threads));
  }
  LoadTimes times;
  GE_ASSIGN_OR_RETURN(ModelKind kind, KindOf(model_path));
  ge::CompiledModel compiled;
  if (kind == ModelKind::kCompiled) {
    GE_ASSIGN_OR_RETURN(compiled, CompileOrLoad(model_path, flags, "build", &times));
  } else {
    const auto parse_start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, LoadGraph(model_path, flags));
    times.parse = MillisSince(parse_start);
    GE_ASSIGN_OR_RETURN(std::vector<ge::IoInfo> graph_inputs, ge::GraphInputs(*graph));
    const bool run_time_dims =
        std::any_of(graph_inputs.begin(), graph_inputs.end(),
                    [](const ge::IoInfo& info) { return !IsKnown(info.dims); });
    if (flags.input_shape.empty() && run_time_dims) {
      if (page != nullptr) {
        return ge::ParamInvalid(
            "--html: '" + model_path +
            "' has input dims known only at run time; give them with --input-shape");
      }
      // Input dims known only at run time: a static plan per set of input shapes. The cache
      // alone holds the graph, so it may drop weights its plans copy again from the file.
      GE_ASSIGN_OR_RETURN(auto session_options, SessionOptions(flags));
      GE_ASSIGN_OR_RETURN(auto cache,
                          ge::ShapePlanCache::Create(std::move(graph), session_options, options));
      const RunFlags run{input_files,
                         output_dir,
                         iterations,
                         warmup,
                         profile,
                         report_path,
                         options.max_memory_bytes};
      return RunShapePlans(*cache, times.parse, run);
    }
    GE_ASSIGN_OR_RETURN(compiled, CompileGraph(graph, model_path, flags, "build", times));
  }
  std::vector<std::pair<std::string, double>> stage_millis;
  for (const ge::StageReport& stage : compiled.report.stages) {
    stage_millis.emplace_back(stage.name, stage.millis);
  }
  const int64_t planned_threads = compiled.report.schedule.threads;  // 0: no cost model
  if (page != nullptr) page->Keep(compiled);
  const auto load_start = std::chrono::steady_clock::now();
  GE_ASSIGN_OR_RETURN(auto model, ge::Model::Load(std::move(compiled), options));
  const double load_millis = MillisSince(load_start);
  GE_ASSIGN_OR_RETURN(auto sets, InputSets(model->inputs(), input_files, options.max_memory_bytes));
  if (sets.size() > 1) {
    return ge::ParamInvalid(
        "--input gives one input more than once (" + std::to_string(sets.size()) +
        " input sets), but this model's input shapes are fixed: several sets are for a model "
        "whose input dims are known only at run time, compiled for each set's shapes");
  }
  const std::vector<ge::GeTensor>& inputs = sets.front();
  std::vector<ge::GeTensor> outputs;
  for (int i = 0; i < warmup; ++i) {
    GE_ASSIGN_OR_RETURN(outputs, model->Run(inputs));
  }
  std::vector<double> millis;
  for (int i = 0; i < iterations; ++i) {
    Progress("run " + std::to_string(i + 1) + "/" + std::to_string(iterations));
    if (i == iterations - 1 && (!profile.empty() || page != nullptr)) {
      model->EnableProfiling(true);
    }
    const auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(outputs, model->Run(inputs));
    millis.push_back(MillisSince(start));
  }
  ProgressDone();
  const Latency latency = LatencyOf(millis);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "output " << model->outputs()[i].name << ": " << Summary(outputs[i]) << "\n";
  }
  // The parts of the peak: what the model holds, and the rest (code, libraries, the compiler's
  // transient data when it compiled in this process).
  const int64_t peak_bytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  const int64_t held = model->weight_bytes() + model->loaded_weight_bytes() + model->arena_bytes() +
                       model->workspace_bytes();
  const int64_t other_bytes = std::max<int64_t>(0, peak_bytes - held);
  constexpr double kMiBf = 1024.0 * 1024.0;
  std::string repacked;  // weights the kernels put into layouts of their own at load
  if (model->loaded_weight_bytes() > 0) {
    char text[64];
    std::snprintf(text, sizeof(text), " + repacked at load %.1f",
                  static_cast<double>(model->loaded_weight_bytes()) / kMiBf);
    repacked = text;
  }
  char line[512];
  std::snprintf(
      line, sizeof(line),
      "latency over %d run(s): min %.3f ms, median %.3f ms, max %.3f ms\n"
      "memory: peak resident %.1f MiB = weights %.1f%s + arena %.1f + kernel scratch "
      "%.1f + other %.1f%s\n"
      "time before the first run: parse %.1f ms, compile %.1f ms, read .om %.1f ms, "
      "load %.1f ms\n",
      iterations, latency.min, latency.median, latency.max, static_cast<double>(peak_bytes) / kMiBf,
      static_cast<double>(model->weight_bytes()) / kMiBf, repacked.c_str(),
      static_cast<double>(model->arena_bytes()) / kMiBf,
      static_cast<double>(model->workspace_bytes()) / kMiBf,
      static_cast<double>(other_bytes) / kMiBf,
      peak_bytes < held ? " (less than the parts: weight pages no run read stay in the file)" : "",
      times.parse, times.compile, times.read_om, load_millis);
  std::cout << line;
  const ge::ExecutionInfo& execution = model->execution();
  if (execution.streams > 1) {
    std::string split;
    for (int t : execution.kernel_threads) split += (split.empty() ? "" : "+") + std::to_string(t);
    std::cout << "streams: " << execution.streams
              << " in parallel, one thread each; intra-op threads " << split << "\n";
  }
  if (!output_dir.empty()) {
    GE_RETURN_IF_ERROR(WriteOutputs(output_dir, "", *model, outputs));
  }
  if (!profile.empty()) GE_RETURN_IF_ERROR(WriteProfile(profile, *model));
  if (page != nullptr) GE_RETURN_IF_ERROR(page->Write(model_path, model->LastProfile()));
  if (!report_path.empty()) {
    nlohmann::json r = nlohmann::json::object();
    r["iterations"] = iterations;
    r["latency_ms"] = LatencyJson(latency);
    r["memory"]["arena_bytes"] = model->arena_bytes();
    r["memory"]["weight_bytes"] = model->weight_bytes();
    r["memory"]["workspace_bytes"] = model->workspace_bytes();
    r["memory"]["loaded_weight_bytes"] = model->loaded_weight_bytes();
    r["memory"]["other_bytes"] = other_bytes;
    r["memory"]["peak_resident_kib"] = usage.ru_maxrss;
    r["time_ms"]["parse"] = times.parse;
    r["time_ms"]["compile"] = times.compile;
    for (const auto& [name, millis] : stage_millis) r["time_ms"]["stages"][name] = millis;
    r["time_ms"]["read_om"] = times.read_om;
    r["time_ms"]["load"] = load_millis;
    r["time_ms"]["ready"] = times.parse + times.compile + times.read_om + load_millis;
    // The intra-op threads of each stream, and the budget the cost model planned for.
    r["threads"]["run"] = execution.kernel_threads;
    r["threads"]["planned"] = planned_threads;
    GE_RETURN_IF_ERROR(WriteText(report_path, r.dump(2) + "\n"));
  }
  return ge::Status::Ok();
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
