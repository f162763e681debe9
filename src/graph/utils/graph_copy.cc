// GraphUtils::CopyComputeGraph and CheckEqual: deep copy and structural comparison of graphs.
#include <algorithm>
#include <unordered_map>

#include "ge/graph/utils/graph_utils.h"

namespace ge {

namespace {

using NodeMap = std::unordered_map<const Node*, NodePtr>;

Result<ComputeGraphPtr> CopyGraph(const ComputeGraph& src, const ComputeGraphPtr& root,
                                  const ComputeGraphPtr& parent_graph, const NodePtr& parent_node);

Status CopySubgraphs(const ComputeGraph& src, const NodeMap& map, const ComputeGraphPtr& root) {
  for (const auto& node : src.GetDirectNode()) {
    const NodePtr& copy = map.at(node.get());
    for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (name.empty()) continue;
      ComputeGraphPtr sub = src.GetSubgraph(name);
      if (sub == nullptr) {
        return ParamInvalid("graph '" + src.GetName() + "': node '" + node->GetName() +
                            "' names subgraph '" + name + "', which does not exist");
      }
      GE_ASSIGN_OR_RETURN(ComputeGraphPtr sub_copy,
                          CopyGraph(*sub, root, copy->GetOwnerComputeGraph(), copy));
      GE_RETURN_IF_ERROR(root->AddSubgraph(name, sub_copy));
    }
  }
  return Status::Ok();
}

Result<ComputeGraphPtr> CopyGraph(const ComputeGraph& src, const ComputeGraphPtr& root_in,
                                  const ComputeGraphPtr& parent_graph, const NodePtr& parent_node) {
  auto dst = std::make_shared<ComputeGraph>(src.GetName());
  dst->MutableAttrMap() = src.GetAttrMap();
  dst->SetTrainingGraph(src.IsTrainingGraph());
  dst->SetParentGraph(parent_graph);
  dst->SetParentNode(parent_node);
  const ComputeGraphPtr root = root_in != nullptr ? root_in : dst;
  NodeMap map;
  map.reserve(src.GetDirectNodesSize());
  for (const auto& node : src.GetDirectNode()) {
    auto op = std::make_shared<OpDesc>(*node->GetOpDescBarePtr());
    GE_ASSIGN_OR_RETURN(NodePtr copy, dst->AddNode(op));
    op->SetId(node->GetOpDescBarePtr()->GetId());
    map.emplace(node.get(), copy);
  }
  auto mapped = [&](const Anchor& anchor) -> AnchorPtr {
    auto it = map.find(anchor.GetOwnerNodeBarePtr());
    if (it == map.end()) return nullptr;
    const NodePtr& n = it->second;
    switch (anchor.GetKind()) {
      case Anchor::Kind::kInData:
        return n->GetInDataAnchor(anchor.GetIdx());
      case Anchor::Kind::kOutData:
        return n->GetOutDataAnchor(anchor.GetIdx());
      case Anchor::Kind::kInControl:
        return n->GetInControlAnchor();
      case Anchor::Kind::kOutControl:
        return n->GetOutControlAnchor();
    }
    return nullptr;
  };
  // Edges in each out anchor's peer order, so fan-out lists keep their order.
  for (const auto& node : src.GetDirectNode()) {
    for (const auto& out : node->GetAllOutAnchors()) {
      AnchorPtr from = mapped(*out);
      for (Anchor* peer : out->GetPeerAnchorsPtr()) {
        AnchorPtr to = mapped(*peer);
        if (from == nullptr || to == nullptr) {
          return ParamInvalid("graph '" + src.GetName() + "': edge " + out->DebugString() + " -> " +
                              peer->DebugString() + " leaves the graph");
        }
        GE_RETURN_IF_ERROR(Anchor::Link(from, to));
      }
    }
  }
  const std::vector<NodePtr> auto_inputs = dst->GetInputNodes();  // AddNode's; replaced below
  for (const auto& input : auto_inputs) dst->RemoveInputNode(input);
  for (const auto& input : src.GetInputNodes()) {
    auto it = map.find(input.get());
    if (it != map.end()) GE_RETURN_IF_ERROR(dst->AddInputNode(it->second));
  }
  std::vector<std::pair<NodePtr, int32_t>> outputs;
  for (const auto& [node, idx] : src.GetGraphOutNodesInfo()) {
    auto it = map.find(node.get());
    if (it != map.end()) outputs.emplace_back(it->second, idx);
  }
  dst->SetGraphOutNodesInfo(std::move(outputs));
  GE_RETURN_IF_ERROR(CopySubgraphs(src, map, root));
  return dst;
}

std::string PeerKey(const Anchor& anchor) {
  const Node* node = anchor.GetOwnerNodeBarePtr();
  return (node != nullptr ? node->GetName() : std::string("?")) + ":" +
         std::to_string(anchor.GetIdx());
}

std::vector<std::string> PeerKeys(const Anchor& anchor, bool sorted) {
  std::vector<std::string> keys;
  for (Anchor* peer : anchor.GetPeerAnchorsPtr()) keys.push_back(PeerKey(*peer));
  if (sorted) std::sort(keys.begin(), keys.end());
  return keys;
}

Status Diff(const ComputeGraph& a, const std::string& what) {
  return Failed("graph '" + a.GetName() + "': " + what);
}

std::string Join(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s + "]";
}

Status CompareOpDesc(const ComputeGraph& g, const OpDesc& a, const OpDesc& b) {
  const std::string node = "node '" + a.GetName() + "'";
  if (a.GetType() != b.GetType()) {
    return Diff(g, node + " type " + a.GetType() + " vs " + b.GetType());
  }
  if (a.GetAllInputNames() != b.GetAllInputNames()) {
    return Diff(g, node + " input names " + Join(a.GetAllInputNames()) + " vs " +
                       Join(b.GetAllInputNames()));
  }
  if (a.GetAllOutputNames() != b.GetAllOutputNames()) {
    return Diff(g, node + " output names " + Join(a.GetAllOutputNames()) + " vs " +
                       Join(b.GetAllOutputNames()));
  }
  for (uint32_t i = 0; i < a.GetAllInputsSize(); ++i) {
    if (a.GetInputDesc(i) != b.GetInputDesc(i)) {
      return Diff(g, node + " input desc " + std::to_string(i) + ": " +
                         a.GetInputDesc(i).ToString() + " vs " + b.GetInputDesc(i).ToString());
    }
  }
  for (uint32_t i = 0; i < a.GetOutputsSize(); ++i) {
    if (a.GetOutputDesc(i) != b.GetOutputDesc(i)) {
      return Diff(g, node + " output desc " + std::to_string(i) + ": " +
                         a.GetOutputDesc(i).ToString() + " vs " + b.GetOutputDesc(i).ToString());
    }
  }
  if (a.GetAttrMap() != b.GetAttrMap()) {
    return Diff(g, node + " attributes " + Join(a.GetAttrMap().GetAllNames()) + " differ from " +
                       Join(b.GetAttrMap().GetAllNames()));
  }
  if (a.GetId() != b.GetId()) {
    return Diff(g, node + " id " + std::to_string(a.GetId()) + " vs " + std::to_string(b.GetId()));
  }
  if (a != b) return Diff(g, node + " differs in IR metadata, subgraph names or compile state");
  return Status::Ok();
}

Status CompareGraphs(const ComputeGraph& a, const ComputeGraph& b) {
  if (a.GetName() != b.GetName()) return Diff(a, "name differs from '" + b.GetName() + "'");
  if (a.GetAttrMap() != b.GetAttrMap()) return Diff(a, "graph attributes differ");
  const auto na = a.GetDirectNode();
  const auto nb = b.GetDirectNode();
  if (na.size() != nb.size()) {
    return Diff(a, std::to_string(na.size()) + " nodes vs " + std::to_string(nb.size()));
  }
  for (size_t i = 0; i < na.size(); ++i) {
    if (na[i]->GetName() != nb[i]->GetName()) {
      return Diff(a, "node " + std::to_string(i) + " is '" + na[i]->GetName() + "' vs '" +
                         nb[i]->GetName() + "'");
    }
    GE_RETURN_IF_ERROR(CompareOpDesc(a, *na[i]->GetOpDescBarePtr(), *nb[i]->GetOpDescBarePtr()));
    const auto ia = na[i]->GetAllInAnchors();
    const auto ib = nb[i]->GetAllInAnchors();
    const auto oa = na[i]->GetAllOutAnchors();
    const auto ob = nb[i]->GetAllOutAnchors();
    if (ia.size() != ib.size() || oa.size() != ob.size()) {
      return Diff(a, "node '" + na[i]->GetName() + "' anchor counts differ");
    }
    for (size_t k = 0; k < ia.size(); ++k) {
      const auto pa = PeerKeys(*ia[k], /*sorted=*/true);
      const auto pb = PeerKeys(*ib[k], /*sorted=*/true);
      if (pa != pb) {
        return Diff(a,
                    "input edges of " + ia[k]->DebugString() + ": " + Join(pa) + " vs " + Join(pb));
      }
    }
    for (size_t k = 0; k < oa.size(); ++k) {
      const auto pa = PeerKeys(*oa[k], /*sorted=*/true);
      const auto pb = PeerKeys(*ob[k], /*sorted=*/true);
      if (pa != pb) {
        return Diff(
            a, "output edges of " + oa[k]->DebugString() + ": " + Join(pa) + " vs " + Join(pb));
      }
    }
  }
  std::vector<std::string> in_a, in_b;
  for (const auto& n : a.GetInputNodes()) in_a.push_back(n->GetName());
  for (const auto& n : b.GetInputNodes()) in_b.push_back(n->GetName());
  if (in_a != in_b) return Diff(a, "input nodes " + Join(in_a) + " vs " + Join(in_b));
  std::vector<std::string> out_a, out_b;
  for (const auto& [n, i] : a.GetGraphOutNodesInfo())
    out_a.push_back(n->GetName() + ":" + std::to_string(i));
  for (const auto& [n, i] : b.GetGraphOutNodesInfo())
    out_b.push_back(n->GetName() + ":" + std::to_string(i));
  if (out_a != out_b) return Diff(a, "output nodes " + Join(out_a) + " vs " + Join(out_b));
  for (const auto& node : na) {
    for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (name.empty()) continue;
      ComputeGraphPtr sa = a.GetSubgraph(name);
      ComputeGraphPtr sb = b.GetSubgraph(name);
      if ((sa == nullptr) != (sb == nullptr)) {
        return Diff(a, "subgraph '" + name + "' exists on one side only");
      }
      if (sa != nullptr) GE_RETURN_IF_ERROR(CompareGraphs(*sa, *sb));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<ComputeGraphPtr> GraphUtils::CopyComputeGraph(const ComputeGraphPtr& src) {
  if (src == nullptr) return ParamInvalid("CopyComputeGraph: null graph");
  return CopyGraph(*src, nullptr, nullptr, nullptr);
}

Status GraphUtils::CheckEqual(const ComputeGraph& a, const ComputeGraph& b) {
  GE_RETURN_IF_ERROR(CompareGraphs(a, b));
  std::vector<std::string> sa, sb;
  for (const auto& g : a.GetAllSubgraphs()) sa.push_back(g->GetName());
  for (const auto& g : b.GetAllSubgraphs()) sb.push_back(g->GetName());
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  if (sa != sb) return Diff(a, "subgraphs " + Join(sa) + " vs " + Join(sb));
  return Status::Ok();
}

}  // namespace ge
