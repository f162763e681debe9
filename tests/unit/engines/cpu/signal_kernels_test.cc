// The window, MelWeightMatrix, DFT and STFT kernels against naive references (std::complex sums,
// closed-form windows) and ONNX's published MelWeightMatrix example.
#include <complex>
#include <functional>
#include <numbers>

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
using testing::TestTensor;

using Complex = std::complex<double>;
constexpr double kPi = std::numbers::pi;

TestTensor Scalar64(int64_t v) { return Make<int64_t>({}, {v}); }

TEST(WindowKernels, PeriodicAndSymmetricMatchTheClosedForms) {
  struct Case {
    const char* type;
    std::function<double(double, double)> w;  // (k, N)
  };
  const std::vector<Case> cases = {
      {"HannWindow", [](double k, double n) { return 0.5 - 0.5 * std::cos(2 * kPi * k / n); }},
      {"HammingWindow",
       [](double k, double n) { return 25.0 / 46 - 21.0 / 46 * std::cos(2 * kPi * k / n); }},
      {"BlackmanWindow", [](double k, double n) {
         return 0.42 - 0.5 * std::cos(2 * kPi * k / n) + 0.08 * std::cos(4 * kPi * k / n);
       }}};
  for (const Case& c : cases) {
    for (int64_t periodic : {1, 0}) {
      auto op = Op(c.type);
      AttrUtils::SetInt(op, "periodic", periodic);
      auto r = RunKernel(op, {Make<int32_t>({}, {10})}, {{DT_FLOAT, {10}}});
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      std::vector<float> want(10);
      for (int k = 0; k < 10; ++k) want[k] = static_cast<float>(c.w(k, periodic ? 10 : 9));
      SCOPED_TRACE(std::string(c.type) + " periodic=" + std::to_string(periodic));
      ExpectNear(r.outputs[0].Values<float>(), want, 1e-6F, 1e-6F);
    }
  }
}

TEST(WindowKernels, DoubleOutputAndSizeOne) {
  auto r = RunKernel(Op("HannWindow"), {Scalar64(4)}, {{DT_DOUBLE, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const auto y = r.outputs[0].Values<double>();
  ASSERT_EQ(y.size(), 4U);
  EXPECT_DOUBLE_EQ(y[0], 0.0);
  EXPECT_NEAR(y[1], 0.5, 1e-15);
  EXPECT_DOUBLE_EQ(y[2], 1.0);
  auto op = Op("HammingWindow");  // a symmetric window of one sample is [1], not 0 / 0
  AttrUtils::SetInt(op, "periodic", 0);
  auto one = RunKernel(op, {Scalar64(1)}, {{DT_FLOAT, {1}}});
  ASSERT_TRUE(one.status.ok()) << one.status.ToString();
  EXPECT_EQ(one.outputs[0].Values<float>(), std::vector<float>{1.0F});
}

TEST(WindowKernels, OutputThatDoesNotMatchSizeIsAnError) {
  auto r = RunKernel(Op("BlackmanWindow"), {Scalar64(8)}, {{DT_FLOAT, {7}}});
  ExpectError(r.status, "do not match size 8");
  auto v = RunKernel(Op("BlackmanWindow"), {Make<int64_t>({2}, {8, 8})}, {{DT_FLOAT, {8}}});
  ExpectError(v.status, "size must be an int32 / int64 scalar");
}

TEST(MelWeightMatrixKernel, MatchesOnnxExample) {
  // ONNX's example: 8 mel bins, dft_length 16, 8192 Hz, 0 .. 4096 Hz.
  auto r = RunKernel(Op("MelWeightMatrix"),
                     {Make<int32_t>({}, {8}), Make<int32_t>({}, {16}), Make<int32_t>({}, {8192}),
                      Make<float>({}, {0.0F}), Make<float>({}, {4096.0F})},
                     {{DT_FLOAT, {9, 8}}});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  std::vector<float> want(9 * 8, 0.0F);
  for (auto [row, col] :
       {std::pair{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}}) {
    want[row * 8 + col] = 1.0F;
  }
  ExpectNear(r.outputs[0].Values<float>(), want, 0.0F, 0.0F);
}

TEST(MelWeightMatrixKernel, EdgeBeyondNyquistIsAnError) {
  auto r = RunKernel(Op("MelWeightMatrix"),
                     {Make<int32_t>({}, {8}), Make<int32_t>({}, {16}), Make<int32_t>({}, {8192}),
                      Make<float>({}, {0.0F}), Make<float>({}, {8192.0F})},
                     {{DT_FLOAT, {9, 8}}});
  ExpectError(r.status, "beyond the spectrogram's last bin");
}

// Naive DFT of complex `x` [outer, len, inner] along len with length n, the first out_n bins.
std::vector<float> RefDft(const std::vector<Complex>& x, int64_t outer, int64_t len, int64_t inner,
                          int64_t n, int64_t out_n, bool inverse) {
  std::vector<float> y;
  std::vector<Complex> res(static_cast<size_t>(outer * out_n * inner));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t f = 0; f < out_n; ++f) {
        Complex s = 0;
        for (int64_t k = 0; k < std::min(len, n); ++k) {
          const double a = (inverse ? 2 : -2) * kPi * static_cast<double>(f * k) / n;
          s += x[(o * len + k) * inner + i] * std::polar(1.0, a);
        }
        res[(o * out_n + f) * inner + i] = inverse ? s / static_cast<double>(n) : s;
      }
    }
  }
  for (const Complex& c : res) {
    y.push_back(static_cast<float>(c.real()));
    y.push_back(static_cast<float>(c.imag()));
  }
  return y;
}

std::vector<Complex> ToComplex(const std::vector<float>& v, int64_t c) {
  std::vector<Complex> out;
  for (size_t i = 0; i < v.size(); i += c) out.emplace_back(v[i], c == 2 ? v[i + 1] : 0.0F);
  return out;
}

TEST(DftKernel, RealInputAlongEachAxisMatchesTheNaiveSum) {
  const auto x = Random(2 * 5 * 3, 3);
  const auto cx = ToComplex(x, 1);
  for (int64_t axis : {0, 1, 2, -2}) {
    const int64_t a = axis < 0 ? axis + 4 : axis;
    const std::vector<int64_t> d = {2, 5, 3};
    int64_t outer = 1;
    int64_t inner = 1;
    for (int64_t i = 0; i < a; ++i) outer *= d[i];
    for (int64_t i = a + 1; i < 3; ++i) inner *= d[i];
    std::vector<int64_t> yd = {2, 5, 3, 2};
    auto op = Op("DFT");
    AttrUtils::SetInt(op, "axis", axis);
    auto r = RunKernel(op, {Make({2, 5, 3, 1}, x)}, {{DT_FLOAT, yd}});
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    SCOPED_TRACE("axis " + std::to_string(axis));
    ExpectNear(r.outputs[0].Values<float>(), RefDft(cx, outer, d[a], inner, d[a], d[a], false),
               1e-5F, 1e-5F);
  }
}

TEST(DftKernel, DftLengthPadsOrTruncatesAndOnesidedKeepsHalf) {
  const auto x = Random(2 * 6 * 2, 4);
  const auto cx = ToComplex(x, 2);
  for (int64_t n : {4, 6, 9}) {
    for (int64_t onesided : {0, 1}) {
      const int64_t out_n = onesided ? n / 2 + 1 : n;
      auto op = Op("DFT");
      AttrUtils::SetInt(op, "onesided", onesided);
      auto r = RunKernel(op, {Make({2, 6, 2}, x), Scalar64(n)}, {{DT_FLOAT, {2, out_n, 2}}});
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      SCOPED_TRACE("n " + std::to_string(n) + " onesided " + std::to_string(onesided));
      ExpectNear(r.outputs[0].Values<float>(), RefDft(cx, 2, 6, 1, n, out_n, false), 1e-5F, 1e-5F);
    }
  }
}

TEST(DftKernel, InverseUndoesTheForwardTransformInDouble) {
  std::vector<double> x(3 * 7 * 2);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * static_cast<double>(i)) + 0.1;
  auto fwd = RunKernel(Op("DFT"), {Make({3, 7, 2}, x)}, {{DT_DOUBLE, {3, 7, 2}}});
  ASSERT_TRUE(fwd.status.ok()) << fwd.status.ToString();
  auto op = Op("DFT");
  AttrUtils::SetInt(op, "inverse", 1);
  auto back =
      RunKernel(op, {Make({3, 7, 2}, fwd.outputs[0].Values<double>())}, {{DT_DOUBLE, {3, 7, 2}}});
  ASSERT_TRUE(back.status.ok()) << back.status.ToString();
  const auto y = back.outputs[0].Values<double>();
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], x[i], 1e-12) << i;
}

TEST(DftKernel, Errors) {
  auto op = Op("DFT");
  AttrUtils::SetInt(op, "axis", 2);
  auto axis = RunKernel(op, {Make({1, 4, 1}, Random(4))}, {{DT_FLOAT, {1, 4, 2}}});
  ExpectError(axis.status, "axis 2 is out of range for rank 3");
  auto last = RunKernel(Op("DFT"), {Make({1, 4, 3}, Random(12))}, {{DT_FLOAT, {1, 4, 2}}});
  ExpectError(last.status, "must have rank >= 2 and end in 1 or 2");
  auto length =
      RunKernel(Op("DFT"), {Make({1, 4, 1}, Random(4)), Scalar64(0)}, {{DT_FLOAT, {1, 0, 2}}});
  ExpectError(length.status, "dft_length must be positive");
  auto dims = RunKernel(Op("DFT"), {Make({1, 4, 1}, Random(4))}, {{DT_FLOAT, {1, 3, 2}}});
  ExpectError(dims.status, "are not [1,4,2]");
}

// Naive STFT of x [batch, len, c] with the window (ones when empty).
std::vector<float> RefStft(const std::vector<float>& x, int64_t batch, int64_t len, int64_t c,
                           int64_t step, int64_t fl, const std::vector<float>& window,
                           bool onesided) {
  const int64_t frames = 1 + (len - fl) / step;
  const int64_t bins = onesided ? fl / 2 + 1 : fl;
  const auto cx = ToComplex(x, c);
  std::vector<float> y;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 0; t < frames; ++t) {
      std::vector<Complex> frame(static_cast<size_t>(fl));
      for (int64_t k = 0; k < fl; ++k) {
        frame[k] = cx[b * len + t * step + k] * (window.empty() ? 1.0 : double{window[k]});
      }
      const auto spectrum = RefDft(frame, 1, fl, 1, fl, bins, false);
      y.insert(y.end(), spectrum.begin(), spectrum.end());
    }
  }
  return y;
}

TEST(StftKernel, FramesWithAndWithoutAWindow) {
  const auto x = Random(2 * 40, 6);
  auto plain = RunKernel(Op("STFT"), {Make({2, 40, 1}, x), Scalar64(6), Absent(), Scalar64(8)},
                         {{DT_FLOAT, {2, 6, 5, 2}}});
  ASSERT_TRUE(plain.status.ok()) << plain.status.ToString();
  ExpectNear(plain.outputs[0].Values<float>(), RefStft(x, 2, 40, 1, 6, 8, {}, true), 1e-5F, 1e-5F);
  const auto w = Random(10, 7, 0.0F, 1.0F);
  auto op = Op("STFT");
  AttrUtils::SetInt(op, "onesided", 0);
  auto windowed =
      RunKernel(op, {Make({1, 40, 2}, x), Scalar64(5), Make({10}, w)}, {{DT_FLOAT, {1, 7, 10, 2}}});
  ASSERT_TRUE(windowed.status.ok()) << windowed.status.ToString();
  ExpectNear(windowed.outputs[0].Values<float>(), RefStft(x, 1, 40, 2, 5, 10, w, false), 1e-5F,
             1e-5F);
}

TEST(StftKernel, Errors) {
  const auto x = Random(40);
  auto mismatch =
      RunKernel(Op("STFT"), {Make({1, 40, 1}, x), Scalar64(4), Make({8}, Random(8)), Scalar64(6)},
                {{DT_FLOAT, {1, 9, 4, 2}}});
  ExpectError(mismatch.status, "frame_length 6 differs from the window's 8");
  auto step =
      RunKernel(Op("STFT"), {Make({1, 40, 1}, x), Scalar64(0)}, {{DT_FLOAT, {1, 1, 21, 2}}});
  ExpectError(step.status, "frame_step must be positive");
  auto rank = RunKernel(Op("STFT"), {Make({40, 1}, x), Scalar64(4)}, {{DT_FLOAT, {1, 1, 21, 2}}});
  ExpectError(rank.status, "must be [batch, length, 1 or 2]");
}

}  // namespace
}  // namespace ge::host_cpu
