// Loading: GraphDefs -> a ComputeGraph hierarchy. Every graph first gets all its nodes, then
// its edges from the OpDef.input strings (parsed on the last ':'), its input and output lists
// and a cycle check; then subgraphs are attached to the nodes that name them. Nothing in the
// file is trusted: names are looked up, indices range-checked, anchors checked for a producer.
#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "attr_serialize.h"
#include "ge/graph/anchor.h"
#include "graph_serialize.h"
#include "op_serialize.h"
#include "reserved_attrs.h"

namespace ge::serialize {

namespace {

/// Edges that OpDef.input cannot express (see reserved_attrs.h), per node.
struct ExtraEdges {
  std::vector<std::string> ctrl_from_data;
  std::vector<std::string> data_from_ctrl;
  std::vector<int64_t> data_from_ctrl_index;
};

struct LoadedGraph {
  proto::GraphDef* def = nullptr;
  std::string key;  // GraphDef.name: what parent nodes call this graph
  ComputeGraphPtr graph;
  std::vector<NodePtr> nodes;  // in OpDef order
  std::vector<ExtraEdges> extra;
  std::unordered_map<std::string_view, uint32_t> by_name;  // views of the nodes' own names
  std::vector<std::pair<uint32_t, uint32_t>> edges;        // (src, dst) for the cycle check
};

std::string Where(const LoadedGraph& g, const Node& node) {
  return NodeWhere(g.key, node.GetName(), node.GetType());
}

/// "name:idx" split on the last ':'; idx must be an integer >= -1.
Status ParseRef(const std::string& text, std::string_view& name, int& index) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos) {
    return ParamInvalid("expected 'node:index', with index -1 for a control edge");
  }
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || first == last || value < -1 ||
      value > std::numeric_limits<int32_t>::max()) {
    return ParamInvalid("expected 'node:index' with an integer index >= -1 after the last ':'");
  }
  name = std::string_view(text).substr(0, colon);
  index = static_cast<int>(value);
  return Status::Ok();
}

Result<uint32_t> FindNode(const LoadedGraph& g, std::string_view name) {
  auto it = g.by_name.find(name);
  if (it == g.by_name.end()) {
    return ParamInvalid("no node named " + Quote(name) + " in graph " + Quote(g.key));
  }
  return it->second;
}

bool IsLoopBackEdge(const Node& src, const Node& dst) {
  const std::string& s = src.GetType();
  const std::string& d = dst.GetType();
  return (s == "NextIteration" || s == "RefNextIteration") && (d == "Merge" || d == "RefMerge");
}

/// Moves a list attribute that ReservedView read into `out`, or empties `out` when it is absent.
template <typename T>
Status TakeList(Result<std::optional<std::vector<T>>> list, std::vector<T>& out) {
  if (!list.ok()) return list.status();
  if (list->has_value()) {
    out = std::move(**list);
  } else {
    out.clear();
  }
  return Status::Ok();
}

Status ReadExtraEdges(const ReservedView& reserved, ExtraEdges& out) {
  GE_RETURN_IF_ERROR(TakeList(reserved.ListString(kAttrCtrlInFromData), out.ctrl_from_data));
  GE_RETURN_IF_ERROR(TakeList(reserved.ListString(kAttrDataInFromCtrl), out.data_from_ctrl));
  GE_RETURN_IF_ERROR(
      TakeList(reserved.ListInt(kAttrDataInFromCtrlIndex), out.data_from_ctrl_index));
  if (out.data_from_ctrl.size() != out.data_from_ctrl_index.size()) {
    return ParamInvalid("attr " + Quote(kAttrDataInFromCtrl) + " and " +
                        Quote(kAttrDataInFromCtrlIndex) + " differ in length");
  }
  return Status::Ok();
}

Status LoadGraphAttrs(proto::GraphDef& def, bool is_main, LoadedGraph& g, LoadContext& ctx) {
  AttrMap& attrs = *def.mutable_attr();
  const ReservedView reserved(attrs, HolderKind::kGraph);
  GE_ASSIGN_OR_RETURN(std::optional<std::string> own_name, reserved.String(kAttrGraphName));
  GE_ASSIGN_OR_RETURN(std::optional<bool> training, reserved.Bool(kAttrTrainingGraph));
  if (!is_main && reserved.Has(kAttrSubgraphs)) {
    return ParamInvalid("attr '_subgraphs' may only be on the main graph of a hierarchy");
  }
  g.graph = std::make_shared<ComputeGraph>(own_name.value_or(g.key));
  g.graph->SetTrainingGraph(training.value_or(false));
  return LoadAttrs(attrs, g.graph->MutableAttrMap(), HolderKind::kGraph, ctx);
}

/// Ids from the file must be unique; when all are 0 (left out) nodes are numbered in order.
Status CheckIds(const LoadedGraph& g) {
  std::vector<std::pair<int64_t, uint32_t>> ids;
  ids.reserve(g.nodes.size());
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    ids.emplace_back(g.nodes[i]->GetOpDescBarePtr()->GetId(), i);
  }
  std::sort(ids.begin(), ids.end());
  for (size_t k = 1; k < ids.size(); ++k) {
    if (ids[k].first != ids[k - 1].first) continue;
    return ParamInvalid(Where(g, *g.nodes[ids[k].second]) +
                        ", id: " + std::to_string(ids[k].first) + " is also the id of node " +
                        Quote(g.nodes[ids[k - 1].second]->GetName()) +
                        "; ids must be unique within a graph (or all left out, to number nodes "
                        "in file order)");
  }
  return Status::Ok();
}

/// Creates the graph and its nodes (no edges yet).
Status LoadNodes(proto::GraphDef& def, bool is_main, LoadedGraph& g, LoadContext& ctx) {
  g.def = &def;
  g.key = def.name();
  GE_RETURN_IF_ERROR(LoadGraphAttrs(def, is_main, g, ctx).Prefix(GraphWhere(g.key)));

  const int count = def.op_size();
  g.nodes.reserve(static_cast<size_t>(count));
  g.extra.resize(static_cast<size_t>(count));
  g.by_name.reserve(static_cast<size_t>(count));
  bool has_ids = false;
  for (const auto& op : def.op()) has_ids = has_ids || op.id() != 0;
  for (int i = 0; i < count; ++i) {
    proto::OpDef& op = *def.mutable_op(i);
    auto where = [&] { return NodeWhere(g.key, op.name(), op.type()); };
    if (g.by_name.count(op.name()) != 0) {
      return ParamInvalid(where() + ", name: op[" + std::to_string(i) +
                          "] has the same name as an earlier op; node names must be unique "
                          "within a graph");
    }
    const ReservedView reserved(*op.mutable_attr(), HolderKind::kOp);
    Status status = ReadExtraEdges(reserved, g.extra[static_cast<size_t>(i)]);
    Result<OpDescPtr> desc = status.ok() ? LoadOpDesc(op, reserved, ctx) : status;
    if (!desc.ok()) return Status(desc.status()).Prefix(where());
    Result<NodePtr> node = g.graph->AddNode(desc.value());
    if (!node.ok()) return Status(node.status()).Prefix(where());
    desc.value()->SetId(has_ids ? op.id() : i);  // AddNode numbered it; the file decides
    g.by_name.emplace(node.value()->GetName(), static_cast<uint32_t>(i));
    g.nodes.push_back(std::move(node).value());
  }
  return has_ids ? CheckIds(g) : Status::Ok();
}

Status LinkData(Node& dst, int dst_index, const AnchorPtr& src_anchor) {
  InDataAnchorPtr in = dst.GetInDataAnchor(dst_index);
  if (in == nullptr) {
    return ParamInvalid("the node has " + std::to_string(dst.GetAllInDataAnchorsSize()) +
                        " inputs (input_desc entries), so there is no input " +
                        std::to_string(dst_index) + " to feed");
  }
  if (in->GetPeerAnchorsSize() != 0) {
    return ParamInvalid("input " + std::to_string(dst_index) + " already has the producer " +
                        in->GetFirstPeerAnchor()->DebugString() + "; an input takes one producer");
  }
  return Anchor::Link(src_anchor, in);
}

/// The producer's anchor named by `name` and `index` (-1: its out-control anchor).
Result<AnchorPtr> SourceAnchor(const LoadedGraph& g, std::string_view name, int index,
                               uint32_t& src) {
  GE_ASSIGN_OR_RETURN(src, FindNode(g, name));
  const Node& node = *g.nodes[src];
  if (index == Anchor::kControlIdx) return AnchorPtr(node.GetOutControlAnchor());
  OutDataAnchorPtr out = node.GetOutDataAnchor(index);
  if (out == nullptr) {
    return ParamInvalid("node " + Quote(name) + " has " +
                        std::to_string(node.GetAllOutDataAnchorsSize()) + " outputs, so output " +
                        std::to_string(index) + " does not exist");
  }
  return AnchorPtr(out);
}

/// Links node `i`'s inputs in OpDef order (so in-anchor order is the file's), then its rare
/// edges, and records each edge for the cycle check.
Status LinkNode(LoadedGraph& g, uint32_t i) {
  const proto::OpDef& op = g.def->op(static_cast<int>(i));
  Node& dst = *g.nodes[i];
  auto record = [&g, &dst, i](uint32_t src) {
    if (!IsLoopBackEdge(*g.nodes[src], dst)) g.edges.emplace_back(src, i);
  };
  int data_index = 0;
  for (int k = 0; k < op.input_size(); ++k) {
    const std::string& text = op.input(k);
    Status status;
    if (text.empty()) {
      if (static_cast<size_t>(data_index) >= dst.GetAllInDataAnchorsSize()) {
        status = ParamInvalid("the node has only " + std::to_string(dst.GetAllInDataAnchorsSize()) +
                              " inputs");
      }
      ++data_index;
    } else {
      std::string_view name;
      int index = 0;
      uint32_t src_index = 0;
      status = ParseRef(text, name, index);
      Result<AnchorPtr> src = status.ok() ? SourceAnchor(g, name, index, src_index) : status;
      if (!src.ok()) {
        status = src.status();
      } else if (index == Anchor::kControlIdx) {
        status = Anchor::Link(src.value(), dst.GetInControlAnchor());
      } else {
        status = LinkData(dst, data_index++, src.value());
      }
      if (status.ok()) record(src_index);
    }
    if (!status.ok()) {
      return std::move(status).Prefix(Where(g, dst) + ", input[" + std::to_string(k) + "] " +
                                      Quote(text));
    }
  }
  const ExtraEdges& extra = g.extra[i];
  for (size_t k = 0; k < extra.ctrl_from_data.size(); ++k) {
    const std::string& text = extra.ctrl_from_data[k];
    std::string_view name;
    int index = 0;
    uint32_t src_index = 0;
    Status status = ParseRef(text, name, index);
    Result<AnchorPtr> src = status.ok() ? SourceAnchor(g, name, index, src_index) : status;
    status = src.ok() ? Anchor::Link(src.value(), dst.GetInControlAnchor()) : src.status();
    if (!status.ok()) {
      return std::move(status).Prefix(Where(g, dst) + ", attr '_in_ctrl_from_data'[" +
                                      std::to_string(k) + "] " + Quote(text));
    }
    record(src_index);
  }
  for (size_t k = 0; k < extra.data_from_ctrl.size(); ++k) {
    const int64_t index = extra.data_from_ctrl_index[k];
    uint32_t src_index = 0;
    Result<AnchorPtr> src =
        SourceAnchor(g, extra.data_from_ctrl[k], Anchor::kControlIdx, src_index);
    Status status = src.status();
    if (status.ok() && (index < 0 || index > std::numeric_limits<int32_t>::max())) {
      status = ParamInvalid("input index " + std::to_string(index) + " is out of range");
    }
    if (status.ok()) status = LinkData(dst, static_cast<int>(index), src.value());
    if (!status.ok()) {
      return std::move(status).Prefix(Where(g, dst) + ", attr '_in_data_from_ctrl'[" +
                                      std::to_string(k) + "] " + Quote(extra.data_from_ctrl[k]));
    }
    record(src_index);
  }
  return Status::Ok();
}

Status LinkIo(LoadedGraph& g) {
  ComputeGraph& graph = *g.graph;
  for (const NodePtr& auto_input : std::vector<NodePtr>(graph.GetInputNodes())) {
    graph.RemoveInputNode(auto_input);  // AddNode's guess; the file's list is the truth
  }
  std::unordered_set<uint32_t> inputs;
  for (int k = 0; k < g.def->input_size(); ++k) {
    const std::string& text = g.def->input(k);
    auto it = g.by_name.find(text);  // a bare name, or GE's "name:0"
    std::string_view name;
    int index = 0;
    Status status;
    if (it == g.by_name.end()) {
      status = ParseRef(text, name, index);
      if (status.ok()) it = g.by_name.find(name);
      if (status.ok() && it == g.by_name.end()) {
        status = ParamInvalid("no node named " + Quote(name) + " in the graph");
      }
    }
    if (status.ok() && !inputs.insert(it->second).second) {
      status = ParamInvalid("the node is listed twice");
    }
    if (status.ok()) status = graph.AddInputNode(g.nodes[it->second]);
    if (!status.ok()) {
      return std::move(status).Prefix(GraphWhere(g.key) + ", input[" + std::to_string(k) + "] " +
                                      Quote(text));
    }
  }
  for (int k = 0; k < g.def->output_size(); ++k) {
    const std::string& text = g.def->output(k);
    std::string_view name;
    int index = 0;
    Status status = ParseRef(text, name, index);
    Result<uint32_t> node = status.ok() ? FindNode(g, name) : Result<uint32_t>(status);
    status = node.status();
    if (status.ok()) status = graph.AddOutputNode(g.nodes[node.value()], index);
    if (!status.ok()) {
      return std::move(status).Prefix(GraphWhere(g.key) + ", output[" + std::to_string(k) + "] " +
                                      Quote(text));
    }
  }
  return Status::Ok();
}

/// Edge lists by node, as offsets into one array (CSR).
struct Adjacency {
  std::vector<uint32_t> begin;
  std::vector<uint32_t> targets;
  Adjacency(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges, bool reverse)
      : begin(n + 1, 0), targets(edges.size()) {
    for (const auto& [src, dst] : edges) ++begin[(reverse ? dst : src) + 1];
    for (size_t i = 0; i < n; ++i) begin[i + 1] += begin[i];
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& [src, dst] : edges) {
      targets[fill[reverse ? dst : src]++] = reverse ? src : dst;
    }
  }
};

/// Kahn's algorithm over the recorded data and control edges (loop back-edges into Merge were
/// left out); on a cycle, walks predecessors among the unsorted nodes until one repeats.
Status CheckAcyclic(const LoadedGraph& g) {
  const size_t n = g.nodes.size();
  const Adjacency succ(n, g.edges, /*reverse=*/false);
  std::vector<uint32_t> in_degree(n, 0);
  for (const auto& edge : g.edges) ++in_degree[edge.second];
  std::vector<uint32_t> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (in_degree[i] == 0) ready.push_back(i);
  }
  size_t sorted = 0;
  while (!ready.empty()) {
    const uint32_t i = ready.back();
    ready.pop_back();
    ++sorted;
    for (uint32_t k = succ.begin[i]; k < succ.begin[i + 1]; ++k) {
      if (--in_degree[succ.targets[k]] == 0) ready.push_back(succ.targets[k]);
    }
  }
  if (sorted == n) return Status::Ok();
  // Every unsorted node has an unsorted predecessor: walk back until a node repeats.
  const Adjacency pred(n, g.edges, /*reverse=*/true);
  constexpr auto kNotOnPath = static_cast<size_t>(-1);
  uint32_t current = 0;
  while (in_degree[current] == 0) ++current;
  std::vector<uint32_t> path;
  std::vector<size_t> position(n, kNotOnPath);
  while (position[current] == kNotOnPath) {
    position[current] = path.size();
    path.push_back(current);
    for (uint32_t k = pred.begin[current]; k < pred.begin[current + 1]; ++k) {
      if (in_degree[pred.targets[k]] != 0) {
        current = pred.targets[k];
        break;
      }
    }
  }
  std::string cycle;
  for (size_t k = path.size(); k-- > position[current];) {
    cycle += Quote(g.nodes[path[k]]->GetName()) + " -> ";
  }
  cycle += Quote(g.nodes[current]->GetName());
  return ParamInvalid(GraphWhere(g.key) + ": the edges form a cycle " + cycle + " (" +
                      std::to_string(n - sorted) +
                      " nodes cannot be ordered); graphs must be acyclic apart from "
                      "NextIteration -> Merge loop edges; fix the OpDef.input entries");
}

/// Gives each subgraph its parent node and registers it on the main graph, level by level from
/// the main graph, refusing a subgraph nested deeper than kMaxSubgraphDepth.
Status AttachSubgraphs(std::vector<LoadedGraph>& graphs) {
  std::unordered_map<std::string_view, size_t> by_key;
  for (size_t i = 0; i < graphs.size(); ++i) {
    auto [it, inserted] = by_key.emplace(graphs[i].key, i);
    if (!inserted) {
      return ParamInvalid(GraphWhere(graphs[i].key) + ", name: graph " + std::to_string(i) +
                          " has the same name as graph " + std::to_string(it->second) +
                          "; graph names must be unique within a model");
    }
  }
  std::vector<const Node*> parent(graphs.size(), nullptr);
  std::vector<int> level(graphs.size(), 0);  // the main graph is level 0
  std::vector<size_t> queue = {0};
  for (size_t q = 0; q < queue.size(); ++q) {
    LoadedGraph& g = graphs[queue[q]];
    for (const NodePtr& node : g.nodes) {
      for (const std::string& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (name.empty()) continue;
        const std::string where = Where(g, *node) + ", subgraph_name " + Quote(name);
        auto it = by_key.find(name);
        if (it == by_key.end()) {
          return ParamInvalid(where +
                              ": no graph of that name is in the model; add the GraphDef "
                              "or remove the name");
        }
        const size_t j = it->second;
        if (j == 0) return ParamInvalid(where + ": names the main graph, which has no parent");
        if (parent[j] != nullptr) {
          return ParamInvalid(where + ": the graph is already the subgraph of node " +
                              Quote(parent[j]->GetName()) + "; a subgraph has one parent node");
        }
        level[j] = level[queue[q]] + 1;
        if (level[j] > kMaxSubgraphDepth) {
          return ParamInvalid(where + ": the graph is nested " + std::to_string(level[j]) +
                              " levels deep; subgraphs may nest at most " +
                              std::to_string(kMaxSubgraphDepth) + " levels");
        }
        parent[j] = node.get();
        graphs[j].graph->SetParentGraph(g.graph);
        graphs[j].graph->SetParentNode(node);
        queue.push_back(j);
      }
    }
  }
  for (size_t i = 1; i < graphs.size(); ++i) {
    if (parent[i] == nullptr) {
      return ParamInvalid(GraphWhere(graphs[i].key) +
                          ": no node of the main graph or its subgraphs names it in "
                          "subgraph_name; remove the graph or name it from its parent node");
    }
    Status status = graphs[0].graph->AddSubgraph(graphs[i].key, graphs[i].graph);
    if (!status.ok()) return std::move(status).Prefix(GraphWhere(graphs[i].key));
  }
  return Status::Ok();
}

}  // namespace

Result<ComputeGraphPtr> LoadGraphTree(const std::vector<proto::GraphDef*>& roots,
                                      LoadContext& ctx) {
  DepthGuard guard(ctx.depth);
  GE_RETURN_IF_ERROR(guard.status());
  if (roots.empty() || roots[0] == nullptr) return ParamInvalid("the model holds no graph");
  std::vector<proto::GraphDef*> defs = roots;
  // An attribute's graph lists its subgraphs in its reserved `_subgraphs` attribute.
  const ReservedView main_reserved(*defs[0]->mutable_attr(), HolderKind::kGraph);
  if (proto::AttrDef* listed = main_reserved.Find(kAttrSubgraphs)) {
    const auto& list = listed->list();
    if (listed->value_case() != proto::AttrDef::kList ||
        list.g_size() != list.s_size() + list.i_size() + list.f_size() + list.b_size() +
                             list.bt_size() + list.td_size() + list.t_size() + list.g_size() +
                             list.na_size() + list.dt_size()) {
      return ParamInvalid(GraphWhere(defs[0]->name()) +
                          ", attr '_subgraphs': must be a list of graphs");
    }
    for (auto& sub : *listed->mutable_list()->mutable_g()) defs.push_back(&sub);
  }
  std::vector<LoadedGraph> graphs(defs.size());
  for (size_t i = 0; i < defs.size(); ++i) {
    GE_RETURN_IF_ERROR(LoadNodes(*defs[i], /*is_main=*/i == 0, graphs[i], ctx));
  }
  for (LoadedGraph& g : graphs) {
    for (uint32_t i = 0; i < g.nodes.size(); ++i) GE_RETURN_IF_ERROR(LinkNode(g, i));
    GE_RETURN_IF_ERROR(LinkIo(g));
    GE_RETURN_IF_ERROR(CheckAcyclic(g));
  }
  GE_RETURN_IF_ERROR(AttachSubgraphs(graphs));
  return graphs[0].graph;
}

}  // namespace ge::serialize
