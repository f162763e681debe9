// DeformConv against a plain convolution of the input moved by whole pixels (offsets that are
// whole numbers sample pixels exactly, zero outside), with a mask, a bias and two offset groups,
// and at a half-pixel offset against the average of the two pixels it falls between.
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

constexpr int64_t kC = 2, kH = 5, kW = 5, kM = 3, kK = 3, kOut = 3;

// y[m][i][j] = b[m] + sum over c, taps of w * mask[group of c] * x[c][i + ty + dy[c]][j + tx]
// (zero outside), the offset dy a whole number per offset group (one channel each here).
std::vector<float> Reference(const std::vector<float>& x, const std::vector<float>& w,
                             const std::vector<float>& b, const int64_t dy[kC],
                             const float mask[kC]) {
  std::vector<float> y;
  for (int64_t m = 0; m < kM; ++m) {
    for (int64_t i = 0; i < kOut; ++i) {
      for (int64_t j = 0; j < kOut; ++j) {
        double acc = b[static_cast<size_t>(m)];
        for (int64_t c = 0; c < kC; ++c) {
          for (int64_t ty = 0; ty < kK; ++ty) {
            for (int64_t tx = 0; tx < kK; ++tx) {
              const int64_t h = i + ty + dy[c], v = j + tx;
              if (h < 0 || h >= kH) continue;
              acc +=
                  static_cast<double>(w[static_cast<size_t>(((m * kC + c) * kK + ty) * kK + tx)]) *
                  mask[c] * x[static_cast<size_t>((c * kH + h) * kW + v)];
            }
          }
        }
        y.push_back(static_cast<float>(acc));
      }
    }
  }
  return y;
}

TEST(DeformConvKernel, WholePixelOffsetsMoveTheWindow) {
  const auto x = Random(kC * kH * kW, 31);
  const auto w = Random(kM * kC * kK * kK, 32);
  const std::vector<float> b = {0.5F, -1.0F, 2.0F};
  const int64_t dy[kC] = {1, -2};  // offset group 0 moves down one row, group 1 up two
  const float mask[kC] = {0.5F, 2.0F};
  const int64_t taps = kK * kK, plane = kOut * kOut;
  std::vector<float> offset(static_cast<size_t>(kC * 2 * taps * plane), 0.0F);
  std::vector<float> masks(static_cast<size_t>(kC * taps * plane), 0.0F);
  for (int64_t g = 0; g < kC; ++g) {
    for (int64_t t = 0; t < taps; ++t) {
      for (int64_t p = 0; p < plane; ++p) {
        offset[static_cast<size_t>(((g * taps + t) * 2) * plane + p)] = static_cast<float>(dy[g]);
        masks[static_cast<size_t>((g * taps + t) * plane + p)] = mask[g];
      }
    }
  }
  auto op = Op("DeformConv");
  AttrUtils::SetInt(op, "offset_group", kC);
  auto r = RunKernel(op,
                     {Make({1, kC, kH, kW}, x), Make({kM, kC, kK, kK}, w),
                      Make({1, kC * 2 * taps, kOut, kOut}, offset), Make({kM}, b),
                      Make({1, kC * taps, kOut, kOut}, masks)},
                     {{DT_FLOAT, {1, kM, kOut, kOut}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), Reference(x, w, b, dy, mask), 1e-5F, 1e-5F);
}

TEST(DeformConvKernel, AHalfPixelOffsetAveragesTwoPixels) {
  // One channel, a 1x1 filter of weight 1: y is x sampled at the moved place.
  const std::vector<float> x = {1, 2, 3, 4};                    // [1, 1, 2, 2]
  const std::vector<float> offset = {0.0F, 0.0F, 0.0F,  0.0F,   // dy
                                     0.5F, 0.5F, -0.5F, 1.5F};  // dx
  auto r = RunKernel(
      Op("DeformConv"),
      {Make({1, 1, 2, 2}, x), Make<float>({1, 1, 1, 1}, {1.0F}), Make({1, 2, 2, 2}, offset)},
      {{DT_FLOAT, {1, 1, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // (0, 0.5): 1.5; (0, 1.5): half of 2, its right neighbour is outside; (1, -0.5): half of 3;
  // (1, 2.5): both neighbours outside.
  ExpectNear(r.outputs[0].Values<float>(), std::vector<float>{1.5F, 1.0F, 1.5F, 0.0F}, 1e-6F,
             1e-6F);
  ExpectError(RunKernel(Op("DeformConv"),
                        {Make({1, 1, 2, 2}, x), Make<float>({1, 1, 1, 1}, {1.0F}),
                         Make({1, 3, 2, 2}, std::vector<float>(12, 0.0F))},
                        {{DT_FLOAT, {1, 1, 2, 2}}})
                  .status,
              "offset [1,3,2,2] should be [1,2,2,2]");
}

}  // namespace
}  // namespace ge::host_cpu
