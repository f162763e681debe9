// GraphUtils: edge editing, splicing, isolation and control-edge moves.
#include "ge/graph/utils/graph_utils.h"

#include <algorithm>

#include "ge/graph/utils/attr_utils.h"

namespace ge {

namespace {
constexpr size_t kMaxDirectCtrlEdges = 1000;

// Links src → dst unless the edge exists or would be a self-loop.
Status LinkOnce(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src->GetOwnerNodeBarePtr() == dst->GetOwnerNodeBarePtr() || src->IsLinkedWith(dst)) {
    return Status::Ok();
  }
  return Anchor::Link(src, dst);
}

Status NeedNode(const NodePtr& node, const char* what) {
  if (node == nullptr) return ParamInvalid(std::string(what) + ": the node is null");
  return Status::Ok();
}
}  // namespace

Status GraphUtils::AddEdge(const AnchorPtr& src, const AnchorPtr& dst) {
  return Anchor::Link(src, dst);
}
Status GraphUtils::AddEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst) {
  return Anchor::Link(src, dst);
}
Status GraphUtils::AddEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst) {
  return Anchor::Link(src, dst);
}
Status GraphUtils::AddEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst) {
  return Anchor::Link(src, dst);
}

Status GraphUtils::RemoveEdge(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("RemoveEdge: null anchor");
  return src->Unlink(dst);
}

Status GraphUtils::ReplaceEdgeSrc(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                                  const OutDataAnchorPtr& new_src) {
  if (src == nullptr || dst == nullptr || new_src == nullptr) {
    return ParamInvalid("ReplaceEdgeSrc: null anchor");
  }
  return dst->ReplacePeer(src, new_src);
}

Status GraphUtils::ReplaceEdgeSrc(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst,
                                  const OutControlAnchorPtr& new_src) {
  if (src == nullptr || dst == nullptr || new_src == nullptr) {
    return ParamInvalid("ReplaceEdgeSrc: null anchor");
  }
  return dst->ReplacePeer(src, new_src);
}

Status GraphUtils::ReplaceEdgeDst(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                                  const InDataAnchorPtr& new_dst) {
  if (src == nullptr || dst == nullptr || new_dst == nullptr) {
    return ParamInvalid("ReplaceEdgeDst: null anchor");
  }
  return src->ReplacePeer(dst, new_dst);
}

Status GraphUtils::ReplaceEdgeDst(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst,
                                  const InControlAnchorPtr& new_dst) {
  if (src == nullptr || dst == nullptr || new_dst == nullptr) {
    return ParamInvalid("ReplaceEdgeDst: null anchor");
  }
  return src->ReplacePeer(dst, new_dst);
}

Status GraphUtils::InsertNodeBetweenDataAnchors(const OutDataAnchorPtr& src,
                                                const InDataAnchorPtr& dst, const NodePtr& new_node,
                                                int new_in, int new_out) {
  GE_RETURN_IF_ERROR(NeedNode(new_node, "InsertNodeBetweenDataAnchors"));
  auto in = new_node->GetInDataAnchor(new_in);
  auto out = new_node->GetOutDataAnchor(new_out);
  if (src == nullptr || dst == nullptr || in == nullptr || out == nullptr) {
    return ParamInvalid("cannot insert node '" + new_node->GetName() +
                        "': an anchor is missing (input " + std::to_string(new_in) + ", output " +
                        std::to_string(new_out) + ")");
  }
  return src->Insert(dst, in, out);
}

Status GraphUtils::InsertNodeAfter(const OutDataAnchorPtr& src, const NodePtr& new_node, int new_in,
                                   int new_out) {
  GE_RETURN_IF_ERROR(NeedNode(new_node, "InsertNodeAfter"));
  auto in = new_node->GetInDataAnchor(new_in);
  auto out = new_node->GetOutDataAnchor(new_out);
  if (src == nullptr || in == nullptr || out == nullptr) {
    return ParamInvalid("cannot insert node '" + new_node->GetName() + "': an anchor is missing");
  }
  if (in->GetPeerAnchorsSize() != 0) {
    return ParamInvalid("cannot insert node '" + new_node->GetName() + "': its input " +
                        in->DebugString() + " is already linked");
  }
  for (const auto& consumer : src->GetPeerInDataAnchors()) {
    GE_RETURN_IF_ERROR(consumer->ReplacePeer(src, out));
  }
  return Anchor::Link(src, in);
}

Status GraphUtils::InsertNodeBefore(const InDataAnchorPtr& dst, const NodePtr& new_node, int new_in,
                                    int new_out) {
  GE_RETURN_IF_ERROR(NeedNode(new_node, "InsertNodeBefore"));
  if (dst == nullptr) return ParamInvalid("InsertNodeBefore: null anchor");
  auto producer = dst->GetPeerOutAnchor();
  if (producer != nullptr) {
    return InsertNodeBetweenDataAnchors(producer, dst, new_node, new_in, new_out);
  }
  auto out = new_node->GetOutDataAnchor(new_out);
  if (out == nullptr) {
    return ParamInvalid("node '" + new_node->GetName() + "' has no output " +
                        std::to_string(new_out));
  }
  return Anchor::Link(out, dst);
}

namespace {

/// Removes the repeats of `items`, keeping the first of each where it is.
template <typename T>
void DropRepeats(std::vector<T>& items) {
  std::vector<T> kept;
  for (const T& item : items) {
    if (std::find(kept.begin(), kept.end(), item) == kept.end()) kept.push_back(item);
  }
  items = std::move(kept);
}

/// True when a data input of `consumer` is fed by `producer`.
bool ReadsFrom(const Node& consumer, const Node* producer) {
  for (const auto& in : consumer.GetAllInDataAnchors()) {
    const auto peer = in->GetPeerOutAnchor();
    if (peer != nullptr && peer->GetOwnerNode().get() == producer) return true;
  }
  return false;
}

}  // namespace

Status GraphUtils::IsolateNode(const NodePtr& node, const std::vector<int>& io_map) {
  GE_RETURN_IF_ERROR(NeedNode(node, "IsolateNode"));
  // Who must still come before, and after, once the node is gone.
  std::vector<AnchorPtr> sources;  // control sources: control preds and data producers
  for (const auto& pred : node->GetInControlAnchor()->GetPeerAnchors()) sources.push_back(pred);
  for (const auto& in : node->GetAllInDataAnchors()) {
    if (auto producer = in->GetPeerOutAnchor()) {
      sources.push_back(producer->GetOwnerNode()->GetOutControlAnchor());
    }
  }
  std::vector<NodePtr> targets = node->GetOutNodes();
  // Data: output i is relinked to the producer of input io_map[i].
  for (const auto& out : node->GetAllOutDataAnchors()) {
    const auto i = static_cast<size_t>(out->GetIdx());
    OutDataAnchorPtr producer;
    if (i < io_map.size() && io_map[i] >= 0) {
      auto in = node->GetInDataAnchor(io_map[i]);
      if (in == nullptr) {
        return ParamInvalid("IsolateNode '" + node->GetName() + "': io_map[" + std::to_string(i) +
                            "] = " + std::to_string(io_map[i]) + " is not an input");
      }
      producer = in->GetPeerOutAnchor();
    }
    for (const auto& peer : out->GetPeerAnchors()) {
      if (producer != nullptr && peer->GetKind() == Anchor::Kind::kInData) {
        GE_RETURN_IF_ERROR(peer->ReplacePeer(out, producer));
      } else if (producer != nullptr) {
        GE_RETURN_IF_ERROR(out->Unlink(peer));
        GE_RETURN_IF_ERROR(LinkOnce(producer, peer));
      } else {
        GE_RETURN_IF_ERROR(out->Unlink(peer));
      }
    }
  }
  // Control: sources → targets, through one NoOp when there would be too many edges.
  // Each once, in the order first seen (an address order would differ from run to run).
  DropRepeats(sources);
  DropRepeats(targets);
  targets.erase(std::remove(targets.begin(), targets.end(), node), targets.end());
  if (!sources.empty() && !targets.empty()) {
    if (sources.size() * targets.size() > kMaxDirectCtrlEdges) {
      ComputeGraphPtr graph = node->GetOwnerComputeGraph();
      if (graph == nullptr) return ParamInvalid("IsolateNode '" + node->GetName() + "': no graph");
      auto relay_desc = std::make_shared<OpDesc>(node->GetName() + "_ctrl_relay", "NoOp");
      GE_ASSIGN_OR_RETURN(NodePtr relay, graph->InsertNode(node, relay_desc));
      for (const auto& src : sources)
        GE_RETURN_IF_ERROR(LinkOnce(src, relay->GetInControlAnchor()));
      for (const auto& dst : targets) {
        GE_RETURN_IF_ERROR(LinkOnce(relay->GetOutControlAnchor(), dst->GetInControlAnchor()));
      }
    } else {
      for (const auto& src : sources) {
        for (const auto& dst : targets) {
          // A data edge from the same node already orders the pair.
          if (ReadsFrom(*dst, src->GetOwnerNode().get())) continue;
          GE_RETURN_IF_ERROR(LinkOnce(src, dst->GetInControlAnchor()));
        }
      }
    }
  }
  for (const auto& anchor : node->GetAllInAnchors()) anchor->UnlinkAll();
  for (const auto& anchor : node->GetAllOutAnchors()) anchor->UnlinkAll();
  return Status::Ok();
}

Status GraphUtils::RemoveNodeWithoutRelink(const ComputeGraphPtr& graph, const NodePtr& node) {
  GE_RETURN_IF_ERROR(NeedNode(node, "RemoveNodeWithoutRelink"));
  if (graph == nullptr) return ParamInvalid("RemoveNodeWithoutRelink: null graph");
  if (!graph->HasNode(node.get())) {
    return ParamInvalid("graph '" + graph->GetName() + "' has no node '" + node->GetName() + "'");
  }
  for (const auto& anchor : node->GetAllInAnchors()) anchor->UnlinkAll();
  for (const auto& anchor : node->GetAllOutAnchors()) anchor->UnlinkAll();
  graph->RemoveInputNode(node);
  graph->RemoveOutputNode(node);
  return graph->RemoveJustNode(node);
}

Status GraphUtils::RemoveJustNode(const ComputeGraphPtr& graph, const NodePtr& node) {
  if (graph == nullptr) return ParamInvalid("RemoveJustNode: null graph");
  return graph->RemoveJustNode(node);
}

Status GraphUtils::CopyInCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  GE_RETURN_IF_ERROR(NeedNode(src, "CopyInCtrlEdges"));
  GE_RETURN_IF_ERROR(NeedNode(dst, "CopyInCtrlEdges"));
  for (const auto& peer : src->GetInControlAnchor()->GetPeerAnchors()) {
    GE_RETURN_IF_ERROR(LinkOnce(peer, dst->GetInControlAnchor()));
  }
  return Status::Ok();
}

Status GraphUtils::MoveInCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  GE_RETURN_IF_ERROR(CopyInCtrlEdges(src, dst));
  src->GetInControlAnchor()->UnlinkAll();
  return Status::Ok();
}

Status GraphUtils::CopyOutCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  GE_RETURN_IF_ERROR(NeedNode(src, "CopyOutCtrlEdges"));
  GE_RETURN_IF_ERROR(NeedNode(dst, "CopyOutCtrlEdges"));
  for (const auto& peer : src->GetOutControlAnchor()->GetPeerAnchors()) {
    if (peer->GetKind() == Anchor::Kind::kInData) {
      return ParamInvalid("cannot copy control edge " + src->GetName() + " -> " +
                          peer->DebugString() + ": a data input takes only one producer");
    }
    GE_RETURN_IF_ERROR(LinkOnce(dst->GetOutControlAnchor(), peer));
  }
  return Status::Ok();
}

Status GraphUtils::MoveOutCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  GE_RETURN_IF_ERROR(NeedNode(src, "MoveOutCtrlEdges"));
  GE_RETURN_IF_ERROR(NeedNode(dst, "MoveOutCtrlEdges"));
  for (const auto& peer : src->GetOutControlAnchor()->GetPeerAnchors()) {
    GE_RETURN_IF_ERROR(src->GetOutControlAnchor()->Unlink(peer));
    GE_RETURN_IF_ERROR(LinkOnce(dst->GetOutControlAnchor(), peer));
  }
  return Status::Ok();
}

Result<std::vector<NodePtr>> GraphUtils::FuseNodeKeepTopo(const std::vector<NodePtr>& originals,
                                                          const std::vector<OpDescPtr>& fused_ops) {
  if (originals.empty()) return ParamInvalid("FuseNodeKeepTopo: no original nodes");
  static const char* const kInherited[] = {"_user_stream_label",  "_op_aicore_num",
                                           "_op_vectorcore_num",  "_deterministic",
                                           "_super_kernel_scope", "_super_kernel_options"};
  NodePtr first = originals.front();
  for (const auto& node : originals) {
    GE_RETURN_IF_ERROR(NeedNode(node, "FuseNodeKeepTopo"));
    if (node->GetOwnerComputeGraphBarePtr() != first->GetOwnerComputeGraphBarePtr()) {
      return ParamInvalid("FuseNodeKeepTopo: nodes '" + first->GetName() + "' and '" +
                          node->GetName() + "' are in different graphs");
    }
    if (node->GetOpDescBarePtr()->GetId() < first->GetOpDescBarePtr()->GetId()) first = node;
  }
  for (const char* attr : kInherited) {
    const AttrValue* seen = nullptr;
    const Node* seen_on = nullptr;
    for (const auto& node : originals) {
      const AttrValue* value = node->GetOpDescBarePtr()->GetAttrMap().Get(attr);
      if (value == nullptr) continue;
      if (seen != nullptr && *seen != *value) {
        return ParamInvalid("cannot fuse nodes '" + seen_on->GetName() + "' and '" +
                            node->GetName() + "': they disagree on attribute " + attr);
      }
      seen = value;
      seen_on = node.get();
    }
    if (seen == nullptr) continue;
    for (const auto& op : fused_ops) {
      if (op != nullptr) op->MutableAttrMap().Set(attr, *seen);
    }
  }
  ComputeGraphPtr graph = first->GetOwnerComputeGraph();
  if (graph == nullptr) return ParamInvalid("FuseNodeKeepTopo: node is not in a graph");
  return graph->InsertNodes(first, fused_ops);
}

}  // namespace ge
