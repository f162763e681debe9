// GE-style exact-size block reuse and the no-reuse layout.
//
// Exact-size reuse walks the intervals by start step, like GE's BlockMemAssigner walks nodes: a
// block is released after its interval's last step, and a new interval takes a released block of
// exactly its (aligned) size when there is one, else a new block on top of the arena. It never
// splits or merges blocks, which is why the best-fit strategies usually beat it.
#include <algorithm>
#include <map>
#include <numeric>
#include <queue>

#include "placement.h"

namespace ge::memory::internal {
namespace {

std::vector<int32_t> OrderByStart(const std::vector<Interval>& intervals) {
  std::vector<int32_t> order(intervals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&intervals](int32_t a, int32_t b) {
    return intervals[static_cast<size_t>(a)].first < intervals[static_cast<size_t>(b)].first;
  });
  return order;
}

}  // namespace

std::vector<int64_t> ExactSizeReusePlace(const std::vector<Interval>& intervals) {
  std::vector<int64_t> offsets(intervals.size(), 0);
  // (last step, id) of live blocks, earliest end on top.
  using Live = std::pair<int64_t, int32_t>;
  std::priority_queue<Live, std::vector<Live>, std::greater<>> live;
  std::map<int64_t, std::vector<int64_t>> free_blocks;  // size → released offsets
  int64_t top = 0;
  for (int32_t id : OrderByStart(intervals)) {
    const Interval& it = intervals[static_cast<size_t>(id)];
    if (it.size == 0) continue;
    while (!live.empty() && live.top().first < it.first) {
      const auto released = static_cast<size_t>(live.top().second);
      free_blocks[intervals[released].size].push_back(offsets[released]);
      live.pop();
    }
    auto found = free_blocks.find(it.size);
    if (found != free_blocks.end() && !found->second.empty()) {
      offsets[static_cast<size_t>(id)] = found->second.back();
      found->second.pop_back();
    } else {
      offsets[static_cast<size_t>(id)] = top;
      top += it.size;
    }
    live.emplace(it.last, id);
  }
  return offsets;
}

std::vector<int64_t> NoReusePlace(const std::vector<Interval>& intervals) {
  std::vector<int64_t> offsets(intervals.size(), 0);
  int64_t top = 0;
  for (int32_t id : OrderByStart(intervals)) {
    offsets[static_cast<size_t>(id)] = top;
    top += intervals[static_cast<size_t>(id)].size;
  }
  return offsets;
}

}  // namespace ge::memory::internal
