// Inference of the transformer ops fusion creates: FusedAttention and SkipLayerNorm.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(FusedAttentionOp, OutputIsQueriesByValueWidth) {
  OpHarness t("FusedAttention");
  t.In(0, {2, 4, 16, 8})
      .In(1, {2, 4, 8, 20})
      .In(2, {2, 4, 20, 6})
      .Attr("k_transposed", AttrValue(true));
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(), (Dims{2, 4, 16, 6}));
  OpHarness k("FusedAttention");
  k.In(0, {2, 4, 16, 8}).In(1, {2, 4, 20, 8}).In(2, {2, 4, 20, 6}).In(3, {2, 1, 1, 20});
  ASSERT_TRUE(k.Infer().ok()) << k.Infer().ToString();
  EXPECT_EQ(k.Dims(), (Dims{2, 4, 16, 6}));
  EXPECT_TRUE(k.Verify().ok()) << k.Verify().ToString();
}

TEST(FusedAttentionOp, BatchDimsBroadcastAndUnknownDimsPass) {
  OpHarness b("FusedAttention");
  b.In(0, {2, 3, 5, 4}).In(1, {1, 5, 4}).In(2, {5, 2});
  ASSERT_TRUE(b.Infer().ok()) << b.Infer().ToString();
  EXPECT_EQ(b.Dims(), (Dims{2, 3, 5, 2}));
  OpHarness u("FusedAttention");
  u.In(0, {-1, 4, -1, 8}).In(1, {-1, 4, -1, 8}).In(2, {-1, 4, -1, 8});
  ASSERT_TRUE(u.Infer().ok()) << u.Infer().ToString();
  EXPECT_EQ(u.Dims(), (Dims{-1, 4, -1, 8}));
}

TEST(FusedAttentionOp, MismatchesNameTheInputs) {
  OpHarness d("FusedAttention");
  d.In(0, {2, 16, 8}).In(1, {2, 8, 16}).In(2, {2, 16, 8});  // k given as K, head size 16 != 8
  ExpectError(d.Infer(),
              {"node 'op' (FusedAttention)", "head size", "input q [2,16,8]", "input k [2,8,16]"});
  OpHarness s("FusedAttention");
  s.In(0, {2, 16, 8}).In(1, {2, 16, 8}).In(2, {2, 12, 8});
  ExpectError(s.Infer(), {"key length", "input v [2,12,8]"});
  OpHarness m("FusedAttention");
  m.In(0, {2, 16, 8}).In(1, {2, 16, 8}).In(2, {2, 16, 8}).In(3, {3, 1, 16});
  ExpectError(m.Infer(), {"input mask [3,1,16]", "does not broadcast to the scores [2,16,16]"});
  OpHarness r("FusedAttention");
  r.In(0, {8}).In(1, {2, 16, 8}).In(2, {2, 16, 8});
  EXPECT_FALSE(r.Infer().ok());
}

TEST(SkipLayerNormOp, BroadcastsTheSumAndChecksParameters) {
  OpHarness t("SkipLayerNorm");
  t.In(0, {2, 16, 64}).In(1, {2, 16, 64}).In(2, {64}).In(3, {64});
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(), (Dims{2, 16, 64}));
  OpHarness broadcast("SkipLayerNorm");
  broadcast.In(0, {2, 16, 64}).In(1, {1, 16, 64}).In(2, {64});
  ASSERT_TRUE(broadcast.Infer().ok()) << broadcast.Infer().ToString();
  EXPECT_EQ(broadcast.Dims(), (Dims{2, 16, 64}));
  OpHarness skip("SkipLayerNorm");
  skip.In(0, {2, 16, 64}).In(1, {3, 16, 64}).In(2, {64});
  ExpectError(skip.Infer(), {"node 'op' (SkipLayerNorm)",
                             "input x [2,16,64] and input skip [3,16,64] do not broadcast"});
  OpHarness scale("SkipLayerNorm");
  scale.In(0, {2, 16, 64}).In(1, {2, 16, 64}).In(2, {32});
  ExpectError(scale.Infer(), {"input scale [32] does not broadcast to the normalized shape [64]"});
  OpHarness axis("SkipLayerNorm");
  axis.In(0, {2, 16, 64}).In(1, {2, 16, 64}).In(2, {64}).Attr("axis", AttrValue(int64_t{3}));
  ExpectError(axis.Infer(), {"attribute 'axis'"});
}

}  // namespace
}  // namespace ge::testing
