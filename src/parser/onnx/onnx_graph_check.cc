// Checks and analyses of ONNX graphs before they are built (see onnx_graph_check.h).
#include "onnx_graph_check.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "ge/graph/utils/string_utils.h"
#include "ge/parser/onnx_parser.h"
#include "op_mapping_table.h"

namespace ge::onnx_parser {
namespace {

// A node's name, or "#<index in its graph>" when it has none.
std::string NodeName(const onnx::NodeProto& node, int index) {
  if (!node.name().empty()) return node.name();
  std::string name = "#";
  name += std::to_string(index);
  return name;
}

std::string NodeLabel(const onnx::NodeProto& node, int index) {
  const std::string name = NodeName(node, index);
  return "'" + name + "' (" + node.op_type() + ")";
}

void AppendUnique(std::vector<std::string>& out, std::unordered_set<std::string>& seen,
                  const std::string& name) {
  if (!name.empty() && seen.insert(name).second) out.push_back(name);
}

struct Unsupported {
  std::string op;  // "domain::Op" or "Op"
  int64_t opset;
  std::vector<std::string> nodes;
  std::optional<std::pair<int64_t, int64_t>> mapped;  // opsets at which the table maps the op
};

void CollectUnsupported(const onnx::GraphProto& graph, const ModelInfo& info,
                        std::vector<Unsupported>& out) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto& node = graph.node(i);
    std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
    int64_t opset = info.OpsetOf(domain);
    if (FindOpMapping(domain, node.op_type(), opset) == nullptr) {
      std::string op = domain.empty() ? node.op_type() : domain + "::" + node.op_type();
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const Unsupported& u) { return u.op == op && u.opset == opset; });
      if (it == out.end()) {
        it = out.insert(out.end(),
                        Unsupported{op, opset, {}, MappedOpsetRange(domain, node.op_type())});
      }
      it->nodes.push_back(NodeName(node, i));
    }
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) CollectUnsupported(attr.g(), info, out);
      for (const auto& g : attr.graphs()) CollectUnsupported(g, info, out);
    }
  }
}

Status CheckName(const std::string& name, const std::string& what, const ModelInfo& info) {
  if (IsValidUtf8(name)) return Status::Ok();
  return ParamInvalid(info.model_name + ": " + what + " " + Quote(name) +
                      " is not valid UTF-8 (ONNX names are UTF-8 strings)");
}

}  // namespace

Status CheckNames(const onnx::GraphProto& graph, const ModelInfo& info) {
  const std::string scope = "graph " + Quote(graph.name());
  GE_RETURN_IF_ERROR(CheckName(graph.name(), "the name of " + scope, info));
  auto values = [&](const auto& list, const char* what) -> Status {
    for (const auto& v : list)
      GE_RETURN_IF_ERROR(CheckName(v.name(), std::string(what) + " of " + scope, info));
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(values(graph.input(), "an input"));
  GE_RETURN_IF_ERROR(values(graph.output(), "an output"));
  GE_RETURN_IF_ERROR(values(graph.value_info(), "a value_info"));
  GE_RETURN_IF_ERROR(values(graph.initializer(), "an initializer"));
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const std::string where = "node #" + std::to_string(i) + " of " + scope;
    GE_RETURN_IF_ERROR(CheckName(node.name(), "the name of " + where, info));
    GE_RETURN_IF_ERROR(CheckName(node.op_type(), "the op_type of " + where, info));
    for (const std::string& in : node.input())
      GE_RETURN_IF_ERROR(CheckName(in, "an input of " + where, info));
    for (const std::string& out : node.output())
      GE_RETURN_IF_ERROR(CheckName(out, "an output of " + where, info));
    for (const auto& attr : node.attribute()) {
      GE_RETURN_IF_ERROR(CheckName(attr.name(), "an attribute name of " + where, info));
      if (attr.has_g()) GE_RETURN_IF_ERROR(CheckNames(attr.g(), info));
      for (const auto& g : attr.graphs()) GE_RETURN_IF_ERROR(CheckNames(g, info));
    }
  }
  return Status::Ok();
}

int64_t ModelInfo::OpsetOf(const std::string& domain) const {
  auto it = opsets.find(domain == "ai.onnx" ? "" : domain);
  return it == opsets.end() ? -1 : it->second;
}

std::string ModelInfo::Where(const onnx::NodeProto& node) const {
  return model_name + ": node '" + node.name() + "' (" + node.op_type() + ", opset " +
         std::to_string(OpsetOf(node.domain())) + ")";
}

Status ReadOpsets(const onnx::ModelProto& model, ModelInfo& info) {
  for (const auto& entry : model.opset_import()) {
    std::string domain = entry.domain() == "ai.onnx" ? "" : entry.domain();
    info.opsets[domain] = entry.version();
  }
  if (model.opset_import_size() == 0 && model.ir_version() < 3) {
    info.opsets[""] = 1;  // IR version 1-2 models carry no opset import: they are opset 1
  }
  auto it = info.opsets.find("");
  if (it == info.opsets.end()) {
    // A model of another domain only (a scikit-learn pipeline in ai.onnx.ml) uses no operator of
    // the default one: a node that does fails as an operator whose domain is not imported.
    if (info.opsets.empty()) {
      return ParamInvalid(info.model_name +
                          ": the model imports no opset at all; it is not a standard ONNX model "
                          "(or it was truncated)");
    }
    info.default_opset = kOnnxMaxOpset;
    return Status::Ok();
  }
  info.default_opset = it->second;
  if (info.default_opset < kOnnxMinOpset || info.default_opset > kOnnxMaxOpset) {
    return ParamInvalid(info.model_name + ": opset " + std::to_string(info.default_opset) +
                        " is not supported (opsets " + std::to_string(kOnnxMinOpset) + " to " +
                        std::to_string(kOnnxMaxOpset) +
                        "); convert the model with onnx.version_converter.convert_version");
  }
  return Status::Ok();
}

Status CheckAllSupported(const onnx::GraphProto& graph, const ModelInfo& info) {
  std::vector<Unsupported> unsupported;
  CollectUnsupported(graph, info, unsupported);
  if (unsupported.empty()) return Status::Ok();
  size_t nodes = 0;
  bool version_only = true;  // every operator is supported, at other opsets
  std::string list;
  for (const Unsupported& u : unsupported) {
    nodes += u.nodes.size();
    list += "\n  " + u.op + " (opset " +
            (u.opset < 0 ? std::string("not imported") : std::to_string(u.opset)) +
            "): " + std::to_string(u.nodes.size()) + " node(s): ";
    for (size_t i = 0; i < u.nodes.size() && i < 10; ++i) list += (i ? ", " : "") + u.nodes[i];
    if (u.nodes.size() > 10) list += ", …";
    if (u.mapped && u.opset >= 0) {
      auto [lo, hi] = *u.mapped;
      list += "; " + u.op + " is supported from opset " + std::to_string(lo) + " to " +
              std::to_string(hi) + " only";
    } else {
      version_only = false;
    }
  }
  return ParamInvalid(
      info.model_name + ": " + std::to_string(unsupported.size()) +
      " unsupported operator type(s) in " + std::to_string(nodes) + " node(s):" + list +
      (version_only ? "\nConvert the model to a supported opset with "
                      "onnx.version_converter.convert_version."
                    : "\nAdd rows for them to src/parser/onnx/op_mapping_table.cc (and their "
                      "prototypes), or export the model with operators OpenGE supports."));
}

std::vector<std::string> FreeValues(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> defined;
  for (const auto& v : graph.input()) defined.insert(v.name());
  for (const auto& t : graph.initializer()) defined.insert(t.name());
  for (const auto& t : graph.sparse_initializer()) defined.insert(t.values().name());
  for (const auto& node : graph.node()) {
    for (const auto& o : node.output()) defined.insert(o);
  }
  std::vector<std::string> free;
  std::unordered_set<std::string> seen;
  auto use = [&](const std::string& name) {
    if (!name.empty() && !defined.contains(name)) AppendUnique(free, seen, name);
  };
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) use(in);
    for (const auto& name : ImplicitInputs(node)) use(name);
  }
  for (const auto& out : graph.output()) use(out.name());
  return free;
}

std::vector<std::string> ImplicitInputs(const onnx::NodeProto& node) {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (const auto& attr : node.attribute()) {
    if (attr.has_g()) {
      for (const auto& name : FreeValues(attr.g())) AppendUnique(names, seen, name);
    }
    for (const auto& g : attr.graphs()) {
      for (const auto& name : FreeValues(g)) AppendUnique(names, seen, name);
    }
  }
  return names;
}

Result<std::vector<int>> CheckAndSortGraph(const onnx::GraphProto& graph,
                                           const std::set<std::string>& outer,
                                           const ModelInfo& info) {
  const std::string where = info.model_name + ": graph '" + graph.name() + "'";
  // Every value has one definition: graph input, initializer or node output.
  std::unordered_map<std::string, std::string> definer;  // value → who defines it
  std::unordered_map<std::string, int> producer;         // value → node index
  for (const auto& v : graph.input()) {
    if (!definer.emplace(v.name(), "graph input").second) {
      return ParamInvalid(where + ": graph input '" + v.name() + "' is listed twice");
    }
  }
  std::unordered_set<std::string> initializers;
  for (const auto& t : graph.initializer()) {
    if (!initializers.insert(t.name()).second) {
      return ParamInvalid(where + ": initializer '" + t.name() + "' is listed twice");
    }
    definer.emplace(t.name(), "initializer");
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto& node = graph.node(i);
    for (const auto& out : node.output()) {
      if (out.empty()) continue;
      auto [it, fresh] = definer.emplace(out, "node " + NodeLabel(node, i));
      if (!fresh) {
        return ParamInvalid(where + ": value '" + out + "' is produced twice, by " + it->second +
                            " and by node " + NodeLabel(node, i) +
                            "; ONNX values must have one producer (duplicate output names)");
      }
      producer[out] = i;
    }
  }
  // Every use resolves; dependencies between the nodes of this level.
  const int n = graph.node_size();
  std::vector<std::vector<int>> consumers(static_cast<size_t>(n));
  std::vector<int> pending(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    const auto& node = graph.node(i);
    std::vector<std::string> uses(node.input().begin(), node.input().end());
    for (auto& name : ImplicitInputs(node)) uses.push_back(std::move(name));
    std::unordered_set<int> deps;
    for (const auto& name : uses) {
      if (name.empty()) continue;
      auto p = producer.find(name);
      if (p != producer.end()) {
        if (deps.insert(p->second).second) {
          consumers[static_cast<size_t>(p->second)].push_back(i);
          ++pending[static_cast<size_t>(i)];
        }
        continue;
      }
      if (definer.contains(name) || outer.contains(name)) continue;
      return ParamInvalid(info.Where(node) + ": input '" + name +
                          "' is not produced by any node, graph input or initializer" +
                          (outer.empty() ? "" : " (nor by an enclosing graph)") +
                          "; the model is invalid (check the exporter)");
    }
  }
  for (const auto& out : graph.output()) {
    if (!definer.contains(out.name()) && !outer.contains(out.name())) {
      return ParamInvalid(where + ": graph output '" + out.name() +
                          "' is not produced by any node, graph input or initializer");
    }
  }
  // Kahn's algorithm, taking the earliest node of the file first.
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[static_cast<size_t>(i)] == 0) ready.push(i);
  }
  std::vector<int> order;
  order.reserve(static_cast<size_t>(n));
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int c : consumers[static_cast<size_t>(i)]) {
      if (--pending[static_cast<size_t>(c)] == 0) ready.push(c);
    }
  }
  if (static_cast<int>(order.size()) == n) return order;
  // A cycle: walk back from a blocked node through blocked producers until a node repeats.
  int start = 0;
  while (pending[static_cast<size_t>(start)] == 0) ++start;
  std::vector<int> path;
  std::unordered_map<int, size_t> on_path;
  int cur = start;
  while (!on_path.contains(cur)) {
    on_path[cur] = path.size();
    path.push_back(cur);
    const auto& node = graph.node(cur);
    std::vector<std::string> uses(node.input().begin(), node.input().end());
    for (auto& name : ImplicitInputs(node)) uses.push_back(std::move(name));
    for (const auto& name : uses) {
      auto p = producer.find(name);
      if (p != producer.end() && pending[static_cast<size_t>(p->second)] > 0) {
        cur = p->second;
        break;
      }
    }
  }
  // path[k + 1] produces an input of path[k]; the producer of path.back() is path[first].
  const size_t first = on_path[cur];
  std::string cycle = NodeLabel(graph.node(path[first]), path[first]);
  for (size_t k = path.size(); k-- > first;) {
    cycle += " -> " + NodeLabel(graph.node(path[k]), path[k]);
  }
  return ParamInvalid(where + ": the graph has a cycle: " + cycle +
                      "; ONNX graphs must be acyclic");
}

}  // namespace ge::onnx_parser
