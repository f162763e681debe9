// Inference tests of reductions and shape manipulation (transpose, concat, split, slices, tile,
// expand, pad, depth/space).
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

using L = std::vector<int64_t>;

TEST(ReduceOps, EveryReductionWithAxesInputOrAttribute) {
  for (const char* t :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    SCOPED_TRACE(t);
    OpHarness in(t);
    in.In(0, {2, 3, 4}).ConstInts(1, {-1, 0});
    ASSERT_TRUE(in.Infer().ok());
    EXPECT_EQ(in.Dims(), (Dims{1, 3, 1}));
    OpHarness attr(t);
    attr.In(0, {2, 3, 4}).Attr("axes", L{1}).Attr("keepdims", 0);
    ASSERT_TRUE(attr.Infer().ok());
    EXPECT_EQ(attr.Dims(), (Dims{2, 4}));
  }
}

TEST(ReduceOps, EmptyAxesUnknownAxesAndErrors) {
  OpHarness all("ReduceSum");
  all.In(0, {2, 3}).Attr("keepdims", 0);
  ASSERT_TRUE(all.Infer().ok());
  EXPECT_EQ(all.Dims(), (Dims{}));
  OpHarness noop("ReduceMean");
  noop.In(0, {2, 3}).Attr("noop_with_empty_axes", 1);
  ASSERT_TRUE(noop.Infer().ok());
  EXPECT_EQ(noop.Dims(), (Dims{2, 3}));
  OpHarness unknown("ReduceMax");
  unknown.In(0, {2, 1, 3}).In(1, {1}, DT_INT64);
  ASSERT_TRUE(unknown.Infer().ok());
  EXPECT_EQ(unknown.Dims(), (Dims{-1, 1, -1}));
  OpHarness unknown_drop("ReduceMax");
  unknown_drop.In(0, {2, 3}).In(1, {1}, DT_INT64).Attr("keepdims", 0);
  ASSERT_TRUE(unknown_drop.Infer().ok());
  EXPECT_TRUE(unknown_drop.Out().IsUnknownDimNum());
  OpHarness bad("ReduceSum");
  bad.In(0, {2, 3}).ConstInts(1, {2});
  ExpectError(bad.Infer(), {"axes of input x [2,3]", "axis 2 is out of range for rank 2"});
}

TEST(ReduceOps, ArgMaxAndArgMin) {
  for (const char* t : {"ArgMaxV2", "ArgMin"}) {
    SCOPED_TRACE(t);
    OpHarness a(t);
    a.In(0, {2, 3, 4}).Attr("axis", -1).Attr("keepdims", 0);
    ASSERT_TRUE(a.Infer().ok());
    EXPECT_EQ(a.Dims(), (Dims{2, 3}));
    EXPECT_EQ(a.OutType(), DT_INT64);
    OpHarness bad(t);
    bad.In(0, {2}).Attr("axis", 1);
    ExpectError(bad.Infer(), {"attribute 'axis'"});
  }
}

TEST(ShapeOps, Transpose) {
  OpHarness t("Transpose");
  t.In(0, {2, 3, -1}).Attr("perm", L{2, 0, 1});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(t.Dims(), (Dims{-1, 2, 3}));
  OpHarness rev("Transpose");
  rev.In(0, {2, 3, 4});
  ASSERT_TRUE(rev.Infer().ok());
  EXPECT_EQ(rev.Dims(), (Dims{4, 3, 2}));
  OpHarness bad("Transpose");
  bad.In(0, {2, 3}).Attr("perm", L{0, 0});
  ExpectError(bad.Infer(), {"not a permutation"});
  OpHarness len("Transpose");
  len.In(0, {2, 3}).Attr("perm", L{0, 1, 2});
  ExpectError(len.Infer(), {"'perm' has 3 entries"});
}

TEST(ShapeOps, ConcatV2) {
  OpHarness c("ConcatV2", {{"x", 3}});
  c.In(0, {2, 3}).In(1, {2, 5}).In(2, {-1, -1}).Attr("axis", -1);
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.Dims(), (Dims{2, -1}));
  OpHarness k("ConcatV2", {{"x", 2}});
  k.In(0, {2, 3}).In(1, {2, 5}).Attr("axis", 1);
  ASSERT_TRUE(k.Infer().ok());
  EXPECT_EQ(k.Dims(), (Dims{2, 8}));
  OpHarness bad("ConcatV2", {{"x", 2}});
  bad.In(0, {2, 3}).In(1, {4, 5}).Attr("axis", 1);
  ExpectError(bad.Infer(), {"input x1 [4,5] does not match input x0 [2,3] in dim 0"});
  OpHarness rank("ConcatV2", {{"x", 2}});
  rank.In(0, {2, 3}).In(1, {2}).Attr("axis", 0);
  ExpectError(rank.Infer(), {"differ in rank"});
}

TEST(ShapeOps, Split) {
  OpHarness s("Split", {{"y", 2}});
  s.In(0, {6, 4}).ConstInts(1, {2, 4});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(0), (Dims{2, 4}));
  EXPECT_EQ(s.Dims(1), (Dims{4, 4}));
  OpHarness eq("Split", {{"y", 3}});
  eq.In(0, {4, 7}).Attr("axis", -1);
  ASSERT_TRUE(eq.Infer().ok());
  EXPECT_EQ(eq.Dims(0), (Dims{4, 3}));
  EXPECT_EQ(eq.Dims(2), (Dims{4, 1}));
  OpHarness bad("Split", {{"y", 2}});
  bad.In(0, {6, 4}).ConstInts(1, {2, 3});
  ExpectError(bad.Infer(), {"split sizes sum to 5", "input x [6,4] has 6 on axis 0"});
}

TEST(ShapeOps, Slice) {
  OpHarness s("Slice");
  s.In(0, {20, 10, 5})
      .ConstInts(1, {0, 1})
      .ConstInts(2, {3, -1})
      .ConstInts(3, {0, 1})
      .ConstInts(4, {1, 2});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{3, 4, 5}));
  OpHarness rev("Slice");
  rev.In(0, {10}).ConstInts(1, {-1}).ConstInts(2, {INT64_MIN}).ConstInts(4, {-1});
  ASSERT_TRUE(rev.Infer().ok());
  EXPECT_EQ(rev.Dims(), (Dims{10}));
  OpHarness big("Slice");
  big.In(0, {5, -1}).ConstInts(1, {2, 0}).ConstInts(2, {1000, 3});
  ASSERT_TRUE(big.Infer().ok());
  EXPECT_EQ(big.Dims(), (Dims{3, -1}));
  OpHarness dyn("Slice");
  dyn.In(0, {5, 6}).In(1, {1}, DT_INT64).ConstInts(2, {3}).ConstInts(3, {1});
  ASSERT_TRUE(dyn.Infer().ok());
  EXPECT_EQ(dyn.Dims(), (Dims{5, -1}));
  OpHarness zero("Slice");
  zero.In(0, {5}).ConstInts(1, {0}).ConstInts(2, {3}).ConstInts(4, {0});
  ExpectError(zero.Infer(), {"steps must not be 0"});
}

TEST(ShapeOps, StridedSliceMasks) {
  OpHarness s("StridedSlice");
  s.In(0, {8, 6, 4})
      .ConstInts(1, {1, 0, 2})
      .ConstInts(2, {5, 0, 3})
      .ConstInts(3, {2, 1, 1})
      .Attr("end_mask", 2)
      .Attr("shrink_axis_mask", 4);
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{2, 6}));
  OpHarness e("StridedSlice");
  e.In(0, {2, 3, 4, 5})
      .ConstInts(1, {0, 0, 1})
      .ConstInts(2, {0, 0, 3})
      .ConstInts(3, {1, 1, 1})
      .Attr("ellipsis_mask", 1)
      .Attr("new_axis_mask", 2);
  ASSERT_TRUE(e.Infer().ok());
  EXPECT_EQ(e.Dims(), (Dims{2, 3, 4, 1, 2}));
  OpHarness unk("StridedSlice");
  unk.In(0, {8, 6}).In(1, {2}, DT_INT64).ConstInts(2, {1, 1}).ConstInts(3, {1, 1});
  ASSERT_TRUE(unk.Infer().ok());
  EXPECT_EQ(unk.Dims(), (Dims{-1, -1}));
  OpHarness bad("StridedSlice");
  bad.In(0, {8}).ConstInts(1, {9}).ConstInts(2, {10}).ConstInts(3, {1}).Attr("shrink_axis_mask", 1);
  ExpectError(bad.Infer(), {"shrink index 9 is out of range"});
}

TEST(ShapeOps, TileExpandPad) {
  OpHarness t("Tile");
  t.In(0, {2, -1}).ConstInts(1, {3, 2});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(t.Dims(), (Dims{6, -1}));
  OpHarness tb("Tile");
  tb.In(0, {2, 3}).ConstInts(1, {3});
  ExpectError(tb.Infer(), {"multiples has 1 values for input x [2,3]"});
  OpHarness e("Expand");
  e.In(0, {3, 1}).ConstInts(1, {2, 1, 6});
  ASSERT_TRUE(e.Infer().ok());
  EXPECT_EQ(e.Dims(), (Dims{2, 3, 6}));
  OpHarness eb("Expand");
  eb.In(0, {3, 2}).ConstInts(1, {3, 4});
  ExpectError(eb.Infer(), {"input x [3,2] cannot be expanded to [3,4]"});
  OpHarness ed("Expand");
  ed.In(0, {3, 1}).In(1, {3}, DT_INT64);
  ASSERT_TRUE(ed.Infer().ok());
  EXPECT_EQ(ed.Dims(), (Dims{-1, -1, -1}));
  OpHarness p("PadV3");
  p.In(0, {1, 3, 4, 4}).ConstInts(1, {0, 0, 1, 2, 0, 0, 1, 2});
  ASSERT_TRUE(p.Infer().ok());
  EXPECT_EQ(p.Dims(), (Dims{1, 3, 6, 8}));
  OpHarness pa("PadV3");
  pa.In(0, {1, 3, 4, 4}).ConstInts(1, {1, -1}).ConstInts(3, {-1});
  ASSERT_TRUE(pa.Infer().ok());
  EXPECT_EQ(pa.Dims(), (Dims{1, 3, 4, 4}));
  OpHarness pb("PadV3");
  pb.In(0, {4, 4}).ConstInts(1, {1, 1});
  ExpectError(pb.Infer(), {"pads has 2 values, expected 4"});
  // Pads at the int64 limit overflow instead of wrapping to a small dim.
  OpHarness po("PadV3");
  po.In(0, {4, 4}).ConstInts(1, {0, INT64_MAX, 0, 2});
  ExpectError(po.Infer(), {"pads of dim 1 overflow int64"});
}

TEST(ShapeOps, DepthToSpaceAndSpaceToDepth) {
  OpHarness d("DepthToSpace");
  d.In(0, {1, 8, 2, 3}).Attr("blocksize", 2);
  ASSERT_TRUE(d.Infer().ok());
  EXPECT_EQ(d.Dims(), (Dims{1, 2, 4, 6}));
  OpHarness s("SpaceToDepth");
  s.In(0, {1, 2, 4, -1}).Attr("blocksize", 2);
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{1, 8, 2, -1}));
  OpHarness bad("SpaceToDepth");
  bad.In(0, {1, 2, 5, 4}).Attr("blocksize", 2);
  ExpectError(bad.Infer(), {"dim 2 is not divisible by 2"});
}

}  // namespace
}  // namespace ge::testing
