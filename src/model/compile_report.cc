// CompileReport as JSON (for tools) and as a table (for people).
#include "ge/model/compile_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ge {
namespace {

nlohmann::ordered_json PassJson(const PassReport& p) {
  nlohmann::ordered_json j;
  j["name"] = p.name;
  j["millis"] = p.millis;
  j["skipped"] = p.skipped;
  j["changed"] = p.changed;
  j["rewrites"] = p.rewrites;
  j["nodes_before"] = p.nodes_before;
  j["nodes_after"] = p.nodes_after;
  j["counters"] = p.counters;
  j["notes"] = p.notes;
  return j;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace

const PassReport* CompileReport::FindPass(const std::string& stage, const std::string& name) const {
  const PassReport* found = nullptr;
  for (const StageReport& s : stages) {
    if (s.name != stage) continue;
    for (const PassReport& p : s.passes) {
      if (p.name == name) found = &p;
    }
  }
  return found;
}

std::string CompileReport::ToJson() const {
  nlohmann::ordered_json j;
  j["graph"] = graph_name;
  j["total_millis"] = total_millis;
  j["parse_millis"] = parse_millis;
  j["nodes_parsed"] = nodes_parsed;
  j["nodes_compiled"] = nodes_compiled;
  j["op_types_before"] = op_types_before;
  j["op_types_after"] = op_types_after;
  nlohmann::ordered_json stage_list = nlohmann::ordered_json::array();
  for (const StageReport& s : stages) {
    nlohmann::ordered_json sj;
    sj["name"] = s.name;
    sj["millis"] = s.millis;
    sj["nodes_before"] = s.nodes_before;
    sj["nodes_after"] = s.nodes_after;
    sj["passes"] = nlohmann::ordered_json::array();
    for (const PassReport& p : s.passes) sj["passes"].push_back(PassJson(p));
    stage_list.push_back(std::move(sj));
  }
  j["stages"] = std::move(stage_list);
  nlohmann::ordered_json m;
  m["arena_bytes"] = memory.arena_bytes;
  m["lower_bound"] = memory.lower_bound;
  m["ratio"] = memory.lower_bound > 0 ? static_cast<double>(memory.arena_bytes) /
                                            static_cast<double>(memory.lower_bound)
                                      : 1.0;
  m["weight_bytes"] = memory.weight_bytes;
  m["output_bytes"] = memory.output_bytes;
  m["strategy"] = memory.strategy;
  m["topo_order"] = memory.topo_order;
  m["strategy_bytes"] = memory.strategy_bytes;
  m["order_bytes"] = memory.order_bytes;
  if (!memory.floor_node.empty()) m["floor_node"] = memory.floor_node;
  if (!memory.order_predicted_us.empty()) m["order_predicted_us"] = memory.order_predicted_us;
  j["memory"] = std::move(m);
  nlohmann::ordered_json sched;
  sched["cost_model"] = schedule.on;
  if (schedule.on) {
    sched["machine"] = schedule.machine;
    sched["threads"] = schedule.threads;
    sched["predicted_us"] = schedule.predicted_us;
    sched["one_thread_us"] = schedule.one_thread_us;
    nlohmann::ordered_json by_threads = nlohmann::ordered_json::object();
    for (const auto& [t, n] : schedule.tasks_by_threads) by_threads[std::to_string(t)] = n;
    sched["tasks_by_threads"] = std::move(by_threads);
    sched["unsized_tasks"] = schedule.unsized_tasks;
    nlohmann::ordered_json by_streams = nlohmann::ordered_json::object();
    for (const auto& [s, us] : schedule.streams_predicted_us) by_streams[std::to_string(s)] = us;
    sched["streams_predicted_us"] = std::move(by_streams);
  }
  j["schedule"] = std::move(sched);
  j["streams"] = streams;
  j["tasks"] = tasks;
  j["nodes_per_engine"] = nodes_per_engine;
  j["kernel_impls"] = kernel_impls;
  j["reference_kernels"] = reference_kernels;
  j["layout_conversions"] = layout_conversions;
  return j.dump(2);
}

std::string CompileReport::ToText() const {
  std::ostringstream out;
  out << "graph " << graph_name << ": " << nodes_parsed << " nodes -> " << nodes_compiled
      << " nodes in " << Fixed(total_millis, 1) << " ms\n";
  if (parse_millis > 0) out << "  parsed in " << Fixed(parse_millis, 1) << " ms\n";
  for (const StageReport& s : stages) {
    out << "  " << s.name << "  " << Fixed(s.millis, 2) << " ms  nodes " << s.nodes_before << " -> "
        << s.nodes_after << "\n";
    for (const PassReport& p : s.passes) {
      out << "    " << p.name;
      if (p.skipped) {
        out << "  (disabled)\n";
        continue;
      }
      out << "  " << Fixed(p.millis, 2) << " ms  rewrites " << p.rewrites << "  nodes "
          << p.nodes_before << " -> " << p.nodes_after << "\n";
      for (const std::string& note : p.notes) out << "      note: " << note << "\n";
    }
  }
  out << "  memory: arena " << memory.arena_bytes << " B, lower bound " << memory.lower_bound
      << " B";
  if (memory.lower_bound > 0) {
    out << " (x"
        << Fixed(static_cast<double>(memory.arena_bytes) / static_cast<double>(memory.lower_bound),
                 3)
        << ")";
  }
  out << ", strategy " << memory.strategy << ", order " << memory.topo_order << ", weights "
      << memory.weight_bytes << " B\n";
  if (schedule.on) {
    out << "  schedule: predicted " << Fixed(schedule.predicted_us / 1e3, 2) << " ms on "
        << schedule.threads << " thread(s) (" << Fixed(schedule.one_thread_us / 1e3, 2)
        << " ms on one; machine " << schedule.machine << "); tasks worth";
    for (const auto& [t, n] : schedule.tasks_by_threads) out << " " << t << " thread(s) x" << n;
    out << "\n";
  }
  out << "  streams " << streams << ", tasks " << tasks << ", layout conversions "
      << layout_conversions << "\n";
  if (!kernel_impls.empty()) {
    out << "  kernels:";
    for (const auto& [impl, count] : kernel_impls) out << " " << impl << " x" << count;
    out << "\n";
  }
  for (const std::string& node : reference_kernels) {
    out << "  warning: " << node << " runs on a reference kernel (correct, slow)\n";
  }
  return out.str();
}

}  // namespace ge
