// Saving: ComputeGraph hierarchies -> GraphDefs. Edges become OpDef.input strings: data inputs
// in index order as "src:idx" ("" when unlinked), then control inputs as "src:-1".
#include "graph_serialize.h"

#include <unordered_map>

#include "attr_serialize.h"
#include "op_serialize.h"
#include "reserved_attrs.h"

namespace ge::serialize {

namespace {

std::string PortRef(const Node& node, int index) {
  return node.GetName() + ":" + std::to_string(index);
}

/// The producer of `peer`, which must be a node of `graph`.
Result<const Node*> PeerOwner(const ComputeGraph& graph, const Anchor& peer, const char* field) {
  const Node* owner = peer.GetOwnerNodeBarePtr();
  if (owner == nullptr || owner->GetOwnerComputeGraphBarePtr() != &graph) {
    return ParamInvalid(std::string(field) + ": the edge from " + peer.DebugString() +
                        " comes from outside the graph; an edge must join two nodes of one graph");
  }
  return owner;
}

Status SaveInputs(const ComputeGraph& graph, const Node& node, proto::OpDef& out) {
  std::vector<std::string> data_from_ctrl;
  std::vector<int64_t> data_from_ctrl_index;
  out.mutable_input()->Reserve(static_cast<int>(node.GetAllInDataAnchorsSize()));
  for (const auto& in : node.GetAllInDataAnchors()) {
    const std::string field = "input[" + std::to_string(in->GetIdx()) + "]";
    std::string ref;
    for (Anchor* peer : in->GetPeerAnchorsPtr()) {
      GE_ASSIGN_OR_RETURN(const Node* src, PeerOwner(graph, *peer, field.c_str()));
      if (peer->IsDataAnchor()) {
        ref = PortRef(*src, peer->GetIdx());
      } else {
        data_from_ctrl.push_back(src->GetName());
        data_from_ctrl_index.push_back(in->GetIdx());
      }
    }
    out.add_input(std::move(ref));
  }
  std::vector<std::string> ctrl_from_data;
  for (Anchor* peer : node.GetInControlAnchor()->GetPeerAnchorsPtr()) {
    GE_ASSIGN_OR_RETURN(const Node* src, PeerOwner(graph, *peer, "control input"));
    if (peer->IsControlAnchor()) {
      out.add_input(PortRef(*src, Anchor::kControlIdx));
    } else {
      ctrl_from_data.push_back(PortRef(*src, peer->GetIdx()));
    }
  }
  AttrMap& attrs = *out.mutable_attr();
  if (!ctrl_from_data.empty()) PutListString(attrs, kAttrCtrlInFromData, ctrl_from_data);
  if (!data_from_ctrl.empty()) {
    PutListString(attrs, kAttrDataInFromCtrl, data_from_ctrl);
    PutListInt(attrs, kAttrDataInFromCtrlIndex, data_from_ctrl_index);
  }
  return Status::Ok();
}

Status SaveIo(const ComputeGraph& graph, proto::GraphDef& out) {
  for (const auto& input : graph.GetInputNodes()) {
    if (input == nullptr || input->GetOwnerComputeGraphBarePtr() != &graph) {
      return ParamInvalid("input: an input node is not a node of the graph");
    }
    out.add_input(PortRef(*input, 0));
  }
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    if (node == nullptr || node->GetOwnerComputeGraphBarePtr() != &graph) {
      return ParamInvalid("output: an output node is not a node of the graph");
    }
    if (index < 0 || static_cast<size_t>(index) >= node->GetAllOutDataAnchorsSize()) {
      return ParamInvalid("output " + Quote(PortRef(*node, index)) + ": node " +
                          Quote(node->GetName()) + " has " +
                          std::to_string(node->GetAllOutDataAnchorsSize()) + " outputs");
    }
    out.add_output(PortRef(*node, index));
  }
  return Status::Ok();
}

Status SaveGraph(const ComputeGraph& graph, const std::string& key, proto::GraphDef& out,
                 SaveContext& ctx) {
  GE_RETURN_IF_ERROR(CheckUtf8(key, "name"));
  GE_RETURN_IF_ERROR(CheckUtf8(graph.GetName(), "name"));
  out.set_name(key);
  AttrMap& attrs = *out.mutable_attr();
  if (ctx.options.with_attributes) {
    GE_RETURN_IF_ERROR(SaveAttrs(graph.GetAttrMap(), attrs, HolderKind::kGraph, ctx));
  }
  if (graph.GetName() != key) PutString(attrs, kAttrGraphName, graph.GetName());
  if (graph.IsTrainingGraph()) PutBool(attrs, kAttrTrainingGraph, true);
  GE_RETURN_IF_ERROR(SaveIo(graph, out));
  const std::vector<NodePtr> nodes = graph.GetDirectNode();
  out.mutable_op()->Reserve(static_cast<int>(nodes.size()));
  for (const auto& node : nodes) {
    proto::OpDef& op = *out.add_op();
    Status status = SaveOpDesc(*node->GetOpDescBarePtr(), op, ctx);
    if (status.ok()) status = SaveInputs(graph, *node, op);
    if (!status.ok()) {
      return std::move(status).Prefix("node " + Quote(node->GetName()) + " (" +
                                      Sanitize(node->GetType()) + ")");
    }
  }
  return Status::Ok();
}

struct SubgraphRef {
  std::string key;     // the instance name its parent node uses
  const Node* parent;  // that node
};

/// Every subgraph reachable from `graph` through instance names, keyed by graph.
Result<std::unordered_map<const ComputeGraph*, SubgraphRef>> FindSubgraphs(
    const ComputeGraph& graph) {
  std::unordered_map<const ComputeGraph*, SubgraphRef> found;
  std::vector<const ComputeGraph*> queue = {&graph};
  for (size_t q = 0; q < queue.size(); ++q) {
    const ComputeGraph& current = *queue[q];
    for (const auto& node : current.GetDirectNode()) {
      for (const auto& name : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (name.empty()) continue;
        const std::string where = NodeWhere(current.GetName(), node->GetName(), node->GetType()) +
                                  ", subgraph_name " + Quote(name);
        ComputeGraphPtr sub = current.GetSubgraph(name);
        if (sub == nullptr) {
          return ParamInvalid(where + ": no subgraph of that name is registered on the root graph");
        }
        if (sub.get() == &graph) {
          return ParamInvalid(where + ": names the graph being saved, which would be a cycle");
        }
        auto [it, inserted] = found.emplace(sub.get(), SubgraphRef{name, node.get()});
        if (inserted) {
          queue.push_back(sub.get());
        } else if (it->second.parent != node.get() || it->second.key != name) {
          return ParamInvalid(where + ": the subgraph is already used by node " +
                              Quote(it->second.parent->GetName()) +
                              "; a subgraph has exactly one parent node");
        }
      }
    }
  }
  return found;
}

}  // namespace

Status SaveGraphTree(const ComputeGraph& graph, const GraphDefSink& next, SaveContext& ctx) {
  GE_ASSIGN_OR_RETURN(auto subgraphs, FindSubgraphs(graph));
  {
    Status status = SaveGraph(graph, graph.GetName(), *next(), ctx);
    if (!status.ok()) return std::move(status).Prefix(GraphWhere(graph.GetName()));
  }
  // The root's registration order, so that loading registers them in the same order.
  for (const auto& sub : graph.GetAllSubgraphs()) {
    auto it = subgraphs.find(sub.get());
    if (it == subgraphs.end()) continue;
    Status status = SaveGraph(*sub, it->second.key, *next(), ctx);
    if (!status.ok()) return std::move(status).Prefix(GraphWhere(sub->GetName()));
  }
  return Status::Ok();
}

}  // namespace ge::serialize
