// Inference tests of the vision prototypes: GridSample, RoiAlign, NonMaxSuppression, MaxUnpool.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(GridSampleOps, OutputTakesNAndCFromXAndSpatialDimsFromTheGrid) {
  OpHarness gs("GridSample");
  gs.In(0, {2, 3, 8, 9}).In(1, {2, 5, 6, 2});
  ASSERT_TRUE(gs.Infer().ok()) << gs.Infer().ToString();
  EXPECT_EQ(gs.Dims(), (Dims{2, 3, 5, 6}));
  EXPECT_EQ(gs.OutType(), DT_FLOAT);
  OpHarness vol("GridSample");  // 3-D, unknown grid dims pass through
  vol.In(0, {1, 4, 3, 3, 3}, DT_DOUBLE).In(1, {1, -1, 2, 7, 3}, DT_DOUBLE);
  ASSERT_TRUE(vol.Infer().ok()) << vol.Infer().ToString();
  EXPECT_EQ(vol.Dims(), (Dims{1, 4, -1, 2, 7}));
  EXPECT_EQ(vol.OutType(), DT_DOUBLE);
}

TEST(GridSampleOps, Errors) {
  OpHarness last("GridSample");
  last.In(0, {2, 3, 8, 9}).In(1, {2, 5, 6, 3});
  ExpectError(last.Infer(), {"node 'op' (GridSample)", "must be [N, D1_out..Dr_out, r]"});
  OpHarness mode("GridSample");
  mode.In(0, {2, 3, 8, 9}).In(1, {2, 5, 6, 2}).Attr("mode", "area");
  ExpectError(mode.Infer(), {"attribute 'mode' must be one of", "not 'area'"});
  OpHarness pad("GridSample");
  pad.In(0, {2, 3, 8, 9}).In(1, {2, 5, 6, 2}).Attr("padding_mode", "wrap");
  ExpectError(pad.Infer(), {"attribute 'padding_mode'", "not 'wrap'"});
}

TEST(RoiAlignOps, OutputIsRoisByChannelsByTheOutputSize) {
  OpHarness roi("RoiAlign");
  roi.In(0, {2, 16, 20, 20})
      .In(1, {7, 4})
      .In(2, {7}, DT_INT64)
      .Attr("output_height", 3)
      .Attr("output_width", 5);
  ASSERT_TRUE(roi.Infer().ok()) << roi.Infer().ToString();
  EXPECT_EQ(roi.Dims(), (Dims{7, 16, 3, 5}));
  OpHarness defaults("RoiAlign");  // 1x1 by default; the roi count from batch_indices
  defaults.In(0, {2, 16, 20, 20}).In(1, {-1, 4}).In(2, {4}, DT_INT64);
  ASSERT_TRUE(defaults.Infer().ok()) << defaults.Infer().ToString();
  EXPECT_EQ(defaults.Dims(), (Dims{4, 16, 1, 1}));
}

TEST(RoiAlignOps, Errors) {
  OpHarness count("RoiAlign");
  count.In(0, {2, 16, 20, 20}).In(1, {7, 4}).In(2, {6}, DT_INT64);
  ExpectError(count.Infer(), {"node 'op' (RoiAlign)", "one index per roi"});
  OpHarness cols("RoiAlign");
  cols.In(0, {2, 16, 20, 20}).In(1, {7, 5}).In(2, {7}, DT_INT64);
  ExpectError(cols.Infer(), {"must be [num_rois, 4]"});
  OpHarness mode("RoiAlign");
  mode.In(0, {2, 16, 20, 20})
      .In(1, {7, 4})
      .In(2, {7}, DT_INT64)
      .Attr("coordinate_transformation_mode", "align_corners");
  ExpectError(mode.Infer(), {"'coordinate_transformation_mode' must be one of"});
}

TEST(NonMaxSuppressionOps, SelectedCountIsUnknown) {
  OpHarness nms("NonMaxSuppression");
  nms.In(0, {2, 10, 4}).In(1, {2, 3, 10}).ConstInts(2, {5}, {1});
  ASSERT_TRUE(nms.Infer().ok()) << nms.Infer().ToString();
  EXPECT_EQ(nms.Dims(), (Dims{-1, 3}));
  EXPECT_EQ(nms.OutType(), DT_INT64);
}

TEST(NonMaxSuppressionOps, Errors) {
  OpHarness boxes("NonMaxSuppression");
  boxes.In(0, {2, 10, 4}).In(1, {2, 3, 9});
  ExpectError(boxes.Infer(), {"node 'op' (NonMaxSuppression)", "must be [B, S, 4]"});
  OpHarness center("NonMaxSuppression");
  center.In(0, {2, 10, 4}).In(1, {2, 3, 10}).Attr("center_point_box", 2);
  ExpectError(center.Infer(), {"'center_point_box' must be 0 or 1"});
}

TEST(MaxUnpoolOps, DefaultShapeInvertsThePoolingElseOutputShape) {
  OpHarness def("MaxUnpool");
  def.In(0, {1, 3, 2, 3})
      .In(1, {1, 3, 2, 3}, DT_INT64)
      .Attr("kernel_shape", std::vector<int64_t>{2, 2})
      .Attr("strides", std::vector<int64_t>{2, 2})
      .Attr("pads", std::vector<int64_t>{0, 1, 0, 0});
  ASSERT_TRUE(def.Infer().ok()) << def.Infer().ToString();
  EXPECT_EQ(def.Dims(), (Dims{1, 3, 4, 5}));
  OpHarness wraps("MaxUnpool");  // (2 - 1) * 2^62 * 2 + 2 wraps past int64
  wraps.In(0, {1, 3, 3, 3})
      .In(1, {1, 3, 3, 3}, DT_INT64)
      .Attr("kernel_shape", std::vector<int64_t>{2, 2})
      .Attr("strides", std::vector<int64_t>{int64_t{1} << 62, 2});
  ExpectError(wraps.Infer(), {"output dim 2", "overflows int64"});
  OpHarness given("MaxUnpool");
  given.In(0, {1, 3, 2, 2})
      .In(1, {1, 3, 2, 2}, DT_INT64)
      .ConstInts(2, {1, 3, 5, 5})
      .Attr("kernel_shape", std::vector<int64_t>{2, 2})
      .Attr("strides", std::vector<int64_t>{2, 2});
  ASSERT_TRUE(given.Infer().ok()) << given.Infer().ToString();
  EXPECT_EQ(given.Dims(), (Dims{1, 3, 5, 5}));
  OpHarness runtime("MaxUnpool");  // output_shape known only at run time
  runtime.In(0, {1, 3, 2, 2})
      .In(1, {1, 3, 2, 2}, DT_INT64)
      .In(2, {4}, DT_INT64)
      .Attr("kernel_shape", std::vector<int64_t>{2, 2});
  ASSERT_TRUE(runtime.Infer().ok()) << runtime.Infer().ToString();
  EXPECT_EQ(runtime.Dims(), (Dims{-1, -1, -1, -1}));
}

TEST(MaxUnpoolOps, Errors) {
  OpHarness rank("MaxUnpool");
  rank.In(0, {1, 3, 2}).In(1, {1, 3, 2}, DT_INT64).Attr("kernel_shape", std::vector<int64_t>{2, 2});
  ExpectError(rank.Infer(), {"node 'op' (MaxUnpool)", "must have rank 4"});
  OpHarness strides("MaxUnpool");
  strides.In(0, {1, 3, 2, 2})
      .In(1, {1, 3, 2, 2}, DT_INT64)
      .Attr("kernel_shape", std::vector<int64_t>{2, 2})
      .Attr("strides", std::vector<int64_t>{2});
  ExpectError(strides.Infer(), {"'strides' and 'pads' must have 2 and 4 values"});
  OpHarness indices("MaxUnpool");
  indices.In(0, {1, 3, 2, 2})
      .In(1, {1, 3, 2, 3}, DT_INT64)
      .Attr("kernel_shape", std::vector<int64_t>{2, 2});
  ExpectError(indices.Infer(), {"must have the shape of"});
}

}  // namespace
}  // namespace ge::testing
