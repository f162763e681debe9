// The bounded local search that improves the best plan when it is well above the lower bound.
//
// How it works: best fit is only as good as its priority order, so the search re-runs BestFitPlace
// on other orders and keeps the smallest arena. It first tries a few fixed orders (longest
// lifetime first, largest area first, earliest start first), then perturbs the best order found
// so far — a handful of random swaps, most between near neighbours — until the time budget runs
// out, the arena reaches the lower bound, or kMaxStaleRounds perturbations in a row find nothing.
// The random source is seeded, so a plan is reproducible up to where the clock stops the search.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "placement.h"

namespace ge::memory::internal {
namespace {

/// The search gives up after this many perturbations in a row that found nothing better.
constexpr int64_t kMaxStaleRounds = 500;

int64_t ArenaOf(const std::vector<Interval>& intervals, const std::vector<int64_t>& offsets) {
  int64_t arena = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    arena = std::max(arena, offsets[i] + intervals[i].size);
  }
  return arena;
}

template <typename Key>
std::vector<int32_t> OrderByKey(const std::vector<Interval>& intervals, Key key) {
  std::vector<int32_t> order(intervals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return key(intervals[static_cast<size_t>(a)]) > key(intervals[static_cast<size_t>(b)]);
  });
  return order;
}

}  // namespace

bool LocalSearch(const std::vector<Interval>& intervals, int64_t lower_bound, double budget_ms,
                 std::vector<int64_t>& offsets, int64_t& arena_bytes) {
  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double, std::milli>(std::max(budget_ms, 0.0)));
  if (intervals.size() < 2 || arena_bytes <= lower_bound || budget_ms <= 0) return false;

  bool improved = false;
  std::vector<int32_t> best_order = OrderBySize(intervals);
  auto consider = [&](const std::vector<int32_t>& order) {
    std::vector<int64_t> candidate = BestFitPlace(intervals, order);
    const int64_t arena = ArenaOf(intervals, candidate);
    if (arena < arena_bytes) {
      arena_bytes = arena;
      offsets = std::move(candidate);
      best_order = order;
      improved = true;
    }
  };

  const std::vector<std::vector<int32_t>> fixed_orders = {
      OrderByKey(intervals, [](const Interval& it) { return it.last - it.first; }),
      OrderByKey(intervals,
                 [](const Interval& it) {
                   return static_cast<double>(it.size) *
                          static_cast<double>(it.last - it.first + 1);
                 }),
      OrderByKey(intervals, [](const Interval& it) { return -it.first; }),
  };
  for (const auto& order : fixed_orders) {
    if (Clock::now() >= deadline || arena_bytes <= lower_bound) return improved;
    consider(order);
  }

  std::mt19937_64 rng(0x6765u);  // "ge"
  const auto n = static_cast<int64_t>(intervals.size());
  int64_t stale = 0;  // perturbations since the last improvement
  while (Clock::now() < deadline && arena_bytes > lower_bound && stale < kMaxStaleRounds) {
    std::vector<int32_t> order = best_order;
    const int64_t swaps = 1 + static_cast<int64_t>(rng() % 4);
    for (int64_t s = 0; s < swaps; ++s) {
      const auto a = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      int64_t b = 0;
      if (rng() % 4 != 0) {  // mostly a near neighbour, sometimes anywhere
        const int64_t reach = std::min<int64_t>(8, n - 1);
        const int64_t delta = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(reach));
        b = (a + delta) % n;
      } else {
        b = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      }
      std::swap(order[static_cast<size_t>(a)], order[static_cast<size_t>(b)]);
    }
    const int64_t before = arena_bytes;
    consider(order);
    stale = arena_bytes < before ? 0 : stale + 1;
  }
  return improved;
}

}  // namespace ge::memory::internal
