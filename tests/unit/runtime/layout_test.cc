// The CPU engine's layout planner: convolution chains in NC1HWC0 with TransData only at
// their boundaries, decided by asking oneDNN, and the pass that removes TransData pairs that
// cancel. Every graph is also compiled with openge.cpuLayout=plain and both give the same numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "fusion_test_util.h"
#include "ge/engine/ops_kernel_builder.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/ops/op_registry.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using fusion_test::Compile;
using fusion_test::Random;
using testing::ProtoGraph;

const std::map<std::string, AttrValue> kConv3x3 = {
    {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})},
    {"strides", AttrValue(std::vector<int64_t>{1, 1})}};

class LayoutTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static int64_t CountType(const CompiledModel& m, const std::string& type) {
    int64_t n = 0;
    for (const NodePtr& node : m.graph->GetAllNodes()) n += node->GetType() == type ? 1 : 0;
    return n;
  }
  /// The TransData nodes, by name (for failure messages).
  static std::string TransDataNames(const CompiledModel& m) {
    std::string names;
    for (const NodePtr& node : m.graph->GetAllNodes()) {
      if (node->GetType() == "TransData") names += " " + node->GetName();
    }
    return names;
  }
  static Format InFormat(const CompiledModel& m, const std::string& node, uint32_t i = 0) {
    return m.graph->FindNode(node)->GetOpDescBarePtr()->GetInputDesc(i).GetFormat();
  }
  static Format OutFormat(const CompiledModel& m, const std::string& node) {
    return m.graph->FindNode(node)->GetOpDescBarePtr()->GetOutputDesc(0).GetFormat();
  }
  static std::string Impl(const CompiledModel& m, const std::string& node) {
    std::string impl;
    AttrUtils::GetStr(m.graph->FindNode(node)->GetOpDesc(), ge::kAttrKernelImpl, impl);
    return impl;
  }

  /// Compiles `make()` with blocked layouts (returned) and plain ones, runs both on the same
  /// random input of `dims` and expects the same numbers.
  static CompiledModel ExpectSameAsPlain(const std::function<ComputeGraphPtr()>& make,
                                         const std::vector<int64_t>& dims,
                                         std::map<std::string, std::string> extra = {}) {
    auto blocked = Compile(make(), extra);
    extra["openge.cpuLayout"] = "plain";
    auto plain = Compile(make(), extra);
    EXPECT_TRUE(blocked.ok()) << blocked.status().message();
    EXPECT_TRUE(plain.ok()) << plain.status().message();
    if (!blocked.ok() || !plain.ok()) return CompiledModel{};
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    const std::vector<GeTensor> inputs = {
        testing::MakeTensor(DT_FLOAT, dims, Random(static_cast<size_t>(n), 5, -2.0F, 2.0F))};
    const auto a = fusion_test::Run(*blocked, inputs);
    const auto b = fusion_test::Run(*plain, inputs);
    EXPECT_EQ(a.size(), b.size());
    for (size_t o = 0; o < std::min(a.size(), b.size()); ++o) {
      EXPECT_EQ(a[o].size(), b[o].size());
      for (size_t i = 0; i < std::min(a[o].size(), b[o].size()); ++i) {
        if (std::isnan(b[o][i]) || std::isinf(b[o][i])) {  // outside an operator's domain
          EXPECT_EQ(std::isnan(a[o][i]), std::isnan(b[o][i])) << "element " << i;
          if (std::isinf(b[o][i])) {
            EXPECT_EQ(a[o][i], b[o][i]) << "element " << i;
          }
          continue;
        }
        EXPECT_NEAR(a[o][i], b[o][i], 1e-4F * std::max(1.0F, std::fabs(b[o][i])))
            << "element " << i;
      }
    }
    EXPECT_EQ(CountType(*plain, "TransData"), 0);
    return std::move(blocked).value();
  }
};

/// x [n, c, 10, 10] -> conv1 (c -> 32) -> relu -> conv2 (32 -> 32) + relu's output -> relu2.
ComputeGraphPtr ResidualChain(int64_t c, int64_t batch = 1) {
  ProtoGraph b("chain");
  NodePtr x = b.Data("x", {batch, c, 10, 10});
  NodePtr w1 =
      b.Const<float>("w1", DT_FLOAT, {32, c, 3, 3}, Random(static_cast<size_t>(32 * c * 9), 1));
  NodePtr b1 = b.Const<float>("b1", DT_FLOAT, {32}, Random(32, 2));
  NodePtr w2 =
      b.Const<float>("w2", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 3, -0.2F, 0.2F));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}, {b1, 0}}, kConv3x3);
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{relu, 0}, {w2, 0}}, kConv3x3);
  NodePtr add = b.Op("Add", "add", {{conv2, 0}, {relu, 0}});
  NodePtr relu2 = b.Op("Relu", "relu2", {{add, 0}});
  b.Output({{relu2, 0}});
  return b.graph();
}

TEST_F(LayoutTest, AConvolutionChainIsBlockedWithTransDataAtItsEndsOnly) {
  CompiledModel m = ExpectSameAsPlain([] { return ResidualChain(16); }, {1, 16, 10, 10});
  ASSERT_NE(m.graph, nullptr);
  // Fused: conv1+Relu, conv2+Add(residual)+Relu; every tensor between them blocked.
  EXPECT_EQ(InFormat(m, "conv1"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(m, "conv1"), FORMAT_NC1HWC0);
  EXPECT_EQ(InFormat(m, "conv2"), FORMAT_NC1HWC0);
  EXPECT_EQ(InFormat(m, "conv2", 3), FORMAT_NC1HWC0);  // the residual
  EXPECT_EQ(OutFormat(m, "conv2"), FORMAT_NC1HWC0);
  EXPECT_EQ(m.graph->FindNode("conv2")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{1, 2, 10, 10, 16}));
  EXPECT_EQ(CountType(m, "TransData"), 2);  // into conv1, out of conv2
  for (const char* conv : {"conv1", "conv2"}) {
    const std::string impl = Impl(m, conv);
    EXPECT_FALSE(impl.empty()) << conv;
    EXPECT_EQ(impl.find("ref"), std::string::npos) << conv << ": " << impl;
    EXPECT_EQ(impl.find("gemm"), std::string::npos) << conv << ": " << impl;
  }
}

// Unfused, the Relu and the Add between the convolutions run on the blocked tensors as they are;
// so do elementwise nodes that do not keep zero at zero (sigmoid(0) = 0.5, 0 / 0 = NaN in the
// channel padding, which the CPU executor zeroes after each run).
TEST_F(LayoutTest, ElementwiseNodesStayBlockedWhateverTheyComputeInThePadding) {
  CompiledModel relu = ExpectSameAsPlain([] { return ResidualChain(16); }, {1, 16, 10, 10},
                                         {{"openge.disablePasses", "Fusion"}});
  ASSERT_NE(relu.graph, nullptr);
  EXPECT_EQ(OutFormat(relu, "relu"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(relu, "add"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(relu, "relu2"), FORMAT_NC1HWC0);
  EXPECT_EQ(CountType(relu, "TransData"), 2);
  for (const char* type : {"Sigmoid", "RealDiv"}) {
    SCOPED_TRACE(type);
    auto make = [type] {
      ProtoGraph b("padding");
      NodePtr x = b.Data("x", {1, 16, 6, 6});
      NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {20, 16, 3, 3}, Random(size_t{20} * 16 * 9, 4));
      NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {16, 20, 3, 3}, Random(size_t{16} * 20 * 9, 5));
      NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, kConv3x3);
      NodePtr op = std::string(type) == "RealDiv" ? b.Op(type, "op", {{conv1, 0}, {conv1, 0}})
                                                  : b.Op(type, "op", {{conv1, 0}});
      NodePtr conv2 = b.Op("Conv2D", "conv2", {{op, 0}, {w2, 0}}, kConv3x3);
      b.Output({{conv2, 0}});
      return b.graph();
    };
    CompiledModel m = ExpectSameAsPlain(make, {1, 16, 6, 6}, {{"openge.disablePasses", "Fusion"}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(InFormat(m, "op"), FORMAT_NC1HWC0);
    EXPECT_EQ(OutFormat(m, "conv1"), FORMAT_NC1HWC0);  // 20 channels: padded to 32
    // Into conv1, and into conv2, whose output (the graph's) is NCHW.
    EXPECT_EQ(CountType(m, "TransData"), 2);
  }
}

// The elementwise trait is what the layout planner trusts: every operator whose prototype
// declares it (and takes floats) runs on the blocked tensors between two convolutions as they are,
// with the numbers of the plain layout, whatever it computes in the channel padding. An operator
// declared elementwise whose kernel cannot take blocked operands fails here.
TEST_F(LayoutTest, EveryElementwiseOperatorRunsOnBlockedTensors) {
  const OpRegistry& registry = OpRegistry::Instance();
  int tested = 0;
  for (const std::string& type : registry.GetAllTypes()) {
    const std::shared_ptr<const OpProto> proto = registry.Find(type);
    const ElementwiseKind kind = proto->traits().elementwise;
    if (kind == ElementwiseKind::kNone || type == "FusedElementwise") continue;
    if (!proto->AllowedTypes(proto->inputs()[0].type_symbol).Contains(DT_FLOAT) ||
        !proto->AllowedTypes(proto->outputs()[0].type_symbol).Contains(DT_FLOAT)) {
      continue;  // integers or booleans: never blocked
    }
    SCOPED_TRACE(type);
    ++tested;
    auto make = [&type, kind] {
      ProtoGraph b("elementwise");
      NodePtr x = b.Data("x", {1, 16, 6, 6});
      NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {20, 16, 3, 3}, Random(size_t{20} * 16 * 9, 4));
      NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {16, 20, 3, 3}, Random(size_t{16} * 20 * 9, 5));
      // A per-channel operand, positive so that powers and quotients stay in range.
      NodePtr c = b.Const<float>("c", DT_FLOAT, {1, 20, 1, 1}, Random(20, 6, 0.5F, 1.5F));
      NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, kConv3x3);
      std::map<std::string, AttrValue> attrs;
      if (type == "Mod") attrs["fmod"] = AttrValue(int64_t{1});  // floats take C's fmod
      NodePtr op;
      if (kind == ElementwiseKind::kUnary) {
        op = b.Op(type, "op", {{conv1, 0}}, attrs);
      } else if (kind == ElementwiseKind::kBinary) {
        op = b.Op(type, "op", {{conv1, 0}, {c, 0}}, attrs);
      } else {
        op = b.Op(type, "op", {{conv1, 0}, {c, 0}, {conv1, 0}}, attrs, {{"x", 3U}});
      }
      NodePtr conv2 = b.Op("Conv2D", "conv2", {{op, 0}, {w2, 0}}, kConv3x3);
      b.Output({{conv2, 0}});
      return b.graph();
    };
    CompiledModel m = ExpectSameAsPlain(make, {1, 16, 6, 6}, {{"openge.disablePasses", "Fusion"}});
    ASSERT_NE(m.graph, nullptr);
    EXPECT_EQ(InFormat(m, "op"), FORMAT_NC1HWC0) << TransDataNames(m);
    EXPECT_EQ(OutFormat(m, "op"), FORMAT_NC1HWC0) << TransDataNames(m);
  }
  EXPECT_GE(tested, 50);  // arithmetic, activations, the math library
}

/// A squeeze-and-excite block: x [1, 32, 8, 8] -> conv1 -> s = Sigmoid(conv3(Relu(conv2(gap))))
/// -> conv1 * s (broadcast over H, W) -> conv4 (3x3, so the scale stays on the activation) -> y.
ComputeGraphPtr SqueezeExcite() {
  ProtoGraph b("se");
  NodePtr x = b.Data("x", {1, 32, 8, 8});
  NodePtr w1 =
      b.Const<float>("w1", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 21, -0.2F, 0.2F));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {8, 32, 1, 1}, Random(size_t{8} * 32, 22));
  NodePtr w3 = b.Const<float>("w3", DT_FLOAT, {32, 8, 1, 1}, Random(size_t{32} * 8, 23));
  NodePtr w4 =
      b.Const<float>("w4", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 24, -0.2F, 0.2F));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, kConv3x3);
  NodePtr gap = b.Op("GlobalAveragePool", "gap", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{gap, 0}, {w2, 0}});
  NodePtr relu = b.Op("Relu", "relu", {{conv2, 0}});
  NodePtr conv3 = b.Op("Conv2D", "conv3", {{relu, 0}, {w3, 0}});
  NodePtr sig = b.Op("Sigmoid", "sig", {{conv3, 0}});
  NodePtr scale = b.Op("Mul", "scale", {{conv1, 0}, {sig, 0}});
  NodePtr conv4 = b.Op("Conv2D", "conv4", {{scale, 0}, {w4, 0}}, kConv3x3);
  b.Output({{conv4, 0}});
  return b.graph();
}

/// Whatever layouts the host's kernels led the planner to, no convolution runs oneDNN's reference
/// kernel. On AVX-512 only a dense convolution with a window larger than 1x1 may reorder its
/// tensors around each call: the kernel lets oneDNN choose there, and where oneDNN picks brgconv
/// in NHWC (AMD's AVX-512 cores), that is faster, reorders included, than the direct blocked
/// kernel. 1x1, grouped and depthwise convolutions take the blocked tensors as they are. (oneDNN's
/// AVX2 convolutions block by 8 channels, a layout the planner does not make yet, so there they
/// reorder the activations on each call.)
void ExpectNoSlowConvolution(const CompiledModel& m) {
  for (const NodePtr& node : m.graph->GetAllNodes()) {
    if (node->GetType() != "Conv2D") continue;
    std::string impl;
    AttrUtils::GetStr(node->GetOpDesc(), ge::kAttrKernelImpl, impl);
    EXPECT_FALSE(impl.empty()) << node->GetName();
    EXPECT_EQ(impl.find("ref"), std::string::npos) << node->GetName() << ": " << impl;
    const std::vector<int64_t> filter =
        node->GetOpDescBarePtr()->GetInputDesc(1).GetOriginShape().GetDims();
    int64_t groups = 1;
    AttrUtils::GetInt(node->GetOpDesc(), "group", groups);
    const bool dense_window = groups == 1 && filter.size() == 4 && filter[2] * filter[3] > 1;
    if (testing::HostHasAvx512() && !dense_window) {
      EXPECT_EQ(impl.find("reordered"), std::string::npos) << node->GetName() << ": " << impl;
    }
  }
}

// Squeeze-and-excite keeps the blocked layout: the global pool writes NC1HWC0 for the
// convolutions after it, and the product broadcasts a blocked [1, C1, 1, 1, 16] over the blocked
// activation. Fused (the Sigmoid into conv3) and unfused alike, only the graph's input and
// output convert.
TEST_F(LayoutTest, SqueezeAndExciteBlocksStayBlocked) {
  for (bool fused : {true, false}) {
    SCOPED_TRACE(fused ? "fused" : "unfused");
    std::map<std::string, std::string> options;
    if (!fused) options["openge.disablePasses"] = "Fusion";
    CompiledModel m = ExpectSameAsPlain(SqueezeExcite, {1, 32, 8, 8}, options);
    ASSERT_NE(m.graph, nullptr);
    ExpectNoSlowConvolution(m);
    if (!testing::HostHasAvx512()) continue;
    EXPECT_EQ(OutFormat(m, "gap"), FORMAT_NC1HWC0);
    EXPECT_EQ(InFormat(m, "scale", 0), FORMAT_NC1HWC0);
    EXPECT_EQ(InFormat(m, "scale", 1), FORMAT_NC1HWC0);
    EXPECT_EQ(OutFormat(m, "scale"), FORMAT_NC1HWC0);
    EXPECT_EQ(OutFormat(m, "conv2"), FORMAT_NC1HWC0);  // 8 channels, padded: on a 1x1 map
    EXPECT_EQ(CountType(m, "TransData"), 2) << TransDataNames(m);
  }
}

/// Two convolutions (32 and 16 channels) concatenated on the channels, a BatchNorm and a Relu,
/// then a convolution: DenseNet's pattern.
ComputeGraphPtr ConcatNorm(int64_t second_channels) {
  ProtoGraph b("concat");
  NodePtr x = b.Data("x", {1, 16, 6, 6});
  const int64_t c = 32 + second_channels;
  NodePtr wa =
      b.Const<float>("wa", DT_FLOAT, {32, 16, 3, 3}, Random(size_t{32} * 16 * 9, 31, -0.3F, 0.3F));
  NodePtr wb =
      b.Const<float>("wb", DT_FLOAT, {second_channels, 16, 3, 3},
                     Random(static_cast<size_t>(second_channels * 16 * 9), 32, -0.3F, 0.3F));
  NodePtr wc =
      b.Const<float>("wc", DT_FLOAT, {16, c, 1, 1}, Random(static_cast<size_t>(16 * c), 33));
  NodePtr a = b.Op("Conv2D", "a", {{x, 0}, {wa, 0}}, kConv3x3);
  NodePtr bb = b.Op("Conv2D", "b", {{x, 0}, {wb, 0}}, kConv3x3);
  NodePtr cat =
      b.Op("ConcatV2", "cat", {{a, 0}, {bb, 0}}, {{"axis", AttrValue(int64_t{1})}}, {{"x", 2}});
  auto param = [&](const char* name, uint32_t seed, float lo, float hi) {
    return b.Const<float>(name, DT_FLOAT, {c}, Random(static_cast<size_t>(c), seed, lo, hi));
  };
  NodePtr bn = b.Op("BatchNorm", "bn",
                    {{cat, 0},
                     {param("scale", 34, 0.5F, 1.5F), 0},
                     {param("offset", 35, -0.5F, 0.5F), 0},
                     {param("mean", 36, -0.5F, 0.5F), 0},
                     {param("var", 37, 0.5F, 2.0F), 0}});
  NodePtr relu = b.Op("Relu", "relu", {{bn, 0}});
  NodePtr conv = b.Op("Conv2D", "c", {{relu, 0}, {wc, 0}});
  b.Output({{conv, 0}});
  return b.graph();
}

// A channel Concat of whole 16-channel blocks, and the BatchNorm after it, run on NC1HWC0; with
// 20 channels in one input the Concat cannot (its blocks would interleave) and converts.
TEST_F(LayoutTest, ChannelConcatsAndBatchNormsStayBlocked) {
  CompiledModel m = ExpectSameAsPlain([] { return ConcatNorm(16); }, {1, 16, 6, 6});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(InFormat(m, "cat", 0), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(m, "cat"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(m, "bn"), FORMAT_NC1HWC0);
  EXPECT_EQ(CountType(m, "TransData"), 2) << TransDataNames(m);  // x in, c out
  CompiledModel odd = ExpectSameAsPlain([] { return ConcatNorm(20); }, {1, 16, 6, 6});
  ASSERT_NE(odd.graph, nullptr);
  EXPECT_NE(OutFormat(odd, "cat"), FORMAT_NC1HWC0);
}

/// x [1, 32, side, side] -> 3x3 convolution (32 -> 32) -> Relu -> 3x3 convolution -> y.
ComputeGraphPtr ThreeByThreeChain(int64_t side) {
  ProtoGraph b("three");
  NodePtr x = b.Data("x", {1, 32, side, side});
  NodePtr w1 =
      b.Const<float>("w1", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 51, -0.2F, 0.2F));
  NodePtr w2 =
      b.Const<float>("w2", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 52, -0.2F, 0.2F));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, kConv3x3);
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{relu, 0}, {w2, 0}}, kConv3x3);
  NodePtr relu2 = b.Op("Relu", "relu2", {{conv2, 0}});
  b.Output({{relu2, 0}});
  return b.graph();
}

// A blocked 3x3 stride-1 convolution on a 14x14 map or larger runs Winograd's algorithm (same
// numbers as the plain direct compile within float rounding); on a 7x7 map, with
// openge.cpuConvAlgorithm=direct, or in plain layouts it stays direct.
TEST_F(LayoutTest, ThreeByThreeConvolutionsRunWinogradWhereItPays) {
  auto winograd = [](const CompiledModel& m, const std::string& node) {
    std::string alg;
    AttrUtils::GetStr(m.graph->FindNode(node)->GetOpDesc(), "_conv_algorithm", alg);
    return alg == "winograd";
  };
  CompiledModel big = ExpectSameAsPlain([] { return ThreeByThreeChain(16); }, {1, 32, 16, 16});
  ASSERT_NE(big.graph, nullptr);
  // oneDNN has Winograd on AVX-512 only: elsewhere the planner never asks for it.
  EXPECT_EQ(winograd(big, "conv1"), testing::HostHasAvx512());
  EXPECT_EQ(Impl(big, "conv1").find("wino") != std::string::npos, testing::HostHasAvx512())
      << Impl(big, "conv1");
  CompiledModel small = ExpectSameAsPlain([] { return ThreeByThreeChain(7); }, {1, 32, 7, 7});
  ASSERT_NE(small.graph, nullptr);
  EXPECT_FALSE(winograd(small, "conv1"));
  auto direct =
      fusion_test::Compile(ThreeByThreeChain(16), {{"openge.cpuConvAlgorithm", "direct"}});
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  EXPECT_FALSE(winograd(*direct, "conv1"));
  EXPECT_EQ(Impl(*direct, "conv1").find("wino"), std::string::npos);
  auto bad = fusion_test::Compile(ThreeByThreeChain(16), {{"openge.cpuConvAlgorithm", "fast"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("expected 'auto' or 'direct'"), std::string::npos)
      << bad.status().message();
}

// A depthwise convolution with a channel multiplier of 2 (group 16, 16 -> 32 channels) gets only
// oneDNN's reference kernel in NC1HWC0 on this oneDNN: the planner reroutes it to NCHW, where a
// gemm-based kernel takes it, and records the choice.
TEST_F(LayoutTest, AReferenceImplementationIsReroutedToAnotherLayout) {
  auto make = [] {
    ProtoGraph b("multiplier");
    NodePtr x = b.Data("x", {1, 16, 16, 16});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {32, 1, 3, 3}, Random(288, 6));
    std::map<std::string, AttrValue> attrs = kConv3x3;
    attrs["group"] = AttrValue(int64_t{16});
    NodePtr conv = b.Op("Conv2D", "conv", {{x, 0}, {w, 0}}, attrs);
    NodePtr sig = b.Op("Sigmoid", "sig", {{conv, 0}});
    b.Output({{sig, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameAsPlain(make, {1, 16, 16, 16}, {{"openge.disablePasses", "Fusion"}});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_NE(OutFormat(m, "conv"), FORMAT_NC1HWC0);
  EXPECT_NE(InFormat(m, "conv"), FORMAT_NC1HWC0);
  const std::string impl = Impl(m, "conv");
  EXPECT_FALSE(impl.empty());
  EXPECT_EQ(impl.find("ref"), std::string::npos) << impl;
  EXPECT_EQ(CountType(m, "TransData"), 0);
}

// A first convolution on 3 channels reads NCHW (blocking 3 channels gains nothing) and writes
// NC1HWC0.
TEST_F(LayoutTest, AThreeChannelInputStaysPlain) {
  CompiledModel m = ExpectSameAsPlain([] { return ResidualChain(3); }, {1, 3, 10, 10});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_NE(InFormat(m, "conv1"), FORMAT_NC1HWC0);
  ExpectNoSlowConvolution(m);
  if (!testing::HostHasAvx512()) return;
  EXPECT_EQ(OutFormat(m, "conv1"), FORMAT_NC1HWC0);
  EXPECT_EQ(CountType(m, "TransData"), 1);
}

/// x [1, 3, 12, 12] -> conv1 (3 -> 16) -> relu -> pool (3x3/2) -> conv2 (16 -> 20) -> gap -> y;
/// `indices`: the MaxPool's indices are a second output.
ComputeGraphPtr PoolChain(bool indices) {
  ProtoGraph b("pool_chain");
  NodePtr x = b.Data("x", {1, 3, 12, 12});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {16, 3, 3, 3}, Random(size_t{16} * 27, 11));
  NodePtr w2 =
      b.Const<float>("w2", DT_FLOAT, {20, 16, 3, 3}, Random(size_t{20} * 144, 12, -0.3F, 0.3F));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, kConv3x3);
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr pool = b.Op("MaxPool", "pool", {{relu, 0}},
                      {{"kernel_shape", AttrValue(std::vector<int64_t>{3, 3})},
                       {"strides", AttrValue(std::vector<int64_t>{2, 2})},
                       {"pads", AttrValue(std::vector<int64_t>{1, 1, 1, 1})}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{pool, 0}, {w2, 0}}, kConv3x3);
  NodePtr gap = b.Op("GlobalAveragePool", "gap", {{conv2, 0}});
  if (indices) {
    b.Output({{gap, 0}, {pool, 1}});
  } else {
    b.Output({{gap, 0}});
  }
  return b.graph();
}

// Pooling between blocked convolutions reads NC1HWC0: MaxPool keeps it, the global pool writes
// NCHW (the graph's output), so the chain needs no TransData at all. MaxPool's indices (computed on
// NCHW only) keep it plain when something reads them.
TEST_F(LayoutTest, PoolingReadsBlockedTensors) {
  CompiledModel m = ExpectSameAsPlain([] { return PoolChain(false); }, {1, 3, 12, 12});
  ASSERT_NE(m.graph, nullptr);
  ExpectNoSlowConvolution(m);
  CompiledModel with_indices = ExpectSameAsPlain([] { return PoolChain(true); }, {1, 3, 12, 12});
  ASSERT_NE(with_indices.graph, nullptr);
  EXPECT_NE(InFormat(with_indices, "pool"), FORMAT_NC1HWC0);
  if (!testing::HostHasAvx512()) return;
  EXPECT_EQ(OutFormat(m, "conv1"), FORMAT_NC1HWC0);
  EXPECT_EQ(InFormat(m, "pool"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(m, "pool"), FORMAT_NC1HWC0);
  EXPECT_EQ(InFormat(m, "gap"), FORMAT_NC1HWC0);
  EXPECT_NE(OutFormat(m, "gap"), FORMAT_NC1HWC0);
  EXPECT_EQ(CountType(m, "TransData"), 0);
  EXPECT_EQ(CountType(with_indices, "TransData"), 2);  // out of conv1, into conv2
}

// A depthwise convolution between blocked tensors reads and writes them as they are: no
// reorder to another layout around each call (oneDNN, asked to choose, picks NHWC for it).
TEST_F(LayoutTest, ADepthwiseConvolutionRunsOnTheBlockedTensors) {
  auto make = [] {
    ProtoGraph b("depthwise");
    NodePtr x = b.Data("x", {1, 16, 14, 14});
    NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {32, 16, 1, 1}, Random(size_t{32} * 16, 13));
    NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {32, 1, 3, 3}, Random(size_t{32} * 9, 14));
    NodePtr w3 = b.Const<float>("w3", DT_FLOAT, {16, 32, 1, 1}, Random(size_t{16} * 32, 15));
    NodePtr expand = b.Op("Conv2D", "expand", {{x, 0}, {w1, 0}});
    std::map<std::string, AttrValue> dw = kConv3x3;
    dw["group"] = AttrValue(int64_t{32});
    NodePtr depthwise = b.Op("Conv2D", "depthwise", {{expand, 0}, {w2, 0}}, dw);
    NodePtr project = b.Op("Conv2D", "project", {{depthwise, 0}, {w3, 0}});
    NodePtr sig = b.Op("Sigmoid", "sig", {{project, 0}});
    b.Output({{sig, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameAsPlain(make, {1, 16, 14, 14});
  ASSERT_NE(m.graph, nullptr);
  ExpectNoSlowConvolution(m);
  if (!testing::HostHasAvx512()) return;
  EXPECT_EQ(InFormat(m, "depthwise"), FORMAT_NC1HWC0);
  EXPECT_EQ(OutFormat(m, "depthwise"), FORMAT_NC1HWC0);
  const std::string impl = Impl(m, "depthwise");
  EXPECT_FALSE(impl.empty());
  EXPECT_EQ(impl.find("reordered"), std::string::npos) << impl;
}

// Shapes known only at run time: the dynamic executor infers NCHW shapes, so nothing is blocked.
TEST_F(LayoutTest, RunTimeShapesKeepPlainLayouts) {
  auto m = Compile(ResidualChain(16, -1));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(CountType(*m, "TransData"), 0);
  EXPECT_NE(OutFormat(*m, "conv1"), FORMAT_NC1HWC0);
}

TEST_F(LayoutTest, TheOptionIsValidated) {
  auto bad = Compiler::Create(testing::TestOptions({{"openge.cpuLayout", "nhwc"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("expected 'blocked' or 'plain'"), std::string::npos)
      << bad.status().message();
}

// x -> TransData(NCHW -> NC1HWC0) -> TransData(NC1HWC0 -> NCHW) -> Relu: the pair cancels and
// goes; kept (pass disabled), the two conversions still give relu(x). 20 channels: padded.
TEST_F(LayoutTest, TransDataPairsThatCancelAreRemoved) {
  auto make = [] {
    ProtoGraph b("pair");
    NodePtr x = b.Data("x", {1, 20, 4, 4});
    NodePtr to = b.Op("TransData", "to_blocked", {{x, 0}},
                      {{"src_format", AttrValue(std::string("NCHW"))},
                       {"dst_format", AttrValue(std::string("NC1HWC0"))}});
    NodePtr back = b.Op("TransData", "to_plain", {{to, 0}},
                        {{"src_format", AttrValue(std::string("NC1HWC0"))},
                         {"dst_format", AttrValue(std::string("NCHW"))},
                         {"channels", AttrValue(int64_t{20})}});
    NodePtr relu = b.Op("Relu", "relu", {{back, 0}});
    b.Output({{relu, 0}});
    return b.graph();
  };
  const std::vector<float> x = Random(320, 9, -1.0F, 1.0F);
  std::vector<float> want(x);
  for (float& v : want) v = std::max(v, 0.0F);
  auto removed = Compile(make());
  ASSERT_TRUE(removed.ok()) << removed.status().message();
  EXPECT_EQ(CountType(*removed, "TransData"), 0);
  const PassReport* pass = removed->report.FindPass("place", "RemoveTransDataPairs");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->counters.at("removed TransData"), 2);
  auto kept = Compile(make(), {{"openge.disablePasses", "RemoveTransDataPairs"}});
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  EXPECT_EQ(CountType(*kept, "TransData"), 2);
  for (CompiledModel* m : {&*removed, &*kept}) {
    const auto out = fusion_test::Run(*m, {testing::MakeTensor(DT_FLOAT, {1, 20, 4, 4}, x)});
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(out[0], want);
  }
}

}  // namespace
}  // namespace ge
