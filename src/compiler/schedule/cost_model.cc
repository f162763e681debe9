// The cost model's roofline and the machine profiles it reads (ge/compiler/cost_model.h).
#include "ge/compiler/cost_model.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ge {
namespace {

int CoresHere() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

// The rate each field needs: positive and finite.
struct Field {
  const char* key;
  double MachineProfile::*member;
};
constexpr Field kFields[] = {
    {"dense_gflops", &MachineProfile::dense_gflops},
    {"elementwise_gops", &MachineProfile::elementwise_gops},
    {"bandwidth_gbs", &MachineProfile::bandwidth_gbs},
    {"bandwidth_all_gbs", &MachineProfile::bandwidth_all_gbs},
    {"task_us", &MachineProfile::task_us},
    {"library_us", &MachineProfile::library_us},
    {"thread_us", &MachineProfile::thread_us},
};

}  // namespace

MachineProfile MachineProfile::BuiltIn(int cores) {
  MachineProfile m;
  m.cores = cores > 0 ? cores : CoresHere();
  return m;
}

Result<MachineProfile> MachineProfile::Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ParamInvalid("machine profile '" + path + "': cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return ParamInvalid("machine profile '" + path +
                        "': not a JSON object (gec calibrate writes "
                        "one)");
  }
  MachineProfile m = BuiltIn();
  m.source = path;
  if (j.contains("cores")) {
    if (!j["cores"].is_number_integer() || j["cores"].get<int64_t>() < 1 ||
        j["cores"].get<int64_t>() > 4096) {
      return ParamInvalid("machine profile '" + path + "': 'cores' must be a whole number from 1");
    }
    m.cores = static_cast<int>(j["cores"].get<int64_t>());
  }
  for (const Field& f : kFields) {
    if (!j.contains(f.key)) {
      return ParamInvalid("machine profile '" + path + "': '" + f.key + "' is missing");
    }
    const nlohmann::json& v = j[f.key];
    if (!v.is_number() || !(v.get<double>() > 0.0) || v.get<double>() > 1e12) {
      return ParamInvalid("machine profile '" + path + "': '" + f.key +
                          "' must be a positive number");
    }
    m.*f.member = v.get<double>();
  }
  return m;
}

std::string MachineProfile::DefaultPath() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  if (cache != nullptr && cache[0] == '/') return std::string(cache) + "/openge/machine.json";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') return std::string(home) + "/.cache/openge/machine.json";
  return "";
}

Result<MachineProfile> MachineProfile::ForCompile(const std::string& path) {
  if (!path.empty()) return Load(path);
  const std::string here = DefaultPath();
  std::error_code ec;
  if (!here.empty() && std::filesystem::is_regular_file(here, ec)) {
    Result<MachineProfile> measured = Load(here);
    if (measured.ok()) return measured;
    // A damaged file in the cache is not the model's fault: the built-in rates serve.
  }
  return BuiltIn();
}

std::string MachineProfile::ToJson() const {
  nlohmann::json j;
  j["cores"] = cores;
  for (const Field& f : kFields) j[f.key] = this->*f.member;
  return j.dump(2) + "\n";
}

Status MachineProfile::Save(const std::string& path) const {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::ofstream out(path);
  if (!out) return ParamInvalid("machine profile '" + path + "': cannot be written");
  out << ToJson();
  return out ? Status::Ok() : ParamInvalid("machine profile '" + path + "': write failed");
}

double MachineProfile::BytesPerMicro(int threads) const {
  const int t = std::clamp(threads, 1, std::max(cores, 1));
  const double gbs = cores <= 1 ? bandwidth_gbs
                                : bandwidth_gbs + (bandwidth_all_gbs - bandwidth_gbs) * (t - 1) /
                                                      static_cast<double>(cores - 1);
  return gbs * 1e3;
}

double PredictMicros(const OpWork& w, int threads, const MachineProfile& m) {
  const int t = w.parallel ? std::max(threads, 1) : 1;
  const double compute = w.dense_flops / (m.dense_gflops * 1e3 * t) +
                         w.elementwise_ops / (m.elementwise_gops * 1e3 * t);
  const double memory = w.bytes / m.BytesPerMicro(t);
  return m.task_us + (w.library_call ? m.library_us : 0.0) + m.thread_us * (t - 1) +
         std::max(compute, memory);
}

int WorthThreads(const OpWork& w, int budget, const MachineProfile& m) {
  if (!w.parallel) return 1;
  budget = std::max(budget, 1);
  int fastest = budget;
  for (int t = budget - 1; t >= 1; --t) {
    if (PredictMicros(w, t, m) < PredictMicros(w, fastest, m)) fastest = t;
  }
  // Fewer threads only where the prediction is clearly better: a task gets the stream's threads
  // unless they cost it a tenth of its time or more (waking threads for a few microseconds of
  // work), since the kernels' own splitting is what the model knows least well.
  return PredictMicros(w, budget, m) <= PredictMicros(w, fastest, m) * 1.1 ? budget : fastest;
}

}  // namespace ge
