// Alias groups: a union-find whose edges carry byte offsets ("a sits d bytes above b"), so chains
// of reshapes, continuous buffers and in-place outputs collapse into blocks with fixed inner
// offsets, and contradictory constraints are caught when they meet.
#include "alias_groups.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "ge/compiler/memory/memory_planner.h"
#include "ge/graph/utils/attr_utils.h"
#include "placement.h"

namespace ge::memory::internal {
namespace {

constexpr char kAttrContinuousInput[] = "_no_padding_continuous_input";
constexpr char kAttrContinuousOutput[] = "_no_padding_continuous_output";
constexpr char kAttrOutputOffsets[] = "_output_offset_list_for_continuous";
constexpr char kAttrInputOffsets[] = "_input_offset_list_for_continuous";

class OffsetUnionFind {
 public:
  explicit OffsetUnionFind(const GraphTensors& graph) : parent_(graph.tensors.size()) {
    const size_t n = graph.tensors.size();
    std::iota(parent_.begin(), parent_.end(), 0);
    delta_.assign(n, 0);
    members_.assign(n, 1);
    for (const GraphTensor& t : graph.tensors) {
      first_.push_back(t.first);
      last_.push_back(t.last);
      low_.push_back(0);
      high_.push_back(t.size);
      pinned_.push_back(t.fixed_region != Region::kArena || t.graph_output);
    }
  }

  /// The representative of x and x's offset above it.
  std::pair<int32_t, int64_t> Find(int32_t x) {
    int64_t offset = 0;
    int32_t at = x;
    while (parent_[Idx(at)] != at) {
      offset += delta_[Idx(at)];
      at = parent_[Idx(at)];
    }
    // Path compression: point every node on the path straight at the root.
    int64_t remaining = offset;
    for (int32_t walk = x; parent_[Idx(walk)] != walk;) {
      const int32_t next = parent_[Idx(walk)];
      const int64_t step = delta_[Idx(walk)];
      parent_[Idx(walk)] = at;
      delta_[Idx(walk)] = remaining;
      remaining -= step;
      walk = next;
    }
    return {at, offset};
  }

  /// Records offset(a) = offset(b) + d; false when that contradicts what is known.
  bool Unite(int32_t a, int32_t b, int64_t d) {
    auto [ra, da] = Find(a);
    auto [rb, db] = Find(b);
    if (ra == rb) return da == db + d;
    const int64_t shift = db + d - da;  // offset of ra above rb
    const size_t ia = Idx(ra);
    const size_t ib = Idx(rb);
    parent_[ia] = rb;
    delta_[ia] = shift;
    members_[ib] += members_[ia];
    first_[ib] = std::min(first_[ib], first_[ia]);
    last_[ib] = std::max(last_[ib], last_[ia]);
    low_[ib] = std::min(low_[ib], low_[ia] + shift);
    high_[ib] = std::max(high_[ib], high_[ia] + shift);
    pinned_[ib] = pinned_[ib] || pinned_[ia];
    return true;
  }

  int32_t Members(int32_t root) const { return members_[Idx(root)]; }
  int64_t First(int32_t root) const { return first_[Idx(root)]; }
  int64_t Last(int32_t root) const { return last_[Idx(root)]; }
  int64_t Low(int32_t root) const { return low_[Idx(root)]; }
  int64_t Span(int32_t root) const { return high_[Idx(root)] - low_[Idx(root)]; }
  /// True when a member is a graph input, weight or graph output: not free arena memory.
  bool Pinned(int32_t root) const { return pinned_[Idx(root)]; }

 private:
  static size_t Idx(int32_t x) { return static_cast<size_t>(x); }
  std::vector<int32_t> parent_;
  std::vector<int64_t> delta_;
  std::vector<int32_t> members_;
  std::vector<int64_t> first_, last_, low_, high_;  // per representative
  std::vector<bool> pinned_;
};

bool BoolAttr(const OpDesc& op, const char* name) {
  bool value = false;
  return AttrUtils::GetBool(op, name, value) && value;
}

// The offset recorded in `list_attr` at `index` on `op`, or `fallback` when there is none.
int64_t RecordedOffset(const OpDesc& op, const char* list_attr, int32_t index, int64_t fallback) {
  std::vector<int64_t> offsets;
  if (!AttrUtils::GetListInt(op, list_attr, offsets) || index < 0 ||
      static_cast<size_t>(index) >= offsets.size()) {
    return fallback;
  }
  return offsets[static_cast<size_t>(index)];
}

class Builder {
 public:
  Builder(const GraphTensors& graph, int64_t alignment)
      : graph_(graph), alignment_(alignment), sets_(graph) {}

  Status AddStructural(int64_t step) {
    const Node& node = *graph_.order[static_cast<size_t>(step)];
    const OpDesc& op = *node.GetOpDescBarePtr();
    for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
      const GeTensorDesc& desc = op.GetOutputDesc(static_cast<uint32_t>(i));
      if (!desc.GetReuseInput()) continue;
      const auto k = static_cast<int32_t>(desc.GetReuseInputIndex());
      const int32_t input = graph_.InputTensor(step, k);
      if (input < 0) {
        return ParamInvalid("memory planner: " + NodeWho(node) + " output " + std::to_string(i) +
                            " reuses input " + std::to_string(k) +
                            ", which is not linked to a planned output");
      }
      GE_RETURN_IF_ERROR(
          Join(node, Output(node, i), input, 0,
               "output " + std::to_string(i) + " reuses input " + std::to_string(k)));
    }
    if (op.GetType() == "PhonyConcat" || BoolAttr(op, kAttrContinuousInput)) {
      GE_RETURN_IF_ERROR(AddConcat(step, node));
    }
    if (op.GetType() == "PhonySplit" || BoolAttr(op, kAttrContinuousOutput)) {
      GE_RETURN_IF_ERROR(AddSplit(step, node));
    }
    return Status::Ok();
  }

  void AddInplace(int64_t step) {
    const Node& node = *graph_.order[static_cast<size_t>(step)];
    std::vector<int64_t> inplace;
    if (!AttrUtils::GetListInt(*node.GetOpDescBarePtr(), kAttrInplaceOutputInput, inplace)) return;
    for (size_t i = 0; i < inplace.size(); ++i) {
      if (inplace[i] < 0) continue;
      const int32_t out = graph_.OutputTensor(&node, static_cast<int32_t>(i));
      const int32_t in = graph_.InputTensor(step, static_cast<int32_t>(inplace[i]));
      if (out < 0 || in < 0 || !CanOverwrite(step, node, out, in, inplace[i])) continue;
      (void)sets_.Unite(out, in, 0);
    }
  }

  AliasGroups Finish() {
    const size_t n = graph_.tensors.size();
    AliasGroups groups;
    groups.root.resize(n);
    groups.rel.resize(n);
    groups.span.assign(n, 0);
    groups.first.assign(n, 0);
    groups.last.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      auto [root, offset] = sets_.Find(static_cast<int32_t>(i));
      const auto r = static_cast<size_t>(root);
      groups.root[i] = root;
      groups.rel[i] = offset - sets_.Low(root);
      groups.span[r] = sets_.Span(root);
      groups.first[r] = sets_.First(root);
      groups.last[r] = sets_.Last(root);
    }
    return groups;
  }

 private:
  int32_t Output(const Node& node, size_t i) const {
    return graph_.OutputTensor(&node, static_cast<int32_t>(i));
  }

  Status Join(const Node& node, int32_t a, int32_t b, int64_t d, const std::string& what) {
    if (a < 0 || b < 0) {
      return ParamInvalid("memory planner: " + NodeWho(node) + ": " + what +
                          " names a tensor that is not planned in this graph");
    }
    if (!sets_.Unite(a, b, d)) {
      return ParamInvalid("memory planner: " + NodeWho(node) + ": " + what +
                          " conflicts with an earlier memory constraint on the same tensor (it "
                          "is already placed at another offset by a reuse-input or continuous "
                          "buffer); insert an Identity to copy it");
    }
    return Status::Ok();
  }

  // PhonyConcat: input k's producer sits at the output's offset + the recorded offset.
  Status AddConcat(int64_t step, const Node& node) {
    const int32_t block = Output(node, 0);
    if (block < 0) {
      return ParamInvalid("memory planner: " + NodeWho(node) +
                          " is a continuous-input node without an output");
    }
    int64_t running = 0;
    for (size_t k = 0; k < node.GetAllInDataAnchorsSize(); ++k) {
      const int32_t piece = graph_.InputTensor(step, static_cast<int32_t>(k));
      if (piece < 0) {
        return ParamInvalid("memory planner: " + NodeWho(node) + " input " + std::to_string(k) +
                            " is not linked, so it cannot be laid out in the continuous buffer");
      }
      const GraphTensor& producer = graph_.tensors[static_cast<size_t>(piece)];
      const int64_t offset = RecordedOffset(*producer.node->GetOpDescBarePtr(), kAttrOutputOffsets,
                                            producer.output_index, running);
      running = offset + producer.size;
      GE_RETURN_IF_ERROR(Join(
          node, piece, block, offset,
          "continuous input " + std::to_string(k) + " (from " + NodeWho(*producer.node) + ")"));
    }
    return Status::Ok();
  }

  // PhonySplit: output k sits at the input's offset + the offset recorded on its consumers.
  Status AddSplit(int64_t step, const Node& node) {
    const int32_t block = graph_.InputTensor(step, 0);
    if (block < 0) {
      return ParamInvalid("memory planner: " + NodeWho(node) +
                          " is a continuous-output node whose input 0 is not linked");
    }
    int64_t running = 0;
    for (size_t k = 0; k < node.GetAllOutDataAnchorsSize(); ++k) {
      const int32_t piece = Output(node, k);
      if (piece < 0) continue;
      int64_t offset = running;
      const OutDataAnchor* out = node.GetOutDataAnchorBarePtr(static_cast<int>(k));
      for (const InDataAnchor* peer : out->GetPeerInDataAnchorsPtr()) {
        offset = RecordedOffset(*peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr(), kAttrInputOffsets,
                                peer->GetIdx(), offset);
        break;
      }
      running = offset + graph_.tensors[static_cast<size_t>(piece)].size;
      GE_RETURN_IF_ERROR(
          Join(node, piece, block, offset, "continuous output " + std::to_string(k)));
    }
    return Status::Ok();
  }

  bool CanOverwrite(int64_t step, const Node& node, int32_t out, int32_t in, int64_t k) {
    auto [out_root, out_offset] = sets_.Find(out);
    auto [in_root, in_offset] = sets_.Find(in);
    (void)out_offset;
    if (out_root == in_root || sets_.Members(out_root) != 1) return false;
    if (sets_.Last(in_root) != step) return false;  // the input block is still needed later
    const GraphTensor& out_tensor = graph_.tensors[static_cast<size_t>(out)];
    const GraphTensor& in_tensor = graph_.tensors[static_cast<size_t>(in)];
    if (AlignUp(out_tensor.size, alignment_) != AlignUp(in_tensor.size, alignment_)) return false;
    // The input must be the whole block (nothing else lives beside it) and plain arena memory.
    if (in_offset != sets_.Low(in_root) ||
        AlignUp(sets_.Span(in_root), alignment_) != AlignUp(in_tensor.size, alignment_)) {
      return false;
    }
    if (sets_.Pinned(in_root) || sets_.Pinned(out_root)) return false;
    // No other input of the node may read the block being overwritten.
    for (size_t j = 0; j < node.GetAllInDataAnchorsSize(); ++j) {
      if (static_cast<int64_t>(j) == k) continue;
      const int32_t other = graph_.InputTensor(step, static_cast<int32_t>(j));
      if (other >= 0 && sets_.Find(other).first == in_root) return false;
    }
    return true;
  }

  const GraphTensors& graph_;
  int64_t alignment_;
  OffsetUnionFind sets_;
};

}  // namespace

Result<AliasGroups> BuildAliasGroups(const GraphTensors& graph, int64_t alignment) {
  Builder builder(graph, alignment);
  const auto steps = static_cast<int64_t>(graph.order.size());
  for (int64_t step = 0; step < steps; ++step) GE_RETURN_IF_ERROR(builder.AddStructural(step));
  for (int64_t step = 0; step < steps; ++step) builder.AddInplace(step);
  return builder.Finish();
}

}  // namespace ge::memory::internal
