// Inference of ONNX's transformer operators: Attention and RotaryEmbedding.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(AttentionOp, FourDOutputsFollowTheHeadsAndTheCache) {
  OpHarness t("Attention");
  t.In(0, {2, 8, 5, 16})
      .In(1, {2, 2, 7, 16})
      .In(2, {2, 2, 7, 12})
      .In(3, {5, 10}, DT_BOOL)
      .In(4, {2, 2, 3, 16})
      .In(5, {2, 2, 3, 12});
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(0), (Dims{2, 8, 5, 12}));
  EXPECT_EQ(t.Dims(1), (Dims{2, 2, 10, 16}));
  EXPECT_EQ(t.Dims(2), (Dims{2, 2, 10, 12}));
  EXPECT_EQ(t.Dims(3), (Dims{2, 8, 5, 10}));
  EXPECT_EQ(t.OutType(0), DT_FLOAT);
  EXPECT_TRUE(t.Verify().ok()) << t.Verify().ToString();
}

TEST(AttentionOp, ThreeDInputsTakeTheHeadCountsFromAttributes) {
  OpHarness t("Attention");
  t.In(0, {2, 4, 72}, DT_FLOAT16)
      .In(1, {2, 6, 24}, DT_FLOAT16)
      .In(2, {2, 6, 30}, DT_FLOAT16)
      .Attr("q_num_heads", AttrValue(int64_t{9}))
      .Attr("kv_num_heads", AttrValue(int64_t{3}));
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(0), (Dims{2, 4, 90}));
  EXPECT_EQ(t.Dims(1), (Dims{2, 3, 6, 8}));
  EXPECT_EQ(t.Dims(2), (Dims{2, 3, 6, 10}));
  EXPECT_EQ(t.Dims(3), (Dims{2, 9, 4, 6}));
  EXPECT_EQ(t.OutType(0), DT_FLOAT16);
}

TEST(AttentionOp, UnknownDimsStayUnknown) {
  OpHarness t("Attention");
  t.In(0, {-1, 4, -1, 8})
      .In(1, {-1, 2, -1, 8})
      .In(2, {-1, 2, -1, 8})
      .In(4, {-1, 2, 3, 8})
      .In(5, {-1, 2, -1, 8});
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(0), (Dims{-1, 4, -1, 8}));
  EXPECT_EQ(t.Dims(1), (Dims{-1, 2, -1, 8}));
  EXPECT_EQ(t.Dims(3), (Dims{-1, 4, -1, -1}));
  OpHarness hidden("Attention");
  hidden.In(0, {1, -1, -1}).In(1, {1, -1, 16}).In(2, {1, -1, 16});
  hidden.Attr("q_num_heads", AttrValue(int64_t{4})).Attr("kv_num_heads", AttrValue(int64_t{2}));
  ASSERT_TRUE(hidden.Infer().ok()) << hidden.Infer().ToString();
  EXPECT_EQ(hidden.Dims(0), (Dims{1, -1, 32}));
  EXPECT_EQ(hidden.Dims(1), (Dims{1, 2, -1, 8}));
}

TEST(AttentionOp, ShapesThatDoNotFitNameTheNodeAndCause) {
  OpHarness rank("Attention");
  rank.In(0, {1, 2, 3, 4}).In(1, {1, 3, 8}).In(2, {1, 3, 8});
  ExpectError(rank.Infer(), {"node 'op' (Attention)", "must be all 3-D or all 4-D"});
  OpHarness heads("Attention");
  heads.In(0, {1, 3, 8}).In(1, {1, 3, 8}).In(2, {1, 3, 8});
  ExpectError(heads.Infer(), {"3-D input Q [1,3,8] needs a positive attribute 'q_num_heads'"});
  OpHarness hidden("Attention");
  hidden.In(0, {1, 3, 8}).In(1, {1, 3, 8}).In(2, {1, 3, 8});
  hidden.Attr("q_num_heads", AttrValue(int64_t{3})).Attr("kv_num_heads", AttrValue(int64_t{1}));
  ExpectError(hidden.Infer(), {"is not a multiple of attribute 'q_num_heads' 3"});
  OpHarness group("Attention");
  group.In(0, {1, 3, 2, 8}).In(1, {1, 2, 2, 8}).In(2, {1, 2, 2, 8});
  ExpectError(group.Infer(), {"the 3 query heads are not a multiple of the 2 key/value heads"});
  OpHarness size("Attention");
  size.In(0, {1, 2, 2, 8}).In(1, {1, 2, 2, 4}).In(2, {1, 2, 2, 8});
  ExpectError(size.Infer(), {"the head sizes of Q and K differ: 8 and 4"});
  OpHarness past("Attention");
  past.In(0, {1, 2, 2, 8}).In(1, {1, 2, 2, 8}).In(2, {1, 2, 2, 8}).In(4, {1, 2, 3, 8});
  ExpectError(past.Infer(), {"past_key and past_value must be given together"});
  OpHarness cache("Attention");
  cache.In(0, {1, 2, 2, 8})
      .In(1, {1, 2, 2, 8})
      .In(2, {1, 2, 2, 8})
      .In(4, {1, 1, 3, 8})
      .In(5, {1, 2, 3, 8});
  ExpectError(cache.Infer(), {"input past_key [1,1,3,8] does not fit input K [1,2,2,8]"});
  OpHarness mask("Attention");
  mask.In(0, {1, 2, 2, 8}).In(1, {1, 2, 3, 8}).In(2, {1, 2, 3, 8}).In(3, {2, 4});
  ExpectError(mask.Infer(), {"input attn_mask [2,4] does not broadcast to the scores [1,2,2,3]"});
  OpHarness nonpad("Attention");
  nonpad.In(0, {1, 2, 2, 8}).In(1, {1, 2, 3, 8}).In(2, {1, 2, 3, 8}).In(6, {2}, DT_INT64);
  ExpectError(nonpad.Infer(), {"input nonpad_kv_seqlen [2] must be [batch] = [1]"});
}

TEST(AttentionOp, VerifyChecksTheModeAndThePrecision) {
  OpHarness mode("Attention");
  mode.In(0, {1, 1, 1, 1}).In(1, {1, 1, 1, 1}).In(2, {1, 1, 1, 1});
  mode.Attr("qk_matmul_output_mode", AttrValue(int64_t{4}));
  ExpectError(mode.Verify(), {"'qk_matmul_output_mode' must be 0 to 3, got 4"});
  OpHarness precision("Attention");
  precision.In(0, {1, 1, 1, 1}).In(1, {1, 1, 1, 1}).In(2, {1, 1, 1, 1});
  precision.Attr("softmax_precision", AttrValue(DT_INT8));
  ExpectError(precision.Verify(), {"'softmax_precision' must name a floating-point type"});
}

TEST(RotaryEmbeddingOp, KeepsTheInputShapeAndChecksTheCaches) {
  OpHarness t("RotaryEmbedding");
  t.In(0, {2, 4, 3, 8}).In(1, {50, 4}).In(2, {50, 4}).In(3, {2, 3}, DT_INT64);
  ASSERT_TRUE(t.Infer().ok()) << t.Infer().ToString();
  EXPECT_EQ(t.Dims(), (Dims{2, 4, 3, 8}));
  OpHarness partial("RotaryEmbedding");
  partial.In(0, {2, 3, 32}).In(1, {2, 3, 2}).In(2, {2, 3, 2});
  partial.Attr("num_heads", AttrValue(int64_t{4}))
      .Attr("rotary_embedding_dim", AttrValue(int64_t{4}));
  ASSERT_TRUE(partial.Infer().ok()) << partial.Infer().ToString();
  EXPECT_EQ(partial.Dims(), (Dims{2, 3, 32}));
  OpHarness unknown("RotaryEmbedding");
  unknown.In(0, {-1, -1, 64}).In(1, {-1, 8}).In(2, {-1, 8}).In(3, {-1, -1}, DT_INT64);
  unknown.Attr("num_heads", AttrValue(int64_t{4}));
  ASSERT_TRUE(unknown.Infer().ok()) << unknown.Infer().ToString();
  EXPECT_EQ(unknown.Dims(), (Dims{-1, -1, 64}));
}

TEST(RotaryEmbeddingOp, BadShapesNameTheNodeAndCause) {
  OpHarness heads("RotaryEmbedding");
  heads.In(0, {2, 3, 32}).In(1, {50, 4}).In(2, {50, 4});
  ExpectError(heads.Infer(),
              {"node 'op' (RotaryEmbedding)", "needs a positive attribute 'num_heads'"});
  OpHarness odd("RotaryEmbedding");
  odd.In(0, {2, 4, 3, 8})
      .In(1, {50, 4})
      .In(2, {50, 4})
      .Attr("rotary_embedding_dim", AttrValue(int64_t{3}));
  ExpectError(odd.Infer(), {"the rotary dim 3 must be even and at most the head size 8"});
  OpHarness cache("RotaryEmbedding");
  cache.In(0, {2, 4, 3, 8}).In(1, {50, 3}).In(2, {50, 3}).In(3, {2, 3}, DT_INT64);
  ExpectError(cache.Infer(),
              {"input cos_cache [50,3] must be [max_position + 1, 4] with position_ids"});
  OpHarness per_token("RotaryEmbedding");
  per_token.In(0, {2, 4, 3, 8}).In(1, {50, 4}).In(2, {50, 4});
  ExpectError(per_token.Infer(), {"must be [batch, seq, 4] without position_ids"});
}

}  // namespace
}  // namespace ge::testing
