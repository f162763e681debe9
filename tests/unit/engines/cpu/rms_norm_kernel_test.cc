// RMSNormalization on hand-checked rows: x / sqrt(mean(x^2) + epsilon) * scale.
#include <cmath>

#include "half_float.h"
#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

std::shared_ptr<OpDesc> RmsOp(int64_t axis, float epsilon = 0.0F) {
  auto op = Op("RMSNormalization");
  AttrUtils::SetInt(op, "axis", axis);
  AttrUtils::SetFloat(op, "epsilon", epsilon);
  return op;
}

// [3, 4] has mean square 12.5; [0, 0] with epsilon 1 divides by 1.
TEST(RmsNormKernel, NormalizesTheLastAxisByDefault) {
  auto op = Op("RMSNormalization");
  AttrUtils::SetFloat(op, "epsilon", 1.0F);
  auto r = RunKernel(op, {Make<float>({2, 2}, {3, 4, 0, 0}), Make<float>({2}, {1, 2})},
                     {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const float inv = 1.0F / std::sqrt(13.5F);
  ExpectNear(r.outputs[0].Values<float>(), {3 * inv, 8 * inv, 0, 0});
}

// axis 0 of [2, 2] normalizes all four values together: mean square (1 + 4 + 9 + 16) / 4.
TEST(RmsNormKernel, AxisZeroNormalizesEverything) {
  auto r =
      RunKernel(RmsOp(0), {Make<float>({2, 2}, {1, 2, 3, 4}), Make<float>({2, 2}, {1, 1, 2, 2})},
                {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const float inv = 1.0F / std::sqrt(7.5F);
  ExpectNear(r.outputs[0].Values<float>(), {inv, 2 * inv, 6 * inv, 8 * inv});
}

// A scale broadcasting over the normalized dims ([1, 2] over [2, 2]) and one that differs per
// row ([2, 1]: each row its own factor) both follow numpy.
TEST(RmsNormKernel, ScaleBroadcastsToX) {
  const TestTensor x = Make<float>({2, 2}, {3, 4, 6, 8});
  const float inv0 = 1.0F / std::sqrt(12.5F), inv1 = 1.0F / std::sqrt(50.0F);
  auto inner = RunKernel(RmsOp(-1), {x, Make<float>({1, 2}, {1, 10})}, {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(inner.status.ok()) << inner.status.message();
  ExpectNear(inner.outputs[0].Values<float>(), {3 * inv0, 40 * inv0, 6 * inv1, 80 * inv1});
  auto rows = RunKernel(RmsOp(1), {x, Make<float>({2, 1}, {1, 10})}, {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(rows.status.ok()) << rows.status.message();
  ExpectNear(rows.outputs[0].Values<float>(), {3 * inv0, 4 * inv0, 60 * inv1, 80 * inv1});
}

// The statistics run over every dim from axis on: [2, 3, 2] at axis 1 has two rows of six.
TEST(RmsNormKernel, MiddleAxisTakesTheTrailingDims) {
  std::vector<float> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto r = RunKernel(RmsOp(-2, 0.5F),
                     {Make<float>({2, 3, 2}, x), Make<float>({3, 2}, std::vector<float>(6, 2.0F))},
                     {{DT_FLOAT, {2, 3, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want(12);
  for (int row = 0; row < 2; ++row) {
    double ms = 0;
    for (int j = 0; j < 6; ++j) ms += x[row * 6 + j] * x[row * 6 + j] / 6.0;
    for (int j = 0; j < 6; ++j)
      want[row * 6 + j] = static_cast<float>(x[row * 6 + j] / std::sqrt(ms + 0.5) * 2);
  }
  ExpectNear(r.outputs[0].Values<float>(), want);
}

// float16 X with a float scale gives a float Y (the scale's type), computed in float as the CPU
// engine runs the kernel on 16-bit floats; the kernel alone takes float only.
TEST(RmsNormKernel, Float16InputComputesInFloat) {
  TestTensor x = Make<uint16_t>({2}, {ToFloat16(3.0).bits, ToFloat16(4.0).bits});
  x.dtype = DT_FLOAT16;
  const TestTensor scale = Make<float>({2}, {1, 1});
  ExpectError(RunKernel(RmsOp(-1), {x, scale}, {{DT_FLOAT, {2}}}).status,
              "dtype DT_FLOAT16 is not supported");
  auto r = RunKernel(RmsOp(-1), {x, scale}, {{DT_FLOAT, {2}}}, {.widened = true});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {0.6F * std::sqrt(2.0F), 0.8F * std::sqrt(2.0F)});
}

TEST(RmsNormKernel, BadAxisScaleAndStashTypeNameTheNode) {
  const TestTensor x = Make<float>({2, 2}, {1, 2, 3, 4});
  ExpectError(RunKernel(RmsOp(2), {x, Make<float>({2}, {1, 1})}, {{DT_FLOAT, {2, 2}}}).status,
              "attribute 'axis' 2 is out of range for rank 2");
  ExpectError(RunKernel(RmsOp(-1), {x, Make<float>({3}, {1, 1, 1})}, {{DT_FLOAT, {2, 2}}}).status,
              "scale [3] does not broadcast to X [2,2]");
  auto stash = RmsOp(-1);
  AttrUtils::SetInt(stash, "stash_type", 11);
  ExpectError(RunKernel(stash, {x, Make<float>({2}, {1, 1})}, {{DT_FLOAT, {2, 2}}}).status,
              "attribute 'stash_type' 11 is not supported");
}

}  // namespace
}  // namespace ge::host_cpu
