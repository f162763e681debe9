// Pipeline fusion: a producer absorbs the chain of elementwise nodes after it, each the only
// reader of the one before, as post-ops of its oneDNN primitive (attribute _fused_post_ops).
//
//   convolution (Conv2D, Conv, Conv3D, DepthwiseConv2D) + activations
#include <limits>
#include <memory>

#include "../graph_edit.h"
#include "fusion_pattern.h"
#include "ge/engine/fused_ops.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge::fusion {
namespace {

bool IsConvolution(const std::string& type) {
  return type == "Conv2D" || type == "Conv" || type == "Conv3D" || type == "DepthwiseConv2D";
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
      if (Producer(node, i) == nullptr) continue;
      const std::optional<float> v = ConstScalar(node, i);
      if (!v) return std::nullopt;
      (i == 1 ? lo : hi) = *v;
    }
    return "Clip:" + FormatFloat(lo) + ":" + FormatFloat(hi);
  }
  return std::nullopt;
}

/// The producer's OpDesc with `post_ops` appended to its _fused_post_ops.
OpDescPtr WithPostOps(const Node& producer, const std::vector<std::string>& post_ops) {
  auto fused = std::make_shared<OpDesc>(*producer.GetOpDescBarePtr());
  std::vector<std::string> ops;
  AttrUtils::GetListStr(fused, kAttrFusedPostOps, ops);
  ops.insert(ops.end(), post_ops.begin(), post_ops.end());
  AttrUtils::SetListStr(fused, kAttrFusedPostOps, ops);
  return fused;
}

/// Absorbs nodes[1..] into nodes[0] one by one, so that a failure part way leaves a valid graph
/// that computes the same (the nodes absorbed so far are post-ops, the rest are still nodes).
Status AbsorbChain(ComputeGraph& graph, const std::vector<NodePtr>& nodes,
                   const std::vector<std::string>& post_ops) {
  const NodePtr& producer = nodes.front();
  const OpDescPtr op = producer->GetOpDesc();
  std::vector<std::string> ops, from;
  AttrUtils::GetListStr(op, kAttrFusedPostOps, ops);
  AttrUtils::GetListStr(op, kAttrFusedFrom, from);
  if (from.empty()) from.push_back(producer->GetName());
  std::string pattern = producer->GetType();
  AttrUtils::GetStr(op, kAttrFusedPattern, pattern);
  for (size_t i = 1; i < nodes.size(); ++i) {
    const NodePtr& absorbed = nodes[i];
    // The fused output is the absorbed node's: its desc (name included) moves to the producer.
    const GeTensorDesc out = absorbed->GetOpDescBarePtr()->GetOutputDesc(0);
    const std::string name = absorbed->GetName();
    const std::string type = absorbed->GetType();
    GE_RETURN_IF_ERROR(passes::BypassNode(graph, absorbed, {0}));
    GE_RETURN_IF_ERROR(op->UpdateOutputDesc(0, out));
    ops.push_back(post_ops[i - 1]);
    from.push_back(name);
    pattern += "+" + type;
    AttrUtils::SetListStr(op, kAttrFusedPostOps, ops);
    AttrUtils::SetListStr(op, kAttrFusedFrom, from);
    AttrUtils::SetStr(op, kAttrFusedPattern, pattern);
  }
  return Status::Ok();
}

/// Convolution + the chain of activations after it.
std::vector<Candidate> ConvActivationChains(ComputeGraph& graph, Env& env) {
  const int64_t cap = env.max_group_nodes();
  std::vector<Candidate> out;
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsConvolution(node->GetType())) continue;
    if (node->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType() != DT_FLOAT) continue;
    Candidate c;
    c.pattern = node->GetType();
    c.nodes.push_back(node);
    std::vector<std::string> post_ops;
    NodePtr current = node;
    bool cut = false;
    while (true) {
      NodePtr next = SoleReader(*current);
      if (next == nullptr || passes::IsGraphBoundary(*next) || Producer(*next, 0) != current) break;
      std::optional<std::string> post_op = PostOpOf(*next);
      if (!post_op) break;
      if (static_cast<int64_t>(c.nodes.size()) >= cap) {
        cut = true;
        break;
      }
      c.pattern += "+" + next->GetType();
      c.nodes.push_back(next);
      post_ops.push_back(*post_op);
      current = next;
    }
    if (c.nodes.size() < 2) continue;
    if (cut) env.Count("groups cut at openge.fusionMaxGroupNodes");
    c.bytes_before = GroupTraffic(c.nodes);
    // Fused: the convolution's inputs in, the last activation's output out.
    const Node& producer = *c.nodes.front();
    for (const InDataAnchorPtr& in : producer.GetAllInDataAnchors()) {
      if (in->GetPeerOutAnchor() != nullptr) {
        c.bytes_after += Bytes(producer.GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
      }
    }
    c.bytes_after += Bytes(c.nodes.back()->GetOpDescBarePtr()->GetOutputDesc(0));
    c.fused = WithPostOps(producer, post_ops);
    c.rewrite = [nodes = c.nodes, post_ops](ComputeGraph& g) { return AbsorbChain(g, nodes, post_ops); };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

std::vector<Collector> PipelinePatterns() { return {ConvActivationChains}; }

}  // namespace ge::fusion
