// The sample points of symbolic shape inference and the multilinear fit through them.
#include "ge/compiler/symbolic_fit.h"

#include <algorithm>
#include <array>

namespace ge::symbolic {
namespace {

// Per symbol j: grid values kGrid[2j] and kGrid[2j+1], check values kCheck[0][j], kCheck[1][j].
constexpr std::array<int64_t, 2 * kMaxSymbols> kGrid = {11, 17, 13, 23, 19, 29, 31, 37};
constexpr std::array<std::array<int64_t, kMaxSymbols>, 2> kCheck = {
    {{41, 43, 47, 53}, {53, 47, 43, 41}}};

}  // namespace

SamplePoints::SamplePoints(std::vector<std::string> symbols) : symbols_(std::move(symbols)) {
  const size_t k = std::min(symbols_.size(), kMaxSymbols);
  symbols_.resize(k);
  for (size_t j = 0; j < k; ++j) {
    low_.push_back(kGrid[2 * j]);
    high_.push_back(kGrid[2 * j + 1]);
  }
  for (size_t p = 0; p < (size_t{1} << k); ++p) {
    std::map<std::string, int64_t> point;
    for (size_t j = 0; j < k; ++j) point[symbols_[j]] = ((p >> j) & 1U) != 0 ? high_[j] : low_[j];
    points_.push_back(std::move(point));
  }
  for (const auto& check : kCheck) {
    std::map<std::string, int64_t> point;
    for (size_t j = 0; j < k; ++j) point[symbols_[j]] = check[j];
    points_.push_back(std::move(point));
  }
}

std::optional<SymExpr> SamplePoints::Fit(const std::vector<std::optional<int64_t>>& values) const {
  const size_t k = symbols_.size();
  const size_t grid = size_t{1} << k;
  if (values.size() != points_.size() ||
      std::any_of(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(grid),
                  [](const auto& v) { return !v.has_value(); }) ||
      std::none_of(values.begin() + static_cast<std::ptrdiff_t>(grid), values.end(),
                   [](const auto& v) { return v.has_value(); })) {
    return std::nullopt;
  }
  // Inverts the grid one symbol at a time: along symbol j, the pair (f at low, f at high)
  // becomes (the part without symbol j, its coefficient), which must be whole numbers. At the
  // end, entry p is the coefficient of the product of the symbols whose bits p has.
  std::vector<int64_t> c;
  for (size_t p = 0; p < grid; ++p) c.push_back(*values[p]);
  for (size_t j = 0; j < k; ++j) {
    const int64_t step = high_[j] - low_[j];
    for (size_t p = 0; p < grid; ++p) {
      if (((p >> j) & 1U) != 0) continue;
      const size_t q = p | (size_t{1} << j);
      int64_t rise = 0;
      int64_t at_low = 0;
      if (__builtin_sub_overflow(c[q], c[p], &rise) || rise % step != 0) return std::nullopt;
      const int64_t slope = rise / step;
      if (__builtin_mul_overflow(slope, low_[j], &at_low) ||
          __builtin_sub_overflow(c[p], at_low, &c[p])) {
        return std::nullopt;
      }
      c[q] = slope;
    }
  }
  SymExpr expr;
  for (size_t p = 0; p < grid; ++p) {
    if (c[p] == 0) continue;
    SymExpr term = SymExpr::Constant(c[p]);
    for (size_t j = 0; j < k; ++j) {
      if (((p >> j) & 1U) == 0) continue;
      std::optional<SymExpr> product = term.Times(SymExpr::Symbol(symbols_[j]));
      if (!product) return std::nullopt;
      term = std::move(*product);
    }
    std::optional<SymExpr> sum = expr.Plus(term);
    if (!sum) return std::nullopt;
    expr = std::move(*sum);
  }
  for (size_t i = grid; i < points_.size(); ++i) {
    if (values[i] && expr.Evaluate(points_[i]) != *values[i]) return std::nullopt;
  }
  return expr;
}

}  // namespace ge::symbolic
