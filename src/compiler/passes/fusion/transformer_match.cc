// Structural matching helpers of the transformer patterns (see transformer_match.h).
#include "transformer_match.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "ge/compiler/graph_edit.h"
#include "ge/graph/anchor.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "ge/ops/op_registry.h"

namespace ge::fusion {

std::optional<Port> InputPort(const Node& node, int index) {
  const InDataAnchorPtr in = node.GetInDataAnchor(index);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return std::nullopt;
  return Port{in->GetPeerOutAnchor()->GetOwnerNode(), in->GetPeerOutAnchor()->GetIdx()};
}

bool SamePort(const Port& a, const Port& b) { return a.node == b.node && a.index == b.index; }

bool IsAnyOf(const Node& node, std::initializer_list<const char*> types) {
  return std::any_of(types.begin(), types.end(),
                     [&](const char* t) { return node.GetType() == t; });
}

int InputFedBy(const Node& node, const Node& from) {
  for (int i = 0; i < 2; ++i) {
    const std::optional<Port> p = InputPort(node, i);
    if (p && p->node.get() == &from && p->index == 0) return i;
  }
  return -1;
}

bool IsConstNear(const Node& node, int index, double want) {
  const std::optional<float> v = ConstScalar(node, index);
  return v && std::fabs(static_cast<double>(*v) - want) <= 1e-4 * std::fabs(want);
}

std::optional<ScalarOperand> ScalarOperandOf(const Node& node) {
  for (int i = 0; i < 2; ++i) {
    const std::optional<float> v = ConstScalar(node, i);
    if (v && InputPort(node, 1 - i)) return ScalarOperand{1 - i, *v};
  }
  return std::nullopt;
}

namespace {

std::optional<std::vector<int64_t>> ConstInts(const Node& const_node) {
  if (!passes::IsConstNode(const_node)) return std::nullopt;
  auto value = OpDescUtils::GetConstValue(const_node);
  if (!value.ok()) return std::nullopt;
  const DataType dtype = value->GetTensorDesc().GetDataType();
  const auto data = value->GetData();
  std::vector<int64_t> out;
  if (dtype == DT_INT64) {
    out.resize(data.size() / sizeof(int64_t));
    if (!out.empty()) std::memcpy(out.data(), data.data(), out.size() * sizeof(int64_t));
  } else if (dtype == DT_INT32) {
    std::vector<int32_t> v(data.size() / sizeof(int32_t));
    if (!v.empty()) std::memcpy(v.data(), data.data(), v.size() * sizeof(int32_t));
    out.assign(v.begin(), v.end());
  } else {
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<int64_t> TrailingReduceAxis(const Node& reduce) {
  const OpDesc& op = *reduce.GetOpDescBarePtr();
  int64_t keepdims = 1;
  AttrUtils::GetInt(op, "keepdims", keepdims);
  if (keepdims == 0) return std::nullopt;
  std::vector<int64_t> axes;
  if (const NodePtr axes_node = Producer(reduce, 1); axes_node != nullptr) {
    std::optional<std::vector<int64_t>> v = ConstInts(*axes_node);
    if (!v) return std::nullopt;
    axes = *v;
  } else {
    AttrUtils::GetListInt(op, "axes", axes);
  }
  const GeShape& in = op.GetInputDesc(0).GetShape();
  if (axes.empty() || in.IsUnknownDimNum()) return std::nullopt;
  const auto rank = static_cast<int64_t>(in.GetDimNum());
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] != rank - static_cast<int64_t>(axes.size()) + static_cast<int64_t>(i))
      return std::nullopt;
  }
  return axes.front();
}

const GeTensorDesc& PortDesc(const Port& port) {
  return port.node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(port.index));
}

std::optional<std::vector<int64_t>> KnownDims(const GeTensorDesc& desc) {
  const GeShape& s = desc.GetShape();
  if (s.IsUnknownDimNum()) return std::nullopt;
  for (int64_t d : s.GetDims()) {
    if (d < 0) return std::nullopt;
  }
  return s.GetDims();
}

int64_t RankOf(const GeTensorDesc& desc) {
  const GeShape& s = desc.GetShape();
  return s.IsUnknownDimNum() ? -1 : static_cast<int64_t>(s.GetDimNum());
}

std::optional<std::vector<int64_t>> TrailingDims(const GeTensorDesc& desc, int64_t axis) {
  const int64_t rank = RankOf(desc);
  if (rank < 0 || axis < 0 || axis > rank) return std::nullopt;
  const auto& d = desc.GetShape().GetDims();
  std::vector<int64_t> out(d.begin() + axis, d.end());
  for (int64_t v : out) {
    if (v < 0) return std::nullopt;
  }
  return out;
}

bool ClosedGroup(const std::vector<NodePtr>& group, const NodePtr& last) {
  std::unordered_set<const Node*> in_group;
  for (const NodePtr& n : group) in_group.insert(n.get());
  for (const NodePtr& n : group) {
    if (passes::IsGraphBoundary(*n)) return false;
    const OpDesc& op = *n->GetOpDescBarePtr();
    if (op.GetOutputsSize() == 0 || op.GetOutputDesc(0).GetDataType() != DT_FLOAT) return false;
    for (const OutDataAnchorPtr& out : n->GetAllOutDataAnchors()) {
      for (const InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
        const bool inside = in_group.count(peer->GetOwnerNodeBarePtr()) != 0;
        if (n == last ? (out->GetIdx() != 0 || inside) : !inside) return false;
      }
    }
  }
  return true;
}

std::vector<std::optional<Port>> Resolve(const Uses& uses) {
  std::vector<std::optional<Port>> out;
  for (const std::optional<Use>& u : uses)
    out.push_back(u ? InputPort(*u->reader, u->index) : std::nullopt);
  return out;
}

OpDescPtr MakeFusedOp(ComputeGraph& graph, Env& env, const std::string& type, const NodePtr& last,
                      const Uses& uses) {
  const std::vector<std::optional<Port>> inputs = Resolve(uses);
  auto op = env.context().registry().CreateOpDesc(
      type, passes::UniqueNodeName(graph, last->GetName() + "_" + type));
  if (!op.ok()) return nullptr;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] && !(*op)->UpdateInputDesc(static_cast<uint32_t>(i), PortDesc(*inputs[i])).ok())
      return nullptr;
  }
  if (!(*op)->UpdateOutputDesc(0, last->GetOpDescBarePtr()->GetOutputDesc(0)).ok()) return nullptr;
  return *op;
}

int64_t FusedTraffic(const Uses& uses, const NodePtr& last) {
  const std::vector<std::optional<Port>> inputs = Resolve(uses);
  int64_t total = Bytes(last->GetOpDescBarePtr()->GetOutputDesc(0));
  for (const std::optional<Port>& p : inputs) {
    if (p) total += Bytes(PortDesc(*p));
  }
  return total;
}

Status ReplaceWithFused(ComputeGraph& graph, const std::vector<NodePtr>& group, const NodePtr& last,
                        const OpDescPtr& op, const std::vector<std::optional<Port>>& inputs,
                        const std::string& pattern) {
  std::vector<Port> in;
  for (const std::optional<Port>& p : inputs) {
    if (p) in.push_back(*p);
  }
  // Output 0 stands for `last`; the op's other outputs (statistics) have no reader.
  std::vector<Port> out(op->GetOutputsSize());
  out[0] = Port{last, 0};
  RecordFusion(op, group, pattern);
  GE_ASSIGN_OR_RETURN(NodePtr fused, ReplaceGroup(graph, group, op, in, out));
  (void)fused;
  return Status::Ok();
}

}  // namespace ge::fusion
