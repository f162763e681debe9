// Inference tests of elementwise math/comparison/logic, activations, softmax and matrix ops.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(ElementwiseOps, EveryBinaryOpBroadcasts) {
  for (const char* t : {"Add", "Sub", "Mul", "RealDiv", "Pow", "Maximum", "Minimum", "Mod",
                        "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LogicalAnd", "LogicalOr",
                        "LogicalXor", "Equal", "Less", "Greater", "LessEqual", "GreaterEqual"}) {
    SCOPED_TRACE(t);
    const bool logic = std::string(t).rfind("Logical", 0) == 0;
    const bool bitwise = std::string(t).rfind("Bitwise", 0) == 0;
    const DataType dt = logic ? DT_BOOL : bitwise ? DT_INT32 : DT_FLOAT;
    OpHarness op(t);
    op.In(0, {4, 1, 5}, dt).In(1, {3, 1}, dt);
    ASSERT_TRUE(op.Infer().ok()) << op.Infer().ToString();
    EXPECT_EQ(op.Dims(), (Dims{4, 3, 5}));
    EXPECT_TRUE(op.Verify().ok()) << op.Verify().ToString();
    const bool compare = !logic && !bitwise && std::string(t).find("Equal") != std::string::npos;
    if (compare || std::string(t) == "Less" || std::string(t) == "Greater") {
      EXPECT_EQ(op.OutType(), DT_BOOL);
    } else {
      EXPECT_EQ(op.OutType(), dt);
    }
  }
}

TEST(ElementwiseOps, BroadcastWithUnknownDimsAndRank) {
  OpHarness a("Add");
  a.In(0, {-1, 3}).In(1, {5, 1});
  ASSERT_TRUE(a.Infer().ok());
  EXPECT_EQ(a.Dims(), (Dims{5, 3}));
  OpHarness b("Mul");
  b.In(0, {-1, 3}).In(1, {1, 3});
  ASSERT_TRUE(b.Infer().ok());
  EXPECT_EQ(b.Dims(), (Dims{-1, 3}));
  OpHarness c("Sub");
  c.In(0, {-2}).In(1, {1, 3});
  ASSERT_TRUE(c.Infer().ok());
  EXPECT_TRUE(c.Out().IsUnknownDimNum());
}

TEST(ElementwiseOps, MismatchNamesNodeInputsAndShapes) {
  OpHarness a("Add");
  a.In(0, {2, 3}).In(1, {4, 3});
  ExpectError(a.Infer(), {"node 'op' (Add)", "input x2 [4,3]", "input x1 [2,3]"});
}

TEST(ElementwiseOps, VerifyRejectsMixedAndDisallowedTypes) {
  OpHarness mixed("Add");
  mixed.In(0, {2}, DT_FLOAT).In(1, {2}, DT_INT32);
  ExpectError(mixed.Verify(), {"input x2 has dtype DT_INT32 but input x1 has DT_FLOAT"});
  OpHarness str("Sqrt");
  str.In(0, {2}, DT_INT32);
  ExpectError(str.Verify(), {"input x has dtype DT_INT32", "DT_FLOAT"});
  OpHarness shift("BitShift");
  shift.In(0, {2}, DT_UINT8).In(1, {2}, DT_UINT8).Attr("direction", "UP");
  ExpectError(shift.Verify(), {"LEFT or RIGHT"});
}

TEST(ElementwiseOps, PowTakesAnExponentOfAnotherDtypeAndKeepsTheBases) {
  for (auto [base, exponent] : {std::pair{DT_FLOAT, DT_INT64}, std::pair{DT_INT32, DT_FLOAT},
                                std::pair{DT_FLOAT, DT_UINT32}, std::pair{DT_DOUBLE, DT_DOUBLE}}) {
    OpHarness op("Pow");
    op.In(0, {2, 3}, base).In(1, {3}, exponent);
    ASSERT_TRUE(op.Infer().ok()) << op.Infer().ToString();
    EXPECT_TRUE(op.Verify().ok()) << op.Verify().ToString();
    EXPECT_EQ(op.OutType(), base);
    EXPECT_EQ(op.Dims(), (Dims{2, 3}));
  }
  OpHarness text("Pow");
  text.In(0, {2}, DT_FLOAT).In(1, {2}, DT_BOOL);
  ExpectError(text.Verify(), {"input x2 has dtype DT_BOOL"});
}

TEST(ElementwiseOps, UnaryAndVariadic) {
  for (const char* t :
       {"Abs",  "Neg",   "Sign",  "Exp",   "Log", "Sqrt",  "Rsqrt", "Reciprocal", "Floor",
        "Ceil", "Round", "Sin",   "Cos",   "Tan", "Asin",  "Acos",  "Atan",       "Sinh",
        "Cosh", "Asinh", "Acosh", "Atanh", "Erf", "IsNaN", "IsInf"}) {
    SCOPED_TRACE(t);
    OpHarness op(t);
    op.In(0, {2, -1}, DT_FLOAT16);
    ASSERT_TRUE(op.Infer().ok());
    EXPECT_EQ(op.Dims(), (Dims{2, -1}));
    EXPECT_EQ(op.OutType(), std::string(t).rfind("Is", 0) == 0 ? DT_BOOL : DT_FLOAT16);
  }
  OpHarness not_op("LogicalNot");
  not_op.In(0, {3}, DT_BOOL);
  ASSERT_TRUE(not_op.Infer().ok());
  OpHarness bnot("BitwiseNot");
  bnot.In(0, {3}, DT_INT8);
  ASSERT_TRUE(bnot.Infer().ok());
  for (const char* t : {"AddN", "Mean", "Max", "Min"}) {
    SCOPED_TRACE(t);
    OpHarness op(t, {{"x", 3}});
    op.In(0, {3, 1}).In(1, {4}).In(2, {1, 1});
    ASSERT_TRUE(op.Infer().ok());
    EXPECT_EQ(op.Dims(), (Dims{3, 4}));
  }
  ExpectError(OpHarness("Max").Infer(), {"at least one input"});
}

TEST(ActivationOps, ShapePreservingActivations) {
  for (const char* t :
       {"Relu", "LeakyRelu", "Elu", "Selu", "Celu", "Gelu", "Sigmoid", "HardSigmoid", "HardSwish",
        "Tanh", "Softplus", "Softsign", "Mish", "ThresholdedRelu", "Shrink", "Swish"}) {
    SCOPED_TRACE(t);
    OpHarness op(t);
    op.In(0, {-1, 8, 3});
    ASSERT_TRUE(op.Infer().ok());
    EXPECT_EQ(op.Dims(), (Dims{-1, 8, 3}));
    EXPECT_EQ(op.OutType(), DT_FLOAT);
    EXPECT_TRUE(op.Verify().ok());
  }
  OpHarness gelu("Gelu");
  gelu.In(0, {2}).Attr("approximate", "fast");
  ExpectError(gelu.Verify(), {"none or tanh"});
}

TEST(ActivationOps, PReluSlopeBroadcastsToX) {
  OpHarness ok("PRelu");
  ok.In(0, {1, 3, 4, 4}).In(1, {3, 1, 1});
  ASSERT_TRUE(ok.Infer().ok());
  EXPECT_EQ(ok.Dims(), (Dims{1, 3, 4, 4}));
  OpHarness bad("PRelu");
  bad.In(0, {1, 3, 4, 4}).In(1, {5});
  ExpectError(bad.Infer(), {"input slope [5] does not broadcast to input x [1,3,4,4]"});
}

TEST(ActivationOps, ClipWithOptionalBounds) {
  OpHarness none("Clip");
  none.In(0, {2, 3});
  ASSERT_TRUE(none.Infer().ok());
  EXPECT_EQ(none.Dims(), (Dims{2, 3}));
  OpHarness both("Clip");
  both.In(0, {2, 3}).In(1, {}).In(2, {1});
  ASSERT_TRUE(both.Infer().ok());
  OpHarness bad("Clip");
  bad.In(0, {2, 3}).In(2, {3});
  ExpectError(bad.Infer(), {"input max [3] must be a scalar"});
}

TEST(ActivationOps, SoftmaxFamilyChecksAxis) {
  for (const char* t : {"SoftmaxV2", "LogSoftmaxV2", "Hardmax"}) {
    SCOPED_TRACE(t);
    OpHarness op(t);
    op.In(0, {2, 5}).Attr("axis", -2);
    ASSERT_TRUE(op.Infer().ok());
    EXPECT_EQ(op.Dims(), (Dims{2, 5}));
    OpHarness bad(t);
    bad.In(0, {2, 5}).Attr("axis", 2);
    ExpectError(bad.Infer(), {"attribute 'axis'", "out of range for rank 2"});
  }
}

TEST(MatrixOps, MatMulVariants) {
  OpHarness mm("MatMulV2");
  mm.In(0, {3, 2}).In(1, {4, 3}).Attr("transpose_x1", true).Attr("transpose_x2", true);
  ASSERT_TRUE(mm.Infer().ok());
  EXPECT_EQ(mm.Dims(), (Dims{2, 4}));
  OpHarness bias("MatMulV2");
  bias.In(0, {2, 3}).In(1, {3, 4}).In(2, {5});
  ExpectError(bias.Infer(), {"input bias [5] does not broadcast"});
  OpHarness bmm("BatchMatMulV2");
  bmm.In(0, {-1, 1, 2, 3}).In(1, {7, 3, -1});
  ASSERT_TRUE(bmm.Infer().ok());
  EXPECT_EQ(bmm.Dims(), (Dims{-1, 7, 2, -1}));
  OpHarness vec("BatchMatMulV2");
  vec.In(0, {3}).In(1, {2, 3, 4});
  ASSERT_TRUE(vec.Infer().ok());
  EXPECT_EQ(vec.Dims(), (Dims{2, 4}));
  OpHarness bad("BatchMatMulV2");
  bad.In(0, {2, 2, 3}).In(1, {2, 4, 5});
  ExpectError(bad.Infer(),
              {"node 'op' (BatchMatMulV2)", "input x1 [2,2,3]", "input x2 [2,4,5]", "(3 vs 4)"});
  OpHarness mi("MatMulInteger");
  mi.In(0, {2, 3}, DT_UINT8).In(1, {3, 4}, DT_INT8).In(2, {}, DT_UINT8);
  ASSERT_TRUE(mi.Infer().ok());
  EXPECT_EQ(mi.Dims(), (Dims{2, 4}));
  EXPECT_EQ(mi.OutType(), DT_INT32);
}

TEST(MatrixOps, Gemm) {
  OpHarness g("Gemm");
  g.In(0, {4, 3}).In(1, {5, 4}).In(2, {5}).Attr("transA", 1).Attr("transB", 1);
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Dims(), (Dims{3, 5}));
  OpHarness k("Gemm");
  k.In(0, {2, 3}).In(1, {4, 5});
  ExpectError(k.Infer(), {"inner dims do not match", "[2,3]", "[4,5]"});
  OpHarness c("Gemm");
  c.In(0, {2, 3}).In(1, {3, 5}).In(2, {3, 5});
  ExpectError(c.Infer(), {"input c [3,5] does not broadcast to [2,5]"});
  OpHarness r("Gemm");
  r.In(0, {2, 3, 1}).In(1, {3, 5});
  ExpectError(r.Infer(), {"must have rank 2"});
}

}  // namespace
}  // namespace ge::testing
