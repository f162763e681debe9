// The row arithmetic of the normalizations over rows (LayerNorm, SkipLayerNorm, RMSNormalization):
// Eigen array expressions.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>

namespace ge::host_cpu {

/// Mean and 1 / sqrt(variance + epsilon) of one normalized row.
struct RowStats {
  float mean = 0.0F;
  float inv = 0.0F;
};

/// y = (x - mean) * inv * scale (+ bias) over `cols` values; `y` may be `x`.
inline RowStats NormalizeRow(const float* x, float* y, int64_t cols, const float* scale,
                             const float* bias, float epsilon) {
  using Row = Eigen::Map<Eigen::ArrayXf>;
  using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
  ConstRow xr(x, cols);
  RowStats s;
  s.mean = xr.mean();
  s.inv = 1.0F / std::sqrt((xr - s.mean).square().mean() + epsilon);
  Row yr(y, cols);
  if (bias != nullptr) {
    yr = (xr - s.mean) * s.inv * ConstRow(scale, cols) + ConstRow(bias, cols);
  } else {
    yr = (xr - s.mean) * s.inv * ConstRow(scale, cols);
  }
  return s;
}

/// y = x / sqrt(mean(x^2) + epsilon) * scale over `cols` values; `y` may be `x`.
inline void RmsNormalizeRow(const float* x, float* y, int64_t cols, const float* scale,
                            float epsilon) {
  Eigen::Map<const Eigen::ArrayXf> xr(x, cols);
  const float inv = 1.0F / std::sqrt(xr.square().mean() + epsilon);
  Eigen::Map<Eigen::ArrayXf>(y, cols) = xr * inv * Eigen::Map<const Eigen::ArrayXf>(scale, cols);
}

}  // namespace ge::host_cpu
