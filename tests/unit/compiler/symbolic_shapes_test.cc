// SymbolicShapes: dims known only at run time as expressions over the input dims' names, the fit
// at sample points behind them, and the shape arithmetic folded without values; with the
// fusion patterns that compare such dims.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "compiler_test_util.h"
#include "ge/compiler/passes.h"
#include "ge/compiler/symbolic_fit.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/utils/attr_utils.h"

namespace ge {
namespace {

using testing::ConstInput;
using testing::CountType;
using testing::ProtoGraph;
using testing::RunPass;
using testing::TensorValues;

SymExpr E(const std::string& text) {
  auto e = SymExpr::Parse(text);
  EXPECT_TRUE(e.ok()) << e.status().message();
  return e.ok() ? *e : SymExpr();
}

// ---------------- the fit ----------------

// The values of `expr` at every point of `points`.
std::vector<std::optional<int64_t>> ValuesOf(const symbolic::SamplePoints& points,
                                             const std::function<int64_t(int64_t, int64_t)>& f) {
  std::vector<std::optional<int64_t>> values;
  for (size_t i = 0; i < points.size(); ++i)
    values.emplace_back(f(points[i].at("batch"), points[i].at("seq")));
  return values;
}

TEST(SymbolicFit, FindsMultilinearPolynomialsWithIntegerCoefficients) {
  const symbolic::SamplePoints points({"batch", "seq"});
  EXPECT_EQ(points.size(), 6u);  // a grid of 4 and 2 checks
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t, int64_t s) { return s; })), E("seq"));
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t b, int64_t s) { return b * s * 12; })),
            E("batch*seq*12"));
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t, int64_t s) { return s + 1; })), E("seq+1"));
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t b, int64_t s) { return 3 * b - s; })),
            E("3*batch-seq"));
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t, int64_t) { return 768; })),
            SymExpr::Constant(768));
}

TEST(SymbolicFit, WhatIsNoPolynomialOfThatKindFitsNothing) {
  const symbolic::SamplePoints points({"batch", "seq"});
  // A square, a clamp between the grid and the checks, a rounding division, a half coefficient.
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t, int64_t s) { return s * s; })), std::nullopt);
  EXPECT_EQ(
      points.Fit(ValuesOf(points, [](int64_t, int64_t s) { return std::min<int64_t>(s, 32); })),
      std::nullopt);
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t, int64_t s) { return s / 2; })), std::nullopt);
  EXPECT_EQ(points.Fit(ValuesOf(points, [](int64_t b, int64_t s) { return (b + s) * 3 / 2; })),
            std::nullopt);
}

TEST(SymbolicFit, ACheckPointMayBeMissingButNotAllOfThemNorAGridPoint) {
  const symbolic::SamplePoints points({"batch", "seq"});
  auto values = ValuesOf(points, [](int64_t b, int64_t s) { return b * s; });
  values[4] = std::nullopt;
  EXPECT_EQ(points.Fit(values), E("batch*seq"));
  values[5] = std::nullopt;
  EXPECT_EQ(points.Fit(values), std::nullopt);
  values = ValuesOf(points, [](int64_t b, int64_t s) { return b * s; });
  values[1] = std::nullopt;
  EXPECT_EQ(points.Fit(values), std::nullopt);
  // A check that disagrees is a mismatch, not a missing value.
  values = ValuesOf(points, [](int64_t b, int64_t s) { return b * s; });
  values[5] = *values[5] + 1;
  EXPECT_EQ(points.Fit(values), std::nullopt);
}

TEST(SymbolicFit, EverySymbolHasItsOwnValuesAtEveryPoint) {
  const symbolic::SamplePoints points({"a", "b", "c", "d"});
  EXPECT_EQ(points.size(), 18u);
  for (size_t i = 0; i < points.size(); ++i) {
    std::set<int64_t> distinct;
    for (const auto& [name, value] : points[i]) {
      distinct.insert(value);
      EXPECT_GT(value, 1);
      EXPECT_LT(value, 64) << "models whose positions stop at 64 must take every point";
    }
    EXPECT_EQ(distinct.size(), 4u) << "point " << i;
  }
}

// ---------------- the pass ----------------

class SymbolicShapesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static void Name(const NodePtr& data, std::vector<std::string> names) {
    ASSERT_TRUE(
        AttrUtils::SetListStr(*data->GetOpDesc()->MutableOutputDesc(0), kAttrSymbolicDims, names));
  }
  static std::string Shape(const NodePtr& node, int index = 0) {
    return SymbolicShapeString(node->GetOpDesc()->GetOutputDesc(static_cast<uint32_t>(index)));
  }
  // InferShape, then the pass (`fold`), then DCE; the pass's report.
  static PassReport Run(ComputeGraph& graph, bool fold = true,
                        const std::map<std::string, std::string>& options = {}) {
    RunPass(*CreateInferShapePass(), graph, options);
    PassReport report = RunPass(*CreateSymbolicShapePass(fold), graph, options);
    RunPass(*CreateDeadCodeEliminationPass(), graph, options);
    RunPass(*CreateInferShapePass(), graph, options);
    return report;
  }
};

// ids [batch, seq] -> embedding [batch, seq, 8] -> split into 2 heads of 4 by a Reshape whose
// target is computed from the shape, as exporters write it -> Transpose -> flattened to
// [batch*seq, 8] by a second computed Reshape.
struct Encoder {
  ProtoGraph b;
  NodePtr ids, embed, heads, transposed, flat, width;
};

Encoder MakeEncoder() {
  Encoder e;
  ProtoGraph& b = e.b;
  e.ids = b.Data("ids", {-1, -1}, DT_INT64);
  std::vector<float> table(800);  // 100 rows of 8
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i % 13) * 0.25F;
  NodePtr weights = b.Const<float>("table", DT_FLOAT, {100, 8}, table);
  e.embed = b.Op("GatherV2", "embed", {{weights, 0}, {e.ids, 0}});
  NodePtr shape = b.Op("Shape", "shape", {{e.embed, 0}});
  auto pick = [&](const std::string& name, int64_t at) {
    NodePtr index = b.Const<int64_t>(name + "_at", DT_INT64, {}, {at});
    NodePtr one = b.Op("GatherV2", name, {{shape, 0}, {index, 0}});
    NodePtr axes = b.Const<int64_t>(name + "_axes", DT_INT64, {1}, {0});
    return b.Op("Unsqueeze", name + "_1d", {{one, 0}, {axes, 0}});
  };
  NodePtr batch = pick("batch", 0);
  NodePtr seq = pick("seq", 1);
  e.width = pick("width", 2);  // 8 whatever the input: folds to a Const
  NodePtr split = b.Const<int64_t>("split", DT_INT64, {2}, {2, 4});
  NodePtr target = b.Op("ConcatV2", "target", {{batch, 0}, {seq, 0}, {split, 0}},
                        {{"axis", int64_t{0}}, {"N", int64_t{3}}}, {{"x", 3}});
  e.heads = b.Op("Reshape", "heads", {{e.embed, 0}, {target, 0}});
  e.transposed =
      b.Op("Transpose", "transpose", {{e.heads, 0}}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  NodePtr tokens = b.Op("Mul", "tokens", {{batch, 0}, {seq, 0}});
  NodePtr flat_target = b.Op("ConcatV2", "flat_target", {{tokens, 0}, {e.width, 0}},
                             {{"axis", int64_t{0}}, {"N", int64_t{2}}}, {{"x", 2}});
  e.flat = b.Op("Reshape", "flat", {{e.embed, 0}, {flat_target, 0}});
  b.Output({{e.transposed, 0}, {e.flat, 0}});
  return e;
}

TEST_F(SymbolicShapesTest, DimsBecomeExpressionsOverTheInputsNames) {
  Encoder e = MakeEncoder();
  Name(e.ids, {"batch", "seq"});
  PassReport report = Run(*e.b.graph(), /*fold=*/false);
  EXPECT_EQ(Shape(e.embed), "[batch,seq,8]");
  EXPECT_EQ(Shape(e.heads), "[batch,seq,2,4]");
  EXPECT_EQ(Shape(e.transposed), "[batch,2,seq,4]");
  EXPECT_EQ(Shape(e.flat), "[batch*seq,8]");
  EXPECT_GE(report.counters["dims given an expression"], 9);
  // The output node's inputs carry them too (what a session reads of the outputs).
  const NodePtr output = e.b.graph()->FindNode("output");
  EXPECT_EQ(SymbolicShapeString(output->GetOpDesc()->GetInputDesc(1)), "[batch*seq,8]");
  // Without folding nothing else changed: the shape arithmetic is all there.
  EXPECT_EQ(CountType(*e.b.graph(), "Shape"), 1u);
  EXPECT_EQ(ConstInput(e.heads, 1), nullptr);
}

TEST_F(SymbolicShapesTest, UnnamedDimsAreSymbolsNamedAfterTheirInput) {
  Encoder e = MakeEncoder();
  Run(*e.b.graph(), /*fold=*/false);
  EXPECT_EQ(Shape(e.flat), "[ids_d0*ids_d1,8]");
}

TEST_F(SymbolicShapesTest, ShapeArithmeticThatNeedsNoValuesFolds) {
  Encoder e = MakeEncoder();
  Name(e.ids, {"batch", "seq"});
  PassReport report = Run(*e.b.graph());
  // Both Reshapes got constant targets, so the shape arithmetic is gone.
  NodePtr heads_target = ConstInput(e.heads, 1);
  NodePtr flat_target = ConstInput(e.flat, 1);
  ASSERT_NE(heads_target, nullptr);
  ASSERT_NE(flat_target, nullptr);
  EXPECT_EQ(TensorValues<int64_t>(*OpDescUtils::GetConstValue(*heads_target)),
            (std::vector<int64_t>{0, 0, 2, 4}));
  EXPECT_EQ(TensorValues<int64_t>(*OpDescUtils::GetConstValue(*flat_target)),
            (std::vector<int64_t>{-1, 8}));
  EXPECT_EQ(report.counters["Reshape targets made constant"], 2);
  EXPECT_GE(report.counters["folded GatherV2 without values"], 1);  // the width, 8
  for (const char* type : {"Shape", "GatherV2", "Unsqueeze", "ConcatV2", "Mul"}) {
    EXPECT_EQ(CountType(*e.b.graph(), type), type == std::string("GatherV2") ? 1u : 0u) << type;
  }
  // Inference alone now knows the dims the targets fix, and the expressions stay.
  EXPECT_EQ(e.heads->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{-1, -1, 2, 4}));
  EXPECT_EQ(Shape(e.heads), "[batch,seq,2,4]");
  EXPECT_EQ(Shape(e.flat), "[batch*seq,8]");
}

TEST_F(SymbolicShapesTest, FoldingIsOffWithConstantFolding) {
  Encoder e = MakeEncoder();
  Name(e.ids, {"batch", "seq"});
  PassReport report = Run(*e.b.graph(), true, {{"ge.oo.constantFolding", "0"}});
  EXPECT_EQ(report.counters.count("Reshape targets made constant"), 0u);
  EXPECT_EQ(CountType(*e.b.graph(), "Shape"), 1u);
  EXPECT_EQ(Shape(e.flat), "[batch*seq,8]");
}

TEST_F(SymbolicShapesTest, AStaticGraphIsLeftAlone) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {2, 8});
  NodePtr relu = b.Op("Relu", "relu", {{x, 0}});
  b.Output({{relu, 0}});
  PassReport report = Run(*b.graph());
  EXPECT_EQ(report.rewrites, 0);
  EXPECT_TRUE(report.counters.empty());
  EXPECT_TRUE(report.notes.empty());
}

TEST_F(SymbolicShapesTest, MoreSymbolsThanItSamplesIsANoteNotAnError) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {-1, -1, -1});
  NodePtr y = b.Data("y", {-1, -1});
  NodePtr add = b.Op("Add", "add", {{x, 0}, {y, 0}});
  b.Output({{add, 0}});
  PassReport report = Run(*b.graph());
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("5 symbols"), std::string::npos) << report.notes[0];
  std::vector<std::string> names;
  EXPECT_FALSE(AttrUtils::GetListStr(add->GetOpDesc()->GetOutputDesc(0), kAttrSymbolicDims, names));
}

// seq*seq, a clamp at 16 and an ONNX Reshape that keeps zeros: no expression, no constant target.
TEST_F(SymbolicShapesTest, WhatNoExpressionDescribesIsLeftUnknown) {
  ProtoGraph b;
  NodePtr x = b.Data("x", {-1, -1});
  Name(x, {"seq", "seq"});
  NodePtr square =
      b.Op("Reshape", "square", {{x, 0}, {b.Const<int64_t>("minus1", DT_INT64, {1}, {-1}), 0}});
  NodePtr clamped = b.Op("Slice", "clamp",
                         {{x, 0},
                          {b.Const<int64_t>("s", DT_INT64, {1}, {0}), 0},
                          {b.Const<int64_t>("e", DT_INT64, {1}, {16}), 0},
                          {b.Const<int64_t>("a", DT_INT64, {1}, {1}), 0}});
  NodePtr shape = b.Op("Shape", "shape", {{x, 0}});
  NodePtr keep_zeros =
      b.Op("Reshape", "keep_zeros", {{x, 0}, {shape, 0}}, {{"allowzero", int64_t{1}}});
  b.Output({{square, 0}, {clamped, 0}, {keep_zeros, 0}});
  Run(*b.graph());
  EXPECT_EQ(Shape(square), "[-1]");
  EXPECT_EQ(Shape(clamped), "[seq,-1]");
  EXPECT_EQ(Shape(keep_zeros), "[seq,seq]");
  EXPECT_EQ(ConstInput(keep_zeros, 1), nullptr);
  EXPECT_EQ(CountType(*b.graph(), "Shape"), 1u);
}

// A residual Add after a matrix product fuses on a graph with run-time dims when the
// expressions prove it adds two tensors of one shape, and not when the addend widens the product.
TEST_F(SymbolicShapesTest, FusionTakesTheAddWhoseShapesAreProvablyEqual) {
  auto build = [](ProtoGraph& b, bool widen) {
    NodePtr x = b.Data("x", {-1, widen ? 1 : -1, 8});
    Name(x, {"batch", widen ? "" : "seq", ""});
    NodePtr r = b.Data("r", {-1, -1, 8});
    Name(r, {"batch", "seq", ""});
    std::vector<float> w(64, 0.5F);
    NodePtr weight = b.Const<float>("w", DT_FLOAT, {8, 8}, w);
    NodePtr mm = b.Op("BatchMatMulV2", "mm", {{x, 0}, {weight, 0}});
    NodePtr add = b.Op("Add", "add", {{mm, 0}, {r, 0}});
    b.Output({{add, 0}});
  };
  for (const bool widen : {false, true}) {
    ProtoGraph b;
    build(b, widen);
    Run(*b.graph());
    const PassReport fusion = RunPass(*CreateFusionPass(), *b.graph());
    EXPECT_EQ(fusion.counters.count("fused BatchMatMulV2+Add"), widen ? 0u : 1u)
        << (widen ? "widening" : "same shape");
    EXPECT_EQ(CountType(*b.graph(), "Add"), widen ? 1u : 0u);
  }
}

}  // namespace
}  // namespace ge
