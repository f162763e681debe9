// Topological sorting of a ComputeGraph in GE's modes (BFS, DFS, RDFS, StableRDFS, memory
// priority, DelayTopoSort), with cycle detection that works the same in every mode.
//
// Algorithm: the graph is first flattened into index arrays (CSR) of successors and
// predecessors, with loop back-edges (NextIteration → Merge) left out. A Kahn pass counts what
// can be ordered; if anything is left, the leftover nodes contain a cycle, found by walking
// predecessors inside the leftover set until a node repeats, and reported by name. Only then
// does the selected mode run, on a graph known to be acyclic, so no mode can miss a cycle
// (GE's RDFS and StableRDFS can). Every mode is O(V + E) (BFS sorts each ready batch by name,
// memory priority uses an ordered set: O(V log V) on top).
#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

#include "compute_graph_impl.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/utils/tensor_utils.h"

namespace ge {

namespace {

constexpr char kOptionTopoSortingMode[] = "ge.topoSortingMode";
constexpr char kOptionMemoryPolicy[] = "ge.exec.memoryOptimizationPolicy";
constexpr char kOptionRunMode[] = "ge.graphRunMode";
constexpr char kMemoryPriority[] = "MemoryPriority";
constexpr char kOptionMemoryPriorityKey[] = "openge.memoryPriorityKey";

bool IsLoopBackEdge(const Node& src, const Node& dst) {
  const std::string& s = src.GetType();
  const std::string& d = dst.GetType();
  return (s == "NextIteration" || s == "RefNextIteration") && (d == "Merge" || d == "RefMerge");
}

bool IsLongLifeType(const std::string& type) {
  return type == "Const" || type == "Constant" || type == "Variable" || type == "VariableV2" ||
         type == "VarHandleOp" || IsDataLikeType(type);
}

// The graph as index arrays. Node i is nodes[i] (the current order).
struct FlatGraph {
  std::vector<Node*> nodes;
  std::vector<uint32_t> succ_begin, succ;  // CSR: successors of i in release order
  std::vector<uint32_t> pred_begin, pred;  // CSR: predecessors of i (data inputs, then control)
  std::vector<uint32_t> in_degree;

  uint32_t Index(const Node* node) const {
    return static_cast<uint32_t>(node->GetOpDescBarePtr()->GetId());
  }
};

// Ids are set to positions for the duration of the sort; the caller restores them on failure.
FlatGraph Flatten(const ComputeGraph& graph, const std::vector<Node*>& nodes) {
  FlatGraph g;
  g.nodes = nodes;
  const size_t n = nodes.size();
  for (size_t i = 0; i < n; ++i) nodes[i]->GetOpDescBarePtr()->SetId(static_cast<int64_t>(i));
  auto in_graph = [&](const Node* node) {
    return node != nullptr && node->GetOwnerComputeGraphBarePtr() == &graph && graph.HasNode(node);
  };
  g.succ_begin.assign(n + 1, 0);
  g.in_degree.assign(n, 0);
  std::vector<std::vector<uint32_t>> preds(n);
  for (size_t i = 0; i < n; ++i) {
    Node* node = nodes[i];
    auto release = [&](Anchor* peer) {
      Node* dst = peer->GetOwnerNodeBarePtr();
      if (!in_graph(dst) || IsLoopBackEdge(*node, *dst)) return;
      const uint32_t j = g.Index(dst);
      g.succ.push_back(j);
      ++g.in_degree[j];
      preds[j].push_back(static_cast<uint32_t>(i));
    };
    for (const auto& out : node->GetAllOutDataAnchors()) {
      for (Anchor* peer : out->GetPeerAnchorsPtr()) release(peer);
    }
    for (Anchor* peer : node->GetOutControlAnchor()->GetPeerAnchorsPtr()) release(peer);
    g.succ_begin[i + 1] = static_cast<uint32_t>(g.succ.size());
  }
  // Predecessors: data inputs in index order, then control inputs (what RDFS walks).
  g.pred_begin.assign(n + 1, 0);
  for (size_t j = 0; j < n; ++j) {
    g.pred.insert(g.pred.end(), preds[j].begin(), preds[j].end());
    g.pred_begin[j + 1] = static_cast<uint32_t>(g.pred.size());
  }
  return g;
}

// Kahn's count; returns the nodes that could not be ordered (empty for a DAG).
std::vector<uint32_t> Leftovers(const FlatGraph& g) {
  const size_t n = g.nodes.size();
  std::vector<uint32_t> degree = g.in_degree;
  std::vector<uint32_t> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (degree[i] == 0) ready.push_back(i);
  }
  size_t done = 0;
  while (!ready.empty()) {
    const uint32_t i = ready.back();
    ready.pop_back();
    ++done;
    for (uint32_t e = g.succ_begin[i]; e < g.succ_begin[i + 1]; ++e) {
      if (--degree[g.succ[e]] == 0) ready.push_back(g.succ[e]);
    }
  }
  std::vector<uint32_t> left;
  if (done == n) return left;
  for (uint32_t i = 0; i < n; ++i) {
    if (degree[i] != 0) left.push_back(i);
  }
  return left;
}

Status CycleError(const ComputeGraph& graph, const FlatGraph& g,
                  const std::vector<uint32_t>& left) {
  // Every leftover node has a leftover predecessor; walking them must revisit a node.
  std::vector<uint8_t> is_left(g.nodes.size(), 0);
  for (uint32_t i : left) is_left[i] = 1;
  std::vector<int64_t> seen_at(g.nodes.size(), -1);
  std::vector<uint32_t> walk;
  uint32_t cur = left.front();
  while (seen_at[cur] < 0) {
    seen_at[cur] = static_cast<int64_t>(walk.size());
    walk.push_back(cur);
    for (uint32_t e = g.pred_begin[cur]; e < g.pred_begin[cur + 1]; ++e) {
      if (is_left[g.pred[e]]) {
        cur = g.pred[e];
        break;
      }
    }
  }
  // walk[seen_at[cur]..] is the cycle, in predecessor order; print it in edge direction.
  std::vector<uint32_t> cycle(walk.begin() + seen_at[cur], walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::string path;
  for (uint32_t i : cycle) path += g.nodes[i]->GetName() + " -> ";
  path += g.nodes[cycle.front()]->GetName();
  return Failed("graph '" + graph.GetName() + "' has a cycle: " + path + " (" +
                std::to_string(left.size()) + " of " + std::to_string(g.nodes.size()) +
                " nodes cannot be ordered); remove one of these edges");
}

int64_t OutputBytes(const Node& node) {
  int64_t total = 0;
  for (const auto& desc : node.GetOpDescBarePtr()->GetAllOutputsDescPtr()) {
    const int64_t size = TensorUtils::CalcTensorMemSize(*desc);
    if (size > 0) total += size;
  }
  return total;
}

// Seeds for Kahn: Data-like nodes in graph order, then the other sources in graph order.
std::vector<uint32_t> Seeds(const FlatGraph& g) {
  std::vector<uint32_t> data, other;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (g.in_degree[i] != 0) continue;
    (IsDataLikeType(g.nodes[i]->GetType()) ? data : other).push_back(i);
  }
  data.insert(data.end(), other.begin(), other.end());
  return data;
}

std::vector<uint32_t> KahnOrder(const FlatGraph& g, TopoSortingMode mode, bool memory_priority,
                                MemoryPriorityKey key_kind) {
  const size_t n = g.nodes.size();
  std::vector<uint32_t> degree = g.in_degree;
  std::vector<uint32_t> order;
  order.reserve(n);
  auto released = [&](uint32_t i, std::vector<uint32_t>& ready) {
    for (uint32_t e = g.succ_begin[i]; e < g.succ_begin[i + 1]; ++e) {
      if (--degree[g.succ[e]] == 0) ready.push_back(g.succ[e]);
    }
  };
  std::vector<uint32_t> batch;
  if (memory_priority) {
    // (first key, second key, name, position): consumers then bytes, or -bytes then consumers
    using Key = std::tuple<int64_t, int64_t, const std::string*, uint32_t>;
    auto less = [](const Key& a, const Key& b) {
      if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
      if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) < std::get<1>(b);
      const int cmp = std::get<2>(a)->compare(*std::get<2>(b));
      if (cmp != 0) return cmp < 0;
      return std::get<3>(a) < std::get<3>(b);
    };
    std::set<Key, decltype(less)> ready(less);
    auto key = [&](uint32_t i) {
      const auto consumers = static_cast<int64_t>(g.nodes[i]->GetOutDataNodesSize());
      const int64_t bytes = OutputBytes(*g.nodes[i]);
      return key_kind == MemoryPriorityKey::kLargerOutputs
                 ? Key{-bytes, consumers, &g.nodes[i]->GetName(), i}
                 : Key{consumers, bytes, &g.nodes[i]->GetName(), i};
    };
    for (uint32_t i : Seeds(g)) ready.insert(key(i));
    while (!ready.empty()) {
      const uint32_t i = std::get<3>(*ready.begin());
      ready.erase(ready.begin());
      order.push_back(i);
      batch.clear();
      released(i, batch);
      for (uint32_t j : batch) ready.insert(key(j));
    }
    return order;
  }
  if (mode == TopoSortingMode::kBFS) {
    std::deque<uint32_t> queue;
    for (uint32_t i : Seeds(g)) queue.push_back(i);
    while (!queue.empty()) {
      const uint32_t i = queue.front();
      queue.pop_front();
      order.push_back(i);
      batch.clear();
      released(i, batch);
      std::sort(batch.begin(), batch.end(), [&](uint32_t a, uint32_t b) {
        const int cmp = g.nodes[a]->GetName().compare(g.nodes[b]->GetName());
        return cmp != 0 ? cmp < 0 : a < b;
      });
      queue.insert(queue.end(), batch.begin(), batch.end());
    }
    return order;
  }
  // DFS: a LIFO; seeds pop in seed order, successors in release order (output 0's consumers
  // first), so the walk goes deep along the first output.
  std::vector<uint32_t> stack = Seeds(g);
  std::reverse(stack.begin(), stack.end());
  while (!stack.empty()) {
    const uint32_t i = stack.back();
    stack.pop_back();
    order.push_back(i);
    batch.clear();
    released(i, batch);
    stack.insert(stack.end(), batch.rbegin(), batch.rend());
  }
  return order;
}

// Post-order walk over predecessors from each root; `pred_order` sorts a node's predecessors
// into the order they are visited. The graph is acyclic here.
template <typename PredOrder>
std::vector<uint32_t> PostOrder(const FlatGraph& g, const std::vector<uint32_t>& roots,
                                PredOrder pred_order) {
  const size_t n = g.nodes.size();
  std::vector<uint8_t> visited(n, 0);
  std::vector<uint32_t> order;
  order.reserve(n);
  struct Frame {
    uint32_t node;
    std::vector<uint32_t> preds;
    size_t next;
  };
  std::vector<Frame> stack;
  for (uint32_t root : roots) {
    if (visited[root]) continue;
    visited[root] = 1;
    stack.push_back({root, {}, 0});
    pred_order(root, stack.back().preds);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < top.preds.size()) {
        const uint32_t p = top.preds[top.next++];
        if (!visited[p]) {
          visited[p] = 1;
          stack.push_back({p, {}, 0});
          pred_order(p, stack.back().preds);
        }
        continue;
      }
      order.push_back(top.node);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<uint32_t> RdfsOrder(const FlatGraph& g, bool stable) {
  const size_t n = g.nodes.size();
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < n; ++i) {
    if (stable || g.succ_begin[i] == g.succ_begin[i + 1]) roots.push_back(i);
  }
  std::vector<int64_t> bytes;
  if (!stable) {
    bytes.resize(n);
    for (uint32_t i = 0; i < n; ++i) bytes[i] = OutputBytes(*g.nodes[i]);
  }
  return PostOrder(g, roots, [&](uint32_t i, std::vector<uint32_t>& preds) {
    preds.assign(g.pred.begin() + g.pred_begin[i], g.pred.begin() + g.pred_begin[i + 1]);
    if (stable) {
      std::sort(preds.begin(), preds.end());
    } else {
      std::stable_sort(preds.begin(), preds.end(), [&](uint32_t a, uint32_t b) {
        if (bytes[a] != bytes[b]) return bytes[a] < bytes[b];
        return g.nodes[a]->GetName() < g.nodes[b]->GetName();
      });
    }
  });
}

// GE's DelayTopoSort: a node whose data inputs all come from long-lived nodes (Const, Variable,
// Data), or a chain of single-input nodes hanging off such a node, moves to just before its
// first consumer, so its output is not held across the nodes in between.
std::vector<uint32_t> DelayTopoSort(const FlatGraph& g, const std::vector<uint32_t>& order) {
  const size_t n = order.size();
  std::vector<uint32_t> pos(g.nodes.size());
  for (uint32_t p = 0; p < n; ++p) pos[order[p]] = p;
  auto long_lived_inputs = [&](uint32_t i) {
    bool any = false;
    for (const auto& in : g.nodes[i]->GetAllInDataAnchors()) {
      OutDataAnchor* peer = in->GetPeerOutAnchorBarePtr();
      if (peer == nullptr) continue;
      if (!IsLongLifeType(peer->GetOwnerNodeBarePtr()->GetType())) return false;
      any = true;
    }
    return any;
  };
  struct Slot {
    bool can_delay = true;
    std::vector<uint32_t> group;
  };
  std::vector<Slot> slots(n);
  for (uint32_t p = 0; p < n; ++p) slots[p].group.push_back(order[p]);
  for (uint32_t p = 0; p < n; ++p) {
    Slot& slot = slots[p];
    if (!slot.can_delay || slot.group.empty()) continue;
    if (slot.group.size() == 1 && !long_lived_inputs(slot.group.front())) continue;
    const uint32_t last = slot.group.back();
    if (slot.group.size() != 1 && g.nodes[last]->GetAllInDataAnchorsSize() != 1) continue;
    const uint32_t out_count = g.succ_begin[last + 1] - g.succ_begin[last];
    if (out_count == 0) continue;
    uint32_t target = UINT32_MAX;
    for (uint32_t e = g.succ_begin[last]; e < g.succ_begin[last + 1]; ++e) {
      target = std::min(target, pos[g.succ[e]]);
    }
    if (target <= p + 1) continue;
    auto& dst = slots[target].group;
    dst.insert(dst.begin(), slot.group.begin(), slot.group.end());
    if (out_count > 1) slots[target].can_delay = false;
    slot.group.clear();
  }
  std::vector<uint32_t> result;
  result.reserve(n);
  for (const auto& slot : slots) result.insert(result.end(), slot.group.begin(), slot.group.end());
  return result;
}

}  // namespace

const char* TopoSortingModeName(TopoSortingMode mode) {
  switch (mode) {
    case TopoSortingMode::kBFS:
      return "BFS";
    case TopoSortingMode::kDFS:
      return "DFS";
    case TopoSortingMode::kRDFS:
      return "RDFS";
    case TopoSortingMode::kStableRDFS:
      return "StableRDFS";
  }
  return "?";
}

std::string MemoryPriorityName(MemoryPriorityKey key) {
  return key == MemoryPriorityKey::kLargerOutputs ? "MemoryPriority(larger outputs)"
                                                  : "MemoryPriority";
}

Result<TopoSortOptions> TopoSortOptions::FromOptions(
    const std::map<std::string, std::string>& options) {
  TopoSortOptions out;
  auto run_mode = options.find(kOptionRunMode);
  const bool training = run_mode != options.end() && run_mode->second == "1";
  out.mode = training ? TopoSortingMode::kBFS : TopoSortingMode::kDFS;
  auto mode = options.find(kOptionTopoSortingMode);
  if (mode != options.end() && !mode->second.empty()) {
    const std::string& v = mode->second;
    if (v.size() != 1 || v[0] < '0' || v[0] > '3') {
      return ParamInvalid(std::string("option ") + kOptionTopoSortingMode + " = '" + v +
                          "' is invalid: use 0 (BFS), 1 (DFS), 2 (RDFS) or 3 (StableRDFS)");
    }
    out.mode = static_cast<TopoSortingMode>(v[0] - '0');
  }
  auto policy = options.find(kOptionMemoryPolicy);
  if (policy != options.end() && !policy->second.empty()) {
    if (policy->second != kMemoryPriority) {
      return ParamInvalid(std::string("option ") + kOptionMemoryPolicy + " = '" + policy->second +
                          "' is invalid: use '" + kMemoryPriority + "' or leave it empty");
    }
    out.memory_priority = true;
  }
  auto key = options.find(kOptionMemoryPriorityKey);
  if (key != options.end() && !key->second.empty()) {
    if (key->second == "consumers") {
      out.memory_key = MemoryPriorityKey::kFewerConsumers;
    } else if (key->second == "output-size") {
      out.memory_key = MemoryPriorityKey::kLargerOutputs;
    } else {
      return ParamInvalid(std::string("option ") + kOptionMemoryPriorityKey + " = '" + key->second +
                          "' is invalid: use 'consumers' or 'output-size'");
    }
  }
  return out;
}

namespace {

// The sorted order of a graph's direct nodes, or the cycle error. Node ids are left as they were.
Result<std::vector<NodePtr>> ComputeOrder(const ComputeGraph& graph,
                                          const TopoSortOptions& options) {
  std::vector<Node*> nodes = graph.GetDirectNodePtr();
  std::vector<int64_t> old_ids;
  old_ids.reserve(nodes.size());
  for (Node* node : nodes) old_ids.push_back(node->GetOpDescBarePtr()->GetId());
  FlatGraph g = Flatten(graph, nodes);  // sets ids to positions while it runs
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i]->GetOpDescBarePtr()->SetId(old_ids[i]);
  std::vector<uint32_t> left = Leftovers(g);
  if (!left.empty()) return CycleError(graph, g, left);
  std::vector<uint32_t> order;
  switch (options.mode) {
    case TopoSortingMode::kBFS:
    case TopoSortingMode::kDFS:
      order = KahnOrder(g, options.mode, options.memory_priority, options.memory_key);
      break;
    case TopoSortingMode::kRDFS:
      order = DelayTopoSort(g, RdfsOrder(g, /*stable=*/false));
      break;
    case TopoSortingMode::kStableRDFS:
      order = RdfsOrder(g, /*stable=*/true);
      break;
  }
  if (order.size() != nodes.size()) {
    return InternalError("graph '" + graph.GetName() + "': " + TopoSortingModeName(options.mode) +
                         " ordered " + std::to_string(order.size()) + " of " +
                         std::to_string(nodes.size()) + " nodes");
  }
  std::vector<NodePtr> sorted;
  sorted.reserve(order.size());
  for (uint32_t i : order) sorted.push_back(g.nodes[i]->shared_from_this());
  return sorted;
}

}  // namespace

Status ComputeGraph::ApplyTopoOrder(const std::vector<NodePtr>& sorted) {
  GE_RETURN_IF_ERROR(ReorderNodes(sorted));
  for (size_t i = 0; i < sorted.size(); ++i) {
    sorted[i]->GetOpDescBarePtr()->SetId(static_cast<int64_t>(i));
  }
  impl_->next_id = static_cast<int64_t>(sorted.size());
  return Status::Ok();
}

Status ComputeGraph::TopologicalSortingGraph(const TopoSortOptions& options) {
  GE_ASSIGN_OR_RETURN(std::vector<NodePtr> sorted, ComputeOrder(*this, options));
  return ApplyTopoOrder(sorted);
}

Status ComputeGraph::TopologicalSorting(const TopoSortOptions& options) {
  // Every graph of the hierarchy below this one is ordered first; only when all succeed is any
  // order applied, so a cycle anywhere leaves every graph as it was.
  std::vector<ComputeGraph*> graphs = {this};
  for (const auto& node : GetAllNodes()) {
    for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      ComputeGraphPtr sub = name.empty() ? nullptr : GetSubgraph(name);
      if (sub != nullptr) graphs.push_back(sub.get());
    }
  }
  std::vector<std::vector<NodePtr>> orders;
  orders.reserve(graphs.size());
  for (ComputeGraph* graph : graphs) {
    GE_ASSIGN_OR_RETURN(std::vector<NodePtr> order, ComputeOrder(*graph, options));
    orders.push_back(std::move(order));
  }
  for (size_t i = 0; i < graphs.size(); ++i)
    GE_RETURN_IF_ERROR(graphs[i]->ApplyTopoOrder(orders[i]));
  // Ids run 0..N-1 across the whole hierarchy, in GetAllNodes() order.
  int64_t id = 0;
  for (const auto& node : GetAllNodes()) {
    node->GetOpDescBarePtr()->SetId(id++);
    ComputeGraph* owner = node->GetOwnerComputeGraphBarePtr();
    if (owner != nullptr) owner->impl_->next_id = id;  // later AddNode ids stay unique
  }
  return Status::Ok();
}

}  // namespace ge
