// SwiGLU against a long double reference of a * sigmoid(alpha * a) * b, tails included, and its
// refusal of inputs of two shapes.
#include <algorithm>
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;

TEST(SwigluKernel, GatesTheValueWithSwishOfTheGate) {
  std::vector<float> a = Random(1000, 21, -30.0F, 30.0F);
  a[0] = 0.0F;
  a[1] = -87.0F;  // deep in the tail: a * sigmoid(a) is tiny but not zero
  const std::vector<float> b = Random(1000, 22, -2.0F, 2.0F);
  for (const float alpha : {1.0F, 1.702F}) {
    auto op = Op("SwiGLU");
    AttrUtils::SetFloat(op, "alpha", alpha);
    auto r = RunKernel(op, {Make<float>({10, 100}, a), Make<float>({10, 100}, b)},
                       {{DT_FLOAT, {10, 100}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto y = r.outputs[0].Values<float>();
    for (size_t i = 0; i < a.size(); ++i) {
      // alpha * a is a float product, as the operator computes it in the tensor's type; the
      // rest exactly. A result below float's range may be zero.
      const long double x = a[i];
      const long double scaled = alpha * a[i];
      const long double want = x / (1.0L + std::exp(-scaled)) * b[i];
      EXPECT_LE(std::fabs(static_cast<long double>(y[i]) - want),
                std::max(4e-7L * std::fabs(want), 1e-44L))
          << "a " << a[i] << " b " << b[i] << " alpha " << alpha;
    }
  }
  auto r = RunKernel(Op("SwiGLU"), {Make<double>({2}, {1.0, -1.0}), Make<double>({2}, {2.0, 2.0})},
                     {{DT_DOUBLE, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(r.outputs[0].Values<double>()[0], 2.0 / (1.0 + std::exp(-1.0)), 1e-15);
  EXPECT_NEAR(r.outputs[0].Values<double>()[1], -2.0 / (1.0 + std::exp(1.0)), 1e-15);
  const std::vector<float> six(a.begin(), a.begin() + 6);
  ExpectError(RunKernel(Op("SwiGLU"), {Make<float>({2, 3}, six), Make<float>({3, 2}, six)},
                        {{DT_FLOAT, {2, 3}}})
                  .status,
              "one shape");
}

}  // namespace
}  // namespace ge::host_cpu
