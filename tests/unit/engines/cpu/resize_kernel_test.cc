// Resize (cubic, linear, nearest; every coordinate transformation, tf_crop_and_resize, axes)
// against a literal port of ONNX's reference algorithm: per dim, the n nearest indices of the
// edge-padded input found by sorting, interpolated recursively dim by dim.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

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

struct Params {
  std::string mode = "nearest";
  std::string coord = "half_pixel";
  std::string nearest = "round_prefer_floor";
  double a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0.0;
  bool antialias = false;
};

// ONNX's _linear_coeffs_antialias and _cubic_coeffs_antialias: the filter widened by 1 / scale
// when downscaling, normalized.
std::vector<double> AntialiasCoeffs(const Params& p, double ratio, double scale) {
  const double s = std::min(scale, 1.0);
  std::vector<double> c;
  if (p.mode == "linear") {
    const auto start = static_cast<int64_t>(std::floor(-1 / s)) + 1;
    const int64_t footprint = 2 - 2 * start;
    for (int64_t i = start; i < start + footprint; ++i) {
      c.push_back(std::clamp(1 - std::fabs((static_cast<double>(i) - ratio) * s), 0.0, 1.0));
    }
  } else {
    const double a = p.a;
    const auto i_start = static_cast<int64_t>(std::floor(-2 / s)) + 1;
    for (int64_t i = i_start; i < 2 - i_start; ++i) {
      const double x = std::fabs(s * (static_cast<double>(i) - ratio));
      const double x2 = x * x, x3 = x * x2;
      c.push_back(x <= 1  ? (a + 2) * x3 - (a + 3) * x2 + 1
                  : x < 2 ? a * x3 - 5 * a * x2 + 8 * a * x - 4 * a
                          : 0.0);
    }
  }
  double sum = 0;
  for (double v : c) sum += v;
  for (double& v : c) v /= sum;
  return c;
}

std::vector<double> Coeffs(const Params& p, double ratio, double scale) {
  if (p.antialias) return AntialiasCoeffs(p, ratio, scale);
  if (p.mode == "linear") return {1 - ratio, ratio};
  if (p.mode == "nearest") {
    if (ratio == 1.0) return {0, 1};
    bool hi = false;
    if (p.nearest == "round_prefer_floor") hi = ratio > 0.5;
    if (p.nearest == "round_prefer_ceil") hi = ratio >= 0.5;
    if (p.nearest == "ceil") hi = true;
    return {hi ? 0.0 : 1.0, hi ? 1.0 : 0.0};
  }
  const double a = p.a, r = ratio, q = 1 - ratio;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1, ((a + 2) * q - (a + 3)) * q * q + 1,
          ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a};
}

// ONNX's _interpolate_1d_with_x.
double Interp1d(const std::vector<double>& data, double scale, int64_t out_int, int64_t x,
                const Params& p, double roi0, double roi1) {
  const auto in = static_cast<int64_t>(data.size());
  const double out = scale * static_cast<double>(in);
  double s = 0;
  if (p.coord == "align_corners") {
    s = out == 1 ? 0 : x * double(in - 1) / (out - 1);
  } else if (p.coord == "asymmetric") {
    s = x / scale;
  } else if (p.coord == "tf_crop_and_resize") {
    s = out_int == 1 ? (roi1 - roi0) * double(in - 1) / 2
                     : x * (roi1 - roi0) * double(in - 1) / double(out_int - 1);
    s += roi0 * double(in - 1);
    if (s < 0 || s > double(in - 1)) return p.extrapolation;
  } else if (p.coord == "pytorch_half_pixel") {
    s = out == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  } else {
    s = (x + 0.5) / scale - 0.5;
  }
  const double ratio = s == std::floor(s) ? 1.0 : s - std::floor(s);
  std::vector<double> c = Coeffs(p, ratio, scale);
  const auto n = static_cast<int64_t>(c.size());
  const int64_t pad = (n + 1) / 2;
  std::vector<double> padded;
  for (int64_t i = -pad; i < in + pad; ++i)
    padded.push_back(data[std::clamp<int64_t>(i, 0, in - 1)]);
  std::vector<int64_t> idx(padded.size());
  std::iota(idx.begin(), idx.end(), 0);
  const double xp = s + static_cast<double>(pad);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t l, int64_t r) {
    return std::fabs(xp - static_cast<double>(l)) < std::fabs(xp - static_cast<double>(r));
  });
  idx.resize(static_cast<size_t>(n));
  std::sort(idx.begin(), idx.end());
  if (p.exclude_outside) {
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (idx[k] - pad < 0 || idx[k] - pad >= in) c[k] = 0;
      sum += c[k];
    }
    for (double& v : c) v /= sum;
  }
  double y = 0;
  for (int64_t k = 0; k < n; ++k) y += c[k] * padded[idx[k]];
  return y;
}

// A [h, w] image resized to [oh, ow]: rows first, then the column of row results (ONNX's
// _interpolate_nd recursion for two dims).
std::vector<float> Ref2d(const std::vector<float>& x, int64_t h, int64_t w, int64_t oh, int64_t ow,
                         double sh, double sw, const Params& p,
                         std::vector<double> roi = {0, 0, 1, 1}) {
  std::vector<float> y;
  for (int64_t i = 0; i < oh; ++i) {
    for (int64_t j = 0; j < ow; ++j) {
      std::vector<double> column;
      for (int64_t r = 0; r < h; ++r) {
        std::vector<double> row(x.begin() + r * w, x.begin() + (r + 1) * w);
        column.push_back(Interp1d(row, sw, ow, j, p, roi[1], roi[3]));
      }
      y.push_back(static_cast<float>(Interp1d(column, sh, oh, i, p, roi[0], roi[2])));
    }
  }
  return y;
}

std::shared_ptr<OpDesc> ResizeOp(const Params& p, const std::string& name = "node") {
  auto op = Op("Resize", name);
  AttrUtils::SetStr(op, "mode", p.mode);
  AttrUtils::SetStr(op, "coordinate_transformation_mode", p.coord);
  AttrUtils::SetStr(op, "nearest_mode", p.nearest);
  AttrUtils::SetFloat(op, "cubic_coeff_a", static_cast<float>(p.a));
  AttrUtils::SetInt(op, "exclude_outside", p.exclude_outside ? 1 : 0);
  AttrUtils::SetFloat(op, "extrapolation_value", static_cast<float>(p.extrapolation));
  AttrUtils::SetInt(op, "antialias", p.antialias ? 1 : 0);
  return op;
}

TEST(ResizeKernel, CubicMatchesOnnxReferenceWithScales) {
  const int64_t h = 4, w = 5;
  const auto x = Random(h * w, 7, 0.0F, 10.0F);
  for (const char* coord : {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"}) {
    for (const auto& [a, exclude] : {std::pair{-0.75, false}, std::pair{-0.5, true}}) {
      for (const auto& [sh, sw] : {std::pair{2.0F, 1.5F}, std::pair{0.6F, 0.8F}}) {
        SCOPED_TRACE(std::string(coord) + " a=" + std::to_string(a) + " sh=" + std::to_string(sh));
        Params p;
        p.mode = "cubic";
        p.coord = coord;
        p.a = a;
        p.exclude_outside = exclude;
        const auto oh = static_cast<int64_t>(std::floor(h * sh));
        const auto ow = static_cast<int64_t>(std::floor(w * sw));
        auto r = RunKernel(ResizeOp(p),
                           {Make({1, 1, h, w}, x), Absent(), Make<float>({4}, {1, 1, sh, sw})},
                           {{DT_FLOAT, {1, 1, oh, ow}}});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(), Ref2d(x, h, w, oh, ow, sh, sw, p), 1e-5F, 1e-4F);
      }
    }
  }
}

TEST(ResizeKernel, AlignCornersUsesTheScaledLengthNotTheOutputDim) {
  // ONNX test_resize_downsample_scales_linear_align_corners: scale 0.6 of width 4 gives 2
  // outputs, but the mapping divides by 4 * 0.6 - 1 = 1.4, so output 1 reads x = 3 / 1.4.
  Params p;
  p.mode = "linear";
  p.coord = "align_corners";
  const auto x = Make<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto r = RunKernel(ResizeOp(p), {x, Absent(), Make<float>({4}, {1, 1, 0.6F, 0.6F})},
                     {{DT_FLOAT, {1, 1, 1, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {1.0F, 3.142857F});
}

TEST(ResizeKernel, LinearAndNearestMatchOnnxReferenceWithSizes) {
  const int64_t h = 3, w = 4, oh = 7, ow = 3;
  const auto x = Random(h * w, 9);
  for (const char* mode : {"linear", "nearest"}) {
    for (const char* nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
      SCOPED_TRACE(std::string(mode) + " " + nearest);
      Params p;
      p.mode = mode;
      p.nearest = nearest;
      auto r =
          RunKernel(ResizeOp(p),
                    {Make({1, 1, h, w}, x), Absent(), Absent(), Make<int64_t>({4}, {1, 1, oh, ow})},
                    {{DT_FLOAT, {1, 1, oh, ow}}});
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      ExpectNear(r.outputs[0].Values<float>(),
                 Ref2d(x, h, w, oh, ow, double(oh) / h, double(ow) / w, p), 1e-5F, 1e-5F);
    }
  }
}

// antialias widens the linear and cubic filters by 1 / scale when downscaling (by 2.25 and 6.5
// here: 6 and 14 taps per output), and leaves upscaling as it is.
TEST(ResizeKernel, AntialiasMatchesOnnxReference) {
  const int64_t h = 9, w = 13;
  const auto x = Random(h * w, 12);
  for (const char* mode : {"linear", "cubic"}) {
    for (const bool exclude : {false, true}) {
      for (const auto& [oh, ow] : {std::pair<int64_t, int64_t>{4, 2}, {18, 5}}) {
        SCOPED_TRACE(std::string(mode) + (exclude ? " exclude_outside " : " ") +
                     std::to_string(oh) + "x" + std::to_string(ow));
        Params p;
        p.mode = mode;
        p.antialias = true;
        p.exclude_outside = exclude;
        auto r = RunKernel(
            ResizeOp(p),
            {Make({1, 1, h, w}, x), Absent(), Absent(), Make<int64_t>({4}, {1, 1, oh, ow})},
            {{DT_FLOAT, {1, 1, oh, ow}}});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(),
                   Ref2d(x, h, w, oh, ow, double(oh) / double(h), double(ow) / double(w), p), 1e-5F,
                   1e-5F);
      }
    }
  }
  // A scale that disagrees with the output dims (as in a crafted .om) would widen the filter
  // far past the input: refused, not sized from it.
  Params linear;
  linear.mode = "linear";
  linear.antialias = true;
  ExpectError(
      RunKernel(ResizeOp(linear),
                {Make({1, 1, h, w}, x), Absent(), Make<float>({4}, {1, 1, 1e-20F, 1}), Absent()},
                {{DT_FLOAT, {1, 1, 1, w}}})
          .status,
      "would filter past the input");
  Params nearest;
  nearest.antialias = true;
  ExpectError(RunKernel(ResizeOp(nearest),
                        {Make<float>({1, 1, 2, 2}, {1, 2, 3, 4}), Absent(), Absent(),
                         Make<int64_t>({4}, {1, 1, 1, 1})},
                        {{DT_FLOAT, {1, 1, 1, 1}}})
                  .status,
              "not to nearest");
}

TEST(ResizeKernel, TfCropAndResizeExtrapolatesOutsideTheRoi) {
  const int64_t h = 4, w = 4, oh = 3, ow = 5;
  const auto x = Random(h * w, 11);
  Params p;
  p.mode = "linear";
  p.coord = "tf_crop_and_resize";
  p.extrapolation = 10.0;
  // The roi reaches past the input on the right and the bottom: those outputs are 10.
  const std::vector<double> roi = {0.4F, 0.6F, 1.2F, 1.3F};
  auto r = RunKernel(ResizeOp(p),
                     {Make({1, 1, h, w}, x), Make<float>({8}, {0, 0, 0.4F, 0.6F, 1, 1, 1.2F, 1.3F}),
                      Make<float>({0}, {}), Make<int64_t>({4}, {1, 1, oh, ow})},
                     {{DT_FLOAT, {1, 1, oh, ow}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto want = Ref2d(x, h, w, oh, ow, double(oh) / h, double(ow) / w, p, roi);
  ExpectNear(r.outputs[0].Values<float>(), want, 1e-5F, 1e-5F);
  EXPECT_FLOAT_EQ(want.back(), 10.0F);  // the case does reach outside
  EXPECT_NE(want.front(), 10.0F);
}

TEST(ResizeKernel, AxesAttributeMapsScalesToTheNamedDims) {
  const int64_t h = 3, w = 4;
  const auto x = Random(h * w, 13);
  Params p;
  p.mode = "cubic";
  auto op = ResizeOp(p);
  AttrUtils::SetListInt(op, "axes", std::vector<int64_t>{-1});
  auto r = RunKernel(op, {Make({h, w}, x), Absent(), Make<float>({1}, {2.0F})},
                     {{DT_FLOAT, {h, 2 * w}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), Ref2d(x, h, w, h, 2 * w, 1.0, 2.0, p), 1e-5F, 1e-5F);
}

TEST(ResizeKernel, RejectsMissingRoiAndUnsupportedPolicy) {
  Params p;
  p.coord = "tf_crop_and_resize";
  auto op = ResizeOp(p, "crop");
  auto r = RunKernel(op, {Make({1, 4}, Random(4)), Absent(), Make<float>({2}, {1, 2})},
                     {{DT_FLOAT, {1, 8}}});
  ExpectError(r.status, "roi", "crop");
  auto policy = ResizeOp(Params{});
  AttrUtils::SetStr(policy, "keep_aspect_ratio_policy", "fit");
  r = RunKernel(policy, {Make({1, 4}, Random(4)), Absent(), Make<float>({2}, {1, 2})},
                {{DT_FLOAT, {1, 8}}});
  ExpectError(r.status, "keep_aspect_ratio_policy 'fit'");
}

// keep_aspect_ratio_policy scales every axis by one factor: the smallest of sizes / dims for
// not_larger (sizes [4, 6] of [2, 2]: 2, giving [4, 4]) and the largest for not_smaller (3).
TEST(ResizeKernel, KeepsTheAspectRatioWithSizes) {
  const std::vector<float> x = {1, 2, 3, 4};
  for (const auto& [policy, side] :
       {std::pair<std::string, int64_t>{"not_larger", 4}, {"not_smaller", 6}}) {
    SCOPED_TRACE(policy);
    Params p;
    p.mode = "nearest";
    p.coord = "asymmetric";
    p.nearest = "floor";
    auto op = ResizeOp(p);
    AttrUtils::SetStr(op, "keep_aspect_ratio_policy", policy);
    auto r = RunKernel(op, {Make({2, 2}, x), Absent(), Absent(), Make<int64_t>({2}, {4, 6})},
                       {{DT_FLOAT, {side, side}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const auto y = r.outputs[0].Values<float>();
    const int64_t factor = side / 2;
    for (int64_t i = 0; i < side; ++i) {
      for (int64_t j = 0; j < side; ++j) {
        EXPECT_EQ(y[i * side + j], x[(i / factor) * 2 + j / factor]) << i << "," << j;
      }
    }
  }
}

// An image resized in its last two dims runs row by row; the same resize with those dims first
// takes the general walk. Both must give the same numbers for every mode, coordinate mapping and
// exclude_outside, NaN and infinity included (a nearest or whole-coordinate tap of weight zero
// must not turn an infinity into NaN).
TEST(ResizeKernel, RowByRowMatchesTheGeneralWalk) {
  const int64_t planes = 6, h = 5, w = 7, oh = 9, ow = 4;
  std::vector<float> x = Random(planes * h * w, 11, -3.0F, 3.0F);
  x[3] = std::numeric_limits<float>::infinity();
  x[40] = std::numeric_limits<float>::quiet_NaN();
  // The same values as [h, w, planes]: element (p, i, j) at (i, j, p).
  std::vector<float> xt(x.size());
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < h * w; ++i)
      xt[static_cast<size_t>(i * planes + p)] = x[static_cast<size_t>(p * h * w + i)];
  for (const char* mode : {"nearest", "linear", "cubic"}) {
    for (const char* coord : {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"}) {
      for (const bool exclude : {false, true}) {
        SCOPED_TRACE(std::string(mode) + " " + coord + (exclude ? " exclude_outside" : ""));
        Params p;
        p.mode = mode;
        p.coord = coord;
        p.exclude_outside = exclude;
        auto rows = RunKernel(
            ResizeOp(p),
            {Make({2, 3, h, w}, x), Absent(), Absent(), Make<int64_t>({4}, {2, 3, oh, ow})},
            {{DT_FLOAT, {2, 3, oh, ow}}});
        auto general = RunKernel(
            ResizeOp(p),
            {Make({h, w, 2, 3}, xt), Absent(), Absent(), Make<int64_t>({4}, {oh, ow, 2, 3})},
            {{DT_FLOAT, {oh, ow, 2, 3}}});
        ASSERT_TRUE(rows.status.ok()) << rows.status.message();
        ASSERT_TRUE(general.status.ok()) << general.status.message();
        const auto a = rows.outputs[0].Values<float>();
        const auto b = general.outputs[0].Values<float>();
        for (int64_t q = 0; q < planes; ++q) {
          for (int64_t i = 0; i < oh * ow; ++i) {
            const float u = a[static_cast<size_t>(q * oh * ow + i)];
            const float v = b[static_cast<size_t>(i * planes + q)];
            if (std::isnan(v) || std::isinf(v)) {
              EXPECT_TRUE(std::isnan(u) ? std::isnan(v) : u == v)
                  << q << "," << i << ": " << u << " vs " << v;
            } else {
              // Summed in another order, a double sum that lies on a float tie may round the
              // other way: one unit in the last place at most.
              EXPECT_LE(std::fabs(u - v), std::fabs(v) * std::numeric_limits<float>::epsilon())
                  << q << "," << i << ": " << u << " vs " << v;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ge::host_cpu
