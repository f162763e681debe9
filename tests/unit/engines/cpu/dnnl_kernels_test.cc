// Convolution, pooling and matrix products (oneDNN-backed) against naive loops.
#include <oneapi/dnnl/dnnl.hpp>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::Const;
using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::RunOptions;

struct ConvCase {
  int64_t n, c, h, w, m, k, group, stride, pad, dilation;
  bool bias;
};

// Naive NCHW convolution.
std::vector<float> RefConv(const ConvCase& p, const std::vector<float>& x,
                           const std::vector<float>& wt, const std::vector<float>& b, int64_t oh,
                           int64_t ow) {
  std::vector<float> y(static_cast<size_t>(p.n * p.m * oh * ow), 0.0F);
  const int64_t cg = p.c / p.group, mg = p.m / p.group;
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t m = 0; m < p.m; ++m)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double s = p.bias ? b[m] : 0.0;
          const int64_t g = m / mg;
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t ki = 0; ki < p.k; ++ki)
              for (int64_t kj = 0; kj < p.k; ++kj) {
                const int64_t yi = i * p.stride - p.pad + ki * p.dilation;
                const int64_t xj = j * p.stride - p.pad + kj * p.dilation;
                if (yi < 0 || yi >= p.h || xj < 0 || xj >= p.w) continue;
                s += static_cast<double>(x[((n * p.c + g * cg + c) * p.h + yi) * p.w + xj]) *
                     wt[((m * cg + c) * p.k + ki) * p.k + kj];
              }
          y[((n * p.m + m) * oh + i) * ow + j] = static_cast<float>(s);
        }
  return y;
}

void CheckConv(const ConvCase& p, bool const_weights, bool dynamic) {
  const int64_t ext = (p.k - 1) * p.dilation + 1;
  const int64_t oh = (p.h + 2 * p.pad - ext) / p.stride + 1;
  const int64_t ow = (p.w + 2 * p.pad - ext) / p.stride + 1;
  auto op = Op("Conv2D");
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{p.stride, p.stride});
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{p.pad, p.pad, p.pad, p.pad});
  AttrUtils::SetListInt(op, "dilations", std::vector<int64_t>{p.dilation, p.dilation});
  AttrUtils::SetInt(op, "group", p.group);
  AttrUtils::SetStr(op, "data_format", "NCHW");
  const auto x = Random(p.n * p.c * p.h * p.w, 1);
  const auto w = Random(p.m * (p.c / p.group) * p.k * p.k, 2);
  const auto b = Random(p.m, 3);
  std::vector<testing::TestTensor> in = {Make({p.n, p.c, p.h, p.w}, x),
                                         Make({p.m, p.c / p.group, p.k, p.k}, w)};
  if (const_weights) in[1] = Const(in[1]);
  if (p.bias) in.push_back(Const(Make({p.m}, b)));
  RunOptions opts;
  opts.dynamic = dynamic;
  opts.runs = 2;
  auto r = RunKernel(op, in, {{DT_FLOAT, {p.n, p.m, oh, ow}}}, opts);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_FALSE(r.impl.rfind("ref", 0) == 0) << r.impl;
  ExpectNear(r.outputs[0].Values<float>(), RefConv(p, x, w, b, oh, ow), 1e-4F, 1e-4F);
}

TEST(ConvKernel, MatchesNaiveConvolution) {
  for (const ConvCase& p :
       {ConvCase{1, 3, 9, 9, 8, 3, 1, 1, 1, 1, true}, ConvCase{2, 4, 7, 8, 6, 3, 2, 2, 1, 1, false},
        ConvCase{1, 16, 10, 10, 16, 3, 16, 1, 1, 1, true},    // depthwise
        ConvCase{1, 8, 12, 12, 16, 3, 1, 1, 2, 2, true},      // dilated
        ConvCase{1, 8, 6, 6, 4, 1, 1, 1, 0, 1, true},         // 1x1
        ConvCase{1, 32, 14, 14, 32, 3, 1, 2, 1, 1, true}}) {  // blocked path
    SCOPED_TRACE(testing::Count({p.c, p.m, p.k, p.group, p.stride, p.dilation}));
    CheckConv(p, /*const_weights=*/true, /*dynamic=*/false);
    CheckConv(p, /*const_weights=*/false, /*dynamic=*/true);
  }
}

TEST(ConvKernel, AutoPadSameUpper) {
  auto op = Op("Conv2D");
  AttrUtils::SetStr(op, "auto_pad", "SAME_UPPER");
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
  const auto x = Random(1 * 2 * 5 * 5, 4);
  const auto w = Random(3 * 2 * 3 * 3, 5);
  auto r = RunKernel(op, {Make({1, 2, 5, 5}, x), Const(Make({3, 2, 3, 3}, w))},
                     {{DT_FLOAT, {1, 3, 3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // total pad 2 per dim, 1 at each side: the same as pads=1.
  ConvCase p{1, 2, 5, 5, 3, 3, 1, 2, 1, 1, false};
  ExpectNear(r.outputs[0].Values<float>(), RefConv(p, x, w, {}, 3, 3), 1e-4F, 1e-4F);
}

// Window arithmetic from a file's attributes: a dilation whose extent wraps (2 * (2^62 + 1) + 1
// is 3 in int64) is refused rather than run as dilation 1, and SAME with the largest stride takes
// one window rather than none.
TEST(ConvKernel, WindowExtentsThatOverflowAreRefusedAndHugeStridesFit) {
  const int64_t wrapping = (int64_t{1} << 62) + 1;
  const auto x = Random(1 * 2 * 5 * 5, 4);
  const auto w = Random(3 * 2 * 3 * 3, 5);
  auto dilated = Op("Conv2D", "dilated");
  AttrUtils::SetListInt(dilated, "dilations", std::vector<int64_t>{wrapping, 1});
  auto r = RunKernel(dilated, {Make({1, 2, 5, 5}, x), Const(Make({3, 2, 3, 3}, w))},
                     {{DT_FLOAT, {1, 3, 3, 3}}});
  ExpectError(r.status, "dilations 4611686018427387905 overflows int64", "dilated");
  auto pool = Op("MaxPool", "pool");
  AttrUtils::SetListInt(pool, "kernel_shape", std::vector<int64_t>{3, 3});
  AttrUtils::SetListInt(pool, "dilations", std::vector<int64_t>{1, wrapping});
  r = RunKernel(pool, {Make({1, 2, 5, 5}, x)}, {{DT_FLOAT, {1, 2, 3, 3}}});
  ExpectError(r.status, "overflows int64", "pool");
  auto same = Op("Conv2D");
  AttrUtils::SetStr(same, "auto_pad", "SAME_UPPER");
  AttrUtils::SetListInt(same, "strides", std::vector<int64_t>{INT64_MAX, INT64_MAX});
  r = RunKernel(same, {Make({1, 2, 5, 5}, x), Const(Make({3, 2, 3, 3}, w))},
                {{DT_FLOAT, {1, 3, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // One window, at (0, 0): it reaches past no edge, so SAME adds no padding.
  ConvCase p{1, 2, 5, 5, 3, 3, 1, 5, 0, 1, false};
  ExpectNear(r.outputs[0].Values<float>(), RefConv(p, x, w, {}, 1, 1), 1e-4F, 1e-4F);
}

TEST(ConvKernel, RejectsChannelMismatchNamingTheNode) {
  auto op = Op("Conv2D", "conv1");
  AttrUtils::SetInt(op, "group", 1);
  auto r = RunKernel(op, {Make({1, 4, 5, 5}, Random(100)), Const(Make({2, 3, 3, 3}, Random(54)))},
                     {{DT_FLOAT, {1, 2, 3, 3}}});
  ExpectError(r.status, "channels", "conv1");
  EXPECT_NE(r.status.message().find("Conv2D"), std::string::npos);
}

TEST(ConvKernel, RejectsBadGroup) {
  auto op = Op("Conv2D");
  AttrUtils::SetInt(op, "group", 0);
  auto r = RunKernel(op, {Make({1, 4, 5, 5}, Random(100)), Const(Make({2, 4, 3, 3}, Random(72)))},
                     {{DT_FLOAT, {1, 2, 3, 3}}});
  ExpectError(r.status, "group");
}

TEST(ConvKernel, RejectsWrongOutputDims) {
  auto op = Op("Conv2D");
  auto r = RunKernel(op, {Make({1, 4, 5, 5}, Random(100)), Const(Make({2, 4, 3, 3}, Random(72)))},
                     {{DT_FLOAT, {1, 2, 5, 5}}});
  ExpectError(r.status, "output dims");
}

// Naive 2-D pooling; avg counts only real elements unless include_pad.
std::vector<float> RefPool(bool max, const std::vector<float>& x, int64_t planes, int64_t h,
                           int64_t w, int64_t k, int64_t s, int64_t pad, int64_t oh, int64_t ow,
                           bool include_pad) {
  std::vector<float> y;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float best = -1e30F;
        double sum = 0;
        int64_t cnt = 0;
        for (int64_t a = 0; a < k; ++a)
          for (int64_t b = 0; b < k; ++b) {
            const int64_t yi = i * s - pad + a, xj = j * s - pad + b;
            if (yi < 0 || yi >= h || xj < 0 || xj >= w) continue;
            const float v = x[(p * h + yi) * w + xj];
            best = std::max(best, v);
            sum += v;
            ++cnt;
          }
        y.push_back(max ? best : static_cast<float>(sum / (include_pad ? k * k : cnt)));
      }
  return y;
}

TEST(PoolKernel, MaxAndAvgMatchNaivePooling) {
  const auto x = Random(2 * 3 * 9 * 9, 7);
  for (bool max : {true, false}) {
    for (bool include_pad : {false, true}) {
      auto op = Op(max ? "MaxPool" : "AvgPool");
      AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{3, 3});
      AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
      AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{1, 1, 1, 1});
      AttrUtils::SetInt(op, "count_include_pad", include_pad ? 1 : 0);
      auto r = RunKernel(op, {Make({2, 3, 9, 9}, x)}, {{DT_FLOAT, {2, 3, 5, 5}}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      ExpectNear(r.outputs[0].Values<float>(),
                 RefPool(max, x, 6, 9, 9, 3, 2, 1, 5, 5, include_pad));
    }
  }
}

TEST(PoolKernel, CeilModeAddsAWindow) {
  const auto x = Random(1 * 1 * 6 * 6, 8);
  auto op = Op("MaxPool");
  AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{3, 3});
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
  AttrUtils::SetInt(op, "ceil_mode", 1);
  auto r = RunKernel(op, {Make({1, 1, 6, 6}, x)}, {{DT_FLOAT, {1, 1, 3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), RefPool(true, x, 1, 6, 6, 3, 2, 0, 3, 3, false));
}

// MaxPool of int8 and uint8 runs as a loop; storage_order 1 gives indices in column-major order
// (the first spatial dim fastest), N and C included as in row-major order.
TEST(PoolKernel, MaxPoolOfBytesAndColumnMajorIndices) {
  const std::vector<uint8_t> x = {3,   250, 7, 9,  // [1, 2, 3, 4]
                                  128, 0,   1, 255, 17, 17, 2, 5, 0,  1,
                                  2,   3,   4, 5,   6,  7,  8, 9, 10, 11};
  auto op = Op("MaxPool");
  AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{2, 2});
  for (const int64_t order : {0, 1}) {
    AttrUtils::SetInt(op, "storage_order", order);
    auto r = RunKernel(op, {Make<uint8_t>({1, 2, 3, 4}, x)},
                       {{DT_UINT8, {1, 2, 2, 3}}, {DT_INT64, {1, 2, 2, 3}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<uint8_t> want_v;
    std::vector<int64_t> want_i;
    for (int c = 0; c < 2; ++c)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 3; ++w) {
          int best_h = h, best_w = w;
          for (int dh = 0; dh < 2; ++dh)
            for (int dw = 0; dw < 2; ++dw) {
              const auto at = [&](int hh, int ww) {
                const int i = c * 12 + hh * 4 + ww;
                return x[static_cast<size_t>(i)];
              };
              if (at(h + dh, w + dw) > at(best_h, best_w)) best_h = h + dh, best_w = w + dw;
            }
          const int best = c * 12 + best_h * 4 + best_w;
          want_v.push_back(x[static_cast<size_t>(best)]);
          want_i.push_back(c * 12 + (order == 0 ? best_h * 4 + best_w : best_w * 3 + best_h));
        }
    EXPECT_EQ(r.outputs[0].Values<uint8_t>(), want_v) << "storage_order " << order;
    EXPECT_EQ(r.outputs[1].Values<int64_t>(), want_i) << "storage_order " << order;
  }
  AttrUtils::SetInt(op, "storage_order", 0);
  auto r =
      RunKernel(op, {Make<int8_t>({1, 1, 2, 2}, {-128, -3, -90, -4})}, {{DT_INT8, {1, 1, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int8_t>(), (std::vector<int8_t>{-3}));
  AttrUtils::SetInt(op, "storage_order", 2);
  ExpectError(
      RunKernel(op, {Make<int8_t>({1, 1, 2, 2}, {1, 2, 3, 4})}, {{DT_INT8, {1, 1, 1, 1}}}).status,
      "storage_order");
  auto avg = Op("AvgPool");
  AttrUtils::SetListInt(avg, "kernel_shape", std::vector<int64_t>{2, 2});
  ExpectError(
      RunKernel(avg, {Make<uint8_t>({1, 1, 2, 2}, {1, 2, 3, 4})}, {{DT_UINT8, {1, 1, 1, 1}}})
          .status,
      "DT_UINT8");
}

TEST(PoolKernel, MaxPoolIndicesAreFlatInputOffsets) {
  auto op = Op("MaxPool");
  AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{2, 2});
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
  std::vector<float> x(2 * 4 * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7);
  auto r =
      RunKernel(op, {Make({1, 2, 4, 4}, x)}, {{DT_FLOAT, {1, 2, 2, 2}}, {DT_INT64, {1, 2, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto v = r.outputs[0].Values<float>();
  const auto idx = r.outputs[1].Values<int64_t>();
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], x[static_cast<size_t>(idx[i])]);
  ExpectNear(v, RefPool(true, x, 2, 4, 4, 2, 2, 0, 2, 2, false));
}

TEST(PoolKernel, RejectsMissingKernelShape) {
  auto r = RunKernel(Op("MaxPool"), {Make({1, 1, 4, 4}, Random(16))}, {{DT_FLOAT, {1, 1, 2, 2}}});
  ExpectError(r.status, "kernel_shape");
}

TEST(GlobalPoolKernel, AverageAndMaxPerPlane) {
  const auto x = Random(2 * 3 * 5 * 4, 9);
  std::vector<float> avg, mx;
  for (int p = 0; p < 6; ++p) {
    double s = 0;
    float m = -1e30F;
    for (int i = 0; i < 20; ++i) {
      s += x[p * 20 + i];
      m = std::max(m, x[p * 20 + i]);
    }
    avg.push_back(static_cast<float>(s / 20));
    mx.push_back(m);
  }
  auto r = RunKernel(Op("GlobalAveragePool"), {Make({2, 3, 5, 4}, x)}, {{DT_FLOAT, {2, 3, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), avg);
  r = RunKernel(Op("GlobalMaxPool"), {Make({2, 3, 5, 4}, x)}, {{DT_FLOAT, {2, 3, 1, 1}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), mx);
}

// Naive batched matmul with numpy broadcasting of batch dims (rank-3 operands, ta/tb applied).
std::vector<float> RefBatchMatMul(const std::vector<float>& a, std::vector<int64_t> ad,
                                  const std::vector<float>& b, std::vector<int64_t> bd, bool ta,
                                  bool tb, std::vector<int64_t>* out_dims) {
  while (ad.size() < 3) ad.insert(ad.begin(), 1);
  while (bd.size() < 3) bd.insert(bd.begin(), 1);
  const int64_t m = ta ? ad[2] : ad[1], k = ta ? ad[1] : ad[2];
  const int64_t n = tb ? bd[1] : bd[2];
  const int64_t batch = std::max(ad[0], bd[0]);
  *out_dims = {batch, m, n};
  std::vector<float> y(static_cast<size_t>(batch * m * n));
  for (int64_t bi = 0; bi < batch; ++bi) {
    const float* ap = a.data() + (ad[0] == 1 ? 0 : bi) * ad[1] * ad[2];
    const float* bp = b.data() + (bd[0] == 1 ? 0 : bi) * bd[1] * bd[2];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < k; ++q) {
          s += static_cast<double>(ta ? ap[q * m + i] : ap[i * k + q]) *
               (tb ? bp[j * k + q] : bp[q * n + j]);
        }
        y[(bi * m + i) * n + j] = static_cast<float>(s);
      }
  }
  return y;
}

TEST(MatMulKernel, MatMulV2WithTransposesAndConstWeights) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (bool const_b : {false, true}) {
        auto op = Op("MatMulV2");
        AttrUtils::SetBool(op, "transpose_x1", ta);
        AttrUtils::SetBool(op, "transpose_x2", tb);
        const std::vector<int64_t> ad =
            ta ? std::vector<int64_t>{7, 5} : std::vector<int64_t>{5, 7};
        const std::vector<int64_t> bd =
            tb ? std::vector<int64_t>{9, 7} : std::vector<int64_t>{7, 9};
        const auto a = Random(35, 11), b = Random(63, 12);
        std::vector<int64_t> od;
        const auto want = RefBatchMatMul(a, ad, b, bd, ta, tb, &od);
        auto bt = Make(bd, b);
        if (const_b) bt = Const(bt);
        auto r = RunKernel(op, {Make(ad, a), bt}, {{DT_FLOAT, {5, 9}}});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(), want);
      }
    }
  }
}

TEST(MatMulKernel, BatchMatMulBroadcastsBatchDims) {
  const auto a = Random(3 * 4 * 6, 13), b = Random(6 * 5, 14);
  std::vector<int64_t> od;
  auto want = RefBatchMatMul(a, {3, 4, 6}, b, {1, 6, 5}, false, false, &od);
  auto r = RunKernel(Op("BatchMatMulV2"), {Make({3, 4, 6}, a), Const(Make({6, 5}, b))},
                     {{DT_FLOAT, {3, 4, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want);
  // [2,1,4,6] x [3,6,5] → [2,3,4,5]: both operands broadcast.
  const auto a2 = Random(2 * 4 * 6, 15), b2 = Random(3 * 6 * 5, 16);
  std::vector<float> want2;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      std::vector<float> ai(a2.begin() + i * 24, a2.begin() + (i + 1) * 24);
      std::vector<float> bj(b2.begin() + j * 30, b2.begin() + (j + 1) * 30);
      auto part = RefBatchMatMul(ai, {4, 6}, bj, {6, 5}, false, false, &od);
      want2.insert(want2.end(), part.begin(), part.end());
    }
  }
  auto op = Op("BatchMatMulV2");
  RunOptions dyn;
  dyn.dynamic = true;
  r = RunKernel(op, {Make({2, 1, 4, 6}, a2), Make({3, 6, 5}, b2)}, {{DT_FLOAT, {2, 3, 4, 5}}}, dyn);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want2);
}

// The dims a oneDNN layout tag names ("BA16a64b4a" names two: a and b).
size_t LayoutRank(const std::string& tag) {
  std::set<char> dims;
  for (char c : tag) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      dims.insert(static_cast<char>(std::tolower(c)));
  }
  return dims.size();
}

TEST(MatMulKernel, ALinearLayerRunsAsOnePackedGemmOverAllRows) {
  // [2, 5, 8] x [8, 6] + bias [6]: a transformer's linear layer.
  const auto a = Random(2 * 5 * 8, 31), b = Random(8 * 6, 32), c = Random(6, 33);
  std::vector<int64_t> od;
  auto want = RefBatchMatMul(a, {2, 5, 8}, b, {8, 6}, false, false, &od);
  for (size_t i = 0; i < want.size(); ++i) want[i] += c[i % 6];
  for (const char* type : {"MatMulV2", "BatchMatMulV2"}) {
    auto r = RunKernel(Op(type), {Make({2, 5, 8}, a), Const(Make({8, 6}, b)), Const(Make({6}, c))},
                       {{DT_FLOAT, {2, 5, 6}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ExpectNear(r.outputs[0].Values<float>(), want);
    // oneDNN packs the weight for its AVX-512 GEMM; its AVX2 GEMM may read it plain.
    const bool avx512 = static_cast<int>(dnnl::get_effective_cpu_isa()) >=
                        static_cast<int>(dnnl::cpu_isa::avx512_core);
    if (avx512 || !r.packed_layout.empty()) {
      EXPECT_EQ(LayoutRank(r.packed_layout), 2U)
          << type << ": weight packed as " << r.packed_layout;
    }
    EXPECT_FALSE(IsReferenceImpl(r.impl)) << r.impl;
  }
  // Must not flatten: a transposed left operand, a weight with batch dims, a bias per row. The
  // numbers stay right either way.
  auto op = Op("BatchMatMulV2");
  AttrUtils::SetBool(op, "adj_x1", true);
  const auto at = Random(2 * 8 * 5, 34);
  auto want_t = RefBatchMatMul(at, {2, 8, 5}, b, {8, 6}, true, false, &od);
  auto r = RunKernel(op, {Make({2, 8, 5}, at), Const(Make({8, 6}, b))}, {{DT_FLOAT, {2, 5, 6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want_t);
  EXPECT_NE(LayoutRank(r.packed_layout), 2U) << r.packed_layout;
  const auto bb = Random(2 * 8 * 6, 35);
  auto want_b = RefBatchMatMul(a, {2, 5, 8}, bb, {2, 8, 6}, false, false, &od);
  r = RunKernel(Op("BatchMatMulV2"), {Make({2, 5, 8}, a), Const(Make({2, 8, 6}, bb))},
                {{DT_FLOAT, {2, 5, 6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want_b);
  const auto rows = Random(5 * 6, 36);
  auto want_r = RefBatchMatMul(a, {2, 5, 8}, b, {8, 6}, false, false, &od);
  for (size_t i = 0; i < want_r.size(); ++i) want_r[i] += rows[i % 30];
  r = RunKernel(Op("MatMulV2"),
                {Make({2, 5, 8}, a), Const(Make({8, 6}, b)), Const(Make({5, 6}, rows))},
                {{DT_FLOAT, {2, 5, 6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want_r);
}

TEST(MatMulKernel, BatchMatMulAdjointAndVectors) {
  const auto a = Random(2 * 6 * 4, 17), b = Random(2 * 5 * 6, 18);
  std::vector<int64_t> od;
  const auto want = RefBatchMatMul(a, {2, 6, 4}, b, {2, 5, 6}, true, true, &od);
  auto op = Op("BatchMatMulV2");
  AttrUtils::SetBool(op, "adj_x1", true);
  AttrUtils::SetBool(op, "adj_x2", true);
  auto r = RunKernel(op, {Make({2, 6, 4}, a), Make({2, 5, 6}, b)}, {{DT_FLOAT, {2, 4, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want);
  // [6] x [2,6,5] → [2,5]
  const auto v = Random(6, 19), m = Random(60, 20);
  const auto want_v = RefBatchMatMul(v, {1, 6}, m, {2, 6, 5}, false, false, &od);
  r = RunKernel(Op("BatchMatMulV2"), {Make({6}, v), Make({2, 6, 5}, m)}, {{DT_FLOAT, {2, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), want_v);
}

TEST(MatMulKernel, RejectsInnerDimMismatch) {
  auto r = RunKernel(Op("MatMulV2", "mm"), {Make({2, 3}, Random(6)), Make({4, 2}, Random(8))},
                     {{DT_FLOAT, {2, 2}}});
  ExpectError(r.status, "inner dims", "mm");
}

TEST(GemmKernel, AlphaBetaTransposesAndBroadcastC) {
  const auto a = Random(4 * 3, 21), b = Random(5 * 4, 22), c = Random(5, 23);
  std::vector<int64_t> od;
  const auto prod = RefBatchMatMul(a, {4, 3}, b, {5, 4}, true, true, &od);
  for (float alpha : {1.0F, 0.5F}) {
    for (float beta : {1.0F, 2.0F}) {
      auto op = Op("Gemm");
      AttrUtils::SetInt(op, "transA", 1);
      AttrUtils::SetInt(op, "transB", 1);
      AttrUtils::SetFloat(op, "alpha", alpha);
      AttrUtils::SetFloat(op, "beta", beta);
      auto r = RunKernel(op, {Make({4, 3}, a), Const(Make({5, 4}, b)), Const(Make({5}, c))},
                         {{DT_FLOAT, {3, 5}}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      std::vector<float> want(prod.size());
      for (size_t i = 0; i < want.size(); ++i) want[i] = alpha * prod[i] + beta * c[i % 5];
      ExpectNear(r.outputs[0].Values<float>(), want);
    }
  }
}

TEST(GemmKernel, RejectsNon2dOperands) {
  auto r = RunKernel(Op("Gemm"), {Make({2, 3, 4}, Random(24)), Make({4, 2}, Random(8))},
                     {{DT_FLOAT, {2, 2}}});
  ExpectError(r.status, "2-D");
}

}  // namespace
}  // namespace ge::host_cpu
