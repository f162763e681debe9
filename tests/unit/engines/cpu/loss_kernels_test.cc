// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against a naive reference of ONNX's
// definition (weights, ignore_index, every reduction, N-d inputs).
#include <cmath>
#include <limits>
#include <optional>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Absent;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

// ONNX's reference loss of log-probabilities lp [n, c, d] at targets [n, d].
std::vector<float> RefNll(const std::vector<float>& lp, const std::vector<int64_t>& target,
                          int64_t n, int64_t c, int64_t d, const std::vector<float>& w,
                          const std::string& reduction, std::optional<int64_t> ignore) {
  std::vector<float> loss(static_cast<size_t>(n * d));
  double sum = 0, wsum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const int64_t t = target[i * d + j];
      if (ignore && t == *ignore) {
        loss[i * d + j] = 0;
        continue;
      }
      const double wt = w.empty() ? 1.0 : w[t];
      loss[i * d + j] = static_cast<float>(-wt * lp[(i * c + t) * d + j]);
      sum += loss[i * d + j];
      wsum += wt;
    }
  }
  if (reduction == "none") return loss;
  if (reduction == "sum") return {static_cast<float>(sum)};
  return {static_cast<float>(sum / wsum)};
}

std::vector<float> RefLogSoftmaxAxis1(const std::vector<float>& x, int64_t n, int64_t c,
                                      int64_t d) {
  std::vector<float> y(x.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      double m = -1e30, s = 0;
      for (int64_t k = 0; k < c; ++k) m = std::max<double>(m, x[(i * c + k) * d + j]);
      for (int64_t k = 0; k < c; ++k) s += std::exp(x[(i * c + k) * d + j] - m);
      for (int64_t k = 0; k < c; ++k) {
        y[(i * c + k) * d + j] = static_cast<float>(x[(i * c + k) * d + j] - m - std::log(s));
      }
    }
  }
  return y;
}

std::vector<int64_t> Targets(int64_t count, int64_t c, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<int64_t> t(static_cast<size_t>(count));
  for (int64_t& v : t) v = static_cast<int64_t>(gen() % static_cast<uint32_t>(c));
  return t;
}

TEST(NllLossKernel, EveryReductionWithAndWithoutWeightsOnNd) {
  const int64_t n = 2, c = 4, d1 = 3, d2 = 2, d = d1 * d2;
  const auto x = Random(n * c * d, 1);
  const auto t = Targets(n * d, c, 2);
  const std::vector<float> w = {0.5F, 1.5F, 2.0F, 0.25F};
  for (const std::string red : {"none", "sum", "mean"}) {
    for (bool weighted : {false, true}) {
      auto op = Op("NegativeLogLikelihoodLoss");
      AttrUtils::SetStr(op, "reduction", red);
      const std::vector<int64_t> out_dims =
          red == "none" ? std::vector<int64_t>{n, d1, d2} : std::vector<int64_t>{};
      auto r = RunKernel(
          op, {Make({n, c, d1, d2}, x), Make({n, d1, d2}, t), weighted ? Make({c}, w) : Absent()},
          {{DT_FLOAT, out_dims}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      ExpectNear(r.outputs[0].Values<float>(),
                 RefNll(x, t, n, c, d, weighted ? w : std::vector<float>{}, red, std::nullopt));
    }
  }
}

TEST(NllLossKernel, IgnoredTargetsLeaveTheMeanAndMayBeOutOfRange) {
  const int64_t n = 3, c = 5;
  const auto x = Random(n * c, 3);
  const std::vector<float> w = {1, 2, 3, 4, 5};
  for (int64_t ignore : {int64_t{2}, int64_t{-5}, int64_t{10}}) {
    std::vector<int64_t> t = {1, ignore, 4};
    auto op = Op("NegativeLogLikelihoodLoss");
    AttrUtils::SetInt(op, "ignore_index", ignore);
    auto r = RunKernel(op, {Make({n, c}, x), Make({n}, t), Make({c}, w)}, {{DT_FLOAT, {}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const float want = static_cast<float>((-2.0 * x[0 * c + 1] - 5.0 * x[2 * c + 4]) / 7.0);
    EXPECT_NEAR(r.outputs[0].Values<float>()[0], want, 1e-6);
    ExpectNear(r.outputs[0].Values<float>(), RefNll(x, t, n, c, 1, w, "mean", ignore));
  }
  // Without weights the mean divides by the number of targets not ignored.
  auto op = Op("NegativeLogLikelihoodLoss");
  AttrUtils::SetInt(op, "ignore_index", 0);
  const std::vector<int32_t> t32 = {0, 3, 0};
  auto r = RunKernel(op, {Make({n, c}, x), Make({n}, t32)}, {{DT_FLOAT, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(r.outputs[0].Values<float>()[0], -x[1 * c + 3], 1e-6);
}

TEST(NllLossKernel, AllTargetsIgnoredGiveNaNMean) {
  auto op = Op("NegativeLogLikelihoodLoss");
  AttrUtils::SetInt(op, "ignore_index", 1);
  auto r = RunKernel(op, {Make({2, 3}, Random(6)), Make<int64_t>({2}, {1, 1})}, {{DT_FLOAT, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(std::isnan(r.outputs[0].Values<float>()[0]));
}

TEST(NllLossKernel, DoubleScores) {
  const std::vector<double> x = {-0.5, -1.0, -2.0, -0.1, -3.0, -0.7};
  auto op = Op("NegativeLogLikelihoodLoss");
  AttrUtils::SetStr(op, "reduction", "sum");
  auto r = RunKernel(op, {Make({2, 3}, x), Make<int64_t>({2}, {2, 0})}, {{DT_DOUBLE, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_DOUBLE_EQ(r.outputs[0].Values<double>()[0], 2.0 + 0.1);
}

TEST(NllLossKernel, RejectsBadReductionShapesAndTargets) {
  auto bad = Op("NegativeLogLikelihoodLoss", "nll");
  AttrUtils::SetStr(bad, "reduction", "max");
  auto r = RunKernel(bad, {Make({2, 3}, Random(6)), Make<int64_t>({2}, {0, 1})}, {{DT_FLOAT, {}}});
  ExpectError(r.status, "'reduction' must be none, sum or mean", "nll");
  r = RunKernel(Op("NegativeLogLikelihoodLoss"),
                {Make({2, 3, 4}, Random(24)), Make<int64_t>({2, 3}, {0, 1, 2, 0, 1, 2})},
                {{DT_FLOAT, {}}});
  ExpectError(r.status, "without dim 1");
  r = RunKernel(Op("NegativeLogLikelihoodLoss"),
                {Make({2, 3}, Random(6)), Make<int64_t>({2}, {0, 3})}, {{DT_FLOAT, {}}});
  ExpectError(r.status, "class index 3 is out of range [0, 3)");
  r = RunKernel(Op("NegativeLogLikelihoodLoss"),
                {Make({2, 3}, Random(6)), Make<int64_t>({2}, {0, 1}), Make({2}, Random(2))},
                {{DT_FLOAT, {}}});
  ExpectError(r.status, "weights must be [3]");
  r = RunKernel(Op("NegativeLogLikelihoodLoss"),
                {Make({2, 3}, Random(6)), Make<float>({2}, {0, 1})}, {{DT_FLOAT, {}}});
  ExpectError(r.status, "int32 or int64");
}

TEST(SoftmaxCrossEntropyLossKernel, LossAndLogProbOnNdWithIgnoreAndWeights) {
  const int64_t n = 3, c = 5, d1 = 2, d2 = 3, d = d1 * d2;
  const auto x = Random(n * c * d, 7, -3.0F, 3.0F);
  auto t = Targets(n * d, c, 8);
  t[1] = -1;
  t[7] = -1;
  const auto w = Random(c, 9, 0.1F, 2.0F);
  const auto lp = RefLogSoftmaxAxis1(x, n, c, d);
  for (const std::string red : {"none", "sum", "mean"}) {
    auto op = Op("SoftmaxCrossEntropyLoss");
    AttrUtils::SetStr(op, "reduction", red);
    AttrUtils::SetInt(op, "ignore_index", -1);
    const std::vector<int64_t> out_dims =
        red == "none" ? std::vector<int64_t>{n, d1, d2} : std::vector<int64_t>{};
    auto r = RunKernel(op, {Make({n, c, d1, d2}, x), Make({n, d1, d2}, t), Make({c}, w)},
                       {{DT_FLOAT, out_dims}, {DT_FLOAT, {n, c, d1, d2}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ExpectNear(r.outputs[0].Values<float>(), RefNll(lp, t, n, c, d, w, red, -1), 1e-5F, 1e-5F);
    ExpectNear(r.outputs[1].Values<float>(), lp, 1e-5F, 1e-5F);
  }
}

TEST(SoftmaxCrossEntropyLossKernel, WithoutLogProbOutputAndLargeScores) {
  // Scores far from 0 must not overflow exp.
  const std::vector<float> x = {1000, 1001, 999, -1000, -1002, -1001};
  auto r = RunKernel(Op("SoftmaxCrossEntropyLoss"), {Make({2, 3}, x), Make<int64_t>({2}, {1, 0})},
                     {{DT_FLOAT, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto lp = RefLogSoftmaxAxis1(x, 2, 3, 1);
  EXPECT_TRUE(std::isfinite(r.outputs[0].Values<float>()[0]));
  EXPECT_NEAR(r.outputs[0].Values<float>()[0], -(lp[1] + lp[3]) / 2, 1e-5);
}

TEST(SoftmaxCrossEntropyLossKernel, RejectsRank1ScoresAndBadLogProb) {
  auto r = RunKernel(Op("SoftmaxCrossEntropyLoss", "sce"),
                     {Make({3}, Random(3)), Make<int64_t>({}, {0})}, {{DT_FLOAT, {}}});
  ExpectError(r.status, "rank >= 2", "sce");
  r = RunKernel(Op("SoftmaxCrossEntropyLoss"),
                {Make({2, 3}, Random(6)), Make<int64_t>({2}, {0, 1})},
                {{DT_FLOAT, {}}, {DT_FLOAT, {3, 2}}});
  ExpectError(r.status, "log_prob output");
}

}  // namespace
}  // namespace ge::host_cpu
