// Inference tests of the skeleton operators (graph I/O, constants, identities, shape queries,
// PhonyConcat/PhonySplit, reshape-like ops).
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(SkeletonOps, DataConstNetOutputIdentity) {
  OpHarness data("Data");
  data.op()->MutableOutputDesc(0)->SetShape(GeShape({2, 3}));
  ASSERT_TRUE(data.Infer().ok());  // a graph input keeps its desc
  EXPECT_EQ(data.Dims(), (Dims{2, 3}));

  OpHarness c("Const");
  c.Attr("value", MakeTensor<int32_t>({1, 2, 3, 4, 5, 6}, DT_INT32, {3, 2}));
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.Dims(), (Dims{3, 2}));
  EXPECT_EQ(c.OutType(), DT_INT32);
  ExpectError(OpHarness("Constant").Infer(), {"attribute 'value'"});

  OpHarness out("NetOutput", {{"x", 2}, {"y", 2}});
  out.In(0, {4}, DT_INT64).In(1, {-1, 2}, DT_FLOAT16);
  ASSERT_TRUE(out.Infer().ok());
  EXPECT_EQ(out.Dims(1), (Dims{-1, 2}));
  EXPECT_EQ(out.OutType(0), DT_INT64);

  OpHarness id("Identity");
  id.In(0, {-2}, DT_BOOL);
  ASSERT_TRUE(id.Infer().ok());
  EXPECT_TRUE(id.Out().IsUnknownDimNum());
  EXPECT_EQ(id.OutType(), DT_BOOL);
  EXPECT_TRUE(OpHarness("NoOp").Infer().ok());
}

TEST(SkeletonOps, ShapeSizeRank) {
  OpHarness s("Shape");
  s.In(0, {2, -1, 5});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{3}));
  EXPECT_EQ(s.OutType(), DT_INT64);
  OpHarness sliced("Shape");
  sliced.In(0, {2, 3, 4, 5}).Attr("start", 1).Attr("end", -1).Attr("dtype", DT_INT32);
  ASSERT_TRUE(sliced.Infer().ok());
  EXPECT_EQ(sliced.Dims(), (Dims{2}));
  EXPECT_EQ(sliced.OutType(), DT_INT32);
  OpHarness unknown("Shape");
  unknown.In(0, {-2});
  ASSERT_TRUE(unknown.Infer().ok());
  EXPECT_EQ(unknown.Dims(), (Dims{-1}));
  OpHarness size("Size");
  size.In(0, {2, 3});
  ASSERT_TRUE(size.Infer().ok());
  EXPECT_EQ(size.Dims(), (Dims{}));
  OpHarness rank("Rank");
  rank.In(0, {2, 3});
  ASSERT_TRUE(rank.Infer().ok());
  EXPECT_EQ(rank.OutType(), DT_INT32);
}

TEST(SkeletonOps, PhonyConcatAndSplit) {
  OpHarness c("PhonyConcat", {{"x", 4}});
  for (size_t i = 0; i < 4; ++i) c.In(i, {1, 2, 2, 4, 8}, DT_FLOAT16);
  c.Attr("concat_dim", std::vector<int64_t>{3, 1}).Attr("N", std::vector<int64_t>{2, 2});
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.Dims(), (Dims{1, 4, 2, 8, 8}));
  OpHarness s("PhonySplit", {{"y", 2}});
  s.In(0, {4, 6})
      .Attr("split_dim", std::vector<int64_t>{-1})
      .Attr("num_split", std::vector<int64_t>{2});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(1), (Dims{4, 3}));
  OpHarness bad("PhonySplit", {{"y", 4}});
  bad.In(0, {4, 6})
      .Attr("split_dim", std::vector<int64_t>{1})
      .Attr("num_split", std::vector<int64_t>{4});
  ExpectError(bad.Infer(), {"not divisible by 4"});
}

TEST(SkeletonOps, ReshapeWithZeroMinusOneAndUnknowns) {
  OpHarness r("Reshape");
  r.In(0, {2, 3, 4}).ConstInts(1, {0, -1});
  ASSERT_TRUE(r.Infer().ok());
  EXPECT_EQ(r.Dims(), (Dims{2, 12}));
  OpHarness dyn("Reshape");
  dyn.In(0, {-1, 3, 4}).ConstInts(1, {-1, 12});
  ASSERT_TRUE(dyn.Infer().ok());
  EXPECT_EQ(dyn.Dims(), (Dims{-1, 12}));
  OpHarness no_const("Reshape");
  no_const.In(0, {2, 3}).In(1, {3}, DT_INT64);
  ASSERT_TRUE(no_const.Infer().ok());
  EXPECT_EQ(no_const.Dims(), (Dims{-1, -1, -1}));
  OpHarness unknown_len("Reshape");
  unknown_len.In(0, {2, 3}).In(1, {-1}, DT_INT64);
  ASSERT_TRUE(unknown_len.Infer().ok());
  EXPECT_TRUE(unknown_len.Out().IsUnknownDimNum());
  OpHarness bad("Reshape");
  bad.In(0, {2, 3}).ConstInts(1, {4, 2});
  ExpectError(bad.Infer(), {"node 'op' (Reshape)", "cannot reshape [2,3]", "[4,2]"});
  OpHarness two("Reshape");
  two.In(0, {2, 3}).ConstInts(1, {-1, -1});
  ExpectError(two.Infer(), {"more than one -1"});
  OpHarness zero("Reshape");
  zero.In(0, {0, 3}).ConstInts(1, {0, 4}).Attr("allowzero", 1);
  ASSERT_TRUE(zero.Infer().ok());
  EXPECT_EQ(zero.Dims(), (Dims{0, 4}));
}

TEST(SkeletonOps, SqueezeAndUnsqueeze) {
  OpHarness s("Squeeze");
  s.In(0, {1, 3, 1, 5}).ConstInts(1, {-2});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{1, 3, 5}));
  OpHarness all("Squeeze");
  all.In(0, {1, 3, 1, 5});
  ASSERT_TRUE(all.Infer().ok());
  EXPECT_EQ(all.Dims(), (Dims{3, 5}));
  OpHarness attr("Squeeze");
  attr.In(0, {1, 3}).Attr("axes", std::vector<int64_t>{0});
  ASSERT_TRUE(attr.Infer().ok());
  EXPECT_EQ(attr.Dims(), (Dims{3}));
  OpHarness unknown("Squeeze");
  unknown.In(0, {-1, 3});
  ASSERT_TRUE(unknown.Infer().ok());
  EXPECT_TRUE(unknown.Out().IsUnknownDimNum());
  OpHarness bad("Squeeze");
  bad.In(0, {1, 3}).ConstInts(1, {1});
  ExpectError(bad.Infer(), {"cannot squeeze dim 1", "[1,3]", "is 3"});

  OpHarness u("Unsqueeze");
  u.In(0, {3, 4}).ConstInts(1, {0, -1});
  ASSERT_TRUE(u.Infer().ok());
  EXPECT_EQ(u.Dims(), (Dims{1, 3, 4, 1}));
  OpHarness u2("Unsqueeze");
  u2.In(0, {3, 4}).In(1, {2}, DT_INT64);
  ASSERT_TRUE(u2.Infer().ok());
  EXPECT_EQ(u2.Dims(), (Dims{-1, -1, -1, -1}));
  OpHarness ubad("Unsqueeze");
  ubad.In(0, {3}).ConstInts(1, {5});
  ExpectError(ubad.Infer(), {"axis 5 is out of range for rank 2"});
  OpHarness dup("Unsqueeze");
  dup.In(0, {3}).ConstInts(1, {0, -3});  // output rank 3: -3 is axis 0
  ExpectError(dup.Infer(), {"given twice"});
}

TEST(SkeletonOps, ExpandDimsAndFlatten) {
  OpHarness e("ExpandDims");
  e.In(0, {2, 3}).ConstInts(1, {-1}, {});
  ASSERT_TRUE(e.Infer().ok());
  EXPECT_EQ(e.Dims(), (Dims{2, 3, 1}));
  OpHarness f("Flatten");
  f.In(0, {2, 3, 4, 5}).Attr("axis", 2);
  ASSERT_TRUE(f.Infer().ok());
  EXPECT_EQ(f.Dims(), (Dims{6, 20}));
  OpHarness f0("Flatten");
  f0.In(0, {2, -1, 4}).Attr("axis", 0);
  ASSERT_TRUE(f0.Infer().ok());
  EXPECT_EQ(f0.Dims(), (Dims{1, -1}));
  OpHarness fneg("Flatten");
  fneg.In(0, {2, 3, 4}).Attr("axis", -1);
  ASSERT_TRUE(fneg.Infer().ok());
  EXPECT_EQ(fneg.Dims(), (Dims{6, 4}));
  OpHarness fbad("Flatten");
  fbad.In(0, {2, 3}).Attr("axis", 3);
  ExpectError(fbad.Infer(), {"'axis' 3 is out of range"});
}

TEST(ControlFlowOps, WhileCarriesInputsAndIfChecksTheCondition) {
  OpHarness w("While", {{"input", 2}, {"output", 2}});
  w.In(0, {}, DT_INT32).In(1, {2, 3});
  ASSERT_TRUE(w.Infer().ok());
  EXPECT_EQ(w.Dims(1), (Dims{2, 3}));
  EXPECT_EQ(w.OutType(0), DT_INT32);
  OpHarness i("If", {{"input", 1}, {"output", 1}});
  i.In(0, {2}, DT_BOOL).In(1, {3});
  ExpectError(i.Infer(), {"input cond [2] must hold a single value"});
  OpHarness c("Case", {{"input", 1}, {"output", 1}, {"branches", 3}});
  c.In(0, {}, DT_INT32).In(1, {3});
  EXPECT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.op()->GetSubgraphInstanceNames().size(), 3u);
  OpHarness p("PartitionedCall", {{"args", 1}, {"output", 1}});
  p.In(0, {3});
  EXPECT_TRUE(p.Infer().ok());
}

}  // namespace
}  // namespace ge::testing
