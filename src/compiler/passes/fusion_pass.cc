// Fusion under a cost model (issue 11): candidates first, decisions second.
//
// Patterns propose candidates: a group of nodes one fused node would stand for, with the bytes
// the group moves through memory now and the bytes the fused node would move. A candidate is
// kept only when the fused form moves at most openge.fusionCostRatio of the bytes; the kept ones
// are taken by gain (bytes saved), skipping any that overlaps a group already taken; each is
// checked for the cycle it could create and for support by the engine that takes its producer,
// then rewritten. A rewrite that fails is skipped with a note and leaves the graph as it was.
// Groups never exceed openge.fusionMaxGroupNodes nodes.
//
// Patterns so far: a convolution followed by a chain of elementwise activations, each the only
// reader of the one before (Conv2D+Relu, DepthwiseConv2D+Clip (ReLU6), Conv2D+Sigmoid+...); the
// activations become oneDNN post-ops of the convolution (attribute _fused_post_ops).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ge/compiler/passes.h"
#include "ge/engine/engine_manager.h"
#include "ge/engine/fused_ops.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "graph_edit.h"

namespace ge {
namespace {

struct Candidate {
  std::string pattern;
  std::vector<NodePtr> nodes;         ///< the producer first, then what it absorbs, in order
  std::vector<std::string> post_ops;  ///< one per absorbed node
  int64_t bytes_before = 0;
  int64_t bytes_after = 0;
  int64_t Gain() const { return bytes_before - bytes_after; }
};

bool IsConvolution(const std::string& type) {
  return type == "Conv2D" || type == "Conv" || type == "Conv3D" || type == "DepthwiseConv2D";
}

/// A tensor's bytes; unknown dims count as 1, the same on both sides of the comparison.
int64_t Bytes(const GeTensorDesc& desc) {
  std::vector<int64_t> dims = desc.GetShape().GetDims();
  if (desc.GetShape().IsUnknownDimNum()) dims = {1};
  for (int64_t& d : dims) d = std::max<int64_t>(d, 1);
  const int64_t bytes = TensorUtils::CalcTensorMemSize(GeShape(dims), desc.GetDataType());
  return std::max<int64_t>(bytes, 0);
}

int64_t NodeTraffic(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  int64_t total = 0;
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    if (in->GetPeerOutAnchor() != nullptr) total += Bytes(op.GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) total += Bytes(op.GetOutputDesc(static_cast<uint32_t>(i)));
  return total;
}

std::string FormatFloat(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  return buf;
}

/// The single scalar value of a Const input, if it is one.
std::optional<float> ConstScalar(const Node& node, int index) {
  const InDataAnchorPtr in = node.GetInDataAnchor(index);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return std::nullopt;
  const NodePtr producer = in->GetPeerOutAnchor()->GetOwnerNode();
  if (!passes::IsConstNode(*producer)) return std::nullopt;
  auto value = OpDescUtils::GetConstValue(*producer);
  if (!value.ok() || value->GetTensorDesc().GetDataType() != DT_FLOAT || value->GetSize() != sizeof(float)) {
    return std::nullopt;
  }
  float v = 0;
  std::memcpy(&v, value->GetData().data(), sizeof(float));
  return v;
}

/// The post-op an activation node becomes, or nullopt when it cannot be one.
std::optional<std::string> PostOpOf(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = node.GetType();
  if (op.GetOutputsSize() != 1 || op.GetOutputDesc(0).GetDataType() != DT_FLOAT) return std::nullopt;
  float alpha = 0;
  if (type == "Relu" || type == "Sigmoid" || type == "Tanh" || type == "HardSwish") return type;
  if (type == "Relu6") return std::string("Clip:0:6");
  if (type == "LeakyRelu") {
    if (!AttrUtils::GetFloat(op, "alpha", alpha)) alpha = 0.01F;
    return "LeakyRelu:" + FormatFloat(alpha);
  }
  if (type == "Elu") {
    if (!AttrUtils::GetFloat(op, "alpha", alpha)) alpha = 1.0F;
    return "Elu:" + FormatFloat(alpha);
  }
  if (type == "Gelu") {
    std::string approximate = "none";
    AttrUtils::GetStr(op, "approximate", approximate);
    return std::string(approximate == "tanh" ? "GeluTanh" : "Gelu");
  }
  if (type == "Clip") {
    // Bounds must be Const scalars (absent: unbounded on that side).
    float lo = -std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::max();
    for (int i : {1, 2}) {
      const InDataAnchorPtr in = node.GetInDataAnchor(i);
      if (in == nullptr || in->GetPeerOutAnchor() == nullptr) continue;
      const std::optional<float> v = ConstScalar(node, i);
      if (!v) return std::nullopt;
      (i == 1 ? lo : hi) = *v;
    }
    return "Clip:" + FormatFloat(lo) + ":" + FormatFloat(hi);
  }
  return std::nullopt;
}

/// The only data reader of output 0 of `node` (and no reader of its other outputs), or nullptr.
NodePtr SoleReader(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  NodePtr reader;
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const OutDataAnchorPtr out = node.GetOutDataAnchor(static_cast<int>(i));
    if (out == nullptr) continue;
    const auto peers = out->GetPeerInDataAnchors();
    if (i > 0 && !peers.empty()) return nullptr;
    if (i == 0) {
      if (peers.size() != 1 || peers[0]->GetIdx() != 0) return nullptr;
      reader = peers[0]->GetOwnerNode();
    }
  }
  return reader;
}

}  // namespace

namespace passes {

bool FusionWouldCreateCycle(const std::vector<NodePtr>& group) {
  std::unordered_set<const Node*> in_group;
  for (const NodePtr& n : group) in_group.insert(n.get());
  // Producers outside the group that feed it.
  std::unordered_set<const Node*> feeders;
  for (const NodePtr& n : group) {
    for (const NodePtr& p : n->GetInAllNodes()) {
      if (in_group.count(p.get()) == 0) feeders.insert(p.get());
    }
  }
  // From the group's readers outside it, can we reach a feeder? Then the fused node would be
  // both before and after that path.
  std::vector<NodePtr> stack;
  std::unordered_set<const Node*> seen;
  for (const NodePtr& n : group) {
    for (const NodePtr& r : n->GetOutAllNodes()) {
      if (in_group.count(r.get()) == 0 && seen.insert(r.get()).second) stack.push_back(r);
    }
  }
  while (!stack.empty()) {
    NodePtr n = stack.back();
    stack.pop_back();
    if (feeders.count(n.get()) != 0) return true;
    for (const NodePtr& r : n->GetOutAllNodes()) {
      if (in_group.count(r.get()) == 0 && seen.insert(r.get()).second) stack.push_back(r);
    }
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
    bool changed = false;
    std::vector<ComputeGraph*> graphs = {&graph};
    for (const ComputeGraphPtr& sub : graph.GetAllSubgraphs()) graphs.push_back(sub.get());
    for (ComputeGraph* g : graphs) {
      GE_ASSIGN_OR_RETURN(bool fused, FuseGraph(*g));
      changed = changed || fused;
    }
    return changed;
  }

  /// Candidates of the convolution + activation chain pattern.
  std::vector<Candidate> Collect(ComputeGraph& graph) {
    const int64_t cap = context().options().fusion_max_nodes;
    std::vector<Candidate> out;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (!IsConvolution(node->GetType())) continue;
      if (node->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType() != DT_FLOAT) continue;
      Candidate c;
      c.pattern = node->GetType();
      c.nodes.push_back(node);
      NodePtr current = node;
      while (static_cast<int64_t>(c.nodes.size()) < cap) {
        NodePtr next = SoleReader(*current);
        if (next == nullptr || passes::IsGraphBoundary(*next)) break;
        std::optional<std::string> post_op = PostOpOf(*next);
        if (!post_op) break;
        c.pattern += "+" + next->GetType();
        c.nodes.push_back(next);
        c.post_ops.push_back(*post_op);
        current = next;
      }
      if (c.nodes.size() < 2) continue;
      if (SoleReader(*current) != nullptr && PostOpOf(*SoleReader(*current)) &&
          static_cast<int64_t>(c.nodes.size()) >= cap) {
        context().Count("groups cut at openge.fusionMaxGroupNodes");
      }
      for (const NodePtr& n : c.nodes) c.bytes_before += NodeTraffic(*n);
      // Fused: the convolution's inputs in, the last activation's output out.
      const Node& producer = *c.nodes.front();
      for (const InDataAnchorPtr& in : producer.GetAllInDataAnchors()) {
        if (in->GetPeerOutAnchor() != nullptr) {
          c.bytes_after += Bytes(producer.GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
        }
      }
      c.bytes_after += Bytes(c.nodes.back()->GetOpDescBarePtr()->GetOutputDesc(0));
      out.push_back(std::move(c));
    }
    return out;
  }

  /// True when the engine that takes the unfused producer also takes it fused.
  bool EngineTakes(const Candidate& c, std::string& reason) {
    const OpDescPtr plain = c.nodes.front()->GetOpDesc();
    auto fused = std::make_shared<OpDesc>(*plain);
    std::vector<std::string> ops;
    AttrUtils::GetListStr(fused, kAttrFusedPostOps, ops);
    ops.insert(ops.end(), c.post_ops.begin(), c.post_ops.end());
    AttrUtils::SetListStr(fused, kAttrFusedPostOps, ops);
    for (const EngineInfo& engine : context().engines()->GetEngines()) {
      if (engine.store == nullptr) continue;
      std::string why;
      if (!engine.store->CheckSupported(plain, why)) continue;
      if (engine.store->CheckSupported(fused, reason)) return true;
      reason = engine.config.name + ": " + reason;
      return false;
    }
    reason = "no engine takes " + plain->GetType();
    return false;
  }

  /// Absorbs the group's nodes one by one, so that a failure part way leaves a valid graph that
  /// computes the same (the nodes absorbed so far are post-ops, the rest are still nodes).
  Status Rewrite(ComputeGraph& graph, const Candidate& c) {
    const NodePtr& producer = c.nodes.front();
    const OpDescPtr op = producer->GetOpDesc();
    std::vector<std::string> ops, from;
    AttrUtils::GetListStr(op, kAttrFusedPostOps, ops);
    AttrUtils::GetListStr(op, kAttrFusedFrom, from);
    if (from.empty()) from.push_back(producer->GetName());
    std::string pattern = producer->GetType();
    AttrUtils::GetStr(op, kAttrFusedPattern, pattern);
    for (size_t i = 1; i < c.nodes.size(); ++i) {
      const NodePtr& absorbed = c.nodes[i];
      // The fused output is the absorbed node's: its desc (name included) moves to the producer.
      const GeTensorDesc out = absorbed->GetOpDescBarePtr()->GetOutputDesc(0);
      const std::string name = absorbed->GetName();
      const std::string type = absorbed->GetType();
      GE_RETURN_IF_ERROR(passes::BypassNode(graph, absorbed, {0}));
      GE_RETURN_IF_ERROR(op->UpdateOutputDesc(0, out));
      ops.push_back(c.post_ops[i - 1]);
      from.push_back(name);
      pattern += "+" + type;
      AttrUtils::SetListStr(op, kAttrFusedPostOps, ops);
      AttrUtils::SetListStr(op, kAttrFusedFrom, from);
      AttrUtils::SetStr(op, kAttrFusedPattern, pattern);
    }
    return Status::Ok();
  }

  Result<bool> FuseGraph(ComputeGraph& graph) {
    std::vector<Candidate> candidates = Collect(graph);
    const double ratio = context().options().fusion_cost_ratio;
    std::vector<Candidate> kept;
    for (Candidate& c : candidates) {
      if (static_cast<double>(c.bytes_after) > ratio * static_cast<double>(c.bytes_before)) {
        context().Count("rejected by the cost model");
        continue;
      }
      kept.push_back(std::move(c));
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Candidate& a, const Candidate& b) { return a.Gain() > b.Gain(); });
    std::unordered_set<const Node*> taken;
    bool changed = false;
    for (const Candidate& c : kept) {
      if (std::any_of(c.nodes.begin(), c.nodes.end(), [&](const NodePtr& n) { return taken.count(n.get()) != 0; })) {
        context().Count("overlapping a better group");
        continue;
      }
      if (passes::FusionWouldCreateCycle(c.nodes)) {
        context().Count("skipped: would create a cycle");
        context().Note(c.pattern + " at '" + c.nodes.front()->GetName() + "': fusing would create a cycle");
        continue;
      }
      std::string reason;
      if (!EngineTakes(c, reason)) {
        context().Count("skipped: the engine does not take the fused form");
        context().Note(c.pattern + " at '" + c.nodes.front()->GetName() + "': " + reason);
        continue;
      }
      Status rewritten = Rewrite(graph, c);
      if (!rewritten.ok()) {
        // The nodes absorbed before the failure stay fused; the graph computes the same.
        context().Note("warning: " + c.pattern + " at '" + c.nodes.front()->GetName() +
                       "' was not fused: " + rewritten.message());
        context().Count("failed rewrites");
        continue;
      }
      for (const NodePtr& n : c.nodes) taken.insert(n.get());
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
