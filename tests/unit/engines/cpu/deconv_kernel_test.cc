// Transposed convolution (oneDNN deconvolution) against a naive scatter loop in ONNX's terms.
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

// One transposed convolution over [N, C, H, W] (W = 1 for a 1-D case), filter [C, M/group, kh, kw].
struct DeconvCase {
  int64_t n, c, h, w, m, kh, kw, group;
  int64_t sh, sw, dh, dw;
  int64_t pad_t, pad_l, pad_b, pad_r;  // the pads the output is cropped by (may be negative)
  int64_t oh, ow;                      // the output spatial dims
  bool bias;
};

// Scatters every input pixel through the filter: y[o] += x[i] * w[k] at o = i*s + k*d - pad_begin.
std::vector<float> RefDeconv(const DeconvCase& p, const std::vector<float>& x,
                             const std::vector<float>& wt, const std::vector<float>& b) {
  const int64_t cg = p.c / p.group, mg = p.m / p.group;
  std::vector<double> y(static_cast<size_t>(p.n * p.m * p.oh * p.ow), 0.0);
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t c = 0; c < p.c; ++c)
      for (int64_t i = 0; i < p.h; ++i)
        for (int64_t j = 0; j < p.w; ++j)
          for (int64_t om = 0; om < mg; ++om)
            for (int64_t ki = 0; ki < p.kh; ++ki)
              for (int64_t kj = 0; kj < p.kw; ++kj) {
                const int64_t oi = i * p.sh + ki * p.dh - p.pad_t;
                const int64_t oj = j * p.sw + kj * p.dw - p.pad_l;
                if (oi < 0 || oi >= p.oh || oj < 0 || oj >= p.ow) continue;
                const int64_t m = (c / cg) * mg + om;
                y[((n * p.m + m) * p.oh + oi) * p.ow + oj] +=
                    static_cast<double>(x[((n * p.c + c) * p.h + i) * p.w + j]) *
                    wt[((c * mg + om) * p.kh + ki) * p.kw + kj];
              }
  std::vector<float> out(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t m = static_cast<int64_t>(i) / (p.oh * p.ow) % p.m;
    out[i] = static_cast<float>(y[i] + (p.bias ? b[m] : 0.0));
  }
  return out;
}

struct Run2d {
  testing::RunResult result;
  std::vector<float> want;
};

// Runs `op` (attributes already set) on random data for case p.
Run2d RunCase(const std::shared_ptr<OpDesc>& op, const DeconvCase& p, bool const_weights,
              bool dynamic, bool one_d = false) {
  const auto x = Random(p.n * p.c * p.h * p.w, 1);
  const auto w = Random(p.c * (p.m / p.group) * p.kh * p.kw, 2);
  const auto b = Random(p.m, 3);
  std::vector<int64_t> xd = {p.n, p.c, p.h, p.w}, wd = {p.c, p.m / p.group, p.kh, p.kw},
                       yd = {p.n, p.m, p.oh, p.ow};
  if (one_d) {  // drop the unit height
    xd = {p.n, p.c, p.w};
    wd = {p.c, p.m / p.group, p.kw};
    yd = {p.n, p.m, p.ow};
  }
  std::vector<testing::TestTensor> in = {Make(xd, x), Make(wd, w)};
  if (const_weights) in[1] = Const(in[1]);
  if (p.bias) in.push_back(Const(Make({p.m}, b)));
  RunOptions opts;
  opts.dynamic = dynamic;
  opts.runs = 2;
  return {RunKernel(op, in, {{DT_FLOAT, yd}}, opts), RefDeconv(p, x, w, b)};
}

void Check(const Run2d& r) {
  ASSERT_TRUE(r.result.status.ok()) << r.result.status.message();
  EXPECT_FALSE(r.result.impl.rfind("ref", 0) == 0) << r.result.impl;
  ExpectNear(r.result.outputs[0].Values<float>(), r.want, 1e-4F, 1e-4F);
}

std::shared_ptr<OpDesc> DeconvOp(const DeconvCase& p, const std::string& type = "Conv2DTranspose") {
  auto op = Op(type);
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{p.sh, p.sw});
  AttrUtils::SetListInt(op, "dilations", std::vector<int64_t>{p.dh, p.dw});
  AttrUtils::SetInt(op, "group", p.group);
  return op;
}

TEST(DeconvKernel, ExplicitPadsStridesDilationsGroupsMatchNaiveLoop) {
  // oh = sh*(h-1) + (kh-1)*dh + 1 - pad_t - pad_b.
  for (const DeconvCase& p :
       {DeconvCase{1, 1, 3, 3, 2, 3, 3, 1, 1, 1, 1, 1, 0, 0, 0, 0, 5, 5, true},
        DeconvCase{2, 4, 5, 4, 6, 3, 2, 2, 2, 3, 1, 1, 1, 0, 1, 0, 9, 11, false},
        DeconvCase{1, 3, 4, 4, 2, 2, 2, 1, 1, 1, 2, 2, 0, 1, 0, 1, 6, 4, true},
        DeconvCase{1, 32, 7, 7, 16, 3, 3, 1, 2, 2, 1, 1, 1, 1, 1, 1, 13, 13,
                   true}}) {  // large enough for a blocked layout
    SCOPED_TRACE(testing::Count({p.c, p.m, p.group, p.sh, p.dh}));
    auto op = DeconvOp(p);
    AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{p.pad_t, p.pad_l, p.pad_b, p.pad_r});
    Check(RunCase(op, p, /*const_weights=*/true, /*dynamic=*/false));
    Check(RunCase(op, p, /*const_weights=*/false, /*dynamic=*/true));
  }
}

TEST(DeconvKernel, OutputPaddingExtendsTheEndWithBiasOnly) {
  // ONNX test_convtranspose_pad: strides [3, 2], output_padding [1, 1]: 3x3 → 10x8.
  const DeconvCase p{1, 1, 3, 3, 2, 3, 3, 1, 3, 2, 1, 1, 0, 0, -1, -1, 10, 8, true};
  auto op = DeconvOp(p, "ConvTranspose");
  AttrUtils::SetListInt(op, "output_padding", std::vector<int64_t>{1, 1});
  const Run2d r = RunCase(op, p, /*const_weights=*/true, /*dynamic=*/false);
  Check(r);
  ASSERT_TRUE(r.result.status.ok());
  // The last row gets no filter tap: every element of it is the channel's bias.
  const auto y = r.result.outputs[0].Values<float>();
  for (int64_t j = 1; j < 8; ++j) EXPECT_FLOAT_EQ(y[9 * 8 + j], y[9 * 8]);
  EXPECT_NE(y[8 * 8], y[9 * 8]);
}

TEST(DeconvKernel, OutputShapeAndSameUpperDerivePads) {
  // output_shape [10, 8] with strides [3, 2] over 3x3, k 3: total padding -1 → end pad -1.
  const DeconvCase shaped{1, 1, 3, 3, 2, 3, 3, 1, 3, 2, 1, 1, 0, 0, -1, -1, 10, 8, false};
  auto op = DeconvOp(shaped);
  AttrUtils::SetListInt(op, "output_shape", std::vector<int64_t>{10, 8});
  Check(RunCase(op, shaped, /*const_weights=*/true, /*dynamic=*/false));
  // SAME_UPPER with stride 2 over 3x3, k 3: output 6x6, total padding 1 → end 1 (begin 0).
  const DeconvCase same{1, 2, 3, 3, 2, 3, 3, 1, 2, 2, 1, 1, 0, 0, 1, 1, 6, 6, true};
  auto op2 = DeconvOp(same);
  AttrUtils::SetStr(op2, "auto_pad", "SAME_UPPER");
  Check(RunCase(op2, same, /*const_weights=*/true, /*dynamic=*/false));
  // SAME_LOWER puts the odd padding at the beginning.
  const DeconvCase lower{1, 2, 3, 3, 2, 3, 3, 1, 2, 2, 1, 1, 1, 1, 0, 0, 6, 6, true};
  auto op3 = DeconvOp(lower);
  AttrUtils::SetStr(op3, "auto_pad", "SAME_LOWER");
  Check(RunCase(op3, lower, /*const_weights=*/true, /*dynamic=*/false));
}

TEST(DeconvKernel, OneDimensional) {
  const DeconvCase p{2, 3, 1, 5, 4, 1, 3, 1, 1, 2, 1, 1, 0, 1, 0, 0, 1, 10, true};
  auto op = Op("ConvTranspose");
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2});
  AttrUtils::SetListInt(op, "pads", std::vector<int64_t>{1, 0});
  Check(RunCase(op, p, /*const_weights=*/true, /*dynamic=*/false, /*one_d=*/true));
}

TEST(DeconvKernel, RejectsChannelMismatchNamingTheNode) {
  auto op = Op("ConvTranspose", "up1");
  auto r = RunKernel(op, {Make({1, 3, 4, 4}, Random(48)), Const(Make({2, 1, 3, 3}, Random(18)))},
                     {{DT_FLOAT, {1, 1, 6, 6}}});
  ExpectError(r.status, "channels", "up1");
}

TEST(DeconvKernel, RejectsWrongOutputDimsAndBadOutputPadding) {
  auto op = Op("ConvTranspose");
  auto r = RunKernel(op, {Make({1, 1, 3, 3}, Random(9)), Const(Make({1, 1, 3, 3}, Random(9)))},
                     {{DT_FLOAT, {1, 1, 4, 4}}});
  ExpectError(r.status, "output dims");
  AttrUtils::SetListInt(op, "output_padding", std::vector<int64_t>{1});
  r = RunKernel(op, {Make({1, 1, 3, 3}, Random(9)), Const(Make({1, 1, 3, 3}, Random(9)))},
                {{DT_FLOAT, {1, 1, 5, 5}}});
  ExpectError(r.status, "output_padding");
}

}  // namespace
}  // namespace ge::host_cpu
