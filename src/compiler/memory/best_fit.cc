// Best-fit placement and the two priority orders that drive it (greedy by size, by breadth).
//
// How it works: intervals are placed one at a time. For the next interval, the placed intervals
// that overlap it in time are collected, sorted by offset and swept bottom-up; every gap between
// them large enough for the interval is a candidate, and the smallest candidate wins (lowest
// offset on a tie). With no fitting gap the interval goes on top of the overlapping ones. The
// order decides the quality: largest first (greedy by size) or by the working set of the busiest
// step each interval is live at (greedy by breadth, after TFLite's planners).
//
// Finding the overlapping intervals fast: steps are compressed to ranks and cut into buckets of
// kBucketWidth ranks; a placed interval is listed in every bucket it touches, so a query visits
// only the buckets of its own lifetime and skips duplicates with a stamp. Buckets are kept sorted
// by offset, so the common query — a short life inside one bucket — needs no sort.
#include <algorithm>
#include <numeric>

#include "placement.h"

namespace ge::memory::internal {
namespace {

constexpr int64_t kBucketWidth = 32;

/// Compressed lifetimes: rank_first/rank_last preserve the order of all endpoints.
struct Ranks {
  std::vector<int32_t> first;
  std::vector<int32_t> last;
  int32_t count = 0;
};

Ranks CompressSteps(const std::vector<Interval>& intervals) {
  std::vector<int64_t> points;
  points.reserve(intervals.size() * 2);
  for (const Interval& it : intervals) {
    points.push_back(it.first);
    points.push_back(it.last);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  Ranks ranks;
  ranks.count = static_cast<int32_t>(points.size());
  auto rank_of = [&points](int64_t step) {
    return static_cast<int32_t>(std::lower_bound(points.begin(), points.end(), step) -
                                points.begin());
  };
  ranks.first.reserve(intervals.size());
  ranks.last.reserve(intervals.size());
  for (const Interval& it : intervals) {
    ranks.first.push_back(rank_of(it.first));
    ranks.last.push_back(rank_of(it.last));
  }
  return ranks;
}

class TimeIndex {
 public:
  explicit TimeIndex(int32_t rank_count)
      : buckets_(static_cast<size_t>(rank_count / kBucketWidth + 1)) {}

  /// Lists a placed interval in every bucket it touches, keeping each bucket sorted by offset.
  void Add(int32_t id, int64_t offset, int32_t first, int32_t last) {
    const Entry entry{offset, id};
    for (int64_t b = first / kBucketWidth; b <= last / kBucketWidth; ++b) {
      std::vector<Entry>& bucket = buckets_[static_cast<size_t>(b)];
      bucket.insert(std::upper_bound(bucket.begin(), bucket.end(), entry), entry);
    }
  }

  /// Calls visit(id) once for every listed id whose bucket range meets [first, last]. Returns
  /// true when the ids came in offset order (a single bucket), so the caller need not sort.
  template <typename Visit>
  bool ForEachCandidate(int32_t first, int32_t last, std::vector<uint32_t>& stamps, uint32_t stamp,
                        Visit&& visit) const {
    const int64_t low = first / kBucketWidth;
    const int64_t high = last / kBucketWidth;
    for (int64_t b = low; b <= high; ++b) {
      for (const Entry& entry : buckets_[static_cast<size_t>(b)]) {
        if (stamps[static_cast<size_t>(entry.id)] == stamp) continue;
        stamps[static_cast<size_t>(entry.id)] = stamp;
        visit(entry.id);
      }
    }
    return low == high;
  }

 private:
  struct Entry {
    int64_t offset;
    int32_t id;
    bool operator<(const Entry& other) const {
      return offset != other.offset ? offset < other.offset : id < other.id;
    }
  };
  std::vector<std::vector<Entry>> buckets_;
};

}  // namespace

std::vector<Interval> AlignSizes(const std::vector<Interval>& intervals, int64_t alignment) {
  std::vector<Interval> aligned = intervals;
  for (Interval& it : aligned) it.size = AlignUp(it.size, alignment);
  return aligned;
}

std::vector<int64_t> BestFitPlace(const std::vector<Interval>& intervals,
                                  const std::vector<int32_t>& priority) {
  const Ranks ranks = CompressSteps(intervals);
  TimeIndex index(ranks.count);
  std::vector<int64_t> offsets(intervals.size(), 0);
  std::vector<uint32_t> stamps(intervals.size(), 0);
  std::vector<std::pair<int64_t, int64_t>> busy;  // (offset, end) of overlapping placed intervals
  uint32_t stamp = 0;
  for (int32_t id : priority) {
    const auto i = static_cast<size_t>(id);
    const int64_t size = intervals[i].size;
    if (size == 0) continue;  // takes no bytes: offset 0, never in anyone's way
    const int32_t first = ranks.first[i];
    const int32_t last = ranks.last[i];
    busy.clear();
    const bool sorted = index.ForEachCandidate(first, last, stamps, ++stamp, [&](int32_t other) {
      const auto o = static_cast<size_t>(other);
      if (ranks.first[o] <= last && first <= ranks.last[o]) {
        busy.emplace_back(offsets[o], offsets[o] + intervals[o].size);
      }
    });
    if (!sorted) std::sort(busy.begin(), busy.end());
    int64_t best_offset = -1;
    int64_t best_gap = 0;
    int64_t top = 0;
    for (const auto& [begin, end] : busy) {
      const int64_t gap = begin - top;
      if (gap >= size && (best_offset < 0 || gap < best_gap)) {
        best_offset = top;
        best_gap = gap;
      }
      top = std::max(top, end);
    }
    offsets[i] = best_offset >= 0 ? best_offset : top;
    index.Add(id, offsets[i], first, last);
  }
  return offsets;
}

std::vector<int32_t> OrderBySize(const std::vector<Interval>& intervals) {
  std::vector<int32_t> order(intervals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&intervals](int32_t a, int32_t b) {
    const Interval& x = intervals[static_cast<size_t>(a)];
    const Interval& y = intervals[static_cast<size_t>(b)];
    if (x.size != y.size) return x.size > y.size;
    const int64_t x_len = x.last - x.first;
    const int64_t y_len = y.last - y.first;
    if (x_len != y_len) return x_len > y_len;
    return x.first < y.first;
  });
  return order;
}

std::vector<int32_t> OrderByBreadth(const std::vector<Interval>& intervals) {
  // Working set per rank (a difference array), then a sparse table for the busiest rank of
  // each lifetime.
  const Ranks ranks = CompressSteps(intervals);
  const auto count = static_cast<size_t>(ranks.count);
  std::vector<int64_t> working(count + 1, 0);
  for (size_t i = 0; i < intervals.size(); ++i) {
    working[static_cast<size_t>(ranks.first[i])] += intervals[i].size;
    working[static_cast<size_t>(ranks.last[i]) + 1] -= intervals[i].size;
  }
  for (size_t r = 1; r <= count; ++r) working[r] += working[r - 1];
  // table[k][r] = the rank with the largest working set in [r, r + 2^k).
  std::vector<std::vector<int32_t>> table(1, std::vector<int32_t>(count));
  std::iota(table[0].begin(), table[0].end(), 0);
  auto better = [&working](int32_t a, int32_t b) {
    const auto wa = working[static_cast<size_t>(a)];
    const auto wb = working[static_cast<size_t>(b)];
    return wa != wb ? (wa > wb ? a : b) : std::min(a, b);
  };
  for (size_t k = 1; (size_t{1} << k) <= count; ++k) {
    const size_t half = size_t{1} << (k - 1);
    std::vector<int32_t> row(count - (size_t{1} << k) + 1);
    for (size_t r = 0; r < row.size(); ++r)
      row[r] = better(table[k - 1][r], table[k - 1][r + half]);
    table.push_back(std::move(row));
  }
  std::vector<int32_t> busiest(intervals.size());
  for (size_t i = 0; i < intervals.size(); ++i) {
    const auto lo = static_cast<size_t>(ranks.first[i]);
    const auto hi = static_cast<size_t>(ranks.last[i]);
    size_t k = 0;
    while ((size_t{2} << k) <= hi - lo + 1) ++k;
    busiest[i] = better(table[k][lo], table[k][hi + 1 - (size_t{1} << k)]);
  }
  std::vector<int32_t> order(intervals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    const auto ia = static_cast<size_t>(a);
    const auto ib = static_cast<size_t>(b);
    const int64_t wa = working[static_cast<size_t>(busiest[ia])];
    const int64_t wb = working[static_cast<size_t>(busiest[ib])];
    if (wa != wb) return wa > wb;
    if (busiest[ia] != busiest[ib]) return busiest[ia] < busiest[ib];
    return intervals[ia].size > intervals[ib].size;
  });
  return order;
}

}  // namespace ge::memory::internal
