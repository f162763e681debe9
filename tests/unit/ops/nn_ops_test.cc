// Inference tests of convolution, pooling, dropout and normalization operators.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

using L = std::vector<int64_t>;

TEST(ConvOps, Conv2DWithPadsStridesDilationsAndGroups) {
  OpHarness c("Conv2D");
  c.In(0, {1, 3, 224, 224})
      .In(1, {64, 3, 7, 7})
      .In(2, {64})
      .Attr("strides", L{2, 2})
      .Attr("pads", L{3, 3, 3, 3});
  ASSERT_TRUE(c.Infer().ok()) << c.Infer().ToString();
  EXPECT_EQ(c.Dims(), (Dims{1, 64, 112, 112}));
  OpHarness g("Conv2D");
  g.In(0, {-1, 8, 10, -1}).In(1, {16, 4, 3, 3}).Attr("group", 2).Attr("dilations", L{2, 2});
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Dims(), (Dims{-1, 16, 6, -1}));
  OpHarness same("Conv2D");
  same.In(0, {1, 3, 15, 15})
      .In(1, {8, 3, 3, 3})
      .Attr("auto_pad", "SAME_UPPER")
      .Attr("strides", L{2, 2});
  ASSERT_TRUE(same.Infer().ok());
  EXPECT_EQ(same.Dims(), (Dims{1, 8, 8, 8}));
  OpHarness nhwc("Conv2D");
  nhwc.In(0, {1, 10, 10, 3}).In(1, {4, 3, 3, 3}).Attr("data_format", "NHWC");
  ASSERT_TRUE(nhwc.Infer().ok());
  EXPECT_EQ(nhwc.Dims(), (Dims{1, 8, 8, 4}));
  OpHarness unknown("Conv2D");
  unknown.In(0, {-2}).In(1, {4, 3, 3, 3});
  ASSERT_TRUE(unknown.Infer().ok());
  EXPECT_EQ(unknown.Dims(), (Dims{-1, -1, -1, -1}));
}

TEST(ConvOps, ConvErrors) {
  OpHarness ch("Conv2D");
  ch.In(0, {1, 4, 8, 8}).In(1, {8, 3, 3, 3});
  ExpectError(ch.Infer(),
              {"node 'op' (Conv2D)", "input x [1,4,8,8] has 4 channels", "input filter [8,3,3,3]"});
  OpHarness rank("Conv2D");
  rank.In(0, {1, 4, 8}).In(1, {8, 4, 3});
  ExpectError(rank.Infer(), {"must have rank 4"});
  OpHarness bias("Conv2D");
  bias.In(0, {1, 3, 8, 8}).In(1, {8, 3, 3, 3}).In(2, {4});
  ExpectError(bias.Infer(), {"input bias [4] must be [8]"});
  OpHarness pads("Conv2D");
  pads.In(0, {1, 3, 8, 8}).In(1, {8, 3, 3, 3}).Attr("pads", L{1, 1});
  ExpectError(pads.Infer(), {"'pads' has 2 values, expected 4"});
}

TEST(ConvOps, Conv3DConv1DAndDepthwise) {
  OpHarness c3("Conv3D");
  c3.In(0, {2, 4, 8, 8, 8}).In(1, {6, 4, 3, 3, 3}).Attr("pads", L{1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(c3.Infer().ok());
  EXPECT_EQ(c3.Dims(), (Dims{2, 6, 8, 8, 8}));
  OpHarness c1("Conv");
  c1.In(0, {2, 4, 50}).In(1, {6, 4, 5}).Attr("strides", L{5});
  ASSERT_TRUE(c1.Infer().ok());
  EXPECT_EQ(c1.Dims(), (Dims{2, 6, 10}));
  OpHarness dw("DepthwiseConv2D");
  dw.In(0, {1, 32, 16, 16}).In(1, {64, 1, 3, 3}).Attr("pads", L{1, 1, 1, 1});
  ASSERT_TRUE(dw.Infer().ok());
  EXPECT_EQ(dw.Dims(), (Dims{1, 64, 16, 16}));
}

TEST(ConvOps, TransposedConvolution) {
  OpHarness t("Conv2DTranspose");
  t.In(0, {1, 16, 8, 8})
      .In(1, {16, 4, 3, 3})
      .Attr("group", 2)
      .Attr("strides", L{2, 2})
      .Attr("pads", L{1, 1, 1, 1})
      .Attr("output_padding", L{1, 1});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(t.Dims(), (Dims{1, 8, 16, 16}));
  OpHarness os("ConvTranspose");
  os.In(0, {1, 2, 5}).In(1, {2, 3, 3}).Attr("output_shape", L{11});
  ASSERT_TRUE(os.Infer().ok());
  EXPECT_EQ(os.Dims(), (Dims{1, 3, 11}));
  OpHarness same("Conv3DTranspose");
  same.In(0, {1, 2, 4, 4, -1})
      .In(1, {2, 1, 3, 3, 3})
      .Attr("auto_pad", "SAME_UPPER")
      .Attr("strides", L{2, 2, 2});
  ASSERT_TRUE(same.Infer().ok());
  EXPECT_EQ(same.Dims(), (Dims{1, 1, 8, 8, -1}));
  OpHarness bad("Conv2DTranspose");
  bad.In(0, {1, 3, 8, 8}).In(1, {4, 2, 3, 3});
  ExpectError(bad.Infer(), {"has 3 channels", "expects 4"});
}

TEST(PoolOps, MaxAvgLpAndGlobalPools) {
  OpHarness m("MaxPool");
  m.In(0, {1, 64, 112, 112})
      .Attr("kernel_shape", L{3, 3})
      .Attr("strides", L{2, 2})
      .Attr("pads", L{1, 1, 1, 1});
  ASSERT_TRUE(m.Infer().ok());
  EXPECT_EQ(m.Dims(), (Dims{1, 64, 56, 56}));
  EXPECT_EQ(m.Dims(1), (Dims{1, 64, 56, 56}));
  EXPECT_EQ(m.OutType(1), DT_INT64);
  OpHarness ceil("AvgPool");
  ceil.In(0, {1, 3, 6, 6})
      .Attr("kernel_shape", L{3, 3})
      .Attr("strides", L{2, 2})
      .Attr("ceil_mode", 1);
  ASSERT_TRUE(ceil.Infer().ok());
  EXPECT_EQ(ceil.Dims(), (Dims{1, 3, 3, 3}));
  OpHarness lp("LpPool");
  lp.In(0, {1, 3, -1, 9}).Attr("kernel_shape", L{2, 2}).Attr("auto_pad", "VALID");
  ASSERT_TRUE(lp.Infer().ok());
  EXPECT_EQ(lp.Dims(), (Dims{1, 3, -1, 8}));
  for (const char* t : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) {
    SCOPED_TRACE(t);
    OpHarness g(t);
    g.In(0, {2, 5, 7, 7, 7});
    ASSERT_TRUE(g.Infer().ok());
    EXPECT_EQ(g.Dims(), (Dims{2, 5, 1, 1, 1}));
  }
  ExpectError(OpHarness("MaxPool").In(0, {1, 3, 8, 8}).Verify(),
              {"required attribute 'kernel_shape' is missing"});
  OpHarness k("MaxPool");
  k.In(0, {1, 3, 8, 8}).Attr("kernel_shape", L{3});
  ExpectError(k.Infer(), {"kernel has 1 spatial dims, expected 2"});
  OpHarness small("MaxPool");
  small.In(0, {1, 3}).Attr("kernel_shape", L{3});
  ExpectError(small.Infer(), {"must have rank >= 3"});
}

TEST(NnOps, DropoutKeepsShapeAndGivesABoolMask) {
  OpHarness d("Dropout");
  d.In(0, {2, -1});
  ASSERT_TRUE(d.Infer().ok());
  EXPECT_EQ(d.Dims(1), (Dims{2, -1}));
  EXPECT_EQ(d.OutType(1), DT_BOOL);
}

TEST(NormOps, BatchNormChecksChannelVectors) {
  OpHarness bn("BatchNorm");
  bn.In(0, {8, 16, 4, 4});
  for (size_t i = 1; i < 5; ++i) bn.In(i, {16});
  ASSERT_TRUE(bn.Infer().ok());
  EXPECT_EQ(bn.Dims(), (Dims{8, 16, 4, 4}));
  EXPECT_EQ(bn.Dims(1), (Dims{16}));
  OpHarness bad("BatchNorm");
  bad.In(0, {8, 16, 4, 4}).In(1, {16}).In(2, {16}).In(3, {8}).In(4, {16});
  ExpectError(bad.Infer(), {"input mean [8] must be [16]", "input x [8,16,4,4]"});
}

TEST(NormOps, LayerNormStatisticsShapes) {
  OpHarness ln("LayerNorm");
  ln.In(0, {2, 5, 8}).In(1, {8}).In(2, {8});
  ASSERT_TRUE(ln.Infer().ok());
  EXPECT_EQ(ln.Dims(0), (Dims{2, 5, 8}));
  EXPECT_EQ(ln.Dims(1), (Dims{2, 5, 1}));
  OpHarness ax("LayerNorm");
  ax.In(0, {2, 5, 8}).In(1, {5, 8}).Attr("axis", -2);
  ASSERT_TRUE(ax.Infer().ok());
  EXPECT_EQ(ax.Dims(2), (Dims{2, 1, 1}));
  OpHarness bad("LayerNorm");
  bad.In(0, {2, 5, 8}).In(1, {5});
  ExpectError(bad.Infer(), {"input scale [5] does not broadcast to the normalized shape [8]"});
}

TEST(NormOps, RmsNormalizationTakesTheScalesTypeAndChecksItsShape) {
  OpHarness rms("RMSNormalization");
  rms.In(0, {2, 5, 8}, DT_FLOAT16).In(1, {5, 8}).Attr("axis", AttrValue(int64_t{-2}));
  ASSERT_TRUE(rms.Infer().ok()) << rms.Infer().ToString();
  EXPECT_EQ(rms.Dims(), (Dims{2, 5, 8}));
  EXPECT_EQ(rms.OutType(), DT_FLOAT);
  OpHarness axis("RMSNormalization");
  axis.In(0, {2, 5, 8}).In(1, {8}).Attr("axis", AttrValue(int64_t{3}));
  ExpectError(axis.Infer(), {"node 'op' (RMSNormalization)", "attribute 'axis'"});
  OpHarness scale("RMSNormalization");
  scale.In(0, {2, 5, 8}).In(1, {5});
  ExpectError(scale.Infer(), {"input scale [5] does not broadcast to input X [2,5,8]"});
}

TEST(NormOps, InstanceGroupLrnAndOthers) {
  OpHarness in("InstanceNorm");
  in.In(0, {2, 3, 5, 5}).In(1, {3}).In(2, {3});
  ASSERT_TRUE(in.Infer().ok());
  EXPECT_EQ(in.Dims(), (Dims{2, 3, 5, 5}));
  OpHarness gn("GroupNorm");
  gn.In(0, {2, 6, 5}).In(1, {3}).In(2, {6}).Attr("num_groups", 3);
  ASSERT_TRUE(gn.Infer().ok()) << gn.Infer().ToString();
  OpHarness gbad("GroupNorm");
  gbad.In(0, {2, 6, 5}).In(1, {6}).In(2, {6}).Attr("num_groups", 4);
  ExpectError(gbad.Infer(), {"6 channels, not divisible by num_groups 4"});
  OpHarness lrn("LRN");
  lrn.In(0, {1, 8, 4, 4}).Attr("size", 5);
  ASSERT_TRUE(lrn.Infer().ok());
  ExpectError(OpHarness("LRN").In(0, {1, 8, 4, 4}).Verify(), {"'size' is missing"});
  OpHarness lp("LpNormalization");
  lp.In(0, {3, 4}).Attr("axis", 2);
  ExpectError(lp.Infer(), {"attribute 'axis'"});
  OpHarness mvn("MeanVarianceNormalization");
  mvn.In(0, {1, 3, 4, 4});
  ASSERT_TRUE(mvn.Infer().ok());
  EXPECT_EQ(mvn.Dims(), (Dims{1, 3, 4, 4}));
}

}  // namespace
}  // namespace ge::testing
