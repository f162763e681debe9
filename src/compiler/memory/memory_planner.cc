// PlanGraphMemory: from a graph and an order to a checked MemoryPlan.
//
// How it works: CollectGraphTensors gives every output and workspace a size and a live range;
// BuildAliasGroups merges tensors that must share memory into blocks (reuse-input, continuous
// PhonyConcat/PhonySplit buffers, in-place outputs); each block then gets its region: graph
// input slots for Data, the weight region for Const, the output region for graph outputs when
// they are kept separate, else the arena. The arena blocks become intervals for
// PlanIntervalsBest (every strategy, the smallest wins, then a bounded search), and each member
// of a block is placed at the block's offset plus its place inside the block.
#include <algorithm>
#include <string>
#include <tuple>

#include "alias_groups.h"
#include "graph_tensors.h"
#include "placement.h"

namespace ge::memory {
namespace {

using internal::AliasGroups;
using internal::AlignUp;
using internal::GraphTensor;
using internal::GraphTensors;
using internal::NodeWho;

struct Group {
  std::vector<int32_t> members;
  Region region = Region::kArena;
  int64_t base = 0;    // offset of the block in its region (the slot for kInput)
  int32_t owner = -1;  // the member the others alias
};

// Decides the region of a group from its members; graph inputs and weights pin the whole group.
Status ChooseRegion(const GraphTensors& graph, const AliasGroups& groups, Group& group,
                    const PlanOptions& options) {
  const GraphTensor* pinned = nullptr;
  bool graph_output = false;
  for (int32_t m : group.members) {
    const GraphTensor& t = graph.tensors[static_cast<size_t>(m)];
    graph_output = graph_output || t.graph_output;
    if (t.fixed_region == Region::kArena) continue;
    // A run-time (dynamic) tensor yields to a graph input or weight in the same block.
    if (t.fixed_region == Region::kDynamic && pinned != nullptr) continue;
    if (pinned != nullptr && pinned->fixed_region == Region::kDynamic) {
      pinned = &t;
      continue;
    }
    if (pinned != nullptr) {
      return ParamInvalid("memory planner: " + NodeWho(*t.node) + " output " +
                          std::to_string(t.output_index) + " and " + NodeWho(*pinned->node) +
                          " output " + std::to_string(pinned->output_index) +
                          " would have to share one block (through reuse-input or a continuous "
                          "buffer), but each is a graph input or weight; insert an Identity");
    }
    pinned = &t;
  }
  if (pinned != nullptr) {
    group.region = pinned->fixed_region;
    group.base = pinned->fixed_region == Region::kInput ? pinned->input_slot : 0;
    if (group.region == Region::kInput) {
      const int64_t rel = groups.rel[static_cast<size_t>(pinned - graph.tensors.data())];
      for (int32_t m : group.members) {
        if (groups.rel[static_cast<size_t>(m)] != rel) {
          const GraphTensor& t = graph.tensors[static_cast<size_t>(m)];
          return ParamInvalid(
              "memory planner: " + NodeWho(*t.node) + " output " + std::to_string(t.output_index) +
              " must sit inside a continuous buffer together with graph input " +
              NodeWho(*pinned->node) + ", whose memory the user provides; insert an Identity");
        }
      }
    }
    return Status::Ok();
  }
  group.region = graph_output && options.separate_outputs ? Region::kOutput : Region::kArena;
  return Status::Ok();
}

// The member that stands for the block: at its start, the largest, the earliest.
int32_t ChooseOwner(const GraphTensors& graph, const AliasGroups& groups, const Group& group) {
  int32_t owner = group.members.front();
  auto key = [&](int32_t m) {
    const GraphTensor& t = graph.tensors[static_cast<size_t>(m)];
    return std::make_tuple(groups.rel[static_cast<size_t>(m)] == 0 ? 0 : 1, -t.size, t.first, m);
  };
  for (int32_t m : group.members) {
    if (key(m) < key(owner)) owner = m;
  }
  return owner;
}

TensorPlan MakeTensorPlan(const GraphTensor& t) {
  TensorPlan plan;
  plan.node = t.node->GetName();
  plan.op_type = t.node->GetType();
  plan.output_index = t.output_index;
  plan.workspace_index = t.workspace_index;
  plan.first_step = t.first;
  plan.last_step = t.last;
  return plan;
}

}  // namespace

Result<MemoryPlan> PlanGraphMemory(const ComputeGraph& graph, const std::vector<NodePtr>& order,
                                   const PlanOptions& options) {
  GE_RETURN_IF_ERROR(ValidateIntervals({}, options.alignment));
  GE_ASSIGN_OR_RETURN(const GraphTensors tensors,
                      internal::CollectGraphTensors(graph, order, options.last_concurrent_step));
  GE_ASSIGN_OR_RETURN(const AliasGroups groups,
                      internal::BuildAliasGroups(tensors, options.alignment));
  const size_t n = tensors.tensors.size();

  // Gather the groups (by representative) in tensor order.
  std::vector<int32_t> group_of(n, -1);
  std::vector<Group> blocks;
  for (size_t i = 0; i < n; ++i) {
    const auto root = static_cast<size_t>(groups.root[i]);
    if (group_of[root] < 0) {
      group_of[root] = static_cast<int32_t>(blocks.size());
      blocks.emplace_back();
    }
    blocks[static_cast<size_t>(group_of[root])].members.push_back(static_cast<int32_t>(i));
  }

  MemoryPlan plan;
  plan.alignment = options.alignment;
  std::vector<Interval> intervals;
  std::vector<size_t> arena_blocks;
  for (size_t b = 0; b < blocks.size(); ++b) {
    Group& group = blocks[b];
    GE_RETURN_IF_ERROR(ChooseRegion(tensors, groups, group, options));
    group.owner = ChooseOwner(tensors, groups, group);
    const auto root = static_cast<size_t>(groups.root[static_cast<size_t>(group.members[0])]);
    const int64_t span = AlignUp(groups.span[root], options.alignment);
    switch (group.region) {
      case Region::kArena:
        intervals.push_back({span, groups.first[root], groups.last[root]});
        arena_blocks.push_back(b);
        break;
      case Region::kWeight:
        group.base = plan.weight_bytes;
        plan.weight_bytes += span;
        break;
      case Region::kOutput:
        group.base = plan.output_bytes;
        plan.output_bytes += span;
        break;
      case Region::kInput:
      case Region::kDynamic:
        break;
    }
  }

  GE_ASSIGN_OR_RETURN(IntervalPlan arena, PlanIntervalsBest(intervals, options));
  for (size_t k = 0; k < arena_blocks.size(); ++k) blocks[arena_blocks[k]].base = arena.offsets[k];
  plan.arena_bytes = arena.arena_bytes;
  plan.lower_bound = arena.lower_bound.bytes;
  plan.peak_step = arena.lower_bound.peak_step;
  plan.strategy = arena.strategy;
  plan.strategies = std::move(arena.strategies);

  plan.tensors.reserve(n);
  for (size_t i = 0; i < n; ++i) plan.tensors.push_back(MakeTensorPlan(tensors.tensors[i]));
  for (const Group& group : blocks) {
    const auto root = static_cast<size_t>(groups.root[static_cast<size_t>(group.members[0])]);
    const int64_t span = AlignUp(groups.span[root], options.alignment);
    for (int32_t m : group.members) {
      const auto i = static_cast<size_t>(m);
      TensorPlan& t = plan.tensors[i];
      t.region = group.region;
      const int64_t rel =
          group.region == Region::kInput || group.region == Region::kDynamic ? 0 : groups.rel[i];
      t.offset = group.base + rel;
      const int64_t aligned = AlignUp(tensors.tensors[i].size, options.alignment);
      if (m == group.owner) {
        t.size = span;
        t.first_step = groups.first[root];
        t.last_step = groups.last[root];
      } else {
        t.alias_of = group.owner;
        t.size = rel + aligned <= span ? aligned : tensors.tensors[i].size;
      }
    }
  }
  if (options.check) {
    Status status = CheckMemoryPlan(plan);
    if (!status.ok()) {
      return InternalError("memory planner: the plan for graph '" + graph.GetName() +
                           "' failed its check: " + status.message());
    }
  }
  return plan;
}

}  // namespace ge::memory
