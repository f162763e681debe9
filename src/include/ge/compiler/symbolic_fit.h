// Sample points for symbolic shape inference, and the polynomial through a dim's values at them.
//
// Each symbol takes two values on a grid (2^k points for k symbols) and two further values at
// check points. A dim's values on the grid determine exactly one multilinear polynomial
// (c0 + c1*batch + c2*seq + c3*batch*seq for two symbols); it is the dim's expression when its
// coefficients are integers and it gives the dim's values at the check points too. A dim that
// grows as seq*seq, clamps (min(seq, 32)) or rounds (seq/2) between the points fits nothing.
// Every value is below 54, so models whose lengths stop at 64 positions still infer at each
// point; a check point a model cannot take (its inference fails there) is left out, but one
// must remain.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ge/graph/sym_expr.h"

namespace ge::symbolic {

/// At most this many symbols are sampled (a grid of 16 points and 2 checks).
inline constexpr size_t kMaxSymbols = 4;

/// The points a graph is evaluated at: one value per symbol each.
class SamplePoints {
 public:
  /// Points for `symbols` (at most kMaxSymbols, distinct). Grid values are distinct primes from
  /// 11 to 37, each symbol's own, away from the sizes models' constants have (powers of two,
  /// multiples of 12); the checks take primes from 41 to 53.
  explicit SamplePoints(std::vector<std::string> symbols);

  size_t size() const { return points_.size(); }
  const std::map<std::string, int64_t>& operator[](size_t i) const { return points_[i]; }
  const std::vector<std::string>& symbols() const { return symbols_; }

  /// The expression whose value at point i is `values[i]` at every point, or nullopt. Every grid
  /// point needs a value; a check point may have none, but not all of them. values.size() must
  /// be size().
  std::optional<SymExpr> Fit(const std::vector<std::optional<int64_t>>& values) const;
  /// True for the points of the grid, which every fit needs.
  bool IsGridPoint(size_t i) const { return i < (size_t{1} << symbols_.size()); }

 private:
  std::vector<std::string> symbols_;
  std::vector<int64_t> low_, high_;                     // per symbol: its two grid values
  std::vector<std::map<std::string, int64_t>> points_;  // the grid (bit j: symbol j high), checks
};

}  // namespace ge::symbolic
