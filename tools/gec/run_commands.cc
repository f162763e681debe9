// gec run and gec onnx-test: running models through the runtime.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "commands.h"
#include "ge/compiler/compile_options.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/parser/onnx_parser.h"
#include "ge/runtime/model.h"
#include "ge/runtime/npy.h"
#include "tensor_proto.h"

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
    case ge::DT_FLOAT: fill(float{}, [&] { return real(rng); }); break;
    case ge::DT_DOUBLE: fill(double{}, [&] { return static_cast<double>(real(rng)); }); break;
    case ge::DT_INT64: fill(int64_t{}, [&] { return static_cast<int64_t>(small(rng)); }); break;
    case ge::DT_INT32: fill(int32_t{}, [&] { return static_cast<int32_t>(small(rng)); }); break;
    case ge::DT_BOOL: fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng) % 2); }); break;
    default: fill(uint8_t{}, [&] { return static_cast<uint8_t>(small(rng)); }); break;
  }
  return ge::GeTensor(desc, std::move(data));
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
  std::string text = ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " + d.GetShape().ToString();
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

ge::Status RunCommand(const std::string& model_path, const CompileFlags& flags,
                      const std::vector<std::string>& input_files, const std::string& output_dir,
                      int iterations, int warmup, int threads, int64_t max_memory_mb,
                      const std::string& profile, const std::string& report_path) {
  if (iterations < 1) return ge::ParamInvalid("--iterations must be at least 1");
  constexpr int64_t kMiB = 1 << 20;
  if (max_memory_mb < 0 || max_memory_mb > std::numeric_limits<int64_t>::max() / kMiB) {
    return ge::ParamInvalid("--max-memory-mb must be 0 (the machine's memory) or a size in MiB, "
                            "not " + std::to_string(max_memory_mb));
  }
  GE_ASSIGN_OR_RETURN(ge::CompiledModel compiled, CompileOrLoad(model_path, flags));
  ge::RuntimeOptions options;
  options.threads = threads;
  options.max_memory_bytes = max_memory_mb * kMiB;
  GE_ASSIGN_OR_RETURN(auto model, ge::Model::Load(std::move(compiled), options));
  std::map<std::string, std::string> given;
  for (const std::string& item : input_files) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ge::ParamInvalid("--input '" + item + "': expected NAME=FILE.npy");
    }
    given[item.substr(0, eq)] = item.substr(eq + 1);
  }
  std::vector<ge::GeTensor> inputs;
  for (size_t i = 0; i < model->inputs().size(); ++i) {
    const ge::IoInfo& info = model->inputs()[i];
    auto it = given.find(info.name);
    if (it == given.end()) {
      if (info.default_value != nullptr) {  // an initializer the model lets the caller override
        inputs.push_back(*info.default_value);
        continue;
      }
      if (!IsKnown(info.dims)) {
        return ge::ParamInvalid("input '" + info.name + "' has the shape " +
                                ge::GeShape(info.dims).ToString() +
                                " (-1: known only at run time), so no random input can be made; "
                                "give it with --input " + info.name +
                                "=FILE.npy, or fix its shape with --input-shape");
      }
      inputs.push_back(RandomInput(info, static_cast<uint32_t>(i)));
      continue;
    }
    GE_ASSIGN_OR_RETURN(ge::GeTensor t, ge::ReadNpy(it->second));
    const ge::GeTensorDesc& d = t.GetTensorDesc();
    if (d.GetDataType() != info.dtype || !Fits(d.GetShape().GetDims(), info.dims)) {
      return ge::ParamInvalid("--input " + info.name + "=" + it->second + " is " +
                              ge::TypeUtils::DataTypeToSerialString(d.GetDataType()) + " " +
                              d.GetShape().ToString() + "; the model wants " +
                              ge::TypeUtils::DataTypeToSerialString(info.dtype) + " " +
                              ge::GeShape(info.dims).ToString());
    }
    inputs.push_back(std::move(t));
    given.erase(it);
  }
  if (!given.empty()) {
    std::string names;
    for (const auto& info : model->inputs()) names += (names.empty() ? "" : ", ") + info.name;
    return ge::ParamInvalid("--input " + given.begin()->first + ": the model has no such input (inputs: " +
                            names + ")");
  }
  std::vector<ge::GeTensor> outputs;
  for (int i = 0; i < warmup; ++i) {
    GE_ASSIGN_OR_RETURN(outputs, model->Run(inputs));
  }
  std::vector<double> millis;
  for (int i = 0; i < iterations; ++i) {
    Progress("run " + std::to_string(i + 1) + "/" + std::to_string(iterations));
    if (i == iterations - 1 && !profile.empty()) model->EnableProfiling(true);
    const auto start = std::chrono::steady_clock::now();
    GE_ASSIGN_OR_RETURN(outputs, model->Run(inputs));
    millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  ProgressDone();
  std::vector<double> sorted = millis;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "output " << model->outputs()[i].name << ": " << Summary(outputs[i]) << "\n";
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "latency over %d run(s): min %.3f ms, median %.3f ms, max %.3f ms\n"
                "memory: arena %lld B, weights %lld B, peak resident %ld KiB\n",
                iterations, sorted.front(), median, sorted.back(),
                static_cast<long long>(model->arena_bytes()), static_cast<long long>(model->weight_bytes()),
                usage.ru_maxrss);
  std::cout << line;
  const ge::ExecutionInfo& execution = model->execution();
  if (execution.streams > 1) {
    std::string split;
    for (int t : execution.kernel_threads) split += (split.empty() ? "" : "+") + std::to_string(t);
    std::cout << "streams: " << execution.streams
              << " in parallel, one thread each; intra-op threads " << split << "\n";
  }
  if (!output_dir.empty()) {
    std::error_code ec;
    fs::create_directories(output_dir, ec);
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::string path = output_dir + "/" + FileName(model->outputs()[i].name) + ".npy";
      GE_RETURN_IF_ERROR(ge::WriteNpy(path, outputs[i]));
    }
  }
  if (!profile.empty()) {
    nlohmann::json events = nlohmann::json::array();
    for (const ge::TaskTiming& t : model->LastProfile()) {
      nlohmann::json e = nlohmann::json::object();
      e["name"] = t.name;
      e["cat"] = t.type;
      e["ph"] = "X";
      e["ts"] = t.start_us;
      e["dur"] = t.duration_us;
      e["pid"] = 1;
      e["tid"] = t.stream;
      e["args"]["type"] = t.type;
      events.push_back(std::move(e));
    }
    nlohmann::json trace = nlohmann::json::object();
    trace["traceEvents"] = std::move(events);
    GE_RETURN_IF_ERROR(WriteText(profile, trace.dump(1)));
  }
  if (!report_path.empty()) {
    nlohmann::json r = nlohmann::json::object();
    r["iterations"] = iterations;
    r["latency_ms"]["min"] = sorted.front();
    r["latency_ms"]["median"] = median;
    r["latency_ms"]["max"] = sorted.back();
    r["memory"]["arena_bytes"] = model->arena_bytes();
    r["memory"]["weight_bytes"] = model->weight_bytes();
    r["memory"]["peak_resident_kib"] = usage.ru_maxrss;
    GE_RETURN_IF_ERROR(WriteText(report_path, r.dump(2) + "\n"));
  }
  return ge::Status::Ok();
}

// ---- onnx-test ----

bool IsCaseDir(const fs::path& dir) { return fs::exists(dir / "model.onnx"); }

// An IEEE binary16 value's bits as a double (exact).
double Float16Value(uint16_t h) {
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  const double sign = (h & 0x8000) != 0 ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 0x1F) return mant != 0 ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

// ONNX's test data hold bfloat16 as uint16 arrays (numpy has no bfloat16): where the model says
// DT_BF16, such a tensor is read as DT_BF16.
void RetagBf16(ge::GeTensor& t, ge::DataType model_dtype) {
  if (model_dtype != ge::DT_BF16 || t.GetTensorDesc().GetDataType() != ge::DT_UINT16) return;
  ge::GeTensorDesc desc = t.GetTensorDesc();
  desc.SetDataType(ge::DT_BF16);
  t.SetTensorDesc(desc);
}

// Element-wise comparison as ONNX's backend runner does (rtol 1e-3, atol 1e-7; exact for ints).
// Its runner compares float16 as floats and bfloat16 as the uint16 arrays the data hold.
std::string Compare(const ge::GeTensor& got, const ge::GeTensor& want_given) {
  ge::GeTensor want = want_given;
  RetagBf16(want, got.GetTensorDesc().GetDataType());
  const ge::GeTensorDesc& g = got.GetTensorDesc();
  const ge::GeTensorDesc& w = want.GetTensorDesc();
  if (g.GetShape().GetDims() != w.GetShape().GetDims()) {
    return "shape " + g.GetShape().ToString() + ", expected " + w.GetShape().ToString();
  }
  if (g.GetDataType() != w.GetDataType()) {
    return "dtype " + ge::TypeUtils::DataTypeToSerialString(g.GetDataType()) + ", expected " +
           ge::TypeUtils::DataTypeToSerialString(w.GetDataType());
  }
  if (got.GetSize() != want.GetSize()) return "byte size differs";
  if (got.GetSize() == 0) return "";  // empty tensors (their data pointers may be null)
  auto check = [&](auto tag, auto value) -> std::string {
    using T = decltype(tag);
    const size_t n = got.GetSize() / sizeof(T);
    for (size_t i = 0; i < n; ++i) {
      T a, b;
      std::memcpy(&a, got.GetData().data() + i * sizeof(T), sizeof(T));
      std::memcpy(&b, want.GetData().data() + i * sizeof(T), sizeof(T));
      const double da = value(a), db = value(b);
      if (std::isnan(db) && std::isnan(da)) continue;
      // An infinity matches only the same infinity (the tolerance below would take any value).
      if ((std::isinf(db) || std::isinf(da)) && da == db) continue;
      if (std::isinf(db) || !(std::fabs(da - db) <= 1e-7 + 1e-3 * std::fabs(db))) {
        return "element " + std::to_string(i) + " is " + std::to_string(da) + ", expected " + std::to_string(db);
      }
    }
    return "";
  };
  switch (g.GetDataType()) {
    case ge::DT_FLOAT: return check(float{}, [](float v) { return static_cast<double>(v); });
    case ge::DT_DOUBLE: return check(double{}, [](double v) { return v; });
    case ge::DT_FLOAT16: return check(uint16_t{}, Float16Value);
    case ge::DT_BF16: return check(uint16_t{}, [](uint16_t v) { return static_cast<double>(v); });
    default:
      return std::memcmp(got.GetData().data(), want.GetData().data(), got.GetSize()) == 0
                 ? ""
                 : "values differ";
  }
}

// The message on one line (its own lines joined), at most 400 characters.
std::string FirstLine(const std::string& text) {
  std::string line = text;
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  if (line.size() > 400) line = line.substr(0, 400) + "...";
  return line;
}

// One case: "" when it passes, else why not.
std::string RunCase(const fs::path& dir) {
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(entry.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return "no test_data_set_* directory";
  auto graph = ge::ParseOnnxFile((dir / "model.onnx").string());
  if (!graph.ok()) return "parse: " + FirstLine(graph.status().message());
  // Input shapes from the first data set (the suite's models may leave dims symbolic).
  std::vector<ge::NodePtr> data_nodes = (*graph)->GetInputNodes();
  std::vector<std::vector<ge::GeTensor>> set_inputs, set_outputs;
  for (const fs::path& set : sets) {
    std::vector<ge::GeTensor> ins, outs;
    for (int i = 0;; ++i) {
      const fs::path p = set / ("input_" + std::to_string(i) + ".pb");
      if (!fs::exists(p)) break;
      auto t = ReadTensorProto(p.string());
      if (!t.ok()) return FirstLine(t.status().message());
      ins.push_back(std::move(t).value());
    }
    for (int i = 0;; ++i) {
      const fs::path p = set / ("output_" + std::to_string(i) + ".pb");
      if (!fs::exists(p)) break;
      auto t = ReadTensorProto(p.string());
      if (!t.ok()) return FirstLine(t.status().message());
      outs.push_back(std::move(t).value());
    }
    set_inputs.push_back(std::move(ins));
    set_outputs.push_back(std::move(outs));
  }
  std::string shapes;
  std::vector<std::pair<int64_t, std::string>> indexed;
  for (const ge::NodePtr& node : data_nodes) {
    int64_t index = 0;
    ge::AttrUtils::GetInt(*node->GetOpDesc(), "index", index);
    indexed.emplace_back(index, node->GetName());
  }
  std::sort(indexed.begin(), indexed.end());
  if (indexed.size() != set_inputs[0].size()) {
    return "the model has " + std::to_string(indexed.size()) + " inputs, the data set " +
           std::to_string(set_inputs[0].size());
  }
  for (size_t i = 0; i < indexed.size(); ++i) {
    const ge::DataType dtype =
        (*graph)->FindNode(indexed[i].second)->GetOpDesc()->GetOutputDesc(0).GetDataType();
    for (auto& ins : set_inputs) {
      if (i < ins.size()) RetagBf16(ins[i], dtype);
    }
  }
  for (size_t i = 0; i < indexed.size(); ++i) {
    std::string dims;
    for (int64_t d : set_inputs[0][i].GetTensorDesc().GetShape().GetDims()) {
      dims += (dims.empty() ? "" : ",") + std::to_string(d);
    }
    shapes += (shapes.empty() ? "" : ";") + indexed[i].second + ":" + dims;
  }
  std::map<std::string, std::string> options;
  if (!shapes.empty()) options[ge::kOptInputShape] = shapes;
  auto compiler = ge::Compiler::Create(options);
  if (!compiler.ok()) return "compile: " + FirstLine(compiler.status().message());
  auto compiled = (*compiler)->Compile(*graph);
  if (!compiled.ok()) return "compile: " + FirstLine(compiled.status().message());
  ge::RuntimeOptions one_thread;  // the suite's tensors are tiny: threads would only add overhead
  one_thread.threads = 1;
  auto model = ge::Model::Load(std::move(compiled).value(), one_thread);
  if (!model.ok()) return "load: " + FirstLine(model.status().message());
  for (size_t s = 0; s < set_inputs.size(); ++s) {
    auto outputs = (*model)->Run(set_inputs[s]);
    if (!outputs.ok()) return "run: " + FirstLine(outputs.status().message());
    if (outputs->size() != set_outputs[s].size()) {
      return std::to_string(outputs->size()) + " outputs, expected " + std::to_string(set_outputs[s].size());
    }
    for (size_t i = 0; i < outputs->size(); ++i) {
      const std::string diff = Compare((*outputs)[i], set_outputs[s][i]);
      if (!diff.empty()) return "output " + std::to_string(i) + ": " + diff;
    }
  }
  return "";
}

ge::Status OnnxTestCommand(const std::vector<std::string>& dirs, int min_passed) {
  std::vector<fs::path> cases;
  for (const std::string& d : dirs) {
    const fs::path dir(d);
    if (!fs::is_directory(dir)) return ge::ParamInvalid("'" + d + "' is not a directory");
    if (IsCaseDir(dir)) {
      cases.push_back(dir);
      continue;
    }
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_directory() && IsCaseDir(entry.path())) cases.push_back(entry.path());
    }
  }
  std::sort(cases.begin(), cases.end());
  if (cases.empty()) return ge::ParamInvalid("no test case (a directory with model.onnx) found");
  int passed = 0, failed = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    Progress("case " + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + " (" +
             std::to_string(passed) + " passed, " + std::to_string(failed) + " failed): " +
             cases[i].filename().string());
    const std::string why = RunCase(cases[i]);
    ProgressDone();
    if (why.empty()) {
      ++passed;
      std::cout << "PASS " << cases[i].filename().string() << "\n";
    } else {
      ++failed;
      std::cout << "FAIL " << cases[i].filename().string() << ": " << why << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  if (min_passed >= 0) {
    if (passed < min_passed) {
      return ge::Failed(std::to_string(passed) + " cases passed, fewer than the recorded " +
                        std::to_string(min_passed) + " (--min-passed)");
    }
    return ge::Status::Ok();
  }
  return failed == 0 ? ge::Status::Ok()
                     : ge::Failed(std::to_string(failed) + " of " + std::to_string(cases.size()) +
                                  " case(s) failed");
}

}  // namespace

void Commands::RegisterRun(CLI::App& app) {
  CLI::App* run = app.add_subcommand("run", "run MODEL (.om, or compiled first) on given or random inputs");
  run->add_option("model", model_, "the model file")->required();
  run->add_option("--input", inputs_, "an input, NAME=FILE.npy (others: their initializer, or random)");
  run->add_option("--output-dir", output_dir_, "write each output as DIR/NAME.npy");
  run->add_option("--iterations", iterations_, "timed runs (default 10)");
  run->add_option("--warmup", warmup_, "untimed runs first (default 1)");
  run->add_option("--threads", threads_, "intra-op threads (default 0: every core)");
  run->add_option("--max-memory-mb", max_memory_mb_,
                  "refuse a model whose arena, or any run-time tensor, needs more (default 0: "
                  "the machine's memory)");
  run->add_option("--profile", profile_, "write a Chrome/Perfetto trace of the last run");
  run->add_option("--report", report_, "write latency and memory as JSON");
  AddCompileFlags(run, flags_);
  run->callback([this] {
    chosen_ = [this] {
      return RunCommand(model_, flags_, inputs_, output_dir_, iterations_, warmup_, threads_,
                        max_memory_mb_, profile_, report_);
    };
  });
  CLI::App* onnx_test = app.add_subcommand("onnx-test", "run ONNX backend test cases");
  onnx_test->add_option("dirs", case_dirs_, "case directories, or directories of cases")->required();
  onnx_test->add_option("--min-passed", min_passed_,
                        "succeed when at least this many cases pass (for CI floors)");
  onnx_test->callback([this] { chosen_ = [this] { return OnnxTestCommand(case_dirs_, min_passed_); }; });
}

}  // namespace gec
