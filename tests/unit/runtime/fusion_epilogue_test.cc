// Epilogue fusion: a convolution or matrix product absorbs a bias Add, a residual Add
// (post-op Sum on input 3 "addend") and the activations after it. Each graph is compiled with and
// without the Fusion pass and both run on the same random inputs.
#include <gtest/gtest.h>

#include "fusion_test_util.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/fused_ops.h"

namespace ge {
namespace {

using fusion_test::Compile;
using fusion_test::Counter;
using fusion_test::ExpectFusedMatchesUnfused;
using fusion_test::Random;
using testing::ProtoGraph;

class FusionEpilogue : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }
};

const std::map<std::string, AttrValue> kConv3x3 = {
    {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
    {"strides", AttrValue(std::vector<int64_t>{1, 1})}};

std::vector<std::string> PostOps(const CompiledModel& m, const std::string& node) {
  std::vector<std::string> ops;
  const NodePtr n = m.graph->FindNode(node);
  if (n != nullptr) AttrUtils::GetListStr(n->GetOpDesc(), kAttrFusedPostOps, ops);
  return ops;
}

/// The producer of input `index` of `node` in the compiled graph, or "".
std::string InputFrom(const CompiledModel& m, const std::string& node, int index) {
  const NodePtr n = m.graph->FindNode(node);
  if (n == nullptr || n->GetInDataAnchor(index) == nullptr) return "";
  const OutDataAnchorPtr peer = n->GetInDataAnchor(index)->GetPeerOutAnchor();
  return peer == nullptr ? "" : peer->GetOwnerNode()->GetName();
}

/// A residual block: r = relu(conv1(x)); y = relu(conv2(r) + r), the Add's operands in
/// either order; the batch may be -1 (run-time shapes).
ComputeGraphPtr ResidualBlock(bool conv_first, int64_t batch = 1) {
  ProtoGraph b("residual");
  NodePtr x = b.Data("x", {batch, 4, 8, 8});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {4, 4, 3, 3}, Random(144, 1));
  NodePtr b1 = b.Const<float>("b1", DT_FLOAT, {4}, Random(4, 2));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {4, 4, 3, 3}, Random(144, 3));
  NodePtr b2 = b.Const<float>("b2", DT_FLOAT, {4}, Random(4, 4));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}, {b1, 0}}, kConv3x3);
  NodePtr r = b.Op("Relu", "relu1", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{r, 0}, {w2, 0}, {b2, 0}}, kConv3x3);
  NodePtr add = conv_first ? b.Op("Add", "add", {{conv2, 0}, {r, 0}})
                           : b.Op("Add", "add", {{r, 0}, {conv2, 0}});
  NodePtr out = b.Op("Relu", "relu2", {{add, 0}});
  b.Output({{out, 0}});
  return b.graph();
}

TEST_F(FusionEpilogue, ConvolutionAbsorbsTheResidualAddAndItsActivation) {
  for (bool conv_first : {true, false}) {
    SCOPED_TRACE(conv_first ? "Add(conv, r)" : "Add(r, conv)");
    CompiledModel m =
        ExpectFusedMatchesUnfused([&] { return ResidualBlock(conv_first); }, {{1, 4, 8, 8}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(m.graph->FindNode("add"), nullptr);
    EXPECT_EQ(m.graph->FindNode("relu2"), nullptr);
    EXPECT_EQ(PostOps(m, "conv2"), (std::vector<std::string>{"Sum", "Relu"}));
    // The addend is r, now the output of conv1 with its Relu fused in.
    EXPECT_EQ(InputFrom(m, "conv2", 3), "conv1");
    EXPECT_EQ(PostOps(m, "conv1"), (std::vector<std::string>{"Relu"}));
    EXPECT_EQ(Counter(m, "fused Conv2D+Add+Relu"), 1);
    EXPECT_EQ(Counter(m, "fused Conv2D+Relu"), 1);
    std::vector<std::string> from;
    ASSERT_TRUE(
        AttrUtils::GetListStr(m.graph->FindNode("conv2")->GetOpDesc(), kAttrFusedFrom, from));
    EXPECT_EQ(from, (std::vector<std::string>{"conv2", "add", "relu2"}));
  }
}

// With a batch known only at run time the residual fuses as well: both operands of the Add are
// [x_d0,4,8,8] (SymbolicShapes), one shape whatever the batch, and the primitive is built for
// each new shape. An addend from a second input has a batch of its own and may broadcast at run
// time, while the sum post-op needs the output's shape: that Add stays.
TEST_F(FusionEpilogue, WithRunTimeShapesTheResidualFusesWhereItsShapeIsProved) {
  CompiledModel m =
      ExpectFusedMatchesUnfused([] { return ResidualBlock(true, -1); }, {{3, 4, 8, 8}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(PostOps(m, "conv1"), (std::vector<std::string>{"Relu"}));
  EXPECT_EQ(PostOps(m, "conv2"), (std::vector<std::string>{"Sum", "Relu"}));
  EXPECT_EQ(InputFrom(m, "conv2", 3), "conv1");
  auto from_input = [] {
    ProtoGraph b("residual_from_input");
    NodePtr x = b.Data("x", {-1, 4, 8, 8});
    NodePtr y = b.Data("y", {-1, 4, 8, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 4, 3, 3}, Random(144, 1));
    NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, kConv3x3);
    NodePtr add = b.Op("Add", "add", {{conv, 0}, {y, 0}});
    b.Output({{add, 0}});
    return b.graph();
  };
  CompiledModel other = ExpectFusedMatchesUnfused(from_input, {{2, 4, 8, 8}, {2, 4, 8, 8}});
  ASSERT_NE(other.graph, nullptr);
  EXPECT_NE(other.graph->FindNode("add"), nullptr);
  EXPECT_EQ(InputFrom(other, "conv", 3), "");
}

// An Add after the activation is not a place for oneDNN's sum post-op: conv takes its Relu only.
TEST_F(FusionEpilogue, AResidualAfterAnActivationStaysAnAdd) {
  auto make = [] {
    ProtoGraph b("late_residual");
    NodePtr x = b.Data("x", {1, 4, 8, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 4, 3, 3}, Random(144, 5));
    NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, kConv3x3);
    NodePtr relu = b.Op("Relu", "relu", {{conv, 0}});
    NodePtr add = b.Op("Add", "add", {{relu, 0}, {x, 0}});
    b.Output({{add, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectFusedMatchesUnfused(make, {{1, 4, 8, 8}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(PostOps(m, "conv"), (std::vector<std::string>{"Relu"}));
  EXPECT_EQ(InputFrom(m, "conv", 3), "");
}

/// x [1, 4, 8, 8] -> conv -> c * Sigmoid(c) (SiLU, operands in either order) -> HardSigmoid;
/// `gate_read`: the Sigmoid's output is a graph output too.
ComputeGraphPtr ConvSwish(bool swapped, bool gate_read) {
  ProtoGraph b("swish");
  NodePtr x = b.Data("x", {1, 4, 8, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 4, 3, 3}, Random(144, 41));
  NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, kConv3x3);
  NodePtr sig = b.Op("Sigmoid", "sig", {{conv, 0}});
  NodePtr mul = swapped ? b.Op("Mul", "mul", {{sig, 0}, {conv, 0}})
                        : b.Op("Mul", "mul", {{conv, 0}, {sig, 0}});
  NodePtr hard = b.Op("HardSigmoid", "hard", {{mul, 0}},
                      {{"alpha", AttrValue(1.0F / 6.0F)}, {"beta", AttrValue(0.5F)}});
  if (gate_read) {
    b.Output({{hard, 0}, {sig, 0}});
  } else {
    b.Output({{hard, 0}});
  }
  return b.graph();
}

// x * Sigmoid(x) after a convolution (EfficientNet's SiLU) becomes oneDNN's swish post-op, and a
// HardSigmoid after it a linear + clip pair; not when something else reads the Sigmoid.
TEST_F(FusionEpilogue, ConvolutionAbsorbsSwishAndHardSigmoid) {
  for (bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "sigmoid * x" : "x * sigmoid");
    CompiledModel m =
        ExpectFusedMatchesUnfused([&] { return ConvSwish(swapped, false); }, {{1, 4, 8, 8}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(PostOps(m, "conv"),
              (std::vector<std::string>{"Swish", "HardSigmoid:0.166666672:0.5"}));
    EXPECT_EQ(m.graph->FindNode("sig"), nullptr);
    EXPECT_EQ(m.graph->FindNode("mul"), nullptr);
  }
  CompiledModel read =
      ExpectFusedMatchesUnfused([] { return ConvSwish(false, true); }, {{1, 4, 8, 8}});
  ASSERT_NE(read.graph, nullptr);
  EXPECT_TRUE(PostOps(read, "conv").empty());  // the Sigmoid's output is needed as it is
}

/// A squeeze-and-excite scale before a 1x1 projection: a = conv3x3(x), s = Sigmoid(conv1x1(gap(a)))
/// [1, 16, 1, 1], y = conv1x1(a * s) with `out_channels`; `second_reader`: a * s is an output too.
ComputeGraphPtr ScaledProjection(int64_t side, int64_t out_channels, bool second_reader,
                                 int64_t kernel = 1) {
  ProtoGraph b("scaled");
  NodePtr x = b.Data("x", {1, 16, side, side});
  NodePtr w =
      b.Const<float>("w", DT_FLOAT, {16, 16, 3, 3}, Random(size_t{16} * 16 * 9, 61, -0.3F, 0.3F));
  NodePtr a = b.Op("Conv2D", "a", {{x, 0}, {w, 0}}, kConv3x3);
  NodePtr gap = b.Op("GlobalAveragePool", "gap", {{a, 0}});
  NodePtr ws = b.Const<float>("ws", DT_FLOAT, {16, 16, 1, 1}, Random(256, 62));
  NodePtr s = b.Op("Sigmoid", "s", {{b.Op("Conv2D", "squeeze", {{gap, 0}, {ws, 0}}), 0}});
  NodePtr scaled = b.Op("Mul", "scale", {{a, 0}, {s, 0}});
  NodePtr wp = b.Const<float>("wp", DT_FLOAT, {out_channels, 16, kernel, kernel},
                              Random(static_cast<size_t>(out_channels * 16 * kernel * kernel), 63));
  std::map<std::string, AttrValue> attrs;
  if (kernel == 3) attrs = kConv3x3;
  NodePtr y = b.Op("Conv2D", "project", {{scaled, 0}, {wp, 0}}, attrs);
  if (second_reader) {
    b.Output({{y, 0}, {scaled, 0}});
  } else {
    b.Output({{y, 0}});
  }
  return b.graph();
}

// The scale moves onto the projection's filter ([8, 16, 1, 1] * [1, 16, 1, 1]) instead of the
// [1, 16, 12, 12] activation; not when the map has fewer positions than output channels, when
// the convolution is not 1x1, or when the scaled activation is read elsewhere.
TEST_F(FusionEpilogue, ASqueezeAndExciteScaleMovesOntoTheProjectionFilter) {
  CompiledModel m =
      ExpectFusedMatchesUnfused([] { return ScaledProjection(12, 8, false); }, {{1, 16, 12, 12}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(InputFrom(m, "project", 0).rfind("a", 0), 0U);  // a, or a TransData of it
  EXPECT_EQ(InputFrom(m, "project", 1), "scale");
  EXPECT_EQ(m.graph->FindNode("scale")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{8, 16, 1, 1}));
  const std::vector<std::pair<std::function<ComputeGraphPtr()>, int64_t>> kept_cases = {
      {[] { return ScaledProjection(2, 8, false); }, 2},       // 4 positions < 8 channels
      {[] { return ScaledProjection(12, 8, false, 3); }, 12},  // a 3x3 projection
      {[] { return ScaledProjection(12, 8, true); }, 12}};     // a * s read elsewhere
  for (const auto& [make, side] : kept_cases) {
    CompiledModel kept = ExpectFusedMatchesUnfused(make, {{1, 16, side, side}});
    ASSERT_NE(kept.graph, nullptr);
    EXPECT_EQ(InputFrom(kept, "project", 0).rfind("scale", 0), 0U);
  }
}

/// x [1, 8, 6, 6] -> conv (bias or not) -> BatchNorm -> + x -> Relu; the variance and mean may
/// come from a Data input instead of a Const.
ComputeGraphPtr ConvBatchNorm(bool conv_bias, bool const_stats) {
  ProtoGraph b("conv_bn");
  NodePtr x = b.Data("x", {1, 8, 6, 6});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {8, 8, 3, 3}, Random(576, 13));
  std::vector<NodeOutput> conv_in = {{x, 0}, {w, 0}};
  if (conv_bias) conv_in.emplace_back(b.Const<float>("b", DT_FLOAT, {8}, Random(8, 14)), 0);
  NodePtr conv = b.Op("Conv2D", "conv", conv_in, kConv3x3);
  NodePtr scale = b.Const<float>("scale", DT_FLOAT, {8}, Random(8, 15, 0.5F, 1.5F));
  NodePtr offset = b.Const<float>("offset", DT_FLOAT, {8}, Random(8, 16));
  NodePtr mean =
      const_stats ? b.Const<float>("mean", DT_FLOAT, {8}, Random(8, 17)) : b.Data("mean", {8});
  NodePtr var = b.Const<float>("var", DT_FLOAT, {8}, Random(8, 18, 0.2F, 2.0F));
  NodePtr bn = b.Op("BatchNorm", "bn", {{conv, 0}, {scale, 0}, {offset, 0}, {mean, 0}, {var, 0}},
                    {{"epsilon", AttrValue(1e-3F)}});
  NodePtr add = b.Op("Add", "add", {{bn, 0}, {x, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{add, 0}});
  b.Output({{relu, 0}});
  return b.graph();
}

// BatchNorm after a convolution folds into new Const weights and bias; the residual and the Relu
// then follow as post-ops, as in a ResNet block exported without folding.
TEST_F(FusionEpilogue, BatchNormFoldsIntoTheConvolutionsWeights) {
  for (bool conv_bias : {true, false}) {
    SCOPED_TRACE(conv_bias ? "conv with a bias" : "conv without a bias");
    // Weights in the framework's layout: the Consts keep the names Fusion gave them.
    CompiledModel m =
        ExpectFusedMatchesUnfused([&] { return ConvBatchNorm(conv_bias, true); }, {{1, 8, 6, 6}},
                                  {{"openge.cpuWeightLayout", "plain"}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(m.graph->FindNode("bn"), nullptr);
    EXPECT_EQ(PostOps(m, "conv"), (std::vector<std::string>{"Sum", "Relu"}));
    EXPECT_EQ(InputFrom(m, "conv", 1), "conv/folded_filter");
    EXPECT_EQ(InputFrom(m, "conv", 2), "conv/folded_bias");
    EXPECT_EQ(m.graph->FindNode("w"), nullptr);  // the old filter is dead code now
    EXPECT_EQ(Counter(m, "fused Conv2D+BatchNorm+Add+Relu"), 1);
  }
}

// Statistics that are not constants cannot be folded: the BatchNorm stays, and the convolution
// fuses nothing across it.
TEST_F(FusionEpilogue, ABatchNormWithRunTimeStatisticsStays) {
  auto fused = Compile(ConvBatchNorm(true, false), {{"openge.cpuWeightLayout", "plain"}});
  ASSERT_TRUE(fused.ok()) << fused.status().message();
  EXPECT_NE(fused->graph->FindNode("bn"), nullptr);
  EXPECT_EQ(InputFrom(*fused, "conv", 1), "w");
  EXPECT_TRUE(PostOps(*fused, "conv").empty());
}

/// x [2, 5, 16] @ W [16, 8] + bias [8] (bias first, as torch exports it) -> activation.
ComputeGraphPtr MatMulBiasActivation(const std::string& activation) {
  ProtoGraph b("linear");
  NodePtr x = b.Data("x", {2, 5, 16});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {16, 8}, Random(128, 6));
  NodePtr bias = b.Const<float>("bias", DT_FLOAT, {8}, Random(8, 7));
  NodePtr mm = b.Op("BatchMatMulV2", "mm", {{x, 0}, {w, 0}});
  NodePtr add = b.Op("Add", "add", {{bias, 0}, {mm, 0}});
  NodePtr act = activation == "Gelu" ? b.Op("Gelu", "act", {{add, 0}},
                                            {{"approximate", AttrValue(std::string("none"))}})
                                     : b.Op(activation, "act", {{add, 0}});
  b.Output({{act, 0}});
  return b.graph();
}

TEST_F(FusionEpilogue, MatrixProductTakesItsBiasAndActivation) {
  for (const std::string activation : {"Gelu", "Relu", "Tanh"}) {
    SCOPED_TRACE(activation);
    CompiledModel m =
        ExpectFusedMatchesUnfused([&] { return MatMulBiasActivation(activation); }, {{2, 5, 16}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(m.graph->FindNode("add"), nullptr);
    EXPECT_EQ(m.graph->FindNode("act"), nullptr);
    EXPECT_EQ(InputFrom(m, "mm", 2), "bias");
    EXPECT_EQ(PostOps(m, "mm"), (std::vector<std::string>{activation}));
    EXPECT_EQ(Counter(m, "fused BatchMatMulV2+Bias+" + activation), 1);
  }
}

// x [6, 16] @ W [16, 16] + x -> Relu: a residual on a matrix product.
TEST_F(FusionEpilogue, MatrixProductTakesAResidual) {
  auto make = [] {
    ProtoGraph b("mm_residual");
    NodePtr x = b.Data("x", {6, 16});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {16, 16}, Random(256, 8));
    NodePtr mm = b.Op("MatMulV2", "mm", {{x, 0}, {w, 0}});
    NodePtr add = b.Op("Add", "add", {{x, 0}, {mm, 0}});
    NodePtr relu = b.Op("Relu", "relu", {{add, 0}});
    b.Output({{relu, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectFusedMatchesUnfused(make, {{6, 16}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(PostOps(m, "mm"), (std::vector<std::string>{"Sum", "Relu"}));
  EXPECT_EQ(InputFrom(m, "mm", 3), "x");
  EXPECT_EQ(InputFrom(m, "mm", 2), "");
}

// Gemm scales the product by alpha after it; a post-op would run before that, so a Gemm with
// alpha != 1 keeps its Relu. With alpha = beta = 1 it takes a bias and the Relu.
TEST_F(FusionEpilogue, GemmWithAlphaKeepsItsActivation) {
  auto make = [](float alpha) {
    return [alpha] {
      ProtoGraph b("gemm");
      NodePtr a = b.Data("a", {4, 8});
      NodePtr w = b.Const<float>("w", DT_FLOAT, {8, 6}, Random(48, 9));
      NodePtr bias = b.Const<float>("bias", DT_FLOAT, {6}, Random(6, 10));
      NodePtr g = b.Op("Gemm", "gemm", {{a, 0}, {w, 0}}, {{"alpha", AttrValue(alpha)}});
      NodePtr add = b.Op("Add", "add", {{g, 0}, {bias, 0}});
      NodePtr relu = b.Op("Relu", "relu", {{add, 0}});
      b.Output({{relu, 0}});
      return b.graph();
    };
  };
  CompiledModel scaled = ExpectFusedMatchesUnfused(make(2.0F), {{4, 8}});
  ASSERT_NE(scaled.graph, nullptr);
  EXPECT_TRUE(PostOps(scaled, "gemm").empty());
  EXPECT_EQ(InputFrom(scaled, "gemm", 2), "");
  CompiledModel plain = ExpectFusedMatchesUnfused(make(1.0F), {{4, 8}});
  ASSERT_NE(plain.graph, nullptr);
  EXPECT_EQ(InputFrom(plain, "gemm", 2), "bias");
  EXPECT_EQ(PostOps(plain, "gemm"), (std::vector<std::string>{"Relu"}));
}

// An Add that broadcasts the product up to a bigger shape is not a bias: [1, 8] + [4, 8].
TEST_F(FusionEpilogue, AnAddThatBroadcastsTheProductUpIsNotFused) {
  auto make = [] {
    ProtoGraph b("broadcast_up");
    NodePtr x = b.Data("x", {1, 16});
    NodePtr y = b.Data("y", {4, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {16, 8}, Random(128, 11));
    NodePtr mm = b.Op("MatMulV2", "mm", {{x, 0}, {w, 0}});
    NodePtr add = b.Op("Add", "add", {{mm, 0}, {y, 0}});
    b.Output({{add, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectFusedMatchesUnfused(make, {{1, 16}, {4, 8}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_TRUE(PostOps(m, "mm").empty());
  EXPECT_EQ(InputFrom(m, "mm", 2), "");
  EXPECT_EQ(InputFrom(m, "mm", 3), "");
}

// A node that says it adds a residual but has none is refused when the model loads, by name.
TEST_F(FusionEpilogue, ASumPostOpWithoutItsAddendIsRefused) {
  ProtoGraph b("no_addend");
  NodePtr x = b.Data("x", {1, 4, 8, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {4, 4, 3, 3}, Random(144, 12));
  NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, kConv3x3);
  AttrUtils::SetListStr(conv->GetOpDesc(), kAttrFusedPostOps, std::vector<std::string>{"Sum"});
  b.Output({{conv, 0}});
  auto m = Compile(b.graph(), {{"openge.disablePasses", "Fusion"}});
  ASSERT_TRUE(m.ok()) << m.status().message();
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  auto model = LoadedModel::Load(std::move(m).value(), options);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("conv"), std::string::npos) << model.status().message();
  EXPECT_NE(model.status().message().find("addend"), std::string::npos) << model.status().message();
}

}  // namespace
}  // namespace ge
