// GridSample, RoiAlign and MaxUnpool against naive references written per output element.
#include <cmath>
#include <limits>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::Random;
using testing::RunKernel;
using testing::RunOptions;
using testing::TestTensor;

// ---- GridSample: a 2-D reference that fetches each tap through the padding rule ----

// Folds x at the borders until it lies inside (the kernel divides instead).
float ReflectRef(float x, float lo, float hi) {
  while (x < lo || x > hi) x = x < lo ? 2 * lo - x : 2 * hi - x;
  return x;
}

struct GridCase {
  std::string mode, padding;
  bool align;
};

std::vector<float> RefGridSample(const std::vector<float>& x, int64_t n_batch, int64_t c_count,
                                 int64_t h, int64_t w, const std::vector<float>& grid, int64_t oh,
                                 int64_t ow, const GridCase& gc) {
  std::vector<float> y(static_cast<size_t>(n_batch * c_count * oh * ow));
  auto border = [&](int64_t d) {
    return gc.align ? std::pair<float, float>{0.0F, float(d - 1)}
                    : std::pair<float, float>{-0.5F, float(d) - 0.5F};
  };
  auto pixel = [&](const float* plane, int64_t yi, int64_t xi) -> float {
    if (gc.padding == "zeros") {
      return yi < 0 || yi >= h || xi < 0 || xi >= w ? 0.0F : plane[yi * w + xi];
    }
    if (gc.padding == "border") {
      return plane[std::clamp<int64_t>(yi, 0, h - 1) * w + std::clamp<int64_t>(xi, 0, w - 1)];
    }
    const auto [ylo, yhi] = border(h);
    const auto [xlo, xhi] = border(w);
    const auto ry = static_cast<int64_t>(ReflectRef(float(yi), ylo, yhi));
    const auto rx = static_cast<int64_t>(ReflectRef(float(xi), xlo, xhi));
    return plane[ry * w + rx];
  };
  auto unnorm = [&](float g, int64_t d) {
    return gc.align ? (g + 1) / 2 * float(d - 1) : ((g + 1) * float(d) - 1) / 2;
  };
  auto fix = [&](float v, int64_t d) {
    const auto [lo, hi] = border(d);
    if (v >= lo && v <= hi) return v;
    if (gc.padding == "border") return std::clamp(v, 0.0F, float(d - 1));
    if (gc.padding == "reflection") return ReflectRef(v, lo, hi);
    return v;
  };
  auto cubic = [](float t, int k) {  // weight of tap k (at -1, 0, 1, 2) for offset t
    const float a = -0.75F;
    const float s = std::fabs(float(k - 1) - t);
    if (s <= 1) return ((a + 2) * s - (a + 3)) * s * s + 1;
    if (s < 2) return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a;
    return 0.0F;
  };
  for (int64_t n = 0; n < n_batch; ++n) {
    for (int64_t c = 0; c < c_count; ++c) {
      const float* plane = x.data() + (n * c_count + c) * h * w;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          const float* g = grid.data() + ((n * oh + i) * ow + j) * 2;
          float fx = unnorm(g[0], w), fy = unnorm(g[1], h);
          float v = 0;
          if (gc.mode == "nearest") {
            fx = fix(std::nearbyint(fx), w);
            fy = fix(std::nearbyint(fy), h);
            v = pixel(plane, static_cast<int64_t>(fy), static_cast<int64_t>(fx));
          } else if (gc.mode == "bilinear") {
            fx = fix(fx, w);
            fy = fix(fy, h);
            const auto x0 = static_cast<int64_t>(std::floor(fx));
            const auto y0 = static_cast<int64_t>(std::floor(fy));
            const float dx = fx - float(x0), dy = fy - float(y0);
            v = (1 - dy) * ((1 - dx) * pixel(plane, y0, x0) + dx * pixel(plane, y0, x0 + 1)) +
                dy * ((1 - dx) * pixel(plane, y0 + 1, x0) + dx * pixel(plane, y0 + 1, x0 + 1));
          } else {
            fx = fix(fx, w);
            fy = fix(fy, h);
            const auto x0 = static_cast<int64_t>(std::floor(fx));
            const auto y0 = static_cast<int64_t>(std::floor(fy));
            for (int a = 0; a < 4; ++a) {
              for (int b = 0; b < 4; ++b) {
                v += cubic(fy - float(y0), a) * cubic(fx - float(x0), b) *
                     pixel(plane, y0 - 1 + a, x0 - 1 + b);
              }
            }
          }
          y[static_cast<size_t>(((n * c_count + c) * oh + i) * ow + j)] = v;
        }
      }
    }
  }
  return y;
}

TEST(GridSampleKernel, EveryModePaddingAndAlignmentMatchesTheReference) {
  const int64_t n = 2, c = 3, h = 4, w = 5, oh = 3, ow = 6;
  const auto x = Random(n * c * h * w, 7);
  const auto grid = Random(n * oh * ow * 2, 8, -1.6F, 1.6F);  // some points fall outside
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    for (const char* pad : {"zeros", "border", "reflection"}) {
      for (bool align : {false, true}) {
        SCOPED_TRACE(std::string(mode) + " " + pad + (align ? " aligned" : ""));
        auto op = Op("GridSample", "gs");
        AttrUtils::SetStr(op, "mode", mode);
        AttrUtils::SetStr(op, "padding_mode", pad);
        AttrUtils::SetInt(op, "align_corners", align ? 1 : 0);
        auto r = RunKernel(op, {Make({n, c, h, w}, x), Make({n, oh, ow, 2}, grid)},
                           {{DT_FLOAT, {n, c, oh, ow}}}, {.threads = 2});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(),
                   RefGridSample(x, n, c, h, w, grid, oh, ow, {mode, pad, align != 0}), 1e-4F,
                   1e-4F);
      }
    }
  }
}

TEST(GridSampleKernel, OneDimensionalLinearInterpolates) {
  // X [1, 1, 4] = 0, 10, 20, 30; align_corners: -1 → 0, 1 → 3, 0 → 1.5.
  auto op = Op("GridSample", "gs");
  AttrUtils::SetInt(op, "align_corners", 1);
  auto r =
      RunKernel(op, {Make<float>({1, 1, 4}, {0, 10, 20, 30}), Make<float>({1, 3, 1}, {-1, 1, 0})},
                {{DT_FLOAT, {1, 1, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {0, 30, 15});
}

TEST(GridSampleKernel, Errors) {
  auto op = Op("GridSample", "gs");
  auto r = RunKernel(op, {Make({1, 1, 2, 2}, Random(4)), Make({1, 2, 2, 3}, Random(12))},
                     {{DT_FLOAT, {1, 1, 2, 2}}});
  ExpectError(r.status, "must be [N, D1_out..Dr_out, r]", "gs");
  AttrUtils::SetStr(op, "mode", "area");
  r = RunKernel(op, {Make({1, 1, 2, 2}, Random(4)), Make({1, 2, 2, 2}, Random(8))},
                {{DT_FLOAT, {1, 1, 2, 2}}});
  ExpectError(r.status, "unknown mode 'area'", "gs");
}

// ---- RoiAlign ----

// The reference averages (or maxes) bilinear samples taken inside each bin, written per bin.
std::vector<float> RefRoiAlign(const std::vector<float>& x, int64_t c_count, int64_t h, int64_t w,
                               const std::vector<float>& rois, const std::vector<int64_t>& batch,
                               int64_t oh, int64_t ow, int64_t ratio, float scale, bool half,
                               bool max_mode) {
  const auto r_count = static_cast<int64_t>(batch.size());
  std::vector<float> y(static_cast<size_t>(r_count * c_count * oh * ow));
  for (int64_t r = 0; r < r_count; ++r) {
    const float off = half ? 0.5F : 0.0F;
    const float x0 = rois[r * 4] * scale - off, y0 = rois[r * 4 + 1] * scale - off;
    float rw = rois[r * 4 + 2] * scale - off - x0, rh = rois[r * 4 + 3] * scale - off - y0;
    if (!half) {
      rw = std::max(rw, 1.0F);
      rh = std::max(rh, 1.0F);
    }
    const float bh = rh / float(oh), bw = rw / float(ow);
    const int64_t gh = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / float(oh)));
    const int64_t gw = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / float(ow)));
    for (int64_t c = 0; c < c_count; ++c) {
      const float* p = x.data() + (batch[static_cast<size_t>(r)] * c_count + c) * h * w;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          float acc = 0;
          bool first = true;
          for (int64_t a = 0; a < gh; ++a) {
            for (int64_t b = 0; b < gw; ++b) {
              float sy = y0 + float(i) * bh + (float(a) + 0.5F) * bh / float(gh);
              float sx = x0 + float(j) * bw + (float(b) + 0.5F) * bw / float(gw);
              std::array<float, 4> corner{};
              if (!(sy < -1 || sy > float(h) || sx < -1 || sx > float(w))) {
                sy = std::min(std::max(sy, 0.0F), float(h - 1));
                sx = std::min(std::max(sx, 0.0F), float(w - 1));
                const auto yl = static_cast<int64_t>(sy), xl = static_cast<int64_t>(sx);
                const int64_t yh = std::min(yl + 1, h - 1), xh = std::min(xl + 1, w - 1);
                const float ly = sy - float(yl), lx = sx - float(xl);
                corner = {(1 - ly) * (1 - lx) * p[yl * w + xl], (1 - ly) * lx * p[yl * w + xh],
                          ly * (1 - lx) * p[yh * w + xl], ly * lx * p[yh * w + xh]};
              }
              if (max_mode) {
                const float m = *std::max_element(corner.begin(), corner.end());
                acc = first ? m : std::max(acc, m);
              } else {
                acc += corner[0] + corner[1] + corner[2] + corner[3];
              }
              first = false;
            }
          }
          y[static_cast<size_t>(((r * c_count + c) * oh + i) * ow + j)] =
              max_mode ? acc : acc / float(std::max<int64_t>(gh * gw, 1));
        }
      }
    }
  }
  return y;
}

TEST(RoiAlignKernel, AvgAndMaxInBothCoordinateModesMatchTheReference) {
  const int64_t n = 2, c = 3, h = 10, w = 8, oh = 3, ow = 4;
  const auto x = Random(n * c * h * w, 11);
  // Rois inside, partly outside, and degenerate (a point).
  const std::vector<float> rois = {0, 0, 7, 9, 2.5F, 1.5F, 12, 6, 3, 3, 3, 3, -2, -1, 4, 5};
  const std::vector<int64_t> batch = {0, 1, 1, 0};
  for (const char* mode : {"avg", "max"}) {
    for (bool half : {true, false}) {
      for (int64_t ratio : {0, 2}) {
        SCOPED_TRACE(std::string(mode) + (half ? " half_pixel" : " output_half_pixel") + " ratio " +
                     std::to_string(ratio));
        auto op = Op("RoiAlign", "roi");
        AttrUtils::SetStr(op, "mode", mode);
        AttrUtils::SetStr(op, "coordinate_transformation_mode",
                          half ? "half_pixel" : "output_half_pixel");
        AttrUtils::SetInt(op, "output_height", oh);
        AttrUtils::SetInt(op, "output_width", ow);
        AttrUtils::SetInt(op, "sampling_ratio", ratio);
        AttrUtils::SetFloat(op, "spatial_scale", 0.75F);
        auto r = RunKernel(op, {Make({n, c, h, w}, x), Make({4, 4}, rois), Make({4}, batch)},
                           {{DT_FLOAT, {4, c, oh, ow}}});
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        ExpectNear(r.outputs[0].Values<float>(),
                   RefRoiAlign(x, c, h, w, rois, batch, oh, ow, ratio, 0.75F, half,
                               std::string(mode) == "max"),
                   1e-4F, 1e-5F);
      }
    }
  }
}

TEST(RoiAlignKernel, AveragesALinearRampToTheBinCentres) {
  // X[h][w] = w; roi x from 1 to 5 in 2 bins (half_pixel shifts by 0.5): centres 1.5 and 3.5.
  std::vector<float> x(6 * 6);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 6);
  auto op = Op("RoiAlign", "roi");
  AttrUtils::SetInt(op, "output_width", 2);
  auto r = RunKernel(
      op, {Make({1, 1, 6, 6}, x), Make<float>({1, 4}, {1, 1, 5, 5}), Make<int64_t>({1}, {0})},
      {{DT_FLOAT, {1, 1, 1, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {1.5F, 3.5F});
}

// Adaptive sampling takes ceil(roi side / bins) samples per side of a bin: a huge roi lists
// billions of taps, which must stay under the memory limit instead of growing without end.
TEST(RoiAlignKernel, TapsOverTheMemoryLimitAreRefused) {
  auto op = Op("RoiAlign", "roi");
  const std::vector<TestTensor> inputs = {Make({1, 1, 4, 4}, Random(16)),
                                          Make<float>({1, 4}, {0, 0, 1e4F, 1e4F}),
                                          Make<int64_t>({1}, {0})};
  RunOptions limited;
  limited.memory_limit = int64_t{64} << 20;
  auto r = RunKernel(op, inputs, {{DT_FLOAT, {1, 1, 1, 1}}}, limited);
  ExpectError(r.status, "over the memory limit of 67108864", "roi");
  EXPECT_NE(r.status.message().find("sample taps"), std::string::npos) << r.status.message();
  // sampling_ratio 2^31 asks for 2^62 taps per bin whatever the roi.
  AttrUtils::SetInt(op, "sampling_ratio", int64_t{1} << 31);
  r = RunKernel(op, inputs, {{DT_FLOAT, {1, 1, 1, 1}}}, limited);
  ExpectError(r.status, "sample taps", "roi");
  // A roi of infinite extent is no count of samples.
  AttrUtils::SetInt(op, "sampling_ratio", 0);
  r = RunKernel(op,
                {Make({1, 1, 4, 4}, Random(16)),
                 Make<float>({1, 4}, {0, 0, std::numeric_limits<float>::infinity(), 1}),
                 Make<int64_t>({1}, {0})},
                {{DT_FLOAT, {1, 1, 1, 1}}}, limited);
  ExpectError(r.status, "not a count", "roi");
}

TEST(RoiAlignKernel, Errors) {
  auto op = Op("RoiAlign", "roi");
  auto r = RunKernel(
      op,
      {Make({1, 1, 4, 4}, Random(16)), Make<float>({1, 4}, {0, 0, 1, 1}), Make<int64_t>({1}, {2})},
      {{DT_FLOAT, {1, 1, 1, 1}}});
  ExpectError(r.status, "batch index 2 is out of range", "roi");
  AttrUtils::SetStr(op, "mode", "sum");
  r = RunKernel(
      op,
      {Make({1, 1, 4, 4}, Random(16)), Make<float>({1, 4}, {0, 0, 1, 1}), Make<int64_t>({1}, {0})},
      {{DT_FLOAT, {1, 1, 1, 1}}});
  ExpectError(r.status, "mode must be avg or max", "roi");
}

// ---- MaxUnpool ----

std::shared_ptr<OpDesc> UnpoolOp() {
  auto op = Op("MaxUnpool", "unpool");
  AttrUtils::SetListInt(op, "kernel_shape", std::vector<int64_t>{2, 2});
  AttrUtils::SetListInt(op, "strides", std::vector<int64_t>{2, 2});
  return op;
}

TEST(MaxUnpoolKernel, ScattersIntoTheInferredShapeThenPadsToOutputShape) {
  const auto x = Make<float>({1, 1, 2, 2}, {5, 6, 7, 8});
  const auto idx = Make<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15});
  auto r = RunKernel(UnpoolOp(), {x, idx}, {{DT_FLOAT, {1, 1, 4, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> want(16, 0.0F);
  want[5] = 5;
  want[7] = 6;
  want[13] = 7;
  want[15] = 8;
  EXPECT_EQ(r.outputs[0].Values<float>(), want);
  // output_shape [1, 1, 5, 5]: the 4x4 result sits at the origin of a 5x5 output.
  r = RunKernel(UnpoolOp(), {x, idx, Make<int64_t>({4}, {1, 1, 5, 5})}, {{DT_FLOAT, {1, 1, 5, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<float> padded(25, 0.0F);
  for (int64_t i = 0; i < 16; ++i)
    padded[static_cast<size_t>(i / 4 * 5 + i % 4)] = want[static_cast<size_t>(i)];
  EXPECT_EQ(r.outputs[0].Values<float>(), padded);
}

TEST(MaxUnpoolKernel, Errors) {
  const auto x = Make<float>({1, 1, 2, 2}, {5, 6, 7, 8});
  auto r = RunKernel(UnpoolOp(), {x, Make<int64_t>({1, 1, 2, 2}, {5, 7, 13, 16})},
                     {{DT_FLOAT, {1, 1, 4, 4}}});
  ExpectError(r.status, "index 16 is outside the unpooled [1,1,4,4]", "unpool");
  r = RunKernel(UnpoolOp(),
                {x, Make<int64_t>({1, 1, 2, 2}, {0, 1, 2, 3}), Make<int64_t>({4}, {1, 1, 3, 4})},
                {{DT_FLOAT, {1, 1, 3, 4}}});
  ExpectError(r.status, "is smaller than the unpooled", "unpool");
  r = RunKernel(Op("MaxUnpool", "unpool"), {x, Make<int64_t>({1, 1, 2, 2}, {0, 1, 2, 3})},
                {{DT_FLOAT, {1, 1, 4, 4}}});
  ExpectError(r.status, "kernel_shape must be given", "unpool");
}

}  // namespace
}  // namespace ge::host_cpu
