// Inference tests of the loss operators (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss)
// and of the ONNX-only EyeLike and Compress.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(LossOps, ReductionNoneKeepsTheTargetShapeOtherwiseScalar) {
  OpHarness none("NegativeLogLikelihoodLoss");
  none.In(0, {3, 5, 6, 2}).In(1, {3, 6, 2}, DT_INT64).Attr("reduction", "none");
  ASSERT_TRUE(none.Infer().ok()) << none.Infer().ToString();
  EXPECT_EQ(none.Dims(), (Dims{3, 6, 2}));
  EXPECT_EQ(none.OutType(), DT_FLOAT);
  OpHarness mean("NegativeLogLikelihoodLoss");  // default reduction: mean
  mean.In(0, {3, 5}, DT_DOUBLE).In(1, {3}, DT_INT32).In(2, {5}, DT_DOUBLE);
  ASSERT_TRUE(mean.Infer().ok()) << mean.Infer().ToString();
  EXPECT_EQ(mean.Dims(), (Dims{}));
  EXPECT_EQ(mean.OutType(), DT_DOUBLE);
}

TEST(LossOps, SoftmaxCrossEntropyLogProbHasTheScoresShape) {
  OpHarness sce("SoftmaxCrossEntropyLoss");
  sce.In(0, {2, 4, 3}).In(1, {2, 3}, DT_INT64).Attr("reduction", "sum").Attr("ignore_index", 7);
  ASSERT_TRUE(sce.Infer().ok()) << sce.Infer().ToString();
  EXPECT_EQ(sce.Dims(0), (Dims{}));
  EXPECT_EQ(sce.Dims(1), (Dims{2, 4, 3}));
  EXPECT_EQ(sce.OutType(1), DT_FLOAT);
  OpHarness unknown("SoftmaxCrossEntropyLoss");
  unknown.In(0, {-1, 4, -1}).In(1, {-2}, DT_INT64).Attr("reduction", "none");
  ASSERT_TRUE(unknown.Infer().ok()) << unknown.Infer().ToString();
  EXPECT_EQ(unknown.Dims(0), (Dims{-1, -1}));
}

TEST(LossOps, Errors) {
  OpHarness red("NegativeLogLikelihoodLoss");
  red.In(0, {3, 5}).In(1, {3}, DT_INT64).Attr("reduction", "max");
  ExpectError(red.Infer(),
              {"node 'op' (NegativeLogLikelihoodLoss)", "'reduction' must be none, sum or mean"});
  OpHarness target("NegativeLogLikelihoodLoss");
  target.In(0, {3, 5, 4}).In(1, {3, 5}, DT_INT64);
  ExpectError(target.Infer(), {"input target [3,5]", "without its class dim 1"});
  OpHarness weight("SoftmaxCrossEntropyLoss");
  weight.In(0, {3, 5}).In(1, {3}, DT_INT64).In(2, {4});
  ExpectError(weight.Infer(), {"input weights [4] must be [C]"});
  OpHarness rank("SoftmaxCrossEntropyLoss");
  rank.In(0, {5}).In(1, {}, DT_INT64);
  ExpectError(rank.Infer(), {"must have rank >= 2"});
}

TEST(EyeLikeOps, DtypeFromAttributeElseInput) {
  OpHarness same("EyeLike");
  same.In(0, {3, 4}, DT_INT32);
  ASSERT_TRUE(same.Infer().ok()) << same.Infer().ToString();
  EXPECT_EQ(same.Dims(), (Dims{3, 4}));
  EXPECT_EQ(same.OutType(), DT_INT32);
  OpHarness typed("EyeLike");
  typed.In(0, {3, 4}, DT_INT32).Attr("dtype", AttrValue(DT_DOUBLE)).Attr("k", 1);
  ASSERT_TRUE(typed.Infer().ok()) << typed.Infer().ToString();
  EXPECT_EQ(typed.OutType(), DT_DOUBLE);
  OpHarness rank("EyeLike");
  rank.In(0, {2, 2, 2});
  ExpectError(rank.Infer(), {"node 'op' (EyeLike)", "must have rank 2"});
}

TEST(CompressOps, ConstConditionGivesTheCountElseUnknown) {
  OpHarness c("Compress");
  c.In(0, {3, 2}).Const(1, MakeTensor<uint8_t>({0, 1, 1}, DT_BOOL, {3})).Attr("axis", 0);
  ASSERT_TRUE(c.Infer().ok()) << c.Infer().ToString();
  EXPECT_EQ(c.Dims(), (Dims{2, 2}));
  OpHarness dyn("Compress");
  dyn.In(0, {3, 2, 4}).In(1, {2}, DT_BOOL).Attr("axis", -2);
  ASSERT_TRUE(dyn.Infer().ok()) << dyn.Infer().ToString();
  EXPECT_EQ(dyn.Dims(), (Dims{3, -1, 4}));
  OpHarness flat("Compress");  // no axis: the flattened input
  flat.In(0, {3, 2}).Const(1, MakeTensor<uint8_t>({1, 0, 1, 1}, DT_BOOL, {4}));
  ASSERT_TRUE(flat.Infer().ok()) << flat.Infer().ToString();
  EXPECT_EQ(flat.Dims(), (Dims{3}));
}

TEST(CompressOps, Errors) {
  OpHarness longer("Compress");
  longer.In(0, {3, 2}).In(1, {4}, DT_BOOL).Attr("axis", 0);
  ExpectError(longer.Infer(), {"node 'op' (Compress)", "input condition [4] is longer than dim 0"});
  OpHarness axis("Compress");
  axis.In(0, {3, 2}).In(1, {2}, DT_BOOL).Attr("axis", 2);
  ExpectError(axis.Infer(), {"attribute 'axis'"});
  OpHarness cond("Compress");
  cond.In(0, {3, 2}).In(1, {2, 1}, DT_BOOL).Attr("axis", 0);
  ExpectError(cond.Infer(), {"must have rank 1"});
}

}  // namespace
}  // namespace ge::testing
