// explorer::RenderHtml: the page's data as JSON, put into the page (page.html, page.css,
// page.js, compiled in as explorer_page_text.h's strings).
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "explorer_page_text.h"
#include "ge/compiler/explorer.h"
#include "ge/graph/utils/string_utils.h"

namespace ge::explorer {
namespace {

using Json = nlohmann::ordered_json;

Json PortJson(const PortView& port, bool output) {
  Json j = Json::array({port.name, port.dtype, port.shape, port.format, port.peer});
  if (output) j.push_back(port.offset);
  return j;
}

Json NodeJson(const NodeView& node, bool laid_out) {
  Json j;
  j["n"] = node.name;
  j["t"] = node.type;
  if (!node.engine.empty()) j["e"] = node.engine;
  if (!node.kernel.empty()) j["k"] = node.kernel;
  if (node.stream >= 0) j["s"] = node.stream;
  if (laid_out) {
    j["x"] = node.x;
    j["y"] = node.y;
    j["w"] = node.width;
    j["h"] = node.height;
  }
  Json inputs = Json::array();
  for (const PortView& port : node.inputs) inputs.push_back(PortJson(port, false));
  j["in"] = std::move(inputs);
  Json outputs = Json::array();
  for (const PortView& port : node.outputs) outputs.push_back(PortJson(port, true));
  j["out"] = std::move(outputs);
  Json attrs = Json::array();
  for (const auto& [name, text] : node.attrs) attrs.push_back(Json::array({name, text}));
  j["a"] = std::move(attrs);
  if (!node.fused_from.empty()) j["f"] = node.fused_from;
  if (!node.weights.empty()) j["wt"] = node.weights;
  if (!node.subgraphs.empty()) {
    Json subgraphs = Json::array();
    for (const auto& [name, nodes] : node.subgraphs)
      subgraphs.push_back(Json::array({name, nodes}));
    j["sg"] = std::move(subgraphs);
  }
  return j;
}

Json StageJson(const GraphView& view, size_t max_view_nodes) {
  Json j;
  j["stage"] = view.stage;
  j["graph"] = view.graph;
  j["parent"] = view.parent;
  j["all_nodes"] = view.all_nodes;
  j["folded"] = view.folded_weights;
  j["drawn"] = view.nodes.size();
  const bool too_large = view.nodes.size() > max_view_nodes;
  j["too_large"] = too_large;
  const bool laid_out = view.laid_out && !too_large;
  j["laid_out"] = laid_out;
  j["width"] = view.width;
  j["height"] = view.height;
  Json nodes = Json::array();
  Json edges = Json::array();
  if (!too_large) {
    for (const NodeView& node : view.nodes) nodes.push_back(NodeJson(node, laid_out));
    for (const EdgeView& edge : view.edges) {
      edges.push_back(Json::array({edge.from, edge.to, edge.control ? 1 : 0, edge.label}));
    }
  }
  j["nodes"] = std::move(nodes);
  j["edges"] = std::move(edges);
  return j;
}

Json ReportJson(const CompileReport& report) {
  Json summary;
  summary["graph"] = report.graph_name;
  summary["total_ms"] = report.total_millis;
  summary["parse_ms"] = report.parse_millis;
  summary["nodes_parsed"] = report.nodes_parsed;
  summary["nodes_compiled"] = report.nodes_compiled;
  summary["streams"] = report.streams;
  summary["tasks"] = report.tasks;
  summary["arena_bytes"] = report.memory.arena_bytes;
  summary["lower_bound"] = report.memory.lower_bound;
  summary["weight_bytes"] = report.memory.weight_bytes;
  summary["layout_conversions"] = report.layout_conversions;
  summary["kernels"] = report.kernel_impls;
  summary["engines"] = report.nodes_per_engine;
  summary["predicted_us"] = report.schedule.predicted_us;
  Json stages = Json::array();
  Json passes = Json::array();
  for (const StageReport& stage : report.stages) {
    stages.push_back({{"name", stage.name},
                      {"ms", stage.millis},
                      {"before", stage.nodes_before},
                      {"after", stage.nodes_after}});
    for (const PassReport& pass : stage.passes) {
      passes.push_back({{"stage", stage.name},
                        {"name", pass.name},
                        {"ms", pass.millis},
                        {"rewrites", pass.rewrites},
                        {"before", pass.nodes_before},
                        {"after", pass.nodes_after},
                        {"changed", pass.changed},
                        {"skipped", pass.skipped},
                        {"counters", pass.counters},
                        {"notes", pass.notes}});
    }
  }
  return {{"summary", std::move(summary)},
          {"stages", std::move(stages)},
          {"passes", std::move(passes)}};
}

Json MemoryJson(const memory::MemoryPlan& plan) {
  Json tensors = Json::array();
  int64_t steps = 0;
  for (const memory::TensorPlan& tensor : plan.tensors) {
    if (tensor.region != memory::Region::kArena || tensor.size <= 0) continue;
    steps = std::max(steps, tensor.last_step + 1);
    tensors.push_back(Json::array({memory::TensorLabel(tensor), tensor.node, tensor.op_type,
                                   tensor.offset, tensor.size, tensor.first_step, tensor.last_step,
                                   tensor.alias_of >= 0 ? 1 : 0}));
  }
  return {{"arena_bytes", plan.arena_bytes}, {"lower_bound", plan.lower_bound},
          {"peak_step", plan.peak_step},     {"weight_bytes", plan.weight_bytes},
          {"strategy", plan.strategy},       {"steps", steps},
          {"tensors", std::move(tensors)}};
}

Json ProfileJson(const std::vector<NodeProfile>& profile) {
  Json nodes = Json::array();
  double total = 0;
  for (const NodeProfile& node : profile) {
    total += node.micros;
    Json entry = {{"n", node.name}, {"t", node.type}, {"us", node.micros}};
    if (node.flops >= 0) entry["flops"] = node.flops;
    nodes.push_back(std::move(entry));
  }
  return {{"total_us", total}, {"nodes", std::move(nodes)}};
}

/// JSON inside a <script> element: every "<" is written \u003c (JSON's own escape, which only
/// strings hold), so no "</script>" ends the element and no "<!--" changes how it is parsed.
std::string ScriptSafe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

/// The template with each marker replaced by its text. The markers are found in the template
/// alone, so text put in (a node named like a marker) is never searched.
std::string Fill(const std::string& page,
                 const std::vector<std::pair<std::string, std::string>>& parts) {
  std::vector<std::pair<size_t, const std::pair<std::string, std::string>*>> at;
  for (const auto& part : parts) {
    const size_t found = page.find(part.first);
    if (found != std::string::npos) at.emplace_back(found, &part);
  }
  std::sort(at.begin(), at.end());
  std::string out;
  size_t done = 0;
  for (const auto& [position, part] : at) {
    out.append(page, done, position - done);
    out += part->second;
    done = position + part->first.size();
  }
  out.append(page, done, std::string::npos);
  return out;
}

}  // namespace

std::string RenderHtml(const ExplorerInput& input) {
  Json data;
  data["title"] = input.title;
  data["max_view_nodes"] = input.max_view_nodes;
  Json stages = Json::array();
  for (const GraphView& view : input.stages)
    stages.push_back(StageJson(view, input.max_view_nodes));
  data["stages"] = std::move(stages);
  data["report"] = input.report != nullptr ? ReportJson(*input.report) : Json();
  data["memory"] = input.plan != nullptr ? MemoryJson(*input.plan) : Json();
  data["profile"] = input.profile.empty() ? Json() : ProfileJson(input.profile);
  // Non-UTF-8 bytes in names become U+FFFD rather than failing the page.
  const std::string json = data.dump(-1, ' ', false, Json::error_handler_t::replace);

  return Fill(kExplorerPageHtml, {{"<!--TITLE-->", EscapeMarkup(input.title)},
                                  {"/*STYLE*/", kExplorerPageCss},
                                  {"/*DATA*/", ScriptSafe(json)},
                                  {"/*SCRIPT*/", kExplorerPageJs}});
}

Status WriteHtml(const ExplorerInput& input, const std::string& path) {
  const std::string page = RenderHtml(input);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Failed("cannot write the compile explorer to '" + path + "'");
  out.write(page.data(), static_cast<std::streamsize>(page.size()));
  out.close();
  if (!out) return Failed("cannot write the compile explorer to '" + path + "'");
  return Status::Ok();
}

}  // namespace ge::explorer
