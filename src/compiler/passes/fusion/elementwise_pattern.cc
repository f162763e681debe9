// Elementwise fusion (phase 3 of fusion): connected float32 elementwise nodes the earlier phases
// left become one FusedElementwise, whose expression program (ge/ops/fused_ops.h) the engine
// evaluates tile by tile, reading each input once and writing each output once.
//
// Groups grow in topological order. A node joins the groups of its elementwise producers when
// their union with it is legal, else the largest one of them it can join alone, else it starts
// a group. A union is legal when
//   - it has at most openge.fusionMaxGroupNodes nodes;
//   - contracting it to one node makes no cycle (no path leaves it and comes back; only nodes
//     topologically before the joining node need searching);
//   - every value of it read outside (by a node not in it yet, or as a graph output) has the
//     group's full shape, the broadcast of the group's inputs, since the fused node computes
//     every register at that shape. With unknown dims that is certain only for a value computed
//     from every input of the group.
// A Const scalar operand becomes an immediate; other operands, Consts included, are inputs.
//
//     x ──Mul──Add──Tanh──► y          FusedElementwise(x, b)
//     b ──────┘                  ==>     r0 = x, r1 = b
//   (0.5)  ┘                             r2 = Mul r0 0.5, r3 = Add r2 r1, r4 = Tanh r3 ─► y
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "elementwise_program.h"
#include "fusion_pattern.h"
#include "ge/compiler/graph_edit.h"
#include "ge/graph/anchor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_elementwise.h"
#include "ge/ops/fused_ops.h"
#include "ge/ops/op_registry.h"

namespace ge::fusion {
namespace {

using Dims = std::vector<int64_t>;

/// numpy broadcasting where -1 is an unknown dim; nullopt when the shapes cannot broadcast.
std::optional<Dims> Broadcast(const Dims& a, const Dims& b) {
  const size_t rank = std::max(a.size(), b.size());
  Dims out(rank, 1);
  for (size_t k = 0; k < rank; ++k) {
    const int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    int64_t d = x;
    if (x == 1 || (x == -1 && y > 1)) {
      d = y;
    } else if (y != 1 && y != -1 && x != y) {
      return std::nullopt;
    }
    out[rank - 1 - k] = d;
  }
  return out;
}

bool AllKnown(const Dims& dims) {
  return std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; });
}

Dims OutputDims(const Node& node) {
  return node.GetOpDescBarePtr()->GetOutputDesc(0).GetShape().GetDims();
}

/// The data input `index` of `node` as the port feeding it now.
std::optional<Port> Feeding(const Node& node, int index) {
  const InDataAnchorPtr in = node.GetInDataAnchor(index);
  const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
  if (peer == nullptr) return std::nullopt;
  return Port{peer->GetOwnerNode(), peer->GetIdx()};
}

/// A group input: the first group node reading it (resolved to its producer at rewrite time,
/// when an earlier rewrite may have replaced that producer).
struct InputUse {
  NodePtr reader;
  int index = 0;
  Port port;  ///< the producer when the group was collected
};

/// What a group reads and which of its values leave it.
struct GroupIo {
  std::vector<InputUse> inputs;
  std::vector<NodePtr> outputs;  ///< members whose output 0 is read outside
  Dims full;
  bool shapes_ok = true;
};

class ElementwiseGrouping {
 public:
  ElementwiseGrouping(ComputeGraph& graph, Env& env) : graph_(graph), env_(env) {}

  std::vector<Candidate> Collect() {
    if (!Order()) {
      env_.Note("elementwise fusion skipped graph '" + graph_.GetName() + "': it has a cycle");
      return {};
    }
    for (const NodePtr& node : order_) {
      std::optional<EwNode> ew = DescribeEwNode(*node);
      if (!ew) continue;
      described_.emplace(node.get(), std::move(*ew));
      Place(node);
    }
    std::vector<Candidate> out;
    for (size_t g = 0; g < groups_.size(); ++g) {
      if (groups_[g].nodes.size() < 2) continue;
      if (groups_[g].cut) env_.Count("groups cut at openge.fusionMaxGroupNodes");
      std::optional<Candidate> c = MakeCandidate(groups_[g].nodes);
      if (c) out.push_back(std::move(*c));
    }
    return out;
  }

 private:
  struct Group {
    std::vector<NodePtr> nodes;  ///< topological order
    bool cut = false;            ///< a node could not join only because of the cap
  };

  /// Topological order of the graph's direct nodes (data and control edges); false when some
  /// node is on a cycle.
  bool Order() {
    std::unordered_map<const Node*, size_t> pending;
    std::vector<NodePtr> ready;
    for (const NodePtr& n : graph_.GetDirectNode()) {
      const size_t deps = n->GetInAllNodes().size();
      pending[n.get()] = deps;
      if (deps == 0) ready.push_back(n);
    }
    while (!ready.empty()) {
      NodePtr n = ready.back();
      ready.pop_back();
      topo_[n.get()] = static_cast<int64_t>(order_.size());
      order_.push_back(n);
      for (const NodePtr& r : n->GetOutAllNodes()) {
        auto it = pending.find(r.get());
        if (it != pending.end() && --it->second == 0) ready.push_back(r);
      }
    }
    return order_.size() == pending.size();
  }

  int64_t Topo(const Node* n) const {
    auto it = topo_.find(n);
    return it == topo_.end() ? -1 : it->second;
  }

  /// Joins `node` to its producers' groups, or to the largest it can join alone, or starts one.
  void Place(const NodePtr& node) {
    const EwNode& ew = described_.at(node.get());
    std::vector<size_t> producer_groups;
    for (int i : ew.value_inputs) {
      const std::optional<Port> p = Feeding(*node, i);
      if (!p) continue;
      auto it = group_of_.find(p->node.get());
      if (it == group_of_.end()) continue;
      if (std::find(producer_groups.begin(), producer_groups.end(), it->second) ==
          producer_groups.end()) {
        producer_groups.push_back(it->second);
      }
    }
    std::sort(producer_groups.begin(), producer_groups.end(), [&](size_t a, size_t b) {
      return groups_[a].nodes.size() > groups_[b].nodes.size();
    });
    std::vector<std::vector<size_t>> tries;
    if (!producer_groups.empty()) tries.push_back(producer_groups);
    if (producer_groups.size() > 1) {
      for (size_t g : producer_groups) tries.push_back({g});
    }
    for (const std::vector<size_t>& joined : tries) {
      std::vector<NodePtr> members;
      for (size_t g : joined)
        members.insert(members.end(), groups_[g].nodes.begin(), groups_[g].nodes.end());
      members.push_back(node);
      if (static_cast<int64_t>(members.size()) > env_.max_group_nodes()) {
        for (size_t g : joined) groups_[g].cut = true;
        continue;
      }
      std::sort(members.begin(), members.end(),
                [&](const NodePtr& a, const NodePtr& b) { return Topo(a.get()) < Topo(b.get()); });
      if (!Legal(members, Topo(node.get()))) continue;
      const size_t into = joined.front();
      for (size_t g : joined) {
        if (g != into) {
          groups_[into].cut = groups_[into].cut || groups_[g].cut;
          groups_[g].nodes.clear();
        }
      }
      groups_[into].nodes = std::move(members);
      for (const NodePtr& n : groups_[into].nodes) group_of_[n.get()] = into;
      return;
    }
    group_of_[node.get()] = groups_.size();
    groups_.push_back(Group{{node}, false});
  }

  bool Legal(const std::vector<NodePtr>& members, int64_t limit) const {
    if (WouldCycle(members, limit)) return false;
    return Io(members).shapes_ok;
  }

  /// True when some path leaves `members` and comes back. Every node on such a path is
  /// topologically before the last member (`limit`), so the search stops there.
  bool WouldCycle(const std::vector<NodePtr>& members, int64_t limit) const {
    std::unordered_set<const Node*> in_group;
    for (const NodePtr& n : members) in_group.insert(n.get());
    std::unordered_set<const Node*> feeders;
    for (const NodePtr& n : members) {
      for (const NodePtr& p : n->GetInAllNodes()) {
        if (in_group.count(p.get()) == 0) feeders.insert(p.get());
      }
    }
    std::vector<NodePtr> stack;
    std::unordered_set<const Node*> seen;
    auto visit = [&](const NodePtr& from) {
      for (const NodePtr& r : from->GetOutAllNodes()) {
        if (in_group.count(r.get()) == 0 && Topo(r.get()) < limit && seen.insert(r.get()).second) {
          stack.push_back(r);
        }
      }
    };
    for (const NodePtr& n : members) visit(n);
    while (!stack.empty()) {
      const NodePtr n = stack.back();
      stack.pop_back();
      if (feeders.count(n.get()) != 0) return true;
      visit(n);
    }
    return false;
  }

  /// The group's inputs, the members whose value leaves it, its full shape, and whether every
  /// leaving value has that shape.
  GroupIo Io(const std::vector<NodePtr>& members) const {
    GroupIo io;
    std::unordered_map<const Node*, size_t> index;
    for (size_t m = 0; m < members.size(); ++m) index[members[m].get()] = m;
    // Per member, the group inputs its value depends on (for unknown dims).
    std::vector<std::vector<bool>> deps(members.size());
    std::vector<std::vector<size_t>> direct(members.size());
    for (size_t m = 0; m < members.size(); ++m) {
      const Node& node = *members[m];
      for (int i : described_.at(&node).value_inputs) {
        const std::optional<Port> p = Feeding(node, i);
        if (!p) continue;
        auto inner = index.find(p->node.get());
        if (inner != index.end()) continue;
        size_t k = 0;
        while (k < io.inputs.size() &&
               !(io.inputs[k].port.node == p->node && io.inputs[k].port.index == p->index))
          ++k;
        if (k == io.inputs.size()) io.inputs.push_back(InputUse{members[m], i, *p});
        direct[m].push_back(k);
      }
    }
    bool have = false;
    for (const InputUse& in : io.inputs) {
      const Dims d = in.port.node->GetOpDescBarePtr()
                         ->GetOutputDesc(static_cast<uint32_t>(in.port.index))
                         .GetShape()
                         .GetDims();
      if (!have) {
        io.full = d;
        have = true;
        continue;
      }
      std::optional<Dims> b = Broadcast(io.full, d);
      if (!b) {
        io.shapes_ok = false;
        return io;
      }
      io.full = *b;
    }
    const bool known = AllKnown(io.full);
    std::unordered_set<const Node*> graph_outputs;
    for (const auto& [n, i] : graph_.GetGraphOutNodesInfo()) graph_outputs.insert(n.get());
    for (size_t m = 0; m < members.size(); ++m) {
      const Node& node = *members[m];
      deps[m].assign(io.inputs.size(), false);
      for (size_t k : direct[m]) deps[m][k] = true;
      for (int i : described_.at(&node).value_inputs) {
        const std::optional<Port> p = Feeding(node, i);
        auto inner = p ? index.find(p->node.get()) : index.end();
        if (inner == index.end()) continue;
        for (size_t k = 0; k < io.inputs.size(); ++k)
          deps[m][k] = deps[m][k] || deps[inner->second][k];
      }
      bool leaves = graph_outputs.count(&node) != 0;
      for (const NodePtr& r : node.GetOutDataNodes()) leaves = leaves || index.count(r.get()) == 0;
      if (!leaves) continue;
      io.outputs.push_back(members[m]);
      const bool all_inputs = std::all_of(deps[m].begin(), deps[m].end(), [](bool b) { return b; });
      if (OutputDims(node) != io.full || (!known && !all_inputs)) io.shapes_ok = false;
    }
    if (io.outputs.empty()) io.shapes_ok = false;
    return io;
  }

  std::optional<Candidate> MakeCandidate(const std::vector<NodePtr>& members) {
    const GroupIo io = Io(members);
    if (!io.shapes_ok) return std::nullopt;
    std::unordered_map<const Node*, int64_t> reg_of;
    const int64_t num_inputs = static_cast<int64_t>(io.inputs.size());
    std::vector<std::string> program;
    std::vector<std::string> types;
    for (const NodePtr& n : members) {
      const EwNode& ew = described_.at(n.get());
      std::vector<int64_t> regs;
      for (int i : ew.value_inputs) {
        const std::optional<Port> p = Feeding(*n, i);
        auto inner = reg_of.find(p->node.get());
        if (inner != reg_of.end()) {
          regs.push_back(inner->second);
          continue;
        }
        for (int64_t k = 0; k < num_inputs; ++k) {
          if (io.inputs[static_cast<size_t>(k)].port.node == p->node &&
              io.inputs[static_cast<size_t>(k)].port.index == p->index) {
            regs.push_back(k);
            break;
          }
        }
      }
      reg_of[n.get()] = EmitEwNode(ew, regs, num_inputs, program);
      if (std::find(types.begin(), types.end(), n->GetType()) == types.end())
        types.push_back(n->GetType());
    }
    std::vector<int64_t> output_registers;
    for (const NodePtr& n : io.outputs) output_registers.push_back(reg_of.at(n.get()));
    std::string pattern = "FusedElementwise(";
    for (size_t t = 0; t < types.size(); ++t) pattern += (t == 0 ? "" : "+") + types[t];
    pattern += ")";
    const std::string anchor = members.front()->GetName();
    // The program must be one the prototype and the kernel accept; anything else is a bug here.
    auto parsed = fused::ParseEwProgram(program, output_registers, num_inputs);
    if (!parsed.ok()) {
      env_.Note("warning: " + pattern + " at '" + anchor +
                "' not proposed: " + parsed.status().message());
      return std::nullopt;
    }
    auto op = env_.context().registry().CreateOpDesc(
        "FusedElementwise",
        passes::UniqueNodeName(graph_, members.back()->GetName() + "_FusedElementwise"),
        {{"x", static_cast<uint32_t>(num_inputs)},
         {"y", static_cast<uint32_t>(io.outputs.size())}});
    if (!op.ok()) {
      env_.Note("warning: " + pattern + " at '" + anchor +
                "' not proposed: " + op.status().message());
      return std::nullopt;
    }
    const OpDescPtr fused = *op;
    Candidate c;
    for (size_t k = 0; k < io.inputs.size(); ++k) {
      const InputUse& in = io.inputs[k];
      const GeTensorDesc& desc =
          in.reader->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in.index));
      if (!fused->UpdateInputDesc(static_cast<uint32_t>(k), desc).ok()) return std::nullopt;
      c.bytes_after += Bytes(desc);
    }
    for (size_t k = 0; k < io.outputs.size(); ++k) {
      const GeTensorDesc& desc = io.outputs[k]->GetOpDescBarePtr()->GetOutputDesc(0);
      if (!fused->UpdateOutputDesc(static_cast<uint32_t>(k), desc).ok()) return std::nullopt;
      c.bytes_after += Bytes(desc);
    }
    AttrUtils::SetListStr(fused, kAttrEwProgram, program);
    AttrUtils::SetListInt(fused, kAttrEwOutputRegisters, output_registers);
    RecordFusion(fused, members, pattern);
    c.pattern = pattern;
    c.nodes = members;
    c.bytes_before = GroupTraffic(members);
    c.fused = fused;
    c.rewrite = [members, fused, uses = io.inputs, outs = io.outputs](ComputeGraph& g) -> Status {
      std::vector<Port> inputs;
      for (const InputUse& u : uses) {
        const std::optional<Port> p = Feeding(*u.reader, u.index);
        if (!p)
          return InternalError("input " + std::to_string(u.index) + " of '" + u.reader->GetName() +
                               "' is not connected");
        inputs.push_back(*p);
      }
      std::vector<Port> outputs;
      for (const NodePtr& n : outs) outputs.push_back(Port{n, 0});
      GE_ASSIGN_OR_RETURN(NodePtr made, ReplaceGroup(g, members, fused, inputs, outputs));
      (void)made;
      return Status::Ok();
    };
    return c;
  }

  ComputeGraph& graph_;
  Env& env_;
  std::vector<NodePtr> order_;
  std::unordered_map<const Node*, int64_t> topo_;
  std::unordered_map<const Node*, EwNode> described_;
  std::unordered_map<const Node*, size_t> group_of_;
  std::vector<Group> groups_;
};

std::vector<Candidate> ElementwiseGroups(ComputeGraph& graph, Env& env) {
  return ElementwiseGrouping(graph, env).Collect();
}

}  // namespace

std::vector<Collector> ElementwisePatterns() { return {ElementwiseGroups}; }

}  // namespace ge::fusion
