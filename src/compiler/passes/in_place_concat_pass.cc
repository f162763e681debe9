// InPlaceConcat: concatenations whose pieces can live inside one buffer become GE's PhonyConcat,
// and splits whose pieces can be read where they lie become PhonySplit. The producers of a
// PhonyConcat write their outputs straight into the concatenated buffer, the readers of a
// PhonySplit read theirs out of its input, and neither node runs a task: GE Local records each
// piece's offset (CalcOpRunningParam) and the memory planner lays the pieces out back to back.
//
// A ConcatV2 becomes a PhonyConcat when
//  - every shape is static and every dim before the axis is 1, so that the pieces are
//    contiguous slices of the output, each a multiple of 64 bytes (offsets stay aligned);
//  - each input is the output of an ordinary compute node of this graph: not a graph input, a
//    weight, a view of another tensor or a node with subgraphs; not read by the graph's output,
//    and given to this concat once;
//  - its output is not a graph output;
//  - the places agree with the concats and splits converted before it. DenseNet gives every
//    feature of a block to each later layer's concat; laid out once, in block order, each of
//    those concats is a prefix of the last. Offsets are tracked as a union-find over tensors
//    ("a sits d bytes into b"), and a conversion that would contradict it, or put two distinct
//    pieces on the same bytes, is left as a copy.
// A Split into equal parts becomes a PhonySplit under the same conditions, read from its input's
// side: a static input with every dim before the axis 1, not a graph input or weight, and
// outputs that are not graph outputs (ShuffleNet's channel split).
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "ge/compiler/graph_edit.h"
#include "ge/compiler/passes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/tensor_utils.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

constexpr int64_t kPieceAlignment = 64;

/// Producers whose output is not memory of their own, or is pinned: graph inputs, weights,
/// views that reuse their input, pass-throughs, nodes with subgraphs.
bool IsOrdinaryProducer(const Node& node) {
  const std::string& type = node.GetType();
  if (IsInputOrWeightType(type)) return false;
  const OpTraits traits = OpRegistry::Instance().TraitsOf(type);
  return traits.view_of_input < 0 && !traits.pass_through &&
         node.GetOpDescBarePtr()->GetSubgraphInstanceNames().empty();
}

bool IsStatic(const GeTensorDesc& desc) {
  return !desc.GetShape().IsUnknownShape() && !desc.GetShape().IsUnknownDimNum();
}

/// The axis normalized for `rank` when every dim before it is 1, else -1.
int64_t ContiguousAxis(int64_t axis, const GeTensorDesc& whole) {
  const std::vector<int64_t> dims = whole.GetShape().GetDims();
  const auto rank = static_cast<int64_t>(dims.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return -1;
  for (int64_t d = 0; d < axis; ++d) {
    if (dims[static_cast<size_t>(d)] != 1) return -1;
  }
  return axis;
}

/// Tensors (output anchors) and where they sit relative to each other: a union-find whose
/// edges carry byte offsets, as the memory planner's alias groups do.
class Placement {
 public:
  struct Tensor {
    int parent;
    int64_t delta;  // offset above the parent
    int64_t bytes;
    bool piece;  // a producer's own output, not a PhonyConcat's output or a PhonySplit's input
  };

  int Id(const OutDataAnchor* anchor, int64_t bytes) {
    auto [it, fresh] = ids_.emplace(anchor, static_cast<int>(tensors_.size()));
    if (fresh) tensors_.push_back({it->second, 0, bytes, true});
    return it->second;
  }
  void MarkWhole(int id) { tensors_[static_cast<size_t>(id)].piece = false; }

  std::pair<int, int64_t> Find(int x) const {
    int64_t offset = 0;
    while (tensors_[static_cast<size_t>(x)].parent != x) {
      offset += tensors_[static_cast<size_t>(x)].delta;
      x = tensors_[static_cast<size_t>(x)].parent;
    }
    return {x, offset};
  }

  /// Records offset(a) = offset(b) + d; false (changing nothing) when that contradicts what
  /// is known.
  bool Unite(int a, int b, int64_t d) {
    auto [ra, da] = Find(a);
    auto [rb, db] = Find(b);
    if (ra == rb) return da == db + d;
    tensors_[static_cast<size_t>(ra)].parent = rb;
    tensors_[static_cast<size_t>(ra)].delta = db + d - da;
    return true;
  }

  /// True when no two pieces of one group share a byte.
  bool PiecesDisjoint() const {
    std::map<int, std::vector<std::pair<int64_t, int64_t>>> groups;
    for (size_t i = 0; i < tensors_.size(); ++i) {
      if (!tensors_[i].piece) continue;
      auto [root, offset] = Find(static_cast<int>(i));
      groups[root].emplace_back(offset, offset + tensors_[i].bytes);
    }
    for (auto& [root, ranges] : groups) {
      std::sort(ranges.begin(), ranges.end());
      for (size_t i = 1; i < ranges.size(); ++i) {
        if (ranges[i].first < ranges[i - 1].second) return false;
      }
    }
    return true;
  }

 private:
  std::unordered_map<const OutDataAnchor*, int> ids_;
  std::vector<Tensor> tensors_;
};

int64_t Bytes(const GeTensorDesc& desc) { return TensorUtils::CalcTensorMemSize(desc); }

class InPlaceConcatPass final : public GraphPass {
 public:
  std::string_view Name() const override { return "InPlaceConcat"; }

 private:
  Result<bool> RunImpl(ComputeGraph& graph) override {
    std::set<const Node*> read_by_output;
    for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
      (void)index;
      read_by_output.insert(node.get());
    }
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetType() != "NetOutput") continue;
      for (const NodePtr& in : node->GetInDataNodes()) read_by_output.insert(in.get());
    }
    Placement placement;
    bool changed = false;
    for (const NodePtr& node : graph.GetDirectNode()) {  // a copy: nodes are replaced on the way
      if (node->GetType() == "ConcatV2") {
        GE_ASSIGN_OR_RETURN(bool done, TryConcat(graph, node, placement, read_by_output));
        changed = changed || done;
      } else if (node->GetType() == "Split") {
        GE_ASSIGN_OR_RETURN(bool done, TrySplit(graph, node, placement, read_by_output));
        changed = changed || done;
      }
    }
    // The new nodes were appended: later stages walk the node list in topological order.
    if (changed) GE_RETURN_IF_ERROR(graph.TopologicalSorting());
    return changed;
  }

  Result<bool> TryConcat(ComputeGraph& graph, const NodePtr& node, Placement& placement,
                         const std::set<const Node*>& read_by_output) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    const GeTensorDesc& y = op.GetOutputDesc(0);
    int64_t axis = 0;
    if (read_by_output.count(node.get()) != 0 || !IsStatic(y) || op.GetAllInputsSize() < 2 ||
        !AttrUtils::GetInt(op, "axis", axis) || (axis = ContiguousAxis(axis, y)) < 0) {
      return false;
    }
    std::set<const OutDataAnchor*> seen;
    std::vector<std::pair<const OutDataAnchor*, int64_t>> pieces;
    for (const InDataAnchorPtr& in : node->GetAllInDataAnchors()) {
      const OutDataAnchor* peer = in->GetPeerOutAnchor().get();
      if (peer == nullptr) return false;
      const Node& producer = *peer->GetOwnerNodeBarePtr();
      const GeTensorDesc& d = op.GetInputDesc(static_cast<uint32_t>(in->GetIdx()));
      const int64_t bytes = Bytes(d);
      if (!IsOrdinaryProducer(producer) || read_by_output.count(&producer) != 0 || !IsStatic(d) ||
          bytes <= 0 || bytes % kPieceAlignment != 0 || !seen.insert(peer).second) {
        return false;
      }
      pieces.emplace_back(peer, bytes);
    }
    Placement trial = placement;
    const int whole = trial.Id(node->GetOutDataAnchor(0).get(), Bytes(y));
    trial.MarkWhole(whole);
    int64_t offset = 0;
    for (const auto& [peer, bytes] : pieces) {
      if (!trial.Unite(trial.Id(peer, bytes), whole, offset)) {
        context().Count("left as a copy: a piece is placed elsewhere already");
        return false;
      }
      offset += bytes;
    }
    if (!trial.PiecesDisjoint()) {
      context().Count("left as a copy: pieces would share bytes");
      return false;
    }
    GE_ASSIGN_OR_RETURN(
        OpDescPtr phony,
        context().registry().CreateOpDesc("PhonyConcat", node->GetName(),
                                          {{"x", static_cast<uint32_t>(op.GetAllInputsSize())}}));
    for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
      GE_RETURN_IF_ERROR(phony->UpdateInputDesc(static_cast<uint32_t>(i),
                                                op.GetInputDesc(static_cast<uint32_t>(i))));
    }
    GE_RETURN_IF_ERROR(phony->UpdateOutputDesc(0, y));
    AttrUtils::SetListInt(phony, "concat_dim", std::vector<int64_t>{axis});
    AttrUtils::SetListInt(phony, "N", std::vector<int64_t>{static_cast<int64_t>(pieces.size())});
    GE_RETURN_IF_ERROR(Swap(graph, node, phony));
    placement = std::move(trial);
    context().CountRewrite();
    context().Count("PhonyConcat");
    return true;
  }

  Result<bool> TrySplit(ComputeGraph& graph, const NodePtr& node, Placement& placement,
                        const std::set<const Node*>& read_by_output) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    const InDataAnchorPtr in = node->GetInDataAnchor(0);
    const OutDataAnchor* source = in == nullptr ? nullptr : in->GetPeerOutAnchor().get();
    // The sizes come from the output descs; a "split" input would be a second data input.
    const InDataAnchorPtr sizes = node->GetInDataAnchor(1);
    if (source == nullptr || (sizes != nullptr && sizes->GetPeerOutAnchor() != nullptr) ||
        read_by_output.count(node.get()) != 0 || op.GetOutputsSize() < 2) {
      return false;
    }
    const GeTensorDesc& x = op.GetInputDesc(0);
    int64_t axis = 0;
    AttrUtils::GetInt(op, "axis", axis);
    if (!IsStatic(x) || (axis = ContiguousAxis(axis, x)) < 0 ||
        !IsOrdinaryProducer(*source->GetOwnerNodeBarePtr()) ||
        read_by_output.count(source->GetOwnerNodeBarePtr()) != 0) {
      return false;
    }
    Placement trial = placement;
    const int whole = trial.Id(source, Bytes(x));
    int64_t offset = 0;
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      const GeTensorDesc& d = op.GetOutputDesc(static_cast<uint32_t>(i));
      const int64_t bytes = Bytes(d);
      if (!IsStatic(d) || bytes <= 0 || bytes % kPieceAlignment != 0 ||
          d.GetShape() != op.GetOutputDesc(0).GetShape()) {
        return false;
      }
      const int piece = trial.Id(node->GetOutDataAnchor(static_cast<int>(i)).get(), bytes);
      trial.MarkWhole(piece);  // a view of the input's bytes, not memory of its own
      if (!trial.Unite(piece, whole, offset)) {
        context().Count("left as a copy: a piece is placed elsewhere already");
        return false;
      }
      offset += bytes;
    }
    GE_ASSIGN_OR_RETURN(OpDescPtr phony, context().registry().CreateOpDesc(
                                             "PhonySplit", node->GetName(),
                                             {{"y", static_cast<uint32_t>(op.GetOutputsSize())}}));
    GE_RETURN_IF_ERROR(phony->UpdateInputDesc(0, x));
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      GE_RETURN_IF_ERROR(phony->UpdateOutputDesc(static_cast<uint32_t>(i),
                                                 op.GetOutputDesc(static_cast<uint32_t>(i))));
    }
    AttrUtils::SetListInt(phony, "split_dim", std::vector<int64_t>{axis});
    AttrUtils::SetListInt(phony, "num_split",
                          std::vector<int64_t>{static_cast<int64_t>(op.GetOutputsSize())});
    GE_RETURN_IF_ERROR(Swap(graph, node, phony, /*data_inputs=*/1));
    placement = std::move(trial);
    context().CountRewrite();
    context().Count("PhonySplit");
    return true;
  }

  /// Replaces `node` by a node made from `replacement` (same name), fed by the same producers
  /// (the first `data_inputs` inputs, all when -1), with the same readers and control edges.
  static Status Swap(ComputeGraph& graph, const NodePtr& node, const OpDescPtr& replacement,
                     int data_inputs = -1) {
    const std::string name = node->GetName();
    replacement->SetName(passes::UniqueNodeName(graph, name + "/in_place"));
    GE_ASSIGN_OR_RETURN(NodePtr fresh, graph.AddNode(replacement));
    const size_t inputs =
        data_inputs < 0 ? node->GetAllInDataAnchorsSize() : static_cast<size_t>(data_inputs);
    for (size_t i = 0; i < inputs; ++i) {
      const OutDataAnchorPtr peer = node->GetInDataAnchor(static_cast<int>(i))->GetPeerOutAnchor();
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(peer, fresh->GetInDataAnchor(static_cast<int>(i))));
    }
    for (const OutControlAnchorPtr& before :
         node->GetInControlAnchor()->GetPeerOutControlAnchors()) {
      GE_RETURN_IF_ERROR(GraphUtils::AddEdge(before, fresh->GetInControlAnchor()));
    }
    std::vector<std::pair<NodePtr, int>> outputs;
    for (size_t i = 0; i < node->GetAllOutDataAnchorsSize(); ++i) {
      outputs.emplace_back(fresh, static_cast<int>(i));
    }
    GE_RETURN_IF_ERROR(passes::ReplaceNode(graph, node, outputs));
    replacement->SetName(name);
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateInPlaceConcatPass() {
  return std::make_unique<InPlaceConcatPass>();
}

}  // namespace ge
