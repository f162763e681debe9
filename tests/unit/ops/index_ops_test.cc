// Inference tests of gather/scatter, OneHot, TopK, NonZero, Cast, Where, Range, Cumsum, Trilu,
// Einsum, Resize, ConstantOfShape, quantization and recurrent ops.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

using L = std::vector<int64_t>;

TEST(IndexOps, Gathers) {
  OpHarness g("GatherV2");
  g.In(0, {5, 4, 3}).In(1, {2, 7}, DT_INT64).Attr("axis", -2);
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Dims(), (Dims{5, 2, 7, 3}));
  OpHarness gb("GatherV2");
  gb.In(0, {5, 4}).In(1, {2}, DT_INT64).Attr("axis", 2);
  ExpectError(gb.Infer(), {"attribute 'axis'", "out of range for rank 2"});
  OpHarness ge("GatherElements");
  ge.In(0, {3, 3}).In(1, {2, 3}, DT_INT64).Attr("axis", 1);
  ASSERT_TRUE(ge.Infer().ok());
  EXPECT_EQ(ge.Dims(), (Dims{2, 3}));
  OpHarness geb("GatherElements");
  geb.In(0, {3, 3}).In(1, {2}, DT_INT64);
  ExpectError(geb.Infer(), {"must have the rank of input x [3,3]"});
  OpHarness nd("GatherNd");
  nd.In(0, {2, 3, 4, 5}).In(1, {2, 6, 2}, DT_INT64).Attr("batch_dims", 1);
  ASSERT_TRUE(nd.Infer().ok());
  EXPECT_EQ(nd.Dims(), (Dims{2, 6, 5}));
  OpHarness ndb("GatherNd");
  ndb.In(0, {2, 3}).In(1, {4, 3}, DT_INT64);
  ExpectError(ndb.Infer(), {"index depth 3", "does not fit"});
}

TEST(IndexOps, Scatters) {
  OpHarness s("ScatterNd");
  s.In(0, {4, 5, 6}).In(1, {2, 1}, DT_INT64).In(2, {2, 5, 6});
  ASSERT_TRUE(s.Infer().ok());
  EXPECT_EQ(s.Dims(), (Dims{4, 5, 6}));
  OpHarness sb("ScatterNd");
  sb.In(0, {4, 5, 6}).In(1, {2, 1}, DT_INT64).In(2, {2, 6});
  ExpectError(sb.Infer(), {"input updates [2,6] does not match"});
  OpHarness e("ScatterElements");
  e.In(0, {3, 3}).In(1, {1, 2}, DT_INT64).In(2, {1, 2}).Attr("axis", -1);
  ASSERT_TRUE(e.Infer().ok());
  EXPECT_EQ(e.Dims(), (Dims{3, 3}));
  OpHarness eb("ScatterElements");
  eb.In(0, {3, 3}).In(1, {1, 2}, DT_INT64).In(2, {2, 2});
  ExpectError(eb.Infer(), {"must have the same shape"});
}

TEST(IndexOps, OneHotTopKNonZero) {
  OpHarness o("OneHot");
  o.In(0, {2, 3}, DT_INT64).ConstInts(1, {10}, {}).In(2, {2}, DT_FLOAT16).Attr("axis", 1);
  ASSERT_TRUE(o.Infer().ok());
  EXPECT_EQ(o.Dims(), (Dims{2, 10, 3}));
  EXPECT_EQ(o.OutType(), DT_FLOAT16);
  OpHarness od("OneHot");
  od.In(0, {4}, DT_INT64).In(1, {}, DT_INT64).In(2, {2});
  ASSERT_TRUE(od.Infer().ok());
  EXPECT_EQ(od.Dims(), (Dims{4, -1}));
  OpHarness t("TopKV2");
  t.In(0, {3, 10}).ConstInts(1, {4});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(t.Dims(0), (Dims{3, 4}));
  EXPECT_EQ(t.Dims(1), (Dims{3, 4}));
  EXPECT_EQ(t.OutType(1), DT_INT64);
  OpHarness tk("TopKV2");
  tk.In(0, {3, 10}).In(1, {1}, DT_INT64).Attr("axis", 0);
  ASSERT_TRUE(tk.Infer().ok());
  EXPECT_EQ(tk.Dims(), (Dims{-1, 10}));
  OpHarness tb("TopKV2");
  tb.In(0, {3, 10}).ConstInts(1, {11});
  ExpectError(tb.Infer(), {"k 11 exceeds dim 1 of input x [3,10]"});
  OpHarness nz("NonZero");
  nz.In(0, {3, 4}, DT_BOOL);
  ASSERT_TRUE(nz.Infer().ok());
  EXPECT_EQ(nz.Dims(), (Dims{2, -1}));
  EXPECT_EQ(nz.OutType(), DT_INT64);
}

TEST(DataMovementOps, CastWhereRangeCumsumTrilu) {
  OpHarness c("Cast");
  c.In(0, {2, 3}).Attr("to", DT_INT8);
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.OutType(), DT_INT8);
  EXPECT_EQ(c.Dims(), (Dims{2, 3}));
  ExpectError(OpHarness("Cast").In(0, {2}).Verify(), {"required attribute 'to'"});
  OpHarness cl("CastLike");
  cl.In(0, {2}).In(1, {}, DT_INT32);
  ASSERT_TRUE(cl.Infer().ok());
  EXPECT_EQ(cl.OutType(), DT_INT32);
  OpHarness w("SelectV2");
  w.In(0, {2, 1}, DT_BOOL).In(1, {3}, DT_INT32).In(2, {1, 1}, DT_INT32);
  ASSERT_TRUE(w.Infer().ok());
  EXPECT_EQ(w.Dims(), (Dims{2, 3}));
  EXPECT_EQ(w.OutType(), DT_INT32);
  OpHarness wb("SelectV2");
  wb.In(0, {2}, DT_BOOL).In(1, {3}).In(2, {3});
  ExpectError(wb.Infer(), {"input x1 [3] does not broadcast with input condition [2]"});
  OpHarness r("Range");
  r.ConstFloats(0, {1}, {}).ConstFloats(1, {10}, {}).ConstFloats(2, {3}, {});
  ASSERT_TRUE(r.Infer().ok());
  EXPECT_EQ(r.Dims(), (Dims{3}));
  OpHarness rd("Range");
  rd.In(0, {}).In(1, {}).In(2, {});
  ASSERT_TRUE(rd.Infer().ok());
  EXPECT_EQ(rd.Dims(), (Dims{-1}));
  OpHarness rz("Range");
  rz.ConstFloats(0, {1}, {}).ConstFloats(1, {10}, {}).ConstFloats(2, {0}, {});
  ExpectError(rz.Infer(), {"delta must not be 0"});
  for (float limit : {std::nanf(""), std::numeric_limits<float>::infinity(), 1e30F}) {
    OpHarness rn("Range");  // no length: NaN, infinite, or past 2^62 elements
    rn.ConstFloats(0, {0}, {}).ConstFloats(1, {limit}, {}).ConstFloats(2, {1e-10F}, {});
    ExpectError(rn.Infer(), {"do not give a finite length"});
  }
  OpHarness cs("Cumsum");
  cs.In(0, {2, 3}).ConstInts(1, {-1}, {});
  ASSERT_TRUE(cs.Infer().ok());
  OpHarness csb("Cumsum");
  csb.In(0, {2, 3}).ConstInts(1, {2}, {});
  ExpectError(csb.Infer(), {"input axis", "out of range"});
  OpHarness tr("Trilu");
  tr.In(0, {4, 4});
  ASSERT_TRUE(tr.Infer().ok());
  ExpectError(OpHarness("Trilu").In(0, {4}).Infer(), {"rank >= 2"});
}

TEST(DataMovementOps, Einsum) {
  OpHarness mm("Einsum", {{"x", 2}});
  mm.In(0, {2, 3}).In(1, {3, 5}).Attr("equation", "ij,jk->ik");
  ASSERT_TRUE(mm.Infer().ok());
  EXPECT_EQ(mm.Dims(), (Dims{2, 5}));
  OpHarness batch("Einsum", {{"x", 2}});
  batch.In(0, {7, 2, 3}).In(1, {1, 3, 5}).Attr("equation", "...ij,...jk");
  ASSERT_TRUE(batch.Infer().ok());
  EXPECT_EQ(batch.Dims(), (Dims{7, 2, 5}));
  OpHarness trace("Einsum", {{"x", 1}});
  trace.In(0, {4, 4}).Attr("equation", "ii->");
  ASSERT_TRUE(trace.Infer().ok());
  EXPECT_EQ(trace.Dims(), (Dims{}));
  OpHarness bad("Einsum", {{"x", 2}});
  bad.In(0, {2, 3}).In(1, {4, 5}).Attr("equation", "ij,jk->ik");
  ExpectError(bad.Infer(), {"label 'j' is 3 in one operand and 4"});
  OpHarness count("Einsum", {{"x", 1}});
  count.In(0, {2, 3}).Attr("equation", "ij,jk->ik");
  ExpectError(count.Infer(), {"has 2 operands but the node has 1 inputs"});
}

TEST(DataMovementOps, ResizeFromSizesOrScales) {
  OpHarness sz("Resize");
  sz.In(0, {1, 3, 10, 10}).ConstInts(3, {1, 3, 20, 15});
  ASSERT_TRUE(sz.Infer().ok());
  EXPECT_EQ(sz.Dims(), (Dims{1, 3, 20, 15}));
  OpHarness sc("Resize");
  sc.In(0, {1, 3, 10, -1}).ConstFloats(2, {1, 1, 1.5F, 2}, {4});
  ASSERT_TRUE(sc.Infer().ok());
  EXPECT_EQ(sc.Dims(), (Dims{1, 3, 15, -1}));
  OpHarness ax("Resize");
  ax.In(0, {1, 3, 10, 20})
      .ConstInts(3, {5, 5})
      .Attr("axes", L{2, 3})
      .Attr("keep_aspect_ratio_policy", "not_larger");
  ASSERT_TRUE(ax.Infer().ok());
  EXPECT_EQ(ax.Dims(), (Dims{1, 3, 3, 5}));
  OpHarness dyn("Resize");
  dyn.In(0, {1, 3, 10, 10}).In(3, {4}, DT_INT64);
  ASSERT_TRUE(dyn.Infer().ok());
  EXPECT_EQ(dyn.Dims(), (Dims{-1, -1, -1, -1}));
  ExpectError(OpHarness("Resize").In(0, {1, 3}).Infer(), {"needs scales or sizes"});
  // Scales a file may hold that no dim comes from: NaN, infinity, a product past int64.
  for (float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -1.0F}) {
    OpHarness s("Resize");
    s.In(0, {1, 3, 10, 10}).ConstFloats(2, {1, 1, bad, 1}, {4});
    ExpectError(s.Infer(), {"scales must be positive and finite"});
  }
  OpHarness huge("Resize");
  huge.In(0, {1, 3, 10, 10}).ConstFloats(2, {1, 1, 1e30F, 1}, {4});
  ExpectError(huge.Infer(), {"beyond any tensor"});
  OpHarness negative("Resize");
  negative.In(0, {1, 3, 10, 10}).ConstInts(3, {1, 3, -20, 15});
  ExpectError(negative.Infer(), {"sizes must not be negative"});
}

TEST(DataMovementOps, ConstantOfShape) {
  OpHarness c("ConstantOfShape");
  c.ConstInts(0, {2, 3}).Attr("value", MakeTensor<int32_t>({7}, DT_INT32, {1}));
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_EQ(c.Dims(), (Dims{2, 3}));
  EXPECT_EQ(c.OutType(), DT_INT32);
  OpHarness d("ConstantOfShape");
  d.In(0, {3}, DT_INT64);
  ASSERT_TRUE(d.Infer().ok());
  EXPECT_EQ(d.Dims(), (Dims{-1, -1, -1}));
  EXPECT_EQ(d.OutType(), DT_FLOAT);
}

TEST(QuantOps, QuantizeDequantize) {
  OpHarness q("QuantizeLinear");
  q.In(0, {2, 3, 4}).In(1, {3}).In(2, {3}, DT_INT8);
  ASSERT_TRUE(q.Infer().ok());
  EXPECT_EQ(q.Dims(), (Dims{2, 3, 4}));
  EXPECT_EQ(q.OutType(), DT_INT8);
  OpHarness qd("QuantizeLinear");
  qd.In(0, {2}).In(1, {});
  ASSERT_TRUE(qd.Infer().ok());
  EXPECT_EQ(qd.OutType(), DT_UINT8);
  OpHarness qb("QuantizeLinear");
  qb.In(0, {2, 3, 4}).In(1, {4});
  ExpectError(qb.Infer(), {"input y_scale [4] does not match dim 1 of input x [2,3,4]"});
  OpHarness dq("DequantizeLinear");
  dq.In(0, {2, 3}, DT_UINT8).In(1, {}, DT_FLOAT16);
  ASSERT_TRUE(dq.Infer().ok());
  EXPECT_EQ(dq.OutType(), DT_FLOAT16);
  OpHarness dyn("DynamicQuantizeLinear");
  dyn.In(0, {5});
  ASSERT_TRUE(dyn.Infer().ok());
  EXPECT_EQ(dyn.Dims(1), (Dims{}));
  EXPECT_EQ(dyn.OutType(2), DT_UINT8);
  OpHarness qm("QLinearMatMul");
  qm.In(0, {2, 3}, DT_UINT8)
      .In(1, {})
      .In(2, {}, DT_UINT8)
      .In(3, {3, 4}, DT_INT8)
      .In(4, {})
      .In(5, {}, DT_INT8)
      .In(6, {})
      .In(7, {}, DT_INT8);
  ASSERT_TRUE(qm.Infer().ok());
  EXPECT_EQ(qm.Dims(), (Dims{2, 4}));
  EXPECT_EQ(qm.OutType(), DT_INT8);
}

TEST(RnnOps, LstmGruRnnShapes) {
  OpHarness lstm("LSTM");
  lstm.In(0, {7, 2, 10})
      .In(1, {2, 80, 10})
      .In(2, {2, 80, 20})
      .In(3, {2, 160})
      .Attr("direction", "bidirectional")
      .Attr("hidden_size", 20);
  ASSERT_TRUE(lstm.Infer().ok()) << lstm.Infer().ToString();
  EXPECT_EQ(lstm.Dims(0), (Dims{7, 2, 2, 20}));
  EXPECT_EQ(lstm.Dims(1), (Dims{2, 2, 20}));
  EXPECT_EQ(lstm.Dims(2), (Dims{2, 2, 20}));
  OpHarness gru("GRU");
  gru.In(0, {2, -1, 10}).In(1, {1, 60, 10}).In(2, {1, 60, 20}).Attr("layout", 1);
  ASSERT_TRUE(gru.Infer().ok());
  EXPECT_EQ(gru.Dims(0), (Dims{2, -1, 1, 20}));
  EXPECT_EQ(gru.Dims(1), (Dims{2, 1, 20}));
  OpHarness rnn("RNN");
  rnn.In(0, {5, 3, 4}).In(1, {1, 8, 5}).In(2, {1, 8, 8});
  ExpectError(rnn.Infer(), {"input w [1,8,5] must be [1,8,4]"});
  OpHarness dir("RNN");
  dir.In(0, {5, 3, 4}).In(1, {1, 8, 4}).In(2, {1, 8, 8}).Attr("direction", "sideways");
  ExpectError(dir.Infer(), {"forward, reverse or bidirectional"});
}

}  // namespace
}  // namespace ge::testing
