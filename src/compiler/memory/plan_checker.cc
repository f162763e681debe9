// The plan checkers' shared overlap search and CheckMemoryPlan.
//
// FindOverlap sweeps the blocks by start step, keeping the live blocks in a set ordered by offset.
// The live blocks never overlap each other (else the sweep would have stopped), so a new block
// can only clash with its neighbours in that set: O(n log n).
#include <algorithm>
#include <numeric>
#include <queue>
#include <set>

#include "ge/compiler/memory/plan_options.h"
#include "placement.h"

namespace ge::memory {
namespace internal {

std::optional<std::pair<size_t, size_t>> FindOverlap(const std::vector<Block>& blocks) {
  std::vector<size_t> by_start(blocks.size());
  std::iota(by_start.begin(), by_start.end(), 0);
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&blocks](size_t a, size_t b) { return blocks[a].first < blocks[b].first; });
  using Live = std::pair<int64_t, size_t>;  // (last step, block)
  std::priority_queue<Live, std::vector<Live>, std::greater<>> ending;
  std::set<std::pair<int64_t, size_t>> live;  // (offset, block)
  for (size_t id : by_start) {
    const Block& block = blocks[id];
    if (block.size <= 0) continue;
    while (!ending.empty() && ending.top().first < block.first) {
      live.erase({blocks[ending.top().second].offset, ending.top().second});
      ending.pop();
    }
    auto next = live.lower_bound({block.offset, 0});
    if (next != live.end() && next->first < block.offset + block.size) {
      return std::make_pair(next->second, id);
    }
    if (next != live.begin()) {
      const size_t prev = std::prev(next)->second;
      if (blocks[prev].offset + blocks[prev].size > block.offset) return std::make_pair(prev, id);
    }
    live.emplace(block.offset, id);
    ending.emplace(block.last, id);
  }
  return std::nullopt;
}

}  // namespace internal

namespace {

std::string Describe(const TensorPlan& t) {
  const std::string label = TensorLabel(t);
  return "'" + label + "' (" + t.op_type + ", " + RegionName(t.region) + " bytes " +
         std::to_string(t.offset) + ".." + std::to_string(t.offset + t.size) + ", steps " +
         std::to_string(t.first_step) + ".." + std::to_string(t.last_step) + ")";
}

int64_t RegionBytes(const MemoryPlan& plan, Region region) {
  switch (region) {
    case Region::kArena:
      return plan.arena_bytes;
    case Region::kWeight:
      return plan.weight_bytes;
    case Region::kOutput:
      return plan.output_bytes;
    case Region::kInput:
    case Region::kDynamic:
      break;
  }
  return -1;  // input slots and run-time allocations have no byte layout
}

// The alias root of every tensor, or an error for a bad alias_of chain.
Result<std::vector<size_t>> FindRoots(const MemoryPlan& plan) {
  const size_t n = plan.tensors.size();
  std::vector<size_t> roots(n);
  for (size_t i = 0; i < n; ++i) {
    size_t at = i;
    for (size_t hops = 0; plan.tensors[at].alias_of >= 0; ++hops) {
      const auto next = static_cast<size_t>(plan.tensors[at].alias_of);
      if (next >= n || hops > n) {
        return InternalError("memory plan: tensor " + Describe(plan.tensors[i]) +
                             " has an alias_of chain that leaves the plan or loops");
      }
      at = next;
    }
    roots[i] = at;
    if (plan.tensors[at].region != plan.tensors[i].region) {
      return InternalError("memory plan: tensor " + Describe(plan.tensors[i]) + " aliases " +
                           Describe(plan.tensors[at]) + " in another region");
    }
  }
  return roots;
}

}  // namespace

Status CheckMemoryPlan(const MemoryPlan& plan) {
  const int64_t alignment = plan.alignment > 0 ? plan.alignment : 1;
  GE_ASSIGN_OR_RETURN(const std::vector<size_t> roots, FindRoots(plan));
  const size_t n = plan.tensors.size();
  // One block per alias root: the union of its members' bytes and steps.
  std::vector<internal::Block> blocks(n);
  std::vector<bool> is_root(n, false);
  for (size_t i = 0; i < n; ++i) {
    const TensorPlan& t = plan.tensors[i];
    if (t.size < 0 || t.offset < 0 || t.first_step > t.last_step) {
      return InternalError("memory plan: tensor " + Describe(t) +
                           " has a negative size or offset or an empty live range");
    }
    const int64_t limit = RegionBytes(plan, t.region);
    if (limit >= 0 && t.size > 0 && t.offset + t.size > limit) {
      return InternalError("memory plan: tensor " + Describe(t) + " ends past its " +
                           RegionName(t.region) + " region of " + std::to_string(limit) + " bytes");
    }
    if (roots[i] == i && t.region != Region::kInput && t.region != Region::kDynamic &&
        t.offset % alignment != 0) {
      return InternalError("memory plan: tensor " + Describe(t) + " is not aligned to " +
                           std::to_string(alignment) + " bytes");
    }
    internal::Block& block = blocks[roots[i]];
    if (!is_root[roots[i]]) {
      is_root[roots[i]] = true;
      block = {t.offset, t.size, t.first_step, t.last_step};
      continue;
    }
    const int64_t end = std::max(block.offset + block.size, t.offset + t.size);
    block.offset = std::min(block.offset, t.offset);
    block.size = end - block.offset;
    block.first = std::min(block.first, t.first_step);
    block.last = std::max(block.last, t.last_step);
  }
  for (Region region : {Region::kArena, Region::kWeight, Region::kOutput}) {
    std::vector<internal::Block> region_blocks;
    std::vector<size_t> owners;
    for (size_t i = 0; i < n; ++i) {
      if (is_root[i] && plan.tensors[i].region == region) {
        region_blocks.push_back(blocks[i]);
        owners.push_back(i);
      }
    }
    if (auto clash = internal::FindOverlap(region_blocks)) {
      return InternalError("memory plan: " + Describe(plan.tensors[owners[clash->first]]) +
                           " and " + Describe(plan.tensors[owners[clash->second]]) +
                           " are live at a common step and overlap in the " + RegionName(region) +
                           " region");
    }
  }
  return Status::Ok();
}

}  // namespace ge::memory
