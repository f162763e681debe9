// Quantization kernels against per-element references: QuantizeLinear / DequantizeLinear per
// tensor, per axis and blocked, to and from the narrow types, DynamicQuantizeLinear,
// MatMulInteger and QLinearMatMul.
#include <algorithm>
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Codes;
using testing::ExpectError;
using testing::Make;
using testing::MakeCodes;
using testing::Op;
using testing::RunKernel;
using testing::TestTensor;

uint8_t RefQuantU8(float x, float scale, int zp) {
  return static_cast<uint8_t>(
      std::clamp(std::nearbyint(x / scale) + static_cast<float>(zp), 0.0F, 255.0F));
}

TEST(QuantizeKernel, RoundsHalfToEvenAndSaturates) {
  const std::vector<float> x = {0.0F, 2.0F, 3.0F, 1000.0F, -254.0F, -1000.0F, 5.0F, 7.0F};
  auto r = RunKernel(Op("QuantizeLinear"),
                     {Make<float>({8}, x), Make<float>({}, {2.0F}), Make<uint8_t>({}, {128})},
                     {{DT_UINT8, {8}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<uint8_t> want;
  for (float v : x) want.push_back(RefQuantU8(v, 2.0F, 128));
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  EXPECT_EQ(want[2], 130);  // 1.5 → 2 (even)
  EXPECT_EQ(want[6], 130);  // 2.5 → 2 (even)
  // int8 through the zero point's dtype; no zero point gives uint8 with zero point 0.
  r = RunKernel(
      Op("QuantizeLinear"),
      {Make<float>({3}, {-300.0F, -1.0F, 3.0F}), Make<float>({}, {1.0F}), Make<int8_t>({}, {-1})},
      {{DT_INT8, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int8_t>(), (std::vector<int8_t>{-128, -2, 2}));
}

TEST(QuantizeKernel, PerAxisScalesAndZeroPoints) {
  auto op = Op("QuantizeLinear");
  AttrUtils::SetInt(op, "axis", 1);
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [1, 3, 4]
  const std::vector<float> scale = {1.0F, 2.0F, 4.0F};
  const std::vector<uint8_t> zp = {0, 10, 20};
  auto r =
      RunKernel(op, {Make<float>({1, 3, 4}, x), Make<float>({3}, scale), Make<uint8_t>({3}, zp)},
                {{DT_UINT8, {1, 3, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<uint8_t> want;
  for (size_t i = 0; i < x.size(); ++i) want.push_back(RefQuantU8(x[i], scale[i / 4], zp[i / 4]));
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  ExpectError(
      RunKernel(op, {Make<float>({1, 3, 4}, x), Make<float>({2}, {1, 2})}, {{DT_UINT8, {1, 3, 4}}})
          .status,
      "neither a scalar nor 1-D of dim 1");
}

TEST(DequantizeKernel, SubtractsTheZeroPointAndScales) {
  auto r = RunKernel(
      Op("DequantizeLinear"),
      {Make<uint8_t>({4}, {0, 3, 128, 255}), Make<float>({}, {2.0F}), Make<uint8_t>({}, {128})},
      {{DT_FLOAT, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-256.0F, -250.0F, 0.0F, 254.0F}));
  auto op = Op("DequantizeLinear");
  AttrUtils::SetInt(op, "axis", 0);
  r = RunKernel(op,
                {Make<int8_t>({2, 2}, {-4, 4, -4, 4}), Make<float>({2}, {0.5F, 2.0F}),
                 Make<int8_t>({2}, {0, 1})},
                {{DT_FLOAT, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-2.0F, 2.0F, -10.0F, 6.0F}));
  r = RunKernel(Op("DequantizeLinear"), {Make<int32_t>({2}, {-3, 5}), Make<float>({}, {0.5F})},
                {{DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-1.5F, 2.5F}));
}

// Blocked: each run of block_size indices along the axis shares a scale and zero point; the
// last block may be short.
TEST(QuantizeKernel, BlockedScalesCoverRunsAlongTheAxis) {
  auto op = Op("QuantizeLinear");
  AttrUtils::SetInt(op, "axis", 1);
  AttrUtils::SetInt(op, "block_size", 3);
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};  // [2, 5]: blocks of 3 and 2
  const std::vector<float> scale = {1.0F, 2.0F, 4.0F, 8.0F};     // [2, 2]
  const std::vector<uint8_t> zp = {0, 10, 20, 30};
  auto r =
      RunKernel(op, {Make<float>({2, 5}, x), Make<float>({2, 2}, scale), Make<uint8_t>({2, 2}, zp)},
                {{DT_UINT8, {2, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<uint8_t> want;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t p = (i / 5) * 2 + (i % 5) / 3;
    want.push_back(RefQuantU8(x[i], scale[p], zp[p]));
  }
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  ExpectError(RunKernel(op, {Make<float>({2, 5}, x), Make<float>({2, 3}, {1, 1, 1, 1, 1, 1})},
                        {{DT_UINT8, {2, 5}}})
                  .status,
              "blocks of 3");
}

// The 4- and 2-bit integers clamp to their own ranges; float8 saturates unless told not to.
TEST(QuantizeKernel, NarrowOutputs) {
  const TestTensor x = Make<float>({5}, {-20.0F, -1.0F, 0.0F, 3.5F, 20.0F});
  auto r = RunKernel(Op("QuantizeLinear"),
                     {x, Make<float>({}, {1.0F}), MakeCodes(DT_INT4, {}, {0x1})}, {{DT_INT4, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // -20 + 1 → -8, 0, 1, 4 + 1 = 5 (3.5 rounds to even), 21 → 7.
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0x8, 0x0, 0x1, 0x5, 0x7}));
  r = RunKernel(Op("QuantizeLinear"), {x, Make<float>({}, {4.0F}), MakeCodes(DT_UINT2, {}, {1})},
                {{DT_UINT2, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0, 1, 1, 2, 3}));
  auto op = Op("QuantizeLinear");
  r = RunKernel(op, {x, Make<float>({}, {0.5F}), MakeCodes(DT_FLOAT8_E4M3FN, {}, {0})},
                {{DT_FLOAT8_E4M3FN, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // x / 0.5: -40 (0xE2), -2 (0xC0), 0, 7 (0x4E), 40 (0x62).
  EXPECT_EQ(Codes(r.outputs[0]), (std::vector<uint32_t>{0xE2, 0xC0, 0x00, 0x4E, 0x62}));
  AttrUtils::SetInt(op, "saturate", 0);
  r = RunKernel(op, {x, Make<float>({}, {0.01F}), MakeCodes(DT_FLOAT8_E4M3FN, {}, {0})},
                {{DT_FLOAT8_E4M3FN, {5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Codes(r.outputs[0])[4], 0x7FU) << "2000 does not fit: NaN without saturation";
}

TEST(DequantizeKernel, NarrowInputs) {
  auto r = RunKernel(Op("DequantizeLinear"),
                     {MakeCodes(DT_UINT2, {4}, {0, 1, 2, 3}), Make<float>({}, {0.5F}),
                      MakeCodes(DT_UINT2, {}, {1})},
                     {{DT_FLOAT, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-0.5F, 0.0F, 0.5F, 1.0F}));
  r = RunKernel(Op("DequantizeLinear"),
                {MakeCodes(DT_INT4, {3}, {0x8, 0xF, 0x7}), Make<float>({}, {2.0F})},
                {{DT_FLOAT, {3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{-16.0F, -2.0F, 14.0F}));
  r = RunKernel(Op("DequantizeLinear"),
                {MakeCodes(DT_FLOAT8_E4M3FN, {2}, {0x38, 0x7E}), Make<float>({}, {2.0F}),
                 MakeCodes(DT_FLOAT8_E4M3FN, {}, {0})},
                {{DT_FLOAT, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{2.0F, 896.0F}));
  ExpectError(RunKernel(Op("DequantizeLinear"),
                        {MakeCodes(DT_FLOAT8_E4M3FN, {2}, {0x38, 0x7E}), Make<float>({}, {2.0F}),
                         MakeCodes(DT_FLOAT8_E4M3FN, {}, {0x38})},
                        {{DT_FLOAT, {2}}})
                  .status,
              "must be zero");
}

// y[m][i][j] = sum over c, di, dj of (x - x_zp)(w[m] - w_zp[m]) with stride 1 and `pad` zeros
// around x (padding is x's zero point shifted away, i.e. 0).
std::vector<int32_t> RefConvInteger(const std::vector<int>& x, int c, int h, int wd,
                                    const std::vector<int>& w, int m, int k, int x_zp,
                                    const std::vector<int>& w_zp, int pad) {
  const int oh = h + 2 * pad - k + 1, ow = wd + 2 * pad - k + 1;
  std::vector<int32_t> y(static_cast<size_t>(m * oh * ow), 0);
  for (int o = 0; o < m; ++o)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        int32_t sum = 0;
        for (int ch = 0; ch < c; ++ch)
          for (int di = 0; di < k; ++di)
            for (int dj = 0; dj < k; ++dj) {
              const int r = i + di - pad, q = j + dj - pad;
              if (r < 0 || r >= h || q < 0 || q >= wd) continue;
              const int xi = (ch * h + r) * wd + q;
              const int wi = ((o * c + ch) * k + di) * k + dj;
              sum += (x[static_cast<size_t>(xi)] - x_zp) *
                     (w[static_cast<size_t>(wi)] - w_zp[static_cast<size_t>(o)]);
            }
        const int yi = (o * oh + i) * ow + j;
        y[static_cast<size_t>(yi)] = sum;
      }
  return y;
}

TEST(ConvIntegerKernel, ShiftsByTheZeroPointsAndSumsExactly) {
  // uint8 x and w, w's zero point per output channel, a Const filter and one given at run time.
  const std::vector<int> x = {200, 13, 255, 0,  90,  128, 7,   250, 31,
                              64,  1,  99,  17, 222, 5,   180, 77,  44};  // [1, 2, 3, 3]
  const std::vector<int> w = {255, 0, 128, 3, 9, 250, 100, 60,
                              1,   2, 254, 7, 0, 0,   255, 128};  // [2, 2, 2, 2]
  const std::vector<int> w_zp = {128, 3};
  auto op = Op("ConvInteger");
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int32_t> want = RefConvInteger(x, 2, 3, 3, w, 2, 2, 100, w_zp, 1);
  auto bytes = [](const std::vector<int>& v) { return std::vector<uint8_t>(v.begin(), v.end()); };
  for (const bool const_filter : {false, true}) {
    TestTensor filter = Make<uint8_t>({2, 2, 2, 2}, bytes(w));
    TestTensor zp = Make<uint8_t>({2}, bytes(w_zp));
    if (const_filter) {
      filter = testing::Const(filter);
      zp = testing::Const(zp);
    }
    auto r =
        RunKernel(op, {Make<uint8_t>({1, 2, 3, 3}, bytes(x)), filter, Make<uint8_t>({}, {100}), zp},
                  {{DT_INT32, {1, 2, 4, 4}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].Values<int32_t>(), want) << "const filter " << const_filter;
  }
  // int8 operands without zero points.
  const std::vector<int8_t> xs = {-128, 127, 5, -7};
  const std::vector<int8_t> ws = {-128, -128, 127, 1};
  auto r =
      RunKernel(Op("ConvInteger"), {Make<int8_t>({1, 1, 2, 2}, xs), Make<int8_t>({1, 1, 2, 2}, ws)},
                {{DT_INT32, {1, 1, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(),
            (std::vector<int32_t>{-128 * -128 + 127 * -128 + 5 * 127 + -7 * 1}));
  ExpectError(RunKernel(Op("ConvInteger"),
                        {Make<uint8_t>({1, 1, 2, 2}, {1, 2, 3, 4}),
                         Make<uint8_t>({1, 1, 2, 2}, {1, 2, 3, 4}), Make<uint8_t>({2}, {1, 2})},
                        {{DT_INT32, {1, 1, 1, 1}}})
                  .status,
              "x_zero_point must be one value");
}

// QLinearConv requantizes ConvInteger's sum plus the bias with x_scale * w_scale[m] / y_scale.
TEST(QLinearConvKernel, RequantizesTheIntegerSum) {
  const std::vector<int> x = {200, 13, 255, 0, 90, 128, 7, 250, 31};  // [1, 1, 3, 3]
  const std::vector<int> w = {255, 0, 128, 3, 9, 250, 100, 60};       // [2, 1, 2, 2]
  const std::vector<int> w_zp = {128, 3};
  const std::vector<float> w_scale = {0.02F, 0.005F};
  const std::vector<int32_t> bias = {500, -700};
  const float x_scale = 0.1F, y_scale = 3.0F;
  const int x_zp = 100, y_zp = 120;
  const std::vector<int32_t> sums = RefConvInteger(x, 1, 3, 3, w, 2, 2, x_zp, w_zp, 0);
  std::vector<uint8_t> want;
  for (size_t i = 0; i < sums.size(); ++i) {
    const size_t c = i / 4;
    const float multiplier = x_scale * w_scale[c] / y_scale;
    const double v = std::nearbyint(static_cast<double>(sums[i] + bias[c]) * multiplier) + y_zp;
    want.push_back(static_cast<uint8_t>(std::clamp(v, 0.0, 255.0)));
  }
  auto bytes = [](const std::vector<int>& v) { return std::vector<uint8_t>(v.begin(), v.end()); };
  auto r = RunKernel(Op("QLinearConv"),
                     {Make<uint8_t>({1, 1, 3, 3}, bytes(x)), Make<float>({}, {x_scale}),
                      Make<uint8_t>({}, {static_cast<uint8_t>(x_zp)}),
                      testing::Const(Make<uint8_t>({2, 1, 2, 2}, bytes(w))),
                      testing::Const(Make<float>({2}, w_scale)),
                      testing::Const(Make<uint8_t>({2}, bytes(w_zp))), Make<float>({}, {y_scale}),
                      Make<uint8_t>({}, {static_cast<uint8_t>(y_zp)}), Make<int32_t>({2}, bias)},
                     {{DT_UINT8, {1, 2, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  EXPECT_NE(std::count(want.begin(), want.end(), 255) + std::count(want.begin(), want.end(), 0),
            static_cast<long>(want.size()))
      << "not every value saturates";
}

TEST(DynamicQuantizeKernel, MapsTheRangeWithZeroOntoUint8) {
  const std::vector<float> x = {0.0F, 2.0F, -3.0F, -2.5F, 1.34F, 0.5F};
  auto r = RunKernel(Op("DynamicQuantizeLinear"), {Make<float>({6}, x)},
                     {{DT_UINT8, {6}}, {DT_FLOAT, {}}, {DT_UINT8, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const float scale = (2.0F - -3.0F) / 255.0F;
  const int zp = static_cast<int>(std::nearbyint(3.0F / scale));
  EXPECT_EQ(r.outputs[1].Values<float>()[0], scale);
  EXPECT_EQ(r.outputs[2].Values<uint8_t>()[0], zp);
  std::vector<uint8_t> want;
  for (float v : x) want.push_back(RefQuantU8(v, scale, zp));
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  // Only positive values: the range still includes 0, so the zero point is 0.
  r = RunKernel(Op("DynamicQuantizeLinear"), {Make<float>({2}, {1.0F, 2.0F})},
                {{DT_UINT8, {2}}, {DT_FLOAT, {}}, {DT_UINT8, {}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[2].Values<uint8_t>()[0], 0);
  const float positive_scale = 2.0F / 255.0F;  // 1 / scale is just under 127.5 in float
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(),
            (std::vector<uint8_t>{RefQuantU8(1.0F, positive_scale, 0), 255}));
}

// Reference: (a - za[i]) (b - zb[j]) summed over k, batched with broadcasting of a's batch.
std::vector<int32_t> RefMatMul(const std::vector<int>& a, const std::vector<int>& b, int batch,
                               int m, int k, int n, const std::vector<int>& za,
                               const std::vector<int>& zb) {
  std::vector<int32_t> y;
  for (int t = 0; t < batch; ++t) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        int32_t s = 0;
        for (int q = 0; q < k; ++q) {
          s += (a[(t * m + i) * k + q] - za[za.size() == 1 ? 0 : i]) *
               (b[q * n + j] - zb[zb.size() == 1 ? 0 : j]);
        }
        y.push_back(s);
      }
    }
  }
  return y;
}

TEST(MatMulIntegerKernel, ZeroPointsPerTensorAndPerRowWithBatchBroadcast) {
  const std::vector<uint8_t> a = {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0};  // [2, 2, 3]
  const std::vector<int8_t> b = {1, -4, 2, 5, -3, 6};                     // [3, 2]
  const std::vector<int> ai(a.begin(), a.end()), bi(b.begin(), b.end());
  auto r =
      RunKernel(Op("MatMulInteger"),
                {Make<uint8_t>({2, 2, 3}, a), Make<int8_t>({3, 2}, b), Make<uint8_t>({}, {12})},
                {{DT_INT32, {2, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), RefMatMul(ai, bi, 2, 2, 3, 2, {12}, {0}));
  r = RunKernel(Op("MatMulInteger"),
                {Make<uint8_t>({2, 3}, std::vector<uint8_t>(a.begin(), a.begin() + 6)),
                 Make<int8_t>({3, 2}, b), Make<uint8_t>({2}, {1, 2}), Make<int8_t>({2}, {-1, 3})},
                {{DT_INT32, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), RefMatMul(ai, bi, 1, 2, 3, 2, {1, 2}, {-1, 3}));
  ExpectError(
      RunKernel(Op("MatMulInteger"),
                {Make<uint8_t>({2, 3}, {0, 0, 0, 0, 0, 0}), Make<int8_t>({2, 2}, {0, 0, 0, 0})},
                {{DT_INT32, {2, 2}}})
          .status,
      "inner dims differ");
}

TEST(QLinearMatMulKernel, RequantizesTheIntegerProduct) {
  const std::vector<uint8_t> a = {208, 236, 0, 238, 3, 214, 255, 29};                      // [2, 4]
  const std::vector<uint8_t> b = {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};  // [4, 3]
  const float as = 0.0066F, bs = 0.00705F, ys = 0.0107F;
  const int za = 113, zb = 114, zy = 118;
  auto r = RunKernel(Op("QLinearMatMul"),
                     {Make<uint8_t>({2, 4}, a), Make<float>({}, {as}), Make<uint8_t>({}, {za}),
                      Make<uint8_t>({4, 3}, b), Make<float>({}, {bs}), Make<uint8_t>({}, {zb}),
                      Make<float>({}, {ys}), Make<uint8_t>({}, {zy})},
                     {{DT_UINT8, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto acc = RefMatMul(std::vector<int>(a.begin(), a.end()),
                             std::vector<int>(b.begin(), b.end()), 1, 2, 4, 3, {za}, {zb});
  std::vector<uint8_t> want;
  for (int32_t v : acc)
    want.push_back(RefQuantU8(static_cast<float>(v) * (as * bs / ys), 1.0F, zy));
  EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want);
  // ONNX's example output for these operands.
  EXPECT_EQ(want, (std::vector<uint8_t>{168, 115, 255, 1, 66, 151}));
}

}  // namespace
}  // namespace ge::host_cpu
