// The Det kernel against a cofactor-expansion reference.
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

// Laplace expansion along the first row (exponential, fine for m <= 5).
double RefDet(const std::vector<double>& a, int64_t m) {
  if (m == 1) return a[0];
  double det = 0;
  for (int64_t c = 0; c < m; ++c) {
    std::vector<double> minor;
    for (int64_t r = 1; r < m; ++r) {
      for (int64_t k = 0; k < m; ++k) {
        if (k != c) minor.push_back(a[r * m + k]);
      }
    }
    det += (c % 2 == 0 ? 1 : -1) * a[c] * RefDet(minor, m - 1);
  }
  return det;
}

TEST(DetKernel, BatchesOfEverySizeMatchTheCofactorExpansion) {
  for (int64_t m : {1, 2, 3, 5}) {
    const auto x = Random(3 * 2 * m * m, static_cast<uint32_t>(m));
    auto r = RunKernel(Op("Det"), {Make({3, 2, m, m}, x)}, {{DT_FLOAT, {3, 2}}});
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    std::vector<float> want;
    for (int64_t b = 0; b < 6; ++b) {
      want.push_back(static_cast<float>(
          RefDet(std::vector<double>(x.begin() + b * m * m, x.begin() + (b + 1) * m * m), m)));
    }
    SCOPED_TRACE("m " + std::to_string(m));
    ExpectNear(r.outputs[0].Values<float>(), want, 1e-4F, 1e-6F);
  }
}

TEST(DetKernel, PivotsPastAZeroAndGivesZeroForSingular) {
  // [[0, 1], [2, 3]] needs a row swap: det = -2. [[1, 2], [2, 4]] is singular.
  auto r =
      RunKernel(Op("Det"), {Make<double>({2, 2, 2}, {0, 1, 2, 3, 1, 2, 2, 4})}, {{DT_DOUBLE, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const auto y = r.outputs[0].Values<double>();
  EXPECT_DOUBLE_EQ(y[0], -2.0);
  EXPECT_DOUBLE_EQ(y[1], 0.0);
  auto two = RunKernel(Op("Det"), {Make<float>({2, 2}, {3, 8, 4, 6})}, {{DT_FLOAT, {}}});
  ASSERT_TRUE(two.status.ok()) << two.status.ToString();
  EXPECT_FLOAT_EQ(two.outputs[0].Values<float>()[0], -14.0F);
}

TEST(DetKernel, Errors) {
  auto square = RunKernel(Op("Det"), {Make({2, 3}, Random(6))}, {{DT_FLOAT, {}}});
  ExpectError(square.status, "must end in a square matrix");
  auto dims = RunKernel(Op("Det"), {Make({4, 2, 2}, Random(16))}, {{DT_FLOAT, {2}}});
  ExpectError(dims.status, "are not [4]");
  auto dtype = RunKernel(Op("Det"), {Make<int32_t>({2, 2}, {1, 2, 3, 4})}, {{DT_INT32, {}}});
  ExpectError(dtype.status, "not supported");
}

}  // namespace
}  // namespace ge::host_cpu
