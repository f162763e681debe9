// Fusion under a cost model: candidates first, decisions second.
//
// The patterns (passes/fusion/) propose candidates: a group of nodes one fused node would stand
// for, with the bytes the group moves through memory now and the bytes the fused form would
// move. A candidate is kept only when the fused form moves at most openge.fusionCostRatio of the
// bytes (post-ops of a producer: no more bytes), weights (Const inputs, read once either way)
// left out of both sides; the kept ones are
// taken by gain (bytes saved), skipping any that overlaps a group already taken; each is checked
// for the cycle it could create and for support by the engine that takes its anchor node, then
// rewritten. A rewrite that fails is skipped with a note and
// leaves a valid graph. Groups never exceed openge.fusionMaxGroupNodes nodes.
//
// Patterns run in phases (fusion/fusion_pattern.h): transformer structures, then epilogues
// (producer + post-ops), then elementwise groups; each phase sees what the one before made.
#include <algorithm>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "fusion/fusion_pattern.h"
#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/node.h"

namespace ge {

namespace passes {

namespace {

// The nodes `node` feeds, by data or control, as bare pointers (no reference counting: this walk
// visits most of the graph for each candidate).
void AppendReaders(const Node& node, std::vector<const Node*>& out) {
  for (const OutDataAnchorPtr& anchor : node.GetAllOutDataAnchors()) {
    for (const Anchor* peer : anchor->GetPeerAnchorsPtr())
      out.push_back(peer->GetOwnerNodeBarePtr());
  }
  for (const Anchor* peer : node.GetOutControlAnchor()->GetPeerAnchorsPtr()) {
    out.push_back(peer->GetOwnerNodeBarePtr());
  }
}

}  // namespace

bool FusionWouldCreateCycle(const std::vector<NodePtr>& group) {
  std::unordered_set<const Node*> in_group;
  for (const NodePtr& n : group) in_group.insert(n.get());
  // The members fed from outside (entries) and read from outside (exits). When every entry
  // reaches every exit inside the group, no cycle can form: a path from an exit's reader back to
  // an entry's feeder would close one through the group in the graph as it is. That is the common
  // case (a producer and its post-ops), decided without walking the graph.
  std::unordered_set<const Node*> feeders;
  std::vector<const Node*> entries, exits, readers;
  for (const NodePtr& n : group) {
    bool fed = false;
    for (const NodePtr& p : n->GetInAllNodes()) {
      if (in_group.count(p.get()) == 0) {
        feeders.insert(p.get());
        fed = true;
      }
    }
    if (fed) entries.push_back(n.get());
    const size_t before = readers.size();
    AppendReaders(*n, readers);
    if (std::any_of(readers.begin() + static_cast<std::ptrdiff_t>(before), readers.end(),
                    [&](const Node* r) { return r != nullptr && in_group.count(r) == 0; })) {
      exits.push_back(n.get());
    }
  }
  auto reaches_every_exit = [&](const Node* entry) {
    std::unordered_set<const Node*> reached = {entry};
    std::vector<const Node*> stack = {entry}, next;
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      next.clear();
      AppendReaders(*n, next);
      for (const Node* r : next) {
        if (r != nullptr && in_group.count(r) != 0 && reached.insert(r).second) stack.push_back(r);
      }
    }
    return std::all_of(exits.begin(), exits.end(),
                       [&](const Node* e) { return reached.count(e) != 0; });
  };
  if (std::all_of(entries.begin(), entries.end(), reaches_every_exit)) return false;
  // Otherwise: from the group's readers outside it, can we reach a feeder? Then the fused node
  // would be both before and after that path.
  std::vector<const Node*> stack = std::move(readers);
  std::unordered_set<const Node*> seen;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n == nullptr || in_group.count(n) != 0 || !seen.insert(n).second) continue;
    if (feeders.count(n) != 0) return true;
    AppendReaders(*n, stack);
  }
  return false;
}

}  // namespace passes

namespace {

class FusionPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "Fusion"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    if (context().engines() == nullptr) {
      context().Note("no engines loaded: fusion needs to ask them what they support");
      return false;
    }
    const std::vector<fusion::Phase> phases = {
        {"structure", fusion::StructurePatterns()},
        {"operands", fusion::OperandPatterns()},
        {"epilogue", fusion::EpiloguePatterns()},
        {"elementwise", fusion::ElementwisePatterns()},
    };
    bool changed = false;
    std::vector<ComputeGraph*> graphs = {&graph};
    for (const ComputeGraphPtr& sub : graph.GetAllSubgraphs()) graphs.push_back(sub.get());
    for (const fusion::Phase& phase : phases) {
      for (ComputeGraph* g : graphs) {
        GE_ASSIGN_OR_RETURN(bool fused, FusePhase(*g, phase));
        changed = changed || fused;
      }
    }
    return changed;
  }

  /// True when the engine that takes the unfused anchor also takes the fused op.
  bool EngineTakes(const fusion::Candidate& c, std::string& reason) {
    if (c.fused == nullptr) return true;
    const OpDescPtr plain = c.nodes.front()->GetOpDesc();
    for (const EngineInfo& engine : context().engines()->GetEngines()) {
      if (engine.store == nullptr) continue;
      std::string why;
      if (!engine.store->CheckSupported(plain, why)) continue;
      if (engine.store->CheckSupported(c.fused, reason)) return true;
      reason = engine.config.name + ": " + reason;
      return false;
    }
    reason = "no engine takes " + plain->GetType();
    return false;
  }

  Result<bool> FusePhase(ComputeGraph& graph, const fusion::Phase& phase) {
    fusion::Env env(context());
    std::vector<fusion::Candidate> candidates;
    for (const fusion::Collector& collect : phase.collectors) {
      std::vector<fusion::Candidate> found = collect(graph, env);
      for (fusion::Candidate& c : found) candidates.push_back(std::move(c));
    }
    const double ratio = context().options().fusion_cost_ratio;
    const int64_t cap = context().options().fusion_max_nodes;
    std::vector<fusion::Candidate> kept;
    for (fusion::Candidate& c : candidates) {
      if (static_cast<int64_t>(c.nodes.size()) > cap) {
        context().Count("groups over openge.fusionMaxGroupNodes");
        continue;
      }
      // Weights are read once either way: the ratio is over the rest (activations).
      const int64_t weights = fusion::WeightBytes(c.nodes);
      const int64_t before = std::max<int64_t>(c.bytes_before - weights, 1);
      const int64_t after = std::max<int64_t>(c.bytes_after - weights, 0);
      const double limit = c.free_when_no_worse ? 1.0 : ratio;
      if (static_cast<double>(after) > limit * static_cast<double>(before)) {
        context().Count("rejected by the cost model");
        continue;
      }
      kept.push_back(std::move(c));
    }
    std::stable_sort(
        kept.begin(), kept.end(),
        [](const fusion::Candidate& a, const fusion::Candidate& b) { return a.Gain() > b.Gain(); });
    std::unordered_set<const Node*> taken;
    bool changed = false;
    for (const fusion::Candidate& c : kept) {
      if (std::any_of(c.nodes.begin(), c.nodes.end(),
                      [&](const NodePtr& n) { return taken.count(n.get()) != 0; })) {
        context().Count("overlapping a better group");
        continue;
      }
      if (passes::FusionWouldCreateCycle(c.nodes)) {
        context().Count("skipped: would create a cycle");
        context().Note(c.pattern + " at '" + c.nodes.front()->GetName() +
                       "': fusing would create a cycle");
        continue;
      }
      std::string reason;
      if (!EngineTakes(c, reason)) {
        context().Count("skipped: the engine does not take the fused form");
        context().Note(c.pattern + " at '" + c.nodes.front()->GetName() + "': " + reason);
        continue;
      }
      const std::string anchor = c.nodes.front()->GetName();
      for (const NodePtr& n : c.nodes) taken.insert(n.get());
      Status rewritten = c.rewrite(graph);
      if (!rewritten.ok()) {
        context().Note("warning: " + c.pattern + " at '" + anchor +
                       "' was not fused: " + rewritten.message());
        context().Count("failed rewrites");
        continue;
      }
      context().Count("fused " + c.pattern);
      context().CountRewrite();
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateFusionPass() { return std::make_unique<FusionPass>(); }

}  // namespace ge
