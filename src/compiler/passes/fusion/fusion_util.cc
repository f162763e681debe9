// Helpers the fusion patterns share: traffic estimates, graph queries and the group rewrite.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_set>

#include "fusion_pattern.h"
#include "ge/compiler/graph_edit.h"
#include "ge/engine/engine_manager.h"
#include "ge/graph/anchor.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge::fusion {

bool Env::EngineSupports(const OpDescPtr& op) const {
  if (context_.engines() == nullptr) return false;
  for (const EngineInfo& engine : context_.engines()->GetEngines()) {
    std::string why;
    if (engine.store != nullptr && engine.store->CheckSupported(op, why)) return true;
  }
  return false;
}

int64_t Bytes(const GeTensorDesc& desc) {
  std::vector<int64_t> dims = desc.GetShape().GetDims();
  if (desc.GetShape().IsUnknownDimNum()) dims = {kSymbolSize};
  if (desc.GetShape().IsUnknownShape() && !desc.GetShape().IsUnknownDimNum()) {
    // A dim with an expression is sized at kSymbolSize per symbol, so that relations show: the
    // scores of attention, [batch,heads,seq,seq], outweigh its [batch,seq,hidden] operands.
    const auto symbolic = SymbolicDims(desc);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] >= 0) continue;
      const std::optional<SymExpr>& e = symbolic ? (*symbolic)[i] : std::nullopt;
      std::map<std::string, int64_t> sizes;
      if (e) {
        for (const std::string& s : e->Symbols()) sizes[s] = kSymbolSize;
      }
      dims[i] = e ? e->Evaluate(sizes).value_or(kSymbolSize) : kSymbolSize;
    }
  }
  const int64_t bytes = TensorUtils::CalcTensorMemSize(GeShape(dims), desc.GetDataType());
  return std::max<int64_t>(bytes, 0);
}

int64_t NodeTraffic(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  int64_t total = 0;
  for (const InDataAnchorPtr& in : node.GetAllInDataAnchors()) {
    if (in->GetPeerOutAnchor() != nullptr)
      total += Bytes(op.GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i)
    total += Bytes(op.GetOutputDesc(static_cast<uint32_t>(i)));
  return total;
}

int64_t GroupTraffic(const std::vector<NodePtr>& nodes) {
  int64_t total = 0;
  for (const NodePtr& n : nodes) total += NodeTraffic(*n);
  return total;
}

int64_t WeightBytes(const std::vector<NodePtr>& nodes) {
  std::unordered_set<const Node*> group;
  for (const NodePtr& n : nodes) group.insert(n.get());
  int64_t total = 0;
  for (const NodePtr& n : nodes) {
    for (const InDataAnchorPtr& in : n->GetAllInDataAnchors()) {
      const OutDataAnchorPtr peer = in->GetPeerOutAnchor();
      if (peer == nullptr) continue;
      const Node& producer = *peer->GetOwnerNodeBarePtr();
      if (group.count(&producer) != 0) continue;
      if (producer.GetType() == "Const" || producer.GetType() == "Constant") {
        total += Bytes(n->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(in->GetIdx())));
      }
    }
  }
  return total;
}

NodePtr SoleReader(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  NodePtr reader;
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const OutDataAnchorPtr out = node.GetOutDataAnchor(static_cast<int>(i));
    if (out == nullptr) continue;
    const auto peers = out->GetPeerInDataAnchors();
    if (i > 0 && !peers.empty()) return nullptr;
    if (i == 0) {
      if (peers.size() != 1) return nullptr;
      reader = peers[0]->GetOwnerNode();
    }
  }
  return reader;
}

NodePtr Producer(const Node& node, int index) {
  const InDataAnchorPtr in = node.GetInDataAnchor(index);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return nullptr;
  return in->GetPeerOutAnchor()->GetOwnerNode();
}

size_t ReaderCount(const Node& node, int index) {
  const OutDataAnchorPtr out = node.GetOutDataAnchor(index);
  return out == nullptr ? 0 : out->GetPeerInDataAnchors().size();
}

std::optional<float> ConstScalarOf(const Node& const_node) {
  if (!passes::IsConstNode(const_node)) return std::nullopt;
  auto value = OpDescUtils::GetConstValue(const_node);
  if (!value.ok() || value->GetTensorDesc().GetDataType() != DT_FLOAT ||
      value->GetSize() != sizeof(float)) {
    return std::nullopt;
  }
  float v = 0;
  std::memcpy(&v, value->GetData().data(), sizeof(float));
  return v;
}

std::optional<float> ConstScalar(const Node& node, int index) {
  const NodePtr producer = Producer(node, index);
  if (producer == nullptr) return std::nullopt;
  return ConstScalarOf(*producer);
}

std::string FormatFloat(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  return buf;
}

void RecordFusion(const OpDescPtr& op, const std::vector<NodePtr>& group,
                  const std::string& pattern) {
  std::vector<std::string> from;
  for (const NodePtr& n : group) {
    std::vector<std::string> inner;
    if (AttrUtils::GetListStr(n->GetOpDesc(), kAttrFusedFrom, inner) && !inner.empty()) {
      from.insert(from.end(), inner.begin(), inner.end());
    } else {
      from.push_back(n->GetName());
    }
  }
  AttrUtils::SetListStr(op, kAttrFusedFrom, from);
  AttrUtils::SetStr(op, kAttrFusedPattern, pattern);
}

Result<NodePtr> ReplaceGroup(ComputeGraph& graph, const std::vector<NodePtr>& group,
                             const OpDescPtr& op, const std::vector<Port>& inputs,
                             const std::vector<Port>& outputs) {
  if (group.empty()) return InternalError("ReplaceGroup: empty group");
  std::unordered_set<const Node*> in_group;
  for (const NodePtr& n : group) in_group.insert(n.get());
  // Every output of the group read outside it (or a graph output) must be one of `outputs`.
  auto mapped = [&](const Node* n, int idx) -> int {
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (outputs[k].node.get() == n && outputs[k].index == idx) return static_cast<int>(k);
    }
    return -1;
  };
  for (const NodePtr& n : group) {
    for (const OutDataAnchorPtr& out : n->GetAllOutDataAnchors()) {
      bool read_outside = false;
      for (const InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
        if (in_group.count(peer->GetOwnerNodeBarePtr()) == 0) read_outside = true;
      }
      if (read_outside && mapped(n.get(), out->GetIdx()) < 0) {
        return InternalError("output " + std::to_string(out->GetIdx()) + " of '" + n->GetName() +
                             "' is read outside the group but is not an output of the fused node");
      }
    }
  }
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    if (in_group.count(node.get()) != 0 && mapped(node.get(), index) < 0) {
      return InternalError("output " + std::to_string(index) + " of '" + node->GetName() +
                           "' is a graph output but not an output of the fused node");
    }
  }
  for (const Port& p : inputs) {
    if (p.node == nullptr || p.node->GetOutDataAnchor(p.index) == nullptr) {
      return InternalError("ReplaceGroup: an input of the fused node has no producer");
    }
  }
  if (op->GetInputsSize() != inputs.size() || op->GetOutputsSize() != outputs.size()) {
    return InternalError("ReplaceGroup: the fused op has " + std::to_string(op->GetInputsSize()) +
                         " inputs and " + std::to_string(op->GetOutputsSize()) +
                         " outputs, the group gives " + std::to_string(inputs.size()) + " and " +
                         std::to_string(outputs.size()));
  }
  GE_ASSIGN_OR_RETURN(std::vector<NodePtr> made, GraphUtils::FuseNodeKeepTopo(group, {op}));
  const NodePtr fused = made.front();
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(GraphUtils::AddEdge(inputs[i].node->GetOutDataAnchor(inputs[i].index),
                                           fused->GetInDataAnchor(static_cast<int>(i))));
  }
  for (const NodePtr& n : group) {
    for (const OutDataAnchorPtr& out : n->GetAllOutDataAnchors()) {
      const int k = mapped(n.get(), out->GetIdx());
      if (k < 0) continue;
      for (const InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
        if (in_group.count(peer->GetOwnerNodeBarePtr()) != 0) continue;
        GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(out, peer, fused->GetOutDataAnchor(k)));
      }
    }
    // Control edges from and to outside the group move to the fused node.
    for (const OutControlAnchorPtr& src : n->GetInControlAnchor()->GetPeerOutControlAnchors()) {
      if (in_group.count(src->GetOwnerNodeBarePtr()) != 0) continue;
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(src, fused->GetInControlAnchor()));
    }
    for (const InControlAnchorPtr& dst : n->GetOutControlAnchor()->GetPeerInControlAnchors()) {
      if (in_group.count(dst->GetOwnerNodeBarePtr()) != 0) continue;
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(fused->GetOutControlAnchor(), dst));
    }
  }
  std::vector<std::pair<NodePtr, int32_t>> graph_outs = graph.GetGraphOutNodesInfo();
  bool retarget = false;
  for (auto& [node, index] : graph_outs) {
    if (in_group.count(node.get()) == 0) continue;
    index = mapped(node.get(), index);
    node = fused;
    retarget = true;
  }
  if (retarget) graph.SetGraphOutNodesInfo(std::move(graph_outs));
  const ComputeGraphPtr owner = graph.shared_from_this();
  for (const NodePtr& n : group) {
    GE_RETURN_IF_ERROR(GraphUtils::IsolateNode(n, {}));
    GE_RETURN_IF_ERROR(GraphUtils::RemoveNodeWithoutRelink(owner, n));
  }
  return fused;
}

}  // namespace ge::fusion
