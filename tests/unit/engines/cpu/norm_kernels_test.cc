// LayerNorm, softmax, BatchNorm and InstanceNorm against naive loops.
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::Const;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

std::vector<float> RefLayerNorm(const std::vector<float>& x, int64_t rows, int64_t cols,
                                const std::vector<float>& s, const std::vector<float>& b,
                                float eps) {
  std::vector<float> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c) var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      y[r * cols + c] = static_cast<float>((x[r * cols + c] - mean) / std::sqrt(var + eps) * s[c] +
                                           (b.empty() ? 0 : b[c]));
    }
  }
  return y;
}

TEST(LayerNormKernel, LastAxisWithAndWithoutBias) {
  const auto x = Random(4 * 6 * 32, 1), s = Random(32, 2), b = Random(32, 3);
  auto op = Op("LayerNorm");
  AttrUtils::SetFloat(op, "epsilon", 1e-5F);
  auto r = RunKernel(op, {Make({4, 6, 32}, x), Const(Make({32}, s)), Const(Make({32}, b))},
                     {{DT_FLOAT, {4, 6, 32}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefLayerNorm(x, 24, 32, s, b, 1e-5F), 1e-4F, 1e-5F);
  r = RunKernel(op, {Make({4, 6, 32}, x), Make({32}, s), Absent()}, {{DT_FLOAT, {4, 6, 32}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefLayerNorm(x, 24, 32, s, {}, 1e-5F), 1e-4F, 1e-5F);
}

TEST(LayerNormKernel, AxisOneBroadcastScaleAndStatistics) {
  const auto x = Random(3 * 4 * 5, 4);
  auto op = Op("LayerNorm");
  AttrUtils::SetInt(op, "axis", -2);
  auto r = RunKernel(op, {Make({3, 4, 5}, x), Make<float>({5}, {1, 2, 3, 4, 5})},
                     {{DT_FLOAT, {3, 4, 5}}, {DT_FLOAT, {3, 1, 1}}, {DT_FLOAT, {3, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> s;
  for (int i = 0; i < 20; ++i) s.push_back(static_cast<float>(i % 5 + 1));
  ExpectNear(r.outputs[0].Values<float>(), RefLayerNorm(x, 3, 20, s, {}, 1e-5F), 1e-4F, 1e-5F);
  double m0 = 0;
  for (int i = 0; i < 20; ++i) m0 += x[i];
  EXPECT_NEAR(r.outputs[1].Values<float>()[0], m0 / 20, 1e-5);
}

TEST(LayerNormKernel, RejectsBadAxisAndScale) {
  auto op = Op("LayerNorm", "ln");
  AttrUtils::SetInt(op, "axis", 3);
  auto r = RunKernel(op, {Make({2, 3}, Random(6)), Make({3}, Random(3))}, {{DT_FLOAT, {2, 3}}});
  ExpectError(r.status, "axis", "ln");
  r = RunKernel(Op("LayerNorm"), {Make({2, 3}, Random(6)), Make({2}, Random(2))},
                {{DT_FLOAT, {2, 3}}});
  ExpectError(r.status, "broadcast");
}

std::vector<float> RefSoftmax(const std::vector<float>& x, int64_t outer, int64_t len,
                              int64_t inner, bool log) {
  std::vector<float> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double m = -1e30, s = 0;
      for (int64_t k = 0; k < len; ++k) m = std::max<double>(m, x[(o * len + k) * inner + i]);
      for (int64_t k = 0; k < len; ++k) s += std::exp(x[(o * len + k) * inner + i] - m);
      for (int64_t k = 0; k < len; ++k) {
        const double v = x[(o * len + k) * inner + i] - m;
        y[(o * len + k) * inner + i] = static_cast<float>(log ? v - std::log(s) : std::exp(v) / s);
      }
    }
  return y;
}

TEST(SoftmaxKernel, AnyAxisAndLogSoftmax) {
  const auto x = Random(2 * 3 * 4 * 5, 5, -4, 4);
  for (bool log : {false, true}) {
    for (int64_t axis : {-1, 1, 0, 2}) {
      auto op = Op(log ? "LogSoftmaxV2" : "SoftmaxV2");
      AttrUtils::SetInt(op, "axis", axis);
      const std::vector<int64_t> d = {2, 3, 4, 5};
      const int64_t a = axis < 0 ? axis + 4 : axis;
      int64_t outer = 1, inner = 1;
      for (int64_t i = 0; i < a; ++i) outer *= d[i];
      for (int64_t i = a + 1; i < 4; ++i) inner *= d[i];
      auto r = RunKernel(op, {Make(d, x)}, {{DT_FLOAT, d}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      ExpectNear(r.outputs[0].Values<float>(), RefSoftmax(x, outer, d[a], inner, log), 1e-5F,
                 1e-6F);
    }
  }
  auto op = Op("SoftmaxV2");
  AttrUtils::SetInt(op, "axis", 4);
  ExpectError(RunKernel(op, {Make({2, 3}, Random(6))}, {{DT_FLOAT, {2, 3}}}).status, "axis");
}

TEST(BatchNormKernel, InferenceMatchesFormula) {
  const auto x = Random(2 * 3 * 4, 6);
  const std::vector<float> scale = {1, 2, 3}, offset = {0.5F, 0, -1}, mean = {0.1F, 0.2F, 0.3F},
                           var = {1, 0.5F, 2};
  auto r = RunKernel(Op("BatchNorm"),
                     {Make({2, 3, 2, 2}, x), Const(Make({3}, scale)), Const(Make({3}, offset)),
                      Const(Make({3}, mean)), Const(Make({3}, var))},
                     {{DT_FLOAT, {2, 3, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (int i = 0; i < 24; ++i) {
    const int c = (i / 4) % 3;
    want.push_back((x[i] - mean[c]) / std::sqrt(var[c] + 1e-5F) * scale[c] + offset[c]);
  }
  ExpectNear(r.outputs[0].Values<float>(), want);
}

// training_mode = 1 normalizes with the batch's statistics (population variance over N and the
// spatial dims) and writes the running ones: input * momentum + batch * (1 - momentum).
TEST(BatchNormKernel, TrainingModeUsesTheBatchStatistics) {
  const std::vector<float> x = {1, 2, 3, 4, 10, 20, 30, 40};  // [N 2, C 2, 2]
  const std::vector<float> scale = {1, 2}, offset = {0, 1}, mean = {0.5F, 1}, var = {2, 3};
  auto train = Op("BatchNorm");
  AttrUtils::SetInt(train, "training_mode", 1);
  AttrUtils::SetFloat(train, "momentum", 0.8F);
  auto r = RunKernel(
      train,
      {Make({2, 2, 2}, x), Make({2}, scale), Make({2}, offset), Make({2}, mean), Make({2}, var)},
      {{DT_FLOAT, {2, 2, 2}}, {DT_FLOAT, {2}}, {DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // Channel 0 holds 1, 2, 10, 20; channel 1 holds 3, 4, 30, 40.
  const double m[2] = {8.25, 19.25};
  double v[2] = {0, 0};
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < 2; ++i) v[c] += std::pow(x[(n * 2 + c) * 2 + i] - m[c], 2) / 4;
    }
  }
  std::vector<float> want;
  for (int i = 0; i < 8; ++i) {
    const int c = (i / 2) % 2;
    want.push_back(
        static_cast<float>((x[i] - m[c]) / std::sqrt(v[c] + 1e-5) * scale[c] + offset[c]));
  }
  ExpectNear(r.outputs[0].Values<float>(), want);
  ExpectNear(r.outputs[1].Values<float>(), {static_cast<float>(0.5 * 0.8 + m[0] * 0.2),
                                            static_cast<float>(1 * 0.8 + m[1] * 0.2)});
  ExpectNear(r.outputs[2].Values<float>(),
             {static_cast<float>(2 * 0.8 + v[0] * 0.2), static_cast<float>(3 * 0.8 + v[1] * 0.2)});
}

TEST(InstanceNormKernel, NormalizesEachPlane) {
  const auto x = Random(2 * 2 * 9, 7);
  const std::vector<float> s = {1, 2}, b = {0, 1};
  auto r = RunKernel(Op("InstanceNorm"), {Make({2, 2, 3, 3}, x), Make({2}, s), Make({2}, b)},
                     {{DT_FLOAT, {2, 2, 3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want;
  for (int p = 0; p < 4; ++p) {
    std::vector<float> plane(x.begin() + p * 9, x.begin() + (p + 1) * 9);
    auto y = RefLayerNorm(plane, 1, 9, std::vector<float>(9, s[p % 2]),
                          std::vector<float>(9, b[p % 2]), 1e-5F);
    want.insert(want.end(), y.begin(), y.end());
  }
  ExpectNear(r.outputs[0].Values<float>(), want, 1e-4F, 1e-5F);
}

// Planes of no elements have no mean: the output is empty too, and nothing is read.
TEST(InstanceNormKernel, EmptyPlanesGiveAnEmptyOutput) {
  const std::vector<float> s = {1}, b = {0};
  auto r =
      RunKernel(Op("InstanceNorm"), {Make<float>({1, 1, 4, 0}, {}), Make({1}, s), Make({1}, b)},
                {{DT_FLOAT, {1, 1, 4, 0}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(r.outputs[0].Values<float>().empty());
}

}  // namespace
}  // namespace ge::host_cpu
