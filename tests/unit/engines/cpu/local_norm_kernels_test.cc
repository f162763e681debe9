// LRN and MeanVarianceNormalization against naive references of ONNX's definitions.
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

std::vector<float> RefLrn(const std::vector<float>& x, int64_t n, int64_t c, int64_t inner,
                          int64_t size, double alpha, double beta, double bias) {
  std::vector<float> y(x.size());
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t i = 0; i < inner; ++i) {
        double sq = 0;
        const int64_t lo = std::max<int64_t>(0, ch - (size - 1) / 2);
        const int64_t hi =
            std::min<int64_t>(c - 1, ch + static_cast<int64_t>(std::ceil((size - 1) / 2.0)));
        for (int64_t k = lo; k <= hi; ++k)
          sq += x[(b * c + k) * inner + i] * x[(b * c + k) * inner + i];
        y[(b * c + ch) * inner + i] = static_cast<float>(x[(b * c + ch) * inner + i] /
                                                         std::pow(bias + alpha / size * sq, beta));
      }
    }
  }
  return y;
}

TEST(LrnKernel, OddAndEvenWindowsWithAttributes) {
  const auto x = Random(2 * 6 * 3 * 3, 21, -2.0F, 2.0F);
  for (int64_t size : {int64_t{1}, int64_t{3}, int64_t{4}, int64_t{7}}) {
    auto op = Op("LRN");
    AttrUtils::SetInt(op, "size", size);
    AttrUtils::SetFloat(op, "alpha", 0.002F);
    AttrUtils::SetFloat(op, "beta", 0.5F);
    AttrUtils::SetFloat(op, "bias", 2.0F);
    auto r = RunKernel(op, {Make({2, 6, 3, 3}, x)}, {{DT_FLOAT, {2, 6, 3, 3}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ExpectNear(r.outputs[0].Values<float>(), RefLrn(x, 2, 6, 9, size, 0.002F, 0.5F, 2.0F), 1e-5F,
               1e-6F);
  }
}

TEST(LrnKernel, DefaultsNeedOnlySize) {
  const auto x = Random(1 * 5 * 4, 22, -10.0F, 10.0F);
  auto op = Op("LRN");
  AttrUtils::SetInt(op, "size", 3);
  auto r = RunKernel(op, {Make({1, 5, 4}, x)}, {{DT_FLOAT, {1, 5, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefLrn(x, 1, 5, 4, 3, 1e-4F, 0.75F, 1.0F), 1e-5F, 1e-6F);
}

TEST(LrnKernel, RejectsMissingOrNonPositiveSize) {
  auto r = RunKernel(Op("LRN", "lrn"), {Make({1, 2, 2}, Random(4))}, {{DT_FLOAT, {1, 2, 2}}});
  ExpectError(r.status, "'size' is required", "lrn");
  auto op = Op("LRN", "lrn");
  AttrUtils::SetInt(op, "size", 0);
  r = RunKernel(op, {Make({1, 2, 2}, Random(4))}, {{DT_FLOAT, {1, 2, 2}}});
  ExpectError(r.status, "'size' must be positive", "lrn");
}

// Statistics over `axes` of a [a, b, c, d] tensor, by brute force over every element pair.
std::vector<float> RefMvn(const std::vector<float>& x, const std::vector<int64_t>& dims,
                          const std::vector<bool>& reduced) {
  const int64_t total = static_cast<int64_t>(x.size());
  auto coords = [&](int64_t i) {
    std::vector<int64_t> c(dims.size());
    for (size_t k = dims.size(); k-- > 0;) {
      c[k] = i % dims[k];
      i /= dims[k];
    }
    return c;
  };
  std::vector<float> y(x.size());
  for (int64_t i = 0; i < total; ++i) {
    const auto ci = coords(i);
    double s = 0, sq = 0, cnt = 0;
    for (int64_t j = 0; j < total; ++j) {
      const auto cj = coords(j);
      bool same = true;
      for (size_t k = 0; k < dims.size(); ++k) same = same && (reduced[k] || ci[k] == cj[k]);
      if (!same) continue;
      s += x[j];
      sq += x[j] * x[j];
      cnt += 1;
    }
    const double mean = s / cnt;
    y[i] = static_cast<float>((x[i] - mean) / (std::sqrt(sq / cnt - mean * mean) + 1e-9));
  }
  return y;
}

TEST(MvnKernel, DefaultAxesAndChosenAxes) {
  const std::vector<int64_t> dims = {2, 3, 2, 2};
  const auto x = Random(24, 23, -3.0F, 5.0F);
  auto r = RunKernel(Op("MeanVarianceNormalization"), {Make(dims, x)}, {{DT_FLOAT, dims}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefMvn(x, dims, {true, false, true, true}), 1e-4F,
             1e-5F);
  auto op = Op("MeanVarianceNormalization");
  AttrUtils::SetListInt(op, "axes", std::vector<int64_t>{1, -1});
  r = RunKernel(op, {Make(dims, x)}, {{DT_FLOAT, dims}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefMvn(x, dims, {false, true, false, true}), 1e-4F,
             1e-5F);
}

TEST(MvnKernel, RejectsAxisOutOfRange) {
  auto op = Op("MeanVarianceNormalization", "mvn");
  AttrUtils::SetListInt(op, "axes", std::vector<int64_t>{0, 4});
  auto r = RunKernel(op, {Make({2, 3, 2, 2}, Random(24))}, {{DT_FLOAT, {2, 3, 2, 2}}});
  ExpectError(r.status, "'axes' value 4 is out of range", "mvn");
}

}  // namespace
}  // namespace ge::host_cpu
