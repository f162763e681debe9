// Elementwise fusion: connected elementwise nodes become one FusedElementwise where
// the rules allow it, and nowhere else. Every graph is compiled with and without the Fusion pass
// and both run on the same random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "fusion_test_util.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"
#include "ge/runtime/loaded_model.h"

namespace ge {
namespace {

using fusion_test::Compile;
using fusion_test::Counter;
using fusion_test::Random;
using testing::MakeTensor;
using testing::ProtoGraph;
using testing::TensorValues;
using Dims = std::vector<int64_t>;

int64_t Count(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

class ElementwiseFusionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  /// Compiles `make()` with and without fusion, runs both on random inputs of `run_dims` (for
  /// two seeds, and each list of dims in turn) and expects the outputs to agree within a relative
  /// 1e-5. Returns the fused compile.
  static CompiledModel ExpectSameNumbers(const std::function<ComputeGraphPtr()>& make,
                                         const std::vector<std::vector<Dims>>& run_dims,
                                         std::map<std::string, std::string> extra = {}) {
    auto fused = Compile(make(), extra);
    extra["openge.disablePasses"] = "Fusion";
    auto plain = Compile(make(), extra);
    EXPECT_TRUE(fused.ok()) << fused.status().message();
    EXPECT_TRUE(plain.ok()) << plain.status().message();
    if (!fused.ok() || !plain.ok()) return CompiledModel{};
    for (const std::vector<Dims>& dims : run_dims) {
      for (uint32_t seed : {5U, 6U}) {
        std::vector<GeTensor> inputs;
        uint32_t k = 0;
        for (const Dims& d : dims)
          inputs.push_back(MakeTensor(
              DT_FLOAT, d, Random(static_cast<size_t>(Count(d)), seed * 17 + k++, -3.0F, 3.0F)));
        const auto a = fusion_test::Run(*fused, inputs);
        const auto b = fusion_test::Run(*plain, inputs);
        EXPECT_EQ(a.size(), b.size());
        EXPECT_FALSE(a.empty());
        for (size_t o = 0; o < std::min(a.size(), b.size()); ++o) {
          EXPECT_EQ(a[o].size(), b[o].size());
          float worst = 0.0F;
          for (size_t i = 0; i < std::min(a[o].size(), b[o].size()); ++i) {
            worst =
                std::max(worst, std::fabs(a[o][i] - b[o][i]) / std::max(1.0F, std::fabs(b[o][i])));
          }
          EXPECT_LE(worst, 1e-5F) << "output " << o;
        }
      }
    }
    return std::move(fused).value();
  }

  static std::vector<NodePtr> Fused(const CompiledModel& m) {
    std::vector<NodePtr> out;
    for (const NodePtr& n : m.graph->GetAllNodes()) {
      if (n->GetType() == "FusedElementwise") out.push_back(n);
    }
    return out;
  }
  static int64_t CountType(const CompiledModel& m, const std::string& type) {
    int64_t count = 0;
    for (const NodePtr& n : m.graph->GetAllNodes()) count += n->GetType() == type ? 1 : 0;
    return count;
  }
  static std::vector<std::string> ListStr(const NodePtr& n, const char* attr) {
    std::vector<std::string> v;
    EXPECT_TRUE(AttrUtils::GetListStr(n->GetOpDesc(), attr, v)) << attr;
    return v;
  }
};

// x * 0.5 + b, tanh, / 1.4142: the scalar Consts become immediates, b an input.
ComputeGraphPtr Chain() {
  ProtoGraph g("chain");
  NodePtr x = g.Data("x", {4, 33});
  NodePtr b = g.Data("b", {33});
  NodePtr half = g.Const<float>("half", DT_FLOAT, {}, {0.5F});
  NodePtr root2 = g.Const<float>("root2", DT_FLOAT, {1}, {1.4142F});
  NodePtr mul = g.Op("Mul", "mul", {{x, 0}, {half, 0}});
  NodePtr add = g.Op("Add", "add", {{mul, 0}, {b, 0}});
  NodePtr tanh = g.Op("Tanh", "tanh", {{add, 0}});
  NodePtr div = g.Op("RealDiv", "div", {{tanh, 0}, {root2, 0}});
  g.Output({{div, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, AChainWithScalarConstantsBecomesOneNodeWithImmediates) {
  const CompiledModel m = ExpectSameNumbers(Chain, {{{4, 33}, {33}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  for (const char* type : {"Mul", "Add", "Tanh", "RealDiv", "Const"})
    EXPECT_EQ(CountType(m, type), 0) << type;
  EXPECT_EQ(fused[0]->GetOpDesc()->GetInputsSize(), 2U);
  EXPECT_EQ(ListStr(fused[0], kAttrEwProgram),
            (std::vector<std::string>{"Mul r0 0.5", "Add r2 r1", "Tanh r3", "Div r4 1.41419995"}));
  std::vector<int64_t> outputs;
  ASSERT_TRUE(AttrUtils::GetListInt(fused[0]->GetOpDesc(), kAttrEwOutputRegisters, outputs));
  EXPECT_EQ(outputs, (std::vector<int64_t>{5}));
  EXPECT_EQ(ListStr(fused[0], kAttrFusedFrom),
            (std::vector<std::string>{"mul", "add", "tanh", "div"}));
  std::string pattern;
  ASSERT_TRUE(AttrUtils::GetStr(fused[0]->GetOpDesc(), kAttrFusedPattern, pattern));
  EXPECT_EQ(pattern, "FusedElementwise(Mul+Add+Tanh+RealDiv)");
  EXPECT_EQ(Counter(m, "fused FusedElementwise(Mul+Add+Tanh+RealDiv)"), 1);
  const GeTensorDesc& out = fused[0]->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(out.GetShape().GetDims(), (Dims{4, 33}));
  EXPECT_EQ(out.GetDataType(), DT_FLOAT);
  EXPECT_EQ(out.GetFormat(), FORMAT_ND);
}

// GE's Relu6 joins a fused node as the Clip instruction with its fixed bounds: a type joins
// fusion by its elementwise trait and an instruction it is spelled as.
TEST_F(ElementwiseFusionTest, Relu6FusesAsABoundedClip) {
  auto make = [] {
    ProtoGraph g("relu6");
    NodePtr x = g.Data("x", {4, 33});
    NodePtr three = g.Const<float>("three", DT_FLOAT, {}, {3.0F});
    NodePtr mul = g.Op("Mul", "mul", {{x, 0}, {three, 0}});
    NodePtr relu6 = g.Op("Relu6", "relu6", {{mul, 0}});
    NodePtr sub = g.Op("Sub", "sub", {{relu6, 0}, {x, 0}});
    g.Output({{sub, 0}});
    return g.graph();
  };
  const CompiledModel m = ExpectSameNumbers(make, {{{4, 33}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(ListStr(fused[0], kAttrEwProgram),
            (std::vector<std::string>{"Mul r0 3", "Clip r1 0 6", "Sub r2 r0"}));
}

// A diamond whose interior value is also a graph output, a tensor Const (an input, not an
// immediate) and the variadic ops: one node with two outputs.
ComputeGraphPtr Diamond() {
  ProtoGraph g("diamond");
  NodePtr x = g.Data("x", {3, 70});
  NodePtr w = g.Const<float>("w", DT_FLOAT, {70}, Random(70, 9, -3.0F, 3.0F));
  NodePtr a = g.Op("Relu", "a", {{x, 0}});
  NodePtr s = g.Op("Sigmoid", "s", {{a, 0}});
  NodePtr m = g.Op("Mul", "m", {{a, 0}, {s, 0}});
  NodePtr d = g.Op("Sub", "d", {{m, 0}, {x, 0}});
  NodePtr sum = g.Op("AddN", "sum", {{d, 0}, {w, 0}, {a, 0}}, {}, {{"x", 3}});
  NodePtr mean = g.Op("Mean", "mean", {{sum, 0}, {x, 0}}, {}, {{"x", 2}});
  NodePtr clip = g.Op("Clip", "clip",
                      {{mean, 0},
                       {g.Const<float>("lo", DT_FLOAT, {}, {-1.0F}), 0},
                       {g.Const<float>("hi", DT_FLOAT, {}, {1.5F}), 0}});
  g.Output({{clip, 0}, {a, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, ATreeWithAnInteriorValueReadOutsideGetsTwoOutputs) {
  const CompiledModel m = ExpectSameNumbers(Diamond, {{{3, 70}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(fused[0]->GetOpDesc()->GetInputsSize(), 2U);   // x and w
  EXPECT_EQ(fused[0]->GetOpDesc()->GetOutputsSize(), 2U);  // a and clip
  EXPECT_EQ(ListStr(fused[0], kAttrFusedFrom).size(), 7U);
  EXPECT_EQ(m.graph->GetDirectNodesSize(), 4U);  // x, w, the fused node, the output
}

// Broadcasting inputs of several ranks; Maximum / Minimum / Pow / LeakyRelu / Gelu.
ComputeGraphPtr Broadcasts() {
  ProtoGraph g("broadcasts");
  NodePtr x = g.Data("x", {2, 3, 8, 20});
  NodePtr c = g.Data("c", {3, 1, 1});
  NodePtr row = g.Data("row", {20});
  NodePtr col = g.Data("col", {8, 1});
  NodePtr two = g.Const<float>("two", DT_FLOAT, {}, {2.0F});
  NodePtr a = g.Op("Mul", "a", {{x, 0}, {c, 0}});
  NodePtr b = g.Op("Maximum", "b", {{a, 0}, {row, 0}});
  NodePtr p = g.Op("Pow", "p", {{col, 0}, {two, 0}});
  NodePtr q = g.Op("Minimum", "q", {{b, 0}, {p, 0}});
  NodePtr l = g.Op("LeakyRelu", "l", {{q, 0}}, {{"alpha", AttrValue(0.1F)}});
  NodePtr e = g.Op("Gelu", "e", {{l, 0}}, {{"approximate", AttrValue("tanh")}});
  g.Output({{e, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, InputsOfDifferentRanksBroadcastInsideTheFusedNode) {
  const CompiledModel m = ExpectSameNumbers(Broadcasts, {{{2, 3, 8, 20}, {3, 1, 1}, {20}, {8, 1}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(fused[0]->GetOpDesc()->GetInputsSize(), 4U);
  EXPECT_EQ(ListStr(fused[0], kAttrFusedFrom).size(), 6U);  // the small Pow too, computed broadcast
}

// a -> Softmax -> c with a -> c: {a, c} contracted would be before and after the softmax. Two
// groups form instead, one on each side.
ComputeGraphPtr AroundASoftmax() {
  ProtoGraph g("cycle");
  NodePtr x = g.Data("x", {4, 16});
  NodePtr a = g.Op("Relu", "a", {{x, 0}});
  NodePtr a2 = g.Op("Neg", "a2", {{a, 0}});
  NodePtr sm = g.Op("SoftmaxV2", "sm", {{a2, 0}});
  NodePtr c = g.Op("Add", "c", {{a2, 0}, {sm, 0}});
  NodePtr c2 = g.Op("Tanh", "c2", {{c, 0}});
  g.Output({{c2, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, NeverFusesAcrossAPathThatLeavesTheGroup) {
  const CompiledModel m = ExpectSameNumbers(AroundASoftmax, {{{4, 16}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 2U);
  std::vector<std::vector<std::string>> from = {ListStr(fused[0], kAttrFusedFrom),
                                                ListStr(fused[1], kAttrFusedFrom)};
  std::sort(from.begin(), from.end());
  EXPECT_EQ(from, (std::vector<std::vector<std::string>>{{"a", "a2"}, {"c", "c2"}}));
  EXPECT_EQ(CountType(m, "SoftmaxV2"), 1);
}

// Relu then Sigmoid on [4,33]: 4 tensors of traffic unfused, 2 fused (a ratio of 0.5).
ComputeGraphPtr TwoUnary() {
  ProtoGraph g("two");
  NodePtr x = g.Data("x", {4, 33});
  NodePtr r = g.Op("Relu", "r", {{x, 0}});
  NodePtr s = g.Op("Sigmoid", "s", {{r, 0}});
  g.Output({{s, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, TheCostModelCanRejectAGroup) {
  const CompiledModel strict =
      ExpectSameNumbers(TwoUnary, {{{4, 33}}}, {{"openge.fusionCostRatio", "0.45"}});
  EXPECT_TRUE(Fused(strict).empty());
  EXPECT_EQ(Counter(strict, "rejected by the cost model"), 1);
  EXPECT_EQ(CountType(strict, "Relu"), 1);
  const CompiledModel loose =
      ExpectSameNumbers(TwoUnary, {{{4, 33}}}, {{"openge.fusionCostRatio", "0.5"}});
  EXPECT_EQ(Fused(loose).size(), 1U);
}

ComputeGraphPtr FiveUnary() {
  ProtoGraph g("five");
  NodePtr current = g.Data("x", {4, 33});
  int k = 0;
  for (const char* type : {"Relu", "Sigmoid", "Exp", "Neg", "Abs"}) {
    current = g.Op(type, "u" + std::to_string(k++), {{current, 0}});
  }
  g.Output({{current, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, GroupsStopAtTheCap) {
  const CompiledModel m =
      ExpectSameNumbers(FiveUnary, {{{4, 33}}}, {{"openge.fusionMaxGroupNodes", "3"}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 2U);
  std::vector<std::vector<std::string>> from = {ListStr(fused[0], kAttrFusedFrom),
                                                ListStr(fused[1], kAttrFusedFrom)};
  std::sort(from.begin(), from.end());
  EXPECT_EQ(from, (std::vector<std::vector<std::string>>{{"u0", "u1", "u2"}, {"u3", "u4"}}));
  EXPECT_EQ(Counter(m, "groups cut at openge.fusionMaxGroupNodes"), 1);
}

// sigmoid(bias) [33] is read by the graph output as well as by the [4,33] product: it cannot be
// an output of a node whose outputs are [4,33], so it stays out of the group.
ComputeGraphPtr SmallValueReadOutside() {
  ProtoGraph g("small");
  NodePtr x = g.Data("x", {4, 33});
  NodePtr bias = g.Data("bias", {33});
  NodePtr s = g.Op("Sigmoid", "s", {{bias, 0}});
  NodePtr m = g.Op("Mul", "m", {{x, 0}, {s, 0}});
  NodePtr t = g.Op("Tanh", "t", {{m, 0}});
  g.Output({{t, 0}, {s, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, AValueOfASmallerShapeReadOutsideStaysOut) {
  const CompiledModel m = ExpectSameNumbers(SmallValueReadOutside, {{{4, 33}, {33}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(ListStr(fused[0], kAttrFusedFrom), (std::vector<std::string>{"m", "t"}));
  EXPECT_EQ(CountType(m, "Sigmoid"), 1);
}

// Nothing to fuse but what the epilogue phase owns: a convolution keeps its node and no
// FusedElementwise stands for it.
ComputeGraphPtr ConvThenElementwise() {
  ProtoGraph g("conv");
  NodePtr x = g.Data("x", {1, 3, 8, 8});
  NodePtr y = g.Data("y", {1, 4, 8, 8});
  NodePtr w = g.Const<float>("w", DT_FLOAT, {4, 3, 3, 3}, Random(108, 3, -1.0F, 1.0F));
  NodePtr conv = g.Op("Conv2D", "conv", {{x, 0}, {w, 0}},
                      {{"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
                       {"strides", AttrValue(std::vector<int64_t>{1, 1})}});
  NodePtr relu = g.Op("Relu", "relu", {{conv, 0}});
  NodePtr add = g.Op("Add", "add", {{relu, 0}, {y, 0}});
  NodePtr sig = g.Op("Sigmoid", "sig", {{add, 0}});
  NodePtr mul = g.Op("Mul", "mul", {{sig, 0}, {y, 0}});
  g.Output({{mul, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, LeavesConvolutionsToThePipelinePhase) {
  const CompiledModel m = ExpectSameNumbers(ConvThenElementwise, {{{1, 3, 8, 8}, {1, 4, 8, 8}}});
  EXPECT_EQ(CountType(m, "Conv2D"), 1);
  for (const NodePtr& f : Fused(m)) {
    for (const std::string& name : ListStr(f, kAttrFusedFrom)) EXPECT_NE(name, "conv");
  }
  // Sigmoid and the Mul after it are elementwise whatever the convolution absorbed.
  EXPECT_EQ(CountType(m, "Sigmoid"), 0);
}

// Unknown dims: one compiled model, run by the dynamic executor at several shapes.
ComputeGraphPtr Dynamic() {
  ProtoGraph g("dynamic");
  NodePtr x = g.Data("x", {-1, -1, 16});
  NodePtr b = g.Data("b", {-1, 1, 16});
  NodePtr k = g.Const<float>("k", DT_FLOAT, {}, {0.7978846F});
  NodePtr a = g.Op("Add", "a", {{x, 0}, {b, 0}});
  NodePtr m = g.Op("Mul", "m", {{a, 0}, {k, 0}});
  NodePtr e = g.Op("Erf", "e", {{m, 0}});
  NodePtr o = g.Op("Add", "o", {{e, 0}, {a, 0}});
  g.Output({{o, 0}, {a, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, FusedNodesRunWithShapesKnownOnlyAtRunTime) {
  const CompiledModel m = ExpectSameNumbers(
      Dynamic, {{{2, 5, 16}, {2, 1, 16}}, {{3, 130, 16}, {3, 1, 16}}, {{1, 1, 16}, {1, 1, 16}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(fused[0]->GetOpDesc()->GetOutputsSize(), 2U);
  EXPECT_EQ(fused[0]->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (Dims{-1, -1, 16}));
}

// With unknown dims a value is known to have the group's full shape only when it is computed
// from every input: sigmoid(b) [-1,1,16] read outside stays out even though ranks agree.
ComputeGraphPtr DynamicPartial() {
  ProtoGraph g("dynamic_partial");
  NodePtr x = g.Data("x", {-1, -1, 16});
  NodePtr b = g.Data("b", {-1, -1, 16});
  NodePtr s = g.Op("Sigmoid", "s", {{b, 0}});
  NodePtr m = g.Op("Mul", "m", {{x, 0}, {s, 0}});
  NodePtr t = g.Op("Tanh", "t", {{m, 0}});
  g.Output({{t, 0}, {s, 0}});
  return g.graph();
}

TEST_F(ElementwiseFusionTest, WithUnknownDimsAValueFromSomeInputsIsNotAnOutput) {
  const CompiledModel m =
      ExpectSameNumbers(DynamicPartial, {{{2, 3, 16}, {2, 1, 16}}, {{2, 3, 16}, {2, 3, 16}}});
  const std::vector<NodePtr> fused = Fused(m);
  ASSERT_EQ(fused.size(), 1U);
  EXPECT_EQ(ListStr(fused[0], kAttrFusedFrom), (std::vector<std::string>{"m", "t"}));
}

TEST_F(ElementwiseFusionTest, AMalformedProgramIsRefusedNamingTheNodeAndInstruction) {
  ProtoGraph g("bad");
  NodePtr x = g.Data("x", {4});
  NodePtr bad = g.Op("FusedElementwise", "bad", {{x, 0}},
                     {{kAttrEwProgram, AttrValue(std::vector<std::string>{"Relu r0", "Pow r1"})},
                      {kAttrEwOutputRegisters, AttrValue(std::vector<int64_t>{2})}},
                     {{"x", 1}, {"y", 1}});
  g.Output({{bad, 0}});
  auto m = Compile(g.graph());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("node 'bad' (FusedElementwise)"), std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find("instruction 1 'Pow r1'"), std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find("Pow takes 2 operand(s)"), std::string::npos)
      << m.status().message();
}

}  // namespace
}  // namespace ge
