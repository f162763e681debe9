// The text and JSON reports of a memory plan.
#include "ge/compiler/memory/memory_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report_util.h"

namespace ge::memory {
namespace {

std::string Bytes(int64_t bytes) {
  char text[64];
  if (bytes >= (int64_t{1} << 20)) {
    std::snprintf(text, sizeof(text), "%lld bytes (%.2f MiB)", static_cast<long long>(bytes),
                  static_cast<double>(bytes) / (1 << 20));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof(text), "%lld bytes (%.1f KiB)", static_cast<long long>(bytes),
                  static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof(text), "%lld bytes", static_cast<long long>(bytes));
  }
  return text;
}

std::string Fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", digits, value);
  return text;
}

}  // namespace

namespace internal {

std::vector<size_t> PeakTensors(const MemoryPlan& plan) {
  std::vector<size_t> live;
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const TensorPlan& t = plan.tensors[i];
    if (t.region == Region::kArena && t.alias_of < 0 && t.size > 0 &&
        t.first_step <= plan.peak_step && plan.peak_step <= t.last_step) {
      live.push_back(i);
    }
  }
  return live;
}

}  // namespace internal

std::string FormatMemoryPlanText(const MemoryPlan& plan) {
  std::ostringstream out;
  out << "memory plan: arena " << Bytes(plan.arena_bytes) << ", lower bound "
      << Bytes(plan.lower_bound) << ", ratio " << Fixed(plan.Ratio(), 3) << ", strategy "
      << plan.strategy << "\n";
  out << "  weights " << Bytes(plan.weight_bytes) << ", separate outputs "
      << Bytes(plan.output_bytes) << ", alignment " << plan.alignment << ", " << plan.tensors.size()
      << " tensors\n";
  out << "strategies:\n";
  for (const StrategyResult& s : plan.strategies) {
    out << "  " << s.name << std::string(s.name.size() < 18 ? 18 - s.name.size() : 1, ' ')
        << Bytes(s.arena_bytes) << "  " << Fixed(s.millis, 3) << " ms\n";
  }
  const std::vector<size_t> live = internal::PeakTensors(plan);
  out << "peak step " << plan.peak_step << ": " << live.size() << " blocks live, "
      << Bytes(plan.lower_bound) << "\n";
  for (size_t i : live) {
    const TensorPlan& t = plan.tensors[i];
    out << "  " << TensorLabel(t) << " (" << t.op_type << ") offset " << t.offset << " size "
        << t.size << " steps " << t.first_step << ".." << t.last_step << "\n";
  }
  return out.str();
}

std::string MemoryPlanToJson(const MemoryPlan& plan) {
  nlohmann::ordered_json json;
  json["arena_bytes"] = plan.arena_bytes;
  json["lower_bound"] = plan.lower_bound;
  json["ratio"] = plan.Ratio();
  json["weight_bytes"] = plan.weight_bytes;
  json["output_bytes"] = plan.output_bytes;
  json["alignment"] = plan.alignment;
  json["strategy"] = plan.strategy;
  json["strategies"] = nlohmann::ordered_json::array();
  for (const StrategyResult& s : plan.strategies) {
    json["strategies"].push_back(
        {{"name", s.name}, {"arena_bytes", s.arena_bytes}, {"millis", s.millis}});
  }
  json["peak_step"] = plan.peak_step;
  json["peak_tensors"] = nlohmann::ordered_json::array();
  for (size_t i : internal::PeakTensors(plan)) {
    json["peak_tensors"].push_back(TensorLabel(plan.tensors[i]));
  }
  json["tensors"] = nlohmann::ordered_json::array();
  for (const TensorPlan& t : plan.tensors) {
    json["tensors"].push_back({{"node", t.node},
                               {"op_type", t.op_type},
                               {"output_index", t.output_index},
                               {"workspace_index", t.workspace_index},
                               {"region", RegionName(t.region)},
                               {"offset", t.offset},
                               {"size", t.size},
                               {"first_step", t.first_step},
                               {"last_step", t.last_step},
                               {"alias_of", t.alias_of}});
  }
  return json.dump(2);
}

}  // namespace ge::memory
