// PadV3, Tile, Expand, DepthToSpace / SpaceToDepth, Range, ConstantOfShape, Cumsum, Trilu and
// Resize on small tensors with known results.
#include <cmath>

#include "kernel_test_util.h"

namespace ge::host_cpu {
namespace {

using testing::ExpectError;
using testing::ExpectNear;
using testing::Make;
using testing::Op;
using testing::RunKernel;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(PadKernel, ConstantReflectEdgeWrap) {
  const auto x = Make<float>({3}, {1, 2, 3});
  const auto pads = Make<int64_t>({2}, {2, 1});
  const std::pair<const char*, std::vector<float>> cases[] = {{"constant", {9, 9, 1, 2, 3, 9}},
                                                              {"reflect", {3, 2, 1, 2, 3, 2}},
                                                              {"edge", {1, 1, 1, 2, 3, 3}},
                                                              {"wrap", {2, 3, 1, 2, 3, 1}}};
  for (const auto& [mode, want] : cases) {
    auto op = Op("PadV3");
    AttrUtils::SetStr(op, "mode", mode);
    auto r = RunKernel(op, {x, pads, Make<float>({}, {9})}, {{DT_FLOAT, {6}}});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].Values<float>(), want) << mode;
  }
  // 2-D with axes and a negative (cropping) pad.
  auto r = RunKernel(Op("PadV3"),
                     {Make({2, 3}, Iota(6)), Make<int64_t>({2}, {-1, 1}), testing::Absent(),
                      Make<int64_t>({1}, {-1})},
                     {{DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 2, 0, 4, 5, 0}));
  auto bad = Op("PadV3");
  AttrUtils::SetStr(bad, "mode", "mirror");
  ExpectError(RunKernel(bad, {x, pads}, {{DT_FLOAT, {6}}}).status, "mode");
}

TEST(TileAndExpandKernel, Repeat) {
  auto r = RunKernel(Op("Tile"), {Make<int32_t>({2}, {1, 2}), Make<int64_t>({1}, {3})},
                     {{DT_INT32, {6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int32_t>(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2}));
  r = RunKernel(Op("Expand"), {Make<float>({3, 1}, {1, 2, 3}), Make<int64_t>({3}, {2, 1, 2})},
                {{DT_FLOAT, {2, 3, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  ExpectError(RunKernel(Op("Expand"), {Make<float>({3}, {1, 2, 3}), Make<int64_t>({1}, {2})},
                        {{DT_FLOAT, {3}}})
                  .status,
              "cannot be expanded");
}

TEST(DepthSpaceKernel, RoundTripAndDcrLayout) {
  auto d2s = Op("DepthToSpace");
  AttrUtils::SetInt(d2s, "blocksize", 2);
  auto r = RunKernel(d2s, {Make({1, 4, 1, 1}, Iota(4))}, {{DT_FLOAT, {1, 1, 2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 1, 2, 3}));
  const auto x = Iota(2 * 8 * 2 * 3);
  auto s2d = Op("SpaceToDepth");
  AttrUtils::SetInt(s2d, "blocksize", 2);
  r = RunKernel(d2s, {Make({2, 8, 2, 3}, x)}, {{DT_FLOAT, {2, 2, 4, 6}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto back = RunKernel(s2d, {Make({2, 2, 4, 6}, r.outputs[0].Values<float>())},
                        {{DT_FLOAT, {2, 8, 2, 3}}});
  ASSERT_TRUE(back.status.ok()) << back.status.message();
  EXPECT_EQ(back.outputs[0].Values<float>(), x);
  AttrUtils::SetStr(d2s, "mode", "CRD");
  r = RunKernel(d2s, {Make({1, 4, 1, 1}, Iota(4))}, {{DT_FLOAT, {1, 1, 2, 2}}});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 1, 2, 3}));
}

TEST(GeneratorKernels, RangeAndConstantOfShape) {
  auto r =
      RunKernel(Op("Range"), {Make<float>({}, {1}), Make<float>({}, {2}), Make<float>({}, {0.25F})},
                {{DT_FLOAT, {4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 1.25F, 1.5F, 1.75F}));
  r = RunKernel(Op("Range"),
                {Make<int64_t>({}, {10}), Make<int64_t>({}, {4}), Make<int64_t>({}, {-3})},
                {{DT_INT64, {2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{10, 7}));
  r = RunKernel(Op("Range"),
                {Make<float>({}, {0}), Make<float>({}, {std::nanf("")}), Make<float>({}, {1})},
                {{DT_FLOAT, {0}}});
  EXPECT_FALSE(r.status.ok());  // a NaN limit gives no length, whatever the output's dims
  auto op = Op("ConstantOfShape");
  GeTensor value(GeTensorDesc(GeShape({1}), FORMAT_ND, DT_INT64),
                 std::vector<uint8_t>{7, 0, 0, 0, 0, 0, 0, 0});
  AttrUtils::SetTensor(op, "value", value);
  r = RunKernel(op, {Make<int64_t>({2}, {2, 2})}, {{DT_INT64, {2, 2}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<int64_t>(), (std::vector<int64_t>{7, 7, 7, 7}));
}

TEST(CumsumKernel, ExclusiveReverse) {
  const auto x = Make<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto r = RunKernel(Op("Cumsum"), {x, Make<int32_t>({}, {1})}, {{DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  auto op = Op("Cumsum");
  AttrUtils::SetInt(op, "exclusive", 1);
  AttrUtils::SetInt(op, "reverse", 1);
  r = RunKernel(op, {x, Make<int64_t>({}, {-2})}, {{DT_FLOAT, {2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{4, 5, 6, 0, 0, 0}));
}

TEST(TriluKernel, UpperAndLowerWithK) {
  const auto x = Make({3, 3}, Iota(9));
  auto r = RunKernel(Op("Trilu"), {x, Make<int64_t>({}, {1})}, {{DT_FLOAT, {3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 1, 2, 0, 0, 5, 0, 0, 0}));
  auto op = Op("Trilu");
  AttrUtils::SetInt(op, "upper", 0);
  r = RunKernel(op, {x}, {{DT_FLOAT, {3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(), (std::vector<float>{0, 0, 0, 3, 4, 0, 6, 7, 8}));
}

TEST(ResizeKernel, NearestAndLinear) {
  const auto x = Make<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto op = Op("Resize");
  AttrUtils::SetStr(op, "coordinate_transformation_mode", "asymmetric");
  AttrUtils::SetStr(op, "nearest_mode", "floor");
  auto r = RunKernel(op, {x, testing::Absent(), Make<float>({4}, {1, 1, 2, 2})},
                     {{DT_FLOAT, {1, 1, 4, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].Values<float>(),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
  auto lin = Op("Resize");
  AttrUtils::SetStr(lin, "mode", "linear");
  AttrUtils::SetStr(lin, "coordinate_transformation_mode", "align_corners");
  r = RunKernel(lin, {x, testing::Absent(), testing::Absent(), Make<int64_t>({4}, {1, 1, 3, 3})},
                {{DT_FLOAT, {1, 1, 3, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {1, 1.5F, 2, 2, 2.5F, 3, 3, 3.5F, 4});
  // half_pixel linear upsampling of [1, 2] by 2: ONNX gives [1, 1.25, 1.75, 2].
  auto hp = Op("Resize");
  AttrUtils::SetStr(hp, "mode", "linear");
  r = RunKernel(hp, {Make<float>({1, 2}, {1, 2})}, {{DT_FLOAT, {1, 4}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].Values<float>(), {1, 1.25F, 1.75F, 2});
  auto area = Op("Resize", "up");
  AttrUtils::SetStr(area, "mode", "area");
  ExpectError(RunKernel(area, {x}, {{DT_FLOAT, {1, 1, 4, 4}}}).status, "'area'", "up");
}

}  // namespace
}  // namespace ge::host_cpu
